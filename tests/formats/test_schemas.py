"""The JSON Schemas (foursquare/formats/schemas/, ``foursquare schema``): each is a valid
draft 2020-12 schema, generated from the code, shipped as package data; every example
and every file the tool writes satisfies its schema; and what a schema rejects the
readers reject too (``validate`` for transcripts, the state and rules readers)."""

from __future__ import annotations

import configparser
import copy
import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from helpers import DATA, EXAMPLES, ROOT, invoke

from foursquare.engine.cards import Card
from foursquare.engine.deal import deal_deck
from foursquare.engine.layout import Cell
from foursquare.engine.rules import PRESETS
from foursquare.errors import FoursquareError, ParseError
from foursquare.formats.movescript import parse_move
from foursquare.formats.schema import SCHEMA_NAMES, build_schema, read_rules, schema_text
from foursquare.formats.state import read_state, read_view

SCHEMAS = ROOT / "foursquare" / "formats" / "schemas"


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_text(name)))


def accepts(name: str, doc: Any) -> bool:
    return validator(name).is_valid(doc)


# ------------------------------------------------------------ the schemas themselves


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema(name):
    schema = json.loads(schema_text(name))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_the_shipped_file_is_the_one_generated_from_the_code(name):
    # after a change to the enums, ranges or presets, write this text to each file again
    generated = json.dumps(build_schema(name), indent=2) + "\n"
    assert (SCHEMAS / f"{name}.json").read_text(encoding="utf-8") == generated


def test_the_schemas_are_package_data():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    patterns = [p.strip() for p in config["options.package_data"]["foursquare"].split(",")]
    shipped = {p.relative_to(ROOT / "foursquare").as_posix() for p in SCHEMAS.glob("*.json")}
    assert shipped == {f"formats/schemas/{name}.json" for name in SCHEMA_NAMES}
    assert all(any(Path(f).match(p) for p in patterns) for f in shipped)


def test_an_unknown_schema_name_is_an_error_of_the_library():
    with pytest.raises(ParseError, match="no schema 'game'"):
        schema_text("game")
    with pytest.raises(ParseError):
        build_schema("game")


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_the_schema_command_prints_the_shipped_file(name):
    result = invoke(["schema", name])
    assert result.exit_code == 0
    assert result.stdout == schema_text(name)
    json.loads(result.stdout)


def test_the_schema_command_refuses_another_name_as_a_usage_error():
    result = invoke(["schema", "game"])
    assert result.exit_code == 2
    assert "transcript" in result.stderr and "Traceback" not in result.output


def test_the_enums_and_ranges_come_from_the_code():
    rules = build_schema("rules")["$defs"]
    mapping = rules["rules"]["anyOf"][1]["properties"]
    assert mapping["size"] == {"type": "integer", "minimum": 3, "maximum": 6}
    assert mapping["ties"] == {"enum": ["block", "count"]}
    assert rules["preset"]["enum"] == list(PRESETS)
    result = build_schema("transcript")["properties"]["result"]["properties"]
    assert result["status"] == {"enum": ["playing", "won", "lost"]}
    assert result["reason"] == {"enum": ["too-many-face-down", "stock-empty", "no-placement", None]}


# ------------------------------------------- the patterns say what the readers read


def _parses(parse: Any, text: str) -> bool:
    try:
        parse(text)
    except ParseError:
        return False
    return True


_ALPHABET = ["1", "0", "7", "A", "a", "t", "T", "k", "1 ", "H", "h", "♥", "d", "p", "q", "6", " ", "\t"]


def _texts(length: int) -> list[str]:
    return ["".join(t) for n in range(1, length + 1) for t in itertools.product(_ALPHABET, repeat=n)]


@pytest.mark.slow  # about 100,000 strings against the parsers (3 s)
@pytest.mark.parametrize("kind, parse", [("card", Card.parse), ("cell", Cell.parse)])
def test_the_card_and_cell_patterns_accept_exactly_what_the_readers_read(kind, parse):
    schema = {"$ref": f"#/$defs/{kind}", "$defs": build_schema("transcript")["$defs"]}
    check = jsonschema.Draft202012Validator(schema)
    differ = [t for t in _texts(4) if check.is_valid(t) != _parses(parse, t)]
    assert not differ, differ[:10]


