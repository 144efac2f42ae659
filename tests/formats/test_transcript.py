"""Transcripts (FORMATS.md "Transcripts"): reading, checking every claim, writing, round trips."""

import json
import random

import pytest
from helpers import DATA, conformance_records, play

from foursquare import Game, get_rules
from foursquare.engine.cards import Card
from foursquare.engine.rules import STANDARD
from foursquare.errors import FormatError
from foursquare.formats.transcript import (
    check_game,
    iter_transcripts,
    load_game,
    transcript_text,
    transcripts_text,
    validate,
)

RECORDS = conformance_records()


def conformance_yaml(rec, use_deck=False):
    """A transcript written straight from a conformance record (not by our writer),
    block style, one claim a line.  Returns the text and the line of every claim:
    {(move, key): line} with move 0 for the result."""
    lines = ["# conformance game " + rec["id"], "foursquare: 1", "rules: standard"]
    if use_deck:
        lines.append("deck: [" + ", ".join(f'"{c}"' for c in rec["deck"]) + "]")
    else:
        lines.append(f"deal: {rec['deal']}")
    lines.append("moves:")
    where = {}
    for m, step in enumerate(rec["steps"], 1):
        lines.append(f"  - card: \"{step['card']}\"")
        where[m, "card"] = len(lines)
        lines.append(f"    cell: {step['cell']}")
        lines.append("    flipped: [" + ", ".join(step["flipped"]) + "]")
        where[m, "flipped"] = len(lines)
        lines.append(f"    face_down: {step['face_down']}")
        where[m, "face_down"] = len(lines)
        lines.append(f"    status: {step['status']}")
        where[m, "status"] = len(lines)
    final = rec["final"]
    lines.append("result:")
    for key in ("status", "reason", "score"):
        value = final[key]
        lines.append(f"  {key}: {'null' if value is None else value}")
        where[0, key] = len(lines)
    return "\n".join(lines) + "\n", where


def only_error(text, source="c.yaml"):
    [report] = validate(text, source)
    assert not report.valid
    assert len(report.errors) == 1, [str(e) for e in report.errors]
    return report.errors[0]


# ------------------------------------------------------------ conformance (RULES.md §9)


@pytest.mark.parametrize("rec", RECORDS, ids=[r["id"] for r in RECORDS])
def test_conformance_game_as_transcript_validates(rec):
    text, _ = conformance_yaml(rec, use_deck=int(rec["id"].split("-")[1]) % 2 == 1)
    [report] = validate(text, "c.yaml")
    assert report.valid, [str(e) for e in report.errors]
    game = report.game
    assert game.status.value == rec["final"]["status"] and game.placed == rec["final"]["placed"]
    assert {str(c): [str(x) for x in p.cards] for c, p in game.grid.items()} == {
        c: v["cards"] for c, v in rec["final"]["grid"].items()
    }


def corruptions(rec, rng):
    """Each corruption: (key, move, old text, new text) for one claim of a record."""
    steps = rec["steps"]
    m = rng.randrange(len(steps)) + 1
    step = steps[m - 1]
    flipped = list(step["flipped"])
    wrong_flip = flipped[:-1] if flipped else [step["cell"]]
    yield "flipped", m, wrong_flip
    yield "face_down", m, step["face_down"] + 1
    yield "status", m, "won" if step["status"] != "won" else "lost"
    final = rec["final"]
    yield "status", 0, "won" if final["status"] != "won" else "playing"
    yield "score", 0, 7 if final["score"] is None else final["score"] + 1
    yield "reason", 0, "stock-empty" if final["reason"] != "stock-empty" else "too-many-face-down"


@pytest.mark.parametrize("index", range(len(RECORDS)), ids=[r["id"] for r in RECORDS])
def test_a_corrupted_claim_is_exactly_one_error_at_its_line(index):
    # each game gets one of the six corruptions in turn (each kind about 40 times)
    rec = RECORDS[index]
    rng = random.Random(rec["id"])
    text, where = conformance_yaml(rec)
    lines = text.split("\n")
    for key, m, value in [list(corruptions(rec, rng))[index % 6]]:
        bad = list(lines)
        line = where[m, key]
        indent = bad[line - 1].split(key)[0]
        shown = "[" + ", ".join(value) + "]" if isinstance(value, list) else value
        bad[line - 1] = f"{indent}{key}: {shown}"
        error = only_error("\n".join(bad))
        assert (error.line, error.game, error.move) == (line, 1, m or None)
        assert error.message.startswith(f"claim {key}:" if m else f"result {key}:")
        assert str(error).startswith(f"c.yaml:{line}: game 1")


