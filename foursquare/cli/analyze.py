"""``foursquare analyze``: where a recorded game went wrong, judged with perfect information.

The solver's judgement (:class:`foursquare.solver.analysis.GameJudge`) runs in this
process; the bot's estimates of each position, on a machine of two cores or more
(``--jobs``), in a second one meanwhile (:func:`foursquare.parallel.in_background`),
and this one helps with them once the solver is done: the same output as asking the
bot in turn, in about the time of the longer of the two.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from ..engine.game import Game
from ..engine.view import PlayerView
from ..errors import Advice, FormatError, PositionError
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import (
    BOT_NAMES,
    DEFAULT_BOT,
    JOBS,
    PATH,
    POSITIVE,
    SECONDS,
    bot_option_needs,
    game_of_options_file,
    game_options,
    game_spec,
)
from .signals import signals_deferred, worker_signals
from .streams import progress_bar
from .style import percent

if TYPE_CHECKING:
    from ..bots import Estimate
    from ..solver.analysis import GameAnalysis, GameJudge


def _outlook(outlook: str, best: int | None, bound: int | None, least: int | None) -> str:
    """A position's outlook as the table shows it: ``win 23``; ``win 21-23`` (winnable,
    as the game shows, the best score between the two); ``no-win``; ``unknown <=23``
    (the limit ran out: no win scores more than 23, as ``solve`` says it)."""
    if best is not None:
        return f"win {best}"
    if outlook == "win":
        if least is not None and bound is not None:
            return f"win {least}-{bound}"
        return "win ?"
    if outlook == "unknown" and bound is not None:
        return f"unknown <={bound}"
    return outlook


def _score_text(best: int | None, bound: int | None, least: int | None) -> str:
    """A best score, or the range it is known to lie in (``21-23``)."""
    if best is not None:
        return str(best)
    if least is not None and bound is not None:
        return f"{least}-{bound}"
    return "?" if bound is None else f"<={bound}"


@click.command(cls=Command, short_help=SHORT_HELP["analyze"])
@click.argument("game_path", metavar="TRANSCRIPT", type=PATH)
@game_options()
@click.option(
    "--max-nodes",
    type=POSITIVE,
    metavar="N",
    help="Solver positions per move before answering 'unknown' (default 2000000).",
)
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Solver time limit per move.")
@click.option("--bot", type=click.Choice(BOT_NAMES), help="The bot to compare with (default: expert).")
@click.option("--no-bot", is_flag=True, help="Do not consult a bot.")
@click.option("--budget", type=SECONDS, metavar="SECONDS", help="The bot's time per move.")
@click.option(
    "--jobs",
    type=JOBS,
    help="Processes: 2 or more (the default on a machine of 2 cores or more) ask the bot in a "
    "second process while the solver works; 1 asks it in turn with the solver.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "yaml"]), default="text", show_default=True)
@command_boundary
def analyze(**options: Any) -> None:
    """For each move of a recorded game (a transcript or a move script with
    --deal/--deck; '-' for stdin): whether a win was still possible with perfect
    information before and after it, the best score from there, the solver's
    cell, and the bot's preferred cell and win chances; then the mistakes.

    'unknown <=N' means the solver's node limit (or --timeout) ran out for that
    position, or the deck given ends before a win could: no win scores more than
    N.  'win A-B': the game itself shows a win from there; its best score is A to
    B.  Ctrl-C prints what was judged so far.  The bot's estimates are the same
    whatever --jobs is.
    """
    o = SimpleNamespace(**options)  # the options as Click reads them
    if o.no_bot and (o.bot is not None or o.budget is not None or o.jobs is not None):
        other = "--bot" if o.bot is not None else "--budget" if o.budget is not None else "--jobs"
        raise click.UsageError("--no-bot cannot be used with " + other)
    bot_option_needs("--budget", o.budget, [o.bot or DEFAULT_BOT], "uses_budget")  # (the default bot takes it)
    game = game_of_options_file(o.game_path, game_spec(o), game_number=o.game_number)
    name = "<stdin>" if o.game_path == "-" else o.game_path
    if len(game.moves) != game.placed:
        raise FormatError(name, None, "a state has no moves to analyze; give a transcript or a move script")
    bot_name = None if o.no_bot else o.bot or DEFAULT_BOT
    # by default, a second process when this one may run on two cores or more
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    beside = bot_name is not None and len(game.moves) > 0 and (o.jobs if o.jobs is not None else cores) >= 2
    from ..solver.analysis import ANALYSIS_MAX_NODES, GameJudge

    # the solver's judge asks the bot itself, unless the bot runs beside it
    estimator = functools.partial(_estimate, bot=bot_name, budget=o.budget) if bot_name is not None and not beside else None
    judge = GameJudge(game, max_nodes=o.max_nodes or ANALYSIS_MAX_NODES, timeout=o.timeout, estimator=estimator, bot=bot_name)
    got = _BotEstimates(len(game.moves)) if beside else None  # the bot's, from the two processes
    try:
        # judge every position, with a progress bar on a terminal; ``got``: the bot's
        # estimates asked in a second process meanwhile
        # a step a position judged, and an estimate a move beside (on a terminal only)
        with progress_bar(None, len(game.moves) * (2 if beside else 1) + 1, "analyzing") as bar:
            if got is None:
                judge.progress = lambda: bar.update(1)
                judge.run()
            else:
                assert bot_name is not None
                _judge_beside_the_bot(judge, bot_name, o.budget, got, bar)
    except PositionError:  # a position of the game has no next card: the stock order is not known
        from ..formats.loading import next_card_unknown

        raise FormatError(
            name, None, "the solver needs the stock order, and " + next_card_unknown(game), advice=Advice.NAME_MORE_CARDS
        ) from None
    except (KeyboardInterrupt, SystemExit):  # Ctrl-C, SIGTERM: what was judged, said to be incomplete
        with signals_deferred(), contextlib.suppress(Exception):  # the interruption is what matters
            result = judge.analysis(None if got is None else got.merged())
            if judge.complete and got is not None and got.missing:  # the solver done, not the bot
                result = dataclasses.replace(result, complete=False)
            _print(result, o.fmt, o.timeout, game, judged=judge.complete)
        raise
    _print(judge.analysis(None if got is None else got.merged()), o.fmt, o.timeout, game)


def _estimate(view: PlayerView | Game, bot: str, budget: float | None) -> list[Estimate]:
    """The bot's estimates of one position (a game: its player's view), whichever process asks."""
    from ..bots import recommend

    return recommend(view, bot=bot, budget=budget, seed=0)


def _estimates(task: tuple[list[PlayerView], str, float | None]) -> Iterator[list[Estimate]]:
    """In the bot's process: its estimates of each view of ``task`` (``(views, bot's
    name, budget)``), in turn from the first."""
    views, bot, budget = task
    for view in views:
        yield _estimate(view, bot, budget)


class _BotEstimates:
    """The bot's estimates of the positions before each move, as they come from the two
    processes: the bot's process's from the first move on (:attr:`early`), and once the
    solver is done, this process's from the last move back (:attr:`late`)."""

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.early: list[list[Estimate]] = []
        self.late: list[list[Estimate]] = []

    @property
    def missing(self) -> int:
        """The moves with no estimate yet."""
        return max(0, self.moves - len(self.early) - len(self.late))

    def merged(self) -> list[list[Estimate] | None]:
        """One per move, in their order (``None``: not come yet)."""
        tail = self.late[::-1][max(0, len(self.early) + len(self.late) - self.moves) :]
        return [*self.early[: self.moves], *([None] * self.missing), *tail]


