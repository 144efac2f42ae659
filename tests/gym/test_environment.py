"""The environment (foursquare/gym/env.py): Gymnasium's checker, the player's view only
(RULES.md §6), the observation kept move by move equal to one built from the view, masks,
rewards, seeding, the ids, rendering, vector environments and every bad argument as a
clear error said by the environment, never from inside the engine."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the gym extra: pip install -e '.[gym]'")

import numpy as np  # noqa: E402  (NumPy comes with Gymnasium)
import yaml  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from helpers import EXAMPLES  # noqa: E402

from foursquare import PRESETS, Game, RulesError  # noqa: E402
from foursquare.engine.view import PlayerView  # noqa: E402
from foursquare.errors import ArgumentError, IllegalMoveError, ParseError, PositionError  # noqa: E402
from foursquare.gym import (  # noqa: E402
    ENV_IDS,
    EnvArgumentError,
    FoursquareEnv,
    IllegalActionError,
    InvalidActionError,
    ResetNeededError,
    sample_legal,
)

PACKAGE = Path(__import__("foursquare").__file__).parent


def observation_of(view: PlayerView, env: FoursquareEnv) -> dict[str, Any]:
    """The observation built from scratch from the player's view: what the environment keeps move by move."""
    rules = view.rules
    f = rules.frame
    rank, face_up, height = (np.zeros(f * f, np.int8) for _ in range(3))
    for cell, pile in view.grid.items():
        a = env.action_of(cell)
        rank[a], face_up[a], height[a] = pile.top >> 2, pile.face_up, len(pile.cards)
    unseen = np.zeros(rules.ranks, np.int8)
    for card in view.unseen:
        unseen[(card >> 2) - 1] += 1
    return {
        "rank": rank.reshape(f, f), "face_up": face_up.reshape(f, f), "height": height.reshape(f, f),
        "card": np.array([0 if view.next_card is None else view.next_card >> 2], np.int8), "unseen": unseen,
        "face_down": np.array([view.face_down], np.int8), "face_down_limit": np.array([rules.face_down_limit], np.int8),
        "stock": np.array([view.stock_count], np.int8),
    }


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def mask_of(view: PlayerView, env: FoursquareEnv) -> np.ndarray:
    mask = np.zeros(env.action_space.n, np.int8)
    for cell in view.legal_cells():
        mask[env.action_of(cell)] = 1
    return mask


def play_random(env: Any, rng: random.Random, deal: int | None = None) -> tuple[list[int], Any]:
    """One episode of random legal actions; the actions and the last step's result."""
    obs, info = env.reset(options={} if deal is None else {"deal": deal})
    actions = []
    while True:
        a = sample_legal(info["action_mask"], rng)
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated:
            return actions, (obs, reward, terminated, truncated, info)


def frames(error: BaseException) -> list[str]:
    """The files of the frames an error's traceback passes through."""
    out = []
    tb = error.__traceback__
    while tb is not None:
        out.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return out


# ------------------------------------------------------------------ Gymnasium's own checks


@pytest.mark.parametrize("preset", ["standard", "three-square", "fixed-board", "five-square"])
def test_check_env_passes(preset):
    # check_env steps twice with unmasked random actions: an illegal one must end the episode
    # rather than raise, so it checks the environment made with illegal="lose".
    env = gymnasium.make("Foursquare-v0", rules=preset, illegal="lose", render_mode="ansi")
    check_env(env.unwrapped)


def test_every_preset_has_an_id_and_make_finds_each():
    assert set(ENV_IDS.values()) == set(PRESETS)
    assert ENV_IDS["Foursquare-v0"] == "standard" and ENV_IDS["Foursquare-ThreeSquare-v0"] == "three-square"
    for id_, preset in ENV_IDS.items():
        env = gymnasium.make(id_)
        rules = PRESETS[preset]
        assert env.unwrapped.rules == rules
        assert env.action_space.n == rules.frame ** 2
        assert env.observation_space["unseen"].shape == (rules.ranks,)
    assert gymnasium.make("foursquare.gym:Foursquare-v0").unwrapped.rules.label == "standard"


