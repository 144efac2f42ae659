"""The Gymnasium environment's speed: random masked play through ``gymnasium.make("Foursquare-v0")``.

A plain script (not a test): ``python benchmarks/bench_gym.py`` (needs the gym extra:
``pip install -e '.[gym]'``).  In the same run, and printed side by side:

- the bare engine's placements/s (``bench_engine.py``'s figure: ``legal_cells()``, a
  random pick, ``play()``, the deal outside the clock);
- steps/s through ``gymnasium.make("Foursquare-v0")`` (its wrappers included): an agent
  that picks a uniformly random legal action from ``info["action_mask"]``, the
  observation and the mask returned fresh at every step, ``reset()`` inside the clock;
- the same on ``env.unwrapped`` (the environment without Gymnasium's wrappers).

Each figure is measured ``--repeat`` times, interleaved, and the median printed with
the range.  Times are the process's CPU time (``time.process_time``).  One core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium

sys.path.insert(0, str(Path(__file__).parent))
from bench_engine import bench_placements, report  # noqa: E402

import foursquare.gym  # noqa: E402,F401  (registers Foursquare-v0)
from foursquare.engine.rules import get_rules  # noqa: E402


def bench_env(env: gymnasium.Env[Any, Any], steps: int, seed: int) -> tuple[float, int]:
    """CPU seconds for ``steps`` steps of random masked play (resets included), and the steps made."""
    rng = random.Random(seed)
    pick = rng.random
    _, info = env.reset(seed=seed)
    step = env.step
    reset = env.reset
    n = 0
    t0 = time.process_time()
    while n < steps:
        legal = info["action_mask"].nonzero()[0]
        _, _, terminated, _, info = step(legal[int(pick() * len(legal))])
        n += 1
        if terminated:
            _, info = reset()
    return time.process_time() - t0, n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="engine playouts per run (default 1000)")
    parser.add_argument("--steps", type=int, default=30000, help="environment steps per run (default 30000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--rules", default="standard", help="rule preset (default standard)")
    args = parser.parse_args(argv)
    rules = get_rules(args.rules)
    env = gymnasium.make("Foursquare-v0", rules=rules)
    print(f"foursquare engine and Gymnasium {gymnasium.__version__} environment, {rules.label} rules, Python {sys.version.split()[0]}")
    engine, made, bare = [], [], []
    for run in range(args.repeat):
        seconds, n = bench_placements(range(run * args.games, (run + 1) * args.games), rules, run)
        engine.append(n / seconds)
        seconds, n = bench_env(env, args.steps, run)
        made.append(n / seconds)
        seconds, n = bench_env(env.unwrapped, args.steps, run)
        bare.append(n / seconds)
    report("engine placements/s", engine, "/s")
    report("env steps/s (gymnasium.make)", made, "/s")
    report("env steps/s (env.unwrapped)", bare, "/s")
    print(f"{'':<28} the environment through make: {statistics.median(made) / statistics.median(engine):.0%} of the bare engine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
