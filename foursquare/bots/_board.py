"""A private, fast position for the bots' searches: ranks only, play and undo.

Suits never affect play (RULES.md §1), so a search needs only each pile's
top rank, whether it is face up, and the pile heights.  :class:`Board` keeps
those in flat lists indexed by ``row * frame + column`` and implements the
placement (§3), flip (§4) and end-of-turn (§5) rules of any
:class:`~foursquare.engine.rules.Rules` value, without building records.  It is
checked against :class:`~foursquare.engine.game.Game` by ``tests/bots/test_bots.py``.

A board is built from a :class:`~foursquare.engine.view.PlayerView`, so it can only
know what the player knows: the unseen cards are a count per rank.

Its outcome (:meth:`Board.status`) is the engine's
:class:`~foursquare.engine.game.Status`, the one representation of where a game
stands: comparing members by identity (``is``) is as fast in the searches' loops
as comparing small ints.
"""

from __future__ import annotations

from ..engine.frame import frame_of
from ..engine.game import Status
from ..engine.rules import Comparison, Ties
from ..engine.view import PlayerView

_PLAYING, _WON, _LOST = Status.PLAYING, Status.WON, Status.LOST
#: What :meth:`Board.undo` restores of one placement: (cell, its old top rank, its
#: old face, the old box: top row, bottom row, left column, right column, the old
#: face-down count).
Saved = tuple[int, int, bool, int, int, int, int, int]


