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
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import Any

from ..engine.deal import MAX_DEAL
from ..engine.game import Reason, Status
from ..engine.rules import PRESETS
from ..errors import HistoryStoreError

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


#: The column names, those of :class:`GameRecord`'s fields (a table without one of them is not a history).
COLUMN_NAMES = tuple(field.name for field in fields(GameRecord))
#: The columns a reader selects, in the order of :func:`read_row`'s values.
COLUMNS = ", ".join(COLUMN_NAMES)


def _shown(value: object) -> str:
    """A value as the message shows it: its repr, cut to 40 characters."""
    text = repr(bytes(value) if isinstance(value, memoryview) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value)


def _time(value: object) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= LATEST


def _deal(value: object) -> bool:
    return (
        isinstance(value, str) and value.isascii() and value.isdigit() and (value == "0" or not value.startswith("0"))
        and len(value) <= len(str(MAX_DEAL)) and int(value) <= MAX_DEAL
    )


def _one_of(kind: type[Enum]) -> tuple[Callable[[object], bool], str]:
    """The test of a value that names a member of ``kind``, and its words."""
    values = [str(member.value) for member in kind]
    return (lambda value: value in values), f"one foursquare writes ({', '.join(values)})"


_TIME = "a time (seconds since 1970, up to the year 9999)"
#: What each column of :data:`COLUMNS` but the id may hold: the test of a value, its
#: words in a refusal, and whether it may be empty (``NULL``).
_CHECKS: dict[str, tuple[Callable[[object], bool], str, bool]] = {
    "kind": (*_one_of(Kind), False),
    "record": (_text, "a text", False),
    "rules": (_text, "a text", False),
    "deal": (_deal, f"a deal number (0 to {MAX_DEAL}) or empty", True),
    "moves": (_count, "a whole number from 0", False),
    "status": (*_one_of(Status), False),
    "reason": (*_one_of(Reason), True),
    "score": (_count, "a whole number from 0 (or empty)", True),
    "hints": (_count, "a whole number from 0 (or empty)", True),
    "started": (_time, f"{_TIME} or empty", True),
    "last_move": (_time, f"{_TIME} or empty", True),
    "ended": (_time, f"{_TIME} or empty", True),
    "added": (_time, _TIME, False),
    "source": (*_one_of(Source), False),
    "origin": (lambda value: isinstance(value, str), "a text (or empty)", True),
    "digest": (lambda value: isinstance(value, bytes) and len(value) == DIGEST_SIZE, f"{DIGEST_SIZE} bytes", False),
}


def _bad(rid: int, column: str, value: object, expected: str) -> HistoryStoreError:
    return HistoryStoreError(f"row {rid}: its {column} is {_shown(value)}, not {expected}", refused=True)


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def read_row(row: tuple[Any, ...]) -> GameRecord:
    """The record of a row's values (in the order of :data:`COLUMNS`).

    :raises HistoryStoreError: naming the row and the first value that foursquare never
        writes there: a value of the wrong type or out of its range (a count
        below 0, a time not finite or beyond the year 9999, a deal that is not a
        deal number, more moves than a preset's deck holds, a score above its
        best), a kind, status, reason, source or rule set's name it does not know,
        or a status with a reason or a score it never has.
    """
    values = dict(zip(COLUMN_NAMES, row, strict=True))
    rid = values["id"]
    if type(rid) is not int:
        raise HistoryStoreError(f"a row whose id is {_shown(rid)}, not a whole number", refused=True)
    for column, (test, expected, nullable) in _CHECKS.items():
        if not ((nullable and values[column] is None) or test(values[column])):
            raise _bad(rid, column, values[column], expected)
    status, rules, moves, score, reason = (values[c] for c in ("status", "rules", "moves", "score", "reason"))
    for only, column in ((Status.WON.value, "score"), (Status.LOST.value, "reason")):  # RULES.md §5
        if (status == only) != (values[column] is not None):
            has = "without" if values[column] is None else "with"
            raise HistoryStoreError(f"row {rid}: a game {status} {has} a {column}", refused=True)
    if rules != "custom":  # a preset's name (Rules.label): its deck bounds the counts
        if rules not in PRESETS:
            raise _bad(rid, "rules", rules, f"a rule set's name ({', '.join(PRESETS)}) or 'custom'")
        preset = PRESETS[rules]
        if moves > preset.deck_size:
            raise _bad(rid, "moves", moves, f"at most the {preset.deck_size} cards of the {rules} deck")
        best = preset.deck_size - preset.size * preset.size  # a win fills the grid (RULES.md §5)
        if score is not None and score > best:
            raise _bad(rid, "score", score, f"a score from 0 to {best} (the {rules} rules)")
    return GameRecord(
        id=rid, kind=Kind(values["kind"]), record=values["record"], rules=rules,
        deal=None if values["deal"] is None else int(values["deal"]),
        moves=moves, status=Status(status), reason=None if reason is None else Reason(reason), score=score,
        hints=values["hints"], started=_float(values["started"]), last_move=_float(values["last_move"]),
        ended=_float(values["ended"]), added=float(values["added"]), source=Source(values["source"]),
        origin=values["origin"], digest=values["digest"],
    )
