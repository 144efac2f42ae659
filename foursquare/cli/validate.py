"""``foursquare validate``: check transcripts, for CI (FORMATS.md)."""

from __future__ import annotations

from typing import Any

import click

from ..errors import FormatError, shown_name
from ..formats.transcript import GameReport
from . import SHORT_HELP
from .boundary import Command, cli_text, command_boundary, error_text
from .ci_formats import Reporter
from .options import PATH
from .style import counted


def _file_error(name: str, error: FormatError) -> dict[str, Any]:
    """The JSON object of a file that could not be read game by game: the keys of a
    game's (``game`` null, no game replayed)."""
    return _in_cli_words({"file": shown_name(name), **GameReport(None, False, [error], None, error.line).to_dict()})


def _in_cli_words(result: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON object with its error messages in the command line's words."""
    for error in result["errors"]:
        error["message"], error["text"] = cli_text(error["message"]), cli_text(error["text"])
    return result


@click.command(cls=Command, short_help=SHORT_HELP["validate"])
@click.argument("files", nargs=-1, required=True, metavar="FILE...", type=PATH)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "json-lines", "github", "junit"]),
    default="text",
    show_default=True,
    help="text: a summary; json: an array of one object per game (file, game, valid, errors, ...);"
    " json-lines: one such object a line; github: GitHub Actions ::error commands, then the summary;"
    " junit: JUnit XML, a testcase per game.",
)
@click.option("--finished", is_flag=True, help="A game still going on (status playing) is an error.")
@click.option(
    "--duplicates",
    is_flag=True,
    help="A game that repeats an earlier one (same deal or deck, rules and moves), in any FILE, is an error.",
)
@command_boundary
def validate(files: tuple[str, ...], fmt: str, finished: bool, duplicates: bool) -> None:
    """Check every game of each transcript FILE ('-' for stdin): its shape, its
    moves and every claim.  Each error goes to stderr as FILE:LINE: game K, move
    M: message, as it is found; a summary goes to stdout (json, json-lines and
    junit write their format there instead).  Each game is checked and reported
    before the next is read.  Exit status 0 when every game is valid, 1 otherwise.
    """
    from ..formats.files import read_source
    from ..formats.transcript import Repeats
    from ..formats.transcript import iter_validate as check

    reporter = Reporter(fmt, lambda text: click.echo(text, nl=False))
    repeats = Repeats() if duplicates else None
    lines: list[str] = []
    games = invalid = unread = 0
    reporter.begin()
    try:
        for path in files:
            name = "<stdin>" if path == "-" else path
            count = bad = 0
            try:
                text, name = read_source(path)
                for report in check(text, name, finished=finished, repeats=repeats):
                    for error in report.errors:
                        click.echo(error_text(error), err=True)
                    count += 1
                    bad += not report.valid
                    reporter.game(_in_cli_words({"file": shown_name(name), **report.to_dict()}), path=name)
            except FormatError as exc:  # said before any game of the file (the file is not a transcript)
                click.echo(error_text(exc), err=True)
                reporter.game(_file_error(name, exc), path=name)
                reporter.file_end(shown_name(name))
                unread += 1
                lines.append(f"{shown_name(name)}: invalid, not checked game by game (see the error above)")
                continue
            reporter.file_end(shown_name(name))
            games += count
            invalid += bad
            lines.append(f"{shown_name(name)}: {counted(count, 'game')}, " + (f"{bad} invalid" if bad else "all valid"))
    finally:
        reporter.end()
    if fmt in ("text", "github"):
        for line in lines:
            click.echo(line)
        if len(files) > 1:
            total = f"{counted(games, 'game')} checked, " + (f"{invalid} invalid" if invalid else "all valid")
            if unread:
                total += f"; {counted(unread, 'file')} not checked (see above)"
            click.echo(total)
    if invalid or unread:
        raise SystemExit(1)
