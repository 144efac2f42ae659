"""The history with real processes on a real file: several prompts writing it at once,
a prompt killed with SIGKILL mid-game, a file locked by another program, a write
over the size limit (as a full disk), a read-only or refused file."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading

from helpers import ROOT, cells, fill_disk, mount_tmpfs, wait_for

from foursquare.history.store import HistoryStore

COMMAND = [sys.executable, "-m", "foursquare"]


def env(home) -> dict[str, str]:
    return dict(os.environ, FOURSQUARE_HOME=str(home), PYTHONUNBUFFERED="1", NO_COLOR="1")


def run(home, *args, input=None, **kwargs):
    return subprocess.run(
        [*COMMAND, *map(str, args)], input=input, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env(home), **kwargs
    )


def records(home):
    return HistoryStore.open(str(home / "history.sqlite3")).records()


class Prompt:
    """A ``play --interactive`` process fed line by line, its stderr read as it comes."""

    def __init__(self, home, deal: int) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, "play", "--deal", str(deal), "--interactive", "--ascii"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env(home),
        )
        self.stderr = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for chunk in iter(lambda: self.process.stderr.read1(4096), b""):  # type: ignore[union-attr]
            self.stderr += chunk

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.process.stdin.flush()

    def finish(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(120)
        self._reader.join(10)
        return code


def test_several_prompts_at_once_all_keep_their_whole_game(tmp_path):
    deals = [31, 32, 33, 34]
    games = {deal: cells(deal, 8) for deal in deals}
    prompts = [Prompt(tmp_path, deal) for deal in deals]
    for step in range(8):  # interleaved: every process writes after each of its moves
        for deal, p in zip(deals, prompts, strict=True):
            if step < len(games[deal]):
                p.send(games[deal][step])
    for p in prompts:
        p.send("quit")
    assert [p.finish() for p in prompts] == [0] * len(deals)
    for p in prompts:
        assert b"NOT in the history" not in p.stderr, p.stderr
    got = {r.deal: r for r in records(tmp_path)}
    assert sorted(got) == deals
    for deal in deals:
        assert got[deal].moves == len(games[deal]) and got[deal].ended is not None
    assert json.loads(run(tmp_path, "stats", "--format", "json").stdout)["stopped"] == len(deals)


def test_a_prompt_killed_mid_game_leaves_the_game_so_far_and_stats_shows_it(tmp_path):
    moves = cells(41, 5)
    p = Prompt(tmp_path, 41)
    p.send(*moves)
    assert wait_for(lambda: os.path.exists(tmp_path / "history.sqlite3") and any(r.moves == 5 for r in records(tmp_path)))
    p.process.send_signal(signal.SIGKILL)
    assert p.finish() == -signal.SIGKILL
    (record,) = records(tmp_path)
    assert (record.deal, record.moves, record.ended) == (41, 5, None)
    stats = run(tmp_path, "stats")
    assert stats.returncode == 0 and "1 stopped before the end" in stats.stdout
    listed = run(tmp_path, "history")
    from foursquare.cli.history import NO_END

    assert listed.stdout.splitlines()[1].endswith(NO_END)  # neutral: it may be playing at another prompt
    assert NO_END == "in progress or stopped (no end recorded)" and "killed" not in NO_END
    (row,) = json.loads(run(tmp_path, "history", "--format", "json").stdout)
    assert (row["status"], row["ended"]) == ("playing", None)  # the JSON says it as it was
    exported = run(tmp_path, "history", "export")
    assert run(tmp_path, "validate", "-", input=exported.stdout).returncode == 0


def test_a_locked_history_warns_once_the_game_goes_on_and_nothing_is_lost(tmp_path):
    moves = cells(42, 4)
    assert run(tmp_path, "play", "--deal", 7, "--history", input="d4\n").returncode == 0  # the file exists
    holder = sqlite3.connect(tmp_path / "history.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    p = Prompt(tmp_path, 42)
    p.send(moves[0], moves[1])
    assert wait_for(lambda: b"the history cannot take the game now" in p.stderr), p.stderr
    holder.execute("COMMIT")
    p.send(moves[2], moves[3], "quit")
    assert p.finish() == 0
    err = p.stderr.decode()
    assert err.count("the history cannot take the game now") == 1
    assert "database is locked (another foursquare command or program is writing it)" in err
    assert "the history holds the game again" in err
    got = {r.deal: r.moves for r in records(tmp_path)}
    assert got == {7: 1, 42: 4}


def _size_limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))


def test_a_write_over_the_size_limit_warns_and_the_game_and_the_old_games_stay(tmp_path):
    # RLIMIT_FSIZE makes every write past 8 KiB fail (EFBIG), as a full disk does
    assert run(tmp_path, "play", "--deal", 7, "--history", input="d4\ne4\n").returncode == 0
    done = subprocess.run(
        [*COMMAND, "play", "--deal", "43", "--interactive", "--ascii"], input="\n".join(cells(43, 6) + ["quit"]) + "\n",
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env(tmp_path), preexec_fn=_size_limit,
    )
    assert done.returncode == 0
    assert "Stopped after 6 cards placed." in done.stdout
    assert done.stderr.count("the history cannot take the game now") == 1
    assert "the game is NOT in the history as it stands" in done.stderr
    assert "Traceback" not in done.stderr
    assert {r.deal: r.moves for r in records(tmp_path)}.get(7) == 2


def test_a_read_only_history_warns_and_is_left_as_it_is(tmp_path):
    assert run(tmp_path, "play", "--deal", 7, "--history", input="d4\n").returncode == 0
    path = tmp_path / "history.sqlite3"
    os.chmod(path, 0o444)
    before = path.read_bytes()
    done = run(tmp_path, "play", "--deal", 8, "--interactive", "--ascii", input="d4\nquit\n")
    assert done.returncode == 0 and "Stopped after 1 card placed." in done.stdout
    assert "the history file is read-only" in done.stderr
    assert path.read_bytes() == before
    assert "1 stopped" in run(tmp_path, "stats").stdout


def test_a_newer_or_corrupt_history_is_refused_by_the_real_program(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"\x00\x01 not sqlite at all")
    stats = run(tmp_path, "stats")
    assert stats.returncode == 1 and stats.stderr.startswith(f"{path}: not a foursquare history")
    db = tmp_path / "newer"
    db.mkdir()
    con = sqlite3.connect(db / "history.sqlite3")
    con.execute("PRAGMA user_version = 99")
    con.execute("CREATE TABLE games (x)")
    con.commit()
    con.close()
    before = (db / "history.sqlite3").read_bytes()
    done = run(db, "play", "--deal", 1, "--interactive", input="d4\nquit\n")
    assert done.returncode == 0 and "schema version 99" in done.stderr
    assert run(db, "history").returncode == 1
    assert (db / "history.sqlite3").read_bytes() == before


def test_a_real_full_disk_mid_game_warns_once_and_the_game_is_whole_when_it_frees_up(tmp_path):
    home = tmp_path / "disk"
    home.mkdir()
    if not mount_tmpfs(home, "256k"):
        import pytest

        pytest.skip("cannot mount a small tmpfs here (needs root and mount)")
    try:
        assert run(home, "play", "--deal", 7, "--history", input="d4\ne4\n").returncode == 0
        moves = cells(44, 12)
        p = Prompt(home, 44)
        p.send(*moves[:3])
        assert wait_for(lambda: {r.deal: r.moves for r in records(home)}.get(44) == 3)
        filler = fill_disk(home, p.process.pid)
        p.send(*moves[3:8])
        assert wait_for(lambda: b"the history cannot take the game now" in p.stderr), p.stderr
        filler.unlink()
        p.send(*moves[8:], "quit")
        assert p.finish() == 0
        err = p.stderr.decode()
        assert err.count("the history cannot take the game now") == 1 and "(the disk is full)" in err
        assert "the history holds the game again" in err and "NOT in the history" not in err
        assert {r.deal: r.moves for r in records(home)} == {7: 2, 44: len(moves)}
    finally:
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


def test_a_file_as_the_data_folder_is_refused_by_the_real_program(tmp_path):
    # echo hi > afile; FOURSQUARE_HOME=afile foursquare stats
    home = tmp_path / "afile"
    home.write_text("hi\n")
    said = set()
    for args in (["stats"], ["history"], ["history", "export"]):
        done = run(home, *args)
        assert (done.returncode, done.stdout) == (1, ""), args
        said.add(done.stderr)
    assert said == {f"{home / 'history.sqlite3'}: cannot read the history: {home} is a file, not a folder\n"}


# ------------------------------------------------ a history the machine refuses, with real processes

READERS = (["stats"], ["history"], ["history", "export"])

#: Another program holding the history: SQLite's exclusive lock, kept until its stdin closes.
HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode = EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("SELECT count(*) FROM games").fetchall()
print("held", flush=True)
sys.stdin.read()
"""


