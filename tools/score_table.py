"""Publish the score table: the data file and the docs page, from a sweep's CSV.

Reads the CSV that ``foursquare solve --deals A-B --output FILE.csv`` writes (after its
escalation passes, ``--resume`` with a higher ``--max-nodes``), a row at a time, and
writes:

- the published data, ``data/score-table.csv.gz``: one row per deal, in deal order,
  with the columns ``deal,status,score,bound,positions,limit,found,found_moves``
  (``bound``: the solver's ``max_score``, the highest score not ruled out; ``positions``:
  its ``nodes``; ``limit``: the ``max_nodes`` the row was settled under, or ran out of;
  ``found`` and ``found_moves``: for an unknown row, the best win found and its moves),
  gzip-compressed reproducibly (no file name and time 0 in its header: the same rows
  give the same bytes);
- the docs page, ``docs/score-table.md``: the deals covered and settled, the winnable
  share with its 95% Wilson interval (the unknown deals counted both ways, as no win
  and as wins), the distribution of best scores, the 20 hardest deals by positions with
  the command that reproduces each, the unknown deals with their bounds, the rows by
  limit, and where the figures come from (date, machine, commit, the passes' commands,
  given as arguments).

An unknown row's best score is bounded from above by the sweep (``max_score``); it is
bounded from below by a win, looked for here (:func:`find_win`): the solver told that
no win scores more than one below the bound (``score_at_most``), then two below, and so
on, each try under ``--find-nodes`` positions.  Such a win is quick to find, as it has
cards to spare, and it is checked on the engine, move by move, before it is published:
a deal with a win found is winnable, proved, though its best score is not.

Memory does not grow with the rows: the rows are copied as they are read, and only
counts, the hardest rows and the first unknown deals are kept.

Run it from the repository's root, in the environment where the package is installed::

    python tools/score_table.py table.csv --date 2026-12-08 \\
        --machine "2 cores (x86_64), load 2.5 to 3.2, shared" --commit 4fc3788 \\
        --pass "foursquare solve --deals 0-99999 --jobs 2 --output table.csv" \\
        --pass "foursquare solve --deals 0-99999 --jobs 2 --max-nodes 64000000 --output table.csv --resume"

A CSV that is not ``solve``'s, holds no row, has its last line cut short (still being
written), whose deals are not in increasing order, that mixes rule sets, has a row
limited by time (``--timeout``) or by no node limit, or has an escalation journal beside
it (``FILE.csv.escalating``: a pass running or stopped) is refused: one line on stderr
naming the file and line, status 1, and nothing written (the files already there are
left as they were).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gzip
import heapq
import io
import os
import shlex
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

from foursquare.engine.game import Game
from foursquare.engine.outcome import Status
from foursquare.engine.rules import Rules
from foursquare.errors import FoursquareError
from foursquare.figures import counts_interval, wilson_interval
from foursquare.formats.schema import load_rules
from foursquare.solver import DEFAULT_MAX_NODES, solve
from foursquare.solver import SOLVED as SOLVED_OUTCOME

#: The header of ``foursquare solve --deals --output``'s CSV (docs/guide/sweeps.md).
SWEEP_HEADER = ("deal", "status", "score", "max_score", "nodes", "seconds", "moves", "rules", "max_nodes", "timeout", "memory")
#: The header of the published data.
TABLE_HEADER = ("deal", "status", "score", "bound", "positions", "limit", "found", "found_moves")
#: The statuses of a row (foursquare.solver.Outcome).
SOLVED, NO_WIN, UNKNOWN = "solved", "no-win", "unknown"
#: How many of the hardest deals the page lists.
HARDEST = 20
#: How many unknown deals the page lists by name (the rest are counted).
UNKNOWN_LISTED = 200
#: The most positions each try of :func:`find_win` may search (``--find-nodes``).
FIND_NODES = 4_000_000
#: Where the files go, from the repository's root.
DATA = Path("data") / "score-table.csv.gz"
PAGE = Path("docs") / "score-table.md"


class TableError(FoursquareError):
    """A sweep CSV that cannot be published as the score table (its message names the file and line)."""


class Win(NamedTuple):
    """A win of an unknown deal, a lower bound on its best score: ``moves`` the cells, space separated."""

    score: int
    moves: str


class Row(NamedTuple):
    """One deal of the table: ``score`` for ``solved`` only; ``bound`` the solver's
    ``max_score`` (the score when solved, ``None`` for ``no-win``, the highest score
    not ruled out when ``unknown``); ``positions`` searched; ``limit`` the node limit;
    ``rules`` as the sweep writes them (not published: the page says them once);
    ``found`` for an unknown row only, the best :class:`Win` found (``None``: none);
    ``moves`` the sweep's best win for a solved row (not published: ``solve`` gives it)."""

    deal: int
    status: str
    score: int | None
    bound: int | None
    positions: int
    limit: int
    rules: str
    found: Win | None = None
    moves: str = ""

    def fields(self) -> tuple[str, ...]:
        """The row as the published CSV writes it (an absent score, bound or win: empty fields)."""
        found = ("", "") if self.found is None else (str(self.found.score), self.found.moves)
        return (str(self.deal), self.status, _text(self.score), _text(self.bound), str(self.positions), str(self.limit), *found)


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


