"""A file a command writes is never one of the files it reads: ``play --deck D --record D``
(the same path, another path to it, a symbolic link) and ``solve``/``simulate --rules R
--output R`` are usage errors (status 2), refused before anything is written; ``play
--resume F --record F`` still continues a game in place.  The prompt's ``save``/``state
FILE`` (and a script's), with ``!`` too, never write the ``--deck`` or ``--rules`` file
nor the move script redirected to stdin, by any name: ``FILE: is the file given as ...``."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from helpers import EXAMPLES, ROOT, CliRunner, history_file, invoke

from foursquare.cli import main
from foursquare.history.store import HistoryStore

COMMAND = [sys.executable, "-m", "foursquare"]
DECK = "2D 3C 7D 7H 9H 9D 5H 3D TH 6S 9S AS 6C 3H 5C 8D 4D AH 5S 7C 6D AD TC 3S 8S 2S 2C AC 4S 8H 8C 9C 4C TS 4H 2H 7S 5D TD 6H\n"
RULES = "preset: standard\n"


def _names(tmp_path, kind: str) -> tuple[str, str]:
    """An input file and, for ``kind``, a name for the output that is the same file."""
    source = tmp_path / "input.txt"
    source.write_text(DECK)
    if kind == "same path":
        return str(source), str(source)
    if kind == "another path":
        (tmp_path / "sub").mkdir()
        return str(source), str(tmp_path / "sub" / ".." / "input.txt")
    link = tmp_path / "link.yaml"
    link.symlink_to(source)
    return str(source), str(link)


KINDS = ["same path", "another path", "symbolic link"]


@pytest.mark.parametrize("kind", KINDS)
def test_play_record_over_its_deck_is_refused_before_anything_is_written(tmp_path, kind):
    deck, record = _names(tmp_path, kind)
    result = CliRunner().invoke(main, ["play", "--deck", deck, "--record", record, "--force"], input="d4\nquit\n")
    assert result.exit_code == 2
    assert "--record" in result.stderr and "--deck" in result.stderr and "overwrite" in result.stderr
    assert (tmp_path / "input.txt").read_text() == DECK  # untouched


@pytest.mark.parametrize("args", [
    ["solve", "--deals", "0-1", "--output", "{out}", "--force", "--rules", "{src}"],
    ["simulate", "--bot", "greedy", "--deals", "0-1", "--output", "{out}", "--force", "--rules", "{src}"],
    ["play", "--deal", "1", "--rules", "{src}", "--record", "{out}", "--force"],
])
@pytest.mark.parametrize("kind", KINDS)
def test_an_output_over_a_rules_file_is_refused(tmp_path, kind, args):
    source, out = _names(tmp_path, kind)
    (tmp_path / "input.txt").write_text(RULES)
    result = CliRunner().invoke(main, [a.format(out=out, src=source) for a in args], input="quit\n")
    assert result.exit_code == 2, result.output
    assert "--rules" in result.stderr and "overwrite" in result.stderr
    assert (tmp_path / "input.txt").read_text() == RULES


def test_another_file_is_still_written(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK)
    record = tmp_path / "game.yaml"
    result = CliRunner().invoke(main, ["play", "--deck", str(deck), "--record", str(record)], input="d4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "d4" in record.read_text() and deck.read_text() == DECK


def test_resume_and_record_in_the_same_file_continue_in_place(tmp_path):
    game = tmp_path / "game.yaml"
    assert CliRunner().invoke(main, ["play", "--deal", "1", "--record", str(game)], input="d4\nquit\n").exit_code == 0
    result = CliRunner().invoke(main, ["play", "--resume", str(game), "--record", str(game)], input="c4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "c4" in game.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_subprocess_play_record_over_its_deck_by_a_link(tmp_path):
    deck, record = _names(tmp_path, "symbolic link")
    done = subprocess.run(
        [*COMMAND, "play", "--deck", deck, "--record", record, "--force"], input="d4\nquit\n",
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "overwrite that input" in done.stderr
    assert done.stdout == ""  # refused before the game starts
    assert (tmp_path / "input.txt").read_text() == DECK and os.path.islink(record)


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin")
def test_subprocess_play_record_over_its_move_script_on_stdin(tmp_path):
    script = tmp_path / "game.moves"
    script.write_text("d4\nc4\n")
    with open(script) as stdin:
        done = subprocess.run(
            [*COMMAND, "play", "--deal", "1", "--record", str(script), "--force"], stdin=stdin,
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is the file read as standard input: writing it would overwrite that input" in done.stderr
    assert script.read_text() == "d4\nc4\n"
    # a script piped in (not the file) still plays and records
    done = subprocess.run(
        [*COMMAND, "play", "--deal", "1", "--record", str(script), "--force"], input="d4\n",
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "d4" in script.read_text() and "foursquare" in script.read_text()


# --------------------------------------- the prompt's save/state (with ! too) never over an input


@contextlib.contextmanager
def stdin_from(path) -> Iterator[None]:
    """File descriptor 0 reads ``path`` for the block (as ``< path`` gives a process);
    CliRunner's ``input`` still gives the lines read."""
    saved = os.dup(0)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.dup2(fd, 0)
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(fd)


