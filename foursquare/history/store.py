"""The game history: every game played at the prompt, kept in an SQLite file.

One table, ``games``, a row a game: its transcript (FORMATS.md "Transcripts",
written by :func:`~foursquare.formats.transcript.transcript_text`, so the deal or
the deck, the rules, the moves and the result are kept as every other reader
reads them; a game resumed from a position without its moves keeps its state
instead, :data:`Kind.STATE`), and beside it the columns the statistics read:
the rules' name, the deal, the number of moves, the status, reason and score,
the hints asked, when the game started, when its last move was made, when the
session ended (``NULL`` for a session that was killed), when the row was added,
and where it came from (:class:`Source`).

What the file guarantees:

- **Several writers at once.**  The file is in WAL mode; each change is one
  transaction; a writer waits :data:`BUSY_SECONDS` for another's lock, then
  gives up with :class:`sqlite3.OperationalError` (the caller decides: the
  prompt warns and tries again after the next move).  A reader waits as long,
  then refuses in words (:class:`HistoryStoreError`: ``FILE: cannot read the
  history: database is locked (...)``); it writes nothing, and reads a history
  in a read-only folder or file system as it is.
- **Only a file is a history.**  A directory, a FIFO, a device or a socket
  where the file is expected is refused, never opened (a FIFO would wait).  The
  files SQLite keeps beside it (``-journal``, ``-wal``, ``-shm``) are SQLite's.
- **A crash keeps the game so far.**  A game's row is written at its first move
  and rewritten after every change
  (:class:`~foursquare.history.recorder.GameRecorder`), each write committed.
- **A file from a newer version is never altered.**  Its schema version
  (``PRAGMA user_version``) is read before anything is written, and a version
  above :data:`SCHEMA_VERSION` is refused (:class:`~foursquare.errors.HistoryStoreError`, ``refused``).
- **A file that is not a history is never overwritten**: one that is not an
  SQLite file (its header), fails SQLite's ``quick_check``, or is an SQLite file
  of other tables is refused (``refused``), and left as it is.

The statistics of the records are :mod:`foursquare.history.stats`'s.

    >>> import tempfile, os
    >>> from foursquare.engine.game import Game
    >>> folder = tempfile.mkdtemp()
    >>> with HistoryStore.open(os.path.join(folder, "h.sqlite3"), create=True) as store:
    ...     game = Game.from_deal(1)
    ...     _ = game.play("d4")
    ...     row = store.write(game, Source.PROMPT, started=0.0)
    ...     [(r.deal, r.moves, r.status.value) for r in store.records()]
    [(1, 1, 'playing')]
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import pathlib
import sqlite3
import stat
import tempfile
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import NamedTuple

from ..engine.game import Game, Reason, Status
from ..errors import FormatError, FoursquareError, HistoryStoreError, shown_name
from .rows import COLUMN_NAMES, COLUMNS, GameRecord, Kind, Source, read_row

#: The schema this module reads and writes (``PRAGMA user_version``).
SCHEMA_VERSION = 1
#: How long a writer waits for another writer's lock before it gives up (seconds).
BUSY_SECONDS = 1.0
#: The first 16 bytes of every SQLite 3 file.
SQLITE_HEADER = b"SQLite format 3\x00"

#: The table and its index (each made only where missing: two writers may make a new file at once).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    record TEXT NOT NULL,
    rules TEXT NOT NULL,
    deal TEXT,
    moves INTEGER NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    score INTEGER,
    hints INTEGER,
    started REAL,
    last_move REAL,
    ended REAL,
    added REAL NOT NULL,
    source TEXT NOT NULL,
    origin TEXT,
    digest BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS games_digest ON games (digest);
"""


class Imported(NamedTuple):
    """What :meth:`HistoryStore.import_games` did with the games it was given."""

    #: the games added to the history
    added: int
    #: the games left out because the history held them already
    already: int
    #: the games left out because they came earlier in the same import
    repeated: int


