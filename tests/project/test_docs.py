"""The documentation site (docs/, issue 33): the command reference is generated from
the Click commands, so every command and option of ``foursquare --help`` is on a page;
the README stays short and starts with the two set-up commands."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys

import click
import pytest
from helpers import ROOT, commands

from foursquare.cli import main

DOCS = ROOT / "docs"
COMMAND_PAGES = DOCS / "reference" / "commands"


def test_every_command_has_a_reference_page_generated_from_the_command_itself():
    pages = {page.stem for page in COMMAND_PAGES.glob("*.md")} - {"index"}
    assert pages == set(commands())
    for name, command in commands().items():
        text = (COMMAND_PAGES / f"{name}.md").read_text(encoding="utf-8")
        target = re.search(r"\.\. click:: ([\w.]+):(\w+)", text)
        assert target is not None, name
        module, attribute = target.groups()
        assert getattr(importlib.import_module(module), attribute) is command, name
        assert f":prog: foursquare {name}" in text
    assert ".. click:: foursquare.cli:main" in (COMMAND_PAGES / "index.md").read_text(encoding="utf-8")


def _manpages():
    spec = importlib.util.spec_from_file_location("manpages", ROOT / "tools" / "manpages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["manpages"] = module
    spec.loader.exec_module(module)
    return module


MAN_SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"]


def test_a_man_page_for_the_program_and_for_each_command_with_the_usual_sections():
    # issue 42, item 14: man pages as man pages, written by tools/manpages.py from the commands
    pages = _manpages().pages("2026-01-01")
    assert set(pages) == {"foursquare.1"} | {f"foursquare-{name}.1" for name in commands()}
    for file_name, text in pages.items():
        headings = re.findall(r"^\.SH (.+)$", text, re.M)
        assert [h for h in headings if h in MAN_SECTIONS] == MAN_SECTIONS, file_name
        name_line = text.split(".SH NAME\n", 1)[1].split("\n", 1)[0]
        command, _, what = name_line.partition(" \\- ")
        assert command == file_name[:-2] and len(what.split()) >= 3, name_line
        assert "foursquare " not in what and "foursquare-" not in what, name_line  # says what it does
        for variable in ("FOURSQUARE_HOME", "NO_COLOR", "FOURSQUARE_PURE_PYTHON"):
            assert variable in text.split(".SH ENVIRONMENT", 1)[1], (file_name, variable)
        files = text.split(".SH FILES", 1)[1]
        assert "history.sqlite3" in files and "prompt-history" in files
        for web in ("{doc}", "http", ".md)", "the reference", "contract page", "this site"):
            assert web not in text.split(".SH DESCRIPTION", 1)[1].split(".SH OPTIONS", 1)[0], (file_name, web)
    for name, command in commands().items():
        text = pages[f"foursquare-{name}.1"]
        for flag in _options(command):
            assert flag.replace("-", "\\-") in text, (name, flag)


@pytest.mark.skipif(shutil.which("mandoc") is None, reason="needs mandoc (Debian: apt-get install mandoc)")
def test_the_man_pages_pass_mandoc_lint_above_style_level(tmp_path):
    assert _manpages().main([str(tmp_path)]) == 0
    done = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", *sorted(map(str, tmp_path.glob("*.1")))],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stdout + done.stderr


def _options(command: click.Command) -> list[str]:
    ctx = click.Context(command)
    shown = [param for param in command.get_params(ctx) if isinstance(param, click.Option) and not param.hidden]
    return [flag for param in shown if "--help" not in param.opts for flag in param.opts + param.secondary_opts]


@pytest.mark.skipif(importlib.util.find_spec("sphinx_click") is None, reason="needs the docs extra (pip install -e '.[docs]')")
def test_the_built_reference_holds_every_command_and_every_option(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-E", "-b", "text", str(DOCS), str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    group = (tmp_path / "reference" / "commands" / "index.txt").read_text(encoding="utf-8")
    for flag in _options(main):
        assert flag in group
    for name, command in commands().items():
        text = (tmp_path / "reference" / "commands" / f"{name}.txt").read_text(encoding="utf-8")
        assert f"foursquare {name}" in text
        subcommands = command.commands.values() if isinstance(command, click.Group) else []
        for one in [command, *subcommands]:
            for flag in _options(one):
                assert re.search(rf"(^|[\s,]){re.escape(flag)}\b", text, re.M), f"{name}: {flag}"


def test_the_readme_is_short():
    # (its first two code blocks, the set-up commands: test_examples.py)
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
