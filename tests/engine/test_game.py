"""RULES.md §4 (flipping), §5 (end of the turn) and §7 (the worked example) on :class:`Game`."""

from __future__ import annotations

import pytest
from helpers import conformance_records, play_moves

from foursquare.engine.deal import ordered_deck
from foursquare.engine.game import Game, Placement, Reason, Status
from foursquare.engine.rules import PRESETS
from foursquare.errors import ArgumentError, FoursquareError, IllegalMoveError, ParseError, RulesError


def stacked(*first: str) -> list[str]:
    """A full deck: ``first`` on top, then the other cards in the ordered deck's order."""
    rest = [str(c) for c in ordered_deck() if str(c) not in first]
    return list(first) + rest


def tops(game: Game) -> dict[str, str]:
    """cell -> top card, with a ``-`` suffix when face down."""
    return {str(cell): str(p.top) + ("" if p.face_up else "-") for cell, p in game.grid.items()}


# ------------------------------------------------------------------ §7


WORKED_EXAMPLE = [
    # card, cell, flipped, D, face-down cells
    ("5C", "d4", [], 0, []),
    ("9D", "e4", ["d4"], 1, ["d4"]),
    ("2H", "c4", ["d4", "e4"], 1, ["e4"]),
    ("7S", "d4", ["c4", "e4"], 1, ["c4"]),
    ("7C", "d3", [], 1, ["c4"]),
    ("AS", "d5", ["d3", "d4"], 3, ["c4", "d3", "d4"]),
]


def test_s7_worked_example_step_by_step():
    game = Game(stacked("5C", "9D", "2H", "7S", "7C", "AS"))
    for card, cell, flipped, d, down in WORKED_EXAMPLE:
        assert str(game.next_card) == card
        record = game.play(cell)
        assert (str(record.card), str(record.cell)) == (card, cell)
        assert [str(f) for f in record.flipped] == flipped
        assert record.face_down == game.face_down == d
        assert sorted(c for c, t in tops(game).items() if t.endswith("-")) == down
        assert record.status is Status.PLAYING
        assert game.pile(cell).face_up  # the card just placed stays face up (§4)
    assert [str(c) for c in game.pile("d4").cards] == ["5C", "7S"]
    assert game.placed == 6 and game.stock_count == 34


# ------------------------------------------------------------------ §4


def test_s4_alone_in_its_lines_nothing_flips():
    game = Game(stacked("5C", "9D"))
    assert game.play("d4").flipped == ()


def test_s4_higher_than_every_face_up_card_flips_the_line():
    game = Game(stacked("5C", "3D", "9H"))
    play_moves(game, ["d4", "e4"])  # 3 < 5: d4 down
    assert tops(game) == {"d4": "5C-", "e4": "3D"}
    record = game.play("f4")  # U = {3}; 9 > 3: d4 up, e4 down
    assert [str(f) for f in record.flipped] == ["d4", "e4"]
    assert tops(game) == {"d4": "5C", "e4": "3D-", "f4": "9H"}


def test_s4_face_down_cards_are_not_compared():
    # d4 9 face down, e4 3 face up; 5 > max{3} although 5 < 9: the whole row flips.
    game = Game.from_position({"d4": (["9C"], False), "e4": (["3D"], True)}, ["5H"])
    record = game.play("c4")
    assert [str(f) for f in record.flipped] == ["d4", "e4"]
    assert tops(game) == {"c4": "5H", "d4": "9C", "e4": "3D-"}


def test_s4_all_others_face_down_means_u_empty_and_they_turn_up():
    game = Game(stacked("5C", "9D", "2H"))
    play_moves(game, ["d4", "e4"])  # d4 down
    game.play("e4")  # covers the 9 with the 2: U = {} in row 4 → d4 turns up
    assert tops(game) == {"d4": "5C", "e4": "2H"}


@pytest.mark.parametrize(
    "card, flips",
    [("5H", False), ("7H", False), ("3H", False), ("8H", True), ("TH", True), ("2H", True), ("AH", True)],
)
def test_s4_a_tie_or_a_rank_in_between_blocks_the_flip(card, flips):
    # Row 4's face-up others {3, 7}: a rank from 3 to 7 flips nothing, others flip both.
    # The card covers a 9 on d4, whose column holds no other pile.
    game = Game.from_position({"c4": (["3C"], True), "d4": (["9S"], True), "e4": (["7C"], True)}, [card])
    record = game.play("d4")
    assert [str(f) for f in record.flipped] == (["c4", "e4"] if flips else [])


