"""What the subcommands share: the game options, error reporting and the look of the output.

- :func:`game_options` adds ``--deal``, ``--deck`` and ``--rules``.
- :func:`command_boundary` wraps a command so that bad input becomes one line
  on stderr and exit status 1 (FORMATS.md), ``Ctrl-C`` exits quietly, SIGTERM
  runs the ``finally`` blocks, a closed stdin reads as empty, and output piped
  into a reader that closes early (``| head``) is discarded without a word while
  the command runs to its end (its errors and exit status unchanged).
- :func:`load_game_file` reads a game file and refuses a ``--deal``/``--deck``/
  ``--rules`` that disagrees with it; ``--game K`` picks a game of several.
- :class:`Look` decides colour, suit symbols and width for a stream (a terminal,
  not ``NO_COLOR``, not ``TERM=dumb``, not ``--ascii``).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import math
import os
import shutil
import signal
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import click

from ..engine.deal import parse_deal_number
from ..engine.game import Game
from ..engine.rules import STANDARD, Rules
from ..errors import FoursquareError, ParseError


#: The type of every file parameter: shell completion offers files; only an empty
#: name is refused here (a bad file is reported by the reader as ``FILE: reason``, status 1).
class FilePath(click.Path):
    """:class:`click.Path` (``-`` allowed) that refuses an empty name as a usage error."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty file name", param, ctx)
        return super().convert(value, param, ctx)


PATH = FilePath(allow_dash=True)

#: Exit status of an interrupted command (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


# ------------------------------------------------------------------ errors


@contextlib.contextmanager
def signals_deferred():
    """Hold Ctrl-C, SIGTERM and SIGHUP back while the block runs (the last write
    of a recording), then deliver them to the handlers in place again: Ctrl-C
    raises ``KeyboardInterrupt`` (and the run's later Ctrl-Cs are ignored: see
    :func:`foursquare.__main__.run`), SIGTERM and SIGHUP :class:`Terminated`
    under :func:`catch_sigterm`."""
    caught: list[int] = []
    saved = {}
    signals = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    try:
        for signum in signals:
            saved[signum] = signal.signal(signum, lambda n, frame: caught.append(n))
    except (ValueError, OSError):  # not the main thread
        pass
    try:
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):  # in the order they came; the first handler that raises ends it
            signal.raise_signal(signum)


