"""Expectimax over the ranks of the cards to come: the ``greedy``, ``expectimax`` and ``deep`` bots.

The player chooses a cell (a max node); then the next card is drawn (a chance
node): its rank is r with probability (unseen cards of rank r) / (unseen
cards), and suits never matter (RULES.md §1).  This uses exactly what the
player knows — which cards are unseen — and never their order (§6).  At the
search horizon, :mod:`~foursquare.bots.evaluation` gives the position a
utility (to choose by) and an estimate (win chance, expected score) to report;
won and lost positions are exact.  A max node keeps the child of highest
utility; a chance node averages.

- ``greedy`` looks one placement ahead (no chance node).
- ``expectimax`` searches two placements deep: this card, every rank of the
  next card, and the best place for it.
- ``deep`` deepens iteratively (1, 2, 3, ... placements) until its work limit
  (positions examined, deterministic) or its time budget would be exceeded,
  and answers with the deepest complete search: three placements in the
  middle game, four or more near the end.  With a single candidate (the first
  card of a floating grid) it does not search further.  Below the root it examines
  only the ``width`` most promising cells of each max node (by a one-placement
  utility), which makes three and four placements affordable.

The search runs in the compiled core (:class:`CoreSearch`, ``bots_root`` in
foursquare/solver/_core.c) where it is built and not switched off
(:mod:`foursquare.solver.core`), else in Python (:class:`Search`): the same
cells, values, node counts and stops either way (:func:`new_search` chooses).
"""

from __future__ import annotations

import functools
import time
from math import exp

from ..engine.frame import Frame
from ..engine.game import Status
from ..solver import core as _core_choice
from ._board import Board
from .base import Bot, CellEstimate
from .evaluation import DEFAULT_WEIGHTS, EXTRA_MODEL, ROUGH_MODEL, WIN_MODEL, Weights, estimate_of, evaluate

_WON, _LOST = Status.WON, Status.LOST
#: (utility, win chance, expected score): the value of a node.
Value = tuple[float, float, float]
#: (board cell, utility, win chance, expected score): a root cell's value.
RootValue = tuple[int, float, float, float]


class _Stop(Exception):
    """Raised inside a search when its work limit or deadline is reached."""


