"""The layers of docs/internals/architecture.md, read from the code itself: imports point one
way (counting imports inside functions), no import cycle,
and nothing below the command line imports Click or names a command-line option."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import ROOT

from foursquare.cli.boundary import CLI_ADVICE
from foursquare.errors import Advice, FoursquareError

PACKAGE = ROOT / "foursquare"

#: Each layer and the layers it may import (the foundation is errors, figures, parallel, cluster).
ALLOWED = {
    "foundation": {"foundation"},
    "engine": {"foundation", "engine"},
    "formats": {"foundation", "engine", "formats"},
    "history": {"foundation", "engine", "formats", "history"},
    "bots": {"foundation", "engine", "formats", "bots", "solver"},
    "solver": {"foundation", "engine", "formats", "solver"},
    "app": {"foundation", "engine", "formats", "history", "bots", "solver", "app"},
    "cli": {"foundation", "engine", "formats", "history", "bots", "solver", "app", "cli"},
    "top": {"foundation", "engine", "formats", "history", "bots", "solver", "app", "cli", "top"},
    # the Gymnasium environment, beside app/: nothing of the package imports it
    "gym": {"foundation", "engine", "formats", "bots", "solver", "gym"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("__init__", "__main__"):
        return "top"
    if parts[1] in ("errors", "figures", "parallel", "cluster"):
        return "foundation"
    return parts[1]


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` imports anywhere in its code."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # "from . import x" may name a module x
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        # the root package's __init__ (lazy names, __version__) runs before any of its modules
        found.update(name for name in names if name in MODULES and name not in (module, "foursquare"))
    return found


#: The file formats on the engine's objects (``Game.transcript()``, ``Game.from_state(text)``,
#: ...): imported inside those methods only, when one is called, so that the engine loads
#: no format, and imports no I/O, at module level.
LAZY = {"foursquare.engine.game": {"foursquare.formats.state", "foursquare.formats.transcript"}}


def _module_level_imports(module: str) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return {node.module or "" for node in tree.body if isinstance(node, ast.ImportFrom)}


GRAPH = {module: _imports(module) - LAZY.get(module, set()) for module in MODULES}


def test_the_file_formats_on_the_engine_load_only_when_used():
    for module, lazy in LAZY.items():
        assert lazy <= _imports(module)
        assert not {name.rsplit(".", 1)[-1] for name in lazy} & {name.rsplit(".", 1)[-1] for name in _module_level_imports(module)}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_own_layer_and_the_ones_below(module):
    layer = _layer(module)
    upward = sorted(m for m in GRAPH[module] if _layer(m) not in ALLOWED[layer])
    assert not upward, f"{module} ({layer}) imports {upward}"


def test_there_is_no_import_cycle():
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(GRAPH[module]):
            if other in _package_inits(module):
                continue  # a module's own package __init__ runs first anyway
            if state.get(other) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(other):] + [other]))
            if other not in state:
                visit(other)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)


def _package_inits(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


#: The prompt's own commands take options of their own (``state --full``): that is
#: the move-script syntax (formats/commands.py), not the command line's.
_PROMPT_SYNTAX = {"foursquare.formats.commands"}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) not in ("cli", "top") and m not in _PROMPT_SYNTAX))
def test_below_the_command_line_nothing_imports_click_or_names_an_option(module):
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    assert "click" not in {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "click" not in {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    messages = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]
    assert not [text for text in messages if _OPTION.search(text)]


#: The command line's modules that do not import Click: each is only about the
#: terminal (the grid drawn as text, the game said in sentences, the prompt's line editing
#: and Tab completion, the signals a terminal sends).  Everything else a program does is
#: in app/ or below.
_TERMINAL_ONLY = {"foursquare.cli.render", "foursquare.cli.words", "foursquare.cli.completion", "foursquare.cli.signals"}


def _imports_click(module: str) -> bool:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    return any(name.split(".")[0] == "click" for name in names)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _layer(m) == "cli"))
def test_every_module_of_the_command_line_imports_click_or_is_only_about_the_terminal(module):
    assert _imports_click(module) or module in _TERMINAL_ONLY, f"{module} has no Click in it: it belongs in app/ or below"


def test_the_command_line_words_every_piece_of_advice_with_its_options():
    assert set(CLI_ADVICE) == set(Advice)
    for advice in Advice:
        words = FoursquareError("x", advice=advice, games=2).text(CLI_ADVICE)
        assert advice.value not in words and "--" in words or "foursquare" in words