def test_claim_messages_say_what_was_claimed_and_what_happened():
    rec = RECORDS[0]
    text, where = conformance_yaml(rec)
    bad = text.replace("    face_down: 1\n", "    face_down: 3\n", 1)
    error = only_error(bad)
    assert str(error) == f"c.yaml:{where[2, 'face_down']}: game 1, move 2: claim face_down: 3, but 1 top cards are face down"


def test_flipped_claims_compare_as_sets_of_cells():
    # the order of the claimed cells does not matter; a repeated cell does
    rec = RECORDS[0]
    step = rec["steps"][4]
    assert step["flipped"] == ["c4", "d4", "e4"]
    text, _ = conformance_yaml(rec)
    assert validate(text.replace("[c4, d4, e4]", "[e4, C4, d4]", 1), "c.yaml")[0].valid
    assert only_error(text.replace("[c4, d4, e4]", "[c4, c4, d4, e4]", 1)).message.startswith("claim flipped")


# ------------------------------------------------------------------- round trips


def played(deal=1, cells=("d4", "e4", "c4", "d3", "d5"), rules=STANDARD):
    return play(Game.from_deal(deal, rules), cells)


def finished(rec):
    return play(Game.from_deal(rec["deal"]), rec["moves"])


WON = next(r for r in RECORDS if r["final"]["status"] == "won")
LOST = [next(r for r in RECORDS if r["final"]["reason"] == reason) for reason in ("too-many-face-down", "stock-empty")]


@pytest.mark.parametrize("claims", [True, False])
@pytest.mark.parametrize("which", ["new", "in-progress", "won", "lost-face-down", "lost-stock", "deck", "named", "custom"])
def test_round_trip_game_transcript_game(which, claims):
    if which == "new":
        game = Game.from_deal(5)
    elif which == "in-progress":
        game = played()
    elif which == "won":
        game = finished(WON)
    elif which.startswith("lost"):
        game = finished(LOST[which == "lost-stock"])
    elif which == "deck":
        game = Game(list(RECORDS[3]["deck"]))
        for cell in RECORDS[3]["moves"][:9]:
            game.play(cell)
    elif which == "named":  # no deck known: each move names its card
        game = Game()
        for card, cell in [("5C", "d4"), ("9D", "e4"), ("2H", "c4"), ("7S", "d4"), ("7C", "d3"), ("AS", "d5")]:
            game.play(cell, card)
    else:
        rules = STANDARD.with_changes(ties="count", face_down_limit=6)
        game = played(rules=rules)
    text = transcript_text(game, claims=claims)
    [report] = validate(text, "t.yaml")
    assert report.valid, [str(e) for e in report.errors]
    again = load_game(text, "t.yaml")
    assert again.grid == game.grid and again.moves == game.moves and again.rules == game.rules
    assert (again.status, again.reason, again.score, again.deal) == (game.status, game.reason, game.score, game.deal)
    assert transcript_text(again, claims=claims) == text


def test_written_transcript_shape():
    text = transcript_text(played(cells=("d4", "e4")))
    assert text == (
        "foursquare: 1\n"
        "rules: standard\n"
        "deal: 1\n"
        "moves:\n"
        '- {card: "2D", cell: "d4", flipped: [], face_down: 0, status: playing}\n'
        '- {card: "3C", cell: "e4", flipped: ["d4"], face_down: 1, status: playing}\n'
        "result: {status: playing, reason: null, score: null}\n"
    )  # deal 1 draws 2D then 3C (RULES.md §2); 3 > 2 flips d4 down (§4)


def test_multi_game_file_round_trip():
    games = [played(), finished(WON), Game.from_deal(9)]
    text = transcripts_text(games)
    reports = validate(text, "t.yaml")
    assert [r.number for r in reports] == [1, 2, 3] and all(r.valid for r in reports)
    assert [r.game.status for r in reports] == [g.status for g in games]


