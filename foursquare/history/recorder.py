"""The prompt's recorder: one game kept in the history (:mod:`foursquare.history.store`)
as it is played, rewritten after every change, without ever stopping the game
(:class:`GameRecorder`).  A session resumed where a stopped game of the history
stands continues that game's row, also from a state without its moves: one game,
one row.
"""

from __future__ import annotations

import sqlite3
import time

from ..engine.game import Game, Reason
from ..errors import HistoryStoreError
from .rows import Kind, Source
from .store import HistoryStore, digest


class GameRecorder:
    """Keeps one game in the history as it is played, without ever stopping it.

    The row is added at the first change (a game looked at and left is not
    recorded; a game resumed exactly where a stopped game of the history stands
    continues that row, also one resumed from a state without its moves: one
    game, one row) and rewritten after every change (:meth:`update`).
    A write that fails (the file locked by another writer, the disk full, the
    file read-only) is kept in :attr:`error`, never raised: the next change
    tries again with the whole game, so nothing is lost once the file can be
    written.  A file that cannot be a history (a :class:`~foursquare.errors.HistoryStoreError`
    that is ``refused``) is never written: :attr:`refused` says why.

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
        self._origin = game.copy()  # where the session starts: where a stopped game it continues stands
        #: the transcript game of the row continued from a position without its moves
        #: (the session's moves are kept after it, so that the row stays a transcript)
        self._base: Game | None = None
        self._moves_before = 0  # of the sessions before, for a game kept as a state continued
        #: the reason of the first loss the game reached (``None``: none): an undo never hides it
        self.lost: Reason | None = game.reason
        self._open()

    def _open(self) -> HistoryStore | None:
        """The history, opened now if it is not open (``None``: it cannot be, now or for good)."""
        if self.store is not None:
            return self.store
        try:
            self.store = HistoryStore.open(self.path, create=True)
            self.store.records()  # every row read as every reader reads it: a damaged one, the file is never written
            # the stopped game of the history this session continues: the one whose moves are those the session
            # started with, or, for a session resumed from a position without its moves, the one that stood there
            found = None if self._origin.moves or not self._origin.placed else self.store.find_stopped_at(self._origin)
            stopped = self.store.find_stopped(self._origin) if self._origin.moves else found[0] if found else None
        except (HistoryStoreError, sqlite3.Error, OSError) as exc:
            # a file or place refused for good; else not opened, or rows not read, now (locked, read-only): tried again
            if isinstance(exc, HistoryStoreError) and (exc.refused or self.store is None):
                self.refused = exc
            elif isinstance(exc, HistoryStoreError) and isinstance(exc.__cause__, Exception):
                self.error = exc.__cause__
            else:
                self.error = exc
            self.close()
            return None
        if found is not None:  # a row kept as a transcript stays one; a state keeps no moves: their count goes on
            record, kept = found
            if record.kind is Kind.TRANSCRIPT:
                self._base = kept
            else:
                self._moves_before = record.moves
        if stopped is not None and self.row is None:
            self.row = stopped.id
            self._hints_before = stopped.hints or 0
            self.lost = self.lost or stopped.reason  # a row kept as lost goes on lost
        return self.store

    @property
    def active(self) -> bool:
        """Whether the game goes into the history (the file is not refused)."""
        return self.refused is None

    def watch(self) -> None:
        """Note the first loss the game reaches (called after every change, written or not)."""
        self.lost = self.lost or self.game.reason

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
        if self.row is None and digest(self.game) == digest(self._origin):
            return True  # nothing played yet: nothing to keep
        try:
            if (store := self._open()) is None:
                return False
            # the game the history keeps: the session's, or, when it continues a row kept as a transcript from
            # a position without its moves, that row's game with the session's moves after it (the same cards)
            game = self.game
            if self._base is not None:
                game = self._base.copy()
                for move in self.game.moves:
                    game.play(move.cell, move.card)
            self.row = store.write(
                game, self.source, row=self.row, started=self.started, hints=hints + self._hints_before, lost=self.lost, ended=ended,
                moves=self._moves_before + len(game.moves),
            )
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

