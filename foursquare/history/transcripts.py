"""The history's games as transcripts (FORMATS.md "Transcripts"): what ``history
export`` writes (:func:`export_games`, the games numbered by :func:`export_numbers`)
and what ``history import`` adds (:func:`read_transcripts`, every game checked
first, then :meth:`~foursquare.history.store.HistoryStore.import_games`: all or
none).  The history's file is its caller's to name (the data folder).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "h.sqlite3")
    >>> export_games(path).games, export_games(path).left_out
    ([], 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.game import Game
from ..errors import FormatError
from .rows import GameRecord, Kind
from .store import export_games as export_games  # (history export's, beside import's)


def export_numbers(records: Sequence[GameRecord]) -> dict[int, int]:
    """Row id -> the game's number in the export (from 1, oldest first); a game kept
    as a state (resumed from a position without its moves) has none."""
    return {record.id: number for number, record in enumerate((r for r in records if r.kind is Kind.TRANSCRIPT), 1)}


@dataclass(frozen=True)
class Transcripts:
    """The games of a transcript file, checked (:func:`read_transcripts`).

    :ivar name: the file's name as messages show it (``<stdin>`` for ``-``).
    :ivar games: the valid games, in the file's order.
    :ivar invalid: the games that are not valid.
    """

    name: str
    games: list[Game]
    invalid: int


def read_transcripts(file: str, on_error: Callable[[FormatError], None]) -> Transcripts:
    """The games of the transcript file ``file`` (``-``: stdin), each checked as
    ``foursquare validate`` checks it; each error of an invalid game given to
    ``on_error`` as it is found (one game read at a time).

    :raises FormatError: when the file cannot be read (:func:`~foursquare.formats.inputs.read_source`).
    """
    from ..formats.inputs import read_source
    from ..formats.transcript import iter_validate

    text, name = read_source(file)
    games: list[Game] = []
    invalid = 0
    for report in iter_validate(text, name):
        if not report.valid:
            invalid += 1
            for error in report.errors:
                on_error(error)
        elif report.game is not None:
            games.append(report.game)
    return Transcripts(name, games, invalid)
