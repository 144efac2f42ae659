"""The options our commands share and the types of their values (Click).

- :func:`game_options` adds ``--deal``, ``--deck``, ``--rules`` and ``--game K`` (alone: :data:`game_number_option`).
- :class:`BoundedInt`, :class:`PositiveSeconds`, :data:`PATH`: the types of integer,
  time and file options; :func:`deal_range` reads ``--deals A-B``.
- :func:`exclusive`, :func:`option_needs`, :func:`bot_option_needs`: usage errors
  (status 2) for options that do not go together.
- :func:`game_of_options_file` (and :func:`option_names` around a file already read): the game a command's
  options and file name (:class:`foursquare.app.games.GameSpec` with the option names
  put into its messages): a ``--deal``/``--deck``/``--rules``/``--game``
  that disagrees with the file is a usage error (status 2) naming the option; a file's
  problems are ``FILE:LINE: message`` (status 1 at the boundary).
- The command line of the sweeps of ``solve --deals`` and ``simulate``: the help and
  the checks of ``--scheduler`` and ``--resume`` (:func:`check_sweep_options`), and the
  run of a sweep (:class:`SweepBatch`), the refusals of :mod:`foursquare.app.sweep`
  worded in the command's options.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..app.games import GameSpec
from ..engine.deal import MAX_DEAL, parse_deal_number
from ..engine.game import Game
from ..engine.rules import PRESETS
from ..errors import AgreementError, ArgumentError, FormatError, FoursquareError, ParseError, WorkerError, quote, shown_name
from .boundary import check_output_file, open_output_file, refuse_standard_output
from .signals import signals_deferred
from .streams import progress_bar, stdout_reader_gone

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from ..app.sweep import Resumed, SweepCsv, SweepRows

if TYPE_CHECKING:  # Click 8.4 made ParamType generic; before it a subscript fails at run time
    _TextType = click.ParamType[str]
    _SecondsType = click.ParamType[float]
    _IntType = click.ParamType[int]
else:  # the same class (Click 8.1 to the newest): setup.cfg's floor stays click>=8.1
    _TextType = _SecondsType = _IntType = click.ParamType


#: The type of every file parameter: shell completion offers files; only an empty
#: name is refused here (a bad file is reported by the reader as ``FILE: reason``, status 1).
class FilePath(click.Path):
    """:class:`click.Path` (``-`` allowed) that refuses an empty name as a usage error.

    It checks nothing else: a missing, unreadable or odd file is the reader's
    ``FILE: reason`` error (status 1, :func:`foursquare.formats.inputs.read_source`),
    so that ``validate`` still checks the other files (Click's own check would be a
    usage error, status 2, before any file is read)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty file name", param, ctx)
        return super().convert(value, param, ctx)


PATH = FilePath(allow_dash=True, readable=False)


class RulesSpec(_TextType):
    """The value of ``--rules NAME|FILE`` (and ``rules [NAME|FILE]``): text, kept as
    given (:attr:`foursquare.app.games.GameSpec.rules` reads it); shell completion
    offers the preset names that start with what is typed, and file names.

    The one rule for a value that is no preset (:func:`foursquare.formats.inputs.names_a_file`):
    a value written as a file's name (``house.yaml``, ``rules/x``, ``-``) or naming a file
    that is there is a file, and a missing one is the reader's ``FILE: no such file``
    (status 1) as in every command; any other word is a misspelt preset: a usage error
    here (status 2) listing the presets."""

    name = "rules"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from ..formats.inputs import names_a_file

        text = str(value)
        if text not in PRESETS and not names_a_file(text):
            self.fail(f"{shown_name(text)} is neither a preset ({', '.join(PRESETS)}) nor a rules file", param, ctx)
        return text

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[click.shell_completion.CompletionItem]:
        """The presets starting with ``incomplete``, then the shell's own file completion
        (in bash, :mod:`foursquare.cli.shellcompletion`'s script keeps both)."""
        from click.shell_completion import CompletionItem

        presets = [CompletionItem(name) for name in PRESETS if name.startswith(incomplete)]
        return [*presets, CompletionItem(incomplete, type="file")]