def test_the_move_pattern_accepts_exactly_what_the_readers_read():
    schema = build_schema("transcript")["$defs"]["move"]["anyOf"][0]
    check = jsonschema.Draft202012Validator(schema)
    texts = [a + sep + b for a in ["7H", "10h", "TD", "zz", "", "7H 7H"] for sep in [" ", "  ", "", "\t"]
             for b in ["d4", "P16", "q1", "d04", "7H"]]
    differ = [t for t in texts if check.is_valid(t) != _parses(parse_move, t)]
    assert not differ, differ


# ------------------------------------------------- examples and files the tool writes


def _documents(path: Path) -> list[Any]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc is not None]


#: Every game file of examples/ and tests/data, with its schema.
KNOWN = {
    EXAMPLES / "won.yaml": "transcript",
    EXAMPLES / "lost.yaml": "transcript",
    EXAMPLES / "state.yaml": "state",
    DATA / "formats" / "two-games.yaml": "transcript",
    DATA / "formats" / "worked-example.state.yaml": "state",
    DATA / "formats" / "house-rules.yaml": "rules",
}


def test_every_yaml_file_of_the_examples_and_test_data_is_checked():
    found = {p for folder in (EXAMPLES, DATA) for p in folder.rglob("*.y*ml")}
    # a file of this tool has a version key (a game) or is a rules value; the rest are
    # other tools' files (a CI workflow, a pre-commit configuration)
    rules_keys = {"preset", *build_schema("rules")["$defs"]["rules"]["anyOf"][1]["properties"]}
    ours = {
        p for p in found
        for doc in _documents(p)[:1]
        if isinstance(doc, str) or isinstance(doc, dict) and ("foursquare" in doc or set(doc) <= rules_keys)
    }
    assert ours == set(KNOWN) | {EXAMPLES / "invalid.yaml"}
    assert EXAMPLES / ".pre-commit-config.yaml" in found - ours


@pytest.mark.parametrize("path", sorted(KNOWN), ids=lambda p: p.name)
def test_every_example_satisfies_its_schema(path):
    docs = _documents(path)
    assert docs
    for doc in docs:
        errors = [e.message for e in validator(KNOWN[path]).iter_errors(doc)]
        assert not errors, errors


def test_the_invalid_example_is_rejected_by_the_schema_where_a_schema_can_say_it():
    # game 2 misspells a key (reslut), game 4 lets YAML read a cell as a boolean (no);
    # games 1 (valid) and 3 (a wrong card: only a replay knows) satisfy it
    verdicts = [accepts("transcript", doc) for doc in _documents(EXAMPLES / "invalid.yaml")]
    assert verdicts == [True, False, True, False]


def _run(args: list[Any], input: str | None = None) -> None:
    result = invoke(args, input=input)
    assert result.exit_code == 0, result.output


def test_every_transcript_the_tool_writes_satisfies_the_schema(tmp_path):
    (tmp_path / "house.yaml").write_text("preset: three-square\nties: count\n", encoding="utf-8")
    deck = " ".join(str(c) for c in deal_deck(7))
    (tmp_path / "deck.txt").write_text(deck, encoding="utf-8")
    written = []
    for i, args in enumerate([
        ["play", "--deal", "1"],
        ["play", "--deal", "2", "--rules", "five-square"],
        ["play", "--deal", "3", "--rules", tmp_path / "house.yaml"],
        ["play", "--deck", tmp_path / "deck.txt"],
    ]):
        record = tmp_path / f"game{i}.yaml"
        _run([*args, "--record", record], input="d4\ne4\nd5\n")
        written.append(record)
    docs = [doc for path in written for doc in _documents(path)]
    solved = invoke(["solve", "--deal", "89"])  # the whole output is a transcript (comments, then the win)
    docs.extend(yaml.safe_load_all(solved.stdout))
    solved = invoke(["solve", "--deal", "1", "--rules", "three-square", "--format", "json"])
    docs.extend(yaml.safe_load_all(json.loads(solved.stdout)["transcript"]))
    assert len(docs) == len(written) + 2 and all(doc.get("moves") for doc in docs)
    for doc in docs:
        errors = [e.message for e in validator("transcript").iter_errors(doc)]
        assert not errors, (doc, errors)


