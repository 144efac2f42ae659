"""Batch simulation: a bot plays many numbered deals; the statistics of the results.

:func:`play_deals` plays deal numbers with one or more named bots (in worker
processes when ``jobs > 1``) and yields one :class:`GameResult` per game, deal by
deal, as the games end;
:func:`summarize` gives the figures (win rate with its 95% Wilson interval,
mean score with losses counting 0, loss reasons, the score distribution,
seconds per move) and :func:`paired` compares two bots on the same deals.

Reproducibility: each deal's bot seeds come from ``(seed, deal)`` alone
(:func:`deal_seed`), so the same deals and seed give the same games whatever
the number of jobs.  A time budget (``budget``) makes a search stop when the
clock says so, which depends on the machine and its load; for reproducible
figures leave the budget out and fix the work per move (``nodes``).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..engine.deal import MASK64, splitmix64
from ..engine.game import Game, Status
from ..engine.rules import STANDARD, Rules
from ..errors import ArgumentError
from ..figures import Distribution, counts_interval, wilson_interval
from ..parallel import ordered_map
from . import get_bot

if TYPE_CHECKING:
    from ..parallel import Mapper

#: Decimals kept for the floats of ``as_dict`` (JSON output).
JSON_DIGITS = 4


def deal_seed(seed: int, deal: int) -> int:
    """The seed of one deal's game, from the run's seed and the deal number alone (a 64-bit number)."""
    return next(splitmix64((seed * 0x9E3779B97F4A7C15 + deal) & MASK64))


@dataclass(frozen=True)
class GameResult:
    """One game a bot played.

    :ivar bot: the bot's name.
    :ivar deal: the deal number.
    :ivar status: ``won`` or ``lost`` (the text of the game's :class:`~foursquare.engine.game.Status`).
    :ivar reason: why it was lost (``too-many-face-down``, ``stock-empty``, ``no-placement``), or ``None``.
    :ivar score: the score of a win, else ``None``.
    :ivar moves: the number of placements.
    :ivar move_seconds: the bot's thinking time for each placement (seconds).
    """

    bot: str
    deal: int
    status: str
    reason: str | None
    score: int | None
    moves: int
    move_seconds: tuple[float, ...] = field(repr=False)

    @property
    def won(self) -> bool:
        """Whether the game was won."""
        return self.status == Status.WON

    @property
    def points(self) -> int:
        """The score, a loss counting 0."""
        return self.score or 0

    @property
    def slowest_move_seconds(self) -> float:
        """The bot's longest thinking time for one placement (seconds; 0 without a move)."""
        return max(self.move_seconds, default=0.0)

    def row(self) -> dict[str, str | int | float]:
        """The result as one CSV/JSON row (times in seconds: ``seconds`` for the whole
        game, ``slowest_move_seconds`` for its slowest placement)."""
        return {
            "bot": self.bot,
            "deal": self.deal,
            "status": self.status,
            "reason": self.reason or "",
            "score": "" if self.score is None else self.score,
            "moves": self.moves,
            "seconds": round(sum(self.move_seconds), 6),
            "slowest_move_seconds": round(self.slowest_move_seconds, 6),
        }


def play_game(
    bot: str, deal: int, seed: int = 0, rules: Rules = STANDARD, budget: float | None = None, nodes: int | None = None
) -> GameResult:
    """Play one deal to its end with a named bot, which sees only the player's view.

    :param bot: a bot name (see :data:`foursquare.bots.BOTS`).
    :param deal: the deal number.
    :param seed: the run's seed; the game's seeds derive from ``(seed, deal)``.
    :param rules: the rule set.
    :param budget: seconds per move (``None``: none; the bot's fixed work only).
    :param nodes: the bot's work limit per move (``None``: its default).
    :raises ArgumentError: for an unknown bot.
    """
    player = get_bot(bot, nodes)
    game = Game.from_deal(deal, rules)
    rng = random.Random(deal_seed(seed, deal))
    times: list[float] = []
    while not game.is_over:
        view = game.view()
        move_seed = rng.getrandbits(64)
        start = time.perf_counter()
        cell = player.choose(view, budget, move_seed)
        times.append(time.perf_counter() - start)
        game.play(cell)
    return GameResult(
        bot,
        deal,
        str(game.status),
        None if game.reason is None else str(game.reason),
        game.score,
        len(times),
        tuple(times),
    )


#: One game for a worker: (bot, deal, seed, rules, budget, nodes), :func:`play_game`'s arguments.
_Task = tuple[str, int, int, Rules, "float | None", "int | None"]


def _play_task(task: _Task) -> GameResult:
    return play_game(*task)


def _game_name(task: _Task) -> str:
    """How an error names a task of :func:`play_deals`: its deal and bot."""
    return f"deal {task[1]} ({task[0]})"


def play_deals(  # noqa: PLR0913 — play_game's four settings by keyword, and where the games are played
    names: Sequence[str],
    deals: Sequence[int],
    *,
    seed: int = 0,
    rules: Rules = STANDARD,
    budget: float | None = None,
    nodes: int | None = None,
    jobs: int = 1,
    initializer: Callable[[], None] | None = None,
    mapper: Mapper | None = None,
) -> Iterator[GameResult]:
    """Every bot of ``names`` plays every deal of ``deals``: the results deal by deal.

    For each deal in order, the game of each bot in the order of ``names``
    (deal-major, bot-minor), so that a run stopped early holds whole deals once
    every bot's result of its last deal is in.  Lazily: each result is yielded as
    soon as it and those before it are done.  A game is the same whatever the
    bots beside it and the number of jobs (:func:`play_game`, :func:`deal_seed`).

    :param names: bot names (see :data:`foursquare.bots.BOTS`), in the order their
        results come for each deal.
    :param deals: the deal numbers, in order.
    :param seed: the run's seed; each game's seeds derive from ``(seed, deal)``.
    :param rules: the rule set.
    :param budget: seconds per move (``None``: none; the bots' fixed work only).
    :param nodes: the bots' work limit per move (``None``: their default).
    :param jobs: worker processes; with more than 1 (and more than one game), the
        games are played by :func:`foursquare.parallel.ordered_map`, one game per
        task, at most one worker per game.
    :param initializer: run in each worker process as it starts (e.g. to set
        signal handlers); not run when the games are played in this process.
    :param mapper: where the games are played instead (one game per task): a
        :class:`~foursquare.parallel.Mapper` such as a Dask cluster's
        (:meth:`foursquare.cluster.Cluster.map`); ``jobs`` is then not used.
    :returns: an iterator of :class:`GameResult`; closing it stops the workers.
    :raises ArgumentError: for an unknown bot name, at the call, before any game.
    :raises WorkerError: when a worker process ends before its game's result.
    """
    for name in names:
        get_bot(name, nodes)  # fail here, before any game, on a bad name
    tasks: Iterator[_Task] = ((name, d, seed, rules, budget, nodes) for d in deals for name in names)
    games = len(deals) * len(names)
    if mapper is not None:
        return mapper(_play_task, tasks, _game_name)
    if jobs <= 1 or games <= 1:
        return map(_play_task, tasks)
    return ordered_map(_play_task, tasks, min(jobs, games), initializer=initializer)


@dataclass(frozen=True)
class SimulationSummary:
    """The figures of one bot over a set of games.

    :ivar bot: the bot's name.
    :ivar games, wins: counts.
    :ivar win_rate: wins / games; :ivar win_interval: its 95% Wilson interval.
    :ivar mean_score: the mean score, losses counting 0; :ivar score_sd: its standard
        deviation; :ivar score_interval: the 95% interval of the mean (normal approximation).
    :ivar mean_winning_score: the mean score of the wins, or ``None`` without a win.
    :ivar losses: loss reason -> count.
    :ivar scores: score -> number of wins with it, highest first.
    :ivar moves: placements in all; :ivar median_move_seconds: the median thinking
        time per placement (seconds), over every placement; :ivar worst_move_seconds:
        the longest (``None`` without a placement).
    """

    bot: str
    games: int
    wins: int
    win_rate: float
    win_interval: tuple[float, float]
    mean_score: float
    score_sd: float
    score_interval: tuple[float, float]
    mean_winning_score: float | None
    losses: dict[str, int]
    scores: dict[int, int]
    moves: int
    median_move_seconds: float | None
    worst_move_seconds: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready values (floats rounded to :data:`JSON_DIGITS` decimals)."""
        return cast("dict[str, Any]", _rounded({
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_interval": list(self.win_interval),
            "mean_score": self.mean_score,
            "score_sd": self.score_sd,
            "score_interval": list(self.score_interval),
            "mean_winning_score": self.mean_winning_score,
            "losses": dict(self.losses),
            "scores": {str(k): v for k, v in self.scores.items()},
            "moves": self.moves,
            "median_move_seconds": self.median_move_seconds,
            "worst_move_seconds": self.worst_move_seconds,
        }, digits={"median_move_seconds": 7, "worst_move_seconds": 7}))  # seconds to 0.1 µs: a fast bot's move takes microseconds


def _rounded(value: Any, ndigits: int = JSON_DIGITS, digits: dict[str, int] | None = None) -> Any:
    """``value`` with its floats rounded to ``ndigits`` decimals (for JSON output);
    ``digits`` maps a dictionary key to its own number of decimals."""
    if isinstance(value, float):
        return round(value, ndigits) if math.isfinite(value) else value
    if isinstance(value, (list, tuple)):
        return [_rounded(v, ndigits) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v, (digits or {}).get(k, ndigits)) for k, v in value.items()}
    return value


class GameTally:
    """The figures of one bot's games, added one at a time, in memory that does not
    grow with their number (counts, the scores' histogram, and a
    :class:`~foursquare.figures.Distribution` of the move times): what :func:`summarize`
    gives of a list, for a sweep of any length.

    :param max_score: as :func:`summarize`'s.
    """

    def __init__(self, max_score: int | None = None) -> None:
        self.max_score = max_score
        self.bot: str | None = None
        self.points: Counter[int] = Counter()  # a loss counts 0, so one count a game
        self.won: Counter[int] = Counter()  # the scores of the wins
        self.losses: Counter[str] = Counter()
        self.times = Distribution()

    def add(self, result: GameResult) -> None:
        """Count one game.

        :raises ArgumentError: for a game of another bot than those before it.
        """
        if self.bot is not None and result.bot != self.bot:
            raise ArgumentError(f"results of several bots: {', '.join(sorted({self.bot, result.bot}))}")
        self.bot = result.bot
        self.points[result.points] += 1
        if result.won:
            self.won[result.points] += 1
        else:
            self.losses[cast("str", result.reason)] += 1
        self.times.add_all(result.move_seconds)

    def summary(self) -> SimulationSummary:
        """The figures so far (:class:`SimulationSummary`)."""
        games, wins = self.points.total(), self.won.total()
        mean, sd, interval = counts_interval(self.points, 0.0, math.inf if self.max_score is None else self.max_score)
        return SimulationSummary(
            bot=self.bot or "",
            games=games,
            wins=wins,
            win_rate=wins / games if games else 0.0,
            win_interval=wilson_interval(wins, games),
            mean_score=mean,
            score_sd=sd,
            score_interval=interval,
            mean_winning_score=sum(s * n for s, n in self.won.items()) / wins if wins else None,
            losses=dict(sorted(self.losses.items())),
            scores=dict(sorted(self.won.items(), reverse=True)),
            moves=self.times.count,
            median_move_seconds=self.times.median(),
            worst_move_seconds=self.times.largest,
        )


def summarize(results: Iterable[GameResult], max_score: int | None = None) -> SimulationSummary:
    """The figures of some results (of one bot), read one at a time (:class:`GameTally`).

    :param max_score: the highest possible score (the deck size minus the piles
        of a full grid: 24 in the standard game); the interval of the mean score
        is clipped to ``[0, max_score]`` (``None``: clipped at 0 only).

    :raises ArgumentError: when the results are of more than one bot (a ``ValueError`` too).
    """
    tally = GameTally(max_score)
    for result in results:
        tally.add(result)
    return tally.summary()


@dataclass(frozen=True)
class PairedDifference:
    """Bot A minus bot B on the same deals.

    :ivar games: the deals both played.
    :ivar score: mean of (A's points − B's points); :ivar score_interval: its 95% interval.
    :ivar win: mean of (A won − B won), a difference of win rates; :ivar win_interval: its 95% interval.
    :ivar only_a, only_b: deals won by A only, by B only.

    The intervals are normal approximations over the per-deal differences.
    """

    games: int
    score: float
    score_interval: tuple[float, float]
    win: float
    win_interval: tuple[float, float]
    only_a: int
    only_b: int

    def as_dict(self) -> dict[str, Any]:
        """The difference as JSON-ready values (floats rounded to :data:`JSON_DIGITS` decimals)."""
        return cast("dict[str, Any]", _rounded({
            "games": self.games,
            "score": self.score,
            "score_interval": list(self.score_interval),
            "win": self.win,
            "win_interval": list(self.win_interval),
            "only_a": self.only_a,
            "only_b": self.only_b,
        }))


class PairedTally:
    """Bot A minus bot B, deal by deal, added one deal at a time in memory that does not
    grow with the deals (the differences are a few whole numbers, counted): what
    :func:`paired` gives of two lists.

    :param max_score: as :func:`paired`'s.
    """

    def __init__(self, max_score: int | None = None) -> None:
        self.bound = math.inf if max_score is None else max_score  # the score difference's
        self.scores: Counter[int] = Counter()  # A's points minus B's, one count a deal
        self.wins: Counter[int] = Counter()  # A won minus B won: 1 won by A only, -1 by B only

    def add(self, a: GameResult, b: GameResult) -> None:
        """Count one deal's two games.

        :raises ArgumentError: when they are not of the same deal.
        """
        if a.deal != b.deal:
            raise ArgumentError("the two runs are not of the same deals")
        self.scores[a.points - b.points] += 1
        self.wins[int(a.won) - int(b.won)] += 1

    def difference(self) -> PairedDifference:
        """The difference so far (:class:`PairedDifference`)."""
        score, _, score_interval = counts_interval(self.scores, -self.bound, self.bound)
        win, _, win_interval = counts_interval(self.wins, -1.0, 1.0)  # a difference of win rates lies in [-1, 1]
        return PairedDifference(self.scores.total(), score, score_interval, win, win_interval, self.wins[1], self.wins[-1])


def paired(a: Iterable[GameResult], b: Iterable[GameResult], max_score: int | None = None) -> PairedDifference:
    """The paired difference of two bots' results on the same deals (A − B), read a
    deal at a time (:class:`PairedTally`).

    :param max_score: the highest possible score: the score difference's interval
        is clipped to ``[-max_score, max_score]`` (``None``: not clipped).

    :raises ArgumentError: when the two are not of the same deals (a ``ValueError`` too).
    """
    tally = PairedTally(max_score)
    for x, y in itertools.zip_longest(a, b):
        if x is None or y is None:
            raise ArgumentError("the two runs are not of the same deals")
        tally.add(x, y)
    return tally.difference()


class DealTally:
    """The figures of several bots over the same deals, added a deal at a time (one game
    of each bot, in the order of ``names``), in memory that does not grow with the deals:
    a :class:`GameTally` for each bot and, with ``paired``, the :class:`PairedTally` of
    the first two.

    :param names: the bots.
    :param max_score: as :func:`summarize`'s.
    :param paired: whether to compare the first two bots deal by deal.
    """

    def __init__(self, names: Sequence[str], max_score: int | None = None, paired: bool = False) -> None:
        self.names = list(names)
        self.deals = 0
        self.bots = {name: GameTally(max_score) for name in names}
        self.pair = PairedTally(max_score) if paired else None

    def add(self, games: Sequence[GameResult]) -> None:
        """Count one deal: its games, one of each bot in the order of the names.

        :raises ArgumentError: for games not of one deal, or not of those bots.
        """
        if [game.bot for game in games] != self.names:
            raise ArgumentError(f"a deal's games are not one of each of {', '.join(self.names)}")
        if self.pair is not None:
            self.pair.add(games[0], games[1])
        for game in games:
            self.bots[game.bot].add(game)
        self.deals += 1

    def summaries(self) -> dict[str, SimulationSummary]:
        """Each bot's figures, in the order of the names."""
        return {name: tally.summary() for name, tally in self.bots.items()}

    def difference(self) -> PairedDifference | None:
        """The first bot minus the second (``None`` when not ``paired``)."""
        return None if self.pair is None else self.pair.difference()
