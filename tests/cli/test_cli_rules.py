"""``foursquare rules``: presets listed, rule sets explained (RULES.md §8, issue 6)."""

import pytest
import yaml
from helpers import invoke

from foursquare.engine.rules import DESCRIPTIONS, PRESETS, STANDARD
from foursquare.formats.schema import load_rules


def test_without_argument_every_preset_is_listed_with_its_description():
    result = invoke(["rules"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    for line, name in zip(lines, PRESETS, strict=True):
        assert line.endswith(DESCRIPTIONS[name])


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_is_explained_and_its_changed_parameters_marked(name):
    result = invoke(["rules", name])
    assert result.exit_code == 0, result.output
    rules = PRESETS[name]
    assert f"Rules: {name}" in result.output
    assert f"Deck: {rules.deck_size} cards" in result.output
    standard = STANDARD.parameters()
    for key, value in rules.parameters().items():
        marked = [line for line in result.output.splitlines() if line.strip(" *").startswith(f"{key}:")]
        assert len(marked) == 1
        assert marked[0].lstrip().startswith("*") == (value != standard[key])


def test_the_explanation_follows_the_parameters():
    assert "stays face up" in invoke(["rules", "standard"]).output
    assert "flips with its line" in invoke(["rules", "self-flip"]).output
    assert "an edge or a corner" in invoke(["rules", "diagonal"]).output
    assert "face up or down" in invoke(["rules", "open-comparison"]).output
    assert "a tie flips too" in invoke(["rules", "ties-count"]).output
    assert "fixed 4x4 board, cells a1 to d4" in invoke(["rules", "fixed-board"]).output
    assert "all 9 piles" in invoke(["rules", "three-square"]).output


@pytest.mark.parametrize("name", list(PRESETS))
def test_yaml_output_is_a_rules_file_that_loads_to_the_same_rules(name, tmp_path):
    result = invoke(["rules", name, "--format", "yaml"])
    assert result.exit_code == 0
    path = tmp_path / "rules.yaml"
    path.write_text(result.output)
    assert load_rules(str(path)) == PRESETS[name]
    assert yaml.safe_load(result.output) == PRESETS[name].parameters()


def test_a_rules_file_from_stdin_is_explained_as_custom():
    result = invoke(["rules", "-"], input="{preset: diagonal, ties: count}\n")
    assert result.exit_code == 0, result.output
    assert "Rules: custom" in result.output
    assert "* adjacency: edge-or-corner" in result.output and "* ties: count" in result.output


def test_unknown_name_is_a_usage_error_listing_presets():
    result = invoke(["rules", "no-such-rules"])
    assert result.exit_code == 2
    assert "standard" in result.output and "Traceback" not in result.output


def test_bad_rules_file_names_file_line_and_allowed_values(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("preset: standard\nsize: 9\n")
    result = invoke(["rules", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:" in result.output and "3 to 6" in result.output


def test_yaml_format_without_a_rule_set_is_a_usage_error():
    assert invoke(["rules", "--format", "yaml"]).exit_code == 2


@pytest.mark.parametrize("name", ["five-square", "self-flip", "standard"])
def test_play_tells_how_to_replay_under_the_same_rules(name):
    result = invoke(["play", "--deal", "3", "--rules", name], input="d4\n")
    assert result.exit_code == 0, result.output
    joined = result.output.replace(":\n  foursquare ", ": foursquare ")  # the command may be on a line of its own
    replay = [line for line in joined.splitlines() if "Play it again" in line][0]
    assert replay.endswith("--deal 3" + ("" if name == "standard" else f" --rules {name}"))


def test_batch_results_are_labelled_with_their_rules():
    """Issue 6: simulate and solve say which rule set their figures are for."""
    import json

    text = invoke(["simulate", "--bot", "greedy", "--deals", "0-1", "--rules", "diagonal"])
    assert text.exit_code == 0 and text.output.startswith("rules: diagonal\n")
    data = json.loads(invoke(["simulate", "--bot", "greedy", "--deals", "0-1", "--rules", "diagonal", "--format", "json"]).output)
    assert data["rules"] == "diagonal"
    standard = json.loads(invoke(["simulate", "--bot", "greedy", "--deals", "0-1", "--format", "json"]).output)
    assert standard["rules"] == "standard"
    solved = invoke(["solve", "--deals", "0-1", "--rules", "fixed-board", "--max-nodes", "500", "--format", "json"])
    assert json.loads(solved.output.splitlines()[-1])["summary"]["rules"] == "fixed-board"
    assert "rules: fixed-board" in invoke(["solve", "--deals", "0-1", "--rules", "fixed-board", "--max-nodes", "500"]).output