# ------------------------------------------------------------------ the player's view, exactly


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_observation_kept_move_by_move_is_the_one_built_from_the_players_view(preset):
    env = FoursquareEnv(rules=preset)
    rng = random.Random(preset)
    for deal in range(12):
        obs, info = env.reset(options={"deal": deal})
        while True:
            view = env.view()
            assert same(obs, observation_of(view, env)), (preset, deal, env.placed)
            assert env.observation_space.contains(obs)
            assert np.array_equal(info["action_mask"], mask_of(view, env)) and info["action_mask"].dtype == np.int8
            assert np.array_equal(env.action_masks(), info["action_mask"])
            if env.view().status.value != "playing":
                break
            obs, _, terminated, truncated, info = env.step(sample_legal(info["action_mask"], rng))
            assert not truncated
        assert terminated and not env.action_masks().any()


@pytest.mark.parametrize("deal", [0, 7, 153])
def test_no_observation_or_mask_depends_on_the_order_of_the_hidden_cards(deal):
    # RULES.md §6: the stock's order is hidden.  At every step k of a game, the same game
    # with the cards after the one in hand shuffled gives the same observations and masks.
    env = FoursquareEnv()
    deck = [str(c) for c in Game.from_deal(deal).deck]
    actions, _ = play_random(env, random.Random(deal), deal)
    rng = random.Random(-deal)

    def seen(game_deck: list[str], k: int) -> list[tuple[dict[str, Any], np.ndarray]]:
        obs, info = env.reset(options={"deck": game_deck})
        out = [(obs, info["action_mask"])]
        for a in actions[:k]:
            obs, _, _, _, info = env.step(a)
            out.append((obs, info["action_mask"]))
        return out

    for k in range(len(actions)):
        hidden = deck[k + 1:]
        while len(hidden) > 1 and hidden == deck[k + 1:]:
            rng.shuffle(hidden)
        pairs = list(zip(seen(deck, k), seen(deck[: k + 1] + hidden, k), strict=True))
        assert len(pairs) == k + 1
        for (obs1, mask1), (obs2, mask2) in pairs:
            assert same(obs1, obs2) and np.array_equal(mask1, mask2), (deal, k)


def test_the_observation_returned_is_fresh_at_every_step():
    env = gymnasium.make("Foursquare-v0")
    obs, info = env.reset(options={"deal": 1})
    kept = {k: v.copy() for k, v in obs.items()}
    mask = info["action_mask"].copy()
    env.step(24)
    assert same(obs, kept) and np.array_equal(info["action_mask"], mask)


# ------------------------------------------------------------------ rewards and the end


def _game_of(name: str) -> Game:
    """The game an example transcript records (examples/README.md)."""
    doc = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
    game = Game.from_deal(doc["deal"])
    for move in doc["moves"]:
        game.play(move["cell"])
    return game


@pytest.mark.parametrize("reward, expected", [("score", 8.0), ("win", 1.0)])
def test_a_win_is_worth_its_score_or_one_and_every_other_step_nothing(reward, expected):
    game = _game_of("won.yaml")  # deal 153, won with score 8
    env = gymnasium.make("Foursquare-v0", reward=reward)
    env.reset(options={"deal": 153})
    rewards = []
    for move in game.moves:
        _, r, terminated, truncated, info = env.step(env.unwrapped.action_of(move.cell))
        rewards.append(r)
        assert not truncated
    assert terminated and rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == expected
    assert (info["status"], info["reason"], info["score"]) == ("won", None, 8)


@pytest.mark.parametrize("reward", ["score", "win"])
def test_a_loss_is_worth_nothing(reward):
    game = _game_of("lost.yaml")  # deal 21, lost with five face down
    env = FoursquareEnv(reward=reward)
    env.reset(options={"deal": 21})
    for move in game.moves:
        _, r, terminated, _, info = env.step(env.action_of(move.cell))
        assert r == 0.0
    assert terminated and (info["status"], info["reason"], info["score"]) == ("lost", "too-many-face-down", None)


