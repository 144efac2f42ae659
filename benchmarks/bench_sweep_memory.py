"""Peak memory of a sweep against its number of deals (``solve --deals``, ``simulate``).

Each figure is the peak resident memory (``ru_maxrss``, from ``os.wait4``) of a child
process of its own, measured in this run beside its baseline:

- ``solve --output``: the real command, end to end, ``foursquare solve --deals
  0-(N-1) --max-nodes 1 --output FILE.csv`` (one node a deal, so each deal is quick),
  up to ``--real-up-to`` deals (default 10^5: 10^6 deals take 4 to 12 minutes on 2
  shared cores);
- ``--resume``: the real command again, ``--resume`` over a finished file of N rows
  (every row read back, checked and tallied into the summary): the file the run above
  wrote, or past ``--real-up-to`` one made here of the rows that run writes;
- ``simulate tally``: the summary's own code path (``bots.simulate.DealTally``, what
  ``simulate --bot random --vs greedy`` counts each deal into), fed N synthetic deals
  of two games of 5 to 40 moves each (a real ``simulate`` of 10^6 games takes
  some 20 minutes here);
- baselines, each a child that holds every result in a list, as the commands did
  before their summary was tallied (``list of solutions``: the real solutions of
  ``--max-nodes 1``; ``list of games``: the synthetic games above), up to
  ``--baseline-up-to`` deals (default 10^5; the list of games takes 2.6 GB at 10^6);
  and ``start``: ``foursquare solve --deal 0 --max-nodes 1`` alone, before any deal.

Run: ``python benchmarks/bench_sweep_memory.py`` (a few minutes on 2 shared cores;
``--sizes 10000,100000`` for fewer).  The commands' figures should stay flat, under
100 MB at every N, while the baselines grow with N.  (The solver keeps a cache of
its answers, at most about 40 MB, ``solver/lastcards.py``: solve's figure grows
with it over the first 10^5 deals, then stays.)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = [sys.executable, "-m", "foursquare"]
LIMIT_MB = 100

#: A child that tallies N synthetic deals of two bots (the simulate summary's code path),
#: or, with ``list``, keeps them in lists and summarizes those (the old way).
SYNTHETIC = r"""
import random, sys
from foursquare.bots.simulate import DealTally, GameResult, paired, summarize
n, how = int(sys.argv[1]), sys.argv[2]
rng = random.Random(0)
def game(bot, deal):
    won = rng.random() < 0.4
    moves = rng.randint(5, 40)
    return GameResult(bot, deal, "won" if won else "lost", None if won else "too-many-face-down",
                      rng.randint(0, 24) if won else None, moves, tuple(rng.random() / 1000 for _ in range(moves)))
if how == "tally":
    tally = DealTally(["random", "greedy"], 24, paired=True)
    for d in range(n):
        tally.add([game("random", d), game("greedy", d)])
    s = tally.summaries()["random"]
else:
    a, b = [], []
    for d in range(n):
        a.append(game("random", d)); b.append(game("greedy", d))
    s = summarize(a, 24); paired(a, b, 24)
print(s.games, round(s.mean_score, 3))
"""

#: A child that keeps N solutions in a list, then summarizes them (solve's old way).
SOLUTIONS = r"""
import sys
from foursquare.solver import solve_deals
from foursquare.solver.analysis import summarize
n = int(sys.argv[1])
kept = [sol for _, sol in solve_deals(range(n), max_nodes=1)]
print(summarize(kept).deals)
"""


def peak(args: list[str], out: Path | None = None) -> tuple[float, float]:
    """Run ``args`` as a child process: (its peak resident memory in MB, seconds)."""
    start = time.perf_counter()
    stdout = out.open("w") if out is not None else subprocess.DEVNULL
    try:
        process = subprocess.Popen(args, stdout=stdout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        if out is not None:
            stdout.close()  # type: ignore[union-attr]
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(args)}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start  # (KB on Linux)


def made_csv(path: Path, n: int) -> None:
    """The file ``solve --deals 0-(n-1) --max-nodes 1 --output`` writes (its rows: each deal
    unknown after one node, its bound 24 or a little less), made here in a second."""
    with path.open("w", newline="") as out:
        out.write("deal,status,score,max_score,nodes,seconds,moves,rules,max_nodes,timeout,memory\r\n")
        for d in range(n):
            out.write(f"{d},unknown,,{24 - (d % 10 == 0) - (d % 100 == 0)},1,0.000{100 + d % 900},,standard,1,,\r\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="numbers of deals, comma-separated")
    parser.add_argument("--real-up-to", type=int, default=100_000, help="largest N for the real solve run")
    parser.add_argument("--baseline-up-to", type=int, default=100_000, help="largest N for the list baselines")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    start_mb, _ = peak([*COMMAND, "solve", "--deal", "0", "--max-nodes", "1"])
    print(f"start (solve --deal 0): {start_mb:.0f} MB peak RSS")
    print(f"{'N':>9} | {'solve --output':>15} {'s':>6} | {'--resume':>9} {'s':>5} | {'list of solutions':>17} | "
          f"{'simulate tally':>14} {'s':>5} | {'list of games':>13}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            csv = Path(folder) / f"sweep{n}.csv"
            solve = [*COMMAND, "solve", "--deals", f"0-{n - 1}", "--max-nodes", "1", "--output", str(csv)]
            real = "-"
            if n <= args.real_up_to:
                solve_mb, solve_s = peak(solve)
                real, worst = f"{solve_mb:>12.0f} MB {solve_s:>6.1f}", max(worst, solve_mb)
            else:
                made_csv(csv, n)
            resume_mb, resume_s = peak([*solve, "--resume"])
            csv.unlink()
            baseline = n <= args.baseline_up_to
            listed = f"{peak([sys.executable, '-c', SOLUTIONS, str(n)])[0]:.0f} MB" if baseline else "-"
            tally_mb, tally_s = peak([sys.executable, "-c", SYNTHETIC, str(n), "tally"])
            games = f"{peak([sys.executable, '-c', SYNTHETIC, str(n), 'list'])[0]:.0f} MB" if baseline else "-"
            worst = max(worst, resume_mb, tally_mb)
            print(f"{n:>9} | {real:>22} | {resume_mb:>6.0f} MB {resume_s:>5.1f} | {listed:>17} | "
                  f"{tally_mb:>11.0f} MB {tally_s:>5.1f} | {games:>13}", flush=True)
    print(f"largest peak of the commands and the tally: {worst:.0f} MB (limit {LIMIT_MB} MB): "
          + ("within" if worst <= LIMIT_MB else "OVER"))


if __name__ == "__main__":
    main()