def test_a_game_resumed_without_history_cannot_be_a_transcript():
    game = Game.from_position({"d4": (["5C"], True)}, ["9D", "2H"])
    with pytest.raises(ValueError):
        transcript_text(game)


def test_report_to_dict():
    [report] = validate(transcript_text(finished(WON)), "t.yaml")
    d = report.to_dict()
    assert d["game"] == 1 and d["valid"] is True and d["errors"] == []
    assert d["status"] == "won" and d["score"] == WON["final"]["score"] and d["moves"] == len(WON["moves"])
    json.dumps(d)


# ------------------------------------------------------------------- bad inputs

GOOD = 'foursquare: 1\ndeal: 1\nmoves:\n- "2D d4"\n- "3C e4"\n- "c4"\n'


def errors_of(text, source="t.yaml"):
    return [str(e) for report in validate(text, source) for e in report.errors]


@pytest.mark.parametrize("bait", ["no", "on", "010", "1e3", "7e1", "yes", "null"])
def test_coercion_bait_as_card_or_cell_is_quoted_back(bait):
    text = f"foursquare: 1\ndeal: 1\nmoves:\n- {{card: {bait}, cell: d4}}\n"
    [message] = errors_of(text)
    assert message.startswith("t.yaml:4: game 1, move 1: card")
    assert "null" in message if bait == "null" else repr(bait) in message
    text = f"foursquare: 1\ndeal: 1\nmoves:\n- {{cell: {bait}}}\n"
    [message] = errors_of(text)
    assert message.startswith("t.yaml:4: game 1, move 1: cell")


def test_bait_as_a_move_string():
    assert errors_of("foursquare: 1\ndeal: 1\nmoves:\n- no\n- 010\n") == [
        "t.yaml:4: game 1, move 1: not a cell: 'no' (expected a column letter and a row number, like d4)",
        "t.yaml:5: game 1, move 2: not a cell: '010' (expected a column letter and a row number, like d4)",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        (GOOD + "moves: []\n", "t.yaml:7: game 1: duplicate key 'moves' (first on line 3)"),
        ("foursquare: 1\ndeal: !!python/object/apply:os.system ['true']\n", "t.yaml:2: game 1: unsupported YAML tag"),
        ("foursquare: 1\nmoves: [d4\n", "t.yaml:2: game 1: YAML syntax error"),
    ],
)
def test_unreadable_documents_are_invalid_games(text, expected):
    [report] = validate(text, "t.yaml")
    assert not report.valid and report.game is None
    assert str(report.errors[0]).startswith(expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "t.yaml:1: no game in the file (it is empty)"),
        ("  \n\n", "t.yaml:1: no game in the file (it is empty)"),
        ("# only a comment\n", "t.yaml:1: no game in the file (it holds only comments or empty documents)"),
        ("# deal 3: unknown\n---\n...\n", "t.yaml:1: no game in the file (it holds only comments or empty documents)"),
    ],
)
def test_unreadable_files_raise(text, expected):
    with pytest.raises(FormatError) as info:
        validate(text, "t.yaml")
    assert str(info.value).startswith(expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        (GOOD.replace('- "c4"', "- {card: 7D, cell: c4, face_dwn: 1}"),
         "t.yaml:6: game 1, move 3: unknown key 'face_dwn' in a move (known: card, cell, flipped, face_down, status)"),
        (GOOD + "reslt: {status: won}\n", "t.yaml:7: game 1: unknown key 'reslt' in a game"),
        (GOOD + "result: {status: won, points: 3}\n", "t.yaml:7: game 1: unknown key 'points' in result"),
        ("foursquare: 1\ndeal: 1\nmoves: d4\n", "t.yaml:3: game 1: moves must be a list, not the text 'd4'"),
        (
            "foursquare: 1\ndeal: forty\n",
            "t.yaml:2: game 1: deal must be a whole number from 0 to 18446744073709551615, not the text 'forty'",
        ),
        ("foursquare: 1\ndeal: '42'\n", "t.yaml:2: game 1: deal must be a whole number"),
        ("foursquare: 1\ndeal: -1\n", "t.yaml:2: game 1: deal must be a whole number"),
        (f"foursquare: 1\ndeal: {2**64}\n", "t.yaml:2: game 1: deal must be a whole number"),
        ("foursquare: 1\ndeal: 010\n", "t.yaml:2: game 1: deal must be a whole number"),
        ("deal: 1\nmoves: []\n", "t.yaml:1: game 1: missing 'foursquare: 1'"),
        ("foursquare: 2\n", "t.yaml:1: game 1: unsupported format version 2"),
        ("foursquare: 1\nrules: chess\n", "t.yaml:2: game 1: rules: unknown preset 'chess'"),
        ("foursquare: 1\nrules: {preset: standard, size: 9}\n", "t.yaml:2: game 1: rules: size must be a whole number from 3 to 6"),
        ("- d4\n", "t.yaml:1: game 1: a game must be a mapping"),
        (GOOD + "result: {status: finished}\n", "t.yaml:7: game 1: result: status must be one of playing, won, lost"),
        (GOOD.replace('- "c4"', "- {card: 7D, cell: c4, face_down: -1}"), "t.yaml:6: game 1, move 3: face_down must be a whole number"),
        (GOOD.replace('- "c4"', "- {card: 7D, cell: c4, flipped: d4}"), "t.yaml:6: game 1, move 3: flipped must be a list of cells"),
        (GOOD.replace('- "c4"', "- {card: 7D}"), "t.yaml:6: game 1, move 3: the move has no cell"),
        (GOOD.replace('- "c4"', "- [7D, c4]"), "t.yaml:6: game 1, move 3: a move must be"),
    ],
)
def test_schema_errors(text, expected):
    messages = errors_of(text)
    assert messages and messages[0].startswith(expected), messages


