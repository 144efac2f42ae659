"""``foursquare play`` through Click's CliRunner: script mode (stdin not a terminal),
prompt mode (forced with --interactive), recording, and bad input."""

from __future__ import annotations

import os
import re
import sys
import types
from pathlib import Path

import pytest
from helpers import EXAMPLES, conformance_record, invoke, on_a_terminal, one_line_error

from foursquare import Game
from foursquare.cli.style import Look
from foursquare.formats.inputs import read_source
from foursquare.formats.loading import load_input


def load(path: Path) -> Game:
    text, name = read_source(str(path))
    return load_input(text, name)


def assert_clean(result):
    assert "Traceback" not in result.output


# ------------------------------------------------------------ script mode


@pytest.mark.parametrize("deal, first", [(153, "Won, score 8."), (21, "Lost: too many face down (5, limit 4).")])
def test_a_whole_game_piped_in(deal, first):
    result = invoke(["play", "--deal", deal], input="\n".join(conformance_record(deal)["moves"]) + "\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0] == first and f"foursquare play --deal {deal}" in result.stdout


def test_script_mode_is_quiet_and_verbose_draws_every_move():
    quiet = invoke(["play", "--deal", "1"], input="d4\ne4\n")
    assert quiet.stdout.startswith("Stopped after 2 cards placed")
    assert "Last move" not in quiet.stdout
    loud = invoke(["play", "--deal", "1", "--verbose"], input="d4\ne4\n")
    assert loud.stdout.count("Last move:") == 2
    assert "Last move: 3C to e4, flipped d4" in loud.stdout


@pytest.mark.parametrize("interactive", [False, True])
@pytest.mark.parametrize("bad", [0, 1, 4])
@pytest.mark.parametrize("ends", ["\n", "\r\n"])
def test_a_line_that_is_not_utf8_is_named_by_its_own_number(interactive, bad, ends):
    """The error names the bad line, never line 1 for all, as every reader says it; the
    moves before it are played (a prompt fed by a pipe reads its input as a script does)."""
    lines = [b"d4", b"e4", b"c4 # ok", b"# caf\xc3\xa9 is fine", b"d5", b"d3"]
    lines.insert(bad, b"3C e4 # caf\xe9")
    data = b"\xef\xbb\xbf" + ends.encode().join(lines) + ends.encode()
    args = ["play", "--deal", "1"] + (["--interactive", "--ascii"] if interactive else [])
    result = invoke(args, input=data)
    assert result.exit_code == 1
    assert result.stderr == f"<stdin>:{bad + 1}: not UTF-8 text\n"
    assert not interactive or f"Stopped after {min(bad, 3)} card" in result.stdout


@pytest.mark.parametrize("interactive", [False, True])
def test_a_byte_order_mark_and_crlf_are_accepted_at_the_prompt_and_in_a_script(interactive):
    args = ["play", "--deal", "1"] + (["--interactive", "--ascii"] if interactive else [])
    result = invoke(args, input=b"\xef\xbb\xbfd4\r\ne4\r\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert "Stopped after 2 cards placed" in result.stdout


@pytest.mark.parametrize(
    "line, message",
    [
        ("d0", "not a cell: 'd0'"),
        ("z9", "not a cell: 'z9'"),
        ("d44", "not a cell: 'd44'"),
        ("7X e4", "not a card: '7X'"),
        ("d4 e4 f4", "not a move: 'd4 e4 f4'"),
        ("please", "not a move or a command: 'please'"),
        ("g7", "g7: not next to a pile (above, below or beside it)"),
        ("9H e4", "the card drawn is 3C, not 9H"),
    ],
)
def test_the_prompt_says_what_is_wrong_with_a_line(line, message):
    result = invoke(["play", "--deal", "1", "--interactive", "--ascii"], input=f"d4\n{line}\ne4\n")
    assert result.exit_code == 0
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert "Stopped after 2 cards placed" in result.stdout


@pytest.mark.parametrize(
    "script, line, message",
    [
        ("d4\n\n# a comment\nd4\na1\n", 5, "a1: not next to a pile (above, below or beside it)"),
        ("d4\nd9\n", 2, "d9: outside the frame"),
        ("d4\ne4\n7H c4\n", 3, "the card drawn is 7D, not 7H"),
        ("d4\nplease\n", 2, "not a move or a command: 'please'"),
        ("d4 e4 f4\n", 1, "not a move: 'd4 e4 f4'"),
        ("d4\nd0\n", 2, "not a cell: 'd0'"),
        ("d4\nz9\n", 2, "not a cell: 'z9'"),
        ("d4\nd44\n", 2, "not a cell: 'd44'"),
        ("d4\n7X e4\n", 2, "not a card: '7X'"),
        ("d4\nundo\nundo\n", 3, "nothing to undo"),
        ("d4\nredo\n", 2, "nothing to redo"),
    ],
)
def test_a_bad_line_names_stdin_and_its_line(script, line, message):
    result = invoke(["play", "--deal", "1"], input=script)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"<stdin>:{line}: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert_clean(result)


def test_a_move_after_the_end_of_the_game_is_an_error_at_its_line():
    moves = conformance_record(21)["moves"]
    result = invoke(["play", "--deal", "21"], input="\n".join(moves + ["a1"]) + "\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"<stdin>:{len(moves) + 1}: a1: the game is over")


def test_bom_and_crlf_in_a_piped_script():
    result = invoke(["play", "--deal", "1"], input="\ufeffd4\r\n3C e4 # checked\r\n\r\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Stopped after 2 cards placed")


def test_binary_input_is_a_clear_error():
    result = invoke(["play", "--deal", "1"], input=b"d4\n\xff\xfe\x00\n")
    assert result.exit_code == 1
    assert "not UTF-8" in result.stderr
    assert_clean(result)


@pytest.mark.parametrize(
    "script, code, stderr, kept",
    [("d4\ne4\nd5\n", 0, "", ["d4", "e4", "d5"]), ("d4\ne4\ng7\n", 1, "<stdin>:3:", ["d4", "e4"])],  # the end of input; an illegal move
)
def test_a_script_keeps_the_recording_of_the_moves_made(tmp_path, script, code, stderr, kept):
    record = tmp_path / "game.yaml"
    result = invoke(["play", "--deal", "1", "--record", str(record)], input=script)
    assert result.exit_code == code and result.stderr.startswith(stderr)
    game = load(record)
    assert [str(p.cell) for p in game.moves] == kept and game.deal == 1


def test_random_deal_is_printed_and_replayable():
    result = invoke(["play"], input="d4\n")
    first = result.stdout.splitlines()[0]
    assert first.startswith("Deal ") and "--deal" in first
    deal = int(first.split()[1])
    again = invoke(["play", "--deal", str(deal), "--verbose"], input="d4\n")
    card = str(Game.from_deal(deal).next_card)
    assert f"Last move: {card} to d4" in again.stdout


def test_deck_file(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("5C 9D 2H\n7S 7C AS # the worked example\n")
    script = "d4\ne4\nc4\nd4\nd3\nd5\n"
    result = invoke(["play", "--deck", str(deck), "--verbose"], input=script)
    assert result.exit_code == 0, result.output
    assert "Last move: AS to d5, flipped d3 d4" in result.stdout
    assert "Face down: 3 (limit 4)" in result.stdout


def test_resume_a_transcript_and_a_state(tmp_path):
    record = tmp_path / "game.yaml"
    invoke(["play", "--deal", "153", "--record", str(record)], input="\n".join(conformance_record(153)["moves"][:10]))
    state = tmp_path / "state.yaml"
    state.write_text(invoke(["state", str(record)]).stdout)
    rest = "\n".join(conformance_record(153)["moves"][10:]) + "\n"
    for path in (record, state):
        result = invoke(["play", "--resume", str(path)], input=rest)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("Won, score 8.")


def test_recording_a_game_resumed_from_a_state_writes_a_state(tmp_path):
    state = tmp_path / "state.yaml"
    state.write_text(invoke(["state", "--deal", "1"]).stdout)
    out = tmp_path / "out.yaml"
    result = invoke(["play", "--resume", str(state), "--record", str(out)], input="d4\n")
    assert result.exit_code == 0, result.output
    game = load(out)
    assert game.placed == 1 and str(game.pile("d4").top) == "2D"


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--deal", "1", "--deck", "x"],
        ["play", "--deal", "-1"],
        ["play", "--deal", "abc"],
        ["play", "--deal", str(2**64)],
        ["play", "--deal", "1", "--rules", "no-such-rules"],
        ["play", "--deck", "-"],
        ["play", "--nonsense"],
    ],
)
def test_usage_errors_exit_2(args):
    result = invoke(args, input="")
    assert result.exit_code == 2
    assert_clean(result)


@pytest.mark.parametrize(
    "option, content, message",
    [
        ("--deck", None, "no such file"),
        ("--deck", "", "lists no cards"),
        ("--deck", "5C 9D ZZ", "not a card: 'ZZ'"),
        ("--resume", None, "no such file"),
        ("--resume", "", "the file is empty"),
        ("--resume", "\x01garbage\xff", "not UTF-8"),
        ("--resume", "\x00\x01garbage\xff", "a binary file, not text"),
    ],
)
def test_bad_game_files_exit_1(tmp_path, option, content, message):
    path = tmp_path / "file"
    if content is not None:
        path.write_bytes(content.encode("latin-1"))
    result = invoke(["play", option, str(path)], input="")
    assert result.exit_code == 1
    assert result.stderr.startswith(str(path))
    assert message in result.stderr
    assert_clean(result)


def test_directory_as_deck_is_a_clear_error(tmp_path):
    result = invoke(["play", "--deck", str(tmp_path)], input="")
    assert result.exit_code == 1 and "directory" in result.stderr
    assert_clean(result)


def test_record_into_a_missing_folder_is_a_clear_error(tmp_path):
    path = tmp_path / "no" / "such.yaml"
    result = invoke(["play", "--deal", "1", "--record", str(path)], input="d4\n")
    assert result.exit_code == 1
    assert result.stderr == f"{path}: no such folder to write the recording in\n"
    assert_clean(result)


def test_rules_option_plays_a_variant():
    # fixed-board: the frame is a1-d4, so e1 is outside it
    result = invoke(["play", "--deal", "1", "--rules", "fixed-board"], input="e1\n")
    assert result.exit_code == 1
    assert "outside the frame (a1-d4)" in result.stderr


# ------------------------------------------------------------- prompt mode


def interactive(args, input, **kwargs):
    return invoke(["play", "--interactive", "--ascii", *args], input=input, **kwargs)


def test_prompt_draws_the_grid_and_takes_moves():
    result = interactive(["--deal", "1"], "d4\ne4\nquit\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "Card to place: 2D\nStock: 40" in out
    assert "Last move: 3C to e4, flipped d4" in out
    assert "##:1*" in out  # d4 turned face down by the last move
    assert "Stopped after 2 cards placed" in out


def test_prompt_reports_a_bad_move_and_goes_on():
    result = interactive(["--deal", "1"], "d4\nzz\ng7\n9H e4\ne4\n")
    assert result.exit_code == 0
    errors = result.stderr.splitlines()
    assert errors[0].startswith("not a move or a command: 'zz'")
    assert errors[1] == "g7: not next to a pile (above, below or beside it)"
    assert errors[2] == "9H e4: the card drawn is 3C, not 9H"
    assert "Last move: 3C to e4" in result.stdout


def test_unlimited_undo_and_redo(tmp_path):
    record = tmp_path / "game.yaml"
    moves = conformance_record(153)["moves"][:6]
    script = "\n".join(moves + ["undo"] * 7 + ["redo"] * 6 + ["redo"]) + "\n"
    result = interactive(["--deal", "153", "--record", str(record)], script)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == ["nothing to undo", "nothing to redo"]
    assert result.stdout.count("Took back") == 6 and result.stdout.count("Again:") == 6
    assert [str(p.cell) for p in load(record).moves] == moves


def test_a_new_move_forgets_the_redo_stack():
    result = interactive(["--deal", "1"], "d4\ne4\nundo\nd5\nredo\n")
    assert result.stderr.strip() == "nothing to redo"


def test_undo_after_the_game_is_over():
    moves = conformance_record(21)["moves"]
    result = interactive(["--deal", "21"], "\n".join(moves + ["undo", "state"]) + "\n")
    assert "Game over: lost: too many face down" in result.stdout
    assert "Took back AS to f7" in result.stdout
    assert "status: playing" in result.stdout


def test_end_of_input_at_the_prompt_exits_cleanly_with_the_recording(tmp_path):
    record = tmp_path / "game.yaml"
    result = interactive(["--deal", "1", "--record", str(record)], "d4\ne4\n")
    assert result.exit_code == 0
    assert_clean(result)
    assert f"Continue it:\n  foursquare play --resume {record} --record {record}\n" in result.stdout
    assert len(load(record).moves) == 2


def test_ctrl_c_at_the_prompt_exits_cleanly_with_the_recording(tmp_path, monkeypatch):
    record = tmp_path / "game.yaml"
    lines = iter(["d4", "e4"])

    def fake_read_line(prompt_loop):
        sys.stdout.write(prompt_loop.prompt_text())
        try:
            return next(lines)
        except StopIteration:
            raise KeyboardInterrupt from None

    from foursquare.cli.play import Prompt

    monkeypatch.setattr(Prompt, "read_line", fake_read_line)
    result = invoke(["play", "--interactive", "--deal", "1", "--record", str(record)])
    assert result.exit_code == 130
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert_clean(result)
    assert "Stopped after 2 cards placed" in result.stdout
    assert len(load(record).moves) == 2


def test_help_moves_show_reveal_commands():
    result = interactive(["--deal", "1"], "d4\ne4\nhelp\nmoves\nreveal\nshow\n")
    out = result.stdout
    assert "undo" in out and "save FILE" in out
    assert "The card may go to: empty cells d3 e3 c4 f4 d5 e5; piles d4 e4" in out
    assert "(2D)1" in out  # revealed face-down card


def test_save_and_state_commands(tmp_path):
    saved, state = tmp_path / "saved.yaml", tmp_path / "state.yaml"
    result = interactive(["--deal", "1"], f"d4\ne4\nsave {saved}\nstate {state}\nstate\n")
    assert f"Saved the transcript to {saved}." in result.stdout
    assert f"Saved the state to {state}." in result.stdout
    assert "grid:" in result.stdout
    assert len(load(saved).moves) == 2 and load(state).placed == 2


def test_save_to_a_bad_place_says_why_and_goes_on(tmp_path):
    result = interactive(["--deal", "1"], f"d4\nsave {tmp_path}/no/such\ne4\n")
    assert result.exit_code == 0
    assert "no such folder to write the file in" in result.stderr
    assert "Last move: 3C to e4" in result.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="a folder that is there but takes no new files: Linux's /proc")
@pytest.mark.parametrize("command", ["save", "state"])
def test_a_folder_that_is_there_is_never_said_to_be_missing(command):
    """``save /proc/x.yaml``: the folder exists (creating fails with ENOENT): say so, in the system's words."""
    result = interactive(["--deal", "1"], f"d4\n{command} /proc/x.yaml\n")
    assert result.exit_code == 0
    assert "/proc/x.yaml: the folder /proc takes no new files (the system says: No such file or directory)" in result.stderr
    assert "no such folder" not in result.stderr


def test_hint_with_a_bot(monkeypatch):
    import foursquare.bots as bots

    calls = []

    def recommend(view, budget=1.0):
        calls.append((view, budget))
        return [types.SimpleNamespace(cell="e4", win_chance=0.25, expected_score=1.5)]

    monkeypatch.setattr(bots, "recommend", recommend)
    result = interactive(["--deal", "1"], "d4\nhint\n")
    assert "Hint (expert bot, best first):" in result.stdout  # the bot is named
    assert "e4: win 25.0%, expected score 1.5" in result.stdout
    assert calls[0][0].next_card is not None and calls[0][1] == 1.0


# ------------------------------------------------------------------ looks


class FakeTerminal:
    encoding = "utf-8"

    def isatty(self):
        return True


def test_colour_and_symbols_only_on_a_terminal(monkeypatch):
    for name in ("NO_COLOR", "FOURSQUARE_ASCII", "LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "40")
    assert Look.for_stream(FakeTerminal()) == Look(color=True, symbols=True, width=40)
    assert Look.for_stream(FakeTerminal(), ascii=True) == Look(False, False, 40)
    monkeypatch.setattr(FakeTerminal, "isatty", lambda self: False)
    assert Look.for_stream(FakeTerminal()) == Look(False, False)


@pytest.mark.parametrize(
    ("env", "symbols"),
    [
        ({"LANG": "ja_JP.UTF-8"}, False),
        ({"LC_CTYPE": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, False),
        ({"LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, False),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}, True),
        ({"LC_CTYPE": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, False),  # Python's own coercion (PEP 538)
    ],
)
def test_no_suit_symbols_where_a_terminal_draws_ambiguous_width_wide(monkeypatch, env, symbols):
    """Under a CJK locale ♠♣♥ (East Asian Ambiguous) take two columns and the grid's rows
    would drift: ASCII suits there, the colour kept."""
    for name in ("NO_COLOR", "FOURSQUARE_ASCII", "LC_ALL", "LC_CTYPE", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    look = Look.for_stream(FakeTerminal())
    assert look.symbols is symbols and look.color is True


@pytest.mark.parametrize(("value", "plain"), [("1", True), ("yes", True), ("0", False), ("", False)])
def test_foursquare_ascii_is_the_ascii_switch_for_every_command(monkeypatch, value, plain):
    for name in ("NO_COLOR", "LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("FOURSQUARE_ASCII", value)
    look = Look.for_stream(FakeTerminal())
    assert (look.color, look.symbols) == ((False, False) if plain else (True, True))


@pytest.mark.parametrize("env", [{"TERM": "dumb"}, {"NO_COLOR": "1"}, {"NO_COLOR": "1", "TERM": "dumb"}])
def test_no_colour_on_a_dumb_terminal_or_under_no_color(monkeypatch, env):
    for name in ("NO_COLOR", "FOURSQUARE_ASCII", "LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    look = Look.for_stream(FakeTerminal())
    assert look.color is False and look.symbols is True and look.style("7H", "red") == "7H"


@pytest.mark.parametrize("deal", [1, 21, 153])
def test_every_picture_of_a_game_fits_a_40_column_terminal(deal):
    """Every move of a whole game, drawn for a 40-column terminal (symbols on): no line wraps."""
    from foursquare import Game
    from foursquare.cli.render import draw

    game = Game.from_deal(deal)
    pictures = [draw(game, symbols=True, width=40)]
    while not game.is_over:
        game.play(game.legal_cells()[len(game.moves) * 7 % len(game.legal_cells())])
        pictures.append(draw(game, symbols=True, width=40))
    for picture in pictures:
        assert max(len(line) for line in picture.splitlines()) <= 40, picture


def test_no_ansi_codes_when_piped():
    result = interactive(["--deal", "1"], "d4\n")
    assert "\x1b[" not in result.output
    assert "♦" not in result.output


def test_a_failing_bot_does_not_end_the_game(monkeypatch):
    import foursquare.bots as bots

    def recommend(view, budget=1.0):
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(bots, "recommend", recommend)
    for mode in (["--interactive"], ["--script"]):
        result = invoke(["play", *mode, "--deal", "1"], input="d4\nhint\ne4\n")
        assert result.exit_code == 0
        assert "The hint failed: RuntimeError: out of ideas" in result.stdout
        assert "Stopped after 2 cards placed" in result.stdout


# ------------------------------------------------------------- the closing lines and the warnings, fitted


def _at_width(monkeypatch, width):
    monkeypatch.setattr(Look, "for_stream", classmethod(lambda cls, stream=None, *, ascii=False: cls(False, False, width)))


def _guide_session() -> tuple[list[str], str]:
    """The session at 40 columns of docs/guide/playing.md: the lines typed and what the
    prompt prints (each typed line taken out from behind its prompt, as a pipe does not echo it)."""
    page = (Path(__file__).parents[2] / "docs" / "guide" / "playing.md").read_text(encoding="utf-8")
    block = next(b for b in page.split("```") if b.startswith("text\n$ foursquare play --deal 1 --ascii --record deal1.yaml\n"))
    lines = block.split("\n")[2:]
    typed, out = [], []
    import re

    for line in lines:
        match = re.match(r"^(\S+> |game over \(.*\)> )(.+)$", line)
        if match:
            typed.append(match.group(2))
            out.append(match.group(1))
        elif out and out[-1].endswith("> "):
            out[-1] += line
        else:
            out.append(line)
    return typed, "\n".join(out)


def test_the_guide_session_is_real_output_at_40_columns(monkeypatch, tmp_path):
    _at_width(monkeypatch, 40)
    monkeypatch.chdir(tmp_path)
    typed, expected = _guide_session()
    done = invoke(["play", "--deal", "1", "--ascii", "--record", "deal1.yaml", "--interactive"], input="\n".join(typed) + "\n")
    assert done.exit_code == 0, done.output
    assert done.stdout == expected
    tail = done.stdout.splitlines()[-6:]
    assert tail[-2:] == ["Continue it:", "  foursquare play --resume deal1.yaml --record deal1.yaml"]
    for line in expected.splitlines():  # what docs/guide/playing.md shows: 40 columns but for a command to copy, whole
        assert len(line) <= 40 or line.startswith("  foursquare ") or "> " in line, line


@pytest.mark.parametrize("width", [40, 80])
def test_a_command_that_does_not_fit_beside_its_label_has_a_line_of_its_own(monkeypatch, tmp_path, width):
    _at_width(monkeypatch, width)
    folder = tmp_path / ("a-rather-long-folder-name-" * 2)
    folder.mkdir()
    record = folder / "d1.yaml"
    done = interactive(["--deal", "1", "--record", record], "d4\nquit\n")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert f"  foursquare replay {record}" in lines
    assert f"  foursquare play --resume {record} --record {record}" in lines
    for line in lines:
        assert len(line) <= width or line.startswith("  foursquare ") or " " not in line.strip(), line


def test_the_closing_lines_of_a_lost_recording_are_fitted_too(monkeypatch, tmp_path):
    from foursquare.cli import play as play_module

    lines = []
    monkeypatch.setattr(play_module.click, "echo", lambda text="", **kw: lines.extend(str(text).splitlines()))
    session = types.SimpleNamespace(
        record_error=OSError(28, "No space left on device"), record_path=str(tmp_path / "rec.yaml"),
        file_moves=0, write_copy=lambda: str(tmp_path / "copy.yaml"),
        game=Game.from_deal(1),
    )
    play_module.record_lost(session, 40)  # type: ignore[arg-type]
    copy = tmp_path / "copy.yaml"
    assert f"  foursquare replay {copy}" in lines and f"  foursquare play --resume {copy} --record {copy}" in lines


def test_history_and_no_history_together_are_a_usage_error():
    for args in (["--history", "--no-history"], ["--no-history", "--history"]):
        done = invoke(["play", "--deal", "1", *args], input="d4\n")
        assert done.exit_code == 2 and "use only one of --history, --no-history" in done.stderr


def _commands(group, path=()):
    import click

    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


def test_every_on_off_pair_of_every_command_refuses_both_halves():
    from foursquare.cli import main

    pairs = 0
    for path, command in _commands(main):
        for param in command.params:
            if getattr(param, "secondary_opts", None) and getattr(param, "is_flag", False):
                on, off = param.opts[0], param.secondary_opts[0]
                done = invoke([*path, on, off])
                assert done.exit_code == 2 and f"use only one of {on}, {off}" in done.stderr, (path, on)
                pairs += 1
    assert pairs >= 2  # play --history/--no-history, stats --histogram/--no-histogram


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals")
@pytest.mark.parametrize("columns", [40, 80])
def test_at_a_real_terminal_the_warning_before_the_game_and_the_closing_lines_fit(tmp_path, columns):
    import os
    import subprocess

    home = tmp_path / "afile"
    home.write_text("hi\n")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(FOURSQUARE_HOME=str(home), TERM="dumb", PYTHONUNBUFFERED="1")
    folder = tmp_path / "games-kept-in-a-folder-with-a-long-name"
    folder.mkdir()
    record = folder / "d1.yaml"
    run = on_a_terminal(["play", "--deal", "1", "--ascii", "--record", str(record)], input=b"d4\nquit\n", env=env,
                        columns=columns, cwd=tmp_path)
    out = run.terminal.decode("utf-8", "replace").replace("\r", "")
    assert "Stopped after 1 card placed." in out
    start = out.index(str(home))  # after the terminal's echo of the lines typed
    warning = out[start : out.index("Foursquare, deal 1")].splitlines()
    assert " ".join(line.strip() for line in warning) == (
        f"{home / 'history.sqlite3'}: cannot read the history: {home} is a file, not a folder."
        " This game is not recorded in the history."
    )
    assert len(warning) > 1 and all(len(line) <= columns or " " not in line.strip() for line in warning)
    lines = out.splitlines()
    assert f"  foursquare replay {record}" in lines
    assert f"  foursquare play --resume {record} --record {record}" in lines
    # through a pipe, the same warning is one line, as it is
    piped = subprocess.run([sys.executable, "-m", "foursquare", "play", "--deal", "1", "--interactive", "--ascii"],
                           input="quit\n", capture_output=True, text=True, env=env, timeout=60)
    assert piped.stderr == " ".join(line.strip() for line in warning) + "\n"


def test_the_readmes_short_session_is_the_guides_session_abridged():
    # the README shows the session with parts left out ("..."): every line it shows is a
    # line of the guide's session (checked above against the program), in the same order
    root = Path(__file__).parents[2]
    start = "text\n$ foursquare play --deal 1 --ascii --record deal1.yaml\n"

    def session(path: Path) -> list[str]:
        block = next(b for b in path.read_text(encoding="utf-8").split("```") if b.startswith(start))
        return block.split("\n")[1:]

    guide = iter(session(root / "docs" / "guide" / "playing.md"))
    shown = [line for line in session(root / "README.md") if line != "..."]
    assert len(shown) > 20
    for line in shown:
        assert any(line == other for other in guide), f"not in the guide's session, or out of order: {line!r}"


@pytest.mark.parametrize(
    "win, shown",
    [(1.0, "100.0%"), (0.9996, ">99.9%"), (0.99999, ">99.9%"), (0.0, "0.0%"), (0.0004, "<0.1%"), (0.968, "96.8%")],
)
def test_a_win_chance_is_shown_certain_only_when_it_is(monkeypatch, win, shown):
    """No figure claims a certainty that is not there: a win chance below 1 never shows as
    100%, one above 0 never as 0%, whatever the decimals (the prompt's hint, and every
    share the commands print through the one :func:`~foursquare.cli.style.percent`)."""
    import foursquare.bots as bots
    from foursquare.bots import Estimate
    from foursquare.cli.style import percent
    from foursquare.engine.layout import Cell

    estimates = [Estimate(Cell.parse("e4"), win, 20.0), Estimate(Cell.parse("c4"), 1.0 if win < 1 else 0.5, 20.0)]
    monkeypatch.setattr(bots, "recommend", lambda view, budget=1.0: estimates)
    result = interactive(["--deal", "1"], "d4\nhint\n")
    line = next(line for line in result.stdout.splitlines() if line.startswith("  e4"))
    figure = re.search(r"win (\S+),", line).group(1)
    certain = re.compile(r"(100|0)\.0+%")
    assert bool(certain.fullmatch(figure)) == (win in (0.0, 1.0)), line
    for decimals in (1, 2, 3):
        assert bool(certain.fullmatch(percent(win, decimals))) == (win in (0.0, 1.0))
    assert percent(win) == shown
    if win < 1:  # the bot's choice first, and why, when the certain cell has the better figure
        assert "prefers e4" in result.stdout


@pytest.mark.parametrize(
    "line", ["zz", "d0", "9H e4 x", "save", "save! ", 'save "x', "save *.yaml", "save $HOME/x", "state -x", "undo 2"]
)
def test_every_line_the_prompt_cannot_read_says_type_help_and_only_there(line):
    """One rule: a line the prompt cannot read (neither a move nor a command) ends with
    "; type help for the commands", whatever part of the reader refuses it; a script has
    no one to type it; a line read but not carried out says why, without it."""
    typed = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input=f"{line}\nquit\n")
    piped = invoke(["play", "--deal", "1"], input=f"{line}\n")
    assert piped.exit_code == 1 and piped.stderr.startswith("<stdin>:1: ")
    assert "type help" not in piped.stderr
    assert typed.stderr.replace("\n  ", " ").rstrip("\n").endswith("; type help for the commands"), typed.stderr
    carried_out = invoke(["play", "--interactive", "--ascii", "--deal", "1"], input="undo\ng7\nd4\nd4\nredo\n")
    assert carried_out.stderr and "type help" not in carried_out.stderr


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
    import foursquare.bots as bots
    _at_width(monkeypatch, 40)
    estimates = [types.SimpleNamespace(cell=c, win_chance=0.5, expected_score=12.25) for c in ("d4", "e4")]
    monkeypatch.setattr(bots, "recommend", lambda view, budget=1.0: estimates)
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


INVALID = str(EXAMPLES / "invalid.yaml")  # four games; game 1 is valid


def test_play_resume_takes_game_k_as_its_message_says():
    told = invoke(["play", "--resume", INVALID, "--script"], input="")
    assert "pick one with --game K" in one_line_error(told, 1)
    done = invoke(["play", "--resume", INVALID, "--game", "1", "--script"], input="quit\n")
    assert done.exit_code == 0, done.output
    assert "Stopped after 2 cards placed" in done.stdout
    alone = invoke(["play", "--deal", "1", "--game", "1", "--script"], input="")
    assert "--resume" in one_line_error(alone, 2)


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_play_resume_of_an_empty_file_is_an_error(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text)
    assert "no game in it" in one_line_error(invoke(["play", "--resume", path, "--script"], input=""), 1)


def test_the_prompt_hint_with_no_next_card_is_a_sentence(tmp_path):
    deck = tmp_path / "short.deck"
    deck.write_text("2D 3C\n")
    result = invoke(["play", "--deck", str(deck), "--interactive"], input="d4\ne4\nhint\nquit\n")
    assert "No hint: the next card is unknown" in result.output and "Error" not in result.output


def test_a_piped_move_script_is_never_read_past_the_size_limit(monkeypatch):
    import io

    from foursquare.cli.play import stdin_lines
    from foursquare.errors import FormatError
    from foursquare.formats import inputs

    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1000)
    pipe = io.BytesIO(b"d4\n" + b"# x\n" * 100_000 + b"e4\n")
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=pipe))
    lines = []
    with pytest.raises(FormatError, match=r"^<stdin>:251: too large"):
        lines.extend(stdin_lines())
    assert pipe.tell() == 1001  # one byte past the limit, no more: memory stays bounded
    assert lines == [(1, "d4")]  # the lines before it are given (and played), comments passed over


def test_after_game_over_again_replays_the_deal_and_new_deals_another(tmp_path):
    """A game played to its end, then ``again`` (the same deal from its start) and ``new``
    (a deal chosen at random): the recording keeps the finished game whole, untouched."""
    record = tmp_path / "game.yaml"
    moves = conformance_record(21)["moves"]
    script = "\n".join([*moves, "again", "d4", "new", "d4", "quit"]) + "\n"
    result = interactive(["--deal", "21", "--record", record], script)
    assert result.exit_code == 0 and result.stderr == "", result.output
    out = result.stdout
    assert "Game over: lost: too many face down\nStock: " in out  # said once, in the drawing
    assert out.count("Game over: lost") == 1 and "Type undo, again, new or quit." in out
    assert "game over (undo, again, new, quit)> " in out
    assert out.count("Foursquare, deal 21 (standard rules).") == 2
    assert out.count(f"{record} keeps the game just played. This game is not recorded") == 1
    chosen = re.search(r"Deal (\d+) \(chosen at random; play it again with --deal \1\)", out)
    assert chosen is not None and f"Foursquare, deal {chosen[1]} (standard rules)." in out
    assert out.rstrip().endswith(f"foursquare play --deal {chosen[1]}")
    kept = load(record)
    assert [str(p.cell) for p in kept.moves] == moves and kept.is_over


SHOWN = "Face-down cards are shown in brackets (reveal hides them)."


@pytest.mark.parametrize("command", ["again", "new"])
@pytest.mark.parametrize("flag", [[], ["--reveal"]])
def test_every_setting_of_the_session_starts_the_next_game_as_the_command_line_set_it(tmp_path, command, flag):
    """After ``again`` or ``new`` the next game starts as the command line started the
    first: ``reveal`` typed at the prompt lasts for its game (the greeting says when
    face-down cards are shown), the rules, ``--ascii`` and ``--no-history`` hold for every
    game, and the ``--record`` file keeps the first game only."""
    from helpers import history_file

    record = tmp_path / "r.yaml"
    args = ["--deal", "1", "--rules", "ties-count", "--no-history", "--record", record, *flag]
    result = interactive(args, f"d4\ne4\nreveal\nshow\n{command}\nd4\ne4\nshow\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    games = out.split("Foursquare, deal ")[1:]
    assert len(games) == 2 and all("(ties-count rules)." in game for game in games)
    for game, shown in zip(games, [not flag, bool(flag)], strict=True):
        assert (SHOWN in game.split("Type help")[0]) == bool(flag)  # the greeting: as the command line set it
        last_grid = game.rsplit("Stock: ", 1)[1]  # d4 turned face down by e4 (a tie counts)
        assert bool(re.search(r"\(\w+\)\d", last_grid)) == shown, last_grid
    assert "♦" not in out and "\x1b[" not in out  # --ascii holds
    assert not os.path.exists(history_file())  # --no-history holds
    assert len(load(record).moves) == 2  # the first game only
    if command == "new":
        assert re.search(r"Deal \d+ \(chosen at random; play it again with --deal \d+ --rules ties-count\)", out)


def test_new_after_winnable_deals_another_winnable_deal(monkeypatch):
    """``--winnable`` holds for the games ``new`` starts: each is a deal the solver proves winnable."""
    import foursquare.cli.play as play_module
    from foursquare.app.deals import Pick

    picks = iter([Pick(7, "proved winnable (first)"), Pick(9, "proved winnable (second)")])
    monkeypatch.setattr(play_module, "winnable_pick", lambda rules: next(picks))
    result = interactive(["--winnable", "--no-history"], "d4\nnew\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Deal 7 (proved winnable (first)" in result.stdout and "Deal 9 (proved winnable (second)" in result.stdout
    assert "Foursquare, deal 9 (standard rules)." in result.stdout


def test_again_needs_the_start_of_the_game(tmp_path):
    """A game resumed from a saved state with no deal and no moves: ``again`` is not
    offered, and refused with why; ``new`` still is."""
    game = Game.from_deal(1)
    game.play("d4")
    lines = [line for line in game.state().splitlines() if not line.startswith(("deal:", "moves:"))]
    state = tmp_path / "s.yaml"
    state.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = interactive(["--resume", state], "again\nquit\n")
    assert result.exit_code == 0
    assert result.stderr.startswith("again: the start of this game is not known")
    assert result.stdout.count("Foursquare (standard rules).") == 1


def test_new_with_moves_taken_back_says_what_the_recording_leaves_out_first(tmp_path):
    record = tmp_path / "game.yaml"
    result = interactive(["--deal", "1", "--record", record], "d4\ne4\nundo\nnew\nnew\nquit\n")
    assert result.exit_code == 0
    assert "1 move taken back; type redo to play it again, or new once more to go on without it" in result.stderr
    assert result.stdout.count("Foursquare, deal") == 2 and len(load(record).moves) == 1


@pytest.mark.parametrize("command", ["again", "new"])
def test_again_and_new_end_a_piped_script_like_quit(command):
    result = invoke(["play", "--deal", "1"], input=f"d4\n{command}\ne4\n")
    assert result.exit_code == 0 and result.stdout.startswith("Stopped after 1 card placed.")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal session as on Linux")
def test_an_error_at_the_prompt_names_cards_as_the_prompt_shows_them(tmp_path):
    """At a terminal the prompt shows ``2♦>``: the error of a wrong card says ``2♦`` too, not ``2D``."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FOURSQUARE_ASCII", "LC_ALL", "LC_CTYPE")}
    env.update(TERM="dumb", LANG="C.UTF-8", PYTHONUNBUFFERED="1")
    run = on_a_terminal(["play", "--deal", "1", "--no-history"], input=b"7H d4\nquit\n", env=env, cwd=tmp_path)
    out = run.terminal.decode("utf-8", "replace").replace("\r", "")
    assert "2♦> " in out
    assert "7♥ d4: the card drawn is 2♦, not 7♥" in out
    assert "2D" not in out and "7H d4:" not in out


def _terminal_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FOURSQUARE_ASCII", "LC_ALL", "LC_CTYPE")}
    env.update({"TERM": "dumb", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", **extra})
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal session as on Linux")
def test_the_last_move_line_takes_the_whole_width_of_a_real_80_column_terminal(tmp_path):
    game = Game.from_deal(4)
    while len(game.moves) < 14:
        game.play(game.legal_cells()[len(game.moves) * 7 % len(game.legal_cells())])
    typed = "".join(f"{m.cell}\n" for m in game.moves) + "quit\n"
    run = on_a_terminal(["play", "--deal", "4", "--no-history"], input=typed.encode(), env=_terminal_env(),
                        columns=80, cwd=tmp_path)
    lines = run.terminal.decode("utf-8", "replace").replace("\r", "").splitlines()
    assert "Last move: 10♥ to d1, flipped a1 b1 c1 d2" in lines  # 41 columns: one line, not broken at 40


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal session as on Linux")
@pytest.mark.parametrize("extra", [{"LANG": "ja_JP.UTF-8"}, {"LC_ALL": "zh_CN.UTF-8"}, {"FOURSQUARE_ASCII": "1"}])
def test_a_terminal_that_draws_suits_wide_gets_ascii_suits(tmp_path, extra):
    """♠♣♥ are East Asian Ambiguous: a CJK terminal draws them two columns wide and the
    grid's rows drift; there (and with FOURSQUARE_ASCII=1) the cards are written 2D, 3C."""
    run = on_a_terminal(["play", "--deal", "1", "--no-history"], input=b"d4\nquit\n", env=_terminal_env(**extra),
                        cwd=tmp_path)
    out = run.terminal.decode("utf-8", "replace")
    assert "2D> " in out and "3C> " in out
    assert not any(suit in out for suit in "♠♣♥♦")