def test_a_history_locked_by_another_process_is_refused_in_words_by_every_reader(tmp_path):
    assert run(tmp_path, "play", "--deal", 7, "--history", input="d4\n").returncode == 0
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "history.sqlite3")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        for args in READERS:
            done = run(tmp_path, *args)
            assert (done.returncode, done.stdout) == (1, ""), args
            assert done.stderr == (
                f"{tmp_path / 'history.sqlite3'}: cannot read the history:"
                " database is locked (another foursquare command or program is writing it)\n"
            ), args
    finally:
        holder.communicate("")
    assert run(tmp_path, "stats").returncode == 0


def _read_only_mount(folder, *args: str) -> list[str] | None:
    """The command line that runs ``foursquare ARGS`` with ``folder`` on a read-only
    file system (a read-only bind mount in a mount namespace of its own, which ends
    with the command); ``None`` where that cannot be done (needs root and unshare)."""
    import shlex
    import shutil

    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return None
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind -o ro {shlex.quote(str(folder))} {shlex.quote(str(folder))}"],
                           capture_output=True)
    if probe.returncode != 0:
        return None
    mount = f"mount --bind -o ro {shlex.quote(str(folder))} {shlex.quote(str(folder))}"
    return ["unshare", "-m", "sh", "-c", f'{mount} && exec "$@"', "sh", *COMMAND, *args]


