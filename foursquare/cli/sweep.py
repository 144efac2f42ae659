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
row that is not this command's, bad input, status 1, naming the line).  The last
line, when it lacks its line end (a crash, a power cut), is cut off, and so are
the games of a deal not every bot finished; the rest of the file is never
rewritten: the new rows are appended after the rows kept, each flushed as in any
run.  So at every moment the file holds whole rows of the sweep in deal order
(and at most one partial line after a crash, which the next resume cuts), and
the finished file is the one an uninterrupted run writes, but for the measured
times (the ``seconds`` column).
"""

from __future__ import annotations

import csv
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

import click

from ..errors import FormatError, shown_name
from .files import claim

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
    """The rows an ``--output`` file already holds (each read by the ``parse``
    given to :func:`resume_csv`) and the file, open at their end for the next rows."""

    rows: list[Any]
    stream: IO[str]


def resume_csv(
    path: str,
    header: Sequence[str],
    settings: Sequence[tuple[str, str, str]],
    deals: range,
    parse: Callable[[dict[str, str]], Any],
    bots: Sequence[str] | None = None,
) -> Resumed:
    """Open ``--output`` ``path`` to continue it (module doc): check what it holds,
    cut a partial last line (and, with ``bots``, a deal not every bot finished).

    :param header: the command's CSV column names.
    :param settings: ``(column, option, value)`` for each setting column: the value
        this run writes there, and the option that sets it (for the message).
    :param deals: the run's deal range: the file's rows must be its first deals.
    :param parse: reads a row (a mapping of the header's names); raises
        :class:`ValueError` for a value this command does not write.
    :param bots: for simulate: the bots, in the order of each deal's rows (a
        ``bot`` column); ``None``: one row a deal.
    :returns: the rows kept and the file open after them; a missing or empty file
        gets the header.
    :raises click.UsageError: a row of other settings or of a deal not due there (status 2).
    :raises FormatError: ``FILE:LINE:`` for a file that is not this command's CSV (status 1).
    :raises OSError: naming the file: it cannot be read or written, another writer holds it.
    """
    try:
        info: os.stat_result | None = os.stat(path)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        # /dev/null, a pipe: nothing to continue
        stream = open(path, "w", newline="", encoding="utf-8")
        stream.write(",".join(header) + LINE_END)
        return Resumed([], stream)
    held = claim(path)
    try:
        rows, keep = _read(held.fd, path, header, settings, deals, parse, bots)
        os.ftruncate(held.fd, keep)  # a partial last line (a crash), an unfinished deal
        os.lseek(held.fd, 0, os.SEEK_END)
        fd, held.fd = held.fd, -1
    except BaseException:
        held.release()
        raise
    stream = os.fdopen(fd, "w", newline="", encoding="utf-8")  # (not truncated: appended to, the lock kept)
    if keep == 0:
        stream.write(",".join(header) + LINE_END)
        stream.flush()
    return Resumed(rows, stream)


def _read(
    fd: int,
    path: str,
    header: Sequence[str],
    settings: Sequence[tuple[str, str, str]],
    deals: range,
    parse: Callable[[dict[str, str]], Any],
    bots: Sequence[str] | None,
) -> tuple[list[Any], int]:
    """The whole rows of the file at ``fd`` and the byte offset after the last one kept."""
    name = shown_name(path)
    group = len(bots) if bots else 1
    rows: list[Any] = []
    keep = 0  # the offset after the last whole deal
    offset = 0
    pending: list[Any] = []  # the rows of a deal not every bot has finished yet
    with os.fdopen(os.dup(fd), "rb") as raw:
        raw.seek(0)
        for number, data in enumerate(raw, start=1):
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError:
                if not data.endswith(LINE_END.encode()):
                    break  # a last line cut in the middle of a character
                raise FormatError(path, number, "not UTF-8 text: not a CSV this command wrote") from None
            if not line.endswith(LINE_END):
                break  # the last line, cut short (a crash): dropped
            end = offset + len(data)
            offset = end
            fields = next(csv.reader([line[: -len(LINE_END)]]), [])
            if number == 1:
                if fields != list(header):
                    raise FormatError(
                        path, 1, f"not a CSV of this command to continue (its header is not {','.join(header)}); "
                        "give another --output file, or --force without --resume to write over it"
                    )
                keep = end
                continue
            if len(fields) != len(header):
                raise FormatError(path, number, f"a row of {len(fields)} fields, not {len(header)}: not a CSV this command wrote")
            row = dict(zip(header, fields, strict=True))
            _check_row(name, number, row, settings, deals, bots, len(rows) + len(pending), group)
            try:
                pending.append(parse(row))
            except (ValueError, KeyError) as exc:
                raise FormatError(path, number, f"a value this command does not write ({exc}): not a CSV this command wrote") from None
            if len(pending) == group:
                rows += pending
                pending = []
                keep = end
    return rows, keep


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
                f"{name}:{number}: the file was written with {option} {was}, this run has {now}: "
                "resume it with the settings it was written with, or write another file"
            )
    if bots and row["bot"] != bots[index % group]:
        raise click.UsageError(
            f"{name}:{number}: deal {row['deal']} was played by {row['bot']} where {bots[index % group]} is due "
            f"(this run's bots: {', '.join(bots)})"
        )
    position = index // group
    if position >= len(deals):
        raise click.UsageError(
            f"{name}:{number}: the file holds more deals than --deals {deals.start}-{deals.stop - 1} asks for "
            f"(deal {row['deal']})"
        )
    due = deals[position]
    if row["deal"] != str(due):
        if index == 0:
            raise click.UsageError(f"{name}:{number}: the file starts at deal {row['deal']}, --deals starts at {deals.start}")
        raise click.UsageError(f"{name}:{number}: deal {row['deal']} where deal {due} is due (the deals must follow in order)")


def resumed_notice(path: str, done: int, asked: int, what: str = "deals") -> None:
    """Say on stderr how much of the sweep the file held already."""
    click.echo(f"resuming {shown_name(path)}: {done} of {asked} {what} done already", err=True)


def int_or_none(text: str) -> int | None:
    """A CSV cell as an integer (empty: ``None``).

    :raises ValueError: for anything else.
    """
    return None if text == "" else int(text)
