"""The evaluation of a position that is not over: a utility to search by, and an estimate to report.

A search cannot look to the end of every line, so it stops at some depth and
asks what the position is worth.  Two small models answer, both from the two
things that decide a game of Foursquare: ``D``, how many top cards are face
down (more than four loses, RULES.md §5), and ``M``, how many piles are still
missing (a win needs the full grid).

- The **utility**, which the searches maximise, was tuned by simulation
  (deals 0–199 with the ``expectimax`` bot; see ``benchmarks/bench_bots.py``)::

      q = exp(-face_down * D - missing * M)
      utility = q * (win_bonus + max(0, stock - M))

  A won position is worth ``win_bonus + score`` and a lost one 0, so a win is
  worth ``win_bonus`` points more than its score: the bots prefer a likely win
  to a high but unlikely score.  ``q`` is a preference, not a probability.
  The ``deep`` bot, which looks further, weighs face-down cards 0.7
  (:attr:`~foursquare.bots.search.DeepBot.WEIGHTS`).
- The **estimate** reported to the player, (win chance, expected score with
  losses counting 0), comes from :data:`CALIBRATION`: how often the
  ``expectimax`` bot went on to win from positions with the same ``D`` and
  ``M`` (deals 1000–1399, shrunk towards 0.95 when there were few), and how
  many more cards its wins took.  Stronger bots win somewhat more often, so
  these estimates are cautious.  Outside the table (and for rule variants,
  where it was not measured) a rough formula stands in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ._board import Board


@dataclass(frozen=True)
class Weights:
    """The parameters of the search utility (see the module text).

    :ivar face_down: penalty per face-down top card.
    :ivar missing: penalty per missing pile.
    :ivar win_bonus: the value of a win beyond its score, in points.
    """

    face_down: float = 0.5
    missing: float = 1.0
    win_bonus: float = 20.0


DEFAULT_WEIGHTS = Weights()

#: (D, M) -> (chance of a win, mean number of further cards a win took), measured for
#: the standard rules with the ``expectimax`` bot (``benchmarks/bench_bots.py --calibrate``).
CALIBRATION: dict[tuple[int, int], tuple[float, float]] = {
    (0, 1): (0.973, 3.0), (0, 2): (0.981, 5.9), (0, 3): (0.978, 7.5), (0, 4): (0.953, 8.7),
    (0, 5): (0.983, 10.8), (0, 6): (0.983, 12.4), (0, 7): (0.986, 13.4), (0, 8): (0.946, 14.2),
    (0, 9): (0.967, 15.3), (0, 10): (0.949, 16.8), (0, 11): (0.959, 17.7), (0, 12): (0.974, 18.6),
    (0, 14): (0.929, 20.5), (0, 15): (0.952, 21.6), (1, 0): (0.856, 2.6), (1, 1): (0.953, 5.3),
    (1, 2): (0.932, 6.5), (1, 3): (0.992, 7.4), (1, 4): (0.980, 9.2), (1, 5): (0.961, 11.0),
    (1, 6): (0.939, 12.8), (1, 7): (0.957, 14.0), (1, 8): (0.948, 15.4), (1, 9): (0.939, 15.7),
    (1, 10): (0.959, 16.5), (1, 11): (0.936, 17.4), (1, 12): (0.922, 18.6), (1, 13): (0.955, 19.6),
    (1, 14): (0.955, 20.6), (2, 0): (0.910, 4.4), (2, 1): (0.929, 5.5), (2, 2): (0.961, 7.7),
    (2, 3): (0.938, 9.2), (2, 4): (0.938, 10.2), (2, 5): (0.940, 11.9), (2, 6): (0.959, 12.9),
    (2, 7): (0.932, 13.8), (2, 8): (0.949, 14.3), (2, 9): (0.962, 15.5), (2, 10): (0.965, 16.3),
    (2, 13): (0.929, 19.5), (3, 0): (0.938, 3.8), (3, 1): (0.928, 6.6), (3, 2): (0.941, 8.1),
    (3, 3): (0.943, 9.7), (3, 4): (0.974, 10.8), (3, 5): (0.952, 11.3), (3, 6): (0.938, 12.0),
    (3, 7): (0.930, 12.6), (3, 8): (0.991, 15.1), (3, 9): (0.946, 17.3), (3, 10): (0.896, 17.2),
    (4, 0): (0.881, 5.0), (4, 1): (0.935, 7.4), (4, 2): (0.937, 8.8), (4, 3): (0.949, 9.6),
    (4, 4): (0.925, 11.9), (4, 5): (0.969, 10.8), (4, 6): (0.969, 11.6), (4, 7): (0.983, 13.6),
    (4, 8): (0.940, 12.9),
}


def utility(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The search utility of a position where the game goes on (see the module text)."""
    missing = board.target - board.npiles
    q = math.exp(-weights.face_down * board.down - weights.missing * missing)
    return q * (weights.win_bonus + max(0, board.total - board.placed - missing))


def estimate(board: Board) -> tuple[float, float]:
    """(win chance, expected score) of a position where the game goes on.

    :param board: a position whose status is playing.
    :returns: ``(p, s)``, 0 ≤ p ≤ 1 and 0 ≤ s ≤ the cards left in the stock;
        the expected score counts a loss as 0.
    """
    return estimate_of(board.down, board.target - board.npiles, board.total - board.placed, board.rules.size)


#: The win-chance model of the standard game: ``p = 1 / (1 + exp(-z))`` with
#: ``z = b0 + bD * D + bM * M + bS * log(1 + max(0, stock - M))`` — fewer face-down
#: cards, fewer missing piles and more cards to spare all help.  Fitted (logistic
#: regression) on every position of the ``expectimax`` bot's games on deals
#: 1000–1299 (6529 positions, 96.3% of games won): its predictions match the
#: observed win rates within a point in every band (50%, 86%, 94%, 96%).
WIN_MODEL = (-5.9504, -0.1526, -0.0449, 3.0595)
#: The cards a win still takes: ``e0 + eM * M + eD * D`` (least squares on the same wins).
EXTRA_MODEL = (3.411, 1.249, 0.493)


@lru_cache(maxsize=4096)
def estimate_of(down: int, missing: int, stock: int, size: int = 4) -> tuple[float, float]:
    """:func:`estimate` from its inputs: face-down count, missing piles, cards in the stock, grid size.

    Smooth and monotone: the win chance and the expected score never rise with
    another face-down card or another missing pile, and never fall with another
    card in the stock — the directions in which the search utility moves too.
    For other grid sizes (where nothing was measured) a rough formula stands in.
    """
    if size != 4:
        p, extra = 0.9, 2.6 + 1.25 * missing + 0.4 * down
        return p, p * max(0.0, stock - extra)
    b0, b_down, b_missing, b_spare = WIN_MODEL
    z = b0 + b_down * down + b_missing * missing + b_spare * math.log1p(max(0, stock - missing))
    p = 1.0 / (1.0 + math.exp(-z))
    e0, e_missing, e_down = EXTRA_MODEL
    return p, p * max(0.0, stock - (e0 + e_missing * missing + e_down * down))
