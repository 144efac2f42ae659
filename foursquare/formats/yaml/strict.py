"""The strict YAML reader: every document of a stream to our nodes, or an error at its line (FORMATS.md).

Reading builds our own small tree, :class:`YScalar`, :class:`YMap` and
:class:`YSeq`, each with its 1-based line number (so that errors can say
``FILE:LINE``), straight from the events of PyYAML's safe parser (libyaml's
when it is installed, else PyYAML's pure-Python one, with the same results):
no PyYAML node tree is composed first, and the limits (:data:`MAX_NODES`) hold
as the events come, so a document is refused at the value that passes them,
before the rest of it is parsed.  Nothing
is constructed into Python objects by PyYAML, so no scalar is ever coerced:
``no``, ``on``, ``010``, ``1e3`` stay the text they were written as, and the
schema asks for a number explicitly (:func:`foursquare.formats.yaml.values.as_int`, digits only).  Duplicate
keys, non-text keys, any tag outside the YAML core types (``!!python/...``,
``!!binary``, local ``!tags``) and any tag that makes a value other than what it
is written as (``!!str 1``, ``!!int "1"``, ``!!seq {}``) are errors; a tag that
changes nothing (``!!int 5``) is allowed.

The nodes are here too, and how a plain scalar resolves (PyYAML's resolver, its answers kept).

A stream is read document by document (:func:`read_each_document`): it is cut
at its ``---`` / ``...`` lines (:mod:`foursquare.formats.yaml.cut`, also as it is
read block by block) and each piece is read on its own with its line offset, so
one unreadable document (a syntax error, a duplicate key, a document over
:data:`~foursquare.formats.yaml.cut.MAX_DOCUMENT_CHARS`) does not hide the others.  Every message quotes input through
:func:`foursquare.errors.quote` (bounded), and numbers are checked for length
before ``int()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import yaml
from yaml import AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent

from ...errors import QUOTE_LIMIT, FormatError, quote, shorten
from . import cut
from .cut import BREAKS, Piece, iter_pieces

#: PyYAML's safe loader (its C version when libyaml is there); only its parser's events are used.
#: Tests set it to ``yaml.SafeLoader`` to read with the pure-Python parser.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: How many values (scalars, lists, mappings, keys included) one document may hold;
#: an alias counts once (it is never expanded).  Counted as the document is read, so
#: one document's values take at most some 15 MB (a game takes a few hundred).
MAX_NODES = 100_000
#: How deeply lists and mappings may nest in one document (the formats need 4 levels).
MAX_DEPTH = 200


# --------------------------------------------------------------------- nodes

#: The prefix of the YAML core schema's tags (``CORE + "str"``).
CORE = "tag:yaml.org,2002:"
#: Tags a document may carry (explicitly or by resolution): the core schema, plus
#: PyYAML's implicit timestamp (harmless: we keep the text).
ALLOWED_TAGS = frozenset(CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp"))
#: ``resolve(node class, text, (plain?, quoted?))``: the tag a scalar would get without a tag
#: (PyYAML's own resolver, as the safe loader uses it).
resolve: Callable[[type[yaml.Node], str, tuple[bool, bool]], str] = yaml.resolver.Resolver().resolve

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
        return node.line if (node := self.entries.get(key)) is not None else self.line


@dataclass(eq=False, slots=True)
class YSeq(YNode):
    """A list of nodes."""

    items: list[YNode] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "a list"


#: The tag (without its prefix) of each short untagged plain scalar seen whose tag is
#: allowed (PyYAML's resolver is slow), bounded: filled and looked up first by the reader
#: (a text not in it may still be allowed: the reader then resolves it).
ALLOWED_PLAIN_TAGS: dict[str, str] = {}


# ------------------------------------------------------------------- reading


def clean_text(text: str) -> str:
    """Text without a leading byte-order mark and with CRLF line ends made LF."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