def _judge_beside_the_bot(judge: GameJudge, bot: str, budget: float | None, got: _BotEstimates, bar: Any) -> None:
    """``judge.run()`` in this process while a second one asks ``bot`` for its estimates
    of the positions before each move, from the first on; once the solver is done, this
    process asks the bot too, from the last move back, until the two meet.  The same
    estimates as the judge's estimator would give (each position's its own); wall time
    on two cores about the longer of the solver's and half the whole, not their sum.

    :param got: filled with the estimates as they come (on Ctrl-C, those that came;
        the bot's process is then killed, as when the two have met).
    :param bar: the progress bar, one step per position judged and per estimate.
    """
    from ..parallel import in_background

    game = judge.game
    replay = Game(game.deck, game.rules, game.deal)
    views = []
    for placement in game.moves:
        views.append(PlayerView.of(replay))
        replay.play(placement.cell)

    with in_background(_estimates, (views, bot, budget), initializer=worker_signals) as stream:

        def came() -> None:  # the estimates that have come from the bot's process
            ready = stream.ready()
            got.early.extend(ready)
            bar.update(len(ready))

        def judged() -> None:  # a position judged
            bar.update(1)
            came()

        try:
            judge.progress = judged
            judge.run()
            while got.missing >= 2:  # the last one missing is the bot's process's, under way
                got.late.append(_estimate(views[got.moves - 1 - len(got.late)], bot, budget))
                bar.update(1)
                came()
            for estimate in stream if got.missing else ():
                got.early.append(estimate)
                bar.update(1)
                if not got.missing:
                    break
        except (KeyboardInterrupt, SystemExit):
            with contextlib.suppress(Exception):  # those already come, before the process is killed
                came()
            raise


