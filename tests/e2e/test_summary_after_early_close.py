"""The summary of a batch whose results go to stdout (``simulate --output -``,
``solve --deals --output -``, ``solve --deals --format json``) when the reader closes
early (``| head -N``): it counts the deals whose results the reader got, not the one
whose result went into the closed pipe (``head -1`` of the CSV: the header only, so no
deal; it used to say ``deals 0: 1 game``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import ROOT

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def _head(args: list[str], lines: int) -> tuple[int, list[str], str]:
    """Run ``foursquare ARGS | head -LINES``: the command's status, the lines head got, its stderr."""
    process = subprocess.Popen(
        ["nice", "-n", "10", *COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV
    )
    assert process.stdout is not None and process.stderr is not None
    got = [process.stdout.readline().decode() for _ in range(lines)]
    process.stdout.close()  # the reader leaves, as head does
    err = process.stderr.read().decode()
    return process.wait(timeout=120), got, err


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
    # the deep bot takes a while per deal: the second row is written well after the reader left
    code, got, err = _head(["simulate", "--deals", "0-3", "--output", "-", "--format", fmt], 2)
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
