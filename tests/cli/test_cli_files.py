"""Every file the command line writes (``play --record``, ``save``/``state FILE``,
``--output``), as real processes: a recording that cannot be written is never
reported as written (a full disk, a size limit: passing and lasting), one writer
per file (a lock, an atomic creation: processes started together, two sessions on
one resume file), and a read-only file is refused at the start, even as root."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import resource
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, fill_disk, invoke, mount_tmpfs, moves_in

from foursquare.formats.inputs import read_source
from foursquare.formats.loading import load_input

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files, locks and limits")

COMMAND = [sys.executable, "-m", "foursquare"]

#: Deal 153 won with score 8 (examples/won.yaml), one cell a line: 32 moves.
WON_153 = re.findall(r'cell: "(\w+)"', (EXAMPLES / "won.yaml").read_text())


class Player:
    """A ``foursquare`` process whose stdin is fed line by line and whose output is collected."""

    def __init__(self, args: list[str], *, fsize: int | None = None, env: dict[str, str] | None = None) -> None:
        def limit() -> None:
            if fsize is not None:  # writes past fsize bytes fail with EFBIG (Python ignores SIGXFSZ)
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, resource.RLIM_INFINITY))

        self.proc = subprocess.Popen(
            [*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=ROOT, preexec_fn=limit, env=env,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, into), daemon=True).start()

    def _read(self, stream, into: list[str]) -> None:
        for raw in iter(stream.readline, b""):
            into.append(raw.decode("utf-8", "replace"))
            self._lines.put(into[-1])

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.proc.stdin.flush()

    def wait_for(self, predicate: Callable[[], bool], seconds: float = 60.0) -> None:
        end = time.monotonic() + seconds
        while not predicate():
            assert time.monotonic() < end, f"timed out; stdout {''.join(self.out)!r} stderr {''.join(self.err)!r}"
            time.sleep(0.02)

    def finish(self, *lines: str) -> int:
        self.send(*lines)
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=120)
        time.sleep(0.1)  # the readers' last lines
        return code

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp)}  # where a copy of a lost recording goes


# ------------------------------------------------- item: a recording that cannot be written


def _copies(folder: Path) -> list[Path]:
    return sorted(folder.glob("foursquare-*.yaml"))


@pytest.mark.parametrize("interactive", [True, False])
def test_a_recording_that_stays_unwritable_is_never_reported_as_written(tmp_path, interactive):
    """A size limit (RLIMIT_FSIZE: a real failing write, EFBIG, as root too) that lasts:
    told once, the game goes on, and at the end: how many moves are missing, no line
    pointing to the file, status 1.  The file holds a whole, readable older game."""
    record = tmp_path / "rec.yaml"
    copies = tmp_path / "copies"
    copies.mkdir()
    mode = ["--interactive", "--ascii"] if interactive else []
    player = Player(["play", "--deal", "153", "--record", str(record), *mode], fsize=1500, env=_env(copies))
    code = player.finish(*WON_153[:-1], "quit")
    made = len(WON_153) - 1
    assert code == 1, player.stderr
    assert "Traceback" not in player.stderr and "Errno" not in player.stderr
    assert "The transcript is in" not in player.stdout and "Continue it" not in player.stdout
    assert "Stopped after" in player.stdout
    if interactive:
        assert player.stderr.count("the recording could not be written") == 1  # once, not every move
        held = moves_in(record)  # the last complete write
        assert 0 < held < 24
    else:
        held = 0  # a script writes once, at the end
    assert f"the recording is NOT complete: File too large (the file is over the size limit for one file); the file misses {made - held} of the game's {made} moves" in player.stderr
    # the copy is over the same limit: said, not hidden
    assert "No copy could be written either" in player.stderr and _copies(copies) == []


@pytest.mark.parametrize("interactive", [True, False])
def test_a_recording_written_at_the_end_after_a_failure_is_complete_and_status_0(tmp_path, interactive):
    """The failure passes (the limit is raised while the game goes on): the next write
    catches up, the end says where the transcript is, status 0."""
    record = tmp_path / "rec.yaml"
    mode = ["--interactive", "--ascii"] if interactive else []
    player = Player(["play", "--deal", "153", "--record", str(record), *mode], fsize=1500, env=_env(tmp_path))
    if interactive:
        player.send(*WON_153[:20])
        player.wait_for(lambda: "could not be written" in player.stderr)
    resource.prlimit(player.proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    code = player.finish(*(WON_153[20:] if interactive else WON_153))
    assert code == 0, player.stderr
    assert moves_in(record) == len(WON_153)
    assert f"  foursquare replay {record}\n" in player.stdout  # the command on its own line (40 columns)
    if interactive:
        assert "the recording is written again; it holds every move" in player.stderr
    assert "NOT complete" not in player.stderr


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A real 64 KiB file system (tmpfs) that can fill up; skipped where it cannot be mounted."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if not mount_tmpfs(folder, "64k"):
        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.mark.parametrize("frees_up", [True, False])
def test_a_full_disk_during_play(tmp_path, small_disk, frees_up):
    """A real full disk (ENOSPC) in the middle of a game: told once in words, the game
    goes on; when the disk frees up, the file ends complete (status 0); when it stays
    full, the end says how many moves are missing and where the whole game went."""
    record = small_disk / "rec.yaml"
    copies = tmp_path / "copies"
    copies.mkdir()
    player = Player(["play", "--deal", "153", "--record", str(record), "--interactive", "--ascii"], env=_env(copies))
    player.send(*WON_153[:5])
    player.wait_for(lambda: record.exists() and record.stat().st_size > 0 and moves_in(record) == 5)
    filler = fill_disk(small_disk, player.proc.pid)
    player.send(*WON_153[5:10])
    player.wait_for(lambda: "could not be written" in player.stderr)
    if frees_up:
        filler.unlink()
        code = player.finish(*WON_153[10:], "quit")
        assert code == 0, player.stderr
        assert moves_in(record) == len(WON_153) and "Won, score 8." in player.stdout
        assert f"  foursquare replay {record}\n" in player.stdout
        return
    code = player.finish(*WON_153[10:20], "quit")
    assert code == 1
    assert player.stderr.count("No space left on device (the disk is full)") == 2  # once in play, once at the end
    assert moves_in(record) == 5  # the file is whole: its older game
    assert "the file misses 15 of the game's 20 moves" in player.stderr
    assert "The transcript is in" not in player.stdout and "Continue it" not in player.stdout
    (copy,) = _copies(copies)
    assert moves_in(copy) == 20
    assert f"The whole game is in {copy} instead: foursquare replay {copy}" in " ".join(player.stderr.split())
    assert f"\n  foursquare replay {copy}\n" in player.stderr  # the command on its own line
    assert f"Continue it:\n  foursquare play --resume {copy} --record {copy}\n" in player.stderr
    assert not list(small_disk.glob(".foursquare-*"))  # no temporary file left on the full disk


# ---------------------------------------------------------- item: two writers, one file


def _started_together(commands: list[list[str]], inputs: list[str]) -> list[subprocess.CompletedProcess[str]]:
    procs = [
        subprocess.Popen([*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        for args in commands
    ]
    results = []
    for proc, text in zip(procs, inputs, strict=True):
        out, err = proc.communicate(text, timeout=120)
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


REFUSED = re.compile(r"(in use: another foursquare command is writing it|the file exists and is not empty)")


@pytest.mark.parametrize("kind", ["record", "save", "output"])
def test_two_writers_started_together_exactly_one_wins(tmp_path, kind):
    """Two commands started together on one new file, many times: exactly one writes
    it, the other is refused in words naming the file (status 1); nothing is lost
    silently.  (Before the lock and the atomic creation, both passed the "file is
    empty" check and both said they had written it.)"""
    for attempt in range(6):
        target = tmp_path / f"same-{attempt}.yaml"
        if kind == "record":
            commands = [["play", "--deal", str(d), "--record", str(target)] for d in (1, 2)]
            inputs = ["d4\ne4\n", "d4\ne4\n"]
        elif kind == "save":
            commands = [["play", "--deal", str(d)] for d in (1, 2)]
            inputs = [f"d4\nsave {target}\n"] * 2
        else:
            target = target.with_suffix(".csv")
            commands = [["simulate", "--bot", "random", "--deals", f"{d}-{d}", "--output", str(target)] for d in (1, 2)]
            inputs = ["", ""]
        results = _started_together(commands, inputs)
        winners = [r for r in results if r.returncode == 0]
        losers = [r for r in results if r.returncode != 0]
        assert len(winners) == 1 and len(losers) == 1, [(r.returncode, r.stderr) for r in results]
        (loser,) = losers
        assert loser.returncode == 1 and "Traceback" not in loser.stderr
        assert loser.stderr.startswith(f"{target}: ") or f": {target}: " in loser.stderr, loser.stderr
        assert REFUSED.search(loser.stderr), loser.stderr
        won = results.index(winners[0])
        if kind == "output":
            assert target.read_text().splitlines()[1].split(",")[1] == str(won + 1)
        else:
            assert load_input(*read_source(str(target))).deal == won + 1
        assert not list(tmp_path.glob(".foursquare-*"))


@pytest.fixture
def resumable(tmp_path) -> Path:
    path = tmp_path / "game.yaml"
    assert invoke(["play", "--deal", "153", "--record", path], input="\n".join(WON_153[:3]) + "\n").exit_code == 0
    return path


def test_a_second_session_on_one_resume_file_is_refused_at_the_start(resumable):
    first = Player(["play", "--resume", str(resumable), "--record", str(resumable), "--interactive", "--ascii"])
    first.wait_for(lambda: "Card to place" in first.stdout or first.proc.poll() is not None)
    second = subprocess.run(
        [*COMMAND, "play", "--resume", str(resumable), "--record", str(resumable)], input=f"{WON_153[3]}\n",
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert second.returncode == 1 and second.stdout == ""
    assert second.stderr == f"{resumable}: in use: another foursquare command is writing it (one writer at a time); wait for it to end, or write another file\n"
    assert first.finish(WON_153[3], "quit") == 0
    assert moves_in(resumable) == 4  # the first session's move is kept


@pytest.mark.parametrize(
    "args, input",
    [
        (["play", "--deal", "1", "--interactive"], "save! {}\nquit\n"),
        (["play", "--deal", "1", "--interactive"], "state! {}\nquit\n"),
        (["play", "--deal", "1", "--script"], "d4\nsave! {}\n"),
        (["play", "--deal", "1", "--record", "{}", "--force"], "d4\n"),
        (["simulate", "--bot", "random", "--deals", "0-0", "--output", "{}", "--force"], ""),
        (["solve", "--deals", "0-0", "--max-nodes", "50", "--output", "{}", "--force"], ""),
    ],
)
def test_a_file_another_session_records_is_refused_by_every_writer(resumable, args, input):
    before = resumable.read_bytes()
    first = Player(["play", "--resume", str(resumable), "--record", str(resumable), "--interactive", "--ascii"])
    first.wait_for(lambda: "Card to place" in first.stdout or first.proc.poll() is not None)
    done = subprocess.run(
        [*COMMAND, *(a.format(resumable) for a in args)], input=input.format(resumable),
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert f"{resumable}: in use: another foursquare command is writing it" in done.stderr
    assert "Traceback" not in done.stderr
    if "--interactive" not in args:
        assert done.returncode == 1
    assert resumable.read_bytes() == before
    assert first.finish("quit") == 0


def test_a_session_saves_into_its_own_recording_while_it_holds_it(tmp_path):
    record = tmp_path / "rec.yaml"
    result = invoke(["play", "--deal", "1", "--record", record, "--interactive"], input=f"d4\nsave {record}\ne4\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "in use" not in result.stderr and moves_in(record) == 2


def test_a_refused_new_recording_leaves_no_empty_file(tmp_path):
    record = tmp_path / "new.yaml"
    result = invoke(["play", "--resume", tmp_path / "missing.yaml", "--record", record])
    assert result.exit_code == 1 and not record.exists()


# ------------------------------------------------------- item: a read-only file is refused

READ_ONLY = "the file is read-only (its mode has no write bit); make it writable (chmod u+w) or write another file"


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o044])
@pytest.mark.parametrize(
    "args, input",
    [
        (["play", "--resume", "{}", "--record", "{}"], "d4\n"),
        (["play", "--resume", "{}", "--record", "{}", "--interactive"], "d4\nquit\n"),
        (["play", "--deal", "1", "--record", "{}", "--force"], "d4\n"),
        (["simulate", "--bot", "random", "--deals", "0-0", "--output", "{}", "--force"], ""),
        (["solve", "--deals", "0-0", "--max-nodes", "50", "--output", "{}", "--force"], ""),
    ],
)
def test_a_read_only_file_is_refused_at_the_start_even_as_root(resumable, mode, args, input):
    """A file whose mode has no write bit for its owner is read-only, whoever runs the
    command (root too, for whom os.access says yes): refused before anything is
    played or computed, status 1, the file untouched."""
    resumable.chmod(mode)
    before = resumable.read_bytes()
    result = invoke([a.format(resumable) for a in args], input=input)
    assert result.exit_code == 1
    assert result.stderr == f"{resumable}: {READ_ONLY}\n"
    assert result.stdout == ""
    assert resumable.read_bytes() == before and stat.S_IMODE(resumable.stat().st_mode) == mode


@pytest.mark.parametrize("command", ["save", "save!", "state", "state!"])
@pytest.mark.parametrize("interactive", [True, False])
def test_save_and_state_refuse_a_read_only_file(tmp_path, command, interactive):
    target = tmp_path / "kept.yaml"
    target.write_text("")
    target.chmod(0o444)
    mode = ["--interactive"] if interactive else ["--script"]
    result = invoke(["play", "--deal", "1", *mode], input=f"d4\n{command} {target}\n")
    assert f"{target}: {READ_ONLY}" in result.stderr
    assert result.exit_code == (0 if interactive else 1)
    assert target.read_text() == "" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_writable_file_in_another_mode_is_not_refused(resumable):
    resumable.chmod(0o600)
    result = invoke(["play", "--resume", resumable, "--record", resumable], input=f"{WON_153[3]}\n")
    assert result.exit_code == 0, result.stderr
    assert moves_in(resumable) == 4 and stat.S_IMODE(resumable.stat().st_mode) == 0o600


def test_os_errors_are_words_everywhere():
    """No ``[Errno N]``: the boundary words an OS error from its number when it has no text."""
    from foursquare.cli.boundary import error_text

    assert error_text(OSError(28, None, "f.yaml")) == "f.yaml: No space left on device (the disk is full)"
    assert "Errno" not in error_text(OSError(5, "Input/output error", "f.yaml"))


# ------------------------------------------------------------- the lock across rewrites


def test_the_lock_follows_the_file_across_every_rewrite(tmp_path, monkeypatch):
    """The rename gives the path a new inode: it is locked before it is renamed, so a
    second claim is refused after any number of rewrites, and after a failed one
    (the old text kept, no temporary file); once released, the file can be claimed."""
    from foursquare.app import files

    path = tmp_path / "held.yaml"
    first = files.claim(str(path))
    assert path.read_text() == ""
    for text in ("one\n", "two\n"):
        first.rewrite(text)
        with pytest.raises(BlockingIOError, match="in use"):
            files.claim(str(path))
    real_write = os.write

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as caught:
        first.rewrite("three\n")
    monkeypatch.setattr(os, "write", real_write)
    assert caught.value.filename == str(path)
    assert path.read_text() == "two\n" and not list(tmp_path.glob(".foursquare-*"))
    with pytest.raises(BlockingIOError):
        files.claim(str(path))
    first.release()
    second = files.claim(str(path))
    assert second.size() == 4
    second.release()


def test_a_new_file_on_a_file_system_without_hard_links_appears_whole_and_never_over_another(tmp_path, monkeypatch):
    """Where a hard link is refused (EPERM, as on FAT), the new name is taken with
    O_EXCL and the written file renamed over it at once: the file appears whole, and
    one another command created meanwhile is refused, not overwritten."""
    import errno

    from foursquare.app import files

    def no_link(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_link)
    files.write_atomically(str(tmp_path / "new.yaml"), "one\n")
    assert (tmp_path / "new.yaml").read_text() == "one\n"
    held = files.claim(str(tmp_path / "taken.yaml"), whole=True)
    (tmp_path / "taken.yaml").write_text("theirs\n")  # another command, between the claim and the write
    with pytest.raises(FileExistsError, match="created it meanwhile"):
        held.rewrite("mine\n")
    held.release()
    assert (tmp_path / "taken.yaml").read_text() == "theirs\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["new.yaml", "taken.yaml"]  # no temporary file left


def test_a_claim_that_opened_the_old_file_before_a_rename_tries_the_new_one(tmp_path, monkeypatch):
    """A claim whose open came just before another writer's rename locks the old inode
    (free by then), sees that the path names another one, and tries again: refused by
    the new inode's lock."""
    from foursquare.app import files

    path = tmp_path / "held.yaml"
    path.write_text("old\n")
    stale = os.open(path, os.O_RDWR)  # the second writer's open, before the rename
    first = files.claim(str(path))
    first.rewrite("new\n")  # the path now names a new inode, locked; the old one is free
    real_open = os.open
    opened = []

    def open_(name, flags, *mode):
        if name == str(path) and not opened:
            opened.append(name)
            return stale  # as if opened before the rename
        return real_open(name, flags, *mode)

    monkeypatch.setattr(os, "open", open_)
    with pytest.raises(BlockingIOError, match="in use"):
        files.claim(str(path))
    assert opened == [str(path)]
    monkeypatch.setattr(os, "open", real_open)
    first.release()
    assert path.read_text() == "new\n"


@pytest.mark.parametrize(
    "args, done",
    [
        (["solve", "--deals", "0-300", "--max-nodes", "2000"], r"interrupted: (\d+) of 301 deals done"),
        (["simulate", "--bot", "greedy", "--deals", "0-300"], r"interrupted: (\d+) of 301 games played"),
    ],
)
def test_an_output_csv_that_cannot_be_written_stops_the_run_and_names_the_file(tmp_path, args, done):
    # (solve said 'error: No space left on device' with no file name and no summary)
    out = tmp_path / "out.csv"

    def limit() -> None:  # writes past 3000 bytes fail (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, resource.RLIM_INFINITY))

    run = subprocess.run([*COMMAND, *args, "--output", str(out)], capture_output=True, text=True, cwd=ROOT,
                         preexec_fn=limit, timeout=300)
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith(f"{out}: File too large"), run.stderr
    assert "Traceback" not in run.stderr
    found = re.search(done, run.stdout)
    assert found, run.stdout
    rows = out.read_text().splitlines()[1:]
    kept = int(found.group(1))
    deal_column = 0 if args[0] == "solve" else 1
    assert 0 < kept < 301 and [row.split(",")[deal_column] for row in rows[: kept - 1]] == [str(d) for d in range(kept - 1)]


def test_a_file_name_too_long_for_the_system_is_shown_short(tmp_path):
    # (save with a million-character name printed the whole name back, 1 MB of stderr)
    name = "a" * 1_000_000
    run = subprocess.run([*COMMAND, "play", "--deal", "1"], input=f"d4\nsave {name}\nquit\n", capture_output=True,
                         text=True, cwd=tmp_path, timeout=60)
    assert "File name too long" in run.stderr and len(run.stderr) < 2000, run.stderr[:300]


# ------------------------------------- a kill -9 leaves a new file whole or absent, no stray files


def _killed_after(args: list[str], lines: bytes, marker: bytes, cwd: Path) -> None:
    """Run ``foursquare ARGS``, type ``lines``, read its stdout until ``marker`` has been
    printed (the pipe is the synchronisation: no sleep), then ``kill -9`` it."""
    proc = subprocess.Popen([*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines)
    proc.stdin.flush()
    seen = b""
    while marker not in seen:
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, (seen, proc.communicate(timeout=60))
        seen += chunk
    proc.kill()
    proc.communicate(timeout=60)
    assert proc.returncode == -9


@pytest.mark.parametrize(
    "mode, marker, moves",
    [
        (["--interactive"], b"3C> ", 1),  # the prompt after the first move: the file holds it
        (["-v"], b"Last move: 2D to d4", 0),  # a piped script: its first document, from the start
    ],
)
def test_a_new_recording_killed_with_sigkill_is_whole_and_resumes(tmp_path, mode, marker, moves):
    """(A kill -9 left a 0-byte recording, and '--resume' of it said 'the file is empty'.)"""
    record = tmp_path / "game.yaml"
    _killed_after(["play", "--deal", "1", "--record", str(record), "--ascii", *mode], b"d4\n", marker, tmp_path)
    assert moves_in(record) == moves
    assert not list(tmp_path.glob(".foursquare-*"))
    done = subprocess.run(
        [*COMMAND, "play", "--resume", str(record), "--record", str(record)], input="e4\n" if moves else "d4\n",
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert moves_in(record) == moves + 1


#: A writer of ours that stops (and is killed) after its temporary file is written and
#: synced, before the rename: the window where a kill leaves a temporary file behind.
_STOPPED_WRITER = """
import os, sys
from foursquare.app import files
real_fsync = os.fsync
def fsync(fd):
    real_fsync(fd)
    sys.stdout.write("written\\n")
    sys.stdout.flush()
    sys.stdin.readline()  # killed here
os.fsync = fsync
files.write_atomically(sys.argv[1], "foursquare: 1\\ndeal: 1\\nmoves: []\\n")
"""


def _writer_killed_before_its_rename(target: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _STOPPED_WRITER, str(target)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"written\n"
    proc.kill()
    proc.communicate(timeout=60)


@pytest.mark.parametrize("existing", [False, True])
def test_a_writer_killed_before_its_rename_leaves_the_file_whole_and_a_temporary_file_named_as_ours(tmp_path, existing):
    """(Retired: the next run no longer removes it.)  The old text stays whole, or a new
    file does not appear; what remains is a temporary file whose name says it is ours."""
    target = tmp_path / "saved.yaml"
    if existing:
        target.write_text("old\n")
    _writer_killed_before_its_rename(target)
    (left,) = tmp_path.glob(".foursquare-*.tmp")
    assert re.fullmatch(r"\.foursquare-\w+\.tmp", left.name)
    if existing:
        assert target.read_text() == "old\n"  # the old text whole
    else:
        assert not target.exists()  # a new file appears whole or not at all
    result = invoke(["play", "--deal", "1", "--record", tmp_path / "other.yaml"], input="d4\n")
    assert result.exit_code == 0, result.stderr


# ------------------------------------------- a writable file in a folder that refuses new names


@pytest.fixture
def refusing_folder(tmp_path) -> Iterator[Path]:
    """A folder that refuses new names (temporary files, renames) while its files stay
    writable, even for root, who ignores a folder's mode bits: ``chattr +i``.  Skipped
    where the file system or the user cannot set it."""
    folder = tmp_path / "kept"
    folder.mkdir()
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (root ignores a folder's mode bits: no other way to make it refuse)")
    try:
        probe = folder / "probe"
        with contextlib.suppress(OSError):
            probe.write_text("")
        if probe.exists():
            pytest.skip("chattr +i does not make the folder refuse new names here")
        yield folder
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


FOLDER_REFUSED = "Operation not permitted: its folder refuses new files, so the file was left as it was"


def _recorded_in(folder: Path) -> Path:
    """A recording of deal 153 after 3 moves, made in ``folder`` before it refuses new names."""
    path = folder / "game.yaml"
    subprocess.run(["chattr", "-i", str(folder)], check=True)
    try:
        assert invoke(["play", "--deal", "153", "--record", path], input="\n".join(WON_153[:3]) + "\n").exit_code == 0
    finally:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
    return path


@pytest.mark.parametrize("interactive", [True, False])
def test_a_recording_in_a_folder_that_refuses_new_names_is_refused_and_left_untouched(refusing_folder, interactive):
    """(Retired: it was rewritten in place.)  One line names the file, which keeps its text."""
    record = _recorded_in(refusing_folder)
    before = record.read_bytes()
    mode = ["--interactive"] if interactive else []
    result = invoke(["play", "--resume", record, "--record", record, *mode], input="\n".join(WON_153[3:6]) + "\n")
    assert result.exit_code == 1, result.stderr
    assert f"{record}: {FOLDER_REFUSED}" in result.stderr and "Traceback" not in result.stderr
    assert record.read_bytes() == before and os.listdir(refusing_folder) == ["game.yaml"]


@pytest.mark.parametrize("command", ["save!", "state!"])
def test_save_in_a_folder_that_refuses_new_names_is_refused_and_leaves_the_file_untouched(refusing_folder, command):
    old = _recorded_in(refusing_folder)
    before = old.read_bytes()
    result = invoke(["play", "--deal", "1", "--interactive"], input=f"d4\n{command} {old}\n{command} {refusing_folder / 'new.yaml'}\n")
    assert f"{old}: {FOLDER_REFUSED}" in result.stderr
    assert f"new.yaml: {FOLDER_REFUSED}" in result.stderr
    assert old.read_bytes() == before and sorted(os.listdir(refusing_folder)) == ["game.yaml"]
