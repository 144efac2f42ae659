"""Drawing a game as text for a person: the grid and the lines around it.

Pure text from a :class:`~foursquare.engine.game.Game`; no terminal, no Click.  Colour
is optional and comes from outside: pass ``style(text, role) -> text`` (the
command line passes a wrapper of ``click.style``).  The roles are
``red`` / ``black`` (face-up top cards by suit colour), ``down`` (face-down top
cards), ``legal`` (cells where the card may go), ``flip`` (the mark of a cell
flipped by the last move), ``frame`` (column letters and row numbers, empty
cells) and ``title``.

A drawing looks like this (the worked example of RULES.md §7, in ASCII)::

    Last move: AS to d5, flipped d3 d4
    Card to place: 3D
    Stock: 34   Face down: 3 (limit 4)

        b      c      d      e      f
     2  .      .      +      .      .
     3  .      +      ##:1*  +      .
     4  +      ##:1   ##:2*  9D:1   +
     5  .      +      AS:1   +      .
     6  .      .      +      .      .

Each pile shows its top card and its height after a colon; ``##`` is a
face-down top card (``(7H)2`` when revealed as a memory aid: the bracket in
place of the colon, so that the columns keep their width); ``*`` marks the
cells the last move flipped; ``+`` an empty cell where the card may go (a pile
of fewer than 4 cards takes it too); ``.`` an empty cell where it may not.
Only the region that matters is drawn: the piles and the legal cells, 7
characters a column, so that a 40-column terminal holds it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.layout import CELLS, COLUMN_LETTERS, STRIDE
from ..engine.outcome import outcome_words

#: The columns text lines are fitted to when the terminal's width is not known
#: (docs/guide/playing.md: a 40-column terminal holds a standard game's drawing).
DRAWING_WIDTH = 40


#: What a closing line puts before a command to copy (``Play it again: foursquare play ...``).
COMMAND_LEAD = ": foursquare "


def fit_commands(line: str, width: int) -> list[str]:
    """A closing line that may name a command to copy (``Play it again: foursquare
    play --deal 89``) as lines of at most ``width`` where possible.  When the line is
    longer, its command goes on a line of its own, indented, and is never broken: a
    command longer than ``width`` stays whole on its line (the terminal wraps it, but a
    copy of the line is the command); the label before it, and any line without a command, is broken between words
    (:func:`fit`), a word longer than ``width`` (a file's name) never cut.

    >>> fit_commands("Play it again: foursquare play --deal 89", 80)
    ['Play it again: foursquare play --deal 89']
    >>> fit_commands("Continue it: foursquare play --resume deal1.yaml --record deal1.yaml", 40)
    ['Continue it:', '  foursquare play --resume deal1.yaml --record deal1.yaml']
    """
    if len(line) <= width:
        return [line]
    head, sep, command = line.partition(COMMAND_LEAD)
    return [*fit(head + ":", width), "  foursquare " + command] if sep else fit(line, width)


def closing_width(width: int | None) -> int:
    """The width the closing lines are fitted to: the terminal's, or
    :data:`DRAWING_WIDTH` when it is not known (``None``)."""
    return DRAWING_WIDTH if width is None else max(1, width)


#: ``style(text, role)``: decorates a piece of text (colour); the identity by default.
Style = Callable[[str, str], str]

#: Room for a top card (``9D``, ``10♦``, ``##``): every column's, whatever the cards.
FACE_WIDTH = 3


def _plain(text: str, role: str) -> str:
    return text


def card_text(card: Card, *, symbols: bool = False) -> str:
    """A card as shown to a person: ``7H`` (ASCII) or ``7♥`` / ``10♦`` (symbols)."""
    return card.symbol() if symbols else str(card)


def cards_text(text: str, *, symbols: bool = False) -> str:
    """``text`` (a message) with each card named as :func:`card_text` shows it, so
    that an error at the prompt names cards as the prompt does.

    >>> cards_text("7H d4: the card drawn is TD, not 7H", symbols=True)
    '7♥ d4: the card drawn is 10♦, not 7♥'
    """
    return re.sub(r"\b(?:10|[2-9TJQKA])[CDHS]\b", lambda m: card_text(Card.parse(m.group(0)), symbols=True), text) if symbols else text


def region(game: Game) -> tuple[int, int, int, int] | None:
    """(top row, bottom row, left column, right column) from 0 of what matters:
    the piles and the cells where the next card may go; ``None`` when neither exists."""
    cells = list(game.grid) + game.legal_cells()
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
    style: Style = _plain,
) -> str:
    """The grid region that matters, with column letters and row numbers.

    Compact enough for a 40-column terminal: 7 characters a column whatever the cards
    (a pile is ``9D:1*``, ``10♦:1*``, ``##:1*``, revealed ``(10♦)1*``); before the
    first card, the empty frame takes 4 a column.

    :param game: the game to draw.
    :param symbols: suit symbols (``10♦``) instead of ASCII letters (``TD``).
    :param reveal: show face-down top cards in brackets, ``(7H)``, instead of ``##``.
    :param style: ``style(text, role)`` for colour; none by default.
    :returns: the lines of the grid joined by newlines (no final newline); an
        empty string when there is nothing to draw.
    """
    box = region(game)
    if box is None:
        return ""
    r0, r1, c0, c1 = box
    grid = game.grid
    legal = set(game.legal_cells())
    flipped = set(game.moves[-1].flipped) if game.moves else set()
    tail = 3 if grid else 0  # ":1*" after a face
    # The row numbers take 3 characters ("10" and a space), so that a face that
    # fills its column (10♥) never runs into the number: " 5  10♥:1", not " 5 10♥:1".
    columns = "".join(" " * (FACE_WIDTH - 1) + COLUMN_LETTERS[c] + " " * (1 + tail) for c in range(c0, c1 + 1))
    lines = [style(f"   {columns}".rstrip(), "frame")]
    for r in range(r0, r1 + 1):
        parts = [style(f"{r + 1:>2}", "frame") + " "]
        for c in range(c0, c1 + 1):
            cell = CELLS[r * STRIDE + c]
            pile = grid.get(cell)
            if pile is None:
                mark = style("+", "legal") if cell in legal else style(".", "frame")
                parts.append(" " * (FACE_WIDTH - 1) + mark + " " * (1 + tail))
                continue
            role = "down" if not pile.face_up else "red" if pile.top.suit in (1, 2) else "black"
            # the five characters before the height: " 9D:", "10♦:", "  ##:"; a face-down card
            # revealed puts its closing bracket in place of the colon, " (7H)", "(10♦)": every
            # column keeps its width whatever the cards
            top = card_text(pile.top, symbols=symbols)
            head = f"{top:>4}" if pile.face_up else "  ##"
            face = head[0] + style(head[1:], role) + ":" if pile.face_up or not reveal else style(f"{'(' + top + ')':>5}", role)
            parts.append(f"{face}{len(pile.cards)}" + (style("*", "flip") if cell in flipped else " "))
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def outcome_text(game: Game) -> str:
    """The result in words: ``won, score 3``, ``lost: too many face down (5, limit 4)``,
    ``lost: the stock is empty``, ``lost: no room for the next card (all 9 piles full, 3 cards
    each)`` or ``playing`` (:func:`foursquare.engine.outcome.outcome_words`, the one wording)."""
    return outcome_words(
        game.status, game.reason, score=game.score, face_down=game.face_down, limit=game.rules.face_down_limit,
        rules=game.rules,
    )


def fit(line: str, width: int | None) -> list[str]:
    """``line`` as lines of at most ``width`` characters (``None``: as it is): a
    status line breaks between its parts, other text between words (after the
    first line, indented by two spaces).  A word longer than the width (a file's
    name, a path) is never cut: it has a line of its own, longer than ``width``.

    >>> fit("/a/very/long/folder/name/deal1.yaml: cannot read it", 20)
    ['/a/very/long/folder/name/deal1.yaml:', '  cannot read it']
    """
    if width is None or len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    lead = line[: len(line) - len(body)]
    out = [""]
    for part in body.split("   "):
        if out[-1] and len(lead) + len(out[-1]) + 3 + len(part) > width:
            out.append(part)
        else:
            out[-1] = f"{out[-1]}   {part}" if out[-1] else part
    out[0] = lead + out[0]
    return [  # a wrapped entry's lines sit under its words, deeper than its first line
        wrapped
        for piece in out
        for wrapped in textwrap.wrap(
            piece, max(width, 20), subsequent_indent=lead + "  ", break_on_hyphens=False, break_long_words=False
        ) or [piece]
    ]


def draw(
    game: Game,
    *,
    symbols: bool = False,
    reveal: bool = False,
    style: Style = _plain,
    label: str = "Last move",
    width: int | None = None,
) -> str:
    """The whole picture: what the last move did, the status (two lines of at most 40
    characters for a standard game: the card to place, or the end of the game; the stock
    count and the face-down count against the limit), a blank line, the grid.

    :param label: how to name the last move (``Last move``, ``Move 12``).
    :param width: the terminal's width (``None``: :data:`DRAWING_WIDTH`): longer
        text lines are broken to fit; the grid is compact already (a standard game's
        fits 40 columns).
    :returns: text without a final newline (see :func:`grid_text` for the other parameters).
    """
    width = closing_width(width)
    lines = []
    if game.moves:  # what the last move did: Last move: 7S to d4, flipped c4 e4
        last = game.moves[-1]
        flips = f"flipped {' '.join(str(c) for c in last.flipped)}" if last.flipped else "nothing flipped"
        lines += [style(part, "title") for part in fit(f"{label}: {card_text(last.card, symbols=symbols)} to {last.cell}, {flips}", width)]
    # the status: the card to place (or the end of the game), then the counts
    lead = (  # the counts are on the next line: the outcome without them
        "Game over: " + outcome_words(game.status, game.reason, score=game.score) if game.is_over
        else "Card to place: unknown (name it: 7H d4)" if game.next_card is None
        else f"Card to place: {card_text(game.next_card, symbols=symbols)}"
    )
    lines += [
        *fit(lead, width), *fit(f"Stock: {game.stock_count}   Face down: {game.face_down} (limit {game.rules.face_down_limit})", width)
    ]
    grid = grid_text(game, symbols=symbols, reveal=reveal, style=style)
    if grid:
        lines += ["", grid]
    return "\n".join(lines)
