"""Every writer of a named output treats a target that is not a regular file the same
way: ``/dev/null``, a FIFO and ``/dev/stderr`` (a pipe here) are written straight,
once, with the whole text (no temporary file beside them, no refusal), as
``solve --output`` always did: ``play --record``, ``save`` and ``state FILE`` at the
prompt, ``history export FILE``, ``solve --deals --output`` and ``simulate --output``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from helpers import ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX devices and FIFOs")

COMMAND = [sys.executable, "-m", "foursquare"]


def _history(home) -> None:
    """A history holding one game, for ``history export``."""
    env = dict(os.environ, FOURSQUARE_HOME=str(home))
    subprocess.run([*COMMAND, "play", "--deal", "1", "--history"], input="d4\ne4\n", text=True, env=env, check=True, capture_output=True)


#: Each writer: (its arguments with {} for the target, the moves given on stdin, a
#: line that starts what it writes).
WRITERS = [
    pytest.param(["play", "--deal", "1", "--record", "{}"], "d4\ne4\n", "foursquare: 1", id="play-record"),
    pytest.param(["play", "--deal", "1", "--interactive", "--ascii"], "d4\nsave {}\n", "foursquare: 1", id="save"),
    pytest.param(["play", "--deal", "1", "--interactive", "--ascii"], "d4\nstate {}\n", "foursquare: 1", id="state"),
    pytest.param(["history", "export", "{}"], "", "foursquare: 1", id="history-export"),
    pytest.param(["solve", "--deals", "0-1", "--max-nodes", "200", "--output", "{}"], "", "deal,status", id="solve"),
    pytest.param(["simulate", "--bot", "greedy", "--deals", "0-1", "--output", "{}"], "", "bot,deal", id="simulate"),
]


def _run(args, moves, target, home, **kwargs):
    env = dict(os.environ, FOURSQUARE_HOME=str(home), PYTHONUNBUFFERED="1")
    args = [arg.replace("{}", target) for arg in args]
    return subprocess.run(
        [*COMMAND, *args], input=moves.replace("{}", target), text=True, env=env, cwd=ROOT, timeout=120, **kwargs
    )


@pytest.mark.parametrize("args, moves, start", WRITERS)
def test_dev_null_is_written_straight_by_every_writer(tmp_path, args, moves, start):
    _history(tmp_path)
    done = _run(args, moves, "/dev/null", tmp_path, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert "not a regular file" not in done.stderr


@pytest.mark.parametrize("args, moves, start", WRITERS)
def test_a_fifo_gets_one_whole_text_from_every_writer(tmp_path, args, moves, start):
    _history(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = _run(args, moves, str(fifo), tmp_path, capture_output=True)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert not reader.is_alive() and read[0].decode().startswith(start), read
    assert read[0].decode().count(start) == 1  # written once, however many moves
    assert sorted(os.listdir(tmp_path)) == ["fifo", "history.sqlite3"]  # no temporary file beside it


@pytest.mark.parametrize("args, moves, start", WRITERS)
def test_a_fifo_named_relative_to_the_current_folder_is_written_too(tmp_path, args, moves, start):
    _history(tmp_path)
    os.mkfifo(tmp_path / "fifo")
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append((tmp_path / "fifo").read_bytes()), daemon=True)
    reader.start()
    env = dict(os.environ, FOURSQUARE_HOME=str(tmp_path))
    args = [arg.replace("{}", "fifo") for arg in args]
    done = subprocess.run([*COMMAND, *args], input=moves.replace("{}", "fifo"), text=True, env=env, cwd=tmp_path,
                          timeout=120, capture_output=True)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert read and read[0].decode().startswith(start), read


@pytest.mark.parametrize("args, moves, start", WRITERS)
def test_dev_stderr_on_a_pipe_gets_the_text(tmp_path, args, moves, start):
    _history(tmp_path)
    done = _run(args, moves, "/dev/stderr", tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert done.returncode == 0, done.stderr
    assert start in done.stderr


@pytest.mark.parametrize("moves", ["d4\ne4\n", "d4\ne4\nquit\n"], ids=["ended", "quit"])
def test_the_closing_lines_never_point_to_a_target_that_is_not_a_regular_file(tmp_path, moves):
    done = _run(["play", "--deal", "1", "--record", "/dev/null"], moves, "/dev/null", tmp_path, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert "/dev/null" not in done.stdout
