"""Robustness of the formats layer against hostile or surprising input.

Each test covers a whole kind of problem, not one input:

- numbers with more digits than Python converts (4300) anywhere text becomes a number;
- one unreadable game in a multi-game file spoils only that game (FILE:LINE: game K);
- messages never echo unbounded input;
- one move-script syntax (moves and the commands of interactive play) for every reader;
- clear messages for a file of the wrong kind and for moves that need a deal;
- the player's view read from a state, a player's view, a transcript or a move script;
- ASCII digits only in cells, cards, deal numbers and YAML numbers.
"""

from __future__ import annotations

import random

import pytest
import yaml
from helpers import EXAMPLES, invoke

from foursquare import Game
from foursquare.engine.cards import Card
from foursquare.engine.deal import parse_deal_number
from foursquare.engine.layout import Cell
from foursquare.engine.rules import STANDARD, get_rules
from foursquare.errors import FormatError, ParseError, RulesError, quote, shorten
from foursquare.formats.commands import TABLE, CommandKind
from foursquare.formats.loading import load_input, read_deck
from foursquare.formats.movescript import (
    COMMAND_NAMES,
    Move,
    PromptCommand,
    parse_entry,
    parse_move,
    play_script,
)
from foursquare.formats.schema import load_rules, read_rules
from foursquare.formats.state import read_state, read_view, state_text
from foursquare.formats.transcript import transcript_text, transcripts_text, validate
from foursquare.formats.yaml import YMap, YSeq, clean_text, iter_pieces, read_documents, read_each_document, strict

HUGE = "9" * 5000
#: Longest message allowed for any input (the input itself may be megabytes).
SHORT = 400


def message(fn, *args, **kwargs) -> str:
    with pytest.raises((FormatError, ParseError, RulesError)) as info:
        fn(*args, **kwargs)
    text = str(info.value)
    assert len(text) < SHORT and "\n" not in text, text[:500]
    return text


def played(deal: int, moves: int) -> Game:
    game = Game.from_deal(deal)
    rng = random.Random(deal)
    while not game.is_over and len(game.moves) < moves:
        game.play(rng.choice(game.legal_cells()))
    return game


def all_errors(text: str, source: str = "t.yaml") -> list[str]:
    return [str(e) for report in validate(text, source) for e in report.errors]


# ------------------------------------------------------------- 1. digit limits

GAME = 'foursquare: 1\ndeal: 1\nmoves: [{card: "2D", cell: "d4", face_down: 0}]\nresult: {score: null}\n'


@pytest.mark.parametrize(
    "old, new",
    [
        ("deal: 1", "deal: HUGE"),
        ("foursquare: 1", "foursquare: HUGE"),
        ("face_down: 0", "face_down: HUGE"),
        ("score: null", "score: HUGE"),
        ("deal: 1", "deal: 1\nrules: {preset: standard, size: HUGE}"),
    ],
)
def test_huge_numbers_in_a_transcript_are_range_errors(old, new):
    errors = all_errors(GAME.replace(old, new.replace("HUGE", HUGE)))
    assert errors and all(len(e) < SHORT for e in errors)
    assert any("must be a whole number" in e and "(5000 digits)" in e for e in errors), errors


@pytest.mark.parametrize("key", ["foursquare", "deal", "placed", "stock", "face_down", "score", "unknown"])
def test_huge_numbers_in_a_state_are_range_errors(key):
    text = state_text(played(3, 5))
    lines = [f"{key}: {HUGE}" if line.startswith(f"{key}:") else line for line in text.splitlines()]
    if not any(line.startswith(f"{key}:") for line in text.splitlines()):
        lines.insert(1, f"{key}: {HUGE}")
    got = message(read_state, "\n".join(lines) + "\n", "s.yaml")
    assert "must be a whole number" in got and "(5000 digits)" in got


@pytest.mark.parametrize(
    "text", [HUGE, "1" + "0" * 4400, "18446744073709551616", "0" * 5000 + "18446744073709551616"], ids=range(4)
)
def test_huge_deal_numbers_are_out_of_range(text):
    got = message(parse_deal_number, text)
    assert got.startswith("not a deal number:") and "18446744073709551615" in got