#: The type of ``--rules`` and of ``rules``' argument.
RULES_SPEC = RulesSpec()


def _plain_digits(text: str) -> bool:
    """Whether an option's value is ASCII digits and nothing else: no sign, no
    Unicode digits (``４``), no white space around them (docs/reference/contract.md: integer options)."""
    return bool(text) and text.isascii() and text.isdigit()


def _deal_number(text: str) -> int:
    """A deal number written in ASCII digits alone (no sign, no white space around them).

    :raises ParseError: otherwise, in :func:`~foursquare.engine.deal.parse_deal_number`'s words."""
    if not _plain_digits(text):
        raise ParseError(f"not a deal number: {quote(text)} (expected a whole number from 0 to {MAX_DEAL})")
    return parse_deal_number(text)


def _deal_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    try:
        return None if value is None else _deal_number(value)
    except ParseError as exc:
        raise click.BadParameter(str(exc)) from None


def game_options(*, deck_stdin: bool = True, game_number: bool = True) -> Callable[[F], F]:
    """The decorator that adds ``--deal N``, ``--deck FILE``, ``--rules NAME|FILE`` and
    (``game_number``) ``--game K``, which game of a multi-game transcript, to a command;
    ``deck_stdin=False`` for a command whose stdin holds something else, so that its
    help does not offer ``-``."""
    return lambda func: _game_options(func, deck_stdin, game_number)


def _game_options(func: F, deck_stdin: bool, game_number: bool) -> F:
    func = game_number_option(func) if game_number else func
    func = click.option(
        "--rules",
        "rules_spec",
        metavar="NAME|FILE",
        type=RULES_SPEC,
        help="Rule set: a preset name (standard, fixed-board, ...) or a rules YAML file. Default: standard.",
    )(func)
    func = click.option(
        "--deck",
        "deck_path",
        metavar="FILE",
        type=PATH,
        help="Card order, top first, white-space separated"
        + (" ('-' for stdin)." if deck_stdin else " (a file: stdin holds the moves)."),
    )(func)
    return click.option(
        "--deal",
        metavar="N",
        callback=_deal_callback,
        help="Deal number (0 to 2^64-1), as in RULES.md section 2.",
    )(func)


def game_spec(o: Any) -> GameSpec:
    """The game that the options of :func:`game_options` name (``o``: a command's options
    as Click reads them): ``--deal`` and ``--deck`` together are a usage error (status 2);
    the rule set read now (:meth:`GameSpec.read`)."""
    exclusive(deal=o.deal, deck=o.deck_path)
    return GameSpec.read(o.deal, o.deck_path, o.rules_spec)


