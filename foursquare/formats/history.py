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
  prompt warns and tries again after the next move).
- **A crash keeps the game so far.**  A game's row is written at its first move
  and rewritten after every change (:class:`GameRecorder`), each write committed.
- **A file from a newer version is never altered.**  Its schema version
  (``PRAGMA user_version``) is read before anything is written, and a version
  above :data:`SCHEMA_VERSION` is refused (:class:`NewerHistoryError`).
- **A file that is not a history is never overwritten**: one that is not an
  SQLite file (its header), fails SQLite's ``quick_check``, or is an SQLite file
  of other tables is refused (:class:`CorruptHistoryError`), and left as it is.

The statistics of :func:`summarize` are pure functions of the records.

    >>> import tempfile, os
    >>> from foursquare.engine.game import Game
    >>> folder = tempfile.mkdtemp()
    >>> with HistoryStore.open(os.path.join(folder, "h.sqlite3"), create=True) as store:
    ...     game = Game.from_deal(1)
    ...     _ = game.play("d4")
    ...     row = store.add(game, Source.PROMPT, started=0.0)
    ...     [(r.deal, r.moves, r.status.value) for r in store.records()]
    [(1, 1, 'playing')]
"""

from __future__ import annotations

import errno
import hashlib
import math
import os
import sqlite3
import stat
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import TracebackType
from typing import Any, NamedTuple

from ..engine.game import Game, Reason, Status
from ..errors import FoursquareError, shown_name
from ..stats import wilson_interval

#: The schema this module reads and writes (``PRAGMA user_version``).
SCHEMA_VERSION = 1
#: How long a writer waits for another writer's lock before it gives up (seconds).
BUSY_SECONDS = 1.0
#: The first 16 bytes of every SQLite 3 file.
SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE games (
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
CREATE INDEX games_digest ON games (digest);
"""
_STATEMENTS = tuple(part.strip() for part in _SCHEMA.split(";") if part.strip())
_COLUMNS = (
    "id, kind, record, rules, deal, moves, status, reason, score, hints, started, last_move, ended, added, source, origin"
)


class HistoryStoreError(FoursquareError):
    """The history file cannot be used: the message names the file and why."""


class NewerHistoryError(HistoryStoreError):
    """The history file was written by a newer version of foursquare (its schema
    version is above :data:`SCHEMA_VERSION`); it is left as it is."""


class CorruptHistoryError(HistoryStoreError):
    """The history file is not a foursquare history (not SQLite, damaged, or
    another program's tables); it is left as it is."""


class Imported(NamedTuple):
    """What :meth:`HistoryStore.import_games` did with the games it was given."""

    #: the games added to the history
    added: int
    #: the games left out because the history held them already
    already: int
    #: the games left out because they came earlier in the same import
    repeated: int


class Kind(StrEnum):
    """What a row's ``record`` holds."""

    #: a transcript (FORMATS.md): the game from its first card
    TRANSCRIPT = "transcript"
    #: a state (FORMATS.md): a game resumed from a position without its moves
    STATE = "state"


class Source(StrEnum):
    """Where a game of the history came from."""

    PROMPT = "prompt"
    SCRIPT = "script"
    IMPORT = "import"


@dataclass(frozen=True)
class GameRecord:
    """One game of the history, as its row holds it.

    Times are seconds since the Unix epoch (UTC), ``None`` when not known (an
    imported game; ``ended`` of a session that was killed).

    :ivar id: the row's number (in the order the games were added).
    :ivar kind: what :attr:`record` holds (:class:`Kind`).
    :ivar record: the transcript (or state) YAML.
    :ivar rules: the rule set's name (``standard``, ``custom``).
    :ivar deal: the deal number, or ``None`` for a game from a deck.
    :ivar moves: the moves made.
    :ivar status, reason, score: the game's result so far (RULES.md §5).
    :ivar hints: the hints asked (``None``: not known).
    """

    id: int
    kind: Kind
    record: str
    rules: str
    deal: int | None
    moves: int
    status: Status
    reason: Reason | None
    score: int | None
    hints: int | None
    started: float | None
    last_move: float | None
    ended: float | None
    added: float
    source: Source
    origin: str | None = None

    @property
    def finished(self) -> bool:
        """Whether the game is over (won or lost)."""
        return self.status is not Status.PLAYING

    @property
    def seconds(self) -> float | None:
        """The time from the start to the last move (seconds), when both are known."""
        if self.started is None or self.last_move is None:
            return None
        return max(0.0, self.last_move - self.started)


