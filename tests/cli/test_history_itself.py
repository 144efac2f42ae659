"""No command writes a file over the game history's own database: ``history export
--force``, ``play --record``, ``solve``/``simulate --output`` (with ``--force`` or
``--resume``) and the prompt's ``save`` all name the file and refuse it, and the
history keeps every game (CliRunner, and the real program in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import EXAMPLES, invoke

from foursquare.history.store import HistoryStore

REFUSAL = "is the history of games itself"


def history_file() -> str:
    return os.path.join(os.environ["FOURSQUARE_HOME"], "history.sqlite3")


@pytest.fixture
def history() -> str:
    """A history holding the two example games; its path."""
    for name in ("won.yaml", "lost.yaml"):
        done = invoke(["history", "import", str(EXAMPLES / name)])
        assert done.exit_code == 0, done.output
    assert len(HistoryStore.open(history_file()).records()) == 2
    return history_file()


def kept(path: str) -> int:
    with open(path, "rb") as f:
        assert f.read(16) == b"SQLite format 3\x00"
    return len(HistoryStore.open(path).records())


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["history", "export", "--force", "{H}"], None),
        (["play", "--deal", "3", "--record", "{H}", "--force"], "d4\n"),
        (["solve", "--deals", "0-1", "--output", "{H}", "--force"], None),
        (["solve", "--deals", "0-1", "--output", "{H}", "--resume"], None),
        (["simulate", "--deals", "0-1", "--output", "{H}", "--force"], None),
        (["play", "--deal", "3", "--interactive", "--ascii"], "d4\nsave {H}\nquit\n"),
    ],
    ids=["export", "play-record", "solve-force", "solve-resume", "simulate", "prompt-save"],
)
@pytest.mark.parametrize("by", ["path", "link"])
def test_a_command_refuses_to_write_over_the_history(history, tmp_path, args, stdin, by):
    target = history
    if by == "link":
        target = str(tmp_path / "alias.sqlite3")
        os.symlink(history, target)
    done = invoke([a.replace("{H}", target) for a in args], input=None if stdin is None else stdin.replace("{H}", target))
    assert REFUSAL in done.output, done.output
    assert target in done.output
    at_the_prompt = "--interactive" in args
    if not at_the_prompt:
        assert done.exit_code == 1, done.output
    assert kept(history) == 2 + at_the_prompt  # a game played at the prompt goes into the history


def test_the_real_program_refuses_and_keeps_the_history(history):
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "history", "export", "--force", history],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"{history}: {REFUSAL}" in done.stderr
    assert kept(history) == 2


def test_another_file_in_the_data_folder_is_written_as_before(history):
    other = os.path.join(os.path.dirname(history), "games.yaml")
    done = invoke(["history", "export", other])
    assert done.exit_code == 0, done.output
    with open(other, encoding="utf-8") as f:
        assert f.read().count("foursquare:") == 2
    assert kept(history) == 2
