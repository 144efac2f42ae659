"""JSON Schemas (draft 2020-12) of the files (FORMATS.md): a transcript, a state, a rules file.

Editors validate and complete files with them (``# yaml-language-server: $schema=...``)
and other tools check files without this package.  Each schema says what the readers
(:mod:`.transcript`, :mod:`.state`, :mod:`.rulesfile`) accept where a schema can say
it: keys, types, card and cell texts, the words of ``status``, ``reason``, ``face``
and the rules, the ranges of the rules' numbers.  What it cannot say (an illegal
move, a failed claim, a grid that no game reaches) only the readers check; so a
document a schema rejects the readers reject too, and not the other way round.

The schemas are shipped as files in ``foursquare/formats/schemas/`` (read with
:func:`schema_text`, printed by ``foursquare schema``): a file other tools and
editors can fetch by URL.  :func:`build_schema` generates them from the code (the
:class:`Status` and :class:`Reason` enums, the rules' ``CHOICES``, ``RANGES`` and
presets, the card and cell alphabets), and a test checks each shipped file equals
its generation (:func:`write_schemas` writes them again).

The transcript schema describes one document (one game): a file of several games
is several YAML documents, each checked against it.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..engine.cards import MAX_RANK, RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS
from ..engine.deal import MAX_DEAL
from ..engine.layout import COLUMN_LETTERS, STRIDE
from ..engine.outcome import Reason, Status
from ..engine.rules import CHOICES, PRESETS, RANGES, STANDARD
from ..errors import ParseError, quote

#: The schemas, by the name ``foursquare schema NAME`` takes.
SCHEMA_NAMES = ("transcript", "state", "rules")
DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: The most cards a deck can hold (the longest ranks, every suit).
_MAX_CARDS = RANGES["ranks"][1] * RANGES["suits"][1]
assert RANGES["ranks"][1] == MAX_RANK and RANGES["suits"][1] == len(SUIT_CHARS)


def _letters(chars: str) -> str:
    """A regex class of ``chars`` in either case (ECMA-262 has no case-insensitive flag in a pattern)."""
    return "[" + "".join(ch if ch.lower() == ch else ch + ch.lower() for ch in chars) + "]"


#: A card as :meth:`Card.parse` reads it: rank ``A 2-9 T J Q K`` or ``10``, suit letter or symbol, any case.
CARD = f"(10|{_letters(RANK_CHARS[1:])}){_letters(SUIT_CHARS + SUIT_SYMBOLS)}"
#: A cell as :meth:`Cell.parse` reads it: column ``a``-``p`` (either case), row 1-16 without a leading zero.
CELL = f"{_letters(COLUMN_LETTERS.upper())}([1-9]|1[0-{STRIDE - 10}])"
#: White space around a card or a cell is allowed (the readers strip it).
_CARD_TEXT = rf"^\s*{CARD}\s*$"
_CELL_TEXT = rf"^\s*{CELL}\s*$"
_MOVE_TEXT = rf"^\s*({CARD}\s+)?{CELL}\s*$"


def _card(nullable: bool = False) -> dict[str, Any]:
    card = {"$ref": "#/$defs/card"}
    return {"anyOf": [card, {"type": "null"}]} if nullable else card


def _count(low: int = 0, high: int | None = None, nullable: bool = False) -> dict[str, Any]:
    value: dict[str, Any] = {"type": ["integer", "null"] if nullable else "integer", "minimum": low}
    if high is not None:
        value["maximum"] = high
    return value


def _words(values: tuple[str, ...], nullable: bool = False) -> dict[str, Any]:
    return {"enum": [*values, None] if nullable else list(values)}


def _common_defs() -> dict[str, Any]:
    """The definitions every schema shares: card, cell, the rule set."""
    parameters: dict[str, Any] = {}
    for key in STANDARD.parameters():
        if key in RANGES:
            parameters[key] = _count(*RANGES[key])
        elif key in CHOICES:
            parameters[key] = _words(CHOICES[key])
        else:  # a flag: true or false, unquoted in any case (a quoted word is refused by the reader)
            parameters[key] = {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"}]}
    preset = {"enum": list(PRESETS), "description": "a preset of the rules (foursquare rules lists them)"}
    return {
        "card": {
            "type": "string",
            "pattern": _CARD_TEXT,
            "description": "a card: rank A, 2-9, T (or 10), J, Q, K, then suit C, D, H, S (RULES.md §1)",
            "examples": ["7H", "TD"],
        },
        "cell": {
            "type": "string",
            "pattern": _CELL_TEXT,
            "description": "a cell: column letter and row number (RULES.md §3)",
            "examples": ["d4"],
        },
        "preset": preset,
        "rules": {
            "description": "a rule set: a preset name, a preset with changes ({preset: NAME, ...}) or every parameter",
            "anyOf": [
                {"$ref": "#/$defs/preset"},
                {
                    "type": "object",
                    "properties": {"preset": {"$ref": "#/$defs/preset"}, **parameters},
                    "additionalProperties": False,
                    "anyOf": [{"required": ["preset"]}, {"required": list(parameters)}],
                },
            ],
        },
    }


def _transcript() -> dict[str, Any]:
    defs = _common_defs()
    statuses = tuple(s.value for s in Status)
    defs["move"] = {
        "anyOf": [
            {"type": "string", "pattern": _MOVE_TEXT, "description": '"CARD CELL" or "CELL"', "examples": ["7H d4", "d4"]},
            {
                "type": "object",
                "properties": {
                    "card": {"$ref": "#/$defs/card"},
                    "cell": {"$ref": "#/$defs/cell"},
                    "flipped": {"type": "array", "items": {"$ref": "#/$defs/cell"}},
                    "face_down": _count(),
                    "status": _words(statuses),
                },
                "required": ["cell"],
                "additionalProperties": False,
            },
        ]
    }
    return {
        "title": "Foursquare transcript (one game document)",
        "description": "One game of a transcript (FORMATS.md, Transcripts); a file of several games is one such YAML document each.",
        "type": "object",
        "properties": {
            "foursquare": {"const": 1, "description": "the format version"},
            "rules": {"$ref": "#/$defs/rules"},
            "deal": _count(0, MAX_DEAL),
            "deck": {"type": "array", "items": {"$ref": "#/$defs/card"}, "uniqueItems": True, "maxItems": _MAX_CARDS},
            "moves": {"type": "array", "items": {"$ref": "#/$defs/move"}},
            "result": {
                "type": "object",
                "properties": {
                    "status": _words(statuses),
                    "reason": _words(tuple(r.value for r in Reason), nullable=True),
                    "score": _count(nullable=True),
                },
                "additionalProperties": False,
            },
        },
        "required": ["foursquare"],
        "additionalProperties": False,
        "$defs": defs,
    }


def _state() -> dict[str, Any]:
    defs = _common_defs()
    common: dict[str, Any] = {
        "foursquare": {"const": 1, "description": "the format version"},
        "rules": {"$ref": "#/$defs/rules"},
        "placed": _count(0, _MAX_CARDS),
        "stock": _count(0, _MAX_CARDS),
        "next": _card(nullable=True),
        "status": _words(tuple(s.value for s in Status)),
        "reason": _words(tuple(r.value for r in Reason), nullable=True),
        "score": _count(nullable=True),
        "face_down": _count(),
    }
    for kind, top in (("pile", _card()), ("viewPile", _card(nullable=True))):
        defs[kind] = {
            "type": "object",
            "properties": {
                "cards": {"type": "array", "items": top, "minItems": 1, "maxItems": RANGES["pile_cap"][1]},
                "face": _words(("up", "down")),
            },
            "required": ["cards", "face"],
            "additionalProperties": False,
        }
    for kind, pile in (("grid", "pile"), ("viewGrid", "viewPile")):
        defs[kind] = {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/cell"},
            "additionalProperties": {"$ref": f"#/$defs/{pile}"},
        }
    defs["fullState"] = {
        "type": "object",
        "properties": {
            **common,
            "deal": _count(0, MAX_DEAL),
            "grid": {"$ref": "#/$defs/grid"},
            "remaining": {"type": "array", "items": {"$ref": "#/$defs/card"}},
            "unknown": _count(1),
            "moves": {"type": "array", "items": {"type": "string", "pattern": _MOVE_TEXT}},
        },
        "required": ["foursquare", "next", "grid", "remaining"],
        "additionalProperties": False,
    }
    defs["playerView"] = {
        "description": "a player's view (view: player): no deal, remaining, unknown or moves; a face-down top card may be null",
        "type": "object",
        "properties": {**common, "view": {"const": "player"}, "grid": {"$ref": "#/$defs/viewGrid"}},
        "required": ["foursquare", "view", "next", "grid"],
        "additionalProperties": False,
    }
    return {
        "title": "Foursquare state or player's view",
        "description": "A snapshot of a game (FORMATS.md, State); with 'view: player', a player's view.",
        "if": {"type": "object", "required": ["view"]},
        "then": {"$ref": "#/$defs/playerView"},
        "else": {"$ref": "#/$defs/fullState"},
        "$defs": defs,
    }


def _rules() -> dict[str, Any]:
    return {
        "title": "Foursquare rules file",
        "description": "A rule set (RULES.md §8): a preset name, {preset: NAME, KEY: VALUE, ...}, or every parameter.",
        "$ref": "#/$defs/rules",
        "$defs": _common_defs(),
    }


def build_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (one of :data:`SCHEMA_NAMES`) generated from the code.

    :raises ParseError: for another name."""
    builders = {"transcript": _transcript, "state": _state, "rules": _rules}
    if name not in builders:
        raise ParseError(f"no schema {quote(name)} (schemas: {', '.join(SCHEMA_NAMES)})")
    return {"$schema": DRAFT, **builders[name]()}


def generated_text(name: str) -> str:
    """The text of a shipped schema file, generated: :func:`build_schema` as indented JSON (ASCII, ending with a newline)."""
    return json.dumps(build_schema(name), indent=2) + "\n"


def schema_text(name: str) -> str:
    """The shipped schema file ``foursquare/formats/schemas/NAME.json`` (package data).

    :raises ParseError: for a name not in :data:`SCHEMA_NAMES`."""
    if name not in SCHEMA_NAMES:
        raise ParseError(f"no schema {quote(name)} (schemas: {', '.join(SCHEMA_NAMES)})")
    return resources.files(__package__).joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")


def write_schemas(folder: Path | None = None) -> list[Path]:
    """Write every schema, generated, into ``folder`` (default: the package's ``schemas`` folder).

    :returns: the files written."""
    target = folder if folder is not None else Path(__file__).parent / "schemas"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMA_NAMES:
        path = target / f"{name}.json"
        path.write_text(generated_text(name), encoding="utf-8")
        written.append(path)
    return written
