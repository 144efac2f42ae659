"""The transposition table's size and policy on a fixed set of hard deals.

A plain script (not a test):
``nice -n 5 python benchmarks/bench_tt.py --deals 325 --max-nodes 4000000``.

Each deal is searched from the start (as :func:`foursquare.solver.solve` does it) with a
table of at most ``--tt-max`` positions (the default: the library's default), one deal at
a time, and one line printed a deal: the outcome, the bound, the positions searched, the
CPU seconds, and the positions of each budget the search finished (``K:positions``):
under a node limit, the budgets both runs finished are the fair comparison of two tables.
"""

from __future__ import annotations

import argparse
import time

from foursquare import Game
from foursquare.solver import search as search_module
from foursquare.solver.board import Board
from foursquare.solver.search import Search


class Logged(Search):
    """A :class:`Search` that records the positions each budget took."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.log: list[tuple[int, int]] = []

    def search_budget(self, K: int, path: list[int], pats: tuple[int, int] = (1, 0)) -> bool:
        start = self.nodes
        found = super().search_budget(K, path, pats)  # the limit raises: that budget is not logged
        self.log.append((K, self.nodes - start))
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", required=True, help="deal numbers, comma-separated")
    parser.add_argument("--max-nodes", type=int, required=True)
    parser.add_argument("--tt-max", type=int, default=None, help="the table's most positions (default: the library's)")
    args = parser.parse_args()
    total_cpu = 0.0
    for deal in (int(d) for d in args.deals.split(",")):
        game = Game.from_deal(deal)
        wall, cpu = time.perf_counter(), time.process_time()
        s = Logged(Board(game), [c >> 2 for c in game.deck], 0, args.max_nodes, None, wall)
        if args.tt_max is not None:
            s.tt_max = args.tt_max
        status, cards, _ = s.run()
        cpu = time.process_time() - cpu
        total_cpu += cpu
        budgets = " ".join(f"{K}:{n}" for K, n in s.log)
        print(f"{deal} {status} {40 - cards} {s.nodes} {cpu:.2f} {budgets}", flush=True)
    print(f"# tt_max {args.tt_max or search_module.TT_MAX_ENTRIES}; CPU {total_cpu:.1f} s", flush=True)


if __name__ == "__main__":
    main()
