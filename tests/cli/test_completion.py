"""Tab completion and the line history at the prompt: the completer's candidates
(the command table's commands, the legal cells for the card in hand, file names),
and a real session in a pseudo-terminal (the stdlib ``pty``): Tab completes, the
lines typed come back in the next session (never ``quit``), Ctrl-C cancels the line or
the hint and the game goes on, and none of it without a terminal."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
import types

import pytest
from helpers import ROOT, invoke, play

from foursquare.cli.completion import HISTORY_LINES, Completer, prompt_editing
from foursquare.engine.game import Game
from foursquare.formats.commands import COMMAND_NAMES, FORCED_COMMANDS


def test_at_the_start_of_a_line_every_command_of_the_table_and_every_legal_cell():
    game = play(Game.from_deal(1), ["d4", "e4"])
    everything = Completer(game).candidates("", "")
    assert set(everything) == {*COMMAND_NAMES, *FORCED_COMMANDS, *(str(c) for c in game.legal_cells())}
    assert Completer(game).candidates("", "s") == ["save", "save!", "show", "state", "state!"]


def test_cells_are_the_legal_cells_of_the_card_in_hand_and_follow_undo():
    game = play(Game.from_deal(1), ["d4"])
    completer = Completer(game)
    legal = sorted(str(c) for c in game.legal_cells())
    assert completer.candidates("", "") == sorted([*COMMAND_NAMES, *FORCED_COMMANDS, *legal])
    assert completer.candidates("", "d") == [c for c in legal if c.startswith("d")]
    assert completer.candidates("", "D") == completer.candidates("", "d")  # cells are read in any case
    assert "g7" not in completer.candidates("", "g")
    game.undo()  # the completer reads the game as it stands now
    assert "g7" in completer.candidates("", "g")


def test_after_a_card_the_cells_and_nothing_after_a_cell():
    game = play(Game.from_deal(1), ["d4"])
    legal = sorted(str(c) for c in game.legal_cells())
    assert Completer(game).candidates("3C ", "") == legal
    assert Completer(game).candidates("3c ", "e") == [c for c in legal if c.startswith("e")]
    assert Completer(game).candidates("d4 ", "") == []
    assert Completer(game).candidates("undo ", "") == []


def test_no_cell_when_the_game_is_over():
    game = Game.from_deal(1)
    while not game.is_over:
        game.play(game.legal_cells()[0])
    assert Completer(game).candidates("", "") == sorted([*COMMAND_NAMES, *FORCED_COMMANDS])


def test_save_and_state_complete_file_names_and_state_full(tmp_path, monkeypatch):
    (tmp_path / "game1.yaml").write_text("")
    (tmp_path / "games").mkdir()
    (tmp_path / ".hidden").write_text("")
    monkeypatch.chdir(tmp_path)
    game = Game.from_deal(1)
    assert Completer(game).candidates("save ", "ga") == ["game1.yaml", "games/"]
    assert Completer(game).candidates("save! ", "") == ["game1.yaml", "games/"]
    assert Completer(game).candidates("state ", "") == ["--full", "game1.yaml", "games/"]
    assert Completer(game).candidates("state ", "games/") == []


def test_the_words_modes_questions_complete_and_only_there():
    game = Game.from_deal(1)
    game.play("d4")
    game.play("e4")
    assert Completer(game, words=True).candidates("", "lo") == ["look"]
    assert Completer(game, words=True).candidates("", "ce") == ["cells"]
    assert Completer(game, words=True).candidates("look ", "") == ["d4", "e4"]
    assert Completer(game).candidates("", "lo") == [] and Completer(game).candidates("look ", "") == []


@pytest.mark.parametrize("command", ["save", "save!", "state", "state!"])
def test_a_leading_tilde_is_the_home_folder_for_every_command_that_takes_a_path(tmp_path, monkeypatch, command):
    """The prompt reads ``~`` as a shell does, and says so: ``save``, ``state`` and their
    ``!`` forms write under the home folder, Tab completes there, and the refusal of what
    a shell would expand says that a leading ``~`` is the one thing expanded."""
    home, elsewhere = tmp_path / "home", tmp_path / "cwd"
    home.mkdir(), elsewhere.mkdir()
    (home / "games").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(elsewhere)
    assert Completer(Game.from_deal(1)).candidates(f"{command} ", "~/ga") == ["~/games/"]
    result = invoke(["play", "--interactive", "--deal", "1", "--no-history"],
                    input=f"d4\n{command} ~/games/x.yaml\n{command} ~/*.yaml\nquit\n")
    assert (home / "games" / "x.yaml").is_file() and not any(elsewhere.iterdir())
    assert "file names here expand only a leading ~ (your home folder)" in result.stderr.replace("\n  ", " ")


def test_the_readline_protocol_gives_each_candidate_then_none():
    game = play(Game.from_deal(1), ["d4"])
    completer = Completer(game)
    got = []
    state = 0
    while (word := completer.complete("e", state)) is not None:
        got.append(word)
        state += 1
    assert got == [str(c) for c in sorted(game.legal_cells(), key=str) if str(c).startswith("e")]


def test_the_history_file_is_cut_when_it_grows_to_twice_its_length(tmp_path, monkeypatch):
    import readline

    path = tmp_path / "prompt-history"
    path.write_text("".join(f"old {i}\n" for i in range(2 * HISTORY_LINES)))
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(isatty=lambda: True))  # a prompt at a terminal
    readline.clear_history()
    try:
        with prompt_editing(Game.from_deal(1), str(path)):
            readline.add_history("latest line")
    finally:
        readline.clear_history()
    lines = path.read_text().splitlines()
    assert len(lines) == HISTORY_LINES and lines[-1] == "latest line"


def test_the_lines_that_end_the_game_are_left_out_of_a_history_read(tmp_path, monkeypatch):
    import readline

    path = tmp_path / "prompt-history"
    path.write_text("d4\nquit\nhint\nq\nEXIT\nnew\nagain\n")  # written before they were left out (new, again: end a game too)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(isatty=lambda: True))  # a prompt at a terminal
    readline.clear_history()
    try:
        with prompt_editing(Game.from_deal(1), str(path)):
            assert readline.get_current_history_length() == 2
            assert [readline.get_history_item(i) for i in (1, 2)] == ["d4", "hint"]
    finally:
        readline.clear_history()


def test_without_a_terminal_no_line_history_is_written():
    done = invoke(["play", "--deal", 1, "--interactive"], input="sh\t\nd4\nquit\n")
    assert done.exit_code == 0
    assert not os.path.exists(os.path.join(os.environ["FOURSQUARE_HOME"], "prompt-history"))


def _controlling_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pseudo-terminal
    (standard input), so that Ctrl-C typed there is a SIGINT, as in a real terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``foursquare play`` in a pseudo-terminal: keys in, the screen's bytes out."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        env = dict(os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="80", LINES="40")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "foursquare", "play", *args], stdin=slave, stdout=slave, stderr=slave,
            cwd=ROOT, env=env, close_fds=True, preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self.master = master
        self.screen = b""

    def read_until(self, token: bytes, timeout: float = 60.0, since: int = 0) -> bool:
        """Read the screen until ``token`` shows after byte ``since`` of it."""
        end = time.monotonic() + timeout
        while token not in self.screen[since:] and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.screen += os.read(self.master, 4096)
                except OSError:  # the other end closed
                    break
        return token in self.screen[since:]

    def wait_reading(self, timeout: float = 60.0) -> None:
        """Wait until the program sleeps in its read of the terminal (the kernel's
        ``wchan``: a poll or select), an event, not a delay: a Ctrl-C typed before it is
        back there can be held by CPython's readline until the next key."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with open(f"/proc/{self.process.pid}/wchan") as wchan:
                sleeping_in = wchan.read()
            if "poll" in sleeping_in or "select" in sleeping_in:
                return
            time.sleep(0.01)

    def type(self, keys: bytes, then: bytes | None = None) -> None:
        mark = len(self.screen)
        os.write(self.master, keys)
        if then is not None:
            assert self.read_until(then, since=mark), self.screen[mark:]

    def close(self) -> int:
        self.read_until(b"\x00", timeout=2)  # drain
        code = self.process.wait(60)
        os.close(self.master)
        return code


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal session as on Linux")
def test_a_real_terminal_session_completes_and_keeps_its_lines_for_the_next():
    first = Terminal("--deal", "1", "--ascii")
    assert first.read_until(b"2D> ")
    first.type(b"sh\t", then=b"show")  # Tab completed the command
    first.type(b"\r", then=b"2D> ")
    first.type(b"d4\r", then=b"3C> ")
    first.type(b"e\t", then=b"e4")  # the only legal cell starting with e: completed
    first.type(b"\r", then=b"7D> ")
    first.type(b"qui\t\r", then=b"Play it again")
    assert first.close() == 0
    history = os.path.join(os.environ["FOURSQUARE_HOME"], "prompt-history")
    with open(history) as f:
        assert f.read().split() == ["show", "d4", "e4"]  # "quit" is never kept
    second = Terminal("--deal", "2", "--ascii")
    assert second.read_until(b"AD> ")
    second.type(b"\x1b[A\r", then=b"AH> ")  # the Up arrow: last session's "e4", not its "quit"
    second.type(b"q\r", then=b"Play it again")
    assert second.close() == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal session as on Linux")
def test_ctrl_c_at_a_terminal_cancels_the_line_and_the_game_goes_on():
    # (Ctrl-C ended the game with status 130, a half-typed line or a hint under way too)
    terminal = Terminal("--deal", "1", "--ascii", "--no-history")
    assert terminal.read_until(b"2D> ")
    terminal.type(b"d", then=b"d")  # half a line
    terminal.wait_reading()
    terminal.type(b"\x03", then=b"2D> ")  # cancelled: the prompt again
    terminal.type(b"d4\r", then=b"3C> ")  # the line typed was dropped; the game goes on
    terminal.wait_reading()
    terminal.type(b"\x03", then=b"3C> ")  # and again: one Ctrl-C never ends it
    terminal.type(b"e4\r", then=b"7D> ")
    terminal.type(b"\x04", then=b"Play it again")  # Ctrl-D leaves
    assert terminal.close() == 0
