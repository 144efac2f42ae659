"""A plain perfect-information solver on the engine itself, for any rule set.

:mod:`foursquare.solver` is fast but supports only the standard flip and
adjacency rules.  This module searches with :class:`~foursquare.engine.game.Game`
directly (play/undo), so it follows every rule set the engine knows: it is the
solver's fallback for the other variants (RULES.md §8) and an independent check
of it.  Same question, same answers: the win that uses the fewest cards (the
highest score, RULES.md §5), or a proof that no win exists, or ``unknown`` when
a limit runs out.  A line that fills every pile is lost there (no legal cell,
RULES.md §5 point 4): :attr:`Game.is_over` ends it like any other loss.
"""

from __future__ import annotations

import time

from ..engine.game import Game, Status
from ..engine.layout import Cell
from ..engine.rules import LayoutKind
from .solution import NO_WIN, SOLVED, UNKNOWN, Outcome

#: The most positions the table of failed budgets holds: when it holds this many and one
#: more is to be kept, it is emptied first (a position then searched again gives the same
#: answer), which bounds its memory (some 600 bytes a position) however long the search.
TABLE_MAX_ENTRIES = 1 << 20


class _Limit(Exception):
    """The node or time limit ran out."""


def _key(game: Game) -> tuple[object, ...]:
    """Everything the rest of the game depends on: the cards placed so far (the
    stock position) and each pile's height, top card and face, cell by cell.

    Cells are taken relative to the piles' box when the frame cannot bind any
    more (every box of ``size`` rows and columns around the piles fits in the
    frame), since the rules then look the same wherever the piles lie (RULES.md §3).
    """
    box = game.bounding_box()
    shift = 0
    if box is not None:
        r0, r1, c0, c1 = box
        n, last = game.rules.size, game.rules.frame - 1
        if r1 - (n - 1) >= 0 and r0 + (n - 1) <= last and c1 - (n - 1) >= 0 and c0 + (n - 1) <= last:
            shift = r0 * 16 + c0
    key: list[object] = [game.placed]
    for cell, p in game.grid.items():  # one flat tuple: a tuple a pile took three times the memory
        key += (cell - shift, len(p.cards), p.top, p.face_up)
    return tuple(key)


def solve_with_engine(
    game: Game, *, max_nodes: int | None, timeout: float | None, fewest_cards: int = 0,
) -> tuple[Outcome, int | None, tuple[Cell, ...], int]:
    """Solve ``game`` from its position by iterative deepening on the number of cards used.

    :param game: the game (not changed); its known deck is the stock order.
    :param max_nodes: the most placements to try (``None``: no limit).
    :param timeout: the most wall-clock seconds (``None``: no limit).
    :param fewest_cards: the fewest cards a win can use, known to the caller: smaller
        budgets are not tried (see :func:`~foursquare.solver.search.solve`'s ``score_at_most``).
    :returns: ``(status, cards, cells, nodes)``: status :data:`~foursquare.solver.solution.SOLVED` (``cards`` is the
        number of cards placed at the win, ``cells`` the winning moves), ``no-win``
        (no win with the known cards: for a deck prefix the caller says what that proves),
        or ``unknown`` (``cards``: the fewest cards a win may still need).
    """
    start = time.perf_counter()
    game = game.copy()
    rules = game.rules
    full = rules.size * rules.size
    last = min(len(game.deck), rules.deck_size)
    if rules.can_run_out_of_room:  # with every pile full the game is lost (RULES.md §5 point 4): no win needs more
        last = min(last, rules.room)
    nodes = 0
    failed: dict[tuple[object, ...], int] = {}  # key -> the largest card budget known to fail from there (bounded)

    def search(budget: int, path: list[Cell]) -> bool:
        nonlocal nodes
        if game.status is Status.WON:
            return True
        if game.is_over or game.placed >= budget or game.placed >= last:
            return False
        if full - len(game.grid) > budget - game.placed:  # each missing pile needs a card
            return False
        key = _key(game)
        if failed.get(key, -1) >= budget:
            return False
        # on an empty floating grid only its centre (row and column size - 1: 16 * row + column): from there every placement of the final
        # grid is still open (RULES.md §3: the frame binds only near its edge)
        centre_only = game.bounding_box() is None and rules.layout is LayoutKind.FLOATING
        for cell in [Cell((rules.size - 1) * 17)] if centre_only else game.legal_cells():
            if max_nodes is not None and nodes >= max_nodes:
                raise _Limit  # never more than max_nodes placements tried
            nodes += 1
            if timeout is not None and nodes % 64 == 0 and time.perf_counter() - start > timeout:
                raise _Limit
            game.play(cell)
            path.append(cell)
            if search(budget, path):
                return True
            path.pop()
            game.undo()
        if len(failed) >= TABLE_MAX_ENTRIES:
            failed.clear()  # full: emptied (see TABLE_MAX_ENTRIES)
        failed[key] = budget
        return False

    for budget in range(max(game.placed + 1, game.placed + full - len(game.grid), fewest_cards), last + 1):
        path: list[Cell] = []
        try:
            if search(budget, path):
                return SOLVED, budget, tuple(path), nodes
        except _Limit:
            return UNKNOWN, budget, (), nodes
    return NO_WIN, None, (), nodes