def digest(game: Game) -> bytes:
    """A 16-byte digest of a game: its rules, card order and moves (as
    :class:`~foursquare.formats.transcript.Repeats` compares games)."""
    key = repr((game.rules, [str(c) for c in game.deck], [(str(p.card), str(p.cell)) for p in game.moves]))
    return hashlib.blake2b(key.encode(), digest_size=16).digest()


def record_of(game: Game) -> tuple[Kind, str]:
    """What a row keeps of ``game``: its transcript (each move as ``"CARD CELL"``, with
    the result; the claims of each move, which a reader works out again, would make
    it ten times slower to write), or its state when it was resumed from a position
    without its moves."""
    if len(game.moves) == game.placed:
        from .transcript import transcript_text

        return Kind.TRANSCRIPT, transcript_text(game, claims=False)
    from .state import state_text

    return Kind.STATE, state_text(game)


def _check_header(path: str) -> None:
    """Refuse a file that is not SQLite, before SQLite opens it (an empty file is a new database)."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise HistoryStoreError(f"{shown_name(path)}: is a directory, not a history file") from None
    except OSError as exc:
        raise HistoryStoreError(f"{shown_name(path)}: cannot read the history: {exc.strerror or exc}") from None
    if head and head != SQLITE_HEADER:
        raise CorruptHistoryError(_not_history(path, "it is not an SQLite database"))


def _check_folder(path: str) -> None:
    """Refuse a history whose place cannot be used: a folder on its way that is a
    file, or one that cannot be searched (permissions).  A folder that does not
    exist yet is no fault: the history is empty (and made at the first write).

    :raises HistoryStoreError: naming ``path`` and why, the same for every reader and writer.
    """
    try:
        os.stat(path)
    except FileNotFoundError:
        return
    except NotADirectoryError:
        raise HistoryStoreError(f"{shown_name(path)}: cannot read the history: {_not_a_folder(path)}") from None
    except OSError as exc:
        raise HistoryStoreError(f"{shown_name(path)}: cannot read the history: {exc.strerror or exc}") from None


def _not_a_folder(path: str) -> str:
    """Why ``path`` cannot be reached for ``ENOTDIR``: the first folder on its way that is not one."""
    folder = os.path.abspath(path)
    ways = []
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        ways.append(parent)
        folder = parent
    for way in reversed(ways):  # from the root down
        if os.path.lexists(way) and not os.path.isdir(way):
            return f"{shown_name(way)} is a file, not a folder"
    return os.strerror(errno.ENOTDIR)


def _refuse_read_only(path: str) -> None:
    """Refuse to write a history file whose mode has no write bit for its owner (as
    :mod:`foursquare.cli.files` refuses such files, even for root)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and not mode & stat.S_IWUSR:
        raise PermissionError(errno.EACCES, "the history file is read-only (its mode has no write bit)", path)


def _not_history(path: str, why: str) -> str:
    return (
        f"{shown_name(path)}: not a foursquare history ({why}); it is left as it is:"
        " move it away to start a new history"
    )


