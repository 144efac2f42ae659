"""RULES.md §1: the cards and their text."""

from __future__ import annotations

import pytest

from foursquare.engine.cards import CARDS, Card, card
from foursquare.engine.deal import ordered_deck
from foursquare.engine.rules import STANDARD
from foursquare.errors import ParseError


def test_s1_deck_has_40_distinct_cards_ranks_1_to_10_in_four_suits():
    deck = ordered_deck(STANDARD)
    assert len(deck) == len(set(deck)) == 40
    assert sorted({c.rank for c in deck}) == list(range(1, 11))
    assert sorted({c.suit for c in deck}) == [0, 1, 2, 3]
    for rank in range(1, 11):
        assert sum(c.rank == rank for c in deck) == 4


@pytest.mark.parametrize(
    "text, rank, suit",
    [("AC", 1, 0), ("2D", 2, 1), ("7H", 7, 2), ("9S", 9, 3), ("TD", 10, 1), ("TS", 10, 3)],
)
def test_s1_canonical_text_gives_rank_and_suit(text, rank, suit):
    c = Card.parse(text)
    assert (c.rank, c.suit) == (rank, suit)
    assert str(c) == text


def test_s1_every_card_round_trips_through_its_canonical_text():
    for c in ordered_deck(STANDARD):
        text = str(c)
        assert len(text) == 2 and text[0] in "A23456789T" and text[1] in "CDHS"
        assert Card.parse(text) == c


@pytest.mark.parametrize("text", ["10♦", "td", "Td", "tD", "TD", "10d", "10D", " TD ", "T♦", "t♦"])
def test_s1_accepted_spellings_of_ten_of_diamonds(text):
    assert Card.parse(text) == card(10, 1)
    assert str(Card.parse(text)) == "TD"


@pytest.mark.parametrize("symbol, letter", [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")])
def test_s1_suit_symbols(symbol, letter):
    assert str(Card.parse("a" + symbol)) == "A" + letter
    assert str(Card.parse("10" + symbol)) == "T" + letter


def test_s1_writers_emit_the_canonical_form():
    c = Card.parse("10♥")
    assert str(c) == "TH"
    assert repr(c) == "Card('TH')"
    assert c.symbol() == "10♥"
    assert f"{Card.parse('as')}" == "AS"


@pytest.mark.parametrize("text", ["1C", "11H", "7X", "", " ", "0S", "7", "C", "77H", "7HH", "10", "AS1", "A S", "1OD"])
def test_s1_rejections_quote_the_text(text):
    with pytest.raises(ParseError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "\n" not in message
    assert "7H" in message  # says what a card looks like


@pytest.mark.parametrize("value", [None, 7, 7.0, b"7H", ["7H"], True])
def test_s1_non_strings_are_rejected(value):
    with pytest.raises(ParseError, match="not a card"):
        Card.parse(value)


def test_s1_card_is_an_int_rank_times_4_plus_suit():
    c = Card.parse("7H")
    assert isinstance(c, int) and c == 7 * 4 + 2
    assert CARDS[c] is c
    assert Card.parse("7h") is c  # one object per card


@pytest.mark.parametrize("rank, suit", [(0, 0), (14, 0), (1, 4), (1, -1)])
def test_s1_card_constructor_rejects_out_of_range(rank, suit):
    with pytest.raises(ParseError):
        card(rank, suit)


def test_s1_parse_errors_are_value_errors():
    with pytest.raises(ValueError):
        Card.parse("ZZ")


# --- wrong types are refused in our words (the public constructors check their arguments)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (-1, "Card: not a card: -1 (value must be"),  # once read as KS
        (2, "Card: not a card: 2 (value must be"),  # a number below the aces
        (56, "Card: not a card: 56 (value must be"),
        (True, "Card: not a card: True (bool; value must be"),  # a bool is an int, but no card's number
        (1.5, "Card: not a card: 1.5 (float; value must be"),
        (None, "Card: not a card: None (NoneType; value must be"),
        ("7X", "not a card: '7X'"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_Card(value, words):
    with pytest.raises(ParseError) as info:
        Card(value)
    assert words in str(info.value)


def test_Card_takes_a_cards_number_or_its_text():
    assert Card(4 * 7 + 2) is CARDS[30] and str(Card(30)) == "7H"
    assert Card("7h") is Card.parse("7H") is Card(Card.parse("7H"))


@pytest.mark.parametrize(
    ("rank", "suit", "words"),
    [
        (1.5, 0, "card: rank must be a whole number, not 1.5 (float)"),
        ("1", 0, "card: rank must be a whole number, not '1' (str)"),
        (True, 0, "card: rank must be a whole number, not True (bool)"),
        (1, None, "card: suit must be a whole number, not None (NoneType)"),
        (0, 0, "no card has rank 0 and suit 0"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_card(rank, suit, words):
    with pytest.raises(ParseError) as info:
        card(rank, suit)
    assert words in str(info.value)
