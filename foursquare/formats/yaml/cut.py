"""The cut of a YAML stream into its documents, by lines (FORMATS.md: strict YAML).

A ``---`` or ``...`` at the start of a line is a document marker wherever it stands,
so a stream can be cut into pieces of one document each before any of it is parsed
(:func:`iter_pieces`): then one unreadable document does not
hide the others, and a stream given block by block (a file as it is read) is cut as it
comes, one document's text at a time (:data:`MAX_DOCUMENT_CHARS` at most).
:mod:`foursquare.formats.yaml.strict` reads each piece.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

#: The most characters one document may hold (a game takes a few thousand): a longer
#: one is refused as it is read, before it is parsed, so that one document of a file
#: within the input cap never holds the whole file in memory.
MAX_DOCUMENT_CHARS = 8 * 1024 * 1024

#: A document marker: ``---`` or ``...`` at the start of a line, then white space or the line end.
MARKER = re.compile(r"(---|\.\.\.)(?=[ \t]|$)")
#: YAML's line breaks (as PyYAML and libyaml count lines).
BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class Piece(NamedTuple):
    """A part of a YAML stream holding at most one document (:func:`iter_pieces`).

    :ivar offset: the number of lines before it (its first line is ``offset + 1``).
    :ivar text: its text.
    :ivar first: the line of its first content (not blank, a comment or a directive).
    :ivar oversize: true when it holds more than :data:`MAX_DOCUMENT_CHARS`
        (its ``text`` is then empty: it was dropped as it was read).
    """

    offset: int
    text: str
    first: int
    oversize: bool = False


#: A line that starts with a document marker; a line that holds something (not blank, not
#: only a comment): found in a text whose only line break is LF (see :data:`_OTHER_BREAK_CHAR`).
_MARKER_LINE = re.compile("^(?:---|\\.\\.\\.)(?=[ \t\n]|\\Z)", re.MULTILINE)
_CONTENT_LINE = re.compile("^[^\\S\n]*[^\\s#]", re.MULTILINE)
#: A YAML line break other than LF (CRLF is one): the lines are found in a copy of the text
#: where each is LF (CRLF a space and LF), so that the positions in both agree.
_OTHER_BREAK_CHAR = re.compile("[\r\x85\u2028\u2029]")
_TO_LF = str.maketrans("\r\x85\u2028\u2029", "\n\n\n\n")


def iter_pieces(blocks: Iterable[str]) -> Iterator[Piece]:
    """Cut a YAML stream, given block by block (as a file is read), at its document
    markers, so that each document is read on its own: the pieces, one at a time.

    A ``---`` or ``...`` at the start of a line (then white space or the line
    end) is a document marker wherever it stands: YAML forbids it inside any
    scalar, and it ends a block scalar.  So a cut by lines is sound.  ``---``
    starts a document (with any ``%`` directives and comments just before it, and
    any content after it on the same line); ``...`` ends one.  Pieces holding only
    blank lines and comments are dropped, and so is a ``...`` that ends no document.

    :param blocks: the stream's text in blocks, each ending at a line break (the last
        may not; CRLF made LF, or not): :func:`foursquare.formats.inputs.InputFile` reads a
        file so.  A piece is given as soon as the line that ends it is read, so a pipe's first document is read
        before the pipe ends.

    A piece over :data:`MAX_DOCUMENT_CHARS` is given with ``oversize`` true and no
    text, and its text is dropped while it is read, so memory stays that of one
    document within the limit.
    """
    cutter = _Cutter()
    for text in blocks:
        if text:
            yield from cutter.block(text)
    if cutter.first is not None:
        yield cutter.piece("")


class _Cutter:
    """The state of :func:`iter_pieces` between the lines that can change a piece (a marker,
    or before a document's first content, a directive or that content), and its steps."""

    __slots__ = ("first", "line", "parts", "size", "start", "start_pos", "started")

    def __init__(self) -> None:
        self.line = 0  # the current line's index, from 0
        self.start = 0  # the current piece's first line
        self.first: int | None = None  # the first content line of the current piece
        self.started = False  # the piece has its '---' or some content: a '---' now starts the next one
        self.parts: list[str] = []  # the current piece's text in the blocks before this one
        self.size = 0  # its length so far (also when dropped)
        self.start_pos = 0  # where the current piece starts in this block (0: in an earlier one)

    def piece(self, tail: str) -> Piece:
        """The current piece, ending with ``tail`` (its text in this block)."""
        assert self.first is not None
        if self.size + len(tail) > MAX_DOCUMENT_CHARS:
            return Piece(self.start, "", self.first, True)
        return Piece(self.start, "".join(self.parts) + tail if self.parts else tail, self.first)

    def block(self, text: str) -> Iterator[Piece]:
        """The pieces that end in one block of the stream (ending at a line break, or the last)."""
        block_line = self.line
        lines = text.replace("\r\n", " \n").translate(_TO_LF) if _OTHER_BREAK_CHAR.search(text) else text  # (rare: a copy)
        pos = 0  # a line start
        self.start_pos = 0
        while (match := (_MARKER_LINE if self.started else _CONTENT_LINE).search(lines, pos)) is not None:
            at = match.start()
            self.line += lines.count("\n", pos, at)
            end = lines.find("\n", at)
            end, after = (len(lines), len(lines)) if end < 0 else (end, end + 1)
            piece = self._take(text, lines[at:end], at, after)
            if piece is not None:
                yield piece
            if after == end:  # the block's last line, without its break
                break
            pos, self.line = after, self.line + 1
        self.line = block_line + lines.count("\n")
        rest = len(text) - self.start_pos
        if self.size + rest <= MAX_DOCUMENT_CHARS:
            self.parts.append(text[self.start_pos :] if self.start_pos else text)
        else:  # too large: its text is dropped as it is read
            self.parts = []
        self.size += rest

    def _take(self, text: str, current: str, at: int, after: int) -> Piece | None:
        """What the line ``current`` (its text without the break), from ``at`` to ``after`` in
        ``text``, does: a piece that it ends, or ``None``."""
        marker = MARKER.match(current) if current[:1] in "-." else None
        line = self.line
        if marker and marker.group(1) == "---":
            done = self.piece(text[self.start_pos : at]) if self.started and self.first is not None else None
            if self.started:
                self.start, self.start_pos, self.first, self.parts, self.size = line, at, None, [], 0
            self.started = True
            self.first = line + 1 if self.first is None else self.first
            return done
        if marker:  # '...': the document ends with this line
            done = None
            if self.started or self.first is not None:
                self.first = line + 1 if self.first is None else self.first
                done = self.piece(text[self.start_pos : after])
            # (a '...' with no document open ends nothing: it is left out)
            self.start, self.start_pos, self.first, self.started, self.parts, self.size = line + 1, after, None, False, [], 0
            return done
        if not self.started:  # a directive belongs to the document its '---' starts; content starts one
            self.started = not current.startswith("%")
            self.first = line + 1 if self.first is None else self.first
        return None
