"""The solver's compact position: bit masks and flat lists over one frame.

Indexing is compact (``row * F + column`` of a frame ``F`` wide: see
:mod:`foursquare.engine.frame`); the search (:class:`foursquare.solver.search.Search`)
changes the lists in place as it plays and undoes placements (RULES.md §3, §4).
"""

from __future__ import annotations

from ..engine.frame import Frame, frame_tables
from ..engine.game import Game
from .bounds import Box


class Board:
    """A position for the search, in the frame's compact indexing.

    :ivar rules: the rule set.
    :ivar n: the grid's side (RULES.md §3: 4).
    :ivar F: the frame's width.
    :ivar frame: the frame's tables (:class:`~foursquare.engine.frame.Frame`).
    :ivar cap: the pile cap; :ivar limit: the face-down limit (RULES.md §5).
    :ivar h: pile height by index (0: empty).
    :ivar rk: top card's rank by index (0 marks an empty cell: ranks start at 1).
    :ivar p: the number of piles; :ivar down: the number of face-down top cards.
    :ivar box: the piles' box (top row, bottom row, left column, right column);
        ``(99, -1, 99, -1)`` with no pile.
    :ivar om: the piles, :ivar dm: the face-down top cards, :ivar fm: the full
        piles (as many cards as the cap), as bit masks.
    """

    def __init__(self, game: Game) -> None:
        """The position of a game (its rules, piles, faces and heights)."""
        self.rules = rules = game.rules
        self.n = rules.size
        self.F = rules.frame
        self.frame: Frame = frame_tables(self.F)  # edge adjacency: the only one the fast search supports
        self.cap = rules.pile_cap
        self.limit = rules.face_down_limit
        size = self.F * self.F
        self.h = [0] * size
        self.rk = [0] * size
        self.down = 0
        self.om = 0
        self.dm = 0
        self.fm = 0
        grid = game.grid
        self.p = len(grid)
        r0, r1, c0, c1 = 99, -1, 99, -1
        for cell, pile in grid.items():
            r, c = cell.row, cell.column
            q = self.frame.from_cell[int(cell)]
            self.h[q] = len(pile.cards)
            self.rk[q] = pile.top >> 2
            self.om |= 1 << q
            if not pile.face_up:
                self.dm |= 1 << q
                self.down += 1
            if self.h[q] >= self.cap:
                self.fm |= 1 << q
            r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
        self.box: Box = (r0, r1, c0, c1)
