"""What several test modules share: the repository's paths, the command line run
in-process or on a pseudo-terminal, the conformance games, a game played from a list of cells.

Import it as ``from helpers import ...``: ``tests/`` is on ``sys.path`` (pytest puts
the folder of ``conftest.py`` there, and ``conftest.py`` makes sure of it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import click.testing
from click.testing import Result

from foursquare.cli import main
from foursquare.engine.game import Game

#: The repository's root folder (README.md, setup.cfg, examples/, tests/).
ROOT = Path(__file__).parent.parent
#: The example files of examples/README.md.
EXAMPLES = ROOT / "examples"
#: The test data: conformance games, golden renderings, format samples.
DATA = ROOT / "tests" / "data"
#: One conformance game a line (JSON): id, deal, moves (cells), final status and score.
CONFORMANCE = DATA / "conformance_games.jsonl"


#: Click before 8.2 (setup.cfg's floor is 8.1), whose CliRunner mixes stderr into stdout
#: unless ``mix_stderr=False`` (an argument that Click 8.2 removed).
_CLICK_MIXES_STDERR = "mix_stderr" in click.testing.CliRunner.__init__.__code__.co_varnames
#: Click before 8.3.2, whose CliRunner lets the command close the streams it captures
#: (a command that closes ``sys.stdout`` loses the output to ``Result``).
_CLICK_CLOSES_CAPTURE = "close" not in vars(click.testing._NamedTextIOWrapper)


class _BytesCopy(io.BytesIO):
    """A stream that also copies what it is written to ``copy_to`` (Click 8.2's ``BytesIOCopy``)."""

    def __init__(self, copy_to: io.BytesIO) -> None:
        super().__init__()
        self.copy_to = copy_to

    def flush(self) -> None:
        super().flush()
        self.copy_to.flush()

    def write(self, b: Any) -> int:
        self.copy_to.write(b)
        return super().write(b)


class _Capture(click.testing._NamedTextIOWrapper):
    """Click 8.3.2's capturing text stream: closing it leaves its buffer open."""

    def close(self) -> None:
        pass


class CliRunner(click.testing.CliRunner):
    """Click's CliRunner as the newest Click has it, on every Click from 8.1: ``result.stdout``
    and ``result.stderr`` each hold their stream, ``result.output`` both in the order
    written (as a user sees them), and a command that closes ``sys.stdout`` leaves what it
    wrote in the result.

    Click 8.1 has either the streams mixed (its default: ``result.stderr`` raises
    ``ValueError``) or apart (``mix_stderr=False``: ``result.output`` is stdout alone);
    here it keeps them apart and a copy of both, as Click 8.2's runner does.  Use it (or
    :func:`invoke`) rather than ``click.testing.CliRunner`` in the tests."""

    def __init__(self, **kwargs: Any) -> None:
        if _CLICK_MIXES_STDERR:
            kwargs.setdefault("mix_stderr", False)
        super().__init__(**kwargs)
        self._mixed: io.BytesIO | None = None

    @contextlib.contextmanager
    def isolation(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        with super().isolation(*args, **kwargs) as streams:
            if not _CLICK_CLOSES_CAPTURE:
                yield streams
                return
            if _CLICK_MIXES_STDERR:
                self._mixed = io.BytesIO()
                streams = (_BytesCopy(self._mixed), _BytesCopy(self._mixed))
            old_stdout, old_stderr = sys.stdout, sys.stderr
            sys.stdout = _Capture(streams[0], encoding=self.charset, name="<stdout>", mode="w")
            # written through: Click 8.1's invoke flushes only stdout before it reads the streams
            sys.stderr = _Capture(streams[1], encoding=self.charset, name="<stderr>", mode="w", errors="backslashreplace", write_through=True)
            try:
                yield streams
            finally:
                sys.stdout, sys.stderr = old_stdout, old_stderr

    def invoke(self, *args: Any, **kwargs: Any) -> Result:
        result = super().invoke(*args, **kwargs)
        if self._mixed is not None:
            result.__class__ = _MixedResult
            result.output_bytes = self._mixed.getvalue()
            self._mixed = None
        return result


class _MixedResult(Result):
    """Click 8.1's Result with Click 8.2's ``output``: stdout and stderr in the order written."""

    output_bytes: bytes

    @property
    def output(self) -> str:
        return self.output_bytes.decode(self.runner.charset, "replace").replace("\r\n", "\n")


def play_moves(game: Game, cells: Iterable[str]) -> Game:
    """Play each cell in turn on ``game`` and return it."""
    for cell in cells:
        game.play(cell)
    return game


def invoke(args: Sequence[object], input: str | bytes | None = None, **kwargs: Any) -> Result:
    """Run ``foursquare ARGS...`` in-process through Click's CliRunner.

    ``args`` are the words after ``foursquare`` (each passed through ``str``, so a
    ``Path`` may stand for a file name); ``input`` is what stdin holds (none: empty).
    Exceptions other than ``SystemExit`` are raised, not caught, unless
    ``catch_exceptions=True`` is given; other keywords go to ``CliRunner.invoke``.
    Returns Click's ``Result`` (``exit_code``, ``stdout``, ``stderr``, ``output``).
    """
    kwargs.setdefault("catch_exceptions", False)
    return CliRunner().invoke(main, [str(arg) for arg in args], input=input, **kwargs)


def conformance_records() -> list[dict[str, Any]]:
    """Every conformance game (a fresh list of fresh dicts each call: a test may change them)."""
    return [json.loads(line) for line in CONFORMANCE.read_text(encoding="utf-8").splitlines() if line.strip()]


def conformance_record(deal: int) -> dict[str, Any]:
    """The first conformance game of deal number ``deal``; ``LookupError`` if none."""
    for record in conformance_records():
        if record["deal"] == deal:
            return record
    raise LookupError(deal)


def cells(deal: int, n: int) -> list[str]:
    """The first legal cell, ``n`` times (fewer when the game ends first)."""
    game = Game.from_deal(deal)
    out = []
    while len(out) < n and not game.is_over:
        cell = str(game.legal_cells()[0])
        game.play(cell)
        out.append(cell)
    return out


def play(game: Game, cells: Iterable[Any]) -> Game:
    """Play ``cells`` (like ``"d4"``) on ``game`` one by one, in place, and return it."""
    for cell in cells:
        game.play(cell)
    return game


@dataclass
class TerminalRun:
    """What :func:`on_a_terminal` saw: the exit status, what the pseudo-terminal got
    (carriage returns kept), and the streams that went to pipes (``b""`` for those on
    the terminal)."""

    status: int
    terminal: bytes
    stdout: bytes
    stderr: bytes


def on_a_terminal(
    args: Sequence[str],
    *,
    input: bytes = b"",
    streams: Sequence[str] = ("stdin", "stdout", "stderr"),
    columns: int | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | str = ROOT,
    timeout: float = 120,
) -> TerminalRun:
    """Run ``python -m foursquare ARGS`` with ``streams`` on one pseudo-terminal
    (``columns`` wide when given) and the others on pipes (stdin: empty); ``input`` is
    typed at the terminal.  Reads until the program closes its end of the terminal.
    POSIX only."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    if columns is not None:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    on = set(streams)
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare", *args],
        stdin=slave if "stdin" in on else subprocess.DEVNULL,
        stdout=slave if "stdout" in on else subprocess.PIPE,
        stderr=slave if "stderr" in on else subprocess.PIPE,
        cwd=cwd,
        env=None if env is None else dict(env),
    )
    os.close(slave)
    if input:
        os.write(master, input)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the program closed its end of the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out, err = process.communicate(timeout=timeout)
    return TerminalRun(process.returncode, seen, out or b"", err or b"")


def one_line_error(result: Result, code: int) -> str:
    """The one error line of ``result``, a failure of status ``code`` without a traceback."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error") or code == 1]
    assert len(lines) == 1, result.stderr
    assert len(lines[0]) < 300, lines[0]
    return lines[0]


