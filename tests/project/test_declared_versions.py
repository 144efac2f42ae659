"""The versions setup.cfg declares are the versions the code can use: every Click and
PyYAML name a module of the package uses exists in the Click and PyYAML installed, every
module imports, and every command answers ``--help``.  Run at the floors (``nox -s
lowest``: constraints/lowest.txt) these tests fail when the code uses a name the floor
version lacks; the floors in constraints/lowest.txt are setup.cfg's."""

from __future__ import annotations

import ast
import configparser
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import click
import pytest
from helpers import ROOT, CliRunner, invoke

from foursquare.cli import main

PACKAGE = ROOT / "foursquare"
#: The libraries whose floors setup.cfg declares, by the name the code imports.
LIBRARIES = {"click": "click", "yaml": "PyYAML"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """The nodes under ``if TYPE_CHECKING:`` (names for the type checker, never run)."""
    hidden: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                hidden.update(ast.walk(child))
    return hidden


def _dotted(node: ast.AST) -> str | None:
    """``click.core.ParameterSource`` for that chain of attributes on a name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def library_names(path: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of each Click or PyYAML name the module at ``path`` uses at
    run time: ``import click`` then ``click.X.Y``, and ``from click.X import Y``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = _type_checking_only(tree)
    for node in ast.walk(tree):
        if node in hidden:
            continue
        if isinstance(node, ast.ImportFrom) and not node.level and node.module and node.module.split(".")[0] in LIBRARIES:
            yield from ((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Attribute):
            name = _dotted(node)
            if name and name.split(".")[0] in LIBRARIES:
                yield node.lineno, name


def library_keywords(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, dotted name, keyword) of each keyword argument the module at ``path`` passes
    to a Click or PyYAML callable named directly (``click.progressbar(..., hidden=...)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = _type_checking_only(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node not in hidden:
            name = _dotted(node.func)
            if name and name.split(".")[0] in LIBRARIES:
                yield from ((node.lineno, name, k.arg) for k in node.keywords if k.arg)


def _lookup(name: str) -> tuple[bool, object]:
    """(found, the object) for the dotted ``name`` (``click.shell_completion.CompletionItem``)
    in the library installed: the longest importable module, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False, None
            found = getattr(found, attribute)
        return True, found
    return False, None


def resolves(name: str) -> bool:
    """Whether the dotted ``name`` exists in the library installed."""
    return _lookup(name)[0]


def accepts(name: str, keyword: str) -> bool:
    """Whether the callable ``name`` of the library installed takes ``keyword`` (or any
    keyword, through ``**kwargs``, or has no signature to tell)."""
    found, function = _lookup(name)
    try:
        parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return found
    return any(p.name == keyword or p.kind is p.VAR_KEYWORD for p in parameters)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_click_and_yaml_name_a_module_uses_exists_in_the_versions_installed(module):
    missing = sorted({f"{MODULES[module].relative_to(ROOT)}:{line}: {name}" for line, name in library_names(MODULES[module]) if not resolves(name)})
    installed = ", ".join(f"{dist} {version(dist)}" for dist in LIBRARIES.values())
    assert not missing, f"not in {installed}: " + "; ".join(missing)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_keyword_a_module_passes_to_click_or_yaml_is_taken_by_the_versions_installed(module):
    path = MODULES[module]
    refused = sorted({f"{path.relative_to(ROOT)}:{line}: {name}({keyword}=...)" for line, name, keyword in library_keywords(path) if not accepts(name, keyword)})
    installed = ", ".join(f"{dist} {version(dist)}" for dist in LIBRARIES.values())
    assert not refused, f"not taken by {installed}: " + "; ".join(refused)


def test_the_name_check_finds_a_name_missing_and_skips_the_type_checkers(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "import click\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    X = click.NoSuchThing\n"
        "Y = click.core.ParameterSource.DEFAULT\nfrom click.shell_completion import CompletionItem\nZ = click.NotInClick\n",
        encoding="utf-8",
    )
    names = dict((name, line) for line, name in library_names(source))
    assert "click.NoSuchThing" not in names
    assert {n for n in names if not resolves(n)} == {"click.NotInClick"}
    assert resolves("click.shell_completion.CompletionItem") and resolves("click.core.ParameterSource.DEFAULT")


def test_the_keyword_check_finds_a_keyword_not_taken(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import click\nclick.progressbar([], label='x', no_such_keyword=True)\nclick.option('--x', anything=1)\n", encoding="utf-8")
    keywords = list(library_keywords(source))
    assert [(n, k) for _, n, k in keywords if not accepts(n, k)] == [("click.progressbar", "no_such_keyword")]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.endswith("__main__")))
def test_every_module_imports_with_the_versions_installed(module):
    if module == "foursquare.cluster":
        pytest.importorskip("distributed")
    if module.startswith("foursquare.gym"):
        pytest.importorskip("gymnasium", reason="foursquare.gym needs the gym extra: pip install -e '.[gym]'")
    importlib.import_module(module)


def _commands(group: click.Group, words: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, command in sorted(group.commands.items()):
        yield (*words, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*words, name))


@pytest.mark.parametrize("words", [(), *_commands(main)], ids=lambda words: " ".join(words) or "foursquare")
def test_every_command_answers_help_with_the_versions_installed(words):
    result = invoke([*words, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: "), result.output


def _release(text: str) -> tuple[int, ...]:
    """``8.1`` and ``8.1.0`` alike: (8, 1)."""
    numbers = [int(part) for part in text.split(".")]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def _requirements(lines: list[str], operator: str) -> dict[str, tuple[int, ...]]:
    found = {}
    for line in lines:
        match = re.fullmatch(rf"([A-Za-z0-9_.-]+){operator}([0-9.]+)", line.strip())
        assert match or not line.strip() or line.lstrip().startswith("#"), line
        if match:
            found[match[1]] = _release(match[2])
    return found


def test_constraints_lowest_pins_the_floors_of_setup_cfg():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    floors = _requirements(config["options"]["install_requires"].splitlines(), ">=")
    pins = _requirements((ROOT / "constraints" / "lowest.txt").read_text(encoding="utf-8").splitlines(), "==")
    assert pins == floors
    assert set(pins) == set(LIBRARIES.values())


@click.command()
def _writes_to_both_streams() -> None:
    click.echo("out 1")
    click.echo("err", err=True)
    click.echo("out 2")
    sys.stdout.close()  # as a command whose stdout is gone does: what it wrote is kept


def test_the_tests_runner_keeps_the_streams_apart_and_mixed_on_every_click():
    result = CliRunner().invoke(_writes_to_both_streams)
    assert result.exit_code == 0, result.output
    assert (result.stdout, result.stderr, result.output) == ("out 1\nout 2\n", "err\n", "out 1\nerr\nout 2\n")
