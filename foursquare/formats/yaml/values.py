"""Reading the values of a format from the nodes of a YAML document (FORMATS.md: strict YAML).

Each function takes a node (:class:`~foursquare.formats.yaml.strict.YNode`), what it
is (for the message) and the file's name, and gives the value or raises
:class:`~foursquare.errors.FormatError` at the node's line: a mapping, a list, text,
a whole number, a deal number, a boolean, one of some words, a card, a cell.
A :class:`Kind` pairs such a reading with the value's JSON Schema; :func:`read_entries`
reads a mapping by a table of them (and refuses the keys the table does not know).

Writing: :func:`dump`, the one writer of YAML, never a string split across lines.  It
uses :func:`yaml.dump` with a safe dumper that quotes every card and cell
(:class:`Quoted`) and can put small mappings and lists on one line (:class:`Flow`,
:class:`FlowList`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import yaml

from ...engine.cards import Card
from ...engine.deal import MAX_DEAL, parse_deal_number
from ...engine.layout import Cell
from ...errors import FormatError, ParseError, quote
from .strict import CORE, YMap, YNode, YScalar, YSeq

T = TypeVar("T")
C = TypeVar("C", YMap, YSeq)

#: Most digits of a number read without an upper bound (``int()`` of over 4300 digits raises).
MAX_DIGITS = 30


def as_collection(node: YNode, shape: type[C], what: str, source: str) -> C:
    """``node`` when it is a ``shape``: a mapping (:class:`YMap`) or a list (:class:`YSeq`).

    :raises FormatError: ``FILE:LINE: WHAT must be a mapping, not ...`` (or ``a list``).
    """
    if not isinstance(node, shape):
        raise FormatError(source, node.line, f"{what} must be {'a mapping' if shape is YMap else 'a list'}, not {node.kind}")
    return node


def as_text(node: YNode, what: str, source: str) -> str:
    """The text of a scalar, exactly as written (``no`` stays ``'no'``).

    :raises FormatError: when the node is a list, a mapping or null.
    """
    if not isinstance(node, YScalar) or node.is_null:
        raise FormatError(source, node.line, f"{what} must be text, not {node.kind}")
    return node.text


def as_int(node: YNode, what: str, source: str, low: int = 0, high: int | None = None) -> int:
    """A whole number written as plain decimal digits (no sign, no leading zero, unquoted;
    a tag that would make it text is refused when the file is read).

    :param low: the smallest value allowed; :param high: the largest (``None``: no limit).
    :raises FormatError: ``FILE:LINE: WHAT must be a whole number from LOW to HIGH, not ...``.
    """
    text = node.text if isinstance(node, YScalar) and node.plain else ""  # "" is no number
    ok = text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))
    # Count the digits before int(): over 4300 it raises, and past the bound's length the value is out of range.
    ok = ok and len(text) <= (len(str(high)) if high is not None else MAX_DIGITS)
    value = int(text) if ok else None
    if value is None or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low} (at most {MAX_DIGITS} digits)"
        raise FormatError(source, node.line, f"{what} must be a whole number {span}, not {node.kind}")
    return value


def as_deal(node: YNode, what: str, source: str) -> int:
    """A deal number (RULES.md §2) read as ``--deal N`` reads it, by the one parser
    :func:`foursquare.engine.deal.parse_deal_number`: plain decimal digits with no
    leading zero (``01`` is refused, as ``--deal 01`` is), unquoted.

    :raises FormatError: ``FILE:LINE: WHAT must be a whole number from 0 to 2^64-1, not ...``.
    """
    text = node.text if isinstance(node, YScalar) and node.plain else ""
    try:
        if not text or text != text.strip():
            raise ParseError("not a deal number")
        return parse_deal_number(text)
    except ParseError as exc:
        zeros = " (write it without leading zeros)" if "leading zeros" in str(exc) else ""
        raise FormatError(
            source, node.line, f"{what} must be a whole number from 0 to {MAX_DEAL}, not {node.kind}{zeros}"
        ) from None


def as_bool(node: YNode, what: str, source: str) -> bool:
    """``true`` or ``false`` (unquoted, any case); ``yes``/``no``/``on``/``off`` are not booleans here.

    :raises FormatError: for anything else.
    """
    text = node.text.lower() if isinstance(node, YScalar) and node.plain else None
    if text not in ("true", "false"):
        raise FormatError(source, node.line, f"{what} must be true or false, not {node.kind}")
    return text == "true"


def as_choice(node: YNode, what: str, source: str, allowed: tuple[str, ...]) -> str:
    """One of the words ``allowed``, written exactly.

    :raises FormatError: naming the allowed words.
    """
    text = node.text if isinstance(node, YScalar) and not node.is_null else None
    if text not in allowed:
        raise FormatError(source, node.line, f"{what} must be one of {', '.join(allowed)}, not {node.kind}")
    return text


#: The card and the cell of each text :func:`as_card` and :func:`as_cell` have read (only
#: texts that are one: the parsers are pure, so a text read once is read alike again),
#: bounded (4,096 texts each); a reader of many moves looks here first, before it calls them.
KNOWN_CARDS: dict[str, Card] = {}
KNOWN_CELLS: dict[str, Cell] = {}


def as_card(node: YNode, what: str, source: str) -> Card:
    """A card (RULES.md §1) written as text, as :meth:`~foursquare.engine.cards.Card.parse` reads it.

    :raises FormatError: ``FILE:LINE: WHAT must be text, not ...`` or ``FILE:LINE: WHAT: why``.
    """
    return _parsed(node, what, source, Card.parse, KNOWN_CARDS)


def as_cell(node: YNode, what: str, source: str) -> Cell:
    """A cell (RULES.md §3) written as text, as :meth:`~foursquare.engine.layout.Cell.parse` reads it.

    :raises FormatError: ``FILE:LINE: WHAT must be text, not ...`` or ``FILE:LINE: WHAT: why``.
    """
    return _parsed(node, what, source, Cell.parse, KNOWN_CELLS)


def _parsed(node: YNode, what: str, source: str, parse: Callable[[str], T], known: dict[str, T]) -> T:
    """The text of ``node`` read by ``parse`` (looked up in ``known`` first, kept there); its
    ParseError said at the node's line."""
    if type(node) is YScalar and (not node.plain or node.tag != "null") and node.text in known:
        return known[node.text]
    text = as_text(node, what, source)
    try:
        value = parse(text)
    except ParseError as exc:
        raise FormatError(source, node.line, f"{what}: {exc}") from None
    if len(known) < 4096 and len(text) < 16:
        known[text] = value
    return value


