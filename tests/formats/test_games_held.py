"""Fault: an empty YAML document (a lone or trailing ``---``) was counted as a game by
``play --record FILE`` (``games_held``), while replay/state/validate skip it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CliRunner

from foursquare.cli import main
from foursquare.formats.loading import games_held
from foursquare.formats.transcript import read_transcripts

GAME = "foursquare: 1\ndeal: 1\nmoves: [d4]\n"


@pytest.mark.parametrize(
    "text",
    [GAME, GAME + "---\n", "---\n" + GAME + "---\n# nothing\n---\n", GAME + "...\n---\n...\n",
     GAME + "---\n" + GAME, "---\n" + GAME + "--- \n\n---\n" + GAME + "---\n"],
)
def test_games_held_counts_as_the_readers_do(text: str) -> None:
    assert games_held(text) == len(read_transcripts(text, "t.yaml"))


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n", "---\n---\n"])
def test_no_game_in_empty_documents(text: str) -> None:
    assert games_held(text) == 0


def test_resume_and_record_a_file_with_a_trailing_marker(tmp_path: Path) -> None:
    path = tmp_path / "rec.yaml"
    path.write_text(GAME + "---\n")
    result = CliRunner().invoke(main, ["play", "--resume", str(path), "--record", str(path)], input="e4\n")
    assert result.exit_code == 0, result.output
    assert "e4" in path.read_text()
    replay = CliRunner().invoke(main, ["replay", "--final", str(path)])
    assert replay.exit_code == 0 and "2 moves" in replay.output


def test_resume_and_record_subprocess(tmp_path: Path) -> None:
    path = tmp_path / "rec.yaml"
    path.write_text("---\n" + GAME + "---\n\n---\n")
    proc = subprocess.run(
        [sys.executable, "-m", "foursquare", "play", "--resume", str(path), "--record", str(path)],
        input="e4\n", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "holds" not in proc.stderr
    assert len(read_transcripts(path.read_text(), "rec.yaml")) == 1
