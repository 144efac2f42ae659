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