class Search:
    """One expectimax search on a board (which it changes and restores).

    Every node's value is a triple (utility, win chance, expected score): a max
    node keeps the child of highest utility, a chance node averages all three.

    :param board: the position, the card to place already taken from its counts.
    :param weights: the search utility's parameters.
    :param width: below the root, how many cells of a max node to search
        (the best by a one-placement utility); ``None`` for all.
    :param node_limit: stop (raise :class:`_Stop`) after this many placements.
    :param deadline: stop after this ``time.perf_counter()`` value, or ``None``.
    """

    def __init__(
        self,
        board: Board,
        weights: Weights = DEFAULT_WEIGHTS,
        width: int | None = None,
        node_limit: float = float("inf"),
        deadline: float | None = None,
    ) -> None:
        self.board = board
        self.weights = weights
        self.width = width
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        #: whether the last search stopped anywhere at the horizon (else it is exact)
        self.used_evaluation = False

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _Stop
        if self.deadline is not None and not self.nodes & 127 and time.perf_counter() > self.deadline:
            raise _Stop

    def root(self, cells: list[int], x: int, depth: int) -> list[RootValue]:
        """(cell, utility, win chance, expected score) of placing rank ``x`` on each cell,
        searching ``depth`` placements (this one included), best first."""
        b = self.board
        out: list[RootValue] = []
        for c in cells:
            b.play(c, x)
            self._tick()
            out.append((c, *self._after(depth - 1)))
            b.undo()
        out.sort(key=lambda e: -e[1])
        return out

    def _after(self, depth: int) -> Value:
        """The value of the board just after a placement, ``depth`` placements still to search."""
        b = self.board
        st = b.status()
        if st is _WON:
            score = float(b.total - b.placed)
            return self.weights.win_bonus + score, 1.0, score
        if st is _LOST:
            return 0.0, 0.0, 0.0
        if depth == 0:
            self.used_evaluation = True
            return evaluate(b, self.weights)
        counts = b.counts
        su = sp = ss = 0.0
        for r in range(1, len(counts)):
            k = counts[r]
            if k:
                b.draw(r)
                u, p, s = self._best(r, depth) if depth > 1 else self._best_last(r)
                b.undraw(r)
                su += k * u
                sp += k * p
                ss += k * s
        n = b.unseen
        return su / n, sp / n, ss / n

    def _best(self, x: int, depth: int) -> Value:
        """The best placement of rank ``x`` searching ``depth`` (≥ 2) placements: the first
        of :meth:`root` (the first cell of highest utility; the game goes on, so there is one)."""
        cells = self.board.legal()
        if self.width is not None and len(cells) > self.width:
            cells = [e[0] for e in self.root(cells, x, 1)[: self.width]]
        return self.root(cells, x, depth)[0][1:]

    def _best_last(self, x: int) -> Value:
        """The best placement of rank ``x`` judged by its outcome or the utility (the hot loop)."""
        b = self.board
        w = self.weights
        bonus, a_down, a_missing = w.win_bonus, w.face_down, w.missing
        target, limit, total = b.target, b.limit, b.total
        full = total - b.room  # the stock when every pile is full: lost, no legal cell (RULES.md §5 point 4)
        self.used_evaluation = True
        bu = -1.0
        best: tuple[int, int, int] | None = None  # (face down, missing piles, stock) of the best cell
        for c in b.legal():
            b.play(c, x)
            self._tick()
            down, missing, stock = b.down, target - b.npiles, total - b.placed
            b.undo()
            u = (
                bonus + stock if not missing and not down  # won
                else 0.0 if down > limit or stock <= 0 or stock == full  # lost
                else exp(-a_down * down - a_missing * missing) * (bonus + (stock - missing if stock > missing else 0))
            )
            if u > bu:
                bu, best = u, (down, missing, stock)
        assert best is not None, "no legal cell in a position that goes on"
        down, missing, stock = best
        if not missing and not down:
            return bu, 1.0, float(stock)
        if down > limit or stock <= 0 or stock == full:
            return 0.0, 0.0, 0.0
        return (bu, *estimate_of(down, missing, stock, b.rules.size))


class CoreSearch(Search):
    """:class:`Search` in the compiled core (``bots_root`` in foursquare/solver/_core.c):
    the same list (cells, and floats bit for bit), node count, stop and
    ``used_evaluation`` for every position, rule set, width, depth and limit; the
    board is only read.  Made by :func:`new_search` where the core is built."""

    def root(self, cells: list[int], x: int, depth: int) -> list[RootValue]:
        """:meth:`Search.root`, compiled (raises :class:`_Stop` alike)."""
        core = _core_choice.CORE
        assert core is not None, "CoreSearch without the compiled core"
        b, w = self.board, self.weights
        lines, nbrs = _tables(b.geo)
        fixed = (
            lines, nbrs, b.geo.frame, b.rules.size, b.rules.pile_cap, b.target, b.limit, b.total, b.room,
            b.sees_all, b.ties_count, b.self_flip, w.face_down, w.missing, w.win_bonus, WIN_MODEL, EXTRA_MODEL, ROUGH_MODEL,
        )
        board = (bytes(b.rank), bytes(b.up), bytes(b.h), bytes(b.counts), b.npiles, b.down, b.placed, b.unseen, b.r0, b.r1, b.c0, b.c1)
        width = -1 if self.width is None else self.width
        answer: tuple[bool, int, bool, list[RootValue]] = core.bots_root(
            fixed, board, width, self.node_limit, self.deadline, self.nodes, self.used_evaluation, cells, x, depth
        )
        stopped, self.nodes, self.used_evaluation, out = answer
        if stopped:
            raise _Stop
        return out


@functools.cache
def _tables(geo: Frame) -> tuple[bytes, bytes]:
    """A frame's tables for :class:`CoreSearch`: each cell's two lines (its row's other
    cells, then its column's: ``frame - 1`` bytes each) and its neighbours (8 bytes,
    255 after the last)."""
    lines = bytes(i for c in range(geo.ncells) for i in (*geo.row_others[c], *geo.col_others[c]))
    nbrs = bytes(i for t in geo.nbrs for i in (*t, *(255,) * (8 - len(t))))
    return lines, nbrs


