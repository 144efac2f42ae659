"""The ``expert`` bot (bots/pimc.py): sampled stocks, each solved with the stock known (RULES.md §6).

Small work limits throughout (a few samples, a few hundred solver positions), so the
tests run on the pure-Python solver in seconds.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from helpers import invoke

from foursquare.bots import BOTS, get_bot
from foursquare.bots.base import BotError
from foursquare.bots.pimc import ExpertBot
from foursquare.engine.game import Game, PlayerView
from foursquare.engine.rules import PRESETS
from foursquare.formats.state import state_text
from foursquare.solver.search import fast_rules, solve
from foursquare.solver.solution import Outcome


def small(**kw: int) -> ExpertBot:
    """An expert bot with small limits (``deep`` small too, so that it is fast)."""
    return ExpertBot(**{"samples": 4, "solver_nodes": 400, "deep_nodes": 3000, **kw})


def position(deal: int, piles: int, rules=PRESETS["standard"]) -> Game:
    """The game of ``deal`` played by ``expectimax`` until its grid holds ``piles`` piles."""
    game = Game.from_deal(deal, rules)
    bot = get_bot("expectimax")
    while len(game.grid()) < piles and not game.is_over:
        game.play(bot.choose(game.view()))
    assert not game.is_over
    return game


def _key(estimates):
    return [(e.cell, e.win_chance, e.expected_score, e.samples, e.unknown) for e in estimates]


def test_registered_as_expert():
    assert isinstance(get_bot("expert"), ExpertBot) and BOTS["expert"].uses_nodes
    bot = get_bot("expert", nodes=90_000)  # --nodes: deep's limit, and as many samples as fit
    assert bot.deep.nodes == 90_000 and bot.samples == 90_000 // (bot.width * bot.solver_nodes) == 10
    assert get_bot("expert", nodes=5).samples == 1


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
    bot = small(samples=5, solver_nodes=20_000)
    estimates = bot.estimates(view, None, seed=3)
    sampled = [e for e in estimates if e.samples is not None]
    assert len(sampled) == bot.width
    rng = random.Random(3)
    games = [view.sample(rng) for _ in range(5)]
    for e in sampled:
        assert e.samples == 5 and 0 <= e.win_chance <= 1 and 0 <= e.expected_score <= 24
        wins = points = 0
        for game in games:
            game.play(e.cell)
            solution = solve(game, max_nodes=20_000)
            game.undo()
            assert solution.status is not Outcome.UNKNOWN  # a generous limit: every sample settled
            wins += solution.won
            points += solution.score or 0
        assert e.unknown == 0
        assert e.win_chance == pytest.approx(wins / 5) and e.expected_score == pytest.approx(points / 5)
    # ranked by the share of wins, then the mean score
    keys = [(e.win_chance, e.expected_score) for e in sampled]
    assert keys == sorted(keys, reverse=True)


def test_legal_cells_only_each_once():
    for deal, piles in ((1, 8), (4, 15)):
        view = position(deal, piles).view()
        cells = [e.cell for e in small().estimates(view, None)]
        assert sorted(cells) == sorted(view.legal_cells())


def test_before_from_piles_the_answer_is_deep_s():
    view = position(6, 5).view()
    bot = small()
    assert _key(bot.estimates(view, None)) == _key(bot.deep.estimates(view, None))
    assert all(e.samples is None for e in bot.estimates(view, None))


def test_an_unknown_sample_counts_as_deep_s_estimate():
    """A solve stopped by its node limit settles nothing: the sample counts as ``deep``'s
    estimate of the cell (its expected score capped by the solver's bound)."""
    view = position(7, 9).view()
    bot = small(solver_nodes=1)
    deep = {e.cell: e for e in bot.deep.estimates(view, None)}
    for e in bot.estimates(view, None):
        if e.samples is None:
            continue
        assert e.unknown == e.samples == 4
        assert e.win_chance == pytest.approx(deep[e.cell].win_chance)
        assert e.expected_score <= deep[e.cell].expected_score + 1e-9


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
            assert _key(estimates) == _key(bot.deep.estimates(view, None))
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
    with pytest.raises(BotError, match="game is over"):
        small().estimates(game.view())


def test_limits_below_one_are_refused():
    with pytest.raises(ValueError):
        ExpertBot(samples=0)


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
    assert sampled and all(e["samples"] == 16 and 0 <= e["win_chance"] <= 1 for e in sampled)
    for e in sampled:  # a share of 16 samples, unless some counted as deep's estimate
        assert e["unknown"] or (16 * e["win_chance"]) == pytest.approx(round(16 * e["win_chance"]))
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
