"""A history file damaged row by row or in its table (changed by another program, a
bad disk) is refused by every command with one message naming the file (and the
row), exit status 1 and never a traceback, and never altered; ``history export``
writes nothing when a game's transcript is not its game.  A data folder that exists
but cannot hold a history is refused by every command alike; an option given where
it changes nothing is a usage error.  (CliRunner and real processes, on real SQLite
files in the test's own FOURSQUARE_HOME.)"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, history_file, invoke

from foursquare.formats.transcript import validate


def _two_games() -> None:
    for deal in (1, 2):
        done = invoke(["play", "--deal", deal, "--history"], input="d4\ne4\n")
        assert done.exit_code == 0, done.output


def _damage(sql: str) -> bytes:
    _two_games()
    db = sqlite3.connect(history_file())
    db.execute(sql)
    db.commit()
    db.close()
    with open(history_file(), "rb") as f:
        return f.read()


READERS = (
    ["stats"], ["stats", "--format", "json"], ["history"], ["history", "--format", "json"], ["history", "--limit", "1"],
    ["history", "export"], ["history", "import", EXAMPLES / "won.yaml"],
)

# each a kind of damage: a value of the wrong type, out of its range, unknown, or a
# combination no game has, in each column a reader reads; a table not as foursquare made it
DAMAGE = {
    "status": ("UPDATE games SET status = 'weird' WHERE id = 2", "row 2: its status is 'weird'"),
    "kind": ("UPDATE games SET kind = 'zzz' WHERE id = 2", "row 2: its kind is 'zzz'"),
    "source": ("UPDATE games SET source = 'zzz' WHERE id = 2", "row 2: its source is 'zzz'"),
    "deal": ("UPDATE games SET deal = 'x' WHERE id = 2", "row 2: its deal is 'x'"),
    "deal 007": ("UPDATE games SET deal = '007' WHERE id = 2", "row 2: its deal is '007'"),
    "deal above 2^64": ("UPDATE games SET deal = '18446744073709551616' WHERE id = 2", "not a deal number"),
    "started text": ("UPDATE games SET started = 'abc' WHERE id = 2", "row 2: its started is 'abc'"),
    "started 1e300": ("UPDATE games SET started = 1e300 WHERE id = 2", "row 2: its started is 1e+300"),
    "ended negative": ("UPDATE games SET ended = -5 WHERE id = 2", "row 2: its ended is -5"),
    "added null": ("UPDATE games SET added = 'soon' WHERE id = 2", "row 2: its added is 'soon'"),
    "moves": ("UPDATE games SET moves = 'many' WHERE id = 2", "row 2: its moves is 'many'"),
    "hints": ("UPDATE games SET hints = -1 WHERE id = 2", "row 2: its hints is -1"),
    "score of a game going on": ("UPDATE games SET score = 5 WHERE id = 2", "row 2: a game playing with a score"),
    "won without a score": ("UPDATE games SET status = 'won' WHERE id = 2", "row 2: a game won without a score"),
    "lost without a reason": ("UPDATE games SET status = 'lost' WHERE id = 2", "row 2: a game lost without a reason"),
    "reason": ("UPDATE games SET status = 'lost', reason = 'bored' WHERE id = 2", "row 2: its reason is 'bored'"),
    "digest": ("UPDATE games SET digest = 'abc' WHERE id = 2", "row 2: its digest is 'abc'"),
    "rules": ("UPDATE games SET rules = 'nosuch' WHERE id = 2", "row 2: its rules is 'nosuch'"),
    "moves above the deck": ("UPDATE games SET moves = 41 WHERE id = 2", "row 2: its moves is 41"),
    "score above the best": (
        "UPDATE games SET status = 'won', score = 25 WHERE id = 2", "row 2: its score is 25, not a score from 0 to 24"
    ),
    "a renamed column": ("ALTER TABLE games RENAME COLUMN status TO st", "its table of games has no column status"),
    "a dropped column": ("ALTER TABLE games DROP COLUMN origin", "its table of games has no column origin"),
}


@pytest.mark.parametrize("sql, words", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_history_is_one_refusal_naming_the_file_for_every_reader_and_play_leaves_it_alone(sql, words, tmp_path):
    before = _damage(sql)
    said = set()
    for args in READERS:
        done = invoke(args)
        assert (done.exit_code, done.stdout) == (1, ""), (args, done.output)
        assert "Traceback" not in done.output
        said.add(done.stderr)
    (message,) = said  # the same words, whichever command reads the history
    assert message.startswith(f"{history_file()}: not a foursquare history (damaged: ") and words in message, message
    assert message.count("\n") == 1
    out = tmp_path / "out.yaml"
    assert invoke(["history", "export", out]).exit_code == 1 and not out.exists()
    played = invoke(["play", "--deal", 3, "--history"], input="d4\n")
    assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout
    assert played.stderr == message.rstrip("\n") + ". This game is not recorded in the history.\n"
    with open(history_file(), "rb") as f:
        assert f.read() == before  # never altered


RECORDS = {
    "not YAML": ("UPDATE games SET record = 'not yaml: [' WHERE id = 2", "row 2: its transcript does not read: line 1:"),
    "two games": ("UPDATE games SET record = record || '---' || char(10) || record WHERE id = 2",
                  "row 2: its transcript does not read"),
    "another game": ("UPDATE games SET record = (SELECT record FROM games WHERE id = 1) WHERE id = 2",
                     "row 2: its transcript is not the game of its row"),
    # the line end matters between two games: the first one's
    "no line end": ("UPDATE games SET record = rtrim(record, char(10)) WHERE id = 1",
                    "row 1: its transcript does not end with a line end"),
}


@pytest.mark.parametrize("sql, words", RECORDS.values(), ids=RECORDS.keys())
def test_export_writes_nothing_when_a_transcript_is_not_its_game(sql, words, tmp_path):
    """The export is checked game by game as validate checks it: a damaged row is
    refused by its id, and no broken stream is ever written (to a file or stdout)."""
    before = _damage(sql)
    out = tmp_path / "out.yaml"
    for args in (["history", "export"], ["history", "export", out]):
        done = invoke(args)
        assert (done.exit_code, done.stdout) == (1, ""), (args, done.output)
        assert done.stderr.startswith(f"{history_file()}: not a foursquare history (damaged: ") and words in done.stderr
        assert "Traceback" not in done.output
    assert not out.exists()
    with open(history_file(), "rb") as f:
        assert f.read() == before


def test_an_export_that_is_written_is_one_validate_accepts(tmp_path):
    _two_games()
    done = invoke(["history", "export"])
    assert done.exit_code == 0
    reports = validate(done.stdout, "export")
    assert len(reports) == 2 and all(r.valid for r in reports)


def test_as_a_real_process_a_damaged_history_is_one_line_and_status_1(tmp_path):
    home = tmp_path / "home"
    env = dict(os.environ, FOURSQUARE_HOME=str(home))
    for deal in (1, 2):
        subprocess.run([sys.executable, "-m", "foursquare", "play", "--deal", str(deal), "--history"], input="d4\n",
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=True)
    db = sqlite3.connect(home / "history.sqlite3")
    db.execute("UPDATE games SET started = 1e300 WHERE id = 1")
    db.commit()
    db.close()
    for args in (["stats"], ["history"], ["history", "export"]):
        run = subprocess.run([sys.executable, "-m", "foursquare", *args], capture_output=True, text=True, cwd=ROOT,
                             env=env, timeout=120)
        assert (run.returncode, run.stdout) == (1, ""), args
        assert run.stderr == (
            f"{home / 'history.sqlite3'}: not a foursquare history (damaged: row 1: its started is 1e+300, not a time"
            " (seconds since 1970, up to the year 9999) or empty); it is left as it is: move it away to start a new history\n"
        )


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="a folder that cannot hold files (Linux's /proc)")
def test_a_data_folder_that_exists_but_cannot_hold_a_history_is_refused_by_every_command(monkeypatch):
    monkeypatch.setenv("FOURSQUARE_HOME", "/proc")
    said = set()
    for args in READERS:
        done = invoke(args)
        assert (done.exit_code, done.stdout) == (1, ""), (args, done.output)
        said.add(done.stderr)
    (message,) = said
    assert message == (  # the folder named, and what is wrong with it in plain words, not "No such file" alone
        "/proc/history.sqlite3: cannot read the history: the folder /proc takes no new files"
        " (the system says: No such file or directory)\n"
    )
    played = invoke(["play", "--deal", 1, "--history"], input="d4\n")
    assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout
    assert played.stderr == message.rstrip("\n") + ". This game is not recorded in the history.\n"


def test_an_existing_empty_data_folder_is_an_empty_history_and_reading_it_leaves_nothing(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("FOURSQUARE_HOME", str(home))
    done = invoke(["stats"])
    assert done.exit_code == 0 and "No games in the history yet" in done.stdout
    assert invoke(["history"]).exit_code == 0
    assert os.listdir(home) == []  # the check that a file can be made there leaves none


OPTIONS_IN_VAIN = {
    "export --force to stdout": (["history", "export", "--force"], "--force needs FILE"),
    "export - --force": (["history", "export", "-", "--force"], "--force needs FILE"),
    "histogram in JSON": (["stats", "--histogram", "--format", "json"], "--histogram needs --format text"),
    "no histogram in JSON": (["stats", "--no-histogram", "--format", "json"], "--no-histogram needs --format text"),
    "the list's --limit on export": (["history", "--limit", "2", "export"], "--limit is an option of the list"),
    "the list's --format on import": (["history", "--format", "json", "import", EXAMPLES / "won.yaml"],
                                      "--format is an option of the list"),
}


@pytest.mark.parametrize("args, words", OPTIONS_IN_VAIN.values(), ids=OPTIONS_IN_VAIN.keys())
def test_an_option_that_changes_nothing_there_is_a_usage_error(args, words):
    _two_games()
    done = invoke(args)
    assert done.exit_code == 2 and done.stdout == "", done.output
    assert done.stderr.rstrip("\n").endswith(f"Error: {words}" if "list" not in words else "takes none"), done.stderr
    assert words in done.stderr
    assert len(validate(invoke(["history", "export"]).stdout, "export")) == 2  # nothing was imported


def test_the_options_where_they_change_something_still_work(tmp_path):
    _two_games()
    out = tmp_path / "out.yaml"
    out.write_text("old\n")
    assert invoke(["history", "export", out, "--force"]).exit_code == 0
    assert len(validate(out.read_text(), str(out))) == 2
    assert invoke(["stats", "--histogram"]).exit_code == 0
    assert invoke(["history", "--limit", "1", "--format", "json"]).exit_code == 0
