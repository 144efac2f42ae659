"""Whole episodes (foursquare/gym/players.py and the env's transcripts): a bot through the
environment plays the games ``foursquare simulate`` plays with it on the same deals, and
every episode, won, lost or ended by an illegal action, is a transcript ``validate`` accepts."""

from __future__ import annotations

import csv
import random

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the gym extra: pip install -e '.[gym]'")

from helpers import invoke  # noqa: E402

from foursquare.bots import get_bot  # noqa: E402
from foursquare.errors import ArgumentError  # noqa: E402
from foursquare.gym import BotPlayer, EnvArgumentError, sample_legal  # noqa: E402

DEALS = range(50)


def simulated(tmp_path, bot: str, seed: int, *options: str) -> list[dict[str, str]]:
    out = tmp_path / f"{bot}.csv"
    result = invoke(["simulate", "--bot", bot, "--deals", f"{DEALS[0]}-{DEALS[-1]}", "--seed", seed, "--output", out, *options])
    assert result.exit_code == 0, result.output
    with out.open(newline="") as rows:
        return list(csv.DictReader(rows))


def through_the_env(player: BotPlayer) -> list[dict[str, str]]:
    env = gymnasium.make("Foursquare-v0")
    rows = []
    for deal in DEALS:
        _, info = env.reset(options={"deal": deal})
        moves = 0
        while True:
            _, reward, terminated, _, info = env.step(player.act(env))
            moves += 1
            if terminated:
                break
        score = info["score"]
        assert reward == (score or 0)
        rows.append({
            "deal": str(deal), "status": info["status"], "reason": info["reason"] or "",
            "score": "" if score is None else str(score), "moves": str(moves),
        })
    return rows


@pytest.mark.parametrize("bot, seed, options", [
    ("greedy", 0, ()),
    ("random", 7, ()),  # the random bot uses its seeds: the env's episodes must draw them as simulate does
])
def test_a_bot_through_the_env_plays_the_games_simulate_plays(tmp_path, bot, seed, options):
    expected = [
        {key: row[key] for key in ("deal", "status", "reason", "score", "moves")} for row in simulated(tmp_path, bot, seed, *options)
    ]
    assert through_the_env(BotPlayer(bot, seed=seed)) == expected
    assert any(row["status"] == "won" for row in expected) or bot == "random"


def test_deep_with_a_work_limit_plays_the_games_simulate_plays(tmp_path):
    global DEALS
    deals, DEALS = DEALS, range(40, 46)
    try:
        expected = [
            {key: row[key] for key in ("deal", "status", "reason", "score", "moves")}
            for row in simulated(tmp_path, "deep", 0, "--nodes", "300")
        ]
        assert through_the_env(BotPlayer(get_bot("deep", 300))) == expected
    finally:
        DEALS = deals


def test_bot_player_takes_only_a_foursquare_environment_and_its_own_arguments():
    with pytest.raises(EnvArgumentError, match="BotPlayer.act: env must be a Foursquare environment"):
        BotPlayer("greedy").act(gymnasium.make("CartPole-v1"))
    with pytest.raises(ArgumentError, match="unknown bot 'best'"):
        BotPlayer("best")
    with pytest.raises(ArgumentError, match="BotPlayer: seed must be"):
        BotPlayer("greedy", seed="1")  # type: ignore[arg-type]
    # numbers out of range too, in BotPlayer's name (not get_bot's, nor played as nodes=1)
    for keywords, words in [({"nodes": 0}, "BotPlayer: nodes must be a whole number of at least 1"),
                            ({"nodes": -1000}, "BotPlayer: nodes must be a whole number of at least 1"),
                            ({"nodes": 1.5}, "BotPlayer: nodes must be a whole number"),
                            ({"budget": -1.0}, "BotPlayer: budget must be a number of seconds, 0 or more"),
                            ({"seed": -1}, "BotPlayer: seed must be a whole number of at least 0")]:  # fmt: skip
        with pytest.raises(ArgumentError, match=words):
            BotPlayer("deep", **keywords)  # type: ignore[arg-type]


def test_every_episode_is_a_transcript_that_validate_accepts(tmp_path):
    rng = random.Random(3)
    texts = []
    env = gymnasium.make("Foursquare-v0", illegal="lose")
    greedy = BotPlayer("greedy")
    for deal in range(8):  # greedy wins some of them
        env.reset(options={"deal": deal})
        while not env.step(greedy.act(env))[2]:
            pass
        texts.append(env.unwrapped.transcript())
    for deal in range(8, 12):  # random legal actions, then one illegal action ends the last
        _, info = env.reset(options={"deal": deal})
        for _ in range(3 if deal == 11 else 99):
            _, _, terminated, _, info = env.step(sample_legal(info["action_mask"], rng))
            if terminated:
                break
        if deal == 11:
            assert env.step(int(info["action_mask"].argmin()))[4]["reason"] == "illegal-action"
        texts.append(env.unwrapped.transcript())
    three = gymnasium.make("Foursquare-ThreeSquare-v0")
    _, info = three.reset(seed=2)
    while not three.step(sample_legal(info["action_mask"], rng))[2]:
        info = {"action_mask": three.unwrapped.action_masks()}
    texts.append(three.unwrapped.transcript())
    results = [t.split("result: ")[1] for t in texts]
    assert "{status: playing, reason: null, score: null}\n" in results  # the episode an illegal action ended
    assert any(r.startswith("{status: won") for r in results) and any(r.startswith("{status: lost") for r in results)
    path = tmp_path / "episodes.yaml"
    path.write_text("---\n".join(texts), encoding="utf-8")
    result = invoke(["validate", path])
    assert result.exit_code == 0, result.output
    assert result.output.endswith("episodes.yaml: 13 games, all valid\n")
    replay = invoke(["replay", path, "--game", "13", "--final"])  # the three-square game
    assert replay.exit_code == 0, replay.output


def test_the_training_example_prints_each_agents_win_rate_and_mean_score(capsys):
    import importlib.util

    from helpers import EXAMPLES

    spec = importlib.util.spec_from_file_location("train_agent", EXAMPLES / "train_agent.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(["--deals", "4", "--nodes", "300"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "deals 0 to 3, standard rules, through gymnasium.make('Foursquare-v0')"
    assert lines[1].startswith("masked random  4 games  won 0 (0.0%, 95% 0.0% to 49.0%)  mean score 0.00")
    assert lines[2].startswith("deep (300)     4 games  won ")