def test_s4_tie_with_max_blocks():
    # §7 step 5: 7 against {7}: nothing flips.
    game = Game(stacked("7S", "7C"))
    game.play("d4")
    assert game.play("d3").flipped == ()
    assert game.face_down == 0


def test_s4_tie_with_min_blocks():
    game = Game(stacked("2S", "9C", "2C"))
    play_moves(game, ["d4", "d5"])  # 9 > 2: d4 down
    game.play("d4")  # covers: column d others {9}: 2 < 9 flips d5 down
    assert tops(game) == {"d4": "2C", "d5": "9C-"}
    game = Game(stacked("2S", "AC", "2C"))
    play_moves(game, ["d4", "e4"])  # 1 < 2: d4 down
    record = game.play("f4")  # U = {1} (d4 face down): 2 > 1 → both flip
    assert [str(f) for f in record.flipped] == ["d4", "e4"]


def test_s4_row_and_column_both_flip_and_do_not_interact():
    # A cross around d4 (a pile of one 5C): row others c4 A, e4 A; column others d3 2 up,
    # d5 2 face down.  T on d4: row U = {1, 1}, column U = {2}: all four flip.
    grid = {
        "d4": (["5C"], True),
        "c4": (["AC"], True),
        "e4": (["AD"], True),
        "d3": (["2C"], True),
        "d5": (["2D"], False),
    }
    game = Game.from_position(grid, ["TC"])
    record = game.play("d4")
    # Sorted as text (§9): c4 < d3 < d5 < e4, not reading order d3, c4, e4, d5.
    assert [str(f) for f in record.flipped] == ["c4", "d3", "d5", "e4"]
    assert tops(game) == {"d3": "2C-", "c4": "AC-", "d4": "TC", "e4": "AD-", "d5": "2D"}
    assert record.face_down == game.face_down == 3


@pytest.mark.parametrize("order", ["e4 f4 g4", "g4 f4 e4", "f4 g4 e4"])
def test_s4_flipped_sorted_as_text_whatever_order_the_piles_were_made(order):
    # Regression: the engine keeps each line's piles in the order they were made;
    # the record must still list the flipped cells sorted as text (§9).
    grid = {"d4": (["5C"], True)} | {cell: ([card], True) for cell, card in zip(order.split(), ["AC", "2C", "3C"], strict=False)}
    game = Game.from_position(grid, ["TC"])
    assert [str(f) for f in game.play("d4").flipped] == ["e4", "f4", "g4"]
    grid = {"d4": (["5C"], True)} | {cell: ([card], True) for cell, card in zip(["d5", "d7", "d6"], ["AC", "2C", "3C"], strict=False)}
    game = Game.from_position(grid, ["TC"])
    assert [str(f) for f in game.play("d4").flipped] == ["d5", "d6", "d7"]


def test_s4_only_top_cards_matter():
    # A 9 covered by an A on e4: row 4 sees the A only.
    game = Game(stacked("9C", "AC", "5D"))
    play_moves(game, ["e4", "e4"])
    record = game.play("d4")  # 5 > 1: e4 flips
    assert [str(f) for f in record.flipped] == ["e4"]


# ------------------------------------------------------------------ §5


def full_grid_position(
    last: str, face_down: tuple[str, ...] = (), on_grid: int = 39, row4: tuple[str, ...] = ("AC", "TC", "3C")
):
    """15 piles on a1-d4 (d4 empty) holding ``on_grid`` cards, the stock ``[last]``.

    Row 4 tops are ``row4`` (A, T, 3) and column d tops A, T, 3, so by default a 5
    placed on d4 flips nothing (it lies between the face-up ranks in both lines).
    """
    fixed_tops = dict(zip(["a4", "b4", "c4"], row4, strict=False)) | {"d1": "AD", "d2": "TD", "d3": "3D"}
    cells = [c + r for r in "1234" for c in "abcd" if c + r != "d4"]
    spare = [str(c) for c in ordered_deck() if str(c) not in fixed_tops.values() and str(c) != last]
    tops_ = dict(fixed_tops)
    for cell in cells:
        if cell not in tops_:
            tops_[cell] = spare.pop()
    under = spare[: on_grid - 15]
    grid = {}
    for i, cell in enumerate(cells):
        below = under[i::15]
        grid[cell] = (below + [tops_[cell]], cell not in face_down)
    return grid, [last]


def test_s5_won_on_the_40th_card_scores_0():
    grid, stock = full_grid_position("5H")
    game = Game.from_position(grid, stock)
    assert game.stock_count == 1
    record = game.play("d4")
    assert record.flipped == () and record.face_down == 0
    assert (game.status, game.reason, game.score) == (Status.WON, None, 0)
    assert (record.status, record.score) == (Status.WON, 0)
    assert game.stock_count == 0 and game.next_card is None


