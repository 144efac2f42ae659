"""The real program as a subprocess: pipes, a reader that closes early, closed
stdin, Ctrl-C at the prompt, exit codes.  A focused set (each run starts Python)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def run(*args, input=None, stdin=None, timeout=60):
    return subprocess.run(
        [*COMMAND, *args], input=input, stdin=stdin, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=ENV
    )


def test_a_whole_game_piped_into_play():
    done = run("play", "--deal", "89", input=(EXAMPLES / "deal89.moves").read_text())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Won, score 4.\n")
    assert done.stderr == ""


def test_an_illegal_move_exits_1_with_one_line():
    done = run("play", "--deal", "1", input="d4\n# fine so far\ng7\n")
    assert done.returncode == 1
    assert done.stderr == "<stdin>:3: g7 is not orthogonally adjacent to a pile\n"


def test_closed_stdin_ends_quietly():
    done = run("play", "--deal", "1", stdin=subprocess.DEVNULL)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.startswith("Stopped after 0 cards placed")


def test_usage_error_exits_2_and_version_and_help_work():
    assert run("play", "--deal", "x", stdin=subprocess.DEVNULL).returncode == 2
    version = run("--version")
    assert version.returncode == 0 and "foursquare" in version.stdout
    helped = run("--help")
    assert all(name in helped.stdout for name in ("play", "replay", "state", "validate"))


@pytest.mark.parametrize(
    "args",
    [
        ["replay", str(EXAMPLES / "lost.yaml")],
        # more output than a pipe holds (64 KiB), so the writer surely meets the closed pipe
        ["validate", "--format", "json", *[str(EXAMPLES / "won.yaml")] * 800],
    ],
)
def test_a_reader_that_closes_early_ends_quietly(args):
    process = subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    stderr = process.stderr.read().decode()
    code = process.wait(timeout=60)
    assert first.strip()
    assert stderr == ""
    assert code == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_keeps_the_recording(tmp_path):
    record = tmp_path / "game.yaml"
    process = subprocess.Popen(
        [*COMMAND, "play", "--interactive", "--deal", "1", "--record", str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    process.stdin.write(b"d4\ne4\n")
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until both moves are recorded
        if record.exists() and record.read_text().count("cell:") == 2:
            break
        time.sleep(0.05)
    time.sleep(0.2)  # at the prompt again
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert b"Traceback" not in err and b"Traceback" not in out
    assert b"Stopped after 2 cards placed" in out
    check = run("validate", str(record))
    assert check.returncode == 0, check.stderr
