"""A fast reader for the plain form of YAML this package writes, line by line.

:func:`read_plain` reads a document written as :func:`foursquare.formats.transcript.transcripts_text`
writes one (an optional ``---`` line; top-level ``key: value`` lines, a value
being a plain or double-quoted word, or a one-line flow list or mapping of them;
``key:`` followed by ``- value`` lines) to the very nodes
:mod:`foursquare.formats.yaml.strict` builds from PyYAML's events, without parsing
it with PyYAML.  Anything else -- a comment, a blank line, indentation, an escape,
a character outside printable ASCII, a tag, an anchor, a duplicate key, a word
PyYAML would resolve to a tag the strict reader refuses -- gives ``None``, and the
general reader reads the document (and says what is wrong).  Tests
(``tests/test_yamlio_fast.py``) check that both give the same nodes on
generated and mutated documents.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from .cut import each_line
from .nodes import ALLOWED_PLAIN_TAGS, ALLOWED_TAG_NAMES, YMap, YNode, YScalar, YSeq, plain_tag

#: A key: lower-case letters, digits and ``_`` (never null, never a tag PyYAML refuses), and
#: short (YAML allows an implicit key of at most 1024 characters).
_KEY = r"[a-z_][a-z0-9_]{0,99}"
#: One top-level line ``key: rest`` / ``key:``.
_TOP = re.compile(rf"({_KEY}):(?: (.+))?")
#: The tokens of a one-line flow value: brackets, separators, double-quoted printable
#: ASCII without escapes, plain words.
_TOKEN = re.compile(r'[{}\[\]]|, |: |"[ !#-\[\]-~]*"|[A-Za-z0-9_][A-Za-z0-9_.+-]*')
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
#: A move line as transcripts are written: card, cell, flipped cells, face_down, status.
_MOVE = re.compile(
    r'- \{card: "([0-9A-Z]{2})", cell: "([a-z][0-9])", flipped: \[((?:"[a-z][0-9]"(?:, "[a-z][0-9]")*)?)\], '
    r"face_down: ([0-9]{1,3}), status: ([a-z]+)\}"
)


class _Unusual(Exception):
    """Raised inside the fast reader: the document is not in the plain form."""


def _plain(text: str, line: int) -> YScalar:
    tag = ALLOWED_PLAIN_TAGS.get(text)
    if tag is None:
        tag = plain_tag(text)
        if tag not in ALLOWED_TAG_NAMES:
            raise _Unusual
    return YScalar(line, text, True, tag)


def _tokens(text: str, budget: int) -> list[str]:
    """The tokens of a one-line flow value, read one by one: :class:`_Unusual` at text
    that is no token, or as soon as they are more than ``budget`` values would make
    (a value takes at most 4 tokens: ``{``, a key, ``: `` and ``, ``), so that a line of
    millions of values is never split into tokens whole."""
    tokens: list[str] = []
    most = 4 * budget + 4
    end = 0
    for match in _TOKEN.finditer(text):
        if match.start() != end or len(tokens) >= most:
            raise _Unusual
        tokens.append(match.group())
        end = match.end()
    if end != len(text):
        raise _Unusual
    return tokens


def _flow(text: str, line: int, budget: int) -> tuple[YNode, int]:
    """The nodes of a one-line flow value (or a lone word), and how many values they
    hold; :class:`_Unusual` when they are more than ``budget``, before they are built."""
    tokens = _tokens(text, budget)
    if len(tokens) == 1 and budget >= 1:  # a lone word or quoted text: the most common value
        return _scalar(tokens[0], line), 1
    reader = _Flow(tokens, line, budget)
    node = reader.value(0)
    if reader.pos != len(tokens):
        raise _Unusual
    return node, reader.count


def _scalar(token: str, line: int) -> YScalar:
    """The scalar of a token that is no bracket: double-quoted text, or a plain word."""
    if token[0] == '"':
        return YScalar(line, token[1:-1], False, "str")
    if not _WORD.fullmatch(token):
        raise _Unusual
    return _plain(token, line)


class _Flow:
    """The tokens of a one-line flow value (:func:`_flow`) read into nodes, one value at a
    time: where the reading stands and how many values it has built (at most ``budget``)."""

    __slots__ = ("budget", "count", "line", "pos", "tokens")

    def __init__(self, tokens: list[str], line: int, budget: int) -> None:
        self.tokens = tokens
        self.line = line
        self.budget = budget
        self.pos = 0
        self.count = 0

    def take(self) -> str:
        """The next token (``""`` past the last)."""
        pos = self.pos
        self.pos = pos + 1
        return self.tokens[pos] if pos < len(self.tokens) else ""

    def counted(self) -> None:
        """One more value; :class:`_Unusual` past the budget."""
        self.count += 1
        if self.count > self.budget:
            raise _Unusual

    def closes(self, bracket: str) -> bool:
        """Whether the next token is ``bracket`` (then it is taken): an empty list or mapping."""
        if self.tokens[self.pos : self.pos + 1] == [bracket]:
            self.pos += 1
            return True
        return False

    def value(self, depth: int) -> YNode:
        """The value at the reading's place, at most 8 levels deep."""
        if self.pos >= len(self.tokens) or depth > 8:
            raise _Unusual
        token = self.take()
        self.counted()
        if token == "{":
            return self.mapping(depth)
        if token == "[":
            return self.sequence(depth)
        return _scalar(token, self.line)

    def mapping(self, depth: int) -> YMap:
        """The mapping whose ``{`` was just taken, up to its ``}``."""
        node = YMap(self.line)
        entries = node.entries
        end = "}" if self.closes("}") else ", "
        while end == ", ":
            key = self.take()
            if len(key) > 100 or not _WORD.fullmatch(key) or key in entries or plain_tag(key) == "null":
                raise _Unusual
            if self.take() != ": ":
                raise _Unusual
            self.counted()
            entries[key] = self.value(depth + 1)
            node.key_lines[key] = self.line
            end = self.take()
        if end != "}":
            raise _Unusual
        return node

    def sequence(self, depth: int) -> YSeq:
        """The list whose ``[`` was just taken, up to its ``]``."""
        seq = YSeq(self.line)
        end = "]" if self.closes("]") else ", "
        while end == ", ":
            seq.items.append(self.value(depth + 1))
            end = self.take()
        if end != "]":
            raise _Unusual
        return seq


def _move(match: re.Match[str], line: int, status_tag: Callable[[str], str | None]) -> YMap | None:
    card, cell, flipped, face_down, status = match.groups()
    tag = status_tag(status)
    if tag is None or ALLOWED_PLAIN_TAGS.get(face_down) is None:
        return None
    items: list[YNode] = [YScalar(line, c[1:-1], False, "str") for c in flipped.split(", ")] if flipped else []
    entries: dict[str, YNode] = {
        "card": YScalar(line, card, False, "str"),
        "cell": YScalar(line, cell, False, "str"),
        "flipped": YSeq(line, items),
        "face_down": YScalar(line, face_down, True, ALLOWED_PLAIN_TAGS[face_down]),
        "status": YScalar(line, status, True, tag),
    }
    node = YMap(line, entries, dict.fromkeys(entries, line))
    return node


def read_plain(text: str, offset: int, limit: int) -> YMap | None:
    """The root mapping of one document's text in the plain form, or ``None`` when it is not.

    :param text: the text of a piece of a stream (:class:`foursquare.formats.yaml.cut.Piece`).
    :param offset: the number of lines before it in the stream.
    :param limit: the most values a document may hold (the strict reader's limit).
    :returns: the same nodes, with the same lines, as the strict reader builds from
        PyYAML's events; ``None`` for any document not in the plain form (then read it
        with the strict reader, which also gives every error), and as soon as the values
        read pass half of ``limit``: the strict reader counts them (and refuses), so that
        the nodes of a document far over the limit are never built here.
    """
    if not text or text == "---\n" or text == "---":
        return None
    base = offset + 1
    start = 1 if text.startswith("---\n") or text == "---" else 0
    root = YMap(base + start)
    entries, key_lines = root.entries, root.key_lines
    count = 1
    most = limit // 2  # near the limit: the strict reader counts (and refuses)
    top = _TOP.fullmatch
    move = _MOVE.fullmatch
    status_tag = ALLOWED_PLAIN_TAGS.get
    seq: YSeq | None = None
    try:
        for i, row, list_follows in itertools.islice(each_line(text), start, None):
            line = base + i
            if count > most:
                return None
            if row[:2] == "- ":
                if seq is None:
                    return None
                match = move(row)
                node = _move(match, line, status_tag) if match is not None else None
                # a move as transcripts write it (11 values and its flipped cells), or any flow value
                item, n = (
                    (node, 11 + len(node.entries["flipped"].items))  # type: ignore[attr-defined]
                    if node is not None
                    else _flow(row[2:], line, most - count)
                )
                count += n
                seq.items.append(item)
                continue
            if seq is not None and not seq.items:
                return None
            seq = None
            found = top(row)
            key, rest = found.groups() if found is not None else ("null", None)
            if key in entries or key == "null":  # (also no key: a line of another form)
                return None
            count += 1
            key_lines[key] = line
            if rest is not None:
                entries[key], n = _flow(rest, line, most - count)
                count += n
            elif list_follows:  # a block list follows
                seq = entries[key] = YSeq(line + 1)
                count += 1
            else:
                return None
    except _Unusual:
        return None
    if count > most:
        return None
    return root
