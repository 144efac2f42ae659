"""Analysis with the solver: batch figures over many deals, and where a recorded game went wrong.

- :func:`wilson_interval` and :func:`summarize` turn solver results over many
  deals into figures: deals settled, the winnable share with a 95% Wilson
  interval, the score distribution, median and worst time per deal.
- :func:`analyze_game` replays a recorded game and, before and after every
  move, asks the perfect-information solver (:mod:`foursquare.solver`) whether
  a win was still possible and with what best score, so that the move that
  threw the game away is named; when :mod:`foursquare.bots` is available it
  adds the bot's preferred cell and estimated win chances.

No I/O, no Click: the ``solve`` and ``analyze`` commands print what these return.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..engine.game import Game, Placement, Status
from ..engine.layout import Cell
from ..errors import FoursquareError
from ..stats import wilson_interval
from .search import DEFAULT_MAX_NODES, NO_WIN, SOLVED, UNKNOWN, Solution, solve

#: Default node limit per position in :func:`analyze_game`: about a second of the
#: compiled core's search (a minute of the pure-Python twin's) for the hardest
#: positions; most positions of a game need far fewer, and those after a settled
#: one are bounded by it.
ANALYSIS_MAX_NODES = 2_000_000


class AnalysisError(FoursquareError, ValueError):
    """A game that cannot be analyzed (resumed from a position without its moves)."""


@dataclass(frozen=True)
class BatchSummary:
    """Figures over many solved deals.

    :ivar deals: deals attempted.
    :ivar solved: deals with a win found (its score proved optimal).
    :ivar no_win: deals proved to have no win.
    :ivar unknown: deals where a limit ran out first.
    :ivar winnable: the winnable share among settled deals (solved / (solved + no_win)), or ``None``.
    :ivar interval: its 95% Wilson interval (low, high).
    :ivar scores: score -> number of solved deals with it, highest score first.
    :ivar median_seconds, worst_seconds: time per deal (seconds).
    :ivar median_nodes, worst_nodes, total_nodes: positions searched per deal / in all.
    """

    deals: int
    solved: int
    no_win: int
    unknown: int
    winnable: float | None
    interval: tuple[float, float]
    scores: dict[int, int]
    median_seconds: float
    worst_seconds: float
    median_nodes: float
    worst_nodes: int
    total_nodes: int

    def as_dict(self) -> dict[str, object]:
        """Plain values for JSON."""
        return {
            "deals": self.deals,
            "solved": self.solved,
            "no_win": self.no_win,
            "unknown": self.unknown,
            "winnable": self.winnable,
            "interval": list(self.interval),
            "scores": {str(k): v for k, v in self.scores.items()},
            "median_seconds": self.median_seconds,
            "worst_seconds": self.worst_seconds,
            "median_nodes": self.median_nodes,
            "worst_nodes": self.worst_nodes,
            "total_nodes": self.total_nodes,
        }

    def lines(self) -> list[str]:
        """The summary as text lines."""
        settled = self.solved + self.no_win
        out = [
            f"deals: {self.deals}; settled: {settled} (solved {self.solved}, no win {self.no_win}); unknown: {self.unknown}",
        ]
        if self.winnable is not None:
            lo, hi = self.interval
            out.append(
                f"winnable: {self.solved}/{settled} = {100 * self.winnable:.1f}% (95% Wilson interval {100 * lo:.1f}%-{100 * hi:.1f}%)"
            )
        if self.scores:
            out.append("scores: " + ", ".join(f"{s}: {k}" for s, k in self.scores.items()))
        if not self.deals:
            return out  # no time to speak of
        out.append(
            f"time per deal: median {1000 * self.median_seconds:.1f} ms, worst {1000 * self.worst_seconds:.1f} ms; "
            f"nodes: median {self.median_nodes:g}, worst {self.worst_nodes}, total {self.total_nodes}"
        )
        return out


def summarize(solutions: Iterable[Solution]) -> BatchSummary:
    """Figures over the solutions of many deals (see :class:`BatchSummary`)."""
    sols = list(solutions)
    solved = sum(s.status is SOLVED for s in sols)
    no_win = sum(s.status is NO_WIN for s in sols)
    unknown = sum(s.status is UNKNOWN for s in sols)
    settled = solved + no_win
    scores = Counter(s.score for s in sols if s.status is SOLVED and s.score is not None)
    seconds = [s.seconds for s in sols] or [0.0]
    nodes = [s.nodes for s in sols] or [0]
    return BatchSummary(
        deals=len(sols),
        solved=solved,
        no_win=no_win,
        unknown=unknown,
        winnable=solved / settled if settled else None,
        interval=wilson_interval(solved, settled),
        scores=dict(sorted(scores.items(), reverse=True)),
        median_seconds=statistics.median(seconds),
        worst_seconds=max(seconds),
        median_nodes=statistics.median(nodes),
        worst_nodes=max(nodes),
        total_nodes=sum(nodes),
    )


# ------------------------------------------------------------ recorded games


def _outlook(sol: Solution, winnable: bool = False) -> str:
    """``win`` (a win is still possible), ``no-win`` (proved), ``unknown``.

    :param winnable: the game itself shows a win from this position (it was won
        later, or a later position of it is solved): ``win`` even when the solver's
        limit ran out here (the best score then stays unknown).
    """
    if sol.status is UNKNOWN and winnable:
        return "win"
    return {SOLVED: "win", NO_WIN: "no-win", UNKNOWN: "unknown"}[sol.status]


@dataclass(frozen=True)
class MoveReport:
    """One move of a recorded game, judged with perfect information.

    :ivar number: the move's number from 1.
    :ivar card, cell: the card placed and where (text like ``7H``, ``d4``).
    :ivar before, after: ``win`` (a win was possible with perfect information),
        ``no-win`` (proved impossible) or ``unknown`` (the node limit ran out),
        before and after the move.
    :ivar best_before, best_after: the best perfect-information score from the
        position before / after the move (``None`` when there is no win or it is unknown).
    :ivar solver_cell: the first cell of an optimal win from the position before
        the move (``None`` when there is none).
    :ivar verdict: ``threw-away-win`` (a win was possible before and is proved
        impossible after), ``lost-points`` (still winnable, with a lower best
        score), ``ok`` or ``unknown`` (the solver could not tell).
    :ivar bot_cell, bot_win_chance, played_win_chance: the bot's preferred cell,
        its estimated win chance there and at the cell played (``None`` without a bot).
    :ivar nodes: solver positions searched for this move (before it).
    """

    number: int
    card: str
    cell: str
    before: str
    after: str
    best_before: int | None
    best_after: int | None
    solver_cell: str | None
    verdict: str
    bot_cell: str | None = None
    bot_win_chance: float | None = None
    played_win_chance: float | None = None
    nodes: int = 0

    def as_dict(self) -> dict[str, object]:
        """Plain values for JSON/YAML."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class GameAnalysis:
    """A recorded game judged move by move.

    :ivar moves: one :class:`MoveReport` per move.
    :ivar start: the outlook at the start (``win``/``no-win``/``unknown``) and
        :ivar best_start: the best score there.
    :ivar status, score: the game's outcome.
    :ivar mistakes: the reports whose verdict is ``threw-away-win`` or ``lost-points``.
    :ivar max_nodes: the node limit per position.
    :ivar bot: the bot's name, or ``None`` when no bot was consulted.
    """

    moves: list[MoveReport]
    start: str
    best_start: int | None
    status: str
    score: int | None
    max_nodes: int | None
    bot: str | None = None
    mistakes: list[MoveReport] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        """Plain values for JSON/YAML."""
        return {
            "start": self.start,
            "best_start": self.best_start,
            "status": self.status,
            "score": self.score,
            "max_nodes": self.max_nodes,
            "bot": self.bot,
            "moves": [m.as_dict() for m in self.moves],
            "mistakes": [m.number for m in self.mistakes],
        }


