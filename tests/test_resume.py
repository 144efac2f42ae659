"""Resumable sweeps (cli/sweep.py): ``--output FILE.csv --resume`` continues a CSV
that stopped partway, skipping the deals in it, after checking that the file was
written with this run's settings; the finished file is an uninterrupted run's
(but for the measured seconds)."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import ROOT, invoke

from foursquare.cli.files import claim

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
SOLVE = ["solve", "--max-nodes", "500"]
SIMULATE = ["simulate", "--bot", "greedy", "--vs", "random"]


def without_seconds(text: str) -> list[list[str]]:
    """A CSV's rows with the measured times (the columns two runs never share) left out."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    keep = [i for i, column in enumerate(rows[0]) if column not in ("seconds", "slowest_move_seconds")]
    return [[row[i] for i in keep] for row in rows]


def summary_without_times(value):
    """A JSON summary with its measured times left out."""
    if isinstance(value, dict):
        return {k: summary_without_times(v) for k, v in value.items() if "seconds" not in k}
    if isinstance(value, list):
        return [summary_without_times(v) for v in value]
    return value


def _wait_for(predicate, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def _rows(path) -> int:
    try:
        return path.read_bytes().count(b"\n") - 1
    except FileNotFoundError:
        return -1


def _uninterrupted(tmp_path, args, name="whole.csv"):
    path = tmp_path / name
    result = invoke([*args, "--output", path])
    assert result.exit_code == 0, result.output
    return path.read_bytes().decode(), result


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "args",
    [[*SOLVE, "--deals", "0-59"], pytest.param([*SIMULATE, "--deals", "0-299"], marks=pytest.mark.slow)],
    ids=["solve", "simulate"],
)
def test_a_run_stopped_by_ctrl_c_resumes_to_the_file_of_an_uninterrupted_run(tmp_path, args):
    path = tmp_path / "sweep.csv"
    # the stopped run uses the solver's pure-Python twin (the same results, node for node),
    # so that it is still going when Ctrl-C comes; the resumed run may use the compiled core
    process = subprocess.Popen([*COMMAND, *args, "--output", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT, env=dict(ENV, FOURSQUARE_PURE_PYTHON="1"), text=True)
    assert _wait_for(lambda: _rows(path) >= 5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err
    kept = _rows(path)
    total = 60 if args[0] == "solve" else 600
    assert 5 <= kept < total  # stopped partway
    resumed = subprocess.run([*COMMAND, *args, "--output", str(path), "--resume", "--format", "json"],
                             capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    what = "deals" if args[0] == "solve" else "games"
    assert f"resuming {path}: {kept} of {total} {what} done already" in resumed.stderr
    text, whole = _uninterrupted(tmp_path, [*args, "--format", "json"])
    assert without_seconds(path.read_bytes().decode()) == without_seconds(text)
    # the summary counts every deal of the file, the ones of the first run too
    mine, theirs = resumed.stdout.splitlines()[-1], whole.stdout.splitlines()[-1]
    if args[0] == "simulate":
        mine, theirs = resumed.stdout, whole.stdout
    assert summary_without_times(json.loads(mine)) == summary_without_times(json.loads(theirs))


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-19"], [*SIMULATE, "--deals", "0-29"]], ids=["solve", "simulate"])
def test_a_last_line_cut_short_by_a_crash_is_written_again(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    assert lines[-1] == ""  # every line ends with the CSV's line end, the last too
    for cut in (len("\r\n".join(lines[:8])) + 1, len("\r\n".join(lines[:8])) + 6, len("\r\n".join(lines[:8])) - 3):
        path = tmp_path / "crashed.csv"
        path.write_bytes(text.encode()[:cut])  # half of a row, or a row without its line end
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 0, result.output
        assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


def test_a_deal_that_not_every_bot_finished_is_played_again(tmp_path):
    args = [*SIMULATE, "--deals", "0-9"]
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    path = tmp_path / "half.csv"
    path.write_bytes(("\r\n".join(lines[:6]) + "\r\n").encode())  # deal 2: greedy's game, not random's
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    assert "resuming" in result.stderr and "4 of 20 games done already" in result.stderr
    assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_resume_starts_afresh_on_a_missing_or_empty_file(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    for name, empty in (("missing.csv", False), ("empty.csv", True)):
        path = tmp_path / name
        if empty:
            path.write_text("")
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 0 and "resuming" not in result.stderr
        assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


def test_a_finished_file_is_left_as_it_is_and_summarized(tmp_path):
    args = [*SOLVE, "--deals", "0-9"]
    text, whole = _uninterrupted(tmp_path, [*args, "--format", "json"])
    path = tmp_path / "whole.csv"
    result = invoke([*args, "--format", "json", "--output", path, "--resume"])
    assert result.exit_code == 0 and "10 of 10 deals done already" in result.stderr
    assert path.read_bytes().decode() == text  # not one byte changed
    assert summary_without_times(json.loads(result.stdout)) == summary_without_times(json.loads(whole.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    ("first", "again", "words"),
    [
        ([*SOLVE, "--deals", "0-9"], ["solve", "--max-nodes", "600", "--deals", "0-9"], "written with --max-nodes 500, this run has 600"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-9", "--rules", "fixed-board"], "--rules standard, this run has fixed-board"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-9", "--timeout", "5"], "--timeout none, this run has 5.0"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "3-9"], "the file starts at deal 0, --deals starts at 3"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-5"], "more deals than --deals 0-5 asks for"),
        ([*SIMULATE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-4", "--seed", "7"], "--seed 0, this run has 7"),
        ([*SIMULATE, "--deals", "0-4"], ["simulate", "--bot", "greedy", "--vs", "expectimax", "--deals", "0-4"],
         "deal 0 was played by random where expectimax is due"),
        ([*SIMULATE, "--deals", "0-4"], ["simulate", "--bot", "greedy", "--deals", "0-4"],
         "deal 0 was played by random where greedy is due (this run's bots: greedy)"),
        (["simulate", "--bot", "deep", "--nodes", "300", "--deals", "0-0"], ["simulate", "--bot", "deep", "--nodes", "400", "--deals", "0-0"],
         "--nodes 300, this run has 400"),
    ],
)
def test_a_file_of_other_settings_is_refused_before_any_work(tmp_path, first, again, words):
    path = tmp_path / "sweep.csv"
    assert invoke([*first, "--output", path]).exit_code == 0
    before = path.read_bytes()
    result = invoke([*again, "--output", path, "--resume"])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == before


def test_a_file_that_is_not_this_commands_csv_is_refused_at_its_line(tmp_path):
    path = tmp_path / "other.csv"
    assert invoke([*SIMULATE, "--deals", "0-1", "--output", path]).exit_code == 0
    result = invoke([*SOLVE, "--deals", "0-9", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:1: not a CSV of this command to continue")
    text, _ = _uninterrupted(tmp_path, [*SOLVE, "--deals", "0-3"])
    lines = text.split("\r\n")
    for bad, words in ((lines[2].replace("solved", "won", 1), "a value this command does not write"),
                       (lines[2] + ",more", "a row of 11 fields, not 10")):
        path.write_bytes(("\r\n".join([*lines[:2], bad, *lines[3:]])).encode())
        result = invoke([*SOLVE, "--deals", "0-3", "--output", path, "--resume"])
        assert result.exit_code == 1 and result.stderr.startswith(f"{path}:3: {words}"), result.stderr


def test_a_file_another_command_writes_is_refused(tmp_path):
    path = tmp_path / "busy.csv"
    held = claim(str(path))
    try:
        result = invoke([*SOLVE, "--deals", "0-3", "--output", path, "--resume"])
    finally:
        held.release()
    assert result.exit_code == 1 and "in use" in result.stderr


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--resume"], "--resume needs --output"),
        (["--resume", "--output", "-"], "standard output cannot be continued"),
        (["--resume", "--output", "x.csv", "--force"], "--resume and --force"),
    ],
)
@pytest.mark.parametrize("command", [[*SOLVE, "--deals", "0-1"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_resume_usage_errors(tmp_path, monkeypatch, command, extra, words):
    monkeypatch.chdir(tmp_path)
    result = invoke([*command, *extra])
    assert result.exit_code == 2 and words in result.stderr
    assert not (tmp_path / "x.csv").exists()


def test_every_row_carries_the_settings_that_made_it(tmp_path):
    path = tmp_path / "rows.csv"
    assert invoke(["solve", "--deals", "0-1", "--max-nodes", "700", "--timeout", "9", "--output", path]).exit_code == 0
    rows = list(csv.DictReader(path.open(newline="")))
    assert [(r["rules"], r["max_nodes"], r["timeout"]) for r in rows] == [("standard", "700", "9.0")] * 2
    assert invoke(["simulate", "--bot", "greedy", "--deals", "3-4", "--seed", "5", "--rules", "fixed-board", "--output", path, "--force"]).exit_code == 0
    rows = list(csv.DictReader(path.open(newline="")))
    assert [(r["deal"], r["seed"], r["nodes"], r["budget"], r["rules"]) for r in rows] == [("3", "5", "", "", "fixed-board"), ("4", "5", "", "", "fixed-board")]


def test_a_resumed_simulate_keeps_the_worst_move_time_of_the_games_read_back(tmp_path):
    # the CSV keeps each game's slowest move: a summary over games read back from the
    # file reports the worst of them exactly, not the mean time of a move
    args = ["simulate", "--bot", "greedy", "--deals", "0-5", "--format", "json"]
    text, _ = _uninterrupted(tmp_path, args)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    result = invoke([*args, "--output", tmp_path / "whole.csv", "--resume"])
    assert result.exit_code == 0 and "6 of 6 games done already" in result.stderr
    summary = json.loads(result.stdout)
    assert summary["worst_move_seconds"] == pytest.approx(max(float(row["slowest_move_seconds"]) for row in rows), abs=1e-6)
    assert summary["moves"] == sum(int(row["moves"]) for row in rows)
