"""The game in sentences, for a player who listens (a screen reader): the words mode
of ``play --words`` and ``replay --words``.

Pure text from a :class:`~foursquare.engine.game.Game`, like :mod:`.render`, with
nothing a screen reader reads badly: no ``#``, ``*``, ``+``, ``:``, suit symbol or
box drawing.  Cards are named by rank alone (``a seven``): in play suits never matter
(RULES.md §1), as the first announcement says.  Cells keep their names (``d4``); lists of cells are in reading order,
runs along a row joined (``c3 to f3``).

    >>> from foursquare.engine.game import Game
    >>> game = Game.from_deal(153)
    >>> print(start_words(game))
    Deal 153. Suits never matter; more than 4 face down loses. The first card is an eight. It goes to any cell.
    >>> _ = game.play("g7")
    >>> print(move_words(game))
    Eight to g7. Next, a three, to g6, f7 or g7.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Iterable

from ..engine.cards import Card
from ..engine.game import Game, Placement
from ..engine.layout import STRIDE, Cell
from ..engine.outcome import Status, reason_words
from ..errors import ParseError
from ..formats.commands import TABLE

#: Each rank in words (index 0 unused); ranks past ten exist in long-deck variants.
RANK_WORDS = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
#: The most runs of cells an announcement lists: past this it says how many, and
#: ``cells`` lists them.
LISTED_RUNS = 4


def rank_words(card: Card, article: bool = False) -> str:
    """A card's rank in words, ``seven`` (``article``: ``a seven``, ``an eight``)."""
    word = RANK_WORDS[card.rank]
    return (("an " if word[0] in "aei" else "a ") if article else "") + word


def _runs(cells: Iterable[Cell]) -> list[str]:
    """Cells in reading order, each run of three or more along a row as one part:
    ``c3 through f3`` (``to`` is for a move: ``Five to e4``)."""
    # a run: cells of one row whose numbers, in order, step by one (the number less its place is the same)
    ordered = enumerate(sorted(cells))
    runs = [[cell for _, cell in run] for _, run in itertools.groupby(ordered, key=lambda pair: (pair[1].row, pair[1] - pair[0]))]
    return [part for run in runs for part in (map(str, run) if len(run) < 3 else [f"{run[0]} through {run[-1]}"])]


def cells_words(cells: Iterable[Cell]) -> str:
    """Cells in reading order (row by row, left to right), each run along a row as
    ``c3 through f3``, the last joined by ``or``: ``c4, d3 or e4``.

    >>> cells_words([Cell("e4"), Cell("c4"), Cell("d3"), Cell("d4")])
    'd3, or c4 through e4'
    >>> cells_words([Cell("g6"), Cell("f7"), Cell("g7")])
    'g6, f7 or g7'
    """
    parts = _runs(cells)
    if len(parts) == 1:
        return parts[0]
    joiner = ", or " if any(" through " in part for part in parts) else " or "
    return ", ".join(parts[:-1]) + joiner + parts[-1]


def where_words(game: Game) -> str:
    """Where the next card may go, short: ``any cell`` on an empty frame; once the
    grid has its full width and height, ``any cell but e6 and g7`` when that is
    shorter; else its cells (``c4, d3 or e4``), or past :data:`LISTED_RUNS` runs how
    many (``cells`` lists them)."""
    cells = game.legal_cells()
    if not cells:
        return "nowhere"
    if not game.grid:
        return "any cell" if len(_runs(cells)) > LISTED_RUNS else cells_words(cells)
    top, bottom, left, right = game.bounding_box() or (0, 0, 0, 0)
    if bottom - top + 1 == game.rules.size == right - left + 1:
        box = [Cell(row * STRIDE + column) for row in range(top, bottom + 1) for column in range(left, right + 1)]
        blocked = [cell for cell in box if cell not in cells]
        if len(blocked) < len(_runs(cells)):
            return f"any cell but {cells_words(blocked).replace(' or ', ' and ')}" if blocked else "any cell"
    return cells_words(cells) if len(_runs(cells)) <= LISTED_RUNS else f"any of {len(cells)} cells (type cells to hear them)"


def _next_words(game: Game, same: bool = False) -> str:
    """What comes next: the card and where it may go (``same``: the cells of the card
    before, said shortly), or how the game ended."""
    if game.is_over:
        lost = f"You lost, {reason_words(game.reason)}." if game.reason else "You lost."
        return f"You won, score {game.score}." if game.status is Status.WON else lost
    card = game.next_card
    what = "an unknown card" if card is None else rank_words(card, article=True)
    return f"Next, {what}, " + ("to the same cells." if same else f"to {where_words(game)}.")


def start_words(game: Game) -> str:
    """The first announcement of a game: the deal, that suits never matter, the first
    card and where it goes (a game resumed: the next card and its cells, or the end)."""
    deal = f"Deal {game.deal}. " if game.deal is not None else ""
    card = game.next_card
    then = (
        _next_words(game) if game.grid or card is None
        else f"The first card is {rank_words(card, article=True)}. It goes to {where_words(game)}."
    )
    return f"{deal}Suits never matter; more than {game.rules.face_down_limit} face down loses. {then}"


