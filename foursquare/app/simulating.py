"""The sweep of ``simulate``: bots playing the deals of a range, deal by deal (the
workers given them by the command line), each game a row of the ``--output`` CSV (its
columns, and the game of a row, for ``--resume``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .sweep import SweepCsv, best_score, count_of, rules_text, seconds_of

if TYPE_CHECKING:
    from ..bots.simulate import GameResult
    from ..engine.rules import Rules

#: The columns of the ``--output`` CSV: a game's result (:meth:`GameResult.row`), then the
#: settings that shape it (app/sweep.py: :meth:`SimulateSweep.settings`, in this order).
CSV_FIELDS = ["bot", "deal", "status", "reason", "score", "moves", "seconds", "slowest_move_seconds", "seed", "nodes", "budget", "rules"]


@dataclass(frozen=True)
class SimulateSweep:
    """The bots ``names`` playing the deals of ``deals`` (in that order, every bot a
    deal before the next deal), with the run's ``seed``, ``rules``, time per move
    (``budget``) and work per move (``nodes``)."""

    names: Sequence[str]
    deals: range
    seed: int
    rules: Rules
    budget: float | None
    nodes: int | None

    def settings(self) -> dict[str, str]:
        """The values of the setting columns (the last four of :data:`CSV_FIELDS`, in their order)."""
        return {
            "seed": str(self.seed), "nodes": "" if self.nodes is None else str(self.nodes),
            "budget": "" if self.budget is None else str(self.budget), "rules": rules_text(self.rules),
        }

    def layout(self) -> SweepCsv:
        """What the CSV of this sweep holds, for :func:`~foursquare.app.sweep.resume_csv`."""
        return SweepCsv(CSV_FIELDS, list(self.settings().items()), self.deals, game_of_row, self.names)


def game_of_row(row: dict[str, str], rules: Rules) -> GameResult:
    """A game as its CSV row gives it back, for the summary of a resumed run, each value
    checked.  The row has the game's total time and its slowest move only: that move
    keeps its time and each other move counts at the mean of the rest (so the summary
    counts every move, its worst move time is exact, and its median time per move
    mixes these means with the times measured by this run).

    :raises ValueError: for a value the sweep never writes under ``rules`` (saying which).
    """
    from ..bots.simulate import GameResult
    from ..engine.outcome import Reason

    status, reason, score, deck = row["status"], row["reason"], row["score"], rules.deck_size
    seconds, slowest = seconds_of(row["seconds"], "seconds"), seconds_of(row["slowest_move_seconds"], "slowest_move_seconds")
    if status == "won":
        won = count_of(score, 0, best_score(rules), "score")
        if reason != "":
            raise ValueError(f"reason {reason!r} for a game won")
        moves = count_of(row["moves"], deck - won, deck - won, "moves")
    elif status == "lost":
        if reason not in {str(r) for r in Reason if r is not Reason.NO_PLACEMENT or rules.can_run_out_of_room}:
            raise ValueError(f"reason {reason!r} for a game lost")
        if score != "":
            raise ValueError(f"score {score!r} for a game lost")
        fewest, most = (deck, deck) if reason == Reason.STOCK_EMPTY else (1, deck - (reason == Reason.NO_PLACEMENT))
        moves = count_of(row["moves"], fewest, most, "moves")
    else:
        raise ValueError(f"status {status!r}")
    if slowest > seconds + 1e-6:
        raise ValueError(f"slowest move {slowest} s in a game of {seconds} s")
    times = (slowest,) + ((max(seconds - slowest, 0.0) / (moves - 1),) * (moves - 1)) if moves else ()
    return GameResult(row["bot"], int(row["deal"]), status, reason or None, int(score) if score else None, moves, times)
