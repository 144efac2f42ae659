"""The ``expert`` bot: perfect-information Monte Carlo over sampled orders of the unseen cards.

The player knows *which* cards are unseen, never their order (RULES.md §6).  This bot
draws orders of those cards (a *sample*: one possible stock), and for each candidate
cell and each sample places the card there and asks the perfect-information solver
(:func:`foursquare.solver.search.solve`) for the best score still reachable with that
stock.  A cell's estimate is then the share of its samples that can still be won and
the mean of their best scores (a loss counting 0): the method behind strong bridge
and Skat programs.  The same samples serve every cell (common random numbers), so the
comparison of two cells is not blurred by different draws.

The samples depend only on the view and the seed: the unseen cards are sorted before
they are shuffled by a :class:`random.Random` seeded from ``seed``, so every order of
the real stock gets the same answer.

Corrections to plain sampling, and what is not done:

- *Strategy fusion*: a sample's solver sees the whole stock, so it never risks a
  face-down card it could not repair; averaged over samples it is too optimistic,
  most of all early in the game, when almost every cell of almost every sample still
  wins.  So the ``deep`` expectimax bot (:class:`~foursquare.bots.search.DeepBot`)
  judges first: before the grid holds ``from_piles`` piles its answer is ``deep``'s,
  and from there on only ``deep``'s ``width`` best cells are sampled (the others keep
  ``deep``'s estimates and come after them).  Among the sampled cells, the highest
  share of wins comes first, then the highest mean score, then ``deep``'s order.
- *Unknown*: a solve that reaches its node limit (``solver_nodes``) proves neither a
  win nor its absence.  Such a sample counts as ``deep``'s estimate of that cell (its
  win chance, and its expected score capped by the solver's bound
  :attr:`~foursquare.solver.solution.Solution.max_score`), so the figures stay
  estimates of the same thing; :attr:`~foursquare.bots.base.Estimate.unknown` says
  how many samples were so counted.
- A win/no-win search (cheaper than the best score) is not offered by the solver's
  public interface, so it is not used; nor are solved samples kept between moves.
- Rule sets the fast solver does not cover (:func:`~foursquare.solver.search.fast_rules`:
  other flip or adjacency rules) would go to the slow engine-based solver; there the
  answer is ``deep``'s, unsampled.

Work limits: ``deep``'s positions, then ``samples`` orders with each solve at most
``solver_nodes`` positions, so the answer is deterministic; a time budget stops the sampling after the last whole
sample (every sampled cell solved on it), which depends on the machine's speed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ..engine.game import Game, Status
from ..engine.layout import Cell
from ..engine.rules import LayoutKind
from ..engine.view import PlayerView
from ..solver.search import fast_rules, solve
from ..solver.solution import Outcome
from ._board import Board
from .base import Bot, BotError, CellEstimate, Estimate
from .search import DeepBot

#: Of a time budget, the share ``deep`` may use before the sampling starts.
DEEP_SHARE = 0.3


@dataclass
class _Tally:
    """What the samples said of one cell: counts and sums, for its :class:`Estimate`."""

    cell: Cell
    deep_win: float
    deep_score: float
    samples: int = 0
    wins: float = 0.0
    points: float = 0.0
    unknown: int = 0

    def add(self, status: Outcome, score: int | None, bound: int | None) -> None:
        """Count one solved sample (see the module text for ``unknown``)."""
        self.samples += 1
        if status is Outcome.SOLVED:
            self.wins += 1
            self.points += score or 0
        elif status is Outcome.UNKNOWN:
            self.unknown += 1
            self.wins += self.deep_win
            self.points += self.deep_score if bound is None else min(self.deep_score, bound)

    def estimate(self) -> Estimate:
        return Estimate(self.cell, self.wins / self.samples, self.points / self.samples, self.samples, self.unknown)


class ExpertBot(Bot):
    """``expert``: ``deep`` near the start, then its best cells judged by solving sampled stocks.

    :param nodes: the positions the bot may examine per move, as ``--nodes`` is for
        ``deep``: ``deep`` gets that limit, and the sampling as many samples as fit
        in it at ``width × solver_nodes`` positions each (at least one); ``None``
        keeps the defaults below.
    :param samples: orders of the unseen cards drawn per move (with ``solver_nodes``,
        the work limit of the sampling).
    :param solver_nodes: the most positions one solve of one sample may search.
    :param width: how many of ``deep``'s best cells are sampled.
    :param from_piles: sample only once the grid holds this many piles (before: ``deep``).
    :param deep_nodes: ``deep``'s work limit per move.
    :raises ValueError: for a count below 1.
    """

    name = "expert"
    description = "deep, then its best cells judged by solving sampled orders of the unseen cards (slow)"
    uses_nodes = True

    def __init__(
        self,
        nodes: int | None = None,
        *,
        samples: int = 16,
        solver_nodes: int = 3000,
        width: int = 3,
        from_piles: int = 8,
        deep_nodes: int | None = 600_000,
    ) -> None:
        if min(samples, solver_nodes, width) < 1:
            raise ValueError("samples, solver_nodes and width must be at least 1")
        if nodes is not None:
            deep_nodes = nodes
            samples = max(1, nodes // (width * solver_nodes))
        self.samples = samples
        self.solver_nodes = solver_nodes
        self.width = width
        self.from_piles = from_piles
        self.deep = DeepBot(nodes=deep_nodes)

    def _estimates(self, board: Board, card_rank: int, cells: list[int], deadline: float | None, seed: int) -> list[CellEstimate]:
        return self.deep._estimates(board, card_rank, cells, deadline, seed)

    def estimates(self, view: PlayerView, budget: float | None = None, seed: int = 0) -> list[Estimate]:
        """Estimates for the legal cells of ``view``, best first (see the module text).

        :param view: what the player knows (RULES.md §6).
        :param budget: seconds the bot may think (``None``: only the work limits).
        :param seed: seeds the sampled orders.
        :returns: one :class:`Estimate` per legal cell (on an empty floating grid, the
            centre only): the sampled cells first, with ``samples`` and ``unknown`` set,
            then the others with ``deep``'s estimates.
        :raises BotError: when the game is over.
        """
        if view.status is not Status.PLAYING or view.next_card is None:
            raise BotError(f"the game is over ({view.status}): there is no card to place")
        start = time.perf_counter()
        deadline = None if budget is None else start + max(budget, 0.0)
        deep_deadline = None if budget is None else start + DEEP_SHARE * max(budget, 0.0)
        board = Board.from_view(view)
        cells = board.legal()
        if not board.npiles and view.rules.layout is LayoutKind.FLOATING:
            cells = [board.geo.centre]
        to_cell = board.geo.to_cell
        ranked = [
            Estimate(to_cell[c], p, s) for c, p, s in self.deep._estimates(board, view.next_card >> 2, cells, deep_deadline, seed)
        ]
        if len(ranked) == 1 or board.npiles < self.from_piles or not fast_rules(view.rules):
            return ranked
        tallies = [_Tally(e.cell, e.win_chance or 0.0, e.expected_score or 0.0) for e in ranked[: self.width]]
        if not self._sample(view, tallies, deadline, seed):
            return ranked
        order = {e.cell: i for i, e in enumerate(ranked)}
        judged = sorted((t.estimate() for t in tallies), key=lambda e: (-(e.win_chance or 0.0), -(e.expected_score or 0.0), order[e.cell]))
        return judged + ranked[self.width :]

    def _sample(self, view: PlayerView, tallies: list[_Tally], deadline: float | None, seed: int) -> bool:
        """Solve each of :attr:`samples` orders for every cell of ``tallies`` (changing them);
        whether at least one whole sample was counted before the deadline."""
        rng = random.Random(seed)
        view = replace(view, unseen=tuple(sorted(view.unseen)))  # the draws depend on which cards, never their order
        done = 0
        for _ in range(self.samples):
            game = view.sample(rng)
            results: list[tuple[Outcome, int | None, int | None]] = []
            for tally in tallies:
                timeout = None
                if deadline is not None:
                    timeout = deadline - time.perf_counter()
                    if timeout <= 0:
                        return done > 0
                results.append(_solve_after(game, tally.cell, self.solver_nodes, timeout))
            if deadline is not None and time.perf_counter() > deadline:
                return done > 0  # the last solve may have stopped at the deadline: not a whole sample
            for tally, (status, score, bound) in zip(tallies, results, strict=True):
                tally.add(status, score, bound)
            done += 1
        return done > 0


def _solve_after(game: Game, cell: Cell, max_nodes: int, timeout: float | None) -> tuple[Outcome, int | None, int | None]:
    """The solver's verdict on ``game`` after its next card goes to ``cell``: (outcome, score, bound).
    The game is left as it was."""
    game.play(cell)
    try:
        solution = solve(game, max_nodes=max_nodes, timeout=timeout)
    finally:
        game.undo()
    return solution.status, solution.score, solution.max_score