def test_leading_zeros_of_a_deal_number_are_refused_quickly():
    assert "leading zeros" in message(parse_deal_number, "0" * 5000 + "42")
    assert parse_deal_number("18446744073709551615") == 2**64 - 1


def test_huge_numbers_in_a_rules_file():
    got = message(read_rules, f"preset: standard\npile_cap: {HUGE}\n", "r.yaml")
    assert got.startswith("r.yaml:2: rules: pile_cap must be a whole number from 1 to 8")


def test_huge_ints_given_to_the_engine_do_not_break_its_messages():
    assert "about 5001 digits" in message(STANDARD.with_changes, size=10**5000)
    assert "about 5001 digits" in message(Game.from_deal, 10**5000)
    assert "about" in message(Card.parse, 10**5000)


# ---------------------------------------------- 2. one bad game of several

GOOD = ['foursquare: 1\ndeal: 1\nmoves: ["d4", "e4"]\n', 'foursquare: 1\ndeal: 2\nmoves: ["d4"]\n']
BROKEN = {
    "syntax": ("foursquare: 1\ndeal: 2\nmoves: [d4\n", 3, "YAML syntax error"),
    "duplicate": ("foursquare: 1\ndeal: 1\ndeal: 2\nmoves: []\n", 3, "duplicate key 'deal'"),
    "tag": ("foursquare: 1\ndeal: !!python/object:os.system {}\n", 2, "unsupported YAML tag"),
    "merge": ("foursquare: 1\n<<: {deal: 1}\n", 2, "merge keys"),
    "alias": ("foursquare: 1\ndeal: *nowhere\n", 2, "YAML syntax error"),
    "tab": ("foursquare: 1\n\tdeal: 1\n", 2, "a tab character: YAML indents with spaces only"),
    "control character": ("foursquare: 1\ndeal: 1\x07\n", 2, "U+0007"),
    "key not text": ("foursquare: 1\n[a]: 1\n", 2, "key must be text"),
}


@pytest.mark.parametrize("kind", BROKEN)
@pytest.mark.parametrize("position", [0, 1, 3])
def test_a_broken_game_spoils_only_itself(kind, position):
    bad, bad_line, words = BROKEN[kind]
    docs = [GOOD[0], GOOD[1], GOOD[0]]
    docs.insert(position, bad)
    text = "---\n".join(docs)
    reports = validate(text, "t16.yaml")
    assert [r.valid for r in reports] == [i != position for i in range(4)]
    [error] = reports[position].errors
    start = sum(doc.count("\n") + 1 for doc in docs[:position])  # each '---' is one line
    assert str(error).startswith(f"t16.yaml:{start + bad_line}: game {position + 1}: ")
    assert words in str(error)
    assert reports[position].game is None
    for i, report in enumerate(reports):
        assert report.number == i + 1
        if i != position:
            assert report.game is not None and report.game.placed == docs[i].count(", ") + 1


def test_an_unclosed_bracket_is_reported_in_its_own_game():
    text = GOOD[0] + "---\n" + "foursquare: 1\ndeal: 2\nmoves: [d4\n" + "---\n" + GOOD[1]
    errors = all_errors(text, "t16.yaml")
    assert errors == [errors[0]] and errors[0].startswith("t16.yaml:7: game 2: YAML syntax error")


STREAMS = [
    "a: 1\n---\nb: 2\n",
    "---\na: 1\n---\nb: 2\n...\n",
    "%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n---\nb: 2\n",
    "--- {a: 1}\n--- [1, 2]\n---\n",
    "a: |\n  text\n  --- not a marker (indented)\n---\nb: >\n  folded\n\n  more\n",
    "# comment\n\n---   # a comment after the marker\na: 1\n...\n# trailing comment\n",
    "a: 'one\n  two'\n---\nb: \"x\n  y\"\n",
    "---a: 1\n",  # not a marker: '---a' is text
    "a: 1\n----: 2\n...x: 3\n",  # nor are '----' and '...x'
    "--- |\n  block\n--- >-\n  folded\n",
    "a: &x [1]\nb: *x\n---\nc: 1\n",
    "a: 1\r\n---\r\nb: 2\r\n",
    "\ufeffa: 1\n---\nb: 2\n",
    "a: 1\n---\n\n---\nb: 2\n",
    "a: 1\n...\n...\n---\nb: 1\n",
]


