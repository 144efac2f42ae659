"""Every YAML file the tool writes holds one card or move per string, unbroken:
a long line breaks between list entries, never inside a string (issue 16, item 6),
and the text still reads back to the same game."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
from helpers import invoke

from foursquare.engine.game import Game
from foursquare.engine.rules import PRESETS, Rules
from foursquare.formats.state import read_state, state_text
from foursquare.formats.transcript import load_game, transcript_text, transcripts_text
from foursquare.formats.yaml import Quoted, dump

CARD = r"[2-9TJQKA][CDHS]"
CELL = r"[a-z][0-9]+"
#: What a quoted string of the tool's files holds: a card, a cell, or a move.
STRING = re.compile(rf'"((?:{CARD} )?{CELL}|{CARD})"')


def assert_unbroken(text: str) -> None:
    """No line ends inside a string or with a backslash, and every quoted string on a
    line is a card, a cell or a move (one whole entry)."""
    for number, line in enumerate(text.splitlines(), 1):
        assert not line.endswith("\\"), (number, line)
        assert line.count('"') % 2 == 0, (number, line)
        rest = STRING.sub("", line)
        assert '"' not in rest, (number, line)


def long_rules(name: str) -> Rules:
    """A preset that loses only when the stock runs out: a random game places every card."""
    return dataclasses.replace(PRESETS[name], face_down_limit=36)


def long_game(rules: Rules, seed: int, *, with_deal: bool) -> Game:
    """A game played at random to its end (every card of the deck placed)."""
    start = Game.from_deal(seed, rules)
    game = start if with_deal else Game(start.deck, rules)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_cells()))
    assert len(game.moves) == rules.deck_size
    return game


@pytest.mark.parametrize("preset", ["standard", "five-square", "fixed-board"])
@pytest.mark.parametrize("with_deal", [True, False])
def test_every_writer_keeps_strings_whole(preset: str, with_deal: bool) -> None:
    rules = long_rules(preset)
    game = long_game(rules, 7, with_deal=with_deal)
    for claims in (True, False):
        text = transcript_text(game, claims=claims)
        assert_unbroken(text)
        assert transcript_text(load_game(text, "t.yaml"), claims=claims) == text
    assert_unbroken(transcripts_text([game, long_game(rules, 8, with_deal=with_deal)]))
    middle = Game(game.deck, rules, game.deal)
    for placement in game.moves[: rules.deck_size - 3]:
        middle.play(placement.cell)
    for position in (middle, game):
        text = state_text(position)
        assert_unbroken(text)
        assert state_text(read_state(text, "s.yaml")) == text
        for reveal in (False, True):
            assert_unbroken(state_text(position, player_view=True, reveal=reveal))


def test_the_state_of_a_long_game_has_unbroken_moves() -> None:
    """The case of the issue: a state's flow list of ``"CARD CELL"`` moves past the width."""
    game = long_game(long_rules("standard"), 3, with_deal=True)
    text = state_text(game)
    moves = next(line for line in text.splitlines() if line.startswith("moves:"))
    assert moves.count('"') >= 2 * 6 and len(moves) > 60  # past the width (72): the list goes on below
    assert_unbroken(text)


def test_dump_never_folds_a_string() -> None:
    long = "word " * 40
    text = dump({"a": [Quoted(f"{i:02d} {long}") for i in range(3)], "b": long.strip(), "c": Quoted(long)})
    assert "\\" not in text
    assert all(line.count('"') % 2 == 0 for line in text.splitlines())


def test_the_command_line_writes_unbroken_files(tmp_path: Path) -> None:
    """``state`` and ``play --record`` on a 52-card game of a five-square rules file."""
    rules = long_rules("five-square")
    rules_file = tmp_path / "long.yaml"
    rules_file.write_text(dump(rules.parameters()), encoding="utf-8")
    game = long_game(rules, 11, with_deal=True)
    moves = tmp_path / "game.moves"
    moves.write_text("".join(f"{p.cell}\n" for p in game.moves), encoding="utf-8")
    deal = str(game.deal)
    state = invoke(["state", "--deal", deal, "--rules", rules_file, moves])
    assert state.exit_code == 0, state.stderr
    assert_unbroken(state.stdout)
    assert state.stdout.count('"') > 2 * 52
    record = tmp_path / "rec.yaml"
    played = invoke(["play", "--deal", deal, "--rules", rules_file, "--record", record], input=moves.read_text())
    assert played.exit_code == 0, played.stderr
    assert_unbroken(record.read_text(encoding="utf-8"))
    again = invoke(["state", record])
    assert again.exit_code == 0, again.stderr
    assert again.stdout == state.stdout
