"""The plain solver on the engine (any rule set): sound answers, checked by replay
and by exhaustive search on small cases (RULES.md §5, §8)."""

import itertools

import pytest
from helpers import conformance_records

from foursquare import PRESETS, Game
from foursquare.solver.reference import solve_with_engine


def _best_by_brute_force(game: Game):
    """The fewest cards to a win from ``game``, trying every sequence of placements."""
    best = None

    def walk():
        nonlocal best
        if game.status == "won":
            best = game.placed if best is None else min(best, game.placed)
            return
        if game.is_over or game.next_card is None:
            return
        for cell in game.legal_cells():
            game.play(cell)
            walk()
            game.undo()

    walk()
    return best


def _late_position(preset: str, deal: int, cards_left: int) -> Game:
    """A game of ``preset`` whose known deck ends ``cards_left`` cards after a position
    reached by a simple policy (first legal cell with fewest face down)."""
    game = Game.from_deal(deal, PRESETS[preset])
    full = game.rules.size ** 2
    while len(game.grid) < full - 2:
        options = []
        for cell in game.legal_cells():
            game.play(cell)
            if not game.is_over:
                options.append((game.face_down, cell))
            game.undo()
        if not options:
            break
        game.play(min(options)[1])
    deck = list(game.deck[: game.placed + cards_left])
    short = Game(deck, game.rules)
    for placement in game.moves:
        short.play(placement.cell)
    return short


@pytest.mark.parametrize("preset", ["standard", "self-flip", "diagonal", "ties-count", "open-comparison", "three-square"])
@pytest.mark.parametrize("deal", range(6))
def test_agrees_with_brute_force_on_late_positions(preset, deal):
    game = _late_position(preset, deal, 4)
    if game.is_over:
        pytest.skip("the simple policy ended the game")
    status, cards, cells, _ = solve_with_engine(game, max_nodes=None, timeout=None)
    best = _best_by_brute_force(game.copy())
    if best is None:
        assert status == "no-win"
    else:
        assert (status, cards) == ("solved", best)
        replay = game.copy()
        for cell in cells:
            replay.play(cell)
        assert replay.status == "won" and replay.placed == best


@pytest.mark.parametrize("preset", ["three-square", "ties-count", "diagonal"])
def test_solutions_from_the_start_replay_as_wins(preset):
    for deal in itertools.count():
        game = Game.from_deal(deal, PRESETS[preset])
        status, cards, cells, _ = solve_with_engine(game, max_nodes=30_000, timeout=None)
        if status == "solved":
            break
        assert deal < 20, "no deal solved within the node limit"
    for cell in cells:
        game.play(cell)
    assert game.status == "won" and game.placed == cards


def test_a_short_stock_has_no_win():
    game = Game(Game.from_deal(5).deck[:12])
    assert solve_with_engine(game, max_nodes=None, timeout=None)[0] == "no-win"


def test_limits_give_unknown_and_leave_the_game_unchanged():
    game = Game.from_deal(0)
    status, cards, cells, nodes = solve_with_engine(game, max_nodes=50, timeout=None)
    assert status == "unknown" and cells == () and nodes == 50
    assert game.placed == 0 and not game.moves


def _won_conformance_games():
    return [g for g in conformance_records() if g["final"]["status"] == "won"]


@pytest.mark.parametrize("record", _won_conformance_games(), ids=lambda g: g["id"])
def test_finds_the_best_win_near_the_end_of_won_games(record):
    """Three moves before a recorded win, with one spare card: a win exists, and the
    solver's is as short as the shortest that exhaustive search finds."""
    end = record["final"]["placed"]
    game = Game(record["deck"][: end + 1])
    for cell in record["moves"][: end - 3]:
        game.play(cell)
    status, cards, cells, _ = solve_with_engine(game, max_nodes=None, timeout=None)
    best = _best_by_brute_force(game.copy())
    assert best is not None and best <= end
    assert (status, cards) == ("solved", best)
    for cell in cells:
        game.play(cell)
    assert game.status == "won" and game.placed == best


def test_a_full_table_of_failed_positions_is_emptied_and_the_answers_stay(monkeypatch):
    """The engine-based search (the variants the fast search does not cover) bounds its
    table by positions (reference.TABLE_MAX_ENTRIES): emptied when full, it searches some
    positions again, and finds the same answers."""
    import dataclasses

    from foursquare.engine.rules import STANDARD, Adjacency
    from foursquare.solver import reference

    rules = dataclasses.replace(STANDARD, adjacency=Adjacency.EDGE_OR_CORNER)
    games = [Game.from_deal(deal, rules) for deal in (1, 3, 5)]
    free = [solve_with_engine(g, max_nodes=40_000, timeout=None) for g in games]
    monkeypatch.setattr(reference, "TABLE_MAX_ENTRIES", 1)
    capped = [solve_with_engine(g, max_nodes=40_000, timeout=None) for g in games]
    assert capped == free
    assert any(f[0] == "solved" for f in free)
