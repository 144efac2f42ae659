"""What keeping the game history costs a move at the prompt, side by side.

A plain script (not a test)::

    python benchmarks/bench_history.py              # 20 games, 5 rounds
    python benchmarks/bench_history.py --games 50 --rounds 7

Each round plays the same games (the first legal cell each move, deals 1..N) three
ways through :class:`foursquare.app.session.Session`: without a history (the
baseline), with the history in a file of its own (:class:`GameRecorder`: one
transaction a move, WAL), with a history that already holds 1000 games, and, for
scale, with a ``--record`` file instead (a transcript rewritten and synced each move).  It
prints the milliseconds a move, the median over the rounds and the worst round,
and the size of the file.  Run it on an idle machine: a shared one gives noisy
absolute figures, the ratios are steadier.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from foursquare.app.session import Session
from foursquare.engine.game import Game
from foursquare.formats.movescript import Move
from foursquare.history.recorder import GameRecorder
from foursquare.history.store import HistoryStore


def play_games(deals: range, path: str | None, record: str | None = None) -> tuple[float, int]:
    """Seconds spent and moves made playing ``deals`` (with a history at ``path``; with
    ``record``, a recording rewritten after every move, as ``play --record``)."""
    moves = 0
    spent = 0.0
    for deal in deals:
        game = Game.from_deal(deal)
        start = time.perf_counter()
        recorder = GameRecorder(path, game) if path is not None else None
        session = Session(game, history=recorder, record=record)
        while not game.is_over:
            session.play(Move(game.legal_cells()[0], None))
            moves += 1
        session.end()
        session.close()
        spent += time.perf_counter() - start
    return spent, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    deals = range(1, args.games + 1)
    folder = tempfile.mkdtemp(prefix="bench-history-")
    big = os.path.join(folder, "big.sqlite3")
    with HistoryStore.open(big, create=True) as store:
        filler = []
        for deal in range(10_000, 11_000):
            game = Game.from_deal(deal)
            while not game.is_over:
                game.play(game.legal_cells()[0])
            filler.append(game)
        store.import_games(filler, "filler")
    per_move: dict[str, list[float]] = {
        "no history": [], "new history": [], "history of 1000 games": [], "play --record (for scale)": []
    }
    for r in range(args.rounds):
        for label, path, record in (
            ("no history", None, None),
            ("new history", os.path.join(folder, f"new{r}.sqlite3"), None),
            ("history of 1000 games", big, None),
            ("play --record (for scale)", None, os.path.join(folder, f"record{r}.yaml")),
        ):
            if record is not None and os.path.exists(record):
                os.unlink(record)
            spent, moves = play_games(deals, path, record)
            per_move[label].append(1000 * spent / moves)
    base = statistics.median(per_move["no history"])
    print(f"{args.games} games, {args.rounds} rounds (ms a move: median, worst round; ratio to no history)")
    for label, values in per_move.items():
        median = statistics.median(values)
        print(f"  {label:<26} {median:8.3f}  {max(values):8.3f}  x{median / base:.1f}")
    print(f"  the history of 1000 games: {os.path.getsize(big) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
