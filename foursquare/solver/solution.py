"""What a solve returns: the outcome, the :class:`Solution` record, the solver's error.

The outcomes are strings in files and output (``solved``, ``no-win``, ``unknown``):
:class:`Outcome` is a :class:`~enum.StrEnum`, so its members write as those strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..engine.arguments import check
from ..engine.game import Game
from ..engine.layout import Cell
from ..errors import wrong_argument


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

#: Default node limit of one solve: most deals need a few hundred positions; the
#: hardest of deals 0-999 (deal 325) needs 3.55 million; a search that uses it all
#: takes seconds in the compiled core (about a million positions a second) and up to
#: minutes in the pure-Python twin (20,000 to 60,000 a second): see :mod:`foursquare.solver.core`.
#: Positions include the steps of the last-cards search (:mod:`foursquare.solver.lastcards`).
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


def check_solve(game: Game, max_nodes: int | None, timeout: float | None, within_known_cards: bool, score_at_most: int | None) -> None:
    """Refuse arguments of :func:`~foursquare.solver.search.solve` of another type than
    it takes; ``game`` must be a :class:`Game`: the solver needs the stock's order,
    which a :class:`~foursquare.engine.view.PlayerView` does not hold (RULES.md §6).

    :raises ArgumentError: naming the argument.
    """
    if not isinstance(game, Game):
        raise wrong_argument("solve", "game", "a Game (the solver needs the stock's order, which a view hides)", game)
    check("solve", max_nodes=max_nodes, timeout=timeout, within_known_cards=within_known_cards, score_at_most=score_at_most)
