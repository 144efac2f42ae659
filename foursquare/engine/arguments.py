"""The checks of arguments at the library's public entry points (never in its inner loops).

The public constructors and functions of the engine, the bots and the solver check
what they are given with these, once: :func:`check` for the numbers, the flags and a file's text (what each
argument takes is said once, in :data:`TAKES`), the ``as_*`` readers for cards, cells
and collections.  So a wrong argument is refused in the
package's words, naming the function and the argument, rather than failing with a
builtin error from deep inside (``'str' object has no attribute 'suits'``).  A
value of the wrong type is an :class:`~foursquare.errors.ArgumentError`, except that a
card or a cell that is not one is a :class:`~foursquare.errors.ParseError` whatever
its type (as :meth:`Card.parse` and :meth:`Cell.parse` say), a rule set a
:class:`~foursquare.errors.RulesError` (:func:`foursquare.engine.rules.as_rules`).

The search loops of the bots and the solver call none of these: they pass
:class:`Cell` and :class:`Card` values, which the game takes without a check.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TypeGuard, TypeVar

from ..errors import ParseError, quote, wrong_argument
from .cards import CARDS, Card
from .layout import CELLS, Cell

_T = TypeVar("_T")
_C = TypeVar("_C", Card, Cell)


def _as(value: object, kind: type[_C], table: list[_C], where: str, name: str, expected: str) -> _C:
    """``value`` as a ``kind`` (:class:`Card` or :class:`Cell`): one as it is, text read
    with ``kind.parse``; anything else, a plain ``int`` too, is a :class:`ParseError` in
    the words of the text readers: ``Game.play: not a cell: 44 (int; cell must be a Cell
    or a cell's name like d4)``."""
    if isinstance(value, kind):
        return table[value]
    if isinstance(value, str):
        return kind.parse(value)
    raise ParseError(f"{where}: not a {kind.__name__.lower()}: {quote(value)} ({type(value).__name__}; {name} must be {expected})")


def as_cell(cell: Cell | str, where: str, name: str = "cell") -> Cell:
    """A cell argument as a :class:`Cell`: a ``Cell`` as it is, a name like ``d4`` read.

    :raises ParseError: for text that is not a cell name, and for anything else: a
        plain ``int`` too, since which cell it means is unclear (``Cell(n)`` is cell
        number ``n``, ``row * 16 + column``).
    """
    return _as(cell, Cell, CELLS, where, name, "a Cell or a cell's name like d4")


def as_card(card: Card | str, where: str, name: str = "card") -> Card:
    """A card argument as a :class:`Card`: a ``Card`` as it is, text like ``7H`` read.

    :raises ParseError: for text that is not a card, and for anything else, a plain
        ``int`` too (``Card(n)`` is the card of number ``n``, ``rank * 4 + suit``).
    """
    return _as(card, Card, CARDS, where, name, "a Card or a card's text like 7H")


def _whole(minimum: int | None = None, none: str | None = None, maximum: int | None = None) -> tuple[Callable[[object], bool], str]:
    """The test and the words of a whole number (not a bool) of at least ``minimum`` (and at
    most ``maximum``), or ``None`` when ``none`` says what ``None`` means (``"no limit"``)."""

    def takes(value: object) -> bool:
        if value is None:
            return none is not None
        return (
            isinstance(value, int) and not isinstance(value, bool) and (minimum is None or value >= minimum)
            and (maximum is None or value <= maximum)
        )

    expected = "a whole number" + (f" of at least {minimum}" if minimum is not None else "")
    expected += f" and at most {maximum}" if maximum is not None else ""
    return takes, expected + (f" or None ({none})" if none else "")


def finite(value: object) -> TypeGuard[float]:
    """A finite number (an int or a float, not a bool), one a float can hold."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # (an int beyond a float's range)
        return False


def _seconds(value: object) -> bool:
    """A number of seconds, 0 or more (an int or a float, not a bool, not NaN), or None (no limit)."""
    if value is None:
        return True
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value) and value >= 0


#: The most positions a search may be given: the search cores count them in 64 bits.
_MOST = 2**63 - 1

#: What each checked argument of the public entry points takes, by its name: its test
#: and the words that say it.  One table for the whole package: an argument means the
#: same everywhere it is taken.
TAKES: dict[str, tuple[Callable[[object], bool], str]] = {
    "seed": _whole(0),
    "nodes": _whole(1, "the bot's default", _MOST),
    "max_nodes": _whole(1, "no limit"),
    "memory": _whole(160 << 20, "the default table", 1 << 30),  # bytes (foursquare.solver.search.MEMORY_MIN, MEMORY_MAX)
    "jobs": _whole(1),
    # the bots' settings (foursquare.bots.pimc.ExpertSettings, foursquare.bots.chance.ChanceBot)
    "samples": _whole(1),
    "solver_nodes": _whole(1, maximum=_MOST),
    "more": _whole(0),
    "close": _whole(0),
    "from_piles": _whole(0),
    "width": _whole(1, "every cell"),
    "deep_nodes": _whole(1, "no limit", _MOST),
    "prior_nodes": _whole(1, "a two-placement search", _MOST),
    "per_rank": _whole(1),
    "next_width": _whole(1),
    "win_weight": (lambda value: value is None or finite(value), "a finite number of points, or None"),
    "tolerance": (lambda value: value is None or (finite(value) and 0 <= value <= 1), "a share from 0 to 1, or None"),
    "depth": _whole(0),
    "score_at_most": _whole(none="no bound"),
    "deal": _whole(none="no deal number"),
    "budget": (_seconds, "a number of seconds, 0 or more, or None (no time limit)"),
    "timeout": (_seconds, "a number of seconds, 0 or more, or None (no time limit)"),
    "within_known_cards": (lambda value: type(value) is bool, "True or False"),
    "text": (lambda value: isinstance(value, str), "the file's text as a str (decode bytes; read a file first)"),
    "source": (lambda value: isinstance(value, str), "a name (a str)"),
}


def check(where: str, **arguments: object) -> None:
    """Refuse any of ``arguments`` (by name) that is not what :data:`TAKES` says it takes.

    :raises ArgumentError: naming ``where`` (the function) and the argument:
        ``recommend: budget must be a number of seconds, 0 or more, or None (no time limit), not '1' (str)``.
    """
    for name, value in arguments.items():
        takes, expected = TAKES[name]
        if not takes(value):
            raise wrong_argument(where, name, expected, value)


def as_sequence(value: Iterable[_T], where: str, name: str) -> Iterable[_T]:
    """``value`` when it is a collection to go through (a list, a tuple, a generator...),
    not text: ``"7H 8H"`` is refused rather than read a character at a time.

    :raises ArgumentError: otherwise.
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise wrong_argument(where, name, "a sequence (a list or a tuple)", value)
    return value
