"""``foursquare analyze`` with the bot asked in a second process while the solver works
(``--jobs 2``, the default on a machine of two cores or more): the same output, byte
for byte, as asking it in turn with the solver (``--jobs 1``), in every format; when
each way is taken; and the options that go with it."""

from __future__ import annotations

import functools
import json
import os
import threading

import pytest
from helpers import invoke

import foursquare.bots as bots
from foursquare import parallel
from foursquare.bots import get_bot
from foursquare.engine.game import Game, Status
from foursquare.engine.rules import get_rules
from foursquare.formats.transcript import transcript_text


def _played(deal: int, moves: int | None, bot: str = "greedy", rules: str = "standard") -> Game:
    """``bot``'s first ``moves`` moves on ``deal`` (``None``: to the end of the game)."""
    game = Game.from_deal(deal, get_rules(rules))
    player = get_bot(bot)
    while game.status is Status.PLAYING and (moves is None or len(game.moves) < moves):
        game.play(player.choose(game.view()))
    return game


def _transcript(tmp_path, game: Game):
    path = tmp_path / f"game{game.deal}-{len(game.moves)}.yaml"
    path.write_text(transcript_text(game))
    return path


def _both(args: list[str]) -> tuple[str, str]:
    """The output of ``analyze ARGS`` with the bot in turn and beside the solver."""
    outs = []
    for jobs in ("1", "2"):
        r = invoke(["analyze", *args, "--jobs", jobs])
        assert r.exit_code == 0, r.output
        outs.append(r.stdout)
    return outs[0], outs[1]


@pytest.mark.parametrize(
    "deal, moves, limit, bot",
    [
        (325, 10, "30000", []),  # the hardest deal of 0-999, the default bot: unknown positions, win ranges
        (858, 20, "200000", ["--bot", "expectimax"]),
        (12, None, "200000", ["--bot", "expectimax"]),  # a whole game, to its end (no estimate after it)
        pytest.param(325, 20, "2000000", [], marks=pytest.mark.slow),  # issue 18's games, at the default limit
        pytest.param(858, 20, "2000000", [], marks=pytest.mark.slow),
        pytest.param(12, None, "200000", [], marks=pytest.mark.slow),
    ],
)
def test_the_bot_beside_the_solver_gives_the_same_json(tmp_path, deal, moves, limit, bot):
    path = _transcript(tmp_path, _played(deal, moves))
    one, two = _both([str(path), *bot, "--max-nodes", limit, "--format", "json"])
    assert one == two
    data = json.loads(two)
    assert data["bot"] is not None and data["complete"] is True
    assert all(m["bot_cell"] is not None and m["bot_win_chance"] is not None for m in data["moves"])


@pytest.mark.parametrize("fmt", ["text", "json", "yaml"])
def test_every_format_is_the_same_either_way(tmp_path, fmt):
    path = _transcript(tmp_path, _played(7, 12))
    one, two = _both([str(path), "--bot", "expectimax", "--max-nodes", "50000", "--format", fmt])
    assert one == two and ("expectimax" in two or "bot win" in two)


def test_a_variant_and_a_move_script_are_the_same_either_way(tmp_path):
    game = _played(3, 10, rules="three-square")
    script = tmp_path / "moves.txt"
    script.write_text("".join(f"{p.cell}\n" for p in game.moves))
    one, two = _both([str(script), "--deal", "3", "--rules", "three-square", "--format", "json"])
    assert one == two and json.loads(two)["rules"] == "three-square"


def _spy(monkeypatch, cores: int) -> list[int]:
    """Count the analyses that ask the bot beside the solver (in a second process,
    :func:`foursquare.parallel.in_background`), on a machine of ``cores``."""
    calls: list[int] = []
    real = parallel.in_background

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "in_background", spy)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    return calls


