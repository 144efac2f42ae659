"""What a solve returns: the outcome, the :class:`Solution` record, the solver's error.

The outcomes are strings in files and output (``solved``, ``no-win``, ``unknown``):
:class:`Outcome` is a :class:`~enum.StrEnum`, so its members write as those strings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from ..engine.layout import Cell


class Outcome(StrEnum):
    """How a solve ended: a proved-optimal win, a proof of no win, or a limit first."""

    #: A win with the fewest cards (the highest score, RULES.md §5), proved optimal.
    SOLVED = "solved"
    #: Proved: no order of placements wins with the known cards.
    NO_WIN = "no-win"
    #: The node or time limit ran out first (or the cards after a deck prefix are not known).
    UNKNOWN = "unknown"


SOLVED = Outcome.SOLVED
NO_WIN = Outcome.NO_WIN
UNKNOWN = Outcome.UNKNOWN

#: Default node limit of one solve: enough for the hardest deals measured
#: (docs/benchmarks.md, "The solver"), seconds in the compiled core and minutes in the
#: pure-Python twin (:mod:`foursquare.solver.core`).  Positions include the steps of
#: the last-cards search (:mod:`foursquare.solver.lastcards`).
DEFAULT_MAX_NODES = 4_000_000


@dataclass(frozen=True)
class Solution:
    """What the solver found for one position.

    :ivar status: :data:`SOLVED` (a win with the fewest cards, proved optimal),
        :data:`NO_WIN` (proved: no win exists with the known cards) or :data:`UNKNOWN`
        (a limit ran out first).
    :ivar score: the best score (cards left in the stock when the game is won),
        or ``None`` unless solved.
    :ivar moves: the cells of an optimal win from the position, in order
        (empty unless solved).
    :ivar nodes: positions searched (with the steps of the last-cards search).
    :ivar seconds: wall-clock time spent, in seconds.
    :ivar max_score: the highest score not yet ruled out: equal to ``score`` when
        solved, ``None`` when no win exists; for ``unknown`` every win scores at most this.
    :ivar unknown_cards: for ``unknown``: the known cards hold no win and the rest
        of the stock is not known (a deck prefix), rather than a limit running out.
    """

    status: Outcome
    score: int | None
    moves: tuple[Cell, ...]
    nodes: int
    seconds: float
    max_score: int | None
    unknown_cards: bool = False

    @property
    def won(self) -> bool:
        """Whether a win exists (the status is ``solved``)."""
        return self.status is Outcome.SOLVED

    @property
    def settled(self) -> bool:
        """Whether the question is answered (``solved`` or ``no-win``)."""
        return self.status is not Outcome.UNKNOWN


def ended(status: Outcome, cards: int | None, moves: tuple[Cell, ...], nodes: int, start: float, total: int) -> Solution:
    """The :class:`Solution` of a search that ended with ``status`` after ``nodes`` positions,
    begun at ``start`` (a :func:`time.perf_counter` time) on a deck of ``total`` cards:
    ``cards`` is the number placed at the win found (``moves``: its cells), or for
    ``unknown`` the fewest a win may still need."""
    seconds = time.perf_counter() - start
    if status is NO_WIN:
        return Solution(NO_WIN, None, (), nodes, seconds, None)
    assert cards is not None  # (unknown: its moves are none)
    return Solution(status, total - cards if status is SOLVED else None, moves, nodes, seconds, total - cards)
