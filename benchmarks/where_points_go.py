"""Where a hint bot loses points: the clairvoyant best score at every move of its games.

A plain script (not a test)::

    python benchmarks/where_points_go.py --bot deep --deals 0-29
    python benchmarks/where_points_go.py --bot deep --deals 0-9 --cells --samples 16

The games are those ``foursquare simulate`` plays (the same move seeds).  Before and
after each move the perfect-information solver (the stock known) gives the best
score still reachable; a move whose "after" is below its "before" lost that many
points *as a clairvoyant would count them*.  Printed:

- the points so lost per deal, by phase (moves 0-5, 6-9, 10-13, 14-17, 18+), and
  the share lost on moves that stack (cover a card) rather than add a pile; a lost
  game counts its whole remaining best score on the move that lost it;
- "clairvoyant from move k": the mean best score of the positions the bot reached
  after k moves, an upper bound on any player who plays the bot's first k moves.

With ``--cells``, at each move 6-13 every legal cell is solved on ``--samples``
orders of the unseen cards (sampled from the player's view, RULES.md §6) and the
bot's expected clairvoyant drop there is split in two: ``E[max] - max E`` (the value
of knowing this one card order before moving: no player without it can recover
that) and ``max E - E[bot]`` (how much better the best cell by the samples' mean
looks: an optimistic bound on what a better choice could gain, since the samples'
later play is clairvoyant too, strategy fusion).
"""

from __future__ import annotations

import argparse
import random
import statistics

from foursquare.bots import get_bot
from foursquare.bots.simulate import deal_seed
from foursquare.engine.game import Game, Status
from foursquare.solver.search import solve
from foursquare.solver.solution import Outcome, Solution
from foursquare.solver.stocks import StockSolver

PHASES = ((0, 5), (6, 9), (10, 13), (14, 17), (18, 40))


def best_score(game: Game, max_nodes: int) -> int | None:
    """The best score still reachable with the stock known (0 when no win; ``None``: unknown)."""
    if game.status is Status.WON:
        return game.score
    if game.status is Status.LOST:
        return 0
    return _value(solve(game, max_nodes=max_nodes))


def _value(sol: Solution) -> int | None:
    if sol.status is Outcome.SOLVED:
        return sol.score or 0
    return 0 if sol.status is Outcome.NO_WIN else None


def cell_table(game: Game, samples: int, seed: int, solver_nodes: int) -> dict[str, list[float]]:
    """Per legal cell, the best score of each sampled order of the unseen cards (an
    unknown solve counts its bound)."""
    view = game.view()
    assert view.next_card is not None
    grid = {cell: (pile.cards, pile.face_up) for cell, pile in view.grid.items()}
    unseen = sorted(view.unseen)
    rng = random.Random(seed)
    orders = []
    for _ in range(samples):
        rest = list(unseen)
        rng.shuffle(rest)
        orders.append([c >> 2 for c in rest])
    table: dict[str, list[float]] = {}
    for cell in game.legal_cells():
        after = Game.from_position(grid, [view.next_card, *unseen], view.rules)
        after.play(cell)
        stock_solver = StockSolver(after)
        values = []
        for order in orders:
            sol = stock_solver.solve(order, max_nodes=solver_nodes)
            v = _value(sol)
            values.append(float(sol.max_score or 0) if v is None else float(v))
        table[str(cell)] = values
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="deep")
    parser.add_argument("--deals", default="0-29")
    parser.add_argument("--max-nodes", type=int, default=2_000_000)
    parser.add_argument("--cells", action="store_true", help="split the drops of moves 6-13 by sampling every cell")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--solver-nodes", type=int, default=20_000)
    args = parser.parse_args()
    a, b = (int(x) for x in args.deals.split("-"))
    deals = range(a, b + 1)
    lost = {p: 0.0 for p in PHASES}
    lost_stacking = {p: 0.0 for p in PHASES}
    from_move: dict[int, list[int]] = {k: [] for k in range(0, 41, 2)}
    scores = []
    fusion = choice = 0.0
    for deal in deals:
        player = get_bot(args.bot)
        game = Game.from_deal(deal)
        rng = random.Random(deal_seed(0, deal))
        before = best_score(game, args.max_nodes)
        bests = [before]
        while not game.is_over:
            view = game.view()
            cell = player.choose(view, None, rng.getrandbits(64))
            move = game.placed
            if args.cells and 6 <= move <= 13:
                table = cell_table(game, args.samples, 1000 * deal + move, args.solver_nodes)
                n = args.samples
                e_max = sum(max(v[i] for v in table.values()) for i in range(n)) / n
                means = {c: sum(v) / n for c, v in table.items()}
                fusion += e_max - max(means.values())
                choice += max(means.values()) - means[str(cell)]
            stacks = cell in view.grid
            game.play(cell)
            after = best_score(game, args.max_nodes)
            bests.append(after)
            if before is not None and after is not None and after < before:
                phase = next(p for p in PHASES if p[0] <= move <= p[1])
                lost[phase] += before - after
                if stacks:
                    lost_stacking[phase] += before - after
            before = after
        score = game.score or 0
        scores.append(score)
        for k in from_move:
            v = bests[k] if k < len(bests) else score
            from_move[k].append(score if v is None else v)
        print(f"deal {deal}: {game.status}, score {score}, best at the start {bests[0]}", flush=True)
    n = len(scores)
    print(f"\n{args.bot} on deals {args.deals}: mean score {statistics.fmean(scores):.2f}, won {sum(1 for s in scores if s)}/{n}")
    print("points lost a deal (clairvoyant count), by moves:")
    for p in PHASES:
        print(f"  moves {p[0]:2d}-{p[1]:2d}: {lost[p] / n:.2f}  (on stacking moves {lost_stacking[p] / n:.2f})")
    print("clairvoyant from move k (the bot's first k moves, then the stock known):")
    for k, values in from_move.items():
        if k <= 20:
            print(f"  k={k:2d}: mean {statistics.fmean(values):.2f}, won {sum(1 for v in values if v)}/{n}")
    if args.cells:
        print(f"moves 6-13, a deal: E[max] - max E (price of not knowing the order) {fusion / n:.2f}; "
              f"max E - E[{args.bot}] (the best cell by the samples' mean, optimistic) {choice / n:.2f}")


if __name__ == "__main__":
    main()
