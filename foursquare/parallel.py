"""Worker processes for batch work (many deals): results in order, tasks read as needed.

Batch commands solve or play thousands to millions of deals.  :func:`ordered_map`
hands the tasks, one at a time, to worker processes as they become free (never the
whole range at once, which would hold every task in memory before the first
result), yields the results in the order of the tasks as soon as each and those
before it are done, and stops the workers when the caller stops iterating (Ctrl-C,
an error, a closed generator).  A slow task holds back the results after it, not
the workers: they go on with the next tasks while it runs, up to :data:`BUFFER`
results kept waiting.  No I/O of its own.

Each worker has a pipe of its own, and the workers share nothing (no queue, no
lock), so that stopping them is always possible: a worker that ends halfway (a
signal, ``kill -9``, out of memory) cannot leave a lock that the others, or this
process, would wait on for ever (as :class:`multiprocessing.pool.Pool`'s task
queue could), and its task is not silently lost: the run stops as at Ctrl-C,
with :class:`WorkerError` once the results finished in order are out (the tasks
still running are not awaited).  A worker also ends when this process does (even
killed), idle or in the middle of a task.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.context import DefaultContext
from typing import Any, NoReturn, Protocol, TypeAlias, TypeVar, cast

from .errors import FoursquareError

T = TypeVar("T")
R = TypeVar("R")

#: The most results kept waiting behind a slow one (bounds the memory, not the speed).
BUFFER = 4096
#: Seconds a worker has to end after it is told to, before it is killed.
STOP_SECONDS = 2.0


class Mapper(Protocol):
    """A way to run batch work elsewhere, in the shape of :func:`ordered_map`:
    ``fn(task)`` for each task, yielded in the order of ``tasks`` as soon as each and
    those before it are done, the tasks read lazily; leaving the iterator early
    stops the work not yet done.  ``name`` says how an error names a task
    (``deal 17``).  :meth:`foursquare.cluster.Cluster.map` is one (a Dask cluster)."""

    def __call__(
        self, fn: Callable[[T], R], tasks: Iterable[T], name: Callable[[T], str] | None = None
    ) -> Iterator[R]: ...


class WorkerError(FoursquareError, RuntimeError):
    """A worker process ended before it returned its task's result (killed, out of
    memory), or returned a result that cannot be passed back."""


def ordered_map(
    fn: Callable[[T], R], tasks: Iterable[T], jobs: int, *, initializer: Callable[[], None] | None = None
) -> Iterator[R]:
    """``fn(task)`` for each task, in the order of ``tasks``, computed by ``jobs`` worker processes.

    :param fn: a picklable function (defined at a module's top level); its tasks,
        results and exceptions are passed through pipes (pickled).
    :param tasks: any iterable, read lazily: a task is read when a worker is free,
        so at most ``jobs`` tasks run at a time (and at most :data:`BUFFER` are
        handed out and not yet yielded).
    :param jobs: worker processes (at least 1).
    :param initializer: run in each worker as it starts (e.g. to set signal handlers).
        Workers ignore Ctrl-C (SIGINT): stopping is the caller's to do.
    :returns: an iterator; closing it (or leaving it early) ends the workers.
    :raises WorkerError: when a worker ends before its task's result is back: after
        the results that came before every unfinished task, without waiting for
        the tasks still running.
    :raises: whatever ``fn`` raised for a task, when that task's result is reached.
    """
    it = iter(tasks)
    context = multiprocessing.get_context()
    workers: list[_Worker] = []
    busy: dict[Connection[Any, Any], _Worker] = {}  # connection -> the worker running a task
    # Signals wait while the workers start: a worker takes them once its initializer
    # has set its handlers, and this process inside the `try`, whose `finally` stops
    # the workers.  (Delivered earlier, they left workers that never ended.)
    mask = _block_signals()
    try:
        for _ in range(jobs):
            workers.append(_Worker(context, fn, initializer, mask, [w.conn for w in workers]))
    except BaseException:
        _stop(workers, busy)
        _restore_signals(mask)
        raise
    try:
        _restore_signals(mask)
        idle = list(workers)
        done: dict[int, R | _Raised] = {}  # task number -> its result, or the error it raised
        handed = yielded = 0
        exhausted = False
        lost: Exception | None = None  # a worker died (a WorkerError): stop as at Ctrl-C
        while True:
            while idle and not exhausted and lost is None and handed - yielded < BUFFER:
                task = next(it, _END)
                if task is _END:
                    exhausted = True
                    break
                worker = idle.pop()
                try:
                    worker.give(handed, task)
                except WorkerError as exc:
                    lost = exc
                    break
                busy[worker.conn] = worker
                handed += 1
            if yielded in done:
                value = done.pop(yielded)
                yielded += 1
                if isinstance(value, _Raised):
                    raise value.error
                yield value
                continue
            if lost is not None:
                # the results finished in order are out; the ones still running are not awaited
                raise lost
            if not busy:
                return
            for conn in wait(list(busy)):
                worker = busy.pop(cast("Connection[Any, Any]", conn))  # (wait gives back what it was given)
                try:
                    done[worker.task] = worker.result()
                except Exception as exc:
                    if not worker.alive:
                        lost = exc
                        continue
                    done[worker.task] = _Raised(exc)  # the task's own error: raised at its place
                idle.append(worker)
    finally:
        _stop(workers, busy)


_END = object()
#: A signal mask as :func:`signal.pthread_sigmask` gives it, or ``None`` where there is none.
_Mask: TypeAlias = "set[int | signal.Signals] | None"


class _Raised:
    """A task's exception, kept in its place among the results."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


class _Worker:
    """One worker process and this process's end of its pipe."""

    def __init__(
        self,
        context: DefaultContext,
        fn: Callable[[Any], Any],
        initializer: Callable[[], None] | None,
        mask: _Mask,
        others: list[Connection[Any, Any]],
    ) -> None:
        self.task = -1  # the number of the task handed to it last
        self.alive = True
        self.conn, child = context.Pipe()
        # the worker closes its copies of this end and of the earlier workers' ends, so
        # that it reads the end of its pipe when this process goes (even killed)
        self.process = context.Process(
            target=_work, args=(fn, initializer, mask, child, [self.conn, *others]), daemon=True
        )
        try:
            self.process.start()
        finally:
            child.close()

    def give(self, number: int, task: object) -> None:
        """Hand the worker task ``number``.

        :raises WorkerError: when the worker has ended.
        """
        self.task = number
        try:
            self.conn.send((task,))  # (a task may itself be None, the signal to end)
        except (BrokenPipeError, ConnectionResetError):
            self._ended()

    def result(self) -> Any:
        """The result of the worker's task (:attr:`task`), unpickled.

        :raises WorkerError: when the worker ended first (:attr:`alive` is then
            false), or its result cannot be read.
        :raises: the task's own exception.
        """
        try:
            data = self.conn.recv_bytes()
        except (EOFError, OSError):
            self._ended()
        try:
            ok, value = pickle.loads(data)
        except Exception as exc:
            raise WorkerError(f"a worker's result could not be read back: {exc}") from None
        if not ok:
            raise value
        return value

    def _ended(self) -> NoReturn:
        self.alive = False
        self.process.join(STOP_SECONDS)
        code = self.process.exitcode
        if code is None:
            how = "closed its pipe"
        elif code >= 0:
            how = f"ended with status {code}"
        else:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        raise WorkerError(f"a worker process {how} before it finished its task")


def _stop(workers: list[_Worker], busy: dict[Connection[Any, Any], _Worker]) -> None:
    """End every worker: idle ones when told (at once), busy ones killed (their
    tasks are no longer wanted), and any that has not ended in time."""
    for worker in workers:
        if worker.conn in busy:
            worker.process.kill()
        else:
            with contextlib.suppress(OSError, ValueError):
                worker.conn.send(None)
        worker.conn.close()
    for worker in workers:
        worker.process.join(STOP_SECONDS)
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()


def _work(
    fn: Callable[[Any], Any],
    initializer: Callable[[], None] | None,
    mask: _Mask,
    conn: Connection[Any, Any],
    inherited: list[Connection[Any, Any]],
) -> None:
    """A worker's life: its initializer, then tasks from ``conn`` until ``None`` or the end of the pipe."""
    for other in inherited:
        other.close()
    parent = multiprocessing.parent_process()
    if parent is not None:  # a busy worker, too, ends when this process is gone (even killed)
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller stops the workers
    if initializer is not None:
        initializer()
    _restore_signals(mask)  # signals held back since the workers started may arrive now
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        reply: tuple[bool, Any]
        try:
            reply = (True, fn(job[0]))
        except Exception as exc:
            reply = (False, exc)
        try:
            data = pickle.dumps(reply)
            if not reply[0]:
                pickle.loads(data)  # an exception that cannot be rebuilt goes back as its text
        except Exception as exc:
            text = f"{type(reply[1]).__name__}: {reply[1]}" if not reply[0] else f"a worker's result could not be passed back: {exc}"
            data = pickle.dumps((False, WorkerError(text)))
        try:
            conn.send_bytes(data)
        except OSError:
            return


def _end_with(sentinel: int) -> NoReturn:
    """In a worker: wait for the parent process to end, then end at once."""
    wait([sentinel])
    os._exit(1)


#: The signals held back while the workers start (those this platform has).
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _block_signals() -> _Mask:
    """Hold back :data:`_HELD` in this thread (and the processes it starts); the mask
    before, for :func:`_restore_signals` (``None`` where signal masks do not exist)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)


def _restore_signals(mask: _Mask) -> None:
    """Put back the signal mask :func:`_block_signals` returned: held signals arrive now."""
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
