"""``state --game K`` of a large transcript against the cost of reading the file (issue 17).

A plain script (not a test)::

    python benchmarks/bench_game_k.py            # 20,000 full-claim games, K = 2,000 and 20,000
    python benchmarks/bench_game_k.py 5000 500 5000

It writes N full-claim games (the greedy bot's games of deals 1 to N, every claim
written, as ``bench_validate.py`` writes them) to a temporary file and prints, side by
side in one run: the wall time and peak RSS of ``foursquare state --game K FILE`` in a
fresh process for each K, and of two baselines in fresh processes: cutting the whole
file into its documents (``foursquare.formats.yaml.iter_pieces`` over ``inputs.InputFile``: the reading
cost, no YAML parsed) and PyYAML's C parser emitting the whole file's events.
"""

from __future__ import annotations

import os
import sys
import tempfile

from bench_validate import child, games_text

_CUT = (
    "import sys; from foursquare.formats import inputs\nfrom foursquare.formats.yaml import iter_pieces\n"
    "with inputs.InputFile(sys.argv[1]) as s:\n    n = sum(1 for _ in iter_pieces(s))"
)
_EVENTS = "import sys, yaml\nfor _ in yaml.parse(open(sys.argv[1], encoding='utf-8'), Loader=yaml.CSafeLoader): pass"


def main(n: int, ks: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "games.yaml")
        with open(path, "w", encoding="utf-8") as out:
            out.write(games_text(n))
        print(f"{n:,} games, {os.path.getsize(path) / 1e6:.1f} MB")
        for label, args in [
            *((f"state --game {k}", ["-m", "foursquare", "state", "--game", str(k), path]) for k in ks),
            ("cut into documents", ["-c", _CUT, path]),
            ("C event stream", ["-c", _EVENTS, path]),
        ]:
            seconds, peak = child(args, ok=(0,))
            print(f"{label:>20}: {seconds:6.2f} s  peak {peak:7.1f} MB")


if __name__ == "__main__":
    words = [int(a) for a in sys.argv[1:]]
    main(words[0] if words else 20_000, words[1:] or [2_000, 20_000])
