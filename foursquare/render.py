"""Drawing a game as text for a person: the grid and the lines around it.

Pure text from a :class:`~foursquare.game.Game`; no terminal, no Click.  Colour
is optional and comes from outside: pass ``style(text, role) -> text`` (the
command line passes a wrapper of ``click.style``).  The roles are
``red`` / ``black`` (face-up top cards by suit colour), ``down`` (face-down top
cards), ``legal`` (cells where the card may go), ``flip`` (the mark of a cell
flipped by the last move), ``frame`` (column letters and row numbers, empty
cells) and ``title``.

A drawing looks like this (the worked example of RULES.md §7, in ASCII)::

    Last move: AS to d5, flipped d3 d4
    Card to place: 3D   Stock: 34   Face down: 3 (limit 4)

            b        c        d        e        f
      2     .        .        +        .        .
      3     .        +        ##:1*    +        .
      4     +        ##:1     ##:2*    9D:1     +
      5     .        +        AS:1     +        .
      6     .        .        +        .        .

Each pile shows its top card and its height after a colon; ``##`` is a
face-down top card (``(7H)`` when revealed as a memory aid); ``*`` marks the
cells the last move flipped; ``+`` an empty cell where the card may go (a pile
of fewer than 4 cards takes it too); ``.`` an empty cell where it may not.
Only the region that matters is drawn: the piles and the legal cells.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import Card
from .game import Game, Status
from .layout import COLUMN_LETTERS, CELLS, STRIDE, Cell

#: ``style(text, role)``: decorates a piece of text (colour); the identity by default.
Style = Callable[[str, str], str]

CARD_WIDTH = 5  # room for "(10♦)"


def _plain(text: str, role: str) -> str:
    return text


def card_text(card: Card, *, symbols: bool = False) -> str:
    """A card as shown to a person: ``7H`` (ASCII) or ``7♥`` / ``10♦`` (symbols)."""
    return card.symbol() if symbols else str(card)


def _suit_role(card: Card) -> str:
    return "red" if card.suit in (1, 2) else "black"


def region(game: Game) -> tuple[int, int, int, int] | None:
    """(top row, bottom row, left column, right column) from 0 of what matters:
    the piles and the cells where the next card may go; ``None`` when neither exists."""
    cells = list(game.grid()) + game.legal_cells()
    if not cells:
        return None
    rows = [c >> 4 for c in cells]
    cols = [c & 15 for c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def grid_text(
    game: Game,
    *,
    symbols: bool = False,
    reveal: bool = False,
    style: Style | None = None,
) -> str:
    """The grid region that matters, with column letters and row numbers.

    :param game: the game to draw.
    :param symbols: suit symbols (``10♦``) instead of ASCII letters (``TD``).
    :param reveal: show face-down top cards in brackets, ``(7H)``, instead of ``##``.
    :param style: ``style(text, role)`` for colour; none by default.
    :returns: the lines of the grid joined by newlines (no final newline); an
        empty string when there is nothing to draw.
    """
    style = style or _plain
    box = region(game)
    if box is None:
        return ""
    r0, r1, c0, c1 = box
    grid = game.grid()
    legal = set(game.legal_cells())
    last = game.moves[-1] if game.moves else None
    flipped = set(last.flipped) if last else set()
    header = "    " + "".join(f" {COLUMN_LETTERS[c]:>{CARD_WIDTH - 1}}    " for c in range(c0, c1 + 1)).rstrip()
    lines = [style(header, "frame")]
    for r in range(r0, r1 + 1):
        parts = [style(f"{r + 1:>3} ", "frame")]
        for c in range(c0, c1 + 1):
            cell = CELLS[r * STRIDE + c]
            parts.append(" " + _cell_text(cell, grid.get(cell), cell in legal, cell in flipped, symbols, reveal, style))
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def _cell_text(cell: Cell, pile, legal: bool, flipped: bool, symbols: bool, reveal: bool, style: Style) -> str:
    if pile is None:
        mark = "+" if legal else "."
        return " " * (CARD_WIDTH - 2) + style(mark, "legal" if legal else "frame") + "    "
    top = card_text(pile.top, symbols=symbols)
    if pile.face_up:
        face = style(f"{top:>{CARD_WIDTH}}", _suit_role(pile.top))
    elif reveal:
        face = style(f"{'(' + top + ')':>{CARD_WIDTH}}", "down")
    else:
        face = style(f"{'##':>{CARD_WIDTH}}", "down")
    mark = style("*", "flip") if flipped else " "
    return f"{face}:{len(pile.cards)}{mark}"


def outcome_text(game: Game) -> str:
    """The result in words: ``won, score 3``, ``lost: too many face down (5 of 4)``,
    ``lost: the stock is empty`` or ``playing``."""
    if game.status is Status.WON:
        return f"won, score {game.score}"
    if game.status is Status.LOST:
        if game.reason == "too-many-face-down":
            return f"lost: too many face down ({game.face_down}, more than {game.rules.face_down_limit})"
        return "lost: the stock is empty"
    return "playing"


def status_line(game: Game, *, symbols: bool = False) -> str:
    """The card to place, the stock count and the face-down count against the limit."""
    limit = game.rules.face_down_limit
    if game.is_over:
        lead = f"Game over: {outcome_text(game)}"
    elif game.next_card is None:
        lead = "Card to place: unknown (name it: 7H d4)"
    else:
        lead = f"Card to place: {card_text(game.next_card, symbols=symbols)}"
    return f"{lead}   Stock: {game.stock_count}   Face down: {game.face_down} (limit {limit})"


def move_line(game: Game, *, symbols: bool = False, label: str = "Last move") -> str | None:
    """What the last move did (``Last move: 7S to d4, flipped c4 e4``), or ``None`` before any."""
    if not game.moves:
        return None
    last = game.moves[-1]
    flips = f"flipped {' '.join(str(c) for c in last.flipped)}" if last.flipped else "nothing flipped"
    return f"{label}: {card_text(last.card, symbols=symbols)} to {last.cell}, {flips}"


def draw(
    game: Game,
    *,
    symbols: bool = False,
    reveal: bool = False,
    style: Style | None = None,
    label: str = "Last move",
) -> str:
    """The whole picture: what the last move did, the status line, a blank line, the grid.

    :param label: how to name the last move (``Last move``, ``Move 12``).
    :returns: text without a final newline (see :func:`grid_text` for the other parameters).
    """
    style = style or _plain
    lines = []
    last = move_line(game, symbols=symbols, label=label)
    if last:
        lines.append(style(last, "title"))
    lines.append(status_line(game, symbols=symbols))
    grid = grid_text(game, symbols=symbols, reveal=reveal, style=style)
    if grid:
        lines += ["", grid]
    return "\n".join(lines)
