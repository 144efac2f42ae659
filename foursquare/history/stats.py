"""The statistics of some games of the history (``foursquare stats``): pure
functions of their records (:class:`~foursquare.history.rows.GameRecord`).

    >>> summarize([]).played
    0
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.game import Status
from ..figures import wilson_interval
from .rows import GameRecord


@dataclass
class Summary:
    """The statistics of some games of the history (:func:`summarize`).

    :ivar played: the games over (won or lost); :ivar stopped: the games left
        while still playing (a session quit or killed), not counted as played.
    :ivar won, lost: of the games played.
    :ivar win_share: ``won / played`` (0 with none); :ivar win_interval: its 95%
        Wilson interval.
    :ivar mean_score, best_score: of the games won (the score is a won game's,
        RULES.md §5), ``None`` with none.
    :ivar current_streak, longest_streak: games won in a row, in the order they
        ended: the run at the end, and the longest run.
    :ivar hints_per_game: the mean of the hints asked in the games played (of those
        whose hints are known; the stopped games left out, as for the time), ``None`` with none.
    :ivar seconds_per_game: the median time from the first card to the last
        move of the games played, ``None`` with none known.
    :ivar scores: score -> games won with it.
    """

    played: int = 0
    won: int = 0
    lost: int = 0
    stopped: int = 0
    win_share: float = 0.0
    win_interval: tuple[float, float] = (0.0, 1.0)
    mean_score: float | None = None
    best_score: int | None = None
    current_streak: int = 0
    longest_streak: int = 0
    hints_per_game: float | None = None
    seconds_per_game: float | None = None
    scores: dict[int, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """A JSON-friendly mapping of every field (``scores`` keys as text)."""
        return {
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "stopped": self.stopped,
            "win_share": self.win_share,
            "win_interval": list(self.win_interval),
            "mean_score": self.mean_score,
            "best_score": self.best_score,
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
            "hints_per_game": self.hints_per_game,
            "seconds_per_game": self.seconds_per_game,
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
        }


def summarize(records: Sequence[GameRecord]) -> Summary:
    """The statistics of ``records`` (any order: the streaks follow the order the
    games ended, the time of their last move, or for an imported game the time it
    was added).

    >>> summarize([]).played
    0
    """
    finished = sorted(
        (r for r in records if r.finished), key=lambda r: (r.last_move if r.last_move is not None else r.added, r.id)
    )
    played, won = len(finished), sum(1 for r in finished if r.status is Status.WON)
    scores = [r.score for r in finished if r.status is Status.WON and r.score is not None]
    run = longest = 0
    for r in finished:
        run = run + 1 if r.status is Status.WON else 0
        longest = max(longest, run)
    hints = [r.hints for r in finished if r.hints is not None]  # the games played, as the time
    times = [s for s in (r.seconds for r in finished) if s is not None and math.isfinite(s)]
    return Summary(
        played=played,
        won=won,
        lost=played - won,
        stopped=len(records) - played,
        win_share=won / played if played else 0.0,
        win_interval=wilson_interval(won, played),
        mean_score=statistics.fmean(scores) if scores else None,
        best_score=max(scores, default=None),
        current_streak=run,
        longest_streak=longest,
        hints_per_game=statistics.fmean(hints) if hints else None,
        seconds_per_game=statistics.median(times) if times else None,
        scores=dict(Counter(scores)),
    )


def by_rules(records: Sequence[GameRecord]) -> dict[str, Summary]:
    """The statistics of each rule set's games (:func:`summarize`), by the rule set's
    name: the one with the most games first, then by name.

    >>> by_rules([])
    {}
    """
    counts = Counter(record.rules for record in records)
    return {
        name: summarize([record for record in records if record.rules == name])
        for name in sorted(counts, key=lambda name: (-counts[name], name))
    }