def test_every_state_and_view_the_tool_writes_satisfies_the_schema(tmp_path):
    docs = []
    for extra in ([], ["--player-view"], ["--player-view", "--reveal"], ["--rules", "fixed-board"]):
        for after in ("0", "5", "32"):
            result = invoke(["state", EXAMPLES / "won.yaml", "--after", after, *extra]) if "--rules" not in extra \
                else invoke(["state", "--deal", "4", *extra])
            assert result.exit_code == 0, result.output
            docs.extend(yaml.safe_load_all(result.stdout))
    replayed = invoke(["replay", EXAMPLES / "lost.yaml", "--format", "yaml"])
    assert replayed.exit_code == 0
    docs.extend(d for d in yaml.safe_load_all(replayed.stdout) if d is not None)
    assert any(d.get("view") == "player" for d in docs) and any("remaining" in d for d in docs)
    assert any(None in pile["cards"] for d in docs for pile in d["grid"].values())  # a hidden face-down card
    for doc in docs:
        errors = [e.message for e in validator("state").iter_errors(doc)]
        assert not errors, (doc, errors)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_rules_file_the_tool_writes_satisfies_the_schema(name):
    result = invoke(["rules", name, "--format", "yaml"])
    assert result.exit_code == 0
    assert accepts("rules", yaml.safe_load(result.stdout))
    assert accepts("rules", name)


# ---------------------------------------- what a schema rejects, the readers reject


def _bad_games() -> list[tuple[str, dict[str, Any]]]:
    good: dict[str, Any] = {
        "foursquare": 1, "rules": "standard", "deal": 1,
        "moves": ["2D d4", {"card": "3C", "cell": "e4", "flipped": [], "face_down": 0, "status": "playing"}],
        "result": {"status": "playing", "reason": None, "score": None},
    }
    cases: list[tuple[str, Any, Any]] = [
        ("unknown key", ("moved",), []),
        ("version as text", ("foursquare",), "1"),
        ("version 2", ("foursquare",), 2),
        ("negative deal", ("deal",), -1),
        ("deal as text", ("deal",), "one"),
        ("huge deal", ("deal",), 2**64),
        ("unknown preset", ("rules",), "standrad"),
        ("rules out of range", ("rules",), {"preset": "standard", "size": 9}),
        ("rules with an unknown key", ("rules",), {"preset": "standard", "colour": "red"}),
        ("rules with a bad word", ("rules",), {"preset": "standard", "ties": "draw"}),
        ("rules missing parameters", ("rules",), {"size": 4}),
        ("moves not a list", ("moves",), "d4 e4"),
        ("a bad move text", ("moves", 0), "2D z9"),
        ("a boolean move", ("moves", 0), False),
        ("a bad card", ("moves", 1, "card"), "1C"),
        ("a bad cell", ("moves", 1, "cell"), "d0"),
        ("a move without a cell", ("moves", 1), {"card": "3C"}),
        ("an unknown move key", ("moves", 1, "flip"), []),
        ("flipped not a list", ("moves", 1, "flipped"), "c4"),
        ("negative face_down", ("moves", 1, "face_down"), -1),
        ("a bad move status", ("moves", 1, "status"), "over"),
        ("a bad result status", ("result", "status"), "draw"),
        ("a bad reason", ("result", "reason"), "bored"),
        ("score as text", ("result", "score"), "3"),
        ("an unknown result key", ("result", "note"), "x"),
        ("a deck card twice", ("deck",), ["2D", "2D"]),
        ("a bad deck card", ("deck",), ["2D", "XX"]),
    ]
    out = []
    for label, path, value in cases:
        doc = copy.deepcopy(good)
        if path == ("deck",):
            del doc["deal"]
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        out.append((label, doc))
    return out


@pytest.mark.parametrize("label, doc", _bad_games(), ids=[label for label, _ in _bad_games()])
def test_a_game_the_schema_rejects_validate_rejects(tmp_path, label, doc):
    assert not accepts("transcript", doc)
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    result = invoke(["validate", path])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output


