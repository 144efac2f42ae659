"""``foursquare validate``: check transcripts, for CI (FORMATS.md)."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..errors import FormatError, shown_name
from ..formats.reports import Reporter, inert
from . import SHORT_HELP
from .boundary import CLI_ADVICE, Command, command_boundary, error_text
from .options import PATH
from .signals import ENDING, Terminated, signals_deferred
from .style import counted

if TYPE_CHECKING:
    from ..formats.transcript import Repeats  # (loaded once the report has begun)

#: Said (in the format itself) when the run stops before its end.
INCOMPLETE = "the check was interrupted: this report is incomplete (the games after the last one reported were not checked)"


def _whole(action: Callable[..., None], *args: Any) -> None:
    """Run ``action(*args)`` (a write) with Ctrl-C, SIGTERM and SIGHUP held back, so that
    an interrupted run never leaves half a JSON object or half a testcase; between
    writes (reading a slow pipe, checking a game) a signal acts at once.  Where the
    system has it, the signals are blocked (two calls a write, where putting handlers in
    place and back takes six: a flood of tiny documents took twice as long)."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows)
        with signals_deferred():
            action(*args)
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT, *ENDING])
    try:
        action(*args)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


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
    help="A game that repeats an earlier one (same deal or deck, rules and moves), in any FILE, is an error;"
    " a FILE given twice (under any name) is an error, not checked again.",
)
@command_boundary
def validate(files: tuple[str, ...], fmt: str, finished: bool, duplicates: bool) -> None:
    """Check every game of each transcript FILE ('-' for stdin): its shape, its
    moves and every claim.  Each error goes to stderr as FILE:LINE: game K, move
    M: message, as it is found; a summary goes to stdout (json, json-lines and
    junit write their format there instead).  Each game is read, checked and
    reported before the next is read, in memory that does not grow with the
    games.  Exit status 0 when every game is valid, 1 otherwise; an interrupted
    run says in its format that the report is incomplete.
    """
    # From the moment the command can write (the formats loaded inside the ``try``), a
    # Ctrl-C or SIGTERM ends it with a whole report that says it is incomplete; the
    # report's end is written whole before the ``try`` is left (:meth:`Reporter.end`
    # writes it once).
    reporter = Reporter(fmt, lambda text: click.echo(text, nl=False))
    run = _Validation(reporter, finished)
    try:
        from ..formats.transcript import Repeats  # (the formats loaded, then the report begun)

        run.repeats = Repeats() if duplicates else None
        _whole(reporter.begin)
        for path in files:
            run.file(path)
        _whole(reporter.end)
    except (KeyboardInterrupt, Terminated):
        with signals_deferred():  # (a second signal of another kind waits for the entry)
            reporter.incomplete(run.current, INCOMPLETE)
            reporter.end()
        raise
    finally:
        with signals_deferred():  # (another error: the report still ends)
            reporter.end()
    if fmt in ("text", "github"):  # a line a file, and (several files) the whole run's
        for line in run.lines:
            click.echo(run.line(line))
        if len(files) > 1:
            words = f"{counted(run.games, 'game')} checked, " + (f"{run.invalid} invalid" if run.invalid else "all valid")
            if run.unread:
                words += f"; {counted(run.unread, 'file')} not checked (see above)"
            click.echo(run.line(words))
    if run.invalid or run.unread:
        raise SystemExit(1)


class _Validation:
    """The files of one ``validate`` run, checked in turn: each game reported as it is
    read (:class:`Reporter`), a line a file and the counts kept for the summary."""

    def __init__(self, reporter: Reporter, finished: bool) -> None:
        self.reporter = reporter
        self.finished = finished
        self.lines: list[str] = []
        self.games = self.invalid = self.unread = 0
        self.seen: dict[tuple[int, int], str] = {}  # file identity -> its name, with --duplicates
        self.current: str | None = None  # the file being checked (its shown name)
        self.repeats: Repeats | None = None  # the games seen, with --duplicates
        # Every line but the annotations is inert to GitHub's runner in its format.
        self.line: Callable[[str], str] = inert if reporter.fmt == "github" else str

    def report(self, result: dict[str, Any], errors: list[FormatError], path: str) -> None:
        for error in errors:
            click.echo(self.line(error_text(error)), err=True)
        self.reporter.game(result, path=path)

    def file(self, path: str) -> None:
        """Check every game of one file (unless it was given already, with ``--duplicates``),
        each reported as it is read."""
        from ..formats.inputs import InputFile
        from ..formats.transcript import iter_validate as check

        name = "<stdin>" if path == "-" else path
        identity = None  # with --duplicates, a regular file's device and inode (standard input's for -)
        if self.repeats is not None:  # to tell the same file given twice under two names
            with contextlib.suppress(OSError, ValueError):
                info = os.fstat(0) if path == "-" else os.stat(path)
                identity = (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None
        if identity is not None and identity in self.seen:
            twice = FormatError(name, None, f"the same file as {shown_name(self.seen[identity])}, given twice:"
                                " with --duplicates each of its games would repeat itself; not checked again")  # fmt: skip
            self._unread(name, twice, f"{shown_name(name)}: invalid, given twice (see the error above)")
            return
        if identity is not None:
            self.seen[identity] = name
        self.current = shown = shown_name(name)
        count = bad = 0
        try:
            with InputFile(path) as source:
                for one in check(source, name, finished=self.finished, repeats=self.repeats):
                    count += 1
                    bad += not one.valid
                    _whole(self.report, {"file": shown, **one.to_dict(CLI_ADVICE)}, one.errors, name)
        except FormatError as exc:  # the file itself: not a transcript, not UTF-8, over the cap
            stopped = f"{counted(count, 'game')} checked, then reading stopped" if count else "not checked game by game"
            self._unread(name, exc, f"{shown}: invalid, {stopped} (see the error above)")
        else:
            _whole(self.reporter.file_end, shown)
            self.lines.append(f"{shown}: {counted(count, 'game')}, " + (f"{bad} invalid" if bad else "all valid"))
        self.games += count
        self.invalid += bad
        self.current = None

    def _unread(self, name: str, exc: FormatError, line: str) -> None:
        """A file not checked (through): its error reported (an object of no game), its line kept."""
        from ..formats.transcript import GameReport

        shown = shown_name(name)
        _whole(self.report, {"file": shown, **GameReport(None, False, [exc], None, exc.line).to_dict(CLI_ADVICE)}, [exc], name)
        _whole(self.reporter.file_end, shown)
        self.unread += 1
        self.lines.append(line)
