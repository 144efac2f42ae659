"""Analysis: batch figures (Wilson interval, summary) and the move-by-move judgement of a recorded game."""

from __future__ import annotations

from pathlib import Path

import pytest

from foursquare.engine.game import Game
from foursquare.figures import wilson_interval
from foursquare.solver.analysis import FIRST_PASS_SHARE, GameJudge, analyze_game, summarize
from foursquare.solver.search import NO_WIN, SOLVED, UNKNOWN, Solution, solve, solve_deal


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
    from foursquare.formats.inputs import read_source
    from foursquare.formats.loading import load_input

    text, name = read_source(str(Path(__file__).parents[2] / "examples" / "won.yaml"))
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


# ----------------------------------------- the questions after the first pass


def _game_of(deal: int, bot: str = "greedy", moves: int = 20, rules=None) -> Game:
    from foursquare.bots import get_bot
    from foursquare.engine.game import Status
    from foursquare.engine.rules import STANDARD

    player, game = get_bot(bot), Game.from_deal(deal, rules or STANDARD)
    while game.status is Status.PLAYING and len(game.moves) < moves:
        game.play(player.choose(game.view()))
    return game


def _positions(game: Game, deck=None):
    """The game's positions, the start first (on ``deck`` when given: a prefix)."""
    replay = Game(game.deck if deck is None else deck, game.rules, game.deal)
    out = [replay.copy()]
    for placement in game.moves:
        replay.play(placement.cell)
        out.append(replay.copy())
    return out


_TRUTHS: dict[tuple[object, ...], list[Solution]] = {}


def _truth(game: Game) -> list[Solution]:
    """Each position of ``game`` solved alone, to the end (no limit that runs out); solved
    once per game (the parametrised tests below judge the same games many ways)."""
    key = (tuple(game.deck), tuple(game.moves), game.rules)
    if key not in _TRUTHS:
        sols = [solve(p, max_nodes=None) for p in _positions(game)]
        assert all(s.status is not UNKNOWN for s in sols)
        _TRUTHS[key] = sols
    return list(_TRUTHS[key])


def _expected_verdict(before: Solution, after: Solution) -> str:
    if before.status is SOLVED and after.status is NO_WIN:
        return "threw-away-win"
    if before.status is SOLVED and after.status is SOLVED and after.score < before.score:
        return "lost-points"
    return "ok"


def _check_against_the_truth(judge, truth: list[Solution]) -> int:
    """Every verdict of ``judge`` (run, or stopped partway) is what separate solves
    say, every bound holds, and every win given is one: returns the positions settled."""
    settled = 0
    for i, sol in enumerate(judge.sols):
        if sol is None:
            continue
        true = truth[i]
        if sol.status is SOLVED:
            assert true.status is SOLVED and sol.score == true.score, i
            win = _positions(judge.game)[i]
            for cell in sol.moves:  # the moves given are a win with that score
                win.play(cell)
            assert win.status.value == "won" and win.score == sol.score, i
            settled += 1
        elif sol.status is NO_WIN:
            assert true.status is NO_WIN, i
            settled += 1
        elif true.status is SOLVED:
            assert sol.max_score is not None and sol.max_score >= true.score, i  # a true bound
    result = judge.analysis()
    for report in result.moves:
        before, after = truth[report.number - 1], truth[report.number]
        if report.verdict != "unknown":
            assert report.verdict == _expected_verdict(before, after), report
        for least, true in ((report.least_before, before), (report.least_after, after)):
            if least is not None:
                assert true.status is SOLVED and true.score >= least, report
        for bound, true in ((report.max_before, before), (report.max_after, after)):
            if true.status is SOLVED:
                assert bound is not None and bound >= true.score, report
    return settled


GAMES = [(0, "greedy"), (2, "greedy"), (5, "greedy"), (6, "greedy"), (12, "greedy"), (19, "greedy"),
         (0, "random"), (3, "random"), (12, "random"), (22, "random"), (23, "random")]


# the default run takes the default share at one limit; the other shares and limits (99
# cases in all, a quarter of an hour on the pure-Python twin) run with the slow tests
_SLOW = pytest.mark.slow


@pytest.mark.parametrize("deal, bot", GAMES)
@pytest.mark.parametrize("first_share", [FIRST_PASS_SHARE, pytest.param(1.0, marks=_SLOW), pytest.param(1e-9, marks=_SLOW)])
@pytest.mark.parametrize("limit", [pytest.param(300, marks=_SLOW), 5_000, pytest.param(60_000, marks=_SLOW)])
def test_every_verdict_is_what_separate_solves_give(deal, bot, first_share, limit):
    # whatever the limit and however it is shared between the first pass and the
    # questions (1.0: the first pass alone; 1e-9: one position each, then questions
    # only), what is settled is true, bounds hold, the wins given are wins
    game = _game_of(deal, bot)
    truth = _truth(game)
    judge = GameJudge(game, max_nodes=limit, first_share=first_share)
    judge.run()
    assert judge.complete and all(n <= limit for n in judge.nodes)  # the limit holds per position
    _check_against_the_truth(judge, truth)