@dataclass
class Tally:
    """What the page says of the rows, counted as they come, in memory that does not grow with them."""

    rows: int = 0
    first: int | None = None
    last: int | None = None
    rules: str | None = None
    statuses: Counter[str] = field(default_factory=Counter)
    scores: Counter[int] = field(default_factory=Counter)
    #: limit -> [settled under it, unknown under it, positions of those rows]
    limits: dict[int, list[int]] = field(default_factory=dict)
    #: the hardest settled rows: a min-heap of (positions, -deal, row), at most HARDEST of them
    hardest: list[tuple[int, int, Row]] = field(default_factory=list)
    #: the first UNKNOWN_LISTED unknown rows, in deal order
    unknowns: list[Row] = field(default_factory=list)
    #: the unknown rows with a win found: (its score, the row's bound) -> rows
    found: Counter[tuple[int, int]] = field(default_factory=Counter)

    def add(self, row: Row) -> None:
        """Count one row (rows come in increasing deal order)."""
        self.rows += 1
        if self.first is None:
            self.first = row.deal
        self.last = row.deal
        self.rules = row.rules
        self.statuses[row.status] += 1
        if row.status == SOLVED:
            assert row.score is not None
            self.scores[row.score] += 1
        per = self.limits.setdefault(row.limit, [0, 0, 0])
        per[row.status == UNKNOWN] += 1
        per[2] += row.positions
        item = (row.positions, -row.deal, row)
        if row.status == UNKNOWN:
            pass  # the unknown deals are listed on their own
        elif len(self.hardest) < HARDEST:
            heapq.heappush(self.hardest, item)
        elif item > self.hardest[0]:
            heapq.heapreplace(self.hardest, item)
        if row.status == UNKNOWN and len(self.unknowns) < UNKNOWN_LISTED:
            self.unknowns.append(row)
        if row.found is not None:
            assert row.bound is not None
            self.found[row.found.score, row.bound] += 1

    @property
    def settled(self) -> int:
        """Rows ``solved`` or ``no-win``."""
        return self.statuses[SOLVED] + self.statuses[NO_WIN]

    @property
    def winnable(self) -> int:
        """Rows proved winnable: ``solved``, or ``unknown`` with a win found."""
        return self.statuses[SOLVED] + self.found.total()

    @property
    def open(self) -> int:
        """Rows not known to be winnable or not: ``unknown`` with no win found."""
        return self.statuses[UNKNOWN] - self.found.total()

    def hardest_rows(self) -> list[Row]:
        """The hardest settled rows, most positions first (ties: the lower deal first)."""
        return [row for _, _, row in sorted(self.hardest, reverse=True)]


@dataclass(frozen=True)
class Provenance:
    """Where the table comes from, as the page says it: free text from the script's arguments."""

    date: str
    machine: str
    commit: str
    passes: tuple[str, ...]
    source: str
    find_nodes: int = FIND_NODES


# --- reading the sweep ---------------------------------------------------------------


