"""Bot speed (seconds per move) and the calibration of the bots' estimates.

A plain script (not a test)::

    python benchmarks/bench_bots.py                     # seconds per move, every bot
    python benchmarks/bench_bots.py --bots deep --budget 1
    python benchmarks/bench_bots.py --calibrate --deals 1000-1299   # needs numpy
    python benchmarks/bench_bots.py --solver-calls --deals 0-4   # the expert bot's cost per sample
    python benchmarks/bench_bots.py --tail-cache --bots expert --deals 5000-5002   # CPU a move, cache off / on

- Speed: positions are taken along games of ``--deals`` played by the
  ``expectimax`` bot; each bot answers each position ``--repeat`` times and the
  median, 90th percentile and worst of the per-position medians are printed
  (seconds).  Strength (win rate, mean score) is measured with the tool itself:
  ``foursquare simulate --bot NAME --deals A-B --format markdown``.
- Calibration: plays ``--deals`` with the ``expectimax`` bot, and for every
  position after a placement records the face-down count D, the missing piles
  M, the stock, whether the game was then won and how many more cards the win
  took; fits the models :data:`foursquare.bots.evaluation.WIN_MODEL` (logistic
  regression) and :data:`~foursquare.bots.evaluation.EXTRA_MODEL` (least
  squares) and prints them, with the current model's predicted against observed
  win rates by band.
- Solver calls (``--solver-calls``): what one sample of the ``expert`` bot costs, at
  the positions where it samples (8 piles or more), side by side: drawing a sample
  (a :class:`Game` built by ``PlayerView.sample``), placing and taking back the card,
  a call of ``solve`` on a finished game (the call's fixed cost), a call limited to
  one position (the cost of setting up a search), and the real solve at the bot's
  limit; medians and worst, in microseconds, and each as a share of the real solve.
- Tail cache (``--tail-cache``): the games of ``--deals`` as ``simulate`` plays them
  (the same move seeds), each move of each bot of ``--bots`` answered twice in turn, with
  the cache of the backward last-cards search (``foursquare.solver.lastcards.TAIL_CACHE``)
  switched off and on; the answers must be the same; CPU seconds a move (median, p90,
  worst, total) of each, side by side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from foursquare.bots import BOTS, get_bot
from foursquare.bots.simulate import deal_seed
from foursquare.engine.game import Game
from foursquare.solver import lastcards


def _deals(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def positions(deals: range, every: int) -> list[Game]:
    """Copies of the games of ``deals`` (played by expectimax) every ``every`` placements."""
    bot = get_bot("expectimax")
    out = []
    for deal in deals:
        game = Game.from_deal(deal)
        while not game.is_over:
            if game.placed % every == 0:
                out.append(game.copy())
            game.play(bot.choose(game.view()))
    return out


def bench_speed(names: list[str], deals: range, every: int, repeat: int, budget: float | None) -> None:
    games = positions(deals, every)
    print(f"{len(games)} positions from deals {deals.start}-{deals.stop - 1}, budget {budget}, {repeat} repeats")
    print(f"{'bot':12} {'median s':>10} {'p90 s':>10} {'worst s':>10}")
    for name in names:
        bot = get_bot(name)
        per_position = []
        for game in games:
            view = game.view()
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                bot.estimates(view, budget)
                times.append(time.perf_counter() - t0)
            per_position.append(statistics.median(times))
        per_position.sort()
        p90 = per_position[min(len(per_position) - 1, int(0.9 * len(per_position)))]
        print(f"{name:12} {statistics.median(per_position):10.5f} {p90:10.5f} {per_position[-1]:10.5f}", flush=True)


def calibrate(deals: range) -> None:
    import numpy as np

    from foursquare.bots.evaluation import estimate_of

    bot = get_bot("expectimax")
    rows = []  # (D, M, stock, won, cards the win took)
    for deal in deals:
        game = Game.from_deal(deal)
        trajectory = []
        while not game.is_over:
            game.play(bot.choose(game.view()))
            if not game.is_over:
                trajectory.append((game.face_down, game.rules.size**2 - len(game.grid), game.stock_count))
        won = game.score is not None
        rows += [(d, m, s, won, s - (game.score or 0)) for d, m, s in trajectory]
    data = np.array(rows, dtype=float)
    down, missing, stock, won, took = data.T
    x = np.stack([np.ones_like(down), down, missing, np.log1p(np.maximum(stock - missing, 0))], 1)
    w = np.zeros(x.shape[1])
    for _ in range(50):  # Newton's method, a touch of ridge
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hessian, x.T @ (won - p) - 1e-3 * w)
    wins = won == 1
    a = np.stack([np.ones_like(down), missing, down], 1)
    extra, *_ = np.linalg.lstsq(a[wins], took[wins], rcond=None)
    print(f"{len(rows)} positions, {int(wins.sum())} of them in games won")
    print("WIN_MODEL =", tuple(round(float(v), 4) for v in w))
    print("EXTRA_MODEL =", tuple(round(float(v), 3) for v in extra))
    predicted = np.array([estimate_of(int(d), int(m), int(s))[0] for d, m, s in zip(down, missing, stock, strict=False)])
    for lo, hi in [(0, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.0)]:
        band = (predicted >= lo) & (predicted < hi)
        if band.any():
            print(f"  current model {lo:.2f}-{hi:.2f}: {int(band.sum())} positions, "
                  f"predicted {predicted[band].mean():.3f}, observed {won[band].mean():.3f}")


def bench_solver_calls(deals: range, every: int) -> None:
    import random

    from foursquare.bots.pimc import ExpertBot
    from foursquare.solver.search import solve

    bot = ExpertBot()
    games = [g for g in positions(deals, every) if len(g.grid) >= bot.from_piles and not g.is_over]
    parts: dict[str, list[float]] = {"sample (build a Game)": [], "play + undo": [], "solve, game over": [],
                                     "solve, 1 position": [], f"solve, {bot.solver_nodes} positions": []}
    rng = random.Random(0)
    clock = time.perf_counter
    for game in games:
        view = game.view()
        cell = view.legal_cells()[0]
        for _ in range(8):
            t0 = clock()
            sample = view.sample(rng)
            t1 = clock()
            sample.play(cell)
            sample.undo()
            t2 = clock()
            parts["sample (build a Game)"].append(t1 - t0)
            parts["play + undo"].append(t2 - t1)
            sample.play(cell)
            t0 = clock()
            solve(sample, max_nodes=1)
            parts["solve, 1 position"].append(clock() - t0)
            t0 = clock()
            solve(sample, max_nodes=bot.solver_nodes)
            parts[f"solve, {bot.solver_nodes} positions"].append(clock() - t0)
            sample.undo()
        over = game.copy()
        while not over.is_over:
            over.play(over.legal_cells()[0])
        for _ in range(8):
            t0 = clock()
            solve(over, max_nodes=bot.solver_nodes)
            parts["solve, game over"].append(clock() - t0)
    full = statistics.median(parts[f"solve, {bot.solver_nodes} positions"])
    print(f"{len(games)} positions with {bot.from_piles} piles or more from deals {deals.start}-{deals.stop - 1}, 8 samples each")
    print(f"{'part':28} {'median us':>10} {'worst us':>10} {'of a solve':>10}")
    for name, times in parts.items():
        median = statistics.median(times)
        print(f"{name:28} {1e6 * median:10.1f} {1e6 * max(times):10.1f} {median / full:10.1%}", flush=True)


def bench_tail_cache(names: list[str], deals: range) -> None:
    """CPU seconds a move with the tail cache off and on, the same moves (see the module text)."""
    size = lastcards.TAIL_CACHE_MAX
    for name in names:
        bot = get_bot(name)
        times: dict[str, list[float]] = {"off": [], "on": []}
        for deal in deals:
            game = Game.from_deal(deal)
            rng = random.Random(deal_seed(0, deal))
            while not game.is_over:
                view = game.view()
                seed = rng.getrandbits(64)
                answers = []
                for mode in ("off", "on"):
                    lastcards.TAIL_CACHE_MAX = size if mode == "on" else 0
                    t0 = time.process_time()
                    answers.append(bot.estimates(view, None, seed))
                    times[mode].append(time.process_time() - t0)
                assert answers[0] == answers[1], (name, deal, game.placed)
                game.play(answers[1][0].cell)
        lastcards.TAIL_CACHE_MAX = size
        print(f"{name}: {len(times['on'])} moves of deals {deals.start}-{deals.stop - 1}, CPU seconds a move")
        print(f"{'tail cache':12} {'median':>8} {'p90':>8} {'worst':>8} {'total':>8}")
        for mode, xs in times.items():
            xs.sort()
            p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
            print(f"{mode:12} {statistics.median(xs):8.3f} {p90:8.3f} {xs[-1]:8.3f} {sum(xs):8.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", nargs="+", default=list(BOTS), choices=list(BOTS))
    parser.add_argument("--deals", default="0-4", help="deal range A-B (default 0-4)")
    parser.add_argument("--every", type=int, default=3, help="take a position every N placements")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move (default: none)")
    parser.add_argument("--calibrate", action="store_true", help="print the calibration table instead")
    parser.add_argument("--solver-calls", action="store_true", help="time the parts of the expert bot's samples instead")
    parser.add_argument("--tail-cache", action="store_true", help="CPU a move of --bots with the tail cache off and on instead")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(_deals(args.deals))
    elif args.solver_calls:
        bench_solver_calls(_deals(args.deals), args.every)
    elif args.tail_cache:
        bench_tail_cache(args.bots, _deals(args.deals))
    else:
        bench_speed(args.bots, _deals(args.deals), args.every, args.repeat, args.budget)


if __name__ == "__main__":
    main()
