"""The command line's smaller promises (issue 16, item 7): what a bot without
estimates says, one wording of a loss's reason, prompts that offer what works,
lines that fit 40 columns, progress on a terminal, "did you mean", completion,
usage errors on closed pipes, node limits, deal numbers read one way, and
solve's summary after an interrupt."""

from __future__ import annotations

import json
import re
import sys
import types

import pytest
from helpers import EXAMPLES, invoke, on_a_terminal

# --- hint with a bot that estimates nothing -------------------------------------------------


@pytest.mark.parametrize("source", [[str(EXAMPLES / "state.yaml")], ["--deal", "3"]])
def test_hint_of_a_bot_without_estimates_says_what_it_did(source):
    text = invoke(["hint", *source, "--bot", "random"])
    assert text.exit_code == 0, text.output
    assert "win -" not in text.stdout and "expected score -" not in text.stdout
    assert "ranked by the bot's search" not in text.stdout
    assert "random order of the legal cells" in text.stdout
    data = json.loads(invoke(["hint", *source, "--bot", "random", "--format", "json"]).stdout)
    assert data["ranked_by"] == "random" and data["win_chance"] is None
    searched = json.loads(invoke(["hint", *source, "--bot", "greedy", "--format", "json"]).stdout)
    assert searched["ranked_by"] == "search"


def test_prompt_hint_of_a_bot_without_estimates(monkeypatch):
    import foursquare.app.session as session

    def recommend(view, budget=1.0):
        return [types.SimpleNamespace(cell=c, win_chance=None, expected_score=None) for c in ("e4", "d5")]

    monkeypatch.setattr(session, "_recommend", lambda: recommend)
    result = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input="d4\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "no estimate" in result.stdout and "e4, d5" in result.stdout
    assert "ranked by the bot's search" not in result.stdout


# --- deal numbers: one parser, one rule for leading zeros ------------------------------------


@pytest.mark.parametrize("kind", ["transcript", "state"])
def test_a_deal_number_reads_the_same_on_the_command_line_and_in_a_file(tmp_path, kind):
    if kind == "transcript":
        text = "foursquare: 1\ndeal: {deal}\nmoves: [d4]\n"
    else:
        text = invoke(["state", "--deal", "7"]).stdout.replace("deal: 7", "deal: {deal}")
    path = tmp_path / "g.yaml"
    path.write_text(text.replace("{deal}", "7"), encoding="utf-8")
    from_file = invoke(["state", path])
    assert from_file.exit_code == 0 and "deal: 7\n" in from_file.stdout, from_file.output
    for bad in ("007", "07", "-7", "7.0", "0x7", "'7'", "18446744073709551616"):
        path.write_text(text.replace("{deal}", bad), encoding="utf-8")
        from_file = invoke(["state", path])
        assert from_file.exit_code == 1 and "deal must be a whole number" in from_file.stderr, (bad, from_file.output)
        if "'" not in bad:
            from_option = invoke(["state", "--deal", bad])
            assert from_option.exit_code == 2 and "not a deal number" in from_option.stderr, bad
            assert invoke(["simulate", "--deals", f"{bad}-9", "--bot", "random"]).exit_code == 2, bad
    zeros = invoke(["state", "--deal", "05"]).stderr
    assert "leading zero" in zeros


# --- a mistyped command ------------------------------------------------------------------------


@pytest.mark.parametrize("typed, meant", [("plya", "play"), ("vaildate", "validate"), ("solv", "solve"), ("anlyze", "analyze")])
def test_a_mistyped_command_gets_did_you_mean(typed, meant):
    result = invoke([typed, "--deal", "1"])
    assert result.exit_code == 2
    assert f"did you mean {meant}" in result.stderr and result.stdout == ""


def test_a_word_like_no_command_gets_no_guess():
    result = invoke(["xyzzy"])
    assert result.exit_code == 2 and "No such command 'xyzzy'" in result.stderr and "did you mean" not in result.stderr