def counted(number: int, noun: str) -> str:
    """``1 move``, ``2 moves``: a count and its noun, plural when it is not 1."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def fail(message: str) -> NoReturn:
    """Print ``message`` (already ``FILE:LINE: ...``) on stderr and exit with status 1."""
    click.echo(f"{message}", err=True)
    sys.exit(1)


def check_output_file(path: str | None, force: bool) -> None:
    """Refuse (status 1) to write an ``--output`` file over a regular file that holds
    something, unless ``force``: what a run writes never silently replaces another
    run's results; a directory is refused too.  ``-`` (stdout), a new or empty file,
    and a pipe or a device (``/dev/null``) pass; opening the file reports the rest."""
    if path is None or path == "-":
        return
    try:
        info = os.stat(path)
    except OSError:
        return
    if stat.S_ISDIR(info.st_mode):
        fail(f"{path}: is a directory, not a file")
    if not force and stat.S_ISREG(info.st_mode) and info.st_size > 0:
        fail(f"{path}: the file exists and is not empty; give --force to overwrite it")


def _reader_gone(exc: OSError) -> bool:
    """Whether a failed write means nobody reads the stream any more: a closed pipe
    (``| head``) or a closed descriptor (``2>&-``), as opposed to a full disk."""
    return isinstance(exc, BrokenPipeError) or exc.errno in (errno.EPIPE, errno.EBADF)


class PipeGuard:
    """``sys.stdout`` for a command: when the reader of stdout goes away (``| head``),
    further output is discarded instead of raising :class:`BrokenPipeError`.

    As the Python documentation advises for SIGPIPE, file descriptor 1 is pointed
    at ``/dev/null`` so that no later flush (the interpreter's last one included)
    complains; the command carries on, so that its errors still reach stderr and
    its exit status stays right.
    """

    def __init__(self, stream, *, any_error: bool = False, name: str = "<stdout>") -> None:
        self._stream = stream
        #: the stream's name in an error message (a full disk: ``<stdout>: No space left on device``)
        self.name = name
        self.broken = False
        #: also give up on other write errors (a full disk): for stderr, where
        #: there is nowhere left to report them
        self._any_error = any_error

    def _broke(self) -> None:
        self.broken = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self._stream.fileno())
            finally:
                os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass  # not a real file (a test runner): the flag alone discards the output

    def write(self, text):
        if self.broken:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            if not (self._any_error or _reader_gone(exc)):
                raise self._named(exc) from None
            self._broke()
            return len(text)

    def flush(self) -> None:
        if self.broken:
            self._discard_buffer()
            return
        try:
            self._stream.flush()
        except OSError as exc:
            if not (self._any_error or _reader_gone(exc)):
                raise self._named(exc) from None
            self._broke()
            self._discard_buffer()

    def _named(self, exc: OSError) -> OSError:
        """``exc`` naming this stream when it names no file."""
        return exc if exc.filename is not None else OSError(exc.errno, exc.strerror, self.name)

    def _discard_buffer(self) -> None:
        try:
            self._stream.flush()  # now into /dev/null
        except (OSError, ValueError):
            pass

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _guarded(stream, *, any_error: bool = False, name: str = "<stdout>") -> PipeGuard:
    """``stream`` behind a :class:`PipeGuard` (once); a closed one (``None``) becomes ``/dev/null``."""
    if stream is None:
        try:
            stream = open(os.devnull, "w", encoding="utf-8")
        except OSError:
            stream = io.StringIO()
    return stream if isinstance(stream, PipeGuard) else PipeGuard(stream, any_error=any_error, name=name)


def guard_stdout() -> None:
    """Install :class:`PipeGuard` as ``sys.stdout`` (once); a closed stdout
    (``>&-``) becomes ``/dev/null``, so that the command still runs to its end."""
    sys.stdout = _guarded(sys.stdout)


def guard_stderr() -> None:
    """Guard ``sys.stderr`` as :func:`guard_stdout` guards stdout: a usage error written
    into a closed pipe (``2>&1 | head -0``), a closed stderr (``2>&-``) or a full disk
    (``2>/dev/full``) must still end with Click's status 2, not with the status 1 of a
    failed write (stderr gives up on any write error: there is nowhere to report it)."""
    sys.stderr = _guarded(sys.stderr, any_error=True, name="<stderr>")


def ensure_stdin() -> None:
    """A closed standard input (``<&-``) reads as empty input, like ``/dev/null``."""
    if sys.stdin is None:
        try:
            sys.stdin = open(os.devnull, encoding="utf-8")
        except OSError:
            sys.stdin = io.StringIO()


class Terminated(SystemExit):
    """SIGTERM or SIGHUP, turned into an exit with status 128 + the signal so that
    ``finally`` blocks run; :func:`command_boundary` says ``Terminated.``."""


def _terminated(signum, frame) -> NoReturn:
    for name in ("SIGTERM", "SIGHUP"):  # one is enough: the clean-up it starts runs to its end
        with contextlib.suppress(AttributeError, ValueError, OSError):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    raise Terminated(128 + signum)


def catch_sigterm() -> dict:
    """SIGTERM (and SIGHUP, a closed terminal) exits through :class:`SystemExit`
    (status 128 + the signal), so that ``finally`` blocks run: a recording is
    written, a temporary file removed.

    :returns: the handlers replaced, for :func:`restore_handlers`.
    """
    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        try:
            if signal.getsignal(signum) is signal.SIG_DFL:
                saved[signum] = signal.signal(signum, _terminated)
        except (ValueError, OSError):  # not the main thread
            pass
    return saved


def worker_signals() -> None:
    """In a batch worker process: SIGTERM and SIGHUP end the worker at once and
    quietly, through :class:`SystemExit` (status 128 + the signal), whatever handlers
    it inherited.  (Ctrl-C is the parent's to handle: every worker of
    :func:`foursquare.parallel.ordered_map` ignores it.)"""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _terminated)


def restore_handlers(saved: dict) -> None:
    """Put back the signal handlers that :func:`catch_sigterm` replaced."""
    for signum, handler in saved.items():
        try:
            signal.signal(signum, handler)
        except (ValueError, OSError):
            pass


def quiet_broken_pipe() -> NoReturn:
    """End quietly after the reader of stdout went away, where the guard could not help."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except (OSError, ValueError):
        pass
    sys.exit(0)


def error_text(exc: BaseException) -> str:
    """One line for an error at the command boundary: ``FILE:LINE: message``
    for a :class:`~foursquare.errors.FormatError`, ``FILE: reason`` for a file
    that cannot be read."""
    if isinstance(exc, UnicodeDecodeError):
        return f"the input is not UTF-8 text (byte {exc.start}: {exc.reason})"
    if isinstance(exc, OSError):
        name = str(exc.filename).replace("\0", "\\0") if exc.filename is not None else "error"  # a NUL typed in a name
        return f"{name}: {exc.strerror or exc}"
    return str(exc)


#: The parameters of our commands that name a file to read, where ``-`` means stdin.
_INPUT_PARAMETERS = ("game_path", "moves_path", "deck_path", "rules_spec", "resume_path", "files")


def stdin_once(params: dict) -> None:
    """A usage error (status 2) when a command's inputs name ``-`` more than once:
    standard input can be read only once (``--deck - --rules -``, ``FILE - --deck -``)."""
    uses = 0
    for name in _INPUT_PARAMETERS:
        value = params.get(name)
        if isinstance(value, (tuple, list)):
            uses += list(value).count("-")
        elif value == "-":
            uses += 1
    if uses > 1:
        raise click.UsageError("'-' (stdin) given more than once: standard input can be read only once")


def command_boundary(func: Callable) -> Callable:
    """Decorate a command: errors become one line and status 1, never a traceback.

    :class:`~foursquare.errors.FoursquareError` (``FormatError`` included),
    :class:`OSError` and :class:`UnicodeDecodeError` are reported with
    :func:`fail`; :class:`BrokenPipeError` ends quietly; ``Ctrl-C`` prints
    ``Interrupted.`` and exits with status 130.  Click's own usage errors pass
    through (status 2).

    Standard output is guarded (:class:`PipeGuard`): a reader that closes early
    only silences the output; a closed stdin reads as empty; SIGTERM runs the
    ``finally`` blocks (:func:`catch_sigterm`).
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        stdin_once(kwargs)
        guard_stdout()
        ensure_stdin()
        handlers = catch_sigterm()
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:  # output written around the guard
            quiet_broken_pipe()
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Terminated:
            with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
                click.echo("Terminated.", err=True)
            raise
        except (FoursquareError, UnicodeDecodeError, OSError) as exc:
            fail(error_text(exc))
        finally:
            restore_handlers(handlers)
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                quiet_broken_pipe()

    return wrapper


# ----------------------------------------------------------------- options


def _plain_digits(text: str) -> bool:
    """Whether an option's value is ASCII digits and nothing else: no sign, no
    Unicode digits (``４``), no white space around them (README: integer options)."""
    return bool(text) and text.isascii() and text.isdigit()


def _deal_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    from ..engine.deal import MAX_DEAL

    text = value
    range_text = f"expected a whole number from 0 to {MAX_DEAL}"
    if len(text) > 40 and text.isascii() and text.isdigit():  # int() would refuse 5000 digits
        raise click.BadParameter(f"{value[:24]}... ({len(text)} digits) is not a deal number ({range_text})")
    try:
        if not _plain_digits(value):
            raise ParseError("not ASCII digits")
        return parse_deal_number(value)
    except (ParseError, ValueError):
        shown = value if len(value) <= 40 else value[:24] + "..."
        raise click.BadParameter(f"not a deal number: {shown!r} ({range_text})") from None


def game_options(func: Callable | None = None, *, deck_stdin: bool = True) -> Callable:
    """Add ``--deal N``, ``--deck FILE`` and ``--rules NAME|FILE`` to a command
    (``@game_options``, or ``@game_options(deck_stdin=False)`` for a command whose
    stdin holds something else, so that its help does not offer ``-``)."""
    if func is None:
        return functools.partial(game_options, deck_stdin=deck_stdin)
    func = click.option(
        "--rules",
        "rules_spec",
        metavar="NAME|FILE",
        help="Rule set: a preset name (standard, fixed-board, ...) or a rules YAML file. Default: standard.",
    )(func)
    func = click.option(
        "--deck",
        "deck_path",
        metavar="FILE",
        type=PATH,
        help="Card order, top first, white-space separated"
        + (" ('-' for stdin)." if deck_stdin else " (a file: stdin holds the moves)."),
    )(func)
    func = click.option(
        "--deal",
        metavar="N",
        callback=_deal_callback,
        help="Deal number (0 to 2^64-1), as in RULES.md section 2.",
    )(func)
    return func


class PositiveSeconds(click.ParamType):
    """A time in seconds: a finite number above 0 (``nan``, ``inf`` and ``0`` are usage errors)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            try:
                # float() would take "1_0" as 10: integer options refuse digit separators, so do seconds
                number = float(text) if "_" not in text else None
            except (ValueError, OverflowError):
                number = None
        shown = repr(value) if len(str(value)) <= 40 else repr(str(value)[:24] + "...")
        if number is None:
            self.fail(f"{shown} is not a number of seconds", param, ctx)
        if not math.isfinite(number) or number <= 0:
            self.fail(f"{shown} is not a finite number of seconds above 0", param, ctx)
        return number


#: The type of ``--timeout`` and ``--budget`` options.
SECONDS = PositiveSeconds()


class BoundedInt(click.ParamType):
    """A whole number written in ASCII digits, within ``[low, high]``: the type of
    every integer option.

    Unlike :class:`click.IntRange`, it accepts no Unicode digits (``４``), no sign
    or underscores, checks the number of digits before converting (``int()`` of
    5000 digits raises), and quotes bad input shortly
    (:func:`foursquare.errors.quote`).  Usage error (status 2) otherwise.
    """

    name = "integer"

    def __init__(self, low: int = 0, high: int = 2**63 - 1) -> None:
        self.low = low
        self.high = high

    def _range(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def convert(self, value, param, ctx):
        from ..errors import quote

        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value)
            if not _plain_digits(text):
                self.fail(f"{quote(str(value))} is not {self._range()}", param, ctx)
            digits = text.lstrip("0") or "0"
            if len(digits) > len(str(self.high)):
                self.fail(f"{quote(text)} is too large (expected {self._range()})", param, ctx)
            number = int(digits)
        if not self.low <= number <= self.high:
            self.fail(f"{quote(number)} is out of range (expected {self._range()})", param, ctx)
        return number

    def __repr__(self) -> str:
        return f"BoundedInt({self.low}, {self.high})"


#: A count of at least 1 (``--jobs``, ``--nodes``, ``--max-nodes``, ``--game``).
POSITIVE = BoundedInt(1)
#: A whole number from 0 (``--seed``, ``--after``).
NATURAL = BoundedInt(0)
#: ``--jobs``: worker processes, 1 to 256.
JOBS = BoundedInt(1, 256)


def exclusive(**options) -> None:
    """Raise a usage error (status 2) when more than one of the given options is set."""
    given = [name for name, value in options.items() if value is not None and value is not False]
    if len(given) > 1:
        raise click.UsageError(f"use only one of {', '.join('--' + n.replace('_', '-') for n in given)}")


def option_needs(option: str, value, other: str, other_value) -> None:
    """Raise a usage error (status 2) when ``option`` (a name like ``--force``) is set
    (``value`` neither ``None`` nor ``False``) without ``other``, the option it only
    modifies: an option given in vain is an error, not silently ignored."""
    if value is not None and value is not False and (other_value is None or other_value is False):
        raise click.UsageError(f"{option} needs {other}")


def bot_option_needs(option: str, value, names, uses: str) -> None:
    """Raise a usage error (status 2) when ``option`` is set for bots ``names`` none of
    which it changes (``uses``: the :class:`~foursquare.bots.base.Bot` flag, like
    ``uses_nodes``), naming the bots it does change."""
    from ..bots import BOTS

    if value is None or value is False or any(getattr(BOTS[n], uses) for n in names if n in BOTS):
        return
    takers = [n for n, cls in BOTS.items() if getattr(cls, uses)]
    raise click.UsageError(f"{option} changes nothing for {', '.join(names)}: it applies to {', '.join(takers)}")


class Command(click.Command):
    """Every ``foursquare`` command: an option that takes one value is a usage error
    when given twice (``--vs expectimax --vs random`` would keep only the last,
    silently); options meant to repeat (``--bot``) and flags are not affected."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _, _, order = self.make_parser(ctx).parse_args(args=list(args))
        seen: set[str] = set()
        for param in order:
            if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
                continue
            if param.name in seen:
                names = " / ".join(f"'{name}'" for name in param.opts)  # its aliases too (--nodes, --samples)
                raise click.UsageError(f"Option {names} is given more than once: it takes one value", ctx)
            seen.add(param.name)
        return super().parse_args(ctx, args)


def given_on_the_command_line(name: str) -> bool | None:
    """Whether the current command's parameter ``name`` was given (on the command line
    or in the environment) rather than left at its default: ``True``, or ``None``
    (for :func:`option_needs`)."""
    source = click.get_current_context().get_parameter_source(name)
    return True if source not in (None, click.core.ParameterSource.DEFAULT) else None


def load_rules_option(spec: str | None) -> Rules | None:
    """The rule set of a ``--rules`` value (a preset name or a rules file), or ``None`` when not given.

    :raises click.BadParameter: when the value is neither a preset nor a file (status 2).
    :raises FormatError: for a rules file with a problem (status 1 at the boundary).
    """
    if spec is None:
        return None
    from ..engine.rules import PRESETS
    from ..formats.rulesfile import load_rules

    if spec not in PRESETS and spec != "-" and not os.path.exists(spec):
        raise click.BadParameter(
            f"{spec!r} is neither a preset ({', '.join(PRESETS)}) nor a rules file", param_hint="'--rules'"
        )
    return load_rules(spec)


def read_deck_option(path: str, rules: Rules | None) -> list:
    """The cards of a ``--deck`` file (``-`` for stdin), top first.

    :raises FormatError: naming the file and line of the first bad card.
    """
    from ..formats.sources import read_deck, read_source

    text, name = read_source(path)
    return read_deck(text, name, rules or STANDARD)


def new_game(deal: int | None, deck_path: str | None, rules: Rules | None) -> Game | None:
    """A new game from ``--deal`` or ``--deck``; ``None`` when neither is given."""
    if deal is not None:
        return Game.from_deal(deal, rules or STANDARD)
    if deck_path is not None:
        return Game(read_deck_option(deck_path, rules), rules or STANDARD)
    return None


def game_number_option(func: Callable) -> Callable:
    """Add ``--game K``: which game of a multi-game transcript."""
    return click.option(
        "--game",
        "game_number",
        type=POSITIVE,
        metavar="K",
        help="The K-th game of a transcript that holds several (from 1).",
    )(func)


def load_game_file(
    path: str,
    deal: int | None,
    deck_path: str | None,
    rules: Rules | None,
    *,
    rules_spec: str | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``--deal`` / ``--deck`` / ``--rules`` give what the file does not.

    :param game_number: the game of a multi-game transcript (from 1); without it
        such a file is an error that says how to pick one.
    :raises click.UsageError: when ``--deal``, ``--deck`` or ``--rules`` disagrees
        with what the file names itself (status 2), or ``--game`` is given for a
        file that is not a transcript.
    :raises FormatError: ``FILE:LINE: message`` at the first problem.
    """
    from ..formats.sources import read_source

    text, name = read_source(path)
    return load_game_text(
        text, name, deal, deck_path, rules, rules_spec=rules_spec, game_number=game_number, empty_ok=empty_ok
    )


