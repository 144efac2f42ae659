"""One game of the history as its row holds it (:class:`GameRecord`), and the one
place a row is read: :func:`read_row` takes the values SQLite gives back and
either makes the record or says, naming the row and the column, why they are
not values foursquare writes (:class:`~foursquare.errors.HistoryStoreError`).

SQLite keeps whatever a column is given (a text in an ``INTEGER`` column, a
number of any size in a ``REAL`` one), so a file changed by another program, or
damaged, can hold values that no reader of this package expects: each value is
checked for its type and range, and the status, the reason and the score for
the combinations a game has (RULES.md §5: a game won has a score and no reason,
a game lost a reason and no score, a game going on neither).  The history's
store turns such a :class:`~foursquare.errors.HistoryStoreError` (naming the row) into a
refusal of the file that names it too, for every reader.

    >>> r = read_row((1, "transcript", "x", "standard", "7", 3, "playing", None, None, 0,
    ...               0.0, 1.0, None, 1.0, "prompt", None, b"d" * 16))
    >>> (r.deal, r.moves, r.status.value)
    (7, 3, 'playing')
    >>> read_row((2, "zzz", "x", "standard", None, 3, "playing", None, None, 0,
    ...           None, None, None, 1.0, "prompt", None, b"d" * 16))
    Traceback (most recent call last):
    ...
    foursquare.errors.HistoryStoreError: row 2: its kind is 'zzz', not one foursquare writes (transcript, state)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, TypeVar

from ..engine.deal import MAX_DEAL
from ..engine.game import Reason, Status
from ..engine.rules import PRESETS
from ..errors import HistoryStoreError

#: The columns a reader selects, in the order of :func:`read_row`'s values.
COLUMNS = (
    "id, kind, record, rules, deal, moves, status, reason, score, hints, started, last_move, ended, added, source,"
    " origin, digest"
)
#: The column names of :data:`COLUMNS` (a table without one of them is not a history).
COLUMN_NAMES = tuple(name.strip() for name in COLUMNS.split(","))
#: The latest time a row may hold (seconds since the epoch): the end of the year 9999,
#: the last one a date is written for.
LATEST = 253402300799.0
#: The size of a game's digest (bytes).
DIGEST_SIZE = 16


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
    :ivar status: the game's status so far (RULES.md §5).
    :ivar reason: why a lost game was lost, else ``None`` (RULES.md §5).
    :ivar score: a won game's score, else ``None`` (RULES.md §5).
    :ivar hints: the hints asked (``None``: not known).
    :ivar digest: the game's digest (:func:`~foursquare.history.store.digest`),
        empty when not read.
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
    digest: bytes = b""

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


_E = TypeVar("_E", bound=Enum)


def _shown(value: object) -> str:
    """A value as the message shows it: its repr, cut to 40 characters."""
    text = repr(bytes(value) if isinstance(value, memoryview) else value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Row:
    """The checks of one row's values, each failure a :class:`~foursquare.errors.HistoryStoreError` naming the row."""

    def __init__(self, rid: object) -> None:
        self.rid = rid

    def bad(self, column: str, value: object, expected: str) -> HistoryStoreError:
        return HistoryStoreError(f"row {self.rid}: its {column} is {_shown(value)}, not {expected}", refused=True)

    def choice(self, column: str, value: object, kind: type[_E]) -> _E:
        if isinstance(value, str):
            for member in kind:
                if member.value == value:
                    return member
        names = ", ".join(str(m.value) for m in kind)
        raise self.bad(column, value, f"one foursquare writes ({names})")

    def count(self, column: str, value: object, *, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if type(value) is not int or value < 0:
            raise self.bad(column, value, "a whole number from 0" + (" (or empty)" if optional else ""))
        return value

    def text(self, column: str, value: object, *, optional: bool = False) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str) or (not optional and not value):
            raise self.bad(column, value, "a text" + (" (or empty)" if optional else ""))
        return value

    def time(self, column: str, value: object, *, optional: bool = True) -> float | None:
        if value is None and optional:
            return None
        if not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= LATEST:
            raise self.bad(column, value, "a time (seconds since 1970, up to the year 9999)" + (" or empty" if optional else ""))
        return float(value)

    def deal(self, value: object) -> int | None:
        if value is None:
            return None
        if (
            not isinstance(value, str) or not value.isascii() or not value.isdigit()
            or (value.startswith("0") and value != "0") or len(value) > len(str(MAX_DEAL)) or int(value) > MAX_DEAL
        ):
            raise self.bad("deal", value, f"a deal number (0 to {MAX_DEAL}) or empty")
        return int(value)


def read_row(row: tuple[Any, ...]) -> GameRecord:
    """The record of a row's values (in the order of :data:`COLUMNS`).

    :raises HistoryStoreError: naming the row and the first value that foursquare never
        writes there: a value of the wrong type or out of its range (a count
        below 0, a time not finite or beyond the year 9999, a deal that is not a
        deal number, more moves than a preset's deck holds, a score above its
        best), a kind, status, reason, source or rule set's name it does not know,
        or a status with a reason or a score it never has.
    """
    (rid, kind, record, rules, deal, moves, status, reason, score, hints, started, last, ended, added, source, origin,
     key) = row
    check = _Row(rid)
    if type(rid) is not int:
        raise HistoryStoreError(f"a row whose id is {_shown(rid)}, not a whole number", refused=True)
    the_status = check.choice("status", status, Status)
    the_reason = None if reason is None else check.choice("reason", reason, Reason)
    the_score = check.count("score", score, optional=True)
    if (the_status is Status.WON) != (the_score is not None):
        raise HistoryStoreError(
            f"row {rid}: a game {the_status.value} {'without' if the_score is None else 'with'} a score", refused=True
        )
    if (the_status is Status.LOST) != (the_reason is not None):
        raise HistoryStoreError(
            f"row {rid}: a game {the_status.value} {'without' if the_reason is None else 'with'} a reason", refused=True
        )
    if not isinstance(key, bytes) or len(key) != DIGEST_SIZE:
        raise check.bad("digest", key, f"{DIGEST_SIZE} bytes")
    the_rules = str(check.text("rules", rules))
    the_moves = int(check.count("moves", moves) or 0)
    if the_rules != "custom":  # a preset's name (Rules.label): its deck bounds the counts
        if the_rules not in PRESETS:
            raise check.bad("rules", the_rules, f"a rule set's name ({', '.join(PRESETS)}) or 'custom'")
        preset = PRESETS[the_rules]
        if the_moves > preset.deck_size:
            raise check.bad("moves", the_moves, f"at most the {preset.deck_size} cards of the {the_rules} deck")
        best = preset.deck_size - preset.size * preset.size  # a win fills the grid (RULES.md §5)
        if the_score is not None and the_score > best:
            raise check.bad("score", the_score, f"a score from 0 to {best} (the {the_rules} rules)")
    return GameRecord(
        id=rid,
        kind=check.choice("kind", kind, Kind),
        record=str(check.text("record", record)),
        rules=the_rules,
        deal=check.deal(deal),
        moves=the_moves,
        status=the_status,
        reason=the_reason,
        score=the_score,
        hints=check.count("hints", hints, optional=True),
        started=check.time("started", started),
        last_move=check.time("last_move", last),
        ended=check.time("ended", ended),
        added=float(check.time("added", added, optional=False) or 0.0),
        source=check.choice("source", source, Source),
        origin=check.text("origin", origin, optional=True),
        digest=key,
    )
