"""The package's exceptions: one small hierarchy, each error a value that carries its facts.

Every error the package raises on purpose is a :class:`FoursquareError`: one of the
nine classes below it, by what went wrong, not by where.  Those about a bad value
(text, a move, a rule set, a position, a file, an argument) are also
:class:`ValueError`, so callers that only know the standard library can still catch
them.  An error carries :attr:`~FoursquareError.advice` (what to do next, an
:class:`Advice`) and :attr:`~FoursquareError.facts` (the values its message is made
of): ``str(error)`` says the advice in the library's words, and the command line,
which knows its options, says it in its own (:meth:`FoursquareError.worded`).
"""
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Advice(StrEnum):
    """What a reader of an error can do next, in the library's words (a template
    filled from the error's :attr:`~FoursquareError.facts`).

    Library messages name no command-line option: the command line says each piece of
    advice with its own options (``foursquare.cli.boundary.CLI_ADVICE``: for example
    "name the deal or the deck" becomes "give --deal N or --deck FILE").
    """

    NAME_THE_CARDS = "name the deal or the deck"
    NAME_MORE_CARDS = "name the deal, or a deck that names more cards"
    REVEAL = (
        "use the full state (or a player's view with its face-down cards revealed)"
        " or write the card, which the player saw when it was placed"
    )
    READ_AS_STATE = "read it as a state, or resume the game from it"
    USE_AS_RULES = "use it as a rule set"
    PICK_GAME = "pick one by its number (1 to {games})"
    START_OF_DEAL = "with a deal or a card order given, an empty move script means the start of the deal"
    OTHER_FILE = "write another file, or write over it without continuing it"


class FoursquareError(Exception):
    """Base class of every error raised on purpose by :mod:`foursquare`.

    :param message: what is wrong, without the advice.
    :param advice: what to do next, or ``None``.
    :param facts: values a caller may word the error with, by name (the advice's template
        takes its values from them): ``drawn`` for a wrong card, ``cell`` for an illegal
        cell, ``games`` for a pick among games; often none.
    """

    def __init__(self, message: str = "", *, advice: Advice | None = None, **facts: Any) -> None:
        self.message = message
        self.advice = advice
        self.facts = facts
        super().__init__(message)

    def worded(self, words: Mapping[Advice, str] | None = None) -> str:
        """The message and its advice, the advice in ``words`` (advice -> template;
        the library's own when ``None``)."""
        if self.advice is None:
            return self.message
        template = self.advice.value if words is None else words[self.advice]
        return f"{self.message}; {template.format(**self.facts)}"

    #: The whole error line, its advice in ``words``: :meth:`worded` (a :class:`FormatError` puts its place first).
    text = worded

    def __str__(self) -> str:
        return self.text()


class ParseError(FoursquareError, ValueError):
    """Text that is not a card, a cell, a move or a deal number (RULES.md §1–3)."""


class IllegalMoveError(FoursquareError, ValueError):
    """A well-formed move that the position forbids; the message says why.  A move
    that names a card other than the one drawn has the fact ``drawn`` (that card)."""


class RulesError(FoursquareError, ValueError):
    """A rule set with an unknown or out-of-range parameter, or one that a part of the
    package does not support (the compiled solver's fast rules)."""


class PositionError(FoursquareError, ValueError):
    """A position that cannot arise under the rule set: a pile too high, piles
    outside the frame, not connected or not fitting the box (RULES.md §3), a card
    given twice (§1), more cards than the deck holds; or a position where what is
    asked cannot be done: no player's view to take or nothing to solve (its next card
    unknown, §6), no card to place (the game is over)."""


class ArgumentError(FoursquareError, TypeError, ValueError):
    """A library function given an argument it does not take, such as
    ``recommend(view, budget="1")``, an unknown bot's name, a game without the moves
    asked for (resumed from a position, it has no transcript), results that do not go
    together: the message names the function or the argument and says what it takes.
    Also a :class:`TypeError` and a :class:`ValueError`, so code that catches either
    still catches it.  (A card, a cell or a deal number that is not one is a
    :class:`ParseError`, a rule set a :class:`RulesError`, whatever their type.)"""


