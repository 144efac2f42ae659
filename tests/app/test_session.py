"""foursquare.app.session: what a line at the prompt means, and writing a recording safely
(the real target of a link, never a device or a folder, the umask's mode, no
temporary file left behind, errors that name the user's path)."""

from __future__ import annotations

import glob
import os
import stat
import sys

import pytest

from foursquare import Game
from foursquare.app.session import Session, read_entry, writable_target, write_atomically
from foursquare.errors import ParseError
from foursquare.formats.commands import PromptCommand as Command
from foursquare.formats.movescript import Move

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files")


def leftovers(folder) -> list[str]:
    return glob.glob(os.path.join(str(folder), ".foursquare-*"))


# ------------------------------------------------------------------ read_entry


@pytest.mark.parametrize(
    "line, expected",
    [
        ("d4", Move),
        ("7H d4  # a comment", Move),
        ("undo", Command("undo")),
        ("Q", Command("quit")),
        ("state", Command("state")),
        ("state --full", Command("state", "--full")),
        ("save game.yaml", Command("save", "game.yaml")),
        ("   # only a comment", None),
    ],
)
def test_read_entry_tells_moves_and_commands_apart(line, expected):
    entry = read_entry(line)
    if isinstance(expected, type):
        assert isinstance(entry, expected)
    else:
        assert entry == expected


@pytest.mark.parametrize(
    "line, message",
    [
        ("d0", "not a cell: 'd0'"),
        ("z9", "not a cell: 'z9'"),
        ("d44", "not a cell: 'd44'"),
        ("7X d4", "not a card: '7X'"),
        ("d4 e4 f4", "not a move: 'd4 e4 f4'"),
        ("please", "not a move or a command: 'please'"),
        ("undo twice", "undo: too many words"),
        ("save", "save: name the file"),
    ],
)
def test_a_bad_line_says_what_is_wrong(line, message):
    """The reason comes from the same parsers as move scripts use, not a catch-all."""
    with pytest.raises(ParseError) as caught:
        read_entry(line)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------ write_atomically


def test_a_new_file_gets_the_umask_mode(tmp_path):
    for mask, mode in ((0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)):
        old = os.umask(mask)
        try:
            path = tmp_path / f"new-{mask:o}.yaml"
            write_atomically(str(path), "text\n")
        finally:
            os.umask(old)
        assert stat.S_IMODE(path.stat().st_mode) == mode
        assert path.read_text() == "text\n"
    assert leftovers(tmp_path) == []


@posix_only
@pytest.mark.parametrize("mode", [0o600, 0o644, 0o664, 0o640])
def test_an_existing_file_keeps_its_mode(tmp_path, mode):
    path = tmp_path / "old.yaml"
    path.write_text("old\n")
    path.chmod(mode)
    write_atomically(str(path), "new\n")
    assert path.read_text() == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == mode


@posix_only
@pytest.mark.parametrize("relative", [True, False])
def test_a_symbolic_link_is_followed_to_its_target(tmp_path, relative):
    target = tmp_path / "sub" / "target.yaml"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(os.path.relpath(target, tmp_path) if relative else target)
    chain = tmp_path / "chain.yaml"
    chain.symlink_to(link)
    write_atomically(str(chain), "new\n")
    assert link.is_symlink() and chain.is_symlink()
    assert target.read_text() == "new\n"
    assert leftovers(tmp_path) == [] and leftovers(target.parent) == []


@posix_only
def test_a_dangling_link_creates_its_target(tmp_path):
    link = tmp_path / "link.yaml"
    link.symlink_to(tmp_path / "later.yaml")
    write_atomically(str(link), "new\n")
    assert link.is_symlink() and (tmp_path / "later.yaml").read_text() == "new\n"


@posix_only
@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda tmp: tmp, "is a directory"),
    ],
)
def test_a_directory_is_refused(tmp_path, make, reason):
    path = str(make(tmp_path))
    before = os.stat(path)
    with pytest.raises(OSError) as caught:
        write_atomically(path, "text\n")
    assert caught.value.filename == path and reason in caught.value.strerror
    after = os.stat(path)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode)
    with pytest.raises(OSError):
        writable_target(path)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["no/such/folder/x.yaml", "missing/x.yaml"])
def test_errors_name_the_users_path_never_the_temporary_file(tmp_path, where):
    path = str(tmp_path / where)
    with pytest.raises(OSError) as caught:
        write_atomically(path, "text\n")
    assert caught.value.filename == path
    assert ".tmp" not in str(caught.value) and ".foursquare-" not in str(caught.value)


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt(), SystemExit(143)])
def test_the_temporary_file_is_removed_however_the_write_fails(tmp_path, monkeypatch, error):
    path = tmp_path / "game.yaml"
    path.write_text("old\n")

    def replace(src, dst):
        raise error

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(type(error)) as caught:
        write_atomically(str(path), "new\n")
    if isinstance(error, OSError):
        assert caught.value.filename == str(path)
    assert path.read_text() == "old\n"
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------- Session


def test_a_session_without_autosave_writes_only_when_asked(tmp_path):
    record = tmp_path / "game.yaml"
    session = Session(Game.from_deal(1), record=str(record), autosave=False)
    assert not record.exists()
    for cell in ("d4", "e4", "c4"):
        session.play(Move(read_entry(cell).cell))
    session.undo()
    assert not record.exists()
    session.write_record()
    assert record.read_text().count("cell:") == 2


def test_an_autosaving_session_keeps_the_file_complete_after_every_change(tmp_path):
    record = tmp_path / "game.yaml"
    session = Session(Game.from_deal(1), record=str(record))
    assert "moves: []" in record.read_text()
    session.play(read_entry("d4"))
    session.play(read_entry("e4"))
    assert record.read_text().count("cell:") == 2
    session.undo()
    assert record.read_text().count("cell:") == 1
    session.redo()
    assert record.read_text().count("cell:") == 2


def test_every_command_of_the_move_script_syntax_has_a_line_of_help():
    from foursquare.formats.commands import TABLE
    from foursquare.formats.movescript import COMMAND_NAMES

    assert [c.usage.split()[0] for c in TABLE if c.usage is not None] == list(COMMAND_NAMES)


@pytest.mark.parametrize("autosave", [True, False])
def test_a_loss_undone_before_quit_is_kept_lost_in_the_history(tmp_path, autosave):
    from foursquare.engine.game import Reason, Status
    from foursquare.history.recorder import GameRecorder
    from foursquare.history.store import HistoryStore

    path = str(tmp_path / "history.sqlite3")
    game = Game.from_deal(2)
    session = Session(game, autosave=autosave, history=GameRecorder(path, game))  # a piped script: written at the end
    while not game.is_over:
        session.play(Move(game.legal_cells()[0]))
    session.undo()
    assert session.end() is None
    (record,) = HistoryStore.open(path).records()
    assert (record.status, record.reason, record.moves) == (Status.LOST, Reason.TOO_MANY_FACE_DOWN, 26)


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
        session.write_file(str(keep), session.text())
    assert keep.read_text() == "precious\n"
    session.write_file(str(keep), session.text(), force=True)
    session.write_file(str(keep), session.text())  # now its own
    resumed = Session(Game.from_deal(1), autosave=False, resume=str(keep))
    resumed.write_file(str(keep), resumed.text())