@pytest.mark.parametrize("loader", [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else []))
@pytest.mark.parametrize("text", STREAMS)
def test_reading_document_by_document_matches_reading_the_stream(monkeypatch, loader, text):
    monkeypatch.setattr(strict, "LOADER", loader)
    clean = clean_text(text)
    whole = list(yaml.compose_all(clean, Loader=loader))
    docs = read_documents(text, "f.yaml")
    assert len(docs) == len(whole)
    for ours, theirs in zip(docs, whole, strict=False):
        if ours is None:
            assert theirs is None or _is_empty(theirs)
            continue
        assert ours.line == theirs.start_mark.line + 1
        assert _plain(ours) == yaml.safe_load(yaml.serialize(theirs))
    lines = clean.splitlines(keepends=True)
    for piece in iter_pieces((clean,)):  # each piece is the stream's own lines, from its offset
        assert piece.text and "".join(lines[piece.offset : piece.offset + len(piece.text.splitlines())]) == piece.text


def _is_empty(node: yaml.Node | None) -> bool:
    """Whether a composed PyYAML node is an empty document (what our reader reads as ``None``)."""
    return node is None or (
        isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null" and node.value == "" and not node.style
    )


def _plain(node):
    if isinstance(node, YMap):
        return {k: _plain(v) for k, v in node.entries.items()}
    if isinstance(node, YSeq):
        return [_plain(v) for v in node.items]
    return yaml.safe_load(yaml.serialize(yaml.ScalarNode(f"tag:yaml.org,2002:{node.tag}", node.text)))


def test_line_numbers_of_every_game_of_a_long_file():
    games = [played(d, 6 + d % 30) for d in range(30)]
    text = transcripts_text(games)
    whole = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    docs = read_each_document(text, "t.yaml")
    assert [d.node.line for d in docs] == [n.start_mark.line + 1 for n in whole]
    reports = validate(text, "t.yaml")
    assert all(r.valid for r in reports) and [r.game.placed for r in reports] == [g.placed for g in games]


def test_a_one_game_file_with_a_syntax_error_is_one_invalid_game():
    [report] = validate("foursquare: 1\ndeal: [1\n", "t.yaml")
    assert not report.valid and str(report.errors[0]).startswith("t.yaml:2: game 1: YAML syntax error")


def test_files_read_as_one_document_still_report_the_first_error():
    # a state or a rules file is one document: its first error is raised, as before
    assert message(read_state, "a: 1\na: 2\n", "s.yaml") == "s.yaml:2: duplicate key 'a' (first on line 1)"
    assert message(read_rules, "size: 4\n---\nsize: [\n", "r.yaml").startswith("r.yaml:3: YAML syntax error")


# -------------------------------------------------------- 3. bounded echoes

BIG = "x" * 1_000_000
KEY = "k" * 1000  # a YAML key is at most 1024 characters: longer is a syntax error
STATE = state_text(played(4, 5))


