"""Worker processes for batch work (many deals): results in order, tasks read as needed.

Batch commands solve or play thousands to millions of deals.  :func:`ordered_map`
hands the tasks to worker processes as they become free (never the whole range at
once, which would hold every task in memory before the first result), yields the
results in the order of the tasks as soon as each and those before it are done,
and stops the workers when the caller stops iterating (Ctrl-C, an error, a closed
generator).  A slow task holds back the results after it, not the workers: they go
on with the next tasks while it runs, up to :data:`BUFFER` results kept waiting.
No I/O of its own.
"""

from __future__ import annotations

import functools
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Tasks handed to the pool and not finished, per worker: enough to keep each busy.
AHEAD = 2
#: The most results kept waiting behind a slow one (bounds the memory, not the speed).
BUFFER = 4096


def ordered_map(
    fn: Callable[[T], R], tasks: Iterable[T], jobs: int, *, initializer: Callable[[], None] | None = None
) -> Iterator[R]:
    """``fn(task)`` for each task, in the order of ``tasks``, computed by ``jobs`` worker processes.

    :param fn: a picklable function (defined at a module's top level).
    :param tasks: any iterable, read lazily: a task is read when a worker is about to
        be free, and at most ``jobs * AHEAD`` tasks are running or queued at a time
        (and at most :data:`BUFFER` handed out and not yet yielded).
    :param jobs: worker processes (at least 1).
    :param initializer: run in each worker as it starts (e.g. to set signal handlers).
    :returns: an iterator; closing it (or leaving it early) terminates the workers.
    :raises: whatever ``fn`` raised for a task, when that task's result is reached.
    """
    it = iter(tasks)
    changed = threading.Condition()
    done: dict[int, tuple[bool, object]] = {}  # task number -> (succeeded, result or error)
    running = [0]  # tasks handed to the pool and not finished (all guarded by `changed`)

    def finished(number: int, ok: bool, value) -> None:  # in the pool's result thread
        with changed:
            done[number] = (ok, value)
            running[0] -= 1
            changed.notify()

    handed = yielded = 0
    exhausted = False
    # Signals wait while the pool starts: a worker takes them once its initializer has
    # set its handlers, and this process inside the `with`, whose exit stops the
    # workers.  (Delivered earlier, they left workers that never ended, or a pool
    # whose shutdown waited for ever on a worker stopped halfway through its start.)
    mask = _block_signals()
    try:
        pool = multiprocessing.Pool(jobs, initializer=functools.partial(_start_worker, initializer, mask))
    except BaseException:
        _restore_signals(mask)
        raise
    with pool:  # exit: terminate
        _restore_signals(mask)
        while True:
            with changed:
                while not exhausted and running[0] < jobs * AHEAD and handed - yielded < BUFFER:
                    task = next(it, _END)
                    if task is _END:
                        exhausted = True
                        break
                    running[0] += 1
                    pool.apply_async(
                        fn, (task,),
                        callback=functools.partial(finished, handed, True),
                        error_callback=functools.partial(finished, handed, False),
                    )
                    handed += 1
                if yielded == handed:
                    return
                if yielded not in done:
                    changed.wait()  # a worker finishing wakes us: to hand out more, or to yield
                    continue
                ok, value = done.pop(yielded)
            yielded += 1
            if not ok:
                raise value
            yield value


_END = object()

#: The signals held back while a pool starts (those this platform has).
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _block_signals():
    """Hold back :data:`_HELD` in this thread (and the processes it starts); the mask
    before, for :func:`_restore_signals` (``None`` where signal masks do not exist)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)


def _restore_signals(mask) -> None:
    """Put back the signal mask :func:`_block_signals` returned: held signals arrive now."""
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _start_worker(initializer: Callable[[], None] | None, mask) -> None:
    """A worker's start: its own initializer (signal handlers), then the signals held
    back since the pool started (a forked worker inherits the mask) may arrive."""
    if initializer is not None:
        initializer()
    _restore_signals(mask)
