"""Foursquare, Wil Su's one-player card game: an exact engine for the standard rules.

The engine (cards, deals, layout, game rules, the player's view) does no I/O::

    >>> from foursquare import Game
    >>> game = Game.from_deal(1)
    >>> str(game.next_card)
    '2D'
    >>> record = game.play("d4")
    >>> record.status
    <Status.PLAYING: 'playing'>
    >>> Game.from_deal(1, rules="three-square").rules.size  # a Rules value, or a preset's name
    3
    >>> game.play(44)
    Traceback (most recent call last):
    foursquare.errors.ParseError: Game.play: not a cell: 44 (int; cell must be a Cell or a cell's name like d4)

A game reads and writes its files itself (:meth:`Game.transcript`,
:meth:`Game.from_transcript`, :meth:`Game.state`, :meth:`Game.from_state`; the formats
are in :mod:`foursquare.formats`), and the ``foursquare`` command line sits on both.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the exports' own types, for type checkers; at run time each loads on first use
    from .engine.cards import Card, card, parse_card
    from .engine.deal import deal_deck, ordered_deck
    from .engine.game import Game, Grid, Pile, Placement, Reason, Status
    from .engine.layout import Cell, parse_cell
    from .engine.rules import PRESETS, STANDARD, Rules, get_rules
    from .engine.view import PlayerView
    from .errors import (
        Advice,
        AgreementError,
        ArgumentError,
        FormatError,
        FoursquareError,
        HistoryStoreError,
        IllegalMoveError,
        ParseError,
        PositionError,
        RulesError,
        WorkerError,
    )

__version__ = "0.1.0"

# The names below are loaded on first use (PEP 562), so that the ``foursquare``
# command starts its Ctrl-C guard (``foursquare.__main__.run``) before any of them.
# name -> the module (below this package) that defines it.
_EXPORTS: dict[str, str] = {
    "Card": "engine.cards", "card": "engine.cards", "parse_card": "engine.cards",
    "deal_deck": "engine.deal", "ordered_deck": "engine.deal",
    "Advice": "errors", "AgreementError": "errors", "ArgumentError": "errors", "FormatError": "errors",
    "FoursquareError": "errors", "HistoryStoreError": "errors", "IllegalMoveError": "errors", "ParseError": "errors",
    "PositionError": "errors", "RulesError": "errors", "WorkerError": "errors",
    "Game": "engine.game", "Grid": "engine.game", "Pile": "engine.game", "Placement": "engine.game", "Reason": "engine.game",
    "Status": "engine.game",
    "Cell": "engine.layout", "parse_cell": "engine.layout",
    "PRESETS": "engine.rules", "STANDARD": "engine.rules", "Rules": "engine.rules", "get_rules": "engine.rules",
    "PlayerView": "engine.view",
}


def __getattr__(name: str) -> Any:
    """One of :data:`__all__`, imported from its module on first use (PEP 562).

    :raises AttributeError: for any other name.
    """
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (:data:`__all__` and ``__version__``)."""
    return sorted([*__all__, "__version__"])


__all__ = [
    "Advice", "AgreementError", "ArgumentError", "Card", "Cell", "FormatError", "FoursquareError", "Game",
    "Grid", "HistoryStoreError", "IllegalMoveError", "ParseError", "Pile", "Placement", "PlayerView", "PositionError",
    "PRESETS", "Reason", "Rules", "RulesError", "STANDARD", "Status", "WorkerError", "card", "deal_deck",
    "get_rules", "ordered_deck", "parse_card", "parse_cell",
]
