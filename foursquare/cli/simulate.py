"""``foursquare simulate``: a bot (or two, paired) over a range of numbered deals."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import IO, TYPE_CHECKING

import click

from ..app.sweep import (
    RESUME_HELP,
    SCHEDULER_HELP,
    RowWriter,
    check_sweep_options,
    int_or_none,
    limit_text,
    open_cluster,
    resume_csv,
    resumed_notice,
    rules_text,
)
from ..errors import FoursquareError
from ..formats.rulesfile import rules_value
from ..stats import human_seconds
from . import SHORT_HELP
from .boundary import Command, check_output_file, command_boundary, open_output_file, refuse_standard_output
from .files import refuse_output_over_input
from .games import load_rules_option
from .options import (
    BOT_NAMES,
    DEFAULT_BOT,
    JOBS,
    NATURAL,
    PATH,
    POSITIVE,
    RULES_SPEC,
    SECONDS,
    bot_option_needs,
    deal_range,
    given_on_the_command_line,
    option_needs,
)
from .signals import signals_deferred, worker_signals
from .streams import ReaderGone, stdout_reader_gone

if TYPE_CHECKING:
    from ..bots.simulate import DealTally, GameResult, PairedDifference, Summary
    from ..cluster import Cluster
    from ..engine.rules import Rules

FORMATS = ["text", "json", "markdown"]
#: The markdown table's header (one row per bot follows).
TABLE_HEADER = (
    "| bot | deals | games | win rate (95% CI) | mean score (sd) | mean winning score | median ms/move | worst ms/move |\n"
    "|---|---|---|---|---|---|---|---|"
)
#: The columns of the ``--output`` CSV: a game's result (:meth:`GameResult.row`) ...
RESULT_FIELDS = ["bot", "deal", "status", "reason", "score", "moves", "seconds", "slowest_move_seconds"]
#: ... then the settings that shape it (cli/sweep.py), with the options that set them.
SETTING_FIELDS = {"seed": "--seed", "nodes": "--nodes", "budget": "--budget", "rules": "--rules"}
#: All the columns.
CSV_FIELDS = RESULT_FIELDS + list(SETTING_FIELDS)



def _deals_text(deals: range) -> str:
    return f"{deals.start}-{deals.stop - 1}" if len(deals) > 1 else str(deals.start)


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _ms(s: float | None) -> str:
    return "-" if s is None else f"{1000 * s:.2f}"


def _histogram(summary: Summary, width: int = 40) -> list[str]:
    """A text histogram: one bar per score of the wins, one for the losses."""
    rows = [(f"{score:>4}", n) for score, n in summary.scores.items()]
    lost = summary.games - summary.wins
    if lost:
        rows.append(("lost", lost))
    top = max((n for _, n in rows), default=1)
    return [f"  {label} | {'#' * max(1, round(width * n / top))} {n}" for label, n in rows]


def _text(summary: Summary, deals: range) -> list[str]:
    lo, hi = summary.win_interval
    slo, shi = summary.score_interval
    lines = [
        f"{summary.bot} on deals {_deals_text(deals)}: {summary.games} game{'' if summary.games == 1 else 's'}",
        f"  wins {summary.wins}, win rate {_pct(summary.win_rate)} (95% CI {_pct(lo)} to {_pct(hi)})",
        f"  mean score {summary.mean_score:.2f} (losses count 0; sd {summary.score_sd:.2f}, "
        f"95% CI {slo:.2f} to {shi:.2f}, normal approximation)",
    ]
    if summary.mean_winning_score is not None:
        lines.append(f"  mean winning score {summary.mean_winning_score:.2f}")
    if summary.losses:
        from ..engine.outcome import reason_words

        lines.append("  losses: " + ", ".join(f"{reason_words(reason)} ({n})" for reason, n in summary.losses.items()))
    lines.append(
        f"  median {human_seconds(summary.median_move_seconds)} per move, worst {human_seconds(summary.worst_move_seconds)}"
        f" ({summary.moves} moves)"
    )
    lines.append("  scores:")
    lines += _histogram(summary)
    return lines


def _paired_text(d: PairedDifference, a: str, b: str) -> list[str]:
    """The paired comparison (A minus B), as text lines (also under a markdown table)."""
    return [
        f"{a} minus {b}, paired over {d.games} deal{'' if d.games == 1 else 's'} (95% CI, normal approximation):",
        f"  score {d.score:+.2f} ({d.score_interval[0]:+.2f} to {d.score_interval[1]:+.2f})",
        f"  win rate {100 * d.win:+.1f} points ({100 * d.win_interval[0]:+.1f} to {100 * d.win_interval[1]:+.1f}); "
        f"won by {a} only {d.only_a}, by {b} only {d.only_b}",
    ]


def _row(summary: Summary, deals: range) -> str:
    lo, hi = summary.win_interval
    winning = "-" if summary.mean_winning_score is None else f"{summary.mean_winning_score:.2f}"
    return (
        f"| {summary.bot} | {_deals_text(deals)} | {summary.games} | {_pct(summary.win_rate)} "
        f"({_pct(lo)}–{_pct(hi)}) | {summary.mean_score:.2f} ({summary.score_sd:.2f}) | {winning} "
        f"| {_ms(summary.median_move_seconds)} | {_ms(summary.worst_move_seconds)} |"
    )


def _stdout() -> AbstractContextManager[IO[str]]:
    """Standard output for ``--output -`` (not closed afterwards)."""
    import contextlib

    return contextlib.nullcontext(sys.stdout)


def _play(
    names: Sequence[str],
    deals: range,
    seed: int,
    rules: Rules,
    budget: float | None,
    nodes: int | None,
    jobs: int,
    progress: Callable[[GameResult], None],
    tally: DealTally,
    results_to_stdout: bool = False,
    cluster: Cluster | None = None,
) -> None:
    """:func:`foursquare.bots.simulate.play_deals`: every bot plays a deal before the
    next one starts (so that a stopped run can still compare them), counted in
    ``tally`` (kept when the run is stopped); ``progress`` is called on each result
    (to write its row) once every bot has played its deal and the deals before it,
    and the deal is counted once its rows are written, so that the results counted
    (and the CSV rows) always cover whole deals.  The workers take one game at a
    time, so that the first results come at once however long the range; stopping
    (Ctrl-C, SIGTERM) stops the workers.  ``cluster``: the games are played on that
    Dask cluster."""
    from ..bots.simulate import play_deals

    stream = play_deals(
        names, deals, seed=seed, rules=rules, budget=budget, nodes=nodes, jobs=jobs, initializer=worker_signals,
        mapper=cluster.map if cluster is not None else None,
    )  # a bad bot fails here, before any game
    deal: list[GameResult] = []  # the results of one deal, kept until every bot has played it
    for result in stream:
        deal.append(result)
        if len(deal) == len(names):
            with signals_deferred():  # a deal is written and counted whole, even at Ctrl-C
                try:
                    for game in deal:
                        progress(game)  # (a write that fails leaves the deal out: the file has it not whole)
                finally:
                    # | head: nobody reads the rows any more; this deal's rows went into the
                    # gone reader (the guard saw it gone during their writes): they reached
                    # nobody, so the summary leaves the deal out and covers only the deals
                    # whose rows the reader got
                    gone = results_to_stdout and stdout_reader_gone()
                if not gone:
                    tally.add(deal)
            deal = []
            if gone:
                raise ReaderGone


@click.command(cls=Command, short_help=SHORT_HELP["simulate"])
@click.option(
    "--bot",
    "bots",
    multiple=True,
    default=[DEFAULT_BOT],
    show_default=True,
    type=click.Choice(BOT_NAMES),
    help="The bot to play (repeat for several, one after the other).",
)
@click.option(
    "--vs",
    type=click.Choice(BOT_NAMES),
    help="A second bot on the same deals; adds the paired difference (first bot minus this one).",
)
@click.option(
    "--deals", "deals", required=True, metavar="A-B", callback=deal_range, help="The deal numbers, A to B inclusive."
)
@click.option("--jobs", type=JOBS, default=1, show_default=True, help="Worker processes.")
@click.option("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option(
    "--seed", type=NATURAL, default=0, show_default=True, help="Seed of the bots' random choices."
)
@click.option(
    "--nodes",
    "--samples",
    "nodes",
    type=POSITIVE,
    help="Fixed work per move for the search bot 'deep': the most positions it may examine "
    "(reproducible; default 600000).",
)
@click.option(
    "--budget",
    type=SECONDS,
    metavar="SECONDS",
    help="Time limit per move (default none: results then depend on the machine; prefer --nodes).",
)
@click.option("--rules", "rules_spec", metavar="NAME|FILE", type=RULES_SPEC, help="Rule set (default standard).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Output format.")
@click.option("--output", "output", type=PATH, metavar="FILE.csv", help="Also write one CSV row per game.")
@click.option("--force", is_flag=True, help="Write --output over a file that holds something.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@command_boundary
def simulate(
    bots: tuple[str, ...],
    vs: str | None,
    deals: range,
    jobs: int,
    scheduler: str | None,
    seed: int,
    nodes: int | None,
    budget: float | None,
    rules_spec: str | None,
    fmt: str,
    output: str | None,
    force: bool,
    resume: bool,
) -> None:
    """Play every deal in the range with a bot and report games, wins, the win
    rate with its 95% Wilson interval, the mean score (losses count 0) with its
    spread, loss reasons, a histogram of scores and the median seconds per move.

    The same deals and seed give the same games whatever --jobs is, and on a
    Dask cluster (--scheduler).  --output FILE.csv --resume continues an
    interrupted run.  The bots see only what a player sees (RULES.md section 6).
    """
    from ..bots.simulate import DealTally
    from ..engine.rules import STANDARD

    rules = load_rules_option(rules_spec) or STANDARD
    names = list(dict.fromkeys(bots))
    if len(names) < len(bots):
        twice = next(name for name in names if bots.count(name) > 1)
        raise click.UsageError(f"--bot {twice} is given more than once: each bot plays the deals once")
    if vs is not None:
        if len(names) != 1:
            raise click.UsageError("--vs compares exactly one --bot with another")
        if vs == names[0]:
            raise click.UsageError(f"--vs {vs}: compare {vs} with another bot")
        names.append(vs)
    bot_option_needs("--nodes", nodes, names, "uses_nodes")
    bot_option_needs("--budget", budget, names, "uses_budget")
    # Open the CSV file first: an unwritable path fails before the games are played.
    # Its header is written at once and each row as its game finishes (flushed),
    # so that an interrupted run keeps every game played.
    csv_file: AbstractContextManager[IO[str]] | None = None
    option_needs("--force", force, "--output", output)
    refuse_output_over_input("--output", output, {"--rules": rules_spec})
    option_needs("--resume", resume, "--output", output)
    check_sweep_options(scheduler, given_on_the_command_line("jobs"), resume, output, force)
    refuse_standard_output(
        "--output", output, "the summary", "give --output - for the CSV alone on stdout (the summary then goes to stderr)"
    )
    settings = {"seed": str(seed), "nodes": limit_text(nodes), "budget": limit_text(budget), "rules": rules_text(rules)}
    if not resume:
        check_output_file(output, force)
    cluster = open_cluster(scheduler) if scheduler is not None else None  # before the file: an unreachable one leaves it
    tally = DealTally(names, rules.deck_size - rules.size * rules.size, paired=vs is not None)  # (never a list of the games)
    todo = deals
    try:
        if output is not None and resume:
            resumed = resume_csv(
                output, CSV_FIELDS,
                [(column, option, settings[column]) for column, option in SETTING_FIELDS.items()], deals, _game,
                tally.add, names,
            )
            csv_file = resumed.stream  # (a file: closed on leaving the with)
            todo = deals[resumed.rows // len(names):]
            if resumed.rows:
                resumed_notice(output, resumed.rows, len(deals) * len(names), "games")
        elif output is not None:
            csv_file = open_output_file(output, force) if output != "-" else _stdout()
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    try:
        with cluster if cluster is not None else contextlib.nullcontext(), csv_file if csv_file is not None else _stdout() as out:
            writer: RowWriter | None = None
            if csv_file is not None:
                assert output is not None
                writer = RowWriter(out, output)
                if not resume:
                    writer.write(CSV_FIELDS)

            def write_row(result: GameResult) -> None:
                if writer is not None:
                    row = result.row() | settings
                    writer.write([row[name] for name in CSV_FIELDS])

            label = f"{' vs '.join(names)} on deals {_deals_text(deals)}"
            if sys.stderr.isatty():
                with click.progressbar(length=len(todo) * len(names), label=label, file=sys.stderr) as bar:

                    def progress(r: GameResult) -> None:
                        write_row(r)
                        bar.update(1)

                    _play(names, todo, seed, rules, budget, nodes, jobs, progress, tally, output == "-", cluster)
            else:
                _play(names, todo, seed, rules, budget, nodes, jobs, write_row, tally, output == "-", cluster)
    except ReaderGone:  # the summary of what was played (on stderr with --output -), status 0
        _summary(fmt, rules, deals, seed, names, tally, vs, output, interrupted=True)
        return
    except (KeyboardInterrupt, SystemExit, FoursquareError, OSError, MemoryError) as exc:
        # Ctrl-C, SIGTERM, a worker gone, a failed write (or the last flush on closing), out of memory:
        # the summary of the games played, then the exit
        with contextlib.suppress(Exception):  # the interruption is what matters
            _summary(fmt, rules, deals, seed, names, tally, vs, output, interrupted=True)
        if isinstance(exc, OSError) and exc.filename is None and output is not None:  # name the file written
            raise OSError(exc.errno, exc.strerror, output if output != "-" else "<stdout>") from None
        raise
    _summary(fmt, rules, deals, seed, names, tally, vs, output)


def _game(row: dict[str, str]) -> GameResult:
    """A game as its CSV row gives it back, for the summary of a resumed run.  The row
    has the game's total time and its slowest move only: that move keeps its time and
    each other move counts at the mean of the rest (so the summary counts every move,
    its worst move time is exact, and its median time per move mixes these means with
    the times measured by this run)."""
    from ..bots.simulate import GameResult

    if row["status"] not in ("won", "lost"):
        raise ValueError(f"status {row['status']!r}")
    moves, seconds, slowest = int(row["moves"]), float(row["seconds"]), float(row["slowest_move_seconds"])
    if not 0 <= slowest <= seconds + 1e-6:
        raise ValueError(f"slowest move {slowest} s in a game of {seconds} s")
    times = (slowest,) + ((max(seconds - slowest, 0.0) / (moves - 1),) * (moves - 1)) if moves else ()
    return GameResult(row["bot"], int(row["deal"]), row["status"], row["reason"] or None, int_or_none(row["score"]), moves, times)


def _summary(
    fmt: str,
    rules: Rules,
    deals: range,
    seed: int,
    names: Sequence[str],
    tally: DealTally,
    vs: str | None,
    output: str | None,
    interrupted: bool = False,
) -> None:
    """Summarize the results of each bot and report them; a stopped run is summarized
    on the deals it finished (its first ones, every bot's: see :func:`_play`).  ``--output -`` sends the
    report to stderr."""
    import contextlib

    stopped: dict[str, int] | None = None
    played = deals
    if interrupted:
        stopped = {"games_played": tally.games, "games_asked": len(deals) * len(names)}
        played = range(deals.start, deals.start + tally.deals)  # whole deals (see _play)
    with contextlib.redirect_stdout(sys.stderr) if output == "-" else contextlib.nullcontext():
        if not played:
            assert stopped is not None  # no deal played: the run was stopped
            click.echo(json.dumps({"interrupted": stopped}) if fmt == "json" else _stopped_text(stopped))
            return
        _report(fmt, rules, played, seed, names, tally.summaries(), tally.difference(), vs, stopped)


def _stopped_text(stopped: dict[str, int]) -> str:
    return f"interrupted: {stopped['games_played']} of {stopped['games_asked']} games played"


def _report(
    fmt: str,
    rules: Rules,
    deals: range,
    seed: int,
    names: Sequence[str],
    summaries: dict[str, Summary],
    difference: PairedDifference | None,
    vs: str | None,
    stopped: dict[str, int] | None = None,
) -> None:
    """The summary of a simulation, in ``fmt`` (text, markdown or json), on stdout;
    ``stopped``: the games played and asked for, when the run was interrupted."""
    if stopped is not None and fmt != "json":
        click.echo(_stopped_text(stopped))
    if fmt == "json":
        if len(names) == 1:
            out = summaries[names[0]].as_dict()
            out["deals"] = _deals_text(deals)
            out["seed"] = seed
            out["rules"] = rules_value(rules)
        else:
            out = {
                "deals": _deals_text(deals),
                "seed": seed,
                "rules": rules_value(rules),
                "bots": [s.as_dict() for s in summaries.values()],
            }
            if difference is not None:
                assert vs is not None  # a paired difference compares with --vs
                out.update(summaries[names[0]].as_dict())
                out["vs"] = summaries[vs].as_dict()
                out["paired"] = difference.as_dict()
        if stopped is not None:
            out["interrupted"] = stopped
        click.echo(json.dumps(out, indent=2))
        return
    if fmt == "markdown":
        if rules.name != "standard":
            click.echo(f"Rules: {rules.label}\n")
        click.echo(TABLE_HEADER)
        for summary in summaries.values():
            click.echo(_row(summary, deals))
        if difference is not None:
            assert vs is not None
            click.echo()
            click.echo("\n".join(_paired_text(difference, names[0], vs)))
        return
    if rules.name != "standard":
        click.echo(f"rules: {rules.label}")
    for i, summary in enumerate(summaries.values()):
        if i:
            click.echo()
        click.echo("\n".join(_text(summary, deals)))
    if difference is not None:
        assert vs is not None
        click.echo()
        click.echo("\n".join(_paired_text(difference, names[0], vs)))
