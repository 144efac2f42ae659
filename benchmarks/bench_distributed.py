"""Dask cluster figures: one worker against two, and what the chunks of tasks save.

A plain script (not a test): ``nice -n 10 python benchmarks/bench_distributed.py``.
It starts its own cluster on 127.0.0.1 (``dask scheduler`` and ``dask worker``
processes, one thread each; needs ``pip install -e '.[dask]'``): one scheduler with
one worker, another with two, and solves the same deals on each in turn, with a
local run (this process, no cluster) as the baseline, ``--rounds`` times
interleaved, so that the machine's load falls on all alike.  Prints the median and
worst wall time of each and the ratios of the medians.  Then the overhead per task:
a trivial task over many tasks, in chunks (as :meth:`foursquare.cluster.Cluster.map`
sends them) and one Dask task each (``MAX_CHUNK = 1``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from foursquare import cluster as cluster_module
from foursquare.solver import solve_deals

DASK = [sys.executable, "-m", "dask"]


@contextlib.contextmanager
def local_cluster(workers: int, folder: Path) -> Iterator[str]:
    """A scheduler and ``workers`` single-thread workers on 127.0.0.1; yields the address."""
    processes: list[subprocess.Popen[bytes]] = []
    file = folder / f"scheduler-{workers}.json"

    def start(*args: str) -> None:
        processes.append(subprocess.Popen([*DASK, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True))

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(file))
        deadline = time.monotonic() + 60
        while not (file.exists() and "address" in file.read_text()):
            if time.monotonic() > deadline:
                raise SystemExit("the scheduler did not start")
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        for _ in range(workers):
            start("worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1")
        import distributed

        with distributed.Client(address, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)
        yield address
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _noop(x: int) -> int:
    return x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="0-199", help="A-B (default 0-199)")
    ap.add_argument("--max-nodes", type=int, default=3000, help="the node limit per deal (default 3000)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=2000, help="trivial tasks for the overhead figure")
    args = ap.parse_args()
    a, _, b = args.deals.partition("-")
    deals = range(int(a), int(b or a) + 1)
    times: dict[str, list[float]] = {"local": [], "1 worker": [], "2 workers": []}
    with tempfile.TemporaryDirectory() as folder, local_cluster(1, Path(folder)) as one, local_cluster(2, Path(folder)) as two:
        with cluster_module.connect(one) as c1, cluster_module.connect(two) as c2:
            results: dict[str, list[object]] = {}
            for _ in range(args.rounds):
                for name, mapper in (("local", None), ("1 worker", c1.map), ("2 workers", c2.map)):
                    start = time.perf_counter()
                    out = [(d, s.status, s.score, s.nodes) for d, s in solve_deals(deals, max_nodes=args.max_nodes, mapper=mapper)]
                    times[name].append(time.perf_counter() - start)
                    results.setdefault(name, out)
                    assert out == results["local"], f"{name}: results differ from the local run"
            print(f"solve deals {args.deals} ({len(deals)} deals), max_nodes {args.max_nodes}, {args.rounds} rounds interleaved;"
                  f" the same results everywhere")
            for name, values in times.items():
                print(f"  {name:>9}: median {statistics.median(values):6.2f} s, worst {max(values):6.2f} s")
            one_med, two_med = statistics.median(times["1 worker"]), statistics.median(times["2 workers"])
            print(f"  two workers against one: {one_med / two_med:.2f}x as fast (medians);"
                  f" one worker against local: {statistics.median(times['local']) / one_med:.2f}x")
            overhead: dict[str, list[float]] = {"chunked": [], "one per task": []}
            for _ in range(args.rounds):
                for name, limit in (("chunked", cluster_module.MAX_CHUNK), ("one per task", 1)):
                    saved, cluster_module.MAX_CHUNK = cluster_module.MAX_CHUNK, limit
                    try:
                        start = time.perf_counter()
                        assert sum(c2.map(_noop, range(args.tasks))) == sum(range(args.tasks))
                        overhead[name].append(time.perf_counter() - start)
                    finally:
                        cluster_module.MAX_CHUNK = saved
            print(f"{args.tasks} trivial tasks on two workers:")
            for name, values in overhead.items():
                median = statistics.median(values)
                print(f"  {name:>12}: median {median:6.2f} s ({1e6 * median / args.tasks:7.1f} µs a task), worst {max(values):6.2f} s")


if __name__ == "__main__":
    main()
