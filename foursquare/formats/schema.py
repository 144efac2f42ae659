"""JSON Schemas (draft 2020-12) of the files (FORMATS.md): a transcript, a state, a rules file.

Editors validate and complete files with them (``# yaml-language-server: $schema=...``)
and other tools check files without this package.  Each schema says what the readers
(:mod:`.transcript`, :mod:`.state`, the rules files here) accept where a schema can say
it: keys, types, card and cell texts, the words of ``status``, ``reason``, ``face``
and the rules, the ranges of the rules' numbers.  What it cannot say (an illegal
move, a failed claim, a grid that no game reaches) only the readers check; so a
document a schema rejects the readers reject too, and not the other way round.

Each file shape is described once, here: a table of its keys and the
:class:`~foursquare.formats.yaml.values.Kind` of each value (:data:`GAME`, :data:`MOVE`,
:data:`RESULT`, :data:`STATE`, :data:`VIEW`, :data:`PILE`, :data:`RULE_PARAMETERS`), built
from the :class:`Status` and :class:`Reason` enums, the rules' ``CHOICES``, ``RANGES`` and
presets, the card and cell alphabets.  The readers check keys and values by these tables,
and :func:`build_schema` generates the schemas from them.

The schemas are shipped as files in ``foursquare/formats/schemas/`` (read with
:func:`schema_text`, printed by ``foursquare schema``): a file other tools and
editors can fetch by URL; a test checks each shipped file equals its generation
(:func:`build_schema` as JSON indented by 2, ending with a newline: what to write to the
file after a change).

The transcript schema describes one document (one game): a file of several games
is several YAML documents, each checked against it.

Rule sets in files (RULES.md §8): wherever one is given (``--rules``, ``rules:`` in a
transcript or a state) it is a preset name (``standard``, ``fixed-board``, ...) or a
mapping: ``{preset: NAME, KEY: VALUE, ...}``, the preset with some parameters changed, or
every parameter (as :func:`rules_value` writes it).  :func:`read_rules` reads a rules
file, :func:`load_rules` a preset name or a file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

from ..engine.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS
from ..engine.deal import MAX_DEAL
from ..engine.layout import COLUMN_LETTERS, STRIDE, Cell
from ..engine.outcome import Reason, Status
from ..engine.rules import CHOICES, PRESETS, RANGES, STANDARD, Rules
from ..errors import FormatError, ParseError, RulesError, quote, shorten
from .yaml import Flow, YMap, YNode, YScalar, YSeq, as_bool, as_card, as_cell, as_choice, as_deal, as_int, one_document
from .yaml.values import Kind, read_entries

#: The schemas, by the name ``foursquare schema NAME`` takes.
SCHEMA_NAMES = ("transcript", "state", "rules")
#: The most cards a deck can hold (the longest ranks, every suit).
_MAX_CARDS = RANGES["ranks"][1] * RANGES["suits"][1]


def _letters(chars: str) -> str:
    """A regex class of ``chars`` in either case (ECMA-262 has no case-insensitive flag in a pattern)."""
    return "[" + "".join(ch if ch.lower() == ch else ch + ch.lower() for ch in chars) + "]"


#: A card as :meth:`Card.parse` reads it: rank ``A 2-9 T J Q K`` or ``10``, suit letter or symbol, any case.
CARD = f"(10|{_letters(RANK_CHARS[1:])}){_letters(SUIT_CHARS + SUIT_SYMBOLS)}"
#: A cell as :meth:`Cell.parse` reads it: column ``a``-``p`` (either case), row 1-16 without a leading zero.
CELL = f"{_letters(COLUMN_LETTERS.upper())}([1-9]|1[0-{STRIDE - 10}])"
_MOVE_TEXT = rf"^\s*({CARD}\s+)?{CELL}\s*$"


def _card(nullable: bool = False) -> dict[str, Any]:
    card = {"$ref": "#/$defs/card"}
    return {"anyOf": [card, {"type": "null"}]} if nullable else card


def _array(items: dict[str, Any], **limits: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **limits}


def _object(shape: Mapping[str, Kind], required: Sequence[str] = (), **first: Any) -> dict[str, Any]:
    """The schema of a mapping of the keys of ``shape`` (no other key)."""
    value: dict[str, Any] = {**first, "type": "object", "properties": {key: kind.schema for key, kind in shape.items()}}
    if required:
        value["required"] = list(required)
    return {**value, "additionalProperties": False}


# ------------------------------------------------------------ the kinds of value


def _number(low: int = 0, high: int | None = None, nullable: bool = False) -> Kind:
    """A whole number from ``low`` to ``high`` (``None``: no limit)."""
    schema: dict[str, Any] = {"type": ["integer", "null"] if nullable else "integer", "minimum": low}
    if high is not None:
        schema["maximum"] = high
    return Kind(schema, lambda node, what, src: as_int(node, what, src, low, high), nullable)


def _choice(values: tuple[str, ...], to: Callable[[str], Any] = str, nullable: bool = False) -> Kind:
    """One of the words ``values``, read as ``to(word)``."""
    return Kind(
        {"enum": [*values, None] if nullable else list(values)}, lambda node, what, src: to(as_choice(node, what, src, values)), nullable
    )


def _cells(node: YNode, what: str, source: str) -> list[Cell]:
    if type(node) is not YSeq:
        raise FormatError(source, node.line, f"{what} must be a list of cells, not {node.kind}")
    return [as_cell(cell, what, source) for cell in node.items]


COUNT = _number()
STATUS = _choice(tuple(s.value for s in Status), Status)
REASON = _choice(tuple(r.value for r in Reason), Reason, nullable=True)
SCORE = _number(nullable=True)
#: The version of the formats this program reads and writes (``foursquare: 1``).
FORMAT_VERSION = 1
MISSING_VERSION = f"missing 'foursquare: {FORMAT_VERSION}' (the format version)"


def _version(node: YNode, what: str, source: str) -> int:
    number = as_int(node, f"{what} (the format version)", source, 1)  # written as its digits
    if number != FORMAT_VERSION:
        raise FormatError(source, node.line, f"unsupported format version {number} (this program reads version {FORMAT_VERSION})")
    return number


VERSION = Kind({"const": FORMAT_VERSION, "description": "the format version"}, _version)
DEAL = Kind(_number(0, MAX_DEAL).schema, as_deal)
FLAG = Kind(  # true or false, unquoted in any case (a quoted word is refused by the reader)
    {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$"}]}, as_bool
)
#: The parameters of a rule set (RULES.md §8), in the order :meth:`Rules.parameters` gives them.
RULE_PARAMETERS: dict[str, Kind] = {
    key: _number(*RANGES[key]) if key in RANGES else _choice(CHOICES[key]) if key in CHOICES else FLAG
    for key in STANDARD.parameters()
}


def rules_from_value(node: YNode, source: str, what: str = "rules") -> Rules:
    """Read a rule set from a YAML node: a preset name or a rules mapping (module doc).

    :param node: a :class:`~foursquare.formats.yaml.YScalar` (preset name) or
        :class:`~foursquare.formats.yaml.YMap`.
    :param source: the file name for errors.
    :param what: how the value is named in errors (``rules``).
    :returns: the rule set (a preset itself when the parameters equal one).
    :raises FormatError: ``FILE:LINE: message`` for an unknown preset, an unknown
        key, a missing parameter, or a value out of range (naming the allowed values).
    """
    if isinstance(node, YScalar) and not node.is_null:
        return _preset(node, source, what)
    if not isinstance(node, YMap):
        raise FormatError(
            source, node.line, f"{what} must be a preset name ({', '.join(PRESETS)}) or a mapping, not {node.kind}"
        )
    changes, _, errors = read_entries(node, {"preset": _PRESET, **RULE_PARAMETERS}, what, source, f"{what}: ")
    if errors:
        raise errors[0]
    if missing := [key for key in RULE_PARAMETERS if key not in node.entries and "preset" not in node.entries]:
        raise FormatError(
            source, node.line, f"{what}: missing {', '.join(missing)} (give every parameter, or start from a preset with 'preset: NAME')"
        )
    base: Rules = changes.pop("preset", STANDARD)
    try:
        return base.with_changes(**changes) if changes else base
    except RulesError as exc:
        raise FormatError(source, node.line, str(exc)) from None


def _preset(node: YNode, source: str, what: str) -> Rules:
    name = node.text if isinstance(node, YScalar) else None
    if name not in PRESETS:
        raise FormatError(source, node.line, f"{what}: unknown preset {quote(name)} (presets: {', '.join(PRESETS)})")
    return PRESETS[name]


_PRESET = Kind({"$ref": "#/$defs/preset"}, lambda node, what, source: _preset(node, source, what))
RULES = Kind({"$ref": "#/$defs/rules"}, lambda node, what, source: rules_from_value(node, source, what))


# ------------------------------------------------------------ rules files


def rules_value(rules: Rules) -> str | dict[str, int | bool | str]:
    """How a rule set is written: its preset name, or every parameter as a mapping (a
    :class:`~foursquare.formats.yaml.Flow`: one line of YAML; a ``dict`` for JSON).

    :param rules: the rule set.
    :returns: ``"standard"`` (or another preset name) or ``{size: 4, pile_cap: 4, ...}``.
    """
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    return Flow(rules.parameters())


def read_rules(text: str, source: str) -> Rules:
    """A rules file's rule set: one YAML document, a preset name or a rules mapping.

    :raises FormatError: for bad YAML, an empty file, several documents, or a bad rule set.
    """
    node = one_document(
        text, source, "the rules file is empty (expected a preset name or a rules mapping)",
        "the rules file holds more than one YAML document",
    )
    if isinstance(node, YMap) and "foursquare" in node.entries and not any(key in node.entries for key in RULE_PARAMETERS):
        # a game file (transcript or state) given where a rules file is expected
        raise FormatError(
            source, node.line, "this is a game file (a transcript or a state), not a rules file;"
            " its rules are read with the game (foursquare rules NAME shows a rule set)"
        )
    if isinstance(node, YScalar) and len(node.text.split()) > 1:
        # words, not a preset name: a deck or a move script given where a rules file is expected
        raise FormatError(
            source, node.line, f"not a rules file: {quote(node.text)} is text, not a preset name or a rules mapping"
            f" (a rules file is YAML: a preset name, or 'preset: NAME' and the parameters that differ; presets: {', '.join(PRESETS)})"
        )
    return rules_from_value(node, source)


def load_rules(spec: str) -> Rules:
    """A rule set from a preset name (``standard``, ``fixed-board``, ...) or a YAML rules file path.

    A preset name wins over a file of the same name.

    :param spec: the preset name or the file path (``-``: standard input).
    :returns: the rule set.
    :raises FormatError: for a name that is neither a preset nor a readable file,
        or a bad rules file (``FILE:LINE: message``).
    """
    if spec in PRESETS:
        return PRESETS[spec]
    from .inputs import names_a_file, read_source

    if not names_a_file(spec):  # a word, no file: a misspelt preset (a file's name: "no such file")
        raise FormatError(shorten(spec), None, f"no such preset or rules file (presets: {', '.join(PRESETS)})")

    return read_rules(*read_source(spec))


# ------------------------------------------------------------ the file shapes
# (a kind without a ``read``: the reader's own code reads the value, e.g. a list whose every item it checks)

#: A move of a transcript written as a mapping; a transcript's ``result``; a game document.
MOVE: dict[str, Kind] = {
    "card": Kind({"$ref": "#/$defs/card"}, as_card),
    "cell": Kind({"$ref": "#/$defs/cell"}, as_cell),
    "flipped": Kind(_array({"$ref": "#/$defs/cell"}), _cells),
    "face_down": COUNT,
    "status": STATUS,
}
RESULT: dict[str, Kind] = {"status": STATUS, "reason": REASON, "score": SCORE}
GAME: dict[str, Kind] = {
    "foursquare": VERSION,
    "rules": RULES,
    "deal": DEAL,
    "deck": Kind(_array(_card(), uniqueItems=True, maxItems=_MAX_CARDS)),
    "moves": Kind(_array({"$ref": "#/$defs/move"})),
    "result": Kind(_object(RESULT)),
}


def _pile(top: dict[str, Any]) -> dict[str, Kind]:
    """A pile of a state's grid whose top card is ``top``."""
    return {"cards": Kind(_array(top, minItems=1, maxItems=RANGES["pile_cap"][1])), "face": _choice(("up", "down"))}