ECHO_CASES = {
    "card": lambda: Card.parse(BIG),
    "card of digits": lambda: Card.parse("7" * 10**6),
    "card not text": lambda: Card.parse([1] * 10**5),
    "cell": lambda: Cell.parse(BIG),
    "cell of digits": lambda: Cell.parse("d" + "4" * 10**6),
    "deal": lambda: parse_deal_number(BIG),
    "deal of digits": lambda: parse_deal_number("1" * 10**6),
    "move": lambda: parse_move(BIG + " d4 e4"),
    "entry": lambda: parse_entry(BIG),
    "entry with words": lambda: parse_entry("save a " + BIG),
    "entry card and cell": lambda: parse_entry("7H " + BIG),
    "deck file": lambda: read_deck(f"AC 2C {BIG}\n", "d.txt"),
    "move script": lambda: play_script(f"d4\n{BIG}\n", "m.txt", deal=1),
    "input": lambda: load_input(f"d4\n{BIG}\n", "m.txt", deal=1),
    "rules text": lambda: read_rules(BIG, "r.yaml"),
    "rules preset": lambda: read_rules(f"preset: {BIG}\n", "r.yaml"),
    "rules key": lambda: read_rules(f"preset: standard\n{KEY}: 1\n", "r.yaml"),
    "rules choice": lambda: read_rules(f"preset: standard\ncomparison: {BIG}\n", "r.yaml"),
    "rules name": lambda: load_rules(BIG),
    "preset name": lambda: get_rules(BIG),
    "state status": lambda: read_state(STATE.replace("status: playing", f"status: {BIG}"), "s.yaml"),
    "state score": lambda: read_state(STATE.replace("score: null", f"score: {'9' * 5000}"), "s.yaml"),
    "state key": lambda: read_state(f"foursquare: 1\n{KEY}: 1\n", "s.yaml"),
    "tag": lambda: read_state(f"foursquare: 1\na: !{BIG} 1\n", "s.yaml"),
    "duplicate key": lambda: read_state(f"foursquare: 1\n{KEY}: 1\n{KEY}: 2\n", "s.yaml"),
    "grid cell": lambda: read_state(STATE.replace('"c3":', f"{KEY}:"), "s.yaml"),
    "grid cell in flow": lambda: read_state(f"foursquare: 1\ngrid: {{{BIG}: 1}}\n", "s.yaml"),
    "alias": lambda: read_state(f"foursquare: 1\nx: *{BIG}\n", "s.yaml"),
    "anchor": lambda: read_state(f"foursquare: 1\nx: &{BIG}\n", "s.yaml"),
    "bad character": lambda: read_state(f"foursquare: 1\nx: {BIG}\x07\n", "s.yaml"),
}


@pytest.mark.parametrize("case", ECHO_CASES)
def test_messages_never_echo_unbounded_input(case):
    message(ECHO_CASES[case])  # one short line, whatever the input


@pytest.mark.parametrize(
    "old, new",
    [
        ("status: null", "status: BIG"),
        ("status: null", "status: 'BIG'"),
        ("card: \"2D\"", "card: BIG"),
        ("cell: \"d4\"", "cell: BIG"),
        ("cell: \"d4\"", "cell: \"d4\", flipped: [BIG]"),
        ("deal: 1", "deal: BIG"),
        ("deal: 1", "deck: [BIG]"),
        ("rules: standard", "rules: BIG"),
        ("foursquare: 1", "foursquare: 1\nKEY: 1"),
        ("moves:", "moves:\n- BIG"),
    ],
)
def test_transcript_messages_never_echo_unbounded_input(old, new):
    text = 'foursquare: 1\nrules: standard\ndeal: 1\nmoves:\n- {card: "2D", cell: "d4"}\nresult: {status: null}\n'
    assert old in text
    errors = all_errors(text.replace(old, new.replace("BIG", BIG).replace("KEY", KEY)))
    assert errors and all(len(e) < SHORT for e in errors), [e[:500] for e in errors]
    assert any("…" in e for e in errors), errors


def test_quote_and_shorten():
    assert quote("d4") == "'d4'" and quote(12) == "12" and quote(None) == "None"
    # a value is cut only when that shortens it: 41 characters are not cut to 40 and a note
    assert shorten("x" * 41) == "x" * 41 and quote("x" * 41) == repr("x" * 41)
    assert shorten("x" * 100) == "x" * 40 + "…(100 characters)"
    assert quote("x" * 100) == repr("x" * 40) + "…(100 characters)"
    for n in range(30, 120):
        assert len(shorten("x" * n)) <= n and len(quote("x" * n)) <= n + 2
    assert len(quote("é" * 10**6)) < 80 and len(quote(10**10000)) < 80 and len(quote(list(range(10**5)))) < 80


# ---------------------------------------------- 4. one move-script syntax

SCRIPT = """\
# Deal 89, some of it: every command a player may type
5D d1
AH d1
undo
redo
moves
show
hint
help
state
state s.yaml
save game.yaml
reveal
m
?
U
r
5C d1
quit
this line is never read
"""