@dataclass(frozen=True)
class Export:
    """What :func:`export_games` found in the history.

    :ivar games: the games kept as transcripts, oldest first.
    :ivar stream: their transcript stream (one document a game), checked.
    :ivar left_out: the games kept as states (resumed from a position without
        their moves): a transcript needs every move.
    """

    games: list[GameRecord]
    stream: str
    left_out: int


def digest(game: Game) -> bytes:
    """A 16-byte digest of a game: its rules, card order and moves (as
    :class:`~foursquare.formats.transcript.Repeats` compares games)."""
    key = repr((game.rules, [str(c) for c in game.deck], [(str(p.card), str(p.cell)) for p in game.moves]))
    return hashlib.blake2b(key.encode(), digest_size=16).digest()


def position_of(game: Game) -> tuple[object, ...]:
    """Where ``game`` stands, however it got there: its rules, piles, known stock
    (in order), stock count and status.  Two games that stand alike go on alike
    (RULES.md §3-§5): a game resumed from a state without its moves stands where
    the game of that state stood."""
    return (game.rules, tuple(game.grid.items()), game.deck[game.placed :], game.stock_count, game.status)


def _check_file(path: str, *, create: bool) -> bool:
    """Whether the history file is there, after refusing what cannot be used: the
    history's name taken by something that is not a file (a directory, a FIFO, a
    device, a socket: it is never opened), a file that is not SQLite (its header;
    an empty file is a new database), a file whose mode has no write bit for a
    writer (``create``: refused, as :mod:`foursquare.app.files` refuses such files,
    even for root), a folder on its way that is a file or cannot be searched
    (permissions), or a folder that exists, without the file, but cannot hold it
    (read-only, or no place for files, as ``/proc``).  A folder that does not exist yet is no fault: the
    history is empty (and made at the first write).

    :raises HistoryStoreError: naming ``path`` and why, the same for every reader and writer;
    :raises PermissionError: for a read-only file with ``create``.
    """
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):  # (what is not is never opened: opening a FIFO waits for a writer)
            with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:  # (a FIFO put there since: no wait)
                head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        # a folder that exists must hold the file (a writer makes it there): the readers,
        # to whom the history is otherwise empty, refuse what the writer would fail at.
        # A file made there and removed at once tells (root passes permissions where
        # nothing can be made)
        folder = os.path.dirname(os.path.abspath(path))
        refusal = _no_room(folder) if os.path.isdir(folder) else None  # not there yet: made at the first write
        if refusal is None:
            return False
        why = f"the folder {shown_name(folder)} takes no new files (the system says: {refusal.strerror or refusal})"
    except NotADirectoryError:  # the first folder on its way that is not one, from the root down
        files = [way for way in reversed(pathlib.Path(os.path.abspath(path)).parents) if os.path.lexists(way) and not os.path.isdir(way)]
        why = f"{shown_name(str(files[0]))} is a file, not a folder" if files else os.strerror(errno.ENOTDIR)
    except OSError as exc:
        why = exc.strerror or str(exc)
    else:
        if not stat.S_ISREG(mode):
            why = f"it is {_KINDS.get(stat.S_IFMT(mode), 'not a regular file')}, not a file"
        elif head and head != SQLITE_HEADER:
            raise HistoryStoreError(_not_history(path, "it is not an SQLite database"), refused=True)
        elif create and not mode & stat.S_IWUSR:
            raise PermissionError(errno.EACCES, "the history file is read-only (its mode has no write bit)", path)
        else:
            return True
    raise HistoryStoreError(f"{shown_name(path)}: cannot read the history: {why}")


#: What a path that is not a regular file is, in words, by the type in its mode.
_KINDS = {
    stat.S_IFDIR: "a directory", stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
}


def _no_room(folder: str) -> OSError | None:
    """Why no file can be made in ``folder`` (read-only, no place for files), or
    ``None`` when one can: a file made there and removed at once tells."""
    try:
        with tempfile.TemporaryFile(prefix=".history-check-", dir=folder):
            return None
    except OSError as exc:
        return exc


