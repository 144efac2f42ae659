"""``play --record`` and ``save``/``state FILE`` at the prompt, through CliRunner:
what may be written (never a device, a folder or a FIFO; a link's target), what
may be overwritten (``--force``, the game resumed), that a piped script writes its
recording once and on every way out, that errors name the user's path, and that the
file names typed are words as a shell reads them (quotes, escapes, ``~``)."""

from __future__ import annotations

import errno
import glob
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, CliRunner, invoke, moves_in, one_line_error

import foursquare.app.files as files_module
import foursquare.app.session as session_module
from foursquare.app.session import Session
from foursquare.cli import main
from foursquare.formats.inputs import BINARY_WORDS

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")

#: Deal 153 won with score 8 (examples/won.yaml), one cell a line.
WON_153 = [line.split("cell: ")[1].split('"')[1] for line in (EXAMPLES / "won.yaml").read_text().splitlines() if "cell:" in line]


def leftovers(folder: Path) -> list[str]:
    return glob.glob(str(folder / ".foursquare-*"))


def modes(interactive: bool) -> list[str]:
    return ["--interactive", "--ascii"] if interactive else []


# ------------------------------------------------------- what --record accepts


@posix_only
@pytest.mark.parametrize("interactive", [False, True])
@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda tmp: str(tmp), "is a directory"),
        (lambda tmp: str(tmp / "no" / "such" / "x.yaml"), "no such folder"),
    ],
)
def test_record_refuses_a_folder_or_no_folder_before_the_game_starts(tmp_path, make, reason, interactive):
    path = make(tmp_path)
    kind = stat.S_IFMT(os.stat(path).st_mode) if os.path.exists(path) else None
    result = invoke(["play", "--deal", "1", "--record", path, *modes(interactive)], input="d4\ne4\n")
    assert result.exit_code == 1
    assert result.stderr == f"{path}: {result.stderr.split(': ', 1)[1]}" and reason in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert result.stdout == ""  # the game never started
    if kind is not None:
        assert stat.S_IFMT(os.stat(path).st_mode) == kind
    assert leftovers(tmp_path) == []


@posix_only
@pytest.mark.parametrize("interactive", [False, True])
def test_record_through_a_symbolic_link_writes_the_target(tmp_path, interactive):
    target = tmp_path / "target.yaml"
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    result = invoke(["play", "--deal", "1", "--record", str(link), *modes(interactive)], input="d4\ne4\n")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and moves_in(target) == 2
    assert leftovers(tmp_path) == []


@posix_only
@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_a_new_recording_gets_the_umask_mode(tmp_path, mask, mode):
    record = tmp_path / "game.yaml"
    old = os.umask(mask)
    try:
        result = invoke(["play", "--deal", "1", "--record", str(record)], input="d4\n")
    finally:
        os.umask(old)
    assert result.exit_code == 0
    assert stat.S_IMODE(record.stat().st_mode) == mode


# ------------------------------------------------------ overwriting a recording


@pytest.mark.parametrize("interactive", [False, True])
@pytest.mark.parametrize("input", ["", "d4\n"])
def test_record_does_not_overwrite_a_file_with_something_in_it(tmp_path, interactive, input):
    record = tmp_path / "won.yaml"
    record.write_text((EXAMPLES / "won.yaml").read_text())
    before = record.read_bytes()
    result = invoke(["play", "--deal", "1", "--record", str(record), *modes(interactive)], input=input)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{record}: the file exists and is not empty; give --force")
    assert record.read_bytes() == before
    assert result.stdout == ""


@pytest.mark.parametrize("interactive", [False, True])
def test_force_overwrites_and_an_empty_file_needs_no_force(tmp_path, interactive):
    full = tmp_path / "full.yaml"
    full.write_text("something\n")
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    for args in (["--record", str(full), "--force"], ["--record", str(empty)]):
        result = invoke(["play", "--deal", "1", *args, *modes(interactive)], input="d4\n")
        assert result.exit_code == 0, result.output
    assert moves_in(full) == 1 and moves_in(empty) == 1


