"""Solver figures: deals settled, scores, time and nodes per deal; the compiled core beside
its pure-Python twin and the plain reference search, on the same deals in one run.

A plain script (not a test): ``nice python benchmarks/bench_solver.py --deals 0-999 --jobs 2``.

1. Every deal of ``--deals`` with :func:`foursquare.solver.solve_deals` (the core in use,
   ``foursquare --version`` says which): the summary of
   :func:`foursquare.solver.analysis.summarize`, then the median, p90, p99 and worst time
   per deal and the deals left unknown.
2. ``--compare N`` deals (the first N of the range), each solved in this process three
   ways: the compiled core, the pure-Python twin (the same search: the node counts must
   match) and the plain reference search on the engine (:mod:`foursquare.solver.reference`,
   iterative deepening with a translation-keyed table), each best of ``--repeat`` runs;
   per-deal ratios (median, worst) and the ratio of the totals.  The reference gets
   ``--reference-timeout`` seconds a deal; a deal it cannot settle in that time counts
   with that time (so the ratio is a lower bound).
3. Per-call overhead: :func:`foursquare.solver.solve` on positions a few cards from the
   end (tens of positions each), as a bot's hint calls it many times, compiled and pure.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from foursquare import Game
from foursquare.engine.game import Status
from foursquare.solver import DEFAULT_MAX_NODES, UNKNOWN, core, solve, solve_deals
from foursquare.solver.analysis import summarize
from foursquare.solver.board import Board
from foursquare.solver.reference import solve_with_engine
from foursquare.solver.search import Search


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def run_search(game: Game, compiled: bool, max_nodes: int) -> tuple[float, int, object]:
    """Seconds, nodes and result of the fast search on ``game`` (as :func:`solve` does it), compiled or pure."""
    t = time.perf_counter()
    s = Search(Board(game), [c >> 2 for c in game.deck], game.placed, max_nodes, None, t, compiled=compiled)
    result = s.run()
    return time.perf_counter() - t, s.nodes, result[:2]


def best_of(repeat: int, fn):  # type: ignore[no-untyped-def]
    """The run with the least time of ``repeat`` runs of ``fn()`` (which returns (seconds, ...)), gc off."""
    gc.disable()
    try:
        return min((fn() for _ in range(repeat)), key=lambda r: r[0])
    finally:
        gc.enable()


def ms(x: float) -> str:
    return f"{1000 * x:.2f} ms"


def compare(deals: list[int], max_nodes: int, repeat: int, reference_timeout: float) -> None:
    print(f"\n== side by side on {len(deals)} deals (best of {repeat}; reference: {reference_timeout:g} s a deal at most)")
    rows = []
    for d in deals:
        game = Game.from_deal(d)
        c = best_of(repeat, lambda game=game: run_search(game, True, max_nodes))
        p = best_of(repeat, lambda game=game: run_search(game, False, max_nodes))
        assert c[1:] == p[1:], f"deal {d}: compiled {c[1:]} != pure Python {p[1:]}"
        t = time.perf_counter()
        status, _, _, rnodes = solve_with_engine(game, max_nodes=None, timeout=reference_timeout)
        r = time.perf_counter() - t
        rows.append((d, c[0], p[0], r, status is not UNKNOWN, c[1]))
    c_times = [r[1] for r in rows]
    p_times = [r[2] for r in rows]
    r_times = [r[3] for r in rows]
    print(f"compiled:     median {ms(statistics.median(c_times))}, worst {ms(max(c_times))}, total {sum(c_times):.3f} s")
    print(f"pure Python:  median {ms(statistics.median(p_times))}, worst {ms(max(p_times))}, total {sum(p_times):.3f} s "
          "(same nodes on every deal)")
    settled = sum(r[4] for r in rows)
    print(f"reference:    median {ms(statistics.median(r_times))}, worst {ms(max(r_times))}, total {sum(r_times):.1f} s; "
          f"settled {settled}/{len(rows)}")
    cp = [p / c for _, c, p, *_ in rows]
    rc = [r / c for _, c, _, r, *_ in rows]
    print(f"compiled vs pure Python: per deal median {statistics.median(cp):.0f}x (min {min(cp):.0f}x, max {max(cp):.0f}x); "
          f"totals {sum(p_times) / sum(c_times):.0f}x")
    bound = "" if settled == len(rows) else " (a lower bound: the reference did not settle every deal)"
    print(f"compiled vs reference:   per deal median {statistics.median(rc):.0f}x (min {min(rc):.0f}x); "
          f"totals {sum(r_times) / sum(c_times):.0f}x{bound}")


def overhead(samples: int) -> None:
    print(f"\n== per-call overhead: solve() on positions 4 cards from the end of a win, {samples} calls each")
    games = []
    for d in range(40):
        sol = solve(Game.from_deal(d))
        if sol.status == "solved" and len(sol.moves) > 4:
            g = Game.from_deal(d)
            for cell in sol.moves[:-4]:
                g.play(cell)
            if g.status is Status.PLAYING:
                games.append(g)
    saved = core.CORE
    for label, choice in (("compiled", saved), ("pure Python", None)):
        if label == "compiled" and saved is None:
            print("compiled: not built")
            continue
        core.CORE = choice
        try:
            times, nodes = [], []
            gc.disable()
            for i in range(samples):
                g = games[i % len(games)]
                t = time.perf_counter()
                s = solve(g)
                times.append(time.perf_counter() - t)
                nodes.append(s.nodes)
            gc.enable()
        finally:
            core.CORE = saved
        print(f"{label:12s} median {1e6 * statistics.median(times):.0f} us a call, p90 {1e6 * percentile(times, 0.9):.0f} us "
              f"(median {statistics.median(nodes):.0f} positions)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="0-59", help="A-B, or a comma list of deals and ranges (default 0-59)")
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    ap.add_argument("--timeout", type=float, default=None, help="seconds per deal")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--compare", type=int, default=20, help="deals solved side by side (the first of the range; 0: none)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side-by-side solve (the best counts)")
    ap.add_argument("--reference-timeout", type=float, default=30.0, help="seconds a deal for the reference search")
    ap.add_argument("--overhead", type=int, default=2000, help="solve() calls for the per-call overhead (0: none)")
    args = ap.parse_args()
    deals = []
    for part in args.deals.split(","):
        a, _, b = part.strip().partition("-")
        deals += range(int(a), int(b or a) + 1)
    print(f"search core: {core.describe()}")
    t0 = time.perf_counter()
    c0 = time.process_time()
    results = list(solve_deals(deals, max_nodes=args.max_nodes, timeout=args.timeout, jobs=args.jobs))
    wall = time.perf_counter() - t0
    summary = summarize(s for _, s in results)
    print(f"deals {args.deals} ({len(deals)}), max_nodes {args.max_nodes}, jobs {args.jobs}, wall {wall:.1f} s"
          + (f" (this process's CPU {time.process_time() - c0:.1f} s)" if args.jobs <= 1 else ""))
    for line in summary.lines():
        print(line)
    secs = [s.seconds for _, s in results]
    print(f"time per deal: median {ms(statistics.median(secs))}, p90 {ms(percentile(secs, 0.9))}, "
          f"p99 {ms(percentile(secs, 0.99))}, worst {ms(max(secs))}")
    unknown = [d for d, s in results if s.status == UNKNOWN]
    print(f"unknown deals ({len(unknown)}): {' '.join(map(str, unknown))}")
    below = [(d, s.score) for d, s in results if s.score is not None and s.score < 24]
    print(f"solved below 24 ({len(below)}): {' '.join(f'{d}:{sc}' for d, sc in below)}")
    slow = sorted(results, key=lambda r: -r[1].seconds)[:5]
    print("slowest: " + ", ".join(f"{d} ({s.status}, {s.nodes} nodes, {s.seconds:.2f} s)" for d, s in slow))
    if args.compare and core.COMPILED:
        compare(deals[: args.compare], args.max_nodes, args.repeat, args.reference_timeout)
    if args.overhead:
        overhead(args.overhead)


if __name__ == "__main__":
    main()
