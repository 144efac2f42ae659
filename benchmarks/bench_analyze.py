"""What ``foursquare analyze`` costs on recorded games of the hardest deals, side by side.

A plain script (not a test)::

    python benchmarks/bench_analyze.py                      # deal 325 and the other hard deals, 3 runs
    python benchmarks/bench_analyze.py --deals 325 7 --repeat 5
    python benchmarks/bench_analyze.py --bot deep           # the bot's judgement too, as analyze does

Each deal's game is the ``greedy`` bot's first 20 moves (``foursquare play --deal N``
with those moves gives the same transcript).  Each run judges it twice, in turn:

- *baseline*: the previous version's single forward pass (each position bounded by
  the one before it, with the whole node limit; a move along the solver's line
  keeps its score; a position left unknown settled from the end when the next
  position's proved score reaches its bound), copied here;
- *now*: :class:`foursquare.solver.analysis.GameJudge`, what ``analyze`` runs.

It prints, per deal, the CPU seconds (median of the runs; the wall seconds beside
them), the solver positions searched, the positions left unknown, and whether the
best scores agree wherever both settled them (they must).  With ``--bot``, the bot's
estimates of every position are timed once, apart, and added to both.  Run it
on a quiet machine: a loaded one inflates both columns alike.

With ``--wall`` it times the command itself instead, as a user runs it
(``python -m foursquare analyze GAME --format json``, a process of its own, the
default bot), the bot asked in turn with the solver (``--jobs 1``, what earlier
versions did) and beside it in a second process (``--jobs 2``, the default on two
cores), alternately, and ``--no-bot`` (the solver alone) once per run::

    nice -n 10 python benchmarks/bench_analyze.py --wall                  # the hard deals
    nice -n 10 python benchmarks/bench_analyze.py --wall --every 10 --repeat 1

It prints per deal the wall seconds of each (median of the runs), the CPU seconds of
the sequential one, and whether both gave the same output, byte for byte (they must);
then the medians and the worst over the deals, and the machine's load average.  With
``--split`` it runs ``analyze --jobs 2`` in its own process instead and prints the CPU
seconds of each of its two processes: on an idle two-core machine the wall time is
about the larger (a loaded one stretches the wall time, not these).
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from foursquare.bots import get_bot, recommend
from foursquare.engine.game import Game, Status
from foursquare.engine.view import PlayerView
from foursquare.formats.transcript import transcript_text
from foursquare.solver.analysis import ANALYSIS_MAX_NODES, GameJudge
from foursquare.solver.search import NO_WIN, SOLVED, UNKNOWN, Solution, solve

HARD_DEALS = [325, 7, 170, 335, 344, 558, 720, 858]


def greedy_game(deal: int, moves: int = 20) -> Game:
    """The ``greedy`` bot's first ``moves`` moves on ``deal``."""
    bot, game = get_bot("greedy"), Game.from_deal(deal)
    while game.status is Status.PLAYING and len(game.moves) < moves:
        game.play(bot.choose(game.view()))
    return game


def baseline(game: Game, max_nodes: int) -> tuple[list[Solution], int]:
    """The previous version's analysis: ``(verdict on each position, positions searched)``."""
    played = list(game.moves)
    replay = Game(game.deck, game.rules, game.deal)
    sols: list[Solution] = []
    nodes = 0
    for i in range(len(played) + 1):
        parent = sols[-1] if sols else None
        if parent is None:
            sol = solve(replay, max_nodes=max_nodes)
        elif parent.status is NO_WIN:
            sol = Solution(NO_WIN, None, (), 0, 0.0, None)
        elif parent.status is SOLVED and parent.moves and parent.moves[0] == played[i - 1].cell:
            sol = Solution(SOLVED, parent.score, parent.moves[1:], 0, 0.0, parent.score)
        else:
            sol = solve(replay, max_nodes=max_nodes, score_at_most=parent.max_score)
        nodes += sol.nodes
        sols.append(sol)
        if i < len(played):
            replay.play(played[i].cell)
    for i in range(len(sols) - 2, -1, -1):  # closed from the end
        here, child = sols[i], sols[i + 1]
        if here.status is UNKNOWN and child.status is SOLVED and here.max_score == child.score:
            sols[i] = Solution(SOLVED, child.score, (played[i].cell, *child.moves), here.nodes, here.seconds, child.score)
    return sols, nodes


