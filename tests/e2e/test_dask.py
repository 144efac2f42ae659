"""Batches on a Dask cluster (foursquare/cluster.py, ``--scheduler``): a real
``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, started here.

The same rows in the same order as a local run, in CSV and JSON, and the same
summary; a worker killed in the middle of a run changes nothing; a run stopped by
Ctrl-C resumes on the cluster; without ``distributed`` installed, ``--scheduler``
is a usage error naming the extra."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from app.test_resume import summary_without_times, without_seconds
from helpers import GATED_FROM, ROOT, gated_prelude, invoke, wait_for

HAVE_DASK = find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="needs the dask extra (pip install -e '.[test,dask]')")

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
#: ``dask scheduler`` and ``dask worker`` of this Python.
DASK = [sys.executable, "-m", "dask"]


class LocalCluster:
    """A scheduler and its workers, processes of their own (each its own process group)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen] = []
        self.address = ""

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = (self.folder / f"{name}.log").open("w")
        # the workers import this module's functions by name, as they import foursquare's
        env = dict(ENV, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "tests"), os.environ.get("PYTHONPATH")])))
        process = subprocess.Popen([*DASK, *args], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def start(self, workers: int = 2, prelude: str | None = None, scheduler_prelude: str | None = None) -> LocalCluster:
        """Start the scheduler and the workers (all stopped again if one of them fails to start);
        ``scheduler_prelude``: Python run first in the scheduler (a ``--preload`` file with ``dask_setup``)."""
        try:
            return self._start_all(workers, prelude, scheduler_prelude)
        except BaseException:
            self.stop()
            raise

    def _start_all(self, workers: int, prelude: str | None, scheduler_prelude: str | None) -> LocalCluster:
        file = self.folder / "scheduler.json"
        args = ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(file)]
        if scheduler_prelude is not None:
            (self.folder / "scheduler_prelude.py").write_text(scheduler_prelude + "\n")
            args += ["--preload", str(self.folder / "scheduler_prelude.py")]
        self._start("scheduler", args)
        assert wait_for(lambda: file.exists() and "address" in file.read_text()), self.log("scheduler")
        self.address = json.loads(file.read_text())["address"]
        for i in range(workers):
            self.add_worker(f"worker{i}", prelude)
        if workers:
            self.wait_for_workers(workers)
        return self

    def add_worker(self, name: str, prelude: str | None = None) -> None:
        """A worker; ``prelude``: Python run first in each of its processes (a ``--preload`` file)."""
        args = ["worker", self.address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1", "--name", name]
        if prelude is not None:
            file = self.folder / f"{name}_prelude.py"
            file.write_text(prelude + "\n")
            args += ["--preload", str(file)]
        self._start(name, args)

    def client(self):
        """A ``distributed`` client of its own (through :func:`foursquare.cluster.connect`, which
        takes a message the scheduler sends every client during the handshake in its stride)."""
        from foursquare.cluster import connect

        return connect(self.address, timeout=30)._client

    def wait_for_workers(self, count: int) -> None:
        with contextlib.closing(self.client()) as client:
            client.wait_for_workers(count, timeout=120)

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text()

    def stop(self) -> None:
        for process in reversed(self.processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # the worker a nanny started, too
            process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not HAVE_DASK:
        pytest.skip("needs the dask extra")
    local = LocalCluster(tmp_path_factory.mktemp("dask"))
    try:
        yield local.start()
    finally:
        local.stop()


def _both(tmp_path, args, address):
    """The CSV and stdout of ``args`` run here and on the cluster."""
    out = {}
    for where, extra in (("local", []), ("cluster", ["--scheduler", address])):
        path = tmp_path / f"{where}.csv"
        result = invoke([*args, *extra, "--output", path])
        assert result.exit_code == 0, result.output
        out[where] = (path.read_bytes().decode(), result.stdout)
    return out["local"], out["cluster"]


@needs_dask
def test_solve_on_the_cluster_gives_the_rows_and_summary_of_a_local_run(tmp_path, cluster):
    (csv_local, out_local), (csv_cluster, out_cluster) = _both(
        tmp_path, ["solve", "--deals", "0-39", "--max-nodes", "3000", "--format", "json"], cluster.address
    )
    assert without_seconds(csv_cluster) == without_seconds(csv_local) and len(without_seconds(csv_local)) == 41
    local, remote = ([json.loads(line) for line in out.splitlines()] for out in (out_local, out_cluster))
    assert [r["deal"] for r in remote[:-1]] == list(range(40))
    assert summary_without_times(remote) == summary_without_times(local)


@needs_dask
def test_simulate_on_the_cluster_gives_the_games_and_summary_of_a_local_run(tmp_path, cluster):
    (csv_local, out_local), (csv_cluster, out_cluster) = _both(
        tmp_path, ["simulate", "--bot", "greedy", "--vs", "random", "--deals", "0-299", "--format", "json"], cluster.address
    )
    assert without_seconds(csv_cluster) == without_seconds(csv_local) and len(without_seconds(csv_local)) == 601
    assert summary_without_times(json.loads(out_cluster)) == summary_without_times(json.loads(out_local))
    remote = invoke(["simulate", "--bot", "greedy", "--deals", "0-49", "--scheduler", cluster.address])
    local = invoke(["simulate", "--bot", "greedy", "--deals", "0-49"])
    assert remote.exit_code == 0 and _same_but_times(remote.stdout, local.stdout)
    assert "greedy on deals 0-49: 50 games" in remote.stdout


def _same_but_times(a: str, b: str) -> bool:
    keep = [line for line in a.splitlines() if "per move" not in line]
    return keep == [line for line in b.splitlines() if "per move" not in line]


@needs_dask
def test_a_worker_killed_in_the_middle_of_a_run_changes_nothing(tmp_path, cluster):
    # expectimax takes about 0.2 s a game, so that the chunks are one game each and
    # both workers are busy when one is killed (its nanny starts it again)
    args = ["simulate", "--bot", "expectimax", "--deals", "0-23"]
    path = tmp_path / "cluster.csv"
    process = subprocess.Popen([*COMMAND, *args, "--scheduler", cluster.address, "--output", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, text=True)
    try:
        with contextlib.closing(cluster.client()) as client:
            assert wait_for(lambda: path.exists() and path.read_bytes().count(b"\n") >= 3)
            busy = {}
            assert wait_for(lambda: busy.update({w: k for w, k in client.processing().items() if k}) or busy, step=0.01)
            victim = next(iter(busy))
            pid = client.run(os.getpid, workers=[victim])[victim]
            rows_then = path.read_bytes().count(b"\n") - 1
            os.kill(pid, signal.SIGKILL)
            out, err = process.communicate(timeout=300)
            assert process.returncode == 0, err
            assert rows_then < 24  # killed before the end
            cluster.wait_for_workers(2)  # (started again by its nanny, for the tests after this one)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    local = tmp_path / "local.csv"
    assert invoke([*args, "--output", local]).exit_code == 0
    assert without_seconds(path.read_bytes().decode()) == without_seconds(local.read_bytes().decode())


@needs_dask
def test_a_cluster_run_stopped_by_ctrl_c_resumes_on_the_cluster(tmp_path):
    args = ["solve", "--deals", "0-59", "--max-nodes", "500"]
    path = tmp_path / "sweep.csv"
    # the workers hold the later deals until the gate opens: the run is still going when
    # Ctrl-C comes, and the resumed run finishes it
    gate = tmp_path / "gate"
    slow = LocalCluster(tmp_path).start(workers=2, prelude=gated_prelude(gate))
    try:
        # (PYTHONFAULTHANDLER: a run that does not stop shows where each thread is: SIGABRT below)
        process = subprocess.Popen([*COMMAND, *args, "--scheduler", slow.address, "--output", str(path)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=dict(ENV, PYTHONFAULTHANDLER="1"),
                                   text=True)
        assert wait_for(lambda: path.exists() and path.read_bytes().count(b"\n") >= 4, step=0.01)
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            out, err = process.communicate()
            rows = len(path.read_bytes().splitlines()) - 1
            pytest.fail(f"the run did not stop at Ctrl-C; its rows: {rows}; its threads:\n{err}")
        assert process.returncode == 130 and "Traceback" not in err and "interrupted: " in out
        kept = path.read_bytes().count(b"\n") - 1
        assert 3 <= kept < GATED_FROM
        gate.touch()
        resumed = invoke([*args, "--scheduler", slow.address, "--output", path, "--resume"])
    finally:
        slow.stop()
    assert resumed.exit_code == 0 and f"{kept} of 60 deals done already" in resumed.stderr
    local = tmp_path / "local.csv"
    assert invoke([*args, "--output", local]).exit_code == 0
    assert without_seconds(path.read_bytes().decode()) == without_seconds(local.read_bytes().decode())


def _square(x: int) -> int:
    return x * x


def _fails_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven is not welcome")
    return x


def _token(x: int) -> str:
    return os.urandom(8).hex()


@pytest.fixture(scope="module")
def connected(cluster):
    from foursquare.cluster import connect

    with connect(cluster.address) as handle:
        yield handle


@needs_dask
def test_the_cluster_libraries_log_nothing_to_stderr_once_connected(connected):
    # a Ctrl-C in the middle of a run made tornado (the client's event loop) log a
    # callback cut short, with its traceback; the errors that matter are WorkerErrors
    import logging

    for name in ("distributed", "distributed.client", "tornado", "tornado.application"):
        assert logging.getLogger(name).getEffectiveLevel() == logging.CRITICAL, name


@needs_dask
def test_results_come_in_order_in_chunks_that_grow_with_fast_tasks(connected, cluster):
    import distributed

    with contextlib.closing(cluster.client()) as client, distributed.get_task_stream(client=client) as stream:
        assert list(connected.map(_square, range(3000), label="count")) == [x * x for x in range(3000)]
    chunks = [t["key"] for t in stream.data if str(t["key"]).startswith("foursquare-count-")]
    # fast tasks share chunks: far fewer Dask tasks than tasks, the first of one task each
    assert 2 <= len(chunks) <= 50
    assert any(str(key).endswith("-0-0") for key in chunks)


@needs_dask
def test_a_tasks_own_error_comes_at_its_place_naming_it(connected):
    from foursquare.errors import WorkerError

    stream = connected.map(_fails_on_seven, range(20), name=lambda x: f"deal {x}")
    assert list(itertools.islice(stream, 7)) == list(range(7))
    with pytest.raises(WorkerError, match=r"^deal 7: ValueError: seven is not welcome$"):
        next(stream)


@needs_dask
def test_two_runs_of_the_same_tasks_are_not_taken_for_one(connected):
    first, second = connected.map(_token, range(50)), connected.map(_token, range(50))
    a, b = [], []
    for x, y in zip(first, second, strict=True):  # at the same time, on the same cluster
        a.append(x)
        b.append(y)
    assert len(set(a) | set(b)) == 100  # every task computed: no key shared


@needs_dask
def test_leaving_a_run_early_cancels_its_tasks(connected, cluster):
    stream = connected.map(_square, range(10**9))
    assert list(itertools.islice(stream, 100)) == [x * x for x in range(100)]
    stream.close()  # (the scheduler tells every client of the cancelled tasks: a handshake at that moment is tried again)
    with contextlib.closing(cluster.client()) as client:
        assert wait_for(lambda: not client.run_on_scheduler(_our_tasks), seconds=30)


#: A scheduler that sends every client a message (an empty ``cancelled-keys``, as when
#: another client cancels its tasks) as it answers a client's handshake, for as many
#: handshakes as the number in the file ``BREAK`` says: the two arrive together.
BROADCAST_AT_HANDSHAKE = """
from pathlib import Path
BREAK = Path({file!r})

def dask_setup(scheduler):
    handle_stream = scheduler.handle_stream

    async def broadcasting(comm, extra=None, **kwargs):
        left = int(BREAK.read_text()) if BREAK.exists() else 0
        if "client" in (extra or {{}}) and left:
            BREAK.write_text(str(left - 1))
            scheduler.report({{"op": "cancelled-keys", "keys": []}})
        return await handle_stream(comm=comm, extra=extra, **kwargs)

    scheduler.handle_stream = broadcasting
"""


@needs_dask
def test_a_message_to_every_client_during_the_handshake_is_not_an_error(tmp_path):
    from foursquare.cluster import connect
    from foursquare.errors import WorkerError

    file = tmp_path / "break"
    local = LocalCluster(tmp_path).start(workers=0, scheduler_prelude=BROADCAST_AT_HANDSHAKE.format(file=str(file)))
    try:
        file.write_text("1")
        with connect(local.address, timeout=30) as handle:  # tried again
            assert file.read_text() == "0" and handle._client.scheduler_info()["type"] == "Scheduler"
        file.write_text(str(10**9))
        with pytest.raises(WorkerError, match=r"^cannot reach the Dask scheduler at tcp://127\.0\.0\.1:\d+ \(.+\)$"):
            connect(local.address, timeout=2)
    finally:
        local.stop()


def _our_tasks(dask_scheduler) -> list[str]:
    return [str(key) for key in dask_scheduler.tasks if str(key).startswith("foursquare-")]


@needs_dask
def test_an_unreachable_scheduler_is_one_error_line():
    from foursquare.cluster import connect
    from foursquare.errors import WorkerError

    with pytest.raises(WorkerError, match=r"^cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9 \(.+\)$"):
        connect("tcp://127.0.0.1:9", timeout=1)


@needs_dask
@pytest.mark.slow
def test_an_unreachable_scheduler_fails_the_command_before_the_file_is_written(tmp_path):
    path = tmp_path / "never.csv"
    result = invoke(["solve", "--deals", "0-3", "--scheduler", "tcp://127.0.0.1:9", "--output", path])
    assert result.exit_code == 1 and result.stderr.startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert not path.exists()


#: A TCP service on 127.0.0.1 that is not Dask (its port printed first): ``http`` reads
#: the request and answers as a web server does, ``garbage`` sends bytes at once
#: (whose first eight, read as Dask's frame count, ask for an impossible amount of
#: memory), ``silent`` accepts and never answers, ``close`` hangs up at once.
_FOREIGN_SERVER = """
import socket, sys, threading
mode = sys.argv[1]
server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1], flush=True)
kept = []
def serve(conn):
    if mode == "http":
        conn.recv(65536)
        conn.sendall(b"HTTP/1.0 400 Bad request\\r\\nContent-Type: text/html\\r\\n\\r\\n<html>no</html>\\n")
        conn.close()
    elif mode == "garbage":
        conn.sendall(b"\\xff" * 64 + b"HTTP/1.0 200 OK\\r\\n\\r\\n" * 100)
        kept.append(conn)
    elif mode == "close":
        conn.close()
    else:
        kept.append(conn)
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
"""


@contextlib.contextmanager
def _foreign_server(mode: str):
    """A real process serving ``mode`` (``_FOREIGN_SERVER``) on 127.0.0.1; yields its address."""
    process = subprocess.Popen([sys.executable, "-c", _FOREIGN_SERVER, mode], stdout=subprocess.PIPE, text=True)
    try:
        yield f"tcp://127.0.0.1:{int(process.stdout.readline())}"
    finally:
        process.kill()
        process.wait()
        process.stdout.close()


@needs_dask
@pytest.mark.parametrize("mode", ["http", "garbage", "silent", "close"])
def test_a_service_that_is_not_dask_is_one_error_line_within_the_timeout(mode):
    from foursquare.cluster import connect
    from foursquare.errors import WorkerError

    with _foreign_server(mode) as address:
        start = time.monotonic()
        with pytest.raises(WorkerError, match=rf"^cannot reach the Dask scheduler at {address} \(.+\)$"):
            connect(address, timeout=2)
        assert time.monotonic() - start < 30  # (bounded, not a hang: the timeout is 2 s)


@needs_dask
@pytest.mark.parametrize("mode", ["garbage", "silent"])
def test_the_command_on_a_service_that_is_not_dask_fails_in_one_line_without_a_traceback(tmp_path, mode):
    path = tmp_path / "never.csv"
    with _foreign_server(mode) as address:
        done = subprocess.run([*COMMAND, "solve", "--deals", "0-3", "--scheduler", address, "--output", str(path)],
                              capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=90)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cannot reach the Dask scheduler at {address} ("), done.stderr
    assert not path.exists()


@needs_dask
def test_a_dask_worker_is_not_taken_for_the_scheduler(cluster):
    from distributed import Client

    from foursquare.cluster import connect
    from foursquare.errors import WorkerError

    with contextlib.closing(Client(cluster.address, set_as_default=False)) as client:
        worker = next(iter(client.scheduler_info()["workers"]))
    with pytest.raises(WorkerError, match="a Dask Worker answers there, not a scheduler"):
        connect(worker, timeout=5)


@needs_dask
@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("nonsense", "missing port"),
        ("", "missing port"),
        ("http://127.0.0.1:8786", "unknown scheme http://"),
        ("inproc://127.0.0.1/1/1", "unknown scheme inproc://"),
        ("tcp://127.0.0.1", "missing port"),
        ("tcp://127.0.0.1:99999", "port must be 1-65535"),
        ("tcp://127.0.0.1:0", "port must be 1-65535"),
        ("tcp://127.0.0.1:abc", "is not a Dask scheduler address"),
        ("tcp://:8786", "names no host"),
    ],
)
@pytest.mark.parametrize("command", [["solve", "--deals", "0-3"], ["simulate", "--bot", "random", "--deals", "0-3"]],
                         ids=["solve", "simulate"])
def test_a_malformed_scheduler_address_is_a_usage_error_before_any_connection(tmp_path, monkeypatch, address, words, command):
    import distributed

    def no_client(*args, **kwargs):
        raise AssertionError("a Client made for a malformed address")

    # in-process (the same check, no Python start-up): no Client is made, so none is left to
    # complain at exit; the first address runs in a real process too, which ends without one
    monkeypatch.setattr(distributed, "Client", no_client)
    path = tmp_path / "never.csv"
    result = invoke([*command, "--scheduler", address, "--output", path])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--scheduler'" in result.stderr and words in result.stderr, result.stderr
    assert not path.exists()
    if address != "nonsense":
        return
    done = subprocess.run([*COMMAND, *command, "--scheduler", address, "--output", str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=30)
    assert done.returncode == 2, done.stderr
    assert "Invalid value for '--scheduler'" in done.stderr and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert not path.exists()


@needs_dask
@pytest.mark.parametrize("address", ["127.0.0.1:8786", "tcp://127.0.0.1:8786", "tls://127.0.0.1:8786", "tcp://[::1]:8786"])
def test_the_addresses_dask_accepts_pass_the_check(address):
    from foursquare.cluster import scheduler_address

    full = scheduler_address(address)
    assert "://" in full and full.endswith(":8786")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "--deals", "0-3", "--jobs", "2", "--scheduler", "tcp://h:8786"], "--jobs and --scheduler"),
        (["simulate", "--deals", "0-3", "--jobs", "2", "--scheduler", "tcp://h:8786"], "--jobs and --scheduler"),
        (["solve", "--deal", "3", "--scheduler", "tcp://h:8786"], "--scheduler"),
    ],
)
def test_scheduler_usage_errors(args, words):
    result = invoke(args)
    assert result.exit_code == 2 and words in result.stderr


