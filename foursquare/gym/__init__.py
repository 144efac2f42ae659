"""Foursquare as a Gymnasium environment, for people who train agents (docs/guide/training.md).

Behind the ``gym`` extra (``pip install 'foursquare[gym]'``: Gymnasium, and NumPy
through it); importing :mod:`foursquare` never imports them.  Importing this
package registers ``Foursquare-v0`` (the rule set as ``rules=``, standard by
default) and one id a preset (:data:`ENV_IDS`: ``Foursquare-ThreeSquare-v0``...),
so that ``gymnasium.make`` finds them; ``gymnasium.make("foursquare.gym:Foursquare-v0")``
imports it itself.

    >>> import gymnasium
    >>> import foursquare.gym
    >>> env = gymnasium.make("Foursquare-ThreeSquare-v0")
    >>> env.action_space, env.unwrapped.rules.label
    (Discrete(25), 'three-square')

:class:`~foursquare.gym.env.FoursquareEnv` is the environment (the observation,
the actions and their mask, the rewards); :class:`~foursquare.gym.players.BotPlayer`
plays it with a bot, as ``foursquare simulate`` does.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as error:  # the extra is not installed
    from ..errors import FoursquareError

    class GymnasiumMissingError(FoursquareError, ImportError):
        """foursquare.gym imported without Gymnasium installed."""

    raise GymnasiumMissingError(
        "foursquare.gym needs Gymnasium: pip install 'foursquare[gym]' (or pip install gymnasium)", name=error.name
    ) from None

from ..engine.rules import PRESETS
from .env import (
    ILLEGAL,
    ILLEGAL_ACTION,
    REWARDS,
    EnvArgumentError,
    FoursquareEnv,
    IllegalActionError,
    InvalidActionError,
    Observation,
    ResetNeededError,
    observation_space,
    sample_legal,
)
from .players import BotPlayer

#: The entry point of every id.
ENTRY_POINT = "foursquare.gym.env:FoursquareEnv"


def env_id(preset: str) -> str:
    """The id of a preset's environment: ``Foursquare-v0`` for ``standard``, else the
    name in capitals without its hyphens (``three-square``: ``Foursquare-ThreeSquare-v0``)."""
    if preset == "standard":
        return "Foursquare-v0"
    return "Foursquare-" + "".join(word.capitalize() for word in preset.split("-")) + "-v0"


#: id -> the preset it plays (``Foursquare-v0`` takes any rule set as ``rules=``).
ENV_IDS: dict[str, str] = {env_id(name): name for name in PRESETS}


def register() -> None:
    """Register every id of :data:`ENV_IDS` with Gymnasium (done on import; again, a no-op)."""
    for id_, preset in ENV_IDS.items():
        if id_ not in gymnasium.registry:
            kwargs = {} if preset == "standard" else {"rules": preset}
            gymnasium.register(id=id_, entry_point=ENTRY_POINT, kwargs=kwargs)


register()

__all__ = [
    "BotPlayer", "ENTRY_POINT", "ENV_IDS", "EnvArgumentError", "FoursquareEnv", "ILLEGAL", "ILLEGAL_ACTION",
    "IllegalActionError", "InvalidActionError", "Observation", "REWARDS", "ResetNeededError", "env_id",
    "observation_space", "register", "sample_legal",
]