def new_search(board: Board, weights: Weights = DEFAULT_WEIGHTS, width: int | None = None) -> Search:
    """The search of ``board``: a :class:`CoreSearch` where the compiled core is built and
    not switched off (``FOURSQUARE_PURE_PYTHON``), else the pure-Python :class:`Search`;
    the same answers either way.  A ``width`` below 1 (no bot's) stays in Python."""
    compiled = _core_choice.CORE is not None and (width is None or width >= 1)
    return (CoreSearch if compiled else Search)(board, weights, width)


class SearchBot(Bot):
    """An expectimax bot; see the module text.

    :param depth: the deepest search, in placements (this one included).
    :param width: below the root, how many cells of each max node to search (``None``: all).
    :param nodes: the work limit per move, in placements examined (``None``: none);
        a depth whose search would pass it is not started (or is abandoned).
    :param iterative: search depth 1, 2, ... up to ``depth`` and keep the deepest
        complete result (``False``: only ``depth``, with depth 1 as the fallback).
    :param weights: the search utility's parameters.
    """

    def __init__(
        self,
        depth: int = 2,
        width: int | None = None,
        nodes: int | None = None,
        iterative: bool = False,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.depth = depth
        self.width = width
        self.nodes = nodes
        self.iterative = iterative
        self.weights = weights

    def _estimates(self, board: Board, x: int, cells: list[int], deadline: float | None, seed: int) -> list[CellEstimate]:
        search = new_search(board, self.weights, self.width)
        best = search.root(cells, x, 1)  # always affordable: one placement per cell
        if search.used_evaluation is False or self.depth == 1 or len(cells) == 1:
            return [(c, p, s) for c, _, p, s in best]
        # the limits hold from here on (one placement per cell is always affordable)
        search.node_limit = float("inf") if self.nodes is None else self.nodes
        search.deadline = deadline
        # placements of the last two complete depths, and the seconds of the last
        prev_cost, cost, last_time = None, search.nodes, 0.0
        for depth in range(2, self.depth + 1) if self.iterative else [self.depth]:
            used = search.nodes
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            # From depth 4 on, a depth costs about the last depth's cost times the
            # last growth; a depth that cannot finish within the limits is not started.
            # (Depths 2 and 3 are simply tried: a search past a limit stops at once.)
            if self.iterative and depth >= 4 and prev_cost is not None:
                growth = max(cost / max(prev_cost, 1), 1.0)
                if used + cost * growth > search.node_limit:
                    break
                if deadline is not None and now + last_time * growth > deadline:
                    break
            search.used_evaluation = False
            try:
                best = search.root(cells, x, depth)
            except _Stop:
                break
            prev_cost, cost = cost, search.nodes - used
            last_time = time.perf_counter() - now
            if not search.used_evaluation:
                break  # exact: every line reached the end of the game
        return [(c, p, s) for c, _, p, s in best]


class GreedyBot(SearchBot):
    """``greedy``: the best cell by the evaluation one placement ahead."""

    name = "greedy"
    description = "one placement ahead, judged by the evaluation (fast, weak)"

    def __init__(self, nodes: int | None = None) -> None:
        super().__init__(depth=1)


class ExpectimaxBot(SearchBot):
    """``expectimax``: this card, a chance node over the next card's rank, the best place for it."""

    name = "expectimax"
    description = "two placements deep: a chance node over the next card's rank (fast)"

    def __init__(self, nodes: int | None = None, depth: int = 2) -> None:
        super().__init__(depth=depth)


#: ``deep``'s work limit per move by default: the most placements it may examine (``--nodes``).
DEEP_NODES = 600_000


class DeepBot(SearchBot):
    """``deep``: iterative-deepening expectimax under a work limit and a time budget."""

    name = "deep"
    description = "expectimax 3 placements deep (4 near the end) within its limits"
    uses_nodes = True

    #: A deeper search can afford to weigh face-down cards more (tuned by simulation:
    #: docs/internals/bots.md).
    WEIGHTS = Weights(face_down=0.7)

    def __init__(self, nodes: int | None = DEEP_NODES, depth: int = 4, width: int | None = 6) -> None:
        super().__init__(depth=depth, width=width, nodes=nodes, iterative=True, weights=self.WEIGHTS)
