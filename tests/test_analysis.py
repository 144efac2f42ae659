"""Analysis: batch figures (Wilson interval, summary) and the move-by-move judgement of a recorded game."""

from __future__ import annotations

from pathlib import Path

import pytest

from foursquare.engine.game import Game
from foursquare.solver.analysis import analyze_game, summarize
from foursquare.solver.search import NO_WIN, SOLVED, UNKNOWN, Solution, solve, solve_deal
from foursquare.stats import wilson_interval


def test_wilson_interval_known_values():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("trials", [1, 7, 946, 9478, 10**6])
def test_wilson_interval_is_exactly_0_or_1_on_the_side_of_an_all_or_none_share(trials):
    # no rounding residue such as 0.9999999999999999 in a JSON summary
    assert wilson_interval(trials, trials)[1] == 1.0
    assert wilson_interval(0, trials)[0] == 0.0
    lo, hi = wilson_interval(trials - 1, trials) if trials > 1 else (0.0, 1.0)
    assert 0.0 <= lo <= hi <= 1.0


def _sol(status, score=None, seconds=0.0, nodes=1):
    return Solution(status, score, (), nodes, seconds, score)


def test_summary_counts_settled_deals_only_in_the_winnable_share():
    s = summarize([_sol(SOLVED, 24, 0.01, 10), _sol(SOLVED, 23, 0.03, 30), _sol(NO_WIN, None, 0.5, 99), _sol(UNKNOWN, None, 2.0, 7)])
    assert (s.deals, s.solved, s.no_win, s.unknown) == (4, 2, 1, 1)
    assert s.winnable == pytest.approx(2 / 3)
    assert s.interval == wilson_interval(2, 3)
    assert s.scores == {24: 1, 23: 1}
    assert s.median_seconds == pytest.approx(0.265) and s.worst_seconds == 2.0
    assert s.worst_nodes == 99 and s.total_nodes == 146
    assert any("winnable: 2/3" in line for line in s.lines())
    assert s.as_dict()["scores"] == {"24": 1, "23": 1}


def _played(deal, cells):
    game = Game.from_deal(deal)
    for c in cells:
        game.play(c)
    return game


def test_an_optimal_game_has_no_mistakes_and_keeps_its_best_score():
    win = solve_deal(3)
    result = analyze_game(_played(3, win.moves))
    assert result.status == "won" and result.score == 24
    assert result.start == "win" and result.best_start == 24
    assert not result.mistakes
    assert all(m.before == "win" and m.best_before == 24 and m.verdict == "ok" for m in result.moves)
    assert result.moves[-1].after == "win" and result.moves[-1].best_after == 24


def test_the_move_that_threw_the_game_away_is_named():
    # Deal 3 along its optimal win, then the first alternative move after which no win exists.
    win = solve_deal(3)
    for k in range(10, 16):
        game = _played(3, win.moves[:k])
        for cell in game.legal_cells():
            g = game.copy()
            g.play(cell)
            if cell != win.moves[k] and solve(g).status == NO_WIN:
                result = analyze_game(g)
                assert [m.number for m in result.mistakes] == [k + 1]
                last = result.moves[-1]
                assert last.before == "win" and last.after == "no-win" and last.verdict == "threw-away-win"
                assert last.best_before == 24 and last.best_after is None
                assert last.solver_cell is not None
                return
    pytest.fail("no losing alternative found")


def test_unknown_is_reported_honestly_when_the_node_limit_runs_out():
    result = analyze_game(_played(7, ["d4", "e4"]), max_nodes=3)
    assert result.start == "unknown"
    assert all(m.verdict == "unknown" for m in result.moves)
    assert not result.mistakes


def test_a_game_without_history_is_refused():
    game = Game.from_position({"d4": (["7H"], True)}, ["2C", "3C"])
    with pytest.raises(ValueError, match="without its moves"):
        analyze_game(game)


def test_a_won_game_shows_its_positions_winnable_even_when_the_solver_runs_out():
    # with a tiny node limit the solver settles nothing early in the game, but the
    # game was won: every position before the end could still be won
    from foursquare.formats.files import read_source
    from foursquare.formats.loading import load_input

    text, name = read_source(str(Path(__file__).parent.parent / "examples" / "won.yaml"))
    game = load_input(text, name)
    result = analyze_game(game, max_nodes=50)
    assert result.start == "win"
    assert all(m.before == "win" for m in result.moves)
    assert any(m.best_before is None for m in result.moves)  # the optimum itself stays unknown


def _greedy_game(deal: int, moves: int = 20) -> Game:
    from foursquare.bots import get_bot
    from foursquare.engine.game import Status

    bot, game = get_bot("greedy"), Game.from_deal(deal)
    while game.status is Status.PLAYING and len(game.moves) < moves:
        game.play(bot.choose(game.view()))
    return game


@pytest.mark.parametrize("deal", [0, 9, 11])
def test_a_parents_bound_gives_each_child_the_same_answer_with_no_more_positions(deal):
    # A move never raises the best score, so the position before it bounds the one after.
    game = _greedy_game(deal, 12)
    replay = Game(game.deck, game.rules, game.deal)
    parent = solve(replay, max_nodes=5_000)  # an unknown's max_score is a true bound too
    for placement in game.moves:
        for cell in replay.legal_cells():
            child = replay.copy()
            child.play(cell)
            alone = solve(child, max_nodes=5_000)
            bounded = solve(child, max_nodes=5_000, score_at_most=parent.max_score)
            assert (bounded.status, bounded.score) == (alone.status, alone.score) or alone.status is UNKNOWN
            assert bounded.nodes <= alone.nodes
            if bounded.status is SOLVED:
                assert bounded.max_score == bounded.score
        replay.play(placement.cell)
        parent = solve(replay, max_nodes=5_000)


def test_the_analysis_settles_more_than_separate_solves_and_only_what_is_true():
    # The chain of bounds (each position bounded by the one before it, a move along the
    # solver's line keeping its score) and the closing from the end (a position whose
    # bound the next one's proved score reaches) settle positions that a separate solve
    # with the same node limit leaves unknown, and only with the true best score.
    gained = 0
    for deal in [0, 2, 3, 4, 5, 9, 10, 11]:
        game = _greedy_game(deal)
        for limit in (300, 2000):
            result = analyze_game(game, max_nodes=limit)
            replay = Game(game.deck, game.rules, game.deal)
            for report, placement in zip(result.moves, game.moves, strict=True):
                if report.best_before is not None:
                    truth = solve(replay, max_nodes=30_000)
                    assert report.before == "win"
                    if truth.status is SOLVED:
                        assert report.best_before == truth.score, (deal, limit, report.number)
                    gained += solve(replay, max_nodes=limit).status is UNKNOWN
                replay.play(placement.cell)
    assert gained > 0


def test_the_help_states_the_analysis_node_limit_the_code_uses():
    from helpers import invoke

    from foursquare.solver.analysis import ANALYSIS_MAX_NODES

    assert f"(default {ANALYSIS_MAX_NODES})" in " ".join(invoke(["analyze", "--help"]).stdout.split())