def move_words(game: Game) -> str:
    """The announcement of the last move: what went where, what flipped and which way,
    the face-down count (with a flip), then the next card and its cells (``the same
    cells`` when the card placed had them too), or the end."""
    if not game.moves:
        return start_words(game)
    last = game.moves[-1]
    words = [f"{rank_words(last.card).capitalize()} to {last.cell}.", *_flip_words(game, last.flipped)]
    if last.flipped:  # (the count changes only with a flip)
        words.append(f"{last.face_down} face down" + (", at the limit." if last.face_down == game.rules.face_down_limit else "."))
    before = game.copy()
    before.undo()
    words.append(_next_words(game, before.legal_cells() == game.legal_cells()))
    return " ".join(words)


def _flip_words(game: Game, flipped: Iterable[Cell]) -> list[str]:
    """The cells ``flipped`` as they lie now, face up then face down: ``d4 turned up.``"""
    grid, words = game.grid, []
    for way in ("up", "down"):
        cells = [c for c in flipped if (c in grid and grid[c].face_up) == (way == "up")]
        if cells:
            words.append(f"{cells_words(cells).replace(' or ', ' and ')} turned {way}.")
    return words


def pile_words(game: Game, cell: Cell, reveal: bool = False) -> str:
    """One cell in words: ``d4, a seven, face up, 2 cards`` or ``d4, empty`` (``reveal``:
    a face-down card named too, ``d4, face down, a seven, 1 card``)."""
    pile = game.grid.get(cell)
    if pile is None:
        return f"{cell}, empty" + (", the card may go here" if game.is_legal(cell) else "")
    card = rank_words(pile.top, article=True)
    side = f"{card}, face up" if pile.face_up else f"face down, {card}" if reveal else "face down"
    return f"{cell}, {side}, {len(pile.cards)} card" + ("" if len(pile.cards) == 1 else "s")


def look_words(game: Game, reveal: bool = False) -> str:
    """Every pile in reading order, a sentence each, then the counts and the next card."""
    lines = [pile_words(game, cell, reveal) + "." for cell in sorted(game.grid)] or ["No card placed yet."]
    box = game.bounding_box()
    if box is not None:
        top, bottom, left, right = box
        lines.append(f"The piles span {Cell(top * STRIDE + left)} through {Cell(bottom * STRIDE + right)}.")
    lines += [f"Stock {game.stock_count}. {game.face_down} face down of {game.rules.face_down_limit}.", _next_words(game)]
    return "\n".join(lines)


def legal_words(game: Game) -> str:
    """Where the next card may go, every cell, or why none."""
    if game.is_over:
        return _next_words(game)
    cells = game.legal_cells()
    if not game.grid and cells:  # the whole frame
        return f"The card may go to any cell, {cells[0]} through {cells[-1]}."
    return f"The card may go to {cells_words(cells)}." if cells else "The card may go nowhere."


def took_back_words(game: Game, placement: Placement) -> str:
    """What ``undo`` says: the card taken back and where from, the cells its flips turned
    back (and the face-down count, when they did), then the next card."""
    words = [f"Took back the {rank_words(placement.card)} from {placement.cell}.", *_flip_words(game, placement.flipped)]
    if placement.flipped:
        words.append(f"{game.face_down} face down.")
    return " ".join([*words, _next_words(game)])


def spoken(text: str) -> str:
    """A line of the other modes' text with its colons read as pauses (``save! FILE, over it too``)
    and sizes read as spoken (``4x4``: ``4 by 4``)."""
    return re.sub(r"(\d)x(\d)", r"\1 by \2", text.replace(": ", ", "))


def help_words() -> str:
    """``help`` in words: how to move, then the commands, a line each."""
    return "\n".join([
        "A move is a cell, like d4. Commands.",
        "look, every pile. look d4, one pile. cells, where the card may go.",
        *(spoken(f"{spec.name}, {spec.help}.") for spec in TABLE if spec.usage and spec.name not in ("moves", "show")),
    ])


def asked_words(game: Game, line: str, reveal: bool = False) -> str | None:
    """The answer to ``look`` (every pile), ``look d4`` (one pile) or ``cells`` (where
    the card may go), any case; ``None`` for any other line."""
    words = line.lower().split()
    if words == ["cells"]:
        return legal_words(game)
    if not words or words[0] != "look" or len(words) > 2:
        return None
    if len(words) == 1:
        return look_words(game, reveal)
    with contextlib.suppress(ParseError):
        cell = Cell(words[1])
        if max(cell.row, cell.column) < game.rules.frame:
            return pile_words(game, cell, reveal) + "."
    return f"{words[1]} is no cell. A cell is a column letter and a row number, like d4."
