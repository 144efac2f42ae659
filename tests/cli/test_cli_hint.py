"""``foursquare hint`` through Click's CliRunner."""

from __future__ import annotations

import json

import pytest
from helpers import EXAMPLES, invoke, one_line_error

from foursquare import Game
from foursquare.bots import DEFAULT


def _script(tmp_path, cells, name="game.moves"):
    path = tmp_path / name
    path.write_text("".join(f"{c}\n" for c in cells))
    return str(path)


def test_hint_json_names_a_legal_cell_with_estimates(tmp_path):
    path = _script(tmp_path, ["d4", "e4", "c4"])
    result = invoke(["hint", path, "--deal", "1", "--bot", "expectimax", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    game = Game.from_deal(1)
    for cell in ("d4", "e4", "c4"):
        game.play(cell)
    legal = {str(c) for c in game.legal_cells()}
    assert data["card"] == str(game.next_card) and data["cell"] in legal
    assert 0 <= data["win_chance"] <= 1 and 0 <= data["expected_score"] <= game.stock_count
    assert len(data["alternatives"]) == 2
    assert {a["cell"] for a in data["alternatives"]} <= legal - {data["cell"]}
    assert data["estimates"][0]["cell"] == data["cell"]


def test_hint_text_shows_the_cell_and_two_alternatives(tmp_path):
    path = _script(tmp_path, ["d4", "e4", "c4", "d3"])
    result = invoke(["hint", path, "--deal", "1", "--budget", "0.3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert " to " in lines[0] and "win " in lines[0] and "expected score" in lines[0]
    assert lines[1].lstrip().startswith("or ") and lines[2].lstrip().startswith("or ")
    assert f"{DEFAULT} bot" in lines[3]  # the default bot (foursquare.bots.DEFAULT)


def test_hint_reads_stdin_and_is_the_same_for_the_same_seed(tmp_path):
    first = invoke(["hint", "-", "--deal", "2", "--bot", "random", "--seed", "5", "--format", "json"], input="d4\nd5\n")
    again = invoke(["hint", "-", "--deal", "2", "--bot", "random", "--seed", "5", "--format", "json"], input="d4\nd5\n")
    assert first.exit_code == 0 and again.exit_code == 0
    assert _untimed(json.loads(first.stdout)) == _untimed(json.loads(again.stdout))


def _untimed(value):
    """A JSON value without its ``seconds`` fields (timings differ from run to run)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def test_a_finished_game_is_a_one_line_error(tmp_path):
    game = Game.from_deal(3)
    cells = []
    while not game.is_over:
        cell = game.legal_cells()[0]
        cells.append(str(cell))
        game.play(cell)
    result = invoke(["hint", _script(tmp_path, cells), "--deal", "3", "--bot", "greedy"])
    assert result.exit_code == 1
    assert "the game is over" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_bad_input_and_usage_errors(tmp_path):
    missing = invoke(["hint", str(tmp_path / "nothing.moves"), "--deal", "1"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    illegal = invoke(["hint", _script(tmp_path, ["d4", "a1"]), "--deal", "1"])
    assert illegal.exit_code == 1 and ":2:" in illegal.stderr
    assert invoke(["hint", _script(tmp_path, ["d4"]), "--deal", "1", "--bot", "nope"]).exit_code == 2
    assert invoke(["hint", _script(tmp_path, ["d4"]), "--deal", "1", "--budget", "0"]).exit_code == 2
    assert invoke(["hint", _script(tmp_path, ["d4"]), "--deal", "x"]).exit_code == 2


def test_hint_for_a_state_file(tmp_path):
    state = invoke(["state", "--deal", "5"]).stdout
    path = tmp_path / "start.yaml"
    path.write_text(state)
    result = invoke(["hint", str(path), "--bot", "greedy", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cell"] == "d4"


def test_hint_on_a_players_view_agrees_with_the_full_state(tmp_path):
    """A player's view holds all a hint may use (RULES.md §6): the answer is the same."""
    from foursquare.formats.state import state_text

    game = Game.from_deal(1)
    for _ in range(6):  # cards placed so that none is face down (the view then hides nothing)
        cells = [c for c in game.legal_cells() if _keeps_all_face_up(game, c)]
        if not cells:
            break
        game.play(cells[-1])
    assert game.placed >= 3 and game.face_down == 0
    full = tmp_path / "full.yaml"
    view = tmp_path / "view.yaml"
    full.write_text(state_text(game))
    view.write_text(state_text(game, player_view=True))
    answers = [
        json.loads(invoke(["hint", str(p), "--bot", "expectimax", "--format", "json"]).stdout) for p in (full, view)
    ]
    assert _untimed(answers[0]) == _untimed(answers[1])
    assert answers[0]["cell"] in {str(c) for c in game.legal_cells()}


def _keeps_all_face_up(game, cell):
    game.play(cell)
    ok = game.face_down == 0
    game.undo()
    return ok


def test_hint_says_how_it_ranks_and_the_time_used_of_the_budget(tmp_path):
    path = _script(tmp_path, ["d4", "e4", "c4", "d3"])
    lines = invoke(["hint", path, "--deal", "1", "--bot", "expectimax", "--budget", "2"]).stdout.splitlines()
    assert "(expectimax bot, used " in lines[3] and " of 2 s;" in lines[3]
    assert "ranked by the bot's search" in lines[4]
    data = json.loads(invoke(["hint", path, "--deal", "1", "--bot", "expectimax", "--format", "json"]).stdout)
    assert data["ranked_by"] == "search" and 0 <= data["seconds"] <= 60


def test_the_docs_hint_example_is_real_output_but_for_the_time_used():
    """docs/guide/hints.md shows `foursquare hint examples/state.yaml --bot greedy` in a
    text block (the time used changes from run to run): the rest is exact."""
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    page = root / "docs" / "guide" / "hints.md"
    block = next(b for b in page.read_text(encoding="utf-8").split("```") if b.startswith("text\n$ foursquare hint "))
    command, _, output = block[len("text\n$ ") :].partition("\n")
    words = shlex.split(command)[1:]
    words[words.index("examples/state.yaml")] = str(root / "examples" / "state.yaml")
    actual = invoke(words).output
    used = re.compile(r"used [0-9.]+ (s|ms|µs) of")
    assert used.search(actual) and used.sub("used T of", actual) == used.sub("used T of", output)


def test_nodes_makes_the_expert_hint_the_same_on_every_run_and_machine(tmp_path):
    # with the 1 s budget alone the sampling stops where the machine's speed says;
    # --nodes fixes the work instead (no time limit unless --budget is given too)
    from foursquare.bots import get_bot

    game, greedy = Game.from_deal(42), get_bot("greedy")
    for _ in range(8):  # a grid of 6 piles or more: the expert samples from there on
        game.play(greedy.choose(game.view()))
    script = tmp_path / "eight.moves"
    script.write_text("\n".join(str(p.cell) for p in game.moves) + "\n")
    args = ["hint", str(script), "--deal", "42", "--bot", "expert", "--nodes", "30000", "--format", "json"]
    first, second = (invoke(args) for _ in range(2))
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["budget"] is None and a["nodes"] == 30000
    assert any(e.get("samples") for e in a["estimates"])  # the sampling ran (8 cards placed)
    assert [a.pop("seconds"), b.pop("seconds")] and a == b


def test_nodes_is_refused_for_a_bot_it_does_not_change():
    r = invoke(["hint", "--deal", "1", "--bot", "greedy", "--nodes", "5"])
    assert r.exit_code == 2 and "--nodes changes nothing for greedy" in r.stderr


def test_the_help_of_hint_and_simulate_states_deeps_work_limit_the_code_uses():
    from foursquare.bots.expectimax import DEEP_NODES

    for command in ("hint", "simulate"):
        assert f"default {DEEP_NODES}" in " ".join(invoke([command, "--help"]).stdout.split())


def test_samples_is_an_alias_of_nodes_as_in_simulate_and_one_position_is_singular():
    a = invoke(["hint", "--deal", "1", "--nodes", "1"])
    b = invoke(["hint", "--deal", "1", "--samples", "1"])
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert "at most 1 position;" in a.stdout and "at most 1 position;" in b.stdout


def test_state_after_without_moves_is_a_usage_error_even_for_zero():
    for k in ("0", "3"):
        r = invoke(["state", "--deal", "1", "--after", k])
        assert r.exit_code == 2 and "without MOVES" in r.stderr


def test_the_prompt_and_hint_word_the_same_estimate_the_same_way(monkeypatch):
    # (the prompt said 'e3: wins 96.8%, expected score 17.2', hint '2D to f4   win 94.8% ...')
    import types

    import foursquare.bots as bots

    data = json.loads(invoke(["hint", "-", "--deal", "1", "--bot", "greedy", "--format", "json"], input="d4\n").stdout)
    text = invoke(["hint", "-", "--deal", "1", "--bot", "greedy"], input="d4\n").stdout.splitlines()
    estimates = [types.SimpleNamespace(**e) for e in data["estimates"]]
    monkeypatch.setattr(bots, "recommend", lambda view, budget=1.0: estimates)
    monkeypatch.setattr(bots, "DEFAULT", "greedy")
    prompt = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input="d4\nhint\nquit\n").stdout.splitlines()
    at = next(i for i, line in enumerate(prompt) if line.endswith("Hint (greedy bot, best first):"))
    shown = [line for line in text if line.startswith(("3C to ", "   or "))]
    assert shown and len(shown) <= 3
    for line, at_prompt in zip(shown, prompt[at + 1 : at + 1 + len(shown)], strict=True):
        cells, words = line.removeprefix("3C to ").removeprefix("   or ").split("   ", 1)
        assert words.startswith(("win ", "tied at win ")) and ", expected score " in words
        assert at_prompt == f"  {cells}: {words}"


def _fake(*figures, samples=None):
    """Estimates as a bot gives them (best first): (cell, win chance, expected score)."""
    from foursquare.bots import Estimate
    from foursquare.engine.layout import Cell

    return [Estimate(Cell.parse(c), w, s, samples, None if samples is None else 0) for c, w, s in figures]


def _both(monkeypatch, estimates, bot="expert"):
    """What `foursquare hint --bot BOT` and the prompt's `hint` print for these estimates."""
    import foursquare.bots as bots

    monkeypatch.setattr(bots, "recommend", lambda view, bot=None, budget=1.0, seed=0: estimates)
    monkeypatch.setattr(bots, "DEFAULT", bot)
    text = invoke(["hint", "-", "--deal", "1", "--bot", bot], input="d4\n").stdout
    data = json.loads(invoke(["hint", "-", "--deal", "1", "--bot", bot, "--format", "json"], input="d4\n").stdout)
    prompt = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input="d4\nhint\nquit\n").stdout
    return text, data, prompt


def test_cells_with_the_same_figures_are_said_to_be_tied(monkeypatch):
    text, data, prompt = _both(monkeypatch, _fake(("d4", 0.966, 21.6), ("e4", 0.966, 21.6), ("f4", 0.966, 21.6),
                                                  ("c5", 0.9, 20.0)))
    assert text.startswith("3C to d4, e4 and f4   tied at win 96.6%, expected score 21.6\n   or c5   win 90.0%")
    assert "  d4, e4 and f4: tied at win 96.6%, expected score 21.6\n  c5: win 90.0%" in prompt
    assert data["cell"] == "d4" and data["tied"] == ["e4", "f4"] and data["note"] is None
    assert "prefers" not in text + prompt
    many = _fake(*((c, 0.5, 3.0) for c in ("d4", "e4", "f4", "c5", "d5", "e5")))
    text, data, prompt = _both(monkeypatch, many)
    assert text.startswith("3C to d4, e4, f4 and 3 more   tied at win 50.0%") and len(data["tied"]) == 5


def test_a_second_decimal_tells_apart_what_one_decimal_would_print_alike(monkeypatch):
    text, _, prompt = _both(monkeypatch, _fake(("d5", 0.99868, 21.64), ("c5", 0.99851, 21.61), ("e5", 0.5, 9.0)))
    assert "3C to d5   win 99.87%, expected score 21.64\n   or c5   win 99.85%, expected score 21.61" in text
    assert "  c5: win 99.85%, expected score 21.61\n  e5: win 50.00%" in prompt and "tied" not in text + prompt


def test_a_tie_never_joins_cells_whose_figures_differ_at_two_decimals(monkeypatch):
    # the tie of the third line was printed with the one decimal the first two lines needed
    text, _, _ = _both(monkeypatch, _fake(("d4", 1.0, 6.92), ("c3", 1.0, 6.58), ("c2", 1.0, 6.58), ("b2", 1.0, 6.49),
                                          ("b3", 1.0, 6.50)), bot="deep")
    assert "c3 and c2   tied at win 100.0%, expected score 6.58\n   or b3   win 100.0%, expected score 6.50" in text
    import random

    from foursquare.cli.hint import estimate_words, shown_hint

    rng = random.Random(41)
    for _ in range(2000):
        figures = [(c, rng.choice((1.0, 0.99, 0.9912)), round(rng.uniform(6.4, 6.7), rng.choice((1, 2, 3))))
                   for c in ("a1", "b2", "c3", "d4", "e5", "f6", "g7")[: rng.randint(2, 7)]]
        estimates = _fake(*figures)
        for group in shown_hint(estimates, "deep").lines:
            cells = group[0].replace(" and ", ", ").split(", ")
            shown = {estimate_words(e, (2, 2)) for e in estimates if str(e.cell) in cells}
            assert "more" in group[0] or len(shown) == 1, (figures, group)


def test_once_the_win_is_sure_the_expected_score_ranks_the_others(monkeypatch):
    # the bot's order after its choice: 20.1, 23.0, 21.5; shown: by the score, the one figure that differs
    text, _, prompt = _both(monkeypatch, _fake(("d5", 1.0, 23.5), ("c5", 1.0, 20.1), ("e5", 1.0, 23.0), ("f5", 1.0, 21.5)),
                            bot="deep")
    assert [line.split()[-1] for line in text.splitlines()[:3]] == ["23.5", "23.0", "21.5"]
    assert "  e5: win 100.0%, expected score 23.0\n  f5: win 100.0%" in prompt and "prefers" not in text + prompt


def test_the_note_says_why_the_bot_prefers_a_cell_with_worse_figures(monkeypatch):
    # issue 42: c5 0.99821 / 21.60 ranked above d5 0.99868 / 21.68, and no note
    sampled = _fake(("c5", 0.99821, 21.60), ("d5", 0.99868, 21.68), ("e5", 0.97, 21.0), samples=72)
    text, data, prompt = _both(monkeypatch, sampled)
    note = "(the expert bot prefers c5: its search ranks it first among cells within 5 points of the best win chance)"
    assert text.startswith("3C to c5   win 99.8%, expected score 21.6\n   or d5   win 99.9%, expected score 21.7\n")
    assert text.splitlines()[-1] == note and prompt.count(note) == 1 and data["note"] == note
    deep = _fake(("c5", 1.0, 21.6), ("d5", 1.0, 21.7))
    text, _, prompt = _both(monkeypatch, deep, bot="deep")
    assert "(the deep bot prefers c5: its search values filled piles and fewer face-down cards" in text
    assert "(the deep bot prefers c5: " in prompt and "Hint (deep bot, best first):" in prompt


def test_the_guide_shows_the_note_the_hint_prints():
    from pathlib import Path

    from foursquare.cli.hint import shown_hint

    note = shown_hint(_fake(("c5", 0.99821, 21.60), ("d5", 0.99868, 21.68), samples=72), "expert").note
    page = Path(__file__).resolve().parents[2] / "docs" / "guide" / "hints.md"
    assert note is not None and note in page.read_text(encoding="utf-8")


def test_an_estimate_with_no_win_chance_nor_score_says_so_in_one_wording():
    from foursquare.bots import Estimate
    from foursquare.cli.hint import estimate_words
    from foursquare.engine.layout import Cell

    cell = Cell.parse("d4")
    assert estimate_words(Estimate(cell, 0.968, 17.24)) == "win 96.8%, expected score 17.2"
    assert estimate_words(Estimate(cell)) == "no estimate"
    assert estimate_words(Estimate(cell, None, 3.0)) == "win -, expected score 3.0"


@pytest.mark.parametrize("source", [[str(EXAMPLES / "state.yaml")], ["--deal", "3"]])
def test_hint_of_a_bot_without_estimates_says_what_it_did(source):
    text = invoke(["hint", *source, "--bot", "random"])
    assert text.exit_code == 0, text.output
    assert "win -" not in text.stdout and "expected score -" not in text.stdout
    assert "ranked by the bot's search" not in text.stdout
    assert "random order of the legal cells" in text.stdout
    data = json.loads(invoke(["hint", *source, "--bot", "random", "--format", "json"]).stdout)
    assert data["ranked_by"] == "random" and data["win_chance"] is None and data["budget"] is None  # it uses no time
    searched = json.loads(invoke(["hint", *source, "--bot", "greedy", "--format", "json"]).stdout)
    assert searched["ranked_by"] == "search" and searched["budget"] == 1.0


INVALID = str(EXAMPLES / "invalid.yaml")  # four games; game 1 is valid


def test_hint_takes_game_k_as_its_message_says():
    told = invoke(["hint", INVALID, "--bot", "greedy"])
    assert "pick one with --game K" in one_line_error(told, 1)
    done = invoke(["hint", INVALID, "--bot", "greedy", "--game", "1"])
    assert done.exit_code == 0, done.output
    assert "2 cards placed" in done.stdout
    beyond = invoke(["hint", INVALID, "--bot", "greedy", "--game", "9"])
    assert "holds only 4 games" in one_line_error(beyond, 1)


def test_hint_at_the_start_of_a_deal_or_deck(tmp_path):
    by_deal = invoke(["hint", "--deal", "1", "--bot", "greedy"])
    assert by_deal.exit_code == 0, by_deal.output
    assert by_deal.stdout.startswith("2D to ") and "0 cards placed" in by_deal.stdout
    deck = tmp_path / "deck.txt"
    deck.write_text(" ".join(str(c) for c in Game.from_deal(1).deck))
    by_deck = invoke(["hint", "--deck", deck, "--bot", "greedy"])
    assert by_deck.stdout.splitlines()[0] == by_deal.stdout.splitlines()[0]  # the rest has timings
    assert "give FILE" in one_line_error(invoke(["hint"]), 2)
    assert "--game" in one_line_error(invoke(["hint", "--deal", "1", "--game", "1"]), 2)
