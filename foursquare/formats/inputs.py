"""Reading an input file (or standard input) into text, within a size limit (FORMATS.md):
whole (:func:`read_source`), or block by block as it comes (:class:`InputFile`), so that a
reader of a long file or a slow pipe holds one part of it at a time.

The lowest layer of the formats: it imports no reader of a file kind (state,
transcript, rules), so that every reader may use it.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import stat
import sys
from collections.abc import Iterator
from typing import IO

from ..errors import FormatError

#: The name used for standard input in messages.
STDIN = "<stdin>"


#: The largest file read (bytes): far above any real game file (a transcript of
#: 10,000 games is about 10 MB), low enough that an endless input (/dev/zero)
#: ends with an error instead of filling the memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024


#: The byte-order marks of the other Unicode encodings, longest first (what Windows
#: PowerShell 5 writes with ``>``, and what some editors save as "Unicode").
_OTHER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)


def not_utf8_words(start: bytes) -> str:
    """The words for text that is not UTF-8, given the first bytes of the file: ``not
    UTF-8 text``, and when it starts with the byte-order mark of UTF-16 or UTF-32,
    which encoding that is and what to do.

    >>> not_utf8_words(b"\\xff\\xfed\\x004\\x00")
    'not UTF-8 text: it is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8'
    >>> not_utf8_words(b"d4 \\xe9")
    'not UTF-8 text'
    """
    for mark, name in _OTHER_MARKS:
        if start.startswith(mark):
            return f"not UTF-8 text: it is {name} (it starts with a {name} byte-order mark); save it as UTF-8"
    return "not UTF-8 text"


#: The words for input that holds a NUL byte: binary data (a program, an image, a
#: compressed or a UTF-16 file without its byte-order mark), which no text file holds.
BINARY_WORDS = "a binary file, not text (it holds a NUL byte); give a text file"


def names_a_file(value: str) -> bool:
    """Whether a value given where a name *or* a file is taken (``--rules NAME|FILE``)
    is to be read as a file: ``-`` (standard input), a file or folder that is there,
    or a word written as a file's name (a folder separator, or a dot: ``house.yaml``,
    ``./x``), which no name of a preset holds.  Such a value that names no file is the
    reader's ``FILE: no such file`` (status 1), as for every other input file; any
    other value is a name, and a name that is no preset is a usage error.

    >>> names_a_file("rules/house.yaml"), names_a_file("house.yaml"), names_a_file("fixd")
    (True, True, False)
    """
    # (lexists is false for a name it cannot look up: a NUL in it, a name too long)
    return value == "-" or any(ch in value for ch in {"/", ".", os.sep, os.altsep or "/"}) or os.path.lexists(value)


def _too_large(name: str, line: int | None = None) -> FormatError:
    """What every reader says of an input over :data:`MAX_INPUT_BYTES` (read when said,
    so that a test may lower the limit)."""
    limit = MAX_INPUT_BYTES
    size = f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit:,} bytes"
    return FormatError(name, line, f"too large: over {size}, more than any game file holds")


#: How many bytes are read at a time (from a pipe: what has come, up to this).
CHUNK_BYTES = 1024 * 1024

#: The longest line of any input (characters, its line end not counted), the same for
#: every reader (:class:`InputFile`, and ``play``'s move script on stdin): a move, a command
#: or a YAML line takes a few dozen; an endless line (/dev/zero) ends with an error
#: instead of filling the memory.
MAX_LINE_CHARS = 1024 * 1024
#: What every reader says of a line over :data:`MAX_LINE_CHARS` (``FILE:LINE: ...``).
LINE_TOO_LONG_WORDS = f"the line is too long (over {MAX_LINE_CHARS:,} characters)"
#: What every reader says of a CR that is not part of a CR LF (``FILE:LINE: ...``): a file
#: whose lines end in CR alone, which YAML and the move scripts would count otherwise.
CR_ALONE_WORDS = "a CR alone inside the line: line ends are LF or CR LF"
_CR_ALONE = re.compile("\r(?!\n)")


#: What a reader says of a file it cannot open, by the error (any other: ``cannot read: why``).
_OPEN_FAULTS = {
    FileNotFoundError: "no such file", IsADirectoryError: "is a directory, not a file", PermissionError: "permission denied"
}


class InputFile(contextlib.AbstractContextManager["InputFile"]):
    """An input file (or standard input, ``-``) read block by block, within the size limit.

    Opening it checks that it can be read (a missing file, a directory, a file over
    :data:`MAX_INPUT_BYTES` are refused at once); iterating gives its text in blocks,
    each ending at a line end (the last may not), as it is read: from a pipe, what has
    come so far, so that a reader can report the first document before the pipe ends.
    The text is UTF-8 (a byte-order mark is removed, CRLF becomes LF).

    :param path: a file path, or ``-``.
    :ivar name: the display name (``<stdin>`` for ``-``).
    :raises FormatError: on opening: a missing file, a directory, an unreadable file, a
        file over the limit; while reading: more than :data:`MAX_INPUT_BYTES` from a pipe
        (``too large``, at the line where the limit was passed, after the text
        before it: the bytes past the limit are never read),
        text that is not UTF-8 (``FILE:LINE: not UTF-8 text``, at the line of the first bad byte),
        a NUL byte (``FILE:LINE:`` :data:`BINARY_WORDS`, at its line: binary data, never
        read on as a card, a move or YAML), a CR alone (:data:`CR_ALONE_WORDS`), a line over :data:`MAX_LINE_CHARS`
        (:data:`LINE_TOO_LONG_WORDS`, at its line).  Each is found as the text is read:
        a reader that stops early (a move script's ``quit``) never meets what comes after.
    """

    def __init__(self, path: str, *, chunk: int | None = None) -> None:
        self.name = STDIN if path == "-" else path
        self.chunk = chunk
        self._own = path != "-"
        if path == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:  # a text stream without bytes (some test runners): its text within the limit
                buffer = io.BytesIO(sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogateescape"))
            self._binary: IO[bytes] = buffer
            return
        try:
            self._binary = open(path, "rb")  # noqa: SIM115 (closed by close())
            info = os.fstat(self._binary.fileno())
        except OSError as exc:
            raise FormatError(path, None, _OPEN_FAULTS.get(type(exc), f"cannot read: {exc.strerror or exc}")) from None
        if stat.S_ISDIR(info.st_mode):
            self.close()
            raise FormatError(path, None, "is a directory, not a file")
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_INPUT_BYTES:
            self.close()
            raise _too_large(path)

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (never standard input)."""
        if self._own:
            self._binary.close()

    def __iter__(self) -> Iterator[str]:
        limit, binary = MAX_INPUT_BYTES, self._binary
        read = getattr(binary, "read1", binary.read)
        total = lines = 0  # bytes read, line ends given
        start = b""  # the file's first bytes, for the words of an error at its start
        first = True
        while True:
            try:  # never more than one byte past the limit; a block goes on to the end of its last line
                data = read(min(self.chunk or CHUNK_BYTES, limit + 1 - total))
                room = min(4 * MAX_LINE_CHARS + 7, limit + 1 - total - len(data))  # (a longer line is too long)
                rest = binary.readline(room) if data and not data.endswith(b"\n") else b""
            except OSError as exc:
                raise FormatError(self.name, None, f"cannot read: {exc.strerror or exc}") from None
            data += rest
            if not data:
                return
            total += len(data)
            over = total > limit
            if over:  # the text up to the limit is given first (the games it ends are reported)
                data = data[:-1]
            start += data[: 4 - len(start)]
            nul = data.find(b"\0")  # binary: said as such, whatever else is wrong after it
            good, fault = (data, None) if nul < 0 else (data[:nul], BINARY_WORDS)
            try:  # (a character cut by a limit is no fault of the text)
                text = codecs.utf_8_decode(good, "strict", not over and len(rest) < room)[0]
            except UnicodeDecodeError as exc:
                good, fault = good[: exc.start], not_utf8_words(start)  # valid UTF-8, up to the bad byte
                text = good.decode()
            if lone := _CR_ALONE.search(text, 0, len(text) - over):  # (at the limit, its LF may not be read)
                text, fault = text[: lone.start()], CR_ALONE_WORDS  # before the other faults: on their line or before
            at = lines + text.count("\n") + 1  # the line of the fault, if any
            if fault is not None:  # the whole lines before the fault's
                text = text[: text.rfind("\n") + 1]
            if len(text) > MAX_LINE_CHARS and (  # the line ends before the first line too long (linear: one block)
                before := next((n for n, row in enumerate(text.split("\n")) if len(row) > MAX_LINE_CHARS), None)
            ) is not None:
                raise FormatError(self.name, lines + before + 1, LINE_TOO_LONG_WORDS)
            if text:  # given first: the games it ends are reported before the fault after it
                yield (text.removeprefix("\ufeff") if first else text).replace("\r\n", "\n")
                first = False
            if fault is not None:  # at the line of the bad byte, the NUL or the CR
                raise FormatError(self.name, at, fault)
            lines += data.count(b"\n")
            if over:
                raise _too_large(self.name, lines + 1)  # the line where the limit was passed


def read_source(path: str) -> tuple[str, str]:
    """The text of a file and its display name; ``-`` reads standard input as ``<stdin>``.

    The text is UTF-8 (a byte-order mark is removed, CRLF becomes LF): :class:`InputFile`
    read whole.

    :param path: a file path, or ``-``.
    :returns: ``(text, name)``.
    :raises FormatError: for a missing file, a directory, an unreadable file, a
        file over :data:`MAX_INPUT_BYTES`, text that is not UTF-8
        (``FILE:LINE: not UTF-8 text``) or binary (a NUL byte, :data:`BINARY_WORDS`).
    """
    with InputFile(path) as source:
        return "".join(source), source.name
