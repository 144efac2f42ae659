"""RULES.md §6: what the player may know — never the order of the stock."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import play

from foursquare.engine.game import Game, Status
from foursquare.engine.view import PlayerView
from foursquare.errors import ArgumentError


def opening(deal: int, n: int, seed: int = 0) -> Game:
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    while game.placed < n and not game.is_over:
        game.play(rng.choice(game.legal_cells()))
    return game


@pytest.mark.parametrize("deal, n", [(0, 0), (1, 3), (42, 7), (7, 10)])
def test_s6_unseen_is_sorted_and_excludes_grid_and_next_card(deal, n):
    game = opening(deal, n)
    view = game.view()
    assert list(view.unseen) == sorted(view.unseen)
    on_grid = {c for p in game.grid.values() for c in p.cards}
    assert set(view.unseen) == set(game.deck) - on_grid - {game.next_card}
    assert len(view.unseen) == view.stock_count - 1
    assert view.next_card == game.next_card and view.stock_count == game.stock_count


@pytest.mark.parametrize("deal, n", [(1, 5), (42, 8), (99, 2)])
def test_s6_two_orders_of_the_unseen_cards_give_the_same_view(deal, n):
    game = opening(deal, n)
    if game.is_over:
        pytest.skip("the opening ended the game")
    seen = list(game.deck[: game.placed + 1])
    rest = list(game.deck[game.placed + 1 :])
    decks = {game.deck}
    for seed in range(5):
        random.Random(seed).shuffle(rest)
        other = play(Game(seen + rest), [m.cell for m in game.moves])
        decks.add(other.deck)
        assert other.view() == game.view()
    assert len(decks) > 1  # the orders did differ


def test_s6_the_view_holds_no_order_field():
    fields = {f.name for f in dataclasses.fields(PlayerView)}
    assert fields == {"rules", "grid", "next_card", "stock_count", "unseen", "face_down", "status"}


def test_s6_face_down_cards_are_known_and_marked():
    # §7 steps 1–2: the 5C on d4 is face down after the 9D; the player saw it placed.
    game = play(Game(["5C", "9D", "2H"]), ["d4", "e4"])
    view = game.view()
    assert view.face_down == 1
    pile = view.grid[game.moves[0].cell]
    assert str(pile.top) == "5C" and pile.face_up is False


@pytest.mark.parametrize("deal, n", [(1, 0), (3, 4), (42, 9)])
def test_s6_sample_keeps_the_grid_and_the_next_card(deal, n):
    game = opening(deal, n)
    view = game.view()
    for seed in range(4):
        sample = view.sample(random.Random(seed))
        assert sample.grid == game.grid
        assert sample.next_card == game.next_card
        assert sample.stock_count == game.stock_count
        assert sample.face_down == game.face_down
        assert sorted(sample.remaining) == list(view.unseen)
        assert sample.legal_cells() == game.legal_cells() == view.legal_cells()
        assert sample.view() == view


def test_s6_samples_differ_in_the_order_only():
    view = Game.from_deal(5).view()
    orders = {view.sample(random.Random(seed)).remaining for seed in range(10)}
    assert len(orders) > 1
    assert all(sorted(o) == list(view.unseen) for o in orders)


def test_s6_sample_is_a_playable_game():
    view = opening(11, 6).view()
    sample = view.sample(random.Random(1))
    rng = random.Random(2)
    while not sample.is_over:
        sample.play(rng.choice(sample.legal_cells()))
    assert sample.status in (Status.WON, Status.LOST)


def test_s6_view_of_a_finished_game():
    game = Game.from_deal(2)
    while not game.is_over:
        game.play(game.legal_cells()[0])
    view = game.view()
    assert view.next_card is None and view.status is game.status
    assert view.legal_cells() == []


def test_s6_no_view_when_the_next_card_is_unknown():
    game = play(Game(["5C"]), ["d4"])
    with pytest.raises(ValueError, match="next card is unknown"):
        game.view()


# --- wrong types are refused in our words


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: PlayerView.of(3), "PlayerView.of: game must be a Game, not 3 (int)"),
        (lambda: PlayerView.of(Game.from_deal(1).view()), "PlayerView.of: game must be a Game, not PlayerView("),
        (lambda: Game.from_deal(1).view().sample(3), "PlayerView.sample: rng must be a random.Random, not 3 (int)"),
        (lambda: Game.from_deal(1).view().sample(None), "PlayerView.sample: rng must be a random.Random"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_the_view(call, words):
    with pytest.raises(ArgumentError) as info:
        call()
    assert words in str(info.value)
