"""Worker processes for batch work (many deals): results in order, a few tasks at a time.

Batch commands solve or play thousands to millions of deals.  :func:`ordered_map`
hands the tasks to worker processes a few at a time (never the whole range at
once, which would hold every task in memory before the first result), yields the
results in the order of the tasks as soon as each and those before it are done,
and stops the workers when the caller stops iterating (Ctrl-C, an error, a closed
generator).  No I/O of its own.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Tasks handed out ahead per worker: enough to keep each busy, few enough to hold.
AHEAD = 2


def ordered_map(
    fn: Callable[[T], R], tasks: Iterable[T], jobs: int, *, initializer: Callable[[], None] | None = None
) -> Iterator[R]:
    """``fn(task)`` for each task, in the order of ``tasks``, computed by ``jobs`` worker processes.

    :param fn: a picklable function (defined at a module's top level).
    :param tasks: any iterable, read lazily: at most ``jobs * (AHEAD + 1)`` tasks are
        handed out and not yet yielded at any time.
    :param jobs: worker processes (at least 1).
    :param initializer: run in each worker as it starts (e.g. to set signal handlers).
    :returns: an iterator; closing it (or leaving it early) terminates the workers.
    :raises: whatever ``fn`` raised for a task, when that task's result is reached.
    """
    it = iter(tasks)
    with multiprocessing.Pool(jobs, initializer=initializer) as pool:  # exit: terminate
        pending = deque(pool.apply_async(fn, (task,)) for task in islice(it, jobs * (AHEAD + 1)))
        while pending:
            result = pending.popleft().get()
            for task in islice(it, 1):
                pending.append(pool.apply_async(fn, (task,)))
            yield result
