"""Move scripts (FORMATS.md "Move scripts"): one move a line, comments, CRLF, BOM, located errors."""

import pytest
from helpers import invoke

from foursquare.engine.cards import Card
from foursquare.engine.game import Game
from foursquare.engine.layout import Cell
from foursquare.errors import FormatError, ParseError
from foursquare.formats.movescript import Move, new_game, parse_move, play_move, play_script, read_entries


def test_parse_move_cell_or_card_and_cell():
    assert parse_move("d4") == Move(Cell.parse("d4"))
    assert parse_move("7h  D4") == Move(Cell.parse("d4"), Card.parse("7H"))
    assert parse_move("10♦ e4") == Move(Cell.parse("e4"), Card.parse("TD"))
    assert str(parse_move("td e4")) == "TD e4"


def test_reading_skips_comments_and_blank_lines_and_keeps_line_numbers():
    lines = "\ufeff# a script\r\n\r\nd4\r\n  7H e4  # comment\r\n".splitlines()
    assert [(n, str(m)) for n, m in read_entries(lines, "m.txt")] == [(3, "d4"), (4, "7H e4")]


@pytest.mark.parametrize("bait", ["no", "on", "010", "1e3", "d0", "d04", "h1x"])
def test_coercion_bait_is_not_a_move(bait):
    with pytest.raises(ParseError) as info:
        parse_move(bait)
    assert str(info.value).startswith(f"not a cell: {bait!r}")


def test_play_script_reports_the_line_of_the_failing_move():
    with pytest.raises(FormatError) as info:
        play_script("d4\n\n# c\n3D e4\n", "m.txt", deal=1)  # deal 1 draws 2D then 3C (RULES.md §2)
    assert str(info.value) == "m.txt:4: move 2: wrong card: the card drawn is 3C, not 3D"


def test_play_move_game_number_and_illegal_cell():
    game = new_game(deal=1)
    game.play("d4")
    with pytest.raises(FormatError) as info:
        play_move(game, parse_move("a1"), "t.yaml", 9, 2, 3)
    assert str(info.value) == "t.yaml:9: game 3, move 2: illegal move a1: not next to a pile (above, below or beside it)"


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


# ----------------------------------------------------------------------------
# A move line of the wrong shape (FORMATS.md, "Move scripts": a line holds one move,
# a cell optionally preceded by the card) is told as such, at its file and line, with
# status 1: two cells on one line is not "not a card: 'e4'".  The same words wherever a
# move is read: a script replayed, a script piped into play, a transcript's move, the prompt.


SHAPE = "(a move is a cell like d4, or a card and a cell like 7H d4)"

#: A line of the wrong shape and what the message says after "not a move: 'LINE': ".
WRONG_SHAPES = [
    ("e4 f4", f"two cells on one line, and a line holds one move {SHAPE}"),
    ("d4 e4 f4", f"three cells on one line, and a line holds one move {SHAPE}"),
    ("7H d4 8D e4", f"two cells on one line, and a line holds one move {SHAPE}"),
    ("d4e4", f"two cells on one line, and a line holds one move {SHAPE}"),
    ("d4 7H", "the card comes first, then the cell: 7H d4"),
    ("7H", f"a card without a cell {SHAPE}"),
    ("7H 8D", f"two cards and no cell {SHAPE}"),
    ("7H d4 x", "'x' after the move 7H d4 (a line holds one move)"),
    ("d4 good move", "'good move' after the move d4 (a line holds one move)"),
    ("7H,d4", "write a space between the card and the cell: 7H d4"),
    ("7h-d4", "write a space between the card and the cell: 7h d4"),
    ("7Hd4", "write a space between the card and the cell: 7H d4"),
    ("10Hd4", "write a space between the card and the cell: 10H d4"),
    ("d 4", "a cell is written without a space: d4"),
    ("7 H d4", "a card is written without a space: 7H d4"),
]


@pytest.mark.parametrize("line, words", WRONG_SHAPES)
def test_a_line_of_the_wrong_shape_says_what_is_wrong(line, words):
    with pytest.raises(ParseError) as info:
        parse_move(line)
    assert str(info.value) == f"not a move: {line!r}: {words}"


@pytest.mark.parametrize("line, words", WRONG_SHAPES)
def test_replay_names_the_file_and_the_line(tmp_path, line, words):
    script = tmp_path / "game.moves"
    script.write_text(f"# deal 1\nd4\n\n{line}\n")
    result = invoke(["replay", script, "--deal", "1", "--final"])
    assert result.exit_code == 1
    assert result.stderr == f"{script}:4: not a move: {line!r}: {words}\n"


@pytest.mark.parametrize("line, words", WRONG_SHAPES[:6])
def test_a_script_piped_into_play_names_its_line(line, words):
    result = invoke(["play", "--deal", "1", "--no-history"], input=f"d4\n{line}\n")
    assert result.exit_code == 1
    assert result.stderr == f"<stdin>:2: not a move: {line!r}: {words}\n"


@pytest.mark.parametrize("line, words", WRONG_SHAPES[:6])
def test_a_transcript_move_of_the_wrong_shape(tmp_path, line, words):
    path = tmp_path / "t.yaml"
    path.write_text(f'foursquare: 1\ndeal: 1\nmoves:\n- "d4"\n- "{line}"\n')
    result = invoke(["validate", path])
    assert result.exit_code == 1
    assert f"{path}:5: game 1, move 2: not a move: {line!r}: {words}" in result.stderr