PILE = _pile(_card())
#: A state, in the order its keys are named in errors; :data:`VIEW`: a player's view.
STATE: dict[str, Kind] = {
    "foursquare": VERSION,
    "view": Kind({"const": "player"}, _choice(("player",)).read),
    "rules": RULES,
    "deal": DEAL,
    "placed": Kind(_number(0, _MAX_CARDS).schema, COUNT.read),  # read unbounded: compared with the position
    "stock": Kind(_number(0, _MAX_CARDS).schema, COUNT.read),
    "next": Kind(_card(nullable=True)),
    "status": STATUS,
    "reason": REASON,
    "score": SCORE,
    "face_down": COUNT,
    "grid": Kind({"$ref": "#/$defs/grid"}),
    "remaining": Kind(_array(_card())),
    "unknown": _number(1),
    "moves": Kind(_array({"type": "string", "pattern": _MOVE_TEXT})),
}
#: The keys of a state a player's view (``view: player``) does not have: the player does not know them.
NOT_IN_VIEW = ("deal", "remaining", "unknown", "moves")
VIEW: dict[str, Kind] = {key: kind for key, kind in STATE.items() if key not in NOT_IN_VIEW}


def _common_defs() -> dict[str, Any]:
    """The definitions every schema shares: card, cell, the rule set."""
    rules = {
        **_object({"preset": _PRESET, **RULE_PARAMETERS}),
        "anyOf": [{"required": ["preset"]}, {"required": list(RULE_PARAMETERS)}],  # a preset, or every parameter
    }
    return {
        "card": {
            "type": "string",
            "pattern": rf"^\s*{CARD}\s*$",  # white space around a card or a cell is allowed (the readers strip it)
            "description": "a card: rank A, 2-9, T (or 10), J, Q, K, then suit C, D, H, S (RULES.md §1)",
            "examples": ["7H", "TD"],
        },
        "cell": {
            "type": "string",
            "pattern": rf"^\s*{CELL}\s*$",
            "description": "a cell: column letter and row number (RULES.md §3)",
            "examples": ["d4"],
        },
        "preset": {"enum": list(PRESETS), "description": "a preset of the rules (foursquare rules lists them)"},
        "rules": {
            "description": "a rule set: a preset name, a preset with changes ({preset: NAME, ...}) or every parameter",
            "anyOf": [{"$ref": "#/$defs/preset"}, rules],
        },
    }


