"""Validation speed against PyYAML's C event stream, and the flood of tiny documents.

A plain script (not a test)::

    python benchmarks/bench_validate.py                  # 3,000 full-claim games, floods of 50,000 and 300,000
    python benchmarks/bench_validate.py --games 1000 --floods 50000 --repeat 3

- Speed: ``--games`` games played by the ``greedy`` bot on deals 1.. are written
  with every claim (:func:`foursquare.formats.transcript.transcripts_text`) to a
  temporary file.  In the same run, interleaved round by round, ``--repeat``
  timings (CPU time of this process, less disturbed by other processes than the
  wall clock) of (a) PyYAML's C parser just emitting the file's events
  (``yaml.parse`` with ``CSafeLoader``: the floor of any reader built on PyYAML),
  (b) the reader alone (``foursquare.formats.yaml.read_each_document``, each document
  dropped once read), (c) the whole check of the text (``transcript.iter_validate``)
  and (d) the same check of the file read block by block as ``foursquare validate``
  reads it (``inputs.InputFile``) are printed: median and worst, games/s and the
  median's ratio to (a).
- Flood: ``---\\nfoursquare: 1\\n`` repeated ``--floods`` times is written to a file
  and ``foursquare validate`` runs on it in a fresh process; its wall time and peak
  memory (``ru_maxrss``) are printed beside those of the baseline process:
  ``foursquare validate`` of a file of one such document (the command's fixed cost).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable

import yaml

from foursquare.bots import get_bot
from foursquare.engine.game import Game
from foursquare.formats import inputs, transcript
from foursquare.formats.yaml import read_each_document


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


def drain(items: Iterable[object]) -> None:
    """Go through ``items`` keeping none (as a streaming reader is used)."""
    for _ in items:
        pass


def events(text: str) -> None:
    """Every event of the C parser, and nothing else."""
    for _ in yaml.parse(text, Loader=yaml.CSafeLoader):
        pass


def interleaved(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """CPU seconds of each function, ``repeat`` rounds, one call of each per round (side by side)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    return times


#: Runs ``python ARGS`` and prints its exit status, wall seconds and peak RSS (KB).  A
#: small process of its own, because Linux keeps a child's peak RSS across ``exec``: a
#: child forked from a big process (this one holds the games) would report its size.
_LAUNCH = (
    "import os, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "p = subprocess.Popen([sys.executable, *sys.argv[1:]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "print(os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_maxrss)"
)


def child(args: list[str], ok: tuple[int, ...] = (0, 1)) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of a fresh ``python ARGS`` (its own ``ru_maxrss``,
    through a small launcher process)."""
    out = subprocess.run([sys.executable, "-c", _LAUNCH, *args], capture_output=True, text=True, check=True)
    code, seconds, kb = out.stdout.split()
    if int(code) not in ok:
        raise SystemExit(f"{args} exited {code}")
    return float(seconds), int(kb) / 1024  # ru_maxrss is in KB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--floods", type=int, nargs="*", default=[50_000, 300_000])
    args = parser.parse_args()

    print(f"C loader: {hasattr(yaml, 'CSafeLoader')}")
    text = games_text(args.games)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "games.yaml")
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"{args.games} games, {len(text) / 1e6:.1f} MB, {text.count(chr(10)):,} lines; CPU s, {args.repeat} rounds")

        def streamed() -> None:
            with inputs.InputFile(path) as source:
                drain(transcript.iter_validate(source, path))

        times = interleaved(
            {
                "C event stream": lambda: events(text),
                "yaml read": lambda: drain(read_each_document(text, "g.yaml")),
                "validate text": lambda: drain(transcript.iter_validate(text, "g.yaml")),
                "validate file": streamed,
            },
            args.repeat,
        )
        floor = statistics.median(times["C event stream"])
        for name, seconds in times.items():
            median = statistics.median(seconds)
            print(
                f"{name:>15}: median {median:7.3f} s, worst {max(seconds):7.3f} s"
                f"  {args.games / median:8.0f} games/s  {median / floor:5.2f}x events"
            )
        one = os.path.join(folder, "one.yaml")
        with open(one, "w", encoding="utf-8") as out:
            out.write("---\nfoursquare: 1\n")
        base_s, base_mb = child(["-m", "foursquare", "validate", one])
        print(f"{'baseline':>15}: validate of 1 such document: {base_s:6.2f} s  peak {base_mb:7.1f} MB")
        for count in args.floods:
            flood = os.path.join(folder, f"flood{count}.yaml")
            with open(flood, "w", encoding="utf-8") as out:
                out.write("---\nfoursquare: 1\n" * count)
            seconds, peak = child(["-m", "foursquare", "validate", flood])
            print(f"flood {count:>8,}: {os.path.getsize(flood) / 1e6:5.1f} MB  {seconds:6.2f} s  peak {peak:7.1f} MB")


if __name__ == "__main__":
    main()
