"""Batch work in worker processes: results in order, tasks read a few at a time,
so that a huge range of deals starts at once and holds little memory."""

from __future__ import annotations

import contextlib
import copyreg
import os
import signal
import subprocess
import sys
import time
from itertools import islice

import pytest

from foursquare.bots import simulate
from foursquare.parallel import BUFFER, WorkerError, ordered_map
from foursquare.solver import solve_deals


def _square(x: int) -> int:
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def _first_waits_for_the_last(task: tuple) -> str:
    """Task 0 waits (at most 30 s) for the file that the last task makes."""
    path, number, count = task
    if number == count - 1:
        open(path, "w").close()
    if number == 0:
        deadline = time.monotonic() + 30
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                return "gave up"
            time.sleep(0.01)
    return "done"


def test_a_slow_task_holds_back_its_result_not_the_workers(tmp_path):
    # the other worker goes on with the tasks after it (60 here, more than any window
    # of tasks kept in flight), so the last one runs while the first still waits
    count = 60
    flag = str(tmp_path / "flag")
    results = list(ordered_map(_first_waits_for_the_last, [(flag, i, count) for i in range(count)], 2))
    assert results == ["done"] * count


def test_results_come_in_the_order_of_the_tasks():
    assert list(ordered_map(_square, range(40), 2)) == [x * x for x in range(40)]


def test_a_task_may_be_none():
    assert list(ordered_map(repr, [None, 0, None], 2)) == ["None", "0", "None"]


def test_tasks_are_read_a_few_at_a_time():
    pulled = []

    def tasks():
        for x in range(10**9):
            pulled.append(x)
            yield x

    stream = ordered_map(_square, tasks(), 2)
    assert list(islice(stream, 5)) == [0, 1, 4, 9, 16]
    stream.close()  # terminates the workers
    # read as the workers free up, never the whole range: at most BUFFER beyond those yielded
    assert len(pulled) <= 5 + BUFFER


def test_an_error_in_a_task_reaches_the_caller_at_its_place():
    stream = ordered_map(_fail_on_three, range(10), 2)
    assert list(islice(stream, 3)) == [0, 1, 2]
    with pytest.raises(ValueError, match="three"):
        next(stream)


@pytest.mark.parametrize("jobs", [1, 2])
def test_solving_a_huge_range_of_deals_starts_at_once(jobs):
    # a list of every task first would never finish
    first = list(islice(solve_deals(range(10**15), max_nodes=2_000, jobs=jobs), 3))
    assert [d for d, _ in first] == [0, 1, 2]
    assert all(s.status in ("solved", "no-win", "unknown") for _, s in first)


def test_simulating_with_workers_gives_the_results_of_one_process():
    one = list(simulate.play_deals(["greedy"], range(6), seed=3, jobs=1))
    two = list(simulate.play_deals(["greedy"], range(6), seed=3, jobs=2))
    assert [(r.deal, r.status, r.score, r.moves) for r in one] == [(r.deal, r.status, r.score, r.moves) for r in two]


_STARTING = """
import os, sys, time
from foursquare.cli.signals import Terminated, catch_sigterm, worker_signals
from foursquare.parallel import ordered_map

# Each worker is still starting when the signals come (the parent's, then the pool's
# own SIGTERM to stop it): in code after fork, where Python ignores an exception.  The
# line before the first fork tells the test to send them (a pipe, not a guessed delay).
os.register_at_fork(before=lambda: print("forking", flush=True), after_in_child=lambda: time.sleep(1.5))
catch_sigterm()
try:
    print(sum(ordered_map(abs, range(-50, 50), 2, initializer=worker_signals)), flush=True)
except Terminated as stop:
    print("terminated", flush=True)
    sys.exit(stop.code)
"""


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_while_the_workers_start_stops_them_all(signum, code):
    # `timeout` or a closed terminal signals the whole process group while the pool
    # is starting: the workers must not take it before their handlers are set (they
    # died halfway through their start, and the pool's shutdown waited for them).
    process = subprocess.Popen(
        [sys.executable, "-c", _STARTING], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "forking\n"  # a worker is starting
        os.killpg(process.pid, signum)
        out, err = process.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert (process.returncode, out.replace("forking\n", "")) == (code, "terminated\n")
    assert "Traceback" not in err and "Exception ignored" not in err
    assert _group_gone(process.pid, 5)  # no worker is left behind


class _NeedsItsArguments(Exception):
    """An exception that pickle cannot rebuild (its constructor wants two arguments)."""

    def __init__(self, name: str, line: int) -> None:
        super().__init__(f"{name}:{line}: bad")


def _raise_unrebuildable(x: int) -> int:
    if x == 2:
        raise _NeedsItsArguments("f.txt", 7)
    return x


def test_an_exception_that_cannot_be_passed_back_keeps_its_message():
    # Importing distributed (tests/e2e/test_dask.py, earlier in the same run) registers
    # tblib's reducer for every exception class then known, which rebuilds this one:
    # the plain pickle of a command's worker processes is what is tested here.
    copyreg.dispatch_table.pop(_NeedsItsArguments, None)
    stream = ordered_map(_raise_unrebuildable, range(5), 2)
    assert list(islice(stream, 2)) == [0, 1]
    with pytest.raises(WorkerError, match=r"_NeedsItsArguments: f.txt:7: bad"):
        next(stream)


def _unpicklable_result(x: int):
    return (lambda: x) if x == 1 else x


def test_a_result_that_cannot_be_passed_back_is_an_error_at_its_place():
    stream = ordered_map(_unpicklable_result, range(4), 2)
    assert next(stream) == 0
    with pytest.raises(WorkerError, match="could not be passed back"):
        next(stream)


_RUN = """
import os, signal, sys, time
from foursquare.parallel import WorkerError, ordered_map
from tests.foundation.test_parallel import {fn}
{body}
"""

_DIES = """
got = []
try:
    for x in ordered_map(_dies_on_three, range(8), 2):
        got.append(x)
        if x == 2:
            open(os.environ["GOT_TWO"], "w").close()  # the event task 3 waits for
except WorkerError as exc:
    print(got, "error:", exc)
"""


def _dies_on_three(x: int) -> int:
    if x == 3:
        while not os.path.exists(os.environ["GOT_TWO"]):  # the caller has 0, 1 and 2
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)  # as kill -9, or the kernel when memory runs out
    if x == 4:
        time.sleep(600)  # a long task: not awaited once the run stops
    return x


