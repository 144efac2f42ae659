"""The documentation site (docs/, issue 33): the command reference is generated from
the Click commands, so every command and option of ``foursquare --help`` is on a page;
the README stays short and starts with the two set-up commands."""

from __future__ import annotations

import importlib.util
import re
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


def test_a_man_page_for_the_program_and_for_each_command():
    spec = importlib.util.spec_from_file_location("docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    names = {page[1] for page in conf.man_pages}
    assert names == {"foursquare"} | {f"foursquare-{name}" for name in commands()}


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
