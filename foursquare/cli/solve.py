"""``foursquare solve``: the best score of a deal with the stock order known (the solver's command)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any

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
from ..errors import FoursquareError, shown_name
from . import SHORT_HELP
from .boundary import Command, check_output_file, command_boundary, open_output_file, refuse_standard_output
from .files import refuse_output_over_input
from .games import load_rules_option, new_game
from .options import (
    JOBS,
    PATH,
    POSITIVE,
    SECONDS,
    deal_range,
    exclusive,
    game_options,
    given_on_the_command_line,
    option_needs,
)
from .signals import signals_deferred, worker_signals
from .streams import progress_bar, stdout_reader_gone
from .style import counted

if TYPE_CHECKING:
    from ..cluster import Cluster
    from ..engine.game import Game
    from ..engine.rules import Rules
    from ..solver import Solution
    from ..solver.analysis import BatchTally

#: The columns of the ``--output`` CSV: a deal's result, then the settings that shape it (cli/sweep.py).
CSV_HEADER = ["deal", "status", "score", "max_score", "nodes", "seconds", "moves", "rules", "max_nodes", "timeout"]


def _record(deal: int | None, sol: Solution, game: Game | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "deal": deal,
        "status": sol.status,
        "score": sol.score,
        "max_score": sol.max_score,
        "unknown_cards": sol.unknown_cards,
        "moves": [str(c) for c in sol.moves],
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 6),
    }
    if game is not None:
        out["transcript"] = _transcript(game, sol)
    return out


def _winning_game(game: Game, sol: Solution) -> Game | None:
    """The game played along the solution (a copy), or ``None`` without a win."""
    if not sol.won:
        return None
    won = game.copy()
    for cell in sol.moves:
        won.play(cell)
    return won


def _transcript(game: Game, sol: Solution) -> str | None:
    from ..formats.transcript import transcript_text

    won = _winning_game(game, sol)
    return None if won is None else transcript_text(won)


def _describe(sol: Solution, total: int, known: int | None = None) -> str:
    """One line for a solution; ``known``: the cards the deck names (a prefix may name fewer)."""
    from ..solver import Outcome

    if sol.status is Outcome.SOLVED:
        assert sol.score is not None  # a solved deal has its score
        return f"solved: score {sol.score} (a win with {total - sol.score} cards, proved optimal)"
    if sol.status is Outcome.NO_WIN:
        return "no win (proved)"
    bound = f"; no win scores more than {sol.max_score}" if sol.max_score is not None else ""
    if sol.unknown_cards:
        assert known is not None  # given for a deck that names only some cards
        return f"unknown (no win with the {counted(known, 'card')} the deck names, and the other {total - known} are unknown{bound})"
    return f"unknown (the limit ran out{bound})"


@click.command(cls=Command, short_help=SHORT_HELP["solve"])
@game_options
@click.option("--deals", "deal_range", metavar="A-B", callback=deal_range, help="Solve every deal number from A to B.")
@click.option(
    "--max-nodes",
    type=POSITIVE,
    metavar="N",
    help="Positions to search per deal before answering 'unknown' (default 4000000: a few seconds with the compiled"
    " search core, minutes on the pure-Python one; see foursquare --version). The same answer on every machine,"
    " unlike --timeout.",
)
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Time limit per deal.")
@click.option("--jobs", type=JOBS, default=1, show_default=True, help="Worker processes for --deals.")
@click.option("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--output", "csv_path", metavar="FILE.csv", type=PATH, help="With --deals: also write one CSV row per deal.")
@click.option("--force", is_flag=True, help="Write --output over a file that holds something.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("-v", "--verbose", is_flag=True, help="With --deals and text output: one line per deal.")
@command_boundary
def solve(
    deal: int | None,
    deck_path: str | None,
    rules_spec: str | None,
    deal_range: range | None,
    max_nodes: int | None,
    timeout: float | None,
    jobs: int,
    scheduler: str | None,
    fmt: str,
    csv_path: str | None,
    force: bool,
    resume: bool,
    verbose: bool,
) -> None:
    """Solve a deal with perfect information: the win that uses the fewest cards
    (the highest score), or a proof that no win exists.

    One game from --deal N or --deck FILE: prints the result and the winning
    moves as a transcript that 'foursquare validate' accepts.  Many deals with
    --deals A-B: a summary (deals solved, winnable share with a 95% Wilson
    interval, scores, time per deal); --format json prints one JSON object per
    line, one per deal, then {"summary": ...}.  --scheduler runs the deals on
    a Dask cluster; --output FILE.csv --resume continues an interrupted run.
    """
    from .. import solver

    exclusive(deal=deal, deck=deck_path, deals=deal_range)
    rules = load_rules_option(rules_spec)
    limit = max_nodes if max_nodes is not None else solver.DEFAULT_MAX_NODES
    option_needs("--output", csv_path, "--deals", deal_range)
    option_needs("--force", force, "--output", csv_path)
    refuse_output_over_input("--output", csv_path, {"--deck": deck_path, "--rules": rules_spec})
    option_needs("--jobs", given_on_the_command_line("jobs"), "--deals", deal_range)
    option_needs("--scheduler", scheduler, "--deals", deal_range)
    option_needs("--resume", resume, "--output", csv_path)
    check_sweep_options(scheduler, given_on_the_command_line("jobs"), resume, csv_path, force)
    option_needs("-v", verbose, "--deals", deal_range)
    option_needs("-v", verbose, "--format text", fmt == "text" or None)
    if csv_path == "-" and (fmt == "json" or verbose):
        raise click.UsageError(f"--output - and {'--format json' if fmt == 'json' else '-v'} would both write to stdout")
    refuse_standard_output(
        "--output", csv_path, "--format json" if fmt == "json" else "-v" if verbose else "the summary",
        "" if fmt == "json" or verbose else "give --output - for the CSV alone on stdout (the summary then goes to stderr)",
    )
    if deal_range is not None:
        if not resume:
            check_output_file(csv_path, force)
        cluster = open_cluster(scheduler) if scheduler is not None else None  # before the file: an unreachable one leaves it
        with cluster if cluster is not None else contextlib.nullcontext():
            _batch(deal_range, rules, limit, timeout, jobs, fmt, csv_path, verbose, force=force, cluster=cluster, resume=resume)
        return
    game = new_game(deal, deck_path, rules)
    if game is None:
        raise click.UsageError("give --deal N, --deck FILE or --deals A-B")
    sol = solver.solve(game, max_nodes=limit, timeout=timeout)
    if fmt == "json":
        click.echo(json.dumps(_record(deal, sol, game)))
        return
    name = f"deal {deal}" if deal is not None else "<stdin>" if deck_path == "-" else shown_name(str(deck_path))
    lines = [f"{name}: {_describe(sol, game.rules.deck_size, len(game.deck))}", f"nodes: {sol.nodes}; seconds: {sol.seconds:.3f}"]
    # comments, then the win's transcript: the whole output is YAML that validate
    # reads (without a win, only the comments, never text that breaks the file)
    click.echo("".join(f"# {line}\n" for line in lines) + (_transcript(game, sol) or ""), nl=False)


def _flush(*streams: IO[str] | None) -> None:
    for stream in streams:
        if stream is not None:
            stream.flush()


def _batch(
    deals: range,
    rules: Rules | None,
    limit: int,
    timeout: float | None,
    jobs: int,
    fmt: str,
    csv_path: str | None,
    verbose: bool,
    force: bool = False,
    cluster: Cluster | None = None,
    resume: bool = False,
) -> None:
    """Solve the deals, writing each result (a JSON line, a verbose line, a CSV
    row) as soon as it is known and flushed, so that an interrupted run keeps
    every deal finished; Ctrl-C or SIGTERM then prints the summary of those.
    ``cluster``: solve them on a Dask cluster; ``resume``: continue the CSV file
    (its deals are not solved again, and count in the summary)."""
    from ..engine.rules import STANDARD
    from ..solver import solve_deals
    from ..solver.analysis import BatchTally

    rules = rules or STANDARD
    tally = BatchTally()  # the figures of the deals done (in the file), never a list of them
    writer: RowWriter | None = None
    csv_file: IO[str] | None = None
    header = False
    settings = [rules_text(rules), str(limit), limit_text(timeout)]
    todo = deals
    if csv_path is not None and resume:
        resumed = resume_csv(
            csv_path, CSV_HEADER,
            list(zip(CSV_HEADER[-3:], ["--rules", "--max-nodes", "--timeout"], settings, strict=True)), deals, _solution,
            lambda kept: tally.add(kept[0]),
        )
        csv_file = resumed.stream
        writer = RowWriter(csv_file, csv_path)
        todo = deals[resumed.rows:]
        if resumed.rows:
            resumed_notice(csv_path, resumed.rows, len(deals))
    elif csv_path is not None:
        csv_file = open_output_file(csv_path, force)
        writer = RowWriter(csv_file, csv_path)
        header = True  # written below, where a failed write is an interruption like any other
    show_bar = fmt == "text" and not verbose  # on a terminal only (progress_bar)
    results = solve_deals(
        todo, rules, max_nodes=limit, timeout=timeout, jobs=jobs, initializer=worker_signals,
        mapper=cluster.map if cluster is not None else None,
    )
    stopped = False
    done_here = 0  # the deals of this run done, in order: the next one is due
    # the results go to stdout only (per deal): once its reader leaves (| head), nobody reads
    # them and the run stops; with a CSV file as well, the run goes on to complete the file
    to_stdout = csv_path == "-" or (csv_path is None and (fmt == "json" or verbose))
    try:
        if header:
            assert writer is not None
            writer.write(CSV_HEADER)
        with progress_bar(results, len(todo), "solving", shown=show_bar) as bar:
            for d, sol in bar:
                with signals_deferred():  # a deal is written, counted and printed whole, even at Ctrl-C
                    if writer is not None:  # (a row that fails to be written is not counted: the file has it not)
                        writer.write(
                            [d, sol.status, "" if sol.score is None else sol.score,
                             "" if sol.max_score is None else sol.max_score, sol.nodes,
                             f"{sol.seconds:.6f}", " ".join(str(c) for c in sol.moves), *settings],
                        )
                    try:
                        if fmt == "json":
                            click.echo(json.dumps(_record(d, sol)))
                        elif verbose:
                            click.echo(f"deal {d}: {_describe(sol, rules.deck_size)}; nodes {sol.nodes}; {sol.seconds:.3f} s")
                        _flush(csv_file, sys.stdout)
                    finally:
                        # | head: nobody reads the results any more; this deal's result went into
                        # the gone reader (the guard saw the reader gone during its writes): it
                        # reached nobody, so the summary leaves it out and counts only the deals
                        # whose results the reader got
                        gone = to_stdout and stdout_reader_gone()
                        if not gone:
                            tally.add(sol)
                if gone:
                    stopped = True
                    break
                done_here += 1
    except (KeyboardInterrupt, SystemExit, FoursquareError, OSError):  # Ctrl-C, SIGTERM, a worker gone, a write failed
        stopped = True
        raise
    except MemoryError:  # the summary of what was done (below), then the deal that ran out: status 1
        stopped = True
        raise MemoryError(f"deal {todo[done_here]}" if done_here < len(todo) else "") from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers
        unwritten: OSError | None = None
        if csv_file is not None and csv_file is not sys.stdout:
            try:
                csv_file.close()
            except OSError as exc:  # the last rows, flushed on closing (raised once the summary is out)
                stopped = True
                assert csv_path is not None
                unwritten = OSError(exc.errno, exc.strerror, csv_path)
        if stopped:  # even before the first deal: "interrupted: 0 of N deals solved"
            with contextlib.suppress(Exception):  # the interruption is what matters
                _summary(tally, fmt, rules, interrupted=len(deals), to_stderr=csv_path == "-")
        if unwritten is not None and not isinstance(sys.exc_info()[1], (KeyboardInterrupt, SystemExit)):
            raise unwritten  # (a Ctrl-C or SIGTERM under way keeps its own exit status)
    if stopped:  # the reader of stdout left: the summary of the deals done is out (above)
        return
    _summary(tally, fmt, rules, to_stderr=csv_path == "-")


def _solution(row: dict[str, str]) -> Solution:
    """A deal's result as its CSV row gives it back, for the summary of a resumed run
    (without the moves, which the summary does not use)."""
    from ..solver import Outcome, Solution

    return Solution(
        Outcome(row["status"]), int_or_none(row["score"]), (), int(row["nodes"]), float(row["seconds"]),
        int_or_none(row["max_score"]),
    )


def _tally(solutions: Iterable[Solution]) -> BatchTally:
    from ..solver.analysis import BatchTally

    tally = BatchTally()
    for sol in solutions:
        tally.add(sol)
    return tally


def _summary(
    solutions: BatchTally | Iterable[Solution], fmt: str, rules: Rules, interrupted: int | None = None, to_stderr: bool = False
) -> None:
    """The summary of the deals solved under ``rules`` (their tally, or their
    solutions); ``interrupted``: how many were asked for (the run stopped before the
    end); ``to_stderr`` for ``--output -``."""
    from ..formats.rulesfile import rules_value
    from ..solver.analysis import BatchTally

    tally = solutions if isinstance(solutions, BatchTally) else _tally(solutions)
    summary = tally.summary()
    if to_stderr:  # --output -: the CSV has stdout to itself
        with contextlib.redirect_stdout(sys.stderr):
            _summary(tally, fmt, rules, interrupted)
        return
    settled, done = tally.settled, tally.deals  # an unknown deal is done, not solved
    if fmt == "json":
        out = {"summary": {"rules": rules_value(rules), **summary.as_dict()}}
        if interrupted is not None:
            out["interrupted"] = {
                "deals_solved": settled,
                "deals_unknown": done - settled,
                "deals_done": done,
                "deals_asked": interrupted,
            }
        click.echo(json.dumps(out))
    else:
        if interrupted is not None:
            click.echo(
                f"interrupted: {done} of {interrupted} deals done "
                f"({settled} settled, {done - settled} unknown)"
            )
        if rules.name != "standard":
            click.echo(f"rules: {rules.label}")
        click.echo("\n".join(summary.lines()))
    _flush(sys.stdout)
