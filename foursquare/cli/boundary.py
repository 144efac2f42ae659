"""The boundary of every command: errors become one line on stderr and an exit
status (FORMATS.md, command line), never a traceback.

- :func:`command_boundary` wraps a command's function: bad input becomes one line
  and status 1, a disagreement between the options and a file status 2, ``Ctrl-C``
  exits quietly with status 130, SIGTERM runs the ``finally`` blocks, a closed
  stdin reads as empty, and output piped into a reader that closes early
  (``| head``) is discarded without a word while the command runs to its end.
- :class:`Command` is the class of every command (an option given twice is a usage error).
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any, NoReturn, TypeVar

import click

from ..app.files import READ_ONLY, claim, is_read_only, is_standard_stream, os_error_words
from ..errors import Advice, AgreementError, FoursquareError, shorten, shown_name
from .signals import EXIT_INTERRUPTED, Terminated, catch_sigterm, restore_handlers
from .streams import ensure_stdin, guard_stdout, quiet_broken_pipe

F = TypeVar("F", bound=Callable[..., Any])


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
        fail(f"{shown_name(path)}: is a directory, not a file")
    if stat.S_ISREG(info.st_mode) and is_read_only(info.st_mode):
        fail(f"{shown_name(path)}: {READ_ONLY}")
    if not force and stat.S_ISREG(info.st_mode) and info.st_size > 0:
        fail(f"{shown_name(path)}: the file exists and is not empty; give --force to overwrite it")


def refuse_standard_output(option: str, path: str | None, also: str, instead: str = "") -> None:
    """A usage error (status 2) when ``path``, given to ``option``, is standard output
    itself (:func:`~foursquare.app.files.is_standard_stream`: ``/dev/stdout``, or
    ``F`` while stdout is redirected to ``F``): what ``also`` writes to stdout would
    mix with it, as ``-`` is refused where it would.  ``instead``: what to do, for the
    message."""
    if path is None or not is_standard_stream(path, 1):
        return
    name = shown_name(path)
    raise click.UsageError(
        f"{option} {name} and {also} would both write to stdout: {name} is standard output" + (f"; {instead}" if instead else "")
    )


def open_output_file(path: str, force: bool) -> IO[str]:
    """Open an ``--output`` file to write rows into (``-``: standard output, not to be
    closed): a regular file is claimed (:func:`~foursquare.app.files.claim`:
    created atomically, locked while it is written, refused when another command
    writes it or it is read-only) and, unless ``force``, refused (status 1) when it
    holds something; then emptied.  A device or a pipe (``/dev/null``) is opened as it is
    (the claim holds it :attr:`~foursquare.app.files.LockedFile.straight`)."""
    if path == "-":
        return sys.stdout
    held = claim(path)
    if not force and held.size() > 0:
        held.release()
        fail(f"{path}: the file exists and is not empty; give --force to overwrite it")
    return held.stream()


#: How the command line says each piece of the library's advice (:class:`~foursquare.errors.Advice`;
#: templates filled from the error's facts).
CLI_ADVICE: dict[Advice, str] = {
    Advice.NAME_THE_CARDS: "give --deal N or --deck FILE",
    Advice.NAME_MORE_CARDS: "give --deal N, or a --deck FILE that names more cards",
    Advice.REVEAL: (
        "use the full state (foursquare state without --player-view, or with --player-view --reveal)"
        " or write the card, which the player saw when it was placed"
    ),
    Advice.READ_AS_STATE: "foursquare state FILE reads it, play --resume FILE resumes it",
    Advice.USE_AS_RULES: "give it to a command with --rules FILE",
    Advice.PICK_GAME: "pick one with --game K (1 to {games})",
    Advice.START_OF_DEAL: "with --deal N or --deck FILE, an empty move script means the start of the deal",
    Advice.OTHER_FILE: "give another --output file, or --force without --resume to write over it",
}


def error_text(exc: BaseException) -> str:
    """One line for an error at the command boundary: ``FILE:LINE: message``
    for a :class:`~foursquare.errors.FormatError`, ``FILE: reason`` for a file
    that cannot be read."""
    if isinstance(exc, UnicodeDecodeError):
        return f"the input is not UTF-8 text (byte {exc.start}: {exc.reason})"
    if isinstance(exc, OSError):
        filename = os.fsdecode(exc.filename) if isinstance(exc.filename, bytes) else str(exc.filename)
        # a name typed at the prompt may be a million characters: shown short, as input is
        name = shorten(shown_name(filename), 200) if exc.filename is not None else "error"
        return f"{name}: {os_error_words(exc)}"
    if isinstance(exc, FoursquareError):
        return exc.text(CLI_ADVICE)
    return str(exc)


#: The parameters of our commands that name a file to read, where ``-`` means stdin.
_INPUT_PARAMETERS = ("game_path", "moves_path", "deck_path", "rules_spec", "resume_path", "files")


def _is_stdin_stream(path: str) -> bool:
    """Whether ``path`` names standard input itself when that is a stream read once
    (a pipe, a socket, a terminal): ``/dev/stdin``, ``/proc/self/fd/0``.  A regular file
    redirected to stdin is read again from its start through its name, and ``/dev/null``
    reads empty every time: neither counts."""
    # (is_standard_stream reads fd 0's mode first: a closed stdin names nothing)
    once = (stat.S_IFIFO, stat.S_IFSOCK, stat.S_IFCHR)  # a character device only as a terminal: not /dev/null
    return path.startswith("/") and is_standard_stream(path, 0) and stat.S_IFMT(os.fstat(0).st_mode) in once


def stdin_once(params: Mapping[str, object]) -> None:
    """A usage error (status 2) when a command's inputs name standard input more than
    once (``-``, or ``/dev/stdin`` on a pipe): it can be read only once (``--deck - --rules -``,
    ``FILE - --deck -``, ``/dev/stdin --deck -``)."""
    names = [
        path
        for value in (params.get(name) for name in _INPUT_PARAMETERS)  # a value, or a tuple of them (FILES)
        for path in (value if isinstance(value, (tuple, list)) else [value])
        if isinstance(path, str) and (path == "-" or _is_stdin_stream(path))
    ]
    if len(names) > 1:
        if set(names) == {"-"}:
            raise click.UsageError("'-' (stdin) given more than once: standard input can be read only once")
        shown = list(dict.fromkeys(shown_name(n) for n in names))
        raise click.UsageError(
            f"{' and '.join(shown)} {'both' if len(shown) == 2 else 'all'} name standard input, which can be read only once"
        )


#: The options that bound a command's search, by their parameter's name: lowering one
#: is what to try when the command runs out of memory.
_SEARCH_BOUNDS = {"max_nodes": "--max-nodes", "nodes": "--nodes"}


def out_of_memory_text(params: Mapping[str, object]) -> str:
    """The one line for a command that ran out of memory (:class:`MemoryError`), with
    what to try: a lower ``--memory`` when one was given, else a lower bound on its search
    when it has one (``--max-nodes``)."""
    option = "--memory" if params.get("memory") is not None else next(
        (option for name, option in _SEARCH_BOUNDS.items() if name in params), None
    )
    return (
        f"out of memory: the search needs more memory than there is; try a lower {option}" if option
        else "out of memory: the command needs more memory than there is (is an input too large?)"
    )


def command_boundary(func: F) -> F:
    """Decorate a command: errors become one line and status 1, never a traceback.

    :class:`~foursquare.errors.FoursquareError` (``FormatError`` included),
    :class:`OSError` and :class:`UnicodeDecodeError` are reported with
    :func:`fail`; :class:`MemoryError` too, and the :class:`SystemError` of an allocation
    that failed in C code (:func:`out_of_memory_text`: status 1, once
    the ``finally`` blocks have kept what was written and the memory is let go); an
    :class:`~foursquare.errors.AgreementError` that no command translated is a usage
    error (status 2);
    :class:`BrokenPipeError` ends quietly;
    ``Ctrl-C`` prints ``Interrupted.`` and exits with status 130.  Click's own
    usage errors pass through (status 2).

    Standard output is guarded (:class:`~foursquare.cli.streams.PipeGuard`): a
    reader that closes early only silences the output; a closed stdin reads as
    empty; SIGTERM runs the ``finally`` blocks
    (:func:`~foursquare.cli.signals.catch_sigterm`).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        stdin_once(kwargs)
        guard_stdout()
        ensure_stdin()
        handlers = catch_sigterm()
        ran_out: str | None = None  # out of memory: where ("deal N" of a sweep, or "")
        try:  # (a SIGTERM is said wherever it strikes once it is caught: in a handler below, in the finally too)
            try:
                return func(*args, **kwargs)
            except (MemoryError, SystemError) as exc:  # (SystemError: an allocation failed in C code; not kept: the search's memory)
                ran_out = exc.args[0] if exc.args and str(exc.args[0]).startswith("deal ") else ""
            except BrokenPipeError:  # output written around the guard
                quiet_broken_pipe()
            except KeyboardInterrupt:
                click.echo("Interrupted.", err=True)
                sys.exit(EXIT_INTERRUPTED)
            except AgreementError as exc:
                raise click.UsageError(str(exc)) from None
            except (FoursquareError, UnicodeDecodeError, OSError) as exc:
                fail(error_text(exc))
            finally:
                restore_handlers(handlers)
                try:
                    sys.stdout.flush()
                except BrokenPipeError:
                    quiet_broken_pipe()
        except Terminated:
            with contextlib.suppress(OSError, ValueError):  # SIGHUP: the terminal may be gone
                click.echo("Terminated.", err=True)
            raise
        if ran_out is not None:
            fail(f"{ran_out}: {out_of_memory_text(kwargs)}" if ran_out else out_of_memory_text(kwargs))

    return wrapper  # type: ignore[return-value]  # the same signature