def _print(result: GameAnalysis, fmt: str, timeout: float | None, game: Game, judged: bool = True) -> None:
    """The analysis in the format asked for (an interrupted one says so: ``judged``, the
    solver had judged every position, only the bot's estimates were cut short)."""
    if fmt == "json":
        click.echo(json.dumps(result.as_dict(), indent=1))
        return
    if fmt == "yaml":
        from ..formats.yaml import dump  # the one writer of YAML: no string split across lines

        click.echo(dump(result.as_dict()), nl=False)
        return
    _print_table(result, judged)
    # the mistakes found (and why there may be more)
    unknown = sum(m.verdict == "unknown" for m in result.moves)
    # a limit that ran out leaves moves unjudged: the count of mistakes is then a lower bound
    why = "a higher --max-nodes" + (" or --timeout" if timeout is not None else "") + " may find more"
    if len(game.deck) < game.rules.deck_size:
        why += f", unless the deck's {len(game.deck)} cards run out first"
    more = f" ({unknown} move{'s' if unknown != 1 else ''} unknown: {why})" if unknown else ""
    if not result.mistakes:
        click.echo("mistakes: none found" + more)
        return
    click.echo(f"mistakes: {len(result.mistakes)}{more}")
    for m in result.mistakes:
        before = _score_text(m.best_before, m.max_before, m.least_before)
        if m.verdict == "threw-away-win":
            what = "threw the win away" + (f" (best was {before})" if before != "?" else "")
        else:
            what = f"best score {before} -> {_score_text(m.best_after, m.max_after, m.least_after)}"
        click.echo(f"  move {m.number}: {m.card} {m.cell}: {what}" + (f"; the solver plays {m.solver_cell}" if m.solver_cell else ""))


def _print_table(result: GameAnalysis, judged: bool) -> None:
    """A line a move: its card and cell, the outlook before and after, the solver's
    cell (and the bot's), the verdict; then the start and the outcome, what the
    table's ranges mean, and what an interrupted analysis lacks."""
    with_bot = result.bot is not None
    head = f"{'move':>4}  {'card':4} {'cell':4}  {'before':12} {'after':12} {'solver':6}"
    if with_bot:
        head += f"  {'bot':4} {'bot win':>8} {'played':>8}"
    click.echo(head + "  verdict")
    start = _outlook(result.start, result.best_start, result.max_start, result.least_start)
    shown = [start]  # the outlooks shown (of the positions before each move, and after the last)
    for m in result.moves:
        before = _outlook(m.before, m.best_before, m.max_before, m.least_before)
        after = _outlook(m.after, m.best_after, m.max_after, m.least_after)
        shown.append(before)
        line = f"{m.number:>4}  {m.card:4} {m.cell:4}  {before:12} {after:12} {m.solver_cell or '-':6}"
        if with_bot:
            line += f"  {m.bot_cell or '-':4} {percent(m.bot_win_chance):>8} {percent(m.played_win_chance):>8}"
        click.echo(line + f"  {m.verdict}")
    if result.moves:
        shown.append(after)
    click.echo(f"start: {start}; outcome: " + (f"won, score {result.score}" if result.status == "won" else result.status))
    if any(s.startswith("unknown <=") for s in shown):
        click.echo("unknown <=N: the limit ran out; no win scores more than N")
    if any(s.startswith("win ") and "-" in s for s in shown):
        click.echo("win A-B: winnable (the game itself shows a win scoring A); no win scores more than B")
    if not result.complete and not judged:
        click.echo(
            f"interrupted: the analysis is incomplete: {len(result.moves)} of {result.moves_played} "
            "moves judged, and the search for the unknown ones was cut short"
        )
    elif not result.complete:  # the solver done, the bot (in a process of its own) not
        missing = sum(m.bot_cell is None for m in result.moves)
        click.echo(
            f"interrupted: the analysis is incomplete: all {len(result.moves)} moves judged, the bot's "
            f"estimates of {missing} of them missing ('-')"
        )

