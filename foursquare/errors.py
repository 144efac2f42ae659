"""The package's exceptions: one small hierarchy.

Every error the package raises on purpose is a :class:`FoursquareError`; the
ones about a bad value (text, a move, a rule set, a position, a file) are also
:class:`ValueError`, so callers that only know the standard library can still
catch them.  Some live beside the code that raises them: ``BotError``
(:mod:`foursquare.bots.base`), ``WorkerError`` (:mod:`foursquare.parallel`),
``WrongCardError`` (:mod:`foursquare.engine.game`), ``SolverError``.
"""
import re
from enum import StrEnum


class Advice(StrEnum):
    """What a reader of a library message can do next, in the library's words.

    Library messages name no command-line option: where one would help, the message
    carries one of these phrases, and the command line says it in its own options
    (``foursquare.cli.boundary.cli_text``: for example "name the deal or the deck"
    becomes "give --deal N or --deck FILE").
    """

    NAME_THE_CARDS = "name the deal or the deck"
    NAME_MORE_CARDS = "name the deal, or a deck that names more cards"
    REVEAL = "use the full state (or a player's view with its face-down cards revealed)"
    READ_AS_STATE = "read it as a state, or resume the game from it"
    USE_AS_RULES = "use it as a rule set"


class FoursquareError(Exception):
    """Base class of every error raised on purpose by :mod:`foursquare`."""


class ParseError(FoursquareError, ValueError):
    """Text that is not a card, a cell, a move or a deal number (RULES.md §1–3)."""


class IllegalMoveError(FoursquareError, ValueError):
    """A well-formed move that the position forbids; the message says why."""


class RulesError(FoursquareError, ValueError):
    """A rule set with an unknown or out-of-range parameter."""


class PositionError(FoursquareError, ValueError):
    """A position that cannot arise under the rule set: a pile too high, piles
    outside the frame, not connected or not fitting the box (RULES.md §3), a card
    given twice (§1), more cards than the deck holds; or a position with no
    player's view to take, its next card unknown (§6)."""


class ArgumentError(FoursquareError, TypeError, ValueError):
    """A library function given an argument it does not take, such as
    ``recommend(view, budget="1")`` or ``solve(view)``: the message names the
    function and the argument and says what it takes.  Also a :class:`TypeError`
    and a :class:`ValueError`, so code that catches either still catches it.
    (A card, a cell or a deal number that is not one is a :class:`ParseError`, a
    rule set a :class:`RulesError`, a bot a ``BotError``, whatever their type.)"""


def wrong_argument(
    where: str, name: str, expected: str, value: object, kind: type[FoursquareError] = ArgumentError
) -> FoursquareError:
    """The error for argument ``name`` of ``where`` (a function, like ``recommend``),
    which must be ``expected`` but is ``value``: ``recommend: budget must be a number
    of seconds or None, not '1' (str)``.  ``kind`` is the error's class: an
    :class:`ArgumentError`, or for a card or a cell a :class:`ParseError`, and so on."""
    return kind(f"{where}: {name} must be {expected}, not {quote(value)} ({type(value).__name__})")


class HistoryError(FoursquareError, ValueError):
    """A game without the history that is asked for: resumed from a position
    without its moves, it cannot be written as a transcript (FORMATS.md)."""


class SimulationError(FoursquareError, ValueError):
    """Batch results that do not go together: of several bots where one is
    expected, or two runs of different deals compared."""


