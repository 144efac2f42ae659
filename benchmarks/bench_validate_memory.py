"""``foursquare validate``'s peak memory against the number of games (issue 17).

A plain script (not a test)::

    python benchmarks/bench_validate_memory.py            # 3,000 and 12,000 games
    python benchmarks/bench_validate_memory.py 1000 4000

For each count N it writes N full-claim games (the ``random`` bot's games of deals
1 to N, every claim written: :func:`foursquare.formats.transcript.transcripts_text`)
to a temporary file, runs ``foursquare validate`` on it in a fresh process and prints
the file's size, the peak resident memory (``ru_maxrss`` of the child) and the time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from bench_validate import games_text  # the same games, written the same way (this folder)


def games_file(n: int, path: str) -> None:
    """Write ``n`` full-claim games (deals 1 to ``n``, the random bot) to ``path``."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(games_text(n, "random"))


def measure(path: str) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of ``foursquare validate PATH`` in a child process."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "foursquare", "validate", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = process.pid
    _, status, usage = os.wait4(pid, 0)  # the child's own peak
    process.returncode = code = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if code not in (0, 1):
        raise SystemExit(f"validate exited {code}")
    return usage.ru_maxrss / 1024, seconds  # ru_maxrss is in KB on Linux


def main(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'games':>7} {'file MB':>8} {'peak RSS MB':>12} {'seconds':>8}")
        for n in counts:
            path = os.path.join(folder, f"games{n}.yaml")
            # written by another process: this one stays small, and its children's peak is theirs
            subprocess.run([sys.executable, __file__, "--write", str(n), path], check=True)
            rss, seconds = measure(path)
            print(f"{n:>7} {os.path.getsize(path) / 1e6:>8.1f} {rss:>12.1f} {seconds:>8.2f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        games_file(int(sys.argv[2]), sys.argv[3])
    else:
        main([int(a) for a in sys.argv[1:]] or [3000, 12000])
