"""Resumable sweeps, what ``solve --deals`` and ``simulate`` share, usable without
Click: the rows of an ``--output`` CSV written each at once
(:class:`SweepRows`) and ``--resume`` (:func:`resume_csv`: continuing a CSV that
stopped partway).  What this module refuses is a :class:`~foursquare.errors.FoursquareError`
carrying the facts (an :class:`~foursquare.errors.AgreementError`, a
:class:`~foursquare.errors.FormatError`); the command line words them in its options.

The CSV's columns, resuming and the journal of rows solved again are specified in
docs/reference/formats.md ("Sweep CSV files").
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..engine.rules import PRESETS, STANDARD, Rules
from ..errors import Advice, AgreementError, FormatError, quote, shown_name
from ..formats.inputs import BINARY_WORDS, LINE_TOO_LONG_WORDS, MAX_LINE_CHARS, not_utf8_words
from .files import LockedFile, claim

#: The CSV's line end (the csv module's).
LINE_END = "\r\n"
#: The status of a row that a limit left open (solve's ``unknown``), to be solved again under a higher one.
UNKNOWN_STATUS = "unknown"
#: The journal of a pass of rows solved again is the ``--output`` file's name and this.
JOURNAL_SUFFIX = ".escalating"


def rules_text(rules: Rules) -> str:
    """A rule set in one CSV cell: its preset name, or the parameters that differ
    from the standard rules (``size=5 pile_cap=3``).

    >>> from foursquare.engine.rules import STANDARD, get_rules
    >>> rules_text(STANDARD), rules_text(get_rules("fixed-board")) == "fixed-board"
    ('standard', True)
    >>> rules_text(STANDARD.with_changes(size=5))
    'size=5'
    """
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    base = STANDARD.parameters()
    return " ".join(f"{key}={value}" for key, value in rules.parameters().items() if base[key] != value) or "standard"


@dataclass(frozen=True)
class SweepCsv:
    """What the ``--output`` CSV of a run holds, for :func:`resume_csv`.

    :ivar header: the command's CSV column names.
    :ivar settings: ``(column, value)`` for each setting column: the value this run writes there.
    :ivar deals: the run's deal range: the file's rows must be its first deals.
    :ivar parse: reads a row (a mapping of the header's names) written under the run's
        rules; raises :class:`ValueError` for a value this command does not write there.
    :ivar bots: for simulate: the bots, in the order of each deal's rows (a ``bot``
        column); ``None``: one row a deal.
    :ivar limit: the setting column of a limit this run may be above (solve:
        ``max_nodes``; one row a deal): a row written under a lower value is kept
        when it is settled (a settled deal is settled under any higher limit), and
        solved again when its status is ``unknown`` if :attr:`again`, else refused
        (an :class:`~foursquare.errors.AgreementError` naming ``FILE:LINE``); a higher
        value is refused too.  ``None``: every setting must be this run's.
    :ivar again: whether the unknown rows of a lower :attr:`limit` are solved again.
    :ivar names: how a refusal names a setting column and ``deals`` (the command's
        options: ``--max-nodes``, ``--deals``); a name not given is the column's own.
    """

    header: Sequence[str]
    settings: Sequence[tuple[str, str]]
    deals: range
    parse: Callable[[dict[str, str], Rules], Any]
    bots: Sequence[str] | None = None
    limit: str | None = None
    again: bool = False
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def group(self) -> int:
        """The rows of one deal."""
        return len(self.bots) if self.bots else 1


@dataclass
class Resumed:
    """How many rows an ``--output`` file already holds (each handed, read by the
    ``parse`` given to :func:`resume_csv`, to its ``keep``, but for the rows to be
    solved again), the rows to come (the file open at their end; the rows of the
    deals solved again first, to their journal), and the deals of its rows to be
    solved again (in deal order; module doc)."""

    rows: int
    output: SweepRows
    again: list[int]
    #: the rows to be solved again, as ``parse`` read them (in the order of :attr:`again`):
    #: what the file still holds of those deals until they are solved again
    open_rows: list[Any]


def resume_csv(path: str, layout: SweepCsv, keep: Callable[[list[Any]], None]) -> Resumed:
    """Open ``--output`` ``path`` to continue it (module doc): check what it holds,
    cut a partial last line (and, with ``bots``, a deal not every bot finished).
    The file is read a line at a time: its rows are handed on, never held.

    :param layout: what the file holds (its header, this run's settings and deals, ...).
    :param keep: called with the parsed rows of each whole deal kept, in order (one
        row, or with ``bots`` one per bot); when a later line is refused, what it
        was given is to be thrown away.
    :returns: the number of rows kept and the rows to come after them; a missing or
        empty file, or one whose header line was cut short, gets the header.  With a
        ``limit``, the deals of the unknown rows of a lower one and their journal,
        started (:class:`Journal`; a journal a killed run left is merged first).
    :raises AgreementError: for a FIFO (the fact ``fifo``); a row of other settings or of
        a deal not due there (naming its ``FILE:LINE``; an unknown row of a lower ``limit``
        without ``again`` too).
    :raises FormatError: ``FILE:LINE:`` for a file that is not this command's CSV
        (another header: the fact ``header``).
    :raises OSError: naming the file: it cannot be read or written, another writer holds it.
    """
    held = claim(path)
    if held.straight:  # /dev/null, a device: nothing to continue
        if stat.S_ISFIFO(os.stat(path).st_mode):  # read to be continued: it would wait for a writer
            raise AgreementError(f"{shown_name(path)} is a FIFO (named pipe), not a file to continue", fifo=path)
        stream = held.stream()
        stream.write(",".join(layout.header) + LINE_END)  # (buffered: a device that fails it fails the first row)
        return Resumed(0, SweepRows(stream, path), [], [])
    journal: Journal | None = None
    try:
        if layout.limit is not None:
            merge_journal(held, layout)  # the rows solved again by a run that was killed
        with os.fdopen(os.dup(held.fd), "rb") as raw:
            raw.seek(0)
            rows, end, fresh, again, open_rows = _read(raw, path, layout, keep)
        if again:
            journal = Journal(held, layout)
        stream = held.stream(end)  # a partial last line (a crash), an unfinished deal cut
    except BaseException:
        held.release()
        raise
    output = SweepRows(stream, path, journal, len(again))  # (appended to, the lock kept)
    if fresh:  # (no rows: none to solve again)
        output.write(layout.header)
    return Resumed(rows, output, again, open_rows)


def _read(
    raw: IO[bytes], path: str, layout: SweepCsv, keep: Callable[[list[Any]], None]
) -> tuple[int, int, bool, list[int], list[Any]]:
    """Read the file ``raw`` (at its start) a line at a time: its rows (whole deals), the
    byte offset after the last one, whether the header is still to be written, and the
    deals of the rows to be solved again with those rows (parsed).

    Only a last line without any line end that is the start of the line due there
    (the header, or the row due there) is left out (to be cut); anything else that
    is not what this command writes is refused, the file untouched.
    """
    rules = _rules_of(dict(layout.settings)["rules"])
    # a byte-order mark (a spreadsheet or an editor that saved the file "as UTF-8 with
    # BOM") is not content: it is kept, and the rows are read and appended after it
    lines = _lines(raw, path)
    first = next(lines, b"")
    start = len(codecs.BOM_UTF8) if first.startswith(codecs.BOM_UTF8) else 0
    if _header_due(path, first[start:], layout.header):
        return 0, start, True, [], []
    rows, end, offset, again, open_rows = 0, len(first), len(first), [], []
    pending: list[Any] = []  # the rows of a deal not every bot has finished yet
    for number, line in enumerate(lines, start=2):
        index = rows + len(pending)  # the row due here, counting every bot's
        if not line.endswith(b"\n"):
            _check_cut_line(path, number, index, line, layout)  # the last line, cut short (a crash): dropped
            break
        offset += len(line)
        parsed, solve_again = _read_row(path, number, index, line, layout, rules)
        if solve_again:  # (one row a deal: SweepCsv.limit) kept in the file, not handed to keep
            again.append(layout.deals[rows // layout.group])
            open_rows.append(parsed)
        else:
            pending.append(parsed)
        if solve_again or len(pending) == layout.group:
            if pending:
                keep(pending)
            rows, end, pending = rows + layout.group, offset, []
    return rows, end, False, again, open_rows


def _lines(raw: IO[bytes], path: str) -> Iterator[bytes]:
    """The lines of ``raw``, each refused as every reader refuses it (``FILE:LINE: ...``):
    text that is not UTF-8 (a UTF-16 file say, named), a NUL byte (a binary file; of the
    two, the earlier in the line is said) or over :data:`~foursquare.formats.inputs.MAX_LINE_CHARS`."""
    start = b""  # the file's first bytes, for the words of text that is not UTF-8
    for number, line in enumerate(iter(lambda: raw.readline(MAX_LINE_CHARS + 1), b""), start=1):
        start += line[: 4 - len(start)]
        nul = line.find(b"\0")
        try:  # (a character cut by the line's limit is no fault of the text)
            codecs.utf_8_decode(line[:nul] if nul >= 0 else line, "strict", nul >= 0 or len(line) <= MAX_LINE_CHARS)
        except UnicodeDecodeError:
            raise FormatError(path, number, not_utf8_words(start)) from None
        if nul >= 0:
            raise FormatError(path, number, BINARY_WORDS)
        if len(line) > MAX_LINE_CHARS and not line.endswith(b"\n"):
            raise FormatError(path, number, LINE_TOO_LONG_WORDS)
        yield line


def _read_row(path: str, number: int, index: int, line: bytes, layout: SweepCsv, rules: Rules) -> tuple[Any, bool]:
    """The row of one whole line, parsed, if it is the row due at its place (``index``)
    with this run's settings (and whether it is to be solved again: :attr:`SweepCsv.limit`):
    else :class:`FormatError` or :class:`~foursquare.errors.AgreementError`."""
    lf_only = not line.endswith(LINE_END.encode())
    if lf_only:  # read as if it ended in CR LF: only a row that is whole but for that is told so
        line = line[:-1] + LINE_END.encode()
    try:
        row = _row_of(path, number, line, layout.header)
        again = _check_row(path, number, index, row, layout)
        try:
            parsed = layout.parse(row, rules)
        except (ValueError, KeyError) as exc:
            raise FormatError(path, number, f"a value this command does not write ({exc}): not a CSV this command wrote") from None
    except AgreementError:
        if not lf_only:
            raise
    if lf_only:  # a row of this command, but for its line end
        raise FormatError(path, number, _LF_WORDS)
    return parsed, again


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
    # an earlier version's file: the same columns but the last ones, added since
    older = next((k for k in range(1, len(header)) if line.rstrip(b"\r\n") == ",".join(header[:-k]).encode()), 0)
    if older:
        raise FormatError(
            path, 1, f"an earlier version's CSV, without the last column{'s' * (older > 1)} {','.join(header[-older:])}: "
            f"to resume it, end its header line with ',{','.join(header[-older:])}' and every row with '{',' * older}'",
        )
    raise FormatError(
        path, 1, f"not a CSV of this command to continue (its header is not {','.join(header)})",
        advice=Advice.OTHER_FILE, header=list(header),
    )


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
    fields = next(csv.reader([body]), [])  # (one line of at most LONGEST_LINE bytes, no CR: no csv.Error)
    if len(fields) != len(header):
        raise FormatError(path, number, f"a row of {len(fields)} fields, not {len(header)}: not a CSV this command wrote")
    if _csv_line(fields) != line:  # quotes where the csv module puts none, a stray CR
        raise FormatError(path, number, "a row not written as this command writes it (its quoting): not a CSV this command wrote")
    for column, cell in zip(header, fields, strict=True):
        if cell != cell.strip():
            raise FormatError(
                path, number, f"the {column} field {quote(cell)} has spaces around it, which this command never "
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


def _check_cut_line(path: str, number: int, index: int, data: bytes, layout: SweepCsv) -> None:
    """A last line without a line end may be cut only when it is the start of the row
    due at its place (``index``; a crash while it was written): else :class:`FormatError`."""
    header, deals, bots, group = layout.header, layout.deals, layout.bots, layout.group
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
        and all(  # each field a value due there: whole, but for the last one, which the crash may have cut
            column not in due or any(value == v if i < len(fields) - 1 else v.startswith(value) for v in due[column])
            for i, (column, value) in enumerate(zip(header, fields, strict=False))
        )
    )
    if not good:
        raise FormatError(
            path, number, "a last line without its line end that is not the start of the row due there: "
            "not a CSV this command wrote (it is left as it is)"
        )


def _rules_of(text: str) -> Rules:
    """The rule set whose :func:`rules_text` is ``text`` (a ``rules`` cell).

    >>> from foursquare.engine.rules import PRESETS, STANDARD
    >>> all(_rules_of(rules_text(r)) == r for r in PRESETS.values())
    True
    >>> custom = STANDARD.with_changes(size=5, self_flip=True, ties="count")
    >>> _rules_of(rules_text(custom)) == custom
    True
    """
    if text in PRESETS:
        return PRESETS[text]
    kinds = {key: type(value) for key, value in STANDARD.parameters().items()}
    return STANDARD.with_changes(**{  # each key=value
        key: int(value) if kinds[key] is int else value == "True" if kinds[key] is bool else value
        for key, _, value in (item.partition("=") for item in text.split())
    })


def count_of(text: str, low: int, high: int | None, what: str) -> int:
    """A CSV cell as a whole number as the commands write one (digits, no sign, no
    leading 0), from ``low`` to ``high`` (``None``: no upper bound), else :class:`ValueError`."""
    if not _is_deal_number(text) or len(text) > _DIGITS or not low <= int(text) <= (int(text) if high is None else high):
        raise ValueError(f"{what} {text!r}: not a whole number from {low}" + ("" if high is None else f" to {high}"))
    return int(text)


#: The most digits a count of a row has (a 64-bit count has 20).
_DIGITS = 20
#: A number of seconds as the commands write one (``%.6f``, or Python's ``repr`` of a
#: float: ``0.5``, ``1e-06``): digits, a fraction, an exponent; no sign, no spaces.
_SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?")


def seconds_of(text: str, what: str) -> float:
    """A CSV cell as a number of seconds as the commands write one: finite, from 0, else :class:`ValueError`."""
    if not _SECONDS.fullmatch(text) or not math.isfinite(float(text)):
        raise ValueError(f"{what} {text!r}: not a number of seconds from 0")
    return float(text)


def best_score(rules: Rules) -> int:
    """The best score under ``rules`` (RULES.md §5: a score is the cards left in the
    stock, at most the deck size less the grid's piles)."""
    return rules.deck_size - rules.size * rules.size


def _check_row(path: str, number: int, index: int, row: dict[str, str], layout: SweepCsv) -> bool:
    """A row is the one due at its place (``index``) with this run's settings, else
    :class:`~foursquare.errors.AgreementError`; whether it is to be solved again (an unknown row of a
    lower :attr:`SweepCsv.limit`)."""
    where = f"{shown_name(path)}:{number}"
    again = False
    deal = shown_field(row["deal"])
    for column, value in layout.settings:
        if row[column] == value:
            continue
        option = layout.names.get(column, column)
        if column != layout.limit or not _below(row[column], value):
            was = f"with {option} {shown_field(row[column])}" if row[column] else f"without {option}"
            raise AgreementError(
                f"{where}: the file was written {was}, this run has {value or 'no ' + option}: resume it with the "
                "settings it was written with, or write another file"
            )
        if row["status"] == UNKNOWN_STATUS:  # (a settled row of a lower limit is settled under this one)
            if not layout.again:
                raise AgreementError(
                    f"{where}: deal {deal} is unknown under {option} {row[column]}, this run has {value}: give {option} "
                    f"{value} to solve the unknown deals again under it, or resume with {option} {row[column]}"
                )
            again = True
    bots, deals = layout.bots, layout.deals
    if bots and row["bot"] != bots[index % layout.group]:
        raise AgreementError(
            f"{where}: deal {deal} was played by {shown_field(row['bot'])} where {bots[index % layout.group]} "
            f"is due (this run's bots: {', '.join(bots)})"
        )
    position = index // layout.group
    if position >= len(deals):
        raise AgreementError(
            f"{where}: the file holds more deals than {layout.names.get('deals', 'deals')} {deals.start}-{deals.stop - 1} "
            f"asks for (deal {deal})"
        )
    due = deals[position]
    if not _is_deal_number(row["deal"]):  # (01, a digit of another script, a sign: never written)
        raise FormatError(
            shown_name(path), number, f"deal {deal}: a deal number this command never writes: not a CSV it wrote"
        )
    if row["deal"] != str(due):
        if index == 0:
            raise AgreementError(f"{where}: the file starts at deal {deal}, {layout.names.get('deals', 'deals')} starts at {deals.start}")
        raise AgreementError(f"{where}: deal {deal} where deal {due} is due (the deals must follow in order)")
    return again


def _below(text: str, limit: str) -> bool:
    """Whether ``text`` is a limit as the commands write one (digits, no leading 0)
    lower than ``limit`` (one too)."""
    return _is_deal_number(text) and _is_deal_number(limit) and len(text) <= _DIGITS and int(text) < int(limit)


class SweepRows:
    """The rows a run writes to its ``--output`` file (or a journal), in deal order, each
    at once (nothing kept in a buffer), so that a row the caller counts is in the file:
    :meth:`write` returns only once the whole row is written.  A write that fails (a full
    disk, a file size limit) raises, and may have left the start of the row in the file:
    a last line without its line end, which ``--resume`` cuts; nothing of it is written
    later.  With a :class:`Journal`, the first ``again`` rows (those of the deals solved
    again) go to the journal, which is merged into the file before the next row or when
    the rows are closed (a run that ends or stops).

    :param stream: the file, opened by the command (``-``: standard output, never closed here).
    :param path: its name, for the errors (``<stdout>`` for ``-``).
    """

    def __init__(self, stream: IO[str], path: str, journal: Journal | None = None, again: int = 0) -> None:
        self.stream, self.journal, self.again = stream, journal, again
        self.path = path if path != "-" else "<stdout>"
        self._fd: int | None = None
        if path != "-":  # (stdout's own writes go through its stream: its reader may be gone)
            with contextlib.suppress(OSError, ValueError):  # not a file of the system: written through the stream
                stream.flush()
                self._fd = stream.fileno()

    def write(self, fields: Sequence[object]) -> None:
        """Write one row (as the csv module writes it), whole, where it goes, or raise.

        :raises OSError: naming the file (or its journal), when it cannot be written.
        :raises FormatError: a merge that finds the journal damaged.
        """
        if self.journal is not None:
            if self.again:
                self.journal.write(fields)
                self.again -= 1
                return
            self.merge()
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
            raise OSError(exc.errno, exc.strerror, exc.filename or self.path) from None

    def merge(self) -> None:
        """Merge the journal into the file now (:func:`merge_journal`), if there is one
        (once, even when it fails: then the file and the journal are as they were, and
        the next ``--resume`` merges it); the file is written at its end from then on.
        The journal is closed, also when the merge fails.

        :raises OSError: naming the file; :raises FormatError: for a damaged journal.
        """
        journal, self.journal = self.journal, None
        if journal is None:  # (a journal: a file's, never standard output's)
            return
        journal.stream.close()
        held = LockedFile(journal.main, journal.real, os.dup(self.stream.fileno()))
        try:
            merge_journal(held, journal.layout)
            stream = held.stream(held.size())  # (written at its end)
        except BaseException:
            held.release()  # (the file's lock stays with the stream)
            raise
        self.stream.close()  # the old text's descriptor, when the file was replaced
        SweepRows.__init__(self, stream, self.path)

    def close(self) -> None:
        """Merge the journal, then close the file (its lock with it).

        :raises OSError: naming the file: the merge, or the last flush, failed.
        """
        try:
            self.merge()
        finally:
            if self.stream is not sys.stdout:
                self.stream.close()


# --- solving the unknown rows again under a higher limit: the journal and the merge -----------

def shown_journal(path: str, real: str) -> str:
    """How messages name the journal of the file named ``path`` (its real file
    ``real``): beside the name given, unless that name is a link (then beside the
    real file, where it is).

    >>> shown_journal("table.csv", os.path.realpath("table.csv"))
    'table.csv.escalating'
    """
    mine = path + JOURNAL_SUFFIX
    return mine if os.path.realpath(mine) == real + JOURNAL_SUFFIX else real + JOURNAL_SUFFIX


def discard_journal(path: str) -> None:
    """Remove the journal beside the regular file ``path``, for a file written afresh
    (``--force``): its rows were the rows solved again of the file's old text.
    Nothing there, or a journal's name that is not a regular file, is left alone.

    :raises OSError: naming the journal when it cannot be removed.
    """
    journal = os.path.realpath(path) + JOURNAL_SUFFIX  # (links followed: beside the real file)
    with contextlib.suppress(FileNotFoundError):  # (standard output, a device: no journal of theirs)
        if os.path.isfile(path) and stat.S_ISREG(os.lstat(journal).st_mode):
            os.unlink(journal)


class Journal(SweepRows):
    """The rows of the deals a run solves again (:attr:`SweepCsv.limit`), in deal
    order, written whole as they come (:class:`SweepRows`) to the journal beside
    the ``--output`` file (:data:`JOURNAL_SUFFIX`): a CSV with the file's header,
    whose rows replace the file's rows of the same deals when it is merged
    (:func:`merge_journal`).  Made by :func:`resume_csv`, which holds the file:
    a new journal (any old one was merged and removed), its header written.

    :raises OSError: naming the journal, when it cannot be created or written.
    """

    def __init__(self, held: LockedFile, layout: SweepCsv) -> None:
        self.main, self.real, self.layout = held.path, held.real, layout
        shown = shown_journal(held.path, held.real)
        try:
            fd = os.open(
                held.real + JOURNAL_SUFFIX,
                os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o666,
            )
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, shown) from None
        super().__init__(os.fdopen(fd, "w", newline="", encoding="utf-8"), shown)
        try:
            self.write(layout.header)
        except BaseException:
            self.stream.close()
            raise


def merge_journal(held: LockedFile, layout: SweepCsv) -> None:
    """Merge the journal beside ``held``'s file into it, if there is one: the file
    rewritten whole (:meth:`LockedFile.rewrite`: a temporary file renamed
    over it, so that it is always the old text or the new), each row that a row of
    the journal supersedes replaced by that row, every other line kept byte for
    byte; then the journal is removed.  Both files are read a line at a time.

    A row of the journal supersedes the file's row of its deal when that row is
    ``unknown`` under a lower :attr:`SweepCsv.limit` with the same other settings,
    or is already the same line (a merge that the removal of the journal did not
    follow).  A last line of the journal without its line end (a crash while it
    was written) is left out: its deal is solved again.

    :raises FormatError: naming the journal's line, when it is not the rows solved
        again of this file (the file untouched, the journal kept).
    :raises OSError: naming the file, when it cannot be rewritten (the journal kept).
    """
    name, shown = held.real + JOURNAL_SUFFIX, shown_journal(held.path, held.real)
    try:
        journal = open(name, "rb")  # (closed below, before it is removed)
    except FileNotFoundError:
        return

    def error(number: int, words: str) -> FormatError:
        return FormatError(
            shown, number, f"{words}: not the rows of {shown_name(held.path)} solved again; remove it, or move it away, and resume again"
        )

    with journal:
        try:
            _header_due(shown, journal.readline(MAX_LINE_CHARS + 1), layout.header)
        except FormatError as exc:
            if "header" not in exc.facts:
                raise
            raise error(1, "it does not begin with this command's header line") from None
        rows = _journal_rows(journal, shown, layout, error)
        if (first := next(rows, None)) is not None:
            with os.fdopen(os.dup(held.fd), "rb") as raw:
                held.rewrite(_merged(raw, held.size(), first, rows, held.path, layout, error))
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, shown) from None


