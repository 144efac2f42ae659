"""Signals at the command line: Ctrl-C, SIGTERM and SIGHUP.

- :func:`catch_sigterm` turns SIGTERM and SIGHUP into :class:`Terminated` (a
  :class:`SystemExit`), so that ``finally`` blocks run; :func:`restore_handlers`
  puts the old handlers back.
- :func:`signals_deferred` holds the signals back while a block runs (the last
  write of a recording, a deal's rows).
- :func:`worker_signals` is the initializer of a batch worker process.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NoReturn

#: Exit status of an interrupted command (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

#: SIGTERM, and SIGHUP where there is one (not on Windows): the signals that end a command.
ENDING = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]

#: A signal handler as :func:`signal.signal` takes and returns it.
Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back while the block runs (the last write
    of a recording), then deliver them to the handlers in place again: Ctrl-C
    raises ``KeyboardInterrupt`` (and the run's later Ctrl-Cs are ignored: see
    :func:`foursquare.__main__.run`), SIGTERM and SIGHUP :class:`Terminated`
    under :func:`catch_sigterm`."""
    caught: list[int] = []
    saved: dict[int, Handler] = {}
    with contextlib.suppress(ValueError, OSError):  # not the main thread
        for signum in [signal.SIGINT, *ENDING]:
            saved[signum] = signal.signal(signum, lambda n, frame: caught.append(n))
    try:
        yield
    finally:
        restore_handlers(saved)
        for signum in dict.fromkeys(caught):  # in the order they came; the first handler that raises ends it
            signal.raise_signal(signum)


class Terminated(SystemExit):
    """SIGTERM or SIGHUP, turned into an exit with status 128 + the signal so that
    ``finally`` blocks run; :func:`foursquare.cli.boundary.command_boundary` says ``Terminated.``."""


def _terminated(signum: int, frame: FrameType | None) -> NoReturn:
    for ending in ENDING:  # one is enough: the clean-up it starts runs to its end
        with contextlib.suppress(ValueError, OSError):
            signal.signal(ending, signal.SIG_IGN)
    raise Terminated(128 + signum)


def catch_sigterm() -> dict[int, Handler]:
    """SIGTERM (and SIGHUP, a closed terminal) exits through :class:`SystemExit`
    (status 128 + the signal), so that ``finally`` blocks run: a recording is
    written, a temporary file removed.

    :returns: the handlers replaced (signal number -> handler), for :func:`restore_handlers`.
    """
    saved: dict[int, Handler] = {}
    for signum in ENDING:
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            if signal.getsignal(signum) is signal.SIG_DFL:
                saved[signum] = signal.signal(signum, _terminated)
    return saved


def worker_signals() -> None:
    """In a batch worker process: SIGTERM and SIGHUP end the worker at once and
    quietly, through :class:`SystemExit` (status 128 + the signal), whatever handlers
    it inherited.  (Ctrl-C is the parent's to handle: every worker of
    :func:`foursquare.parallel.ordered_map` ignores it.)"""
    for signum in ENDING:
        signal.signal(signum, _terminated)


def restore_handlers(saved: dict[int, Handler]) -> None:
    """Put back the signal handlers that :func:`catch_sigterm` replaced."""
    for signum, handler in saved.items():
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signum, handler)