def load_game_text(
    text: str,
    name: str,
    deal: int | None,
    deck_path: str | None,
    rules: Rules | None,
    *,
    rules_spec: str | None = None,
    game_number: int | None = None,
    empty_ok: bool = True,
) -> Game:
    """:func:`load_game_file` for a file already read (``name`` is its display name).

    A text without moves (empty, or only comments and blank lines) is an empty
    move script: the start of ``--deal``/``--deck`` (an error without them, or
    with ``empty_ok=False``, as for ``play --resume``)."""
    from ..errors import FormatError
    from ..formats.movescript import strip_line
    from ..formats.sources import input_kind, load_input

    deck = read_deck_option(deck_path, rules) if deck_path is not None else None
    if not any(strip_line(line) for line in text.splitlines()):
        what = "is empty" if not text.strip() else "holds only comments"
        if not empty_ok:
            raise FormatError(name, 1, f"the file {what}: there is no game in it")
        if deal is None and deck is None:
            raise FormatError(
                name, 1,
                f"the file {what} (expected a move script, a transcript or a state;"
                " with --deal N or --deck FILE, an empty move script means the start of the deal)",
            )
        if game_number is not None:
            raise click.UsageError(f"--game picks a game of a transcript; {name} is not a transcript")
        if deal is not None:
            return Game.from_deal(deal, rules or STANDARD)
        return Game(deck, rules or STANDARD)
    if input_kind(text) == "transcript":
        game = _transcript_game(text, name, deal, deck, rules, game_number)
    else:
        if game_number is not None:
            raise click.UsageError(f"--game picks a game of a transcript; {name} is not a transcript")
        game = load_input(text, name, deal=deal, deck=deck, rules=rules)
    game = _extended(game, deal, deck)
    _check_agreement(game, name, deal, deck, deck_path, rules, rules_spec)
    return game


