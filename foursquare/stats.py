"""Statistics that the batch commands share: intervals and durations for people.

Pure functions of numbers, no I/O: the Wilson interval of a proportion (win
rates, the winnable share), the mean with its normal-approximation interval
(scores), and a duration in human units.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> human_seconds(0.0125)
    '12.5 ms'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

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
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


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


def human_seconds(s: float | None) -> str:
    """A duration in human units with 3 significant digits: '1.25 s', '12.5 ms', '64.0 µs'."""
    if s is None:
        return "-"
    s = float(f"{s:.3g}")  # rounded first, so that 0.9996 ms reads '1.00 ms'
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if abs(s) >= scale or unit == "µs":
            value = float(f"{s / scale:.3g}")
            text = f"{value:#.3g}" if abs(value) < 100 else f"{value:.0f}"
            return f"{text.rstrip('.')} {unit}"
    raise AssertionError  # pragma: no cover
