"""The ``random`` bot: a uniformly random legal cell (a baseline)."""

from __future__ import annotations

import random

from ._board import Board
from .base import Bot, CellEstimate


class RandomBot(Bot):
    """``random``: a legal cell chosen uniformly at random (seeded); no estimates."""

    name = "random"
    description = "a uniformly random legal cell (a baseline)"
    uses_budget = False

    def __init__(self, nodes: int | None = None) -> None:
        pass

    def _estimates(self, board: Board, x: int, cells: list[int], deadline: float | None, seed: int) -> list[CellEstimate]:
        order = list(cells)
        random.Random(seed).shuffle(order)
        return [(c, None, None) for c in order]
