"""The evaluation of a position that is not over: a utility to search by, and an estimate to report.

A search cannot look to the end of every line, so it stops at some depth and
asks what the position is worth.  Two small models answer, both from the two
things that decide a game of Foursquare: ``D``, how many top cards are face
down (more than four loses, RULES.md §5), and ``M``, how many piles are still
missing (a win needs the full grid).

- The **utility**, which the searches maximise, was tuned by simulation
  (docs/internals/bots.md)::

      q = exp(-face_down * D - missing * M)
      utility = q * (win_bonus + max(0, stock - M))

  A won position is worth ``win_bonus + score`` and a lost one 0, so a win is
  worth ``win_bonus`` points more than its score: the bots prefer a likely win
  to a high but unlikely score.  ``q`` is a preference, not a probability.
  The ``deep`` bot, which looks further, weighs face-down cards 0.7
  (:attr:`~foursquare.bots.expectimax.DeepBot.WEIGHTS`).
- The **estimate** reported to the player, (win chance, expected score with
  losses counting 0), comes from a smooth model (:data:`WIN_MODEL`,
  :data:`EXTRA_MODEL`) of how often the ``expectimax`` bot went on to win from
  positions with the same ``D``, ``M`` and cards to spare (stock − ``M``), and how
  many more cards its wins took (docs/internals/bots.md).  It moves the same way as the
  utility in each of ``D``, ``M`` and the stock.  The searches carry it through the
  same tree as the utility (chance nodes average it, max nodes take the child of
  highest *utility*), so a cell's estimate is the expectation if the bot plays on.
  Stronger bots win somewhat more often, so these estimates are cautious.  For
  other grid sizes, where nothing was measured, a rough formula stands in.
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

def evaluate(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> tuple[float, float, float]:
    """(utility, win chance, expected score) of a position where the game goes on: the
    search utility, and the estimate (see the module text).

    :param board: a position whose status is playing.
    :returns: ``(u, p, s)``, 0 ≤ p ≤ 1 and 0 ≤ s ≤ the cards left in the stock;
        the expected score counts a loss as 0.
    """
    missing, stock = board.target - board.npiles, board.total - board.placed
    q = math.exp(-weights.face_down * board.down - weights.missing * missing)
    return q * (weights.win_bonus + max(0, stock - missing)), *estimate_of(board.down, missing, stock, board.rules.size)


#: The win-chance model of the standard game: ``p = 1 / (1 + exp(-z))`` with
#: ``z = b0 + bD * D + bM * M + bS * log(1 + max(0, stock - M))`` — fewer face-down
#: cards, fewer missing piles and more cards to spare all help.  Fitted (logistic
#: regression) on every position of the ``expectimax`` bot's games (how, and how well
#: it fits: docs/internals/bots.md, "The evaluation and its calibration").
WIN_MODEL = (-5.9504, -0.1526, -0.0449, 3.0595)
#: The cards a win still takes: ``e0 + eM * M + eD * D`` (least squares on the same wins).
EXTRA_MODEL = (3.411, 1.249, 0.493)
#: Other grid sizes (nothing measured): a rough win chance ``p``, and the cards a win
#: still takes ``e0 + eM * M + eD * D``, as ``(p, e0, eM, eD)``.
ROUGH_MODEL = (0.9, 2.6, 1.25, 0.4)


@lru_cache(maxsize=4096)
def estimate_of(down: int, missing: int, stock: int, size: int = 4) -> tuple[float, float]:
    """The estimate of :func:`evaluate` from its inputs: face-down count, missing piles, cards in the stock, grid size.

    Smooth and monotone: the win chance and the expected score never rise with
    another face-down card or another missing pile, and never fall with another
    card in the stock — the directions in which the search utility moves too.
    For other grid sizes (where nothing was measured) a rough formula stands in.
    """
    if size != 4:
        p, e0, e_missing, e_down = ROUGH_MODEL
        return p, p * max(0.0, stock - (e0 + e_missing * missing + e_down * down))
    b0, b_down, b_missing, b_spare = WIN_MODEL
    z = b0 + b_down * down + b_missing * missing + b_spare * math.log1p(max(0, stock - missing))
    p = 1.0 / (1.0 + math.exp(-z))
    e0, e_missing, e_down = EXTRA_MODEL
    return p, p * max(0.0, stock - (e0 + e_missing * missing + e_down * down))
