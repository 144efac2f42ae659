"""A sweep whose ``--output`` CSV cannot be written to the end (a full disk, a file
size limit): the run stops with one error naming the file, status 1, and its summary
counts the rows the file holds whole, never the one whose write failed (that row's
start is left as a last line without its line end, which ``--resume`` cuts and writes
again).  The disk is made full for real: ``/dev/full`` (every write fails with
ENOSPC) and RLIMIT_FSIZE with SIGXFSZ ignored (a write past the limit is cut there,
the next fails with EFBIG), in a child process and in-process."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys

import pytest
from app.test_resume import without_seconds
from helpers import ROOT, invoke

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file size limits")

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
SOLVE = ["solve", "--max-nodes", "200", "--deals", "0-59"]
SIMULATE = ["simulate", "--bot", "greedy", "--vs", "random", "--deals", "0-29"]


def _whole(tmp_path, args) -> bytes:
    """The CSV of an uninterrupted run of ``args``."""
    path = tmp_path / "whole.csv"
    result = invoke([*args, "--output", path])
    assert result.exit_code == 0, result.output
    return path.read_bytes()


def _limit(text: bytes, lines: int, extra: int) -> int:
    """The size of the first ``lines`` lines of ``text`` (the header counts), and ``extra`` bytes of the next."""
    return len(b"".join(text.splitlines(keepends=True)[:lines])) + extra


@contextlib.contextmanager
def _file_size_limit(size: int):
    """RLIMIT_FSIZE of this process set to ``size`` bytes, SIGXFSZ ignored (writes past it fail with EFBIG)."""
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, handler)


def _run_limited(args, size: int) -> subprocess.CompletedProcess[str]:
    """``foursquare ARGS`` as a child process whose files cannot grow past ``size`` bytes."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=ENV,
                          timeout=300, preexec_fn=limit)


# (lines kept whole, the header counted; bytes of the next line written): the limits, from the
# lines of an uninterrupted run (simulate's times vary in length: its cut lands near there)
SOLVE_CUTS = [(21, 7), (21, 0), (1, 3)]
SIMULATE_CUTS = [(21, 35), (22, 35), (22, 0), (1, 0)]


def _check_stopped(args, whole: bytes, path, status: int, output: str, size: int) -> int:
    """The run stopped at the limit: one error naming the file, the summary of the rows kept whole
    (with simulate, of the deals both of whose rows are whole); then ``--resume`` cuts the partial
    row and finishes the file of an uninterrupted run.  Returns the rows the file held whole."""
    asked = len(whole.splitlines()) - 1
    assert status == 1, output
    assert f"{path}: File too large" in output and "Traceback" not in output, output
    content = path.read_bytes()
    assert len(content) == size
    full = content[: content.rfind(b"\r\n") + 2]  # the lines written whole, then the start of the next one
    rows = max(0, full.count(b"\r\n") - 1)
    assert without_seconds(full.decode()) == without_seconds(whole.decode())[: rows + 1] if full else True
    kept, done = (rows, "deals done") if args[0] == "solve" else (rows - rows % 2, "games played")
    assert f"interrupted: {kept} of {asked} {done}" in output, output
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    if kept:
        assert f"{kept} of {asked}" in result.stderr
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())
    return rows


@pytest.mark.parametrize(("args", "cuts"), [(SOLVE, SOLVE_CUTS), (SIMULATE, SIMULATE_CUTS)], ids=["solve", "simulate"])
def test_as_a_real_process_the_summary_counts_the_rows_the_file_holds_when_a_write_fails(tmp_path, args, cuts):
    whole = _whole(tmp_path, args)
    held = set()
    for lines, extra in cuts:
        path = tmp_path / f"cut{lines}_{extra}.csv"
        size = _limit(whole, lines, extra)
        run = _run_limited([*args, "--output", path], size)
        held.add(_check_stopped(args, whole, path, run.returncode, run.stdout + run.stderr, size))
    if args[0] == "simulate":  # a deal cut after its first game's row, and one cut in its first row
        assert {rows % 2 for rows in held} == {0, 1}


@pytest.mark.parametrize(("args", "cuts"), [(SOLVE, SOLVE_CUTS[:1]), (SIMULATE, SIMULATE_CUTS[:2])], ids=["solve", "simulate"])
def test_the_summary_counts_the_rows_the_file_holds_when_a_write_fails(tmp_path, args, cuts):
    whole = _whole(tmp_path, args)
    for lines, extra in cuts:
        path = tmp_path / f"cut{lines}_{extra}.csv"
        size = _limit(whole, lines, extra)
        with _file_size_limit(size):
            result = invoke([*args, "--output", path])
        _check_stopped(args, whole, path, result.exit_code, result.output, size)


@pytest.mark.parametrize(("args", "cuts"), [(SOLVE, SOLVE_CUTS), (SIMULATE, SIMULATE_CUTS)], ids=["solve", "simulate"])
def test_a_resumed_run_that_fills_the_disk_counts_the_rows_the_file_holds(tmp_path, args, cuts):
    whole = _whole(tmp_path, args)
    path = tmp_path / "resumed.csv"
    path.write_bytes(whole[: _limit(whole, 11, 0)])  # the first deals, written by an earlier run
    size = _limit(whole, *cuts[0])
    run = _run_limited([*args, "--output", path, "--resume"], size)
    assert f"resuming {path}: 10 of" in run.stderr
    _check_stopped(args, whole, path, run.returncode, run.stdout + run.stderr, size)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [SOLVE, SIMULATE], ids=["solve", "simulate"])
def test_an_output_on_a_full_device_is_one_error_and_a_summary_of_nothing(args):
    run = subprocess.run([*COMMAND, *args, "--output", "/dev/full"], capture_output=True, text=True, cwd=ROOT,
                         env=ENV, timeout=300)
    assert run.returncode == 1, run.stderr
    assert "/dev/full: No space left on device" in run.stderr and "Traceback" not in run.stderr
    assert "interrupted: 0 of" in run.stdout + run.stderr