class PositiveSeconds(_SecondsType):
    """A time in seconds: a finite number above 0 (``nan``, ``inf`` and ``0`` are usage errors)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        text = str(value).strip()
        try:
            number = float(text)
        except (ValueError, OverflowError):
            number = math.nan
        # float() would take "1_0" as 10: integer options refuse digit separators, so do seconds
        if "_" in text or not math.isfinite(number) or number <= 0:
            self.fail(f"{quote(text)} is not a finite number of seconds above 0", param, ctx)
        return number


#: The type of ``--timeout`` and ``--budget`` options.
SECONDS = PositiveSeconds()


class BoundedInt(_IntType):
    """A whole number written in ASCII digits, within ``[low, high]``: the type of
    every integer option.

    Unlike :class:`click.IntRange`, it accepts no Unicode digits (``４``), no sign
    or underscores, checks the number of digits before converting (``int()`` of
    5000 digits raises), and quotes bad input shortly
    (:func:`foursquare.errors.quote`).  Usage error (status 2) otherwise.
    """

    name = "integer"

    def __init__(self, low: int = 0, high: int = 2**63 - 1) -> None:
        self.low = low
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        expected = f"a whole number from {self.low} to {self.high}"
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value)
            if not _plain_digits(text):
                self.fail(f"{quote(str(value))} is not {expected}", param, ctx)
            digits = text.lstrip("0") or "0"
            if len(digits) > len(str(self.high)):
                self.fail(f"{quote(text)} is too large (expected {expected})", param, ctx)
            number = int(digits)
        if not self.low <= number <= self.high:
            self.fail(f"{quote(number)} is out of range (expected {expected})", param, ctx)
        return number


class MemorySize(_IntType):
    """A size in bytes (``--memory``): ASCII digits with an optional unit ``K``, ``M`` or
    ``G`` (powers of 1024; ``512M``, ``1G``), within ``[low, high]``.  Usage error
    (status 2) otherwise.

    >>> MemorySize(1, 1 << 30).convert("512M", None, None)
    536870912
    """

    name = "size"

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        expected = f"a size from {self.low >> 20}M to {self.high >> 30}G (a number of bytes, or with K, M or G)"
        text = str(value)
        unit = {"K": 10, "M": 20, "G": 30}.get(text[-1:].upper(), 0)
        digits = text[:-1] if unit else text
        if not _plain_digits(digits) or len(digits.lstrip("0")) > 12:
            self.fail(f"{quote(str(value))} is not {expected}", param, ctx)
        number = int(digits) << unit
        if not self.low <= number <= self.high:
            self.fail(f"{quote(text)} is out of range (expected {expected})", param, ctx)
        return number


#: A count of at least 1 (``--jobs``, ``--nodes``, ``--max-nodes``, ``--game``).
POSITIVE = BoundedInt(1)
#: A whole number from 0 (``--seed``, ``--after``).
NATURAL = BoundedInt(0)
#: ``--jobs``: worker processes, 1 to 256.
JOBS = BoundedInt(1, 256)

#: The decorator that adds ``--game K``: which game of a multi-game transcript.
game_number_option = click.option(
    "--game", "game_number", type=POSITIVE, metavar="K", help="The K-th game of a transcript that holds several (from 1)."
)


def exclusive(**options: object) -> None:
    """Raise a usage error (status 2) when more than one of the given options is set."""
    given = [name for name, value in options.items() if value is not None and value is not False]
    if len(given) > 1:
        raise click.UsageError(f"use only one of {', '.join('--' + n.replace('_', '-') for n in given)}")


def option_needs(option: str, value: object, other: str, other_value: object) -> None:
    """Raise a usage error (status 2) when ``option`` (a name like ``--force``) is set
    (``value`` neither ``None`` nor ``False``) without ``other``, the option it only
    modifies: an option given in vain is an error, not silently ignored."""
    if value is not None and value is not False and (other_value is None or other_value is False):
        raise click.UsageError(f"{option} needs {other}")


#: The names of the bots (:data:`foursquare.bots.BOTS`), in its order: the choices of
#: ``--bot`` and ``--vs``, listed here so that a command's ``--help`` loads no bot
#: (a test checks that they are the same).
BOT_NAMES: tuple[str, ...] = ("random", "greedy", "expectimax", "deep", "expert", "chance")

#: The default bot (:data:`foursquare.bots.DEFAULT`) of ``hint``, ``simulate`` and
#: ``analyze``, named here for the same reason (the same test checks it).
DEFAULT_BOT = "expert"


def bot_option_needs(option: str, value: object, names: Sequence[str], uses: str) -> None:
    """Raise a usage error (status 2) when ``option`` is set for bots ``names`` none of
    which it changes (``uses``: the :class:`~foursquare.bots.base.Bot` flag, like
    ``uses_nodes``), naming the bots it does change."""
    from ..bots import BOTS

    if value is None or value is False or any(getattr(BOTS[n], uses) for n in names if n in BOTS):
        return
    takers = ", ".join(n for n, cls in BOTS.items() if getattr(cls, uses))
    raise click.UsageError(f"{option} changes nothing for {', '.join(names)}: it applies to {takers}")


def given_on_the_command_line(name: str) -> bool | None:
    """Whether the current command's parameter ``name`` was given (on the command line
    or in the environment) rather than left at its default: ``True``, or ``None``
    (for :func:`option_needs`)."""
    return True if click.get_current_context().get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT) else None


#: The most deals one ``--deals`` range may name (a larger range is a typo, not a plan).
MAX_DEALS = 10_000_000


def deal_range(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> range | None:
    """Click callback of ``--deals A-B``: the deal numbers A to B inclusive (or one number ``A``).

    :raises click.BadParameter: (status 2) for text that is not a range of deal
        numbers, a range that ends before it starts, or one of more than
        :data:`MAX_DEALS` deals.
    """
    if value is None:
        return None
    first, sep, last = value.partition("-")
    try:
        a = _deal_number(first)
        b = _deal_number(last) if sep else a
    except ParseError:
        raise click.BadParameter(
            f"{quote(value)} is not a range of deal numbers (expected A-B with 0 <= A <= B < 2^64, like 0-999,"
            " with no leading zero)"
        ) from None
    if b < a:
        raise click.BadParameter(f"{quote(value)}: the range ends before it starts")
    if b - a + 1 > MAX_DEALS:
        raise click.BadParameter(f"{quote(value)}: at most {MAX_DEALS:,} deals at a time")
    return range(a, b + 1)


@contextlib.contextmanager
def option_names(spec: GameSpec) -> Iterator[None]:
    """The loading errors that concern an option, with the option named: a disagreement
    between the file and an option is a usage error that names the option."""
    try:
        yield
    except AgreementError as exc:
        source, given, own = shown_name(exc.facts["source"]), exc.facts["given"], exc.facts["own"]
        if given == "game":
            raise click.UsageError(f"--game picks a game of a transcript; {source} is not a transcript") from None
        shown = {"deal": str(spec.deal), "deck": shown_name(str(spec.deck_path))}.get(
            given, shown_name(spec.rules_spec) if spec.rules_spec else spec.rules.label if spec.rules is not None else ""
        )
        raise click.UsageError(f"{source} {own}; --{given} {shown} disagrees") from None
    except FormatError as exc:
        if exc.facts.get("number") is None:
            raise  # its advice, if any, is said in the options' words at the boundary
        raise FormatError(exc.source, exc.line, f"--{exc.message}") from None  # --game K: the file holds only ...


def game_of_options_file(path: str, spec: GameSpec, *, game_number: int | None = None, empty_ok: bool = True) -> Game:
    """The game a file describes (a move script, a transcript or a state), replayed
    to its end; ``--deal`` / ``--deck`` / ``--rules`` (``spec``) give what the file does
    not (:meth:`GameSpec.game_of_file <foursquare.app.games.GameSpec.game_of_file>`).

    :param game_number: ``--game``: the game of a multi-game transcript (from 1); without
        it such a file is an error that says how to pick one.
    :raises click.UsageError: when ``--deal``, ``--deck`` or ``--rules`` disagrees
        with what the file names itself (status 2), or ``--game`` is given for a
        file that is not a transcript.
    :raises FormatError: ``FILE:LINE: message`` at the first problem.
    """
    with option_names(spec):
        return spec.game_of_file(path, game_number=game_number, empty_ok=empty_ok)


#: The help of ``--scheduler``.
SCHEDULER_HELP = (
    "Run the deals as tasks on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786); "
    "needs pip install 'foursquare-solitaire[dask]'."
)
#: The help of ``--resume``.
RESUME_HELP = (
    "Continue the --output FILE.csv of a run that stopped partway, with the same settings: "
    "the deals already in it are skipped (a missing or empty file starts afresh)."
)


def check_sweep_options(o: Any, output: str | None, inputs: dict[str, str | None], also: str) -> None:
    """The usage errors of ``--force``, ``--resume`` and ``--scheduler`` (status 2), an
    ``--output`` file that is one of ``inputs`` or standard output itself while ``also``
    writes there, and the file checked (:func:`~foursquare.cli.boundary.check_output_file`)
    unless resumed; the address of ``--scheduler`` is checked before any connection by
    Dask's own parsing (:func:`~foursquare.cluster.scheduler_address`).

    :param o: the command's options as Click reads them (``force``, ``resume``, ``scheduler``).
    """
    from ..app.files import refuse_output_over_input

    option_needs("--force", o.force, "--output", output)
    option_needs("--resume", o.resume, "--output", output)
    refuse_output_over_input("--output", output, inputs)
    refuse_standard_output(
        "--output", output, also,
        "give --output - for the CSV alone on stdout (the summary then goes to stderr)" if also == "the summary" else "",
    )
    if o.scheduler is not None and given_on_the_command_line("jobs"):
        raise click.UsageError("--jobs and --scheduler: the cluster's workers do the work; give one of them")
    from ..cluster import scheduler_address

    try:
        if o.scheduler is not None:
            scheduler_address(o.scheduler)
    except ArgumentError as exc:  # a malformed address
        raise click.BadParameter(str(exc), param_hint="'--scheduler'") from None
    except WorkerError as exc:  # no dask extra
        raise click.UsageError(f"--scheduler: {exc}") from None
    if not o.resume:
        check_output_file(output, o.force)  # (status 1: a file that holds something, without --force)
    elif output == "-":
        raise click.UsageError("--resume needs --output FILE.csv: standard output cannot be continued")
    elif o.force:
        raise click.UsageError("--resume and --force: --resume continues the file, --force writes over it")


class SweepBatch:
    """The run of a sweep (``solve --deals``, ``simulate``): each unit of its results (a
    deal) written to the ``--output`` CSV (:attr:`rows`), printed (:meth:`show`) and counted
    (:attr:`count`) as soon as it comes, whole even at Ctrl-C, so that an interrupted run
    keeps every deal finished; Ctrl-C, SIGTERM, a worker gone, a failed write or running
    out of memory then print the summary of those (:attr:`summary`) before the exit.

    :param path: ``--output`` (``-``: standard output; ``None``: no CSV).
    :param to_stdout: whether the results go to stdout alone: once its reader leaves
        (``| head``), nobody reads them and the run stops, quietly (status 0).
    """

    #: the deals of the run in order, to name the one under way at a :class:`MemoryError` (empty: not named)
    due: Sequence[int] = ()
    #: the CSV rows of one unit (a step of the progress bar each)
    rows: Callable[[Any], list[Sequence[object]]]
    #: count one unit written (and read, when the results go to stdout)
    count: Callable[[Any], None]
    #: print the summary of the units counted (``interrupted``: of a run stopped before its end)
    summary: Callable[[bool], None]

    def __init__(self, path: str | None, to_stdout: bool) -> None:
        self.path, self.to_stdout = path, to_stdout
        self.output: SweepRows | None = None
        self.header: Sequence[str] = ()  # the header still to write (a file written afresh)
        self.stopped = False
        self.done_here = 0  # the units of this run done, in order: the next one is due

    def open(self, resume: bool, force: bool, layout: SweepCsv, keep: Callable[[list[Any]], None]) -> Resumed | None:
        """The CSV file first (an unwritable path fails before the work starts): written
        afresh (its header written in :meth:`run`, where a failed write is an interruption
        like any other), or continued (``--resume``: its rows handed to ``keep``) through
        :func:`~foursquare.app.sweep.resume_csv`, its refusals in the command's words: a row
        of other settings or of a deal not due there is a usage error (status 2), naming the
        option of the setting (the column ``max_nodes`` is set by ``--max-nodes``).  Says on
        stderr how much of the sweep the file held already, and how many of its deals,
        unknown under a lower limit, are solved again (and under which)."""
        from ..app.sweep import SweepRows, resume_csv

        if self.path is None or not resume:
            self.output = None if self.path is None else SweepRows(open_output_file(self.path, force), self.path)
            self.header = layout.header
            return None
        names = {column: "--" + column.replace("_", "-") for column in (*dict(layout.settings), "deals")}
        try:
            resumed = resume_csv(self.path, replace(layout, names=names), keep)
        except AgreementError as exc:
            if "fifo" in exc.facts:
                raise click.UsageError(
                    f"--resume needs a file to continue: {shown_name(exc.facts['fifo'])} is a FIFO (named pipe); "
                    "give --output without --resume"
                ) from None
            raise click.UsageError(str(exc)) from None
        if resumed.rows:
            again, limit = "", layout.limit
            if resumed.again and limit is not None:  # (solve's unknown rows of a lower --max-nodes)
                again = (
                    f"; {len(resumed.again)} of them unknown under a lower {names[limit]}, "
                    f"solved again under {dict(layout.settings)[limit]}"
                )
            click.echo(
                f"resuming {shown_name(self.path)}: {resumed.rows} of {len(layout.deals) * layout.group} "
                f"{'games' if layout.bots else 'deals'} done already{again}", err=True,
            )
        self.output = resumed.output
        return resumed

    def run(self, results: Iterator[Any], length: int, label: str, shown: bool = True) -> None:
        """Write, count and print each unit of ``results``, with a progress bar of ``length``
        steps on a terminal, and the summary (also of a run stopped)."""
        try:
            if self.header and self.output is not None:
                self.output.write(self.header)
            with progress_bar(None, length, label, shown=shown) as bar:
                for unit in results:
                    with signals_deferred():  # a unit is written, counted and printed whole, even at Ctrl-C
                        for row in self.rows(unit):  # (a row that fails to be written is not counted: the file has it not)
                            if self.output is not None:
                                self.output.write(row)
                            bar.update(1)
                        try:
                            self.show(unit)
                        finally:
                            # | head: nobody reads the results any more; this unit went into the gone
                            # reader: the summary leaves it out and counts only those the reader got
                            gone = self.to_stdout and stdout_reader_gone()
                            if not gone:
                                self.count(unit)
                    if gone:
                        self.stopped = True
                        break
                    self.done_here += 1
        except (KeyboardInterrupt, SystemExit, FoursquareError, OSError, MemoryError, SystemError) as exc:
            self.stopped = True
            if isinstance(exc, (MemoryError, SystemError)):  # then the unit that ran out: status 1 (as the boundary's)
                raise MemoryError(f"deal {self.due[self.done_here]}" if self.done_here < len(self.due) else "") from None
            raise
        finally:
            self._finish(results)
        if not self.stopped:  # (the reader of stdout gone: the summary of the deals done is out, above)
            self.summary(False)

    def _finish(self, results: Iterator[Any]) -> None:
        """Stop the workers, close the file, and (a run stopped) print the summary of the
        units done; a failure to write the file's last rows is raised once it is out."""
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the workers
        unwritten: Exception | None = None
        if self.output is not None:
            try:
                self.output.close()  # (the rows solved again merged into the file first)
            except (OSError, FoursquareError) as exc:  # the last rows flushed on closing, the merge, a journal found
                self.stopped = True  # damaged at the merge: raised once the summary is out, the file named
                unwritten = OSError(exc.errno, exc.strerror, self.path) if isinstance(exc, OSError) and exc.filename is None else exc
        if self.stopped:  # even before the first deal: "interrupted: 0 of N ..."
            with contextlib.suppress(Exception):  # the interruption is what matters
                self.summary(True)
        if unwritten is not None and not isinstance(sys.exc_info()[1], (KeyboardInterrupt, SystemExit)):
            raise unwritten  # (a Ctrl-C or SIGTERM under way keeps its own exit status)

    def show(self, unit: Any) -> None:
        """Print one unit on stdout (by default, nothing)."""