def test_the_prompt_says_it_and_asks_again():
    result = invoke(["play", "--deal", "1", "--interactive", "--ascii", "--no-history"], input="e4 f4\nd4\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"not a move: 'e4 f4': two cells on one line, and a line holds one move {SHAPE}" in result.output
    assert "Last move: 2D to d4" in result.stdout


@pytest.mark.parametrize(
    "line, message",
    [
        ("7X e4", "not a card: '7X'"),  # a word that is neither a card nor a cell: its own error
        ("z9", "not a cell: 'z9'"),
        ("d44", "not a cell: 'd44'"),
        ("7HH d4", "not a card: '7HH'"),
        ("7H d 4", "not a move: '7H d 4' (expected a cell like d4, or a card and a cell like 7H d4)"),
    ],
)
def test_a_line_that_is_not_cards_and_cells_keeps_the_words_own_error(line, message):
    with pytest.raises(ParseError) as info:
        parse_move(line)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("line", ["d4", "D4", "2D d4", "2d D4", "2♦ d4", " 2D   d4 "])
def test_a_well_formed_move_is_still_a_move(line):
    move = parse_move(line.strip())
    game = Game.from_deal(1)
    assert game.play(move.cell, move.card).cell == move.cell


@pytest.mark.parametrize("line", ["d4 " * 200_000, "7Hd4" * 200_000, "7H," * 200_000, "e4 f4 " + "x" * 500_000])
def test_a_huge_line_of_the_wrong_shape_gets_a_short_message_at_once(line):
    import time

    start = time.process_time()
    with pytest.raises(ParseError) as info:
        parse_move(line.strip())
    assert time.process_time() - start < 2.0
    assert len(str(info.value)) < 400 and "characters)" in str(info.value)


# --- the other way round: a file of one kind given where another is read -------------------


def _deck_line() -> str:
    from foursquare.engine.deal import deal_deck

    return " ".join(str(card) for card in deal_deck(89))


def test_a_deck_given_as_moves_says_it_looks_like_a_deck(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(_deck_line() + "\n")
    result = invoke(["replay", deck, "--deal", "89"])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith(f"{deck}:1: not a move: '5D AH 5C")
    assert line.endswith(f": a line of cards and no cell (is the file a deck?); {SHAPE[1:-1]}, one a line")


@pytest.mark.parametrize(
    "name, words",
    [
        ("deal89.moves", "3: not a card: 'd1' is a cell (is the file a move script?); a deck file lists cards, top first, separated by white space"),
        ("won.yaml", "3: not a card: 'foursquare:': the file is a transcript, not a deck (a deck file lists cards, top first, separated by white space); replay it, or resume the game from it"),
        ("state.yaml", "1: not a card: 'foursquare:': the file is a state, not a deck (a deck file lists cards, top first, separated by white space); foursquare state FILE reads it, play --resume FILE resumes it"),
    ],
)
def test_a_file_of_another_kind_given_as_a_deck_says_what_it_is(name, words):
    from helpers import EXAMPLES

    path = EXAMPLES / name
    result = invoke(["play", "--deck", path, "--no-history"])
    assert result.exit_code == 1
    assert result.stderr == f"{path}:{words}\n"


@pytest.mark.parametrize("text, line, words", [
    ("2D,3C,4H\n", 1, "not a card: '2D,3C,4H': a deck file lists cards, top first, separated by white space"),
    ("2D 3C\n4H;5S\n", 2, "not a card: '4H;5S': a deck file lists cards, top first, separated by white space"),
    ("2D 3C XX\n", 1, "not a card: 'XX' (expected rank A,2-9,T or 10 and suit C,D,H,S, like 7H or TD)"),
])
def test_a_deck_of_cards_not_apart(tmp_path, text, line, words):
    deck = tmp_path / "d.txt"
    deck.write_text(text)
    result = invoke(["solve", "--deck", deck])
    assert result.exit_code == 1
    assert result.stderr == f"{deck}:{line}: {words}\n"


@pytest.mark.parametrize("text", [None, "d4\ne4 # two moves\n"])
def test_a_deck_or_a_move_script_given_as_rules_says_it_is_not_a_rules_file(tmp_path, text):
    path = tmp_path / "r.txt"
    path.write_text(text if text is not None else _deck_line() + "\n")
    result = invoke(["state", "--deal", "1", "--rules", path])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith(f"{path}:1: not a rules file: ") and "is text, not a preset name or a rules mapping" in line
    assert line.count("\n") == 0 and "presets: standard," in line
    path.write_text("fivesquare\n")  # one word: a mistyped preset name, said as such
    result = invoke(["state", "--deal", "1", "--rules", path])
    assert result.stderr.startswith(f"{path}:1: rules: unknown preset 'fivesquare'")


@pytest.mark.parametrize("line", ["foursquare: 1", "deal: 153", "moves: [d4, e4]", "face_down: 2"])
def test_a_yaml_key_in_a_move_script_says_the_file_is_a_transcript_or_a_state(line):
    with pytest.raises(ParseError) as info:
        parse_move(line)
    assert str(info.value).startswith(f"not a move: '{line}': a YAML key, not a move (is this a transcript or a state?")


def test_a_transcript_piped_into_play_is_named_as_one():
    # `foursquare solve --deal 89 | foursquare play --deal 89` pipes a transcript, not moves
    transcript = invoke(["solve", "--deal", "89"]).output
    r = invoke(["play", "--deal", "89"], input=transcript)
    assert r.exit_code == 1
    assert "a YAML key, not a move (is this a transcript or a state?" in r.output
    assert "not a cell" not in r.output
