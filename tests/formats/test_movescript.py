"""Move scripts (FORMATS.md "Move scripts"): one move a line, comments, CRLF, BOM, located errors."""

import pytest

from foursquare import Game
from foursquare.engine.cards import Card
from foursquare.engine.layout import Cell
from foursquare.errors import FormatError
from foursquare.formats.movescript import Move, new_game, parse_move, play_move, play_script, read_moves


def test_parse_move_cell_or_card_and_cell():
    assert parse_move("d4") == Move(Cell.parse("d4"))
    assert parse_move("7h  D4") == Move(Cell.parse("d4"), Card.parse("7H"))
    assert parse_move("10♦ e4") == Move(Cell.parse("e4"), Card.parse("TD"))
    assert str(parse_move("td e4")) == "TD e4"


def test_read_moves_skips_comments_and_blank_lines_and_keeps_line_numbers():
    lines = "\ufeff# a script\r\n\r\nd4\r\n  7H e4  # comment\r\n".splitlines()
    assert [(n, str(m)) for n, m in read_moves(lines, "m.txt")] == [(3, "d4"), (4, "7H e4")]


@pytest.mark.parametrize("bait", ["no", "on", "010", "1e3", "d0", "d04", "h1x"])
def test_coercion_bait_is_not_a_move(bait):
    with pytest.raises(FormatError) as info:
        list(read_moves(["d4", bait], "m.txt"))
    assert str(info.value).startswith(f"m.txt:2: not a cell: {bait!r}")


def test_play_script_reports_the_line_of_the_failing_move():
    with pytest.raises(FormatError) as info:
        play_script("d4\n\n# c\n3D e4\n", "m.txt", deal=1)  # deal 1 draws 2D then 3C (RULES.md §2)
    assert str(info.value) == "m.txt:4: move 2: wrong card: the card drawn is 3C, not 3D"


def test_play_script_on_a_given_game_plays_in_place():
    game = Game.from_deal(1)
    assert play_script("d4\ne4\n", "m.txt", game=game) is game and game.placed == 2


def test_play_move_game_number_and_illegal_cell():
    game = new_game(deal=1)
    game.play("d4")
    with pytest.raises(FormatError) as info:
        play_move(game, parse_move("a1"), "t.yaml", 9, 2, 3)
    assert str(info.value) == "t.yaml:9: game 3, move 2: illegal move a1: a1 is not orthogonally adjacent to a pile"


def test_new_game_sources():
    assert new_game(deal=1).deal == 1
    assert new_game(deck=[Card.parse("5C")]).deck == (Card.parse("5C"),)
    assert new_game().deck == ()
    with pytest.raises(FormatError) as info:
        play_script("d4\n", "m.txt", deck=[Card.parse("5C"), Card.parse("5C")])
    assert str(info.value) == "m.txt: the deck holds 5C twice"


def test_the_worked_example_replays():
    # RULES.md §7, step by step: flipped cells and face-down counts
    game = play_script("5C d4\n9D e4\n2H c4\n7S d4\n7C d3\nAS d5\n", "m.txt")
    assert [[str(c) for c in p.flipped] for p in game.moves] == [
        [], ["d4"], ["d4", "e4"], ["c4", "e4"], [], ["d3", "d4"],
    ]
    assert [p.face_down for p in game.moves] == [0, 1, 1, 1, 1, 3]


def test_every_prompt_command_form_is_read_by_the_script_reader_too():
    """FORMATS.md: one syntax for the prompt and for scripts, so a script written at
    the prompt (forced saves, ``state --full``) replays from a file."""
    from foursquare.formats.movescript import PromptCommand as Command
    from foursquare.formats.movescript import parse_entry

    assert parse_entry("save! game.yaml") == Command("save!", "game.yaml")
    assert parse_entry("STATE! s.yaml") == Command("state!", "s.yaml")
    assert parse_entry("state --full") == Command("state", "--full")
    game = play_script("d4\nsave! x.yaml\nstate --full\nstate! y.yaml\ne4\n", "s.moves", deal=1)
    assert [str(p.cell) for p in game.moves] == ["d4", "e4"]
