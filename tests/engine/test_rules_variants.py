"""RULES.md §8: the rule variants, one parameter of :class:`Rules` at a time.

For each parameter, a small game whose outcome (a flip, a legality, a status)
changes with it; the presets are self-consistent; bad parameters are refused
with a message naming the key and the allowed values; numbered deals over a
variant deck are the same SplitMix64 shuffle (§2).
"""

from __future__ import annotations

import random

import pytest

from foursquare.engine.cards import Card
from foursquare.engine.deal import deal_deck, ordered_deck
from foursquare.engine.game import Game, Reason, Status
from foursquare.engine.rules import CHOICES, DESCRIPTIONS, PRESETS, RANGES, STANDARD, Rules, get_rules
from foursquare.errors import IllegalMoveError, ParseError, RulesError


def flips(game: Game, cell: str) -> list[str]:
    return [str(c) for c in game.play(cell).flipped]


def variant(**changes) -> Rules:
    return STANDARD.with_changes(**changes)


# -------------------------------------------------------- one test per parameter


def test_size_sets_the_box_and_the_frame():
    three = variant(size=3)
    assert three.frame == 5
    game = Game(["AC", "2C", "3C", "4C"], three)
    for cell in ("a1", "b1", "c1"):
        game.play(cell)
    assert game.why_illegal("d1") == "outside the 3x3 box (the grid would span 4 columns)"
    assert Game(["AC"], three).why_illegal("f1") == "outside the frame (a1-e5)"
    standard = Game(["AC", "2C", "3C", "4C"])
    for cell in ("a1", "b1", "c1"):
        standard.play(cell)
    assert standard.why_illegal("d1") is None
    assert len(Game([], variant(size=5)).legal_cells()) == 81


def test_size_three_wins_with_nine_piles():
    rules = variant(size=3)
    grid = {
        "a1": (["AC"], True), "b1": (["TC"], True), "c1": (["AD"], True),
        "a2": (["TD"], True), "b2": (["5C"], True), "c2": (["TH"], True),
        "a3": (["AH"], True), "b3": (["TS"], True),
    }
    # c3: row 3 face-up {1, 10}, column c face-up {1, 10}: a 5 flips nothing.
    game = Game.from_position(grid, ["5D"], rules)
    game.play("c3")
    assert (game.status, game.score) == (Status.WON, 40 - 9)
    standard = Game.from_position(grid, ["5D"])
    standard.play("c3")
    assert standard.status is Status.PLAYING


def test_pile_cap():
    capped = Game(["AC", "2C", "3C"], variant(pile_cap=2))
    capped.play("d4")
    capped.play("d4")
    assert capped.why_illegal("d4") == "the pile there is full (2 cards)"
    with pytest.raises(IllegalMoveError, match="full"):
        capped.play("d4")
    standard = Game(["AC", "2C", "3C"])
    standard.play("d4")
    standard.play("d4")
    assert standard.why_illegal("d4") is None


def test_pile_cap_one_means_no_covering():
    game = Game(["AC", "2C"], variant(pile_cap=1))
    game.play("d4")
    assert [str(c) for c in game.legal_cells()] == ["d3", "c4", "e4", "d5"]


@pytest.mark.parametrize("limit, status", [(0, Status.LOST), (1, Status.PLAYING), (4, Status.PLAYING)])
def test_face_down_limit(limit, status):
    game = Game(["5C", "9D"], variant(face_down_limit=limit))
    game.play("d4")
    record = game.play("e4")  # §7 step 2: D = 1
    assert record.face_down == 1 and record.status is status
    if status is Status.LOST:
        assert game.reason is Reason.TOO_MANY_FACE_DOWN


def test_ranks_sets_the_deck():
    long = variant(ranks=13, size=5)
    assert long.deck_size == 52
    assert [str(c) for c in ordered_deck(long)][9:13] == ["TC", "JC", "QC", "KC"]
    game = Game(["KH", "QH", "AH"], long)
    game.play("d4")
    assert flips(game, "e4") == ["d4"]  # Q < K
    game.play("d4")  # A covers K: row 4 {12}: 1 < 12 flips e4
    assert game.pile("e4").face_up is False
    with pytest.raises(ParseError, match="KH is not a card of the standard deck"):
        Game(["KH"])
    short = variant(ranks=5)
    assert short.deck_size == 20 and max(c.rank for c in ordered_deck(short)) == 5
    with pytest.raises(ParseError, match="6C is not a card"):
        Game(["6C"], short)


def test_ranks_sets_when_the_stock_runs_out():
    # A 16-card deck (ranks 1..4): the 16th card ends the game, stock-empty or won.
    rules = variant(ranks=4)
    game = Game.from_deal(3, rules)
    rng = random.Random(0)
    while not game.is_over:
        game.play(rng.choice(game.legal_cells()))
    assert game.placed <= 16
    if game.reason is Reason.STOCK_EMPTY:
        assert game.placed == 16


