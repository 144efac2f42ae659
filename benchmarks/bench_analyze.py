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
estimates of every position are timed once, apart, and added to both (``analyze``
without ``--no-bot`` asks the bot once per move, whatever the solver does).  Run it
on a quiet machine: a loaded one inflates both columns alike.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable

from foursquare.bots import get_bot, recommend
from foursquare.engine.game import Game, Status
from foursquare.engine.view import PlayerView
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=HARD_DEALS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--max-nodes", type=int, default=ANALYSIS_MAX_NODES)
    parser.add_argument("--bot", help="add the CPU time of this bot's estimates (e.g. deep, the default)")
    args = parser.parse_args()
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