def _extended(game: Game, deal: int | None, deck: list | None) -> Game:
    """The game replayed on the longer card order of ``--deal``/``--deck`` when its file
    lists only the first cards (a ``deck:`` prefix, or moves that name their cards)
    and that order goes on with them; otherwise the game as it is."""
    if game.deal is not None or len(game.moves) != game.placed or (deal is None and deck is None):
        return game
    longer = Game.from_deal(deal, game.rules) if deal is not None else Game(deck, game.rules)
    known = list(game.deck)
    if len(longer.deck) <= len(known) or list(longer.deck[: len(known)]) != known:
        return game
    for placement in game.moves:
        longer.play(placement.cell, placement.card)
    return longer


def _transcript_game(text, name, deal, deck, rules, game_number) -> Game:
    from ..errors import FormatError
    from ..formats.transcript import check_game, read_transcripts

    games = read_transcripts(text, name)
    if game_number is None:
        if len(games) > 1:
            raise FormatError(
                name, games[1].line, f"the file holds {len(games)} games; pick one with --game K (1 to {len(games)})"
            )
        game_number = 1
    elif game_number > len(games):
        held = "1 game" if len(games) == 1 else f"{len(games)} games"
        raise FormatError(name, None, f"--game {game_number}: the file holds only {held}")
    # a transcript plays the rules it names, the standard rules when it names none
    # (FORMATS.md): a --rules that differs is then a disagreement, as for validate
    game, errors = check_game(games[game_number - 1], name, deal=deal, deck=deck)
    if errors:
        raise errors[0]
    assert game is not None
    return game