def _verdict(before: Solution, after: Solution, winnable_before: bool = False) -> str:
    if before.status is UNKNOWN and winnable_before and after.status is NO_WIN:
        return "threw-away-win"  # the game's own later positions show the win it threw away
    if before.status is UNKNOWN or after.status is UNKNOWN:
        if before.status is NO_WIN:
            return "ok"  # nothing left to lose
        return "unknown"
    if before.status is SOLVED and after.status is NO_WIN:
        return "threw-away-win"
    if before.status is SOLVED and after.status is SOLVED and (after.score or 0) < (before.score or 0):  # solved: both scores given
        return "lost-points"
    return "ok"


class Estimate(Protocol):
    """What :func:`analyze_game` reads of a bot's estimate for one cell
    (:class:`foursquare.bots.Estimate` has these)."""

    @property
    def cell(self) -> Cell: ...
    @property
    def win_chance(self) -> float | None: ...
    @property
    def expected_score(self) -> float | None: ...


#: A bot's judgement of a position: its estimates, one per legal cell, or ``None``.
Estimator = Callable[[Game], Sequence[Estimate] | None]


def analyze_game(
    game: Game,
    *,
    max_nodes: int | None = ANALYSIS_MAX_NODES,
    timeout: float | None = None,
    estimator: Estimator | None = None,
    bot: str | None = None,
    progress: Callable[[], None] | None = None,
) -> GameAnalysis:
    """Judge every move of a recorded game with the perfect-information solver.

    :param game: the game after its last move; its known deck must cover every
        card placed (a deal or a full deck).  It is not changed.
    :param max_nodes: the solver's node limit for each position (``None``: none);
        a position the solver cannot settle is reported ``unknown``.
    :param timeout: the solver's time limit for each position, in seconds.
    :param estimator: a bot's judgement of each position before a move (for
        example ``lambda g: foursquare.bots.recommend(g.view())``); ``None``: no bot.
        The solver does not import the bots: the caller chooses one.
    :param bot: the bot's name, as the analysis reports it (``default`` when ``None``).
    :param progress: called once per position judged (``len(game.moves) + 1`` of them,
        the start included), for a progress bar.
    :returns: a :class:`GameAnalysis`.
    :raises AnalysisError: (a ``ValueError``) for a game resumed from a position without its moves.
    :raises SolverError: when the solver cannot work on a position (its next card unknown).
    """
    if len(game.moves) != game.placed:
        raise AnalysisError("the game was resumed from a position without its moves; there is nothing to analyze")
    played = list(game.moves)
    replay = Game(game.deck, game.rules, game.deal)
    sols: list[Solution] = []
    ests: list[Sequence[Estimate] | None] = []
    for i in range(len(played) + 1):
        sols.append(_judge(replay, sols[-1] if sols else None, max_nodes, timeout))
        if i < len(played):
            ests.append(estimator(replay) if estimator is not None else None)
            replay.play(played[i].cell)
        if progress is not None:
            progress()
    _close_from_the_end(sols, played)
    # a position is winnable when the game was won, or a later position is solved
    winnable = [False] * len(sols)
    seen = game.status is Status.WON
    for i in range(len(sols) - 1, -1, -1):
        seen = seen or sols[i].status is SOLVED
        winnable[i] = seen
    reports = []
    for i, placement in enumerate(played):
        before, after, estimates = sols[i], sols[i + 1], ests[i]
        bot_cell = bot_chance = played_chance = None
        if estimates:
            best = max(estimates, key=lambda e: (e.win_chance, e.expected_score))
            bot_cell, bot_chance = str(best.cell), best.win_chance
            for e in estimates:
                if e.cell == placement.cell:
                    played_chance = e.win_chance
        reports.append(
            MoveReport(
                number=i + 1,
                card=str(placement.card),
                cell=str(placement.cell),
                before=_outlook(before, winnable[i]),
                after=_outlook(after, winnable[i + 1]),
                best_before=before.score,
                best_after=after.score,
                solver_cell=str(before.moves[0]) if before.moves else None,
                verdict=_verdict(before, after, winnable[i]),
                bot_cell=bot_cell,
                bot_win_chance=bot_chance,
                played_win_chance=played_chance,
                nodes=before.nodes,
            )
        )
    first = sols[0]
    used_bot = any(r.bot_cell is not None for r in reports)
    return GameAnalysis(
        moves=reports,
        start=_outlook(first, winnable[0]),
        best_start=first.score,
        status=game.status.value,
        score=game.score,
        max_nodes=max_nodes,
        bot=(bot or "default") if used_bot else None,
        mistakes=[r for r in reports if r.verdict in ("threw-away-win", "lost-points")],
    )


