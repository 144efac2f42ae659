"""Batch simulation (foursquare.bots.simulate): reproducible per (seed, deal) whatever
the number of jobs, and the statistics of a run."""

from __future__ import annotations

import math

import pytest

from foursquare.bots.simulate import GameResult, deal_seed, paired, play_deals, play_game, summarize
from foursquare.errors import ArgumentError


def run(bot, deals, **settings):
    """One bot's games (play_deals with one bot), as a list."""
    return list(play_deals([bot], deals, **settings))


def _key(results):
    return [(r.bot, r.deal, r.status, r.reason, r.score, r.moves) for r in results]


def test_jobs_one_and_two_give_the_same_games():
    deals = range(10, 14)
    for bot in ("random", "expectimax"):
        assert _key(run(bot, deals, seed=3, jobs=1)) == _key(run(bot, deals, seed=3, jobs=2))


def test_a_deal_plays_the_same_whatever_range_it_is_in():
    alone = run("random", range(7, 8), seed=11)
    among = run("random", range(4, 9), seed=11)
    assert _key(alone) == _key(among[3:4])


def test_the_seed_changes_the_random_bot_games():
    a = _key(run("random", range(0, 6), seed=1))
    b = _key(run("random", range(0, 6), seed=2))
    assert a != b
    assert deal_seed(1, 5) == deal_seed(1, 5) != deal_seed(2, 5) != deal_seed(1, 6)


def test_play_game_plays_to_the_end_and_times_each_move():
    r = play_game("greedy", 3)
    assert r.status in ("won", "lost") and r.moves == len(r.move_seconds) >= 16
    assert (r.score is not None) == r.won == (r.reason is None)
    assert all(t >= 0 for t in r.move_seconds)


def test_unknown_bot_fails_before_playing():
    with pytest.raises(ArgumentError, match="unknown bot"):
        run("nope", range(3))


def test_play_deals_goes_deal_by_deal_and_each_game_is_the_bots_own():
    names = ["random", "greedy"]
    results = list(play_deals(names, range(5, 8), seed=4))
    assert [(r.deal, r.bot) for r in results] == [(d, n) for d in range(5, 8) for n in names]
    assert _key(results[0::2]) == _key(run("random", range(5, 8), seed=4))
    assert _key(results[1::2]) == _key(run("greedy", range(5, 8), seed=4))
    assert _key(play_deals(names, range(5, 8), seed=4, jobs=2)) == _key(results)


def test_play_deals_fails_at_the_call_on_a_bad_bot_name():
    with pytest.raises(ArgumentError, match="unknown bot"):
        play_deals(["greedy", "nope"], range(3))


def _result(deal, score=None, reason="too-many-face-down", bot="x", moves=20):
    status = "won" if score is not None else "lost"
    return GameResult(bot, deal, status, None if score is not None else reason, score, moves, (0.1,) * moves)


def test_summary_counts_losses_as_zero_and_gives_a_wilson_interval():
    results = [_result(0, 20), _result(1, 10), _result(2), _result(3, reason="stock-empty")]
    s = summarize(results)
    assert (s.games, s.wins, s.win_rate) == (4, 2, 0.5)
    assert s.mean_score == 7.5 and s.mean_winning_score == 15
    assert math.isclose(s.score_sd, 9.574271077563381)
    lo, hi = s.win_interval
    assert 0.15 < lo < 0.5 < hi < 0.85
    assert s.losses == {"stock-empty": 1, "too-many-face-down": 1}
    assert s.scores == {20: 1, 10: 1}
    assert s.moves == 80 and s.median_move_seconds == 0.1
    assert s.as_dict()["games"] == 4


def test_summary_of_one_bot_only():
    with pytest.raises(ValueError):
        summarize([_result(0, bot="a"), _result(1, bot="b")])


def test_paired_difference_of_two_bots():
    a = [_result(0, 20), _result(1, 10), _result(2, 5)]
    b = [_result(0, 18), _result(1), _result(2, 5)]
    d = paired(a, b)
    assert d.games == 3 and d.score == pytest.approx(4.0) and d.win == pytest.approx(1 / 3)
    assert d.only_a == 1 and d.only_b == 0
    assert d.score_interval[0] < d.score < d.score_interval[1]
    with pytest.raises(ValueError):
        paired(a, b[:2])


def test_paired_win_interval_stays_within_minus_one_and_one():
    """A difference of win rates lies in [-1, 1]; its interval must too, even on few deals."""
    from foursquare.bots.simulate import paired

    for wins in ([0], [0, 1], [0, 2], [1]):
        a = [_result(d, score=10 if d in wins else None, bot="a") for d in range(3)]
        b = [_result(d, bot="b") for d in range(3)]
        difference = paired(a, b)
        low, high = difference.win_interval
        assert -1.0 <= low <= difference.win <= high <= 1.0


def test_intervals_are_clipped_to_what_is_possible():
    """Normal approximations of a mean score stay in [0, max score]; a paired
    score difference stays in [-max, max]."""
    from foursquare.bots.simulate import summarize as summ

    low = summ([_result(0, 24), _result(1), _result(2), _result(3)], max_score=24)
    assert low.score_interval[0] == 0.0
    high = summ([_result(0, 24), _result(1, 24), _result(2, 24), _result(3, 20)], max_score=24)
    assert high.score_interval[1] == 24.0 and high.score_interval[0] < high.mean_score
    a = [_result(i, 24) for i in range(3)] + [_result(3)]
    b = [_result(i) for i in range(4)]
    lo, hi = paired(a, b, max_score=24).score_interval
    assert -24 <= lo and hi == 24


def test_as_dict_rounds_floats():
    s = summarize([_result(0, 13), _result(1, 12), _result(2, 12)])
    d = s.as_dict()
    assert d["mean_score"] == round(37 / 3, 4) and all(round(x, 4) == x for x in d["score_interval"])


@pytest.mark.parametrize(
    "seconds, text",
    [(6.4e-05, "64.0 µs"), (0.0009996, "1.00 ms"), (0.0123, "12.3 ms"), (0.42, "420 ms"), (5, "5.00 s"), (None, "-")],
)
def test_human_seconds(seconds, text):
    from foursquare.figures import human_seconds

    assert human_seconds(seconds) == text


def test_each_game_keeps_its_slowest_move_and_the_summary_the_worst():
    """The CSV row's ``slowest_move_seconds`` is the game's longest placement; the summary's
    ``worst_move_seconds`` the longest of all its games."""
    a = GameResult("x", 0, "won", None, 20, 3, (0.25, 0.5, 0.125))
    b = GameResult("x", 1, "lost", "too-many-face-down", None, 2, (0.75, 0.0625))
    assert a.row()["slowest_move_seconds"] == 0.5 and a.row()["seconds"] == 0.875
    assert b.row()["slowest_move_seconds"] == 0.75
    s = summarize([a, b])
    assert s.worst_move_seconds == 0.75 and s.median_move_seconds == 0.25
    assert s.as_dict()["worst_move_seconds"] == 0.75
    assert summarize([]).worst_move_seconds is None


def test_a_played_game_s_slowest_move_is_one_of_its_moves():
    r = play_game("expectimax", 2)
    assert r.row()["slowest_move_seconds"] == round(max(r.move_seconds), 6)
    assert r.slowest_move_seconds >= sum(r.move_seconds) / r.moves