def test_s5_won_score_is_the_cards_left_in_the_stock():
    grid, stock = full_grid_position("5H", on_grid=15)
    game = Game.from_position(grid, stock)
    assert game.stock_count == 25
    game.play("d4")
    assert (game.status, game.score) == (Status.WON, 24)
    assert game.legal_cells() == []


def test_s5_stock_empty_without_a_win():
    grid, stock = full_grid_position("5H", face_down=("a1",))
    game = Game.from_position(grid, stock)
    record = game.play("d4")
    assert record.face_down == 1
    assert (game.status, game.reason, game.score) == (Status.LOST, Reason.STOCK_EMPTY, None)


def test_s5_too_many_face_down_is_checked_before_stock_empty():
    # Four face down; the 40th card (5) is above row 4's {2, 3, 4}: three more go down.
    grid, stock = full_grid_position("5H", face_down=("a1", "b1", "c1", "a2"), row4=("2C", "3C", "4C"))
    game = Game.from_position(grid, stock)
    assert game.face_down == 4 and game.status is Status.PLAYING
    record = game.play("d4")
    assert [str(f) for f in record.flipped] == ["a4", "b4", "c4"]
    assert record.face_down == 7 and game.stock_count == 0
    assert (game.status, game.reason) == (Status.LOST, Reason.TOO_MANY_FACE_DOWN)


def test_s5_loss_at_five_face_down_exactly():
    # D = 3 before; T on e3 is above row 3's face-up {1, 2}: b3 turns up, c3 and d3 down.
    grid = {
        "b2": (["AC"], False),
        "c2": (["AD"], False),
        "b3": (["AH"], False),
        "c3": (["AS"], True),
        "d3": (["2C"], True),
    }
    game = Game.from_position(grid, ["TC"])
    assert game.face_down == 3 and game.status is Status.PLAYING
    record = game.play("e3")  # row 3: face-up {1, 2}; 10 > 2 flips b3 up, c3 and d3 down
    assert [str(f) for f in record.flipped] == ["b3", "c3", "d3"]
    assert record.face_down == 4 and record.status is Status.PLAYING  # D = 4 is not too many
    grid["b4"] = (["3C"], False)
    game = Game.from_position(grid, ["TC"])
    record = game.play("e3")
    assert record.face_down == 5
    assert (record.status, record.reason) == (Status.LOST, Reason.TOO_MANY_FACE_DOWN)
    assert game.legal_cells() == []


# ------------------------------------------------------------ the Game API


def test_placement_record_and_moves_history():
    game = Game.from_deal(1)
    record = game.play("d4")
    assert isinstance(record, Placement)
    assert game.moves == (record,)
    assert str(record.card) == "2D" and str(record.cell) == "d4"
    assert (record.status, record.reason, record.score) == (Status.PLAYING, None, None)


def test_play_accepts_cell_objects_and_text():
    a, b = Game.from_deal(1), Game.from_deal(1)
    a.play("D4")
    b.play(b.legal_cells()[24])
    assert a.grid == b.grid


def test_play_checks_the_named_card():
    game = Game.from_deal(1)
    game.play("d4", "2D")
    with pytest.raises(IllegalMoveError, match="the card drawn is 3C, not 7H"):
        game.play("d3", "7H")
    assert game.placed == 1
    game.play("d3", "3c")


@pytest.mark.parametrize("bad", ["d", "4d", "", None, 3.5, True, -1, 256])
def test_play_rejects_non_cells(bad):
    game = Game.from_deal(1)
    with pytest.raises(ParseError):
        game.play(bad)
    assert game.placed == 0


def test_a_deck_prefix_needs_the_card_named_past_its_end():
    game = Game(["5C"])
    game.play("d4")
    assert game.next_card is None and game.stock_count == 39
    with pytest.raises(IllegalMoveError, match="the next card is unknown"):
        game.play("e4")
    with pytest.raises(IllegalMoveError, match="5C has been drawn already"):
        game.play("e4", "5C")
    with pytest.raises(IllegalMoveError, match="not a card of the standard deck"):
        game.play("e4", "KH")
    game.play("e4", "9D")
    assert [str(c) for c in game.deck] == ["5C", "9D"]
    game.undo()
    assert [str(c) for c in game.deck] == ["5C"]  # the named card is forgotten again


def test_deck_errors():
    with pytest.raises(ValueError, match="holds 5C twice"):
        Game(["5C", "9D", "5C"])
    with pytest.raises(ParseError, match="KH is not a card of the standard deck"):
        Game(["KH"])
    with pytest.raises(ParseError, match="not a card"):
        Game(["5C", "XX"])
    with pytest.raises(ParseError, match="not a card"):
        Game([True])


