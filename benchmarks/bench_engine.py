"""Engine speed: placements per second over random playouts, games per second, perft.

A plain script (not a test): ``python benchmarks/bench_engine.py``.  Each figure
is measured ``--repeat`` times and the median is printed, with the range.
Times are the process's CPU time (``time.process_time``), so that other work
on a shared machine disturbs the figures less than it would wall-clock time.

- placements/s: random playouts from many deals; only the placement work is
  timed (``legal_cells()``, a random pick, then ``play()`` until the game
  ends).  Each game is dealt just before its playout, outside the clock.
- games/s: the same playouts with the deal (``Game.from_deal``) inside the clock.
- perft: the number of move sequences of a given length from deal 1
  (RULES.md §9), by play/undo depth-first search.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from foursquare.engine.game import Game, perft
from foursquare.engine.rules import get_rules


def playout(game: Game, rng: random.Random) -> int:
    """Play ``game`` to its end with uniformly random legal cells; return the placements made.

    The cell is picked as ``legal[int(random() * len(legal))]``, which costs a
    third of ``random.choice``: the figure is meant to measure the engine.
    """
    pick = rng.random
    n = 0
    legal = game.legal_cells()
    while legal:
        game.play(legal[int(pick() * len(legal))])
        n += 1
        legal = game.legal_cells()
    return n


def bench_placements(deals: range, rules, seed: int) -> tuple[float, int]:
    """CPU seconds spent in random playouts of ``deals`` (the deals themselves not timed), and placements made.

    Each game is dealt just before its playout, so that the placement work is
    timed as a program would do it (on a game it has at hand), not on thousands
    of games dealt in advance.
    """
    rng = random.Random(seed)
    clock = time.process_time
    seconds = 0.0
    n = 0
    for d in deals:
        game = Game.from_deal(d, rules)
        t0 = clock()
        n += playout(game, rng)
        seconds += clock() - t0
    return seconds, n


def bench_games(deals: range, rules, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    t0 = time.process_time()
    for d in deals:
        playout(Game.from_deal(d, rules), rng)
    return time.process_time() - t0, len(deals)




def report(name: str, values: list[float], unit: str) -> None:
    med = statistics.median(values)
    spread = f"(min {min(values):,.1f}, max {max(values):,.1f}, runs {len(values)})"
    print(f"{name:<28} median {med:>12,.1f} {unit}   {spread}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="playouts per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--depth", type=int, default=5, help="perft depth from deal 1 (default 5; 0 skips)")
    parser.add_argument("--rules", default="standard", help="rule preset (default standard)")
    parser.add_argument("--profile", action="store_true", help="profile one placement run with cProfile instead")
    parser.add_argument("--placements-only", action="store_true", help="print only the placements/s figure")
    args = parser.parse_args(argv)
    rules = get_rules(args.rules)

    if args.profile:
        import cProfile
        import pstats

        games = [Game.from_deal(d, rules) for d in range(args.games)]
        prof = cProfile.Profile()
        rng = random.Random(0)
        prof.runcall(lambda: [playout(g, rng) for g in games])
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0

    print(f"foursquare engine, {rules.label} rules, Python {sys.version.split()[0]}")
    rates, counts = [], []
    for run in range(args.repeat):
        seconds, n = bench_placements(range(run * args.games, (run + 1) * args.games), rules, run)
        rates.append(n / seconds)
        counts.append(n)
    report("placements/s (legal+play)", rates, "/s")
    if args.placements_only:
        return 0
    print(f"{'':<28} {statistics.mean(counts) / args.games:.1f} placements per game on average")
    rates = []
    for run in range(args.repeat):
        seconds, n = bench_games(range(run * args.games, (run + 1) * args.games), rules, run)
        rates.append(n / seconds)
    report("games/s (deal+playout)", rates, "/s")
    if args.depth:
        times = []
        for _ in range(args.repeat):
            game = Game.from_deal(1, rules)
            t0 = time.process_time()
            count = perft(game, args.depth)
            times.append((time.process_time() - t0) * 1000)
        report(f"perft(deal 1, {args.depth}) = {count}", times, "ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