@pytest.mark.parametrize(
    "text, expected",
    [
        (GOOD.replace('"3C e4"', '"3D e4"'), "t.yaml:5: game 1, move 2: wrong card: the card drawn is 3C, not 3D"),
        (GOOD.replace('"3C e4"', '"3C g7"'), "t.yaml:5: game 1, move 2: illegal move 3C g7: not next to a pile (above, below or beside it)"),
        (GOOD.replace('"3C e4"', '"3C h1"'), "t.yaml:5: game 1, move 2: illegal move 3C h1: outside the frame (a1-g7)"),
        ('foursquare: 1\nmoves:\n- "2D d4"\n- "2D e4"\n', "t.yaml:4: game 1, move 2: illegal move 2D e4: 2D has been drawn already"),
        (
            'foursquare: 1\nmoves:\n- "2D d4"\n- "e4"\n',
            "t.yaml:4: game 1, move 2: the game names no deal or deck and this move names no card",
        ),
        ('foursquare: 1\ndeck: ["2D", "3C", "2D"]\n', "t.yaml:2: game 1: deck: 2D is listed twice (first on line 2)"),
        ('foursquare: 1\ndeck: ["2D", "JC"]\n', "t.yaml:2: game 1: deck: JC is not a card of the standard deck"),
        ('foursquare: 1\ndeal: 1\ndeck: ["2D", "3D"]\n', "t.yaml:3: game 1: deck disagrees with deal 1 at card 2"),
    ],
)
def test_replay_errors(text, expected):
    messages = errors_of(text)
    assert messages and messages[0].startswith(expected), messages


def test_a_deck_of_41_cards_is_an_error():
    # 41 cards of a 40-card deck: one is repeated or not in the deck; either way the error says which
    deck = [str(c) for c in Game.from_deal(1).deck]
    text = "foursquare: 1\ndeck: [" + ", ".join(deck + ["JC"]) + "]\n"
    assert errors_of(text) == ["t.yaml:2: game 1: deck: JC is not a card of the standard deck"]
    text = "foursquare: 1\ndeck:\n" + "".join(f"- {c}\n" for c in deck + [deck[5]])
    assert errors_of(text) == [f"t.yaml:43: game 1: deck: {deck[5]} is listed twice (first on line 8)"]


def test_a_deck_of_39_cards_is_a_prefix_until_the_40th_card_is_needed():
    rec = LOST[1]  # a game that reaches the end of the stock
    assert len(rec["moves"]) == 40
    deck = rec["deck"][:39]
    moves = "".join(f"- {cell}\n" for cell in rec["moves"])
    text = "foursquare: 1\ndeck: [" + ", ".join(deck) + "]\nmoves:\n" + moves
    [message] = errors_of(text)
    assert message.startswith("t.yaml:43: game 1, move 40: illegal move") and "the next card is unknown" in message
    # naming the last card is enough
    fixed = text.rsplit("- ", 1)[0] + f"- {rec['deck'][39]} {rec['moves'][-1]}\n"
    assert errors_of(fixed) == []