def wait_for(predicate: Callable[[], object], seconds: float = 60.0, step: float = 0.05) -> bool:
    """Whether ``predicate()`` came true within ``seconds`` (asked every ``step`` seconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def history_file() -> str:
    """The game history's file in the test's own data folder (FOURSQUARE_HOME)."""
    return os.path.join(os.environ["FOURSQUARE_HOME"], "history.sqlite3")


def moves_in(path: Path) -> int:
    """How many moves the game file at ``path`` holds."""
    from foursquare.formats.inputs import read_source
    from foursquare.formats.loading import load_input

    text, name = read_source(str(path))
    return len(load_input(text, name).moves)


def commands() -> dict[str, click.Command]:
    """Every command of the command line, by its name."""
    ctx = click.Context(main)
    return {name: command for name in main.list_commands(ctx) if (command := main.get_command(ctx, name)) is not None}


def mount_tmpfs(folder: Path, size: str) -> bool:
    """Mount a tmpfs of ``size`` on ``folder`` (root only); whether it was done."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


def fill_disk(folder: Path, pid: int) -> Path:
    """Fill the file system of ``folder`` to the last byte; the file that fills it.

    First it waits until process ``pid`` (the program under test, idle) holds open no
    file of ``folder`` that is already deleted: the space of such a file (the old
    inode of a file just replaced, a journal just removed) comes free only when it is
    closed, and would then leave room after the fill."""
    def holds_a_deleted_file() -> bool:
        links = []
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):  # (an fd closed meanwhile)
                links.append(os.readlink(fd))
        return any(link.startswith(f"{folder}/") and link.endswith(" (deleted)") for link in links)

    assert wait_for(lambda: not holds_a_deleted_file()), f"process {pid} holds a deleted file of {folder}"
    filler = folder / "filler"
    for size in (1024, 1):
        with contextlib.suppress(OSError), open(filler, "ab", buffering=0) as out:
            while True:
                out.write(b"\0" * size)
    return filler


