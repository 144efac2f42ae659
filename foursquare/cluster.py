"""Batch work on a Dask distributed cluster: :meth:`Cluster.map`, in the shape of
:func:`foursquare.parallel.ordered_map`, with the tasks run by the cluster's workers.

:func:`connect` reaches a Dask scheduler (``tcp://host:8786``) and gives a
:class:`Cluster`; its :meth:`~Cluster.map` yields ``fn(task)`` for each task in
the order of the tasks, as soon as each and those before it are done, so a
caller cannot tell it from :func:`~foursquare.parallel.ordered_map` but by the
speed.  The package ``distributed`` is imported only here and only by
:func:`connect` (the ``dask`` extra); without it, :class:`WorkerError`.

How the tasks go to the cluster:

- **In chunks.**  Dask spends about a millisecond on each of its tasks, more
  than some of ours take (a game of the random bot), so consecutive tasks go
  together in a chunk, one Dask task.  The first chunks hold one task; then
  the chunks grow geometrically, each at most twice the largest one back so far,
  and never more than the tasks that last about :data:`CHUNK_SECONDS` at the time
  per task of the latest chunk back, nor :data:`MAX_CHUNK` tasks
  (:func:`chunk_size`): a run of fast tasks followed by slow ones never sends
  the slow ones in one huge chunk.  A result never depends on its chunk (each
  task is computed on its own).
- **A few at a time.**  The tasks are read lazily; chunks are handed out while
  fewer than two per worker thread are running and fewer than :data:`IN_FLIGHT`
  tasks are handed out and not yet yielded (the chunks are made smaller on a
  large cluster to fit), so a million tasks start at once and hold little memory.
- **Keys unique per run.**  A chunk's key names its tasks' positions and a
  random token drawn for the run (``foursquare-solve_one-<token>-<first>-<last>``):
  Dask takes two tasks with one key for the same task, so two runs of the
  same deals on one cluster must not share keys.
- **A dead worker's chunks run elsewhere.**  The scheduler hands them to other
  workers (a chunk whose workers die over and over is given up: its error is
  :class:`WorkerError`); the results are the same, as each task's result
  depends on the task alone.
- **A task's own error is kept at its place**: the chunk stops there, and
  :meth:`~Cluster.map` raises :class:`WorkerError` naming the task (the
  ``name`` given, e.g. ``deal 17``) once the results before it are out.
- **Stopping** (the caller leaves the iterator: Ctrl-C, an error) cancels the
  chunks still running or waiting.  A cluster left without any worker for
  :data:`NO_WORKER_SECONDS` stops the run too (:class:`WorkerError`), rather
  than wait for ever (a worker that cannot read our tasks ends at once).

No I/O of its own, but the network.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import socket
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeVar

from . import __version__
from .errors import ArgumentError, FoursquareError, WorkerError

T = TypeVar("T")
R = TypeVar("R")

#: The time a chunk of tasks is sized to take (seconds): Dask's overhead per task
#: (about a millisecond) is then a few parts in a thousand.
CHUNK_SECONDS = 0.25
#: The most tasks in one chunk (however fast they are).
MAX_CHUNK = 2000
#: The most tasks handed out and not yet yielded (running, or done behind a slow one):
#: their results are held here, so this bounds the memory (a game's result is about a KB).
IN_FLIGHT = 8192
#: Seconds to wait for the scheduler when connecting.
CONNECT_SECONDS = 10.0
#: Seconds between two looks at the cluster's size (workers join and leave).
LOOK_SECONDS = 2.0
#: Seconds a run waits for a worker when the cluster has none (before any joined, or
#: after every one left) before it stops with :class:`WorkerError`.
NO_WORKER_SECONDS = 60.0
#: What to install for :func:`connect` (the ``dask`` extra).
INSTALL = "pip install 'foursquare-solitaire[dask]'"


#: The address schemes a scheduler can be reached by from another process (Dask's own
#: names; ``inproc://`` is within one process only, ``ucx://`` needs a package of its own).
SCHEMES = ("tcp", "tls", "ws", "wss")


def scheduler_address(address: str) -> str:
    """The scheduler's address, read by Dask's own address parsing (``distributed.comm``)
    before any connection (a usage error comes before any work; :func:`connect` reads it so too).

    :param address: ``tcp://host:port`` (or ``tls://``, ``ws://``, ``wss://``; ``host:port`` means tcp).
    :returns: the address in Dask's full form, with its scheme (``127.0.0.1:8786`` gives ``tcp://127.0.0.1:8786``).
    :raises WorkerError: when ``distributed`` is not installed (:data:`INSTALL`).
    :raises ArgumentError: when it names no scheme of :data:`SCHEMES`, no host, or no port 1-65535.
    """
    comm = _distributed().comm
    try:
        scheme, _ = comm.parse_address(address)
        if scheme not in SCHEMES:
            raise ValueError(f"unknown scheme {scheme}://")
        full = comm.normalize_address(address)
        host, port = comm.get_address_host_port(full)
    except ValueError as exc:
        raise ArgumentError(f"{address!r} is not a Dask scheduler address ({_words(exc)}); give tcp://HOST:PORT") from None
    if not host:
        raise ArgumentError(f"{address!r} names no host; give tcp://HOST:PORT")
    if not 0 < port < 65536:
        raise ArgumentError(f"{address!r}: the port must be 1-65535, not {port}; give tcp://HOST:PORT")
    return str(full)


def connect(address: str, *, timeout: float = CONNECT_SECONDS) -> Cluster:
    """Connect to the Dask scheduler at ``address``.

    The whole handshake is bounded by ``timeout``: first a short exchange of our own
    (Dask's ``identity`` request) checks that a Dask scheduler answers there, so a
    service of another kind (a web server, one that never answers, a Dask worker)
    gives :class:`WorkerError` in time rather than a hang or an error from inside
    ``distributed``; only then is the client made.

    :param address: the scheduler's address (``tcp://host:8786``; ``host:8786`` too), as messages name it.
    :param timeout: the most seconds to wait for it.
    :returns: a :class:`Cluster` (a context manager: leaving it closes the connection).
    :raises WorkerError: when ``distributed`` is not installed (:data:`INSTALL`).
    :raises ArgumentError: when ``address`` is not an address (:func:`scheduler_address`).
    :raises WorkerError: when no Dask scheduler answers there in time.
    """
    import asyncio
    import logging

    distributed = _distributed()
    full = scheduler_address(address)
    # The client logs its reconnection attempts and the cancelled tasks of a stopped
    # run, and its event loop (tornado's) a callback cut short by Ctrl-C, with a
    # traceback; the errors that matter reach the caller as WorkerError.
    for name in [*logging.root.manager.loggerDict, "distributed", "tornado"]:  # (distributed sets each one's level)
        if name.partition(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    start = time.monotonic()
    host, port = distributed.comm.get_address_host_port(full)
    _probe(address, host, port, timeout)
    try:
        kind = asyncio.run(asyncio.wait_for(_identity(distributed, full, timeout), timeout))
    except _CONNECT_ERRORS as exc:
        raise WorkerError(f"cannot reach the Dask scheduler at {address} ({_reason(exc, timeout)})") from None
    if "Scheduler" not in kind:
        what = f"a Dask {kind}" if kind else "a service of another kind"
        raise WorkerError(f"cannot reach the Dask scheduler at {address} ({what} answers there, not a scheduler)")
    base: Any = distributed.Client

    class Client(base):  # type: ignore[misc]  # (distributed has no types)
        """Closed at once when its handshake fails (else its ``__del__`` waits for a loop gone, 60 s)."""

        def start(self, **kwargs: Any) -> None:
            try:
                super().start(**kwargs)
            except Exception:
                with contextlib.suppress(Exception):
                    self.close()
                raise

    while True:
        left = max(1.0, timeout - (time.monotonic() - start))
        try:
            return Cluster(address, Client(full, timeout=left, set_as_default=False))
        except AssertionError:
            # distributed's handshake takes a message the scheduler sent every client at
            # that moment (another client's cancelled tasks) for a wrong answer: try again
            if time.monotonic() - start > timeout:
                raise WorkerError(f"cannot reach the Dask scheduler at {address} (no handshake in {timeout:g} s)") from None
        except _CONNECT_ERRORS as exc:
            raise WorkerError(f"cannot reach the Dask scheduler at {address} ({_reason(exc, left)})") from None


#: What ``distributed`` may raise while connecting to a peer that is not a Dask scheduler
#: (OSError covers its CommClosedError; MemoryError and the struct/pickle errors come of
#: reading another protocol's bytes as Dask's frames).
_CONNECT_ERRORS: tuple[type[BaseException], ...] = (
    OSError, TimeoutError, ValueError, TypeError, KeyError, IndexError, MemoryError, OverflowError, EOFError,
    pickle.UnpicklingError, ImportError, AttributeError,
)


def _probe(address: str, host: str, port: int, timeout: float) -> None:
    """Open and close a plain TCP connection to the scheduler's host and port, so that a
    refused port or an unknown host is said as such at once (Dask's own connection
    tries again until its timeout, then says only that it timed out).

    :raises WorkerError: naming ``address`` and why (``connection refused``).
    """
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        why = (
            "connection refused: nothing listens on that port" if isinstance(exc, ConnectionRefusedError)
            else f"unknown host {host}: {exc.strerror or _words(exc)}" if isinstance(exc, socket.gaierror)
            else f"no answer in {timeout:g} s" if isinstance(exc, TimeoutError)
            else exc.strerror or _words(exc)
        )  # fmt: skip
        raise WorkerError(f"cannot reach the Dask scheduler at {address} ({why})") from None


async def _identity(distributed: Any, address: str, timeout: float) -> str:
    """The kind of Dask server at ``address`` (``Scheduler``, ``Worker``; ``""`` for an odd answer)."""
    args = distributed.Security().get_connection_args("client")  # (TLS from Dask's configuration)
    comm = await distributed.comm.connect(address, timeout=timeout, **args)
    try:
        await comm.write({"op": "identity", "reply": True})
        reply = await comm.read()
    finally:
        comm.abort()
    kind = reply.get("type") if isinstance(reply, dict) else None
    return kind if isinstance(kind, str) else ""


def _reason(exc: BaseException, timeout: float) -> str:
    return (
        f"no answer in {timeout:g} s" if isinstance(exc, TimeoutError)
        else "the service there does not speak Dask's protocol" if isinstance(exc, MemoryError)
        else _words(exc)
    )  # fmt: skip


def _distributed() -> Any:
    """The package ``distributed``, or :class:`WorkerError`."""
    try:
        import distributed.comm  # type: ignore[import-not-found, unused-ignore]  # (the dask extra; binds distributed too)
    except ImportError as exc:
        raise WorkerError(f"running on a Dask cluster needs the dask extra ({INSTALL}): {exc}") from None
    return distributed


def chunk_size(largest: int, per_task: float | None, cap: int = MAX_CHUNK) -> int:
    """The tasks of the next chunk (module doc): one before any chunk is back, then at
    most twice the ``largest`` chunk back so far, at most what lasts
    :data:`CHUNK_SECONDS` at ``per_task`` seconds a task (the latest chunk's; ``None``:
    none measured), at most ``cap``; at least one.

    >>> [chunk_size(n, 1e-6) for n in (0, 1, 2, 1000, 5000)]
    [1, 2, 4, 2000, 2000]
    >>> chunk_size(64, 0.02), chunk_size(64, 10.0)
    (12, 1)
    """
    size = 2 * largest if largest else 1
    if per_task is not None and per_task > 0:
        size = min(size, math.floor(CHUNK_SECONDS / per_task))
    return max(1, min(size, cap))


@dataclass
class _Chunk:
    first: int  # the position of its first task in the run
    tasks: list[Any]
    future: Any  # a distributed.Future
    outcome: _Outcome | None = field(default=None, repr=False)  # once it is done


@dataclass(frozen=True)
class _Outcome:
    """What a chunk gives back: the results (``(True, result)`` or, last, ``(False, error)``),
    the seconds its tasks took on the worker, and the worker's foursquare version."""

    results: list[tuple[bool, Any]]
    seconds: float
    version: str


class Cluster(contextlib.AbstractContextManager["Cluster"]):
    """A connection to a Dask scheduler (made by :func:`connect`); leaving it as a
    context manager closes it."""

    def __init__(self, address: str, client: Any) -> None:
        self.address = address
        self._client = client

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (the chunks of a run still going are cancelled first by :meth:`map`)."""
        with contextlib.suppress(Exception):  # (a lost scheduler: nothing left to close)
            self._client.close(timeout=5)

    def threads(self) -> int:
        """The worker threads of the cluster now (0 while no worker is connected).

        :raises WorkerError: when the connection is lost.
        """
        try:
            return sum(self._client.nthreads().values())
        except Exception as exc:
            raise WorkerError(self._lost(exc)) from None

    def map(self, fn: Callable[[T], R], tasks: Iterable[T], name: Callable[[T], str] | None = None,
            *, label: str | None = None) -> Iterator[R]:
        """``fn(task)`` for each task, in the order of ``tasks``, computed on the cluster (module doc).

        :param fn: a function defined at a module's top level of a package every
            worker has installed (it goes by name); its tasks, results and errors
            are pickled.
        :param tasks: any iterable, read lazily.
        :param name: how an error names a task (``deal 17``); default ``task N``.
        :param label: the word in the chunks' keys, which the cluster's dashboard shows
            (default: the function's name, ``solve_one``).
        :returns: an iterator; leaving it early cancels the chunks not yet done.
        :raises WorkerError: when ``fn`` raised for a task, once the results before it are out.
        :raises WorkerError: when the scheduler is lost, a chunk is given up (its
            workers died again and again), a worker runs another version of
            foursquare, or the cluster has no worker for :data:`NO_WORKER_SECONDS`.
        """
        run = _Run(self, fn, iter(tasks), label or getattr(fn, "__name__", "task").strip("_").replace("-", "_") or "task")
        try:
            while True:
                run.look()
                run.hand_out()
                while run.chunks and (outcome := run.chunks[0].outcome) is not None:  # the chunks done at the head, in order
                    chunk = run.chunks.popleft()  # (let go once read)
                    for number, (ok, value) in enumerate(outcome.results):
                        if not ok:
                            what = name(chunk.tasks[number]) if name is not None else f"task {chunk.first + number}"
                            text = str(value) if isinstance(value, FoursquareError) else f"{type(value).__name__}: {value}"
                            raise WorkerError(f"{what}: {text}")
                        yield value
                if not run.chunks and run.exhausted:
                    return
                if run.chunks:
                    run.wait()
        finally:  # the chunks not done cancelled (the caller left the run)
            left = [c.future for c in run.chunks if not c.future.done()]
            if left:
                with contextlib.suppress(Exception):  # (the scheduler gone: nothing runs for us there)
                    self._client.cancel(left, force=True)

    def _lost(self, exc: Exception) -> str:
        why = " (the tasks under way were cancelled)" if "cancelled" in str(exc).lower() else f": {_words(exc)}"
        return f"lost the connection to the Dask scheduler at {self.address}{why}"

    def _outcome(self, chunk: _Chunk) -> _Outcome:
        """The outcome of a finished chunk, or :class:`WorkerError` for a chunk the cluster gave up."""
        try:
            outcome = chunk.future.result()
        except Exception as exc:  # the chunk itself failed: its workers died, the connection went, ...
            tasks = f"tasks {chunk.first}-{chunk.first + len(chunk.tasks) - 1}"
            kind = type(exc).__name__
            if kind == "KilledWorker":
                raise WorkerError(f"the cluster gave up {tasks}: the workers that ran them died, again and again ({_words(exc)})") from None
            if kind in ("CancelledError", "FutureCancelledError", "CommClosedError", "StreamClosedError"):
                raise WorkerError(self._lost(exc)) from None  # (a closed stream: the scheduler went while the results were gathered)
            if isinstance(exc, (ImportError, AttributeError, pickle.UnpicklingError)) or "deserializ" in str(exc):
                raise WorkerError(
                    f"a worker of {self.address} cannot run foursquare's tasks ({kind}: {exc}); install foursquare on every worker"
                ) from None
            raise WorkerError(f"the cluster at {self.address} failed on {tasks}: {kind}: {_words(exc)}") from None
        if not isinstance(outcome, _Outcome):
            raise WorkerError(f"a worker of {self.address} gave back something other than results")
        if outcome.version != __version__:
            raise WorkerError(
                f"a worker of {self.address} runs foursquare {outcome.version}, this machine {__version__}: "
                "install the same version everywhere (results may differ between versions)"
            )
        return outcome


class _Run:
    """One run of :meth:`Cluster.map`: the chunks handed out, in order, not yet yielded,
    and what sizes the next chunk (module doc)."""

    def __init__(self, cluster: Cluster, fn: Callable[[Any], Any], tasks: Iterator[Any], word: str) -> None:
        self.cluster = cluster
        self.fn = fn
        self.tasks = tasks
        self.prefix = f"foursquare-{word}-{uuid.uuid4().hex[:16]}"  # keys unique per run
        self.chunks: deque[_Chunk] = deque()
        self.handed = 0  # tasks handed out
        self.exhausted = False
        self.largest = 0  # the largest chunk back so far
        self.per_task: float | None = None  # the seconds a task of the latest chunk back took
        self.threads, self.looked = cluster.threads(), time.monotonic()
        self.alone: float | None = None if self.threads else self.looked  # since when the cluster has had no worker

    def look(self) -> None:
        """Look at the cluster's size now and then: :class:`WorkerError` once it has had no worker too long."""
        if time.monotonic() - self.looked > LOOK_SECONDS:
            self.threads, self.looked = self.cluster.threads(), time.monotonic()
            self.alone = None if self.threads else self.alone or self.looked
        if self.alone is not None and self.looked - self.alone > NO_WORKER_SECONDS:
            raise WorkerError(
                f"the Dask scheduler at {self.cluster.address} has had no worker for {NO_WORKER_SECONDS:.0f} s "
                "(none started, or every one ended: see the workers' logs)"
            )

    def hand_out(self) -> None:
        """Hand out chunks while fewer than two per worker thread run and fewer than
        :data:`IN_FLIGHT` tasks wait."""
        running = sum(c.outcome is None for c in self.chunks)
        waiting = sum(len(c.tasks) for c in self.chunks)
        wanted = 2 * max(self.threads, 1)  # chunks running at a time
        while not self.exhausted and running < wanted and waiting < IN_FLIGHT:
            size = chunk_size(self.largest, self.per_task, min(MAX_CHUNK, max(1, IN_FLIGHT // wanted)))
            part = [task for _, task in zip(range(size), self.tasks, strict=False)]
            self.exhausted = len(part) < size
            if not part:
                break
            key = f"{self.prefix}-{self.handed}-{self.handed + len(part) - 1}"
            self.chunks.append(_Chunk(self.handed, part, self.cluster._client.submit(_run_chunk, self.fn, part, key=key, pure=False)))
            self.handed += len(part)
            running += 1
            waiting += len(part)

    def wait(self) -> None:
        """Wait a little for a chunk to finish (the head is not done: :meth:`Cluster.map` read those that were),
        and take in the outcomes of those done."""
        from distributed import wait  # type: ignore[import-not-found, unused-ignore]

        try:
            with self.cluster._client.as_current():  # (wait finds its client so)
                wait(  # type: ignore[no-untyped-call, unused-ignore]
                    [c.future for c in self.chunks if c.outcome is None], timeout=1.0, return_when="FIRST_COMPLETED"
                )
        except TimeoutError:
            return
        except Exception as exc:  # the connection went
            raise WorkerError(self.cluster._lost(exc)) from None
        for chunk in self.chunks:
            if chunk.outcome is None and chunk.future.done():
                chunk.outcome = outcome = self.cluster._outcome(chunk)
                if outcome.results:
                    self.largest = max(self.largest, len(outcome.results))
                    self.per_task = outcome.seconds / len(outcome.results)


def _run_chunk(fn: Callable[[Any], Any], tasks: list[Any]) -> _Outcome:
    """On a worker: ``fn`` over the tasks of one chunk, stopping at the first error
    (kept in its place, as a value that can be passed back)."""
    results: list[tuple[bool, Any]] = []
    start = time.perf_counter()
    for task in tasks:
        try:
            results.append((True, fn(task)))
        except Exception as exc:  # passed back as it is if it survives pickling, else as its text
            try:
                pickle.loads(pickle.dumps(exc))
            except Exception:
                exc = WorkerError(f"{type(exc).__name__}: {exc}")
            results.append((False, exc))
            break
    return _Outcome(results, time.perf_counter() - start, __version__)


def _words(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