def test_after_an_illegal_move_the_rest_is_not_judged_but_schema_errors_still_are():
    text = GOOD.replace('"3C e4"', '"3C g7"') + "- {cell: d9, face_dwn: 2}\nresult: {status: won}\n"
    messages = errors_of(text)
    assert messages == [
        "t.yaml:5: game 1, move 2: illegal move 3C g7: not next to a pile (above, below or beside it)",
        "t.yaml:7: game 1, move 4: unknown key 'face_dwn' in a move (known: card, cell, flipped, face_down, status)",
    ]


def test_a_move_after_the_end_is_illegal():
    rec = WON
    text = transcript_text(finished(rec), claims=False).replace("result:", '- "a1"\nresult:')
    message = errors_of(text)[0]
    assert "the game is over (won" in message


def test_multi_game_file_where_game_2_is_bad():
    text = transcript_text(played()) + "---\n" + GOOD.replace('"3C e4"', '"3D e4"') + "---\n" + GOOD
    reports = validate(text, "t.yaml")
    assert [r.valid for r in reports] == [True, False, True]
    [error] = reports[1].errors
    first_lines = transcript_text(played()).count("\n") + 1
    assert str(error) == f"t.yaml:{first_lines + 5}: game 2, move 2: wrong card: the card drawn is 3C, not 3D"


def test_all_errors_of_a_game_are_reported_in_line_order():
    text = GOOD.replace('- "c4"', "- {card: 7D, cell: c4, face_down: 0, status: won}") + "result: {score: 3}\n"
    messages = errors_of(text)
    assert messages == [
        "t.yaml:6: game 1, move 3: claim face_down: 0, but 1 top cards are face down",
        "t.yaml:6: game 1, move 3: claim status: won, but the game is playing",
        "t.yaml:7: game 1: result score: 3, but the score is null (the game is not won)",
    ]


def test_bom_and_crlf():
    text = "\ufeff" + GOOD.replace("\n", "\r\n")
    assert errors_of(text) == []
    assert errors_of("\ufeff" + GOOD.replace('"3C e4"', '"3D e4"').replace("\n", "\r\n"))[0].startswith("t.yaml:5:")


# ------------------------------------------------------------- check_game options


def test_check_game_with_a_deal_or_deck_given_from_outside():
    text = 'foursquare: 1\nmoves:\n- "d4"\n- "e4"\n'
    [tg] = list(iter_transcripts(text, "t.yaml"))
    game, errors = check_game(tg, "t.yaml", deal=1)
    assert errors == [] and [str(p.card) for p in game.moves] == ["2D", "3C"]
    game, errors = check_game(tg, "t.yaml", deck=[Card.parse("9S"), Card.parse("AH")])
    assert errors == [] and [str(p.card) for p in game.moves] == ["9S", "AH"]
    # the transcript's own deal wins
    [tg] = list(iter_transcripts("foursquare: 1\ndeal: 1\nmoves: [d4]\n", "t.yaml"))
    game, errors = check_game(tg, "t.yaml", deal=2)
    assert errors == [] and game.deal == 1


def test_check_game_rules_from_outside_unless_the_transcript_names_them():
    [tg] = list(iter_transcripts("foursquare: 1\ndeal: 1\nmoves: [e5]\n", "t.yaml"))
    game, errors = check_game(tg, "t.yaml", rules=get_rules("fixed-board"))
    assert [str(e) for e in errors] == ["t.yaml:3: game 1, move 1: illegal move e5: outside the frame (a1-d4)"]
    game, errors = check_game(tg, "t.yaml")
    assert errors == []


def test_load_game_raises_the_first_error_and_refuses_many_games():
    with pytest.raises(FormatError) as info:
        load_game(GOOD.replace('"3C e4"', '"3D e4"'), "t.yaml")
    assert str(info.value).startswith("t.yaml:5: game 1, move 2: wrong card")
    with pytest.raises(FormatError) as info:
        load_game(GOOD + "---\n" + GOOD, "t.yaml")
    assert str(info.value) == "t.yaml:8: the file holds 2 games; give a one-game transcript"


