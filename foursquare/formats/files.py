"""Reading an input file (or standard input) into text, within a size limit (FORMATS.md).

The lowest layer of the formats: it imports no reader of a file kind (state,
transcript, rules), so that every reader may use it.
"""

from __future__ import annotations

import sys

from ..errors import FormatError
from .yamlio import clean_text, decode

#: The name used for standard input in messages.
STDIN = "<stdin>"


#: The largest file read (bytes): far above any real game file (a transcript of
#: 10,000 games is about 10 MB), low enough that an endless input (/dev/zero)
#: ends with an error instead of filling the memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def _too_large(name: str, limit: int) -> FormatError:
    return FormatError(name, None, f"too large: over {limit // (1024 * 1024)} MiB, more than any game file holds")


def read_source(path: str) -> tuple[str, str]:
    """The text of a file and its display name; ``-`` reads standard input as ``<stdin>``.

    The text is UTF-8 (a byte-order mark is removed, CRLF becomes LF).

    :param path: a file path, or ``-``.
    :returns: ``(text, name)``.
    :raises FormatError: for a missing file, a directory, an unreadable file, a
        file over :data:`MAX_INPUT_BYTES` or text that is not UTF-8
        (``FILE:LINE: not UTF-8 text``).
    """
    limit = MAX_INPUT_BYTES
    if path == "-":
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        if stream is None:  # a text stream without bytes (e.g. some test runners)
            text = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise _too_large(STDIN, limit)
            return clean_text(text), STDIN
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise _too_large(STDIN, limit)
        return decode(data, STDIN), STDIN
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise FormatError(path, None, "no such file") from None
    except IsADirectoryError:
        raise FormatError(path, None, "is a directory, not a file") from None
    except PermissionError:
        raise FormatError(path, None, "permission denied") from None
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise _too_large(path, limit)
    return decode(data, path), path
