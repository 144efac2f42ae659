"""Regressions from a user test, each checked over its whole kind (CliRunner; the
signal and pipe cases are in e2e/test_cli_subprocess.py)."""

from __future__ import annotations

import json
import re

import click
import pytest
from helpers import EXAMPLES, invoke

from foursquare import Game
from foursquare.app.session import Session, read_entry
from foursquare.cli import COMMANDS, main
from foursquare.cli.options import BoundedInt
from foursquare.cli.render import draw
from foursquare.formats.files import BINARY_WORDS

INVALID = str(EXAMPLES / "invalid.yaml")  # four games; game 1 is valid


def one_line_error(result, code):
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error") or code == 1]
    assert len(lines) == 1, result.stderr
    assert len(lines[0]) < 300, lines[0]
    return lines[0]


# ------------------------------------------------------------- 1. --game K


def test_hint_takes_game_k_as_its_message_says():
    told = invoke(["hint", INVALID, "--bot", "greedy"])
    assert "pick one with --game K" in one_line_error(told, 1)
    done = invoke(["hint", INVALID, "--bot", "greedy", "--game", "1"])
    assert done.exit_code == 0, done.output
    assert "2 cards placed" in done.stdout
    beyond = invoke(["hint", INVALID, "--bot", "greedy", "--game", "9"])
    assert "holds only 4 games" in one_line_error(beyond, 1)


def test_play_resume_takes_game_k_as_its_message_says():
    told = invoke(["play", "--resume", INVALID, "--script"], input="")
    assert "pick one with --game K" in one_line_error(told, 1)
    done = invoke(["play", "--resume", INVALID, "--game", "1", "--script"], input="quit\n")
    assert done.exit_code == 0, done.output
    assert "Stopped after 2 cards placed" in done.stdout
    alone = invoke(["play", "--deal", "1", "--game", "1", "--script"], input="")
    assert "--resume" in one_line_error(alone, 2)


def test_every_command_that_reads_a_game_file_takes_game_k():
    for name, command in all_commands().items():
        reads = any(p.name in ("game_path", "moves_path", "resume_path") for p in command.params)
        if reads:
            assert any(p.name == "game_number" for p in command.params), name


# ----------------------------------------------------- 2. integer options


def all_commands():
    ctx = click.Context(main)
    return {name: main.get_command(ctx, name) for name in COMMANDS}


def integer_options():
    """(command, option) for every integer option of every command."""
    out = []
    for name, command in sorted(all_commands().items()):
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


# ----------------------------------------------- 3. writing at the prompt


def prompt(tmp_path, lines, *extra):
    return invoke(["play", "--deal", "1", "--interactive", *extra], input="\n".join(lines) + "\n")


