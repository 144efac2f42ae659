"""Cards: rank, suit, and their text (RULES.md §1).

A card is a :class:`Card`, an ``int`` subclass so that the engine can keep
cards in plain lists and index tables with them.  Its value is
``rank * 4 + suit`` (rank 1..13, ace low; suit 0..3 for clubs, diamonds,
hearts, spades).  The standard deck uses ranks 1..10 only; larger ranks exist
for rule variants with a longer deck.
"""

from __future__ import annotations

from ..errors import ArgumentError, ParseError, quote, wrong_argument

#: Rank characters by rank value (index 0 unused).  ``T`` is ten.
RANK_CHARS = "?A23456789TJQK"
#: Suit letters by suit number: clubs, diamonds, hearts, spades.
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
MAX_RANK = 13

_RANK_TEXT = {**{ch: value for value, ch in enumerate(RANK_CHARS) if value}, "10": 10}
_SUIT_TEXT = {ch: i % 4 for i, ch in enumerate(SUIT_CHARS + SUIT_SYMBOLS)}  # a letter or a symbol


class NotText(int):
    """An ``int`` that refuses to be compared with text (a :class:`Card`, a
    :class:`~foursquare.engine.layout.Cell`): ``card == "2D"`` raises an
    :class:`~foursquare.errors.ArgumentError` (a ``TypeError``) that says what to
    compare, rather than being silently ``False``."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            kind = type(self).__name__
            raise ArgumentError(
                f"{self!r} == {other!r}: a {kind} equals only a {kind}; "
                f"compare str({kind.lower()}) with the text, or the {kind.lower()} with {kind}.parse(text)"
            )
        return int.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class Card(NotText):
    """One card; an ``int`` equal to ``rank * 4 + suit``.

    Build one with :func:`card`, :meth:`Card.parse` or ``Card(value)``;
    ``str(card)`` is the canonical text (``7H``, ``TD``, ``AS``).

    :param value: the card's number ``rank * 4 + suit`` (4 to 55), or its text (``"7H"``).
    :raises ParseError: for a number that is no card's, text that is not a card, or any
        other value (``True`` too: a bool is no card's number).
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, int) and not isinstance(value, bool):
            if 4 <= value < len(CARDS):
                return CARDS[value]
            raise ParseError(f"Card: not a card: {quote(value)} (value must be rank * 4 + suit, from 4 to {len(CARDS) - 1})")
        if isinstance(value, str):
            return cls.parse(value)
        raise ParseError(f"Card: not a card: {quote(value)} ({type(value).__name__}; value must be rank * 4 + suit or text like 7H)")

    @property
    def rank(self) -> int:
        """The rank value, 1 (ace) to 10 (13 in long-deck variants)."""
        return self >> 2

    @property
    def suit(self) -> int:
        """The suit number: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self & 3

    def __str__(self) -> str:
        return RANK_CHARS[self >> 2] + SUIT_CHARS[self & 3]

    def symbol(self) -> str:
        """The text with a suit symbol and ``10`` for ten, e.g. ``10♦``."""
        rank = self >> 2
        return ("10" if rank == 10 else RANK_CHARS[rank]) + SUIT_SYMBOLS[self & 3]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written as in RULES.md §1.

        Accepts a rank ``A 2..9 T`` (``J Q K`` in long-deck variants) or ``10``,
        then a suit letter ``C D H S`` or symbol ``♣ ♦ ♥ ♠``, in either case and
        with surrounding white space: ``10♦``, ``td``, ``Td`` and ``10d`` are all
        ``TD``.

        :param text: the card text.
        :returns: the card.
        :raises ParseError: when the text is not a card; the message quotes it.
        """
        if not isinstance(text, str):
            raise ParseError(f"not a card: {quote(text)} (expected text like 7H or TD)")
        t = text.strip()
        # At most 3 characters, ASCII apart from the suit symbols: str.upper() maps some
        # other letters to ASCII ones ('ſ' to 'S'), which must not make a card.
        if 2 <= len(t) <= 3 and (t.isascii() or all(ch < "\x80" or ch in SUIT_SYMBOLS for ch in t)):
            t = t.upper()
            rank = _RANK_TEXT.get(t[:-1])
            suit = _SUIT_TEXT.get(t[-1:])
        else:
            rank = suit = None
        if rank is None or suit is None:
            raise ParseError(f"not a card: {quote(text)} (expected rank A,2-9,T or 10 and suit C,D,H,S, like 7H or TD)")
        return CARDS[rank * 4 + suit]


#: Every possible card, indexed by its integer value (entries below 4 unused).
CARDS: list[Card] = [int.__new__(Card, i) for i in range(4 * (MAX_RANK + 1))]


def card(rank: int, suit: int) -> Card:
    """The card of a rank (1..13) and suit (0..3: C, D, H, S).

    :raises ParseError: when rank or suit is out of range or not an ``int`` (a bool included).
    """
    for name, value in (("rank", rank), ("suit", suit)):
        if type(value) is not int:
            raise wrong_argument("card", name, "a whole number", value, ParseError)
    if not (1 <= rank <= MAX_RANK and 0 <= suit <= 3):
        raise ParseError(f"no card has rank {quote(rank)} and suit {quote(suit)} (rank 1 to {MAX_RANK}, suit 0 to 3)")
    return CARDS[rank * 4 + suit]


parse_card = Card.parse
