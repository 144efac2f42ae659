"""Foursquare, Wil Su's one-player card game: an exact engine for the standard rules.

The engine (cards, deals, layout, game rules, the player's view) does no I/O::

    >>> from foursquare import Game
    >>> game = Game.from_deal(1)
    >>> str(game.next_card)
    '2D'
    >>> record = game.play("d4")
    >>> record.status
    <Status.PLAYING: 'playing'>

The formats (move scripts, transcripts, state YAML) sit on it, and the
``foursquare`` command line on both.
"""

from .cards import Card, card, parse_card
from .deal import deal_deck, ordered_deck
from .errors import FoursquareError, IllegalMoveError, ParseError, RulesError
from .game import Game, Pile, Placement, Reason, Status, WrongCardError
from .layout import Cell, parse_cell
from .rules import PRESETS, STANDARD, Rules, get_rules
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "Card", "Cell", "FoursquareError", "Game", "IllegalMoveError", "ParseError", "Pile",
    "Placement", "PlayerView", "PRESETS", "Reason", "Rules", "RulesError", "STANDARD",
    "Status", "WrongCardError", "card", "deal_deck", "get_rules", "ordered_deck",
    "parse_card", "parse_cell",
]
