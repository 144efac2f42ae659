"""Move scripts: one move a line, as typed at the prompt or piped in (FORMATS.md).

A move is a cell (``d4``), optionally preceded by the card the writer expects
to be drawn (``7H d4``).  ``#`` starts a comment; blank lines and surrounding
white space are ignored; CRLF line ends and a UTF-8 byte-order mark are
accepted; cards and cells are case-insensitive.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .cards import Card
from .errors import FormatError, IllegalMoveError, ParseError
from .game import Game, Placement, WrongCardError
from .layout import Cell
from .rules import STANDARD, Rules


class Move(NamedTuple):
    """One move: the cell, and the card the writer expects to be drawn (or ``None``)."""

    cell: Cell
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.card} {self.cell}" if self.card is not None else str(self.cell)


def strip_line(text: str) -> str:
    """A line without its comment, line end, byte-order mark and surrounding white space."""
    return text.lstrip("\ufeff").split("#", 1)[0].strip()


def parse_move(text: str) -> Move:
    """Read one move: ``CELL`` or ``CARD CELL`` (comments and white space already removed).

    :raises ParseError: when the text is not a move; the message quotes it.
    """
    words = text.split()
    if len(words) == 1:
        return Move(Cell.parse(words[0]))
    if len(words) == 2:
        return Move(Cell.parse(words[1]), Card.parse(words[0]))
    raise ParseError(f"not a move: {text!r} (expected a cell like d4, or a card and a cell like 7H d4)")


def read_moves(lines: Iterable[str], source: str = "<stdin>") -> Iterator[tuple[int, Move]]:
    """The moves of a move script, each with its line number (from 1).

    :param lines: the script's lines (a file opened as text, or ``text.splitlines()``).
    :param source: the name used in errors (``<stdin>`` for standard input).
    :raises FormatError: ``FILE:LINE: message`` at the first line that is not a move.
    """
    for number, line in enumerate(lines, 1):
        text = strip_line(line) if number > 1 else strip_line(line.lstrip("\ufeff"))
        if not text:
            continue
        try:
            yield number, parse_move(text)
        except ParseError as exc:
            raise FormatError(source, number, str(exc)) from None


def new_game(
    *, deal: int | None = None, deck: Sequence[Card] | None = None, rules: Rules | None = None
) -> Game:
    """The game to replay moves on: from a deal number, else a card order (maybe a prefix),
    else an unknown order (then every move must name its card).

    :param deal: a deal number (RULES.md §2); wins over ``deck`` when both are given.
    :param deck: cards top first.
    :param rules: the rule set (default: standard).
    :raises ParseError, ValueError: for a bad deal number or deck (the engine's errors).
    """
    rules = rules or STANDARD
    if deal is not None:
        return Game.from_deal(deal, rules)
    return Game(list(deck or ()), rules)


def play_move(game: Game, move: Move, source: str, line: int | None, number: int | None = None, game_number: int | None = None) -> Placement:
    """Play one move on ``game``, turning the engine's refusal into a located error.

    :param move: the move (its card, when given, must be the card drawn).
    :param source: the file name; :param line: the move's line; :param number: the
        move's number from 1; :param game_number: the game's number in a multi-game file.
    :returns: the placement record.
    :raises FormatError: ``FILE:LINE: [game K, ]move M: why`` for an illegal move,
        a wrong card, or a card that cannot be drawn.
    """
    try:
        return game.play(move.cell, move.card)
    except WrongCardError as exc:
        raise FormatError(source, line, f"wrong card: {exc}", game_number, number) from None
    except (IllegalMoveError, ParseError) as exc:
        raise FormatError(source, line, f"illegal move {move}: {exc}", game_number, number) from None


def play_script(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
    game: Game | None = None,
) -> Game:
    """Replay a move script (FORMATS.md "Move scripts") and return the game at its end.

    :param text: the script.
    :param source: the name used in errors.
    :param deal, deck, rules: the game to play on (see :func:`new_game`), unless
        ``game`` is given (it is played on in place).
    :raises FormatError: ``FILE:LINE: move M: message`` at the first line that is
        not a move, an illegal move or a wrong card.
    """
    if game is None:
        try:
            game = new_game(deal=deal, deck=deck, rules=rules)
        except (ParseError, ValueError) as exc:
            raise FormatError(source, None, str(exc)) from None
    lines = text.removeprefix("\ufeff").splitlines()
    for number, (line, move) in enumerate(read_moves(lines, source), 1):
        play_move(game, move, source, line, number)
    return game
