"""The position as text for ``render_mode="ansi"``: what the player sees (RULES.md §6).

The whole frame is drawn, since each of its cells is an action: a pile shows its
top card and height (``9D:2``), ``##`` a face-down top card, ``+`` an empty cell
where the card in hand may go, ``.`` one where it may not; the same marks as the
prompt's drawing (``foursquare play``), which draws only the region that matters.

    >>> from foursquare import Game
    >>> game = Game.from_deal(1, "three-square")
    >>> for cell in ("c3", "d3", "c2"):
    ...     _ = game.play(cell)
    >>> print(draw(game, 5))
    Card to place: 7H
    Stock: 37   Face down: 0 (limit 2)
          a     b     c     d     e
     1    .     .     +     .     .
     2    .     +    7D:1   +     .
     3    .     +    2D:1  3C:1   +
     4    .     .     +     +     .
     5    .     .     .     .     .
"""

from __future__ import annotations

from ..engine.game import Game
from ..engine.layout import CELLS, COLUMN_LETTERS, STRIDE
from ..engine.outcome import outcome_words


def draw(game: Game, frame: int) -> str:
    """Two status lines (the card in hand or the end of the game; the stock, the face-down
    count and its limit), then the ``frame`` × ``frame`` cells, 6 characters
    a column; no final newline."""
    if game.is_over:
        lead = "Game over: " + outcome_words(game.status, game.reason, score=game.score)
    else:
        lead = f"Card to place: {game.next_card}"
    lines = [
        lead,
        f"Stock: {game.stock_count}   Face down: {game.face_down} (limit {game.rules.face_down_limit})",
        ("   " + "".join(f"   {COLUMN_LETTERS[c]}  " for c in range(frame))).rstrip(),
    ]
    legal = set(game.legal_cells())
    for r in range(frame):
        parts = [f"{r + 1:>2} "]
        for c in range(frame):
            cell = CELLS[r * STRIDE + c]
            pile = game.pile(cell)
            if pile is None:
                parts.append("   " + ("+" if cell in legal else ".") + "  ")
            else:
                face = str(pile.top) if pile.face_up else "##"
                parts.append(f"  {face}:{len(pile.cards)}")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)