def read_sweep(path: Path) -> Iterator[Row]:
    """The rows of a ``solve --deals`` CSV, one at a time, checked.

    :param path: the sweep's CSV (a UTF-8 byte-order mark at its start is read as nothing).
    :returns: an iterator of :class:`Row`, in the file's order.
    :raises TableError: for a file that is not ``solve``'s CSV, a row out of deal order,
        a last line cut short, a row limited by time or by no node limit, rules that
        change from row to row, an escalation journal beside the file; OSError as
        :func:`open` raises it.
    """
    journal = path.with_name(path.name + ".escalating")
    if journal.exists():
        raise TableError(f"{journal}: an escalation pass is running or was stopped: resume it (solve ... --resume) to the end first")
    with path.open(encoding="utf-8-sig", newline="") as file:
        try:
            yield from _rows(path, file)
        except UnicodeDecodeError as error:
            raise TableError(f"{path}: not UTF-8 text (byte {error.start} of a line): not the CSV of foursquare solve --deals") from None


def _rows(path: Path, file: IO[str]) -> Iterator[Row]:
    lines = iter(file)
    header = next(lines, "")
    if tuple(next(csv.reader([header]), [])) != SWEEP_HEADER:
        raise TableError(f"{path}:1: not the CSV of foursquare solve --deals (its header is {','.join(SWEEP_HEADER)})")
    previous: int | None = None
    rules: str | None = None
    for number, line in enumerate(lines, start=2):
        where = f"{path}:{number}"
        if not line.endswith("\n"):
            raise TableError(f"{where}: the last line is cut short (no line end): the sweep is still being written")
        values = next(csv.reader([line]), [])
        if len(values) != len(SWEEP_HEADER):
            raise TableError(f"{where}: {len(values)} fields, not {len(SWEEP_HEADER)}")
        row = _row(where, dict(zip(SWEEP_HEADER, values, strict=True)))
        if previous is not None and row.deal <= previous:
            raise TableError(f"{where}: deal {row.deal} after deal {previous}: the rows must be in increasing deal order")
        rules = rules if rules is not None else row.rules
        if row.rules != rules:
            raise TableError(f"{where}: rules {row.rules!r}, the rows before have {rules!r}: one table, one rule set")
        previous = row.deal
        yield row
    if previous is None:
        raise TableError(f"{path}: no row after the header: nothing to publish")


def _row(where: str, values: dict[str, str]) -> Row:
    """One row of the sweep, checked: the fields the table keeps, consistent with its status."""
    deal = _whole(where, values, "deal")
    status = values["status"]
    score = _optional(where, values, "score")
    bound = _optional(where, values, "max_score")
    positions = _whole(where, values, "nodes")
    if values["timeout"]:
        timeout = values["timeout"]
        raise TableError(f"{where}: deal {deal} was limited by time (--timeout {timeout}): the table's rows are limited by positions")
    if not values["max_nodes"]:
        raise TableError(f"{where}: deal {deal} has no node limit (--max-nodes): the table says the limit each row was settled under")
    limit = _whole(where, values, "max_nodes")
    expected = {
        SOLVED: score is not None and bound == score,
        NO_WIN: score is None and bound is None,
        UNKNOWN: score is None and bound is not None,
    }
    if status not in expected:
        raise TableError(f"{where}: status {status!r} (not solved, no-win or unknown)")
    if not expected[status]:
        raise TableError(f"{where}: score {values['score']!r} and max_score {values['max_score']!r} do not go with status {status}")
    return Row(deal, status, score, bound, positions, limit, values["rules"], moves=values["moves"])


def _whole(where: str, values: dict[str, str], name: str) -> int:
    text = values[name]
    if text.isascii() and text.isdigit():
        return int(text)
    raise TableError(f"{where}: {name} {text!r} is not a whole number")


def _optional(where: str, values: dict[str, str], name: str) -> int | None:
    return _whole(where, values, name) if values[name] else None


# --- a win for each unknown row --------------------------------------------------------


def with_wins(rows: Iterator[Row], max_nodes: int) -> Iterator[Row]:
    """The rows, each unknown one with the best win :func:`find_win` finds (``max_nodes``
    0: none looked for).  :raises TableError: as :func:`find_win`, and from ``rows``."""
    rules: Rules | None = None
    for row in rows:
        if row.status == UNKNOWN and max_nodes:
            rules = rules or _rules(row)
            assert row.bound is not None
            row = row._replace(found=find_win(row.deal, rules, row.bound, max_nodes))
        yield row