@pytest.mark.parametrize("interactive", [False, True])
def test_resuming_into_the_same_file_keeps_the_continued_moves(tmp_path, interactive):
    record = tmp_path / "game.yaml"
    first = invoke(["play", "--deal", "153", "--record", str(record)], input="\n".join(WON_153[:10]) + "\n")
    assert f"Continue it:\n  foursquare play --resume {record} --record {record}\n" in first.stdout
    again = invoke(["play", "--resume", str(record), "--record", str(record), *modes(interactive)], input="\n".join(WON_153[10:15]) + "\n")
    assert again.exit_code == 0, again.output
    assert moves_in(record) == 15



def test_quitting_after_undo_at_the_prompt_says_what_the_recording_drops_and_redo_keeps_it(tmp_path):
    record = tmp_path / "game.yaml"
    invoke(["play", "--deal", "153", "--record", str(record)], input="\n".join(WON_153[:31]) + "\n")
    resume = ["play", "--resume", str(record), "--record", str(record), "--interactive"]
    kept = invoke(resume, input="undo\nundo\nquit\nredo\nredo\nquit\n")  # warned: redo, then quit leaves
    assert kept.exit_code == 0 and "without the 2 moves taken back; type redo" in kept.stderr
    assert moves_in(record) == 31
    dropped = invoke(resume, input="undo\n" * 31 + "quit\nquit\n")  # the second quit leaves without them
    assert dropped.exit_code == 0 and dropped.stderr.count("without the 31 moves taken back") == 1
    assert "moves: []" in record.read_text()
    ended = invoke(["play", "--deal", "153", "--record", str(tmp_path / "b.yaml"), "--interactive"], input="d4\nundo\n")
    assert "without the 1 move taken back." in ended.stderr  # at the end of the input

