"""RULES.md §3: cells, the frame, and where a card may be placed."""

from __future__ import annotations

import pytest
from helpers import play

from foursquare.engine.deal import ordered_deck
from foursquare.engine.frame import frame_of
from foursquare.engine.game import Game
from foursquare.engine.layout import CELLS, STRIDE, Cell
from foursquare.engine.rules import STANDARD
from foursquare.errors import IllegalMoveError, ParseError

FRAME_NAMES = [c + str(r) for r in range(1, 8) for c in "abcdefg"]


def names(cells):
    return [str(c) for c in cells]


def game_after(*moves, deck=None):
    return play(Game(deck or ordered_deck()), moves)


# -------------------------------------------------------------- cell names


@pytest.mark.parametrize("text, row, column", [("a1", 0, 0), ("d4", 3, 3), ("g7", 6, 6), ("G1", 0, 6), (" c5 ", 4, 2)])
def test_s3_cell_names_column_then_row(text, row, column):
    cell = Cell.parse(text)
    assert (cell.row, cell.column) == (row, column)
    assert str(cell) == text.strip().lower()
    assert CELLS[row * STRIDE + column] == cell


@pytest.mark.parametrize("text", ["", "d", "4", "4d", "d0", "d04", "d17", "z1", "dd4", "d-1", "d 4", "d4x", "1e3"])
def test_s3_bad_cell_names(text):
    with pytest.raises(ParseError, match="not a cell") as info:
        Cell.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 4, True, b"d4"])
def test_s3_cell_parse_rejects_non_strings(value):
    with pytest.raises(ParseError):
        Cell.parse(value)


def test_s3_frame_is_7_by_7_in_reading_order():
    geo = frame_of(STANDARD)
    assert geo.frame == 7
    assert names(geo.to_cell) == FRAME_NAMES
    assert geo.corner == "a1-g7"
    assert sum(geo.inside) == 49


def test_s3_neighbours_share_an_edge():
    geo = frame_of(STANDARD)
    assert sorted(names(CELLS[n] for n in geo.neighbours[Cell.parse("d4")])) == ["c4", "d3", "d5", "e4"]
    assert sorted(names(CELLS[n] for n in geo.neighbours[Cell.parse("a1")])) == ["a2", "b1"]
    assert sorted(names(CELLS[n] for n in geo.neighbours[Cell.parse("g4")])) == ["f4", "g3", "g5"]


# -------------------------------------------------------------- placement


def test_s3_first_card_anywhere_in_the_frame():
    assert names(Game(ordered_deck()).legal_cells()) == FRAME_NAMES
    for name in FRAME_NAMES:
        game = Game(ordered_deck())
        assert game.why_illegal(name) is None
        game.play(name)
        assert str(game.grid[Cell.parse(name)].top) == "AC"


def test_s3_second_card_on_the_pile_or_orthogonally_adjacent():
    assert names(game_after("d4").legal_cells()) == ["d3", "c4", "d4", "e4", "d5"]
    assert names(game_after("a1").legal_cells()) == ["a1", "b1", "a2"]
    assert names(game_after("g7").legal_cells()) == ["g6", "f7", "g7"]


def test_s3_diagonal_is_not_adjacent():
    game = game_after("d4")
    assert game.why_illegal("e5") == "not next to a pile (above, below or beside it)"
    with pytest.raises(IllegalMoveError, match=r"not next to a pile \(above, below or beside it\)"):
        game.play("e5")


def test_s3_adjacent_to_any_pile_not_only_the_last():
    game = game_after("d4", "e4", "f4")
    assert game.why_illegal("d5") is None
    assert game.why_illegal("c4") is None


def test_s3_pile_cap_is_four_cards():
    game = game_after("d4", "d4", "d4")
    assert game.why_illegal("d4") is None
    game.play("d4")
    assert len(game.pile("d4").cards) == 4
    assert game.why_illegal("d4") == "the pile there is full (4 cards)"
    with pytest.raises(IllegalMoveError, match="the pile there is full"):
        game.play("d4")
    assert "d4" not in names(game.legal_cells())