def _reader(path: str) -> sqlite3.Connection:
    """A connection for a reader of the history at ``path``, waiting
    :data:`BUSY_SECONDS` for a lock; nothing is written through it (opened as a
    writer opens it, so that the last one to close it folds SQLite's ``-wal``
    file into the file and removes it, as a writer does).  A history in WAL mode
    needs a file beside it (``-shm``) that a read-only folder or file system
    cannot take (SQLite then cannot open it at all): when no file can be made in
    its folder and no write is pending in its ``-wal`` file, the file itself holds
    every game and no writer can change it (a writer makes its files there too),
    so it is read as an unchanging file (``immutable=1``), read-only.

    :raises sqlite3.OperationalError: when it cannot be read (locked, unreadable).
    """
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        db.execute("PRAGMA schema_version").fetchone()  # the first read: SQLite opens its files now
    except sqlite3.OperationalError as exc:
        db.close()
        if str(getattr(exc, "sqlite_errorname", "")) != "SQLITE_CANTOPEN" or _no_room(os.path.dirname(os.path.abspath(path))) is None:
            raise
        with contextlib.suppress(OSError):  # (no -wal file: nothing pending)
            if os.path.getsize(f"{path}-wal") > 0:  # writes not yet in the file itself
                raise
        return sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?immutable=1", uri=True, isolation_level=None)
    except sqlite3.DatabaseError:
        pass  # not a database, or damaged: the checks of HistoryStore.open say so, in their words
    return db


def _unreadable(path: str, exc: sqlite3.OperationalError) -> HistoryStoreError:
    """The refusal of a history that a reader cannot read now (locked, unreadable), in words."""
    return HistoryStoreError(f"{shown_name(path)}: cannot read the history: {error_words(exc)}")


def _not_history(path: str, why: str) -> str:
    return (
        f"{shown_name(path)}: not a foursquare history ({why}); it is left as it is:"
        " move it away to start a new history"
    )