@posix_only
def test_resuming_through_a_link_to_the_recorded_file_counts_as_the_same_file(tmp_path):
    record = tmp_path / "game.yaml"
    invoke(["play", "--deal", "153", "--record", str(record)], input="\n".join(WON_153[:5]) + "\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(record)
    result = invoke(["play", "--resume", str(record), "--record", str(link)], input=WON_153[5] + "\n")
    assert result.exit_code == 0, result.output
    assert moves_in(record) == 6 and link.is_symlink()


@pytest.mark.parametrize("interactive", [False, True])
def test_resuming_one_game_of_several_into_the_same_file_never_drops_the_others(tmp_path, interactive):
    record = tmp_path / "games.yaml"
    two = "foursquare: 1\ndeal: 1\nmoves: [d4]\n---\nfoursquare: 1\ndeal: 2\nmoves: [d4]\n"
    record.write_text(two)
    result = invoke(["play", "--resume", str(record), "--game", "2", "--record", str(record), *modes(interactive)], input="e4\n")
    assert result.exit_code == 1
    assert "holds 2 games" in result.stderr and "--force" in result.stderr
    assert record.read_text() == two  # nothing lost
    forced = invoke(["play", "--resume", str(record), "--game", "2", "--record", str(record), "--force"], input="e4\n")
    assert forced.exit_code == 0 and moves_in(record) == 2  # asked for: the one game replaces them


@pytest.mark.parametrize("command", ["save", "state"])
@pytest.mark.parametrize("interactive", [False, True])
def test_save_or_state_at_the_prompt_never_drops_the_other_games_of_the_file_resumed(tmp_path, command, interactive):
    games = tmp_path / "games.yaml"
    two = "foursquare: 1\ndeal: 1\nmoves: [d4]\n---\nfoursquare: 1\ndeal: 2\nmoves: [d4]\n"
    games.write_text(two)
    other = tmp_path / "out.yaml"
    args = ["play", "--resume", str(games), "--game", "1", "--record", str(other), *modes(interactive)]
    result = invoke(args, input=f"e4\n{command} {games}\n")
    assert games.read_text() == two  # refused: the file holds another game
    assert "exists and is not empty" in result.output and f"{command}! FILE" in result.output
    assert moves_in(other) == 2  # the game itself is kept in the recording
    forced = invoke(["play", "--resume", str(games), "--game", "1", *modes(interactive)], input=f"e4\n{command}! {games}\n")
    assert forced.exit_code == 0 and games.read_text() != two  # asked for: written over


def test_save_at_the_prompt_may_rewrite_a_one_game_file_resumed(tmp_path):
    game = tmp_path / "one.yaml"
    game.write_text("foursquare: 1\ndeal: 1\nmoves: [d4]\n")
    result = invoke(["play", "--resume", str(game), "--interactive"], input=f"e4\nsave {game}\n")
    assert result.exit_code == 0 and moves_in(game) == 2


# ------------------------------------------------- a piped script's recording


@pytest.mark.parametrize("new", [True, False])
def test_a_piped_script_writes_its_recording_once(tmp_path, monkeypatch, new):
    """Once at the end, never per move; a new recording also once at the start, so that
    its file appears with its first document (never empty: see test_cli_files.py)."""
    writes = []
    real = files_module.LockedFile.rewrite
    monkeypatch.setattr(files_module.LockedFile, "rewrite", lambda self, text, **kw: (writes.append(self.path), real(self, text, **kw)))
    record = tmp_path / "game.yaml"
    if not new:
        record.write_text("")
    result = invoke(["play", "--deal", "153", "--record", str(record)], input="\n".join(WON_153) + "\n")
    assert result.exit_code == 0 and result.stdout.startswith("Won, score 8.")
    assert writes == [str(record)] * (2 if new else 1)
    assert moves_in(record) == len(WON_153)


@pytest.mark.parametrize(
    "script, made, status",
    [
        ("d4\ne4\ng7\nc4\n", 2, 1),  # an illegal move
        ("d4\ne4\n7H c4\n", 2, 1),  # a wrong card
        ("d4\ne4\nnonsense\n", 2, 1),  # not a move
        ("d4\ne4\nc4\nundo\nquit\nd5\n", 2, 0),  # quit (after a take-back)
        ("d4\ne4\n", 2, 0),  # end of input
    ],
)
def test_a_piped_script_keeps_its_moves_however_it_ends(tmp_path, script, made, status):
    record = tmp_path / "game.yaml"
    result = invoke(["play", "--deal", "1", "--record", str(record)], input=script)
    assert result.exit_code == status
    assert moves_in(record) == made


@pytest.mark.parametrize("error, status", [(KeyboardInterrupt, 130), (SystemExit, 143)])
def test_a_piped_script_keeps_its_moves_when_interrupted(tmp_path, monkeypatch, error, status):
    """Ctrl-C, and SIGTERM (turned into SystemExit by the command), at the third move."""
    record = tmp_path / "game.yaml"
    real = session_module.Session.play

    def play(self, move):
        if len(self.game.moves) == 2:
            raise error() if error is KeyboardInterrupt else error(status)
        return real(self, move)

    monkeypatch.setattr(session_module.Session, "play", play)
    result = invoke(["play", "--deal", "1", "--record", str(record)], input="d4\ne4\nc4\nd5\n")
    assert result.exit_code == status
    assert moves_in(record) == 2
    assert leftovers(tmp_path) == []


def test_a_long_piped_script_with_a_recording_is_fast(tmp_path):
    """2000 lines of moves and take-backs: the recording is not rewritten per line."""
    import time

    record = tmp_path / "game.yaml"
    script = "d4\n" + "e4\nundo\n" * 1000
    start = time.thread_time()
    result = invoke(["play", "--deal", "1", "--record", str(record)], input=script)
    assert result.exit_code == 0
    assert time.thread_time() - start < 5
    assert moves_in(record) == 1


# ------------------------------------------------- save and state at the prompt


@pytest.mark.parametrize("command", ["save", "state"])
@pytest.mark.parametrize(
    "where, reason",
    [
        ("{tmp}/no/such/x.yaml", "no such folder to write the file in"),
        ("{tmp}", "is a directory"),
    ],
)
def test_save_errors_name_the_users_path(tmp_path, command, where, reason):
    path = where.format(tmp=tmp_path)
    result = invoke(["play", "--deal", "1", "--interactive", "--ascii"], input=f"d4\n{command} {path}\ne4\n")
    assert result.exit_code == 0
    assert f"{path}: " in result.stderr and reason in result.stderr
    assert ".tmp" not in result.stderr and ".foursquare-" not in result.stderr
    assert "Last move: 3C to e4" in result.stdout  # the game went on
    assert leftovers(tmp_path) == []


def test_state_at_the_prompt_shows_the_players_view_unless_full(tmp_path):
    saved = tmp_path / "saved.yaml"
    state = tmp_path / "state.yaml"
    script = f"d4\ne4\nstate\nstate --full\nsave {saved}\nstate {state}\n"
    result = invoke(["play", "--deal", "1", "--interactive", "--ascii"], input=script)
    shown = result.stdout.split("foursquare: 1")
    assert len(shown) == 3
    player, full = shown[1], shown[2]
    assert "remaining" not in player and "deal" not in player.split("grid:")[0]
    assert "remaining:" in full
    assert moves_in(saved) == 2  # save writes the whole transcript
    assert "remaining:" in state.read_text()  # and state FILE the whole state


def test_state_in_a_piped_script_is_the_players_view_too():
    result = invoke(["play", "--deal", "1"], input="d4\nstate\nstate --full\n")
    assert result.exit_code == 0
    player, full = result.stdout.split("foursquare: 1")[1:3]
    assert "remaining" not in player and "remaining:" in full


@pytest.mark.parametrize(
    ("command", "target", "says"),
    [
        ("save", "full.yaml", "the file exists and is not empty"),
        ("state", "full.yaml", "the file exists and is not empty"),
        ("save", "no/such/folder/x.yaml", "no such folder to write the file in"),
        ("save", "folder", "is a directory, not a file"),
    ],
)
def test_a_file_command_that_fails_in_a_piped_script_names_its_line(tmp_path, command, target, says):
    (tmp_path / "full.yaml").write_text("something\n")
    (tmp_path / "folder").mkdir()
    path = tmp_path / target
    result = invoke(["play", "--deal", "1"], input=f"d4\n# then\n{command} {path}\n")
    assert result.exit_code == 1
    assert result.stderr == f"<stdin>:3: {path}: {says}" + result.stderr.split(says, 1)[1]
    assert result.stderr.count("\n") == 1


def test_record_to_stdin_name_says_a_file_is_needed():
    result = invoke(["play", "--deal", "1", "--record", "-"], input="d4\n")
    assert result.exit_code == 2
    assert "the recording is written to a file" in result.stderr and "stdin" not in result.stderr


@pytest.mark.parametrize("command", ["save", "state"])
def test_save_and_state_at_the_prompt_expand_a_leading_tilde(tmp_path, monkeypatch, command):
    monkeypatch.setenv("HOME", str(tmp_path))
    result = invoke(["play", "--deal", "1", "--interactive", "--ascii"], input=f"d4\n{command} ~/g.yaml\n")
    assert result.exit_code == 0
    assert f"Saved the {'transcript' if command == 'save' else 'state'} to {tmp_path / 'g.yaml'}." in result.output
    assert moves_in(tmp_path / "g.yaml") == 1


# ------------------------------------------- the comments at the top of a file resumed are kept

MODELINE = "# yaml-language-server: $schema=transcript.schema.json\n\n# my game of deal 1\n"


def _with_modeline(tmp_path) -> Path:
    game = tmp_path / "game.yaml"
    assert invoke(["play", "--deal", "1", "--record", str(game)], input="d4\n").exit_code == 0
    game.write_text(MODELINE + game.read_text())
    return game


@pytest.mark.parametrize("input", ["quit\n", "e4\n", "e4\nundo\n"])
@pytest.mark.parametrize("interactive", [True, False])
def test_resume_and_record_in_one_file_keep_the_comments_at_its_top(tmp_path, input, interactive):
    """(``play --resume F --record F`` dropped F's modeline, even when only quit was typed.)"""
    game = _with_modeline(tmp_path)
    mode = ["--interactive"] if interactive else []
    result = invoke(["play", "--resume", str(game), "--record", str(game), *mode], input=input)
    assert result.exit_code == 0, result.stderr
    text = game.read_text()
    assert text.startswith(MODELINE) and text.count("yaml-language-server") == 1
    assert moves_in(game) == 1 + input.count("e4") - input.count("undo")


@pytest.mark.parametrize("command", ["save", "save!"])
def test_save_into_the_file_resumed_keeps_the_comments_at_its_top(tmp_path, command):
    game = _with_modeline(tmp_path)
    result = invoke(["play", "--resume", str(game), "--interactive"], input=f"e4\n{command} {game}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert game.read_text().startswith(MODELINE) and moves_in(game) == 2
    other = tmp_path / "other.yaml"  # another file gets the game alone
    assert invoke(["play", "--resume", str(game), "--interactive"], input=f"save {other}\n").exit_code == 0
    assert other.read_text().startswith("foursquare: 1")


def test_a_recording_forced_over_another_file_does_not_take_its_comments(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text("# someone else's notes\nfoo: 1\n")
    assert invoke(["play", "--deal", "1", "--record", str(other), "--force"], input="d4\n").exit_code == 0
    assert other.read_text().startswith("foursquare: 1")


def test_subprocess_resume_and_record_keep_the_modeline(tmp_path):
    import subprocess

    game = _with_modeline(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "play", "--resume", str(game), "--record", str(game)], input="quit\n",
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert game.read_text().startswith(MODELINE)


# ----------------------------------------------------------------------------
# The end of ``play --record FILE`` when FILE cannot be written (docs/guide/playing.md): status 1, no
# "The transcript is in" line and no command pointing to FILE; on stderr, where the copy
# in the temporary folder is and, for a game not over, ``Continue it`` from that copy.


WON = re.findall(r'cell: "(\w+)"', (EXAMPLES / "won.yaml").read_text())


def _failing_after(calls: int):
    """A :meth:`Session.write_record` that writes ``calls`` times, then fails as a full disk."""
    real = Session.write_record
    count = {"n": 0}

    def write(self):
        count["n"] += 1
        if count["n"] > calls:
            self.record_error = OSError(errno.ENOSPC, "No space left on device", self.record_path)
            return False
        return real(self)

    return write


def _check_end(stdout: str, stderr: str, record: str, over: bool) -> str:
    assert "Traceback" not in stderr
    assert "The transcript is in" not in stdout and "The state is in" not in stdout
    assert f"--resume {record}" not in stdout + stderr and f"replay {record}" not in stdout + stderr
    assert "Continue it" not in stdout  # the summary on stdout points to no recording
    assert f"{record}: the recording is NOT complete" in stderr
    joined = " ".join(stderr.split())  # commands may be folded to fit 40 columns
    found = re.search(r"The whole game is in (\S+) instead: foursquare replay (\S+)", joined)
    assert found and found.group(1) == found.group(2)
    copy = found.group(1)
    if over:
        assert "Continue it" not in stderr
    else:
        assert f"Continue it: foursquare play --resume {copy} --record {copy}" in joined
    return copy


@pytest.mark.parametrize("moves", [5, len(WON) - 1])
def test_cli_runner_the_end_continues_from_the_copy(tmp_path, monkeypatch, moves):
    record = str(tmp_path / "g.yaml")
    monkeypatch.setattr(Session, "write_record", _failing_after(2))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    script = "\n".join([*WON[:moves], "quit"]) + "\n"
    result = CliRunner().invoke(main, ["play", "--deal", "153", "--record", record, "--interactive", "--ascii"], input=script)
    assert result.exit_code == 1
    copy = _check_end(result.stdout, result.stderr, record, over=False)
    # the copy's command works: it continues the game from where it stopped
    monkeypatch.undo()
    again = CliRunner().invoke(main, ["play", "--resume", copy, "--record", copy, "--interactive", "--ascii"], input="quit\n")
    assert again.exit_code == 0, again.output
    assert f"Stopped after {moves} card" in again.stdout


def test_cli_runner_a_game_over_has_no_continue_line(tmp_path, monkeypatch):
    record = str(tmp_path / "g.yaml")
    monkeypatch.setattr(Session, "write_record", _failing_after(2))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["play", "--deal", "153", "--record", record, "--interactive", "--ascii"], input="\n".join(WON) + "\n")
    assert result.exit_code == 1
    _check_end(result.stdout, result.stderr, record, over=True)


def test_subprocess_exit_status_and_lines(tmp_path):
    record = str(tmp_path / "g.yaml")
    program = (
        "import errno, sys, tempfile\n"
        "from foursquare.app.session import Session\n"
        f"tempfile.tempdir = {str(tmp_path)!r}\n"
        "real = Session.write_record\n"
        "calls = []\n"
        "def write(self):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 2:\n"
        "        self.record_error = OSError(errno.ENOSPC, 'No space left on device', self.record_path)\n"
        "        return False\n"
        "    return real(self)\n"
        "Session.write_record = write\n"
        "from foursquare.__main__ import run\n"
        "sys.argv[0] = 'foursquare'\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "play", "--deal", "153", "--record", record, "--interactive", "--ascii"],
        input="\n".join([*WON[:5], "quit"]) + "\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 1
    _check_end(done.stdout, done.stderr, record, over=False)


# ------------------------------------------- the commands the closing lines suggest
def test_the_commands_suggested_for_a_file_named_like_an_option_run_as_written(tmp_path, monkeypatch):
    # A recording (or a rules file) whose name starts with '-' is written ./-NAME in the
    # suggested commands: as written, replay and play would read it as an option.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-r.yaml").write_text("preset: standard\npile_cap: 3\n")
    result = invoke(["play", "--deal", "1", "--rules", "-r.yaml", "--record", "-dash.yaml"], input="d4\n")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "foursquare " in line]
    assert any("foursquare play --deal 1 --rules ./-r.yaml" in line for line in lines), lines
    assert any("foursquare replay ./-dash.yaml" in line for line in lines), lines
    assert any("--resume ./-dash.yaml --record ./-dash.yaml" in line for line in lines), lines
    for line in lines:
        words = line.split("foursquare ", 1)[1].split()
        if words[0] == "replay":
            replayed = invoke(words)
            assert replayed.exit_code == 0, replayed.output


def test_ctrl_c_at_the_prompt_after_undo_says_what_the_recording_drops(tmp_path, monkeypatch):
    from foursquare.cli.play import Prompt

    lines = iter(["d4", "e4", "undo"])

    def read_line(prompt):
        line = next(lines, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(Prompt, "read_line", read_line)
    result = invoke(["play", "--deal", "1", "--record", str(tmp_path / "g.yaml"), "--interactive"])
    assert result.exit_code == 130 and "without the 1 move taken back." in result.stderr


def prompt(lines, *extra):
    return invoke(["play", "--deal", "1", "--interactive", *extra], input="\n".join(lines) + "\n")


@pytest.mark.parametrize("command", ["save", "state"])
def test_the_prompt_will_not_write_over_an_unrelated_file(tmp_path, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    result = prompt(["d4", f"{command} keep.txt", "quit"])
    assert result.exit_code == 0, result.output
    assert keep.read_text() == "precious\n"
    assert f"'{command}! FILE' overwrites it" in result.stderr
    forced = prompt(["d4", f"{command}! keep.txt", "quit"])
    assert forced.exit_code == 0 and "Saved the" in forced.stdout
    assert keep.read_text().startswith("foursquare: 1")


def test_the_prompt_writes_freely_to_its_own_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "rec.yaml"
    (tmp_path / "empty.yaml").write_text("")
    result = prompt(
        ["d4", "save new.yaml", "e4", "save new.yaml", "save rec.yaml", "save empty.yaml", "quit"],
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
    result = prompt([line, "quit"])
    assert result.exit_code == 0
    if "!" in line:  # save!/state! take nothing but a file name
        assert "is not a file name here" in result.stderr and "takes one file" in result.stderr
    else:
        assert "unknown option" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["save", "save!", "state", "state!"])
def test_file_names_at_the_prompt_may_be_quoted_like_a_shell(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = prompt(["d4", f'{command} "my game.yaml"', "quit"])
    assert result.exit_code == 0 and "Saved the" in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["my game.yaml"]
    unclosed = prompt([f'{command} "x.yaml', "quit"])
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
    if "\0" in name:  # a pipe holding a NUL is binary input, as every reader says (the prompt's too)
        says, interactive = f"<stdin>:2: {BINARY_WORDS}", False
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
    result = prompt(["d4", 'save "~/q.yaml"', "save ~/h.yaml", 'save ""', "quit"])
    assert "'~/q.yaml': no such folder" in result.stderr  # quoted: a folder named ~, as in a shell
    assert "save: the file name is empty" in result.stderr
    assert [p.name for p in home.iterdir()] == ["h.yaml"]
