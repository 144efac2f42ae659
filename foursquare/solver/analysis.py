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

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..engine.game import Game, Placement, Status
from ..engine.layout import Cell
from ..engine.rules import STANDARD, Rules
from ..errors import ArgumentError
from ..figures import Distribution, wilson_interval
from .search import DEFAULT_MAX_NODES, NO_WIN, SOLVED, UNKNOWN, Solution, solve

#: Default node limit per position in :func:`analyze_game`: half a solve's
#: (:data:`~foursquare.solver.solution.DEFAULT_MAX_NODES`); most positions of a game
#: need far fewer, and those after a settled one are bounded by it.
ANALYSIS_MAX_NODES = 2_000_000
#: The share of the node limit each position gets in the first pass of
#: :class:`GameJudge` (the rest is for the second pass, with what later positions proved).
FIRST_PASS_SHARE = 0.01


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


class BatchTally:
    """The figures of many deals' solutions, added one at a time, in memory that does
    not grow with their number (counts, the scores' histogram, and
    :class:`~foursquare.figures.Distribution` for the seconds and nodes): what
    :func:`summarize` gives of a list, for a sweep of any
    length.

    >>> tally = BatchTally()
    >>> tally.add(Solution(SOLVED, 20, (), 50, 0.5, 20)); tally.add(Solution(UNKNOWN, None, (), 10, 1.5, 24))
    >>> tally.deals, tally.settled, tally.summary().scores
    (2, 1, {20: 1})
    """

    def __init__(self) -> None:
        self.deals = 0
        self.outcomes: Counter[object] = Counter()
        self.scores: Counter[int] = Counter()
        self.seconds = Distribution()
        self.nodes = Distribution()

    def add(self, sol: Solution) -> None:
        """Count one deal's solution."""
        self.deals += 1
        self.outcomes[sol.status] += 1
        if sol.status is SOLVED and sol.score is not None:
            self.scores[sol.score] += 1
        self.seconds.add(sol.seconds)
        self.nodes.add(sol.nodes)

    @property
    def settled(self) -> int:
        """The deals solved or proved to have no win."""
        return self.outcomes[SOLVED] + self.outcomes[NO_WIN]

    def summary(self) -> BatchSummary:
        """The figures so far (:class:`BatchSummary`)."""
        solved, settled = self.outcomes[SOLVED], self.settled
        return BatchSummary(
            deals=self.deals,
            solved=solved,
            no_win=self.outcomes[NO_WIN],
            unknown=self.outcomes[UNKNOWN],
            winnable=solved / settled if settled else None,
            interval=wilson_interval(solved, settled),
            scores=dict(sorted(self.scores.items(), reverse=True)),
            median_seconds=self.seconds.median() or 0.0,
            worst_seconds=self.seconds.largest if self.seconds.largest is not None else 0.0,
            median_nodes=self.nodes.median() or 0,
            worst_nodes=int(self.nodes.largest or 0),
            total_nodes=int(self.nodes.total),
        )


def summarize(solutions: Iterable[Solution]) -> BatchSummary:
    """Figures over the solutions of many deals (see :class:`BatchSummary`), read one
    at a time (:class:`BatchTally`)."""
    tally = BatchTally()
    for sol in solutions:
        tally.add(sol)
    return tally.summary()


# ------------------------------------------------------------ recorded games