def _run_in_a_group(code: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), **kwargs,
    )


def _ended(process: subprocess.Popen, timeout: float) -> tuple[str, str]:
    try:
        return process.communicate(timeout=timeout)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _group_gone(pgid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_worker_that_dies_mid_task_stops_the_run_at_once_after_the_results_in_order(tmp_path):
    # (a process pool replaced the dead worker and waited for the lost task's result
    # for ever; then the other worker's long task was awaited, for minutes)
    env = dict(os.environ, GOT_TWO=str(tmp_path / "got-two"))
    process = _run_in_a_group(_RUN.format(fn="_dies_on_three", body=_DIES), env=env)
    out, err = _ended(process, 30)
    assert process.returncode == 0, err
    # every result before the lost task's place comes first, then the error
    assert out == "[0, 1, 2] error: a worker process was killed by SIGKILL before it finished its task\n"
    assert _group_gone(process.pid, 5)  # the other worker is stopped too


_STALLS = """
def tasks():
    yield from {tasks}
    print("stalled", flush=True)
    time.sleep(600)  # the workers are idle, waiting for a task

print(sum(ordered_map(_sleep, tasks(), 2)))
"""


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("tasks", ["[0, 0, 0, 0]", "[600]"], ids=["idle", "busy"])
def test_workers_end_when_their_parent_is_killed(tasks):
    # idle ones read the end of their pipes; a busy one (a long deal) sees its parent gone
    process = _run_in_a_group(_RUN.format(fn="_sleep", body=_STALLS.format(tasks=tasks)))
    try:
        assert process.stdout.readline() == "stalled\n"
        process.kill()  # kill -9: no clean-up runs in the parent
        process.wait(10)
        assert _group_gone(process.pid, 10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


_BUSY = """
from foursquare.cli.signals import Terminated, catch_sigterm, worker_signals
catch_sigterm()
print("started", flush=True)
try:
    for _ in ordered_map(_square, range(10**9), 2, initializer=worker_signals):
        pass
except Terminated as stop:
    sys.exit(stop.code)
"""


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.07, 0.15, 0.3])
def test_a_signal_to_the_whole_group_at_any_moment_ends_every_process(delay):
    # `timeout` signals the parent and the workers at once, wherever each is: taking
    # a task, sending a result, starting.  (A worker stopped between taking a process
    # pool's task-queue lock and releasing it left the pool waiting for ever.)
    process = _run_in_a_group(_RUN.format(fn="_square", body=_BUSY))
    assert process.stdout.readline() == "started\n"
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGTERM)
    out, err = _ended(process, 20)
    assert process.returncode == 143, err
    assert "Traceback" not in err
    assert _group_gone(process.pid, 5)


class _InThisProcess:
    """A :class:`foursquare.parallel.Mapper` of the plainest kind: ``fn`` over the
    tasks here; it keeps the names it was given, to check what the batches pass."""

    def __init__(self):
        self.names = []

    def __call__(self, fn, tasks, name=None):
        for task in tasks:
            self.names.append(name(task))
            yield fn(task)


def test_solve_deals_hands_its_deals_to_a_mapper_named_by_deal():
    mapper = _InThisProcess()
    given = [(d, (s.status, s.score, s.nodes)) for d, s in solve_deals(range(3, 7), max_nodes=2000, mapper=mapper)]
    local = [(d, (s.status, s.score, s.nodes)) for d, s in solve_deals(range(3, 7), max_nodes=2000)]
    assert given == local and mapper.names == ["deal 3", "deal 4", "deal 5", "deal 6"]


def test_play_deals_hands_its_games_to_a_mapper_named_by_deal_and_bot():
    mapper = _InThisProcess()
    given = [r.row() for r in simulate.play_deals(["greedy", "random"], range(2), mapper=mapper)]
    local = [r.row() for r in simulate.play_deals(["greedy", "random"], range(2))]
    untimed = {"seconds": 0, "slowest_move_seconds": 0}  # measured times: never the same twice
    assert [{**r, **untimed} for r in given] == [{**r, **untimed} for r in local]
    assert mapper.names == ["deal 0 (greedy)", "deal 0 (random)", "deal 1 (greedy)", "deal 1 (random)"]