def _rules(row: Row) -> Rules:
    try:
        return load_rules(row.rules)
    except FoursquareError as error:
        raise TableError(f"deal {row.deal}: rules {row.rules!r}: {error}") from None


def find_win(deal: int, rules: Rules, bound: int, max_nodes: int) -> Win | None:
    """A good win of a deal whose best score is unknown: a lower bound on that score.

    The solver is told that no win scores more than ``bound - 1`` (``score_at_most``), so
    that it looks only for wins with a card or more to spare, which are quick to find;
    when its limit runs out first, ``bound - 2``, and so on.  A ``no-win`` ends the search
    (the budgets tried include every lower score's).  The win is played on the engine,
    move by move, before it is returned.

    :param deal: the deal number (RULES.md §2).
    :param rules: its rule set.
    :param bound: the highest score not ruled out (the sweep's ``max_score``).
    :param max_nodes: the most positions each try may search.
    :returns: the win found, or ``None`` when no try found one.
    :raises TableError: when the engine does not take the solver's moves as a win of
        their score (a fault of the solver: nothing is published).
    """
    for score in range(bound - 1, -1, -1):
        solution = solve(Game.from_deal(deal, rules), score_at_most=score, max_nodes=max_nodes)
        if solution.status == SOLVED_OUTCOME:
            return _played(deal, rules, solution.moves, solution.score)
        if solution.status != UNKNOWN:
            break
    return None


def _played(deal: int, rules: Rules, moves: Sequence[object], score: int | None) -> Win:
    """The win ``moves`` as the engine plays it, checked to be won with ``score``."""
    text = " ".join(map(str, moves))
    game, _ = _replayed(deal, rules, text, f"the solver's win {text!r} is not legal on the engine")
    if game.status != Status.WON or game.score is None or game.score != score:
        raise TableError(f"deal {deal}: the solver's win {text!r} ends {game.status} with score {game.score}, not won with {score}")
    return Win(game.score, text)


def _replayed(deal: int, rules: Rules, moves: str, refused: str) -> tuple[Game, list[int]]:
    """Deal ``deal`` with ``moves`` (cells, space separated) played on the engine, and the
    numbers (from 1) of the cards that went on a pile.  :raises TableError: ``refused``,
    for moves the engine does not take."""
    game = Game.from_deal(deal, rules)
    stacked = []
    try:
        for number, cell in enumerate(moves.split(), start=1):
            if game.pile(cell) is not None:
                stacked.append(number)
            game.play(cell)
    except FoursquareError as error:
        raise TableError(f"deal {deal}: {refused}: {error}") from None
    return game, stacked


# --- writing the data ----------------------------------------------------------------


