"""An input file that cannot be read (permission denied) is one ``FILE: permission
denied`` error, status 1, in every command that reads files; ``validate`` still
checks and reports the other files (issue 16, item 4).

The tests run as root here, and root reads a file of mode 0000: then the command
runs as the unprivileged user ``nobody`` (real and effective ids; the saved id
lets the test become root again), with the files in a folder that user may
enter.  Without root and without a working mode 0000, the tests are skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, invoke

NOBODY = 65534


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder every user may enter and read, holding a valid transcript, a move script,
    a deck file and a rules file, each readable by all, and ``locked.yaml`` (mode 0000)."""
    path = Path(tempfile.mkdtemp(prefix="fsq-unreadable-"))
    try:
        path.chmod(0o755)
        shutil.copy(EXAMPLES / "won.yaml", path / "won.yaml")
        shutil.copy(EXAMPLES / "won.yaml", path / "locked.yaml")
        for name in ("won.yaml", "locked.yaml"):
            (path / name).chmod(0o644)
        (path / "locked.yaml").chmod(0o000)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def unprivileged(locked: Path) -> Iterator[None]:
    """Run the body as a user for whom ``locked`` (mode 0000) cannot be opened; skip when
    there is no such user."""
    if os.geteuid() != 0:
        if os.access(locked, os.R_OK):
            pytest.skip("a file of mode 0000 is readable here")
        yield
        return
    if not hasattr(os, "setresuid"):
        pytest.skip("cannot change the user id here")
    os.setresgid(NOBODY, NOBODY, 0)
    os.setresuid(NOBODY, NOBODY, 0)
    try:
        try:
            open(locked, "rb").close()
        except PermissionError:
            pass
        else:
            pytest.skip("the unprivileged user can read a file of mode 0000")
        yield
    finally:
        os.setresuid(0, 0, 0)
        os.setresgid(0, 0, 0)


def run_locked(folder: Path, args: list[str]) -> tuple[int, str, str]:
    """Run ``foursquare ARGS`` (``LOCKED`` stands for the unreadable file) in-process,
    once as the current user on a readable copy (so that every module is imported),
    then as the unprivileged user: ``(status, stdout, stderr)``."""
    locked = folder / "locked.yaml"
    readable = [str(folder / "won.yaml") if a == "LOCKED" else a for a in args]
    invoke(readable, catch_exceptions=True)
    with unprivileged(locked):
        result = invoke([str(locked) if a == "LOCKED" else a for a in args])
    return result.exit_code, result.stdout, result.stderr


COMMANDS = [
    ["replay", "LOCKED"],
    ["state", "LOCKED"],
    ["replay", "--deal", "1", "--rules", "LOCKED", str(EXAMPLES / "deal89.moves")],
    ["solve", "--deck", "LOCKED"],
    ["play", "--resume", "LOCKED"],
    ["play", "--deck", "LOCKED"],
    ["rules", "LOCKED"],
    ["hint", "LOCKED"],
    ["analyze", "--max-nodes", "100", "--no-bot", "LOCKED"],
    ["validate", "LOCKED"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(x for x in a if "/" not in x))
def test_every_reader_says_permission_denied(folder: Path, args: list[str]) -> None:
    status, _, stderr = run_locked(folder, args)
    assert status == 1, stderr
    assert stderr.strip().splitlines()[-1] == f"{folder / 'locked.yaml'}: permission denied"
    assert "Errno" not in stderr and "Usage:" not in stderr and "Traceback" not in stderr


def test_validate_checks_the_other_files(folder: Path) -> None:
    won = str(folder / "won.yaml")
    status, stdout, stderr = run_locked(folder, ["validate", won, "LOCKED", won])
    locked = str(folder / "locked.yaml")
    assert status == 1
    assert stderr.strip().splitlines() == [f"{locked}: permission denied"]
    lines = stdout.splitlines()
    assert lines[0] == f"{won}: 1 game, all valid" and lines[2] == lines[0]
    # the reason is said once, on stderr (above); the summary line points to it
    assert lines[1] == f"{locked}: invalid, not checked game by game (see the error above)"
    status, stdout, _ = run_locked(folder, ["validate", "--format", "json", won, "LOCKED", won])
    results = json.loads(stdout)
    assert status == 1 and [r["valid"] for r in results] == [True, False, True]
    assert results[1]["file"] == locked and results[1]["game"] is None
    assert results[1]["errors"][0]["message"] == "permission denied"


def test_validate_subprocess(folder: Path) -> None:
    """The same through a real process: the user is changed after the imports (the
    interpreter may live where the unprivileged user cannot go)."""
    locked = folder / "locked.yaml"
    if os.geteuid() != 0 and os.access(locked, os.R_OK):
        pytest.skip("a file of mode 0000 is readable here")
    code = (
        "import os, pkgutil, importlib, importlib.util, json, sys, foursquare\n"
        "for m in pkgutil.walk_packages(foursquare.__path__, 'foursquare.'):\n"
        "    if not m.name.startswith('foursquare.gym') or importlib.util.find_spec('gymnasium'):\n"
        "        importlib.import_module(m.name)  # (the gym extra's package needs Gymnasium)\n"
        "from foursquare.cli import main\n"
        f"if os.geteuid() == 0: os.setgid({NOBODY}); os.setuid({NOBODY})\n"
        "main(sys.argv[1:], prog_name='foursquare')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, "validate", "--format", "json", "won.yaml", "locked.yaml"],
        cwd=folder, capture_output=True, env=env, timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == b"locked.yaml: permission denied\n"
    results = json.loads(done.stdout)
    assert [(r["file"], r["valid"]) for r in results] == [("won.yaml", True), ("locked.yaml", False)]


# (a --rules value that names no existing file may be a mistyped preset: a usage error, as for a missing file)
@pytest.mark.parametrize(
    "args", [a for a in COMMANDS if a[0] != "rules" and "--rules" not in a], ids=lambda a: " ".join(x for x in a if "/" not in x)
)
def test_a_path_through_a_file_is_one_error(folder: Path, args: list[str]) -> None:
    """Another OS error that stops even root (``won.yaml/x``: not a directory): in words, status 1."""
    bad = str(folder / "won.yaml" / "x")
    result = invoke([bad if a == "LOCKED" else a for a in args])
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines()[-1] == f"{bad}: cannot read: Not a directory"