def test_suits_sets_the_deck():
    two = variant(suits=2)
    assert [str(c) for c in ordered_deck(two)][-2:] == ["9D", "TD"] and two.deck_size == 20
    with pytest.raises(ParseError, match="AH is not a card"):
        Game(["AH"], two)
    game = Game.from_deal(0, two)
    assert {Card.parse(str(c)).suit for c in game.deck} == {0, 1}


def test_comparison_all_sees_face_down_cards():
    grid = {"d4": (["9C"], False), "e4": (["3D"], True)}
    standard = Game.from_position(grid, ["5H"])
    assert flips(standard, "c4") == ["d4", "e4"]  # U = {3}
    everything = Game.from_position(grid, ["5H"], variant(comparison="all"))
    assert flips(everything, "c4") == []  # U = {9, 3}: 5 is in between


def test_comparison_all_a_face_down_tie_blocks():
    grid = {"d4": (["9C"], False)}
    assert flips(Game.from_position(grid, ["9H"]), "e4") == ["d4"]  # U = {}: turns up
    assert flips(Game.from_position(grid, ["9H"], variant(comparison="all")), "e4") == []


def test_self_flip():
    game = Game(["5C", "9D"], variant(self_flip=True))
    game.play("d4")
    record = game.play("e4")
    assert [str(c) for c in record.flipped] == ["d4", "e4"]
    assert game.pile("e4").face_up is False and record.face_down == 2
    standard = Game(["5C", "9D"])
    standard.play("d4")
    assert flips(standard, "e4") == ["d4"] and standard.face_down == 1


def test_self_flip_alone_in_its_lines_stays_up():
    game = Game(["5C"], variant(self_flip=True))
    assert game.play("d4").flipped == () and game.face_down == 0


def test_self_flip_with_both_lines_turns_twice():
    # Row and column both flip: the placed card turns down then up again.
    grid = {"d4": (["5C"], True), "c4": (["AC"], True), "d3": (["AD"], True)}
    game = Game.from_position(grid, ["TC"], variant(self_flip=True))
    record = game.play("d4")
    assert [str(c) for c in record.flipped] == ["c4", "d3"]
    assert game.pile("d4").face_up is True and game.face_down == 2
    game.undo()
    assert game.pile("d4").face_up is True and [str(c) for c in game.pile("d4").cards] == ["5C"]
    assert game.face_down == 0


def test_self_flip_blocked_line_does_not_flip_the_card():
    grid = {"d4": (["5C"], True)}
    game = Game.from_position(grid, ["5D"], variant(self_flip=True))
    assert game.play("e4").flipped == () and game.pile("e4").face_up


def test_adjacency_edge_or_corner():
    diagonal = Game(["AC", "2C"], variant(adjacency="edge-or-corner"))
    diagonal.play("d4")
    assert diagonal.why_illegal("e5") is None
    assert len(diagonal.legal_cells()) == 9
    diagonal.play("e5")
    assert diagonal.face_down == 0  # no shared line: nothing flips
    standard = Game(["AC", "2C"])
    standard.play("d4")
    assert standard.why_illegal("e5") == "not next to a pile (above, below or beside it)"
    assert Game(["AC"], variant(adjacency="edge-or-corner")).why_illegal("a1") is None


def test_adjacency_message_under_diagonal():
    game = Game(["AC", "2C"], variant(adjacency="edge-or-corner"))
    game.play("d4")
    assert game.why_illegal("f4") == "not next to a pile (above, below, beside or diagonally)"


def test_layout_fixed_board():
    fixed = Game(["AC", "2C"], variant(layout="fixed"))
    assert [str(c) for c in fixed.legal_cells()] == [c + r for r in "1234" for c in "abcd"]
    assert fixed.why_illegal("e1") == "outside the frame (a1-d4)"
    fixed.play("d4")
    assert [str(c) for c in fixed.legal_cells()] == ["d3", "c4", "d4"]
    floating = Game(["AC", "2C"])
    assert floating.why_illegal("e1") is None
    floating.play("d4")
    assert len(floating.legal_cells()) == 5


def test_ties_count():
    # §7 step 5: 7 against {7}.
    standard = Game(["7S", "7C"])
    standard.play("d4")
    assert flips(standard, "d3") == []
    counting = Game(["7S", "7C"], variant(ties="count"))
    counting.play("d4")
    assert flips(counting, "d3") == ["d4"]


@pytest.mark.parametrize("card, flips_", [("3H", True), ("7H", True), ("5H", False)])
def test_ties_count_with_two_ranks(card, flips_):
    grid = {"c4": (["3C"], True), "d4": (["9S"], True), "e4": (["7C"], True)}
    game = Game.from_position(grid, [card], variant(ties="count"))
    assert flips(game, "d4") == (["c4", "e4"] if flips_ else [])


