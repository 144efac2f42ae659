"""``play`` keeps its games in the history; ``foursquare history`` lists, exports and
imports them; ``foursquare stats`` sums them up (CliRunner, a real SQLite file in
the test's own FOURSQUARE_HOME)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3

import pytest
from helpers import EXAMPLES, cells, history_file, invoke

from foursquare.engine.game import Game
from foursquare.formats.transcript import validate
from foursquare.history.store import SCHEMA_VERSION, HistoryStore


def records():
    return HistoryStore.open(history_file()).records()


def prompt(deal: int, lines: list[str], *extra: str):
    return invoke(["play", "--deal", deal, "--interactive", "--ascii", *extra], input="".join(f"{x}\n" for x in lines))


def test_a_game_at_the_prompt_is_recorded_with_its_moves_hints_and_times():
    done = prompt(1, [*cells(1, 3), "hint", "quit"])
    assert done.exit_code == 0, done.output
    (record,) = records()
    assert (record.deal, record.moves, record.rules, record.source.value) == (1, 3, "standard", "prompt")
    assert record.hints == 1
    assert record.started is not None and record.ended is not None and record.started <= record.ended
    (report,) = validate(record.record, "row")
    assert report.valid and len(report.game.moves) == 3


def test_undo_is_recorded_as_the_game_stands():
    prompt(1, ["d4", "e4", "undo", "quit"])
    (record,) = records()
    assert record.moves == 1


def test_a_piped_script_is_recorded_only_with_history_and_no_history_skips_the_prompt():
    script = "".join(f"{c}\n" for c in cells(2, 4))
    assert invoke(["play", "--deal", 2], input=script).exit_code == 0
    assert not os.path.exists(history_file())
    assert prompt(3, ["d4", "quit"], "--no-history").exit_code == 0
    assert not os.path.exists(history_file())
    assert invoke(["play", "--deal", 2, "--history"], input=script).exit_code == 0
    (record,) = records()
    assert (record.deal, record.moves, record.source.value) == (2, 4, "script")


def test_a_loss_taken_back_at_the_prompt_is_still_lost_in_history_and_stats():
    game = Game.from_deal(2)
    while not game.is_over:
        game.play(game.legal_cells()[0])
    assert prompt(2, [str(m.cell) for m in game.moves] + ["undo", "quit"]).exit_code == 0
    (row,) = json.loads(invoke(["history", "--format", "json"]).stdout)
    assert (row["status"], row["reason"], row["moves"]) == ("lost", game.reason.value, len(game.moves) - 1)
    stats = json.loads(invoke(["stats", "--format", "json"]).stdout)
    assert (stats["played"], stats["lost"], stats["stopped"]) == (1, 1, 0)

def test_a_whole_won_game_and_a_lost_one_give_the_stats():
    invoke(["play", "--deal", 89, "--history"], input=(EXAMPLES / "deal89.moves").read_text())
    assert invoke(["history", "import", EXAMPLES / "lost.yaml"]).exit_code == 0
    assert invoke(["history", "import", EXAMPLES / "won.yaml"]).exit_code == 0
    prompt(5, ["d4", "quit"])
    done = invoke(["stats", "--format", "json"])
    assert done.exit_code == 0
    stats = json.loads(done.stdout)
    # deal89.moves wins with 4, won.yaml with 8, lost.yaml loses: in the order they ended
    assert (stats["played"], stats["won"], stats["lost"], stats["stopped"]) == (3, 2, 1, 1)
    assert stats["best_score"] == 8 and stats["mean_score"] == 6.0
    assert (stats["current_streak"], stats["longest_streak"]) == (1, 1)
    low, high = stats["win_interval"]
    assert 0 < low < 2 / 3 < high < 1
    assert stats["scores"] == {"4": 1, "8": 1}
    assert set(stats["by_rules"]) == {"standard"}
    text = invoke(["stats", "--histogram"]).stdout
    assert "Games played: 3 (won 2, lost 1); 1 stopped before the end" in text
    assert "Won: 66.7% (95% interval" in text and "best 8" in text
    assert " 8 | ###" in text and " 5 | 0" in text


def test_stats_by_rule_set():
    prompt(1, cells(1, 2) + ["quit"])
    three = invoke(["play", "--deal", 4, "--rules", "three-square", "--interactive"], input="d4\nquit\n")
    assert three.exit_code == 0
    stats = json.loads(invoke(["stats", "--format", "json"]).stdout)
    assert {name: s["stopped"] for name, s in stats["by_rules"].items()} == {"standard": 1, "three-square": 1}
    assert "By rule set:" in invoke(["stats"]).stdout


def test_an_empty_history_says_so():
    done = invoke(["stats"])
    assert done.exit_code == 0 and "No games in the history yet" in done.stdout
    assert json.loads(invoke(["stats", "--format", "json"]).stdout)["played"] == 0
    assert "No games" in invoke(["history"]).stdout
    assert not os.path.exists(history_file())  # reading creates nothing


def test_history_lists_newest_first_with_limit_and_json():
    for deal in (11, 12, 13):
        prompt(deal, [*cells(deal, 2), "quit"])
    lines = invoke(["history"]).stdout.splitlines()
    assert lines[0].split()[:3] == ["#", "started", "rules"]
    assert [line.split()[4] for line in lines[1:]] == ["13", "12", "11"]
    assert [line.split()[0] for line in lines[1:]] == ["3", "2", "1"]
    limited = invoke(["history", "--limit", 2]).stdout.splitlines()
    assert len(limited) == 3
    rows = json.loads(invoke(["history", "--format", "json", "--limit", 1]).stdout)
    assert [(r["game"], r["deal"], r["moves"], r["status"]) for r in rows] == [(3, 13, 2, "playing")]
    assert invoke(["history", "--limit", 0]).exit_code == 2


def test_export_validates_and_replay_game_k_replays_the_game_of_that_number(tmp_path):
    for deal in (21, 22):
        prompt(deal, [*cells(deal, 3 + deal - 21), "quit"])
    out = tmp_path / "all.yaml"
    assert invoke(["history", "export", out]).exit_code == 0
    assert invoke(["validate", out]).exit_code == 0
    reports = validate(out.read_text(), str(out))
    assert [r.game.deal for r in reports] == [21, 22]
    done = invoke(["replay", out, "--game", 2, "--final", "--ascii"])
    assert done.exit_code == 0 and "deal 22, 4 moves" in done.stdout
    # to stdout as well; an existing file is not overwritten without --force
    assert invoke(["history", "export"]).stdout == out.read_text()
    again = invoke(["history", "export", out])
    assert again.exit_code == 1 and "--force" in again.stderr
    assert invoke(["history", "export", out, "--force"]).exit_code == 0


def test_export_of_an_empty_history_writes_nothing(tmp_path):
    done = invoke(["history", "export", tmp_path / "x.yaml"])
    assert done.exit_code == 0 and "no game" in done.stderr and not (tmp_path / "x.yaml").exists()


def test_import_refuses_a_bad_file_naming_file_and_line_and_adds_nothing(tmp_path):
    invoke(["history", "import", EXAMPLES / "won.yaml"])
    done = invoke(["history", "import", EXAMPLES / "invalid.yaml"])
    assert done.exit_code == 1
    assert "examples/invalid.yaml:13: game 2, move 2: claim flipped" in done.stderr.replace(str(EXAMPLES.parent) + "/", "")
    assert "nothing imported" in done.stderr
    assert len(records()) == 1  # the valid game 1 of invalid.yaml was not added either
    state = invoke(["history", "import", EXAMPLES / "state.yaml"])
    assert state.exit_code == 1 and "state.yaml" in state.stderr and "is a state" in state.stderr
    missing = invoke(["history", "import", tmp_path / "none.yaml"])
    assert missing.exit_code == 1 and "no such file" in missing.stderr


def test_import_of_a_game_already_there_adds_nothing_and_stdin_is_read():
    text = (EXAMPLES / "won.yaml").read_text()
    assert "Imported 1 game" in invoke(["history", "import", "-"], input=text).stdout
    again = invoke(["history", "import", EXAMPLES / "won.yaml"])
    assert "Imported 0 games" in again.stdout and "1 already in the history" in again.stdout
    assert len(records()) == 1


def _newer():
    os.makedirs(os.path.dirname(history_file()), exist_ok=True)
    db = sqlite3.connect(history_file())
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 4}")
    db.commit()
    db.close()


def _corrupt():
    os.makedirs(os.path.dirname(history_file()), exist_ok=True)
    with open(history_file(), "w") as f:
        f.write("my notes, not a database\n")


@pytest.mark.parametrize("make, words", [(_newer, "newer foursquare"), (_corrupt, "not a foursquare history")])
def test_a_refused_history_is_an_error_for_stats_history_and_import_and_a_warning_for_play(make, words):
    make()
    with open(history_file(), "rb") as f:
        before = f.read()
    for args in (["stats"], ["history"], ["history", "export"], ["history", "import", EXAMPLES / "won.yaml"]):
        done = invoke(args)
        assert done.exit_code == 1, args
        assert words in done.stderr and "history.sqlite3" in done.stderr and "Traceback" not in done.output
    played = prompt(1, ["d4", "e4", "quit"])
    assert played.exit_code == 0
    assert words in played.stderr and "This game is not recorded in the history." in played.stderr
    assert "Stopped after 2 cards placed." in played.stdout  # the game went on
    with open(history_file(), "rb") as f:
        assert f.read() == before


def test_a_game_resumed_from_its_recording_continues_its_row_in_the_history(tmp_path):
    record = tmp_path / "g.yaml"
    moves = cells(17, 6)
    assert prompt(17, [*moves[:3], "quit"], "--record", record).exit_code == 0
    done = invoke(["play", "--resume", record, "--record", record, "--interactive", "--ascii"],
                  input="".join(f"{m}\n" for m in moves[3:]) + "quit\n")
    assert done.exit_code == 0, done.output
    (row,) = records()
    assert (row.deal, row.moves) == (17, 6)
    # a game resumed elsewhere (not where a stopped game of the history stands) is a new row
    assert prompt(17, [*moves[:2], "quit"]).exit_code == 0
    assert [r.moves for r in records()] == [6, 2]


# ------------------------------------------------ one game, one row: a game resumed from a state without its moves


def _state_without_moves(path, deal: int, n: int) -> Game:
    """Write the state of deal ``deal`` after its first ``n`` moves, without its moves
    (as ``state --after`` of a state, or a state edited by hand): resumed, the game
    starts from the position; return the game that stood there."""
    from foursquare.formats.state import state_text

    game = Game.from_deal(deal)
    for cell in cells(deal, n):
        game.play(cell)
    grid = {str(cell): (list(pile.cards), pile.face_up) for cell, pile in game.grid.items()}
    position = Game.from_position(grid, game.deck[game.placed :], game.rules, game.deal)
    text = state_text(position)
    assert "moves" not in text
    path.write_text(text)
    return game


def _resume(path, lines: list[str], *extra: object):
    done = invoke(["play", "--resume", path, "--interactive", "--ascii", *extra], input="".join(f"{x}\n" for x in lines))
    assert done.exit_code == 0, done.output
    return done


def _next_cell(game: Game) -> str:
    cell = str(game.legal_cells()[0])
    game.play(cell)
    return cell


def test_a_game_resumed_from_a_state_without_moves_is_one_row_however_often_it_is_resumed(tmp_path):
    start, record = tmp_path / "s.yaml", tmp_path / "r.yaml"
    game = _state_without_moves(start, 6, 2)
    _resume(start, [_next_cell(game), "quit"], "--record", record)  # its recording is a state: no moves either
    _resume(record, ["quit"], "--record", record)  # looked at and left
    _resume(record, [_next_cell(game), "hint", "quit"], "--record", record)
    (row,) = records()
    assert (row.kind.value, row.deal, row.moves, row.hints, row.status.value) == ("state", 6, 2, 1, "playing")
    assert row.ended is not None
    assert "1 stopped before the end" in invoke(["stats"]).stdout
    # the same position resumed again continues the same row; a new game of the deal is a row of its own
    _resume(record, [_next_cell(game), "quit"], "--record", record)
    assert [r.moves for r in records()] == [3]
    assert prompt(6, [cells(6, 1)[0], "quit"]).exit_code == 0
    assert [r.moves for r in records()] == [3, 1]


def test_a_game_kept_as_a_transcript_resumed_from_its_state_without_moves_stays_one_exportable_row(tmp_path):
    moves = cells(6, 4)
    assert prompt(6, [*moves[:3], "quit"]).exit_code == 0
    start = tmp_path / "s.yaml"
    game = _state_without_moves(start, 6, 3)
    _resume(start, [moves[3], "quit"])
    assert _next_cell(game) == moves[3]
    (row,) = records()
    assert (row.kind.value, row.moves) == ("transcript", 4)
    exported = invoke(["history", "export"])
    assert exported.exit_code == 0 and exported.stderr == ""
    (report,) = validate(exported.stdout, "exported")
    assert report.valid and report.game is not None
    assert [str(p.cell) for p in report.game.moves] == moves


def test_history_export_says_by_count_what_it_cannot_export(tmp_path):
    _state_without_moves(tmp_path / "a.yaml", 6, 2)
    _resume(tmp_path / "a.yaml", [str(_state_without_moves(tmp_path / "b.yaml", 6, 2).legal_cells()[0]), "quit"])
    one = invoke(["history", "export"])
    assert (one.exit_code, one.stdout) == (0, "")
    assert one.stderr == (
        "The history holds 1 game, resumed from a position without its moves: a transcript needs every move; nothing written.\n"
    )
    game = _state_without_moves(tmp_path / "c.yaml", 9, 3)
    _resume(tmp_path / "c.yaml", [_next_cell(game), "quit"])
    two = invoke(["history", "export", tmp_path / "out.yaml"])
    assert two.exit_code == 0 and not (tmp_path / "out.yaml").exists()
    assert two.stderr.startswith("The history holds 2 games, all resumed from a position without their moves:")
    assert prompt(1, ["d4", "quit"]).exit_code == 0
    three = invoke(["history", "export"])
    assert three.exit_code == 0 and three.stdout.count("foursquare: 1") == 1
    assert three.stderr == "2 games resumed from a position without their moves left out (a transcript needs every move).\n"


# ------------------------------------------------ a data folder that cannot hold a history


def _a_file(tmp_path):
    (tmp_path / "afile").write_text("hi\n")
    return tmp_path / "afile"


def _below_a_file(tmp_path):
    return _a_file(tmp_path) / "sub" / "deeper"


def _a_link_loop(tmp_path):
    os.symlink("loop", tmp_path / "loop")
    return tmp_path / "loop"


READERS = (
    ["stats"], ["stats", "--format", "json"], ["history"], ["history", "--format", "json"], ["history", "--limit", "2"],
    ["history", "export"], ["history", "import", EXAMPLES / "won.yaml"],
)


@pytest.mark.parametrize("make, why", [(_a_file, "is a file, not a folder"), (_below_a_file, "is a file, not a folder"),
                                       (_a_link_loop, "symbolic links")], ids=["a file", "below a file", "a link loop"])
def test_an_unusable_data_folder_is_one_refusal_for_every_reader_and_a_warning_for_play(make, why, tmp_path, monkeypatch):
    home = make(tmp_path)
    monkeypatch.setenv("FOURSQUARE_HOME", str(home))
    said = set()
    for args in READERS:
        done = invoke(args)
        assert (done.exit_code, done.stdout) == (1, ""), (args, done.output)
        said.add(done.stderr)
    (message,) = said  # one message, whichever command reads the history
    assert message.count("\n") == 1 and message.startswith(f"{home / 'history.sqlite3'}: cannot read the history: ")
    assert why in message
    played = prompt(1, ["d4", "quit"])
    assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout  # the game is played
    assert played.stderr == message.rstrip("\n") + ". This game is not recorded in the history.\n"
    if (tmp_path / "afile").exists():
        assert (tmp_path / "afile").read_text() == "hi\n"  # left as it was


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="a folder's permissions (root passes them)")
def test_a_data_folder_that_cannot_be_searched_is_refused_too(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("FOURSQUARE_HOME", str(home))
    os.chmod(home, 0o000)
    try:
        for args in READERS:
            done = invoke(args)
            assert done.exit_code == 1 and "cannot read the history: Permission denied" in done.stderr, args
    finally:
        os.chmod(home, 0o700)


def test_a_data_folder_that_does_not_exist_yet_is_an_empty_history(tmp_path, monkeypatch):
    home = tmp_path / "none" / "yet"
    monkeypatch.setenv("FOURSQUARE_HOME", str(home))
    assert "No games in the history yet" in invoke(["stats"]).stdout
    assert json.loads(invoke(["stats", "--format", "json"]).stdout)["played"] == 0
    assert invoke(["history", "--format", "json"]).stdout.strip() == "[]"
    assert invoke(["history", "export"]).exit_code == 0
    assert not home.exists()  # reading makes nothing
    assert "Imported 1 game" in invoke(["history", "import", EXAMPLES / "won.yaml"]).stdout
    assert len(HistoryStore.open(str(home / "history.sqlite3")).records()) == 1


# ------------------------------------------------ what the list and the import say


def test_a_game_whose_session_wrote_no_end_is_listed_in_neutral_words():
    from foursquare.cli.history import NO_END
    from foursquare.history.recorder import GameRecorder

    game = Game.from_deal(5)
    recorder = GameRecorder(history_file(), game)  # a prompt still playing: no end written yet
    game.play(str(game.legal_cells()[0]))
    assert recorder.update(0)
    listed = invoke(["history"]).stdout.splitlines()
    assert listed[1].endswith(NO_END) and "killed" not in listed[1]
    (row,) = json.loads(invoke(["history", "--format", "json"]).stdout)
    assert (row["status"], row["ended"]) == ("playing", None)
    assert recorder.update(0, ended=True)
    assert invoke(["history"]).stdout.splitlines()[1].endswith("stopped")  # the end is written: a game left
    recorder.close()


def _stream(*names: str) -> str:
    return "".join("---\n" + (EXAMPLES / name).read_text() for name in names)


def test_import_tells_games_repeated_in_the_file_from_games_already_in_the_history(tmp_path):
    twice = tmp_path / "twice.yaml"
    twice.write_text(_stream("won.yaml", "won.yaml"))
    first = invoke(["history", "import", twice])
    assert first.stdout == f"Imported 1 game from {twice} (1 repeated in the file).\n"
    again = invoke(["history", "import", twice])
    assert again.stdout == f"Imported 0 games from {twice} (2 already in the history).\n"
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(_stream("won.yaml", "lost.yaml", "lost.yaml"))
    both = invoke(["history", "import", mixed])
    assert both.stdout == f"Imported 1 game from {mixed} (1 repeated in the file, 1 already in the history).\n"
    assert len(records()) == 2


def test_a_read_only_history_is_explained_once():
    assert prompt(1, ["d4", "quit"]).exit_code == 0
    os.chmod(history_file(), 0o444)
    try:
        played = prompt(2, ["d4", "quit"])
        imported = invoke(["history", "import", EXAMPLES / "won.yaml"])
    finally:
        os.chmod(history_file(), 0o644)
    assert imported.exit_code == 1 and "nothing imported" in imported.stderr
    for err in (played.stderr, imported.stderr):
        assert "read-only" in err
        for line in err.splitlines():
            assert line.count("read-only") <= 1, line  # one explanation, not two


# ------------------------------------------------ a history the machine refuses: locked, read-only, not a file


LOCKED = "cannot read the history: database is locked (another foursquare command or program is writing it)\n"


def _hold_rollback_journal():
    """Another program's exclusive lock on a history in SQLite's rollback-journal mode."""
    db = sqlite3.connect(history_file(), isolation_level=None)
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("BEGIN EXCLUSIVE")
    return db


def _hold_wal():
    """Another program's exclusive lock on the history in WAL mode (``locking_mode``,
    as ``sqlite3 FILE`` with ``PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;``)."""
    db = sqlite3.connect(history_file(), isolation_level=None)
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("BEGIN EXCLUSIVE")
    db.execute("SELECT count(*) FROM games").fetchall()
    return db


@pytest.mark.parametrize("hold", [_hold_rollback_journal, _hold_wal], ids=["rollback journal", "WAL"])
def test_a_history_locked_by_another_program_is_one_refusal_for_every_reader(hold, monkeypatch):
    monkeypatch.setattr("foursquare.history.store.BUSY_SECONDS", 0.05)  # the wait, shortened
    assert prompt(1, ["d4", "quit"]).exit_code == 0
    holder = hold()
    try:
        for args in READERS[:-1]:
            done = invoke(args)
            assert (done.exit_code, done.stdout) == (1, ""), (args, done.output)
            assert done.stderr == f"{history_file()}: {LOCKED}", args
        imported = invoke(READERS[-1])
        assert imported.exit_code == 1 and "database is locked (another" in imported.stderr
        assert "nothing imported" in imported.stderr and imported.stderr.count("\n") == 1
        played = prompt(2, ["d4", "quit"])
        assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout
        assert "database is locked (another foursquare command or program is writing it)" in played.stderr
    finally:
        holder.close()
    assert [r.deal for r in records()] == [1]  # the lock gone, the history reads as before


def _immutable(folder) -> bool:
    """Make ``folder`` refuse every new file, even root's (``chattr +i``), as a
    read-only file system does; ``False`` where that cannot be done."""
    import shutil
    import subprocess

    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0


def test_a_history_in_a_read_only_folder_is_read_as_it_is_by_every_reader():
    assert prompt(1, ["d4", "e4", "quit"]).exit_code == 0
    assert invoke(["history", "import", EXAMPLES / "won.yaml"]).exit_code == 0
    readers = [args for args in READERS if "import" not in args]
    expected = {tuple(args): invoke(args) for args in readers}
    home = os.path.dirname(history_file())
    before = sorted(os.listdir(home))
    if not _immutable(home):
        pytest.skip("cannot make a folder refuse new files here (chattr +i needs root on ext2/3/4 and the like)")
    try:
        for args in readers:
            done = invoke(args)
            assert (done.exit_code, done.stdout) == (0, expected[tuple(args)].stdout), (args, done.output)
        imported = invoke(["history", "import", EXAMPLES / "lost.yaml"])
        played = prompt(2, ["d4", "quit"])
    finally:
        import subprocess

        subprocess.run(["chattr", "-i", home], check=True)
    assert imported.exit_code == 1 and "nothing imported" in imported.stderr and "Traceback" not in imported.output
    assert played.exit_code == 0 and "the game is NOT in the history" in played.stderr
    assert sorted(os.listdir(home)) == before  # nothing made beside it
    assert [r.deal for r in records()] == [1, 153]


def _fifo(path):
    os.mkfifo(path)


def _socket(path):
    import socket

    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))


@pytest.mark.parametrize("make, kind", [(_fifo, "a FIFO (named pipe)"), (os.mkdir, "a directory"), (_socket, "a socket")],
                         ids=["fifo", "directory", "socket"])
def test_a_history_that_is_not_a_file_is_refused_by_every_command_without_opening_it(make, kind):
    import threading

    os.makedirs(os.path.dirname(history_file()), exist_ok=True)
    make(history_file())

    def unblock() -> None:  # a safety net: a command that opened the FIFO would wait for a writer for ever
        with contextlib.suppress(OSError):
            os.close(os.open(history_file(), os.O_WRONLY | os.O_NONBLOCK))

    timer = threading.Timer(30, unblock)
    timer.start()
    try:
        message = f"{history_file()}: cannot read the history: it is {kind}, not a file"
        for args in READERS:
            done = invoke(args)
            assert (done.exit_code, done.stdout, done.stderr) == (1, "", message + "\n"), args
        played = prompt(1, ["d4", "quit"], "--history")
        assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout
        assert played.stderr == message + ". This game is not recorded in the history.\n"
    finally:
        timer.cancel()


def test_again_and_new_at_the_prompt_give_each_game_its_own_row():
    """A game played to its end stays in the history as it ended; ``again`` and ``new``
    each start a game with a row of its own."""
    from helpers import conformance_record

    moves = conformance_record(21)["moves"]
    done = prompt(21, [*moves, "again", "d4", "new", "d4", "quit"])
    assert done.exit_code == 0, done.output
    first, second, third = records()
    assert (first.deal, first.moves, first.status.value) == (21, len(moves), "lost")
    assert (second.deal, second.moves, second.status.value, third.moves) == (21, 1, "playing", 1)
    assert all(r.ended is not None for r in (first, second, third))
