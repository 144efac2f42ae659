"""The ``expert`` bot: perfect-information Monte Carlo over sampled orders of the unseen cards.

The player knows *which* cards are unseen, never their order (RULES.md §6).  This bot
draws orders of those cards (a *sample*: one possible stock), and for each candidate
cell and each sample places the card there and asks the perfect-information solver
for the best score still reachable with that stock
(:class:`~foursquare.solver.stocks.StockSolver`: the answers of
:func:`foursquare.solver.search.solve`, with the position set up once per cell).  A
cell's estimate is then the share of its samples that can still be won and the mean
of their best scores (a loss counting 0): the method behind strong bridge and Skat
programs.  The same samples serve every cell (common random numbers), so the
comparison of two cells is not blurred by different draws.

The samples depend only on the view and the seed: the unseen cards are sorted before
they are shuffled by a :class:`random.Random` seeded from ``seed``, so every order of
the real stock gets the same answer.

How a move is chosen:

- Before the grid holds ``from_piles`` piles the answer is the ``deep`` expectimax
  bot's (:class:`~foursquare.bots.expectimax.DeepBot`): a sample's solver sees the whole
  stock, so it never risks a face-down card it could not repair (*strategy fusion*);
  averaged over samples it is too optimistic, most of all early in the game, when
  almost every cell of almost every sample still wins.
- From there on every legal cell (or the ``width`` best by the prior) is solved on
  ``samples`` orders, and the ``close`` best of them on ``more`` further orders, so
  the cells that decide get the most samples.  The *prior* is ``deep`` again
  (``prior_nodes``; ``None``: a two-placement expectimax search, much cheaper).
- Ranking: the samples' clairvoyant best scores were measured to score worse than
  ``deep``'s choice, so by default the samples only veto: the cells whose share of
  sampled wins is within ``tolerance`` of the best come first, in the prior's order,
  then the others by their samples.  With ``tolerance=None`` the cells are ranked by
  the share of wins, then the mean score (``win_weight``: by the mean score plus a
  weight times the share of wins), then the prior's order.
- *Unknown*: a solve that reaches its node limit (``solver_nodes``) proves neither a
  win nor its absence.  Such a sample counts as the prior's estimate of that cell (its
  win chance, and its expected score capped by the solver's bound
  :attr:`~foursquare.solver.solution.Solution.max_score`), so the figures stay
  estimates of the same thing; :attr:`~foursquare.bots.base.Estimate.unknown` says
  how many samples were so counted.
- Not done: a win/no-win search (cheaper than the best score), and keeping solved
  samples from one move to the next.
- Rule sets the fast solver does not cover (:func:`~foursquare.solver.search.fast_rules`:
  other flip or adjacency rules) get ``deep``'s answer, unsampled.

Work limits: ``deep``'s positions (before ``from_piles``, and as the prior after it); then ``samples`` (and
``more``) orders with each solve at most ``solver_nodes`` positions, so the answer is
deterministic.  A time budget stops the sampling after the last whole sample (every
cell of its round solved on it), which depends on the machine's speed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any

from ..engine.arguments import check
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.layout import Cell
from ..engine.view import PlayerView
from ..errors import ArgumentError, quote
from ..solver.search import fast_rules
from ..solver.solution import Outcome, Solution
from ..solver.stocks import StockSolver
from ._board import Board
from .base import Estimate
from .expectimax import DEEP_NODES, DeepBot, SearchBot

#: Orders of the unseen cards solved for every cell; further orders for the close best cells.
SAMPLES = 24
MORE = 48
#: The most positions one solve may search.
SOLVER_NODES = 20_000
#: Of a time budget, the share the prior may use before the sampling starts.
DEEP_SHARE = 0.3


@dataclass
class _Tally:
    """What the samples said of one cell: counts and sums, for its :class:`Estimate`."""

    cell: Cell
    solver: StockSolver
    prior_win: float
    prior_score: float
    order: int
    samples: int = 0
    wins: float = 0.0
    points: float = 0.0
    unknown: int = 0

    def add(self, solution: Solution) -> None:
        """Count one solved sample (see the module text for ``unknown``)."""
        self.samples += 1
        if solution.status is Outcome.SOLVED:
            self.wins += 1
            self.points += solution.score or 0
        elif solution.status is Outcome.UNKNOWN:
            self.unknown += 1
            self.wins += self.prior_win
            bound = solution.max_score
            self.points += self.prior_score if bound is None else min(self.prior_score, bound)

    def key(self, win_weight: float | None) -> tuple[float, ...]:
        """Best first: the share of wins then the mean score (``win_weight`` None), or
        the mean score plus ``win_weight`` times the share of wins; then the prior's order."""
        win, score = self.wins / self.samples, self.points / self.samples
        return (-win, -score, self.order) if win_weight is None else (-(score + win_weight * win), -win, self.order)