def _bad_states() -> list[tuple[str, str, dict[str, Any]]]:
    state = yaml.safe_load(invoke(["state", EXAMPLES / "won.yaml", "--after", "5"]).stdout)
    view = yaml.safe_load(invoke(["state", EXAMPLES / "won.yaml", "--after", "5", "--player-view", "--reveal"]).stdout)
    cases = []
    for kind, good in (("state", state), ("view", view)):
        cell = next(iter(good["grid"]))
        for label, change in [
            ("unknown key", lambda d: d.update(extra=1)),
            ("a bad next", lambda d: d.update(next="11H")),
            ("a bad status", lambda d: d.update(status="over")),
            ("a bad reason", lambda d: d.update(reason="tired")),
            ("a negative count", lambda d: d.update(face_down=-1)),
            ("a bad grid cell", lambda d, cell=cell: d["grid"].update({"z99": d["grid"][cell]})),
            ("a bad face", lambda d, cell=cell: d["grid"][cell].update(face="sideways")),
            ("an empty pile", lambda d, cell=cell: d["grid"][cell].update(cards=[])),
            ("a pile key unknown", lambda d, cell=cell: d["grid"][cell].update(size=1)),
            ("no grid", lambda d: d.pop("grid")),
            ("version 2", lambda d: d.update(foursquare=2)),
            ("rules out of range", lambda d: d.update(rules={"preset": "standard", "pile_cap": 0})),
        ]:
            doc = copy.deepcopy(good)
            change(doc)
            cases.append((kind, label, doc))
    for label, change in [
        ("a hidden card in a state", lambda d: d["grid"][next(iter(d["grid"]))]["cards"].append(None)),
        ("remaining not a list", lambda d: d.update(remaining="2D")),
        ("unknown zero", lambda d: d.update(unknown=0)),
        ("a bad move", lambda d: d["moves"].append("d4 2D")),
    ]:
        doc = copy.deepcopy(state)
        change(doc)
        cases.append(("state", label, doc))
    for label, change in [
        ("a view with remaining", lambda d: d.update(remaining=[])),
        ("a view with a deal", lambda d: d.update(deal=1)),
        ("a bad view word", lambda d: d.update(view="everyone")),
    ]:
        doc = copy.deepcopy(view)
        change(doc)
        cases.append(("view", label, doc))
    return cases


@pytest.mark.parametrize("kind, label, doc", _bad_states(), ids=[f"{k}: {label}" for k, label, _ in _bad_states()])
def test_a_state_the_schema_rejects_the_state_readers_reject(kind, label, doc):
    assert not accepts("state", doc)
    text = yaml.safe_dump(doc, sort_keys=False)
    with pytest.raises(FoursquareError):
        read_view(text, "bad.yaml")  # reads a full state as read_state does, and a player's view
    if kind == "state":
        with pytest.raises(FoursquareError):
            read_state(text, "bad.yaml")


BAD_RULES = [
    "standrad",
    {"preset": "standard", "size": 2},
    {"preset": "standard", "face_down_limit": 37},
    {"preset": "standard", "suits": 0},
    {"preset": "standard", "self_flip": "yes"},
    {"preset": "standard", "self_flip": 1},
    {"preset": "standard", "comparison": "some"},
    {"preset": "standard", "players": 2},
    {"size": 4, "pile_cap": 4},
    {"foursquare": 1, "rules": "standard"},
    ["standard"],
    3,
]


@pytest.mark.parametrize("doc", BAD_RULES, ids=[json.dumps(d) for d in BAD_RULES])
def test_rules_the_schema_rejects_the_rules_reader_rejects(doc):
    assert not accepts("rules", doc)
    with pytest.raises(FoursquareError):
        read_rules(yaml.safe_dump(doc), "bad.yaml")


def test_a_flag_in_any_case_is_accepted_by_both():
    # the reader takes true/false unquoted in any case; YAML types only some spellings as booleans
    for text in ("self_flip: true", "self_flip: TRUE", "self_flip: tRuE"):
        doc = yaml.safe_load(f"preset: standard\n{text}\n")
        assert accepts("rules", doc) and read_rules(f"preset: standard\n{text}\n", "r.yaml").self_flip


def test_a_state_of_a_stock_known_in_part_satisfies_the_schema(tmp_path):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(" ".join(str(c) for c in deal_deck(7)[:20]), encoding="utf-8")
    result = invoke(["state", "--deck", prefix])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(result.stdout)
    assert doc["unknown"] == 20 and accepts("state", doc)


def test_the_ci_pages_example_names_its_schema_and_satisfies_it(tmp_path):
    # docs/guide/ci.md, "In your editor: the JSON Schemas"
    page = ROOT / "docs" / "guide" / "ci.md"
    block = next(b for b in page.read_text(encoding="utf-8").split("```") if b.startswith("yaml\n# yaml-language-server"))
    text = block.removeprefix("yaml\n")
    assert text.startswith("# yaml-language-server: $schema=transcript.schema.json\n")
    assert accepts("transcript", yaml.safe_load(text))
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    assert invoke(["validate", tmp_path / "game.yaml"]).exit_code == 0


