"""The end of ``play --record FILE`` when FILE cannot be written (README): status 1, no
"The transcript is in" line and no command pointing to FILE; on stderr, where the copy
in the temporary folder is and, for a game not over, ``Continue it`` from that copy."""

from __future__ import annotations

import errno
import re
import subprocess
import sys
import tempfile

import pytest
from helpers import EXAMPLES, ROOT, CliRunner

from foursquare.app.session import Session
from foursquare.cli import main

WON = re.findall(r'cell: "(\w+)"', (EXAMPLES / "won.yaml").read_text())


def _failing_after(calls: int):
    """A :meth:`Session._write_recording` that writes ``calls`` times, then fails as a full disk."""
    real = Session._write_recording
    count = {"n": 0}

    def write(self, text):
        count["n"] += 1
        if count["n"] > calls:
            raise OSError(errno.ENOSPC, "No space left on device", self.record_path)
        return real(self, text)

    return write


def _check_end(stdout: str, stderr: str, record: str, over: bool) -> str:
    assert "Traceback" not in stderr
    assert "The transcript is in" not in stdout and "The state is in" not in stdout
    assert f"--resume {record}" not in stdout + stderr and f"replay {record}" not in stdout + stderr
    assert "Continue it" not in stdout  # the summary on stdout points to no recording
    assert f"{record}: the recording is NOT complete" in stderr
    joined = " ".join(stderr.split())  # commands may be folded to fit 40 columns
    found = re.search(r"The whole game is in (\S+) instead: foursquare replay (\S+)", joined)
    assert found and found.group(1) == found.group(2)
    copy = found.group(1)
    if over:
        assert "Continue it" not in stderr
    else:
        assert f"Continue it: foursquare play --resume {copy} --record {copy}" in joined
    return copy


@pytest.mark.parametrize("moves", [5, len(WON) - 1])
def test_cli_runner_the_end_continues_from_the_copy(tmp_path, monkeypatch, moves):
    record = str(tmp_path / "g.yaml")
    monkeypatch.setattr(Session, "_write_recording", _failing_after(2))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    script = "\n".join([*WON[:moves], "quit"]) + "\n"
    result = CliRunner().invoke(main, ["play", "--deal", "153", "--record", record, "--interactive", "--ascii"], input=script)
    assert result.exit_code == 1
    copy = _check_end(result.stdout, result.stderr, record, over=False)
    # the copy's command works: it continues the game from where it stopped
    monkeypatch.undo()
    again = CliRunner().invoke(main, ["play", "--resume", copy, "--record", copy, "--interactive", "--ascii"], input="quit\n")
    assert again.exit_code == 0, again.output
    assert f"Stopped after {moves} card" in again.stdout


def test_cli_runner_a_game_over_has_no_continue_line(tmp_path, monkeypatch):
    record = str(tmp_path / "g.yaml")
    monkeypatch.setattr(Session, "_write_recording", _failing_after(2))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["play", "--deal", "153", "--record", record, "--interactive", "--ascii"], input="\n".join(WON) + "\n")
    assert result.exit_code == 1
    _check_end(result.stdout, result.stderr, record, over=True)


def test_subprocess_exit_status_and_lines(tmp_path):
    record = str(tmp_path / "g.yaml")
    program = (
        "import errno, sys, tempfile\n"
        "from foursquare.app.session import Session\n"
        f"tempfile.tempdir = {str(tmp_path)!r}\n"
        "real = Session._write_recording\n"
        "calls = []\n"
        "def write(self, text):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 2:\n"
        "        raise OSError(errno.ENOSPC, 'No space left on device', self.record_path)\n"
        "    real(self, text)\n"
        "Session._write_recording = write\n"
        "from foursquare.__main__ import run\n"
        "sys.argv[0] = 'foursquare'\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "play", "--deal", "153", "--record", record, "--interactive", "--ascii"],
        input="\n".join([*WON[:5], "quit"]) + "\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 1
    _check_end(done.stdout, done.stderr, record, over=False)