class HistoryStore(contextlib.AbstractContextManager["HistoryStore"]):
    """The history file, open (:meth:`open`); a context manager that closes it.

    Every method that writes commits before it returns (one transaction each).

    :raises sqlite3.Error: from a write when the file is locked by another writer
        for longer than :data:`BUSY_SECONDS`, the disk is full or the file read-only.
    """

    def __init__(self, path: str, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, path: str, *, create: bool = False) -> HistoryStore:
        """Open the history at ``path``, checked before anything is written.

        :param create: create the file (and its folder) and the table when missing;
            otherwise a missing file is an empty history, opened in memory.
        :raises HistoryStoreError: ``refused`` for a schema version above :data:`SCHEMA_VERSION`,
            and for a file that is not a foursquare history;
        :raises HistoryStoreError: for a file that cannot be opened (a directory,
            permissions) or a place that cannot hold one (a folder on its way that
            is a file or cannot be searched), with or without ``create``: a folder
            that does not exist yet is an empty history, an unusable one is not;
            without ``create`` also when it cannot be read now (locked by another
            program for longer than :data:`BUSY_SECONDS`, or a read that fails),
            in words (:func:`error_words`); with ``create``,
            :class:`sqlite3.OperationalError` when it is locked while its table is created.

        Without ``create`` nothing is written, and a history in a read-only folder
        or on a read-only file system is read as it is (:func:`_reader`).
        """
        if _check_file(path, create=create) or create:
            if create:
                try:
                    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                except OSError as exc:
                    raise HistoryStoreError(f"{shown_name(path)}: cannot make its folder: {exc.strerror or exc}") from None
            try:
                db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None) if create else _reader(path)
            except sqlite3.OperationalError as exc:
                raise _unreadable(path, exc) from exc
            store = cls(path, db)
            try:
                version = store._check()
                if create:  # ready for writers: WAL mode, and the table when it is new
                    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                        db.execute("PRAGMA journal_mode = WAL")
                    db.execute("PRAGMA synchronous = NORMAL")
                    if version == 0:  # one transaction (a failed one is rolled back as the file is closed)
                        db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
            except BaseException as exc:
                db.close()
                if isinstance(exc, sqlite3.OperationalError) and not create:
                    raise _unreadable(path, exc) from exc
                raise
            if version or create:
                return store
            db.close()  # an empty SQLite file: an empty history, the file left as it is
        empty = cls(path, sqlite3.connect(":memory:", isolation_level=None))  # a missing file: an empty history
        empty._db.executescript(_SCHEMA)
        return empty

    def _check(self) -> int:
        """The schema version, after the checks of the file's soundness (nothing written).

        :raises HistoryStoreError: see :meth:`open`.
        :raises sqlite3.OperationalError: when the file cannot be read now (locked).
        """
        try:
            self._db.execute("BEGIN")  # one snapshot: the version and the tables of the same moment
            with self._db:  # (ended, committed or rolled back, whatever happens)
                version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version > SCHEMA_VERSION:
                raise HistoryStoreError(
                    f"{shown_name(self.path)}: the history was written by a newer foursquare (schema version"
                    f" {version}; this one reads version {SCHEMA_VERSION}); it is left as it is:"
                    " upgrade foursquare to use it",
                    refused=True,
                )
            check = self._db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise HistoryStoreError(_not_history(self.path, f"SQLite finds it damaged: {check[0] if check else '?'}"), refused=True)
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            raise HistoryStoreError(_not_history(self.path, str(exc)), refused=True) from None
        if version == 0 and tables:
            raise HistoryStoreError(_not_history(self.path, "it is an SQLite database of other tables"), refused=True)
        if version == SCHEMA_VERSION and "games" not in tables:
            raise HistoryStoreError(_not_history(self.path, "its table of games is missing"), refused=True)
        if version == SCHEMA_VERSION:
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            missing = [name for name in COLUMN_NAMES if name not in columns]
            if missing:
                raise HistoryStoreError(
                    _not_history(self.path, f"damaged: its table of games has no column {', '.join(missing)}"), refused=True
                )
        return version

    def close(self) -> None:
        """Close the file (what was written is committed already)."""
        self._db.close()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------ writing

    def write(  # noqa: PLR0913 — the row's values by keyword
        self,
        game: Game,
        source: Source,
        *,
        row: int | None = None,
        started: float | None = None,
        hints: int | None = 0,
        origin: str | None = None,
        now: float | None = None,
        lost: Reason | None = None,
        ended: bool = False,
        moves: int | None = None,
    ) -> int:
        """Add a game, or rewrite the game of row ``row`` as it stands (one transaction each).

        :param started: when it started (epoch seconds), ``None`` when not known.
        :param lost: the reason of a loss the game reached before it was undone: the row
            says lost unless the game is won.
        :param ended: the session ends now (the end time written; else none).
        :param moves: the moves of the game (default: ``len(game.moves)``; a game kept as
            a state counts those of the sessions before too).
        :returns: the row's :attr:`GameRecord.id`.

        A rewrite keeps the row's start, source and origin, and its time of the last move
        unless the moves changed.
        """
        from ..formats.state import state_text
        from ..formats.transcript import transcript_text

        now = time.time() if now is None else now
        # what the row keeps: the transcript (each move as "CARD CELL", with the result; the claims of each move,
        # which a reader works out again, would make it ten times slower to write), or the state of a game
        # resumed from a position without its moves
        whole = len(game.moves) == game.placed
        # its status, reason and score: never better than a loss reached before an undo (``lost``, its reason)
        outcome = (
            (game.status.value, None if game.reason is None else game.reason.value, game.score)
            if lost is None or game.status is Status.WON
            else (Status.LOST.value, lost.value, None)
        )
        cursor = self._db.execute(
            f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(COLUMN_NAMES))}) ON CONFLICT (id) DO UPDATE SET"
            " kind = excluded.kind, record = excluded.record, moves = excluded.moves, status = excluded.status,"
            " reason = excluded.reason, score = excluded.score, hints = excluded.hints, ended = excluded.ended,"
            " last_move = CASE WHEN digest = excluded.digest THEN last_move ELSE excluded.last_move END, digest = excluded.digest",
            (
                row, (Kind.TRANSCRIPT if whole else Kind.STATE).value,
                transcript_text(game, claims=False) if whole else state_text(game), game.rules.label, _deal(game),
                len(game.moves) if moves is None else moves, *outcome, hints, started,
                None if source is Source.IMPORT else now, now if ended else None, now, source.value, origin, digest(game),
            ),
        )
        row = cursor.lastrowid if row is None else row
        assert row is not None
        return row

    def find_stopped(self, game: Game) -> GameRecord | None:
        """The latest game of the history stopped exactly where ``game`` stands (the
        same rules, cards and moves, not won: a loss taken back stays one), or ``None``:
        a game resumed from its recording continues its row.

        :raises HistoryStoreError: as :meth:`records`.
        """
        return next(iter(self._rows(
            f"SELECT {COLUMNS} FROM games WHERE digest = ? AND status != 'won' AND source != 'import' ORDER BY id DESC LIMIT 1",
            (digest(game),),
        )), None)

    def find_stopped_at(self, game: Game) -> tuple[GameRecord, Game] | None:
        """The latest game of the history stopped exactly where ``game`` stands
        (:func:`position_of`), with its game: a game resumed from a position
        without its moves (a state) continues the row of the game it was saved
        from, kept as a transcript or as a state.

        :raises HistoryStoreError: as :meth:`records`.
        """
        from ..formats.state import read_state
        from ..formats.transcript import load_game

        for record in self._rows(  # (read whole first: each is then replayed)
            f"SELECT {COLUMNS} FROM games WHERE status != 'won' AND source != 'import' AND rules = ?"
            " AND (kind = 'state' OR moves = ?) AND (deal IS NULL OR ? IS NULL OR deal = ?) ORDER BY id DESC",
            (game.rules.label, game.placed, _deal(game), _deal(game)),
        ):
            try:  # a record that does not read (a damaged row: ``history export`` names it) stands nowhere
                kept = (load_game if record.kind is Kind.TRANSCRIPT else read_state)(record.record, f"row {record.id}")
            except FoursquareError:
                continue
            if position_of(kept) == position_of(game):
                return record, kept
        return None

    def import_games(self, games: Sequence[Game], origin: str) -> Imported:
        """Add recorded games, all or none (one transaction); a game already in the
        history (the same rules, cards and moves), or one given earlier in
        ``games``, is not added again.

        :returns: the games added, those already in the history, and those repeated
            in ``games`` (each counted once, as the first reason it was left out).
        """
        already = repeated = 0
        now = time.time()
        self._db.execute("BEGIN IMMEDIATE")
        with self._db:  # committed, or rolled back on any error (none added)
            there = {record.digest for record in self.records()}  # every row read as every reader reads it
            given: set[bytes] = set()
            for game in games:
                key = digest(game)
                if key in there:
                    already += 1
                elif key in given:
                    repeated += 1
                else:
                    given.add(key)
                    self.write(game, Source.IMPORT, hints=None, origin=origin, now=now)
        return Imported(len(given), already, repeated)  # (each game given and added once)

    # ------------------------------------------------------------ reading

    def records(self) -> list[GameRecord]:
        """The games, in the order they were added.

        :raises HistoryStoreError: (``refused``) for a row of values foursquare never writes
            (:func:`~foursquare.history.rows.read_row`), named by its id.
        :raises HistoryStoreError: when the file cannot be read now (locked, a read failed).
        """
        return self._rows(f"SELECT {COLUMNS} FROM games ORDER BY id")

    def _rows(self, sql: str, params: tuple[object, ...] = ()) -> list[GameRecord]:
        """The rows ``sql`` selects (:data:`~foursquare.history.rows.COLUMNS`),
        each read by :func:`~foursquare.history.rows.read_row`: the one way every
        reader gets the games, so that a damaged row or table is the same refusal,
        naming the file (and the row), whichever command reads it."""
        try:
            return [read_row(row) for row in self._db.execute(sql, params)]
        except HistoryStoreError as exc:
            raise HistoryStoreError(_not_history(self.path, f"damaged: {exc}"), refused=True) from None
        except sqlite3.DatabaseError as exc:
            # damaged: not a database or a malformed page (a DatabaseError), or a table not as this
            # module made it ("no such column": SQLITE_ERROR); else it cannot be read now (locked, a read failed)
            if not isinstance(exc, sqlite3.OperationalError) or getattr(exc, "sqlite_errorname", "") == "SQLITE_ERROR":
                raise HistoryStoreError(_not_history(self.path, f"damaged: {exc}"), refused=True) from None
            raise _unreadable(self.path, exc) from exc


