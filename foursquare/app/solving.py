"""The sweep of ``solve --deals``: the deals of a range solved (the workers given them
by the command line), each deal's result a row of the ``--output`` CSV (its columns,
and the result of a row, for ``--resume``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .sweep import SweepCsv, best_score, count_of, rules_text, seconds_of

if TYPE_CHECKING:
    from ..engine.rules import Rules
    from ..solver import Solution

#: The columns of the ``--output`` CSV: a deal's result, then the settings that shape it (app/sweep.py).
CSV_HEADER = ["deal", "status", "score", "max_score", "nodes", "seconds", "moves", "rules", "max_nodes", "timeout", "memory"]


@dataclass(frozen=True)
class SolveSweep:
    """The deals of ``deals`` solved under ``rules`` with a node limit (``max_nodes``),
    a time limit per deal (``timeout``, ``None``: none) and the bytes each search may use
    (``memory``, ``None``: the default table; it sizes the transposition table, so it
    shapes the node counts)."""

    deals: range
    rules: Rules
    max_nodes: int
    timeout: float | None
    memory: int | None = None

    def settings(self) -> list[str]:
        """The values of the setting columns (the last four of :data:`CSV_HEADER`)."""
        return [
            rules_text(self.rules), str(self.max_nodes), "" if self.timeout is None else str(self.timeout),
            "" if self.memory is None else str(self.memory),
        ]

    def layout(self, again: bool = False) -> SweepCsv:
        """What the CSV of this sweep holds, for :func:`~foursquare.app.sweep.resume_csv`:
        a row of a lower ``max_nodes`` is kept when settled, and, when it is
        ``unknown``, solved again if ``again`` (else refused)."""
        settings = list(zip(CSV_HEADER[-4:], self.settings(), strict=True))
        return SweepCsv(CSV_HEADER, settings, self.deals, solution_of_row, limit="max_nodes", again=again)


def solution_of_row(row: dict[str, str], rules: Rules) -> Solution:
    """A deal's result as its CSV row gives it back, for the summary of a resumed run
    (without the moves, which the summary does not use), each value checked.

    :raises ValueError: for a value the sweep never writes under ``rules`` (saying which).
    """
    from ..engine.layout import CELL_NAMES, STRIDE
    from ..solver import Outcome, Solution

    status, score, best = row["status"], row["score"], row["max_score"]
    if status not in {str(o) for o in Outcome}:
        raise ValueError(f"status {status!r}")
    nodes = count_of(row["nodes"], 0, count_of(row["max_nodes"], 1, None, "max_nodes"), "nodes")  # the search stops at its limit
    seconds = seconds_of(row["seconds"], "seconds")
    if status == "solved":
        won = count_of(score, 0, best_score(rules), "score")
        if best != score:
            raise ValueError(f"max_score {best!r} of a solved deal of score {score}")
        cells = {CELL_NAMES[r * STRIDE + c] for r in range(rules.frame) for c in range(rules.frame)}
        moves = row["moves"].split(" ")
        if len(moves) != rules.deck_size - won or not set(moves) <= cells:
            raise ValueError(f"moves {row['moves']!r}: not the {rules.deck_size - won} cells of a win of score {won}")
    elif score != "" or row["moves"] != "":
        raise ValueError(f"a score or moves for status {status}")
    elif status == "no-win" and best != "":
        raise ValueError(f"max_score {best!r} where no win exists")
    elif best != "":
        count_of(best, 0, best_score(rules), "max_score")
    return Solution(Outcome(status), int(score) if score else None, (), nodes, seconds, int(best) if best else None)


class DealsToSolve(Sequence[int]):
    """The deals a resumed sweep solves, in deal order: those of the file's rows
    solved again (``again``, in order), then the deals of the range after the file's
    (``rest``), without a list of the range.

    >>> todo = DealsToSolve([2, 7], range(10, 13))
    >>> len(todo), list(todo), todo[2], todo[-1]
    (5, [2, 7, 10, 11, 12], 10, 12)
    """

    def __init__(self, again: Sequence[int], rest: range) -> None:
        self.again, self.rest = again, rest

    def __len__(self) -> int:
        return len(self.again) + len(self.rest)

    def __getitem__(self, index: Any) -> Any:  # (an int: a deal; no slices)
        place = range(len(self))[index]  # (a negative index counted from the end; IndexError past it)
        return self.again[place] if place < len(self.again) else self.rest[place - len(self.again)]
