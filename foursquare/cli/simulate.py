"""``foursquare simulate``: a bot (or two, paired) over a range of numbered deals."""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from ..app.games import GameSpec
from ..app.simulating import CSV_FIELDS, SimulateSweep
from ..figures import human_seconds
from ..formats.schema import rules_value
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import (
    BOT_NAMES,
    DEFAULT_BOT,
    JOBS,
    NATURAL,
    PATH,
    POSITIVE,
    RESUME_HELP,
    RULES_SPEC,
    SCHEDULER_HELP,
    SECONDS,
    SweepBatch,
    bot_option_needs,
    check_sweep_options,
    deal_range,
)
from .signals import worker_signals
from .style import counted, percent

if TYPE_CHECKING:
    from ..bots.simulate import GameResult, SimulationSummary
    from ..cluster import Cluster

def _deals_text(deals: range) -> str:
    return f"{deals.start}-{deals.stop - 1}" if len(deals) > 1 else str(deals.start)


def _text(summary: SimulationSummary, deals: range) -> list[str]:
    lo, hi = summary.win_interval
    slo, shi = summary.score_interval
    lines = [
        f"{summary.bot} on deals {_deals_text(deals)}: {counted(summary.games, 'game')}",
        f"  wins {summary.wins}, win rate {percent(summary.win_rate)} (95% CI {percent(lo)} to {percent(hi)})",
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
    # a text histogram: one bar per score of the wins, one for the losses (40 characters the longest)
    rows = [(f"{score:>4}", n) for score, n in summary.scores.items()]
    rows += [("lost", summary.games - summary.wins)] if summary.games > summary.wins else []
    top = max((n for _, n in rows), default=1)
    return [*lines, "  scores:", *(f"  {label} | {'#' * max(1, round(40 * n / top))} {n}" for label, n in rows)]


def _row(summary: SimulationSummary, deals: range) -> str:
    lo, hi = summary.win_interval
    winning = "-" if summary.mean_winning_score is None else f"{summary.mean_winning_score:.2f}"
    median, worst = ("-" if s is None else f"{1000 * s:.2f}" for s in (summary.median_move_seconds, summary.worst_move_seconds))
    return (
        f"| {summary.bot} | {_deals_text(deals)} | {summary.games} | {percent(summary.win_rate)} "
        f"({percent(lo)}–{percent(hi)}) | {summary.mean_score:.2f} ({summary.score_sd:.2f}) | {winning} "
        f"| {median} | {worst} |"
    )


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
    help="Fixed work per move for the search bots 'deep', 'expert' and 'chance': the most positions they may examine "
    "(reproducible; default 600000).",
)
@click.option(
    "--budget",
    type=SECONDS,
    metavar="SECONDS",
    help="Time limit per move (default none: results then depend on the machine; prefer --nodes).",
)
@click.option("--rules", "rules_spec", metavar="NAME|FILE", type=RULES_SPEC, help="Rule set (default standard).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True, help="Output format.")
@click.option("--output", "output", type=PATH, metavar="FILE.csv", help="Also write one CSV row per game.")
@click.option("--force", is_flag=True, help="Write --output over a file that holds something.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@command_boundary
def simulate(**options: Any) -> None:
    """Play every deal in the range with a bot and report games, wins, the win
    rate with its 95% Wilson interval, the mean score (losses count 0) with its
    spread, loss reasons, a histogram of scores and the median seconds per move.

    The same deals and seed give the same games whatever --jobs is, and on a
    Dask cluster (--scheduler).  --output FILE.csv --resume continues an
    interrupted run.  The bots see only what a player sees (RULES.md section 6).
    """
    o = SimpleNamespace(**options)  # the options as Click reads them
    from ..cluster import connect
    from ..engine.rules import STANDARD

    rules = GameSpec.read(rules_spec=o.rules_spec).rules or STANDARD
    names = list(o.bots)  # the bots to play, in order (--vs last): each once
    if twice := next((name for name in names if names.count(name) > 1), None):
        raise click.UsageError(f"--bot {twice} is given more than once: each bot plays the deals once")
    if o.vs is not None:
        if len(names) != 1:
            raise click.UsageError("--vs compares exactly one --bot with another")
        if o.vs == names[0]:
            raise click.UsageError(f"--vs {o.vs}: compare {o.vs} with another bot")
        names.append(o.vs)
    bot_option_needs("--nodes", o.nodes, names, "uses_nodes")
    bot_option_needs("--budget", o.budget, names, "uses_budget")
    check_sweep_options(o, o.output, {"--rules": o.rules_spec}, "the summary")  # (the output file checked)
    sweep = SimulateSweep(tuple(names), o.deals, o.seed, rules, o.budget, o.nodes)
    cluster = None if o.scheduler is None else connect(o.scheduler)  # before the file: an unreachable one leaves it
    with cluster if cluster is not None else contextlib.nullcontext():  # (closed also when the file is refused)
        _Batch(o, sweep, cluster)


class _Batch(SweepBatch):
    """Play the deals, every bot a deal before the next one starts (so that a stopped run
    can still compare them), each game a row of the ``--output`` CSV (:class:`SweepBatch`;
    ``--resume``: the file's games counted, its deals not played again).  A deal's rows are
    written once every bot has played it and the deals before it, and the deal is counted
    (kept when the run is stopped) once its rows are written, so that the results counted
    (and the CSV rows) always cover whole deals.  The workers take one game at a time, so
    that the first results come at once however long the range."""

    def __init__(self, o: SimpleNamespace, sweep: SimulateSweep, cluster: Cluster | None) -> None:
        from ..app.sweep import best_score
        from ..bots.simulate import DealTally, play_deals

        super().__init__(o.output, o.output == "-")
        self.o, self.sweep, self.settings = o, sweep, sweep.settings()
        self.tally = DealTally(sweep.names, best_score(sweep.rules), paired=o.vs is not None)  # (never a list of the games)
        self.count = self.tally.add
        resumed = self.open(o.resume, o.force, sweep.layout(), self.tally.add)
        todo = sweep.deals[resumed.rows // len(sweep.names) :] if resumed is not None else sweep.deals
        games = play_deals(  # on the cluster when there is one, else in --jobs processes; a bad bot fails here
            sweep.names, todo, seed=sweep.seed, rules=sweep.rules, budget=sweep.budget, nodes=sweep.nodes, jobs=o.jobs,
            initializer=worker_signals, mapper=cluster.map if cluster is not None else None,
        )
        deals = ([first, *itertools.islice(games, len(sweep.names) - 1)] for first in games)  # a deal's games together
        self.run(deals, len(todo) * len(sweep.names), f"{' vs '.join(sweep.names)} on deals {_deals_text(sweep.deals)}")

    def rows(self, unit: list[GameResult]) -> list[Sequence[object]]:
        return [[(game.row() | self.settings)[name] for name in CSV_FIELDS] for game in unit]  # (the run's settings last)

    def summary(self, interrupted: bool) -> None:
        """Summarize the results of each bot and report them; a stopped run is summarized
        on the deals it finished (its first ones, every bot's: see :class:`_Batch`), and says
        so.  ``--output -`` sends the report to stderr."""
        deals = self.sweep.deals
        played = range(deals.start, deals.start + self.tally.deals) if interrupted else deals  # whole deals (see _Batch)
        stopped = (
            {"games_played": len(played) * len(self.sweep.names), "games_asked": len(deals) * len(self.sweep.names)}
            if interrupted else None
        )
        with contextlib.redirect_stdout(sys.stderr) if self.o.output == "-" else contextlib.nullcontext():
            if stopped is not None and (self.o.fmt != "json" or not played):
                click.echo(
                    json.dumps({"interrupted": stopped}) if self.o.fmt == "json"
                    else f"interrupted: {stopped['games_played']} of {stopped['games_asked']} games played"
                )
            if not played:
                return
            summaries, difference = self.tally.summaries(), self.tally.difference()
            if self.o.fmt == "json":  # one object: a bot's summary, or every bot's (and the paired difference)
                common = {"deals": _deals_text(played), "seed": self.sweep.seed, "rules": rules_value(self.sweep.rules)}
                out: dict[str, Any] = {**summaries[self.sweep.names[0]].as_dict(), **common}
                if len(self.sweep.names) > 1:
                    out = {**common, "bots": [s.as_dict() for s in summaries.values()]}
                if difference is not None:  # (a paired difference compares with --vs)
                    out.update(summaries[self.sweep.names[0]].as_dict(), vs=summaries[self.o.vs].as_dict(), paired=difference.as_dict())
                click.echo(json.dumps(out | ({"interrupted": stopped} if stopped is not None else {}), indent=2))
                return
            if self.sweep.rules.name != "standard":
                click.echo(f"Rules: {self.sweep.rules.label}\n" if self.o.fmt == "markdown" else f"rules: {self.sweep.rules.label}")
            if self.o.fmt == "markdown":  # a row a bot
                click.echo("\n".join([
                    "| bot | deals | games | win rate (95% CI) | mean score (sd) | mean winning score | median ms/move | worst ms/move |",
                    "|---|---|---|---|---|---|---|---|", *(_row(summary, played) for summary in summaries.values()),
                ]))
            else:  # a paragraph a bot
                click.echo("\n\n".join("\n".join(_text(summary, played)) for summary in summaries.values()))
            if difference is not None:  # and the paired difference below (A minus B)
                d, a, b = difference, self.sweep.names[0], self.o.vs
                click.echo(
                    f"\n{a} minus {b}, paired over {counted(d.games, 'deal')} (95% CI, normal approximation):\n"
                    f"  score {d.score:+.2f} ({d.score_interval[0]:+.2f} to {d.score_interval[1]:+.2f})\n"
                    f"  win rate {100 * d.win:+.1f} points ({100 * d.win_interval[0]:+.1f} to {100 * d.win_interval[1]:+.1f}); "
                    f"won by {a} only {d.only_a}, by {b} only {d.only_b}"
                )
