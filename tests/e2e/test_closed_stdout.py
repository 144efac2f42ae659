"""A standard output closed before the command starts (``foursquare ... >&-``): the
output cannot be written, so no command that has something to print claims success
(status 1, ``<stdout>: the standard output is closed``), as with a full disk; a reader
that closes early (``| head``) still ends quietly with status 0 (FORMATS.md)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, CliRunner

from foursquare.cli import boundary, main, streams

COMMAND = [sys.executable, "-m", "foursquare"]
CLOSED = "<stdout>: the standard output is closed"

#: one command of each kind that prints something on stdout
PRINTING = [
    (["validate", str(EXAMPLES / "won.yaml")], ""),
    (["state", str(EXAMPLES / "won.yaml")], ""),
    (["replay", str(EXAMPLES / "won.yaml")], ""),
    (["play", "--deal", "89"], (EXAMPLES / "deal89.moves").read_text()),
    (["rules"], ""),
    (["solve", "--deal", "89"], ""),
]


def _close_stdout() -> None:
    os.close(1)


def _run(args, script="", **kwargs):
    return subprocess.run(
        [*COMMAND, *args], input=script, stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT, **kwargs
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize("args, script", PRINTING, ids=lambda a: a[0] if isinstance(a, list) else "")
def test_a_closed_stdout_is_a_failure_not_a_success(args, script):
    done = _run(args, script, stdout=None, preexec_fn=_close_stdout)
    assert done.returncode == 1
    assert CLOSED in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize("args, script", PRINTING, ids=lambda a: a[0] if isinstance(a, list) else "")
def test_the_same_commands_succeed_into_an_open_stdout_and_fail_into_a_full_disk(args, script):
    # the closed stdout is told apart from both neighbours: a working one (0), /dev/full (1)
    assert _run(args, script, stdout=subprocess.DEVNULL).returncode == 0
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = _run(args, script, stdout=full)
        assert done.returncode == 1 and "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
def test_invalid_input_into_a_closed_stdout_still_reports_its_errors():
    done = _run(["validate", str(EXAMPLES / "invalid.yaml")], stdout=None, preexec_fn=_close_stdout)
    assert done.returncode == 1
    assert "invalid.yaml:13: game 2, move 2" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_a_reader_that_closes_early_still_ends_quietly():
    done = subprocess.run(
        f"{sys.executable} -m foursquare replay {EXAMPLES / 'won.yaml'} | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0
    assert done.stdout.count("\n") == 1
    assert done.stderr == ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
def test_an_output_file_written_before_the_closed_stdout_fails_is_complete(tmp_path):
    out = tmp_path / "deals.csv"
    done = _run(["solve", "--deals", "88-89", "--output", str(out)], stdout=None, preexec_fn=_close_stdout)
    assert done.returncode == 1 and CLOSED in done.stderr
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 2  # the header and one row per deal: the file is complete
    assert {row.split(",")[0] for row in rows[1:]} == {"88", "89"}


def _closed_stdout_guard() -> None:
    sys.stdout = None  # as Python leaves it when fd 1 was closed at the start
    streams.guard_stdout()


@pytest.mark.parametrize("args, script", PRINTING[:3] + PRINTING[4:5], ids=lambda a: a[0] if isinstance(a, list) else "")
def test_cli_runner_a_closed_stdout_fails_with_status_1(monkeypatch, args, script):
    monkeypatch.setattr(boundary, "guard_stdout", _closed_stdout_guard)
    result = CliRunner().invoke(main, args, input=script)
    assert result.exit_code == 1
    assert CLOSED in result.stderr
    assert not isinstance(result.exception, OSError) or isinstance(result.exception, SystemExit)


def test_writing_nothing_to_a_closed_stdout_is_no_error(monkeypatch):
    monkeypatch.setattr(sys, "stdout", None)
    streams.guard_stdout()
    guard = sys.stdout
    assert guard.write("") == 0
    guard.flush()
    with pytest.raises(OSError, match="the standard output is closed"):
        guard.write("x")