def test_undo_nothing_to_undo():
    game = Game.from_deal(1)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    game.play("d4")
    assert str(game.undo().cell) == "d4"
    assert game.grid == {} and game.placed == 0 and len(game.legal_cells()) == 49


def test_undo_after_the_game_ended_resumes_play():
    game = Game.from_deal(4)
    while not game.is_over:
        game.play(game.legal_cells()[-1])
    status = game.status
    game.undo()
    assert game.status is Status.PLAYING and game.legal_cells()
    assert status is not Status.PLAYING


def test_from_position_undo_stops_at_the_position():
    game = Game.from_position({"d4": (["5C"], True)}, ["9D"])
    assert game.placed == 1 and game.moves == ()
    game.play("e4")
    game.undo()
    with pytest.raises(IllegalMoveError):
        game.undo()
    assert set(map(str, game.grid)) == {"d4"}


@pytest.mark.parametrize(
    "grid, message",
    [
        ({"h8": (["5C"], True)}, "outside the frame"),
        ({"d4": (["5C", "6C", "7C", "8C", "9C"], True)}, "has 5 cards"),
        ({"d4": ([], True)}, "has 0 cards"),
        ({"d4": (["5C"], "up")}, "face must be up or down"),
        ({f"a{row}": ([card], True) for row, card in zip(range(1, 6), ["5C", "6C", "7C", "8C", "9C"], strict=False)}, "do not fit"),
        ({"a1": (["5C"], True), "c1": (["6C"], True)}, "not connected"),
        ({"a1": (["5C"], True), "a2": (["5C"], True)}, "5C twice"),
        ({"d4": (["5C"], True), "D4": (["6C"], True)}, "d4 is given twice"),
    ],
)
def test_from_position_rejects_impossible_positions(grid, message):
    with pytest.raises(ValueError, match=message):
        Game.from_position(grid, [])


def test_status_and_reason_are_the_format_words():
    assert [s.value for s in Status] == ["playing", "won", "lost"]
    assert [r.value for r in Reason] == ["too-many-face-down", "stock-empty", "no-placement"]


def test_remaining_is_the_whole_known_stock_once_the_game_is_over():
    """FORMATS.md, State: `remaining` follows `next`; with no next card it is all the stock."""
    games = conformance_records()
    for record in games[:40]:
        game = Game.from_deal(record["deal"])
        for cell in record["moves"]:
            assert len(game.remaining) == game.stock_count - 1
            game.play(cell)
        assert game.is_over
        assert len(game.remaining) == game.stock_count
        assert [str(c) for c in game.remaining] == record["deck"][game.placed:]


@pytest.mark.parametrize("card", ["KH", "QS", "JD"])
def test_a_move_naming_a_card_outside_the_deck_says_so_even_with_the_stock_known(card):
    # not "the card drawn is 2D, not KH": the named card cannot be drawn at all
    game = Game.from_deal(1)
    with pytest.raises(IllegalMoveError, match=f"{card} is not a card of the standard deck"):
        game.play("d4", card)
    assert game.placed == 0


