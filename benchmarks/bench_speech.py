"""How long each move's output at the prompt takes to hear, as a screen reader would say it.

A plain script (not a test); it needs Debian's ``espeak-ng`` and ``sox``::

    python benchmarks/bench_speech.py                 # examples/won.yaml, grid and words side by side
    python benchmarks/bench_speech.py --game F.yaml   # another transcript (its deal)

It plays the game's moves at the prompt (``foursquare play --deal N --interactive``,
``NO_COLOR=1``, the moves piped), once as drawn (``--grid``) and once with ``--words``,
cuts the output at each prompt (one move's announcement a piece), speaks each piece
with ``espeak-ng`` at its default rate into a WAV file and measures it with
``soxi -D``.  It prints the median and the longest piece of each mode, in seconds of
speech, and the longest piece of the words mode as text.  Speech is counted, not
timed: the figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
#: A prompt: the card to place (or the end) and ``> `` (``8D> ``, ``game over (...)> ``).
PROMPT = re.compile(r"^[^\n]*?> ", re.MULTILINE)


def announcements(deal: int, cells: list[str], words: bool) -> list[str]:
    """What the prompt prints after each move, a piece a move."""
    args = [sys.executable, "-m", "foursquare", "play", "--deal", str(deal), "--interactive", "--no-history"]
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [*args, "--words" if words else "--grid"], input="\n".join(cells) + "\n", capture_output=True, text=True, env=env, check=False
    )
    pieces = PROMPT.split(done.stdout)
    return [piece.strip() for piece in pieces[1 : len(cells) + 1]]


def seconds_of_speech(text: str, folder: str) -> float:
    """``text`` spoken by espeak-ng at its default rate, in seconds (soxi -D)."""
    wav = os.path.join(folder, "piece.wav")
    subprocess.run(["espeak-ng", "-w", wav, text], check=True)
    return float(subprocess.run(["soxi", "-D", wav], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", type=Path, default=ROOT / "examples" / "won.yaml")
    options = parser.parse_args()
    game = yaml.safe_load(options.game.read_text(encoding="utf-8"))
    cells = [move["cell"] if isinstance(move, dict) else str(move).split()[-1] for move in game["moves"]]
    with tempfile.TemporaryDirectory() as folder:
        for name, words in (("grid", False), ("words", True)):
            pieces = announcements(game["deal"], cells, words)
            times = [seconds_of_speech(piece, folder) for piece in pieces]
            longest = max(range(len(times)), key=times.__getitem__)
            median, worst = statistics.median(times), times[longest]
            print(f"{name:6} {len(times)} moves: median {median:5.1f} s, longest {worst:5.1f} s (move {longest + 1})")
            if words:
                print(f"       longest: {pieces[longest]!r}")


if __name__ == "__main__":
    main()