def wrong_argument(
    where: str, name: str, expected: str, value: object, kind: type[FoursquareError] = ArgumentError
) -> FoursquareError:
    """The error for argument ``name`` of ``where`` (a function, like ``recommend``),
    which must be ``expected`` but is ``value``: ``recommend: budget must be a number
    of seconds or None, not '1' (str)``.  ``kind`` is the error's class: an
    :class:`ArgumentError`, or for a card or a cell a :class:`ParseError`, and so on."""
    return kind(f"{where}: {name} must be {expected}, not {quote(value)} ({type(value).__name__})")


class FormatError(FoursquareError, ValueError):
    """Bad input in a file or stream: names the source, the line and (in
    multi-game files) the game.  ``str(error)`` is ``FILE:LINE: message``
    (FORMATS.md, command line).

    :param source: the file name, ``<stdin>`` for standard input.
    :param line: the line number from 1, or ``None`` when no line applies.
    :param message: what is wrong.
    :param game: the game's number from 1 in a multi-game file, or ``None``.
    :param move: the move's number from 1, or ``None``.
    :param advice, facts: as :class:`FoursquareError`'s.
    """

    def __init__(
        self,
        source: str,
        line: int | None,
        message: str,
        game: int | None = None,
        move: int | None = None,
        *,
        advice: Advice | None = None,
        **facts: Any,
    ) -> None:
        self.source = source
        self.line = line
        self.game = game
        self.move = move
        super().__init__(message, advice=advice, **facts)

    def text(self, words: Mapping[Advice, str] | None = None) -> str:
        """``FILE:LINE: [game K, move M: ]message``, its advice in ``words``."""
        where = shown_name(self.source) + ("" if self.line is None else f":{self.line}")
        context = ", ".join(
            part for part in (self.game and f"game {self.game}", self.move and f"move {self.move}") if part
        )
        return f"{where}: {context}: {self.worded(words)}" if context else f"{where}: {self.worded(words)}"


class AgreementError(FoursquareError, ValueError):
    """What a caller gave disagrees with a file: a deal, a card order, a rule set or a
    game number that the file contradicts (:meth:`with_file`), the settings of a file to
    continue, or a file to write that is one of the files read
    (:func:`foursquare.app.files.refuse_output_over_input`).
    At the command line, a usage error."""

    @classmethod
    def with_file(cls, source: str, given: str, own: str, value: object = None) -> "AgreementError":
        """The file ``source`` says ``own`` (words after its name: ``names deal 7``,
        ``is not a transcript``), and the ``given`` (``deal``, ``deck``, ``rules`` or
        ``game``: the facts ``source``, ``given``, ``own``, ``value``) disagrees."""
        shown = "" if value is None else f" ({value})"
        return cls(f"{shown_name(source)} {own}; the {given} given{shown} disagrees", source=source, given=given, own=own, value=value)


class HistoryStoreError(FoursquareError):
    """The history cannot be used: the message names the file (or the variable that
    names its folder) and why.  ``refused`` (a fact): the file is not a history this
    version can write (newer, damaged, another program's): it is left as it is."""

    @property
    def refused(self) -> bool:
        """Whether the file is left alone for good (not merely unreadable now)."""
        return bool(self.facts.get("refused"))


class WorkerError(FoursquareError, RuntimeError):
    """A worker (a process of the pool, or of a Dask cluster) failed, died or cannot
    be reached: its task has no result."""


#: The characters of a file name a shell reads as they are (:func:`shlex.quote`'s, and
#: any letter or digit: ``café.yaml`` needs no quotes).
_PLAIN_NAME = re.compile(r"[\w@%+=:,./-]+")
#: The names of the standard streams in messages: shown as they are.
_STREAM_NAMES = frozenset({"<stdin>", "<stdout>", "<stderr>", "-"})
#: What GitHub's runner reads as a workflow command wherever it is in a line (its older
#: form, ``##[name]``), and how the package's quoting writes it instead: ``\x5b`` is
#: ``[`` in bash's ``$'...'`` and in a Python string literal alike.
RUNNER_COMMAND, RUNNER_COMMAND_QUOTED = "##[", "##\\x5b"
#: Backslash escapes of bash's ``$'...'`` quoting.
_C_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def argument_name(name: str) -> str:
    """A file name as an argument of a command the package suggests (``foursquare
    replay FILE``): :func:`shown_name`, with ``./`` before a relative name that starts
    with ``-`` so that the command does not read it as an option.

    >>> print(argument_name("-dash.yaml"), argument_name("won.yaml"), argument_name("-"))
    ./-dash.yaml won.yaml -
    """
    return shown_name("./" + name if name.startswith("-") and name != "-" else name)