def test_example_files_in_test_data():
    text = (DATA / "formats" / "two-games.yaml").read_text()
    reports = validate(text, "two-games.yaml")
    assert [r.valid for r in reports] == [True, False]
    assert [str(e) for e in reports[1].errors] == [
        "two-games.yaml:21: game 2, move 2: claim flipped: [e4], but the move flipped [d4]",
    ]


# ------------------------------------------------------------------------ fuzz

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from foursquare.formats.loading import load_input  # noqa: E402
from foursquare.formats.state import read_state, state_text  # noqa: E402

SAMPLE_TRANSCRIPT = transcript_text(played())
SAMPLE_STATE = state_text(played())
PIECES = ["", " ", "-", ":", "[", "]", "{", "}", ",", "'", '"', "#", "\n", "\t", "&a", "*a", "!!", "no", "010",
          "1e3", "null", "~", "d4", "7H", "foursquare: 1", "---", "- ", "  ", "\ufeff", "\r\n", "\x00", "é", "99999999999999999999999"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([SAMPLE_TRANSCRIPT, SAMPLE_STATE, GOOD]), st.data())
def test_mangled_files_give_format_errors_never_a_traceback(base, data):
    text = base
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.sampled_from(PIECES)) + text[j:]
    for reader in (lambda t: validate(t, "f"), lambda t: read_state(t, "f"), lambda t: load_input(t, "f")):
        try:
            reader(text)
        except FormatError as exc:
            assert str(exc).startswith("f")


# ------------------------------------------------ the common move's fast path

_MOVE_VARIANTS = st.fixed_dictionaries(
    {
        "card": st.sampled_from(['"2D"', "2D", '"2d"', "null", '"XX"', "[2D]", '"10D"', "~"]),
        "cell": st.sampled_from(['"d4"', "d4", '"D4"', '"z9"', "null", "''", "{a: 1}"]),
        "flipped": st.sampled_from(["[]", '["d4"]', '["d3", "d4"]', '["d4", "d3"]', '["d4", "d4"]', "[null]", "x", '["q1"]']),
        "face_down": st.sampled_from(["0", "1", "01", '"1"', "-1", "100", "null", "1.0"]),
        "status": st.sampled_from(["playing", '"playing"', "Playing", "won", "null", "lost"]),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MOVE_VARIANTS, min_size=1, max_size=3), st.booleans())
def test_a_move_read_by_the_fast_path_is_read_as_the_general_path_reads_it(moves, extra_key):
    import foursquare.formats.transcript as transcript_module

    more = ", x: 1" if extra_key else ""
    lines = [f"- {{{', '.join(f'{k}: {v}' for k, v in move.items())}{more}}}" for move in moves]
    text = "foursquare: 1\ndeal: 1\nmoves:\n" + "\n".join(lines) + "\n"

    def read() -> tuple[list, list[str]]:
        (tg,) = list(iter_transcripts(text, "t.yaml"))
        shape = [(m.card, m.cell, m.claims, m.line, m.claim_lines) for m in tg.moves], tg.complete
        return [shape, [str(e) for e in tg.errors]], [str(e) for e in check_game(tg, "t.yaml")[1]]

    read()  # the dicts of common texts now know this game's texts
    fast = read()
    saved = transcript_module._common_move
    transcript_module._common_move = lambda item: None  # the general path only
    try:
        general = read()
    finally:
        transcript_module._common_move = saved
    assert fast == general


def test_the_fast_path_reads_a_move_as_transcript_text_writes_it():
    import foursquare.formats.transcript as transcript_module
    from foursquare.formats.yaml import read_documents

    game = play(Game.from_deal(1), ["d4", "d3"])
    text = transcript_text(game)
    (tg,) = list(iter_transcripts(text, "t.yaml"))  # the texts of its cards and cells are now known
    (node,) = read_documents(text, "t.yaml")
    entries = [transcript_module._common_move(item) for item in node.entries["moves"].items]
    assert all(entry is not None for entry in entries)
    assert [(e.card, e.cell, e.claims) for e in entries] == [(m.card, m.cell, m.claims) for m in tg.moves]
    assert [(m.card, m.cell) for m in tg.moves] == [(p.card, p.cell) for p in game.moves]
