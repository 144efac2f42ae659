"""Options across the commands, through CliRunner: a --deal/--deck/--rules that
disagrees with the file is a usage error (never silently ignored), contradictory
flags, deal numbers of any length, times that are not finite, --bot names,
--game K for multi-game transcripts, messages without stray prefixes, strict whole
numbers in every integer option, empty file names, stdin named twice, and a mistyped
command ("did you mean")."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from helpers import EXAMPLES, ROOT, commands, invoke, one_line_error

from foursquare import Game
from foursquare.cli import main
from foursquare.cli.options import BoundedInt

WON = str(EXAMPLES / "won.yaml")  # deal 153, standard rules
LOST = str(EXAMPLES / "lost.yaml")  # deal 21
STATE = str(EXAMPLES / "state.yaml")  # deal 153 after 12 moves
INVALID = str(EXAMPLES / "invalid.yaml")  # four games


def usage_error(result, *words):
    assert result.exit_code == 2, result.output
    assert "Usage:" in result.stderr and "Traceback" not in result.output
    for word in words:
        assert word in result.stderr


@pytest.fixture
def deck_of_153(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(" ".join(str(c) for c in Game.from_deal(153).deck) + "\n")
    return str(path)


@pytest.fixture
def deck_of_1(tmp_path):
    path = tmp_path / "deck1.txt"
    path.write_text(" ".join(str(c) for c in Game.from_deal(1).deck) + "\n")
    return str(path)


# --------------------------------------------- options that disagree with a file

COMMANDS = [
    lambda f: ["replay", f, "--final"],
    lambda f: ["replay", f, "--format", "yaml", "--final"],
    lambda f: ["state", f],
    lambda f: ["play", "--resume", f],
    lambda f: ["analyze", f, "--no-bot", "--max-nodes", "10"],
]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", [WON, STATE])
@pytest.mark.parametrize(
    "extra, words",
    [
        (["--deal", "1"], ["names deal 153", "--deal 1 disagrees"]),
        (["--rules", "diagonal"], ["standard rules", "--rules diagonal disagrees"]),
        (["--rules", "five-square"], ["--rules five-square disagrees"]),
    ],
)
def test_an_option_that_disagrees_with_the_file_is_a_usage_error(command, path, extra, words):
    usage_error(invoke(command(path) + extra), *words)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_deck_that_disagrees_with_the_file_is_a_usage_error(command, deck_of_1):
    usage_error(invoke(command(WON) + ["--deck", deck_of_1]), "names deal 153", "disagrees")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("extra", [["--deal", "153"], ["--rules", "standard"], ["--deal", "153", "--rules", "standard"]])
def test_an_option_equal_to_what_the_file_says_is_accepted(command, extra):
    result = invoke(command(WON) + extra)
    assert result.exit_code in (0, 1) and "Usage:" not in result.stderr, result.output


def test_a_deck_equal_to_the_files_deal_is_accepted(deck_of_153):
    result = invoke(["replay", WON, "--final", "--deck", deck_of_153])
    assert result.exit_code == 0, result.output


def test_a_move_script_still_takes_its_deal_and_rules():
    script = (EXAMPLES / "deal89.moves").read_text()
    assert invoke(["replay", "-", "--deal", "89", "--final"], input=script).exit_code == 0
    assert invoke(["state", "-", "--deal", "89", "--rules", "standard"], input=script).exit_code == 0


@pytest.mark.parametrize(
    "args, words",
    [
        (["play", "--deal", "1", "--script", "--interactive"], ["--interactive", "--script"]),
        (["play", "--deal", "1", "--interactive", "--script"], ["--interactive", "--script"]),
        (["analyze", LOST, "--bot", "deep", "--no-bot"], ["--no-bot", "--bot"]),
        (["analyze", LOST, "--budget", "1", "--no-bot"], ["--no-bot", "--budget"]),
        (["replay", WON, "--deal", "153", "--deck", "x"], ["--deal", "--deck"]),
    ],
)
def test_contradictory_flags_are_usage_errors(args, words):
    usage_error(invoke(args), *words)


# --------------------------------------------------------- option values


HUGE = "9" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ["state", "--deal", HUGE],
        ["play", "--deal", HUGE],
        ["replay", "-", "--deal", HUGE],
        ["solve", "--deal", HUGE],
        ["state", "--deal", "9" * 25],
        ["state", "--deal", str(2**64)],
        ["state", "--deal", "-1"],
        ["state", "--deal", "1e3"],
        ["state", "--deal", "٣"],  # a digit, but not an ASCII one
    ],
)
def test_a_deal_number_out_of_range_is_a_usage_error_naming_the_range(args):
    result = invoke(args)
    usage_error(result, "--deal", "0 to 18446744073709551615")
    assert len(result.stderr) < 600  # 5000 digits are not echoed back


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "0", "-1", "x", "", "1_0", "0_5"])
@pytest.mark.parametrize(
    "args",
    [
        lambda v: ["solve", "--deal", "1", "--timeout", v],
        lambda v: ["solve", "--deals", "0-1", "--timeout", v],
        lambda v: ["analyze", LOST, "--timeout", v],
        lambda v: ["analyze", LOST, "--budget", v],
    ],
)
def test_times_must_be_finite_and_positive(args, value):
    usage_error(invoke(args(value)), "seconds")


@pytest.mark.parametrize("bot", ["bogus", "DEEP", ""])
def test_analyze_bot_is_a_choice_of_the_registered_bots(bot):
    usage_error(invoke(["analyze", LOST, "--bot", bot]), "--bot")


# ------------------------------------------------------------- --game K


@pytest.mark.parametrize("command", [["replay", "--final"], ["state"], ["analyze", "--no-bot", "--max-nodes", "10"]])
def test_a_multi_game_transcript_needs_game_k(command):
    result = invoke([command[0], INVALID, *command[1:]])
    assert result.exit_code == 1
    assert "holds 4 games; pick one with --game K (1 to 4)" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_game_k_picks_one_game(tmp_path):
    two = tmp_path / "two.yaml"
    two.write_text((EXAMPLES / "won.yaml").read_text() + "---\n" + (EXAMPLES / "lost.yaml").read_text())
    first = invoke(["replay", str(two), "--game", "1", "--final"])
    second = invoke(["replay", str(two), "--game", "2", "--final"])
    assert first.exit_code == 0 and "Result: won, score 8 (deal 153" in first.stdout
    assert second.exit_code == 0 and "(deal 21, 32 moves" in second.stdout
    state = invoke(["state", str(two), "--game", "2", "--after", "3"])
    assert state.exit_code == 0 and "deal: 21" in state.stdout and "placed: 3" in state.stdout
    analysis = invoke(["analyze", str(two), "--game", "2", "--no-bot", "--max-nodes", "10", "--format", "json"])
    assert analysis.exit_code == 0, analysis.output


def test_game_k_reports_the_invalid_game_it_picks():
    result = invoke(["replay", INVALID, "--game", "2"])
    assert result.exit_code == 1
    assert "game 2" in result.stderr and len(result.stderr.splitlines()) == 1
    assert invoke(["replay", INVALID, "--game", "1", "--final"]).exit_code == 0


@pytest.mark.parametrize("command", ["replay", "state"])
def test_game_k_beyond_the_file_is_an_error(command):
    result = invoke([command, WON, "--game", "2"])
    assert result.exit_code == 1
    assert result.stderr == f"{WON}: --game 2: the file holds only 1 game\n"


def test_game_k_needs_a_transcript():
    usage_error(invoke(["replay", str(EXAMPLES / "deal89.moves"), "--deal", "89", "--game", "1"]), "--game")
    usage_error(invoke(["state", STATE, "--game", "1"]), "--game")
    usage_error(invoke(["state", "--deal", "1", "--game", "1"]), "--game")


# ------------------------------------------------------------- messages


@pytest.mark.parametrize(
    "args, expected",
    [
        (["state", "--after", "33", WON], f"{WON}: --after 33: the game has only 32 moves"),
        (["state", "--after", "2", "-", "--deal", "1"], "<stdin>: --after 2: the game has only 1 move"),
    ],
)
def test_after_beyond_the_game_is_one_clean_line(args, expected):
    result = invoke(args, input="d4\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(expected) and len(result.stderr.splitlines()) == 1
    assert "--deal:" not in result.stderr


# --deals A-B (solve, simulate): one parser, strict, bounded.

@pytest.mark.parametrize("command", [["solve"], ["simulate", "--bot", "random"]])
@pytest.mark.parametrize(
    "value",
    ["x", "5-2", "-3", "1-", "1-2-3", "٣-5", "0-１", "9" * 5000, "0-18446744073709551616", "0-18446744073709551615"],
)
def test_bad_deal_ranges_are_usage_errors_with_a_short_message(command, value):
    result = invoke([*command, "--deals", value])
    assert result.exit_code == 2, result.output
    assert "--deals" in result.output and len(result.output) < 600
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["hint", "examples/state.yaml"], ["simulate", "--bot", "random", "--deals", "0-1"]])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "soon"])
def test_budgets_are_finite_seconds_above_zero(command, value):
    result = invoke([*command, "--budget", value])
    assert result.exit_code == 2, result.output
    assert "--budget" in result.output


@pytest.mark.parametrize("option", ["--deck", "--resume", "--rules"])
def test_play_takes_no_stdin_for_its_files_and_its_help_offers_none(option):
    # play's stdin holds the moves; the help of every other command may offer '-'
    result = invoke(["play", option, "-"], input="d4\n")
    assert result.exit_code == 2
    assert "play reads its moves from stdin; give a file name" in result.stderr
    help_text = invoke(["play", "--help"]).stdout
    assert "for stdin" not in help_text and "'-'" not in help_text


STDIN_NAMES = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]


def _stdin_name_usable(name: str) -> bool:
    return sys.platform != "win32" and os.path.exists(name)


@pytest.mark.parametrize("name", [*STDIN_NAMES, "the file itself"])
@pytest.mark.parametrize("option", ["--deck", "--resume", "--rules"])
def test_play_takes_no_other_name_of_stdin_for_its_files(tmp_path, option, name):
    """Every name of stdin is refused as ``-`` is (it would swallow the moves): the file
    of descriptor 0 by device and inode, here a move script redirected to it."""
    script = tmp_path / "moves.txt"
    script.write_text("d4\n")
    path = str(script) if name == "the file itself" else name
    if not _stdin_name_usable(path):
        pytest.skip(f"no {path} here")
    saved, fd = os.dup(0), os.open(script, os.O_RDONLY)
    try:
        os.dup2(fd, 0)
        result = invoke(["play", option, path, *(["--deal", "1"] if option == "--rules" else [])], input="d4\n")
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(fd)
    assert result.exit_code == 2, result.output
    assert f"'{option}': {path} is standard input, where play reads its moves; give a file name" in result.stderr
    assert script.read_text() == "d4\n"


@pytest.mark.parametrize("name", STDIN_NAMES)
@pytest.mark.parametrize("option", ["--deck", "--resume", "--rules"])
@pytest.mark.parametrize("stdin", ["a pipe", "a file"])
def test_subprocess_play_takes_no_name_of_stdin_for_its_files(tmp_path, option, name, stdin):
    if not _stdin_name_usable(name):
        pytest.skip(f"no {name} here")
    script = tmp_path / "moves.txt"
    script.write_text("d4\nquit\n")
    extra = ["--deal", "1"] if option == "--rules" else []
    command = [sys.executable, "-m", "foursquare", "play", option, name, *extra]
    if stdin == "a pipe":
        done = subprocess.run(command, input="d4\nquit\n", capture_output=True, text=True, timeout=60)
    else:
        with open(script) as moves:
            done = subprocess.run(command, stdin=moves, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"{name} is standard input, where play reads its moves; give a file name" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_play_still_reads_a_file_or_dev_null_that_is_not_its_stdin(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(" ".join(str(c) for c in Game.from_deal(1).deck))
    assert invoke(["play", "--deck", str(deck)], input="d4\n").exit_code == 0
    # /dev/null as stdin reads empty every time: naming it is no conflict
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "play", "--deal", "1", "--rules", "/dev/null"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert "standard input" not in done.stderr


@pytest.mark.parametrize("command", [["hint"], ["analyze", "--no-bot", "--max-nodes", "2000"], ["replay", "--final"], ["state"]])
@pytest.mark.parametrize("own", ['deck: ["2D", "3C"]\nmoves: [d4, e4]', 'moves: ["2D d4", "3C e4"]'])
def test_a_file_that_lists_only_the_first_cards_goes_on_with_a_longer_deal_or_deck(tmp_path, command, own):
    # deal 1 starts 2D 3C: --deal 1 or a deck that starts the same way extends the file's cards
    game = tmp_path / "g.yaml"
    game.write_text(f"foursquare: 1\n{own}\n")
    deck = tmp_path / "d.txt"
    deck.write_text(" ".join(str(c) for c in Game.from_deal(1).deck))
    for extra in (["--deal", "1"], ["--deck", str(deck)]):
        result = invoke([*command, str(game), *extra])
        assert result.exit_code == 0, result.output
    other = invoke([*command, str(game), "--deal", "2"])  # deal 2 starts otherwise
    if own.startswith("deck"):
        assert other.exit_code == 2 and "--deal 2 disagrees" in other.stderr
    else:  # each move's card is a claim, checked against the deal
        assert other.exit_code == 1 and "move 1: wrong card: the card drawn is AD, not 2D" in other.stderr


@pytest.mark.parametrize("command", [["replay"], ["state"], ["hint"], ["analyze", "--no-bot", "--max-nodes", "500"]])
def test_a_transcript_that_names_no_rules_plays_the_standard_rules(tmp_path, command):
    # FORMATS.md: rules are standard unless a variant is named; validate checks it so
    game = tmp_path / "g.yaml"
    game.write_text("foursquare: 1\ndeal: 1\nmoves: [d4, e4]\n")
    other = invoke([*command, str(game), "--rules", "three-square"])
    assert other.exit_code == 2 and "plays the standard rules; --rules three-square disagrees" in other.stderr
    assert invoke([*command, str(game), "--rules", "standard"]).exit_code == 0
    game.write_text("foursquare: 1\nrules: three-square\ndeal: 1\nmoves: [d4, e4]\n")
    assert invoke([*command, str(game), "--rules", "three-square"]).exit_code == 0


@pytest.mark.parametrize("command", ["solve", "play", "simulate"])
@pytest.mark.parametrize("stage", ["streams", "parsing", "import"])
def test_ctrl_c_while_a_command_is_loaded_ends_as_inside_it(monkeypatch, command, stage):
    # Ctrl-C before the command's own handling (the output streams being set up,
    # the arguments parsed, the command's module imported): "Interrupted." and
    # status 130, as inside the command; never a traceback or Click's "Aborted!"
    import importlib

    import click

    import foursquare.cli.streams as streams

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    where = {"streams": (streams, "guard_stdout"), "parsing": (click.Group, "make_context"), "import": (importlib, "import_module")}
    monkeypatch.setattr(*where[stage], interrupted)
    try:
        r = invoke([command, "--help"])
    except KeyboardInterrupt:
        pytest.fail("the interrupt escaped the command line")
    assert r.exit_code == 130
    assert "Interrupted." in r.stderr and "Aborted" not in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "--deal", "1", "--output", "x.csv"], "--output needs --deals"),
        (["solve", "--deal", "1", "--force"], "--force needs --output"),
        (["solve", "--deals", "1-2", "--force"], "--force needs --output"),
        (["solve", "--deal", "1", "--jobs", "2"], "--jobs needs --deals"),
        (["solve", "--deal", "1", "--jobs", "1"], "--jobs needs --deals"),
        (["solve", "--deal", "1", "-v"], "-v needs --deals"),
        (["simulate", "--deals", "0-1", "--force"], "--force needs --output"),
        (["play", "--deal", "1", "--force"], "--force needs --record"),
        (["solve", "--deals", "1-2", "-v", "--format", "json"], "-v needs --format text"),
        (["replay", WON, "--format", "yaml", "--ascii"], "--ascii needs --format text"),
        (["replay", WON, "--format", "yaml", "--reveal"], "--reveal needs --format text or svg"),
        (["state", "--deal", "1", "--after", "3"], "--after 3: without MOVES the game is at its start (0 moves)"),
        (["simulate", "--bot", "random", "--deals", "0-1", "--nodes", "5"], "--nodes changes nothing for random: it applies to deep"),
        (["simulate", "--bot", "greedy", "--vs", "random", "--deals", "0-1", "--nodes", "5"], "--nodes changes nothing for greedy, random"),
        (["simulate", "--bot", "random", "--deals", "0-1", "--budget", "1"], "--budget changes nothing for random: it applies to"),
        (["hint", "--deal", "1", "--bot", "random", "--budget", "2"], "--budget changes nothing for random: it applies to"),
        (["analyze", WON, "--bot", "random", "--budget", "0.5"], "--budget changes nothing for random: it applies to"),
        (["play", "--deal", "1", "--interactive", "-v"], "use only one of --interactive, --verbose"),
        (["state", "--deal", "1", "--reveal"], "--reveal needs --player-view"),
    ],
)
def test_an_option_given_without_the_one_it_modifies_is_a_usage_error(tmp_path, monkeypatch, args, message):
    # an option that only changes another one (--force: overwrite the --output file)
    # is never silently ignored: status 2, naming both, and nothing is run or written
    monkeypatch.chdir(tmp_path)
    r = invoke(args, input="d4\n")
    assert r.exit_code == 2 and f"Error: {message}" in r.stderr and r.stdout == ""
    assert not (tmp_path / "x.csv").exists()


def test_options_given_with_the_ones_they_modify_are_accepted(tmp_path):
    out = tmp_path / "x.csv"
    r = invoke(["solve", "--deals", "1-2", "--jobs", "1", "-v", "--output", str(out), "--force"])
    assert r.exit_code == 0 and out.read_text().count("\n") == 3
    record = tmp_path / "g.yaml"
    r = invoke(["play", "--deal", "1", "--record", str(record), "--force"], input="d4\n")
    assert r.exit_code == 0 and "d4" in record.read_text()
    # a bot option is accepted when one of the bots uses it
    assert invoke(["simulate", "--bot", "deep", "--vs", "random", "--deals", "0-0", "--nodes", "500"]).exit_code == 0
    assert invoke(["hint", "--deal", "1", "--bot", "greedy", "--budget", "0.5"]).exit_code == 0
    assert invoke(["hint", "--deal", "1", "--bot", "random"]).exit_code == 0


def _single_value_options():
    """(command, option) for every option of every command that takes one value."""
    from foursquare.cli import SHORT_HELP

    ctx = main.make_context("foursquare", ["--help"], resilient_parsing=True)
    for name in sorted(SHORT_HELP):
        command = main.get_command(ctx, name)
        for param in command.params:
            if isinstance(param, click.Option) and not (param.multiple or param.count or param.is_flag):
                yield name, param.opts[0]


@pytest.mark.parametrize("command, option", list(_single_value_options()))
def test_an_option_that_takes_one_value_given_twice_is_a_usage_error(command, option):
    # the last value silently won (simulate --vs expectimax --vs random played random only)
    result = invoke([command, option, "1", option, "2"])
    usage_error(result, option, "more than once")


def test_an_option_given_twice_under_its_two_names_is_named_by_both():
    result = invoke(["simulate", "--bot", "deep", "--deals", "0-1", "--nodes", "5", "--samples", "6"])
    usage_error(result, "Option '--nodes' / '--samples' is given more than once")


def test_options_meant_to_repeat_still_repeat():
    assert invoke(["simulate", "--deals", "0-1", "--bot", "random", "--bot", "greedy"]).exit_code == 0
    assert invoke(["replay", "--deal", "1", "--final", "--final", "-"], input="d4\n").exit_code == 0


def test_a_bot_given_twice_is_a_usage_error():
    result = invoke(["simulate", "--deals", "0-1", "--bot", "greedy", "--bot", "random", "--bot", "greedy"])
    usage_error(result, "--bot greedy", "more than once")


def test_a_ctrl_c_held_back_is_delivered_to_the_handler_in_place():
    # held back while a deal's rows were written, it then skipped the command's
    # handler, so a second Ctrl-C during the clean-up was not ignored (a traceback)
    import signal

    from foursquare.__main__ import _interrupt_once
    from foursquare.cli.signals import Terminated, catch_sigterm, restore_handlers, signals_deferred

    saved = signal.signal(signal.SIGINT, _interrupt_once)
    try:
        with pytest.raises(KeyboardInterrupt):
            with signals_deferred():
                signal.raise_signal(signal.SIGINT)
                signal.raise_signal(signal.SIGINT)  # (held too: delivered once)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # the next Ctrl-C is ignored
        handlers = catch_sigterm()
        try:
            with pytest.raises(Terminated) as stop:
                with signals_deferred():
                    signal.raise_signal(signal.SIGTERM)
            assert stop.value.code == 128 + signal.SIGTERM
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN  # and the next one is ignored
        finally:
            restore_handlers(handlers)
    finally:
        signal.signal(signal.SIGINT, saved)


_MODULES_AFTER = """
import contextlib, io, sys
sys.argv = ["foursquare", *sys.argv[1:]]
from foursquare.__main__ import run
with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
    run()
