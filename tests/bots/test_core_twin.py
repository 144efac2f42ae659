"""The bots' compiled search (``bots_root`` in foursquare/solver/_core.c) against its pure-Python twin.

:class:`~foursquare.bots.expectimax.CoreSearch` and
:class:`~foursquare.bots.expectimax.Search` are one algorithm: for every position,
rule set, width, depth and limit they must give the same list (cells in the same
order, floats bit for bit), the same node count, stop at the same placement and set
``used_evaluation`` alike.  Skipped where the core is not built (or
FOURSQUARE_PURE_PYTHON is set); the fallback tests run everywhere.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare import Game
from foursquare.bots import get_bot
from foursquare.bots._board import Board
from foursquare.bots.evaluation import DEFAULT_WEIGHTS, Weights
from foursquare.bots.expectimax import CoreSearch, DeepBot, Search, _Stop, new_search
from foursquare.engine.rules import PRESETS, STANDARD, Adjacency, LayoutKind, Ties
from foursquare.solver import core

compiled_only = pytest.mark.skipif(core.CORE is None, reason="the compiled core is not built (or FOURSQUARE_PURE_PYTHON is set)")

#: Every preset: the standard game, a fixed board, other sizes (3x3: a small frame and
#: piles that run out of room; 5x5: the rough estimate), ties counting, self_flip, ...;
#: and rule sets at the ends of the ranges: the largest frame (6x6 floating, 121 cells),
#: a 6x6 fixed board, piles of one card that soon leave no legal cell, no face-down card
#: allowed, ties counting with diagonal neighbours on a fixed board.
RULES = {
    **PRESETS,
    "six-floating": dataclasses.replace(STANDARD, size=6, ranks=13, face_down_limit=8),
    "six-fixed": dataclasses.replace(STANDARD, size=6, layout=LayoutKind.FIXED, ranks=13, suits=3, face_down_limit=8),
    "cap-1": dataclasses.replace(STANDARD, size=3, pile_cap=1, face_down_limit=2, ranks=4, suits=3),
    "limit-0": dataclasses.replace(STANDARD, face_down_limit=0),
    "fixed-diagonal-ties": dataclasses.replace(STANDARD, layout=LayoutKind.FIXED, adjacency=Adjacency.EDGE_OR_CORNER, ties=Ties.COUNT),
}


def random_position(name: str, deal: int, seed: int, moves: int) -> Game | None:
    """Deal ``deal`` under a preset after up to ``moves`` random legal placements (``None`` if it ended)."""
    rng = random.Random(seed)
    game = Game.from_deal(deal, RULES[name])
    for _ in range(moves):
        if game.is_over:
            return None
        game.play(rng.choice(game.legal_cells()))
    return None if game.is_over else game


def run(cls: type[Search], game: Game, weights: Weights, width: int | None, plan: list[tuple[int, float, float | None]]) -> list[str]:
    """What a search of ``game`` says, searched as ``SearchBot`` does (one search, several
    roots): per ``(depth, node limit, deadline)`` of ``plan``, the root's list or the
    stop, then the node count and ``used_evaluation``; floats by ``repr`` (bit for bit)."""
    board = Board(game.view())
    cells = board.legal()
    x = game.next_card >> 2
    search = cls(board, weights, width)
    said = []
    for depth, limit, deadline in plan:
        search.node_limit, search.deadline = limit, deadline
        search.used_evaluation = False
        try:
            said.append(repr(search.root(cells, x, depth)))
        except _Stop:
            said.append("stopped")
            board = Board(game.view())  # a stopped Python search leaves its board as it was mid-search
            search.board = board
        said.append(repr((search.nodes, search.used_evaluation)))
    return said


limits = st.one_of(st.integers(min_value=1, max_value=4_000), st.just(float("inf")))
#: no deadline, one long past (the check every 128 placements stops both at the 128th),
#: one far away (checked, never reached): none depends on the machine's speed
deadlines = st.sampled_from([None, 0.0, 1e300])


@compiled_only
@settings(max_examples=250, deadline=None)
@given(
    name=st.sampled_from(sorted(RULES)),
    deal=st.integers(min_value=0, max_value=2**64 - 1),
    seed=st.integers(min_value=0, max_value=2**32),
    moves=st.integers(min_value=0, max_value=30),
    width=st.one_of(st.none(), st.integers(min_value=1, max_value=8)),
    deep_weights=st.booleans(),
    plan=st.lists(st.tuples(st.integers(min_value=1, max_value=4), limits, deadlines), min_size=1, max_size=3),
)
def test_the_twins_agree_on_every_list_float_node_count_and_stop(name, deal, seed, moves, width, deep_weights, plan):
    game = random_position(name, deal, seed, moves)
    if game is None:
        return
    # an unlimited search of 3 or 4 placements can take the Python twin minutes: those get a limit
    plan = [(d, lim if d <= 2 or lim != float("inf") else 4_000, dl) for d, lim, dl in plan]
    weights = DeepBot.WEIGHTS if deep_weights else DEFAULT_WEIGHTS
    assert run(CoreSearch, game, weights, width, plan) == run(Search, game, weights, width, plan)


@compiled_only
@pytest.mark.parametrize("name", sorted(RULES))
def test_the_twins_stop_mid_search_at_the_same_placement(name):
    stops = 0
    for deal in range(6):
        # 8 placements in, or fewer where random play soon loses (no face-down card allowed)
        game = next((g for moves in (8, 3, 1) if (g := random_position(name, deal, deal, moves))), None)
        if game is None:
            continue
        for limit in (1, 17, 129, 1_000):
            plan = [(3, float(limit), None)]
            c, py = run(CoreSearch, game, DeepBot.WEIGHTS, 6, plan), run(Search, game, DeepBot.WEIGHTS, 6, plan)
            assert c == py
            stops += c[0] == "stopped"
    assert stops >= 4  # the limits did stop searches mid-way


@compiled_only
@pytest.mark.parametrize("name", ["standard", "three-square", "five-square", "self-flip"])
def test_each_search_bot_answers_alike_on_either_core(name, monkeypatch):
    """The bots as they run (iterative deepening, limits, the one-placement fallback):
    the same estimates with the compiled search and with the Python twin."""
    games = [g for g in (random_position(name, d, d, m) for d in range(3) for m in (2, 9, 16)) if g]
    bots = [get_bot("greedy"), get_bot("expectimax"), get_bot("deep", nodes=20_000), DeepBot(nodes=3_000, width=None)]
    compiled = [bot.estimates(g) for g in games for bot in bots]
    monkeypatch.setattr(core, "CORE", None)
    assert type(new_search(Board(games[0].view()))) is Search
    assert [bot.estimates(g) for g in games for bot in bots] == compiled


@compiled_only
def test_the_compiled_search_refuses_a_board_it_cannot_hold():
    game = Game.from_deal(3)
    board = Board(game.view())
    with pytest.raises(ValueError, match="a cell outside the frame"):
        CoreSearch(board).root([board.geo.ncells], game.next_card >> 2, 2)


def test_the_fallback_is_taken_where_the_core_does_not_fit():
    board = Board(Game.from_deal(3).view())
    # a width below 1 (no bot's) is left to the Python twin
    assert type(new_search(board, width=0)) is Search
    assert type(new_search(board, width=None)) is (Search if core.CORE is None else CoreSearch)


def test_the_variable_switches_the_bots_to_the_python_twin():
    env = {k: v for k, v in os.environ.items() if k != core.PURE_PYTHON_VARIABLE}
    code = (
        "from foursquare import Game; from foursquare.bots._board import Board; "
        "from foursquare.bots.expectimax import new_search; "
        "print(type(new_search(Board(Game.from_deal(3).view()))).__name__)"
    )
    kinds = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, core.PURE_PYTHON_VARIABLE: value}, check=True).stdout.strip()
        for value in ("1", "0")
    ]
    assert kinds[0] == "Search"
    built = importlib.util.find_spec("foursquare.solver._core") is not None
    assert kinds[1] == ("CoreSearch" if built else "Search")


#: The child of the Ctrl-C test: a search of five placements with no limit (minutes in
#: the core), interrupted by SIGINT after 0.2 s of its own CPU time (ITIMER_VIRTUAL: a
#: loaded machine delays it, it does not move it within the search).
_INTERRUPTED_SEARCH = """
import os, signal, time
from foursquare import Game
from foursquare.bots import get_bot
from foursquare.bots.expectimax import SearchBot
game = Game.from_deal(0)
for _ in range(4):
    game.play(get_bot("greedy").choose(game))
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGVTALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))
began = time.process_time()
signal.setitimer(signal.ITIMER_VIRTUAL, 0.2)
try:
    print(SearchBot(depth=5).estimates(game))
finally:
    print("cpu", time.process_time() - began, flush=True)
"""


@compiled_only
@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="POSIX interval timers")
def test_ctrl_c_stops_a_long_search_inside_the_core_promptly():
    env = {k: v for k, v in os.environ.items() if k != core.PURE_PYTHON_VARIABLE}
    proc = subprocess.run([sys.executable, "-c", _INTERRUPTED_SEARCH], capture_output=True, text=True, env=env, timeout=300)
    spent = float(proc.stdout.split("cpu ")[-1])
    assert "KeyboardInterrupt" in proc.stderr and "Estimate(" not in proc.stdout
    assert proc.returncode != 0 and spent < 1.5, spent