class Board:
    """A position under some rules, with play/undo on ranks.

    :ivar rank: top rank per board cell (0 for an empty cell).
    :ivar up: whether the top card is face up.
    :ivar h: pile height.
    :ivar counts: unseen cards per rank (index 0 unused); the card to place is not counted.
    :ivar unseen: the number of unseen cards.
    :ivar stack: per :meth:`play` not yet undone, what :meth:`undo` restores (:data:`Saved`).
    :ivar flips: per :meth:`play` not yet undone, the cells it flipped.
    """

    __slots__ = (
        "rules", "geo", "lines", "target", "limit", "total", "room", "sees_all", "ties_count", "self_flip",
        "rank", "up", "h", "npiles", "down", "placed", "r0", "r1", "c0", "c1", "stack", "flips", "counts", "unseen",
    )

    def __init__(self, view: PlayerView) -> None:
        """The board of a :class:`~foursquare.engine.view.PlayerView` (unseen cards as counts per rank)."""
        self.rules = rules = view.rules
        self.geo = geo = frame_of(rules)
        #: each cell's two lines without it (its row's other cells, then its column's), the
        #: lines a card placed there may flip (RULES.md §4)
        self.lines = list(zip(geo.row_others, geo.col_others, strict=True))
        self.target = rules.size * rules.size
        self.limit = rules.face_down_limit
        self.total = rules.deck_size
        # Cards placed when no legal cell is left (RULES.md §5 point 4), -1 when that cannot happen.
        self.room = rules.room if rules.can_run_out_of_room else -1
        self.sees_all = rules.comparison is Comparison.ALL
        self.ties_count = rules.ties is Ties.COUNT
        self.self_flip = rules.self_flip
        n = geo.ncells
        self.rank = [0] * n
        self.up = [False] * n
        self.h = [0] * n
        self.npiles = len(view.grid)
        self.down = view.face_down
        self.placed = sum(len(pile.cards) for pile in view.grid.values())
        self.r0 = self.c0 = 99
        self.r1 = self.c1 = -1
        for cell, pile in view.grid.items():
            i = geo.from_cell[int(cell)]
            self.rank[i] = pile.cards[-1] >> 2
            self.up[i] = pile.face_up
            self.h[i] = len(pile.cards)
            r, c = geo.row[i], geo.col[i]
            self.r0, self.r1 = min(self.r0, r), max(self.r1, r)
            self.c0, self.c1 = min(self.c0, c), max(self.c1, c)
        self.stack: list[Saved] = []
        self.flips: list[list[int]] = []
        self.counts = [0] * (rules.ranks + 1)
        for card in view.unseen:
            self.counts[card >> 2] += 1
        self.unseen = len(view.unseen)

    def status(self) -> Status:
        """Won, lost or playing, as RULES.md §5 decides after a turn (the engine's ``Game._end_of_turn``).

        Lost also with no legal cell for the next card (§5 point 4: every pile
        full), so :meth:`legal` is never empty while playing.
        """
        if self.npiles == self.target and self.down == 0:
            return _WON
        if self.down > self.limit or self.placed >= self.total or self.placed == self.room:
            return _LOST
        return _PLAYING

    def legal(self) -> list[int]:
        """The board cells where the next card may go (RULES.md §3), in reading order."""
        geo = self.geo
        if not self.npiles:
            return list(range(geo.ncells))
        h = self.h
        cap = self.rules.pile_cap
        nbrs = geo.nbrs
        f = geo.frame
        n = self.rules.size
        r0, r1, c0, c1 = self.r0, self.r1, self.c0, self.c1
        if r1 - r0 + 1 < n:
            r0, r1 = max(r0 - 1, 0), min(r1 + 1, f - 1)
        if c1 - c0 + 1 < n:
            c0, c1 = max(c0 - 1, 0), min(c1 + 1, f - 1)
        out: list[int] = []
        for r in range(r0, r1 + 1):
            base = r * f
            for c in range(base + c0, base + c1 + 1):
                k = h[c]
                if k:
                    if k < cap:
                        out.append(c)
                else:
                    for x in nbrs[c]:
                        if h[x]:
                            out.append(c)
                            break
        return out

    def play(self, c: int, x: int) -> None:
        """Place a card of rank ``x`` on cell ``c`` (known legal), flip (§4); :meth:`undo` takes it back."""
        rank = self.rank
        up = self.up
        h = self.h
        down = self.down
        self.stack.append((c, rank[c], up[c], self.r0, self.r1, self.c0, self.c1, down))
        if h[c]:
            if not up[c]:
                down -= 1
        else:
            self.npiles += 1
            r, col = self.geo.row[c], self.geo.col[c]
            self.r0, self.r1 = min(self.r0, r), max(self.r1, r)
            self.c0, self.c1 = min(self.c0, col), max(self.c1, col)
        h[c] += 1
        rank[c] = x
        up[c] = True
        self.placed += 1
        self.down = self._flip_lines(c, x, down)

    def _flip_lines(self, c: int, x: int, down: int) -> int:
        """The flips (§4) of the card of rank ``x`` just placed on cell ``c``: each of its
        two lines flips unless its face-up top cards (every top card under
        ``Comparison.ALL``) hold ``x`` between the lowest and the highest (a tie blocks,
        unless ties count); the cells turned are kept for :meth:`undo`.  ``down``: the
        face-down count before the flips; returns it after them."""
        rank = self.rank
        up = self.up
        h = self.h
        flipped: list[int] = []
        sees_all = self.sees_all
        for line in self.lines[c]:
            lo = 99
            hi = 0
            others: list[int] = []
            for o in line:
                if h[o]:
                    others.append(o)
                    if up[o] or sees_all:
                        k = rank[o]
                        if k < lo:
                            lo = k
                        if k > hi:
                            hi = k
            if not others:
                continue
            if hi and lo <= x <= hi and not (self.ties_count and (x == lo or x == hi)):
                continue
            for o in others:
                down += 1 if up[o] else -1
                up[o] = not up[o]
            flipped += others
            if self.self_flip:  # Rules.self_flip: a line that flips flips the card just placed too
                up[c] = not up[c]
                down += -1 if up[c] else 1
                flipped.append(c)
        self.flips.append(flipped)
        return down

    def undo(self) -> None:
        """Take back the last :meth:`play`."""
        up = self.up
        for f in self.flips.pop():
            up[f] = not up[f]
        c, old_rank, old_up, self.r0, self.r1, self.c0, self.c1, self.down = self.stack.pop()
        self.rank[c] = old_rank
        up[c] = old_up
        self.h[c] -= 1
        if not self.h[c]:
            self.npiles -= 1
        self.placed -= 1

    def draw(self, x: int) -> None:
        """Take one unseen card of rank ``x`` out of the counts (it is being drawn)."""
        self.counts[x] -= 1
        self.unseen -= 1

    def undraw(self, x: int) -> None:
        """Put an unseen card of rank ``x`` back into the counts."""
        self.counts[x] += 1
        self.unseen += 1