def test_an_illegal_action_ends_the_episode_as_a_loss_with_illegal_lose():
    env = gymnasium.make("Foursquare-v0", illegal="lose")
    env.reset(options={"deal": 1})
    env.step(24)  # d4
    obs, reward, terminated, truncated, info = env.step(0)  # a1: not next to a pile
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert (info["status"], info["reason"], info["score"]) == ("lost", "illegal-action", None)
    assert not info["action_mask"].any() and not env.unwrapped.action_masks().any()
    assert int(obs["height"][3, 3]) == 1 and int(obs["height"][0, 0]) == 0  # the illegal card was not placed
    assert int(obs["card"][0]) == 0  # the game is over: no card in hand
    with pytest.raises(ResetNeededError, match=r"the episode is over \(lost, illegal-action\)"):
        env.step(25)


# ------------------------------------------------------------------ seeding and named deals


def test_a_seed_draws_the_same_deals_and_info_says_which():
    def deals(seed: int) -> list[int]:
        env = gymnasium.make("Foursquare-v0")
        first = env.reset(seed=seed)[1]["deal"]
        return [first] + [env.reset()[1]["deal"] for _ in range(4)]

    assert deals(5) == deals(5) != deals(6)
    assert all(type(d) is int and 0 <= d < 2**63 for d in deals(5))  # int64, for vector environments' infos
    assert len(set(deals(5))) == 5


def test_a_named_deal_plays_that_deal_and_a_deck_its_order():
    env = FoursquareEnv()
    obs, info = env.reset(seed=1, options={"deal": 42})
    assert info["deal"] == 42 == env.deal and str(env.view().next_card) == "6H"  # RULES.md §2's vector
    assert FoursquareEnv(deal=42).reset()[1]["deal"] == 42
    deck = list(reversed(Game.from_deal(42).deck))
    obs, info = env.reset(options={"deck": deck})
    assert info["deal"] is None and env.view().next_card == deck[0]


# ------------------------------------------------------------------ bad arguments: clear errors, said here


def _raised(kind: type[BaseException], call: Any, match: str) -> BaseException:
    with pytest.raises(kind, match=match) as caught:
        call()
    engine = str(PACKAGE / "engine")
    assert not [f for f in frames(caught.value) if f.startswith(engine)], "raised from inside the engine"
    return caught.value


def test_unknown_rules_and_other_bad_arguments_of_make_are_clear_errors():
    error = _raised(RulesError, lambda: gymnasium.make("Foursquare-v0", rules="nine-square"), "unknown|preset")
    assert str(error) == (
        "FoursquareEnv: rules must be a Rules value or a preset's name (" + ", ".join(PRESETS) + "), not 'nine-square'"
    )
    _raised(EnvArgumentError, lambda: gymnasium.make("Foursquare-v0", illegal="skip"), r"illegal must be one of 'raise', 'lose', not 'skip'")
    _raised(EnvArgumentError, lambda: gymnasium.make("Foursquare-v0", reward=1), r"reward must be one of 'score', 'win', not 1")
    _raised(EnvArgumentError, lambda: FoursquareEnv(render_mode="human"), r"render_mode must be one of 'ansi'")
    _raised(ParseError, lambda: gymnasium.make("Foursquare-v0", deal=-1), r"^FoursquareEnv: not a deal number: -1")
    assert isinstance(EnvArgumentError("x"), gymnasium.error.Error) and isinstance(EnvArgumentError("x"), ArgumentError)