def write_table(rows: Iterator[Row], data: Path) -> Tally:
    """Write the published data and count its rows.

    :param rows: the table's rows, in deal order (:func:`read_sweep`).
    :param data: the ``.csv.gz`` to write; it is replaced only once whole (a temporary
        file beside it, renamed over it), so an error leaves the old one.
    :returns: the :class:`Tally` of the rows.
    :raises TableError: from ``rows``; OSError from the file system.
    """
    tally = Tally()
    # no file name and mtime 0 in the gzip header: the same rows, the same bytes
    with (
        _replaced(data, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as packed,
        io.TextIOWrapper(packed, encoding="utf-8", newline="") as text,
    ):
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(TABLE_HEADER)
        for row in rows:
            writer.writerow(row.fields())
            tally.add(row)
    return tally


# --- the page ------------------------------------------------------------------------


def pass_limit(command: str) -> int | None:
    """The node limit of a pass's command (``--max-nodes N``, or the default when the
    command is a ``solve`` without it); ``None`` for a text that is not a ``solve`` command."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    if "solve" not in words:
        return None
    for i, word in enumerate(words):
        value = words[i + 1] if word == "--max-nodes" and i + 1 < len(words) else word.removeprefix("--max-nodes=")
        if (word == "--max-nodes" or word != value) and value.isdigit():
            return int(value)
    return DEFAULT_MAX_NODES


def reproduce(row: Row) -> str:
    """The command that solves ``row``'s deal again, with the same status, score, bound and
    positions: the row's own limit, left out when it is the default."""
    limit = "" if row.limit == DEFAULT_MAX_NODES else f" --max-nodes {row.limit}"
    return f"foursquare solve --deal {row.deal}{limit}"


def _percent(x: float) -> str:
    """``x`` (0 to 1) as a percentage with two decimals; three within 0.1 points of 0% or
    100%, four within 0.01 points (but for 0 and 1 themselves), so that no share rounds to
    0.00% or 100.00% and small shares keep a like precision."""
    pct = 100 * x
    near = min(pct, 100 - pct)
    places = 2 if near >= 0.1 or x in (0, 1) else 3 if near >= 0.01 else 4
    return f"{pct:.{places}f}%"


def _share(part: int, whole: int) -> str:
    return _percent(part / whole) if whole else "-"


def _best(row: Row) -> str:
    if row.status == SOLVED:
        return str(row.score)
    return "no win" if row.status == NO_WIN else f"at most {row.bound}"


def _deals_line(tally: Tally) -> str:
    first, last, n = tally.first, tally.last, tally.rows
    assert first is not None and last is not None, "read_sweep refuses a sweep of no row"
    every = "" if last - first + 1 == n else ", not every deal between them"
    return (
        f"Deals {first:,} to {last:,} of the {tally.rules} rules ({n:,} deals{every}): **{tally.settled:,} settled** "
        f"({tally.statuses[SOLVED]:,} solved, {tally.statuses[NO_WIN]:,} no win), **{tally.statuses[UNKNOWN]:,} unknown**"
        + (f" ({tally.found.total():,} of them with a win found)." if tally.found else ".")
    )


def _winnable(tally: Tally) -> list[str]:
    n, won, unknown, open_ = tally.rows, tally.winnable, tally.statuses[UNKNOWN], tally.open
    lines = ["## How many deals are winnable", ""]
    if not open_:
        low, high = wilson_interval(won, n)
        every = (
            "every deal is settled."
            if not unknown
            else f"{tally.found.total():,} of them are unknown deals, with a win found but their best score not proved (below)."
        )
        share = f"{_share(won, n)}** (95% Wilson interval {_percent(low)} to {_percent(high)})"
        lines += [f"**{won:,} of {n:,} deals are winnable: {share}; {every}", ""]
        if unknown:
            lines += [
                f"(The summary of `foursquare solve --deals` counts the winnable share among the settled deals only, "
                f"{tally.statuses[SOLVED]:,} of {tally.settled:,} here; this table counts a deal with a win found as "
                "winnable too.)",
                "",
            ]
        return lines
    lines += [
        f"{open_:,} deals are unknown with no win found: the solver neither found a win nor proved that none exists. As "
        "Solvitaire does for its solitaires, they are counted both ways: all as no win (the low figure) and all as wins "
        "(the high figure); the share of winnable deals lies between the two.",
        "",
        "| those deals counted as | winnable deals | share | 95% Wilson interval |",
        "|---|--:|--:|--:|",
    ]
    for words, wins in (("no win (low figure)", won), ("wins (high figure)", won + open_)):
        low, high = wilson_interval(wins, n)
        lines.append(f"| {words} | {wins:,} of {n:,} | {_share(wins, n)} | {_percent(low)} to {_percent(high)} |")
    lo, _ = wilson_interval(won, n)
    _, hi = wilson_interval(won + open_, n)
    figures = f"**Winnable: {_share(won, n)} to {_share(won + open_, n)}**"
    lines += ["", f"{figures} ({_percent(lo)} to {_percent(hi)} with 95% confidence).", ""]
    return lines


def _scores(tally: Tally) -> list[str]:
    won, n = tally.statuses[SOLVED], tally.rows
    lines = [
        "## The best scores",
        "",
        "The best score of a deal is the most cards that can be left in the stock when the game is won ({doc}`RULES`, §5), "
        "with the stock's order known: a win with the fewest cards, proved optimal.",
        "",
        "| best score | deals | share of the solved deals | share of all deals |",
        "|--:|--:|--:|--:|",
    ]
    for score in sorted(tally.scores, reverse=True):
        count = tally.scores[score]
        lines.append(f"| {score} | {count:,} | {_share(count, won)} | {_share(count, n)} |")
    lines.append(f"| no win | {tally.statuses[NO_WIN]:,} | | {_share(tally.statuses[NO_WIN], n)} |")
    if tally.statuses[UNKNOWN]:
        lines.append(f"| unknown | {tally.statuses[UNKNOWN]:,} | | {_share(tally.statuses[UNKNOWN], n)} |")
    lines.append("")
    if won:
        mean, sd, (low, high) = counts_interval(tally.scores)
        lines.append(
            f"The mean best score of the solved deals is **{mean:.3f}** (standard deviation {sd:.3f}; 95% interval of "
            f"the mean {low:.3f} to {high:.3f})"
            + (", the unknown deals left out (each scores at most its bound, below)." if tally.statuses[UNKNOWN] else ".")
        )
        lines.append("")
    if tally.found:
        lines += [
            "An unknown deal with a win found has its best score between that win's score and its bound:",
            "",
            "| win found | bound | unknown deals |",
            "|--:|--:|--:|",
        ]
        lines += [f"| {found} | {bound} | {count:,} |" for (found, bound), count in sorted(tally.found.items(), reverse=True)]
        lines.append("")
    return lines


def _hardest(tally: Tally) -> list[str]:
    rows = tally.hardest_rows()
    assert tally.rules is not None, "read_sweep refuses a sweep of no row"
    rules = load_rules(tally.rules)
    lines = [
        f"## The {len(rows)} hardest settled deals",
        "",
        "By the positions the solver searched to settle them (the unknown deals are listed on their own, below, each "
        "with the limit it ran out of). "
        "Each command solves the deal again under the row's limit and gives the same status, score and bound (and, "
        "with the solver of the commit below, the same positions). *Cards stacked* says which cards of the best win "
        "(by their number in the deal's order) go on a pile rather than make a new one; the row's command prints that "
        "win (the default limit of `foursquare solve --deal N` alone runs out on these deals).",
        "",
        "| deal | status | best score | positions | limit | cards stacked | reproduce |",
        "|--:|---|--:|--:|--:|---|---|",
    ]
    lines += [
        f"| {r.deal} | {r.status} | {_best(r)} | {r.positions:,} | {r.limit:,} | {_stacked_text(r, rules)} | `{reproduce(r)}` |"
        for r in rows
    ]
    scores = Counter(_best(r) for r in rows)
    if rows:
        counts = [f"{score} ({scores[score]} deal{'s' if scores[score] > 1 else ''})" for score in sorted(scores)]
        lines += ["", "Their best scores: " + ", ".join(counts) + "."]
    return [*lines, ""]


def stacked_cards(deal: int, rules: Rules, moves: str) -> list[int]:
    """Which cards of a game go on a pile (RULES.md §3): their numbers, from 1, in the
    deal's order, when ``moves`` (cells, space separated) are played on deal ``deal``.

    :raises TableError: for moves the engine does not take.
    """
    return _replayed(deal, rules, moves, f"its moves {moves!r} are not legal on the engine")[1]


def _stacked_text(row: Row, rules: Rules) -> str:
    if row.status != SOLVED:
        return ""
    stacked = stacked_cards(row.deal, rules, row.moves)
    return ", ".join(map(str, stacked)) if stacked else "none"


def _unknowns(tally: Tally) -> list[str]:
    count = tally.statuses[UNKNOWN]
    lines = ["## The unknown deals", ""]
    if not count:
        return [*lines, "None: every deal is settled.", ""]
    lines += [
        "Each still unknown under the highest limit tried on it: its bound is the highest score not ruled out (no win "
        "scores more), and the command reproduces it. The win found, when there is one, is a lower bound on its best "
        "score. It was found by `tools/score_table.py`, in the repository, with the solver told, as if it were known, "
        "that no win scores more than one below the bound (`foursquare.solver.solve(game, score_at_most=S)`), then "
        "two below, and so on: its `solved` then means only that a win of that score exists, not that it is the best, "
        "and the win is checked on the engine. The program replays it, a move a line, the moves unquoted: "
        "`printf '%s\\n' d4 c4 ... | foursquare play --deal N` prints `Won, score S.`",
        "",
        "| deal | win found | bound | limit | reproduce the bound | the win's moves |",
        "|--:|--:|--:|--:|---|---|",
    ]
    lines += [
        f"| {r.deal} | {'' if r.found is None else r.found.score} | {r.bound} | {r.limit:,} | `{reproduce(r)}` | "
        f"{'none found' if r.found is None else f'`{r.found.moves}`'} |"
        for r in tally.unknowns
    ]
    if count > len(tally.unknowns):
        every = "zcat data/score-table.csv.gz | awk -F, '$2 == \"unknown\"'"
        lines += ["", f"And {count - len(tally.unknowns):,} more: `{every}` lists them all."]
    return [*lines, ""]


def _limits(tally: Tally, provenance: Provenance) -> list[str]:
    ladder = sorted(set(tally.limits) | {limit for limit in map(pass_limit, provenance.passes) if limit is not None})
    lines = [
        "## The rows by limit",
        "",
        "The first pass solved every deal, under the lowest limit; each later pass solved again, "
        "under a higher limit, only the deals still unknown (`solve --resume` with a higher `--max-nodes`: "
        "{doc}`guide/sweeps`); a pass stopped partway left the deals it did not reach unknown under the limit before. "
        "A row's limit is the one it was settled under, or the highest it was tried under. A pass spent the "
        "positions of the rows of its limit and its whole limit on each row solved again under a higher one (the "
        "last column).",
        "",
        "| limit (positions) | rows settled under it | rows left unknown under it | positions of these rows "
        "| positions spent by the pass |",
        "|--:|--:|--:|--:|--:|",
    ]
    spent_total = 0
    for limit in ladder:
        settled, unknown, positions = tally.limits.get(limit, (0, 0, 0))
        above = sum(per[0] + per[1] for other, per in tally.limits.items() if other > limit)
        spent = positions + limit * above
        spent_total += spent
        lines.append(f"| {limit:,} | {settled:,} | {unknown:,} | {positions:,} | {spent:,} |")
    return [*lines, "", f"In all, the passes spent {spent_total:,} positions.", ""]


def _provenance(provenance: Provenance) -> list[str]:
    return [
        "## Where the figures come from",
        "",
        f"- **Date**: {provenance.date}",
        f"- **Machine**: {provenance.machine}",
        f"- **Commit**: `{provenance.commit}`",
        f"- **Made by**: `tools/score_table.py` from the sweep's CSV (`{provenance.source}`); each unknown deal's win "
        f"looked for with at most {provenance.find_nodes:,} positions for each score tried (`tools/score_table.py "
        "--find-nodes`)",
        "- **The passes**, in order:",
        "",
        "  ```sh",
        *[f"  {command}" for command in provenance.passes],
        "  ```",
        "",
    ]


def render_page(tally: Tally, provenance: Provenance) -> str:
    """The docs page of the table (MyST Markdown), from the tally of its rows and where they come from."""
    lines = [
        "# The score table of Foursquare",
        "",
        "For every deal of a range, what the perfect-information solver found (it knows the stock's order, which no "
        "player does: {doc}`guide/solver`): the best score, proved, or a proof that no win exists, or, where its limit "
        "ran out, bounds on the best score (a win found and the highest score not ruled out). The whole table is in "
        "the repository, `data/score-table.csv.gz`, one row a deal. The command `foursquare solve --deal N` (with the "
        "row's `--max-nodes` when it is not the default) makes any row's status, score, bound and positions again, and "
        "`foursquare play` replays a win found (below).",
        "",
        "This page and the data file are written by `tools/score_table.py`, in the repository; change the script, not "
        "the page.",
        "",
        _deals_line(tally),
        "",
    ]
    lines += _winnable(tally) + _scores(tally) + _hardest(tally) + _unknowns(tally) + _limits(tally, provenance)
    lines += [
        "## The data",
        "",
        f"`data/score-table.csv.gz`: a CSV of {tally.rows:,} rows and a header, gzip-compressed, one row a deal in deal order:",
        "",
        "| column | what it holds |",
        "|---|---|",
        "| `deal` | the deal number ({doc}`RULES`, §2) |",
        "| `status` | `solved` (a best score, proved), `no-win` (proved: no win exists) or `unknown` (the limit ran out first) |",
        "| `score` | the best score, for `solved` (empty otherwise) |",
        "| `bound` | the highest score not ruled out (`max_score` in `solve`'s CSV): the score when solved, empty for "
        "`no-win`, a bound when unknown |",
        "| `positions` | the positions the solver searched (`nodes` in the CSV of `solve --deals --output`) |",
        "| `limit` | the node limit (`--max-nodes`; `max_nodes` in `solve`'s CSV) the row was settled under, or ran out of |",
        "| `found` | for `unknown`: the score of the best win found, a lower bound on the best score "
        "(empty otherwise, or when none was found) |",
        "| `found_moves` | that win's moves, the cells in order, space separated (`foursquare play --deal N` replays "
        "them given one a line: `printf '%s\\n' MOVES`, unquoted) |",
        "",
        "```sh",
        "zcat data/score-table.csv.gz | head -3",
        "zcat data/score-table.csv.gz | awk -F, '$3 == 24' | wc -l    # the deals whose best score is 24",
        "```",
        "",
        "In the repository, `tests/project/test_score_table.py` solves a random sample of the rows again and checks "
        "them, and replays every win found.",
        "",
    ]
    return "\n".join(lines + _provenance(provenance)).rstrip("\n") + "\n"


def write_page(text: str, page: Path) -> None:
    """Write the page whole (a temporary file renamed over it). :raises OSError: from the file system."""
    with _replaced(page, "w") as file:
        file.write(text)


@contextlib.contextmanager
def _replaced(path: Path, mode: str) -> Iterator[IO[Any]]:
    """A temporary file beside ``path``, renamed over it once the block ends without an
    error (else removed): a reader never sees it half written.  :raises OSError: from
    the file system."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        text = "b" not in mode
        with open(fd, mode, encoding="utf-8" if text else None, newline="\n" if text else None) as file:  # noqa: PTH123
            yield file
        os.chmod(name, 0o644)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


# --- the command ---------------------------------------------------------------------


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The script's arguments (argparse: a usage error exits with status 2)."""
    parser = argparse.ArgumentParser(
        prog="score_table.py",
        description="Publish the score table: data/score-table.csv.gz and docs/score-table.md, from a solve --deals CSV.",
    )
    parser.add_argument("sweep", type=Path, help="the CSV of foursquare solve --deals A-B --output FILE.csv, after its passes")
    parser.add_argument("--data", type=Path, default=DATA, help=f"the data file to write (default: {DATA})")
    parser.add_argument("--page", type=Path, default=PAGE, help=f"the docs page to write (default: {PAGE})")
    parser.add_argument("--date", required=True, help="when the passes ran (e.g. 2026-12-06 to 2026-12-08)")
    parser.add_argument("--machine", required=True, help="the machine: cores and load (e.g. '2 cores, x86_64, load 2.5-3.2, shared')")
    parser.add_argument("--commit", required=True, help="the commit the passes ran")
    parser.add_argument("--find-nodes", type=int, default=FIND_NODES, metavar="N",
                        help=f"the most positions each try at a win of an unknown deal may search "
                             f"(default {FIND_NODES}; 0: none looked for)")  # fmt: skip
    parser.add_argument("--pass", dest="passes", action="append", required=True, metavar="COMMAND",
                        help="the command of one pass, in order (repeat it; a '# comment' after it may say its time)")  # fmt: skip
    args = parser.parse_args(argv)
    for option in ("data", "page"):
        if args.sweep.resolve() == getattr(args, option).resolve():
            parser.error(f"argument --{option}: {args.sweep} is the sweep itself: it would be written over")
    if args.find_nodes < 0:
        parser.error(f"argument --find-nodes: {args.find_nodes} is negative (0: no win looked for)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Write the data and the page; the exit status: 0 done, 1 refused (one line on stderr), 2 a usage error."""
    args = parse_arguments(argv)
    provenance = Provenance(args.date, args.machine, args.commit, tuple(args.passes), str(args.sweep), args.find_nodes)
    staged = args.data.with_name(f".{args.data.name}.staged")  # the data replaces the old once the page is written too
    try:
        tally = write_table(with_wins(read_sweep(args.sweep), args.find_nodes), staged)
        write_page(render_page(tally, provenance), args.page)
        staged.replace(args.data)
    except (TableError, OSError) as error:
        staged.unlink(missing_ok=True)
        print(f"score_table.py: {error}", file=sys.stderr)
        return 1
    found = f", {tally.found.total():,} of them with a win found" if tally.found else ""
    print(f"{args.data}: {tally.rows:,} rows ({tally.settled:,} settled, {tally.statuses[UNKNOWN]:,} unknown{found}); {args.page} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
