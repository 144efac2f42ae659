"""Input files: reading sources, deck files, and telling the kinds of input apart (FORMATS.md)."""

import io
import sys
from pathlib import Path

import pytest

from foursquare import Game, get_rules
from foursquare.engine.cards import Card
from foursquare.errors import FormatError
from foursquare.formats.inputs import read_source
from foursquare.formats.loading import input_kind, load_input, read_deck
from foursquare.formats.state import state_text
from foursquare.formats.transcript import transcript_text

DATA = Path(__file__).parents[1] / "data" / "formats"
DEAL_1 = [str(c) for c in Game.from_deal(1).deck]  # RULES.md §2 vector: 2D 3C 7D 7H 9H 9D 5H 3D TH 6S ...


def error(fn, *args, **kwargs):
    with pytest.raises(FormatError) as info:
        fn(*args, **kwargs)
    return str(info.value)


# ------------------------------------------------------------------ read_source


def test_read_source_decodes_bom_and_crlf(tmp_path):
    path = tmp_path / "m.txt"
    path.write_bytes("\ufeffd4\r\ne4\r\n".encode())
    assert read_source(str(path)) == ("d4\ne4\n", str(path))


def test_read_source_errors_have_no_traceback(tmp_path):
    assert error(read_source, str(tmp_path / "nope.yaml")) == f"{tmp_path / 'nope.yaml'}: no such file"
    assert error(read_source, str(tmp_path)) == f"{tmp_path}: is a directory, not a file"
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"d4\ne4\n# caf\xe9\n")
    assert error(read_source, str(bad)) == f"{bad}:3: not UTF-8 text"


def test_read_source_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\ufeff7H d4\r\n".encode())))
    assert read_source("-") == ("7H d4\n", "<stdin>")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff")))
    assert error(read_source, "-") == "<stdin>:1: not UTF-8 text"


# -------------------------------------------------------------------- read_deck


def test_read_deck_whole_deck_with_comments_and_spellings():
    text = "# deal 1, top first\n" + " ".join(DEAL_1[:20]) + "  # first half\n" + "\n".join(DEAL_1[20:]).lower()
    text = text.replace("TD", "10♦") if "TD" in text else text
    assert [str(c) for c in read_deck(text, "d.txt")] == DEAL_1


def test_read_deck_prefix():
    assert read_deck("5C 9D 2H", "d.txt") == [Card.parse(c) for c in ("5C", "9D", "2H")]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("5C 9D\n2H 5C\n", "d.txt:2: 5C is listed twice (first on line 1)"),
        ("5C\nno\n", "d.txt:2: not a card: 'no'"),
        ("5C 010\n", "d.txt:1: not a card: '010'"),
        ("5C 1e3\n", "d.txt:1: not a card: '1e3'"),
        ("5C KH\n", "d.txt:1: KH is not a card of the standard deck"),
        ("# nothing\n\n", "d.txt:1: the deck file lists no cards"),
        ("", "d.txt:1: the deck file lists no cards"),
    ],
)
def test_read_deck_errors(text, expected):
    assert error(read_deck, text, "d.txt").startswith(expected)


def test_a_deck_of_41_cards():
    # 41 cards of a 40-card deck: the 41st is a repeat or not a card of the deck
    text = " ".join(DEAL_1) + "\n" + DEAL_1[0]
    assert error(read_deck, text, "d.txt") == f"d.txt:2: {DEAL_1[0]} is listed twice (first on line 1)"
    assert error(read_deck, " ".join(DEAL_1) + "\nJC", "d.txt") == "d.txt:2: JC is not a card of the standard deck"


def test_a_deck_of_39_cards_is_a_prefix():
    assert [str(c) for c in read_deck(" ".join(DEAL_1[:39]), "d.txt")] == DEAL_1[:39]


def test_a_deck_too_long_for_the_rules():
    rules = get_rules("standard").with_changes(ranks=5)  # 20 cards
    text = " ".join(str(c) for c in Game.from_deal(1, rules).deck) + "\n" + "AC"
    wanted = "d.txt:2: AC is listed twice" if "AC" in text.split("\n")[0] else "d.txt:2: too many cards"
    assert error(read_deck, text, "d.txt", rules).startswith(wanted)
    assert len(read_deck(text.split("\n")[0], "d.txt", rules)) == 20


# ------------------------------------------------------------------- load_input


def test_input_kind():
    game = Game.from_deal(1)
    game.play("d4")
    assert input_kind(transcript_text(game)) == "transcript"
    assert input_kind(state_text(game)) == "state"
    assert input_kind("# comment\n\nd4\n7H e4\n") == "moves"
    assert input_kind("---\nfoursquare: 1\n") == "transcript"
    assert input_kind("") == "moves"


@pytest.mark.parametrize("text", ["- d4\n- e4\n", "# moves\n-\n", "[d4, e4]\n"])
def test_a_yaml_list_or_flow_collection_is_read_as_yaml_not_as_moves(text):
    # a YAML file that is not a game says so, rather than "not a card: '-'"
    assert input_kind(text) == "transcript"
    with pytest.raises(FormatError, match=r"^f.yaml:\d: game 1: a game must be a mapping"):
        load_input(text, "f.yaml", deal=1)


