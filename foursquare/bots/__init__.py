"""Bots and hints: programs that play Foursquare as a player must (RULES.md §6).

A bot receives only a :class:`~foursquare.engine.view.PlayerView` — the layout, the
card to place and *which* cards are unseen, never their order — and a time
budget, and answers with estimates per candidate cell, best first::

    >>> from foursquare import Game
    >>> from foursquare.bots import recommend
    >>> game = Game.from_deal(1)
    >>> [str(e.cell) for e in recommend(game.view(), bot="greedy")]
    ['d4']

The bots, by name (:data:`BOTS`): ``random``, ``greedy`` (one placement
ahead), ``expectimax`` (two placements, a chance node over the next card's
rank), ``deep`` (iterative-deepening expectimax) and
``expert`` (the default for hints, :data:`DEFAULT`: ``deep``, with every cell judged by solving sampled orders of the unseen
cards with the perfect-information solver from 6 piles on, the samples vetoing
``deep``'s choice when it loses clearly more often; slow on the pure-Python solver).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.arguments import check
from ..engine.game import Game
from ..engine.view import PlayerView
from ..errors import ArgumentError, quote, wrong_argument
from .base import Bot, Estimate, as_view
from .chance import ChanceBot
from .expectimax import DeepBot, ExpectimaxBot, GreedyBot, SearchBot
from .pimc import ExpertBot
from .simple import RandomBot

#: name -> bot class; each accepts ``nodes=`` (a work limit per move, used by ``deep`` and ``expert``).
BOTS: dict[str, Callable[..., Bot]] = {
    cls.name: cls for cls in (RandomBot, GreedyBot, ExpectimaxBot, DeepBot, ExpertBot, ChanceBot)
}
#: the bot behind hints (``hint``, the prompt's ``hint``, ``simulate``, ``analyze``): ``expert``,
#: the strongest of the bots as measured (docs/benchmarks.md).
DEFAULT = "expert"


def get_bot(name: str, nodes: int | None = None) -> Bot:
    """The bot of that name.

    :param name: a key of :data:`BOTS`.
    :param nodes: for ``deep``, the most placements it may examine per move; for
        ``expert``, that limit for its ``deep`` part, and as many sampled orders as
        fit in it at the solver's limits (deterministic work limits); ``None`` keeps
        the bot's default.
    :raises ArgumentError: for an unknown name (the message lists the bots).
    :raises ArgumentError: for ``nodes`` of another type than ``int``.
    """
    if not isinstance(name, str) or name not in BOTS:
        raise ArgumentError(f"unknown bot {quote(name)} (bots: {', '.join(BOTS)})")
    check("get_bot", nodes=nodes)
    return BOTS[name]() if nodes is None else BOTS[name](nodes=nodes)


def recommend(view: PlayerView | Game, bot: str | Bot = DEFAULT, budget: float | None = 1.0, seed: int = 0) -> list[Estimate]:
    """Where should the card in hand go?  Estimates per candidate cell, best first.

    :param view: what the player knows (RULES.md §6); the answer is the same for
        every order of the unseen cards.  A :class:`~foursquare.engine.game.Game`
        stands for its player's view (``game.view()``), never its stock's order.
    :param bot: a bot name (see :data:`BOTS`) or a :class:`Bot`.
    :param budget: seconds the bot may think (``None``: only its fixed work limit).
    :param seed: seeds the bot's random choices.
    :returns: :class:`Estimate` values (``cell``, ``win_chance``, ``expected_score``),
        legal cells only, the recommended cell first.
    :raises ArgumentError: for a ``bot`` that is no bot's name nor a :class:`Bot` (``None``
        too).
    :raises PositionError: for a game that is over, or whose next card is unknown (it has
        no view).
    :raises ArgumentError: for another argument of another type (``budget="1"``, a
        ``view`` that is neither a view nor a game).
    """
    view = as_view(view, "recommend")
    check("recommend", budget=budget, seed=seed)
    if not isinstance(bot, (Bot, str)):
        raise wrong_argument("recommend", "bot", f"a bot's name ({', '.join(BOTS)}) or a Bot", bot, ArgumentError)
    return (bot if isinstance(bot, Bot) else get_bot(bot)).estimates(view, budget, seed)


__all__ = [
    "BOTS", "Bot", "ChanceBot", "DEFAULT", "DeepBot", "Estimate", "ExpectimaxBot", "ExpertBot", "GreedyBot",
    "RandomBot", "SearchBot", "get_bot", "recommend",
]