class _Orders:
    """The sampled orders of the unseen cards, as ranks, drawn when first asked for: the
    i-th is always the same shuffle (of the cards sorted first, by ``rng`` in turn)."""

    def __init__(self, rng: random.Random, unseen: list[Card]) -> None:
        self.rng, self.unseen = rng, unseen
        self.drawn: list[list[int]] = []

    def __getitem__(self, i: int) -> list[int]:
        while len(self.drawn) <= i:
            rest = list(self.unseen)
            self.rng.shuffle(rest)
            self.drawn.append([c >> 2 for c in rest])
        return self.drawn[i]


@dataclass(frozen=True)
class ExpertSettings:
    """The settings of the ``expert`` bot (:class:`ExpertBot`), checked when made.

    :ivar samples: orders of the unseen cards solved for every candidate cell.
    :ivar more: further orders solved for the ``close`` best cells after them.
    :ivar close: how many of the best cells get the ``more`` samples.
    :ivar solver_nodes: the most positions one solve of one sample may search.
    :ivar width: how many cells are sampled, best by the prior first (``None``: all).
    :ivar from_piles: sample only once the grid holds this many piles (before: ``deep``).
    :ivar deep_nodes: ``deep``'s work limit per move.
    :ivar win_weight: how cells are ranked: ``None``, by the share of wins then the
        mean score; a number ``w``, by the mean score plus ``w`` times the share of wins.
    :ivar tolerance: when set, the cells within this share of wins of the best come
        first, in the prior's order (``None``: the ranking above alone).
    :ivar prior_nodes: the prior after the opening: ``deep`` with this work limit
        (``None``: a two-placement expectimax search).
    :raises ArgumentError: for a count below 1 (``more``, ``close`` and ``from_piles``: below
        0) or not a whole number, a weight that is not a finite number, a tolerance
        outside 0 to 1.
    """

    samples: int = SAMPLES
    more: int = MORE
    close: int = 3
    solver_nodes: int = SOLVER_NODES
    width: int | None = None
    from_piles: int = 6
    deep_nodes: int | None = DEEP_NODES
    win_weight: float | None = None
    tolerance: float | None = 0.05
    prior_nodes: int | None = DEEP_NODES

    def __post_init__(self) -> None:
        check("ExpertBot", **{name: getattr(self, name) for name in self.__dataclass_fields__})