#: Runs the command line in a Python where ``distributed`` cannot be imported
#: (``sys.modules[name] = None`` is how Python marks a module as not importable).
_WITHOUT_DASK = (
    "import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None\n"
    "from foursquare.__main__ import run\n"
    "sys.argv = ['foursquare', *sys.argv[1:]]\n"
    "run()\n"
)


@pytest.mark.parametrize(
    "args",
    [["solve", "--deals", "0-3"], ["simulate", "--bot", "random", "--deals", "0-3"]],
    ids=["solve", "simulate"],
)
def test_without_the_dask_extra_scheduler_is_a_usage_error_naming_it(tmp_path, args):
    path = tmp_path / "never.csv"
    done = subprocess.run([sys.executable, "-c", _WITHOUT_DASK, *args, "--scheduler", "tcp://127.0.0.1:8786", "--output", str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "pip install 'foursquare-solitaire[dask]'" in done.stderr and "Traceback" not in done.stderr
    assert not path.exists()


@needs_dask
def test_a_lost_scheduler_stops_the_run_in_one_line_and_resume_finishes_it_on_another(tmp_path, cluster):
    args = ["solve", "--deals", "0-59", "--max-nodes", "500"]
    path = tmp_path / "sweep.csv"
    # the doomed cluster's worker holds the later deals until the run is over, so that
    # the run is still going when its scheduler is killed
    gate = tmp_path / "gate"
    doomed = LocalCluster(tmp_path).start(workers=1, prelude=gated_prelude(gate))
    try:
        process = subprocess.Popen([*COMMAND, *args, "--scheduler", doomed.address, "--output", str(path)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, text=True)
        assert wait_for(lambda: path.exists() and path.read_bytes().count(b"\n") >= 4, step=0.01)
        os.killpg(doomed.processes[0].pid, signal.SIGKILL)  # the scheduler, at once
        out, err = process.communicate(timeout=120)
    finally:
        gate.touch()  # the worker's held deal ends, so it stops at once
        doomed.stop()
    assert process.returncode == 1, err
    assert err.splitlines()[-1].startswith(f"lost the connection to the Dask scheduler at {doomed.address}")
    assert "Traceback" not in err and "interrupted: " in out
    kept = path.read_bytes().count(b"\n") - 1
    assert kept < GATED_FROM
    resumed = invoke([*args, "--scheduler", cluster.address, "--output", path, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    local = tmp_path / "local.csv"
    assert invoke([*args, "--output", local]).exit_code == 0
    assert without_seconds(path.read_bytes().decode()) == without_seconds(local.read_bytes().decode())


@needs_dask
@pytest.mark.slow
@pytest.mark.parametrize(
    ("prelude", "words"),
    [
        # a worker of another version of foursquare
        ("import foursquare; foursquare.__version__ = '0.0.1'", "runs foursquare 0.0.1, this machine"),
    ],
    ids=["other-version"],
)
def test_a_worker_that_cannot_give_the_same_results_stops_the_run_in_one_line(tmp_path, prelude, words):
    odd = LocalCluster(tmp_path).start(workers=1, prelude=prelude)
    try:
        path = tmp_path / "never.csv"
        result = subprocess.run([*COMMAND, "solve", "--deals", "0-9", "--max-nodes", "500", "--scheduler", odd.address,
                                 "--output", str(path)], capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    finally:
        odd.stop()
    assert result.returncode == 1, result.stderr
    assert words in result.stderr.splitlines()[-1] and "Traceback" not in result.stderr
    assert path.read_bytes().count(b"\n") == 1  # the header, no row


@needs_dask
def test_a_cluster_without_any_worker_stops_the_run_rather_than_wait_for_ever(tmp_path, monkeypatch):
    # (a worker where foursquare cannot be imported ends as it reads its first task,
    # and its tasks then wait for a worker that never comes)
    from foursquare import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "NO_WORKER_SECONDS", 1.0)
    monkeypatch.setattr(cluster_module, "LOOK_SECONDS", 0.2)
    empty = LocalCluster(tmp_path).start(workers=0)
    try:
        with cluster_module.connect(empty.address) as handle:
            with pytest.raises(cluster_module.WorkerError, match=r"has had no worker for 1 s"):
                list(handle.map(_square, range(10)))
    finally:
        empty.stop()


# --- the chunks' sizes and a refused port --------------------------------------------------------


def test_chunks_start_at_one_task_and_grow_geometrically_capped_by_count_and_time():
    from foursquare.cluster import CHUNK_SECONDS, MAX_CHUNK, chunk_size

    sizes, largest = [], 0
    for _ in range(20):  # fast tasks: each chunk back lets the next one double, up to the cap
        size = chunk_size(largest, 1e-7)
        sizes.append(size)
        largest = max(largest, size)
    assert sizes[:5] == [1, 2, 4, 8, 16] and max(sizes) == MAX_CHUNK
    assert chunk_size(0, None) == 1 and chunk_size(0, 1e-9) == 1  # nothing back yet: one task
    # tasks that turn slow: the next chunk lasts about CHUNK_SECONDS at the latest chunk's pace
    assert chunk_size(1000, 0.024) == int(CHUNK_SECONDS / 0.024) and chunk_size(1000, 30.0) == 1
    assert chunk_size(1000, 1e-7, cap=64) == 64


def _fast_then_slow(x: int) -> int:
    """A task of about 0.1 ms for the first four, then of 20 ms (a sweep whose deals turn hard)."""
    if x >= 4:
        time.sleep(0.02)
    return x


@needs_dask
def test_chunks_after_fast_tasks_never_hold_the_slow_remainder(connected, cluster):
    import distributed

    with contextlib.closing(cluster.client()) as client, distributed.get_task_stream(client=client) as stream:
        assert list(connected.map(_fast_then_slow, range(150), label="turn")) == list(range(150))
    spans = sorted(tuple(map(int, str(t["key"]).rsplit("-", 2)[1:])) for t in stream.data
                   if str(t["key"]).startswith("foursquare-turn-"))
    sizes = [last - first + 1 for first, last in spans]
    assert spans[0] == (0, 0) and sum(sizes) == 150, spans
    # about a quarter of a second of 20 ms tasks each (twice that at most, while the pace is learnt),
    # never the whole remainder after the fast ones
    assert max(sizes) <= 2 * 0.25 / 0.02 + 1, spans
    assert len(sizes) >= 10, spans


def _refused_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (bound, then closed)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@needs_dask
def test_a_refused_port_is_said_as_refused_at_once():
    from foursquare.cluster import connect
    from foursquare.errors import WorkerError

    address = f"tcp://127.0.0.1:{_refused_port()}"
    start = time.monotonic()
    with pytest.raises(WorkerError, match=rf"^cannot reach the Dask scheduler at {address} \(connection refused"):
        connect(address, timeout=10)
    assert time.monotonic() - start < 5  # not after the whole timeout


@needs_dask
@pytest.mark.parametrize("command", [["solve", "--deals", "0-3"], ["simulate", "--bot", "random", "--deals", "0-3"]],
                         ids=["solve", "simulate"])
def test_the_commands_say_a_refused_port_is_refused(tmp_path, command):
    address = f"tcp://127.0.0.1:{_refused_port()}"
    path = tmp_path / "never.csv"
    result = invoke([*command, "--scheduler", address, "--output", path])
    assert result.exit_code == 1 and result.stderr.startswith(f"cannot reach the Dask scheduler at {address} (connection refused")
    assert not path.exists() and "Traceback" not in result.output
    run = subprocess.run([*COMMAND, *command, "--scheduler", address], capture_output=True, text=True, cwd=ROOT,
                         env=ENV, timeout=60)
    assert run.returncode == 1 and "(connection refused" in run.stderr and "Traceback" not in run.stderr


# --- escalating a sweep on the cluster: the unknown rows solved again under a higher limit --------


@needs_dask
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pipes of one write")
def test_an_escalation_on_the_cluster_gives_the_file_of_a_local_one_even_killed_in_the_middle(tmp_path, cluster):
    from app.test_escalation import HIGH, check_settled_rows_kept, escalated, journal_of, stopped_mid_pass, swept_low

    _, whole, _ = escalated(tmp_path)  # here, uninterrupted
    path, low = swept_low(tmp_path, "cluster.csv")
    result = invoke([*HIGH, "--scheduler", cluster.address, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    assert "45 of them unknown under a lower --max-nodes" in result.stderr
    check_settled_rows_kept(low, path.read_bytes())
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())
    # the command killed (kill -9) in the middle of its pass: the rows solved so far are in the
    # journal, and a resume on the cluster merges them and solves the others
    killed, low = swept_low(tmp_path, "killed.csv")
    status, err, _ = stopped_mid_pass(killed, [*HIGH, "--scheduler", cluster.address], signal.SIGKILL)
    assert status == -9 and killed.read_bytes() == low, err
    done = journal_of(killed).read_bytes().count(b"\r\n") - 1
    assert 3 <= done < 45
    resumed = invoke([*HIGH, "--scheduler", cluster.address, "--output", killed, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert f"{45 - done} of them unknown under a lower --max-nodes" in resumed.stderr
    assert without_seconds(killed.read_bytes().decode()) == without_seconds(whole.decode())


@needs_dask
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pipes of one write")
def test_a_worker_killed_in_the_middle_of_an_escalation_changes_nothing(tmp_path, cluster):
    import fcntl

    from app.test_escalation import HIGH, check_settled_rows_kept, escalated, swept_low

    _, whole, _ = escalated(tmp_path)
    path, low = swept_low(tmp_path, "cluster.csv")
    # the command waits, its pass begun, to write a deal's line into a pipe of one write
    # (tests/app/test_escalation.py, stopped_mid_pass) while a worker is killed
    read, write = os.pipe2(os.O_DIRECT)
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    try:
        process = subprocess.Popen([*COMMAND, *HIGH, "--scheduler", cluster.address, "--output", str(path), "--resume",
                                    "--format", "json"], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    finally:
        os.close(write)
    try:
        data = b""
        while data.count(b"\n") < 3:
            chunk = os.read(read, 65536)
            assert chunk
            data += chunk
        with contextlib.closing(cluster.client()) as client:
            victim, pid = next(iter(client.run(os.getpid).items()))
        os.kill(pid, signal.SIGKILL)
        while chunk := os.read(read, 65536):  # the command goes on
            data += chunk
    finally:
        os.close(read)
        if process.poll() is None:
            process.wait(timeout=300)
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.returncode == 0, err
    assert json.loads(data.splitlines()[-1])["solved_again"]["deals_done"] == 45
    cluster.wait_for_workers(2)  # (started again by its nanny, for the tests after this one)
    check_settled_rows_kept(low, path.read_bytes())
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())
