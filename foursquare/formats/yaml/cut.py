"""The cut of a YAML stream into its documents, by lines (FORMATS.md: strict YAML).

A ``---`` or ``...`` at the start of a line is a document marker wherever it stands,
so a stream can be cut into pieces of one document each before any of it is parsed
(:func:`split_documents`, :func:`iter_pieces`): then one unreadable document does not
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
    """A part of a YAML stream holding at most one document (:func:`split_documents`).

    :ivar offset: the number of lines before it (its first line is ``offset + 1``).
    :ivar text: its text.
    :ivar first: the line of its first content (not blank, a comment or a directive).
    :ivar oversize: true when it holds more than the limit of :func:`iter_pieces`
        (its ``text`` is then empty: it was dropped as it was read).
    """

    offset: int
    text: str
    first: int
    oversize: bool = False

    @property
    def last(self) -> int:
        """The index (from 0, within the piece) of its last line that is not blank."""
        lines = BREAKS.split(self.text.rstrip())
        return len(lines) - 1


def each_line(text: str) -> Iterator[tuple[int, str, bool]]:
    """The lines of ``text`` (cut at LF) one at a time, without a list of them all, which
    for a text of short lines takes some 50 times the text's size: (index from 0, the
    line, whether the line after it begins with ``- ``).  A last empty line (after the
    text's final line break) is left out.

    >>> list(each_line("a:\\n- 1\\n"))
    [(0, 'a:', True), (1, '- 1', False)]
    """
    start = i = 0
    size = len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            end = size
        yield i, text[start:end], text.startswith("- ", end + 1)
        start = end + 1
        i += 1


def split_documents(text: str) -> list[Piece]:
    """Cut a YAML stream at its document markers, so that each document is read on its own.

    A ``---`` or ``...`` at the start of a line (then white space or the line
    end) is a document marker wherever it stands: YAML forbids it inside any
    scalar, and it ends a block scalar.  So a cut by lines is sound.  ``---``
    starts a document (with any ``%`` directives and comments just before it, and
    any content after it on the same line); ``...`` ends one.  Pieces holding only
    blank lines and comments are dropped, and so is a ``...`` that ends no document.

    :param text: the stream (CRLF already made LF, or not).
    :returns: the pieces in order (:func:`iter_documents` gives them one at a time).
    """
    return list(iter_documents(text))


#: The start of a line (after any YAML line break; CRLF is one break).
_SOL = "(?:\\A|(?<=[\n\x85\u2028\u2029])|(?<=\r)(?!\n))"
#: A line that starts with a document marker.
_MARKER_LINE = re.compile(_SOL + "(?:---|\\.\\.\\.)(?=[ \t\r\n\x85\u2028\u2029]|\\Z)")
#: A line that holds something (not blank, not only a comment).
_CONTENT_LINE = re.compile(_SOL + "[^\\S\r\n\x85\u2028\u2029]*[^\\s#]")
#: The same two, for a text whose only line break is LF (the common case: faster).
_MARKER_LINE_LF = re.compile("^(?:---|\\.\\.\\.)(?=[ \t\n]|\\Z)", re.MULTILINE)
_CONTENT_LINE_LF = re.compile("^[^\\S\n]*[^\\s#]", re.MULTILINE)
#: A YAML line break other than LF.
_OTHER_BREAK = re.compile("[\r\x85\u2028\u2029]")


def _breaks_in(text: str, start: int, end: int) -> int:
    """How many YAML line breaks ``text[start:end]`` holds (CRLF counting once)."""
    count = text.count("\n", start, end)
    if text.count("\r", start, end):
        count += text.count("\r", start, end) - text.count("\r\n", start, end)
    for other in "\x85\u2028\u2029":
        count += text.count(other, start, end)
    return count


def iter_documents(text: str) -> Iterator[Piece]:
    """The pieces :func:`split_documents` gives, one at a time, found without splitting the text into lines.

    Only the lines that can change a piece are looked at (a marker, or, between
    documents, a directive or the first content), so memory stays that of the
    pieces themselves.
    """
    return iter_pieces((text,))


def iter_pieces(blocks: Iterable[str], limit: int | None = None) -> Iterator[Piece]:
    """The pieces of a stream given block by block (as a file is read), one at a time.

    :param blocks: the stream's text in blocks, each ending at a line break (the last
        may not): :func:`foursquare.formats.files.Source` reads a file so.  The pieces
        are those of :func:`split_documents` of the blocks joined; a piece is given as
        soon as the line that ends it is read, so a pipe's first document is read
        before the pipe ends.
    :param limit: the most characters a piece may hold (default
        :data:`MAX_DOCUMENT_CHARS`): a longer one is given with ``oversize`` true and
        no text, and its text is dropped while it is read, so memory stays that of
        one document within the limit.
    """
    limit = MAX_DOCUMENT_CHARS if limit is None else limit
    line = 0  # the current line's index, from 0
    start = 0  # the current piece's first line
    first: int | None = None  # the first content line of the current piece
    started = False  # the piece has its '---' or some content: a '---' now starts the next one
    parts: list[str] = []  # the current piece's text in the blocks before this one
    size = 0  # its length so far (also when dropped)

    def piece(tail: str) -> Piece:
        assert first is not None
        if size + len(tail) > limit:
            return Piece(start, "", first, True)
        return Piece(start, "".join(parts) + tail if parts else tail, first)

    for text in blocks:
        if not text:
            continue
        n = len(text)
        block_line = line
        lf_only = _OTHER_BREAK.search(text) is None
        markers, contents = (_MARKER_LINE_LF, _CONTENT_LINE_LF) if lf_only else (_MARKER_LINE, _CONTENT_LINE)
        pos = 0  # a line start
        start_pos = 0  # where the current piece starts in this block (0: in an earlier one)
        while True:
            match = (markers if started else contents).search(text, pos)
            if match is None:
                break
            at = match.start()
            if lf_only:
                line += text.count("\n", pos, at)
                end = text.find("\n", at)
                brk = None if end < 0 else True
                end, after = (n, n) if end < 0 else (end, end + 1)
            else:
                line += _breaks_in(text, pos, at)
                found = BREAKS.search(text, at)
                brk = None if found is None else True
                end, after = (found.start(), found.end()) if found is not None else (n, n)
            current = text[at:end]
            marker = MARKER.match(current) if current[:1] in "-." else None
            if marker and marker.group(1) == "---":
                if started:
                    if first is not None:
                        yield piece(text[start_pos:at])
                    start, start_pos, first, parts, size = line, at, None, [], 0
                started = True
                first = line + 1 if first is None else first
            elif marker:  # '...': the document ends with this line
                if started or first is not None:
                    first = line + 1 if first is None else first
                    yield piece(text[start_pos:after])
                # (a '...' with no document open ends nothing: it is left out)
                start, start_pos, first, started, parts, size = line + 1, after, None, False, [], 0
            elif not started:
                if current.startswith("%"):  # a directive: it belongs to the document its '---' starts
                    first = line + 1 if first is None else first
                else:
                    started = True
                    first = line + 1 if first is None else first
            if brk is None:
                break
            pos, line = after, line + 1
        line = block_line + (text.count("\n") if lf_only else _breaks_in(text, 0, n))
        rest = n - start_pos
        if size + rest <= limit:
            parts.append(text[start_pos:] if start_pos else text)
        else:  # too large: its text is dropped as it is read
            parts = []
        size += rest
    if first is not None:
        yield piece("")
