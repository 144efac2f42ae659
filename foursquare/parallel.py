"""Worker processes for batch work (many deals): results in order, tasks read as needed.

Batch commands solve or play thousands to millions of deals.  :func:`ordered_map`
hands the tasks, one at a time, to worker processes as they become free (never the
whole range at once, which would hold every task in memory before the first
result), yields the results in the order of the tasks as soon as each and those
before it are done, and stops the workers when the caller stops iterating (Ctrl-C,
an error, a closed generator).  A slow task holds back the results after it, not
the workers: they go on with the next tasks while it runs, up to :data:`BUFFER`
results kept waiting.  :func:`in_background` runs one task (a generator) in a
worker of its own while this process does other work, its items read as they come.
No I/O of its own.

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
from typing import Any, Generic, NoReturn, Protocol, TypeAlias, TypeVar, cast

from .errors import WorkerError

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
    with _started(fn, initializer, jobs) as workers:
        tasks = iter(tasks)
        done: dict[int, tuple[bool, Any]] = {}  # task number -> (True, its result) or (False, the error it raised)
        handed = yielded = 0
        lost: Exception | None = None  # a worker died (a WorkerError): stop as at Ctrl-C
        while True:
            idle = [worker for worker in workers if not worker.busy]  # each given the next task (BUFFER not yielded at most)
            while idle and lost is None and handed - yielded < BUFFER and (task := next(tasks, _END)) is not _END:
                try:
                    idle.pop().give(handed, task)
                except WorkerError as exc:
                    lost = exc
                handed += 1
            busy = {worker.conn: worker for worker in workers if worker.busy}
            if yielded in done:
                ok, value = done.pop(yielded)
                yielded += 1
                if not ok:
                    raise value
                yield value
            elif lost is not None:  # the results finished in order are out; the ones still running are not awaited
                raise lost
            elif not busy:
                return
            else:
                for conn in wait(list(busy)):  # results kept at their task's number (a worker that died: lost)
                    worker = busy[cast("Connection[Any, Any]", conn)]  # (wait gives back what it was given)
                    try:
                        done[worker.task] = (True, worker.result())
                    except Exception as exc:
                        if not worker.alive:
                            lost = exc
                            continue
                        done[worker.task] = (False, exc)  # the task's own error: raised at its place
                    worker.busy = False


@contextlib.contextmanager
def in_background(
    fn: Callable[[T], Iterable[R]], task: T, *, initializer: Callable[[], None] | None = None
) -> Iterator[Stream[R]]:
    """``fn(task)``'s items, computed by a worker process of its own while this process
    does other work (a second core's work beside the first's).

    :param fn: a picklable function (defined at a module's top level) returning an
        iterable, typically a generator: each item is passed back (pickled) as soon as
        it is made; ``task``, the items and an exception raised are pickled.
    :param task: its argument.
    :param initializer: run in the worker as it starts (as :func:`ordered_map`'s); the
        worker ignores Ctrl-C (SIGINT): stopping it is the caller's to do.
    :returns: a context manager giving a :class:`Stream` of the items.  Leaving the
        block (at the end, Ctrl-C, an error) ends the worker, killed at once when it is
        not done; the worker also ends when this process does (even killed).
    :raises WorkerError: when the worker cannot be given the task (it has ended).
    """
    with _started(fn, initializer, 1, stream=True) as (worker,):
        worker.give(0, task)
        yield Stream(worker)


@contextlib.contextmanager
def _started(
    fn: Callable[[Any], Any], initializer: Callable[[], None] | None, count: int, stream: bool = False
) -> Iterator[list[_Worker]]:
    """``count`` workers, ended on leaving.  Signals wait while the workers
    start: a worker takes them once its initializer has set its handlers, and this
    process inside the ``try`` whose ``finally`` stops the workers.  (Delivered
    earlier, they left workers that never ended.)"""
    context = multiprocessing.get_context()
    workers: list[_Worker] = []
    # signals held back in this thread (and the workers it starts); ``None`` where there are no signal masks
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if hasattr(signal, "pthread_sigmask") else None
    try:
        try:
            for _ in range(count):
                workers.append(_Worker(context, fn, initializer, mask, [w.conn for w in workers], stream))
        finally:  # the signals held back arrive now
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        yield workers
    finally:  # idle workers told to end (at once), busy ones killed (their tasks no longer wanted), and any late one
        for worker in workers:
            if worker.busy:
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


class Stream(Generic[R]):
    """The items of the task of an :func:`in_background` worker, read as they come,
    in the order they were made."""

    def __init__(self, worker: _Worker) -> None:
        self._worker = worker

    @property
    def done(self) -> bool:
        """Every item has been read (or the task's error raised): the worker is done."""
        return not self._worker.busy

    def ready(self) -> list[R]:
        """The items that have come and were not read yet, without waiting (``[]``: none).

        :raises: as iterating does.
        """
        out: list[R] = []
        while not self.done and self._worker.conn.poll():
            out.extend(self._read())
        return out

    def __iter__(self) -> Iterator[R]:
        """The items not read yet, each as soon as it comes (waiting for it).

        :raises WorkerError: when the worker ended before its last item (killed, out of
            memory), or an item cannot be passed back.
        :raises: the task's own exception, where the task raised it.
        """
        while not self.done:
            yield from self._read()

    def _read(self) -> list[R]:
        """The next message: ``[item]``, or ``[]`` at the end."""
        items: list[R] = []
        try:
            items = self._worker.result()
        finally:  # the end, the task's error, or the worker gone: no more to come
            self._worker.busy = bool(items)
        return items


_END = object()
#: A signal mask as :func:`signal.pthread_sigmask` gives it, or ``None`` where there is none.
_Mask: TypeAlias = "set[int | signal.Signals] | None"


class _Worker:
    """One worker process and this process's end of its pipe."""

    def __init__(
        self,
        context: DefaultContext,
        fn: Callable[[Any], Any],
        initializer: Callable[[], None] | None,
        mask: _Mask,
        others: list[Connection[Any, Any]],
        stream: bool = False,
    ) -> None:
        self.task = -1  # the number of the task handed to it last
        self.busy = False  # running a task (or, with ``stream``, its items not all read)
        self.alive = True
        self.conn, child = context.Pipe()
        # the worker closes its copies of this end and of the earlier workers' ends, so
        # that it reads the end of its pipe when this process goes (even killed)
        self.process = context.Process(
            target=_work,
            args=(fn, initializer, mask, child, [self.conn, *others], stream),
            daemon=True,
        )
        try:
            self.process.start()
        finally:
            child.close()

    def give(self, number: int, task: object) -> None:
        """Hand the worker task ``number``.

        :raises WorkerError: when the worker has ended.
        """
        self.task, self.busy = number, True
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
        names = {number.value: number.name for number in signal.Signals}  # (a signal this platform has no name for: its number)
        how = (
            "closed its pipe" if code is None
            else f"ended with status {code}" if code >= 0
            else f"was killed by {names.get(-code, f'signal {-code}')}"
        )  # fmt: skip
        raise WorkerError(f"a worker process {how} before it finished its task")


def _work(
    fn: Callable[[Any], Any],
    initializer: Callable[[], None] | None,
    mask: _Mask,
    conn: Connection[Any, Any],
    inherited: list[Connection[Any, Any]],
    stream: bool = False,
) -> None:
    """A worker's life: close the pipe ends it inherited, end with this process's parent,
    ignore Ctrl-C, run ``initializer``, take the signals held back; then tasks from
    ``conn`` until ``None`` or the end of the pipe, each reply sent as it is made:
    ``(True, result)``, or ``(False, exception)`` (``stream``: an :func:`in_background`
    worker, its one task's items, each ``(True, [item])``, then ``(True, [])`` or the
    exception)."""
    for other in inherited:
        other.close()
    parent = multiprocessing.parent_process()
    if parent is not None:  # a busy worker, too, ends when this process is gone (even killed)
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller stops the workers
    if initializer is not None:
        initializer()
    if mask is not None:  # signals held back since the workers started may arrive now
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    with contextlib.suppress(EOFError, OSError):  # the pipe gone: this process is not waited for
        while (job := conn.recv()) is not None:
            try:
                if stream:
                    for item in fn(job[0]):
                        conn.send_bytes(_reply_bytes((True, [item])))
                reply = (True, [] if stream else fn(job[0]))
            except (MemoryError, SystemError):  # out of memory (SystemError: an allocation failed in C code)
                reply = (False, MemoryError())  # sent once the task's memory is let go with its traceback
            except Exception as exc:
                reply = (False, exc)
            conn.send_bytes(_reply_bytes(reply))
            if stream:
                return


def _reply_bytes(reply: tuple[bool, Any]) -> bytes:
    """``(True, result)`` or ``(False, exception)`` pickled for the pipe: an exception
    that cannot be rebuilt goes back as its text, a result that cannot be pickled as a
    :class:`WorkerError`."""
    try:
        data = pickle.dumps(reply)
        if not reply[0]:
            pickle.loads(data)
    except Exception as exc:
        text = f"{type(reply[1]).__name__}: {reply[1]}" if not reply[0] else f"a worker's result could not be passed back: {exc}"
        data = pickle.dumps((False, WorkerError(text)))
    return data


def _end_with(sentinel: int) -> NoReturn:
    """In a worker: wait for the parent process to end, then end at once."""
    wait([sentinel])
    os._exit(1)


#: The signals held back while the workers start (those this platform has).
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
