"""The library's loading of game files (formats/loading.py): the agreement checks
without the command line, in the package's own errors and words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CliRunner

from foursquare import Game, get_rules
from foursquare.cli import main
from foursquare.errors import Advice, AgreementError, FormatError
from foursquare.formats.commands import COMMAND_NAMES, TABLE, CommandKind, spec
from foursquare.formats.loading import games_held, load_game_file, load_game_text
from foursquare.formats.transcript import iter_transcripts, transcript_text


def _transcript(deal: int = 7, moves: int = 3) -> str:
    game = Game.from_deal(deal)
    for _ in range(moves):
        game.play(game.legal_cells()[0])
    return transcript_text(game)


def test_a_file_loads_with_what_it_does_not_name():
    game = load_game_text("d4\n", "m.txt", deal=5)
    assert game.deal == 5 and len(game.moves) == 1


def test_a_deal_that_disagrees_is_an_agreement_error_that_names_no_option():
    with pytest.raises(AgreementError) as caught:
        load_game_text(_transcript(7), "t.yaml", deal=5)
    error = caught.value
    assert error.facts == {"source": "t.yaml", "given": "deal", "own": "names deal 7", "value": 5}
    assert str(error) == "t.yaml names deal 7; the deal given (5) disagrees"
    assert "--" not in str(error)
    assert isinstance(error, ValueError)


def test_equal_values_agree_and_other_rules_do_not():
    assert load_game_text(_transcript(7), "t.yaml", deal=7, rules=get_rules("standard")).deal == 7
    with pytest.raises(AgreementError, match="plays the standard rules; the rules given"):
        load_game_text(_transcript(7), "t.yaml", rules=get_rules("fixed-board"))


def test_a_game_number_for_a_move_script_or_past_the_last_game():
    with pytest.raises(AgreementError) as caught:
        load_game_text("d4\n", "m.txt", deal=1, game_number=2)
    assert caught.value.facts["given"] == "game" and "--" not in str(caught.value)
    two = _transcript(7) + "---\n" + _transcript(8)
    with pytest.raises(FormatError) as choice:
        load_game_text(two, "two.yaml")
    assert choice.value.facts == {"games": 2, "number": None} and choice.value.advice is Advice.PICK_GAME
    assert "--" not in str(choice.value)
    assert load_game_text(two, "two.yaml", game_number=2).deal == 8
    with pytest.raises(FormatError, match="game 3: the file holds only 2 games"):
        load_game_text(two, "two.yaml", game_number=3)


@pytest.mark.parametrize("text, what", [("", "is empty"), ("# only\n\n", "holds only comments")])
def test_a_file_without_moves(text, what):
    with pytest.raises(FormatError) as caught:
        load_game_text(text, "e.txt")
    assert f"the file {what}" in str(caught.value) and caught.value.advice is Advice.START_OF_DEAL
    assert "--" not in str(caught.value)
    assert load_game_text(text, "e.txt", deal=3).placed == 0
    with pytest.raises(FormatError, match="there is no game in it"):
        load_game_text(text, "e.txt", deal=3, empty_ok=False)


def test_load_game_file_reads_the_file(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(_transcript(9))
    assert load_game_file(str(path)).deal == 9


def test_the_command_table_gives_every_reader_the_same_vocabulary():
    assert COMMAND_NAMES == tuple(c.name for c in TABLE if c.kind is not CommandKind.FORCED)
    assert [c.usage.split()[0] for c in TABLE if c.usage is not None] == list(COMMAND_NAMES)
    assert spec("Q").name == spec("exit").name == "quit" and spec("nope") is None
    assert {c.name for c in TABLE if c.kind is CommandKind.GAME} == {"undo", "redo"}


# ----------------------------------------------------------------------------
# Fault: an empty YAML document (a lone or trailing ``---``) was counted as a game by
# ``play --record FILE`` (``games_held``), while replay/state/validate skip it.


GAME = "foursquare: 1\ndeal: 1\nmoves: [d4]\n"


@pytest.mark.parametrize(
    "text",
    [GAME, GAME + "---\n", "---\n" + GAME + "---\n# nothing\n---\n", GAME + "...\n---\n...\n",
     GAME + "---\n" + GAME, "---\n" + GAME + "--- \n\n---\n" + GAME + "---\n"],
)
def test_games_held_counts_as_the_readers_do(text: str) -> None:
    assert games_held(text) == len(list(iter_transcripts(text, "t.yaml")))


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
    assert len(list(iter_transcripts(path.read_text(), "rec.yaml"))) == 1