class HistoryStore:
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
        :raises NewerHistoryError: for a schema version above :data:`SCHEMA_VERSION`.
        :raises CorruptHistoryError: for a file that is not a foursquare history.
        :raises HistoryStoreError: for a file that cannot be opened (a directory,
            permissions) or a place that cannot hold one (a folder on its way that
            is a file or cannot be searched), with or without ``create``: a folder
            that does not exist yet is an empty history, an unusable one is not;
            :class:`sqlite3.OperationalError` when it is locked while its table is created.
        """
        _check_folder(path)
        if not create and not os.path.exists(path):
            return cls(path, sqlite3.connect(":memory:", isolation_level=None))._created()
        _check_header(path)
        if create:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            except OSError as exc:
                raise HistoryStoreError(f"{shown_name(path)}: cannot make its folder: {exc.strerror or exc}") from None
        if create:
            _refuse_read_only(path)
        try:
            db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise HistoryStoreError(f"{shown_name(path)}: cannot open the history: {exc}") from None
        store = cls(path, db)
        try:
            version = store._check()
            if create:
                store._prepare(version)
            elif version == 0:  # an empty SQLite file: an empty history, the file left as it is
                db.close()
                store._db = sqlite3.connect(":memory:", isolation_level=None)
                store._created()
        except BaseException:
            store._db.close()
            raise
        return store

    def _created(self) -> HistoryStore:
        for statement in _STATEMENTS:
            self._db.execute(statement)
        return self

    def _check(self) -> int:
        """The schema version, after the checks of the file's soundness (nothing written).

        :raises NewerHistoryError, CorruptHistoryError: see :meth:`open`.
        :raises sqlite3.OperationalError: when the file cannot be read now (locked).
        """
        try:
            self._db.execute("BEGIN")  # one snapshot: the version and the tables of the same moment
            try:
                version, tables = self._version(), self._tables()
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
            if version > SCHEMA_VERSION:
                raise NewerHistoryError(
                    f"{shown_name(self.path)}: the history was written by a newer foursquare (schema version"
                    f" {version}; this one reads version {SCHEMA_VERSION}); it is left as it is:"
                    " upgrade foursquare to use it"
                )
            check = self._db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise CorruptHistoryError(_not_history(self.path, f"SQLite finds it damaged: {check[0] if check else '?'}"))
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            raise CorruptHistoryError(_not_history(self.path, str(exc))) from None
        if version == 0 and tables:
            raise CorruptHistoryError(_not_history(self.path, "it is an SQLite database of other tables"))
        if version == SCHEMA_VERSION and "games" not in tables:
            raise CorruptHistoryError(_not_history(self.path, "its table of games is missing"))
        return version

    def _prepare(self, version: int) -> None:
        """Make the file ready for writers: WAL mode, and the table when it is new.

        :raises sqlite3.OperationalError: when it cannot be written now (locked, read-only, full).
        """
        if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        if version != 0:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if self._version() == 0:  # another writer may have created it meanwhile
                for statement in _STATEMENTS:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _tables(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _version(self) -> int:
        row = self._db.execute("PRAGMA user_version").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the file (what was written is committed already)."""
        self._db.close()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------ writing

    def add(
        self,
        game: Game,
        source: Source,
        *,
        started: float | None,
        hints: int | None = 0,
        origin: str | None = None,
        now: float | None = None,
    ) -> int:
        """Add a game (one transaction).

        :param started: when it started (epoch seconds), ``None`` when not known.
        :returns: the new row's :attr:`GameRecord.id`.
        """
        now = time.time() if now is None else now
        kind, record = record_of(game)
        last = now if source is not Source.IMPORT else None
        cursor = self._db.execute(
            "INSERT INTO games (kind, record, rules, deal, moves, status, reason, score, hints, started, last_move,"
            " ended, added, source, origin, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
            (
                kind.value, record, game.rules.label, _deal(game), len(game.moves), game.status.value,
                _reason(game), game.score, hints, started, last, now, source.value, origin, digest(game),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update(self, row: int, game: Game, *, hints: int, ended: bool = False, now: float | None = None) -> None:
        """Rewrite the game of row ``row`` as it stands (one transaction); ``ended``:
        the session ends now.  A change of the moves sets the time of the last move."""
        now = time.time() if now is None else now
        kind, record = record_of(game)
        self._db.execute(
            "UPDATE games SET kind = ?, record = ?, last_move = CASE WHEN digest = ? THEN last_move ELSE ? END,"
            " moves = ?, status = ?, reason = ?, score = ?, hints = ?, digest = ?,"
            " ended = CASE WHEN ? THEN ? ELSE NULL END WHERE id = ?",
            (
                kind.value, record, digest(game), now, len(game.moves), game.status.value, _reason(game),
                game.score, hints, digest(game), ended, now, row,
            ),
        )

    def find_stopped(self, game: Game) -> GameRecord | None:
        """The latest game of the history stopped exactly where ``game`` stands (the
        same rules, cards and moves, still playing), or ``None``: a game resumed
        from its recording continues its row."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE digest = ? AND status = 'playing' AND source != 'import'"
            " ORDER BY id DESC LIMIT 1",
            (digest(game),),
        ).fetchall()
        return _record(rows[0]) if rows else None

    def import_games(self, games: Sequence[Game], origin: str) -> Imported:
        """Add recorded games, all or none (one transaction); a game already in the
        history (the same rules, cards and moves), or one given earlier in
        ``games``, is not added again.

        :returns: the games added, those already in the history, and those repeated
            in ``games`` (each counted once, as the first reason it was left out).
        """
        added = already = repeated = 0
        now = time.time()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            there = {bytes(row[0]) for row in self._db.execute("SELECT digest FROM games")}
            given: set[bytes] = set()
            for game in games:
                key = digest(game)
                if key in there:
                    already += 1
                elif key in given:
                    repeated += 1
                else:
                    given.add(key)
                    self.add(game, Source.IMPORT, started=None, hints=None, origin=origin, now=now)
                    added += 1
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        return Imported(added, already, repeated)

    # ------------------------------------------------------------ reading

    def records(self, limit: int | None = None, *, newest_first: bool = False) -> list[GameRecord]:
        """The games, in the order they were added (``newest_first``: the reverse),
        at most ``limit`` of them (the newest when newest first)."""
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT {_COLUMNS} FROM games ORDER BY id {order}"
        params: tuple[int, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        return [_record(row) for row in self._db.execute(sql, params)]

    def __iter__(self) -> Iterator[GameRecord]:
        for row in self._db.execute(f"SELECT {_COLUMNS} FROM games ORDER BY id"):
            yield _record(row)


def _deal(game: Game) -> str | None:
    return None if game.deal is None else str(game.deal)  # a deal number may exceed SQLite's 64-bit signed integers


def _reason(game: Game) -> str | None:
    return None if game.reason is None else game.reason.value


def _record(row: tuple[Any, ...]) -> GameRecord:
    (rid, kind, record, rules, deal, moves, status, reason, score, hints, started, last, ended, added, source, origin) = row
    return GameRecord(
        id=int(rid),
        kind=Kind(kind),
        record=str(record),
        rules=str(rules),
        deal=None if deal is None else int(str(deal)),
        moves=int(moves),
        status=Status(status),
        reason=None if reason is None else Reason(reason),
        score=None if score is None else int(score),
        hints=None if hints is None else int(hints),
        started=None if started is None else float(started),
        last_move=None if last is None else float(last),
        ended=None if ended is None else float(ended),
        added=float(added),
        source=Source(source),
        origin=None if origin is None else str(origin),
    )


# ------------------------------------------------------------------ the prompt's recorder


class GameRecorder:
    """Keeps one game in the history as it is played, without ever stopping it.

    The row is added at the first change (a game looked at and left is not
    recorded; a game resumed exactly where a stopped game of the history stands
    continues that row) and rewritten after every change (:meth:`update`).
    A write that fails (the file locked by another writer, the disk full, the
    file read-only) is kept in :attr:`error`, never raised: the next change
    tries again with the whole game, so nothing is lost once the file can be
    written.  A file that cannot be a history (:class:`NewerHistoryError`,
    :class:`CorruptHistoryError`) is never written: :attr:`refused` says why.

    :param path: the history file (created when missing).
    :param game: the game being played.
    :param source: :data:`Source.PROMPT` or :data:`Source.SCRIPT`.
    """

    def __init__(self, path: str, game: Game, source: Source = Source.PROMPT) -> None:
        self.path = path
        self.game = game
        self.source = source
        self.started = time.time()
        self.row: int | None = None
        self.store: HistoryStore | None = None
        #: why the last write failed (``None``: the history holds the game as it stands)
        self.error: Exception | None = None
        #: why the file is not used at all (``None``: it is)
        self.refused: HistoryStoreError | None = None
        self._hints_before = 0  # of the sessions before, for a game continued
        self._start = digest(game)
        self._open()

    def _open(self) -> bool:
        if self.store is not None:
            return True
        try:
            self.store = HistoryStore.open(self.path, create=True)
        except HistoryStoreError as exc:
            self.refused = exc
            return False
        except (sqlite3.Error, OSError) as exc:
            self.error = exc
            return False
        if self.game.moves:
            try:
                stopped = self.store.find_stopped(self.game)
            except sqlite3.Error:
                stopped = None
            if stopped is not None:
                self.row = stopped.id
                self._hints_before = stopped.hints or 0
                self._start = b""
        return True

    @property
    def active(self) -> bool:
        """Whether the game goes into the history (the file is not refused)."""
        return self.refused is None

    @property
    def behind(self) -> bool:
        """Whether the history misses something of the game (its last write failed)."""
        return self.active and self.error is not None

    def update(self, hints: int, *, ended: bool = False) -> bool:
        """Write the game as it stands (its row added at the first change).

        :param hints: the hints asked so far in this session (added to those of the
            sessions before, for a game continued).
        :param ended: the session ends: the end time is written too (a game never
            changed is then not written at all).
        :returns: whether the history now holds the game as it stands; a failure is
            kept in :attr:`error`.
        """
        if not self.active:
            return False
        if self.row is None and digest(self.game) == self._start:
            return True  # nothing played yet: nothing to keep
        try:
            if not self._open():
                return False
            assert self.store is not None
            hints += self._hints_before
            if self.row is None:
                self.row = self.store.add(self.game, self.source, started=self.started, hints=hints)
                if ended:
                    self.store.update(self.row, self.game, hints=hints, ended=True)
            else:
                self.store.update(self.row, self.game, hints=hints, ended=ended)
        except (sqlite3.Error, OSError) as exc:
            self.error = exc
            return False
        self.error = None
        return True

    def close(self) -> None:
        """Close the file."""
        if self.store is not None:
            self.store.close()
            self.store = None


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
    lower = text.lower()
    if "locked" in lower or "busy" in lower or code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return f"{text} (another foursquare command or program is writing it)"
    if "full" in lower or code == "SQLITE_FULL":
        return f"{text} (the disk is full)"
    if code.startswith("SQLITE_IOERR"):
        return f"{text} (a write failed: the disk may be full, over a size limit, or failing)"
    if "readonly" in lower or "read-only" in lower or code.startswith("SQLITE_READONLY"):
        return f"{text} (the file or its folder is read-only)"
    return text


# ------------------------------------------------------------------ statistics


@dataclass
class Summary:
    """The statistics of some games of the history (:func:`summarize`).

    :ivar played: the games over (won or lost); :ivar stopped: the games left
        while still playing (a session quit or killed), not counted as played.
    :ivar won, lost: of the games played.
    :ivar win_share: ``won / played`` (0 with none); :ivar win_interval: its 95%
        Wilson interval.
    :ivar mean_score, best_score: of the games won (the score is a won game's,
        RULES.md §5), ``None`` with none.
    :ivar current_streak, longest_streak: games won in a row, in the order they
        ended: the run at the end, and the longest run.
    :ivar hints_per_game: hints asked per game played or stopped (of those whose
        hints are known), ``None`` with none.
    :ivar seconds_per_game: the median time from the first card to the last
        move of the games played, ``None`` with none known.
    :ivar scores: score -> games won with it.
    """

    played: int = 0
    won: int = 0
    lost: int = 0
    stopped: int = 0
    win_share: float = 0.0
    win_interval: tuple[float, float] = (0.0, 1.0)
    mean_score: float | None = None
    best_score: int | None = None
    current_streak: int = 0
    longest_streak: int = 0
    hints_per_game: float | None = None
    seconds_per_game: float | None = None
    scores: dict[int, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """A JSON-friendly mapping of every field (``scores`` keys as text)."""
        return {
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "stopped": self.stopped,
            "win_share": self.win_share,
            "win_interval": list(self.win_interval),
            "mean_score": self.mean_score,
            "best_score": self.best_score,
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
            "hints_per_game": self.hints_per_game,
            "seconds_per_game": self.seconds_per_game,
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
        }


def summarize(records: Sequence[GameRecord]) -> Summary:
    """The statistics of ``records`` (any order: the streaks follow the order the
    games ended, the time of their last move, or for an imported game the time it
    was added).

    >>> summarize([]).played
    0
    """
    out = Summary()
    finished = sorted(
        (r for r in records if r.finished), key=lambda r: (r.last_move if r.last_move is not None else r.added, r.id)
    )
    out.stopped = sum(1 for r in records if not r.finished)
    out.played = len(finished)
    out.won = sum(1 for r in finished if r.status is Status.WON)
    out.lost = out.played - out.won
    out.win_share = out.won / out.played if out.played else 0.0
    out.win_interval = wilson_interval(out.won, out.played)
    scores = [r.score for r in finished if r.status is Status.WON and r.score is not None]
    if scores:
        out.mean_score = statistics.fmean(scores)
        out.best_score = max(scores)
        for s in scores:
            out.scores[s] = out.scores.get(s, 0) + 1
    run = 0
    for r in finished:
        run = run + 1 if r.status is Status.WON else 0
        out.longest_streak = max(out.longest_streak, run)
    out.current_streak = run
    hints = [r.hints for r in records if r.hints is not None]
    if hints:
        out.hints_per_game = sum(hints) / len(hints)
    times = [s for s in (r.seconds for r in finished) if s is not None and math.isfinite(s)]
    if times:
        out.seconds_per_game = statistics.median(times)
    return out
