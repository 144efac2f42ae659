"""The package's exceptions: one small hierarchy.

Every error the package raises on purpose is a :class:`FoursquareError`; the
ones about bad text or illegal moves are also :class:`ValueError`, so callers
that only know the standard library can still catch them.
"""


class FoursquareError(Exception):
    """Base class of every error raised on purpose by :mod:`foursquare`."""


class ParseError(FoursquareError, ValueError):
    """Text that is not a card, a cell, a move or a deal number (RULES.md §1–3)."""


class IllegalMoveError(FoursquareError, ValueError):
    """A well-formed move that the position forbids; the message says why."""


class RulesError(FoursquareError, ValueError):
    """A rule set with an unknown or out-of-range parameter."""


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
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        context = ", ".join(
            part for part in (self.game and f"game {self.game}", self.move and f"move {self.move}") if part
        )
        return f"{where}: {context}: {self.message}" if context else f"{where}: {self.message}"