print(" ".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize("args", [["--help"], ["hint", "--help"], ["play", "--help"]])
def test_help_loads_no_solver_bot_or_worker_module(args):
    # start-up: the help of the group (and of a command) imports none of the heavy layers
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _MODULES_AFTER, *args], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()
    loaded = [m for m in out if m.startswith(("foursquare.solver", "foursquare.bots", "multiprocessing"))]
    assert loaded == []
    assert "foursquare.cli" in out


def test_the_static_lists_of_the_command_line_match_what_they_stand_for():
    # the group's help and --bot's choices are listed without importing the commands or the bots
    from foursquare.bots import BOTS, DEFAULT
    from foursquare.cli import SHORT_HELP
    from foursquare.cli.options import BOT_NAMES, DEFAULT_BOT

    ctx = click.Context(main)
    assert list(BOT_NAMES) == list(BOTS)
    assert DEFAULT_BOT == DEFAULT
    for name in SHORT_HELP:
        assert main.get_command(ctx, name).short_help == SHORT_HELP[name]


# ----------------------------------------------------------------------------
# What a usage error looks like, as docs/reference/contract.md ("Messages") states it: Click's
# four lines on stderr (the usage, where the help is, a blank line, ``Error: message``),
# status 2, nothing on stdout; an error in the input is one line instead.