class FormatError(FoursquareError, ValueError):
    """Bad input in a file or stream: names the source, the line and (in
    multi-game files) the game.  ``str(error)`` is ``FILE:LINE: message``
    (FORMATS.md, command line).

    :param source: the file name, ``<stdin>`` for standard input.
    :param line: the line number from 1, or ``None`` when no line applies.
    :param message: what is wrong.
    :param game: the game's number from 1 in a multi-game file, or ``None``.
    :param move: the move's number from 1, or ``None``.
    """

    def __init__(
        self, source: str, line: int | None, message: str, game: int | None = None, move: int | None = None
    ) -> None:
        self.source = source
        self.line = line
        self.message = message
        self.game = game
        self.move = move
        super().__init__(str(self))

    def __str__(self) -> str:
        source = shown_name(self.source)
        where = source if self.line is None else f"{source}:{self.line}"
        context = ", ".join(
            part for part in (self.game and f"game {self.game}", self.move and f"move {self.move}") if part
        )
        return f"{where}: {context}: {self.message}" if context else f"{where}: {self.message}"


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
    if name.startswith("-") and name != "-":
        name = "./" + name
    return shown_name(name)


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
        code = ord(ch)
        if ch in _C_ESCAPES:
            out.append(_C_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (os.fsdecode's surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        elif code < 0x100:
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
    cut = _cut_short(text, limit)
    return text if cut is None else f"{cut}…({len(text)} characters)"


def _cut_short(text: str, limit: int) -> str | None:
    """The first ``limit`` characters of ``text``, or ``None`` when the text is no longer
    than they and the note of its length together (cutting it would not shorten it)."""
    if len(text) <= limit + len(f"…({len(text)} characters)"):
        return None
    return text[:limit]


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """An input value quoted for a message, like ``repr`` but bounded: text is cut
    with :func:`shorten` before quoting; a huge whole number is shown by its size
    (``repr`` of an int over 4300 digits would raise); anything else by its
    ``repr``, cut short.  Never raises."""
    if isinstance(value, str):
        cut = _cut_short(value, limit)
        text = repr(value) if cut is None else f"{cut!r}…({len(value)} characters)"
        return text.replace(RUNNER_COMMAND, RUNNER_COMMAND_QUOTED)
    if isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails: still a message
        text = f"<{type(value).__name__}>"
    return shorten(text, limit)


def number_text(value: int) -> str:
    """A whole number for a message: its digits, or for a huge one ``a number of
    about N digits`` (converting an int of over 4300 digits to text raises)."""
    if value.bit_length() <= _NUMBER_DIGITS * 3:  # under about 36 digits: cheap and safe
        return str(value)
    digits = int(abs(value).bit_length() * 0.30103) + 1
    return f"a {'negative ' if value < 0 else ''}number of about {digits} digits"


def digits_text(text: str) -> str:
    """Decimal digits read from input, for a message: short ones as they are, long
    ones cut, like ``99999…(5000 digits)``."""
    if len(text) <= QUOTE_LIMIT:
        return text
    return f"{text[:QUOTE_LIMIT]}…({len(text)} digits)"


class AgreementError(FoursquareError, ValueError):
    """What a caller gave with a game file disagrees with what the file names itself:
    a deal, a card order, a rule set, or a game number for a file that is not a
    transcript (one equal to the file's own is no error).

    :param source: the file's display name.
    :param given: what was given: ``deal``, ``deck``, ``rules`` or ``game``.
    :param own: what the file says instead, as words after its name
        (``names deal 7``, ``has its own card order``, ``plays the standard rules``,
        ``is not a transcript``).
    :param value: the value given, for the message (``5``), or ``None``.
    """

    def __init__(self, source: str, given: str, own: str, value: object = None) -> None:
        self.source = source
        self.given = given
        self.own = own
        self.value = value
        shown = "" if value is None else f" ({value})"
        super().__init__(f"{shown_name(source)} {own}; the {given} given{shown} disagrees")



class OutputOverInputError(FoursquareError, ValueError):
    """The file a command is to write is one of the files it reads: writing it would
    overwrite that input.

    :param output_option: what names the file written, in the caller's words.
    :param output: that file's name.
    :param option: what names the input, in the caller's words.
    :param path: the input's name.
    """

    def __init__(self, output_option: str, output: str, option: str, path: str) -> None:
        self.output_option = output_option
        self.output = output
        self.option = option
        self.path = path
        super().__init__(
            f"{output_option} {quote(output)} is the file given as {option} {quote(path)}: writing it would"
            " overwrite that input; give another name"
        )

class GameChoiceError(FormatError):
    """A multi-game transcript read without saying which game, or a game number past
    its last game.

    :param games: how many games the file holds; :param number: the game asked for
        (from 1), or ``None`` when none was.
    """

    def __init__(self, source: str, line: int | None, games: int, number: int | None) -> None:
        self.games = games
        self.number = number
        if number is None:
            message = f"the file holds {games} games; pick one by its number (1 to {games})"
        else:
            held = "1 game" if games == 1 else f"{games} games"
            message = f"game {number}: the file holds only {held}"
        super().__init__(source, line, message)


class EmptyGameFileError(FormatError):
    """A game file without moves (empty, or only comments and blank lines) where a
    game needs its file, or its deal or card order, to start from.

    :param what: ``is empty`` or ``holds only comments``; :param start_allowed:
        whether a deal or a card order given with it would have made it the start
        of that deal.
    """

    def __init__(self, source: str, what: str, start_allowed: bool) -> None:
        self.what = what
        self.start_allowed = start_allowed
        if start_allowed:
            message = (
                f"the file {what} (expected a move script, a transcript or a state;"
                " with a deal or a card order given, an empty move script means the start of the deal)"
            )
        else:
            message = f"the file {what}: there is no game in it"
        super().__init__(source, 1, message)
