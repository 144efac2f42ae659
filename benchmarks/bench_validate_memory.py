"""``foursquare validate``'s peak memory against the number of games (issue 17).

A plain script (not a test)::

    python benchmarks/bench_validate_memory.py            # 3,000 and 12,000 games, and a file near the input cap
    python benchmarks/bench_validate_memory.py 1000 4000

For each count N it writes N full-claim games (the ``random`` bot's games of deals
1 to N, every claim written: :func:`foursquare.formats.transcript.transcripts_text`)
to a temporary file, runs ``foursquare validate`` on it in a fresh process and prints
the file's size, the peak resident memory (``ru_maxrss`` of the child) and the wall
time, beside the same for the baseline of the same run: a fresh process that reads
the file whole into one string (what validate did before it read block by block)
and ``foursquare validate`` of a one-game file (the fixed cost of the command).  Last, the largest file's games are
repeated up to just under the 64 MiB input cap (``--no-cap`` leaves it out).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from bench_validate import child, games_text  # the same games, written the same way (this folder)

_WHOLE = "import sys; text = open(sys.argv[1], encoding='utf-8').read(); import foursquare.cli"


def games_file(n: int, path: str) -> None:
    """Write ``n`` full-claim games (deals 1 to ``n``, the random bot) to ``path``."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(games_text(n, "random"))


def measure(args: list[str]) -> tuple[float, float]:
    """Peak RSS (MB) and wall seconds of ``python ARGS`` in a fresh process (:func:`bench_validate.child`)."""
    seconds, rss = child(args)
    return rss, seconds


def row(label: str, path: str, one: str) -> None:
    rss, seconds = measure(["-m", "foursquare", "validate", path])
    whole, _ = measure(["-c", _WHOLE, path])
    base, _ = measure(["-m", "foursquare", "validate", one])
    size = os.path.getsize(path) / 1e6
    print(f"{label:>9} {size:>8.1f} {rss:>12.1f} {seconds:>8.2f} {whole:>15.1f} {base:>12.1f}")


def main(counts: list[int], cap: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'games':>9} {'file MB':>8} {'peak RSS MB':>12} {'seconds':>8} {'read whole MB':>15} {'1 game MB':>12}")
        one = os.path.join(folder, "one.yaml")
        subprocess.run([sys.executable, __file__, "--write", "1", one], check=True)
        path = ""
        for n in counts:
            path = os.path.join(folder, f"games{n}.yaml")
            # written by another process: this one stays small, and its children's peak is theirs
            subprocess.run([sys.executable, __file__, "--write", str(n), path], check=True)
            row(f"{n:,}", path, one)
        if cap and path:
            copies = (63 * 1024 * 1024) // (os.path.getsize(path) + 4)
            big = os.path.join(folder, "cap.yaml")
            with open(big, "wb") as out:
                for i in range(copies):
                    with open(path, "rb") as part:
                        out.write(part.read() + (b"---\n" if i < copies - 1 else b""))
            row(f"{copies}x{counts[-1] // 1000}k", big, one)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        games_file(int(sys.argv[2]), sys.argv[3])
    else:
        words = [a for a in sys.argv[1:] if a != "--no-cap"]
        main([int(a) for a in words] or [3000, 12000], "--no-cap" not in sys.argv[1:])
