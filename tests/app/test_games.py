"""foursquare.app.games.GameSpec: how a game is named (a deal or a deck file, and a
rule set), usable without the command line: its files read once, its games, and
the agreement of a game file with it, in the package's own errors."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from foursquare import Game, get_rules
from foursquare.app.games import GameSpec
from foursquare.errors import AgreementError, ArgumentError, FormatError
from foursquare.formats.transcript import transcript_text


def _transcript(deal: int = 7, moves: int = 3) -> str:
    game = Game.from_deal(deal)
    for _ in range(moves):
        game.play(game.legal_cells()[0])
    return transcript_text(game)


def test_a_spec_is_a_frozen_value_compared_by_what_it_names():
    spec = GameSpec(deal=7, rules_spec="fixed-board")
    assert spec == GameSpec(7, None, "fixed-board") and hash(spec) == hash(GameSpec(7, None, "fixed-board"))
    assert spec != GameSpec(deal=7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.deal = 8  # type: ignore[misc]


def test_a_deal_and_a_deck_together_are_refused():
    with pytest.raises(ArgumentError, match="two card orders"):
        GameSpec(deal=1, deck_path="deck.txt")


def test_the_rules_are_read_from_a_preset_or_none_when_not_named():
    assert GameSpec().rules is None
    assert GameSpec(rules_spec="fixed-board").rules == get_rules("fixed-board")


def test_read_reads_the_rules_file_at_once_and_keeps_it(tmp_path: Path):
    rules_file = tmp_path / "rules.yaml"
    rules_file.write_text("preset: fixed-board\n", encoding="utf-8")
    spec = GameSpec.read(rules_spec=str(rules_file))
    rules_file.unlink()  # read once: the value holds the rule set
    assert spec.rules == get_rules("fixed-board")
    assert spec.dealt(5).rules == spec.rules and spec.dealt(5) == GameSpec(5, None, str(rules_file))
    with pytest.raises(FormatError):
        GameSpec.read(rules_spec=str(tmp_path / "missing.yaml"))


def test_start_makes_the_deal_or_the_deck_or_nothing(tmp_path: Path):
    assert GameSpec().start() is None
    dealt = GameSpec(deal=3).start()
    assert dealt is not None and dealt.deal == 3 and dealt.rules == get_rules("standard")
    deck = tmp_path / "deck.txt"
    deck.write_text("5C 7H\n", encoding="utf-8")
    spec = GameSpec(deck_path=str(deck))
    started = spec.start()
    assert started is not None and started.deal is None and [str(c) for c in started.deck] == ["5C", "7H"]


def test_a_game_file_is_loaded_with_what_it_does_not_name(tmp_path: Path):
    script = tmp_path / "m.txt"
    script.write_text("d4\n", encoding="utf-8")
    game = GameSpec(deal=5).game_of_file(str(script))
    assert game.deal == 5 and len(game.moves) == 1
    assert GameSpec(deal=5).game_of_text("", "e.txt").placed == 0  # an empty script: the start of the deal


def test_a_file_that_disagrees_is_an_agreement_error_naming_no_option():
    with pytest.raises(AgreementError) as caught:
        GameSpec(deal=5).game_of_text(_transcript(7), "t.yaml")
    assert (caught.value.facts["given"], caught.value.facts["value"]) == ("deal", 5) and "--" not in str(caught.value)
    with pytest.raises(AgreementError) as caught:
        GameSpec(rules_spec="fixed-board").game_of_text(_transcript(7), "t.yaml")
    assert caught.value.facts["given"] == "rules"


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"deal": "1"}, "GameSpec: deal must be a whole number"),
        ({"deal": True}, "GameSpec: deal must be a whole number"),
        ({"deck_path": 3}, "GameSpec: deck_path must be a deck file's name (a str) or None"),
        ({"deal": 1, "rules_spec": get_rules("standard")}, "GameSpec: rules_spec must be a preset's name or a rules file's"),
    ],
)
def test_a_spec_of_the_wrong_kinds_is_refused_in_our_words(given, says):
    with pytest.raises(ArgumentError, match=re.escape(says)):
        GameSpec(**given)