def read_records(path: str) -> list[GameRecord]:
    """The games of the history at ``path``, in the order they were added (none for a
    missing file); nothing is written.

    :raises HistoryStoreError: as
        :meth:`HistoryStore.open` and :meth:`HistoryStore.records`.
    """
    with HistoryStore.open(path) as store:
        return store.records()


def _deal(game: Game) -> str | None:
    return None if game.deal is None else str(game.deal)  # a deal number may exceed SQLite's 64-bit signed integers


def error_words(exc: BaseException) -> str:
    """Why a write of the history failed, in words: the reason with, for SQLite's
    terse reasons, a gloss (``database is locked (another foursquare command or
    program is writing it)``).  A reason given in words already (an
    :class:`OSError` of ours or of the system: ``the history file is read-only
    (its mode has no write bit)``, ``No space left on device``) is given as it is:
    one explanation, never two.

    >>> error_words(sqlite3.OperationalError("attempt to write a readonly database"))
    'attempt to write a readonly database (the file or its folder is read-only)'
    >>> error_words(PermissionError(errno.EACCES, "the history file is read-only (its mode has no write bit)"))
    'the history file is read-only (its mode has no write bit)'
    """
    text = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
    if not isinstance(exc, sqlite3.Error):
        return text
    code = str(getattr(exc, "sqlite_errorname", ""))
    gloss = next((gloss for words, codes, gloss in _GLOSSES if any(w in text.lower() for w in words) or code.startswith(codes)), None)
    return text if gloss is None else f"{text} ({gloss})"


