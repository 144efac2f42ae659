"""Bot speed (seconds per move) and the calibration of the bots' estimates.

A plain script (not a test)::

    python benchmarks/bench_bots.py                     # seconds per move, every bot
    python benchmarks/bench_bots.py --bots deep --budget 1
    python benchmarks/bench_bots.py --calibrate --deals 1000-1399

- Speed: positions are taken along games of ``--deals`` played by the
  ``expectimax`` bot; each bot answers each position ``--repeat`` times and the
  median, 90th percentile and worst of the per-position medians are printed
  (seconds).  Strength (win rate, mean score) is measured with the tool itself:
  ``foursquare simulate --bot NAME --deals A-B --format markdown``.
- Calibration: plays ``--deals`` with the ``expectimax`` bot, and for every
  position after a placement records the face-down count D, the missing piles
  M, whether the game was then won and how many more cards the win took; prints
  the table :data:`foursquare.bots.evaluation.CALIBRATION` holds (entries seen
  at least 10 times, the win chance shrunk towards 0.95 by 10 pseudo-games).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from foursquare.bots import BOTS, get_bot
from foursquare.game import Game


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
    bot = get_bot("expectimax")
    stats: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for deal in deals:
        game = Game.from_deal(deal)
        trajectory = []
        while not game.is_over:
            game.play(bot.choose(game.view()))
            if not game.is_over:
                trajectory.append((game.face_down, game.rules.size**2 - len(game.grid()), game.placed))
        won = game.score is not None
        for down, missing, placed in trajectory:
            entry = stats[(down, missing)]
            entry[0] += 1
            entry[1] += won
            entry[2] += game.placed - placed if won else 0
    print("CALIBRATION = {")
    for (down, missing), (n, wins, extra) in sorted(stats.items()):
        if n >= 10 and wins:
            print(f"    ({down}, {missing}): ({(wins + 9.5) / (n + 10):.3f}, {extra / wins:.1f}),  # {n} positions")
    print("}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", nargs="+", default=list(BOTS), choices=list(BOTS))
    parser.add_argument("--deals", default="0-4", help="deal range A-B (default 0-4)")
    parser.add_argument("--every", type=int, default=3, help="take a position every N placements")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move (default: none)")
    parser.add_argument("--calibrate", action="store_true", help="print the calibration table instead")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(_deals(args.deals))
    else:
        bench_speed(args.bots, _deals(args.deals), args.every, args.repeat, args.budget)


if __name__ == "__main__":
    main()
