"""``foursquare state``: the state YAML of FORMATS.md, which resumes exactly."""

from __future__ import annotations

import yaml
from helpers import EXAMPLES, invoke

WON = EXAMPLES / "won.yaml"


def test_start_of_a_deal():
    result = invoke(["state", "--deal", "1"])
    assert result.exit_code == 0
    state = yaml.safe_load(result.stdout)
    assert state["deal"] == 1 and state["placed"] == 0 and state["next"] == "2D"
    assert len(state["remaining"]) == 39


def test_after_k_moves_and_the_dump_resumes_exactly(tmp_path):
    result = invoke(["state", str(WON), "--after", "10"])
    assert result.exit_code == 0
    state = yaml.safe_load(result.stdout)
    assert state["placed"] == 10 and state["status"] == "playing"
    saved = tmp_path / "state.yaml"
    saved.write_text(result.stdout)
    assert invoke(["state", str(saved)]).stdout == result.stdout  # load and dump: the same text


def test_after_zero_and_after_too_many():
    assert yaml.safe_load(invoke(["state", str(WON), "--after", "0"]).stdout)["placed"] == 0
    result = invoke(["state", str(WON), "--after", "33"])
    assert result.exit_code == 1
    assert result.stderr == f"{WON}: --after 33: the game has only 32 moves\n"


def test_player_view_hides_the_stock_order_and_face_down_cards():
    full = yaml.safe_load(invoke(["state", "--deal", "1"], input=None).stdout)
    assert "remaining" in full
    result = invoke(["state", "-", "--deal", "1", "--player-view"], input="d4\ne4\n")
    view = yaml.safe_load(result.stdout)
    assert "remaining" not in view
    assert view["grid"]["d4"]["face"] == "down"
    assert "2D" not in result.stdout.split("grid:")[1]


def test_a_player_view_with_its_face_down_cards_is_read_by_hint():
    view = invoke(["state", "-", "--deal", "1", "--player-view", "--reveal"], input="d4\ne4\n").stdout
    assert yaml.safe_load(view)["grid"]["d4"] == {"cards": ["2D"], "face": "down"}
    assert "remaining" not in view
    hint = invoke(["hint", "-", "--bot", "greedy"], input=view)
    assert hint.exit_code == 0, hint.output
    assert hint.stdout.startswith("7D to ")


def test_reveal_needs_the_player_view():
    result = invoke(["state", "--deal", "1", "--reveal"])
    assert result.exit_code == 2 and "--reveal needs --player-view" in result.stderr


def test_deck_file(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("5C 9D 2H 7S 7C AS\n")
    state = yaml.safe_load(invoke(["state", "--deck", str(deck)]).stdout)
    assert state["next"] == "5C"


def test_nothing_to_show_is_a_usage_error():
    assert invoke(["state"]).exit_code == 2
    assert invoke(["state", "--after", "-1", "--deal", "1"]).exit_code == 2