#: A row of a journal: its line number, its line (CR LF included), its fields.
_JournalRow = tuple[int, bytes, dict[str, str]]


def _journal_rows(raw: IO[bytes], shown: str, layout: SweepCsv, error: Callable[[int, str], FormatError]) -> Iterator[_JournalRow]:
    """The rows of a journal after its header, read one at a time, each checked: a row
    this command writes, of a deal after the one before (a last line cut short is left out)."""
    last = -1
    for number, line in enumerate(iter(lambda: raw.readline(MAX_LINE_CHARS + 1), b""), start=2):
        if not line.endswith(b"\n"):  # a last line cut short (a crash): left out
            return
        if not line.endswith(LINE_END.encode()):
            raise error(number, "a line that does not end in CR LF")
        row = _row_of(shown, number, line, layout.header)
        if not _is_deal_number(row["deal"]) or int(row["deal"]) <= last:
            raise error(number, f"deal {shown_field(row['deal'])} does not follow the deal before it")
        try:
            layout.parse(row, _rules_of(row["rules"]))
        except Exception as exc:  # (ValueError, KeyError, RulesError: any value this command never writes)
            raise error(number, f"a value this command does not write ({exc})") from None
        last = int(row["deal"])
        yield number, line, row


def _merged(
    raw: IO[bytes], size: int, due: _JournalRow | None, rows: Iterator[_JournalRow], main: str, layout: SweepCsv,
    error: Callable[[int, str], FormatError],
) -> Iterator[bytes]:
    """The lines of the file ``raw`` (its first ``size`` bytes, read from its start), each
    that the journal's row ``due`` (then the next of ``rows``) supersedes replaced (:func:`merge_journal`).

    :raises FormatError: for a row of the journal that supersedes no row of the file.
    """
    raw.seek(0)
    left, at_start, limit = size, True, layout.limit
    while left > 0 and (line := raw.readline(min(MAX_LINE_CHARS + 1, left))):
        left -= len(line)
        if due is not None and at_start and line.endswith(b"\n") and line.split(b",", 1)[0] == due[2]["deal"].encode():
            number, new, row = due
            if line != new:
                try:
                    old = _row_of(main, 0, line, layout.header)
                except FormatError:
                    old = {}
                same = all(old.get(c) == row[c] for c, _ in layout.settings if c != limit)
                if not (old.get("status") == UNKNOWN_STATUS and same and limit and _below(old.get(limit, ""), row[limit])):
                    raise error(number, f"deal {row['deal']}: its row in {shown_name(main)} is not an unknown row under a lower {limit}")
            line, due = new, next(rows, None)
        at_start = line.endswith(b"\n")
        yield line
    if due is not None:
        raise error(due[0], f"deal {due[2]['deal']}: {shown_name(main)} has no row of it")
