"""Solver figures: deals settled, scores, time and nodes per deal over a range of deal numbers.

A plain script (not a test): ``nice python benchmarks/bench_solver.py --deals 0-59``.
Prints the summary of :func:`foursquare.solver.analysis.summarize` (median and worst
time per deal, nodes) and the deals left unknown.
"""

from __future__ import annotations

import argparse
import time

from foursquare.solver import DEFAULT_MAX_NODES, UNKNOWN, solve_deals
from foursquare.solver.analysis import summarize


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="0-59", help="A-B, or a comma list of deals and ranges (default 0-59)")
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    ap.add_argument("--timeout", type=float, default=None, help="seconds per deal")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    deals = []
    for part in args.deals.split(","):
        a, _, b = part.strip().partition("-")
        deals += range(int(a), int(b or a) + 1)
    t0 = time.perf_counter()
    results = list(solve_deals(deals, max_nodes=args.max_nodes, timeout=args.timeout, jobs=args.jobs))
    wall = time.perf_counter() - t0
    summary = summarize(s for _, s in results)
    print(f"deals {args.deals} ({len(deals)}), max_nodes {args.max_nodes}, jobs {args.jobs}, wall {wall:.1f} s")
    for line in summary.lines():
        print(line)
    unknown = [d for d, s in results if s.status == UNKNOWN]
    print(f"unknown deals ({len(unknown)}): {' '.join(map(str, unknown))}")
    below = [(d, s.score) for d, s in results if s.score is not None and s.score < 24]
    print(f"solved below 24 ({len(below)}): {' '.join(f'{d}:{sc}' for d, sc in below)}")
    slow = sorted(results, key=lambda r: -r[1].seconds)[:5]
    print("slowest: " + ", ".join(f"{d} ({s.status}, {s.nodes} nodes, {s.seconds:.2f} s)" for d, s in slow))


if __name__ == "__main__":
    main()
