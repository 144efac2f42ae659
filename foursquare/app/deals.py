"""The deals ``play`` chooses for the player: a random deal that the solver proves
winnable (``--winnable``), and the daily deal (``--daily``) with, at the end of the
game, the solver's best score for it to compare with.

Both go through the solver's public API (:func:`foursquare.solver.solve_deal`) with a
node limit, so that every answer is bounded in work and the same on every machine.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from ..engine.deal import daily_deal
from ..engine.game import Game
from ..engine.rules import STANDARD, Rules
from ..errors import FoursquareError

#: Random deals are drawn below this (as ``play``'s own random deals), so that they are easy to type.
RANDOM_DEALS = 1_000_000
#: ``--winnable``: the deals tried before giving up, and the solver's limit on each: at
#: that limit a try settles nearly every standard deal, nearly all of them winnable, so one
#: try is the rule and twenty a bound (docs/benchmarks.md, "A lower limit").
WINNABLE_TRIES = 20
WINNABLE_NODES = 50_000
#: ``--daily``: the solver's limits for the best score shown at the end of the game: the
#: positions (most deals need a few thousand: docs/benchmarks.md) and, since the player
#: waits for it, the seconds.
DAILY_NODES = 300_000
DAILY_SECONDS = 15.0


@dataclass(frozen=True)
class Pick:
    """A deal chosen for the player.

    :ivar deal: the deal number.
    :ivar words: how it was chosen, for the opening line (``the daily deal of 2026-12-01, UTC``).
    :ivar day: the date of a daily deal, else ``None``.
    """

    deal: int
    words: str
    day: datetime.date | None = None


def winnable_pick(
    rules: Rules | None,
    rng: random.Random | None = None,
    *,
    tries: int = WINNABLE_TRIES,
    max_nodes: int = WINNABLE_NODES,
) -> Pick:
    """A random deal below :data:`RANDOM_DEALS` that the solver proves winnable.

    Each try solves one random deal with at most ``max_nodes`` positions; a try that
    ends ``unknown`` or ``no-win`` moves on to another deal.

    :param rules: the rule set (``None``: the standard rules).
    :param rng: the random source (default: the system's).
    :returns: the deal, with words saying so.
    :raises FoursquareError: when none of ``tries`` deals is proved winnable.
    """
    from ..solver import solve_deal

    rng = rng or random.SystemRandom()
    for _ in range(tries):
        deal = rng.randrange(RANDOM_DEALS)
        if solve_deal(deal, rules or STANDARD, max_nodes=max_nodes).won:
            return Pick(deal, "chosen at random and proved winnable by the solver")
    raise FoursquareError(
        f"no winnable deal found: none of {tries} random deals was proved winnable within"
        f" {max_nodes:,} positions each; try again, or name a deal"
    )


def daily_pick(day: datetime.date | None = None) -> Pick:
    """The daily deal of ``day`` (default: today in UTC, the same day everywhere at once;
    :func:`foursquare.engine.deal.daily_deal`)."""
    day = day or datetime.datetime.now(datetime.UTC).date()
    return Pick(daily_deal(day), f"the daily deal of {day.isoformat()}, UTC", day)


def daily_comparison(
    game: Game, pick: Pick, *, max_nodes: int = DAILY_NODES, timeout: float | None = DAILY_SECONDS
) -> str | None:
    """The line that ends a daily game: the solver's best score for the deal beside the
    player's result, worked out now (at the end, so that the game is not spoiled), within
    ``max_nodes`` positions and ``timeout`` seconds; ``None`` while the game is not over.

    :returns: e.g. ``Daily deal of 2026-12-01: the solver's best score is 23; yours is 8.``
    """
    if not game.is_over or pick.day is None:
        return None
    from ..solver import solve_deal

    head = f"Daily deal of {pick.day.isoformat()}"
    yours = f"yours is {game.score}" if game.score is not None else "you lost"
    solution = solve_deal(pick.deal, game.rules, max_nodes=max_nodes, timeout=timeout)
    if solution.won:
        return f"{head}: the solver's best score is {solution.score}; {yours}."
    if solution.settled:
        return f"{head}: the solver proved that it cannot be won; {yours}."
    return (
        f"{head}: the solver did not settle its best score within {max_nodes:,} positions"
        + (f" or {timeout:g} s" if timeout is not None else "")
        + ("" if solution.max_score is None else f" (at most {solution.max_score})")
        + f"; {yours}."
    )

