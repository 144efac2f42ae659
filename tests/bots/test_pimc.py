"""The ``expert`` bot (bots/pimc.py): sampled stocks, each solved with the stock known (RULES.md §6).

Small work limits throughout (a few samples, a few hundred solver positions), so the
tests run on the pure-Python solver in seconds.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace

import pytest
from helpers import invoke

from foursquare.bots import BOTS, DeepBot, get_bot, pimc
from foursquare.bots.pimc import ExpertBot
from foursquare.engine.game import Game, PlayerView
from foursquare.engine.rules import PRESETS
from foursquare.errors import PositionError, RulesError
from foursquare.formats.state import state_text
from foursquare.solver import core
from foursquare.solver.search import fast_rules, solve
from foursquare.solver.solution import Outcome
from foursquare.solver.stocks import StockSolver


def small(**kw: int) -> ExpertBot:
    """An expert bot with small limits (``deep`` small too, so that it is fast)."""
    return ExpertBot(**{"samples": 4, "more": 4, "close": 2, "solver_nodes": 400, "deep_nodes": 3000, "prior_nodes": 3000, **kw})


def position(deal: int, piles: int, rules=PRESETS["standard"]) -> Game:
    """The game of ``deal`` played by ``expectimax`` until its grid holds ``piles`` piles."""
    game = Game.from_deal(deal, rules)
    bot = get_bot("expectimax")
    while len(game.grid) < piles and not game.is_over:
        game.play(bot.choose(game.view()))
    assert not game.is_over
    return game


def _key(estimates):
    return [(e.cell, e.win_chance, e.expected_score, e.samples, e.unknown) for e in estimates]


def test_registered_as_expert():
    assert isinstance(get_bot("expert"), ExpertBot) and BOTS["expert"].uses_nodes
    bot = get_bot("expert", nodes=300_000)  # --nodes: deep's limit, and the sampling's scaled from 600,000
    assert bot.nodes == 300_000 and bot.settings.solver_nodes == pimc.SOLVER_NODES // 2
    assert bot.settings.samples == pimc.SAMPLES // 2
    assert bot.settings.more == pimc.MORE // 2
    tiny = get_bot("expert", nodes=5)
    assert (tiny.settings.samples, tiny.settings.more, tiny.settings.solver_nodes) == (2, 0, 100)


def test_deterministic_under_its_work_limits():
    view = position(3, 9).view()
    assert _key(small().estimates(view, None, seed=7)) == _key(small().estimates(view, None, seed=7))


def test_the_same_answer_for_every_order_of_the_hidden_stock():
    """RULES.md §6: only which cards are unseen is known, never their order."""
    game = position(5, 10)
    view = game.view()
    grid = {cell: (pile.cards, pile.face_up) for cell, pile in view.grid.items()}
    stock = list(game.deck[game.placed :])
    expected = _key(small().estimates(view, None, seed=1))
    assert any(e[3] for e in expected)  # it did sample
    rng = random.Random(2)
    for _ in range(3):
        rest = stock[1:]
        rng.shuffle(rest)
        other = Game.from_position(grid, [stock[0], *rest], game.rules)
        assert other.view() == view  # the same view: the same grid, card in hand and unseen cards
        assert _key(small().estimates(other.view(), None, seed=1)) == expected


def test_estimates_are_the_shares_of_the_solved_samples():
    """Each sampled cell's win chance is its share of samples the solver can still win
    and its expected score their mean best score (a loss 0): recomputed here with the
    public solver on the same draws."""
    view = position(8, 11).view()
    bot = small(samples=5, more=3, close=2, solver_nodes=20_000, tolerance=None)
    estimates = bot.estimates(view, None, seed=3)
    sampled = [e for e in estimates if e.samples is not None]
    assert len(sampled) == len(estimates) == len(view.legal_cells())  # every legal cell
    assert sorted(e.samples for e in sampled) == [5] * (len(sampled) - 2) + [8, 8]  # the two best: 3 more
    rng = random.Random(3)
    games = [replace(view, unseen=tuple(sorted(view.unseen))).sample(rng) for _ in range(8)]
    for e in sampled:
        assert 0 <= e.win_chance <= 1 and 0 <= e.expected_score <= 24
        wins = points = 0
        for game in games[: e.samples]:
            game.play(e.cell)
            solution = solve(game, max_nodes=20_000)
            game.undo()
            assert solution.status is not Outcome.UNKNOWN  # a generous limit: every sample settled
            wins += solution.won
            points += solution.score or 0
        assert e.unknown == 0
        assert e.win_chance == pytest.approx(wins / e.samples) and e.expected_score == pytest.approx(points / e.samples)
    # ranked by the share of wins, then the mean score
    keys = [(e.win_chance, e.expected_score) for e in sampled]
    assert keys == sorted(keys, reverse=True)


def test_the_prior_s_order_among_the_cells_near_the_best_share_of_wins():
    """With a tolerance, the cells whose share of wins is within it of the best come
    first in the prior's (deep's) order; the others after them, by their samples."""
    view = position(8, 11).view()
    bot = small(samples=6, more=0, solver_nodes=20_000, tolerance=0.2)
    estimates = bot.estimates(view, None, seed=3)
    prior = [e.cell for e in bot.prior.estimates(view, None, seed=3)]
    best = max(e.win_chance for e in estimates)
    near = [e for e in estimates if e.win_chance >= best - 0.2]
    assert estimates[: len(near)] == near and 1 < len(near) < len(estimates)
    assert [e.cell for e in near] == [c for c in prior if c in {e.cell for e in near}]
    rest = [(e.win_chance, e.expected_score) for e in estimates[len(near) :]]
    assert rest == sorted(rest, reverse=True)


def test_ranked_by_a_weight_of_wins_and_score():
    view = position(8, 11).view()
    sampled = small(samples=6, more=0, solver_nodes=20_000, win_weight=3, tolerance=None).estimates(view, None, seed=3)
    keys = [e.expected_score + 3 * e.win_chance for e in sampled]
    assert keys == sorted(keys, reverse=True)


def test_the_stock_solver_answers_as_solve():
    """StockSolver (the position set up once, each order as ranks) gives solve()'s
    answer on a game with that stock: outcome, score, moves, bound and node count,
    on either search core, also after a solve stopped by its limit."""
    for deal, piles in ((2, 6), (8, 11), (4, 15)):
        view = position(deal, piles).view()
        rng = random.Random(deal)
        for cell in view.legal_cells()[:3]:
            games = [view.sample(rng) for _ in range(3)]
            for game in games:
                game.play(cell)
            solver = StockSolver(games[0])
            for game in games:
                ranks = [c >> 2 for c in game.deck[game.placed :]]
                for limit in (30, 2_000):
                    for compiled in (False, True) if core.CORE is not None else (False,):
                        a = solve(game, max_nodes=limit)
                        b = solver.solve(ranks, max_nodes=limit) if compiled else _pure(solver, ranks, limit)
                        assert (a.status, a.score, a.moves, a.nodes, a.max_score) == (b.status, b.score, b.moves, b.nodes, b.max_score)


def _pure(solver: StockSolver, ranks: list[int], limit: int):
    """solver.solve on the pure-Python search."""
    saved, core.CORE = core.CORE, None
    try:
        return solver.solve(ranks, max_nodes=limit)
    finally:
        core.CORE = saved


def test_the_stock_solver_on_a_finished_position_and_other_rules():
    won = Game.from_deal(1)
    for cell in solve(won).moves:
        won.play(cell)
    assert StockSolver(won).solve([]).score == won.score
    with pytest.raises(RulesError):
        StockSolver(Game.from_deal(1, PRESETS["diagonal"]))


def test_legal_cells_only_each_once():
    for deal, piles in ((1, 8), (4, 15)):
        view = position(deal, piles).view()
        cells = [e.cell for e in small().estimates(view, None)]
        assert sorted(cells) == sorted(view.legal_cells())


def test_before_from_piles_the_answer_is_deep_s():
    view = position(6, 5).view()
    bot = small()
    assert _key(bot.estimates(view, None)) == _key(DeepBot(nodes=bot.nodes).estimates(view, None))
    assert all(e.samples is None for e in bot.estimates(view, None))


def test_an_unknown_sample_counts_as_the_prior_s_estimate():
    """A solve stopped by its node limit settles nothing: the sample counts as the
    prior's estimate of the cell (its expected score capped by the solver's bound)."""
    view = position(7, 9).view()
    bot = small(solver_nodes=1)
    prior = {e.cell: e for e in bot.prior.estimates(view, None)}
    settled = 0
    for e in bot.estimates(view, None):
        assert e.samples in (4, 8)
        if e.unknown == 0:  # a cell that loses at once needs no search
            assert e.win_chance == e.expected_score == 0
            continue
        settled += 1
        assert e.unknown == e.samples
        assert e.win_chance == pytest.approx(prior[e.cell].win_chance)
        assert e.expected_score <= prior[e.cell].expected_score + 1e-9
    assert settled


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_rule_variant(name):
    """Every preset: legal cells only; where the fast solver does not cover the rules
    (other flip or adjacency rules), the answer is ``deep``'s, unsampled."""
    rules = PRESETS[name]
    game = Game.from_deal(11, rules)
    bot = small(from_piles=2, samples=2, solver_nodes=200, deep_nodes=1000)
    for _ in range(4):
        if game.is_over:
            break
        view = game.view()
        estimates = bot.estimates(view, None)
        assert sorted(e.cell for e in estimates) == sorted(view.legal_cells()) or len(estimates) == 1
        assert all(0 <= e.win_chance <= 1 for e in estimates)
        if not fast_rules(rules):
            assert _key(estimates) == _key(DeepBot(nodes=bot.nodes).estimates(view, None))
        game.play(estimates[0].cell)


