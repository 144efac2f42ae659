"""The nodes the YAML reader builds, and how a plain scalar resolves (FORMATS.md: strict YAML).

:class:`YScalar`, :class:`YMap` and :class:`YSeq`, each with its 1-based line;
built by :mod:`foursquare.formats.yaml.strict` from PyYAML's events.  The tags a
document may carry (:data:`ALLOWED_TAGS`) and the tag of a plain scalar
(:func:`plain_tag`, cached) are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import yaml

from ...errors import QUOTE_LIMIT, quote

#: The prefix of the YAML core schema's tags (``CORE + "str"``).
CORE = "tag:yaml.org,2002:"
#: Tags a document may carry (explicitly or by resolution): the core schema, plus
#: PyYAML's implicit timestamp (harmless: we keep the text).
ALLOWED_TAGS = frozenset(CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp"))
#: ``resolve(node class, text, (plain?, quoted?))``: the tag a scalar would get without a tag
#: (PyYAML's own resolver, as the safe loader uses it).
resolve: Callable[[type[yaml.Node], str, tuple[bool, bool]], str] = yaml.resolver.Resolver().resolve

# --------------------------------------------------------------------- nodes


@dataclass(eq=False, slots=True)
class YNode:
    """A node of a YAML document with its line number (from 1)."""

    line: int

    @property
    def kind(self) -> str:
        """A word for error messages: ``text``, ``a number``, ``a mapping``, ``a list``..."""
        return "a value"


@dataclass(eq=False, slots=True)
class YScalar(YNode):
    """A scalar, kept as the text written.

    :ivar text: the text exactly as written (without quotes).
    :ivar plain: true when written without quotes (only a plain scalar can be a
        number, a boolean or null).
    :ivar tag: the tag PyYAML resolved, without the core prefix: ``str``,
        ``int``, ``float``, ``bool``, ``null``, ``timestamp``.
    """

    text: str = ""
    plain: bool = True
    tag: str = "str"

    @property
    def is_null(self) -> bool:
        """Whether this is YAML null (``null``, ``~`` or nothing, unquoted)."""
        return self.plain and self.tag == "null"

    @property
    def kind(self) -> str:
        if self.is_null:
            return "null"
        if self.plain and self.tag in ("int", "float"):
            cut = f"{self.text[:QUOTE_LIMIT]}…({len(self.text)} digits)"  # a long number by its length
            return f"the number {self.text if len(self.text) <= QUOTE_LIMIT else cut}"
        if self.plain and self.tag == "bool":
            return f"the word {self.text}"
        return f"the text {quote(self.text)}"


@dataclass(eq=False, slots=True)
class YMap(YNode):
    """A mapping whose keys are text.

    :ivar entries: key text -> value node, in document order.
    :ivar key_lines: key text -> the line of the key.
    """

    entries: dict[str, YNode] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return "a mapping"

    def line_of(self, key: str) -> int:
        """The line of ``key``'s value when present, else the mapping's line."""
        node = self.entries.get(key)
        return node.line if node is not None else self.line

    def __contains__(self, key: str) -> bool:
        return key in self.entries


@dataclass(eq=False, slots=True)
class YSeq(YNode):
    """A list of nodes."""

    items: list[YNode] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "a list"


#: The tags (without prefix) an untagged plain scalar may resolve to.
ALLOWED_TAG_NAMES = frozenset(t.removeprefix(CORE) for t in ALLOWED_TAGS)
#: The tag of each short plain scalar seen whose tag is allowed (PyYAML's resolver is
#: slow), bounded: filled by :func:`plain_tag`, and looked up first by the reader (a text
#: not in it may still be allowed: ask :func:`plain_tag`).
ALLOWED_PLAIN_TAGS: dict[str, str] = {}


def plain_tag(text: str) -> str:
    """The core tag (without its prefix) of an untagged plain scalar, as PyYAML resolves it."""
    tag = resolve(yaml.ScalarNode, text, (True, False)).removeprefix(CORE)
    if tag in ALLOWED_TAG_NAMES and len(ALLOWED_PLAIN_TAGS) < 10_000 and len(text) < 40:
        ALLOWED_PLAIN_TAGS[text] = tag
    return tag
