"""Resumable sweeps, what ``solve --deals`` and ``simulate`` share, usable without
Click: where the tasks run (:class:`Workers`: worker processes, or a Dask cluster,
``--scheduler``), the rows of an ``--output`` CSV written each at once
(:class:`RowWriter`) and ``--resume`` (:func:`resume_csv`: continuing a CSV that
stopped partway).  What this module refuses is a :class:`~foursquare.errors.FoursquareError`
carrying the facts (:class:`ResumeMismatch`, :class:`NotAFileToResume`,
:class:`ForeignCsvError`); the command line words them in its options.

**How a CSV records its settings.**  Every row carries the settings that shape
its result, in the last columns (``rules``, ``max_nodes``, ``timeout`` for solve;
``seed``, ``nodes``, ``budget``, ``rules`` for simulate, beside its ``bot``
column; an empty cell for a limit not given): the file stays one plain CSV, a
header and rows, that a spreadsheet reads, a table of one sweep says how it was
made, and tables of several sweeps can be put together.  The deal range is not a
setting of a row: a file resumes a range when its rows are the first deals of
that range, in order (with simulate, each deal's games in the order of the bots).

**How a run resumes** (:func:`resume_csv`).  The file is claimed as any
``--output`` file (:func:`~foursquare.app.files.claim`: locked while it is
written, one writer); its header must be this command's, each whole row must
have this run's settings and the deal (and bot) due at its place, else the run
is refused before any work (a settings mismatch is a usage error, status 2; a
row that is not this command's, bad input, status 1, naming the line: a file
that does not begin with the header line, a line ending in LF alone where ours
end in CR LF (a file converted by dos2unix or git: refused, never rewritten), a
value the command never writes under the run's rules, such as a score above the
deck size less the grid's piles or a status with a score it never has, a field
with spaces around it, a CR alone inside a row).  The
last line, when it lacks any line end (a crash, a power cut) and is the start of
the row due there (or of the header line, the file's only line), is cut off, and so are the games of a deal not every bot
finished; nothing else of the file is ever altered: the new rows are appended
after the rows kept, each flushed as in any run.  So at every moment the file holds whole rows of the sweep in deal order
(and at most one partial line after a crash, which the next resume cuts), and
the finished file is the one an uninterrupted run writes, but for the measured
times (the ``seconds`` column).
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from ..errors import FormatError, FoursquareError, quote, shown_name
from .files import claim

if TYPE_CHECKING:
    from ..cluster import Cluster, SchedulerAddress
    from ..engine.rules import Rules

#: The CSV's line end (the csv module's).
LINE_END = "\r\n"


def rules_text(rules: Rules) -> str:
    """A rule set in one CSV cell: its preset name, or the parameters that differ
    from the standard rules (``size=5 pile_cap=3``).

    >>> from foursquare.engine.rules import STANDARD, get_rules
    >>> rules_text(STANDARD), rules_text(get_rules("fixed-board")) == "fixed-board"
    ('standard', True)
    >>> rules_text(STANDARD.with_changes(size=5))
    'size=5'
    """
    from ..engine.rules import PRESETS, STANDARD

    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    base = STANDARD.parameters()
    return " ".join(f"{key}={value}" for key, value in rules.parameters().items() if base[key] != value) or "standard"


def limit_text(value: float | int | None) -> str:
    """A limit in a CSV cell: empty for none."""
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Workers:
    """Where a sweep's tasks run: ``jobs`` worker processes of this machine, or the
    Dask cluster whose scheduler is at ``scheduler`` (its address checked once, by
    :meth:`at`)."""

    jobs: int = 1
    scheduler: SchedulerAddress | None = None

    @classmethod
    def at(cls, jobs: int, scheduler: str | None) -> Workers:
        """The workers of a sweep, the scheduler's address read by Dask's own parsing
        before any connection (:func:`foursquare.cluster.scheduler_address`).

        :raises ClusterAddressError: for an address Dask cannot connect to.
        :raises ClusterUnavailable: without the ``dask`` extra.
        """
        from ..cluster import scheduler_address

        return cls(jobs, None if scheduler is None else scheduler_address(scheduler))

    def connect(self) -> Cluster | None:
        """The cluster, connected (``None``: the tasks run here).

        :raises ClusterError: when the scheduler cannot be reached.
        """
        from ..cluster import connect

        return None if self.scheduler is None else connect(self.scheduler)


class ResumeMismatch(FoursquareError, ValueError):
    """A row of the file to continue that is not the row this run writes at its place:
    another deal, another bot (at the command line, a usage error).

    :ivar where: ``FILE:LINE`` of the row.
    """

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        super().__init__(f"{where}: {message}")


class SettingMismatch(ResumeMismatch):
    """A row written with another value of a setting (``column``): ``was`` in the
    file, ``now`` in this run (``none`` for a limit not given)."""

    def __init__(self, where: str, column: str, was: str, now: str) -> None:
        self.column, self.was, self.now = column, was, now
        super().__init__(
            where, f"the file was written with {column} {shown_field(was)}, this run has {now}: "
            "resume it with the settings it was written with, or write another file"
        )


class DealOutOfRange(ResumeMismatch):
    """A row of a deal outside the run's range: past its end (``first`` false), or the
    file's first row at another deal than the range's first (``first`` true)."""

    def __init__(self, where: str, deal: str, deals: range, first: bool) -> None:
        self.deal, self.deals, self.first = deal, deals, first
        if first:
            message = f"the file starts at deal {shown_field(deal)}, the deals start at {deals.start}"
        else:
            message = f"the file holds more deals than {deals.start}-{deals.stop - 1} (deal {shown_field(deal)})"
        super().__init__(where, message)


class NotAFileToResume(FoursquareError, ValueError):
    """The file to continue is a FIFO (named pipe): read to be continued, it would wait for a writer."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"{shown_name(path)} is a FIFO (named pipe), not a file to continue")


