"""Deck files: a card order, top first (FORMATS.md "Deck files")."""

from __future__ import annotations

from ..engine.cards import Card
from ..engine.rules import STANDARD, Rules
from ..errors import Advice, FormatError, ParseError, quote
from .inputs import read_source
from .loading import FileKind, input_kind
from .movescript import word_kind
from .yaml import clean_text


def read_deck(text: str, source: str, rules: Rules = STANDARD) -> list[Card]:
    """A deck file: cards top first, separated by white space; ``#`` starts a comment.

    The deck holds the rule set's whole deck (40 cards in the standard game) or a
    prefix of it (then each move past it must name its card).

    :param text: the file's text.
    :param source: the name used in errors.
    :param rules: the rule set whose deck the cards must belong to.
    :returns: the cards, top (first drawn) first.
    :raises FormatError: ``FILE:LINE: message`` for a word that is not a card, a
        card outside the rule set's deck, a card listed twice, too many cards, or
        no card at all.
    """
    first_line: dict[Card, int] = {}  # each card read, in order, and its line
    for number, line in enumerate(clean_text(text).split("\n"), 1):
        for word in line.split("#", 1)[0].split():
            try:
                card = Card.parse(word)
            except ParseError as exc:
                raise FormatError(
                    source, number, _not_a_card(word, text, exc),
                    advice=Advice.READ_AS_STATE if input_kind(text) is FileKind.STATE else None,
                ) from None
            if card.rank > rules.ranks or card.suit >= rules.suits:
                raise FormatError(source, number, f"{card} is not a card of the {rules.label} deck")
            if card in first_line:
                raise FormatError(source, number, f"{card} is listed twice (first on line {first_line[card]})")
            if len(first_line) == rules.deck_size:
                raise FormatError(
                    source, number, f"too many cards: the {rules.label} deck has {rules.deck_size} cards"
                )
            first_line[card] = number
    if not first_line:
        raise FormatError(source, 1, "the deck file lists no cards")
    return list(first_line)


def _not_a_card(word: str, text: str, error: ParseError) -> str:
    """Why ``word`` of a deck file is not a card, saying so when the file is of another
    kind (a transcript, a state, a move script) or the cards are not apart."""
    kind = input_kind(text)
    what = "a deck file lists cards, top first, separated by white space"
    if kind is FileKind.STATE:
        return f"not a card: {quote(word)}: the file is a state, not a deck ({what})"
    if kind is FileKind.TRANSCRIPT:
        return f"not a card: {quote(word)}: the file is a transcript, not a deck ({what}); replay it, or resume the game from it"
    if word_kind(word) == "cell":
        return f"not a card: {quote(word)} is a cell (is the file a move script?); {what}"
    pieces = word.translate({ord(c): " " for c in ",;:/-"}).split()
    if 1 < len(pieces) and len(word) < 200 and all(word_kind(piece) == "card" for piece in pieces):
        return f"not a card: {quote(word)}: {what}"
    return str(error)


def read_deck_file(path: str, rules: Rules | None = None) -> list[Card]:
    """The cards of a deck file (``-``: standard input), top first.

    :param rules: the rule set whose deck the cards belong to (default standard).
    :raises FormatError: for a file that cannot be read, or naming the file and
        line of the first bad card (:func:`read_deck`).
    """
    text, name = read_source(path)
    return read_deck(text, name, rules or STANDARD)
