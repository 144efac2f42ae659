"""Validation speed against PyYAML's C event stream, and the flood of tiny documents.

A plain script (not a test)::

    python benchmarks/bench_validate.py                  # 3,000 full-claim games, floods of 50,000 and 300,000
    python benchmarks/bench_validate.py --games 1000 --floods 50000 --repeat 3

- Speed: ``--games`` games played by the ``greedy`` bot on deals 1.. are written
  with every claim (:func:`foursquare.formats.transcript.transcripts_text`).  In
  the same run, the median of ``--repeat`` timings of (a) PyYAML's C parser
  just emitting the file's events (``yaml.parse`` with ``CSafeLoader``: the
  floor of any reader built on PyYAML), (b) the strict reader alone
  (``yamlio.read_each_document``, each document dropped once read) and (c) the
  whole check (``transcript.validate``) are printed, with games/s and the ratio
  to (a).
- Flood: ``---\\nfoursquare: 1\\n`` repeated ``--floods`` times is validated in
  a fresh subprocess, which reports its time and peak memory (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

import yaml

from foursquare.bots import get_bot
from foursquare.engine.game import Game
from foursquare.formats import transcript, yamlio


def games_text(count: int, bot_name: str = "greedy") -> str:
    """``count`` finished games (the bot ``bot_name``, deals 1..count) written with every claim."""
    bot = get_bot(bot_name)
    games = []
    for deal in range(1, count + 1):
        game = Game.from_deal(deal)
        rng = random.Random(deal)
        while not game.is_over:
            game.play(bot.choose(game.view(), None, rng.getrandbits(64)))
        games.append(game)
    return transcript.transcripts_text(games, claims=True)


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` calls (seconds)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def drain(items: Iterable[object]) -> None:
    """Go through ``items`` keeping none (as a streaming reader is used)."""
    for _ in items:
        pass


def events(text: str) -> None:
    """Every event of the C parser, and nothing else."""
    for _ in yaml.parse(text, Loader=yaml.CSafeLoader):
        pass


_FLOOD = """
import resource, sys, time, json
from foursquare.formats import transcript
text = "---\\nfoursquare: 1\\n" * int(sys.argv[1])
start = time.perf_counter()
reports = transcript.validate(text, "flood.yaml")
n = sum(1 for _ in reports)
print(json.dumps({"seconds": time.perf_counter() - start, "documents": n,
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def flood(count: int) -> dict[str, float]:
    """Validate ``count`` tiny documents in a fresh interpreter: its time and peak memory."""
    out = subprocess.run([sys.executable, "-c", _FLOOD, str(count)], capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--floods", type=int, nargs="*", default=[50_000, 300_000])
    args = parser.parse_args()

    print(f"C loader: {hasattr(yaml, 'CSafeLoader')}; yamlio event path: {getattr(yamlio, 'FAST', None)}")
    text = games_text(args.games)
    print(f"{args.games} games, {len(text) / 1e6:.1f} MB, {text.count(chr(10)):,} lines")
    floor = median_time(lambda: events(text), args.repeat)
    read = median_time(lambda: drain(yamlio.read_each_document(text, "g.yaml")), args.repeat)
    check = median_time(lambda: drain(transcript.validate(text, "g.yaml")), args.repeat)
    for name, seconds in (("C event stream", floor), ("yamlio read", read), ("validate", check)):
        print(f"{name:>15}: {seconds:7.3f} s  {args.games / seconds:8.0f} games/s  {seconds / floor:5.2f}x events")
    for count in args.floods:
        got = flood(count)
        print(f"flood {count:>7,}: {got['seconds']:6.2f} s  peak {got['maxrss_mb']:7.1f} MB")


if __name__ == "__main__":
    main()
