"""What several test modules share: the repository's paths, the command line run
in-process or on a pseudo-terminal, the conformance games, a game played from a list of cells.

Import it as ``from helpers import ...``: ``tests/`` is on ``sys.path`` (pytest puts
the folder of ``conftest.py`` there, and ``conftest.py`` makes sure of it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

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