class ForeignCsvError(FormatError):
    """The file to continue does not begin with this command's header line."""

    def __init__(self, path: str, header: Sequence[str]) -> None:
        self.header = list(header)
        super().__init__(path, 1, f"not a CSV of this command to continue (its header is not {','.join(header)})")


@dataclass(frozen=True)
class SweepCsv:
    """What the ``--output`` CSV of a run holds, for :func:`resume_csv`.

    :ivar header: the command's CSV column names.
    :ivar settings: ``(column, value)`` for each setting column: the value this run writes there.
    :ivar deals: the run's deal range: the file's rows must be its first deals.
    :ivar parse: reads a row (a mapping of the header's names); raises
        :class:`ValueError` for a value this command does not write.
    :ivar bots: for simulate: the bots, in the order of each deal's rows (a ``bot``
        column); ``None``: one row a deal.
    """

    header: Sequence[str]
    settings: Sequence[tuple[str, str]]
    deals: range
    parse: Callable[[dict[str, str]], Any]
    bots: Sequence[str] | None = None

    @property
    def group(self) -> int:
        """The rows of one deal."""
        return len(self.bots) if self.bots else 1


@dataclass
class Resumed:
    """How many rows an ``--output`` file already holds (each handed, read by the
    ``parse`` given to :func:`resume_csv`, to its ``keep``) and the file, open at
    their end for the next rows."""

    rows: int
    stream: IO[str]


def resume_csv(path: str, layout: SweepCsv, keep: Callable[[list[Any]], None]) -> Resumed:
    """Open ``--output`` ``path`` to continue it (module doc): check what it holds,
    cut a partial last line (and, with ``bots``, a deal not every bot finished).
    The file is read a line at a time: its rows are handed on, never held.

    :param layout: what the file holds (its header, this run's settings and deals, ...).
    :param keep: called with the parsed rows of each whole deal kept, in order (one
        row, or with ``bots`` one per bot); when a later line is refused, what it
        was given is to be thrown away.
    :returns: the number of rows kept and the file open after them; a missing or
        empty file, or one whose header line was cut short, gets the header.
    :raises NotAFileToResume: for a FIFO.
    :raises ResumeMismatch: a row of other settings or of a deal not due there.
    :raises FormatError: ``FILE:LINE:`` for a file that is not this command's CSV
        (:class:`ForeignCsvError`: another header).
    :raises OSError: naming the file: it cannot be read or written, another writer holds it.
    """
    try:
        info: os.stat_result | None = os.stat(path)
    except OSError:
        info = None
    if info is not None and stat.S_ISFIFO(info.st_mode):  # read to be continued: it would wait for a writer
        raise NotAFileToResume(path)
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        # /dev/null, a device: nothing to continue
        stream = open(path, "w", newline="", encoding="utf-8")
        stream.write(",".join(layout.header) + LINE_END)
        return Resumed(0, stream)
    held = claim(path)
    try:
        with os.fdopen(os.dup(held.fd), "rb") as raw:
            raw.seek(0)
            rows, kept, fresh = _read(raw, path, layout, keep)
        os.ftruncate(held.fd, kept)  # a partial last line (a crash), an unfinished deal
        os.lseek(held.fd, 0, os.SEEK_END)
        fd, held.fd = held.fd, -1
    except BaseException:
        held.release()
        raise
    stream = os.fdopen(fd, "w", newline="", encoding="utf-8")  # (not truncated: appended to, the lock kept)
    if fresh:
        RowWriter(stream, path).write(layout.header)
    return Resumed(rows, stream)


