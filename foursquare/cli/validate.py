"""``foursquare validate``: check transcripts, for CI (FORMATS.md)."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import FormatError, shown_name
from ..formats.transcript import GameReport
from . import SHORT_HELP
from .boundary import Command, cli_text, command_boundary, error_text
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
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a summary; json: one object per game (file, game, valid, errors, ...).",
)
@command_boundary
def validate(files: tuple[str, ...], fmt: str) -> None:
    """Check every game of each transcript FILE ('-' for stdin): its shape, its
    moves and every claim.  Each error goes to stderr as FILE:LINE: game K, move
    M: message; a summary goes to stdout.  Exit status 0 when every game is
    valid, 1 otherwise.
    """
    from ..formats.files import read_source
    from ..formats.transcript import validate as check

    results: list[dict[str, Any]] = []
    lines: list[str] = []
    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            text, name = read_source(path)
            reports = check(text, name)
        except FormatError as exc:
            click.echo(error_text(exc), err=True)
            results.append(_file_error(name, exc))
            lines.append(f"{shown_name(name)}: invalid, not checked game by game (see the error above)")  # said once, on stderr
            continue
        for report in reports:
            for error in report.errors:
                click.echo(error_text(error), err=True)
            results.append(_in_cli_words({"file": shown_name(name), **report.to_dict()}))
        bad = sum(not r.valid for r in reports)
        games = counted(len(reports), "game")
        lines.append(f"{shown_name(name)}: {games}, " + (f"{bad} invalid" if bad else "all valid"))
    invalid = sum(not r["valid"] for r in results)
    if fmt == "json":
        click.echo(json.dumps(results, indent=2))
    else:
        for line in lines:
            click.echo(line)
        if len(files) > 1:
            unread = sum(r["game"] is None for r in results)  # a file not read game by game
            checked = len(results) - unread
            total = f"{counted(checked, 'game')} checked, " + (f"{invalid - unread} invalid" if invalid > unread else "all valid")
            if unread:
                total += f"; {counted(unread, 'file')} not checked (see above)"
            click.echo(total)
    if invalid:
        raise SystemExit(1)
