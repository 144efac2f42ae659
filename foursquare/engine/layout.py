"""Cells of the frame and the windows of cells a box of piles allows (RULES.md §3); the
frame's other tables (which cells it holds, which touch) are :mod:`foursquare.engine.frame`'s.

A cell is a :class:`Cell`, an ``int`` subclass equal to ``row * 16 + column``
(both from 0), written column letter then row number: ``a1`` is the top left,
``d4`` the centre of the standard 7×7 frame.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ..errors import ParseError, quote
from .cards import NotText

STRIDE = 16  # cell = row * STRIDE + column; room for any frame up to 16 wide
COLUMN_LETTERS = "abcdefghijklmnop"
#: ASCII only: ``\d`` would take any Unicode digit (``d４``) and IGNORECASE alone
#: would let the Kelvin sign stand for ``k``.
_CELL_RE = re.compile(r"([a-p])([0-9]{1,2})", re.IGNORECASE | re.ASCII)


class Cell(NotText):
    """One cell of the frame; an ``int`` equal to ``row * 16 + column``.

    ``str(cell)`` is its name, like ``d4``; :attr:`row` and :attr:`column`
    count from 0 (``d4`` has column 3, row 3).

    :param value: the cell's number ``row * 16 + column`` (0 to 255), or its name (``"d4"``).
    :raises ParseError: for a number that is no cell's, text that is not a cell name, or
        any other value (``True`` too: a bool is no cell's number).
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Cell:
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < STRIDE * STRIDE:
                return CELLS[value]
            raise ParseError(f"Cell: not a cell: {quote(value)} (value must be row * 16 + column, from 0 to {STRIDE * STRIDE - 1})")
        if isinstance(value, str):
            return cls.parse(value)
        raise ParseError(f"Cell: not a cell: {quote(value)} ({type(value).__name__}; value must be row * 16 + column or a name like d4)")

    @property
    def row(self) -> int:
        """Row index from 0 (the top row, ``1``)."""
        return self >> 4

    @property
    def column(self) -> int:
        """Column index from 0 (column ``a``)."""
        return self & 15

    def __str__(self) -> str:
        return CELL_NAMES[self]

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Read a cell name such as ``d4`` (either case, white space around it ignored).

        Whether the cell lies inside the frame is for the game to say.

        :raises ParseError: when the text is not a column letter and a row number.
        """
        m = _CELL_RE.fullmatch(text.strip()) if isinstance(text, str) and len(text) < 100 else None
        if not m or not 1 <= int(m.group(2)) <= STRIDE or m.group(2).startswith("0"):
            raise ParseError(f"not a cell: {quote(text)} (expected a column letter and a row number, like d4)")
        return CELLS[(int(m.group(2)) - 1) * STRIDE + COLUMN_LETTERS.index(m.group(1).lower())]


#: Steps (rows, columns) to the cells that share an edge, and to those that share only
#: a corner (RULES.md §3: where a new pile may go).
EDGE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
CORNER_STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
CELL_NAMES: list[str] = [COLUMN_LETTERS[i % STRIDE] + str(i // STRIDE + 1) for i in range(STRIDE * STRIDE)]
CELLS: list[Cell] = [int.__new__(Cell, i) for i in range(STRIDE * STRIDE)]

parse_cell = Cell.parse


class Window(NamedTuple):
    """The cells a card may go to, as far as the 4×4 box allows (RULES.md §3).

    :ivar members: the cells as a set, for membership tests.
    :ivar indices: the same cells in reading order as plain ``int`` values, which
        index lists faster than :class:`Cell` values do.
    """

    members: frozenset[Cell]
    indices: tuple[int, ...]


@functools.cache
def window(frame: int, size: int, box: tuple[int, int, int, int]) -> Window:
    """The cells of a frame ``frame`` wide that a ``size``×``size`` grid may still cover
    (RULES.md §3), made once for each box and shared by every game.

    A box is (top row, bottom row, left column, right column) of the piles, from 0;
    the piles already fit in ``size`` rows and columns.  Its window is the box, grown
    by one row above and below unless it already spans ``size`` rows, and likewise
    for columns, cut to the frame.  A new pile may go to an empty cell of the window
    (when adjacent to a pile); one outside it would make the grid too large.  An
    empty box (top row below the bottom row: no piles) gives the whole frame.
    """
    r0, r1, c0, c1 = box
    last = frame - 1
    if r0 > r1:
        r0, r1, c0, c1 = 0, last, 0, last
    else:
        if r1 - r0 + 1 < size:
            r0, r1 = max(r0 - 1, 0), min(r1 + 1, last)
        if c1 - c0 + 1 < size:
            c0, c1 = max(c0 - 1, 0), min(c1 + 1, last)
    cells = [CELLS[r * STRIDE + c] for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
    return Window(frozenset(cells), tuple(map(int, cells)))
