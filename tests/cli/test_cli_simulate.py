"""``foursquare simulate`` through Click's CliRunner."""

from __future__ import annotations

import csv
import json
import re

import pytest
from helpers import invoke


def _strip_times(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("median_move_seconds", "worst_move_seconds")}


def test_json_has_the_figures():
    result = invoke(["simulate", "--bot", "greedy", "--deals", "0-4", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 5 and 0 <= data["wins"] <= 5 and data["deals"] == "0-4"
    assert data["mean_score"] >= 0 and len(data["win_interval"]) == 2
    assert sum(data["scores"].values()) == data["wins"]
    assert data["wins"] + sum(data["losses"].values()) == 5


def test_text_report_and_histogram():
    result = invoke(["simulate", "--bot", "random", "--deals", "0-9", "--seed", "4"])
    assert result.exit_code == 0
    out = result.stdout
    assert "random on deals 0-9: 10 games" in out and "95% CI" in out and "per move" in out
    assert "lost |" in out and "losses:" in out


def test_jobs_do_not_change_the_results():
    one = json.loads(invoke(["simulate", "--bot", "expectimax", "--deals", "20-22", "--format", "json"]).stdout)
    two = json.loads(invoke(["simulate", "--bot", "expectimax", "--deals", "20-22", "--format", "json", "--jobs", "2"]).stdout)
    assert _strip_times(one) == _strip_times(two)


def test_vs_gives_the_paired_difference(tmp_path):
    out = tmp_path / "games.csv"
    result = invoke(["simulate", "--bot", "expectimax", "--vs", "random", "--deals", "0-3", "--format", "json", "--output", str(out)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["bot"] == "expectimax" and data["vs"]["bot"] == "random"
    assert data["paired"]["games"] == 4
    assert data["paired"]["win"] == pytest.approx((data["wins"] - data["vs"]["wins"]) / 4)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 8 and {r["bot"] for r in rows} == {"expectimax", "random"}
    assert rows[0].keys() >= {"deal", "status", "reason", "score", "moves", "seconds", "slowest_move_seconds"}
    for row in rows:  # the slowest move is part of the game's time, and at least its mean move
        slowest, total, moves = float(row["slowest_move_seconds"]), float(row["seconds"]), int(row["moves"])
        assert total / moves - 1e-6 <= slowest <= total + 1e-6
    worst = max(float(row["slowest_move_seconds"]) for row in rows if row["bot"] == "expectimax")
    assert data["worst_move_seconds"] == pytest.approx(worst, abs=1e-6)
    text = invoke(["simulate", "--bot", "expectimax", "--vs", "random", "--deals", "0-1"]).stdout
    assert "expectimax minus random, paired over 2 deals" in text


def test_markdown_table_has_a_row_per_bot():
    result = invoke(["simulate", "--bot", "random", "--bot", "greedy", "--deals", "0-2", "--format", "markdown"])
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| bot | deals |") and len(lines) == 4
    assert lines[2].startswith("| random | 0-2 | 3 |") and lines[3].startswith("| greedy | 0-2 | 3 |")


@pytest.mark.parametrize(
    "deals, message",
    [("5-2", "ends before it starts"), ("x", "not a range of deal numbers"), ("1-", "not a range"), ("-3", "not a range")],
)
def test_bad_deal_ranges_are_usage_errors(deals, message):
    result = invoke(["simulate", "--bot", "greedy", "--deals", deals])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_unknown_bot_and_bad_options_are_usage_errors():
    for args in (
        ["--bot", "nope", "--deals", "0-1"],
        ["--bot", "greedy", "--vs", "nope", "--deals", "0-1"],
        ["--bot", "greedy", "--deals", "0-1", "--jobs", "0"],
        ["--bot", "greedy"],
        ["--bot", "greedy", "--bot", "random", "--vs", "deep", "--deals", "0-1"],
    ):
        result = invoke(["simulate", *args])
        assert result.exit_code == 2, args
        assert "Error" in result.stderr


def test_unwritable_output_is_a_one_line_error(tmp_path):
    result = invoke(["simulate", "--bot", "random", "--deals", "0", "--output", str(tmp_path / "no" / "such.csv")])
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_samples_is_the_same_fixed_work_limit_as_nodes():
    a = json.loads(invoke(["simulate", "--bot", "deep", "--deals", "0", "--nodes", "3000", "--format", "json"]).stdout)
    b = json.loads(invoke(["simulate", "--bot", "deep", "--deals", "0", "--samples", "3000", "--format", "json"]).stdout)
    assert _strip_times(a) == _strip_times(b) and a["games"] == 1


def test_one_game_is_singular_and_times_are_in_human_units():
    out = invoke(["simulate", "--bot", "greedy", "--deals", "5"]).stdout
    assert "greedy on deals 5: 1 game\n" in out
    line = next(text for text in out.splitlines() if "per move" in text)
    assert any(f" {unit} per move" in line for unit in ("s", "ms", "µs")) and "e-0" not in line
    assert re.search(r", worst \d[\d.]* (s|ms|µs) \(\d+ moves\)$", line), line


def test_the_markdown_row_gives_the_worst_move_time():
    result = invoke(["simulate", "--bot", "greedy", "--deals", "0-1", "--format", "markdown"])
    header, _, row = result.stdout.splitlines()[:3]
    assert header.endswith("| median ms/move | worst ms/move |")
    median, worst = (float(cell) for cell in row.strip("|").split("|")[-2:])
    assert 0 <= median <= worst


def test_the_mean_score_interval_stays_within_the_possible_scores():
    """A normal approximation can reach below 0 or above 24; it is clipped (and says so)."""
    out = invoke(["simulate", "--bot", "greedy", "--deals", "0-3"]).stdout
    assert "normal approximation" in out
    data = json.loads(invoke(["simulate", "--bot", "greedy", "--deals", "0-3", "--format", "json"]).stdout)
    low, high = data["score_interval"]
    assert 0 <= low <= data["mean_score"] <= high <= 24


def test_json_floats_are_rounded():
    data = json.loads(invoke(["simulate", "--bot", "expectimax", "--vs", "greedy", "--deals", "0-5", "--format", "json"]).stdout)
    floats = [data["mean_score"], data["score_sd"], *data["score_interval"], *data["win_interval"]]
    floats += [data["paired"]["score"], *data["paired"]["score_interval"], data["vs"]["mean_score"]]
    assert all(round(x, 4) == x for x in floats)


def test_markdown_keeps_the_paired_comparison():
    out = invoke(["simulate", "--bot", "greedy", "--vs", "random", "--deals", "0-3", "--format", "markdown"]).stdout
    lines = out.splitlines()
    assert lines[0].startswith("| bot |") and lines[2].startswith("| greedy |") and lines[3].startswith("| random |")
    assert "greedy minus random, paired over 4 deals" in out and "won by greedy only" in out


def test_a_failed_csv_write_names_the_file_and_vs_needs_another_bot(tmp_path):
    import os

    if os.path.exists("/dev/full"):
        r = invoke(["simulate", "--bot", "greedy", "--deals", "0-1", "--output", "/dev/full"])
        # the error names the file; the summary of what was done comes first, as after Ctrl-C
        assert r.exit_code == 1 and r.stderr.startswith("/dev/full: ") and "interrupted: 0 of 2 games played" in r.stdout
    r = invoke(["simulate", "--bot", "greedy", "--vs", "greedy", "--deals", "0-1"])
    assert r.exit_code == 2 and "another bot" in r.output


@pytest.mark.parametrize(
    "command",
    [["simulate", "--bot", "greedy", "--deals", "0-1"], ["solve", "--deals", "0-1", "--max-nodes", "500"]],
)
def test_output_never_replaces_a_file_that_holds_something_without_force(tmp_path, command):
    target = tmp_path / "results.csv"
    target.write_text("precious\n")
    refused = invoke([*command, "--output", str(target)])
    assert refused.exit_code == 1
    assert refused.stderr == f"{target}: the file exists and is not empty; give --force to overwrite it\n"
    assert target.read_text() == "precious\n"
    forced = invoke([*command, "--output", str(target), "--force"])
    assert forced.exit_code == 0 and target.read_text().startswith(("bot,deal", "deal,status"))
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert invoke([*command, "--output", str(empty)]).exit_code == 0  # nothing to lose
    folder = invoke([*command, "--output", str(tmp_path), "--force"])
    assert folder.exit_code == 1 and folder.stderr == f"{tmp_path}: is a directory, not a file\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bots_compared_play_each_deal_in_turn(tmp_path, jobs):
    # every bot plays a deal before the next: a stopped comparison stays paired
    out = tmp_path / "vs.csv"
    result = invoke(["simulate", "--bot", "greedy", "--vs", "random", "--deals", "5-7", "--jobs", jobs, "--output", str(out)])
    assert result.exit_code == 0, result.output
    rows = [line.split(",")[:2] for line in out.read_text().splitlines()[1:]]
    assert rows == [[bot, str(d)] for d in (5, 6, 7) for bot in ("greedy", "random")]
    assert "greedy minus random, paired over 3 deals" in result.stdout
