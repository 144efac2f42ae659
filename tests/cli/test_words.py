"""The words mode (issue 44; foursquare.cli.words): a whole game in sentences at the prompt
and in replay, checked against golden files; no line holds a symbol a screen reader reads
badly; look, look CELL, cells and help; the setting kept in the data folder."""

from __future__ import annotations

import os
import re
import sys

import pytest
import yaml
from helpers import DATA, EXAMPLES, conformance_record, invoke

GOLDEN = DATA / "golden"
#: What a screen reader reads badly: ``#``, ``*``, ``+``, ``:``, suit symbols, box drawing.
BAD = re.compile("[#*+:\u2660-\u2667\u2500-\u257f]")
#: The moves of examples/won.yaml (deal 153, won in 32 moves).
WON = [str(move["cell"] if isinstance(move, dict) else move).split()[-1] for move in yaml.safe_load(
    (EXAMPLES / "won.yaml").read_text(encoding="utf-8"))["moves"]]
#: The commands asked along the way at the prompt, after the move of each index.
ASKED = {0: ["help", "look", "cells"], 5: ["look d4", "look g7", "look z9", "moves", "undo", "redo"], 11: ["reveal", "show"]}


def prompt_lines() -> list[str]:
    return [*ASKED[0], *(line for i, cell in enumerate(WON, 1) for line in [cell, *ASKED.get(i, [])])]


def spoken(lines: str) -> None:
    for line in lines.splitlines():
        assert not BAD.search(line), line


def golden(name: str, text: str) -> None:
    assert text == (GOLDEN / name).read_text(encoding="utf-8")


def test_a_whole_game_at_the_prompt_in_words():
    done = invoke(["play", "--deal", 153, "--interactive", "--no-history", "--words"], input="\n".join(prompt_lines()) + "\n")
    assert done.exit_code == 0, done.output
    spoken(done.stdout)
    golden("words_won_prompt.txt", done.stdout)


def test_a_whole_game_replayed_in_words():
    done = invoke(["replay", EXAMPLES / "won.yaml", "--words"])
    assert done.exit_code == 0, done.output
    spoken(done.stdout)
    golden("words_won_replay.txt", done.stdout)
    final = invoke(["replay", EXAMPLES / "won.yaml", "--words", "--final"]).stdout
    assert final.splitlines()[-2:] == ["Stock 8. 0 face down of 4.", "You won, score 8."]
    assert invoke(["replay", EXAMPLES / "won.yaml", "--words", "--format", "yaml"]).exit_code == 2


def test_a_lost_game_in_words(tmp_path):
    moves = tmp_path / "lost.txt"
    moves.write_text("\n".join(conformance_record(21)["moves"]) + "\n", encoding="utf-8")
    said = invoke(["replay", moves, "--deal", 21, "--words"]).stdout
    spoken(said)
    assert said.splitlines()[-1].endswith("f4, f5, d7, e7 and g7 turned down. 5 face down. You lost, too many face down.")


def test_look_cells_and_help_in_words():
    lines = ["help", "g7", "cells", "look", "look G7", "look d4", "look h9", "reveal", "look"]
    said = invoke(["play", "--deal", 153, "--interactive", "--no-history", "--words"], input="\n".join(lines) + "\n").stdout
    spoken(said)
    for line in ["look, every pile. look d4, one pile. cells, where the card may go.", "undo, take back the last move (as often as you like).",
                 "The card may go to g6, f7 or g7.", "g7, an eight, face up, 1 card.", "d4, empty.",
                 "h9 is no cell. A cell is a column letter and a row number, like d4.", "look names face-down cards.",
                 "Stock 39. 0 face down of 4."]:
        assert line in said.replace("> ", ">\n").splitlines(), line


def test_hint_in_words():
    said = invoke(["play", "--deal", 153, "--interactive", "--no-history", "--words"], input="hint\n").stdout
    spoken(said)
    assert "Hint of the expert bot, best first.\nd4, win " in said


def test_a_piped_script_in_words():
    said = invoke(["play", "--deal", 153, "--words", "-v"], input="g7\ng7\ncells\nlook g7\n").stdout
    spoken(said)
    assert said.splitlines()[:4] == [
        "Eight to g7. Next, a three, to g6, f7 or g7.", "Three to g7. Next, a five, to the same cells.",
        "The card may go to g6, f7 or g7.", "g7, a three, face up, 2 cards.",
    ]
    assert "look" in invoke(["play", "--deal", 153], input="look\n").stderr  # not a command in the grid mode