def test_every_reader_accepts_the_commands_of_interactive_play():
    game = play_script(SCRIPT, "big2.moves", deal=89)
    assert [f"{p.card} {p.cell}" for p in game.moves] == ["5D d1", "AH d1", "5C d1"]
    assert load_input(SCRIPT, "big2.moves", deal=89).moves == game.moves
    assert load_input(SCRIPT, "big2.moves", deal=89).view() == game.view()


@pytest.mark.parametrize(
    "line, entry",
    [
        ("d4", Move(Cell.parse("d4"))),
        ("  7h D4  # comment", Move(Cell.parse("d4"), Card.parse("7H"))),
        ("UNDO", PromptCommand("undo")),
        ("exit", PromptCommand("quit")),
        ("q", PromptCommand("quit")),
        ("save a.yaml", PromptCommand("save", "a.yaml")),
        ("state", PromptCommand("state")),
        ("state --full", PromptCommand("state", "--full")),
        ("\ufeffhelp\r\n", PromptCommand("help")),
        ("# only a comment", None),
        ("   ", None),
    ],
)
def test_parse_entry_classifies_a_line(line, entry):
    assert parse_entry(line) == entry


def test_every_command_name_and_alias_is_a_command():
    for name in COMMAND_NAMES:
        entry = parse_entry(name + (" f.yaml" if name == "save" else ""))
        assert isinstance(entry, PromptCommand) and entry.name == name
    for alias, name in ((alias, c.name) for c in TABLE for alias in c.aliases):
        assert parse_entry(alias) == PromptCommand(name) and name in COMMAND_NAMES
    display = {c.name for c in TABLE if c.kind in (CommandKind.DISPLAY, CommandKind.FORCED)}
    assert display == {"moves", "show", "reveal", "hint", "help", "state", "save", "save!", "state!"}


@pytest.mark.parametrize(
    "line, expected",
    [
        ("undoo", "not a move or a command: 'undoo'"),
        ("save", "save: name the file"),
        ("undo 2", "undo: too many words"),
        ("save a b", "save: too many words"),
        ("z9", "not a cell: 'z9'"),
        ("7H z9", "not a cell: 'z9'"),
        ("ZZ d4", "not a card: 'ZZ'"),
        ("7H d4 e4", "not a move: '7H d4 e4'"),
    ],
)
def test_parse_entry_errors(line, expected):
    assert message(parse_entry, line).startswith(expected)
    assert message(play_script, f"d4\n{line}\n", "m.txt", deal=1).startswith(f"m.txt:2: {expected}")


def test_undo_and_redo_in_a_script():
    assert play_script("d4\ne4\nundo\nundo\nredo\n", "m", deal=1).placed == 1
    assert message(play_script, "d4\nundo\nundo\n", "m", deal=1) == "m:3: undo: nothing to undo"
    assert message(play_script, "d4\nredo\n", "m", deal=1).startswith("m:2: redo: there is no move taken back")
    # a new move forgets what redo could replay
    assert message(play_script, "d4\ne4\nundo\nc4\nredo\n", "m", deal=1).startswith("m:5: redo:")
    # an illegal move after an undo counts moves as the game does
    assert message(play_script, "d4\ne4\nundo\na1\n", "m", deal=1).startswith("m:4: move 2: illegal move a1")


def test_the_session_commands_agree_with_the_classifier():
    from foursquare.formats.commands import TABLE

    names = {c.usage.split()[0] for c in TABLE if c.usage is not None}
    assert names == set(COMMAND_NAMES)


# ------------------------------------------------- 5. clearer messages

NEEDS = "the moves don't name their cards; name the deal or the deck"  # the library's words


@pytest.mark.parametrize(
    "script, line",
    [
        ("d4\n", 1),
        ("# c\n\n5D d1\nAH d1\n5C d1\nd1\n", 6),
        ("5D d1\nundo\nredo\nhint\nd2\n", 5),
    ],
)
def test_moves_without_cards_need_a_deal(script, line):
    assert message(load_input, script, "deal89.moves") == f"deal89.moves:{line}: {NEEDS}"


def test_a_transcript_without_deal_or_deck_says_so_at_the_first_move_without_a_card():
    [error] = all_errors('foursquare: 1\nmoves: ["5D d1", "AH d1", "d1"]\n')
    assert error.startswith("t.yaml:2: game 1, move 3: the game names no deal or deck and this move names no card")


