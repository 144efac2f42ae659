"""Shared by the whole test suite.

The helpers that several modules use live in ``tests/helpers.py`` (paths, the
command line run in-process, the conformance games); this makes sure ``tests/``
is importable whichever ``--import-mode`` pytest runs with.

The exhaustive brute-force comparisons are marked ``@pytest.mark.slow`` (the
marker is registered in setup.cfg) and deselected by default; ``python -m pytest
-q -m slow`` runs them, ``-m ""`` runs everything, and ``.ci/run`` runs both steps.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

TESTS = str(Path(__file__).parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


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