def _judge(game: Game, parent: Solution | None, max_nodes: int | None, timeout: float | None) -> Solution:
    """The solver's verdict on ``game``, using what was proved for the position before
    its last move (``parent``; ``None`` at the start).

    A move never raises the best score (the position's wins are among its parent's),
    so the parent's bound (:attr:`Solution.max_score`) bounds this position too and
    the budgets beyond it are not searched again; a parent with no win has no winning
    child.  A move that follows the parent's optimal line keeps its score: the rest of
    that line is then an optimal win, with no search at all.
    """
    if parent is None:
        return solve(game, max_nodes=max_nodes, timeout=timeout)
    if parent.status is NO_WIN:
        return Solution(NO_WIN, None, (), 0, 0.0, None)
    last = game.moves[-1].cell
    if parent.status is SOLVED and parent.moves and parent.moves[0] == last:
        return Solution(SOLVED, parent.score, parent.moves[1:], 0, 0.0, parent.score)
    return solve(game, max_nodes=max_nodes, timeout=timeout, score_at_most=parent.max_score)


def _close_from_the_end(sols: list[Solution], played: Sequence[Placement]) -> None:
    """Settle, from the last position back, each ``unknown`` position whose bound its
    next position's proved score reaches (changing ``sols``).

    The move then played, followed by the next position's optimal win, is a win with
    that score, and no win scores more than the bound: so it is optimal.  One settled
    position can settle the one before it in turn.
    """
    for i in range(len(sols) - 2, -1, -1):
        here, child = sols[i], sols[i + 1]
        if here.status is UNKNOWN and child.status is SOLVED and here.max_score == child.score:
            moves = (played[i].cell, *child.moves)
            sols[i] = Solution(SOLVED, child.score, moves, here.nodes, here.seconds, child.score)


__all__ = [
    "ANALYSIS_MAX_NODES",
    "AnalysisError",
    "BatchSummary",
    "DEFAULT_MAX_NODES",
    "GameAnalysis",
    "MoveReport",
    "analyze_game",
    "summarize",
]
