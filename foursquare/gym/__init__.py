"""Foursquare as a Gymnasium environment, for people who train agents (docs/guide/training.md).

Behind the ``gym`` extra (``pip install 'foursquare-solitaire[gym]'``: Gymnasium, and NumPy
through it); importing :mod:`foursquare` never imports them.  Importing this
package registers ``Foursquare-v0`` (the rule set as ``rules=``, standard by
default) and one id a preset (:data:`ENV_IDS`: ``Foursquare-ThreeSquare-v0``...),
each also in the ``foursquare`` namespace (``foursquare/Foursquare-v0``, Gymnasium's
convention for a third party's environments), so that ``gymnasium.make`` finds them;
``gymnasium.make("foursquare.gym:foursquare/Foursquare-v0")`` imports it itself.
(Gymnasium 1.0 dropped the ``gymnasium.envs`` entry points that registered a
package's ids without an import: there is no way to an id without naming the module.)

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
        "foursquare.gym needs Gymnasium: pip install 'foursquare-solitaire[gym]' (or pip install gymnasium)", name=error.name
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
#: The namespace each id is registered in too: ``foursquare/Foursquare-v0``.
NAMESPACE = "foursquare"


def register() -> None:
    """Register every id of :data:`ENV_IDS`, bare and in :data:`NAMESPACE`, with Gymnasium
    (done on import; again, a no-op)."""
    for id_, preset in ENV_IDS.items():
        for name in (id_, f"{NAMESPACE}/{id_}"):
            if name not in gymnasium.registry:
                gymnasium.register(id=name, entry_point=ENTRY_POINT, kwargs={} if preset == "standard" else {"rules": preset})


register()

__all__ = [
    "BotPlayer", "ENTRY_POINT", "ENV_IDS", "NAMESPACE", "EnvArgumentError", "FoursquareEnv", "ILLEGAL", "ILLEGAL_ACTION",
    "IllegalActionError", "InvalidActionError", "Observation", "REWARDS", "ResetNeededError", "env_id",
    "observation_space", "register", "sample_legal",
]
