"""One position solved against many orders of its stock (perfect-information Monte Carlo).

The ``expert`` bot (:mod:`foursquare.bots.pimc`) asks the solver about the same
position with many sampled orders of the unseen cards.  :func:`~foursquare.solver.search.solve`
needs a :class:`~foursquare.engine.game.Game` per order and turns it into the
search's board each time; with the compiled search core that set-up costs about as
much as a solve near the end of a game.  :class:`StockSolver` does it once per
position and takes each order as a list of ranks.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence

from ..engine.game import Game, Status
from ..errors import PositionError, RulesError
from .board import Board
from .search import Search, fast_rules, run_search, within_known_cards_only
from .solution import DEFAULT_MAX_NODES, NO_WIN, SOLVED, Solution, ended

__all__ = ["StockSolver"]


class StockSolver:
    """One position solved against many stock orders: :func:`solve` without a
    :class:`~foursquare.engine.game.Game` per order.

    For perfect-information Monte Carlo (the ``expert`` bot): the position is turned
    into the search's board once, and each order of the cards still to come is given
    as their ranks.  ``StockSolver(game).solve(ranks)`` answers exactly as
    ``solve(game')`` for the game ``game'`` in the same position whose stock is those
    cards in that order (the same outcome, score, moves and node count).

    :param game: the position; its cards already placed are used, its stock is not.
    :raises RulesError: for a rule set :class:`Search` does not support
        (:func:`fast_rules`: other flip or adjacency rules, RULES.md §8).
    """

    def __init__(self, game: Game) -> None:
        rules = game.rules
        if not fast_rules(rules):
            raise RulesError(f"the fast solver does not support the {rules.label} rules")
        self.rules = rules
        self.status = game.status
        self.score = game.score
        self.t0 = game.placed
        self.prefix = [c >> 2 for c in game.deck[: game.placed]]
        self.board = Board(game)

    def solve(self, ranks: Sequence[int], *, max_nodes: int | None = DEFAULT_MAX_NODES, timeout: float | None = None) -> Solution:
        """Solve the position with the stock ``ranks`` (top first; RULES.md §1 rank values).

        :param ranks: the ranks of the cards still to come, next card first (all of
            them, or a prefix: then as :func:`solve` of a deck prefix).
        :param max_nodes: the most positions to search (``None``: no limit).
        :param timeout: the most wall-clock seconds to spend (``None``: no limit).
        :returns: a :class:`Solution`, as :func:`solve` gives it.
        :raises PositionError: for an empty stock while the game is still playing.
        """
        start = time.perf_counter()
        total = self.rules.deck_size
        if self.status is not Status.PLAYING:  # won: its score, proved; lost: no win
            return ended(SOLVED if self.status is Status.WON else NO_WIN, total - (self.score or 0), (), 0, start, total)
        if not ranks:
            raise PositionError("the next card is unknown: the solver needs the stock order")
        board = copy.copy(self.board)
        board.h = list(board.h)  # a search stopped by its limit may leave them changed
        board.rk = list(board.rk)
        search = Search(board, self.prefix + list(ranks), self.t0, max_nodes, timeout, start)
        return within_known_cards_only(run_search(search, start), self.t0 + len(ranks), self.rules)