class ExpertBot(DeepBot):
    """``expert``: ``deep``, with every legal cell judged by solving sampled stocks once the grid holds ``from_piles`` piles.

    :param nodes: the positions the bot may examine per move, as ``--nodes`` is for
        ``deep``: ``deep`` gets that limit, and the sampling's limits (``samples``,
        ``more``, ``solver_nodes``) are scaled by ``nodes / 600,000`` (``deep``'s
        default; at least 2 samples and 100 positions a solve); ``None`` keeps them.
    :param settings: the keywords of :class:`ExpertSettings` (its defaults for those not given).
    :raises ArgumentError: for a count below 1 (``more`` and ``close``: below 0).
    """

    name = "expert"
    description = (
        "deep, with every cell judged by solving sampled orders of the unseen cards from 6 piles on:"
        " the strongest, the default (slower)"
    )

    def __init__(self, nodes: int | None = None, **settings: Any) -> None:
        check(type(self).__name__, nodes=nodes)
        unknown = sorted(set(settings) - set(ExpertSettings.__dataclass_fields__))
        if unknown:
            raise ArgumentError(f"ExpertBot: no setting {quote(unknown[0])} (settings: {', '.join(ExpertSettings.__dataclass_fields__)})")
        o = ExpertSettings(**settings)
        #: the settings in force (:class:`ExpertSettings`, scaled to ``nodes``)
        self.settings = o if nodes is None else replace(
            o,
            deep_nodes=nodes,
            samples=max(2, o.samples * nodes // DEEP_NODES),
            more=o.more * nodes // DEEP_NODES,
            solver_nodes=max(100, o.solver_nodes * nodes // DEEP_NODES),
        )
        #: the settings' ``tolerance`` (the hint's note says it)
        self.tolerance = self.settings.tolerance
        super().__init__(nodes=self.settings.deep_nodes)
        prior_nodes = self.settings.prior_nodes
        self.prior: SearchBot = SearchBot(depth=2) if prior_nodes is None else DeepBot(nodes=prior_nodes)

    def preference(self) -> str | None:
        """Why a sampled cell comes first though a cell after it has better estimates, in
        words for the hint's note (``None``: the cells are ranked by their estimates)."""
        if self.tolerance is None:
            return None
        return f"its search ranks it first among cells within {100 * self.tolerance:g} points of the best win chance"

    def _judge(
        self, view: PlayerView, board: Board, x: int, cells: list[int], start: float, budget: float | None, seed: int
    ) -> list[Estimate]:
        """:meth:`Bot.estimates` (see the module text): the sampled cells first, with
        ``samples`` and ``unknown`` set, then any others with the prior's estimates."""
        o = self.settings
        if len(cells) == 1 or board.npiles < o.from_piles or not fast_rules(view.rules):
            return super()._judge(view, board, x, cells, start, budget, seed)
        deadline = None if budget is None else start + max(budget, 0.0)
        ranked = self.prior._judge(view, board, x, cells, start, None if budget is None else DEEP_SHARE * budget, seed)
        # one tally per cell, each with the solver of the position after the card in hand goes there
        assert view.next_card is not None
        tallies = []
        for i, e in enumerate(ranked[: o.width]):  # (None: all)
            game = Game.from_position(view.grid, [view.next_card, *sorted(view.unseen)], view.rules)
            game.play(e.cell)
            tallies.append(_Tally(e.cell, StockSolver(game), e.win_chance or 0.0, e.expected_score or 0.0, i))
        # the sampled orders (as ranks): the i-th a shuffle of the unseen cards sorted first, so the
        # same for every real order of the stock; drawn as they are solved (memory and time as the work)
        stocks = _Orders(random.Random(seed), sorted(view.unseen))
        if not self._sample(tallies, stocks, o.samples, deadline):
            return ranked
        if o.more and o.close:
            best = sorted(tallies, key=lambda t: t.key(o.win_weight))[: o.close]
            if len(best) > 1:
                self._sample(best, stocks, o.more, deadline)
        judged = sorted(tallies, key=lambda t: t.key(o.win_weight))
        if o.tolerance is not None:  # the prior's order among the cells whose share of wins is close to the best
            best_win = max(t.wins / t.samples for t in tallies)
            near = sorted((t for t in tallies if t.wins / t.samples >= best_win - o.tolerance), key=lambda t: t.order)
            judged = near + [t for t in judged if t.wins / t.samples < best_win - o.tolerance]
        return [Estimate(t.cell, t.wins / t.samples, t.points / t.samples, t.samples, t.unknown) for t in judged] + ranked[len(tallies) :]

    def _sample(self, tallies: list[_Tally], stocks: _Orders, count: int, deadline: float | None) -> bool:
        """Solve ``count`` more orders of ``stocks`` for every cell of ``tallies`` (changing
        them); whether at least one whole sample was counted before the deadline."""
        first = max(t.samples for t in tallies)  # the first order none of them has been solved on
        for done in range(count):  # (done: the whole samples counted)
            ranks = stocks[first + done]
            results: list[Solution] = []
            for tally in tallies:
                timeout = None if deadline is None else deadline - time.perf_counter()
                if timeout is not None and timeout <= 0:
                    return done > 0
                results.append(tally.solver.solve(ranks, max_nodes=self.settings.solver_nodes, timeout=timeout))
            if deadline is not None and time.perf_counter() > deadline:
                return done > 0  # the last solve may have stopped at the deadline: not a whole sample
            for tally, solution in zip(tallies, results, strict=True):
                tally.add(solution)
        return count > 0