@pytest.mark.parametrize("text", ["d4\n- e4\n", "-d4\n", "7H d4\n"])
def test_a_move_script_is_decided_by_its_first_line(text):
    assert input_kind(text) == "moves"


def test_load_input_move_script_with_deal_deck_or_named_cards():
    game = load_input("d4\n# comment\n  e4  \n7d c4\n", "m.txt", deal=1)
    assert [str(p.card) for p in game.moves] == DEAL_1[:3]
    game = load_input("d4\ne4\n", "m.txt", deck=[Card.parse("AS"), Card.parse("TH")])
    assert [str(p.card) for p in game.moves] == ["AS", "TH"]
    game = load_input("5C d4\n9D e4\n", "m.txt")
    assert [str(p.card) for p in game.moves] == ["5C", "9D"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("d4\n\n3D e4\n", "m.txt:3: move 2: wrong card: the card drawn is 3C, not 3D"),
        ("d4\ne4\n# x\ng7\n", "m.txt:4: move 3: illegal move g7: not next to a pile (above, below or beside it)"),
        ("d4\nno\n", "m.txt:2: not a move or a command: 'no'"),
        ("d4\n7H d4 e4\n", "m.txt:2: not a move"),
        ("\ufeffd4\r\ne4\r\n010\r\n", "m.txt:3: not a cell: '010'"),
    ],
)
def test_load_input_move_script_errors_name_the_line(text, expected):
    assert error(load_input, text, "m.txt", deal=1).startswith(expected)


def test_load_input_move_script_without_a_deal_needs_named_cards():
    # the library's words; the command line says "give --deal N or --deck FILE" (tests/cli/test_cli_*)
    needs = "the moves don't name their cards; name the deal or the deck"
    assert error(load_input, "d4\n", "m.txt") == f"m.txt:1: {needs}"
    # said at the first move that names no card, after the ones that do
    assert error(load_input, "# c\n5D d1\nAH d1\n\nd1\n", "m.txt") == f"m.txt:5: {needs}"
    assert error(load_input, "5D d1\nundo\nredo\nd2\n", "m.txt") == f"m.txt:4: {needs}"
    # with a deck that runs out, the engine's own words (the deck was given)
    assert error(load_input, "d4\nd5\n", "m.txt", deck=[Card.parse("5C")]) == (
        "m.txt:2: move 2: illegal move d5: the next card is unknown: the move must name it (like 7H d4)"
    )


def test_load_input_transcript_and_state():
    game = Game.from_deal(1)
    for cell in ("d4", "e4", "c4"):
        game.play(cell)
    again = load_input(transcript_text(game), "t.yaml")
    assert again.moves == game.moves
    again = load_input(state_text(game), "s.yaml")
    assert again.moves == game.moves and again.deck == game.deck
    # a transcript that names no deal takes it from outside
    again = load_input('foursquare: 1\nmoves: ["d4", "e4", "c4"]\n', "t.yaml", deal=1)
    assert again.moves == game.moves


def test_load_input_reports_file_errors():
    assert error(load_input, "foursquare: 1\ndeal: 1\nmoves: [d4, z9]\n", "t.yaml").startswith(
        "t.yaml:3: game 1, move 2: not a cell: 'z9'"
    )
    assert error(load_input, "foursquare: 1\ngrid: {}\nnext: null\n", "s.yaml") == (
        "s.yaml:1: missing remaining: a player's view cannot be replayed or resumed: the hidden order of the stock (remaining) is missing (foursquare hint reads a player's view)"
    )


@pytest.mark.parametrize(
    "name, deal, placed",
    [("worked-example.moves", None, 6), ("deal-1.moves", 1, 5), ("two-games.yaml", None, None), ("worked-example.state.yaml", None, 6)],
)
def test_example_files(name, deal, placed):
    text, source = read_source(str(DATA / name))
    if placed is None:
        assert error(load_input, text, source).endswith("the file holds 2 games; give a one-game transcript")
        return
    game = load_input(text, source, deal=deal)
    assert game.placed == placed


@pytest.mark.parametrize("text", ["", "\n\n", "  \r\n"])
def test_load_input_empty_file_is_an_error(text):
    assert error(load_input, text, "e.txt") == "e.txt:1: the file is empty (expected a move script, a transcript or a state)"


def test_an_endless_or_huge_input_is_refused_not_read_into_memory(tmp_path, monkeypatch):
    import foursquare.formats.inputs as files

    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 1000)
    big = tmp_path / "big.yaml"
    big.write_text("# x\n" * 400)
    with pytest.raises(FormatError, match="too large"):
        read_source(str(big))
    big.write_text("# x\n" * 250)  # exactly at the limit: read
    assert read_source(str(big))[0].count("\n") == 250


def test_standard_input_is_never_read_past_the_size_limit(monkeypatch):
    import foursquare.formats.inputs as files
    from foursquare.formats.inputs import InputFile

    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 1000)
    pipe = io.BytesIO(b"d4\n" + b"# x\n" * 100_000)
    monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": pipe})())
    read = []
    with pytest.raises(FormatError) as caught:
        read.extend(InputFile("-"))
    assert str(caught.value) == "<stdin>:251: too large: over 1,000 bytes, more than any game file holds"
    assert pipe.tell() == 1001  # one byte past the limit, no more
    assert "".join(read).count("\n") == 250  # the text before it was given first