@pytest.mark.parametrize("action, match", [
    (49, r"^FoursquareEnv.step: action 49 is out of range: the actions are 0 to 48, the cells a1 to g7 row by row$"),
    (-1, r"action -1 is out of range"),
    (True, r"action must be a whole number from 0 to 48, not True"),
    ("d4", r"action must be a whole number from 0 to 48, not 'd4'"),
    (24.0, r"action must be a whole number"),
    (np.array([24, 25]), r"action must be a whole number"),
])
def test_an_action_out_of_the_space_is_a_clear_error(action, match):
    env = gymnasium.make("Foursquare-v0")
    env.reset(options={"deal": 1})
    error = _raised(InvalidActionError, lambda: env.step(action), match)
    assert isinstance(error, gymnasium.error.InvalidAction) and isinstance(error, ArgumentError)


def test_numpy_integers_are_actions():
    env = gymnasium.make("Foursquare-v0")
    env.reset(options={"deal": 1})
    env.step(np.int64(24))
    env.step(np.array(25))
    assert env.unwrapped.placed == 2


def test_an_illegal_action_raises_by_default_saying_why():
    env = gymnasium.make("Foursquare-v0")
    env.reset(options={"deal": 1})
    env.step(24)
    error = _raised(IllegalActionError, lambda: env.step(0), r"^FoursquareEnv.step: action 0 \(a1\) is illegal: not next to a pile \(above, below or beside it\) \(info\['action_mask'\] marks the legal actions\)$")
    assert isinstance(error, gymnasium.error.InvalidAction) and isinstance(error, IllegalMoveError)
    assert env.unwrapped.placed == 1  # nothing happened: the episode goes on
    env.step(25)


def test_a_step_after_the_end_or_before_any_reset_needs_a_reset():
    env = FoursquareEnv()
    _raised(ResetNeededError, lambda: env.step(24), r"^FoursquareEnv.step: no game yet: call reset\(\) first$")
    _raised(ResetNeededError, env.view, "call reset")
    play_random(env, random.Random(0), 21)
    _raised(ResetNeededError, lambda: env.step(24), r"^FoursquareEnv.step: the episode is over \(lost\): call reset\(\) to start another$")
    assert isinstance(ResetNeededError("x"), gymnasium.error.ResetNeeded)
    env.reset()
    env.step(24)


@pytest.mark.parametrize("options, kind, match", [
    ({"deal": "42"}, ParseError, r"^FoursquareEnv.reset: not a deal number: '42'"),
    ({"deal": 2**64}, ParseError, r"not a deal number"),
    ({"seed": 1}, EnvArgumentError, r"options must be \{\}, \{'deal': N\} or \{'deck': cards\}"),
    ({"deal": 1, "deck": []}, EnvArgumentError, r"options must be"),
    ({"deck": ["AC", "2C"]}, EnvArgumentError, r"the deck option must list all 40 cards of the deck, top first"),
    ({"deck": ["AC"] * 40}, PositionError, r"^FoursquareEnv.reset: the deck option: the deck holds AC twice$"),
    ({"deck": ["XX"] * 40}, ParseError, r"^FoursquareEnv.reset: the deck option: "),
])
def test_bad_reset_options_are_clear_errors(options, kind, match):
    _raised(kind, lambda: FoursquareEnv().reset(options=options), match)


# ------------------------------------------------------------------ rendering, cells, vector environments


def test_ansi_render_is_the_position_as_text_and_no_mode_renders_nothing():
    env = gymnasium.make("Foursquare-v0", render_mode="ansi")
    env.reset(options={"deal": 1})
    env.step(24)
    text = env.render()
    assert text.splitlines()[:2] == ["Card to place: 3C", "Stock: 39   Face down: 0 (limit 4)"]
    assert text.splitlines()[6] == " 4    .     .     +    2D:1   +     .     ."
    assert FoursquareEnv().render() is None


def test_cells_and_actions_are_the_frame_in_reading_order():
    env = FoursquareEnv()
    assert [str(env.cell_of(a)) for a in (0, 6, 24, 48)] == ["a1", "g1", "d4", "g7"]
    assert env.action_of("d4") == 24 and env.action_of(env.cell_of(30)) == 30
    _raised(InvalidActionError, lambda: env.action_of("h1"), r"h1 is outside the frame \(a1 to g7\)")


