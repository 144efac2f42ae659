"""What ``solve --deals`` and ``simulate`` share for long sweeps: ``--scheduler``
(the deals as tasks on a Dask cluster) and ``--resume`` (continuing an ``--output``
CSV that stopped partway).

**How a CSV records its settings.**  Every row carries the settings that shape
its result, in the last columns (``rules``, ``max_nodes``, ``timeout`` for solve;
``seed``, ``nodes``, ``budget``, ``rules`` for simulate, beside its ``bot``
column; an empty cell for a limit not given): the file stays one plain CSV, a
header and rows, that a spreadsheet reads, a table of one sweep says how it was
made, and tables of several sweeps can be put together.  The deal range is not a
setting of a row: a file resumes a range when its rows are the first deals of
that range, in order (with simulate, each deal's games in the order of the bots).

**How a run resumes** (:func:`resume_csv`).  The file is claimed as any
``--output`` file (:func:`~foursquare.cli.files.claim`: locked while it is
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

import click

from ..cli.files import claim
from ..errors import FormatError, quote, shown_name

if TYPE_CHECKING:
    from ..cluster import Cluster
    from ..engine.rules import Rules

#: The help of ``--scheduler``.
SCHEDULER_HELP = (
    "Run the deals as tasks on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786); "
    "needs pip install 'foursquare[dask]'."
)
#: The help of ``--resume``.
RESUME_HELP = (
    "Continue the --output FILE.csv of a run that stopped partway, with the same settings: "
    "the deals already in it are skipped (a missing or empty file starts afresh)."
)
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


def check_sweep_options(scheduler: str | None, jobs_given: bool | None, resume: bool, output: str | None, force: bool) -> None:
    """The usage errors of ``--scheduler`` and ``--resume`` (status 2)."""
    if scheduler is not None and jobs_given:
        raise click.UsageError("--jobs and --scheduler: the cluster's workers do the work; give one of them")
    if scheduler is not None:
        check_scheduler(scheduler)
    if resume:
        if output is None:
            raise click.UsageError("--resume needs --output FILE.csv (the file to continue)")
        if output == "-":
            raise click.UsageError("--resume needs --output FILE.csv: standard output cannot be continued")
        if force:
            raise click.UsageError("--resume and --force: --resume continues the file, --force writes over it")


def check_scheduler(address: str) -> str:
    """The ``--scheduler`` address, read by Dask's own parsing before any connection:
    a malformed one (or no ``dask`` extra) is a usage error naming the option (status 2)."""
    from ..cluster import ClusterAddressError, ClusterUnavailable, check_address

    try:
        return check_address(address)
    except ClusterAddressError as exc:
        raise click.BadParameter(str(exc), param_hint="'--scheduler'") from None
    except ClusterUnavailable as exc:
        raise click.UsageError(f"--scheduler: {exc}") from None


def open_cluster(address: str) -> Cluster:
    """Connect to the Dask scheduler at ``address``; without the ``dask`` extra, a
    usage error naming it (status 2).

    :raises ClusterError: when the scheduler cannot be reached (status 1).
    """
    from ..cluster import connect

    check_scheduler(address)
    return connect(address)


@dataclass
class Resumed:
    """How many rows an ``--output`` file already holds (each handed, read by the
    ``parse`` given to :func:`resume_csv`, to its ``keep``) and the file, open at
    their end for the next rows."""

    rows: int
    stream: IO[str]


def resume_csv(
    path: str,
    header: Sequence[str],
    settings: Sequence[tuple[str, str, str]],
    deals: range,
    parse: Callable[[dict[str, str]], Any],
    keep: Callable[[list[Any]], None],
    bots: Sequence[str] | None = None,
) -> Resumed:
    """Open ``--output`` ``path`` to continue it (module doc): check what it holds,
    cut a partial last line (and, with ``bots``, a deal not every bot finished).
    The file is read a line at a time: its rows are handed on, never held.

    :param header: the command's CSV column names.
    :param settings: ``(column, option, value)`` for each setting column: the value
        this run writes there, and the option that sets it (for the message).
    :param deals: the run's deal range: the file's rows must be its first deals.
    :param parse: reads a row (a mapping of the header's names); raises
        :class:`ValueError` for a value this command does not write.
    :param keep: called with the parsed rows of each whole deal kept, in order (one
        row, or with ``bots`` one per bot); when a later line is refused, what it
        was given is to be thrown away.
    :param bots: for simulate: the bots, in the order of each deal's rows (a
        ``bot`` column); ``None``: one row a deal.
    :returns: the number of rows kept and the file open after them; a missing or
        empty file, or one whose header line was cut short, gets the header.
    :raises click.UsageError: a row of other settings or of a deal not due there (status 2).
    :raises FormatError: ``FILE:LINE:`` for a file that is not this command's CSV (status 1).
    :raises OSError: naming the file: it cannot be read or written, another writer holds it.
    """
    try:
        info: os.stat_result | None = os.stat(path)
    except OSError:
        info = None
    if info is not None and stat.S_ISFIFO(info.st_mode):  # read to be continued: it would wait for a writer
        raise click.UsageError(
            f"--resume needs a file to continue: {shown_name(path)} is a FIFO (named pipe); give --output without --resume"
        )
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        # /dev/null, a device: nothing to continue
        stream = open(path, "w", newline="", encoding="utf-8")
        stream.write(",".join(header) + LINE_END)
        return Resumed(0, stream)
    held = claim(path)
    try:
        with os.fdopen(os.dup(held.fd), "rb") as raw:
            raw.seek(0)
            rows, kept, fresh = _read(raw, path, header, settings, deals, parse, keep, bots)
        os.ftruncate(held.fd, kept)  # a partial last line (a crash), an unfinished deal
        os.lseek(held.fd, 0, os.SEEK_END)
        fd, held.fd = held.fd, -1
    except BaseException:
        held.release()
        raise
    stream = os.fdopen(fd, "w", newline="", encoding="utf-8")  # (not truncated: appended to, the lock kept)
    if fresh:
        RowWriter(stream, path).write(header)
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


def _read(
    raw: IO[bytes],
    path: str,
    header: Sequence[str],
    settings: Sequence[tuple[str, str, str]],
    deals: range,
    parse: Callable[[dict[str, str]], Any],
    keep: Callable[[list[Any]], None],
    bots: Sequence[str] | None,
) -> tuple[int, int, bool]:
    """Read the file ``raw`` (at its start) a line at a time: ``(rows kept, the byte
    offset after the last one kept, whether the header is to be written)``.

    Only a last line without any line end that is the start of the line due there
    (the header, or the row due there) is left out (to be cut); anything else that
    is not what this command writes is refused, the file untouched.
    """
    name = shown_name(path)
    group = len(bots) if bots else 1
    rules = _rules_of(settings)
    count = 0  # the rows kept (whole deals)
    pending: list[Any] = []  # the rows of a deal not every bot has finished yet
    # a byte-order mark (a spreadsheet or an editor that saved the file "as UTF-8 with
    # BOM") is not content: it is kept, and the rows are read and appended after it
    first = raw.readline(LONGEST_LINE)
    start = len(codecs.BOM_UTF8) if first.startswith(codecs.BOM_UTF8) else 0
    if _header_due(path, first[start:], header):
        return 0, start, True
    keep_at = offset = len(first)  # the offset after the last whole deal; after the last line read
    number = 1
    end_bytes = LINE_END.encode()
    while data_line := raw.readline(LONGEST_LINE):
        number += 1
        offset += len(data_line)
        if not data_line.endswith(b"\n"):
            if len(data_line) == LONGEST_LINE:
                raise FormatError(path, number, f"the line is too long (over {LONGEST_LINE:,} bytes): not a CSV this command wrote")
            # the last line, cut short (a crash): dropped, if it is the start of the row due
            _check_cut_line(path, number, data_line, header, deals, bots, count + len(pending), group)
            break
        lf_only = not data_line.endswith(end_bytes)
        if lf_only:  # read as if it ended in CR LF: only a row that is whole but for that is told so
            data_line = data_line[:-1] + end_bytes
        try:
            row = _row_of(path, number, data_line, header)
            _check_row(name, number, row, settings, deals, bots, count + len(pending), group)
            try:
                _check_values(row, rules)
                parsed = parse(row)
            except (ValueError, KeyError) as exc:
                raise FormatError(path, number, f"a value this command does not write ({exc}): not a CSV this command wrote") from None
        except click.UsageError:
            if lf_only:  # a row of this command, but for its line end
                raise FormatError(path, number, _LF_WORDS) from None
            raise
        if lf_only:
            raise FormatError(path, number, _LF_WORDS)
        pending.append(parsed)
        if len(pending) == group:
            keep(pending)
            count += group
            pending = []
            keep_at = offset
    return count, keep_at, False


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
    raise FormatError(
        path, 1, f"not a CSV of this command to continue (its header is not {','.join(header)}); "
        "give another --output file, or --force without --resume to write over it"
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


def _shown(field: str) -> str:
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


def _check_cut_line(
    path: str, number: int, data: bytes, header: Sequence[str], deals: range, bots: Sequence[str] | None, index: int, group: int
) -> None:
    """A last line without a line end may be cut only when it is the start of the row
    due at its place (a crash while it was written): else :class:`FormatError`."""
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
            path, number, "a last line without its line end that is not the start of the row due there: "
            "not a CSV this command wrote (it is left as it is)"
        )


def _rules_of(settings: Sequence[tuple[str, str, str]]) -> Rules:
    """The rule set whose :func:`rules_text` is this run's ``rules`` setting.

    >>> from foursquare.engine.rules import PRESETS, STANDARD
    >>> all(_rules_of([("rules", "--rules", rules_text(r))]) == r for r in PRESETS.values())
    True
    >>> custom = STANDARD.with_changes(size=5, self_flip=True, ties="count")
    >>> _rules_of([("rules", "--rules", rules_text(custom))]) == custom
    True
    """
    from ..engine.rules import PRESETS, STANDARD

    text = next(value for column, _, value in settings if column == "rules")
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
    from ..engine.layout import CELL_NAMES, STRIDE

    top = rules.deck_size - rules.size * rules.size  # the best score: every pile of one card
    status, score = row["status"], row["score"]
    if "max_score" in row:  # solve
        from ..solver import Outcome

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
        return
    from ..engine.outcome import Reason

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


def _check_row(
    name: str,
    number: int,
    row: dict[str, str],
    settings: Sequence[tuple[str, str, str]],
    deals: range,
    bots: Sequence[str] | None,
    index: int,
    group: int,
) -> None:
    """A row is the one due at its place with this run's settings, else a usage error (status 2)."""
    for column, option, value in settings:
        if row[column] != value:
            was = row[column] or "none"
            now = value or "none"
            raise click.UsageError(
                f"{name}:{number}: the file was written with {option} {_shown(was)}, this run has {now}: "
                "resume it with the settings it was written with, or write another file"
            )
    if bots and row["bot"] != bots[index % group]:
        raise click.UsageError(
            f"{name}:{number}: deal {_shown(row['deal'])} was played by {_shown(row['bot'])} where {bots[index % group]} is due "
            f"(this run's bots: {', '.join(bots)})"
        )
    position = index // group
    if position >= len(deals):
        raise click.UsageError(
            f"{name}:{number}: the file holds more deals than --deals {deals.start}-{deals.stop - 1} asks for "
            f"(deal {_shown(row['deal'])})"
        )
    due = deals[position]
    if not _is_deal_number(row["deal"]):  # (01, a digit of another script, a sign: never written)
        raise FormatError(name, number, f"deal {_shown(row['deal'])}: a deal number this command never writes: not a CSV it wrote")
    if row["deal"] != str(due):
        if index == 0:
            raise click.UsageError(f"{name}:{number}: the file starts at deal {_shown(row['deal'])}, --deals starts at {deals.start}")
        raise click.UsageError(f"{name}:{number}: deal {_shown(row['deal'])} where deal {due} is due (the deals must follow in order)")


def resumed_notice(path: str, done: int, asked: int, what: str = "deals") -> None:
    """Say on stderr how much of the sweep the file held already."""
    click.echo(f"resuming {shown_name(path)}: {done} of {asked} {what} done already", err=True)


def int_or_none(text: str) -> int | None:
    """A CSV cell as an integer (empty: ``None``).

    :raises ValueError: for anything else.
    """
    return None if text == "" else int(text)