#: The glosses of :func:`error_words`: the words of SQLite's reason, or its codes
#: (extended ones too), and what they mean; the first that fits.
_GLOSSES = (
    (("locked", "busy"), ("SQLITE_BUSY", "SQLITE_LOCKED"), "another foursquare command or program is writing it"),
    (("full",), ("SQLITE_FULL",), "the disk is full"),
    ((), ("SQLITE_IOERR",), "a write failed: the disk may be full, over a size limit, or failing"),
    (("readonly", "read-only"), ("SQLITE_READONLY",), "the file or its folder is read-only"),
    ((), ("SQLITE_CANTOPEN",), "SQLite cannot open it, or make its files beside it: is its folder read-only?"),
)


def export_games(path: str) -> Export:
    """The games of the history at ``path`` kept as transcripts (what ``history
    export`` writes), oldest first, their transcript stream (FORMATS.md
    "Transcripts") and the count of those left out (kept as states), all of one
    read; the stream checked as ``validate`` checks a file: each game is one
    document that replays to the game of its row (its digest).

    :raises HistoryStoreError: (``refused``) naming the row whose record is not its game's
        transcript (nothing is to be written), or as :func:`read_records`.
    """
    from ..formats.transcript import iter_validate, load_game

    records = read_records(path)  # one read: the games and those left out of the same moment
    games = [r for r in records if r.kind is Kind.TRANSCRIPT]
    stream = "---\n".join(r.record for r in games)
    reports = list(iter_validate(stream, path)) if games else []
    if len(reports) == len(games) and all(
        record.record.endswith("\n") and report.valid and report.game is not None and digest(report.game) == record.digest
        for report, record in zip(reports, games, strict=True)
    ):
        return Export(games, stream, len(records) - len(games))
    for record in games:  # which row: each record read alone
        try:
            game = load_game(record.record, "row")
        except FoursquareError as exc:
            why = f"its transcript does not read: {f'line {exc.line}: {exc.message}' if isinstance(exc, FormatError) else exc}"
        else:
            if not record.record.endswith("\n"):
                why = "its transcript does not end with a line end"
            elif digest(game) != record.digest:
                why = "its transcript is not the game of its row"
            else:
                continue
        raise HistoryStoreError(_not_history(path, f"damaged: row {record.id}: {why}"), refused=True)
    raise HistoryStoreError(_not_history(path, "damaged: its transcripts do not make one stream"), refused=True)
