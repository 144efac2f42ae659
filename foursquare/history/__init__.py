"""The game history: every game played at the prompt (or imported), kept in an
SQLite file, with its rows, its statistics and the prompt's recorder.

- :mod:`~foursquare.history.store`: the SQLite file (:class:`HistoryStore`), its
  checks and refusals (:class:`HistoryStoreError` and its kinds), :func:`error_words`.
- :mod:`~foursquare.history.rows`: one game as its row holds it (:class:`GameRecord`),
  and the one place a row is read (:class:`DamagedRow`).
- :mod:`~foursquare.history.stats`: the statistics of ``foursquare stats`` (:func:`summarize`).
- :mod:`~foursquare.history.recorder`: the prompt's game kept in the history as it is
  played (:class:`GameRecorder`).

A layer beside :mod:`foursquare.formats`: it imports the foundation, the engine and
the formats only; where the file is (the data folder) is its caller's to say.
"""

from __future__ import annotations

from .recorder import GameRecorder
from .rows import DamagedRow, GameRecord, Kind, Source
from .stats import Summary, summarize
from .store import (
    SCHEMA_VERSION,
    CorruptHistoryError,
    HistoryStore,
    HistoryStoreError,
    Imported,
    NewerHistoryError,
    error_words,
)

__all__ = [
    "SCHEMA_VERSION",
    "CorruptHistoryError",
    "DamagedRow",
    "GameRecord",
    "GameRecorder",
    "HistoryStore",
    "HistoryStoreError",
    "Imported",
    "Kind",
    "NewerHistoryError",
    "Source",
    "Summary",
    "error_words",
    "summarize",
]