@pytest.mark.parametrize(
    "text, line",
    [
        ("5D d1 \nAH d1\nd1\n", 1),
        ("# Deal 89\n# comments\n\n5D d1\nd1  # a move\n", 4),
        ("d4\ne4\nundo\n", 1),
        ("undo\n", 1),
    ],
)
def test_validate_says_a_move_script_is_not_a_transcript(text, line):
    got = message(validate, text, "m.moves")
    assert got == f"m.moves:{line}: this looks like a move script, not a transcript (replay it with foursquare replay)"


@pytest.mark.parametrize("player_view", [False, True])
def test_validate_says_a_state_is_not_a_transcript(player_view):
    text = state_text(played(5, 6), player_view=player_view)
    # a whole file that is a state (or a player's view): one file error, no broken game
    kind = "a player's view" if player_view else "a state"
    assert message(validate, text, "s.yaml").startswith(f"s.yaml:1: this is {kind}, not a transcript")
    # the states of replay --format yaml: one message a document
    two = state_text(played(5, 3)) + "---\n" + state_text(played(5, 4))
    assert [e.split(": ", 2)[1] for e in all_errors(two, "s.yaml")] == ["game 1", "game 2"]


def test_a_misspelt_key_is_still_an_unknown_key_not_a_state():
    [error] = all_errors('foursquare: 1\ndeal: 1\nmoves: ["d4"]\nface_down: 0\n')
    assert "unknown key 'face_down' in a game" in error


# -------------------------------------------------- 6. the player's view


@pytest.mark.parametrize("deal", range(0, 40))
def test_read_view_of_every_kind_of_file(deal):
    game = played(deal, deal % 20)
    view = game.view()
    assert read_view(state_text(game), "s.yaml") == view
    assert load_input(transcript_text(game), "t.yaml").view() == view
    moves = "".join(f"{p.cell}\n" for p in game.moves) or "# no move yet\nshow\n"
    assert load_input(moves, "m.moves", deal=deal).view() == view
    player = state_text(game, player_view=True)
    if game.face_down == 0:
        assert read_view(player, "pv.yaml") == view
    else:
        got = message(read_view, player, "pv.yaml")
        assert "the face-down top card is hidden (null), so the view is not exact" in got
        # filled in by hand (the player saw the card), the view is exact again
        filled = player
        for cell, pile in game.grid.items():
            if not pile.face_up:
                filled = filled.replace(f'"{cell}": {{cards: [', f'"{cell}": {{cards: [', 1)
        lines = []
        for line in filled.splitlines():
            for cell, pile in game.grid.items():
                if line.strip().startswith(f'"{cell}":') and not pile.face_up:
                    line = line.replace("null]", f'"{pile.top}"]')
            lines.append(line)
        assert read_view("\n".join(lines) + "\n", "pv.yaml") == view
    # state --player-view --reveal writes them (the player saw them placed): exact, and nothing more
    revealed = state_text(game, player_view=True, reveal=True)
    assert read_view(revealed, "pv.yaml") == view
    assert "remaining:" not in revealed and "moves:" not in revealed and "\ndeal:" not in revealed
    with pytest.raises(FormatError, match="a player's view cannot be replayed or resumed"):
        read_state(revealed, "pv.yaml")


def test_a_player_view_is_checked_like_a_state():
    game = played(7, 8)
    while game.face_down:
        game.undo()
    text = state_text(game, player_view=True)
    assert read_view(text, "pv.yaml") == game.view()
    for old, new, expected in [
        ("view: player", "view: player\ndeal: 7", "pv.yaml:3: a player's view (view: player) has no deal"),
        ("view: player", "view: player\nremaining: []", "has no remaining"),
        ("view: player", "view: player\ncolour: red", "unknown key 'colour' in a player's view"),
        (f"placed: {game.placed}", f"placed: {game.placed + 1}", "placed:"),
        (f"stock: {game.stock_count}", "stock: 3", "stock: 3, but the grid gives"),
        ("status: playing", "status: won", "status: won, but the position is playing"),
        (f'next: "{game.next_card}"', "next: null", "next is null but the game goes on"),
        (f'next: "{game.next_card}"', f'next: "{game.moves[0].card}"', "appears twice"),
    ]:
        assert old in text, old
        assert expected in message(read_view, text.replace(old, new, 1), "pv.yaml")


