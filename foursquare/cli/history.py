"""``foursquare history``: the games of the history; ``export`` and ``import`` transcripts.

``history`` lists the games, newest first (``--limit N``); ``history export [FILE]``
writes them, oldest first, as one transcript stream (FORMATS.md) that
``foursquare validate`` accepts and ``foursquare replay FILE --game K`` replays
(K is the ``#`` of the list); ``history import FILE`` adds the games of a
transcript file, every game checked first: one bad game and nothing is added.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

import click

from ..app.datafolder import history_path
from ..engine.outcome import outcome_words
from ..errors import shown_name
from ..history.rows import Source
from ..history.store import HistoryStore, error_words, read_records
from ..history.transcripts import export_games, export_numbers, read_transcripts
from . import SHORT_HELP
from .boundary import Command, check_output_file, command_boundary, fail
from .options import PATH, BoundedInt, given_on_the_command_line, option_needs
from .stats import duration_text
from .style import counted


class _Group(Command, click.Group):
    """The ``history`` group: an option that takes one value given twice is a usage
    error, as for every command (:class:`~foursquare.cli.boundary.Command`)."""


@click.group(cls=_Group, invoke_without_command=True, short_help=SHORT_HELP["history"])
@click.option("--limit", metavar="N", type=BoundedInt(1), help="List only the newest N games.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a table; json: an array of objects, newest first.",
)
@click.pass_context
@command_boundary
def history(ctx: click.Context, limit: int | None, fmt: str) -> None:
    """The games of the history, newest first: when, rules, deal, moves, result,
    hints, time.  '#' is the game's number in 'history export' (and in
    'replay FILE --game K' of the file exported).

    Games played at the prompt go into the history (the data folder:
    FOURSQUARE_HOME, or the user's application folder).  A game whose session
    wrote no end is "in progress or stopped (no end recorded)": it may be played
    at another prompt now, or its session was cut short (in JSON: "status":
    "playing" with "ended": null).
    """
    if ctx.invoked_subcommand is not None:
        for name, option in (("limit", "--limit"), ("fmt", "--format")):
            if given_on_the_command_line(name):
                raise click.UsageError(f"{option} is an option of the list: 'history {ctx.invoked_subcommand}' takes none")
        return
    path = history_path()
    records = read_records(path)
    numbers = export_numbers(records)
    shown = records[::-1][:limit]
    if fmt == "json":
        games = [
            {
                "game": numbers.get(r.id),
                "id": r.id,
                "rules": r.rules,
                "deal": r.deal,
                "moves": r.moves,
                "status": r.status.value,
                "reason": None if r.reason is None else r.reason.value,
                "score": r.score,
                "hints": r.hints,
                "started": _iso(r.started),
                "last_move": _iso(r.last_move),
                "ended": _iso(r.ended),
                "seconds": r.seconds,
                "source": r.source.value,
                "origin": r.origin,
            }
            for r in shown
        ]
        click.echo(json.dumps(games, indent=2))
        return
    if not records:
        click.echo(f"No games in the history yet ({shown_name(path)}).")
        return
    # the table: one line a game
    rows = [("#", "started", "rules", "deal", "moves", "hints", "time", "result")]
    for r in shown:
        started = "imported" if r.source is Source.IMPORT else "-"
        started = started if r.started is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started))
        # won, score 4; lost: the stock is empty; stopped (a game left while playing); or
        # NO_END (a game still playing whose session wrote no end)
        result = "stopped" if r.ended is not None or r.source is Source.IMPORT else NO_END
        result = outcome_words(r.status, r.reason, score=r.score) if r.finished else result
        rows.append(
            (
                str(numbers.get(r.id, "-")),
                started,
                r.rules,
                "deck" if r.deal is None else str(r.deal),
                str(r.moves),
                "-" if r.hints is None else str(r.hints),
                "-" if r.seconds is None else duration_text(r.seconds),
                result,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    right = {0, 3, 4, 5}
    for row in rows:
        cells = [cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row[:-1], widths, strict=True))]
        click.echo("  ".join(cells + [row[-1]]).rstrip())


def _iso(seconds: float | None) -> str | None:
    return None if seconds is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


#: The result of a game still playing whose session wrote no end: it may be played
#: at another prompt right now, or its session ended without a word (closed, killed);
#: the history cannot tell which (in JSON: ``"status": "playing"``, ``"ended": null``).
NO_END = "in progress or stopped (no end recorded)"


@history.command("export", cls=Command, short_help="Write the games as one transcript stream.")
@click.argument("file", metavar="[FILE]", type=PATH, default="-", required=False)
@click.option("--force", is_flag=True, help="Overwrite FILE when it holds something.")
@command_boundary
def export(file: str, force: bool) -> None:
    """Write the games of the history, oldest first, as one transcript stream to
    FILE (default: stdout): 'foursquare validate FILE' checks it, 'foursquare
    replay FILE --game K' replays game K ('#' in 'foursquare history')."""
    option_needs("--force", force, "FILE", file != "-" or None)
    done = export_games(history_path())  # every transcript checked: a damaged one is refused, nothing written
    left_out = done.left_out
    resumed = f"resumed from a position without {'its' if left_out == 1 else 'their'} moves"
    if not done.games:  # the history holds no game, or only games kept as states (said by their count)
        click.echo(
            f"The history holds {counted(left_out, 'game')},{'' if left_out == 1 else ' all'} {resumed}: a transcript needs every move;"
            " nothing written." if left_out else "The history holds no game to export: nothing written.",
            err=True,
        )
        return
    if left_out:
        click.echo(f"{counted(left_out, 'game')} {resumed} left out (a transcript needs every move).", err=True)
    if file == "-":
        click.echo(done.stream, nl=False)
        return
    from ..app.files import write_atomically

    check_output_file(file, force)
    write_atomically(file, done.stream, unless_full=None if force else "the file exists and is not empty; give --force to overwrite it")
    click.echo(f"Wrote {counted(len(done.games), 'game')} to {shown_name(file)}.", err=True)


@history.command("import", cls=Command, short_help="Add the games of a transcript file.")
@click.argument("file", metavar="FILE", type=PATH)
@command_boundary
def import_(file: str) -> None:
    """Add the games of a transcript FILE ('-': stdin) to the history.  Every game
    is checked first, as 'foursquare validate' checks it: a file with a bad game
    is refused (its errors named by file and line) and nothing is added.  A game
    already in the history (the same rules, cards and moves), or given twice in
    FILE, is not added again."""
    given = read_transcripts(file, lambda error: click.echo(str(error), err=True))
    name, invalid = given.name, given.invalid
    if invalid:
        fail(f"{shown_name(name)}: {counted(invalid, 'game')} of {invalid + len(given.games)} invalid: nothing imported")
    path = history_path()
    try:
        with HistoryStore.open(path, create=True) as store:  # (made when missing)
            done = store.import_games(given.games, origin=name)
    except (sqlite3.Error, OSError) as exc:
        fail(f"{shown_name(path)}: the history could not be written: {error_words(exc)}; nothing imported")
    left_out = [f"{n} {where}" for n, where in ((done.repeated, "repeated in the file"), (done.already, "already in the history")) if n]
    why = f" ({', '.join(left_out)})" if left_out else ""
    click.echo(f"Imported {counted(done.added, 'game')} from {shown_name(name)}{why}.", file=sys.stdout)