class Document(NamedTuple):
    """One document of a stream as :func:`read_each_document` gives it.

    :ivar line: the line of its first content (a directive, ``---`` or the first key).
    :ivar node: the document's node, ``None`` when it is empty or unreadable.
    :ivar error: why it cannot be read, or ``None``.
    :ivar text: the text of its piece of the stream (:class:`Piece`).
    :ivar skipped: true for a document left unread (``skip`` of :func:`read_each_document`).
    """

    line: int
    node: YNode | None
    error: FormatError | None = None
    text: str = ""
    skipped: bool = False


def read_each_document(
    text: str | Iterable[str], source: str, *, skip: Callable[[int], bool] | None = None
) -> Iterator[Document]:
    """Every document of a YAML stream, each read on its own, one at a time.

    The stream is cut at its document markers (:func:`iter_pieces`) and each
    piece is read separately from its parser events with its line offset, so a syntax error, a
    duplicate key, a bad tag, a document over :data:`MAX_NODES` values or over
    :data:`MAX_DOCUMENT_CHARS` characters spoils only its own document: the others are read.

    :param text: the stream's text (a byte-order mark and CRLF are accepted), or its
        blocks as :class:`foursquare.formats.inputs.InputFile` reads them (already clean,
        each ending at a line break): then only one document's text is held at a time,
        and each document is given as soon as the line after it is read.
    :param source: the name used in errors.
    :param skip: which documents need not be read, by their number among those that
        hold a value or an error (from 1): such a document, once its first events show
        that it holds a list or a mapping, is given as ``skipped`` (no node, no error)
        without reading the rest of it: what finding game K of a long file needs.
    :returns: an iterator of one :class:`Document` per piece with content
        (comments alone make none); an empty document has node ``None`` and no
        error.  Each is read when reached, so a long stream never holds every
        document's nodes at once.
    """
    blocks = (clean_text(text),) if isinstance(text, str) else text
    counted = 0  # the documents given that hold a value or an error
    for piece in iter_pieces(blocks):
        if skip is not None and skip(counted + 1) and _holds_a_collection(piece):
            docs = [Document(piece.first, None, None, "", True)]
        else:
            try:
                docs = [Document(piece.first if n is None else n.line, n, None, piece.text) for n in _compose(piece, source)]
            except FormatError as exc:
                docs = [Document(piece.first, None, exc, piece.text)]
        for doc in docs:
            counted += doc.node is not None or doc.error is not None or doc.skipped
            yield doc


def _holds_a_collection(piece: Piece) -> bool:
    """Whether a piece's first value is a list or a mapping (or it cannot be read): then it
    holds one document that is not empty, whatever the rest of it says.  Only the
    parser's first events are read; ``False`` also when they do not tell (read it whole)."""
    if piece.oversize:
        return True
    try:
        loader = LOADER(piece.text)
        for _ in range(4):  # the stream's start, the document's start, its first value
            kind = type(loader.get_event())
            if kind is MappingStartEvent or kind is SequenceStartEvent:
                return True
            if kind is ScalarEvent or kind is AliasEvent or kind is StreamEndEvent:
                return False
    except yaml.YAMLError:
        return True  # an error is a document (its error) too
    return False


def read_documents(text: str, source: str) -> list[YNode | None]:
    """Every document of a YAML stream, as our nodes; ``None`` for an empty document.

    :param text: the stream's text (a byte-order mark and CRLF are accepted).
    :param source: the name used in errors.
    :returns: one node per document, in order.
    :raises FormatError: for a YAML syntax error (at the line PyYAML reports),
        a duplicate key, a key that is not text, or a tag outside the core types:
        the first, in line order (:func:`read_each_document` reads past them).
    """
    docs = list(read_each_document(text, source))
    for doc in docs:
        if doc.error is not None:
            raise doc.error
    return [doc.node for doc in docs]


def one_document(text: str, source: str, empty: str, more: str) -> YNode:
    """The node of a file that holds one YAML document (a state, a rules file).

    :param empty: what is said (at line 1) when it holds none; :param more: what is said
        (at the second's line) when it holds more.
    :raises FormatError: as :func:`read_documents`, and for none or more than one document.
    """
    nodes = [node for node in read_documents(text, source) if node is not None]
    if not nodes:
        raise FormatError(source, 1, empty)
    if len(nodes) > 1:
        raise FormatError(source, nodes[1].line, more)
    return nodes[0]


