"""A file a command writes is never one of the files it reads: ``play --deck D --record D``
(the same path, another path to it, a symbolic link) and ``solve``/``simulate --rules R
--output R`` are usage errors (status 2), refused before anything is written; ``play
--resume F --record F`` still continues a game in place."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT, CliRunner

from foursquare.cli import main

COMMAND = [sys.executable, "-m", "foursquare"]
DECK = "2D 3C 7D 7H 9H 9D 5H 3D TH 6S 9S AS 6C 3H 5C 8D 4D AH 5S 7C 6D AD TC 3S 8S 2S 2C AC 4S 8H 8C 9C 4C TS 4H 2H 7S 5D TD 6H\n"
RULES = "preset: standard\n"


def _names(tmp_path, kind: str) -> tuple[str, str]:
    """An input file and, for ``kind``, a name for the output that is the same file."""
    source = tmp_path / "input.txt"
    source.write_text(DECK)
    if kind == "same path":
        return str(source), str(source)
    if kind == "another path":
        (tmp_path / "sub").mkdir()
        return str(source), str(tmp_path / "sub" / ".." / "input.txt")
    link = tmp_path / "link.yaml"
    link.symlink_to(source)
    return str(source), str(link)


KINDS = ["same path", "another path", "symbolic link"]


@pytest.mark.parametrize("kind", KINDS)
def test_play_record_over_its_deck_is_refused_before_anything_is_written(tmp_path, kind):
    deck, record = _names(tmp_path, kind)
    result = CliRunner().invoke(main, ["play", "--deck", deck, "--record", record, "--force"], input="d4\nquit\n")
    assert result.exit_code == 2
    assert "--record" in result.stderr and "--deck" in result.stderr and "overwrite" in result.stderr
    assert (tmp_path / "input.txt").read_text() == DECK  # untouched


@pytest.mark.parametrize("args", [
    ["solve", "--deals", "0-1", "--output", "{out}", "--force", "--rules", "{src}"],
    ["simulate", "--bot", "greedy", "--deals", "0-1", "--output", "{out}", "--force", "--rules", "{src}"],
    ["play", "--deal", "1", "--rules", "{src}", "--record", "{out}", "--force"],
])
@pytest.mark.parametrize("kind", KINDS)
def test_an_output_over_a_rules_file_is_refused(tmp_path, kind, args):
    source, out = _names(tmp_path, kind)
    (tmp_path / "input.txt").write_text(RULES)
    result = CliRunner().invoke(main, [a.format(out=out, src=source) for a in args], input="quit\n")
    assert result.exit_code == 2, result.output
    assert "--rules" in result.stderr and "overwrite" in result.stderr
    assert (tmp_path / "input.txt").read_text() == RULES


def test_another_file_is_still_written(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK)
    record = tmp_path / "game.yaml"
    result = CliRunner().invoke(main, ["play", "--deck", str(deck), "--record", str(record)], input="d4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "d4" in record.read_text() and deck.read_text() == DECK


def test_resume_and_record_in_the_same_file_continue_in_place(tmp_path):
    game = tmp_path / "game.yaml"
    assert CliRunner().invoke(main, ["play", "--deal", "1", "--record", str(game)], input="d4\nquit\n").exit_code == 0
    result = CliRunner().invoke(main, ["play", "--resume", str(game), "--record", str(game)], input="c4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "c4" in game.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_subprocess_play_record_over_its_deck_by_a_link(tmp_path):
    deck, record = _names(tmp_path, "symbolic link")
    done = subprocess.run(
        [*COMMAND, "play", "--deck", deck, "--record", record, "--force"], input="d4\nquit\n",
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "overwrite that input" in done.stderr
    assert done.stdout == ""  # refused before the game starts
    assert (tmp_path / "input.txt").read_text() == DECK and os.path.islink(record)


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin")
def test_subprocess_play_record_over_its_move_script_on_stdin(tmp_path):
    script = tmp_path / "game.moves"
    script.write_text("d4\nc4\n")
    with open(script) as stdin:
        done = subprocess.run(
            [*COMMAND, "play", "--deal", "1", "--record", str(script), "--force"], stdin=stdin,
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the moves read from stdin" in done.stderr
    assert script.read_text() == "d4\nc4\n"
    # a script piped in (not the file) still plays and records
    done = subprocess.run(
        [*COMMAND, "play", "--deal", "1", "--record", str(script), "--force"], input="d4\n",
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "d4" in script.read_text() and "foursquare" in script.read_text()