CONTRACT = ROOT / "docs" / "reference" / "contract.md"

#: Usage errors of every kind: an unknown option, a bad value, a missing option, options
#: that do not go together, an option that needs another, no such command, a file that
#: disagrees with an option, an option given twice, stdin given twice, a subgroup's command,
#: an option without its value, a missing choice.
USAGE_ERRORS = [
    (["solve", "--bogus"], "solve"),
    (["solve", "--deals", "0-x"], "solve"),
    (["simulate"], "simulate"),
    (["play", "--deal", "1", "--deck", "d.txt"], "play"),
    (["solve", "--force"], "solve"),
    (["sovle"], ""),
    (["replay", str(EXAMPLES / "won.yaml"), "--deal", "1"], "replay"),
    (["state", "--deal", "1", "--deal", "2"], "state"),
    (["replay", "-", "--deck", "-"], "replay"),
    (["history", "export", "--bogus"], "history export"),
    (["solve", "--deals", "0-3", "--output", "-", "--format", "json"], "solve"),
    (["solve", "--deals"], "solve"),  # an option without its value: Click gives no usage, we add it
    (["schema"], "schema"),  # a missing choice: Click lists the values on lines of their own
    (["--bogus"], ""),
    (["history", "bogus"], "history"),
]


@pytest.mark.parametrize("args, command", USAGE_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_usage_error_is_the_four_lines_the_contract_page_shows(args, command):
    result = invoke(args, prog_name="foursquare")
    assert result.exit_code == 2 and result.stdout == "", result.output
    lines = result.stderr.split("\n")
    path = f"foursquare {command}".strip()
    assert len(lines) == 5 and lines[-1] == "", result.stderr  # four lines, each ended
    assert lines[0].startswith(f"Usage: {path} ")
    assert lines[1] == f"Try '{path} --help' for help."
    assert lines[2] == ""
    assert lines[3].startswith("Error: ") and len(lines[3]) > len("Error: ")


def test_a_missing_choice_names_its_values_on_the_message_line():
    result = invoke(["schema"], prog_name="foursquare")
    assert result.stderr.splitlines()[-1] == "Error: Missing argument '{transcript|state|rules}'. Choose from: transcript, state, rules"


def test_the_contract_pages_example_is_the_real_output():
    text = CONTRACT.read_text(encoding="utf-8")
    start = text.index("```text\n$ foursquare solve --force\n")
    block = text[start : text.index("```\n", start + 10)].split("\n", 1)[1]
    command, _, shown = block.partition("\n")
    done = subprocess.run([sys.executable, "-m", "foursquare", *command.split()[2:]], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == shown


def test_an_input_error_is_one_line(tmp_path):
    bad = tmp_path / "bad.moves"
    bad.write_text("d4\ne4 f4\n")
    result = invoke(["replay", bad, "--deal", "1"])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and result.stderr.startswith(f"{bad}:2: ")


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
    names = ("play", "replay", "state", "validate", "solve", "analyze", "hint", "simulate", "rules")
    assert not [m for m in loaded.stdout.split() if m in {f"foursquare.cli.{c}" for c in names}]


def test_every_command_that_reads_a_game_file_takes_game_k():
    for name, command in commands().items():
        reads = any(p.name in ("game_path", "moves_path", "resume_path") for p in command.params)
        if reads:
            assert any(p.name == "game_number" for p in command.params), name


def integer_options():
    """(command, option) for every integer option of every command."""
    out = []
    for name, command in sorted(commands().items()):
        for param in command.params:
            if isinstance(param, click.Option) and param.type.name in ("integer", "integer range"):
                out.append((name, param.opts[0], param.type))
    return out


def test_every_integer_option_has_the_strict_type():
    found = integer_options()
    assert {(c, o) for c, o, _ in found} >= {
        ("solve", "--max-nodes"), ("solve", "--jobs"), ("simulate", "--jobs"), ("simulate", "--seed"),
        ("simulate", "--nodes"), ("hint", "--seed"), ("hint", "--game"), ("state", "--after"),
        ("state", "--game"), ("replay", "--game"), ("analyze", "--game"), ("analyze", "--max-nodes"),
        ("play", "--game"),
    }
    for command, option, kind in found:
        assert isinstance(kind, BoundedInt), (command, option)


BAD_NUMBERS = ["9" * 5000, "４", "٣", "-1", "+3", "1_000", "0x10", "1e3", "", " ", "3.0", "１２", " 1", "1 ", "\t1\n"]


@pytest.mark.parametrize("command, option", [(c, o) for c, o, _ in integer_options()])
@pytest.mark.parametrize("value", BAD_NUMBERS, ids=lambda v: f"{v[:6]!r}({len(v)})")
def test_a_bad_integer_is_a_short_usage_error(command, option, value):
    result = invoke([command, option, value])
    line = one_line_error(result, 2)
    assert option in line
    assert "9" * 50 not in line


@pytest.mark.parametrize("command, option, kind", integer_options())
def test_an_integer_out_of_range_names_the_range(command, option, kind):
    line = one_line_error(invoke([command, option, str(kind.low - 1) if kind.low else str(kind.high + 1)]), 2)
    assert f"from {kind.low} to {kind.high}" in line


def test_the_strict_type_reads_ascii_digits():
    kind = BoundedInt(1, 100)
    assert kind.convert("42", None, None) == 42
    assert kind.convert("007", None, None) == 7
    assert kind.convert(5, None, None) == 5
    for bad in ["４", "0", "101", "1" * 5000, "0" * 5000 + "1x", " 7", "7 "]:
        with pytest.raises(click.BadParameter):
            kind.convert(bad, None, None)
    assert kind.convert("0" * 5000 + "9", None, None) == 9  # leading zeros are not size


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--deal", "1", "--record", ""],
        ["play", "--resume", ""],
        ["replay", ""],
        ["state", ""],
        ["validate", ""],
        ["hint", ""],
        ["analyze", ""],
        ["solve", "--deck", ""],
        ["state", "--deck", ""],
        ["solve", "--deals", "0-1", "--output", ""],
        ["simulate", "--deals", "0", "--output", ""],
        ["state", "--deal", "1", "--rules", ""],
    ],
)
def test_an_empty_file_name_is_a_usage_error(args):
    line = one_line_error(invoke(args), 2)
    assert "empty file name" in line or "neither a preset" in line


