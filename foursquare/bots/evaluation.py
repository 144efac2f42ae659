"""The evaluation of a position that is not over: an estimated win chance and score.

A search cannot look to the end of every line, so it stops at some depth and
asks this model what the position is worth.  The model is deliberately small:
the two things that decide a game of Foursquare are how many top cards are face
down (more than four loses, RULES.md §5) and how many piles are still missing
(a win needs the full 4×4 grid).  With ``D`` face-down top cards and ``M``
missing piles::

    win chance      p = exp(-face_down * D - missing * M)
    expected score  s = p * max(0, stock - M)      (each missing pile costs a card)

and a search maximises the utility ``win_bonus * p + s``: a win is worth
``win_bonus`` points more than its score, so the bots prefer a likely win to
a high but unlikely score.  The weights were tuned by simulation on deals
0–199 (see ``benchmarks/bench_bots.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._board import Board


@dataclass(frozen=True)
class Weights:
    """The parameters of the evaluation (see the module text).

    :ivar face_down: log-odds penalty per face-down top card.
    :ivar missing: log-odds penalty per missing pile.
    :ivar win_bonus: the value of a win beyond its score, in points.
    """

    face_down: float = 0.5
    missing: float = 1.0
    win_bonus: float = 20.0


DEFAULT_WEIGHTS = Weights()


def evaluate(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> tuple[float, float]:
    """(win chance, expected score) of a position where the game goes on.

    :param board: a position whose status is playing.
    :returns: ``(p, s)`` with 0 < p ≤ 1 and 0 ≤ s ≤ the cards left in the stock.
    """
    missing = board.target - board.npiles
    p = math.exp(-weights.face_down * board.down - weights.missing * missing)
    return p, p * max(0, board.total - board.placed - missing)
