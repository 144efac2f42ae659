"""RULES.md §2: the deal, a SplitMix64 shuffle named by a deal number."""

from __future__ import annotations

import pytest

from foursquare.engine.cards import Card
from foursquare.engine.deal import MAX_DEAL, check_deal_number, deal_deck, ordered_deck, parse_deal_number, splitmix64
from foursquare.engine.game import Game
from foursquare.engine.rules import PRESETS
from foursquare.errors import ParseError, RulesError

VECTORS = {
    0: "9C 3S 5C 6S 2D 8H 9H 9S 3C 9D",
    1: "2D 3C 7D 7H 9H 9D 5H 3D TH 6S",
    42: "6H 7D 6S 2D 9D TC 9H 4H 8S TS",
    18446744073709551615: "2H 2S 5S 5H 2C 9D TH 4H TC 9H",
}


@pytest.mark.parametrize("deal", sorted(VECTORS))
def test_s2_test_vectors_first_ten_cards(deal):
    assert " ".join(map(str, deal_deck(deal)[:10])) == VECTORS[deal]


@pytest.mark.parametrize("deal", sorted(VECTORS))
def test_s2_game_from_deal_draws_the_vector_in_order(deal):
    game = Game.from_deal(deal)
    assert game.deal == deal
    drawn = []
    for _ in range(10):
        drawn.append(str(game.next_card))
        game.play(game.legal_cells()[0])
        if game.is_over:
            break
    assert " ".join(drawn) == VECTORS[deal][: len(" ".join(drawn))]


def test_s2_ordered_deck():
    text = " ".join(map(str, ordered_deck()))
    assert text == " ".join(r + s for s in "CDHS" for r in "A23456789T")
    assert text.startswith("AC 2C") and text.endswith("9S TS")


@pytest.mark.parametrize("deal", [0, 1, 2, 42, 12345, MAX_DEAL])
def test_s2_a_deal_is_a_permutation_of_the_deck(deal):
    deck = deal_deck(deal)
    assert sorted(deck) == sorted(ordered_deck())
    assert all(isinstance(c, Card) for c in deck)


def test_s2_splitmix64_first_outputs_independent_of_the_engine():
    # Written out from the four steps of RULES.md §2 for seed 0.
    m = (1 << 64) - 1
    state = (0 + 0x9E3779B97F4A7C15) & m
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    assert next(splitmix64(0)) == z ^ (z >> 31)
    # The widely published first output of SplitMix64 seeded with 0.
    assert next(splitmix64(0)) == 0xE220A8397B1DCDAF


def test_s2_fisher_yates_from_the_rules_text():
    # §2 steps 1–4 written out independently for a few deals.
    def reference(n):
        deck = [r + s for s in "CDHS" for r in "A23456789T"]
        m = (1 << 64) - 1
        state = n
        for i in range(39, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & m
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
            j = (z ^ (z >> 31)) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    for n in (0, 1, 7, 42, 99999, 2**63, MAX_DEAL):
        assert [str(c) for c in deal_deck(n)] == reference(n)


def test_s2_deals_differ():
    assert len({tuple(deal_deck(n)) for n in range(50)}) == 50


@pytest.mark.parametrize("bad", [-1, 2**64, 2**70, True, False, 1.0, "1", None])
def test_s2_deal_number_bounds(bad):
    with pytest.raises(ParseError, match="not a deal number"):
        deal_deck(bad)
    with pytest.raises(ParseError):
        check_deal_number(bad)
    with pytest.raises(ParseError):
        Game.from_deal(bad)


def test_s2_deal_number_limits_accepted():
    assert check_deal_number(0) == 0
    assert check_deal_number(2**64 - 1) == 2**64 - 1


@pytest.mark.parametrize("text, value", [("0", 0), ("42", 42), (" 7 ", 7), ("18446744073709551615", MAX_DEAL)])
def test_s2_parse_deal_number(text, value):
    assert parse_deal_number(text) == value


@pytest.mark.parametrize("text", ["-1", "18446744073709551616", "1e3", "0x10", "4.0", "", "four", "４２", "+3"])
def test_s2_parse_deal_number_rejects(text):
    with pytest.raises(ParseError) as info:
        parse_deal_number(text)
    assert repr(text) in str(info.value) or "18446744073709551616" in str(info.value)


def test_s2_deal_deck_returns_a_new_list():
    a = deal_deck(5)
    a.reverse()
    assert deal_deck(5) != a


# --- wrong types are refused in our words: the rule set is a Rules value or a preset's name


@pytest.mark.parametrize("function", [ordered_deck, lambda rules: deal_deck(1, rules)])
@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (3, "rules must be a Rules value or a preset's name (standard, "),
        (None, "rules must be a Rules value or a preset's name (standard, "),
        ("nope", "rules: unknown rule set 'nope' (presets: standard, "),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_the_decks(function, rules, words):
    with pytest.raises(RulesError) as info:
        function(rules)
    assert words in str(info.value)
    assert str(info.value).startswith(("ordered_deck: ", "deal_deck: "))


def test_the_decks_take_a_presets_name():
    assert ordered_deck("five-square") == ordered_deck(PRESETS["five-square"])
    assert deal_deck(7, "three-square") == deal_deck(7, PRESETS["three-square"])