@pytest.mark.parametrize(
    "cores, args, beside",
    [
        (2, [], True),  # the default on two cores
        (8, [], True),
        (1, [], False),  # one core: in turn
        (2, ["--jobs", "1"], False),  # asked for
        (1, ["--jobs", "2"], True),
        (2, ["--no-bot"], False),  # no bot to ask
    ],
)
def test_the_bot_is_asked_beside_the_solver_on_two_cores_unless_told(monkeypatch, tmp_path, cores, args, beside):
    calls = _spy(monkeypatch, cores)
    path = _transcript(tmp_path, _played(12, 3))
    r = invoke(["analyze", str(path), "--bot", "greedy", "--max-nodes", "20000", "--format", "json", *args]
               if "--no-bot" not in args else ["analyze", str(path), "--max-nodes", "20000", *args])
    assert r.exit_code == 0, r.output
    assert bool(calls) is beside


def test_a_game_with_no_moves_has_nothing_to_ask_beside(monkeypatch):
    calls = _spy(monkeypatch, 2)
    r = invoke(["analyze", "-", "--deal", "4", "--jobs", "2", "--format", "json"], input="")
    assert r.exit_code == 0, r.output
    assert not calls and json.loads(r.stdout)["moves"] == []


def test_jobs_needs_a_bot():
    r = invoke(["analyze", "-", "--deal", "4", "--no-bot", "--jobs", "2"], input="d4\n")
    assert r.exit_code == 2 and "--no-bot cannot be used with --jobs" in r.stderr
    r = invoke(["analyze", "-", "--deal", "4", "--jobs", "0"], input="d4\n")
    assert r.exit_code == 2


def test_helping_the_bot_from_the_last_move_back_gives_the_same_estimates(monkeypatch, tmp_path):
    # the solver done first (a small limit), this process asks the bot too, from the
    # last move back: some estimates are its own, the same as the bot's process's
    mine: list[int] = []
    real = bots.recommend
    here = os.getpid()

    def counted(view, **kwargs):
        if os.getpid() == here:
            mine.append(1)
        return real(view, **kwargs)

    monkeypatch.setattr(bots, "recommend", counted)
    path = _transcript(tmp_path, _played(170, 10))  # (ten moves: the bot has work left long after the solver is done)
    one, two = _both([str(path), "--max-nodes", "2000", "--format", "json"])
    assert mine and one == two


def test_an_analysis_interrupted_once_the_solver_is_done_says_the_bot_was_cut_short(monkeypatch, tmp_path, request):
    # Ctrl-C while this process helps the bot: every move judged, the estimates of the
    # first moves (from the bot's process) kept, the others missing, and said so
    real = bots.recommend
    here = os.getpid()
    asked = []
    given, told = os.pipe()  # the bot's process says it has given its first three estimates

    def interrupted(view, **kwargs):
        if os.getpid() == here:  # Ctrl-C once the first three have come, however slow the bot's process
            os.read(given, 1)
            raise KeyboardInterrupt
        asked.append(view)  # (the bot's process, forked: its own list)
        if len(asked) > 3:  # its first three estimates given, then it waits to be killed: the
            os.write(told, b".")  # others are missing however fast it is
            threading.Event().wait()
        return real(view, **kwargs)

    monkeypatch.setattr(bots, "recommend", interrupted)
    for fd in (given, told):
        request.addfinalizer(functools.partial(os.close, fd))
    path = _transcript(tmp_path, _played(170, 20))
    for fmt in ("json", "text"):
        r = invoke(["analyze", str(path), "--max-nodes", "2000", "--jobs", "2", "--format", fmt])
        assert r.exit_code == 130, r.output
        if fmt == "json":
            data = json.loads(r.stdout)
            assert data["complete"] is False and len(data["moves"]) == 20
            with_bot = [m["bot_cell"] is not None for m in data["moves"]]
            assert not all(with_bot) and with_bot == sorted(with_bot, reverse=True)
        else:
            no_bot = f"  {'-':4} {'-':>8} {'-':>8}  "  # the bot's three columns, empty
            missing = sum(line[:4].strip().isdigit() and no_bot in line for line in r.stdout.splitlines())
            assert missing and f"all 20 moves judged, the bot's estimates of {missing} of them missing ('-')" in r.stdout