def _vector_play(envs: Any, steps: int) -> int:
    rng = random.Random(0)
    obs, infos = envs.reset(seed=3)
    ended = 0
    for _ in range(steps):
        actions = [sample_legal(m, rng) if m.any() else 0 for m in infos["action_mask"]]  # no legal action: autoreset next
        obs, rewards, terminated, truncated, infos = envs.step(np.array(actions))
        assert envs.observation_space.contains(obs) and not truncated.any()
        ended += int(terminated.sum())
    return ended


def test_sync_vector_env_plays_many_games():
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("Foursquare-v0") for _ in range(3)])
    assert _vector_play(envs, 150) >= 6
    envs.close()


def test_async_vector_env_plays_games_in_worker_processes():
    envs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make("Foursquare-v0") for _ in range(2)])
    try:
        assert _vector_play(envs, 60) >= 2
    finally:
        envs.close(terminate=True)


# ------------------------------------------------------------------ copies of an environment


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copy_of_an_environment_keeps_its_observation_up_to_date(how):
    # a copy (lookahead, a vector env's spawn/forkserver worker) once lost the flat views
    # through which the grids are written: its board stopped following its game
    import copy
    import pickle

    rng = random.Random(how)
    for made_at in (0, 1, 5):  # before the first reset, at the start, in the middle of a game
        env = FoursquareEnv()
        if made_at:
            _, info = env.reset(options={"deal": 1})
            for _ in range(made_at - 1):
                _, _, _, _, info = env.step(sample_legal(info["action_mask"], rng))
        twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
        if not made_at:
            _, info = twin.reset(options={"deal": 1})
        else:
            info = {"action_mask": twin.action_masks()}
        for _ in range(8):
            obs, _, terminated, _, info = twin.step(sample_legal(info["action_mask"], rng))
            assert same(obs, observation_of(twin.view(), twin)), (how, made_at, twin.placed)
            if terminated:
                break
        obs, info = twin.reset(options={"deal": 2})
        assert same(obs, observation_of(twin.view(), twin))


def test_an_async_vector_env_of_environments_made_before_spawn_plays_them_right():
    made = [FoursquareEnv() for _ in range(2)]
    envs = gymnasium.vector.AsyncVectorEnv([lambda env=env: env for env in made], context="spawn")
    try:
        obs, infos = envs.reset(options={"deal": 1})
        for step in range(3):
            actions = np.array([sample_legal(mask, random.Random(step)) for mask in infos["action_mask"]])
            obs, _, _, _, infos = envs.step(actions)
            assert obs["height"].sum() == 2 * (step + 1)  # every card placed is on the board of each
    finally:
        envs.close(terminate=True)


@pytest.mark.parametrize(
    ("mask", "match"),
    [
        (np.ones((2, 49), np.int8), "a 1-D array of 0 and 1, .*a vector environment's masks: sample each row"),
        (np.zeros(49, np.int8), "no action is legal"),
        ("1010", "sample_legal: mask must be one environment's mask"),
        (np.array([0.5, 1.0]), "sample_legal: mask must be one environment's mask"),
    ],
)
def test_sample_legal_takes_one_mask_and_says_so_otherwise(mask, match):
    with pytest.raises(EnvArgumentError, match=match):
        sample_legal(mask, random.Random(0))
    assert sample_legal([0, 1, 0], random.Random(0)) == 1  # a list of 0 and 1 is a mask


def test_an_error_of_cell_of_or_action_of_says_which_method():
    env = FoursquareEnv()
    with pytest.raises(InvalidActionError, match="^FoursquareEnv.cell_of: action 49 is out of range"):
        env.cell_of(49)
    with pytest.raises(InvalidActionError, match="^FoursquareEnv.cell_of: action must be a whole number"):
        env.cell_of(24.0)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="^FoursquareEnv.action_of: "):
        env.action_of("z9")