# --- wrong types are refused in our words: each public entry point of Game checks its
# arguments (a card or a cell that is not one: ParseError; a rule set: RulesError;
# anything else: ArgumentError, a TypeError and a ValueError too), naming the argument


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"deck": 5}, ArgumentError, "Game: deck must be a sequence"),
        ({"deck": None}, ArgumentError, "Game: deck must be a sequence"),
        ({"deck": "7H 8H"}, ArgumentError, "Game: deck must be a sequence"),  # not read a character at a time
        ({"deck": [5]}, ParseError, "Game: not a card: 5 (int; each card of deck must be"),
        ({"deck": [True]}, ParseError, "Game: not a card: True (bool; each card of deck must be"),
        ({"rules": 3}, RulesError, "Game: rules must be a Rules value or a preset's name (standard, "),
        ({"rules": "nope"}, RulesError, "Game: rules: unknown rule set 'nope' (presets: standard, "),
        ({"deal": "1"}, ParseError, "not a deal number: '1'"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_Game(kwargs, error, words):
    with pytest.raises(error) as info:
        Game(**kwargs)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ((1, 3), RulesError, "Game.from_deal: rules must be a Rules value or a preset's name (standard, "),
        ((1, None), RulesError, "Game.from_deal: rules must be a Rules value or a preset's name"),
        ((1, "nope"), RulesError, "Game.from_deal: rules: unknown rule set 'nope' (presets: standard, fixed-board"),
        (("1",), ParseError, "not a deal number: '1'"),
        ((True,), ParseError, "not a deal number: True"),
        ((1.0,), ParseError, "not a deal number: 1.0"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_from_deal(args, error, words):
    with pytest.raises(error) as info:
        Game.from_deal(*args)
    assert words in str(info.value)


def test_rules_may_be_named_by_a_presets_name():
    assert Game.from_deal(1, rules="three-square").rules is PRESETS["three-square"]
    assert Game.from_deal(1, "five-square").deck == Game.from_deal(1, PRESETS["five-square"]).deck
    assert Game(rules="diagonal").rules is PRESETS["diagonal"]
    assert Game.from_position({}, [], rules="self-flip").rules is PRESETS["self-flip"]


@pytest.mark.parametrize(
    ("grid", "stock", "error", "words"),
    [
        ([], [], ArgumentError, "Game.from_position: grid must be a mapping"),
        ({"d4": 5}, [], ArgumentError, "Game.from_position: grid['d4'] must be a pair (cards bottom to top, top face up?)"),
        ({"d4": ("5C", True)}, [], ArgumentError, "Game.from_position: grid['d4']'s cards must be a sequence"),
        ({"d4": ([5], True)}, [], ParseError, "Game.from_position: not a card: 5 (int; each card of grid['d4'] must be"),
        ({51: (["5C"], True)}, [], ParseError, "Game.from_position: not a cell: 51 (int; each cell of grid must be"),
        ({}, 5, ArgumentError, "Game.from_position: stock must be a sequence"),
        ({}, "5C", ArgumentError, "Game.from_position: stock must be a sequence"),
        ({}, [None], ParseError, "Game.from_position: not a card: None (NoneType; each card of stock must be"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_from_position(grid, stock, error, words):
    with pytest.raises(error) as info:
        Game.from_position(grid, stock)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((44,), "Game.play: not a cell: 44 (int; cell must be a Cell or a cell's name like d4)"),  # once read as m3
        ((True,), "Game.play: not a cell: True (bool; cell must be"),
        ((None,), "Game.play: not a cell: None (NoneType; cell must be"),
        (("d4", 5), "Game.play: not a card: 5 (int; card must be a Card or a card's text like 7H)"),  # once read as AD
        (("d4", True), "Game.play: not a card: True (bool; card must be"),
        (("d4", 5.0), "Game.play: not a card: 5.0 (float; card must be"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_play(args, words):
    game = Game.from_deal(1)
    with pytest.raises(ParseError) as info:
        game.play(*args)
    assert words in str(info.value)
    assert game.placed == 0


@pytest.mark.parametrize("method", ["pile", "why_illegal", "is_legal"])
@pytest.mark.parametrize("bad", [44, True, None, 1.5])
def test_wrong_types_are_refused_in_our_words_by_the_questions_about_a_cell(method, bad):
    with pytest.raises(ParseError) as info:
        getattr(Game.from_deal(1), method)(bad)
    assert f"Game.{method}: not a cell: {bad} ({type(bad).__name__}; cell must be" in str(info.value)


def test_argument_errors_are_type_and_value_errors_of_the_package():
    assert issubclass(ArgumentError, FoursquareError)
    assert issubclass(ArgumentError, TypeError) and issubclass(ArgumentError, ValueError)


def test_every_loss_reason_has_words_and_no_token():
    from foursquare.engine.game import Reason, Status
    from foursquare.engine.outcome import outcome_words, reason_words

    for reason in Reason:
        words = outcome_words(Status.LOST, reason, face_down=5, limit=4)
        assert words.startswith("lost: ") and reason.value not in words and "-" not in reason_words(reason)


def test_no_reason_for_an_illegal_cell_names_the_cell_or_uses_jargon():
    """The caller names the cell (``h1: outside the frame``): a reason never names it
    again, and says "next to a pile" in plain words, never "orthogonally adjacent"."""
    game = Game(ordered_deck())
    for _ in range(4):
        game.play("d4")
    reasons = {name: game.why_illegal(name) for name in ("d4", "f6", "h8", "a1", "b4")}
    assert reasons["d4"] == "the pile there is full (4 cards)"
    assert reasons["f6"] == "not next to a pile (above, below or beside it)"
    assert reasons["h8"] == "outside the frame (a1-g7)"
    for name, why in reasons.items():
        assert why and name not in why and "adjacent" not in why and "orthogonal" not in why
    with pytest.raises(IllegalMoveError) as info:
        game.play("f6")
    assert str(info.value) == reasons["f6"]