def _compose(piece: Piece, source: str) -> list[YNode | None]:
    """The documents of one piece of a stream (normally one), lines counted from the stream's start.

    The values are built straight from the parser's events (:class:`_Builder`): no
    node tree is composed first, and the limits hold as the events come.
    """
    offset = piece.offset
    if piece.oversize:
        raise FormatError(
            source, piece.first, f"the YAML document is too large (over {cut.MAX_DOCUMENT_CHARS:,} characters)"
        )
    try:
        return _Builder(LOADER(piece.text).get_event, source, offset).documents()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        # At the end of the piece (an unclosed bracket, say), PyYAML points past its last
        # line, at the next document's marker: say the piece's last line (not blank) instead.
        line = min(mark.line, len(BREAKS.findall(piece.text.rstrip()))) + 1 + offset if mark is not None else None
        if (tab := _tab_at(piece.text, exc.problem_mark)) is not None:  # libyaml and PyYAML word it differently, neither says "indents"
            raise FormatError(source, tab + 1 + offset, TAB_WORDS) from None
        what = "; ".join(shorten(str(part), 200) for part in (exc.context, exc.problem) if part)
        raise FormatError(source, line, f"YAML syntax error: {what}") from None
    except yaml.reader.ReaderError as exc:
        where = piece.text[: exc.position] if isinstance(exc.position, int) else None
        line = len(BREAKS.findall(where)) + 1 + offset if where is not None else None
        code = ord(exc.character) if isinstance(exc.character, str) else exc.character
        raise FormatError(source, line, f"not YAML text: character U+{code:04X} is not allowed") from None
    except RecursionError:
        raise FormatError(source, piece.first, "the YAML is nested too deeply") from None
    except yaml.YAMLError as exc:  # any other PyYAML error: still no traceback
        raise FormatError(source, piece.first, f"YAML error: {shorten(str(exc), 200)}") from None


#: The words for a tab where YAML wants spaces (indentation, or after ``-`` / ``key:``),
#: the same from every reader and either parser.
TAB_WORDS = "a tab character: YAML indents with spaces only (replace the tab with spaces)"


def _tab_at(text: str, mark: Any) -> int | None:
    """The line (from 0) of the tab that a parser's error points at, or ``None`` when
    it points at no tab (libyaml: "found character that cannot start any token" or
    "found a tab character that violates indentation"; PyYAML: "found character '\\t'").
    A tab in the indentation of the error's line counts too: after spaces, libyaml reads
    the line on as the value before it and stops later on it ("mapping values are not allowed").

    >>> _tab_at("moves:\\n\\t- d4\\n", yaml.Mark("f", 7, 1, 0, None, None))
    1
    >>> _tab_at("moves: [d4\\n", yaml.Mark("f", 10, 0, 10, None, None)) is None
    True
    """
    if mark is None:
        return None
    lines = BREAKS.split(text)
    if not 0 <= mark.line < len(lines):
        return None
    row = lines[mark.line]
    indent = row[: len(row) - len(row.lstrip(" \t"))]
    return mark.line if row[mark.column : mark.column + 1] == "\t" or "\t" in indent else None


def _explicit_tag(tag: str, kind: type[yaml.Node], text: str | None, plain: bool) -> str | None:
    """Why an explicit tag is refused (a message), or ``None`` when it changes nothing."""
    if tag not in ALLOWED_TAGS:
        if tag == CORE + "merge":
            return "YAML merge keys (<<) are not supported"
        shown = "!!" + tag.removeprefix(CORE) if tag.startswith(CORE) else tag
        return f"unsupported YAML tag {shorten(shown)} (only plain values, lists and mappings)"
    if kind is yaml.ScalarNode:
        untagged = resolve(yaml.ScalarNode, text or "", (plain, not plain))
    else:
        untagged = CORE + ("seq" if kind is yaml.SequenceNode else "map")
    if tag != untagged:  # a tag that makes it something else: !!str 1, !!int "1", !!seq {}
        return f"unsupported YAML tag !!{tag.removeprefix(CORE)} here (write the value plainly, without a tag)"
    return None