@pytest.mark.parametrize("command", ["save", "save!", "state", "state!"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("interactive", [True, False])
def test_save_and_state_never_write_over_the_deck_read_even_with_force(tmp_path, command, kind, interactive):
    """(``save! mydeck.txt`` replaced the deck with a transcript, and the closing
    advice 'Play it again: foursquare play --deck mydeck.txt' then failed.)"""
    deck, target = _names(tmp_path, kind)
    mode = "--interactive" if interactive else "--script"
    result = CliRunner().invoke(main, ["play", "--deck", deck, mode], input=f"d4\n{command} {target}\nquit\n")
    assert f"{target}: is the file given as --deck {deck}: writing it would overwrite that input" in result.stderr
    assert result.exit_code == (0 if interactive else 1), result.output
    assert (tmp_path / "input.txt").read_text() == DECK
    if interactive:  # the advice at the end still plays the deck
        assert f"foursquare play --deck {deck}" in result.stdout
        assert CliRunner().invoke(main, ["play", "--deck", deck], input="d4\n").exit_code == 0


@pytest.mark.parametrize("command", ["save!", "state!"])
def test_save_never_writes_over_the_rules_file_read(tmp_path, command):
    rules, target = _names(tmp_path, "symbolic link")
    (tmp_path / "input.txt").write_text(RULES)
    result = CliRunner().invoke(main, ["play", "--deal", "1", "--rules", rules, "--interactive"], input=f"{command} {target}\n")
    assert f"{target}: is the file given as --rules {rules}: writing it would overwrite that input" in result.stderr
    assert (tmp_path / "input.txt").read_text() == RULES


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize("command", ["save", "save!", "state!"])
@pytest.mark.parametrize("kind", KINDS)
def test_save_never_writes_over_the_move_script_on_stdin(tmp_path, command, kind):
    script, target = _names(tmp_path, kind)
    with stdin_from(script):
        result = CliRunner().invoke(main, ["play", "--deal", "1", "--interactive"], input=f"d4\n{command} {target}\nquit\n")
    assert f"{target}: is the move script read from stdin: writing it would overwrite that input" in result.stderr
    assert (tmp_path / "input.txt").read_text() == DECK
    # another file is written as before
    other = tmp_path / "other.yaml"
    with stdin_from(script):
        result = CliRunner().invoke(main, ["play", "--deal", "1", "--interactive"], input=f"d4\n{command} {other}\nquit\n")
    assert result.exit_code == 0 and "d4" in other.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
@pytest.mark.parametrize("mode", ["--interactive", "--script"])
def test_subprocess_save_over_the_move_script_redirected_to_stdin(tmp_path, mode):
    """``play < moves.txt`` whose lines say ``save! moves.txt`` (or through a link)."""
    script = tmp_path / "moves.txt"
    (tmp_path / "link.txt").symlink_to(script)
    text = "d4\nsave! link.txt\nstate! ./moves.txt\nsave moves.txt\n"
    script.write_text(text)
    with open(script) as stdin:
        done = subprocess.run(
            [*COMMAND, "play", "--deal", "1", mode], stdin=stdin, capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )
    assert "Traceback" not in done.stderr
    assert "link.txt: is the move script read from stdin: writing it would overwrite that input; give another name" in done.stderr
    assert done.returncode == (0 if mode == "--interactive" else 1)
    assert script.read_text() == text


# ----------------------------------------------------------------------------
# No command writes a file over the game history's own database: ``history export
# --force``, ``play --record``, ``solve``/``simulate --output`` (with ``--force`` or
# ``--resume``) and the prompt's ``save`` all name the file and refuse it, and the
# history keeps every game (CliRunner, and the real program in a subprocess).


REFUSAL = "is the history of games itself"


@pytest.fixture
def history() -> str:
    """A history holding the two example games; its path."""
    for name in ("won.yaml", "lost.yaml"):
        done = invoke(["history", "import", str(EXAMPLES / name)])
        assert done.exit_code == 0, done.output
    assert len(HistoryStore.open(history_file()).records()) == 2
    return history_file()


def kept(path: str) -> int:
    with open(path, "rb") as f:
        assert f.read(16) == b"SQLite format 3\x00"
    return len(HistoryStore.open(path).records())


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["history", "export", "--force", "{H}"], None),
        (["play", "--deal", "3", "--record", "{H}", "--force"], "d4\n"),
        (["solve", "--deals", "0-1", "--output", "{H}", "--force"], None),
        (["solve", "--deals", "0-1", "--output", "{H}", "--resume"], None),
        (["simulate", "--deals", "0-1", "--output", "{H}", "--force"], None),
        (["play", "--deal", "3", "--interactive", "--ascii"], "d4\nsave {H}\nquit\n"),
    ],
    ids=["export", "play-record", "solve-force", "solve-resume", "simulate", "prompt-save"],
)
@pytest.mark.parametrize("by", ["path", "link"])
def test_a_command_refuses_to_write_over_the_history(history, tmp_path, args, stdin, by):
    target = history
    if by == "link":
        target = str(tmp_path / "alias.sqlite3")
        os.symlink(history, target)
    done = invoke([a.replace("{H}", target) for a in args], input=None if stdin is None else stdin.replace("{H}", target))
    assert REFUSAL in done.output, done.output
    assert target in done.output
    at_the_prompt = "--interactive" in args
    if not at_the_prompt:
        assert done.exit_code == 1, done.output
    assert kept(history) == 2 + at_the_prompt  # a game played at the prompt goes into the history


def test_the_real_program_refuses_and_keeps_the_history(history):
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "history", "export", "--force", history],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"{history}: {REFUSAL}" in done.stderr
    assert kept(history) == 2


def test_another_file_in_the_data_folder_is_written_as_before(history):
    other = os.path.join(os.path.dirname(history), "games.yaml")
    done = invoke(["history", "export", other])
    assert done.exit_code == 0, done.output
    with open(other, encoding="utf-8") as f:
        assert f.read().count("foursquare:") == 2
    assert kept(history) == 2