def test_a_history_on_a_read_only_file_system_is_read_as_it_is(tmp_path):
    assert run(tmp_path, "play", "--deal", 7, "--history", input="d4\ne4\n").returncode == 0
    before = sorted(os.listdir(tmp_path))
    if _read_only_mount(tmp_path, "stats") is None:
        import pytest

        pytest.skip("cannot mount a folder read-only here (needs root, unshare and mount)")
    for args in READERS:
        expected = run(tmp_path, *args)
        line = _read_only_mount(tmp_path, *args)
        assert line is not None
        done = subprocess.run(line, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env(tmp_path))
        assert (done.returncode, done.stdout, done.stderr) == (0, expected.stdout, ""), args
    line = _read_only_mount(tmp_path, "play", "--deal", "8", "--interactive", "--ascii")
    assert line is not None
    played = subprocess.run(line, input="d4\nquit\n", capture_output=True, text=True, timeout=120, cwd=ROOT, env=env(tmp_path))
    assert played.returncode == 0 and "Stopped after 1 card placed." in played.stdout
    assert "the game is NOT in the history as it stands: unable to open database file (SQLite cannot open it" in played.stderr
    assert "Traceback" not in played.stderr
    assert sorted(os.listdir(tmp_path)) == before
    assert [r.deal for r in records(tmp_path)] == [7]


def test_a_fifo_named_like_the_history_is_refused_by_every_command_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "history.sqlite3")
    message = f"{tmp_path / 'history.sqlite3'}: cannot read the history: it is a FIFO (named pipe), not a file"
    for args in [*READERS, ["history", "import", ROOT / "examples" / "won.yaml"]]:
        done = run(tmp_path, *args)  # a command that opened the FIFO would wait: run's timeout fails it
        assert (done.returncode, done.stdout, done.stderr) == (1, "", message + "\n"), args
    played = run(tmp_path, "play", "--deal", 1, "--history", input="d4\nquit\n")
    assert played.returncode == 0 and played.stderr == message + ". This game is not recorded in the history.\n"


def test_a_game_resumed_by_real_processes_from_a_state_without_moves_is_one_game(tmp_path):
    from foursquare.engine.game import Game
    from foursquare.formats.state import state_text

    game = Game.from_deal(6)
    for cell in cells(6, 2):
        game.play(cell)
    grid = {str(cell): (list(pile.cards), pile.face_up) for cell, pile in game.grid.items()}
    (tmp_path / "s.yaml").write_text(state_text(Game.from_position(grid, game.deck[game.placed :], game.rules, 6)))
    record = tmp_path / "r.yaml"
    after = cells(6, 4)[2:]
    for start, lines in (("s.yaml", f"{after[0]}\nquit\n"), ("r.yaml", "quit\n"), ("r.yaml", f"{after[1]}\nquit\n")):
        done = run(tmp_path, "play", "--resume", tmp_path / start, "--record", record, "--interactive", input=lines)
        assert done.returncode == 0, done.stderr
    stats = run(tmp_path, "stats", "--format", "json")
    assert (json.loads(stats.stdout)["played"], json.loads(stats.stdout)["stopped"]) == (0, 1)
    exported = run(tmp_path, "history", "export")
    assert (exported.returncode, exported.stdout) == (0, "")
    assert exported.stderr.startswith("The history holds 1 game, resumed from a position without its moves:")