def now(game: Game, max_nodes: int) -> tuple[list[int | None | str], int]:
    """This version's analysis (what :func:`~foursquare.solver.analysis.analyze_game`
    runs): ``(best score of each position, None for no win, '?' when unknown;
    positions searched)``."""
    judge = GameJudge(game, max_nodes=max_nodes)
    judge.run()
    scores: list[int | None | str] = []
    for sol in judge.sols:
        assert sol is not None
        scores.append(sol.score if sol.status is SOLVED else (None if sol.status is NO_WIN else "?"))
    return scores, sum(judge.nodes)


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """``(CPU seconds, wall seconds, result)`` of ``fn()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, out


def bot_seconds(game: Game, bot: str) -> float:
    """CPU seconds of the bot's estimates of every position before a move (as analyze asks)."""
    replay = Game(game.deck, game.rules, game.deal)
    start = time.process_time()
    for placement in game.moves:
        recommend(PlayerView.of(replay), bot=bot, seed=0)
        replay.play(placement.cell)
    return time.process_time() - start


def command(path: Path, *options: str) -> tuple[float, float, bytes]:
    """``(wall seconds, CPU seconds, stdout)`` of ``python -m foursquare analyze PATH
    --format json OPTIONS`` (the CPU of the process and of its own workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "foursquare", "analyze", str(path), "--format", "json", *options],
        check=True, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
    ).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def split(path: Path) -> tuple[float, float, float]:
    """``(wall, this process's CPU, the bot's process's CPU)`` seconds of ``analyze PATH
    --format json --jobs 2`` run in this process: on an idle machine of two cores, its wall
    time is about the larger of the two CPU times (the two processes' critical path)."""
    from click.testing import CliRunner

    from foursquare.cli import main as cli

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = CliRunner().invoke(cli, ["analyze", str(path), "--format", "json", "--jobs", "2"])
    wall = time.perf_counter() - start
    assert result.exit_code == 0, result.output
    me2, children2 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (me2.ru_utime - me.ru_utime) + (me2.ru_stime - me.ru_stime)
    bot = (children2.ru_utime - children.ru_utime) + (children2.ru_stime - children.ru_stime)
    return wall, cpu, bot


def split_main(args: argparse.Namespace) -> None:
    """``--split``: the CPU seconds of the two processes of ``analyze --jobs 2``, per deal."""
    print(f"greedy games of {args.moves} moves, analyze --jobs 2 in this process; load average {os.getloadavg()[0]:.2f}")
    print(f"{'deal':>5}  {'wall':>6}  {'this':>6}  {'bot':>6}  critical path")
    paths = []
    with tempfile.TemporaryDirectory() as folder:
        for deal in args.deals:
            path = Path(folder) / f"{deal}.yaml"
            path.write_text(transcript_text(greedy_game(deal, args.moves)))
            paths.append(path)
            wall, cpu, bot = split(path)
            print(f"{deal:>5}  {wall:6.2f}  {cpu:6.2f}  {bot:6.2f}  {max(cpu, bot):6.2f}", flush=True)
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f}")


def wall_main(args: argparse.Namespace) -> None:
    """``--wall``: the command timed in turn and beside, per deal (see the module's text)."""
    load = [os.getloadavg()[0]]
    print(
        f"greedy games of {args.moves} moves, the default bot, the command's wall seconds "
        f"(median of {args.repeat}); load average {load[0]:.2f} at the start, {os.cpu_count()} cores"
    )
    print(f"{'deal':>5}  {'in turn':>7}  {'beside':>7}  {'ratio':>5}  {'no bot':>7}  {'CPU':>6}  same")
    rows: list[tuple[int, float, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for deal in args.deals:
            path = Path(folder) / f"{deal}.yaml"
            path.write_text(transcript_text(greedy_game(deal, args.moves)))
            seq: list[float] = []
            con: list[float] = []
            alone: list[float] = []
            cpus: list[float] = []
            outs: set[bytes] = set()
            for k in range(args.repeat):
                order = [("1", seq), ("2", con)]
                for jobs, runs in order if k % 2 == 0 else order[::-1]:
                    wall, cpu, out = command(path, "--jobs", jobs)
                    runs.append(wall)
                    outs.add(out)
                    if jobs == "1":
                        cpus.append(cpu)
                alone.append(command(path, "--no-bot")[0])
                load.append(os.getloadavg()[0])
            s, c, a = statistics.median(seq), statistics.median(con), statistics.median(alone)
            rows.append((deal, s, c, a))
            print(
                f"{deal:>5}  {s:7.2f}  {c:7.2f}  {s / c:5.2f}  {a:7.2f}  {statistics.median(cpus):6.2f}  "
                + ("yes" if len(outs) == 1 else "NO"),
                flush=True,
            )
    for name, column in (("in turn", 1), ("beside", 2), ("no bot", 3)):
        values = [row[column] for row in rows]
        worst = max(rows, key=lambda row: row[column])
        print(f"{name:>8}: median {statistics.median(values):.2f} s, worst {worst[column]:.2f} s (deal {worst[0]})")
    print(f"load average (1 min) during the runs: {min(load):.2f} to {max(load):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=HARD_DEALS)
    parser.add_argument("--every", type=int, help="also every N-th deal of 0-999 (0, N, 2N, ...)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--max-nodes", type=int, default=ANALYSIS_MAX_NODES)
    parser.add_argument("--bot", help="add the CPU time of this bot's estimates (e.g. deep, the default)")
    parser.add_argument("--wall", action="store_true", help="time the command, the bot in turn and beside the solver")
    parser.add_argument("--split", action="store_true", help="the CPU of the two processes of analyze --jobs 2")
    args = parser.parse_args()
    if args.every:
        args.deals = list(dict.fromkeys([*args.deals, *range(0, 1000, args.every)]))
    if args.wall or args.split:
        (wall_main if args.wall else split_main)(args)
        return
    print(f"greedy games of {args.moves} moves, --max-nodes {args.max_nodes}, median of {args.repeat} runs (CPU s; wall s)")
    extra = "  bot s" if args.bot else ""
    print(f"{'deal':>5}  {'baseline':>15}  {'now':>15}  {'ratio':>5}  {'nodes then':>10}  {'nodes now':>10}  unknown  agree{extra}")
    totals: list[tuple[float, float]] = []
    for deal in args.deals:
        game = greedy_game(deal, args.moves)
        then_runs: list[tuple[float, float]] = []
        now_runs: list[tuple[float, float]] = []
        then_out: tuple[list[Solution], int] | None = None
        now_out: tuple[list[int | None | str], int] | None = None
        for k in range(args.repeat):
            order: list[tuple[str, Callable[[], object]]] = [
                ("then", functools.partial(baseline, game, args.max_nodes)),
                ("now", functools.partial(now, game, args.max_nodes)),
            ]
            for which, fn in order if k % 2 == 0 else order[::-1]:
                cpu, wall, out = timed(fn)
                if which == "then":
                    then_runs.append((cpu, wall))
                    then_out = out  # type: ignore[assignment]
                else:
                    now_runs.append((cpu, wall))
                    now_out = out  # type: ignore[assignment]
        assert then_out is not None and now_out is not None
        then_scores = [s.score if s.status is SOLVED else (None if s.status is NO_WIN else "?") for s in then_out[0]]
        agree = all(a == b for a, b in zip(then_scores, now_out[0], strict=True) if "?" not in (a, b))
        bot = bot_seconds(game, args.bot) if args.bot else 0.0
        t_cpu = statistics.median(c for c, _ in then_runs) + bot
        n_cpu = statistics.median(c for c, _ in now_runs) + bot
        t_wall = statistics.median(w for _, w in then_runs) + bot
        n_wall = statistics.median(w for _, w in now_runs) + bot
        totals.append((t_cpu, n_cpu))
        unknown = f"{then_scores.count('?')} -> {now_out[0].count('?')}"
        print(
            f"{deal:>5}  {t_cpu:7.2f} ({t_wall:5.2f})  {n_cpu:7.2f} ({n_wall:5.2f})  {t_cpu / n_cpu:5.2f}  "
            f"{then_out[1]:>10}  {now_out[1]:>10}  {unknown:>7}  {'yes' if agree else 'NO'}"
            + (f"  {bot:5.2f}" if args.bot else "")
        )
    worst_then, worst_now = max(t for t, _ in totals), max(n for _, n in totals)
    print(f"worst: {worst_then:.2f} s -> {worst_now:.2f} s of CPU")


if __name__ == "__main__":
    main()
