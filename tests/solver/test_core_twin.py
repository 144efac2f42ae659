"""The compiled search core (foursquare/solver/_core.c) against its pure-Python twin.

The two are one algorithm: for every position and rule set the fast search covers
(``fast_rules``) they must agree on the outcome, the cards used, the moves and the
node count, also when a node limit stops them (``--max-nodes`` means the same on
every machine).  Skipped where the core is not built (or FOURSQUARE_PURE_PYTHON is set).
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
import time

import pytest

from foursquare import Game
from foursquare.engine.deal import deal_deck
from foursquare.engine.rules import STANDARD, LayoutKind, get_rules
from foursquare.solver import core, lastcards, search
from foursquare.solver.board import Board
from foursquare.solver.lastcards import TailLimit
from foursquare.solver.search import Search, fast_rules

pytestmark = pytest.mark.skipif(core.CORE is None, reason="the compiled search core is not built (or FOURSQUARE_PURE_PYTHON is set)")

#: Rule sets of the fast search that the core takes (frames of at most 63 cells).
VARIANTS = {
    "standard": STANDARD,
    "fixed-board": get_rules("fixed-board"),
    "three-square": get_rules("three-square"),
    "three-fixed": dataclasses.replace(STANDARD, size=3, layout=LayoutKind.FIXED, ranks=6),
    "six-fixed": dataclasses.replace(STANDARD, size=6, layout=LayoutKind.FIXED, ranks=13, suits=3, face_down_limit=8),
    "cap-1 (runs out of room)": dataclasses.replace(STANDARD, size=3, pile_cap=1, face_down_limit=2, ranks=4, suits=3),
    "cap-2": dataclasses.replace(STANDARD, pile_cap=2),
    "cap-8": dataclasses.replace(STANDARD, pile_cap=8),
    "limit-1": dataclasses.replace(STANDARD, face_down_limit=1),
    "limit-2": dataclasses.replace(STANDARD, face_down_limit=2),
    "limit-6": dataclasses.replace(STANDARD, face_down_limit=6),
    "13 ranks": dataclasses.replace(STANDARD, ranks=13),
    "5 ranks": dataclasses.replace(STANDARD, ranks=5),
    "2 suits": dataclasses.replace(STANDARD, ranks=10, suits=2),
}


def twins(game: Game, max_nodes: int | None) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """Run the search on ``game`` in Python and compiled: (outcome, cards, path, nodes) of each."""
    results = []
    for compiled in (False, True):
        s = Search(Board(game), [c >> 2 for c in game.deck], game.placed, max_nodes, None, time.perf_counter(), compiled=compiled)
        assert (s.core is not None) == compiled
        status, cards, path = s.run()
        results.append((status, cards, tuple(path), s.nodes))
    return results[0], results[1]


def mid_game(seed: int, rules, depth: int, cut: int | None = None) -> Game | None:
    """A position after ``depth`` random moves (a deck prefix ``cut`` cards after it, if given)."""
    rng = random.Random(seed)
    deck = deal_deck(seed, rules)
    game = Game(deck, rules)
    for _ in range(depth):
        if game.is_over:
            return None
        cells = game.legal_cells()
        rng.shuffle(cells)
        for cell in cells:  # a random move that does not lose at once, if there is one
            game.play(cell)
            if not game.is_over or cell is cells[-1]:
                break
            game.undo()
    if game.is_over:
        return None
    if cut is None:
        return game
    prefix = Game(deck[: game.placed + cut], rules)
    for p in game.moves:
        prefix.play(p.cell)
    return prefix


def test_every_variant_here_is_a_fast_rule_set_the_core_takes():
    for rules in VARIANTS.values():
        assert fast_rules(rules) and core.fits(rules.frame, rules.size, rules.pile_cap)
    five = get_rules("five-square")  # 81 cells: searched in Python by either choice
    assert not core.fits(five.frame, five.size, five.pile_cap)
    s = Search(Board(Game.from_deal(1, five)), [0] * 52, 0, 10, None, 0.0, compiled=True)
    assert s.core is None


@pytest.mark.parametrize("deal", range(0, 24))
def test_the_twins_agree_from_the_start_of_a_deal(deal):
    py, c = twins(Game.from_deal(deal), 4_000)
    assert py == c


#: The pure-Python twin is slow under a face-down limit of 1 (budget after budget): that one runs with the slow tests.
QUICK = sorted(set(VARIANTS) - {"limit-1"})


@pytest.mark.parametrize("name", QUICK)
def test_the_twins_agree_under_every_variant_mid_game(name):
    rules = VARIANTS[name]
    checked = settled = 0
    for seed in range(6):
        for depth in (6, 11, 14):
            game = mid_game(seed, rules, depth)
            if game is None or game.placed >= len(game.deck):
                continue
            py, c = twins(game, 1_500)
            assert py == c, (name, seed, depth)
            checked += 1
            settled += py[0] != "unknown"
    assert checked >= 6 and (settled or rules.face_down_limit < 2)  # (with 0 or 1 face down allowed, 1,500 positions settle little)


@pytest.mark.parametrize("seed", range(4))
def test_the_twins_agree_on_deck_prefixes(seed):
    for depth, cut in ((0, 16), (5, 14), (8, 20), (11, 6)):
        game = mid_game(seed, STANDARD, depth, cut)
        if game is not None:
            py, c = twins(game, 3_000)
            assert py == c, (seed, depth, cut)


def test_the_twins_agree_with_no_face_down_card_allowed():
    rules = dataclasses.replace(STANDARD, face_down_limit=0)
    for deal in range(6):
        py, c = twins(Game.from_deal(deal, rules), 300)
        assert py == c, deal


@pytest.mark.parametrize("deal", [22, 37, 325])
def test_a_node_limit_stops_both_at_the_same_count(deal):
    game = Game.from_deal(deal)
    for limit in (1, 17, 100, 1_000, 4_321):
        py, c = twins(game, limit)
        assert py == c and py[0] == "unknown" and py[3] == limit, (deal, limit)


def capped(game: Game, max_nodes: int, tt_max: int, compiled: bool) -> tuple[object, ...]:
    """(outcome, cards, path, nodes) of the search on ``game`` with a transposition table of at most ``tt_max`` positions."""
    s = Search(Board(game), [c >> 2 for c in game.deck], game.placed, max_nodes, None, time.perf_counter(), compiled=compiled)
    assert s.tt_max == search.TT_MAX_ENTRIES
    s.tt_max = tt_max
    status, cards, path = s.run()
    return status, cards, tuple(path), s.nodes


@pytest.mark.parametrize("deal", [24, 25, 59])
def test_a_full_transposition_table_keeps_the_same_half_in_both(deal):
    """The replacement policy (search.tt_make_room): under tiny tables, filled again and
    again, both cores keep the same entries (the node counts would part otherwise)."""
    game = Game.from_deal(deal)
    free, _ = twins(game, 10_000)
    assert free[0] != "unknown"
    for tt_max in (1, 2, 3, 5, 64, 500):
        py, c = capped(game, 10_000, tt_max, False), capped(game, 10_000, tt_max, True)
        assert py == c, (deal, tt_max)
        assert py[:3] == free[:3] or py[0] == "unknown"  # replacing loses pruning, never a result
        if tt_max <= 64:
            assert py[3] != free[3]  # and it did change the search


@pytest.mark.parametrize("name", ["three-square", "six-fixed", "cap-8"])
def test_a_full_transposition_table_keeps_the_same_half_in_both_mid_game(name):
    """The same under other keys (3x3 and 6x6 grids, tall piles) and from mid-game positions."""
    rules = VARIANTS[name]
    changed = 0
    for seed in range(4):
        game = mid_game(seed, rules, 5)
        if game is None:
            continue
        free = capped(game, 3_000, search.TT_MAX_ENTRIES, True)
        py, c = capped(game, 3_000, 7, False), capped(game, 3_000, 7, True)
        assert py == c, (name, seed)
        changed += py[3] != free[3]
    assert changed


def test_the_replacement_policy_keeps_the_most_work_the_newer_among_equals_and_ages_it():
    tt = {(i,): w for i, w in enumerate([3, 8, 3, 1, 3, 8, 0])}
    search.tt_make_room(tt)
    assert tt == {(1,): 4, (4,): 1, (5,): 4}  # 8, 8 and the newest 3, halved, in their order
    assert list(tt) == [(1,), (4,), (5,)]
    one = {(0,): 7}
    search.tt_make_room(one)
    assert one == {}


def test_the_public_solve_gives_the_same_solution_on_either_core(monkeypatch):
    games = [Game.from_deal(d) for d in (0, 7, 24, 546)] + [g for g in (mid_game(s, STANDARD, 6, 12) for s in range(4)) if g]
    compiled = [search.solve(g, max_nodes=5_000) for g in games]
    monkeypatch.setattr(core, "CORE", None)
    pure = [search.solve(g, max_nodes=5_000) for g in games]
    strip = lambda s: dataclasses.replace(s, seconds=0.0)  # noqa: E731
    assert [strip(s) for s in compiled] == [strip(s) for s in pure]
    assert any(s.status == "solved" for s in pure)


def _tail(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except TailLimit as e:
        return ("limit", e.steps)


def _compiled_tail(tail, earlier, n, limit, stacks, max_nodes, every):
    over, pats, steps = core.CORE.tail_patterns(list(tail), list(earlier), n, limit, stacks, -1 if max_nodes is None else max_nodes, -1.0, every)
    return ("limit", steps) if over else (pats, steps)


def test_the_backward_last_cards_search_agrees_pattern_by_pattern_and_step_by_step():
    rng = random.Random(18)
    cases = 0
    for deal in range(30):
        rules = STANDARD if deal % 3 else VARIANTS["three-square"]
        ranks = [c >> 2 for c in deal_deck(deal, rules)]
        n2 = rules.size * rules.size
        K = rng.randrange(n2, min(len(ranks), n2 + 6) + 1)
        k = rng.randrange(1, 5)
        tail, earlier = ranks[K - k : K], ranks[: K - k]
        stacks = rng.randrange(0, 4)
        for every in (True, False):
            for max_nodes in (None, 5, 300):
                py = _tail(lastcards.tail_patterns, tail, earlier, rules.size, rules.face_down_limit, stacks, max_nodes=max_nodes, every=every)
                c = _compiled_tail(tail, earlier, rules.size, rules.face_down_limit, stacks, max_nodes, every)
                assert (py[0] if py[0] == "limit" else int(py[0]), py[1]) == c, (deal, K, k, stacks, every, max_nodes)
                cases += 1
    assert cases == 180


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, 200, 20))
def test_the_twins_agree_on_many_deals_to_the_end(first):
    # 20,000 positions: most deals are settled well within it, the others stop at the
    # limit, where the twins must stop alike (the pure-Python side bounds the time)
    for deal in range(first, first + 20):
        py, c = twins(Game.from_deal(deal), 20_000)
        assert py == c, deal


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_twins_agree_under_every_variant_on_many_positions(name):
    rules = VARIANTS[name]
    for seed in range(40, 70):
        game = mid_game(seed, rules, seed % 12)
        if game is not None and game.placed < len(game.deck):
            py, c = twins(game, 5_000)  # (positions that stop at the limit must stop alike)
            assert py == c, (name, seed)


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "foursquare", *args], capture_output=True, text=True, env=env, timeout=60)


def test_version_names_the_core_and_the_variable_forces_the_python_twin():
    env = {k: v for k, v in os.environ.items() if k != core.PURE_PYTHON_VARIABLE}
    assert "search core: compiled (C)" in _run("--version", env=env).stdout
    pure = _run("--version", env={**env, core.PURE_PYTHON_VARIABLE: "1"})
    assert pure.returncode == 0 and "search core: pure Python" in pure.stdout
    off = _run("--version", env={**env, core.PURE_PYTHON_VARIABLE: "0"})
    assert "search core: compiled (C)" in off.stdout


#: The child of the Ctrl-C test: it interrupts itself with SIGINT after 0.2 s of its own
#: CPU time (ITIMER_VIRTUAL: a loaded machine delays it, it does not make it come
#: sooner or later in the search), and says how much CPU time the interrupted solve took.
_INTERRUPTED_SOLVE = """
import os, signal, time
from foursquare.solver import solve_deal
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGVTALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
began = time.process_time()
signal.setitimer(signal.ITIMER_VIRTUAL, 0.2)
try:
    print(solve_deal(325, max_nodes=None))