def test_did_you_mean_imports_no_command_module():
    import subprocess
    import sys

    script = (
        "import contextlib, io, sys\n"
        "sys.argv = ['foursquare', 'plya']\n"
        "from foursquare.__main__ import run\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stderr(io.StringIO()):\n"
        "    run()\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    commands = ("play", "replay", "state", "validate", "solve", "analyze", "hint", "simulate", "rules")
    assert not [m for m in loaded.stdout.split() if m in {f"foursquare.cli.{c}" for c in commands}]


# --- shell completion ----------------------------------------------------------------------------


def _complete(words: str) -> list[tuple[str, str]]:
    """What bash completion offers for the last word of ``words`` (``foursquare ...``)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, _FOURSQUARE_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=str(len(words.split(" ")) - 1))
    out = subprocess.run(
        [sys.executable, "-m", "foursquare"], env=env, capture_output=True, text=True, timeout=60, check=True
    ).stdout
    return [tuple(line.split(",", 1)) for line in out.splitlines()]  # type: ignore[misc]


@pytest.mark.parametrize("command", ["play", "simulate --deals 0-9", "hint", "solve", "rules"])
def test_completion_offers_the_rule_presets_and_files(command):
    from foursquare.engine.rules import PRESETS

    option = "" if command == "rules" else " --rules"
    offered = _complete(f"foursquare {command}{option} ")
    assert [v for kind, v in offered if kind == "plain"] == list(PRESETS)
    assert ("file", "") in offered
    assert [v for kind, v in _complete(f"foursquare {command}{option} th") if kind == "plain"] == ["three-square"]


@pytest.mark.parametrize("words", ["foursquare hint --bot ", "foursquare simulate --bot ", "foursquare simulate --vs "])
def test_completion_offers_the_bots(words):
    from foursquare.bots import BOTS

    assert [v for kind, v in _complete(words) if kind == "plain"] == list(BOTS)


# --- solve's summary after an interrupt ----------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_an_interrupted_summary_counts_unknown_deals_as_done_not_solved(capsys, fmt):
    from foursquare.cli.solve import _summary
    from foursquare.engine.rules import STANDARD
    from foursquare.solver.analysis import BatchTally
    from foursquare.solver.search import solve_deal

    solutions = [solve_deal(0), solve_deal(2, max_nodes=5), solve_deal(1)]  # settled, unknown, settled
    assert [s.settled for s in solutions] == [True, False, True]
    tally = BatchTally()
    for solution in solutions:
        tally.add(solution)
    _summary(tally, fmt, STANDARD, interrupted=10)
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)["interrupted"] == {"deals_solved": 2, "deals_unknown": 1, "deals_done": 3, "deals_asked": 10}
    else:
        assert out.splitlines()[0] == "interrupted: 3 of 10 deals done (2 settled, 1 unknown)"


# --- the node limit ------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 2, 9, 150])
def test_the_node_limit_holds_under_every_preset(limit):
    from foursquare.engine.rules import PRESETS
    from foursquare.solver.search import solve_deal

    for rules in PRESETS.values():
        for deal in range(6):
            sol = solve_deal(deal, rules, max_nodes=limit)
            assert sol.nodes <= limit, (rules.name, deal, sol.nodes)
            assert sol.settled or sol.nodes == limit  # stopped by the limit: at it, not past it


# --- validate on a file of another kind ------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, says",
    [("rules", "this is a rules file, not a transcript"), ("state", "this is a state, not a transcript"),
     ("moves", "this looks like a move script"), ("other", "not a Foursquare transcript")],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_says_once_that_a_file_is_of_another_kind(tmp_path, kind, says, fmt):
    text = {
        "rules": invoke(["rules", "three-square", "--format", "yaml"]).stdout,
        "state": (EXAMPLES / "state.yaml").read_text(encoding="utf-8"),
        "moves": "d4\ne4\n",
        "other": "services:\n  web: 1\n",
    }[kind]
    path = tmp_path / f"f.{kind}"
    path.write_text(text, encoding="utf-8")
    result = invoke(["validate", "--format", fmt, path, EXAMPLES / "won.yaml"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{path}:1: {result.stderr.split(': ', 1)[1].rstrip()}"]
    assert says in result.stderr and "game 1" not in result.stderr
    if fmt == "json":
        first = json.loads(result.stdout)[0]
        assert first["game"] is None and first["status"] is None and first["valid"] is False
    else:
        out = result.stdout.splitlines()
        assert out[0] == f"{path}: invalid, not checked game by game (see the error above)" and says not in result.stdout
        assert out[-1] == "1 game checked, all valid; 1 file not checked (see above)"


# --- a usage error with stderr closed or unread ------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize("args", [["play", "--bogus"], ["plya"], ["solve", "--deal", "05"], ["hint", "--bot", "nobody"], []])
def test_a_usage_error_with_stderr_closed_prints_nothing_on_stdout_and_keeps_status_2(args):
    import os
    import subprocess

    command = [sys.executable, "-m", "foursquare", *args]
    closed = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=False, stdout=subprocess.PIPE,
                            preexec_fn=lambda: os.close(2), timeout=60)
    assert (closed.returncode, closed.stdout) == (2, b"")
    read, write = os.pipe()
    os.close(read)  # `2>&1 | head -0`: the reader of stderr is gone
    try:
        unread = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=write, timeout=60)
    finally:
        os.close(write)
    assert (unread.returncode, unread.stdout) == (2, b"")


# --- progress on a terminal -------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
@pytest.mark.parametrize(
    "args, label",
    [(["analyze", str(EXAMPLES / "won.yaml"), "--no-bot", "--max-nodes", "500"], b"analyzing"),
     (["solve", "--deals", "0-3", "--max-nodes", "500"], b"solving")],
)
def test_a_long_command_draws_progress_on_a_terminal_only(args, label):
    import subprocess

    run = on_a_terminal(args, streams=("stderr",))
    code, out, terminal = run.status, run.stdout, run.terminal
    assert code == 0
    assert label in terminal and b"100%" in terminal and label not in out
    piped = subprocess.run([sys.executable, "-m", "foursquare", *args], capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout.splitlines()[0] == out.splitlines()[0]


# --- a loss's reason in words, one wording --------------------------------------------------------


def test_every_loss_reason_has_words_and_no_token():
    from foursquare.engine.game import Reason, Status
    from foursquare.engine.outcome import outcome_words, reason_words

    for reason in Reason:
        words = outcome_words(Status.LOST, reason, face_down=5, limit=4)
        assert words.startswith("lost: ") and reason.value not in words and "-" not in reason_words(reason)


def test_no_reason_token_reaches_a_person():
    from foursquare.engine.game import Reason

    lost = EXAMPLES / "lost.yaml"
    outputs = [
        invoke(["play", "--interactive", "--ascii", "--resume", lost], input="d4\nmoves\nundo\nredo\nquit\n"),
        invoke(["play", "--resume", lost], input="d4\n"),  # a script: the move after the end is an error
        invoke(["replay", lost]),
        invoke(["simulate", "--bot", "random", "--deals", "0-20"]),
    ]
    for result in outputs:
        shown = result.stdout + result.stderr
        assert "too many face down" in shown or "the stock is empty" in shown, shown[-500:]
        assert not [r.value for r in Reason if r.value in shown], shown[-500:]


# --- script errors and the game-over prompt --------------------------------------------------------


@pytest.mark.parametrize("line", ["zz", "d0", "9H e4 x", "save"])
def test_only_the_prompt_says_type_help(line):
    typed = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input=f"{line}\nquit\n")
    piped = invoke(["play", "--deal", "1"], input=f"{line}\n")
    assert piped.exit_code == 1 and piped.stderr.startswith("<stdin>:1: ")
    assert "type help" not in piped.stderr
    if "commands are" not in typed.stderr:  # a message that already lists the commands
        assert "type help for the commands" in typed.stderr


def test_the_game_over_prompt_offers_exactly_the_commands_that_work():
    from foursquare.formats.commands import GAME_COMMANDS, STOP_COMMANDS

    lost = EXAMPLES / "lost.yaml"
    result = invoke(["play", "--interactive", "--ascii", "--resume", lost], input="quit\n")
    offered = result.stdout.split("game over (")[1].split(")>")[0].split(", ")
    assert set(offered) <= GAME_COMMANDS | STOP_COMMANDS and set(STOP_COMMANDS) <= set(offered)
    for command in sorted(GAME_COMMANDS):  # each one offered works there, each one left out does not
        tried = invoke(["play", "--interactive", "--ascii", "--resume", lost], input=f"{command}\nquit\n")
        works = "Took back" in tried.stdout or "Again:" in tried.stdout
        assert works == (command in offered), (command, tried.stderr)


# --- 40 columns ------------------------------------------------------------------------------------

#: What the prompt prints before the line typed (a piped session shows no line end after it).
_PROMPTS = re.compile(r"^(?:(?:[2-9TAJQK][CDHS]|\?\?|game over \([a-z, ]+\))> )+")


def _too_wide(text: str, width: int = 40) -> list[str]:
    lines = [_PROMPTS.sub("", line) for line in text.splitlines()]
    return [line for line in lines if len(line) > width]


def _moves(path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


@pytest.mark.parametrize("reveal", [[], ["--reveal"]])
def test_whole_games_drawn_with_v_fit_40_columns(reveal):
    from helpers import conformance_records

    games = [(89, _moves(EXAMPLES / "deal89.moves"))]
    games += [(r["deal"], r["moves"]) for r in conformance_records()[::6]]  # won, lost, every policy
    for deal, moves in games:
        result = invoke(["play", "-v", "--ascii", "--deal", deal, *reveal], input="\n".join(moves) + "\n")
        assert result.exit_code == 0, result.output
        assert _too_wide(result.stdout) == [], deal


def test_a_whole_session_at_the_prompt_fits_a_40_column_terminal(monkeypatch, tmp_path):
    import foursquare.app.session as session
    from foursquare.cli.style import Look

    monkeypatch.setattr(Look, "for_stream", classmethod(lambda cls, stream=None, *, ascii=False: cls(False, False, 40)))
    estimates = [types.SimpleNamespace(cell=c, win_chance=0.5, expected_score=12.25) for c in ("d4", "e4")]
    monkeypatch.setattr(session, "_recommend", lambda: lambda view, budget=1.0: estimates)
    moves = _moves(EXAMPLES / "deal89.moves")
    typed = ["help", "moves", "zz", "d0", "hint", "reveal", "show", "reveal", *moves[:12], "undo", "redo", "save",
             "state --bogus", "9H e4", "moves", *moves[12:], "moves", "hint", "d4", "undo", "redo", "quit"]
    monkeypatch.chdir(tmp_path)  # a short file name: a command naming a long one cannot fit
    result = invoke(["play", "--interactive", "--ascii", "--deal", "89", "--record", "rec.yaml"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Won, score 4." in result.stdout and "foursquare replay" in result.stdout
    assert _too_wide(result.stdout + result.stderr) == []
    lost = invoke(["play", "--interactive", "--ascii", "--resume", EXAMPLES / "lost.yaml"], input="d4\nundo\nquit\n")
    assert "Game over: lost: too many face down" in lost.stdout
    assert _too_wide(lost.stdout + lost.stderr) == []


def test_hint_json_gives_no_budget_for_a_bot_that_uses_none():
    import json

    random_hint = json.loads(invoke(["hint", "--deal", "1", "--bot", "random", "--format", "json"]).stdout)
    greedy_hint = json.loads(invoke(["hint", "--deal", "1", "--bot", "greedy", "--format", "json"]).stdout)
    assert random_hint["budget"] is None and greedy_hint["budget"] == 1.0
