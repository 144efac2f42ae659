"""The cache of the backward last-cards search (``lastcards.TAIL_CACHE``).

A search answered from the cache must be indistinguishable from one that ran: the
same outcome, cards, moves and node count (the backward search's steps count as
positions searched), also when a node limit stops the solve, on both search cores.
And the key must be exactly what the answer depends on: inputs with the same key
give the same patterns in the same steps.
"""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from foursquare import Game
from foursquare.engine.deal import deal_deck
from foursquare.engine.rules import STANDARD, get_rules
from foursquare.solver import core, lastcards
from foursquare.solver.board import Board
from foursquare.solver.search import Search
from foursquare.solver.stocks import StockSolver

#: The cache size in force (the tests switch the cache off by setting 0).
CACHE_MAX = lastcards.TAIL_CACHE_MAX
CORES = [False] + ([True] if core.CORE is not None else [])


@pytest.fixture(autouse=True)
def _empty_cache():
    lastcards.TAIL_CACHE.clear()
    yield
    lastcards.TAIL_CACHE.clear()


def run(game: Game, max_nodes: int | None, compiled: bool, cached: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[object, ...]:
    """(outcome, cards, path, nodes) of the search on ``game``, with the tail cache or without it."""
    monkeypatch.setattr(lastcards, "TAIL_CACHE_MAX", CACHE_MAX if cached else 0)
    s = Search(Board(game), [c >> 2 for c in game.deck], game.placed, max_nodes, None, time.perf_counter(), compiled=compiled)
    status, cards, path = s.run()
    return status, cards, tuple(path), s.nodes


def positions(count: int, rules=STANDARD) -> list[Game]:
    """Deal starts and positions after random legal moves that do not lose at once."""
    out = []
    rng = random.Random(19)
    for seed in range(count):
        game = Game(deal_deck(seed, rules), rules)
        for _ in range(seed % 13):
            cells = game.legal_cells()
            rng.shuffle(cells)
            for cell in cells:
                game.play(cell)
                if not game.is_over or cell is cells[-1]:
                    break
                game.undo()
            if game.is_over:
                break
        if not game.is_over:
            out.append(game)
    return out


@pytest.mark.parametrize("compiled", CORES)
def test_solves_are_the_same_with_the_cache_cold_warm_and_off(compiled, monkeypatch):
    games = positions(24 if compiled else 10)
    limit = 20_000 if compiled else 3_000
    off = [run(g, limit, compiled, False, monkeypatch) for g in games]
    assert not lastcards.TAIL_CACHE  # switched off: nothing stored
    cold = [run(g, limit, compiled, True, monkeypatch) for g in games]
    stored = len(lastcards.TAIL_CACHE)
    warm = [run(g, limit, compiled, True, monkeypatch) for g in games]
    assert off == cold == warm
    assert stored > 0 and len(lastcards.TAIL_CACHE) == stored  # the warm runs found every answer they needed
    assert {r[0] for r in off} >= {"solved", "unknown"}  # settled ones and ones stopped by the limit


@pytest.mark.parametrize("compiled", CORES)
def test_a_node_limit_stops_at_the_same_count_with_a_warm_cache(compiled, monkeypatch):
    # the cache holds every answer of the whole solve; under a lower limit a stored
    # answer that took more steps than are left must not be used (the search would
    # have stopped inside it)
    for deal in (2, 24, 25):
        game = Game.from_deal(deal)
        full = run(game, 10_000, compiled, True, monkeypatch)
        assert full[0] == "solved"
        outcomes = set()
        for limit in (1, 2, 17, 100, 1_000, full[3] - 1, full[3], full[3] + 1, 10_000):
            off = run(game, limit, compiled, False, monkeypatch)
            on = run(game, limit, compiled, True, monkeypatch)
            assert on == off, (deal, limit)
            assert on[3] <= limit, (deal, limit)
            outcomes.add(on[0])
        assert on == full and outcomes == {"unknown", "solved"}


@pytest.mark.parametrize("compiled", CORES)
def test_searches_stopped_by_the_limit_are_known_as_such_and_stop_alike(compiled, monkeypatch):
    # from a cold cache, limits rising then falling: a search stopped at its limit is
    # kept as needing more steps; under a lower limit it stops at that one, under a
    # higher one it runs again (and its answer replaces the bound)
    limits = (1, 40, 300, 2_000, 6_000, 2_000, 300, 40, 1)
    for deal in (2, 5, 24):
        game = Game.from_deal(deal)
        lastcards.TAIL_CACHE.clear()
        off = [run(game, limit, compiled, False, monkeypatch) for limit in limits]
        on = []
        bounds = set()
        for limit in limits:
            on.append(run(game, limit, compiled, True, monkeypatch))
            bounds |= {key for key, (pats, _) in lastcards.TAIL_CACHE.items() if pats < 0}
        assert on == off, deal
        assert bounds, deal  # some search was stopped by its limit and kept so


def test_the_two_cores_keep_their_own_answers(monkeypatch):
    if core.CORE is None:
        pytest.skip("the compiled search core is not built")
    game = Game.from_deal(24)
    py = run(game, 20_000, False, True, monkeypatch)
    after_python = len(lastcards.TAIL_CACHE)
    c = run(game, 20_000, True, True, monkeypatch)
    assert py == c
    assert len(lastcards.TAIL_CACHE) == 2 * after_python  # the compiled search ran its own backward searches


def test_a_full_cache_is_emptied_and_answers_stay_the_same(monkeypatch):
    games = positions(8)
    off = [run(g, 5_000, bool(CORES[-1]), False, monkeypatch) for g in games]
    monkeypatch.setattr(lastcards, "TAIL_CACHE_MAX", 5)
    small = []
    for g in games:
        s = Search(Board(g), [c >> 2 for c in g.deck], g.placed, 5_000, None, time.perf_counter(), compiled=bool(CORES[-1]))
        status, cards, path = s.run()
        small.append((status, cards, tuple(path), s.nodes))
        assert len(lastcards.TAIL_CACHE) <= 5
    assert small == off


@pytest.mark.parametrize("compiled", CORES)
def test_the_stock_solver_answers_alike_with_and_without_the_cache(compiled, monkeypatch):
    # the expert bot's use: one position, many orders of its stock
    if not compiled:
        monkeypatch.setattr(core, "CORE", None)
    rng = random.Random(5)
    for deal in (3, 40):
        game = Game.from_deal(deal)
        for _ in range(9):
            game.play(game.legal_cells()[0])
        solver = StockSolver(game)
        rest = [c >> 2 for c in game.deck[game.placed :]]
        orders = [rng.sample(rest, len(rest)) for _ in range(12 if compiled else 4)]
        answers = {}
        for cached in (False, True, True):
            monkeypatch.setattr(lastcards, "TAIL_CACHE_MAX", CACHE_MAX if cached else 0)
            got = [dataclasses.replace(solver.solve(o, max_nodes=20_000 if compiled else 3_000), seconds=0.0) for o in orders]
            answers.setdefault(cached, []).append(got)
        assert answers[False][0] == answers[True][0] == answers[True][1]
        assert any(s.status == "solved" for s in answers[False][0])


def _tail_key(tail, earlier, cells):
    return lastcards.tail_key(list(tail), list(earlier), cells)


def test_inputs_with_the_same_key_get_the_same_patterns_in_the_same_steps():
    # change the earlier ranks within their classes and add cards to classes that
    # hold n * n already: the key stays, and so must the answer, step for step
    rng = random.Random(7)
    checked = 0
    for case in range(150):
        rules = STANDARD if case % 4 else get_rules("three-square")
        n = rules.size
        ranks = [c >> 2 for c in deal_deck(case, rules)]
        k = rng.randrange(1, 4)
        K = rng.randrange(n * n, min(len(ranks), n * n + 5) + 1)
        tail, earlier = ranks[K - k : K], ranks[: K - k]
        stacks = rng.randrange(0, 3)
        classes = lastcards.rank_classes(tail, 14)
        by_class: dict[int, list[int]] = {}
        for v in range(14):
            by_class.setdefault(classes[v], []).append(v)
        other = [rng.choice(by_class[classes[v]]) for v in earlier]
        full = [c for c, m in enumerate(_count(classes, earlier)) if m >= n * n]
        other += [by_class[c][0] for c in full for _ in range(rng.randrange(1, 5))]
        rng.shuffle(other)
        assert _tail_key(tail, earlier, n * n) == _tail_key(tail, other, n * n)
        a = lastcards.tail_patterns(tail, earlier, n, rules.face_down_limit, stacks, every=True)
        b = lastcards.tail_patterns(tail, other, n, rules.face_down_limit, stacks, every=True)
        assert a == b, (case, tail, earlier, other)
        checked += 1
    assert checked == 150


def _count(classes, earlier):
    counts = [0] * (max(classes) + 2)
    for v in earlier:
        counts[classes[v]] += 1
    return counts


def test_the_key_tells_apart_what_the_answer_depends_on():
    # the order of the tail's classes, where the earlier ranks fall among the tail's,
    # and each count below n * n are in the key; ranks beyond that are not
    tail, earlier = [3, 0, 4], [5, 5, 2, 1, 6]
    key = _tail_key(tail, earlier, 4)
    assert key == ((3, 1, 5), (0, 0, 2, 0, 0, 0, 3))
    assert _tail_key([3, 0, 6], earlier, 4) == ((3, 1, 5), (0, 0, 2, 0, 2, 1, 0))  # 6 a tail rank, 5 below it
    assert _tail_key([0, 3, 4], earlier, 4)[0] == (1, 3, 5)
    assert _tail_key(tail, [5, 5, 2, 6], 4) == (key[0], (0, 0, 1, 0, 0, 0, 3))
    assert _tail_key(tail, [2] * 20, 4)[1] == (0, 0, 4, 0, 0, 0, 0)
    assert _tail_key(tail, [2] * 20, 4) == _tail_key(tail, [1, 2] * 8, 4) == _tail_key(tail, [1, 2, 2, 2], 4)
    assert _tail_key(tail, [1, 2, 2], 4) != _tail_key(tail, [1, 2, 2, 2], 4)