def test_a_budget_of_nothing_answers_without_samples():
    view = position(3, 9).view()
    estimates = small().estimates(view, 0.0)
    assert estimates and all(e.samples is None for e in estimates)
    assert sorted(e.cell for e in estimates) == sorted(view.legal_cells())


def test_a_game_over_has_no_move():
    game = position(3, 9)
    while not game.is_over:
        game.play(game.legal_cells()[0])
    with pytest.raises(PositionError, match="game is over"):
        small().estimates(game.view())


def test_settings_out_of_range_or_unknown_are_argument_errors():
    from foursquare import ArgumentError

    with pytest.raises(ArgumentError, match="at least 1"):
        ExpertBot(samples=0)
    with pytest.raises(ArgumentError, match="no setting 'bogus'"):
        ExpertBot(bogus=1)


def _late_state(tmp_path) -> str:
    """A saved state late in a game (few cells, small solves), as a file."""
    path = tmp_path / "late.yaml"
    path.write_text(state_text(position(9, 14)))
    return str(path)


def test_cli_hint_expert_shows_the_sampled_shares(tmp_path):
    state = _late_state(tmp_path)
    result = invoke(["hint", state, "--bot", "expert", "--budget", "120", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    sampled = [e for e in data["estimates"] if "samples" in e]
    counts = (pimc.SAMPLES, pimc.SAMPLES + pimc.MORE)
    assert sampled and all(e["samples"] in counts and 0 <= e["win_chance"] <= 1 for e in sampled)
    for e in sampled:  # a share of its samples, unless some counted as the prior's estimate
        k = e["samples"]
        assert e["unknown"] or (k * e["win_chance"]) == pytest.approx(round(k * e["win_chance"]))
    assert data["bot"] == "expert" and data["cell"] == data["estimates"][0]["cell"]
    text = invoke(["hint", state, "--bot", "expert", "--budget", "120"]).stdout
    assert "sampled orders of the unseen cards" in text


def test_cli_hint_expert_as_a_subprocess(tmp_path):
    state = _late_state(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "hint", state, "--bot", "expert", "--budget", "120", "--format", "json"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    legal = {str(c) for c in PlayerView.of(position(9, 14)).legal_cells()}
    assert {e["cell"] for e in data["estimates"]} == legal


def test_the_hint_note_says_every_cell_when_every_cell_was_sampled():
    from foursquare.cli.hint import sampled_note

    view = PlayerView.of(position(9, 14))
    everything = small().estimates(view)
    assert all(e.samples for e in everything) and len(everything) > 2
    assert sampled_note(everything).startswith("(every cell: the share of ")
    some = small(width=2).estimates(view)
    assert [e.samples is not None for e in some] == [True, True] + [False] * (len(some) - 2)
    note = sampled_note(some)
    assert note.startswith("(the first 2 cells: ") and note.endswith("; the others: the prior search's estimates)")
    assert sampled_note(everything[:1]).startswith("(the best cell: ")


def test_the_sampled_orders_are_drawn_as_they_are_solved_so_a_huge_count_costs_only_the_work_done():
    """Ten to the fifteen samples asked for, none solved (the budget is spent): the answer
    comes at once, the prior's, with no order drawn beyond those solved (they were all
    drawn first, before: memory and time without end)."""
    view = position(3, 9).view()
    bot = small(samples=10**15, more=10**15)
    assert _key(bot.estimates(view, 0.0)) == _key(bot.prior.estimates(view, 0.0))