def _outlook(sol: Solution, winnable: bool = False) -> str:
    """``win`` (a win is still possible), ``no-win`` (proved), ``unknown``.

    :param winnable: the game itself shows a win from this position (it was won
        later, or a later position of it is solved): ``win`` even when the solver's
        limit ran out here (the best score then stays unknown).
    """
    return "win" if winnable and sol.status is UNKNOWN else {SOLVED: "win", NO_WIN: "no-win", UNKNOWN: "unknown"}[sol.status]


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
    :ivar nodes: solver positions searched for the position before the move.
    :ivar max_before, max_after: the highest score not ruled out (as
        :attr:`Solution.max_score`): the best score when it is known, ``None`` with no
        win, and for ``unknown`` a bound (no win scores more).
    :ivar least_before, least_after: the score of a win known from the game itself
        (a later position solved, or the game won): the best score is at least this;
        ``None`` when no such win is known.
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
    max_before: int | None = None
    max_after: int | None = None
    least_before: int | None = None
    least_after: int | None = None

    def as_dict(self) -> dict[str, object]:
        """Plain values for JSON/YAML."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class GameAnalysis:
    """A recorded game judged move by move.

    :ivar moves: one :class:`MoveReport` per move (per move judged, when not ``complete``).
    :ivar start: the outlook at the start (``win``/``no-win``/``unknown``) and
        :ivar best_start: the best score there, :ivar max_start: the highest not ruled
        out, :ivar least_start: the score of a win the game itself shows (as
        :class:`MoveReport`'s ``best_before``, ``max_before``, ``least_before``).
    :ivar status, score: the game's outcome.
    :ivar mistakes: the reports whose verdict is ``threw-away-win`` or ``lost-points``.
    :ivar max_nodes: the node limit per position.
    :ivar bot: the bot's name, or ``None`` when no bot was consulted.
    :ivar deal: the game's deal number (``None``: a deck of its own).
    :ivar rules: its rule set.
    :ivar complete: every position judged (false: the work was interrupted, and
        ``moves`` holds the moves judged so far, ``moves_played`` of them in the game).
    """

    moves: list[MoveReport]
    start: str
    best_start: int | None
    status: str
    score: int | None
    max_nodes: int | None
    bot: str | None = None
    mistakes: list[MoveReport] = field(default_factory=list)
    max_start: int | None = None
    least_start: int | None = None
    deal: int | None = None
    rules: Rules = STANDARD
    complete: bool = True
    moves_played: int = 0

    def as_dict(self) -> dict[str, object]:
        """Plain values for JSON/YAML (the rules as a preset name or their parameters,
        as transcripts write them)."""
        from ..formats.schema import rules_value

        return {
            "deal": self.deal,
            "rules": rules_value(self.rules),
            "start": self.start,
            "best_start": self.best_start,
            "max_start": self.max_start,
            "least_start": self.least_start,
            "status": self.status,
            "score": self.score,
            "max_nodes": self.max_nodes,
            "bot": self.bot,
            "complete": self.complete,
            "moves_played": self.moves_played,
            "moves": [m.as_dict() for m in self.moves],
            "mistakes": [m.number for m in self.mistakes],
        }


def _verdict(before: Solution, after: Solution, least_before: int | None) -> str:
    """A move's verdict from what is known of the positions before and after it
    (``least_before``: the score of a win from before it that the game shows)."""
    if before.status is NO_WIN:
        return "ok"  # nothing left to lose
    if after.status is NO_WIN:  # thrown away if a win was known before it
        return "threw-away-win" if before.status is SOLVED or least_before is not None else "unknown"
    low = before.score if before.status is SOLVED else least_before
    if low is not None and after.max_score is not None and after.max_score < low:  # (the best score after it is at most that)
        return "lost-points"  # even at their bounds, the move cost points
    if before.status is SOLVED and after.status is SOLVED:
        return "ok"  # the same score
    return "unknown"


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
    :param bot: the bot's name, as the analysis reports it (``None``: no name).
    :param progress: called once per position judged (``len(game.moves) + 1`` of them,
        the start included), for a progress bar.
    :returns: a :class:`GameAnalysis`.
    :raises ArgumentError: (a ``ValueError``) for a game resumed from a position without its moves.
    :raises PositionError: when the solver cannot work on a position (its next card unknown).

    To keep what was judged when the work is cut short (Ctrl-C), use :class:`GameJudge`
    and its :meth:`~GameJudge.analysis` instead.
    """
    judge = GameJudge(game, max_nodes=max_nodes, timeout=timeout, estimator=estimator, bot=bot, progress=progress)
    judge.run()
    return judge.analysis()


class GameJudge:
    """The solver's verdicts on every position of a recorded game, as far as they go.

    :func:`analyze_game` is :meth:`run` then :meth:`analysis`; a caller that may be
    interrupted (Ctrl-C) keeps the judge, so that :meth:`analysis` can still say what
    was judged (``complete`` false).  Parameters as :func:`analyze_game`'s, and
    ``first_share``: the share of the limit each position gets in the first pass
    (:data:`FIRST_PASS_SHARE`; ``1.0`` leaves nothing for the questions: the single
    pass of earlier versions).  The limits (``max_nodes``, ``timeout``) hold for each
    position over all its searches.

    How the positions are judged (every verdict is what a separate solve with no limit
    would give, the limit only leaving more positions ``unknown``):

    1. *First pass*, from the start: each position gets :data:`FIRST_PASS_SHARE` of
       the limit, bounded by the position before it (a move never raises the best
       score: :func:`solve`'s ``score_at_most``); a move along the solver's line keeps
       its score with no search, and after a position with no win there is none.
    2. What the positions prove of one another settles more of them with no search
       (:meth:`_settle`): a position scores at least what the one after it scores (the
       move played, then that position's best win), so an ``unknown`` whose bound a
       later position's proved score reaches is settled at that score.
    3. *Questions*, for the positions still ``unknown``, with the rest of their limit:
       "does a win from position ``i`` score ``H``", its highest score not ruled out
       (:meth:`_ask`: the deck cut after the ``40 - H`` cards such a win uses, the
       scores above ``H`` not searched again).  A yes settles it, and with step 2 the
       positions before it that have the same bound; a no lowers its bound, and those of
       the positions after it.  Which position to ask about is chosen so that one
       answer settles many (:meth:`_question`): the later positions first (they have
       fewer cards to go, and what they prove bounds the earlier ones from below).
    """

    def __init__(
        self,
        game: Game,
        *,
        max_nodes: int | None = ANALYSIS_MAX_NODES,
        timeout: float | None = None,
        estimator: Estimator | None = None,
        bot: str | None = None,
        progress: Callable[[], None] | None = None,
        first_share: float = FIRST_PASS_SHARE,
    ) -> None:
        if len(game.moves) != game.placed:
            raise ArgumentError("the game was resumed from a position without its moves; there is nothing to analyze")
        self.game = game
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.estimator = estimator
        self.bot = bot
        self.progress = progress
        self.first_share = first_share
        self.played: list[Placement] = list(game.moves)
        n = len(self.played) + 1
        #: the verdict on each position so far (``None``: not yet looked at)
        self.sols: list[Solution | None] = [None] * n
        #: solver positions searched for each position, over both passes
        self.nodes = [0] * n
        self.seconds = [0.0] * n
        self.estimates: list[Sequence[Estimate] | None] = []
        self.complete = False
        self._spent = [False] * n  # the position's limit is used up
        self._asked: set[tuple[int, int]] = set()  # the questions answered (see _question)
        self._reported = 0

    # ------------------------------------------------------------ the passes

    def run(self) -> None:
        """Judge every position (the first pass, then the rounds of questions);
        :meth:`analysis` then says what was found."""
        game, played = self.game, self.played
        replay = Game(game.deck, game.rules, game.deal)
        limit = ANALYSIS_MAX_NODES if self.max_nodes is None else self.max_nodes
        first = max(1, int(limit * self.first_share))
        for i in range(len(played) + 1):
            parent = self.sols[i - 1] if i else None  # the verdict before the last move
            # no search after a position with no win, nor along an optimal win's line: _settle,
            # below, draws the verdict from the parent's (no win; the rest of that line)
            self._record(i, Solution(UNKNOWN, None, (), 0, 0.0, parent.max_score)
                if parent is not None and (parent.status is NO_WIN or parent.moves[:1] == (played[i - 1].cell,))
                else solve(replay, max_nodes=first, timeout=self.timeout, score_at_most=None if parent is None else parent.max_score))
            if i < len(played):
                self.estimates.append(self.estimator(replay) if self.estimator is not None else None)
                replay.play(played[i].cell)
            self._settle(through=i)
            self._report()
        # then ask questions (:meth:`_question`) until every position is settled or has used up
        # its limit; it ends with every verdict settled, as the last position's pass does
        while first < limit or self.max_nodes is None:
            self._settle()
            question = self._question()
            if question is None:
                break
            i, score = question
            left_nodes = None if self.max_nodes is None else self.max_nodes - self.nodes[i]
            left_time = None if self.timeout is None else self.timeout - self.seconds[i]
            if (left_nodes is not None and left_nodes <= 0) or (left_time is not None and left_time <= 0):
                self._spent[i] = True
                continue
            if self._ask(i, score, left_nodes, left_time).status is UNKNOWN:
                self._spent[i] = True  # its limit ran out
            self._asked.add(question)
            self._report()
        self.complete = True
        self._report()

    def _question(self) -> tuple[int, int] | None:
        """The next question: ``(i, score)``, whether a win from position ``i`` scores
        ``score``, the highest score not ruled out there; ``None`` when no position
        is left to ask about.

        The positions still ``unknown`` make runs of consecutive positions with the same
        bound ``H``; along a run, "a win scoring ``H``" holds up to some position and
        not after it (the best score never rises), so a yes settles the position and
        those before it in the run, a no bounds it and those after it below ``H``.  The
        latest run first (its searches are the shortest, and what they prove bounds the
        runs before it); in a run, the first position when the game shows a win scoring
        ``H - 1`` (a no then settles the whole run) and the run does not start after a
        yes, else the middle one.
        """
        runs: list[tuple[int, int, int]] = []  # (first, last, bound), in order
        for i, sol in enumerate(self.sols):
            if sol is None or sol.status is not UNKNOWN or sol.max_score is None or self._spent[i]:
                continue
            if self.game.rules.deck_size - sol.max_score > len(self.game.deck):
                continue  # the known cards cannot tell: a win scoring this needs cards beyond them
            # a run grows by a position next to its last with the same bound
            first = runs.pop()[0] if runs and runs[-1][1] == i - 1 and runs[-1][2] == sol.max_score else i
            runs.append((first, i, sol.max_score))
        if not runs:
            return None
        a, b, score = runs[-1]
        # the best score of the first solved position after the run: a win from the run scoring it is known
        known = next((s.score for s in self.sols[b + 1 :] if s is not None and s.status is SOLVED), None)
        return (a if known == score - 1 and (a - 1, score) not in self._asked else (a + b + 1) // 2), score

    def _ask(self, i: int, score: int, max_nodes: int | None, timeout: float | None) -> Solution:
        """Search whether a win from position ``i`` (``unknown``, no win scoring more than
        ``score`` there) scores ``score``: the deck cut after the cards it uses, the
        budgets below it not searched.  Keeps the answer: solved, or the bound one lower
        (no win left: ``no-win``), or the same ``unknown``; returns the search's result."""
        game = self.game
        rules = game.rules
        cut = rules.deck_size - score  # the cards such a win uses
        if cut <= i:  # it would be won already
            found = Solution(NO_WIN, None, (), 0, 0.0, None)
        else:
            position = Game(game.deck[:cut], rules, game.deal)  # the position before move i + 1, the deck cut
            for placement in self.played[:i]:
                position.play(placement.cell)
            found = solve(position, max_nodes=max_nodes, timeout=timeout, score_at_most=score, within_known_cards=True)
        if found.status is NO_WIN:  # the bound one lower, unless it is the lowest score a win could have:
            # 0 (the whole deck used), or what is left when the grid runs out of room (RULES.md §5 point 4)
            lowest = rules.deck_size - rules.room if rules.can_run_out_of_room else 0
            self._record(
                i, Solution(UNKNOWN, None, (), 0, 0.0, score - 1) if score > lowest else Solution(NO_WIN, None, (), 0, 0.0, None), found
            )
        else:  # solved: kept; unknown: the verdict so far stays
            self._record(i, found if found.status is SOLVED else self.sols[i] or found, found)
        return found

    # ------------------------------------------------- what the positions prove

    def _settle(self, through: int | None = None) -> None:
        """Settle with no search what the verdicts so far prove, over the positions up to
        ``through`` (``None``: all):

        - forward: after a position with no win there is none; a move along a solved
          position's line keeps its score; an ``unknown`` position's bound is at most
          its parent's (a move never raises the best score);
        - backward: an ``unknown`` position whose bound the next one's proved score
          reaches is solved with that score (the move played, then that win).
        """
        last = len(self.sols) - 1 if through is None else through
        sols, played = self.sols, self.played
        changed = True
        while changed:
            changed = False
            for i in range(1, last + 1):
                parent, here = sols[i - 1], sols[i]
                assert parent is not None and here is not None
                new = here
                if parent.status is NO_WIN:
                    if here.status is not NO_WIN:
                        new = Solution(NO_WIN, None, (), 0, 0.0, None)
                elif here.status is UNKNOWN and parent.status is SOLVED and parent.moves[:1] == (played[i - 1].cell,):
                    new = Solution(SOLVED, parent.score, parent.moves[1:], 0, 0.0, parent.score)
                elif here.status is UNKNOWN and parent.max_score is not None and (
                    here.max_score is None or parent.max_score < here.max_score
                ):
                    new = Solution(UNKNOWN, None, (), 0, 0.0, parent.max_score, unknown_cards=here.unknown_cards)
                if new is not here:
                    self._record(i, new)
                    changed = True
            for i in range(last - 1, -1, -1):
                here, child = sols[i], sols[i + 1]
                assert here is not None and child is not None
                if here.status is UNKNOWN and child.status is SOLVED and here.max_score == child.score:
                    # the move played, then the child's optimal win (nothing scores more)
                    self._record(i, Solution(SOLVED, child.score, (played[i].cell, *child.moves), 0, 0.0, child.score))
                    changed = True

    def _record(self, i: int, sol: Solution, searched: Solution | None = None) -> None:
        """Keep ``sol`` as position ``i``'s verdict, counting the nodes and seconds of
        the search that gave it (``searched``: that search's result, when ``sol`` is
        drawn from it)."""
        work = sol if searched is None else searched
        self.nodes[i] += work.nodes
        self.seconds[i] += work.seconds
        self.sols[i] = sol

    def _report(self) -> None:
        """Call :attr:`progress` once for each position newly judged for good: settled,
        or searched for the last time."""
        if self.progress is None:
            return
        done = len(self.sols) if self.complete else sum(s is not None and s.status is not UNKNOWN for s in self.sols)
        while self._reported < done:
            self._reported += 1
            self.progress()

    # ------------------------------------------------------------ the result

    def analysis(self, estimates: Sequence[Sequence[Estimate] | None] | None = None) -> GameAnalysis:
        """What was judged: every move once :meth:`run` has finished (``complete``),
        else the moves whose positions before and after were both looked at, with the
        verdicts so far.

        :param estimates: the bot's judgement of the positions before the first moves,
            made elsewhere (another process, while :meth:`run` ran with no estimator),
            in the order of the moves, as many as there are; ``None``: the estimator's.
        """
        played, game = self.played, self.game
        estimates = self.estimates if estimates is None else estimates
        sols = [s for s in self.sols if s is not None]
        # the best score of a position is at least that of any later one: the game's,
        # when it was won, and a solved position's
        least: list[int | None] = [None] * len(sols)
        known = game.score if game.status is Status.WON else None
        for i in range(len(sols) - 1, -1, -1):
            if sols[i].status is SOLVED:
                known = sols[i].score
            least[i] = known
        reports = []
        for i, placement in enumerate(played[: max(0, len(sols) - 1)]):
            before, after = sols[i], sols[i + 1]
            estimate = estimates[i] if i < len(estimates) else None
            best = max(estimate, key=lambda e: (e.win_chance, e.expected_score)) if estimate else None
            reports.append(
                MoveReport(
                    number=i + 1,
                    card=str(placement.card),
                    cell=str(placement.cell),
                    before=_outlook(before, least[i] is not None),
                    after=_outlook(after, least[i + 1] is not None),
                    best_before=before.score,
                    best_after=after.score,
                    solver_cell=str(before.moves[0]) if before.moves else None,
                    verdict=_verdict(before, after, least[i]),
                    bot_cell=None if best is None else str(best.cell),
                    bot_win_chance=None if best is None else best.win_chance,
                    played_win_chance=next((e.win_chance for e in estimate or () if e.cell == placement.cell), None),
                    nodes=self.nodes[i],
                    max_before=before.max_score,
                    max_after=after.max_score,
                    least_before=least[i],
                    least_after=least[i + 1],
                )
            )
        first = sols[0] if sols else None
        return GameAnalysis(
            moves=reports,
            start=UNKNOWN.value if first is None else _outlook(first, least[0] is not None),
            best_start=None if first is None else first.score,
            status=game.status.value,
            score=game.score,
            max_nodes=self.max_nodes,
            bot=self.bot if any(r.bot_cell is not None for r in reports) else None,
            mistakes=[r for r in reports if r.verdict in ("threw-away-win", "lost-points")],
            max_start=None if first is None else first.max_score,
            least_start=least[0] if least else None,
            deal=game.deal,
            rules=game.rules,
            complete=self.complete,
            moves_played=len(played),
        )


__all__ = [
    "ANALYSIS_MAX_NODES",
    "BatchSummary",
    "BatchTally",
    "DEFAULT_MAX_NODES",
    "GameAnalysis",
    "GameJudge",
    "MoveReport",
    "analyze_game",
    "summarize",
]
