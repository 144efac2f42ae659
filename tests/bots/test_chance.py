"""The ``chance`` bot (bots/chance.py): ``expert`` with the next card's rank an exact chance node (RULES.md §6)."""

from __future__ import annotations

import random
import time

import pytest

from foursquare.bots import BOTS, ChanceBot, get_bot
from foursquare.bots.pimc import ExpertBot
from foursquare.engine.game import Game, Status
from foursquare.engine.rules import Rules
from foursquare.errors import ArgumentError

#: Small limits, so that the tests run on the pure-Python solver in seconds.
SMALL = {"samples": 4, "close": 2, "solver_nodes": 400, "deep_nodes": 3000, "prior_nodes": 3000}
#: A rule set of 12 cards on a 3x3 grid: a game reaches its last cards still playing.
TWELVE = Rules(size=3, ranks=4, suits=3, pile_cap=4, face_down_limit=4)


def position(deal: int, piles: int) -> Game:
    """The standard game of ``deal`` played by ``expectimax`` until its grid holds ``piles`` piles."""
    game = Game.from_deal(deal)
    bot = get_bot("expectimax")
    while len(game.grid) < piles:
        game.play(bot.choose(game.view()))
    assert not game.is_over
    return game


def _key(estimates):
    return [(e.cell, e.win_chance, e.expected_score, e.samples, e.unknown) for e in estimates]


def test_registered_as_chance_with_experts_settings_and_no_more_phase():
    bot = get_bot("chance")
    assert isinstance(bot, ChanceBot) and isinstance(bot, ExpertBot) and BOTS["chance"].uses_nodes
    assert bot.settings.more == 0 and get_bot("chance", nodes=300_000).settings.samples == get_bot("expert", nodes=300_000).settings.samples


@pytest.mark.parametrize(
    ("settings", "words"),
    [({"per_rank": 0}, "ChanceBot: per_rank must be a whole number of at least 1, not 0"),
     ({"per_rank": "3"}, "ChanceBot: per_rank must be a whole number of at least 1, not '3' (str)"),
     ({"per_rank": 2.5}, "ChanceBot: per_rank must be a whole number"),
     ({"next_width": None}, "ChanceBot: next_width must be a whole number"),
     ({"win_weight": "20"}, "ChanceBot: win_weight must be a finite number"),
     ({"win_weight": float("nan")}, "ChanceBot: win_weight must be a finite number"),
     ({"win_weight": None}, "ChanceBot: win_weight must be a finite number of points, not None"),
     ({"win_weight": float("inf")}, "ChanceBot: win_weight must be a finite number of points, not inf"),
     ({"nodes": "5"}, "ChanceBot: nodes must be a whole number of at least 1"),
     ({"nodes": 0}, "ChanceBot: nodes must be a whole number of at least 1"),
     ({"samples": 0}, "ExpertBot: samples must be a whole number of at least 1, not 0"),
     ({"width": 0}, "ExpertBot: width must be a whole number of at least 1 or None"),
     ({"tolerance": 2}, "ExpertBot: tolerance must be a share from 0 to 1"),
     ({"win_weight": 10**400}, "ChanceBot: win_weight must be a finite number of points"),  # (beyond a float)
     ({"nodes": 10**30}, "ChanceBot: nodes must be a whole number of at least 1 and at most 9223372036854775807"),
     ({"solver_nodes": 10**30}, "ExpertBot: solver_nodes must be a whole number of at least 1 and at most"),
     ({"tolerance": 10**400}, "ExpertBot: tolerance must be a share from 0 to 1"),
     ({"colour": 1}, "no setting 'colour'")],
)
def test_bad_settings_are_refused_in_our_words_when_the_bot_is_made(settings, words):
    with pytest.raises(ArgumentError) as info:
        ChanceBot(**settings)
    assert words in str(info.value)


def test_a_time_budget_holds_however_many_orders_are_asked_for():
    """The sampled orders are drawn within the budget too (a million a rank would take
    minutes): past the deadline, none; the bot then gives expert's answer."""
    view = position(3, 9).view()
    bot = ChanceBot(per_rank=10**6, **SMALL)
    assert bot._orders(view, 0, time.perf_counter() - 1) is None
    orders = ChanceBot(per_rank=3)._orders(view, 0, None)
    assert orders is not None and sorted(orders) == sorted({c >> 2 for c in view.unseen})
    assert all(len(stocks) == 3 and len(rest) == len(view.unseen) - 1 for _, rest, stocks in orders.values())


def test_the_note_of_a_hint_says_the_chance_bot_s_own_reason():
    assert "chance node" in (ChanceBot().preference() or "") and "within" in (ExpertBot().preference() or "")


def _last_three(seed: int) -> Game | None:
    """A game of :data:`TWELVE` played at random until two cards are unseen, of two ranks,
    with the game going on and two cells or more for the card in hand; else ``None``."""
    rng = random.Random(seed)
    game = Game.from_deal(seed, TWELVE)
    while not game.is_over and game.stock_count > 3:
        game.play(rng.choice(game.legal_cells()))
    view = game.view() if not game.is_over else None
    if view is None or len({c >> 2 for c in view.unseen}) < 2 or len(game.legal_cells()) < 2:
        return None
    return game


def _outcome(game: Game) -> tuple[float, float]:
    """(win, score) of a game that is over."""
    return (1.0, float(game.score)) if game.status is Status.WON else (0.0, 0.0)


def _exact(game: Game, cell, weight: float) -> tuple[float, float]:
    """The exact (win chance, expected score) of placing the card in hand on ``cell`` with two
    cards unseen, the next one chosen for knowing its rank (but not the last card's), by the bot's
    key (score + ``weight`` × win), the last one where it scores best: expectimax by hand."""
    first = Game.from_position({c: (p.cards, p.face_up) for c, p in game.grid.items()}, [game.next_card], game.rules)
    first.play(cell)
    if first.is_over:
        return _outcome(first)
    unseen = game.view().unseen
    win = score = 0.0
    for card in unseen:  # each of the two cards is next with chance 1/2 (their ranks differ)
        last = next(c for c in unseen if c != card)
        best = None
        for nxt in first.legal_cells():
            second = first.copy()
            second.play(nxt, card)
            outcomes = [_outcome(second)] if second.is_over else []
            for end in [] if second.is_over else second.legal_cells():
                third = second.copy()
                third.play(end, last)
                outcomes.append(_outcome(third))
            value = max(outcomes, key=lambda o: o[1] + weight * o[0])
            best = value if best is None or value[1] + weight * value[0] > best[1] + weight * best[0] else best
        assert best is not None
        win, score = win + best[0] / 2, score + best[1] / 2
    return win, score


def test_with_two_cards_unseen_the_chance_node_is_the_exact_expectimax():
    games = [g for g in map(_last_three, range(300)) if g is not None][:6]
    assert len(games) == 6
    for game in games:
        bot = ChanceBot(per_rank=1, next_width=99, close=99, samples=2, deep_nodes=3000, prior_nodes=3000, from_piles=1)
        for e in bot.estimates(game.view(), None, 0):
            win, score = _exact(game, e.cell, bot.win_weight)
            assert (e.win_chance, e.expected_score, e.unknown) == (pytest.approx(win), pytest.approx(score), 0), (game.transcript(), e)
            assert (e.win_chance == 1.0) is (win == 1.0)  # a sure win is exactly 1 (summed by rank, divided once)
