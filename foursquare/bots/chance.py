"""The ``chance`` bot: ``expert``, with the next card's rank an exact chance node for the cells that decide.

``expert`` (:mod:`~foursquare.bots.pimc`) solves sampled orders of the unseen cards as if
the whole order were known: on a sample, the solver places the next card knowing every
card after it, which no player can (*strategy fusion*: Frank & Basin 1998; Long,
Sturtevant, Buro & Furtak, AAAI 2010).  The order of the unseen cards is uniformly
random given what the player has seen (RULES.md §6), so the next card's rank ``r`` has
the probability (unseen cards of rank ``r``) / (unseen cards), exactly, and suits never
matter (§1).  This bot removes the fusion from the first draw:

1. ``expert`` judges every cell on its sampled orders (without its ``more`` phase by
   default) and ranks them.
2. For each of its ``close`` best cells, and each rank ``r`` the next card can have, the
   card in hand goes on the cell and a card of rank ``r`` on each of the ``next_width``
   best cells for it (by the one-placement utility, :mod:`~foursquare.bots.evaluation`);
   each of those positions is solved on ``per_rank`` sampled orders of the remaining
   unseen cards (the same orders for every cell: common random numbers).  The value of
   (cell, ``r``) is its best next cell's, as a player who sees ``r`` but not the rest
   chooses it; the cell's value is the mean over ``r`` weighted by the exact chances.
   A position that is over is exact; an unsettled solve counts as the utility's
   estimate (as ``expert`` counts it).
3. Those cells are ranked by expected score (losses 0) plus ``win_weight`` times the
   chance of a win, ahead of the others in ``expert``'s order.

Before ``expert`` samples (the opening, a single cell, rule sets the fast solver does not
cover) the answer is ``expert``'s.  Under a time budget the chance nodes use what time
``expert`` leaves; when it runs out before every close cell is valued, the answer is
``expert``'s.  Everything depends only on the view and the seed, never on the order.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine.arguments import check, finite
from ..engine.cards import Card
from ..engine.game import Game, Status
from ..engine.view import PlayerView
from ..errors import wrong_argument
from ..solver.stocks import StockSolver
from ._board import Board
from .base import Estimate
from .expectimax import new_search
from .pimc import ExpertBot, _Tally

#: What the next card's rank ``r`` brings: a card of rank ``r``, the other unseen cards
#: (sorted), and the sampled orders of those (as ranks).
_Draw = tuple[Card, list[Card], list[list[int]]]
#: Sampled orders solved for each (close cell, rank of the next card, next cell).
PER_RANK = 4
#: How many cells for the next card are solved, best by the one-placement utility first.
NEXT_WIDTH = 2
#: How many of ``expert``'s best cells get the chance node.
CLOSE = 2
#: A win's worth beyond its score when the close cells are ranked, in points (as the
#: search utility's :attr:`~foursquare.bots.evaluation.Weights.win_bonus`).
WIN_WEIGHT = 20.0


class ChanceBot(ExpertBot):
    """``chance``: ``expert``, then an exact chance node over the next card's rank for its ``close`` best cells.

    :param nodes: as for ``expert`` (``--nodes``).
    :param per_rank: sampled orders solved for each next cell of each rank (at least 1).
    :param next_width: next cells solved for each rank (at least 1).
    :param win_weight: the ranking's weight of the chance of a win, in points.
    :param settings: :class:`~foursquare.bots.pimc.ExpertSettings` keywords (``more``: 0 by default).
    :raises ArgumentError: for a count below 1 or not a whole number, a weight that is not a
        finite number, or an unknown setting.
    """

    name = "chance"
    description = "expert, with the next card's rank an exact chance node for its best cells (slowest)"

    def __init__(
        self, nodes: int | None = None, per_rank: int = PER_RANK, next_width: int = NEXT_WIDTH,
        win_weight: float = WIN_WEIGHT, **settings: Any,
    ) -> None:
        check("ChanceBot", per_rank=per_rank, next_width=next_width)
        if not finite(win_weight):
            raise wrong_argument("ChanceBot", "win_weight", "a finite number of points", win_weight)
        super().__init__(nodes, **{"more": 0, "close": CLOSE, **settings})
        self.per_rank, self.next_width, self.win_weight = per_rank, next_width, win_weight

    def preference(self) -> str | None:
        """Why a cell comes first though a cell after it has better estimates (the hint's note)."""
        return (
            f"it weighs a win at {self.win_weight:g} points beyond its score, and judges its {self.settings.close} best"
            " cells with the next card's rank as a chance node, the others by their samples alone"
        )

    def _judge(
        self, view: PlayerView, board: Board, x: int, cells: list[int], start: float, budget: float | None, seed: int
    ) -> list[Estimate]:
        """:meth:`ExpertBot._judge`, its ``close`` best cells valued by the chance node (module text)."""
        ranked = super()._judge(view, board, x, cells, start, budget, seed)
        close = ranked[: self.settings.close]
        if close[0].samples is None or len(close) < 2:
            return ranked  # expert did not sample: deep's answer
        deadline = None if budget is None else start + max(budget, 0.0)
        orders = self._orders(view, seed, deadline)
        if orders is None:
            return ranked  # out of time: expert's answer
        board = Board(view)  # afresh: a search stopped by its work limit leaves its board changed
        valued = []
        for e in close:
            value = self._value(view, board, x, e, orders, deadline)
            if value is None:
                return ranked  # out of time: expert's answer
            valued.append(value)
        valued.sort(key=lambda e: -((e.expected_score or 0.0) + self.win_weight * (e.win_chance or 0.0)))
        return valued + ranked[len(close) :]

    def _orders(self, view: PlayerView, seed: int, deadline: float | None) -> dict[int, _Draw] | None:
        """Per rank the next card can have, a :data:`_Draw`: the same for every order of the
        unseen cards (they are sorted before they are shuffled); ``None`` when the deadline
        passed first."""
        rng, unseen = random.Random(seed), sorted(view.unseen)
        out: dict[int, _Draw] = {}
        for card in unseen:
            if card >> 2 not in out:
                rest = [c for c in unseen if c != card]
                shuffles = []
                for _ in range(self.per_rank):
                    if deadline is not None and time.perf_counter() > deadline:
                        return None
                    shuffles.append([c >> 2 for c in rng.sample(rest, len(rest))])
                out[card >> 2] = (card, rest, shuffles)
        return out

    def _value(
        self, view: PlayerView, board: Board, x: int, estimate: Estimate,
        orders: dict[int, _Draw], deadline: float | None,
    ) -> Estimate | None:
        """The chance node's estimate of placing rank ``x`` on ``estimate.cell``, or ``None``
        when the deadline passed first."""
        geo, in_hand = board.geo, view.next_card
        assert in_hand is not None  # (a view to judge has a card in hand)
        board.play(geo.from_cell[int(estimate.cell)], x)
        try:
            status = board.status()
            if status is not Status.PLAYING:  # exact
                won = status is Status.WON
                return Estimate(estimate.cell, float(won), float(board.total - board.placed) if won else 0.0, 0, 0)
            win = points = 0.0
            solves = unknown = 0
            for r, (card, rest, stocks) in orders.items():
                board.draw(r)
                best = new_search(board, self.weights).root(board.legal(), r, 1)[: self.next_width]
                board.undraw(r)
                tallies = []
                for i, (c, _, p, s) in enumerate(best):
                    game = Game.from_position(view.grid, [in_hand, card, *rest], view.rules)
                    game.play(estimate.cell)
                    game.play(geo.to_cell[c])
                    tallies.append(_Tally(geo.to_cell[c], StockSolver(game), p, s, i))
                for ranks in stocks:
                    for tally in tallies:
                        timeout = None if deadline is None else deadline - time.perf_counter()
                        if timeout is not None and timeout <= 0:
                            return None
                        tally.add(tally.solver.solve(ranks, max_nodes=self.settings.solver_nodes, timeout=timeout))
                top = min(tallies, key=lambda t: (-(t.points + self.win_weight * t.wins), t.order))
                win += board.counts[r] * (top.wins / top.samples)  # (divided by the unseen cards at the end:
                points += board.counts[r] * (top.points / top.samples)  # a sure win sums to exactly 1)
                solves += sum(t.samples for t in tallies)
                unknown += sum(t.unknown for t in tallies)
            return Estimate(estimate.cell, win / board.unseen, points / board.unseen, solves, unknown)
        finally:
            board.undo()
