"""The perfect-information solver: it sees the stock's order (RULES §6 does not apply).

``solve(game)`` returns the best score still reachable, proven, or a bound within a
work limit; ``solve_deals`` solves many deals (in worker processes);
``analyze_game`` (in :mod:`foursquare.solver.analysis`) judges a recorded game
move by move.

    >>> from foursquare import Game
    >>> from foursquare.solver import solve
    >>> solve(Game.from_deal(1)).score
    24
"""

from .batch import solve_deals
from .search import solve, solve_deal, solve_deck
from .solution import DEFAULT_MAX_NODES, NO_WIN, SOLVED, UNKNOWN, Outcome, Solution

__all__ = [
    "DEFAULT_MAX_NODES", "NO_WIN", "SOLVED", "UNKNOWN", "Outcome", "Solution",
    "solve", "solve_deal", "solve_deals", "solve_deck",
]
