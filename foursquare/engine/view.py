"""The player's view: what a player may know (RULES.md §6).

A :class:`PlayerView` holds the layout (face-down top cards included, since
the player saw them placed), the card to place, the number of cards in the
stock and *which* cards are unseen — never their order.  Bots and hints take
a view, so that their answer cannot depend on the hidden order.

This is the view's import path.  The class itself is defined in
:mod:`foursquare.engine.game`, next to :class:`~foursquare.engine.game.Game`:
a game gives its view (``Game.view()``) and a view gives games
(``PlayerView.sample``), so defining them in one module keeps the imports one
way (this module imports the game's, never the reverse).
"""

from __future__ import annotations

from .game import PlayerView

__all__ = ["PlayerView"]
