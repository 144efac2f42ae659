"""Input files: reading a source, a deck file, and recognising what a file holds (FORMATS.md).

:func:`read_source` reads a file (or ``-``, standard input) as text;
:func:`read_deck` reads a deck file (cards top first); :func:`load_input`
tells a state, a transcript and a move script apart and returns the game;
:func:`load_view` returns what the player may know at its end (for a hint).
"""

from __future__ import annotations

import re
import sys

from ..engine.cards import Card
from ..engine.game import Game, Status
from ..engine.rules import STANDARD, Rules
from ..engine.view import PlayerView
from ..errors import FormatError, ParseError
from .yamlio import clean_text, decode

#: The name used for standard input in messages.
STDIN = "<stdin>"


#: The largest file read (bytes): far above any real game file (a transcript of
#: 10,000 games is about 10 MB), low enough that an endless input (/dev/zero)
#: ends with an error instead of filling the memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def _too_large(name: str) -> FormatError:
    return FormatError(name, None, f"too large: over {MAX_INPUT_BYTES // (1024 * 1024)} MiB, more than any game file holds")


def read_source(path: str) -> tuple[str, str]:
    """The text of a file and its display name; ``-`` reads standard input as ``<stdin>``.

    The text is UTF-8 (a byte-order mark is removed, CRLF becomes LF).

    :param path: a file path, or ``-``.
    :returns: ``(text, name)``.
    :raises FormatError: for a missing file, a directory, an unreadable file, a
        file over :data:`MAX_INPUT_BYTES` or text that is not UTF-8
        (``FILE:LINE: not UTF-8 text``).
    """
    limit = MAX_INPUT_BYTES
    if path == "-":
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        if stream is None:  # a text stream without bytes (e.g. some test runners)
            text = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise _too_large(STDIN)
            return clean_text(text), STDIN
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise _too_large(STDIN)
        return decode(data, STDIN), STDIN
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise FormatError(path, None, "no such file") from None
    except IsADirectoryError:
        raise FormatError(path, None, "is a directory, not a file") from None
    except PermissionError:
        raise FormatError(path, None, "permission denied") from None
    except OSError as exc:
        raise FormatError(path, None, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise _too_large(path)
    return decode(data, path), path


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
    cards: list[Card] = []
    first_line: dict[Card, int] = {}
    for number, line in enumerate(clean_text(text).split("\n"), 1):
        for word in line.split("#", 1)[0].split():
            try:
                card = Card.parse(word)
            except ParseError as exc:
                raise FormatError(source, number, str(exc)) from None
            if card.rank > rules.ranks or card.suit >= rules.suits:
                raise FormatError(source, number, f"{card} is not a card of the {rules.label} deck")
            if card in first_line:
                raise FormatError(source, number, f"{card} is listed twice (first on line {first_line[card]})")
            if len(cards) == rules.deck_size:
                raise FormatError(
                    source, number, f"too many cards: the {rules.label} deck has {rules.deck_size} cards"
                )
            first_line[card] = number
            cards.append(card)
    if not cards:
        raise FormatError(source, 1, "the deck file lists no cards")
    return cards


_YAML_START = re.compile(r"(---|%|\.\.\.|[A-Za-z_][\w-]*\s*:(\s|$)|\{|\[|-(\s|$))")


def input_kind(text: str) -> str:
    """What a file holds: ``state``, ``transcript`` or ``moves`` (a move script).

    A YAML file starts (after comments and blank lines) with a key (``foursquare:``),
    ``---``, a ``%`` directive, or a list (``- item``, ``[``, ``{``); a move script never does.  A YAML mapping with a
    ``grid`` key is a state, any other YAML a transcript.
    """
    lines = clean_text(text).split("\n")
    for i, line in enumerate(lines):
        stripped = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not stripped:
            continue
        if not _YAML_START.match(line.strip()):
            return "moves"
        rest = lines[i:]
        if any(re.match(r"grid\s*:", r) for r in rest):
            return "state"
        return "transcript"
    return "moves"


def load_input(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: list[Card] | None = None,
    rules: Rules | None = None,
) -> Game:
    """The game a file describes, replayed to its end (a state resumes as saved).

    :param text: a state (FORMATS.md "State"), a transcript ("Transcripts") or a
        move script ("Move scripts"); see :func:`input_kind`.
    :param source: the name used in errors.
    :param deal: the deal number, for a file that does not name its deal.
    :param deck: the card order, top first, likewise.
    :param rules: the rule set, for a file that does not name one (default standard).
    :returns: the game.
    :raises FormatError: ``FILE:LINE: message`` at the first problem (for a move
        script, the line of the illegal move or the wrong card, or of the first move
        without a card when neither ``deal`` nor ``deck`` is given and the script
        needs them); an empty file is an error.  A move script may hold the commands
        of interactive play (:func:`foursquare.movescript.play_script`).
    """
    if not text.strip():
        raise FormatError(source, 1, "the file is empty (expected a move script, a transcript or a state)")
    kind = input_kind(text)
    if kind == "state":
        from .state import read_state

        return read_state(text, source)
    if kind == "transcript":
        from .transcript import load_game

        return load_game(text, source, deal=deal, deck=deck, rules=rules)
    from .movescript import play_script

    return play_script(text, source, deal=deal, deck=deck, rules=rules)


def load_view(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: list[Card] | None = None,
    rules: Rules | None = None,
) -> PlayerView:
    """What the player may know (RULES.md §6) at the end of a file: what a hint needs.

    :param text: a state, a player's view (``foursquare state --player-view``), a
        transcript or a move script (see :func:`input_kind`).
    :param source: the name used in errors.
    :param deal, deck, rules: as for :func:`load_input`.
    :returns: the :class:`~foursquare.view.PlayerView` (of a game over too: its
        ``status`` says so and its ``next_card`` is ``None``).
    :raises FormatError: as :func:`load_input`; for a player's view that hides a
        face-down top card (it cannot give an exact view: see
        :func:`foursquare.state.read_view`); when the game goes on but its next
        card is unknown (a move script or a deck prefix that names no more cards).
    """
    if text.strip() and input_kind(text) == "state":
        from .state import read_view

        return read_view(text, source)
    game = load_input(text, source, deal=deal, deck=deck, rules=rules)
    if game.status is Status.PLAYING and game.next_card is None:
        raise FormatError(source, None, f"{next_card_unknown(game)}, so there is no player's view")
    return PlayerView.of(game)


def next_card_unknown(game) -> str:
    """Why a game that goes on has no next card: every card its deal, deck or moves
    make known is placed (for a message; without ``FILE:`` before it)."""
    known = len(game.deck)
    placed = {0: "no card is known", 1: "the one card known is placed"}.get(known, f"the {known} cards known are all placed")
    return f"the next card is unknown: {placed} (give --deal N, or a --deck FILE that names more cards)"
