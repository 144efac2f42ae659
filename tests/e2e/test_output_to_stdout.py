"""An output file that is standard output itself (``--output /dev/stdout``, or
``--output F`` while stdout is redirected to ``F``) is refused as ``-`` is where it
would mix with what goes to stdout: the CSV rows and the JSON lines, the ``-v``
lines or the summary, the recording and the game.  The same device and inode is
the test, so a hard link is caught too; ``/dev/null`` for both is harmless and passes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, invoke

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")

#: Every command that writes an --output (or --record) file besides its stdout, with
#: what else goes to stdout as the message names it.
WRITERS = [
    pytest.param(["solve", "--deals", "0-3", "--max-nodes", "2000", "--format", "json", "--output"], "--format json", id="solve-json"),
    pytest.param(["solve", "--deals", "0-3", "--max-nodes", "2000", "-v", "--output"], "-v", id="solve-v"),
    pytest.param(["solve", "--deals", "0-3", "--max-nodes", "2000", "--output"], "the summary", id="solve-text"),
    pytest.param(["simulate", "--bot", "greedy", "--deals", "0-1", "--output"], "the summary", id="simulate"),
    pytest.param(["simulate", "--bot", "greedy", "--deals", "0-1", "--format", "json", "--output"], "the summary", id="simulate-json"),
]


def run(args, stdout, stdin=subprocess.DEVNULL, cwd=ROOT):
    return subprocess.run([*COMMAND, *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120, cwd=cwd, env=ENV)


@pytest.mark.parametrize("args, also", WRITERS)
def test_an_output_file_that_stdout_is_redirected_to_is_refused(tmp_path, args, also):
    out = tmp_path / "out.csv"
    with out.open("w") as stdout:
        done = run([*args, str(out)], stdout)
    assert done.returncode == 2, done.stderr
    assert f"Error: --output {out} and {also} would both write to stdout: {out} is standard output" in done.stderr
    assert out.read_text() == ""  # nothing was run, nothing written
    if also == "the summary":  # where --output - is what was meant, the message says so
        assert "give --output - for the CSV alone on stdout" in done.stderr


@pytest.mark.parametrize("args, also", WRITERS)
def test_dev_stdout_on_a_pipe_is_refused(args, also):
    done = run([*args, "/dev/stdout"], subprocess.PIPE)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert f"--output /dev/stdout and {also} would both write to stdout" in done.stderr


def test_a_hard_link_to_the_file_stdout_writes_is_the_same_file(tmp_path):
    out, link = tmp_path / "out.csv", tmp_path / "link.csv"
    out.touch()
    os.link(out, link)
    with out.open("w") as stdout:
        done = run(["solve", "--deals", "0-1", "--output", str(link)], stdout)
    assert done.returncode == 2 and f"{link} is standard output" in done.stderr


def test_an_output_file_beside_stdout_and_dev_null_for_both_still_work(tmp_path):
    out, shown = tmp_path / "rows.csv", tmp_path / "summary.txt"
    with shown.open("w") as stdout:
        done = run(["solve", "--deals", "0-2", "--max-nodes", "2000", "--format", "json", "--output", str(out)], stdout)
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("deal,status,")
    lines = shown.read_text().splitlines()
    assert len(lines) == 4 and lines[-1].startswith('{"summary"') and all(line.startswith("{") for line in lines)
    with open(os.devnull, "w") as stdout:  # the same device, but nothing written there can mix
        done = run(["solve", "--deals", "0-2", "--max-nodes", "2000", "--format", "json", "--output", os.devnull], stdout)
    assert done.returncode == 0, done.stderr
    # --output - is still the way to have the CSV alone on stdout
    done = run(["solve", "--deals", "0-2", "--max-nodes", "2000", "--output", "-"], subprocess.PIPE)
    assert done.returncode == 0 and done.stdout.splitlines()[0].startswith("deal,status,") and "deals: 3" in done.stderr


def test_a_recording_into_stdout_is_refused(tmp_path):
    moves = (EXAMPLES / "deal89.moves").open()
    record = tmp_path / "game.yaml"
    with record.open("w") as stdout:
        done = run(["play", "--deal", "89", "--record", str(record)], stdout, stdin=moves)
    assert done.returncode == 2, done.stderr
    assert f"Invalid value for '--record': {record} is standard output, where the game is shown" in done.stderr
    assert record.read_text() == ""
    moves.seek(0)
    done = run(["play", "--deal", "89", "--record", "/dev/stdout"], subprocess.PIPE, stdin=moves)
    assert done.returncode == 2 and "/dev/stdout is standard output" in done.stderr and done.stdout == ""
    moves.close()


def test_a_pipe_named_through_dev_is_written_straight_rather_than_no_folder():
    # /dev/stderr on a pipe resolves to a name that is no file ("/proc/.../fd/pipe:[...]"):
    # it is the pipe, written straight (tests/e2e/test_special_targets.py), not "no such folder"
    done = run(["play", "--deal", "89", "--record", "/dev/stderr"], subprocess.PIPE, stdin=(EXAMPLES / "deal89.moves").open())
    assert done.returncode == 0 and done.stderr.startswith("foursquare: 1"), done.stderr


def _stdout_counts() -> bool:
    """Whether this process's stdout is a file the check counts (pytest captures it to a
    file; run with -s on a terminal it is the terminal; /dev/null is not counted)."""
    info = os.fstat(1)
    return not stat.S_ISCHR(info.st_mode) or os.isatty(1)


@pytest.mark.parametrize("args, also", WRITERS)
def test_in_process_dev_stdout_is_refused_before_any_work(args, also):
    if not _stdout_counts():
        pytest.skip("stdout is /dev/null here")
    result = invoke([*args, "/dev/stdout"])
    assert result.exit_code == 2
    assert f"--output /dev/stdout and {also} would both write to stdout" in result.stderr
    assert result.stdout == ""


# --- standard input named twice: '-' and /dev/stdin on a pipe -------------------------------


def _deck_text() -> str:
    from foursquare.engine.deal import deal_deck

    return " ".join(str(card) for card in deal_deck(89)) + "\n"


@pytest.mark.parametrize(
    "args, shown",
    [
        (["replay", "/dev/stdin", "--deck", "-"], "/dev/stdin and - both"),
        (["state", "-", "--deck", "/dev/stdin"], "- and /dev/stdin both"),
        (["replay", "/dev/stdin", "--deck", "/proc/self/fd/0"], "/dev/stdin and /proc/self/fd/0 both"),
    ],
)
def test_stdin_named_twice_through_dev_stdin_is_a_usage_error(args, shown):
    # the second reader of a pipe would find it drained: an empty move script, silently the start
    done = subprocess.run([*COMMAND, *args], input=_deck_text(), capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.endswith(f"Error: {shown} name standard input, which can be read only once\n")


def test_dev_stdin_once_or_on_a_regular_file_is_read_as_before(tmp_path):
    done = subprocess.run([*COMMAND, "replay", str(EXAMPLES / "deal89.moves"), "--deck", "/dev/stdin", "--final"],
                          input=_deck_text(), capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV)
    assert done.returncode == 0 and "Result: won, score 4" in done.stdout, done.stderr
    deck = tmp_path / "deck.txt"
    deck.write_text(_deck_text())
    with deck.open() as stdin:  # a file: each name reads it from its start, so both readers get it whole
        done = subprocess.run([*COMMAND, "state", "/dev/stdin", "--deck", "-"], stdin=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV)
    assert done.returncode == 1 and "a line of cards and no cell (is the file a deck?)" in done.stderr
