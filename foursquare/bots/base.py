"""The bots' one small interface: a player's view and a time budget in, a cell (with estimates) out.

A bot sees only a :class:`~foursquare.engine.view.PlayerView` (RULES.md §6): the layout,
the card to place and *which* cards are unseen, never their order.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from ..engine.arguments import check
from ..engine.game import Game, Status
from ..engine.layout import Cell
from ..engine.rules import LayoutKind
from ..engine.view import PlayerView
from ..errors import PositionError, wrong_argument
from ._board import Board

#: (board cell, win chance, expected score): one cell's estimate as :meth:`Bot._estimates`
#: gives it (``None`` where the bot has no estimate).
CellEstimate = tuple[int, float | None, float | None]


@dataclass(frozen=True)
class Estimate:
    """A bot's opinion of one candidate cell.

    :ivar cell: the cell where the card would go.
    :ivar win_chance: the estimated chance (0 to 1) of winning after this
        placement, or ``None`` when the bot has no estimate.
    :ivar expected_score: the estimated mean score, losses counting 0, or ``None``.
    :ivar samples: for an estimate from sampled orders of the unseen cards (the
        ``expert`` bot), how many: ``win_chance`` is then the share of them still won
        and ``expected_score`` their mean best score; ``None`` otherwise.
    :ivar unknown: of those samples, how many the solver could not settle within its
        limit (counted as the search's estimate instead); ``None`` when not sampled.
    """

    cell: Cell
    win_chance: float | None = None
    expected_score: float | None = None
    samples: int | None = None
    unknown: int | None = None

    def as_dict(self) -> dict[str, str | float | None]:
        """The estimate as plain JSON-ready values (``cell`` as text); ``samples`` and
        ``unknown`` only for a sampled estimate."""
        sampled = {} if self.samples is None else {"samples": self.samples, "unknown": self.unknown}
        return {"cell": str(self.cell), "win_chance": self.win_chance, "expected_score": self.expected_score, **sampled}


class Bot(ABC):
    """A player program.  Subclasses implement :meth:`estimates`.

    Bots are deterministic: for the same view, seed and fixed work limits they
    return the same answer.  A time budget can only make a search stop earlier
    (at a shallower depth), so under a budget the answer may depend on the
    machine's speed.
    """

    #: the registry name
    name: ClassVar[str] = ""
    #: one line for ``--help`` and listings
    description: ClassVar[str] = ""
    #: whether a work limit (``nodes``) changes its play
    uses_nodes: ClassVar[bool] = False
    #: whether a time budget changes its play
    uses_budget: ClassVar[bool] = True

    @abstractmethod
    def _estimates(self, board: Board, card_rank: int, cells: list[int], deadline: float | None, seed: int) -> list[CellEstimate]:
        """Return ``[(board cell, win_chance, expected_score), ...]`` best first, for ``cells``."""

    def estimates(self, view: PlayerView | Game, budget: float | None = None, seed: int = 0) -> list[Estimate]:
        """Estimates for the legal cells of ``view``, best first.

        :param view: what the player knows (RULES.md §6); a :class:`Game` stands for
            its player's view (:meth:`Game.view`), so the answer cannot depend on its
            stock's order either.
        :param budget: seconds the bot may think (``None``: no time limit, only
            the bot's own fixed work limits).  The search checks the clock as it
            goes and answers with its last complete result.
        :param seed: seeds the bot's random choices.
        :returns: one :class:`Estimate` per cell the bot considered (legal cells
            only; on an empty floating grid only the centre, which is as good as
            any other cell), the recommended cell first.
        :raises PositionError: when the game is over.
        :raises PositionError: for a game whose next card is unknown (it has no view).
        :raises ArgumentError: for an argument of another type (``budget="1"``).
        """
        where = f"{type(self).__name__}.estimates"
        check(where, budget=budget, seed=seed)
        view = as_view(view, where)
        if view.status is not Status.PLAYING or view.next_card is None:
            raise PositionError(f"the game is over ({view.status}): there is no card to place")
        start = time.perf_counter()
        board = Board(view)
        cells = [board.geo.centre] if not board.npiles and view.rules.layout is LayoutKind.FLOATING else board.legal()
        return self._judge(view, board, view.next_card >> 2, cells, start, budget, seed)

    def _judge(
        self, view: PlayerView, board: Board, x: int, cells: list[int], start: float, budget: float | None, seed: int
    ) -> list[Estimate]:
        """:meth:`estimates` of ``cells`` for the card of rank ``x``, thinking ``budget``
        seconds from ``start``: :meth:`_estimates`' answer as :class:`Estimate` values."""
        deadline = None if budget is None else start + max(budget, 0.0)
        return [Estimate(board.geo.to_cell[c], p, s) for c, p, s in self._estimates(board, x, cells, deadline, seed)]

    def choose(self, view: PlayerView | Game, budget: float | None = None, seed: int = 0) -> Cell:
        """The cell the bot plays (the first of :meth:`estimates`, which checks the arguments)."""
        return self.estimates(view, budget, seed)[0].cell

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def as_view(view: PlayerView | Game, where: str) -> PlayerView:
    """The player's view an argument gives: a :class:`PlayerView` as it is, a
    :class:`Game`'s own (:meth:`Game.view`: the layout, the card in hand and which
    cards are unseen, never their order).

    :raises PositionError: for a game whose next card is unknown.
    :raises ArgumentError: for anything else.
    """
    if isinstance(view, PlayerView):
        return view
    if isinstance(view, Game):
        return view.view()
    raise wrong_argument(where, "view", "a PlayerView (game.view()) or a Game", view)
