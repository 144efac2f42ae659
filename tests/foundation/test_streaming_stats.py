"""Figures of a sweep tallied as its results come (foursquare/figures.py ``Distribution``,
``counts_interval``; solver/analysis.py ``BatchTally``; bots/simulate.py ``GameTally``,
``PairedTally``): the same figures as of the whole list, in memory that does not grow
with the number of results."""

from __future__ import annotations

import random
import statistics
import tracemalloc
from collections import Counter

import pytest

from foursquare.bots.simulate import DealTally, GameResult, paired, summarize
from foursquare.figures import EXACT_VALUES, Distribution, counts_interval, mean_interval


@pytest.mark.parametrize("n", [1, 2, 3, 10, 101, 1000])
def test_a_distribution_gives_the_exact_median_of_its_values_while_it_keeps_them(n):
    rng = random.Random(n)
    for values in ([rng.random() for _ in range(n)], [rng.randint(0, 9) for _ in range(n)]):
        d = Distribution()
        for value in values[: n // 2]:
            d.add(value)
        d.add_all(values[n // 2 :])
        median = d.median()
        assert median == statistics.median(values) and type(median) is type(statistics.median(values))
        assert (d.count, d.largest) == (n, max(values)) and d.total == pytest.approx(sum(values))
    assert Distribution().median() is None


def test_past_the_values_it_keeps_a_distribution_reads_the_median_from_buckets_within_0_05_percent():
    rng = random.Random(7)
    values = [rng.lognormvariate(-7, 2) for _ in range(3 * EXACT_VALUES)]
    d = Distribution()
    d.add_all(values)
    assert d.median() == pytest.approx(statistics.median(values), rel=5e-4) and d.largest == max(values)
    whole = [rng.randint(1, 4_000_000) for _ in range(3 * EXACT_VALUES + 1)]
    d = Distribution()
    for value in whole:
        d.add(value)
    assert isinstance(d.median(), int) and d.median() == pytest.approx(statistics.median(whole), rel=5e-4)
    assert d.total == sum(whole)


def test_a_distribution_holds_bounded_memory_however_many_values():
    rng = random.Random(1)
    d = Distribution()
    tracemalloc.start()
    try:
        for _ in range(40):
            d.add_all([rng.lognormvariate(-7, 2) for _ in range(10_000)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert d.count == 400_000 and peak < 20_000_000


@pytest.mark.parametrize("seed", range(5))
def test_counts_give_the_mean_sd_and_interval_of_the_list_they_stand_for(seed):
    rng = random.Random(seed)
    values = [rng.randint(-24, 24) for _ in range(rng.randint(1, 300))]
    assert counts_interval(Counter(values), -24, 24) == mean_interval(values, -24, 24)


def _game(bot, deal, rng):
    won = rng.random() < 0.4
    moves = rng.randint(5, 40)
    return GameResult(bot, deal, "won" if won else "lost", None if won else "too-many-face-down",
                      rng.randint(0, 24) if won else None, moves, tuple(rng.random() / 1000 for _ in range(moves)))


def test_a_deal_tally_gives_the_figures_of_the_lists_of_games():
    rng = random.Random(3)
    a = [_game("a", d, rng) for d in range(500)]
    b = [_game("b", d, rng) for d in range(500)]
    tally = DealTally(["a", "b"], 24, paired=True)
    for x, y in zip(a, b, strict=True):
        tally.add([x, y])
    assert tally.summaries() == {"a": summarize(a, 24), "b": summarize(b, 24)}
    assert tally.difference() == paired(a, b, 24) and tally.deals == 500
