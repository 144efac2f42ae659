"""The game history's store (history/store.py) on a real SQLite file: what a row
keeps, the schema version, files refused and never altered, a locked or full file
that does not stop the game and loses nothing once it can be written again."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest
from helpers import play

from foursquare.engine.game import Game, Reason, Status
from foursquare.engine.rules import PRESETS
from foursquare.errors import HistoryStoreError
from foursquare.formats.transcript import validate
from foursquare.history.recorder import GameRecorder
from foursquare.history.store import (
    SCHEMA_VERSION,
    HistoryStore,
    Kind,
    Source,
    error_words,
)


def first_cells(game: Game, n: int) -> Game:
    """Play the first legal cell ``n`` times (or until the game ends)."""
    for _ in range(n):
        if game.is_over:
            break
        game.play(game.legal_cells()[0])
    return game


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "home" / "history.sqlite3")


def test_a_new_history_is_created_with_its_folder_in_wal_mode_at_the_schema_version(path):
    with HistoryStore.open(path, create=True):
        pass
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_row_keeps_the_deal_rules_moves_result_hints_and_times_and_its_transcript_validates(path):
    game = first_cells(Game.from_deal(7, PRESETS["three-square"]), 5)
    with HistoryStore.open(path, create=True) as store:
        row = store.write(game, Source.PROMPT, started=100.0, hints=2, now=130.0)
        store.write(game, Source.PROMPT, row=row, hints=3, ended=True, now=150.0)
    (record,) = HistoryStore.open(path).records()
    assert (record.deal, record.rules, record.moves, record.hints) == (7, "three-square", len(game.moves), 3)
    assert (record.status, record.score) == (game.status, game.score)
    assert (record.started, record.last_move, record.ended) == (100.0, 130.0, 150.0)  # no move since: the last move's time kept
    assert record.seconds == 30.0
    (report,) = validate(record.record, "row")
    assert report.valid and report.game is not None
    assert [str(p.cell) for p in report.game.moves] == [str(p.cell) for p in game.moves]
    assert report.game.rules == PRESETS["three-square"]


def test_a_deck_game_and_a_deal_beyond_64_bit_signed_integers_are_kept(path):
    big = 2**64 - 1
    with HistoryStore.open(path, create=True) as store:
        store.write(first_cells(Game.from_deal(big), 1), Source.PROMPT, started=0.0)
        deck = Game.from_deal(3).deck
        store.write(first_cells(Game(deck), 2), Source.PROMPT, started=0.0)
    first, second = HistoryStore.open(path).records()
    assert first.deal == big
    assert second.deal is None and "deck:" in second.record


def test_a_game_resumed_from_a_position_without_its_moves_is_kept_as_its_state(path):
    played = first_cells(Game.from_deal(5), 3)
    grid = {cell: (pile.cards, pile.face_up) for cell, pile in played.grid.items()}
    resumed = Game.from_position(grid, played.remaining and [played.next_card, *played.remaining], deal=5)
    first_cells(resumed, 1)
    assert len(resumed.moves) < resumed.placed
    with HistoryStore.open(path, create=True) as store:
        store.write(resumed, Source.PROMPT, started=0.0)
    (record,) = HistoryStore.open(path).records()
    assert record.kind is Kind.STATE and "grid:" in record.record


def test_a_missing_history_reads_as_empty_and_is_not_created(path):
    assert HistoryStore.open(path).records() == []
    assert not os.path.exists(path)


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


def test_a_history_from_a_newer_version_is_refused_and_never_altered(path):
    os.makedirs(os.path.dirname(path))
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, future TEXT)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = _bytes(path)
    for create in (False, True):
        with pytest.raises(HistoryStoreError, match=rf"schema version {SCHEMA_VERSION + 1}; this one reads version {SCHEMA_VERSION}"):
            HistoryStore.open(path, create=create)
    recorder = GameRecorder(path, Game.from_deal(1))
    first_cells(recorder.game, 2)
    assert not recorder.active and not recorder.update(0) and recorder.row is None
    assert _bytes(path) == before
    assert sorted(os.listdir(os.path.dirname(path))) == ["history.sqlite3"]  # no -wal, no -shm


@pytest.mark.parametrize(
    "content, why",
    [
        (b"this is a note I kept here, not a database\n" * 20, "not an SQLite database"),
        (b"SQLite format 3\x00" + b"\xff" * 4000, "not a foursquare history"),
    ],
)
def test_a_file_that_is_not_a_history_is_refused_and_never_overwritten(path, content, why):
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as f:
        f.write(content)
    for create in (False, True):
        with pytest.raises(HistoryStoreError, match=why) as caught:
            HistoryStore.open(path, create=create)
        assert path in str(caught.value) and "left as it is" in str(caught.value)
    recorder = GameRecorder(path, first_cells(Game.from_deal(1), 1))
    assert not recorder.active and not recorder.update(0)
    assert _bytes(path) == content


def test_a_damaged_history_is_refused_and_left_as_it_is(path):
    with HistoryStore.open(path, create=True) as store:
        for deal in range(40):
            store.write(first_cells(Game.from_deal(deal), 10), Source.PROMPT, started=0.0)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    data = bytearray(_bytes(path))
    assert len(data) > 4 * page
    data[2 * page : 3 * page] = b"\x5a" * page  # a page of the table overwritten
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(HistoryStoreError, match="not a foursquare history"):
        HistoryStore.open(path, create=True)
    assert _bytes(path) == bytes(data)


def test_an_sqlite_file_of_other_tables_is_refused(path):
    os.makedirs(os.path.dirname(path))
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE mine (x)")
    db.commit()
    db.close()
    before = _bytes(path)
    with pytest.raises(HistoryStoreError, match="other tables"):
        HistoryStore.open(path, create=True)
    assert _bytes(path) == before


def test_a_locked_history_fails_a_write_that_the_next_change_makes_up_for(path):
    recorder = GameRecorder(path, Game.from_deal(2))
    first_cells(recorder.game, 1)
    assert recorder.update(0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the file
    first_cells(recorder.game, 2)
    assert not recorder.update(0)
    assert recorder.error is not None and "locked" in error_words(recorder.error)
    assert "another foursquare command" in error_words(recorder.error)
    other.execute("COMMIT")
    first_cells(recorder.game, 1)
    assert recorder.update(1, ended=True) and recorder.error is None
    (record,) = HistoryStore.open(path).records()
    assert record.moves == 4 == len(recorder.game.moves)  # nothing lost
    assert record.hints == 1 and record.ended is not None


def test_a_full_history_fails_a_write_and_keeps_the_rows_it_had(path):
    with HistoryStore.open(path, create=True) as store:
        store.write(first_cells(Game.from_deal(9), 3), Source.PROMPT, started=0.0)
    recorder = GameRecorder(path, Game.from_deal(4))
    assert recorder.store is not None
    db = recorder.store._db  # the recorder's own connection: SQLite's real limit of its file
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    fillers = 0
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for deal in range(100, 400):  # the pages the file may have, filled up
            recorder.store.write(first_cells(Game.from_deal(deal), 1), Source.PROMPT, started=0.0)
            fillers += 1
    first_cells(recorder.game, 10)
    assert not recorder.update(0)
    assert recorder.error is not None and "the disk is full" in error_words(recorder.error)
    db.execute("PRAGMA max_page_count = 1000000")  # room again: the next write keeps the whole game
    first_cells(recorder.game, 1)
    assert recorder.update(0, ended=True)
    records = HistoryStore.open(path).records()
    assert len(records) == 2 + fillers
    assert (records[0].deal, records[0].moves) == (9, 3)
    assert (records[-1].deal, records[-1].moves) == (4, 11)


def test_a_read_only_history_is_not_written_even_by_root_and_the_game_goes_on(path):
    with HistoryStore.open(path, create=True) as store:
        store.write(first_cells(Game.from_deal(9), 3), Source.PROMPT, started=0.0)
    os.chmod(path, stat.S_IRUSR | stat.S_IRGRP)
    before = _bytes(path)
    recorder = GameRecorder(path, Game.from_deal(4))
    first_cells(recorder.game, 3)
    assert not recorder.update(0) and recorder.active
    assert "read-only" in error_words(recorder.error)
    assert _bytes(path) == before
    assert [r.deal for r in HistoryStore.open(path).records()] == [9]  # still read


def test_a_game_looked_at_and_left_is_not_recorded_and_a_resumed_stopped_game_continues_its_row(path):
    idle = GameRecorder(path, Game.from_deal(1))
    assert idle.update(0, ended=True) and idle.row is None
    first = GameRecorder(path, Game.from_deal(1))
    play(first.game, ["d4", "e4"])
    assert first.update(2, ended=True)
    resumed = Game.from_deal(1)
    play(resumed, ["d4", "e4"])
    again = GameRecorder(path, resumed)
    assert again.row == first.row
    play(resumed, ["c4"])
    assert again.update(1, ended=True)
    (record,) = HistoryStore.open(path).records()
    assert record.moves == 3
    assert record.hints == 3  # the hints of both sessions


def test_import_is_all_or_nothing_and_skips_games_already_there(path):
    games = [first_cells(Game.from_deal(d), 5) for d in (1, 2, 3)]
    with HistoryStore.open(path, create=True) as store:
        assert store.import_games(games[:2], "a.yaml") == (2, 0, 0)
        assert store.import_games(games, "b.yaml") == (1, 2, 0)
        bad = [games[0], "not a game"]  # fails in the middle: the transaction is rolled back
        with pytest.raises(AttributeError):
            store.import_games([first_cells(Game.from_deal(8), 2), *bad], "c.yaml")  # type: ignore[list-item]
    records = HistoryStore.open(path).records()
    assert [(r.deal, r.source, r.origin) for r in records] == [
        (1, Source.IMPORT, "a.yaml"), (2, Source.IMPORT, "a.yaml"), (3, Source.IMPORT, "b.yaml")
    ]
    assert all(r.hints is None and r.started is None for r in records)
    assert all(r.status is Status.PLAYING for r in records)


def test_writers_creating_the_history_at_the_same_moment_all_find_it_a_history(path):
    import threading

    barrier = threading.Barrier(8)
    outcomes: list[object] = []

    def create() -> None:
        barrier.wait()
        try:
            with HistoryStore.open(path, create=True) as store:
                store.write(first_cells(Game.from_deal(1), 1), Source.PROMPT, started=0.0)
            outcomes.append("ok")
        except sqlite3.OperationalError as exc:  # busy for over a second: the prompt would try again
            outcomes.append(exc)
        except Exception as exc:  # a history refused as not one: the race this guards against
            outcomes.append(exc)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not [o for o in outcomes if not isinstance(o, (str, sqlite3.OperationalError))]
    assert len(HistoryStore.open(path).records()) == outcomes.count("ok") >= 1


# ------------------------------------------------ one game, one row: a session continues the row of the game it resumes


def _stopped(path: str, deal: int, n: int) -> Game:
    """A game of ``deal`` played ``n`` moves at a prompt and left: its row, stopped."""
    game = Game.from_deal(deal)
    recorder = GameRecorder(path, game)
    first_cells(game, n)
    assert recorder.update(0, ended=True)
    recorder.close()
    return game


def _position(game: Game) -> Game:
    """``game`` as a state without its moves sets it up (Game.from_position)."""
    grid = {str(cell): (list(pile.cards), pile.face_up) for cell, pile in game.grid.items()}
    return Game.from_position(grid, game.deck[game.placed :], game.rules, game.deal)


def test_a_session_from_a_position_continues_the_row_that_stood_there_and_a_transcript_stays_one(path):
    played = _stopped(path, 8, 3)  # a transcript row
    resumed = _position(played)
    recorder = GameRecorder(path, resumed)
    first_cells(resumed, 2)
    assert recorder.update(0, ended=True)
    recorder.close()
    (row,) = HistoryStore.open(path).records()
    assert (row.kind, row.moves) == (Kind.TRANSCRIPT, 5)
    (report,) = validate(row.record, "row")
    assert report.valid and report.game is not None and len(report.game.moves) == 5


def test_a_session_whose_history_was_locked_at_its_start_still_continues_its_row(path, monkeypatch):
    monkeypatch.setattr("foursquare.history.store.BUSY_SECONDS", 0.05)  # the wait, shortened
    played = _stopped(path, 9, 2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("SELECT count(*) FROM games").fetchall()
    try:
        game = played.copy()
        recorder = GameRecorder(path, game)  # cannot read the history now: tried again at the next change
        assert recorder.error is not None and recorder.row is None
    finally:
        holder.close()
    first_cells(game, 2)
    assert recorder.update(0, ended=True)
    recorder.close()
    assert [r.moves for r in HistoryStore.open(path).records()] == [4]


def test_a_loss_taken_back_stays_a_loss_and_a_game_resumed_from_it_goes_on_in_its_row(path):
    game = first_cells(Game.from_deal(2), 40)  # lost: too many face down, at the 27th card
    recorder = GameRecorder(path, Game.from_deal(2))
    for move in game.moves:
        recorder.game.play(move.cell, move.card)
        recorder.watch()
    for _ in range(3):
        recorder.game.undo()
        recorder.watch()
    assert recorder.update(0, ended=True) and recorder.game.status is Status.PLAYING
    (record,) = HistoryStore.open(path).records()
    assert (record.status, record.reason, record.score, record.moves) == (Status.LOST, Reason.TOO_MANY_FACE_DOWN, None, 24)
    assert validate(record.record, "row")[0].game.moves == recorder.game.moves  # the moves: the game as it stands
    again = GameRecorder(path, recorder.game.copy())  # resumed where it stopped: its row, still lost
    again.game.undo()
    assert again.row == record.id and again.update(0, ended=True)
    (record,) = HistoryStore.open(path).records()
    assert (record.status, record.reason, record.moves) == (Status.LOST, Reason.TOO_MANY_FACE_DOWN, 23)
