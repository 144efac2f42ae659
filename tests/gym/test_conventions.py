"""Gymnasium's conventions (issue 43): the ids in the ``foursquare`` namespace, the
autoreset mode declared in the metadata and kept by ``gymnasium.make_vec``, and the
deal's clairvoyant optimum on request (``best_score=True``: ``info["best_score"]``)."""

from __future__ import annotations

import math

import pytest

gymnasium = pytest.importorskip("gymnasium")  # the gym extra (NumPy comes with it)

import numpy as np  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import foursquare.gym  # noqa: E402
import foursquare.gym.env as env_module  # noqa: E402
from foursquare import Game  # noqa: E402
from foursquare.gym import ENV_IDS, NAMESPACE, EnvArgumentError, FoursquareEnv  # noqa: E402
from foursquare.solver import solve  # noqa: E402


def test_every_id_is_in_the_namespace_too_and_the_module_prefix_imports_it():
    for id_, preset in ENV_IDS.items():
        env = gymnasium.make(f"{NAMESPACE}/{id_}")
        assert env.unwrapped.rules == foursquare.PRESETS[preset]
    env = gymnasium.make("foursquare.gym:foursquare/Foursquare-ThreeSquare-v0")
    assert env.unwrapped.rules.label == "three-square"


def test_the_metadata_declares_next_step_autoreset_and_make_vec_keeps_it():
    assert FoursquareEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    envs = gymnasium.make_vec("Foursquare-v0", num_envs=2, vectorization_mode="sync", deal=1, illegal="lose")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    _, infos = envs.reset(seed=0)
    assert infos["action_mask"].sum(axis=1).tolist() == [49, 49]
    d4, d3, a1 = 24, 17, 0
    envs.step(np.array([d4, d4]))
    # a1 is not next to d4: the first environment's episode ends (illegal="lose"), the second plays on
    _, rewards, terminated, _, infos = envs.step(np.array([a1, d3]))
    assert terminated.tolist() == [True, False] and infos["reason"][0] == "illegal-action"
    assert infos["action_mask"][0].sum() == 0  # no action is legal in a finished game
    # the next step resets the first (its action ignored: a1 again) and plays the second
    _, rewards, terminated, _, infos = envs.step(np.array([a1, d3 + 1]))
    assert terminated.tolist() == [False, False] and rewards.tolist() == [0.0, 0.0]
    assert infos["_deal"].tolist() == [True, False] and infos["deal"][0] == 1
    assert infos["action_mask"][0].sum() == 49
    envs.close()


def test_best_score_is_the_solvers_optimum_at_the_reset_and_at_the_end():
    env = gymnasium.make("Foursquare-v0", best_score=True)
    _, info = env.reset(options={"deal": 42})
    assert info["best_score"] == 24.0  # foursquare solve --deal 42
    inner = env.unwrapped
    info_end: dict[str, object] = {}
    reward = 0.0
    for cell in solve(Game.from_deal(42)).moves:  # the optimal play: no regret
        _, reward, terminated, _, info_end = env.step(inner.action_of(cell))
    assert terminated and reward == 24.0 and info_end["best_score"] == 24.0
    assert float(info_end["best_score"]) - reward == 0.0  # type: ignore[arg-type]


def test_best_score_follows_the_reward_and_is_absent_unless_asked_for():
    _, info = gymnasium.make("Foursquare-v0", best_score=True, reward="win").reset(options={"deal": 42})
    assert info["best_score"] == 1.0
    _, info = gymnasium.make("Foursquare-v0").reset(options={"deal": 42})
    assert "best_score" not in info
    with pytest.raises(EnvArgumentError, match="best_score must be True or False, not 'yes'"):
        FoursquareEnv(best_score="yes")  # type: ignore[arg-type]


def test_best_score_is_nan_when_the_solvers_limit_runs_out(monkeypatch):
    monkeypatch.setattr(env_module, "DEFAULT_MAX_NODES", 1)
    _, info = FoursquareEnv(best_score=True).reset(options={"deal": 1})
    assert math.isnan(info["best_score"])


def test_best_score_comes_stacked_from_a_vector_environment():
    envs = gymnasium.make_vec("Foursquare-v0", num_envs=2, vectorization_mode="sync", best_score=True)
    _, infos = envs.reset(seed=3)
    assert infos["best_score"].dtype == np.float64 and infos["_best_score"].all()
    for number, best in zip(infos["deal"], infos["best_score"], strict=True):
        assert best == solve(Game.from_deal(int(number))).score
    envs.close()
