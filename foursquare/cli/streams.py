"""The standard streams of a command: output into a reader that closes early
(``| head``), a closed stream (``>&-``, ``<&-``), a full disk.

:func:`guard_stdout` and :func:`guard_stderr` put a :class:`PipeGuard` in front
of the stream; :func:`ensure_stdin` makes a closed stdin read as empty.

Three ways the output of a command can be lost, three outcomes (FORMATS.md):

- a reader that closes early (``| head``): the rest of the output is dropped
  quietly, the command ends as it would have (status 0 on success);
- a disk that is full (``> /dev/full``): the write fails, status 1, the reason on stderr;
- a standard output closed before the command starts (``>&-``, file descriptor 1
  not open): the output cannot be written at all, so a command that has something
  to print must not claim success. The first write to stdout fails with
  ``<stdout>: the standard output is closed`` and status 1 (as a full disk does);
  a command that prints nothing on stdout (its output only a file) still runs and
  succeeds. A closed stderr (``2>&-``) is different: only messages are lost, the
  status stays right.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterable
from typing import IO, Any, NoReturn, cast


class PipeGuard:
    """``sys.stdout`` for a command: when the reader of stdout goes away (``| head``),
    further output is discarded instead of raising :class:`BrokenPipeError`.

    As the Python documentation advises for SIGPIPE, file descriptor 1 is pointed
    at ``/dev/null`` so that no later flush (the interpreter's last one included)
    complains; the command carries on, so that its errors still reach stderr and
    its exit status stays right.

    :param stream: the text stream guarded.
    :param any_error: also give up on other write errors (for stderr).
    :param name: the stream's name in an error message.
    :param closed: the stream was closed before the command started (a
        :class:`ClosedStream`): its write errors are raised, never taken for a reader gone.
    """

    def __init__(
        self, stream: IO[str], *, any_error: bool = False, name: str = "<stdout>", closed: bool = False
    ) -> None:
        self._stream = stream
        #: closed before the command started (``>&-``): writing fails, it is not a reader gone
        self.closed_at_start = closed
        #: the stream's name in an error message (a full disk: ``<stdout>: No space left on device``)
        self.name = name
        self.broken = False
        #: also give up on other write errors (a full disk): for stderr, where
        #: there is nowhere left to report them
        self._any_error = any_error

    def write(self, text: str) -> int:
        """Write ``text``; its length when the reader is gone (the text discarded).

        :raises OSError: naming the stream, for another write error (unless ``any_error``)."""
        if self.broken:
            return len(text)
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._give_up(exc)
            return len(text)

    def flush(self) -> None:
        """Flush the stream, as :meth:`write` writes."""
        if not self.broken:
            try:
                self._stream.flush()
                return
            except OSError as exc:
                self._give_up(exc)
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()  # now into /dev/null

    def _give_up(self, exc: OSError) -> None:
        """After a write or flush that failed: raise ``exc``, naming this stream when it
        names no file, unless the reader is gone (a closed pipe, ``| head``, or a closed
        descriptor, ``2>&-``, as opposed to a full disk) or ``any_error``: then discard the
        output from now on."""
        if self.closed_at_start or not (self._any_error or isinstance(exc, BrokenPipeError) or exc.errno in (errno.EPIPE, errno.EBADF)):
            raise exc if exc.filename is not None else OSError(exc.errno, exc.strerror, self.name) from None
        self.broken = True
        with contextlib.suppress(OSError, ValueError, AttributeError):  # not a real file (a test runner):
            _to_devnull(self._stream.fileno())  # the flag alone discards the output

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def stdout_reader_gone() -> bool:
    """Whether the reader of stdout went away (``| head``), so that output is discarded."""
    return isinstance(sys.stdout, PipeGuard) and sys.stdout.broken


class ClosedStream(io.TextIOBase):
    """A standard output that was closed before the command started (``>&-``: Python
    sets ``sys.stdout`` to ``None``): writing any text to it raises :class:`OSError`
    (``EBADF``, named ``<stdout>``: the standard output is closed); writing nothing does not."""

    def write(self, text: str) -> int:
        """:raises OSError: for any text (the stream cannot be written)."""
        if text:
            raise OSError(errno.EBADF, "the standard output is closed", "<stdout>")
        return 0


def _guarded(stream: IO[str] | None, *, any_error: bool = False, name: str = "<stdout>") -> PipeGuard:
    """``stream`` behind a :class:`PipeGuard` (once); a closed one (``None``) becomes
    ``/dev/null`` for stderr (``any_error``), a :class:`ClosedStream` for stdout."""
    if stream is None:
        if not any_error:
            return PipeGuard(cast(IO[str], ClosedStream()), closed=True)
        try:
            stream = open(os.devnull, "w", encoding="utf-8")
        except OSError:
            stream = io.StringIO()
    return stream if isinstance(stream, PipeGuard) else PipeGuard(stream, any_error=any_error, name=name)


def guard_stdout() -> None:
    """Install :class:`PipeGuard` as ``sys.stdout`` (once). A stdout closed before the
    command started (``>&-``) cannot take the output: the first text written to it
    raises :class:`OSError` (``<stdout>: the standard output is closed``), which the
    command boundary turns into status 1; a command that writes nothing to stdout
    (its output only an ``--output`` file) still runs to its end and succeeds."""
    sys.stdout = _guarded(sys.stdout)


def guard_stderr() -> None:
    """Guard ``sys.stderr`` as :func:`guard_stdout` guards stdout: a usage error written
    into a closed pipe (``2>&1 | head -0``), a closed stderr (``2>&-``) or a full disk
    (``2>/dev/full``) must still end with Click's status 2, not with the status 1 of a
    failed write (stderr gives up on any write error: there is nowhere to report it)."""
    sys.stderr = _guarded(sys.stderr, any_error=True, name="<stderr>")


def ensure_stdin() -> None:
    """A closed standard input (``<&-``) reads as empty input, like ``/dev/null``."""
    if sys.stdin is None:
        try:
            sys.stdin = open(os.devnull, encoding="utf-8")
        except OSError:
            sys.stdin = io.StringIO()


def progress_bar(iterable: Iterable[Any] | None, length: int, label: str, *, shown: bool = True) -> Any:
    """The progress bar of a long command (``solve --deals``, ``analyze``): Click's
    :func:`click.progressbar` on stderr, drawn only when stderr is a terminal (and
    ``shown``), never on stdout; a hidden bar writes nothing at all (not even its label).

    :param iterable: what the bar steps through (``None``: step it with ``bar.update(1)``).
    :param length: how many steps make the whole.
    :returns: the bar, a context manager (iterate it, or call ``update``)."""
    import click

    visible = shown and sys.stderr is not None and sys.stderr.isatty()
    # hidden: drawn into a buffer thrown away (Click 8.1 has no hidden=; a bar on a file
    # that is no terminal draws nothing but its label)
    return click.progressbar(iterable, length=length, label=label, file=sys.stderr if visible else io.StringIO())


def _to_devnull(fd: int) -> None:
    """Point file descriptor ``fd`` at ``/dev/null`` (quietly not, when it cannot be)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)


def quiet_broken_pipe() -> NoReturn:
    """End quietly after the reader of stdout went away, where the guard could not help."""
    _to_devnull(1)
    sys.exit(0)