class RowWriter:
    """Writes the rows of an ``--output`` CSV, each at once (nothing kept in a buffer),
    so that a row the caller counts is in the file: :meth:`write` returns only once
    the whole row is written.  A write that fails (a full disk, a file size limit)
    raises, and may have left the start of the row in the file: a last line without
    its line end, which ``--resume`` cuts (module doc); nothing of it is written later.

    :param stream: the file, opened by the command (``-``: standard output).
    :param path: its name, for the error of a failed write (``<stdout>`` for ``-``).
    """

    def __init__(self, stream: IO[str], path: str) -> None:
        self.stream = stream
        self.path = path if path != "-" else "<stdout>"
        self._fd: int | None = None
        if path != "-":  # (stdout's own writes go through its stream: its reader may be gone)
            try:
                stream.flush()
                self._fd = stream.fileno()
            except (OSError, ValueError):  # not a file of the system: written through the stream
                self._fd = None

    def write(self, fields: Sequence[object]) -> None:
        """Write one row (as the csv module writes it), whole, or raise.

        :raises OSError: naming the file, when it cannot be written.
        """
        line = _csv_line(fields)
        try:
            if self._fd is None:
                self.stream.write(line)
                self.stream.flush()
                return
            data = line.encode("utf-8")
            while data:
                data = data[os.write(self._fd, data):]
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise OSError(exc.errno, exc.strerror, self.path) from None


#: The longest line read back (a row is a few hundred bytes): a longer one is not ours.
LONGEST_LINE = 1 << 16


def _read(raw: IO[bytes], path: str, layout: SweepCsv, keep: Callable[[list[Any]], None]) -> tuple[int, int, bool]:
    """Read the file ``raw`` (at its start) a line at a time: ``(rows kept, the byte
    offset after the last one kept, whether the header is to be written)``.

    Only a last line without any line end that is the start of the line due there
    (the header, or the row due there) is left out (to be cut); anything else that
    is not what this command writes is refused, the file untouched.
    """
    rules = _rules_of(layout.settings)
    count = 0  # the rows kept (whole deals)
    pending: list[Any] = []  # the rows of a deal not every bot has finished yet
    # a byte-order mark (a spreadsheet or an editor that saved the file "as UTF-8 with
    # BOM") is not content: it is kept, and the rows are read and appended after it
    first = raw.readline(LONGEST_LINE)
    start = len(codecs.BOM_UTF8) if first.startswith(codecs.BOM_UTF8) else 0
    if _header_due(path, first[start:], layout.header):
        return 0, start, True
    keep_at = offset = len(first)  # the offset after the last whole deal; after the last line read
    number = 1
    while data_line := raw.readline(LONGEST_LINE):
        number += 1
        offset += len(data_line)
        if not data_line.endswith(b"\n"):
            if len(data_line) == LONGEST_LINE:
                raise FormatError(path, number, f"the line is too long (over {LONGEST_LINE:,} bytes): not a CSV this command wrote")
            # the last line, cut short (a crash): dropped, if it is the start of the row due
            _check_cut_line(_Place(path, number, count + len(pending)), data_line, layout)
            break
        pending.append(_read_row(_Place(path, number, count + len(pending)), data_line, layout, rules))
        if len(pending) == layout.group:
            keep(pending)
            count += layout.group
            pending = []
            keep_at = offset
    return count, keep_at, False