# Every kind of change to a good document, at every kind of place in it: each leaf
# replaced by values of every type (and near misses), each key dropped, an unknown key
# added to each mapping.  Whenever the schema rejects the result, the reader must too.
JUNK: list[Any] = [None, True, False, 0, -1, 7, 2**64, 1.5, "", "x", "td", "10♦", " 7H ", "d4", "Z9", [], ["d4"], {}]


def _shapes(doc: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """One path for each shape of place in ``doc`` (list indices as '*'): shape -> path."""
    shape = tuple("*" if isinstance(p, int) else p for p in path)
    found = {shape: path}
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        for sub, at in _shapes(value, (*path, key)).items():
            found.setdefault(sub, at)
    return found


def _mutants(good: dict[str, Any]) -> list[Any]:
    out = []
    for path in _shapes(good).values():
        if not path:
            continue
        for value in JUNK:
            doc = copy.deepcopy(good)
            target = doc
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            out.append(doc)
        doc = copy.deepcopy(good)
        target = doc
        for key in path[:-1]:
            target = target[key]
        if isinstance(target, dict):
            del target[path[-1]]
            out.append(doc)
            extra = copy.deepcopy(good)
            target = extra
            for key in path[:-1]:
                target = target[key]
            target["zz_unknown"] = 1
            out.append(extra)
    return out


def _good_game() -> dict[str, Any]:
    game = yaml.safe_load(invoke(["solve", "--deal", "89"]).stdout)
    third, fourth = game["moves"][3:5]
    game["moves"][3:5] = [f"{third['card']} {third['cell']}", fourth["cell"]]  # the two forms of a move text
    return game


def test_a_changed_game_the_schema_rejects_validate_rejects(tmp_path):
    games = [_good_game()]
    with_deck = _good_game()
    with_deck["deck"] = [str(c) for c in deal_deck(89)]
    with_deck["rules"] = {"preset": "standard", "ties": "block"}
    games.append(with_deck)
    path = tmp_path / "games.yaml"
    path.write_text(yaml.safe_dump_all(games, sort_keys=False), encoding="utf-8")
    assert all(accepts("transcript", good) for good in games)
    assert invoke(["validate", path]).exit_code == 0
    rejected = [m for good in games for m in _mutants(good) if not accepts("transcript", m)]
    assert len(rejected) > 200
    path.write_text(yaml.safe_dump_all(rejected, sort_keys=False), encoding="utf-8")
    result = invoke(["validate", "--format", "json", path])
    assert result.exit_code == 1
    verdicts = json.loads(result.stdout)
    assert len(verdicts) == len(rejected)
    passed = [rejected[v["game"] - 1] for v in verdicts if v["valid"]]
    assert not passed, passed[:3]


def test_a_changed_state_or_view_the_schema_rejects_the_readers_reject():
    state = yaml.safe_load(invoke(["state", EXAMPLES / "won.yaml", "--after", "6"]).stdout)
    view = yaml.safe_load(invoke(["state", EXAMPLES / "won.yaml", "--after", "6", "--player-view", "--reveal"]).stdout)
    for good in (state, view):
        assert accepts("state", good)
        read_view(yaml.safe_dump(good, sort_keys=False), "good.yaml")
    rejected = [m for good in (state, view) for m in _mutants(good) if not accepts("state", m)]
    assert len(rejected) > 200
    passed = []
    for doc in rejected:
        try:
            read_view(yaml.safe_dump(doc, sort_keys=False), "bad.yaml")
        except FoursquareError:
            continue
        passed.append(doc)
    assert not passed, passed[:3]


def test_a_changed_rules_file_the_schema_rejects_the_rules_reader_rejects():
    full = yaml.safe_load(invoke(["rules", "five-square", "--format", "yaml"]).stdout)
    goods = (full, {"preset": "diagonal", "size": 5})
    for good in goods:
        assert accepts("rules", good)
        read_rules(yaml.safe_dump(good, sort_keys=False), "good.yaml")
    rejected = [m for good in goods for m in _mutants(good) if not accepts("rules", m)]
    assert len(rejected) > 100
    passed = []
    for doc in rejected:
        try:
            read_rules(yaml.safe_dump(doc, sort_keys=False), "bad.yaml")
        except FoursquareError:
            continue
        passed.append(doc)
    assert not passed, passed[:3]