def test_a_finished_game_has_a_view_without_a_next_card():
    game = played(11, 40)
    assert game.is_over
    view = load_input(transcript_text(game), "t.yaml").view()
    assert view.next_card is None and view.status == game.status


def test_a_state_resumed_from_a_player_view_is_still_refused():
    assert "cannot be replayed or resumed" in message(read_state, state_text(played(2, 3), player_view=True), "pv.yaml")


# ---------------------------------------------------- 7. ASCII digits only

UNICODE_DIGITS = ["４", "٤", "۴", "४", "৪", "𝟒", "⁴", "₄", "④"]


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_only_ascii_digits_make_cells_cards_deals_and_numbers(digit):
    for text in (f"d{digit}", f"{digit}d", f"d1{digit}", f"D{digit}"):
        assert "not a cell" in message(Cell.parse, text)
    for text in (f"{digit}H", f"1{digit}H", f"{digit}0D"):
        assert "not a card" in message(Card.parse, text)
    assert "not a deal number" in message(parse_deal_number, f"4{digit}")
    errors = all_errors(f"foursquare: 1\ndeal: 4{digit}\nmoves: []\n")
    assert errors and "deal must be a whole number" in errors[0]
    assert message(play_script, f"d{digit}\n", "m", deal=1).startswith("m:1: not a cell:")
    assert message(read_rules, f"preset: standard\nsize: {digit}\n", "r.yaml").startswith("r.yaml:2: rules: size must be")


@pytest.mark.parametrize("text", ["\u212a4", "7\u017f", "\u017f7", "7\u0073\u0307"])
def test_letters_that_fold_to_ascii_are_not_ascii(text):
    # the Kelvin sign folds to k, the long s upper-cases to S: neither makes a cell or a card
    with pytest.raises(ParseError):
        Cell.parse(text)
    with pytest.raises(ParseError):
        Card.parse(text)


def test_ascii_spellings_still_read():
    assert [str(Card.parse(t)) for t in ("10♦", "td", "Td", "10d", " 7h ", "A♠")] == ["TD", "TD", "TD", "TD", "7H", "AS"]
    assert [str(Cell.parse(t)) for t in ("d4", "D4", " a1 ", "p16")] == ["d4", "d4", "a1", "p16"]


def test_no_view_when_the_next_card_is_unknown():
    game = Game(["5C", "9D", "2H"])
    for cell in ("d4", "e4", "c4"):
        game.play(cell)
    assert message(read_view, state_text(game), "s.yaml") == (
        "s.yaml:5: the next card is unknown (the stock is known only in part): no player's view"
    )


@pytest.mark.parametrize("command", [["hint"], ["analyze"]])
@pytest.mark.parametrize(
    "text, deck",
    [
        ("5C d4\n9D e4\n", None),  # the moves name the only cards known
        ("d4\ne4\n", "5C 9D"),  # a deck file that names no more cards
        ("foursquare: 1\ndeck: [5C, 9D]\nmoves: [d4, e4]\n", None),  # a transcript's short deck
    ],
)
def test_hint_and_analyze_say_why_the_next_card_is_unknown(tmp_path, command, text, deck):
    game = tmp_path / "g.yaml"
    game.write_text(text)
    args = [*command, str(game)]
    if deck is not None:
        (tmp_path / "deck.txt").write_text(deck)
        args += ["--deck", str(tmp_path / "deck.txt")]
    result = invoke(args)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{game}: ")
    assert "the next card is unknown: the 2 cards known are all placed" in result.stderr
    assert "--deck FILE that names more cards" in result.stderr and "only the cards played" not in result.stderr


def test_a_won_game_has_an_exact_player_view():
    from foursquare.formats.transcript import load_game

    won = EXAMPLES / "won.yaml"
    game = load_game(won.read_text(), "won.yaml")
    assert game.score is not None and game.face_down == 0
    view = read_view(state_text(game, player_view=True), "pv.yaml")
    assert view == game.view() and view.next_card is None and view.status.value == "won"
