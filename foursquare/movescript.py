"""Move scripts: one move a line, as typed at the prompt or piped in (FORMATS.md).

A move is a cell (``d4``), optionally preceded by the card the writer expects
to be drawn (``7H d4``).  ``#`` starts a comment; blank lines and surrounding
white space are ignored; CRLF line ends and a UTF-8 byte-order mark are
accepted; cards and cells are case-insensitive.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .cards import Card
from .errors import FormatError, ParseError
from .layout import Cell


class Move(NamedTuple):
    """One move: the cell, and the card the writer expects to be drawn (or ``None``)."""

    cell: Cell
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.card} {self.cell}" if self.card is not None else str(self.cell)


def strip_line(text: str) -> str:
    """A line without its comment, line end, byte-order mark and surrounding white space."""
    return text.lstrip("\ufeff").split("#", 1)[0].strip()


def parse_move(text: str) -> Move:
    """Read one move: ``CELL`` or ``CARD CELL`` (comments and white space already removed).

    :raises ParseError: when the text is not a move; the message quotes it.
    """
    words = text.split()
    if len(words) == 1:
        return Move(Cell.parse(words[0]))
    if len(words) == 2:
        return Move(Cell.parse(words[1]), Card.parse(words[0]))
    raise ParseError(f"not a move: {text!r} (expected a cell like d4, or a card and a cell like 7H d4)")


def read_moves(lines: Iterable[str], source: str = "<stdin>") -> Iterator[tuple[int, Move]]:
    """The moves of a move script, each with its line number (from 1).

    :param lines: the script's lines (a file opened as text, or ``text.splitlines()``).
    :param source: the name used in errors (``<stdin>`` for standard input).
    :raises FormatError: ``FILE:LINE: message`` at the first line that is not a move.
    """
    for number, line in enumerate(lines, 1):
        text = strip_line(line) if number > 1 else strip_line(line.lstrip("\ufeff"))
        if not text:
            continue
        try:
            yield number, parse_move(text)
        except ParseError as exc:
            raise FormatError(source, number, str(exc)) from None
