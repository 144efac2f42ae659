"""A move line of the wrong shape (FORMATS.md, "Move scripts": a line holds one move,
a cell optionally preceded by the card) is told as such, at its file and line, with
status 1: two cells on one line is not "not a card: 'e4'".  The same words wherever a
move is read: a script replayed, a script piped into play, a transcript's move, the prompt."""

from __future__ import annotations

import pytest
from helpers import invoke

from foursquare.engine.game import Game
from foursquare.errors import ParseError
from foursquare.formats.movescript import parse_move

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
