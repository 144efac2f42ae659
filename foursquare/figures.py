"""Statistics that the batch commands share: intervals and durations for people.

Pure functions of numbers, no I/O: the Wilson interval of a proportion (win
rates, the winnable share), the mean with its normal-approximation interval
(scores, of a list or of counts), and a duration in human units; and
:class:`Distribution`, the count, total, worst and median of numbers seen one at a
time in bounded memory, so that a sweep of any number of deals holds no list of them.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> human_seconds(0.0125)
    '12.5 ms'
"""

from __future__ import annotations

import bisect
import decimal
import itertools
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence

#: The two-sided 95% quantile of the normal distribution.
Z95 = statistics.NormalDist().inv_cdf(0.975)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    :param successes: the count of successes, 0 ≤ successes ≤ trials.
    :param trials: the number of trials; with none the interval is (0, 1).
    :returns: (low, high), both within [0, 1].
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # at p = 0 or 1 the bound on that side is exactly 0 or 1 (no rounding residue)
    return (
        0.0 if successes <= 0 else max(0.0, centre - half),
        1.0 if successes >= trials else min(1.0, centre + half),
    )


def mean_interval(
    values: Sequence[float], low: float = -math.inf, high: float = math.inf
) -> tuple[float, float, tuple[float, float]]:
    """(mean, standard deviation, 95% interval of the mean) of some values.

    The interval is the normal approximation, clipped to ``[low, high]``, the
    range the values can take (a mean cannot lie outside it).
    """
    n = len(values)
    if not n:
        return 0.0, 0.0, (0.0, 0.0)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return mean, sd, (max(mean - half, low), min(mean + half, high))


def counts_interval(
    counts: Mapping[int, int], low: float = -math.inf, high: float = math.inf
) -> tuple[float, float, tuple[float, float]]:
    """:func:`mean_interval` of whole numbers given as ``value -> how many times``
    (scores: a few distinct values however many games), computed from exact sums, so the
    figures are those of :func:`mean_interval` over the list they stand for.

    >>> counts_interval({1: 2, 3: 2}) == mean_interval([1, 1, 3, 3])
    True
    """
    n = sum(counts.values())
    if not n:
        return 0.0, 0.0, (0.0, 0.0)
    total = sum(value * times for value, times in counts.items())
    mean = total / n  # (correctly rounded, as statistics.fmean of whole numbers)
    sd = 0.0
    if n > 1:
        squares = sum(value * value * times for value, times in counts.items())
        # the variance and its square root to 60 digits, then rounded once to a float: statistics.stdev's
        # correctly rounded one (but for a root within some 1e-60 of halfway between two floats)
        with decimal.localcontext(prec=60):
            sd = float((decimal.Decimal(n * squares - total * total) / (n * (n - 1))).sqrt())
    half = Z95 * sd / math.sqrt(n)
    return mean, sd, (max(mean - half, low), min(mean + half, high))


#: The distinct values :class:`Distribution` keeps exactly; past them it keeps buckets.
EXACT_VALUES = 1 << 14
#: Buckets per doubling of a value in :class:`Distribution` (a median read from them is
#: within half a bucket: 1/2048 of the value, 0.05%).
BUCKETS_PER_OCTAVE = 1 << 10


class Distribution:
    """Non-negative numbers seen one at a time (seconds, positions searched): their
    count, total, largest and median, in memory that does not grow with their number.

    Up to :data:`EXACT_VALUES` distinct values every value is kept (with how often it
    came), so the median is exact, :func:`statistics.median`'s; past that the values
    go into buckets a fraction of an octave wide (:data:`BUCKETS_PER_OCTAVE`), at most
    some thousands of them, and the median is read from them (within 0.05%; whole
    numbers stay whole).  The count, total and largest are always exact.

    >>> d = Distribution()
    >>> d.add(3); d.add(1); d.add_all([2, 2])
    >>> d.count, d.total, d.largest, d.median()
    (4, 8, 3, 2.0)
    """

    def __init__(self) -> None:
        self.count = 0
        self.total: float = 0
        self.largest: float | None = None
        #: value -> how often it came; once bucketed, the middle of each bucket -> how many fell in it
        self._counts: Counter[float] = Counter()
        self._exact = True

    def add(self, value: float) -> None:
        """Count ``value``."""
        self.add_all((value,))

    def add_all(self, values: Sequence[float]) -> None:
        """Count each of ``values``."""
        if not values:
            return
        self.count += len(values)
        self.total += sum(values)
        self.largest = max(values) if self.largest is None else max(self.largest, *values)
        self._counts.update(values if self._exact else map(_bucketed, values))
        if self._exact and len(self._counts) > EXACT_VALUES:  # too many distinct values: into buckets from now on
            bucketed: Counter[float] = Counter()
            for kept, n in self._counts.items():
                bucketed[_bucketed(kept)] += n
            self._counts, self._exact = bucketed, False

    def median(self) -> float | None:
        """The median (the mean of the two middle values for an even count), or
        ``None`` with no value: exact while the values are kept, else read from the buckets."""
        if not self.count:
            return None
        counted = sorted(self._counts.items())
        ends = list(itertools.accumulate(n for _, n in counted))  # the rank (from 1) of each value's last one
        # the values at the middle ranks (from 0): each the first whose last one is past its rank
        low, high = (counted[bisect.bisect_right(ends, rank)][0] for rank in ((self.count - 1) // 2, self.count // 2))
        return low if self.count % 2 else (low + high) / 2


def _bucketed(value: float) -> float:
    """The middle of the bucket of a value (by its octave and its place in it), a whole
    number for a whole value; 0 for 0 and below."""
    if value <= 0:
        return 0
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2**exponent, 0.5 <= mantissa < 1
    place = int((mantissa - 0.5) * 2 * BUCKETS_PER_OCTAVE)
    middle = math.ldexp(0.5 + (place + 0.5) / (2 * BUCKETS_PER_OCTAVE), exponent)
    return round(middle) if isinstance(value, int) else middle


def human_seconds(s: float | None) -> str:
    """A duration in human units with 3 significant digits: '1.25 s', '12.5 ms', '64.0 µs'."""
    if s is None:
        return "-"
    s = float(f"{s:.3g}")  # rounded first, so that 0.9996 ms reads '1.00 ms'
    unit, scale = next(((unit, scale) for unit, scale in (("s", 1.0), ("ms", 1e-3)) if abs(s) >= scale), ("µs", 1e-6))
    value = float(f"{s / scale:.3g}")
    text = f"{value:#.3g}" if abs(value) < 100 else f"{value:.0f}"
    return f"{text.rstrip('.')} {unit}"
