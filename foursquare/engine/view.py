"""The player's view: what a player may know (RULES.md §6).

A :class:`PlayerView` holds the layout (face-down top cards included, since
the player saw them placed), the card to place, the number of cards in the
stock and *which* cards are unseen — never their order.  Bots and hints take
a view, so that their answer cannot depend on the hidden order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import Card
from .game import Game, Pile, Status
from .layout import Cell
from .rules import Rules


@dataclass(frozen=True)
class PlayerView:
    """What the player knows at one moment (RULES.md §6).

    :ivar rules: the rule set.
    :ivar grid: cell -> :class:`~foursquare.game.Pile`, in reading order.
    :ivar next_card: the card to place, or ``None`` when the game is over.
    :ivar stock_count: cards not yet placed, the next card included.
    :ivar unseen: the cards not yet seen, sorted (a multiset; order unknown).
    :ivar face_down: the number of face-down top cards.
    :ivar status: the status of the game.
    """

    rules: Rules
    grid: dict[Cell, Pile]
    next_card: Card | None
    stock_count: int
    unseen: tuple[Card, ...]
    face_down: int
    status: Status

    @classmethod
    def of(cls, game: Game) -> "PlayerView":
        """The view of ``game``'s player.

        :raises ValueError: when the next card is not known (a deck prefix ran out).
        """
        if game.status is Status.PLAYING and game.next_card is None:
            raise ValueError("the next card is unknown, so there is no player's view to take")
        return cls(
            game.rules,
            game.grid(),
            game.next_card,
            game.stock_count,
            tuple(sorted(game.unseen())),
            game.face_down,
            game.status,
        )

    def legal_cells(self) -> list[Cell]:
        """The cells where the next card may go (RULES.md §3)."""
        return self.sample(random.Random(0)).legal_cells()

    def sample(self, rng: random.Random) -> Game:
        """A game in this position with the unseen cards in a random order (a determinization).

        :param rng: the random source that orders the unseen cards.
        :returns: a new :class:`~foursquare.game.Game` whose stock is the next card then
            a shuffle of :attr:`unseen`.
        """
        rest = list(self.unseen)
        rng.shuffle(rest)
        stock = ([self.next_card] if self.next_card is not None else []) + rest
        grid = {cell: (pile.cards, pile.face_up) for cell, pile in self.grid.items()}
        return Game.from_position(grid, stock, self.rules)