@pytest.mark.parametrize("command", ["save", "state"])
def test_the_prompt_will_not_write_over_an_unrelated_file(tmp_path, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    result = prompt(tmp_path, ["d4", f"{command} keep.txt", "quit"])
    assert result.exit_code == 0, result.output
    assert keep.read_text() == "precious\n"
    assert f"'{command}! FILE' overwrites it" in result.stderr
    forced = prompt(tmp_path, ["d4", f"{command}! keep.txt", "quit"])
    assert forced.exit_code == 0 and "Saved the" in forced.stdout
    assert keep.read_text().startswith("foursquare: 1")


def test_the_prompt_writes_freely_to_its_own_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "rec.yaml"
    (tmp_path / "empty.yaml").write_text("")
    result = prompt(
        tmp_path, ["d4", "save new.yaml", "e4", "save new.yaml", "save rec.yaml", "save empty.yaml", "quit"],
        "--record", str(record),
    )
    assert result.exit_code == 0, result.output
    assert "exists" not in result.stderr
    assert "e4" in (tmp_path / "new.yaml").read_text() and "e4" in (tmp_path / "empty.yaml").read_text()
    resumed = invoke(["play", "--resume", str(record), "--interactive"], input=f"save {record}\nquit\n")
    assert resumed.exit_code == 0 and "exists" not in resumed.stderr


def test_a_script_refuses_to_write_over_an_unrelated_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.txt").write_text("precious\n")
    result = invoke(["play", "--deal", "1", "--script"], input="d4\nsave keep.txt\n")
    assert "keep.txt: the file exists and is not empty" in one_line_error(result, 1)
    assert (tmp_path / "keep.txt").read_text() == "precious\n"


@pytest.mark.parametrize(
    "line", ["state --bogus", "state -", "save --force x.yaml", "save -x", "state! --full", "save! -x", "save x --force"]
)
def test_words_starting_with_a_dash_are_unknown_options_not_files(tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    result = prompt(tmp_path, [line, "quit"])
    assert result.exit_code == 0
    if "!" in line:  # save!/state! take nothing but a file name
        assert "is not a file name here" in result.stderr and "takes one file" in result.stderr
    else:
        assert "unknown option" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_read_entry_force_forms():
    assert read_entry("save! a.yaml") == ("save!", "a.yaml")
    assert read_entry("STATE! a.yaml") == ("state!", "a.yaml")
    assert read_entry("state --full") == ("state", "--full")
    assert read_entry("save ./-x") == ("save", "./-x")


def test_session_save_refuses_unless_forced_or_its_own(tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    session = Session(Game.from_deal(1), autosave=False)
    with pytest.raises(FileExistsError):
        session.save(str(keep))
    assert keep.read_text() == "precious\n"
    assert session.save(str(keep), force=True) == "transcript"
    session.save(str(keep))  # now its own
    resumed = Session(Game.from_deal(1), autosave=False, resume=str(keep))
    resumed.save(str(keep))


# ------------------------------------------------------------ 5. names


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


def test_solve_labels_stdin_as_stdin():
    result = invoke(["solve", "--deck", "-"], input="AS 2S\n")
    assert result.exit_code == 0
    assert result.stdout.startswith("# <stdin>: ")


@pytest.mark.parametrize("files", [["-", "-"], ["-", str(EXAMPLES / "won.yaml"), "-"]])
def test_stdin_twice_is_a_usage_error(files):
    assert "more than once" in one_line_error(invoke(["validate", *files], input=""), 2)


# ----------------------------------------------- 6. no file, empty files


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


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing yet\n", "  # a comment\n\n# another\n", "\ufeff# bom\n"])
@pytest.mark.parametrize("command", ["hint", "replay", "state"])
def test_an_empty_or_comment_only_script_is_the_start(tmp_path, command, text):
    path = tmp_path / "moves.txt"
    path.write_text(text, encoding="utf-8")
    extra = ["--bot", "greedy"] if command == "hint" else []
    with_deal = invoke([command, path, "--deal", "1", *extra])
    assert with_deal.exit_code == 0, with_deal.output
    start = invoke([command, "-", "--deal", "1", *extra], input="")
    assert start.exit_code == 0
    if command == "hint":  # its last line has timings
        assert start.stdout.splitlines()[0] == with_deal.stdout.splitlines()[0]
    else:
        assert start.stdout == with_deal.stdout
    without = invoke([command, path, *extra])
    assert "with --deal N or --deck FILE" in one_line_error(without, 1)


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_play_resume_of_an_empty_file_is_an_error(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text)
    assert "no game in it" in one_line_error(invoke(["play", "--resume", path, "--script"], input=""), 1)


# --------------------------------------------------------- 4. streaming


def test_solve_streams_in_deal_order_whatever_the_jobs():
    args = ["solve", "--deals", "0-7", "--max-nodes", "3000", "--format", "json"]
    one, two = invoke(args), invoke([*args, "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output

    def untimed(text):
        rows = [json.loads(line) for line in text.splitlines()]
        for row in rows:
            row.pop("seconds", None)
            row.get("summary", {}).clear()
        return rows

    assert [r.get("deal") for r in untimed(two.stdout)] == [*range(8), None]
    assert untimed(one.stdout) == untimed(two.stdout)


# ------------------------------------------------------------ 7. drawing


ROW = re.compile(r"^ ?\d+ ")


def test_a_face_never_runs_into_the_row_number():
    tens = 0
    for deal in range(40):
        game = Game.from_deal(deal)
        while not game.is_over:
            game.play(game.legal_cells()[0])
            for symbols in (False, True):
                for reveal in (False, True):
                    for line in draw(game, symbols=symbols, reveal=reveal).splitlines():
                        if ROW.match(line) and not line.startswith("Card"):
                            number = re.match(r"^ ?\d+", line).group()
                            rest = line[len(number):]
                            assert rest.startswith("  "), line  # a space, and the face's own room
                            tens += "10" in rest[:6]
    assert tens  # the case of the report was met


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
        ["play", "--deal", "1", "--rules", "-"],
    ],
)
def test_stdin_named_by_two_inputs_is_a_usage_error(args):
    # any two of a command's inputs (file, --deck, --rules, --resume) cannot both read stdin
    line = one_line_error(invoke(args, input="AS 2S\n"), 2)
    assert "'-'" in line or "stdin" in line


@pytest.mark.parametrize("command", ["save", "save!", "state", "state!"])
def test_file_names_at_the_prompt_may_be_quoted_like_a_shell(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = prompt(tmp_path, ["d4", f'{command} "my game.yaml"', "quit"])
    assert result.exit_code == 0 and "Saved the" in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["my game.yaml"]
    unclosed = prompt(tmp_path, [f'{command} "x.yaml', "quit"])
    assert f"{command.rstrip('!')}: a quote is not closed" in unclosed.stderr


@pytest.mark.parametrize("command", ["save", "state"])
@pytest.mark.parametrize(
    "name, says",
    [("a\0b.yaml", "$'a\\0b.yaml': a file name cannot hold a NUL character"),  # as a shell quotes it
     ("new.yaml/", "new.yaml/: names a folder (it ends with /); give a file name")],
)
@pytest.mark.parametrize("interactive", [True, False])
def test_a_file_name_that_cannot_be_a_file_is_one_line_and_the_game_goes_on(tmp_path, monkeypatch, command, name, says, interactive):
    monkeypatch.chdir(tmp_path)
    mode = ["--interactive"] if interactive else ["--script"]
    result = invoke(["play", "--deal", "1", *mode], input=f"d4\n{command} {name}\ne4\n")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if not interactive and "\0" in name:  # a script holding a NUL is binary input, as every reader says
        says = f"<stdin>:2: {BINARY_WORDS}"
    assert says in result.stderr
    if interactive:  # the prompt says it and goes on; a script stops at that line
        assert result.exit_code == 0 and "Stopped after 2 cards placed" in result.stdout
    else:
        assert result.exit_code == 1 and result.stderr.startswith("<stdin>:2: ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("interactive", [True, False])
def test_a_state_is_never_written_into_the_recording(tmp_path, monkeypatch, interactive):
    monkeypatch.chdir(tmp_path)
    mode = ["--interactive"] if interactive else ["--script"]
    result = invoke(["play", "--deal", "1", "--record", "r.yaml", *mode], input="d4\nstate r.yaml\nstate! r.yaml\n")
    assert result.stderr.count("r.yaml: is the recording") == (2 if interactive else 1)
    assert (tmp_path / "r.yaml").read_text().startswith("foursquare: 1\n") and "moves:" in (tmp_path / "r.yaml").read_text()


def test_the_prompt_hint_with_no_next_card_is_a_sentence(tmp_path):
    deck = tmp_path / "short.deck"
    deck.write_text("2D 3C\n")
    result = invoke(["play", "--deck", str(deck), "--interactive"], input="d4\ne4\nhint\nquit\n")
    assert "No hint: the next card is unknown" in result.output and "Error" not in result.output


@pytest.mark.parametrize(
    "typed, name",
    [
        ("save a#b.yaml", "a#b.yaml"),  # '#' inside a word is part of it
        ('save "h#h.yaml"   # a comment', "h#h.yaml"),
        ("save x\\#y.yaml", "x#y.yaml"),
        ("save my\\ game.yaml", "my game.yaml"),
        ("save 'it''s.yaml'", "its.yaml"),
    ],
)
def test_file_names_at_the_prompt_are_words_as_a_shell_reads_them(tmp_path, monkeypatch, typed, name):
    monkeypatch.chdir(tmp_path)
    for mode in (["--interactive"], ["--script"]):
        result = invoke(["play", "--deal", "1", *mode], input=f"d4\n{typed}\n")
        assert result.exit_code == 0, result.output
        assert [p.name for p in tmp_path.iterdir()] == [name]
        (tmp_path / name).unlink()


def test_only_an_unquoted_tilde_is_the_home_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    result = prompt(tmp_path, ["d4", 'save "~/q.yaml"', "save ~/h.yaml", 'save ""', "quit"])
    assert "'~/q.yaml': no such folder" in result.stderr  # quoted: a folder named ~, as in a shell
    assert "save: the file name is empty" in result.stderr
    assert [p.name for p in home.iterdir()] == ["h.yaml"]