@dataclass(frozen=True)
class _Place:
    """Where a line of the file is: the file's name, its line number, and the index of
    the row due there (from 0, counting every bot's row)."""

    path: str
    number: int
    index: int


def _read_row(place: _Place, data_line: bytes, layout: SweepCsv, rules: Rules) -> Any:
    """The row of one whole line, parsed, if it is the row due at its place with this
    run's settings: else :class:`FormatError` or :class:`ResumeMismatch`."""
    path, number = place.path, place.number
    end_bytes = LINE_END.encode()
    lf_only = not data_line.endswith(end_bytes)
    if lf_only:  # read as if it ended in CR LF: only a row that is whole but for that is told so
        data_line = data_line[:-1] + end_bytes
    try:
        row = _row_of(path, number, data_line, layout.header)
        _check_row(place, row, layout)
        try:
            _check_values(row, rules)
            parsed = layout.parse(row)
        except (ValueError, KeyError) as exc:
            raise FormatError(path, number, f"a value this command does not write ({exc}): not a CSV this command wrote") from None
    except ResumeMismatch:
        if lf_only:  # a row of this command, but for its line end
            raise FormatError(path, number, _LF_WORDS) from None
        raise
    if lf_only:
        raise FormatError(path, number, _LF_WORDS)
    return parsed


def _header_due(path: str, line: bytes, header: Sequence[str]) -> bool:
    """Whether the header is still to be written: the file is empty (but for a
    byte-order mark), or its only line, without a line end, is the start of the
    header line (a crash while it was written: cut, as a row would be).  A whole
    header line is not; anything else is :class:`FormatError`."""
    head = (",".join(header) + LINE_END).encode()
    if line == head:
        return False
    if not line.endswith(b"\n") and head.startswith(line):
        return True
    if line == head[:-2] + b"\n":
        raise FormatError(path, 1, _LF_WORDS)
    raise ForeignCsvError(path, header)


def _is_deal_number(text: str) -> bool:
    """Whether ``text`` is a deal number as this command writes it (ASCII digits, no leading zero)."""
    return text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))


def _row_of(path: str, number: int, data_line: bytes, header: Sequence[str]) -> dict[str, str]:
    """The fields of one whole line (its CR LF included) by the header's names, if it
    is written as this command writes a row, else :class:`FormatError`."""
    try:
        line = data_line.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError(path, number, "not UTF-8 text: not a CSV this command wrote") from None
    body = line[: -len(LINE_END)]
    if "\r" in body:  # (the csv module reads it as a line end, or refuses the line)
        raise FormatError(
            path, number, "a CR alone inside the row, a line end that is not the CR LF this command writes: "
            "not a CSV this command wrote"
        )
    try:
        fields = next(csv.reader([body]), [])
    except csv.Error as exc:
        raise FormatError(path, number, f"not a row of CSV ({exc}): not a CSV this command wrote") from None
    if len(fields) != len(header):
        raise FormatError(path, number, f"a row of {len(fields)} fields, not {len(header)}: not a CSV this command wrote")
    if _csv_line(fields) != line:  # quotes where the csv module puts none, a stray CR
        raise FormatError(path, number, "a row not written as this command writes it (its quoting): not a CSV this command wrote")
    for column, field in zip(header, fields, strict=True):
        if field != field.strip():
            raise FormatError(
                path, number, f"the {column} field {quote(field)} has spaces around it, which this command never "
                "writes: not a CSV this command wrote"
            )
    return dict(zip(header, fields, strict=True))


def shown_field(field: str) -> str:
    """A field of the file in a message: as it is when it reads clearly so (``48``,
    ``greedy``, ``size=5 pile_cap=3``), else quoted (``' 48'``, ``''``, ``'4\\x00'``)."""
    plain = field.isprintable() and field == field.strip() and not set(field) & set("'\",")
    return field if field and plain else quote(field)


#: The words for a file of ours whose line ends were changed to LF.
_LF_WORDS = (
    "the line ends are LF, not the CR LF this command writes (the file was converted, by dos2unix, "
    "an editor or git): it is left as it is; convert it back (unix2dos FILE) and resume again, or write another file"
)


