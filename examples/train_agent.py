"""Agents in the Gymnasium environment: a masked random agent and the ``deep`` bot, on the same deals.

    pip install -e '.[gym]'
    python examples/train_agent.py            # under a minute on one core
    python examples/train_agent.py --deals 500 --nodes 20000

Each agent plays deals 0 .. N-1 through ``gymnasium.make("Foursquare-v0")`` (the
player's view only: RULES.md §6) and the script prints its win rate with the 95%
Wilson interval and its mean score (losses count 0) with its interval.  The
random agent picks a uniformly random legal action from ``info["action_mask"]``;
``deep`` plays through :class:`foursquare.gym.BotPlayer`, so its games are those of
``foursquare simulate --bot deep --nodes N --deals 0-(N-1)``.  An agent of your own
(a policy trained with MaskablePPO, say) goes where ``act`` is: it is given the
environment, the observation and the mask, and returns an action.

docs/guide/training.md explains the observation, the actions, the masks and the
rewards, and how to compare an agent with the bots and the solver's bound.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium

import foursquare.gym  # noqa: F401  (registers Foursquare-v0)
from foursquare.figures import mean_interval, wilson_interval
from foursquare.gym import BotPlayer, sample_legal

#: An agent: (environment, observation, action mask) -> action.
Agent = Callable[[gymnasium.Env[Any, Any], dict[str, Any], Any], int]


def play(agent: Agent, deals: range) -> tuple[list[float], int]:
    """Each deal's reward (the score of a win, 0 for a loss) and the number of wins
    (``info["status"]``: a win on the deck's last card scores 0)."""
    env = gymnasium.make("Foursquare-v0")
    rewards, won = [], 0
    for deal in deals:
        obs, info = env.reset(options={"deal": deal})
        while True:
            obs, reward, terminated, truncated, info = env.step(agent(env, obs, info["action_mask"]))
            if terminated or truncated:
                rewards.append(float(reward))
                won += info["status"] == "won"
                break
    env.close()
    return rewards, won


def report(name: str, rewards: list[float], won: int, seconds: float) -> None:
    """One line: the games, the win rate with its 95% Wilson interval, the mean score with its interval."""
    n = len(rewards)
    low, high = wilson_interval(won, n)
    mean, _, (mean_low, mean_high) = mean_interval(rewards, 0.0, 40.0)
    print(
        f"{name:<14} {n} games  won {won} ({won / n:.1%}, 95% {low:.1%} to {high:.1%})  "
        f"mean score {mean:.2f} (95% {mean_low:.2f} to {mean_high:.2f})  {seconds:.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals 0 .. N-1 (default 200)")
    parser.add_argument("--nodes", type=int, default=3000, help="the deep bot's work per move (default 3000)")
    args = parser.parse_args(argv)
    deals = range(args.deals)
    rng = random.Random(0)
    deep = BotPlayer("deep", nodes=args.nodes)
    agents: dict[str, Agent] = {
        "masked random": lambda env, obs, mask: sample_legal(mask, rng),
        f"deep ({args.nodes})": lambda env, obs, mask: deep.act(env),
    }
    print(f"deals 0 to {args.deals - 1}, standard rules, through gymnasium.make('Foursquare-v0')")
    for name, agent in agents.items():
        start = time.perf_counter()
        rewards, won = play(agent, deals)
        report(name, rewards, won, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