def test_every_parameter_has_a_test_above():
    tested = {
        "size", "pile_cap", "face_down_limit", "ranks", "suits",
        "comparison", "self_flip", "adjacency", "layout", "ties",
    }
    assert set(STANDARD.parameters()) == tested


# ------------------------------------------------------------------ presets


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_is_self_consistent(name):
    rules = PRESETS[name]
    assert rules.name == name == rules.label
    assert get_rules(name) is rules
    assert DESCRIPTIONS[name] and "\n" not in DESCRIPTIONS[name]
    assert Rules(**rules.parameters()) == rules
    assert STANDARD.with_changes(**rules.parameters()) is rules  # the name comes back
    assert rules.deck_size >= rules.size**2
    assert len(ordered_deck(rules)) == rules.deck_size


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_random_games_keep_its_limits(name):
    rules = PRESETS[name]
    rng = random.Random(name)
    for deal in range(15):
        game = Game.from_deal(deal, rules)
        assert game.stock_count == rules.deck_size
        while not game.is_over:
            legal = game.legal_cells()
            assert legal
            game.play(rng.choice(legal))
            grid = game.grid
            assert all(1 <= len(p.cards) <= rules.pile_cap for p in grid.values())
            rows = [c.row for c in grid]
            cols = [c.column for c in grid]
            assert max(rows) - min(rows) < rules.size and max(cols) - min(cols) < rules.size
            assert all(c.row < rules.frame and c.column < rules.frame for c in grid)
            if game.status is Status.PLAYING:
                assert game.face_down <= rules.face_down_limit
        if game.status is Status.WON:
            assert len(game.grid) == rules.size**2 and game.face_down == 0
        while game.moves:
            game.undo()
        assert game.grid == {}


def test_presets_differ():
    params = [tuple(r.parameters().items()) for r in PRESETS.values()]
    assert len(set(params)) == len(params)


# ------------------------------------------------------------- bad parameters


@pytest.mark.parametrize("key", sorted(RANGES))
@pytest.mark.parametrize("bad", ["low", "high", "text", "bool"])
def test_bad_numbers_name_the_key_and_the_range(key, bad):
    low, high = RANGES[key]
    value = {"low": low - 1, "high": high + 1, "text": "4", "bool": True}[bad]
    with pytest.raises(RulesError) as info:
        Rules(**{key: value})
    message = str(info.value)
    assert key in message and f"{low} to {high}" in message and repr(value) in message


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_bad_words_name_the_key_and_the_choices(key):
    with pytest.raises(RulesError) as info:
        Rules(**{key: "sideways"})
    message = str(info.value)
    assert key in message and "'sideways'" in message
    assert all(choice in message for choice in CHOICES[key])


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_bad_self_flip(value):
    with pytest.raises(RulesError, match="self_flip must be true or false"):
        Rules(self_flip=value)


def test_a_deck_too_small_for_the_grid():
    with pytest.raises(RulesError, match="cannot fill a 5x5 grid"):
        Rules(size=5, ranks=5)


def test_unknown_parameter_and_preset():
    with pytest.raises(RulesError, match="unknown parameter 'colour'.*size"):
        STANDARD.with_changes(colour="red")
    with pytest.raises(RulesError, match="unknown rule set 'nope'.*standard"):
        get_rules("nope")


def test_with_changes_names():
    assert STANDARD.with_changes() is STANDARD
    assert STANDARD.with_changes(layout="fixed") is PRESETS["fixed-board"]
    custom = STANDARD.with_changes(pile_cap=3)
    assert custom.name is None and custom.label == "custom"


# ------------------------------------------------------------------ deals (§2)


def reference_shuffle(deal: int, ranks: int, suits: int) -> list[str]:
    """§2 written out for any deck: the ordered deck by suit then rank, Fisher–Yates."""
    deck = [r + s for s in "CDHS"[:suits] for r in "A23456789TJQK"[:ranks]]
    m = (1 << 64) - 1
    state = deal
    for i in range(len(deck) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & m
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        j = (z ^ (z >> 31)) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("deal", [0, 1, 42, 2**64 - 1])
def test_variant_deals_are_the_same_shuffle(name, deal):
    rules = PRESETS[name]
    assert [str(c) for c in deal_deck(deal, rules)] == reference_shuffle(deal, rules.ranks, rules.suits)


def test_standard_vectors_unchanged_by_equal_decks():
    # Presets with the standard deck deal exactly the standard deals.
    for rules in PRESETS.values():
        if rules.deck_size == 40:
            assert deal_deck(1, rules) == deal_deck(1)
    assert " ".join(map(str, deal_deck(1)[:10])) == "2D 3C 7D 7H 9H 9D 5H 3D TH 6S"