def _csv_line(fields: Sequence[object]) -> str:
    """The line the csv module writes for ``fields``, its line end included."""
    out = io.StringIO(newline="")
    csv.writer(out).writerow(fields)
    return out.getvalue()


def _check_cut_line(place: _Place, data: bytes, layout: SweepCsv) -> None:
    """A last line without a line end may be cut only when it is the start of the row
    due at its place (a crash while it was written): else :class:`FormatError`."""
    header, deals, bots, index, group = layout.header, layout.deals, layout.bots, place.index, layout.group
    text = data.decode("ascii", errors="replace")  # (a row is ASCII text)
    body = text[:-1] if text.endswith("\r") else text
    fields = body.split(",")
    due: dict[str, set[str]] = {  # the values the first columns can have there
        "deal": {str(deals[index // group])} if index // group < len(deals) else set(),
        "bot": {bots[index % group]} if bots else set(),
        "status": {"solved", "no-win", "unknown"} if "max_score" in header else {"won", "lost"},
    }
    good = (
        data.isascii() and body.isprintable() and '"' not in body and len(fields) <= len(header)
        and (body == text or len(fields) == len(header))
    )
    for i, (column, value) in enumerate(zip(header, fields, strict=False)):
        whole = i < len(fields) - 1  # a field the crash left whole; the last one may be cut
        if column in due and not any(value == v if whole else v.startswith(value) for v in due[column]):
            good = False
    if not good:
        raise FormatError(
            place.path, place.number, "a last line without its line end that is not the start of the row due there: "
            "not a CSV this command wrote (it is left as it is)"
        )


def _rules_of(settings: Sequence[tuple[str, str]]) -> Rules:
    """The rule set whose :func:`rules_text` is this run's ``rules`` setting.

    >>> from foursquare.engine.rules import PRESETS, STANDARD
    >>> all(_rules_of([("rules", rules_text(r))]) == r for r in PRESETS.values())
    True
    >>> custom = STANDARD.with_changes(size=5, self_flip=True, ties="count")
    >>> _rules_of([("rules", rules_text(custom))]) == custom
    True
    """
    from ..engine.rules import PRESETS, STANDARD

    text = next(value for column, value in settings if column == "rules")
    if text in PRESETS:
        return PRESETS[text]
    kinds = STANDARD.parameters()
    changes: dict[str, object] = {}
    for item in text.split():
        key, _, value = item.partition("=")
        kind = type(kinds[key])
        changes[key] = int(value) if kind is int else value == "True" if kind is bool else value
    return STANDARD.with_changes(**changes)


def _count(text: str, low: int, high: int | None, what: str) -> int:
    """A whole number as this command writes it (digits, no sign, no leading 0), from
    ``low`` to ``high`` (``None``: no upper bound), else :class:`ValueError`."""
    if (
        not text.isascii() or not text.isdigit() or (text.startswith("0") and text != "0") or len(text) > _DIGITS
        or not low <= int(text) <= (int(text) if high is None else high)
    ):
        raise ValueError(f"{what} {text!r}: not a whole number from {low}" + ("" if high is None else f" to {high}"))
    return int(text)


#: The most digits a count of a row has (a 64-bit count has 20).
_DIGITS = 20
#: A number of seconds as the commands write one (``%.6f``, or Python's ``repr`` of a
#: float: ``0.5``, ``1e-06``): digits, a fraction, an exponent; no sign, no spaces.
_SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?")


def _seconds(text: str, what: str) -> None:
    """A number of seconds as the commands write it: finite, from 0, else :class:`ValueError`."""
    if not _SECONDS.fullmatch(text) or not math.isfinite(float(text)):
        raise ValueError(f"{what} {text!r}: not a number of seconds from 0")


def _check_values(row: dict[str, str], rules: Rules) -> None:
    """Every value of a row of ``solve --deals`` (a ``max_score`` column) or of
    ``simulate`` (a ``reason`` column) is one the command writes under ``rules``
    (RULES.md §5: a score is the cards left in the stock, 0 to the deck size minus
    the grid's piles), else :class:`ValueError` saying which."""

    top = rules.deck_size - rules.size * rules.size  # the best score: every pile of one card
    if "max_score" in row:  # solve
        _check_solve_values(row, rules, top)
    else:
        _check_simulate_values(row, rules, top)


def _check_solve_values(row: dict[str, str], rules: Rules, top: int) -> None:
    """:func:`_check_values` of a row of ``solve --deals`` (``top``: the best score)."""
    from ..engine.layout import CELL_NAMES, STRIDE
    from ..solver import Outcome

    status, score = row["status"], row["score"]
    if status not in {str(o) for o in Outcome}:
        raise ValueError(f"status {status!r}")
    _count(row["nodes"], 0, _count(row["max_nodes"], 1, None, "max_nodes"), "nodes")  # the search stops at its limit
    _seconds(row["seconds"], "seconds")
    if status == "solved":
        won = _count(score, 0, top, "score")
        if row["max_score"] != score:
            raise ValueError(f"max_score {row['max_score']!r} of a solved deal of score {score}")
        frame = range(rules.frame)
        cells = {CELL_NAMES[r * STRIDE + c] for r in frame for c in frame}
        moves = row["moves"].split(" ")
        if len(moves) != rules.deck_size - won or not set(moves) <= cells:
            raise ValueError(f"moves {row['moves']!r}: not the {rules.deck_size - won} cells of a win of score {won}")
        return
    if score != "" or row["moves"] != "":
        raise ValueError(f"a score or moves for status {status}")
    if status == "no-win" and row["max_score"] != "":
        raise ValueError(f"max_score {row['max_score']!r} where no win exists")
    if row["max_score"] != "":
        _count(row["max_score"], 0, top, "max_score")


def _check_simulate_values(row: dict[str, str], rules: Rules, top: int) -> None:
    """:func:`_check_values` of a row of ``simulate`` (``top``: the best score)."""
    from ..engine.outcome import Reason

    status, score = row["status"], row["score"]
    _seconds(row["seconds"], "seconds")
    _seconds(row["slowest_move_seconds"], "slowest_move_seconds")
    if status == "won":
        won = _count(score, 0, top, "score")
        if row["reason"] != "":
            raise ValueError(f"reason {row['reason']!r} for a game won")
        _count(row["moves"], rules.deck_size - won, rules.deck_size - won, "moves")
    elif status == "lost":
        reasons = {str(r) for r in Reason if r is not Reason.NO_PLACEMENT or rules.can_run_out_of_room}
        if row["reason"] not in reasons:
            raise ValueError(f"reason {row['reason']!r} for a game lost")
        if score != "":
            raise ValueError(f"score {score!r} for a game lost")
        if row["reason"] == Reason.STOCK_EMPTY:
            _count(row["moves"], rules.deck_size, rules.deck_size, "moves")
        else:
            _count(row["moves"], 1, rules.deck_size - (row["reason"] == Reason.NO_PLACEMENT), "moves")
    else:
        raise ValueError(f"status {status!r}")


def _check_row(place: _Place, row: dict[str, str], layout: SweepCsv) -> None:
    """A row is the one due at its place with this run's settings, else :class:`ResumeMismatch`."""
    where = f"{shown_name(place.path)}:{place.number}"
    for column, value in layout.settings:
        if row[column] != value:
            raise SettingMismatch(where, column, row[column] or "none", value or "none")
    bots, deals, index = layout.bots, layout.deals, place.index
    if bots and row["bot"] != bots[index % layout.group]:
        raise ResumeMismatch(
            where, f"deal {shown_field(row['deal'])} was played by {shown_field(row['bot'])} where {bots[index % layout.group]} "
            f"is due (this run's bots: {', '.join(bots)})"
        )
    position = index // layout.group
    if position >= len(deals):
        raise DealOutOfRange(where, row["deal"], deals, first=False)
    due = deals[position]
    if not _is_deal_number(row["deal"]):  # (01, a digit of another script, a sign: never written)
        raise FormatError(
            shown_name(place.path), place.number,
            f"deal {shown_field(row['deal'])}: a deal number this command never writes: not a CSV it wrote",
        )
    if row["deal"] != str(due):
        if index == 0:
            raise DealOutOfRange(where, row["deal"], deals, first=True)
        raise ResumeMismatch(where, f"deal {shown_field(row['deal'])} where deal {due} is due (the deals must follow in order)")


def int_or_none(text: str) -> int | None:
    """A CSV cell as an integer (empty: ``None``).

    :raises ValueError: for anything else.
    """
    return None if text == "" else int(text)