def _transcript() -> dict[str, Any]:
    move = {"type": "string", "pattern": _MOVE_TEXT, "description": '"CARD CELL" or "CELL"', "examples": ["7H d4", "d4"]}
    return {
        **_object(
            GAME,
            ["foursquare"],
            title="Foursquare transcript (one game document)",
            description="One game of a transcript (FORMATS.md, Transcripts); a file of several games is one such YAML document each.",
        ),
        "$defs": {**_common_defs(), "move": {"anyOf": [move, _object(MOVE, ["cell"])]}},
    }


def _state() -> dict[str, Any]:
    defs = {
        **_common_defs(),
        "pile": _object(PILE, ["cards", "face"]),
        "viewPile": _object(_pile(_card(nullable=True)), ["cards", "face"]),
        **{  # a grid: cell -> pile
            kind: {"type": "object", "propertyNames": {"$ref": "#/$defs/cell"}, "additionalProperties": {"$ref": f"#/$defs/{pile}"}}
            for kind, pile in (("grid", "pile"), ("viewGrid", "viewPile"))
        },
        "fullState": _object({k: v for k, v in STATE.items() if k != "view"}, ["foursquare", "next", "grid", "remaining"]),
        "playerView": _object(
            {**VIEW, "grid": Kind({"$ref": "#/$defs/viewGrid"})},
            ["foursquare", "view", "next", "grid"],
            description="a player's view (view: player): no deal, remaining, unknown or moves; a face-down top card may be null",
        ),
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
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **builders[_known(name)]()}


def schema_text(name: str) -> str:
    """The shipped schema file ``foursquare/formats/schemas/NAME.json`` (package data).

    :raises ParseError: for a name not in :data:`SCHEMA_NAMES`."""
    return resources.files(__package__).joinpath("schemas", f"{_known(name)}.json").read_text(encoding="utf-8")


def _known(name: str) -> str:
    """``name`` when it is one of :data:`SCHEMA_NAMES`; :raises ParseError: otherwise."""
    if name not in SCHEMA_NAMES:
        raise ParseError(f"no schema {quote(name)} (schemas: {', '.join(SCHEMA_NAMES)})")
    return name
