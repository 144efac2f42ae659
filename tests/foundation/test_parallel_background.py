"""One task in a worker process of its own (:func:`foursquare.parallel.in_background`):
its items come in order as they are made, can be read without waiting, its error is
raised where it came, and leaving the block ends the worker at once."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator

import pytest

from foursquare.parallel import WorkerError, in_background


def _squares(n: int) -> Iterator[int]:
    for x in range(n):
        yield x * x


def _pid_then_wait(path: str) -> Iterator[int]:
    """Its process id, then an item only once ``path`` exists (at most 60 s)."""
    yield os.getpid()
    deadline = time.monotonic() + 60
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    yield -1


def _fails_after_two(n: int) -> Iterator[int]:
    yield n
    yield n + 1
    raise ValueError("third")


def _gone(pid: int, seconds: float = 5.0) -> bool:
    """The process ``pid`` has ended (and been reaped) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.01)
    return False


def test_the_items_come_in_order_and_the_worker_ends():
    with in_background(_squares, 30) as stream:
        items = list(stream)
        assert stream.done
    assert items == [x * x for x in range(30)]


def test_ready_gives_what_has_come_without_waiting(tmp_path):
    flag = tmp_path / "flag"
    with in_background(_pid_then_wait, str(flag)) as stream:
        deadline = time.monotonic() + 60
        first: list[int] = []
        while not first and time.monotonic() < deadline:
            first = stream.ready()  # never waits for the second item, which waits for the flag
        assert len(first) == 1 and first[0] != os.getpid()
        assert stream.ready() == [] and not stream.done
        flag.touch()
        assert list(stream) == [-1]


def test_the_tasks_error_is_raised_after_the_items_before_it():
    got = []
    with in_background(_fails_after_two, 5) as stream, pytest.raises(ValueError, match="third"):
        for item in stream:
            got.append(item)
    assert got == [5, 6] and stream.done


def test_leaving_the_block_early_kills_the_busy_worker_at_once(tmp_path):
    # the worker waits (up to a minute) for a file that never comes: leaving ends it
    # at once, not after its task
    start = time.monotonic()
    with in_background(_pid_then_wait, str(tmp_path / "never")) as stream:
        pid = next(iter(stream))
    assert _gone(pid) and time.monotonic() - start < 30


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_worker_killed_midway_is_a_worker_error(tmp_path):
    with in_background(_pid_then_wait, str(tmp_path / "never")) as stream:
        it = iter(stream)
        pid = next(it)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(WorkerError, match="killed by SIGKILL"):
            next(it)
        assert stream.done
