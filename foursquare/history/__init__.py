"""The game history: every game played at the prompt (or imported), kept in an
SQLite file, with its rows, its statistics, the prompt's recorder and its
transcripts in and out.

- :mod:`~foursquare.history.store`: the SQLite file (:class:`HistoryStore`,
  :func:`read_records`), its checks and refusals (:class:`HistoryStoreError`,
  ``refused`` or not), a failed write in words (:func:`error_words`).
- :mod:`~foursquare.history.rows`: one game as its row holds it (:class:`GameRecord`),
  and the one place a row is read (:func:`read_row`).
- :mod:`~foursquare.history.stats`: the statistics of ``foursquare stats``
  (:func:`summarize`, :func:`by_rules`).
- :mod:`~foursquare.history.recorder`: the prompt's game kept in the history as it
  is played (:class:`GameRecorder`).
- :mod:`~foursquare.history.transcripts`: the games exported as one transcript
  stream (:func:`export_games`) and a transcript file's games read to be imported
  (:func:`read_transcripts`; :meth:`HistoryStore.import_games` adds them).

A layer beside :mod:`foursquare.formats`: it imports the foundation, the engine and
the formats only; where the file is (the data folder) is its caller's to say.

    >>> from foursquare.history import summarize
    >>> summarize([]).played
    0
"""

from ..errors import HistoryStoreError as HistoryStoreError  # documented under foursquare
from .recorder import GameRecorder
from .rows import GameRecord, Kind, Source
from .stats import Summary, by_rules, summarize
from .store import SCHEMA_VERSION, Export, HistoryStore, Imported, error_words, read_records
from .transcripts import Transcripts, export_games, export_numbers, read_transcripts

__all__ = [
    "SCHEMA_VERSION", "Export", "GameRecord", "GameRecorder",
    "HistoryStore", "Imported", "Kind", "Source", "Summary",
    "Transcripts", "by_rules", "error_words", "export_games", "export_numbers",
    "read_records", "read_transcripts", "summarize",
]  # fmt: skip
