"""The summary of a batch whose results go to stdout (``simulate --output -``,
``solve --deals --output -``, ``solve --deals --format json``) when the reader closes
early (``| head -N``): it counts the deals whose results the reader got, not the one
whose result went into the closed pipe (``head -1`` of the CSV: the header only, so no
deal; it used to say ``deals 0: 1 game``)."""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import subprocess
import sys

import pytest
from helpers import ROOT

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
#: Linux has pipes of one write (``O_DIRECT`` packet mode, ``F_SETPIPE_SZ``): see :func:`_head`.
LINUX_PIPES = sys.platform.startswith("linux")


def _head(args: list[str], lines: int) -> tuple[int, list[str], str]:
    """Run ``foursquare ARGS | head -LINES``: the command's status, the lines head got, its stderr.

    The reader leaves at a moment fixed by construction, not by the command's speed:
    stdout is a pipe in packet mode with room for one write (Linux: ``O_DIRECT``, one
    page), so the command's next row waits in ``write`` until the last line this reader
    takes is read.  Before reading that line the reader stops the command (SIGSTOP,
    and waits until it is stopped), reads it, closes the pipe and lets the command go
    on (SIGCONT): the next row goes into a pipe whose reader is gone.  Elsewhere the
    reader reads its lines and closes the pipe, as before (a race the command's slow
    rows win: :data:`QUICK` is empty there)."""
    if not LINUX_PIPES:
        return _head_by_readline(args, lines)
    read, write = os.pipe2(os.O_DIRECT)
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    try:
        process = subprocess.Popen(["nice", "-n", "10", *COMMAND, *args], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    finally:
        os.close(write)
    assert process.stderr is not None
    try:
        data = b""
        while data.count(b"\n") < lines - 1:
            data += os.read(read, 65536)  # one write of the command's (one row)
        select.select([read], [], [])  # the last line is written, the next one cannot be yet
        process.send_signal(signal.SIGSTOP)
        os.waitpid(process.pid, os.WUNTRACED)
        data += os.read(read, 65536)
    finally:
        os.close(read)  # the reader leaves, as head does
        process.send_signal(signal.SIGCONT)
    err = process.stderr.read().decode()
    return process.wait(timeout=120), data.decode().splitlines(keepends=True), err


def _head_by_readline(args: list[str], lines: int) -> tuple[int, list[str], str]:
    """:func:`_head` where pipes of one write are missing: read the lines, then close."""
    process = subprocess.Popen(
        ["nice", "-n", "10", *COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV
    )
    assert process.stdout is not None and process.stderr is not None
    got = [process.stdout.readline().decode() for _ in range(lines)]
    process.stdout.close()  # the reader leaves, as head does
    err = process.stderr.read().decode()
    return process.wait(timeout=120), got, err


#: The deep bot's work per deal: small where the reader leaves by construction (its speed
#: does not matter there); its default elsewhere, so that its next row comes well after.
QUICK = ["--nodes", "2000"] if LINUX_PIPES else []

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")


def _into_a_gone_reader(args: list[str]) -> tuple[int, str]:
    """Run the command with stdout a pipe whose reader is already gone (``| head -0``): its status and stderr."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(["nice", "-n", "10", *COMMAND, *args], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, timeout=120)
    finally:
        os.close(write)
    return done.returncode, done.stderr.decode()


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_simulate_counts_only_the_rows_read(fmt):
    # the second row is written after the reader left (on Linux by construction: see _head)
    code, got, err = _head(["simulate", "--deals", "0-3", *QUICK, "--output", "-", "--format", fmt], 2)
    assert code == 0 and "Traceback" not in err
    assert got[0].startswith("bot,deal,") and got[1].startswith("deep,0,")
    read = len(got) - 1  # the rows the reader got (the header aside)
    if fmt == "json":
        summary = json.loads(err)
        assert summary["interrupted"]["games_played"] == read
        assert summary["games"] == read and summary["deals"] == "0"
    else:
        assert f"interrupted: {read} of 4 games played" in err
        if fmt == "text":
            assert "deep on deals 0: 1 game\n" in err


@pytest.mark.parametrize("vs", [[], ["--vs", "random"]])
def test_simulate_into_a_gone_reader_plays_no_deal(vs):
    code, err = _into_a_gone_reader(["simulate", "--bot", "greedy", *vs, "--deals", "0-3", "--output", "-"])
    assert code == 0
    assert err == f"interrupted: 0 of {4 * (1 + len(vs) // 2)} games played\n"  # no "on deals 0": no row was read


def test_solve_into_a_gone_reader_solves_no_deal():
    code, err = _into_a_gone_reader(["solve", "--deals", "0-9", "--output", "-"])
    assert code == 0 and "Traceback" not in err
    assert err.startswith("interrupted: 0 of 10 deals done")
    assert "deals: 1" not in err


def test_solve_json_lines_into_a_gone_reader_end_quietly():
    code, err = _into_a_gone_reader(["solve", "--deals", "0-9", "--format", "json"])
    assert code == 0 and err == ""
