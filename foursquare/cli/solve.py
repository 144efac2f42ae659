"""``foursquare solve``: the best score of a deal with the stock order known (the solver's command)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from ..app.games import GameSpec
from ..app.solving import DealsToSolve, SolveSweep
from ..app.sweep import discard_journal
from ..errors import shown_name
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import (
    JOBS,
    PATH,
    POSITIVE,
    RESUME_HELP,
    SCHEDULER_HELP,
    SECONDS,
    MemorySize,
    SweepBatch,
    check_sweep_options,
    deal_range,
    exclusive,
    game_options,
    given_on_the_command_line,
    option_needs,
)
from .signals import worker_signals
from .style import counted

if TYPE_CHECKING:
    from ..cluster import Cluster
    from ..engine.game import Game
    from ..solver import Solution


def _record(deal: int | None, sol: Solution) -> dict[str, Any]:
    return {
        "deal": deal,
        "status": sol.status,
        "score": sol.score,
        "max_score": sol.max_score,
        "unknown_cards": sol.unknown_cards,
        "moves": [str(c) for c in sol.moves],
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 6),
    }


def _transcript(game: Game, sol: Solution) -> str | None:
    """The transcript of the game played along the solution, or ``None`` without a win."""
    if not sol.won:
        return None
    won = game.copy()
    for cell in sol.moves:
        won.play(cell)
    return won.transcript()


def _describe(sol: Solution, total: int, known: int | None = None) -> str:
    """One line for a solution; ``known``: the cards the deck names (a prefix may name fewer)."""
    if sol.score is not None:  # (solved: a deal has its best score then only)
        return f"solved: score {sol.score} (a win with {total - sol.score} cards, proved optimal)"
    if sol.settled:
        return "no win (proved)"
    bound = f"; no win scores more than {sol.max_score}" if sol.max_score is not None else ""
    if sol.unknown_cards:
        assert known is not None  # given for a deck that names only some cards
        return f"unknown (no win with the {counted(known, 'card')} the deck names, and the other {total - known} are unknown{bound})"
    return f"unknown (the limit ran out{bound})"


@click.command(cls=Command, short_help=SHORT_HELP["solve"])
@game_options(game_number=False)
@click.option("--deals", "deal_range", metavar="A-B", callback=deal_range, help="Solve every deal number from A to B.")
@click.option(
    "--max-nodes",
    type=POSITIVE,
    metavar="N",
    help="Positions to search per deal before answering 'unknown' (default 4000000: a few seconds with the compiled"
    " search core, minutes on the pure-Python one; see foursquare --version). The same answer on every machine (at the same --memory),"
    " unlike --timeout.",
)
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Time limit per deal.")
@click.option(
    "--memory",
    type=MemorySize(160 << 20, 1 << 30),  # foursquare.solver.search.MEMORY_MIN, MEMORY_MAX (not imported: startup)
    metavar="SIZE",
    help="Memory for each deal's search, per process, such as 512M or 1G (160M to 1G; default: a table of 2097152"
    " positions, about 110M). More lets a long search forget less and take fewer positions.",
)
@click.option("--jobs", type=JOBS, default=1, show_default=True, help="Worker processes for --deals.")
@click.option("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: the winning game as a transcript (comments say the outcome); json: one object"
    " (with --deals: one a line, then the summary).",
)
@click.option("--output", "csv_path", metavar="FILE.csv", type=PATH, help="With --deals: also write one CSV row per deal.")
@click.option("--force", is_flag=True, help="Write --output over a file that holds something.")
@click.option("--resume", is_flag=True, help=RESUME_HELP + " With a higher --max-nodes than the file's, its unknown deals are"
              " solved again under it first, every settled row kept as it is.")
@click.option("-v", "--verbose", is_flag=True, help="With --deals and text output: one line per deal.")
@command_boundary
def solve(**options: Any) -> None:
    """Solve a deal with perfect information: the win that uses the fewest cards
    (the highest score), or a proof that no win exists.

    One game from --deal N or --deck FILE: prints the result and the winning
    moves as a transcript that 'foursquare validate' accepts.  Many deals with
    --deals A-B: a summary (deals solved, winnable share with a 95% Wilson
    interval, scores, time per deal); --format json prints one JSON object per
    line, one per deal, then {"summary": ...}.  --scheduler runs the deals on
    a Dask cluster; --output FILE.csv --resume continues an interrupted run,
    and with a higher --max-nodes solves the file's unknown deals again.
    """
    o = SimpleNamespace(**options)  # the options as Click reads them
    from .. import solver
    from ..cluster import connect
    from ..engine.rules import STANDARD

    exclusive(deal=o.deal, deck=o.deck_path, deals=o.deal_range)
    spec = GameSpec.read(o.deal, o.deck_path, o.rules_spec)
    limit = o.max_nodes if o.max_nodes is not None else solver.DEFAULT_MAX_NODES
    # the usage errors of the options that go together (status 2), in the order they are told
    for option, value in (
        ("--output", o.csv_path), ("--jobs", given_on_the_command_line("jobs")), ("--scheduler", o.scheduler), ("-v", o.verbose)
    ):
        option_needs(option, value, "--deals", o.deal_range)
    option_needs("-v", o.verbose, "--format text", o.fmt == "text" or None)
    also = "--format json" if o.fmt == "json" else "-v" if o.verbose else "the summary"  # what else writes to stdout
    if o.csv_path == "-" and also != "the summary":
        raise click.UsageError(f"--output - and {also} would both write to stdout")
    # then the options of the sweep and the output file checked, the cluster connected (before
    # the file: an unreachable one leaves it), then the batch
    check_sweep_options(o, o.csv_path, {"--deck": o.deck_path, "--rules": o.rules_spec}, also)
    if o.deal_range is not None:
        sweep = SolveSweep(o.deal_range, spec.rules or STANDARD, limit, o.timeout, o.memory)
        cluster = None if o.scheduler is None else connect(o.scheduler)
        with cluster if cluster is not None else contextlib.nullcontext():
            _Batch(o, sweep, cluster)
        return
    game = spec.start()
    if game is None:
        raise click.UsageError("give --deal N, --deck FILE or --deals A-B")
    sol = solver.solve(game, max_nodes=limit, timeout=o.timeout, memory=o.memory)
    if o.fmt == "json":
        click.echo(json.dumps({**_record(o.deal, sol), "transcript": _transcript(game, sol)}))
        return
    name = f"deal {o.deal}" if o.deal is not None else "<stdin>" if o.deck_path == "-" else shown_name(str(o.deck_path))
    # comments, then the win's transcript: the whole output is YAML that validate
    # reads (without a win, only the comments, never text that breaks the file)
    click.echo(
        f"# {name}: {_describe(sol, game.rules.deck_size, len(game.deck))}\n# nodes: {sol.nodes}; seconds: {sol.seconds:.3f}\n"
        + (_transcript(game, sol) or ""), nl=False,
    )


class _Batch(SweepBatch):
    """Solve the deals, writing each result (a JSON line, a verbose line, a CSV row) as
    soon as it is known (:class:`~foursquare.cli.options.SweepBatch`); with a cluster,
    the deals are solved on it; ``--resume`` continues the CSV file (its deals are not
    solved again, and count in the summary; its unknown rows of a lower limit are solved
    again first, with ``--max-nodes`` given)."""

    def __init__(self, o: SimpleNamespace, sweep: SolveSweep, cluster: Cluster | None) -> None:
        from .. import solver
        from ..solver.analysis import BatchTally

        # the results go to stdout only (per deal): once its reader leaves (| head), nobody reads
        # them and the run stops; with a CSV file as well, the run goes on to complete the file
        super().__init__(o.csv_path, o.csv_path == "-" or (o.csv_path is None and (o.fmt == "json" or o.verbose)))
        self.o, self.sweep = o, sweep
        self.tally = BatchTally()  # the figures of the deals done (in the file), never a list of them
        layout = sweep.layout(again=bool(given_on_the_command_line("max_nodes")))
        resumed = self.open(o.resume, o.force, layout, lambda kept: self.tally.add(kept[0]))
        if resumed is None and self.output is not None and self.output.stream is not sys.stdout:
            discard_journal(o.csv_path)  # (of the file's old text: the file is written afresh)
        # the file's unknown rows of a lower limit, solved again first (their rows in the file, as they
        # stand): how many, how many of them are done and how many of those settled
        self.open_rows: list[Solution] = resumed.open_rows if resumed is not None else []
        self.again, self.again_done, self.again_settled = len(self.open_rows), 0, 0
        self.due = sweep.deals if resumed is None else DealsToSolve(resumed.again, sweep.deals[resumed.rows:])
        self.run(
            solver.solve_deals(  # on the cluster when there is one, else in --jobs processes
                self.due, sweep.rules, max_nodes=sweep.max_nodes, timeout=sweep.timeout, jobs=o.jobs, initializer=worker_signals,
                mapper=cluster.map if cluster is not None else None, memory=o.memory,
            ),
            len(self.due), "solving",
            shown=o.fmt == "text" and not o.verbose,
        )

    def rows(self, unit: tuple[int, Solution]) -> list[Sequence[object]]:
        d, sol = unit  # the columns of app/solving.py's CSV_HEADER
        return [[
            d, sol.status, "" if sol.score is None else sol.score, "" if sol.max_score is None else sol.max_score,
            sol.nodes, f"{sol.seconds:.6f}", " ".join(str(c) for c in sol.moves), *self.sweep.settings(),
        ]]

    def show(self, unit: tuple[int, Solution]) -> None:
        d, sol = unit
        if self.o.fmt == "json":
            click.echo(json.dumps(_record(d, sol)))
        elif self.o.verbose:
            click.echo(f"deal {d}: {_describe(sol, self.sweep.rules.deck_size)}; nodes {sol.nodes}; {sol.seconds:.3f} s")
        sys.stdout.flush()  # (the row is in the file already: SweepRows keeps no buffer)

    def count(self, unit: tuple[int, Solution]) -> None:
        self.tally.add(unit[1])
        if self.done_here < self.again:  # one of the deals solved again
            self.again_done += 1
            self.again_settled += unit[1].settled

    def summary(self, interrupted: bool) -> None:
        """The summary of the deals done (their tally; ``interrupted``: of a run stopped
        before its end, which says so, its deals not solved again counted as the file
        keeps them), on stderr with ``--output -`` (the CSV has stdout to itself); the
        file's deals solved again said when there were any."""
        from ..formats.schema import rules_value

        if interrupted:  # not solved again: the file keeps their rows
            for sol in self.open_rows[self.again_done :]:
                self.tally.add(sol)

        summary, rules, asked = self.tally.summary(), self.sweep.rules, len(self.sweep.deals)
        settled, done = self.tally.settled, self.tally.deals  # an unknown deal is done, not solved
        limit, again, again_done, again_settled = self.sweep.max_nodes, self.again, self.again_done, self.again_settled
        with contextlib.redirect_stdout(sys.stderr) if self.o.csv_path == "-" else contextlib.nullcontext():
            if self.o.fmt == "json":
                out: dict[str, Any] = {"summary": {"rules": rules_value(rules), **summary.as_dict()}}
                if interrupted:
                    out["interrupted"] = {
                        "deals_solved": settled,
                        "deals_unknown": done - settled,
                        "deals_done": done,
                        "deals_asked": asked,
                    }
                if again:
                    out["solved_again"] = {
                        "max_nodes": limit, "deals_asked": again, "deals_done": again_done,
                        "deals_settled": again_settled, "deals_unknown": again_done - again_settled,
                    }
                click.echo(json.dumps(out))
            else:
                if interrupted:
                    click.echo(f"interrupted: {done} of {asked} deals done ({settled} settled, {done - settled} unknown)")
                if again:
                    of = f"{again_done} of {again}" if again_done < again else f"{again}"
                    click.echo(
                        f"solved again under --max-nodes {limit}: {of} {'deal' if again == 1 else 'deals'} unknown "
                        f"under a lower limit; {again_settled} settled, {again_done - again_settled} still unknown"
                    )
                if rules.name != "standard":
                    click.echo(f"rules: {rules.label}")
                click.echo("\n".join(summary.lines()))
        sys.stdout.flush()