def shown_name(name: str) -> str:
    """A file name as every message, summary and JSON shows it: as a shell would
    quote it, so that it can be copied into a command.

    A name of letters, digits and ``@%+=:,./-`` is shown as it is (``<stdin>`` too);
    other printable UTF-8 in single quotes (``'my game.yaml'``); a name with a
    byte that is not UTF-8 (held as a surrogate, as Python decodes file names) or a
    character that cannot be printed in bash's ``$'...'`` quoting, each such byte
    as ``\\xHH`` (``$'w\\xfe.yaml'``).  The result is always valid UTF-8, and never
    a workflow command to GitHub's runner: a name that starts with ``::`` is quoted,
    and ``##[`` is written ``##\\x5b`` in ``$'...'``.

    >>> print(shown_name("won.yaml"), shown_name("my game.yaml"), shown_name("it's"))
    won.yaml 'my game.yaml' 'it'"'"'s'
    >>> print(shown_name("w" + chr(0xDCFE) + ".yaml"))  # the byte 0xfe, as os.fsdecode holds it
    $'w\\xfe.yaml'
    >>> print(shown_name("::error::x.yaml"), shown_name("games/##[warning]a.yaml"))
    '::error::x.yaml' $'games/##\\x5bwarning]a.yaml'
    """
    if name in _STREAM_NAMES or (_PLAIN_NAME.fullmatch(name) and not name.startswith("::")):
        return name
    if name.isprintable() and RUNNER_COMMAND not in name:  # a surrogate is not printable
        return "'" + name.replace("'", "'\"'\"'") + "'"
    out = []
    for ch in name:
        code = ord(ch) - (0xDC00 if 0xDC80 <= ord(ch) <= 0xDCFF else 0)  # a byte that is not UTF-8 (os.fsdecode's surrogateescape)
        if ch in _C_ESCAPES:
            out.append(_C_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x100:  # (such a byte, or a control character)
            out.append(f"\\x{code:02x}")
        else:  # another character that cannot be printed (a lone surrogate too: never printed raw)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "$'" + "".join(out).replace(RUNNER_COMMAND, RUNNER_COMMAND_QUOTED) + "'"


#: How many characters of an input a message quotes before cutting it short.
QUOTE_LIMIT = 40
#: Whole numbers with more digits than this are shown by their length, not their digits.
_NUMBER_DIGITS = 40


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for a message: its first ``limit`` characters, ``…`` and the length,
    like ``99999…(5000 characters)``; unchanged when that would not be shorter.

    Every message that echoes input goes through this (or :func:`quote`), so a
    50 MB line gives a short error line.
    """
    note = f"…({len(text)} characters)"
    return text if len(text) <= limit + len(note) else text[:limit] + note


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """An input value quoted for a message, like ``repr`` but bounded: text is cut
    with :func:`shorten` before quoting; a huge whole number is shown by its size
    (``repr`` of an int over 4300 digits would raise); anything else by its
    ``repr``, cut short.  Never raises."""
    if isinstance(value, str):
        short = shorten(value, limit)  # the same text when cutting would not shorten it
        text = repr(value) if short == value else repr(value[:limit]) + short[limit:]
        return text.replace(RUNNER_COMMAND, RUNNER_COMMAND_QUOTED)
    if isinstance(value, int) and not isinstance(value, bool):  # (converting an int of over 4300 digits raises)
        if value.bit_length() <= _NUMBER_DIGITS * 3:  # under about 36 digits: cheap and safe
            return str(value)
        return f"a {'negative ' if value < 0 else ''}number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails: still a message
        text = f"<{type(value).__name__}>"
    return shorten(text, limit)
