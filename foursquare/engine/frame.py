"""The tables of a frame: for the engine, and in *compact* indexing (cell ``row * frame + column``).

The engine (:mod:`foursquare.engine.layout`) numbers a cell ``row * 16 + column``
(:data:`~foursquare.engine.layout.STRIDE`), which leaves room for any frame.  The
fast searches (the bots' board, the solver) number the cells of one frame
compactly instead, ``0 .. frame * frame - 1``, so that a layout fits in the bits
of one small ``int``.  :class:`Frame` holds the tables both need for one frame
and one adjacency rule, made once (:data:`frame_tables`, :func:`frame_of`):

- for the engine (:class:`~foursquare.engine.game.Game`), which engine cells lie in the
  frame and the neighbours of each (RULES.md §3);
- the way between a compact index and the engine's :class:`~foursquare.engine.layout.Cell`;
- each index's row and column, its *line-mates* (the other cells of its row and of
  its column: the piles a placement may flip, RULES.md §4) and its neighbours
  (the cells next to it, RULES.md §3: sharing an edge, or also a corner under
  ``edge-or-corner`` adjacency);
- the same as bit masks (bit ``i`` for index ``i``), and the masks of bands of
  rows ``r0 .. r1`` and of columns ``c0 .. c1``.

    >>> f = frame_tables(7)
    >>> str(f.to_cell[f.centre]), f.from_cell[int(f.to_cell[10])]
    ('d4', 10)
    >>> [str(f.to_cell[i]) for i in f.nbrs[0]]
    ['a2', 'b1']
    >>> bin(f.row_mask[1]), f.cols_band[0][0] == sum(1 << (7 * r) for r in range(7))
    ('0b1111101', True)
"""

from __future__ import annotations

import functools

from .layout import CELLS, CORNER_STEPS, EDGE_STEPS, STRIDE, Cell
from .rules import Adjacency, Rules


class Frame:
    """The compact-index tables of a square frame ``frame`` cells wide (RULES.md §3).

    Index ``i`` is the cell in row ``i // frame`` and column ``i % frame`` (both
    from 0).  Lists are indexed by ``i``; masks have bit ``i`` for index ``i``.

    :ivar frame: the side of the frame (7 in the standard game; at most 16).
    :ivar ncells: ``frame * frame``.
    :ivar row: the row of each index.
    :ivar col: the column of each index.
    :ivar row_others: the other indices of each index's row, left to right.
    :ivar col_others: the other indices of each index's column, top to bottom.
    :ivar nbrs: the neighbours of each index under the adjacency rule (RULES.md §3: a new pile goes next to one).
    :ivar to_cell: index -> engine :class:`~foursquare.engine.layout.Cell`.
    :ivar from_cell: engine cell (as an ``int``) -> index.
    :ivar inside: ``inside[cell]`` for each engine cell (``row * 16 + column``): whether it
        lies in the frame (the engine's tables are indexed by engine cells).
    :ivar neighbours: ``neighbours[cell]`` for an engine cell of the frame: the engine cells
        next to it, as plain ``int`` values (which index lists faster than cells do).
    :ivar corner: the frame as a range of names, like ``a1-g7``.
    :ivar centre: the centre's index (for an odd frame, the centre cell; else the
        cell below and right of the centre).  A floating frame's first card may go
        there: it leaves the grid free to grow in every direction.
    :ivar row_mask: each index's row without the index, as a mask.
    :ivar col_mask: each index's column without the index, as a mask.
    :ivar nbr_mask: each index's neighbours, as a mask.
    :ivar rows_band: ``rows_band[r0][r1]``: the mask of rows ``r0 .. r1`` (0 when ``r1 < r0``).
    :ivar cols_band: ``cols_band[c0][c1]``: the mask of columns ``c0 .. c1`` (0 when ``c1 < c0``).
    :ivar every: the mask of every index.
    """

    __slots__ = (
        "frame", "ncells", "row", "col", "row_others", "col_others", "nbrs", "to_cell", "from_cell",
        "inside", "neighbours", "corner", "centre", "row_mask", "col_mask", "nbr_mask", "rows_band", "cols_band", "every",
    )

    def __init__(self, frame: int, adjacency: Adjacency = Adjacency.EDGE) -> None:
        f = frame
        cells = range(f * f)
        self.frame = f
        self.ncells = f * f
        self.row: list[int] = [i // f for i in cells]
        self.col: list[int] = [i % f for i in cells]
        self.row_others: list[tuple[int, ...]] = [tuple(i - i % f + c for c in range(f) if c != i % f) for i in cells]
        self.col_others: list[tuple[int, ...]] = [tuple(r * f + i % f for r in range(f) if r != i // f) for i in cells]
        steps = EDGE_STEPS + (CORNER_STEPS if adjacency is Adjacency.EDGE_OR_CORNER else ())
        self.nbrs: list[tuple[int, ...]] = [
            tuple((i // f + dr) * f + i % f + dc for dr, dc in steps if 0 <= i // f + dr < f and 0 <= i % f + dc < f) for i in cells
        ]
        self.to_cell: list[Cell] = [CELLS[(i // f) * STRIDE + i % f] for i in cells]
        self.from_cell: dict[int, int] = {int(c): i for i, c in enumerate(self.to_cell)}
        self.inside = [cell in self.from_cell for cell in range(STRIDE * STRIDE)]
        self.neighbours: list[tuple[int, ...]] = [()] * (STRIDE * STRIDE)
        for i, cell in enumerate(self.to_cell):
            self.neighbours[cell] = tuple(int(self.to_cell[j]) for j in self.nbrs[i])
        self.corner = f"a1-{self.to_cell[-1]}"
        self.centre = (f // 2) * f + f // 2
        self.row_mask: list[int] = [sum(1 << i for i in line) for line in self.row_others]
        self.col_mask: list[int] = [sum(1 << i for i in line) for line in self.col_others]
        self.nbr_mask: list[int] = [sum(1 << i for i in line) for line in self.nbrs]
        col0 = sum(1 << (r * f) for r in range(f))
        lines = range(f)
        self.rows_band: list[list[int]] = [[((1 << f * (r1 - r0 + 1)) - 1) << f * r0 if r1 >= r0 else 0 for r1 in lines] for r0 in lines]
        self.cols_band: list[list[int]] = [[col0 * (((1 << (c1 - c0 + 1)) - 1) << c0) if c1 >= c0 else 0 for c1 in lines] for c0 in lines]
        self.every = (1 << (f * f)) - 1


#: The (shared, cached) :class:`Frame` of a frame ``frame`` wide (1 to 16) under an adjacency rule.
frame_tables = functools.cache(Frame)


def frame_of(rules: Rules) -> Frame:
    """The (shared, cached) :class:`Frame` of a rule set: its frame and adjacency rule (RULES.md §3, §8)."""
    return frame_tables(rules.frame, rules.adjacency)