def _check_agreement(game: Game, name: str, deal, deck, deck_path, rules, rules_spec) -> None:
    """A ``--deal``/``--deck``/``--rules`` that the file overrides is a usage error,
    not something to ignore silently; one equal to the file's own is accepted."""
    if deal is not None and game.deal != deal:
        own = f"names deal {game.deal}" if game.deal is not None else "has its own card order"
        raise click.UsageError(f"{name} {own}; --deal {deal} disagrees")
    if deck is not None and list(game.deck[: len(deck)]) != list(deck):
        own = f"names deal {game.deal}" if game.deal is not None else "has its own card order"
        raise click.UsageError(f"{name} {own}; --deck {deck_path} disagrees")
    if rules is not None and game.rules != rules:
        raise click.UsageError(f"{name} plays the {game.rules.label} rules; --rules {rules_spec or rules.label} disagrees")


# ------------------------------------------------------------------- looks


_COLOURS = {
    "red": {"fg": "red", "bold": True},
    "black": {"bold": True},
    "down": {"fg": "blue"},
    "legal": {"fg": "green"},
    "flip": {"fg": "yellow", "bold": True},
    "frame": {"dim": True},
    "title": {"bold": True},
    "error": {"fg": "red"},
}


@dataclass(frozen=True)
class Look:
    """How to draw for one output stream.

    :ivar color: use colour (ANSI styles through :func:`click.style`).
    :ivar symbols: use suit symbols (``10♦``) rather than ASCII (``TD``).
    :ivar width: the terminal's width (long text lines are broken to fit), or ``None``.
    """

    color: bool = False
    symbols: bool = False
    width: int | None = None

    @classmethod
    def for_stream(cls, stream=None, *, ascii: bool = False) -> "Look":
        """Colour and symbols only on a terminal that can show them; never colour
        under ``NO_COLOR`` (https://no-color.org) or on a ``TERM=dumb`` terminal;
        neither with ``ascii``.  On a terminal, its width too."""
        stream = sys.stdout if stream is None else stream
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
        if not terminal:
            return cls(False, False)
        width = shutil.get_terminal_size().columns or None
        if ascii:
            return cls(False, False, width)
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "♣♦♥♠".encode(encoding)
            symbols = True
        except (LookupError, UnicodeEncodeError):
            symbols = False
        dumb = os.environ.get("TERM", "") == "dumb"
        return cls(not os.environ.get("NO_COLOR") and not dumb, symbols, width)

    def style(self, text: str, role: str) -> str:
        """``text`` styled for its role when colour is on (see :mod:`foursquare.render`)."""
        if not self.color or role not in _COLOURS:
            return text
        return click.style(text, **_COLOURS[role])

    def draw(self, game: Game, *, reveal: bool = False, label: str = "Last move") -> str:
        """:func:`foursquare.render.draw` with this look (symbols, colour, width)."""
        from .render import draw

        return draw(game, symbols=self.symbols, reveal=reveal, style=self.style, label=label, width=self.width)

    def echo(self, text: str = "", **kwargs) -> None:
        """:func:`click.echo` with this look's colour decision."""
        click.echo(text, color=self.color, **kwargs)


#: The most deals one ``--deals`` range may name (a larger range is a typo, not a plan).
MAX_DEALS = 10_000_000


def deal_range(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> range | None:
    """Click callback of ``--deals A-B``: the deal numbers A to B inclusive (or one number ``A``).

    :raises click.BadParameter: (status 2) for text that is not a range of deal
        numbers, a range that ends before it starts, or one of more than
        :data:`MAX_DEALS` deals.
    """
    if value is None:
        return None
    from ..errors import quote

    first, sep, last = value.partition("-")
    try:
        if not _plain_digits(first) or (sep and not _plain_digits(last)):
            raise ParseError("not ASCII digits")
        a = parse_deal_number(first)
        b = parse_deal_number(last) if sep else a
    except ParseError:
        raise click.BadParameter(
            f"{quote(value)} is not a range of deal numbers (expected A-B with 0 <= A <= B < 2^64, like 0-999)"
        ) from None
    if b < a:
        raise click.BadParameter(f"{quote(value)}: the range ends before it starts")
    if b - a + 1 > MAX_DEALS:
        raise click.BadParameter(f"{quote(value)}: at most {MAX_DEALS:,} deals at a time")
    return range(a, b + 1)
