"""How long a hint at the prompt takes: ``expert`` beside ``deep``, the same positions.

A plain script (not a test)::

    python benchmarks/bench_hint.py                    # the prompt's settings: 1 s budget, default work limit
    python benchmarks/bench_hint.py --budget none      # fixed work only (what simulate plays)
    python benchmarks/bench_hint.py --positions 10 --repeat 1   # a quick look

The positions are taken along games played by ``deep`` on ``--deals``, at several
stages (``--stages``: placements made), so that the opening, the middle game (where
``expert`` solves sampled stocks for every legal cell) and the end are all there.
Each position is answered ``--repeat`` times by each bot in turn (the bots
alternate, so that a change in the machine's load falls on both) through
:func:`foursquare.bots.recommend`, the call the prompt's ``hint`` makes.  Printed:
per bot, the median over positions of each position's median, the 90th percentile,
and the worst single answer (the wait a user may meet), in seconds of the clock (wall)
and, on a second line, of the process's CPU time (less disturbed by a loaded machine);
then the median of the paired ratio expert/deep (wall).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from foursquare.bots import get_bot, recommend
from foursquare.engine.game import Game

STAGES = (0, 5, 8, 11, 14, 17, 20, 24)


def positions(count: int, stages: tuple[int, ...], first_deal: int) -> list[Game]:
    """``count`` positions: games of deals from ``first_deal`` played by ``deep``, a copy
    at each of ``stages`` (placements made) that the game reaches alive."""
    bot = get_bot("deep")
    out: list[Game] = []
    deal = first_deal
    while len(out) < count:
        game = Game.from_deal(deal)
        while not game.is_over and len(out) < count:
            if game.placed in stages:
                out.append(game.copy())
            game.play(bot.choose(game.view()))
        deal += 1
    return out


def timed(view: object, bot: str, budget: float | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one hint."""
    began, cpu = time.perf_counter(), time.process_time()
    recommend(view, bot, budget=budget)  # type: ignore[arg-type]
    return time.perf_counter() - began, time.process_time() - cpu


def summary(per_position: list[float], worst: float) -> str:
    ordered = sorted(per_position)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):10.3f} {p90:10.3f} {worst:10.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--deals", type=int, default=100, help="the first deal whose game gives positions")
    parser.add_argument("--budget", default="1.0", help="seconds a hint may take ('none': fixed work only)")
    parser.add_argument("--bots", default="expert,deep")
    args = parser.parse_args()
    budget = None if args.budget == "none" else float(args.budget)
    bots = args.bots.split(",")
    games = positions(args.positions, STAGES, args.deals)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent).stdout.strip()  # fmt: skip
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit or '?'}, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"{len(games)} positions (stages {', '.join(map(str, STAGES))}; deals from {args.deals}), "
          f"{args.repeat} runs each, budget {budget if budget is not None else 'none (fixed work)'}")  # fmt: skip
    medians: dict[str, list[float]] = {bot: [] for bot in bots}
    worst = dict.fromkeys(bots, 0.0)
    cpu_medians: dict[str, list[float]] = {bot: [] for bot in bots}
    cpu_worst = dict.fromkeys(bots, 0.0)
    for game in games:
        view = game.view()
        times: dict[str, list[float]] = {bot: [] for bot in bots}
        cpus: dict[str, list[float]] = {bot: [] for bot in bots}
        for _ in range(args.repeat):
            for bot in bots:
                wall, cpu = timed(view, bot, budget)
                times[bot].append(wall)
                cpus[bot].append(cpu)
        for bot in bots:
            medians[bot].append(statistics.median(times[bot]))
            worst[bot] = max(worst[bot], max(times[bot]))
            cpu_medians[bot].append(statistics.median(cpus[bot]))
            cpu_worst[bot] = max(cpu_worst[bot], max(cpus[bot]))
    print(f"{'bot':8} {'median s':>10} {'p90 s':>10} {'worst s':>10}")
    for bot in bots:
        print(f"{bot:8} {summary(medians[bot], worst[bot])}  wall")
        print(f"{'':8} {summary(cpu_medians[bot], cpu_worst[bot])}  CPU")
    if len(bots) == 2:
        ratios = [a / b for a, b in zip(medians[bots[0]], medians[bots[1]], strict=True) if b > 0]
        print(f"paired ratio {bots[0]}/{bots[1]}: median {statistics.median(ratios):.2f}")
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