def test_stats_in_words():
    invoke(["play", "--deal", 153, "--interactive"], input="\n".join(WON) + "\n")
    said = invoke(["stats", "--words"]).stdout
    spoken(said)
    assert said.splitlines()[:2] == ["Games played, 1 (won 1, lost 0)", "Won, 100.0% (95% interval 20.7% to 100.0%)"]
    assert invoke(["stats", "--words", "--format", "json"]).exit_code == 2
    invoke(["play", "--deal", 153, "--interactive", "--words"], input="g7\nquit\n")
    assert invoke(["stats"]).stdout.startswith("Games played, 1 (won 1, lost 0); 1 stopped before the end\n")  # as play's words mode


def test_a_resumed_game_starts_with_its_next_card_in_full(tmp_path):
    record = tmp_path / "game.yaml"
    invoke(["play", "--deal", 153, "--record", record], input="g7\ng7\ng7\n")
    said = invoke(["play", "--resume", record, "--interactive", "--no-history", "--words"], input="").stdout
    assert "Deal 153. Suits never matter; more than 4 face down loses. Next, a three, to g6, f7 or g7." in said


def test_errors_at_the_prompt_in_words():
    said = invoke(["play", "--deal", 153, "--interactive", "--no-history", "--words", "--reveal"], input="g7\na1\n")
    assert "look names face-down cards (reveal hides them)." in said.stdout
    assert "a1, not next to a pile (above, below or beside it)" in said.stderr


@pytest.mark.skipif(sys.platform.startswith("win"), reason="the data folder's file is the same there")
def test_the_words_mode_is_kept_at_the_prompt_until_grid():
    def at_prompt(*flags: str) -> str:
        return invoke(["play", "--deal", 153, "--interactive", "--no-history", *flags], input="g7\n").stdout

    assert "Eight to g7." not in at_prompt()
    assert "Eight to g7." in at_prompt("--words")
    assert "Eight to g7." in at_prompt()  # kept
    assert "Eight to g7." not in invoke(["play", "--deal", 153], input="g7\n").stdout  # a script only with --words
    assert "Eight to g7." not in at_prompt("--grid")
    assert "Eight to g7." not in at_prompt()


def test_a_scripts_words_or_grid_is_for_that_run_alone_the_prompts_setting_untouched():
    # (a piped script with --words turned the words mode on for the prompt's games after)
    home = os.environ["FOURSQUARE_HOME"]
    assert "Eight to g7." in invoke(["play", "--deal", 153, "--words", "--no-history", "-v"], input="g7\n").stdout
    assert not os.path.exists(os.path.join(home, "words-mode"))
    at_prompt = ["play", "--deal", 153, "--interactive", "--no-history"]
    assert "Eight to g7." not in invoke(at_prompt, input="g7\n").stdout
    assert "Eight to g7." in invoke([*at_prompt, "--words"], input="g7\n").stdout
    assert "Eight to g7." not in invoke(["play", "--deal", 153, "--grid", "-v"], input="g7\n").stdout
    assert "Eight to g7." in invoke(at_prompt, input="g7\n").stdout  # kept: the script's --grid did not remove it



def test_words_keep_to_for_moves_say_sizes_and_what_undo_turned_back():
    from foursquare import Game
    from foursquare.cli.words import legal_words, look_words, move_words, spoken, took_back_words

    assert legal_words(Game.from_deal(1)) == "The card may go to any cell, a1 through g7."
    game = Game.from_deal(1)
    for cell in ("d4", "e4", "f4", "c4"):
        game.play(cell)
    said = move_words(game)
    assert said.count(" to ") == 2  # the move and the next card: a run of cells is said with "through"
    assert "The piles span c4 through f4." in look_words(game)
    placement = game.undo()
    back = took_back_words(game, placement)
    assert back.startswith(f"Took back the {said.split()[0].lower()} from c4.")
    assert not placement.flipped or (" turned " in back and " face down." in back)
    assert spoken("d9: outside the 4x4 box (a1-g7)") == "d9, outside the 4 by 4 box (a1-g7)"