finally:
    print("cpu", time.process_time() - began, flush=True)
"""


def test_ctrl_c_stops_a_long_solve_inside_the_core_promptly():
    # deal 325 needs 3.5 million positions: 3 s of CPU in the core; the SIGINT comes
    # after 0.2 s of it, so a core that looks at signals stops long before its end
    env = {k: v for k, v in os.environ.items() if k != core.PURE_PYTHON_VARIABLE}
    proc = subprocess.run([sys.executable, "-c", _INTERRUPTED_SOLVE], capture_output=True, text=True, env=env, timeout=120)
    out, err = proc.stdout, proc.stderr
    spent = float(out.split("cpu ")[-1])
    assert "KeyboardInterrupt" in err and "Solution(" not in out
    assert proc.returncode != 0 and spent < 1.5, spent


def _along_the_win(deal: int, moves: int) -> Game:
    game = Game.from_deal(deal)
    for cell in search.solve(game, max_nodes=200_000).moves[:moves]:
        game.play(cell)
    return game


@pytest.mark.parametrize("moves", [9, 11])
def test_both_rule_out_positions_whose_last_cards_are_the_stacked_ones_alike(monkeypatch, moves):
    # Deal 64's 22 stacks its last two cards: the cards before them fill the grid, and
    # bounds.last_stacked_fail rules positions out on the way, in both searches alike.
    game = _along_the_win(64, moves)
    verdicts: list[bool] = []
    real = search.last_stacked_fail

    def counted(*args: object) -> bool:
        verdicts.append(real(*args))  # type: ignore[arg-type]
        return verdicts[-1]

    monkeypatch.setattr(search, "last_stacked_fail", counted)
    py, c = twins(game, None)
    assert py == c and py[0] == "solved"
    assert True in verdicts and False in verdicts  # it ruled some out, not all
    monkeypatch.setattr(search, "last_stacked_fail", lambda *args: False)
    without = twins(game, None)[0]
    assert without[:2] == py[:2] and without[3] > py[3]  # the same win, found with fewer positions


def test_a_full_tail_memo_is_emptied_at_the_same_moment_in_both():
    """The backward search's memo is capped in positions (lastcards.TAIL_MEMO_MAX) in both
    cores alike: under a small cap they give the same patterns and the same steps, and the
    patterns are those of the search without a cap."""
    rng = random.Random(9)
    for deal in range(12):
        ranks = [c >> 2 for c in deal_deck(deal, STANDARD)]
        stacks = rng.randrange(0, 3)
        K = 16 + stacks
        tail, earlier = ranks[K - 3 : K], ranks[: K - 3]
        free = lastcards.tail_patterns(tail, earlier, 4, 4, stacks, every=True)
        for most in (1, 3, 50):
            py = lastcards.tail_patterns(tail, earlier, 4, 4, stacks, every=True, memo_max=most)
            over, pats, steps = core.CORE.tail_patterns(list(tail), list(earlier), 4, 4, stacks, -1, -1.0, True, most)
            assert not over and (pats, steps) == py, (deal, most)
            assert py[0] == free[0]


def test_the_default_caps_are_the_same_in_both_cores():
    """The transposition table and the tail memo: one cap each, in positions, for both cores."""
    assert search.TT_MAX_ENTRIES == 1 << 21 and lastcards.TAIL_MEMO_MAX == 1 << 19
    assert f"memo_max={lastcards.TAIL_MEMO_MAX}" in (core.CORE.tail_patterns.__text_signature__ or "")
