"""The solve and analyze commands through Click's CliRunner: output, formats, batches, errors."""

from __future__ import annotations

import csv
import json
import os

import pytest
from helpers import invoke

from foursquare.engine.game import Game
from foursquare.formats.transcript import transcript_text


def test_solve_a_deal_prints_a_transcript_that_validates(tmp_path):
    r = invoke(["solve", "--deal", "42"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("# deal 42: solved: score 24")
    path = tmp_path / "win.yaml"
    path.write_text(r.output)
    v = invoke(["validate", str(path)])
    assert v.exit_code == 0, v.output


def test_solve_json_has_the_result_and_the_moves():
    r = invoke(["solve", "--deal", "3", "--format", "json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["deal"] == 3 and data["status"] == "solved" and data["score"] == 24
    assert len(data["moves"]) == 16 and data["nodes"] > 0 and data["seconds"] >= 0
    game = Game.from_deal(3)
    for cell in data["moves"]:
        game.play(cell)
    assert game.score == 24
    assert "result: {status: won" in data["transcript"]


def test_solve_a_deck_file_and_a_short_deck_without_a_win(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("9C 3S 5C 6S 2D 8H 9H 9S 3C 9D\n")
    r = invoke(["solve", "--deck", str(deck)])
    assert r.exit_code == 0
    assert "unknown (no win with the 10 cards the deck names, and the other 30 are unknown" in r.output
    assert "no win (proved)" not in r.output
    deck.write_text("AS\n")
    r = invoke(["solve", "--deck", str(deck)])
    assert "unknown (no win with the 1 card the deck names, and the other 39 are unknown" in r.output


def test_solve_unknown_when_the_node_limit_runs_out():
    r = invoke(["solve", "--deal", "7", "--max-nodes", "10", "--format", "json"])
    data = json.loads(r.output)
    assert data["status"] == "unknown" and data["score"] is None
    assert isinstance(data["max_score"], int) and 0 <= data["max_score"] <= 24  # the bound is the solver's business


def test_solve_batch_json_one_object_per_deal_then_the_summary_same_for_any_jobs():
    outs = []
    for jobs in ("1", "2"):
        r = invoke(["solve", "--deals", "8-11", "--format", "json", "--jobs", jobs, "--max-nodes", "20000"])
        assert r.exit_code == 0, r.output
        lines = [json.loads(line) for line in r.output.splitlines()]
        assert [x["deal"] for x in lines[:-1]] == [8, 9, 10, 11]
        assert set(lines[-1]["summary"]) >= {"solved", "no_win", "unknown", "winnable", "interval", "scores"}
        outs.append([{k: v for k, v in x.items() if k != "seconds"} for x in lines[:-1]])
    assert outs[0] == outs[1]


def test_solve_batch_text_summary_and_csv(tmp_path):
    out = tmp_path / "deals.csv"
    r = invoke(["solve", "--deals", "0-3", "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert "winnable: 4/4 = 100.0% (95% Wilson interval" in r.output
    assert "scores: 24: 4" in r.output and "time per deal: median" in r.output
    rows = list(csv.DictReader(out.open()))
    assert [row["deal"] for row in rows] == ["0", "1", "2", "3"]
    assert all(row["status"] == "solved" and row["score"] == "24" and len(row["moves"].split()) == 16 for row in rows)


def test_solve_bad_ranges_and_options_are_usage_errors():
    for bad in ("5-3", "x", "1-", "-3", "1-2-3", "99999999999999999999"):
        r = invoke(["solve", "--deals", bad])
        assert r.exit_code == 2, (bad, r.output)
        assert "--deals" in r.output
    assert invoke(["solve"]).exit_code == 2
    assert invoke(["solve", "--deal", "1", "--deals", "1-2"]).exit_code == 2
    assert invoke(["solve", "--deal", "1", "--output", "x.csv"]).exit_code == 2
    assert invoke(["solve", "--deals", "1-2", "--jobs", "0"]).exit_code == 2


def test_solve_memory_takes_a_size_and_refuses_others_as_usage_errors():
    from foursquare.solver import search

    for good, deals in (("160M", "24-25"), ("1G", "24-25"), ("268435456", "24")):
        r = invoke(["solve", "--deals", deals, "--memory", good, "--format", "json", "--jobs", "2"])
        assert r.exit_code == 0, (good, r.output)
    r = invoke(["solve", "--deal", "24", "--memory", "512m"])
    assert r.exit_code == 0 and r.output.startswith("# deal 24: solved"), r.output
    for bad in ("159M", "128M", " 256M", "256M ", "2G", "1025M", "12X", "", "-1G", "1.5G", "G", "0x10M", "99999999999999G"):
        r = invoke(["solve", "--deal", "24", "--memory", bad])
        assert r.exit_code == 2 and "--memory" in r.output and "Traceback" not in r.output, (bad, r.output)
    assert (search.MEMORY_MIN, search.MEMORY_MAX) == (160 << 20, 1 << 30)  # the bounds solve's option says
    assert search.tt_entries(search.MEMORY_MIN) >= search.TT_MAX_ENTRIES  # the least never holds less than the default


def test_solve_bad_deck_is_one_line_with_the_file_and_line(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("7H 2C\nXX\n")
    r = invoke(["solve", "--deck", str(deck)])
    assert r.exit_code == 1
    assert r.output.strip() == f"{deck}:2: not a card: 'XX' (expected rank A,2-9,T or 10 and suit C,D,H,S, like 7H or TD)"
    r = invoke(["solve", "--deck", str(tmp_path / "missing.txt")])
    assert r.exit_code == 1 and "no such file" in r.output and "Traceback" not in r.output


def test_solve_works_under_every_preset_and_labels_the_transcript(tmp_path):
    """Issue 6: every rule set is solved (the variants the fast search does not model
    on the engine itself); the transcript names the rules and validates."""
    from foursquare.engine.rules import PRESETS

    for name in PRESETS:
        r = invoke(["solve", "--deal", "1", "--rules", name, "--max-nodes", "3000"])
        assert r.exit_code == 0, (name, r.output)
        assert "Traceback" not in r.output
        if "solved" in r.output.splitlines()[0]:
            path = tmp_path / f"{name}.yaml"
            path.write_text(r.output)
            check = invoke(["validate", str(path)])
            assert check.exit_code == 0, check.output
            assert f"rules: {name}" in r.output or name == "standard"


def _lost_game_transcript(tmp_path):
    game = Game.from_deal(3)
    for cell in ["d4", "d4", "d4", "d4", "e4", "e4", "e4"]:
        if game.status == "playing":
            game.play(cell)
    path = tmp_path / "game.yaml"
    path.write_text(transcript_text(game))
    return path, game


def test_analyze_text_names_the_mistakes(tmp_path):
    path, game = _lost_game_transcript(tmp_path)
    r = invoke(["analyze", str(path), "--no-bot"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].split()[:4] == ["move", "card", "cell", "before"]
    assert "mistakes:" in r.output and "start: win 24" in r.output


@pytest.mark.parametrize("max_nodes", ["1", "100", "300", "3000000"])
def test_analyze_says_when_moves_are_left_unjudged(max_nodes):
    # a node limit that runs out leaves moves "unknown": the mistakes line says how
    # many, whether or not mistakes were found, so a short list is not taken as complete
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "deal89.moves")
    r = invoke(["analyze", script, "--deal", "89", "--no-bot", "--max-nodes", max_nodes])
    assert r.exit_code == 0, r.output
    verdicts = [line.split()[-1] for line in r.output.splitlines()[1:] if line[:4].strip().isdigit()]
    unknown = verdicts.count("unknown")
    summary = next(line for line in r.output.splitlines() if line.startswith("mistakes:"))
    if unknown:
        assert f"({unknown} move{'s' if unknown > 1 else ''} unknown: a higher --max-nodes may find more)" in summary
    else:
        assert "unknown" not in summary
    assert len(verdicts) == 36


def test_analyze_json_and_yaml(tmp_path):
    import yaml

    path, game = _lost_game_transcript(tmp_path)
    r = invoke(["analyze", str(path), "--no-bot", "--format", "json"])
    data = json.loads(r.output)
    assert len(data["moves"]) == len(game.moves) and data["status"] == game.status.value
    assert data["moves"][0]["before"] == "win" and data["mistakes"]
    r = invoke(["analyze", str(path), "--no-bot", "--format", "yaml"])
    assert yaml.safe_load(r.output)["moves"][0]["number"] == 1


def test_analyze_a_move_script_needs_the_deal(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("d4\ne4\n")
    r = invoke(["analyze", str(script), "--deal", "3", "--no-bot", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert [m["cell"] for m in json.loads(r.output)["moves"]] == ["d4", "e4"]


def test_analyze_bad_input_is_one_line(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("d4\nz9\n")
    r = invoke(["analyze", str(script), "--deal", "3"])
    assert r.exit_code == 1 and "Traceback" not in r.output and r.output.count("\n") == 1
    r = invoke(["analyze", str(tmp_path / "none.yaml")])
    assert r.exit_code == 1 and "no such file" in r.output


@pytest.mark.parametrize("args", [["--deal", "2", "--max-nodes", "50"], ["--deck", "-"]])
def test_solve_output_without_a_win_is_still_yaml(tmp_path, args):
    # `solve > win.yaml` then `validate win.yaml` (docs/guide/solver.md, docs/guide/ci.md): with no win to print, the
    # file holds comments only, which validate reports as "no game", not a YAML error
    result = invoke(["solve", *args], input="AS 2S\n")
    assert result.exit_code == 0
    assert result.stdout and all(line.startswith("# ") for line in result.stdout.splitlines())
    out = tmp_path / "win.yaml"
    out.write_text(result.stdout)
    checked = invoke(["validate", str(out)])
    assert checked.exit_code == 1 and "no game in the file" in checked.stderr
    assert "YAML" not in checked.stderr


def test_analyze_a_game_without_its_stock_order_names_the_file(tmp_path):
    path = tmp_path / "nodeal.yaml"
    path.write_text('foursquare: 1\nmoves: ["2D d4", "3C e4", "7D c4"]\n')
    result = invoke(["analyze", str(path), "--no-bot"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}: ") and "give --deal N, or a --deck FILE" in result.stderr
    with_deal = invoke(["analyze", str(path), "--no-bot", "--deal", "1"])
    assert with_deal.exit_code == 0 and "start: win 24" in with_deal.stdout


@pytest.mark.parametrize(
    "args",
    [["solve", "--deals", "0-2", "--max-nodes", "2000"], ["simulate", "--bot", "greedy", "--deals", "0-2"]],
)
def test_output_dash_keeps_stdout_one_csv(args):
    result = invoke([*args, "--output", "-"])
    assert result.exit_code == 0
    rows = list(csv.reader(result.stdout.splitlines()))
    assert len(rows) == 4 and all(len(row) == len(rows[0]) for row in rows)  # header and three deals
    assert "deals" in result.stderr or "games" in result.stderr  # the summary, on stderr


@pytest.mark.parametrize("extra", [["--format", "json"], ["-v"]])
def test_solve_output_dash_with_other_stdout_output_is_a_usage_error(extra):
    result = invoke(["solve", "--deals", "0-1", "--output", "-", *extra])
    assert result.exit_code == 2 and "both write to stdout" in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_failed_csv_write_names_the_file():
    result = invoke(["solve", "--deals", "0-2", "--max-nodes", "2000", "--output", "/dev/full"])
    assert result.exit_code == 1
    assert result.stderr.startswith("/dev/full: No space left on device")
    # the file holds nothing: the run says plainly that it did not get through (as simulate does)
    assert "interrupted: 0 of 3 deals done" in result.stdout


def test_analyze_names_the_limits_that_ran_out():
    # with --timeout too, the advice names both; a short deck is named as a cause
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "deal89.moves")
    r = invoke(["analyze", script, "--deal", "89", "--no-bot", "--max-nodes", "1", "--timeout", "5"])
    assert r.exit_code == 0, r.output
    assert "unknown: a higher --max-nodes or --timeout may find more)" in r.output


def test_analyze_of_a_state_without_moves_is_a_file_error_of_the_usual_form(tmp_path):
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "state.yaml")
    state = tmp_path / "s.yaml"
    with open(example) as f:
        state.write_text(f.read().split("\nmoves:")[0] + "\n")  # its last key, moves, left out
    r = invoke(["analyze", str(state)])
    assert r.exit_code == 1
    assert r.stderr.strip().startswith(f"{state}: a state has no moves to analyze") and "Error:" not in r.stderr


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_an_interrupted_summary_counts_unknown_deals_as_done_not_solved(monkeypatch, fmt):
    import foursquare.solver as solver

    solutions = [solver.solve_deal(0), solver.solve_deal(2, max_nodes=5), solver.solve_deal(1)]  # settled, unknown, settled
    assert [s.settled for s in solutions] == [True, False, True]

    def interrupted(*args, **kwargs):  # three deals done, then Ctrl-C
        yield from enumerate(solutions)
        raise KeyboardInterrupt

    monkeypatch.setattr(solver, "solve_deals", interrupted)
    result = invoke(["solve", "--deals", "0-9", "--format", fmt])
    assert result.exit_code == 130, result.output
    if fmt == "json":
        assert json.loads(result.stdout.splitlines()[-1])["interrupted"] == {"deals_solved": 2, "deals_unknown": 1, "deals_done": 3, "deals_asked": 10}
    else:
        assert "interrupted: 3 of 10 deals done (2 settled, 1 unknown)" in result.stdout.splitlines()
def test_solve_labels_stdin_as_stdin():
    result = invoke(["solve", "--deck", "-"], input="AS 2S\n")
    assert result.exit_code == 0
    assert result.stdout.startswith("# <stdin>: ")