class Command(click.Command):
    """Every ``foursquare`` command: an option that takes one value is a usage error
    when given twice (``--vs expectimax --vs random`` would keep only the last,
    silently), and so are both halves of an on/off pair (``--history --no-history``:
    ``use only one of ...``, as :func:`~foursquare.cli.options.exclusive` says it);
    options meant to repeat (``--bot``) and a flag given twice are not affected.  The
    message of a missing argument or option is one line (the values of a choice too)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            words = args[: args.index("--")] if "--" in args else args
            for param in order:
                if isinstance(param, click.Option) and param.is_flag and param.secondary_opts and order.count(param) > 1:
                    halves = [name for name in (*param.opts, *param.secondary_opts) if name in words]
                    if any(h in param.opts for h in halves) and any(h in param.secondary_opts for h in halves):
                        raise click.UsageError(f"use only one of {', '.join(halves)}", ctx)
                if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
                    continue
                if order.count(param) > 1:  # (told at its first place in the command line)
                    names = " / ".join(f"'{name}'" for name in param.opts)  # its aliases too (--nodes, --samples)
                    raise click.UsageError(f"Option {names} is given more than once: it takes one value", ctx)
            return super().parse_args(ctx, args)
        except click.MissingParameter as exc:
            # one line, as every usage error's message (docs/reference/contract.md): Click lists the values
            # of a choice on lines of their own
            raise click.UsageError(" ".join(exc.format_message().split()), ctx) from None
        except click.UsageError as exc:
            if exc.ctx is None:  # Click leaves it out for an option without its value: the usage goes with it
                exc.ctx = ctx
            raise
