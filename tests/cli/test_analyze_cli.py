"""``foursquare analyze`` at the command line: what its JSON and YAML name (the deal,
the rules, the bot), the bounds of unknown positions in its text, a deck equal to the
deal's, and an interrupted analysis (Ctrl-C, SIGTERM) as a real subprocess."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import yaml
from helpers import ROOT, invoke

from foursquare.bots import DEFAULT, get_bot
from foursquare.engine.deal import deal_deck
from foursquare.engine.game import Game, Status
from foursquare.formats.transcript import transcript_text


def _greedy(deal: int, moves: int, deck: bool = False) -> Game:
    """The greedy bot's first ``moves`` moves on ``deal`` (on its card order as a deck
    of its own, naming no deal, with ``deck``)."""
    game = Game(deal_deck(deal)) if deck else Game.from_deal(deal)
    bot = get_bot("greedy")
    while game.status is Status.PLAYING and len(game.moves) < moves:
        game.play(bot.choose(game.view()))
    return game


def _transcript(tmp_path, game: Game, name: str = "game.yaml"):
    path = tmp_path / name
    path.write_text(transcript_text(game))
    return path


@pytest.mark.parametrize("fmt", ["json", "yaml"])
@pytest.mark.parametrize("bot, named", [([], DEFAULT), (["--bot", "greedy"], "greedy"), (["--no-bot"], None)])
def test_the_json_and_yaml_name_the_deal_the_rules_and_the_bot_consulted(tmp_path, fmt, bot, named):
    path = _transcript(tmp_path, _greedy(12, 3))
    r = invoke(["analyze", str(path), *bot, "--max-nodes", "20000", "--format", fmt])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout) if fmt == "json" else yaml.safe_load(r.stdout)
    assert data["bot"] == named  # the bot's own name, not "default"
    assert data["deal"] == 12 and data["rules"] == "standard"
    assert data["complete"] is True and data["moves_played"] == 3 == len(data["moves"])
    if named is not None:
        assert all(m["bot_cell"] is not None for m in data["moves"])


def test_the_json_names_a_variant_and_a_deck_of_its_own(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("d4\ne4\n")
    r = invoke(["analyze", str(script), "--deal", "3", "--rules", "three-square", "--no-bot", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["deal"] == 3 and data["rules"] == "three-square"
    deck = tmp_path / "deck.txt"
    deck.write_text(" ".join(str(c) for c in deal_deck(3)))
    r = invoke(["analyze", str(script), "--deck", str(deck), "--no-bot", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["deal"] is None


def test_an_unknown_position_shows_its_bound_as_solve_gives_it():
    # the node limit runs out at once: no position is settled, each shows the best
    # score not ruled out, the number the JSON gives as max_before / max_after
    args = ["analyze", "-", "--deal", "7", "--no-bot", "--max-nodes", "3"]
    text = invoke(args, input="d4\ne4\n")
    data = json.loads(invoke([*args, "--format", "json"], input="d4\ne4\n").stdout)
    assert text.exit_code == 0, text.output
    rows = [line for line in text.stdout.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 2
    for row, move in zip(rows, data["moves"], strict=True):
        assert move["before"] == "unknown" and move["max_before"] is not None
        assert f"unknown <={move['max_before']}" in row and f"unknown <={move['max_after']}" in row
    assert f"start: unknown <={data['max_start']};" in text.stdout
    assert "unknown <=N: the limit ran out; no win scores more than N" in text.stdout
    assert " unknown " not in text.stdout.replace("unknown <=", "")  # never a bare 'unknown' position


def test_a_winnable_position_left_unknown_shows_the_range_of_its_best_score(tmp_path):
    # later positions settled, earlier ones not: the game shows a win scoring at least
    # the later best score; the text gives the range, the JSON both ends
    path = _transcript(tmp_path, _greedy(325, 20))
    text = invoke(["analyze", str(path), "--no-bot", "--max-nodes", "30000"])
    data = json.loads(invoke(["analyze", str(path), "--no-bot", "--max-nodes", "30000", "--format", "json"]).stdout)
    ranged = [m for m in data["moves"] if m["best_before"] is None]
    assert ranged
    for m in ranged:
        assert m["before"] == "win" and m["least_before"] <= m["max_before"]
        row = next(line for line in text.stdout.splitlines() if re.match(rf"\s*{m['number']}\s", line))
        assert f"win {m['least_before']}-{m['max_before']}" in row
    assert "win A-B: winnable (the game itself shows a win scoring A); no win scores more than B" in text.stdout


def test_a_transcript_on_the_deals_own_card_order_takes_that_deal(tmp_path):
    # a transcript with a deck of its own that is deal 5's order: --deal 5 agrees with
    # it (and names the deal); another deal still disagrees
    path = _transcript(tmp_path, _greedy(5, 6, deck=True))
    assert "deck:" in path.read_text() and "deal:" not in path.read_text()
    r = invoke(["analyze", str(path), "--deal", "5", "--no-bot", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["deal"] == 5
    other = invoke(["analyze", str(path), "--deal", "6", "--no-bot"])
    assert other.exit_code == 2 and "--deal 6 disagrees" in other.stderr


# ------------------------------------------------------------ interrupted


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _run_and_stop(path, signum, fmt, bot=("--no-bot",), group=False, seen_children=None):
    """Start ``analyze`` on ``path`` (stderr on a pseudo-terminal, to see its progress
    bar start), send ``signum`` once the analysis is under way (to its whole process
    group with ``group``, as a terminal's Ctrl-C does): (status, stdout, stderr).
    ``seen_children``, a list, gets the process ids of its children just before."""
    import pty

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare", "analyze", str(path), *bot, "--format", fmt],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, cwd=ROOT, env=dict(os.environ),
        start_new_session=group,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    while b"analyzing" not in seen and time.monotonic() < deadline:
        seen += os.read(master, 4096)
    assert b"analyzing" in seen
    time.sleep(1.0)  # a few positions judged (the whole takes seconds)
    if seen_children is not None:
        seen_children.extend(_children(process.pid))
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the program closed its end of the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out = process.communicate(timeout=60)[0].decode()
    return process.returncode, out, seen.decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and terminals")
@pytest.mark.parametrize("signum, code, word", [(signal.SIGINT, 130, "Interrupted."), (signal.SIGTERM, 143, "Terminated.")])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_interrupted_analysis_prints_what_it_judged_and_says_it_is_incomplete(tmp_path, signum, code, word, fmt):
    path = _transcript(tmp_path, _greedy(325, 20))  # the hardest deal of 0-999: seconds of work
    status, out, err = _run_and_stop(path, signum, fmt)
    assert status == code, (out, err)
    assert "Traceback" not in err and err.rstrip().endswith(word)
    if fmt == "json":
        data = json.loads(out)
        assert data["complete"] is False and data["moves_played"] == 20 and len(data["moves"]) <= 20
        assert [m["number"] for m in data["moves"]] == list(range(1, len(data["moves"]) + 1))
        assert all(m["verdict"] in ("ok", "unknown", "lost-points", "threw-away-win") for m in data["moves"])
    else:
        lines = out.splitlines()
        assert lines[0].split()[:4] == ["move", "card", "cell", "before"]
        rows = [line for line in lines if line[:4].strip().isdigit()]
        judged = next(line for line in lines if line.startswith("interrupted: the analysis is incomplete"))
        assert f"{len(rows)} of 20 moves judged" in judged


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals, terminals and /proc")
@pytest.mark.parametrize("signum, code, word", [(signal.SIGINT, 130, "Interrupted."), (signal.SIGTERM, 143, "Terminated.")])
def test_an_analysis_interrupted_while_the_bot_works_beside_it_ends_the_bots_process(tmp_path, signum, code, word):
    # the bot asked in a second process (--jobs 2), the signal sent to the whole group as
    # a terminal's Ctrl-C: the same incomplete analysis, and the bot's process ended
    # with it, not left to finish its work
    path = _transcript(tmp_path, _greedy(325, 20))
    children: list[int] = []
    status, out, err = _run_and_stop(path, signum, "json", bot=("--jobs", "2"), group=True, seen_children=children)
    assert status == code, (out, err)
    assert "Traceback" not in err and err.rstrip().endswith(word)
    data = json.loads(out)
    assert data["complete"] is False and data["moves_played"] == 20 and len(data["moves"]) <= 20
    with_bot = [m["bot_cell"] is not None for m in data["moves"]]
    assert with_bot == sorted(with_bot, reverse=True)  # the estimates that came: the first moves'
    assert data["bot"] == (DEFAULT if any(with_bot) else None)
    assert children  # the bot's process was there
    for pid in children:
        assert not os.path.exists(f"/proc/{pid}"), "the bot's process outlived the analysis"
