"""What the subcommands share: the game options, error reporting and the look of the output.

- :func:`game_options` adds ``--deal``, ``--deck`` and ``--rules``.
- :func:`command_boundary` wraps a command so that bad input becomes one line
  on stderr and exit status 1 (FORMATS.md), ``Ctrl-C`` exits quietly, and
  output piped into a reader that closes early (``| head``) ends without a word.
- :class:`Look` decides colour and suit symbols for a stream (a terminal, not
  ``NO_COLOR``, not ``--ascii``).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import click

from ..deal import parse_deal_number
from ..errors import FoursquareError, ParseError
from ..game import Game
from ..rules import STANDARD, Rules

#: The type of every file parameter: shell completion offers files; nothing is checked
#: here (a bad file is reported by the reader as ``FILE: reason``, status 1).
PATH = click.Path(allow_dash=True)

#: Exit status of an interrupted command (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


# ------------------------------------------------------------------ errors


def fail(message: str) -> NoReturn:
    """Print ``message`` (already ``FILE:LINE: ...``) on stderr and exit with status 1."""
    click.echo(f"{message}", err=True)
    sys.exit(1)


def quiet_broken_pipe() -> NoReturn:
    """End quietly after the reader of stdout went away (``| head``).

    As the Python documentation advises, point stdout at ``/dev/null`` so that
    the interpreter's last flush does not complain, then exit with status 0.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner)
        pass
    sys.exit(0)


def error_text(exc: BaseException) -> str:
    """One line for an error at the command boundary: ``FILE:LINE: message``
    for a :class:`~foursquare.errors.FormatError`, ``FILE: reason`` for a file
    that cannot be read."""
    if isinstance(exc, UnicodeDecodeError):
        return f"the input is not UTF-8 text (byte {exc.start}: {exc.reason})"
    if isinstance(exc, OSError):
        name = exc.filename if exc.filename is not None else "error"
        return f"{name}: {exc.strerror or exc}"
    return str(exc)


def command_boundary(func: Callable) -> Callable:
    """Decorate a command: errors become one line and status 1, never a traceback.

    :class:`~foursquare.errors.FoursquareError` (``FormatError`` included),
    :class:`OSError` and :class:`UnicodeDecodeError` are reported with
    :func:`fail`; :class:`BrokenPipeError` ends quietly; ``Ctrl-C`` prints
    ``Interrupted.`` and exits with status 130.  Click's own usage errors pass
    through (status 2).
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            result = func(*args, **kwargs)
            sys.stdout.flush()
            return result
        except BrokenPipeError:
            quiet_broken_pipe()
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except (FoursquareError, UnicodeDecodeError, OSError) as exc:
            fail(error_text(exc))

    return wrapper


# ----------------------------------------------------------------- options


def _deal_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_deal_number(value)
    except ParseError as exc:
        raise click.BadParameter(str(exc)) from None


def game_options(func: Callable) -> Callable:
    """Add ``--deal N``, ``--deck FILE`` and ``--rules NAME|FILE`` to a command."""
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
        help="Card order, top first, white-space separated ('-' for stdin).",
    )(func)
    func = click.option(
        "--deal",
        metavar="N",
        callback=_deal_callback,
        help="Deal number (0 to 2^64-1), as in RULES.md section 2.",
    )(func)
    return func


def exclusive(**options) -> None:
    """Raise a usage error (status 2) when more than one of the given options is set."""
    given = [name for name, value in options.items() if value is not None and value is not False]
    if len(given) > 1:
        raise click.UsageError(f"use only one of {', '.join('--' + n.replace('_', '-') for n in given)}")


def load_rules_option(spec: str | None) -> Rules | None:
    """The rule set of a ``--rules`` value (a preset name or a rules file), or ``None`` when not given.

    :raises click.BadParameter: when the value is neither a preset nor a file (status 2).
    :raises FormatError: for a rules file with a problem (status 1 at the boundary).
    """
    if spec is None:
        return None
    from ..rules import PRESETS
    from ..rulesfile import load_rules

    if spec not in PRESETS and spec != "-" and not os.path.exists(spec):
        raise click.BadParameter(
            f"{spec!r} is neither a preset ({', '.join(PRESETS)}) nor a rules file", param_hint="'--rules'"
        )
    return load_rules(spec)


def read_deck_option(path: str, rules: Rules | None) -> list:
    """The cards of a ``--deck`` file (``-`` for stdin), top first.

    :raises FormatError: naming the file and line of the first bad card.
    """
    from ..sources import read_deck, read_source

    text, name = read_source(path)
    return read_deck(text, name, rules or STANDARD)


def new_game(deal: int | None, deck_path: str | None, rules: Rules | None) -> Game | None:
    """A new game from ``--deal`` or ``--deck``; ``None`` when neither is given."""
    if deal is not None:
        return Game.from_deal(deal, rules or STANDARD)
    if deck_path is not None:
        return Game(read_deck_option(deck_path, rules), rules or STANDARD)
    return None


def load_game_file(path: str, deal: int | None, deck_path: str | None, rules: Rules | None) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``--deal`` / ``--deck`` / ``--rules`` give what the file does not.

    :raises FormatError: ``FILE:LINE: message`` at the first problem.
    """
    from ..errors import FormatError
    from ..sources import load_input, read_source

    deck = read_deck_option(deck_path, rules) if deck_path is not None else None
    text, name = read_source(path)
    if not text.strip():
        raise FormatError(name, 1, "the file is empty (expected a move script, a transcript or a state)")
    return load_input(text, name, deal=deal, deck=deck, rules=rules)


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
    """

    color: bool = False
    symbols: bool = False

    @classmethod
    def for_stream(cls, stream=None, *, ascii: bool = False) -> "Look":
        """Colour and symbols only on a terminal that can show them; never colour
        under ``NO_COLOR`` (https://no-color.org); neither with ``ascii``."""
        stream = sys.stdout if stream is None else stream
        if ascii:
            return cls(False, False)
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
        if not terminal:
            return cls(False, False)
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "♣♦♥♠".encode(encoding)
            symbols = True
        except (LookupError, UnicodeEncodeError):
            symbols = False
        return cls(not os.environ.get("NO_COLOR"), symbols)

    def style(self, text: str, role: str) -> str:
        """``text`` styled for its role when colour is on (see :mod:`foursquare.render`)."""
        if not self.color or role not in _COLOURS:
            return text
        return click.style(text, **_COLOURS[role])

    def echo(self, text: str = "", **kwargs) -> None:
        """:func:`click.echo` with this look's colour decision."""
        click.echo(text, color=self.color, **kwargs)