class _Builder:
    """Our nodes, built from a parser's events (``get_event`` of PyYAML's C or pure parser),
    by recursive descent over the collections (a scalar in one is read in its loop).

    Checks as the events come: tags (:data:`ALLOWED_TAGS`, a tag that changes
    the value), keys (text, not duplicated), aliases (defined, not recursive,
    never expanded: the node is shared), at most :data:`MAX_NODES` values a
    piece and :data:`MAX_DEPTH` levels, so that a document over the limit is refused at the value that
    passes it, before the rest is read.  Each error is a :class:`FormatError` at the line of
    the fault; PyYAML's errors pass through.
    """

    __slots__ = ("anchors", "base", "get", "left", "open_anchors", "source")

    def __init__(self, get_event: Callable[[], Any], source: str, offset: int) -> None:
        self.get, self.source, self.base, self.left = get_event, source, offset + 1, MAX_NODES
        self.anchors: dict[str, YNode] = {}
        self.open_anchors: dict[str, int] = {}  # anchor -> line, of the collections being built

    def documents(self) -> list[YNode | None]:
        """One node per document of the piece, ``None`` for an empty one."""
        docs: list[YNode | None] = []
        while True:
            event = self.get()
            kind = type(event)
            if event is None or kind is StreamEndEvent:
                return docs
            if kind is ScalarEvent or kind is AliasEvent or kind is MappingStartEvent or kind is SequenceStartEvent:
                node = self.value(event, 0)
                empty = kind is ScalarEvent and isinstance(node, YScalar) and not node.text and node.is_null
                docs.append(None if empty else node)
            else:  # the stream's start, a document's start or end: a document's anchors are its own
                self.anchors = {}

    def value(self, event: Any, depth: int) -> YNode:
        """The node of ``event`` (a value inside ``depth`` collections), its anchor noted."""
        kind = type(event)
        if kind is AliasEvent:
            return self.alias(event)
        node: YNode = self.scalar(event) if kind is ScalarEvent else self.collection(event, depth + 1)
        anchor = event.anchor
        if anchor is not None:
            if kind is ScalarEvent:
                self.new_anchor(anchor, node.line)
            else:  # a list or mapping just built: its anchor now refers to it
                del self.open_anchors[anchor]
            self.anchors[anchor] = node
        return node

    def scalar(self, event: Any) -> YScalar:
        """A scalar, counted, its tag checked."""
        self.left -= 1
        line = event.start_mark.line + self.base
        style = event.style
        name = ("str" if style else ALLOWED_PLAIN_TAGS.get(event.value)) if event.tag is None and self.left >= 0 else None
        return YScalar(line, event.value, not style, name or self.tag(event, line))

    def tag(self, event: Any, line: int) -> str:
        """The tag (without its prefix) of a scalar with an explicit tag or a plain text not
        seen yet, refused when it is not allowed; or the error of one value too many."""
        if self.left < 0:
            raise FormatError(self.source, line, _too_large())
        text, tag, style = event.value, event.tag, event.style
        if tag is None:  # not allowed: << (a merge key), = (PyYAML's value tag)
            full = CORE + "str" if style else resolve(yaml.ScalarNode, text, (True, False))
        else:
            full = resolve(yaml.ScalarNode, text, event.implicit) if tag == "!" else tag
        if (why := _explicit_tag(full, yaml.ScalarNode, text, not style)) is not None:
            raise FormatError(self.source, line, why)
        if tag is None and not style and len(ALLOWED_PLAIN_TAGS) < 10_000 and len(text) < 40:
            ALLOWED_PLAIN_TAGS[text] = full.removeprefix(CORE)
        return full.removeprefix(CORE)

    def collection(self, event: Any, depth: int) -> YMap | YSeq:
        """A list or mapping at ``depth`` (from 1), its tag, the size and depth limits and its
        anchor checked before its values are read."""
        self.left -= 1
        line = event.start_mark.line + self.base
        is_map = type(event) is MappingStartEvent
        if event.tag not in (None, "!") and (
            why := _explicit_tag(event.tag, yaml.MappingNode if is_map else yaml.SequenceNode, None, False)
        ) is not None:
            raise FormatError(self.source, line, why)
        if self.left < 0:
            raise FormatError(self.source, line, _too_large())
        if event.anchor is not None:
            self.new_anchor(event.anchor, line)
            self.open_anchors[event.anchor] = line
        if depth > MAX_DEPTH:
            raise FormatError(self.source, line, f"the YAML is nested too deeply (more than {MAX_DEPTH} levels)")
        if is_map:
            return self.mapping(line, depth)
        seq = YSeq(line)
        items, get, scalar = seq.items, self.get, self.scalar
        while (kind := type(event := get())) is not SequenceEndEvent:
            is_plain = kind is ScalarEvent and event.anchor is None
            items.append(scalar(event) if is_plain else self.value(event, depth))
        return seq

    def mapping(self, line: int, depth: int) -> YMap:
        """The entries of a mapping at ``line``, up to its end: keys are text, each once."""
        mapping = YMap(line)
        get, scalar = self.get, self.scalar
        entries, key_lines = mapping.entries, mapping.key_lines
        while (kind := type(event := get())) is not MappingEndEvent:
            if kind is ScalarEvent and event.anchor is None:  # a key (no node is built for it)
                key, key_line, style = event.value, event.start_mark.line + self.base, event.style
                self.left -= 1
                name = ("str" if style else ALLOWED_PLAIN_TAGS.get(key)) if event.tag is None and self.left >= 0 else None
                null = (name or self.tag(event, key_line)) == "null" and not style
                if null or key in entries:
                    raise self.key_error(key, mapping, key_line, null, depth)
            else:  # an alias, a key with an anchor, a list or a mapping: refused unless text
                node = self.value(event, depth)
                if type(node) is not YScalar or node.is_null:
                    raise FormatError(self.source, node.line, f"a mapping key must be text, not {node.kind}")
                if node.text in entries:
                    raise self.key_error(node.text, mapping, node.line, False, depth)
                key, key_line = node.text, node.line
            event = get()
            is_plain = type(event) is ScalarEvent and event.anchor is None
            entries[key] = scalar(event) if is_plain else self.value(event, depth)
            key_lines[key] = key_line
        return mapping

    def alias(self, event: Any) -> YNode:
        """The node an alias refers to (shared, never copied).

        :raises FormatError: for an undefined alias, or one inside the collection it refers to.
        """
        name = event.anchor
        if name in self.anchors:
            return self.anchors[name]
        if name in self.open_anchors:
            raise FormatError(self.source, self.open_anchors[name], "a YAML alias refers to itself (a recursive structure)")
        raise FormatError(self.source, event.start_mark.line + self.base, f"YAML syntax error: found undefined alias {quote(name)}")

    def key_error(self, key: str, mapping: YMap, line: int, null: bool, depth: int) -> FormatError:
        """The error for a key that is ``null``, or else given twice in ``mapping``."""
        if null:
            return FormatError(self.source, line, "a mapping key must be text, not null")
        why = f"duplicate key {quote(key)} (first on line {mapping.key_lines[key]})"
        if depth == 1 and key == "foursquare":
            # every format's version key, again: two documents (games) written one after the other
            why += "; to put several documents in one file, start each with a line '---'"
        return FormatError(self.source, line, why)

    def new_anchor(self, anchor: str, line: int) -> None:
        """Refuse an anchor already defined in the document (PyYAML's composer does too)."""
        if (first := self.anchors[anchor].line if anchor in self.anchors else self.open_anchors.get(anchor)) is not None:
            raise FormatError(self.source, line, f"YAML syntax error: found duplicate anchor {quote(anchor)} (first on line {first})")


def _too_large() -> str:
    """The words for a document of more than :data:`MAX_NODES` values."""
    return f"the YAML document is too large (more than {MAX_NODES:,} values)"