@pytest.mark.parametrize("args", [["solve", "--deal"], ["state", "--deal"], ["solve", "--deals"], ["simulate", "--bot", "random", "--deals"]])
@pytest.mark.parametrize("value", [" 1", "1 ", "1\n", " 0-1", "0- 1", "0 -1"])
def test_deal_numbers_and_ranges_take_digits_only(args, value):
    if "--deal" in args and "-" in value:
        return  # a range is not a deal number: covered by the other values
    result = invoke(args + [value])
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--deck", "-", "--rules", "-"],
        ["analyze", "-", "--deck", "-", "--no-bot"],
        ["state", "-", "--deck", "-"],
        ["replay", "-", "--rules", "-"],
        ["hint", "-", "--deck", "-"],
        ["validate", "-", str(EXAMPLES / "won.yaml"), "-"],
        ["validate", "-", "-"],
        ["play", "--deal", "1", "--rules", "-"],
    ],
)
def test_stdin_named_by_two_inputs_is_a_usage_error(args):
    # any two of a command's inputs (file, --deck, --rules, --resume) cannot both read stdin
    line = one_line_error(invoke(args, input="AS 2S\n"), 2)
    assert "'-' (stdin) given more than once" in line or "play reads its moves from stdin" in line


#: Every reader of ``-`` (stdin), as ``ARGS`` with ``X`` where the file's name goes.
STDIN_READERS = [
    ["validate", "X"],
    ["replay", "X"],
    ["state", "X"],
    ["hint", "X"],
    ["analyze", "X", "--no-bot"],
    ["history", "import", "X"],
    ["rules", "X"],
    ["state", "--deal", "1", "--rules", "X"],
    ["state", "--deck", "X"],
    ["solve", "--deck", "X"],
    ["replay", "--deck", "X", str(EXAMPLES / "won.yaml")],
]


@pytest.mark.parametrize("args", STDIN_READERS, ids=lambda a: " ".join(a[:3]))
@pytest.mark.parametrize("text", ["", "\n \n\t\n", "\r\n\r\n", "\ufeff\n\n", "# a comment\n\n"], ids=repr)
def test_stdin_reads_as_a_file_of_the_same_text(tmp_path, args, text):
    # one code path: '-' says what FILE says for the same text (blank lines too), with <stdin> for its name
    path = tmp_path / "in.txt"
    path.write_text(text, encoding="utf-8", newline="")
    from_file = invoke([str(path) if a == "X" else a for a in args])
    from_stdin = invoke(["-" if a == "X" else a for a in args], input=text.encode())
    assert from_stdin.exit_code == from_file.exit_code == 1, (from_file.output, from_stdin.output)
    assert from_stdin.stderr == from_file.stderr.replace(str(path), "<stdin>")
    assert from_stdin.stdout == from_file.stdout.replace(str(path), "<stdin>")
