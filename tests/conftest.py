"""Shared by the whole test suite.

The tests mirror the package: one folder a layer (engine/, formats/, history/, bots/,
solver/, foundation/, app/, cli/: in-process through CliRunner), e2e/ for the real
program in real processes, project/ for checks of the repository.  Each folder is a
package (its ``__init__.py``), so that two test modules of one name do not clash.

The helpers that several modules use live in ``tests/helpers.py`` (paths, the
command line run in-process, the conformance games); this makes sure ``tests/``
is importable whichever ``--import-mode`` pytest runs with.

The exhaustive brute-force comparisons are marked ``@pytest.mark.slow`` (the
marker is registered in setup.cfg) and deselected by default; ``python -m pytest
-q -m slow`` runs them, ``-m ""`` runs everything, and ``.ci/run`` runs both steps.
"""

from __future__ import annotations

import atexit
import inspect
import os
import shutil
import signal
import sys
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = str(Path(__file__).parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


# The signal tests check what SIGHUP does to the program, which keeps a SIGHUP that its
# caller ignores (nohup: foursquare.cli.signals.catch_sigterm) ignored; a run of the tests
# under nohup would pass that on to every process the tests start.  The run, and so what
# it starts, takes SIGHUP's default action instead.
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
# So too Ctrl-C: a run started as a background job of a script (`pytest &`) ignores
# SIGINT, and so would every command it starts (the program keeps an ignored Ctrl-C
# ignored, as `foursquare ... &` should), so that no Ctrl-C test could stop one.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# A data folder for the whole run, set before any test module is imported: modules that
# copy os.environ at import (for their subprocesses) never point at the user's folder.
_RUN_HOME = tempfile.mkdtemp(prefix="foursquare-tests-home-")
os.environ["FOURSQUARE_HOME"] = _RUN_HOME
atexit.register(shutil.rmtree, _RUN_HOME, True)


@pytest.fixture(autouse=True)
def _data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own data folder (FOURSQUARE_HOME): the game history and the
    prompt's line history of a test never touch the user's, nor another test's."""
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path_factory.mktemp("home")))


# Names whose use in a test (its own code, the functions and classes of tests/ it
# calls, its fixtures) means that it starts real processes: those tests get the
# ``subprocess`` marker (registered in setup.cfg), so that ``-m "not subprocess"`` runs
# the in-process tests alone (the version matrix's cells, noxfile.py).  A process started
# by the code under test (``--jobs 2``) does not count: the test itself runs in-process.
_SPAWNING_NAMES = frozenset({"subprocess", "Popen", "pty", "forkpty", "fork", "multiprocessing", "executable", "LocalCluster"})


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and the code of the functions, lambdas and comprehensions inside it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _spawns(func: object, seen: set[object]) -> bool:
    """Whether ``func`` (a function of tests/, or a class: its methods) uses a spawning
    name, itself or through a function or class of tests/ that it names."""
    func = getattr(inspect.unwrap(func), "__func__", func)
    if func in seen:
        return False
    seen.add(func)
    if isinstance(func, type):
        return any(_spawns(member, seen) for member in vars(func).values() if isinstance(member, types.FunctionType))
    if not isinstance(func, types.FunctionType) or not func.__code__.co_filename.startswith(TESTS + os.sep):
        return False
    names = {name for code in _codes(func.__code__) for name in code.co_names}
    if names & _SPAWNING_NAMES:
        return True
    return any(_spawns(func.__globals__[name], seen) for name in names if callable(func.__globals__.get(name)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``subprocess`` every test that starts a process, itself or in a fixture."""
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        seen: set[object] = set()
        fixtures = [d.func for defs in item._fixtureinfo.name2fixturedefs.values() for d in defs]
        if any(_spawns(func, seen) for func in [item.obj, *fixtures]):
            item.add_marker(pytest.mark.subprocess)