def test_s3_covering_a_face_down_card_is_allowed_and_the_new_card_is_face_up():
    # 9 beside A: the 9 placed second flips the A face down; then cover the A.
    game = Game(["AC", "9C", "2C"] + [c for c in map(str, ordered_deck()) if c not in ("AC", "9C", "2C")])
    game.play("d4")
    game.play("e4")
    assert game.pile("d4").face_up is False
    game.play("d4")
    assert game.pile("d4").face_up is True and [str(c) for c in game.pile("d4").cards] == ["AC", "2C"]


def test_s3_the_4x4_box():
    game = game_after("a4", "b4", "c4", "d4")
    assert game.why_illegal("e4") == "outside the 4x4 box (the grid would span 5 columns)"
    game = game_after("d1", "d2", "d3", "d4")
    assert game.why_illegal("d5") == "outside the 4x4 box (the grid would span 5 rows)"
    assert game.why_illegal("c4") is None and game.why_illegal("e1") is None


def test_s3_box_of_4_rows_and_4_columns_together():
    # An L shape spanning 4 columns and 4 rows: every empty cell outside the box is illegal.
    game = game_after("d4", "e4", "f4", "g4", "g5", "g6", "g7")
    legal = set(names(game.legal_cells()))
    assert legal <= {c + r for c in "defg" for r in "4567"}
    assert {"f5", "d5", "f7"} <= legal
    with pytest.raises(IllegalMoveError, match="outside the 4x4 box"):
        game.play("c4")


def test_s3_frame_edge_binds_when_the_first_card_is_near_it():
    game = game_after("a1")
    with pytest.raises(ParseError):  # a0 is not even a cell name
        game.why_illegal("a0")
    # h1 is a cell name but lies outside the 7×7 frame.
    assert game.why_illegal("h1") == "outside the frame (a1-g7)"
    game = game_after("g4")
    assert game.why_illegal("h4") == "outside the frame (a1-g7)"
    with pytest.raises(IllegalMoveError, match="outside the frame"):
        game.play("h4")
    assert names(game.legal_cells()) == ["g3", "f4", "g4", "g5"]


def test_s3_outside_the_frame_even_for_the_first_card():
    game = Game(ordered_deck())
    assert game.why_illegal("a8") == "outside the frame (a1-g7)"
    assert game.why_illegal("p16") == "outside the frame (a1-g7)"


def test_s3_game_over_message():
    # Play the first legal cell until the game ends (§5), then try any cell.
    game = Game(ordered_deck())
    while not game.is_over:
        game.play(game.legal_cells()[0])
    why = game.why_illegal("d4")
    assert why.startswith("the game is over (")
    from foursquare.engine.outcome import reason_words

    assert (reason_words(game.reason) if game.reason else str(game.score)) in why  # in words, not the token
    assert game.legal_cells() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("d4")


def test_s3_legal_cells_agree_with_why_illegal_everywhere():
    game = Game.from_deal(3)
    for _ in range(12):
        legal = names(game.legal_cells())
        assert legal == [n for n in FRAME_NAMES if game.why_illegal(n) is None]
        assert all(game.is_legal(n) for n in legal)
        if game.is_over:
            break
        game.play(legal[len(legal) // 2])


def test_s3_messages_are_one_line():
    game = game_after("d4", "d4", "d4", "d4")
    for name in ["d4", "f6", "h8", "a1"]:
        why = game.why_illegal(name)
        assert why and "\n" not in why and name not in why  # the caller names the cell (h1: outside the frame)


# --- wrong types are refused in our words (the public constructors check their arguments)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (-5, "Cell: not a cell: -5 (value must be"),  # once read as l16
        (256, "Cell: not a cell: 256 (value must be"),
        (True, "Cell: not a cell: True (bool; value must be"),  # a bool is an int, but no cell's number
        (1.5, "Cell: not a cell: 1.5 (float; value must be"),
        (None, "Cell: not a cell: None (NoneType; value must be"),
        ("z9", "not a cell: 'z9'"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_Cell(value, words):
    with pytest.raises(ParseError) as info:
        Cell(value)
    assert words in str(info.value)


def test_Cell_takes_a_cells_number_or_its_name():
    assert Cell(3 * 16 + 3) is CELLS[51] and str(Cell(51)) == "d4"
    assert Cell("D4") is Cell.parse("d4") is Cell(Cell.parse("d4"))