@dataclass(frozen=True)
class Kind:
    """One kind of value of a file shape: its JSON Schema (:mod:`foursquare.formats.schema`
    builds the schemas from these) and how a reader reads it from a node (``read(node,
    what, source)``; ``None`` where the reader's own code reads it).

    :ivar nullable: null is allowed, and read as ``None`` (:func:`read_entries`).
    """

    schema: dict[str, Any]
    read: Callable[[YNode, str, str], Any] | None = None
    nullable: bool = False


def read_entries(
    node: YMap, shape: Mapping[str, Kind], what: str, source: str, label: str = "", missing: Mapping[str, str] = {}
) -> tuple[dict[str, Any], dict[str, int], list[FormatError]]:
    """The values of ``node``'s keys by ``shape`` (key -> kind; those with a ``read``), their
    lines, and the errors: each unknown key, then each bad value (named ``label`` + key) or
    missing key (``missing``: key -> message, at the mapping's line) in the order of ``shape``."""
    errors = [  # a misspelt key must not pass silently
        FormatError(source, node.key_lines[key], f"unknown key {quote(key)} in {what} (known: {', '.join(shape)})")
        for key in node.entries
        if key not in shape
    ]
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for key, kind in shape.items():
        value = node.entries.get(key)
        if value is None:
            if key in missing:
                errors.append(FormatError(source, node.line, missing[key]))
        elif kind.read is not None:
            try:
                null = kind.nullable and isinstance(value, YScalar) and value.is_null
                values[key] = None if null else kind.read(value, label + key, source)
                lines[key] = value.line
            except FormatError as exc:
                errors.append(exc)
    return values, lines, errors


# ------------------------------------------------------------------- writing


class Quoted(str):
    """A string always written in double quotes (cards, cells, move strings)."""

    __slots__ = ()


class Flow(dict[str, Any]):
    """A mapping written on one line: ``{cards: ["5C"], face: up}``."""


class FlowList(list[Any]):
    """A list written on one line: ``["d4", "e4"]``."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True

    # A long line breaks between the entries of a flow list, never inside a string:
    # PyYAML would fold a scalar at a space past the width ("4H\ <newline> \ b4"),
    # which is valid YAML but breaks grep, hand edits and diffs (issue 16).
    def write_double_quoted(self, text: str, split: bool = True) -> None:
        super().write_double_quoted(text, split=False)

    def write_single_quoted(self, text: str, split: bool = True) -> None:
        super().write_single_quoted(text, split=False)

    def write_plain(self, text: str, split: bool = True) -> None:
        super().write_plain(text, split=False)


#: How each kind of value is written: double-quoted text, mappings and lists in block
#: style or (:class:`Flow`, :class:`FlowList`) on one line, ``null``.
_REPRESENTERS: tuple[tuple[type, Callable[[yaml.SafeDumper, Any], yaml.Node]], ...] = (
    (Quoted, lambda dumper, data: dumper.represent_scalar(CORE + "str", str(data), style='"')),
    (Flow, lambda dumper, data: dumper.represent_mapping(CORE + "map", data.items(), flow_style=True)),
    (FlowList, lambda dumper, data: dumper.represent_sequence(CORE + "seq", data, flow_style=True)),
    (dict, lambda dumper, data: dumper.represent_mapping(CORE + "map", data.items(), flow_style=False)),
    (list, lambda dumper, data: dumper.represent_sequence(CORE + "seq", data, flow_style=False)),
    (type(None), lambda dumper, data: dumper.represent_scalar(CORE + "null", "null")),
)
for _kind, _represent in _REPRESENTERS:
    _Dumper.add_representer(_kind, _represent)


def dump(data: Mapping[str, Any]) -> str:
    """One YAML document: ``dict``/``list`` in block style, :class:`Flow`/:class:`FlowList`
    on one line, :class:`Quoted` in double quotes, keys in insertion order.  A line
    past 72 characters breaks between list entries (no line of a file or of the
    prompt is wider than 80 columns), never inside a string: each
    card or move is one unbroken string.

    :param data: plain values (str, int, bool, None, lists, mappings).
    :returns: the text, ending with a newline.
    """
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=72, default_flow_style=False
    )
