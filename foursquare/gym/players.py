"""The bots as agents of the environment: each sees the player's view and plays as ``foursquare simulate`` does.

A :class:`BotPlayer` picks the action a bot (:data:`foursquare.bots.BOTS`) chooses
from :meth:`FoursquareEnv.view <foursquare.gym.env.FoursquareEnv.view>`, the
player's view (RULES.md §6), with the seeds :func:`foursquare.bots.simulate.play_game`
gives each move: a bot through the environment plays the same games as
``foursquare simulate`` with that bot, seed and work limit on the same deals.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium

from ..bots import Bot, get_bot
from ..bots.simulate import deal_seed
from ..engine.arguments import check
from ..errors import wrong_argument
from .env import EnvArgumentError, FoursquareEnv


class BotPlayer:
    """A bot that plays the environment's episodes.

    :param bot: a bot's name (``random``, ``greedy``, ``expectimax``, ``deep``, ``expert``)
        or a :class:`~foursquare.bots.Bot`.
    :param seed: the run's seed, as ``foursquare simulate --seed``: each episode's move
        seeds come from it and the deal number (:func:`~foursquare.bots.simulate.deal_seed`).
    :param nodes: the bot's work limit per move (``--nodes``; ``None``: its default).
    :param budget: seconds per move (``None``: none, the fixed work limit only).
    :raises ArgumentError: for an unknown bot name.
    :raises ArgumentError: for a seed, nodes or budget of another type, or out of range
        (a negative seed or budget, nodes below 1).
    """

    def __init__(self, bot: str | Bot = "deep", *, seed: int = 0, nodes: int | None = None, budget: float | None = None) -> None:
        check("BotPlayer", seed=seed, nodes=nodes, budget=budget)
        self.bot = bot if isinstance(bot, Bot) else get_bot(bot, nodes)
        self.seed = seed
        self.budget = budget
        self._rng = random.Random()

    def act(self, env: gymnasium.Env[Any, Any]) -> int:
        """The bot's action in ``env``'s position (a :class:`FoursquareEnv`, wrapped or not).

        At the first move of an episode its seeds restart from the episode's deal number
        (0 for a deck), so that each episode is played as ``simulate`` plays that deal.

        :raises EnvArgumentError: for an environment that is not a :class:`FoursquareEnv`.
        :raises ResetNeededError: before the first reset.
        :raises PositionError: when the episode is over.
        """
        inner = env.unwrapped if isinstance(env, gymnasium.Env) else None
        if not isinstance(inner, FoursquareEnv):
            raise wrong_argument("BotPlayer.act", "env", "a Foursquare environment", env, EnvArgumentError)
        if inner.placed == 0:
            self._rng = random.Random(deal_seed(self.seed, inner.deal or 0))
        return inner.action_of(self.bot.choose(inner.view(), self.budget, self._rng.getrandbits(64)))

    def __repr__(self) -> str:
        return f"<BotPlayer {self.bot.name!r} seed {self.seed}>"
