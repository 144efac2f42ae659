"""The command line of the sweeps of ``solve --deals`` and ``simulate``: the help and
the checks of ``--scheduler`` and ``--resume``, and the refusals of
:mod:`foursquare.app.sweep` worded in the command's options."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import click

from ..app.sweep import Resumed, SweepCsv, Workers, resume_csv
from ..errors import AgreementError, shown_name
from .options import given_on_the_command_line

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


def check_sweep_options(jobs: int, scheduler: str | None, resume: bool, output: str | None, force: bool) -> Workers:
    """The usage errors of ``--scheduler`` and ``--resume`` (status 2); the workers of
    the sweep, the scheduler's address checked (once: :meth:`Workers.at`)."""
    if scheduler is not None and given_on_the_command_line("jobs"):
        raise click.UsageError("--jobs and --scheduler: the cluster's workers do the work; give one of them")
    from ..errors import ArgumentError, WorkerError

    try:
        workers = Workers.at(jobs, scheduler)
    except ArgumentError as exc:  # a malformed address
        raise click.BadParameter(str(exc), param_hint="'--scheduler'") from None
    except WorkerError as exc:  # no dask extra
        raise click.UsageError(f"--scheduler: {exc}") from None
    if resume:  # (with --output: the commands check that first)
        if output == "-":
            raise click.UsageError("--resume needs --output FILE.csv: standard output cannot be continued")
        if force:
            raise click.UsageError("--resume and --force: --resume continues the file, --force writes over it")
    return workers


def resume_file(path: str, layout: SweepCsv, keep: Callable[[list[Any]], None], options: Mapping[str, str]) -> Resumed:
    """:func:`~foursquare.app.sweep.resume_csv`, its refusals in the command's words:
    a row of other settings or of a deal not due there is a usage error (status 2),
    naming the option of the setting (``options``: column -> option)."""
    try:
        return resume_csv(path, dataclasses.replace(layout, names={**options, "deals": "--deals"}), keep)
    except AgreementError as exc:
        if "fifo" in exc.facts:
            raise click.UsageError(
                f"--resume needs a file to continue: {shown_name(exc.facts['fifo'])} is a FIFO (named pipe); give --output without --resume"
            ) from None
        raise click.UsageError(str(exc)) from None


def resumed_notice(path: str, done: int, asked: int, what: str = "deals", again: tuple[int, int] | None = None) -> None:
    """Say on stderr how much of the sweep the file held already; ``again``: how many
    of its deals, unknown under a lower limit, are solved again, and under which
    ``--max-nodes``."""
    more = ""
    if again is not None and again[0]:
        count, limit = again
        more = f"; {count} of them unknown under a lower --max-nodes, solved again under {limit}"
    click.echo(f"resuming {shown_name(path)}: {done} of {asked} {what} done already{more}", err=True)