@pytest.mark.parametrize("deal, bot", GAMES)
def test_with_room_enough_every_position_is_settled(deal, bot):
    game = _game_of(deal, bot)
    truth = _truth(game)
    for first_share in (FIRST_PASS_SHARE, 1e-9):
        judge = GameJudge(game, max_nodes=2_000_000, first_share=first_share)
        judge.run()
        assert _check_against_the_truth(judge, truth) == len(truth)


def test_the_questions_spare_the_positions_a_single_pass_spends():
    # Deal 558's greedy game: one pass with the whole limit per position spends it on
    # positions that a later one settles; asked afterwards, with what later positions
    # proved, the same answers take a small part of the work.  Over the small games, the
    # same positions are settled at a small limit, with no more work in all.
    game = _game_of(558)
    alone = GameJudge(game, first_share=1.0)
    alone.run()
    asked = GameJudge(game)
    asked.run()
    assert [s.score for s in asked.sols] == [s.score for s in alone.sols]
    assert all(s.status is SOLVED for s in asked.sols)
    assert 5 * sum(asked.nodes) < sum(alone.nodes)
    work = [0, 0]
    for deal, bot in GAMES:
        game = _game_of(deal, bot)
        single, both = (GameJudge(game, max_nodes=30_000, first_share=share) for share in (1.0, FIRST_PASS_SHARE))
        single.run()
        both.run()
        work[0] += sum(single.nodes)
        work[1] += sum(both.nodes)
        # every position the single pass settles is settled
        assert all(s.status is UNKNOWN or t.status is not UNKNOWN for s, t in zip(single.sols, both.sols, strict=True))
    assert work[1] <= work[0]


@pytest.mark.parametrize("score_delta", [0, 1, 2])
@pytest.mark.parametrize("deal, bot", [(5, "greedy"), (12, "greedy"), (3, "random")])
def test_a_question_with_the_deck_cut_says_whether_a_win_scores_that_much(deal, bot, score_delta):
    # asked only where no win scores more than S (S at least the best score), the deck
    # cut after the cards a win scoring S uses and the scores above S not searched:
    # solved, with S, exactly when S is the best score; no-win when it is more
    game = _game_of(deal, bot)
    truth = _truth(game)
    total = game.rules.deck_size
    for position, true in zip(_positions(game), truth, strict=True):
        if true.status is not SOLVED or position.is_over:
            continue
        score = true.score + score_delta
        if total - score <= position.placed:
            continue
        cut = Game(game.deck[: total - score], game.rules, game.deal)
        for placement in game.moves[: position.placed]:
            cut.play(placement.cell)
        answer = solve(cut, max_nodes=None, score_at_most=score, within_known_cards=True)
        if score_delta == 0:
            assert answer.status is SOLVED and answer.score == score
        else:
            assert answer.status is NO_WIN


def test_an_interrupted_analysis_says_what_it_judged_and_that_it_is_incomplete():
    game = _game_of(12, "greedy")
    truth = _truth(game)
    for stop_at in (1, 5, 15, 21):
        calls = []

        def progress(calls=calls, stop_at=stop_at):
            calls.append(1)
            if len(calls) == stop_at:
                raise KeyboardInterrupt

        judge = GameJudge(game, max_nodes=5_000, first_share=1e-9, progress=progress)
        with pytest.raises(KeyboardInterrupt):
            judge.run()
        result = judge.analysis()
        # (the last positions may all be settled at once, at the end: complete then)
        assert result.moves_played == 20 and (not result.complete or stop_at > 5)
        assert not result.complete or len(result.moves) == 20
        assert len(result.moves) <= 20
        _check_against_the_truth(judge, truth)
    # uninterrupted, the progress calls count the positions: the start and one per move
    calls = []
    judge = GameJudge(game, max_nodes=5_000, progress=lambda: calls.append(1))
    judge.run()
    assert len(calls) == 21 and judge.analysis().complete


def test_a_deck_prefix_settles_only_what_its_cards_prove():
    # a deck that names only the first 21 cards: what is settled is the truth of the
    # whole deal (the wins scoring 19 or more); the rest stays unknown, bounded
    full = _game_of(5, "greedy", moves=18)
    truth = _truth(full)
    game = Game(full.deck[:21], full.rules)
    for placement in full.moves:
        game.play(placement.cell)
    judge = GameJudge(game, max_nodes=200_000)
    judge.run()
    settled = _check_against_the_truth(judge, truth)
    assert 0 < settled < len(truth)


def test_a_grid_that_runs_out_of_room():
    # three-square: 27 cards fill every pile, so no win scores less than 13
    from foursquare.engine.rules import PRESETS

    rules = PRESETS["three-square"]
    for deal in (0, 1, 2, 3):
        game = _game_of(deal, "random", rules=rules)
        truth = _truth(game)
        judge = GameJudge(game, max_nodes=5_000, first_share=1e-9)
        judge.run()
        _check_against_the_truth(judge, truth)