#: The first deal that a gated process holds back (:func:`gated_prelude`).
GATED_FROM = 20


def gated_prelude(gate: Path) -> str:
    """Python that makes a process hold its work on the deals from :data:`GATED_FROM` on
    until the file ``gate`` exists (the deals before go as usual, and a deal held comes
    out as it would have): for the tests that must stop a run while it is still going,
    so that the run cannot end before the test lets it, however fast or loaded the
    machine.  It gates :func:`foursquare.solver.search.solve_deal` (``solve``) and
    :func:`foursquare.bots.simulate.play_game` (``simulate``) where the workers call
    them.  A Dask worker runs it as a ``--preload``; a local run as the
    ``sitecustomize`` of its processes (:func:`gated_environment`).  It may run twice in
    a process: it takes the library's own functions each time."""
    return (
        "import os, time\n"
        "import foursquare.bots.simulate as simulate\n"
        "import foursquare.solver.batch as batch\n"
        "from foursquare.solver.search import solve_deal\n"
        "from foursquare.bots.simulate import play_game\n"
        "def wait(deal):\n"
        f"    while deal >= {GATED_FROM} and not os.path.exists({str(gate)!r}):\n"
        "        time.sleep(0.01)\n"
        "def held_solve(deal, *args, **kwargs):\n"
        "    wait(deal)\n"
        "    return solve_deal(deal, *args, **kwargs)\n"
        "def held_game(bot, deal, *args, **kwargs):\n"
        "    wait(deal)\n"
        "    return play_game(bot, deal, *args, **kwargs)\n"
        "batch.solve_deal = held_solve\n"
        "simulate.play_game = held_game\n"
    )


def gated_environment(folder: Path, gate: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` for a command whose processes (its workers too, however started) run
    :func:`gated_prelude` first: a ``sitecustomize.py`` in ``folder``, put first on
    ``PYTHONPATH``."""
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(gated_prelude(gate))
    return dict(env, PYTHONPATH=os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH")) if p))
