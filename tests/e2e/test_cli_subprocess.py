"""The real program as a subprocess: pipes, a reader that closes early, closed
stdin, Ctrl-C at the prompt, exit codes.  A focused set (each run starts Python)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest
from helpers import EXAMPLES, ROOT, on_a_terminal, wait_for

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def run(*args, input=None, stdin=None, timeout=60):
    return subprocess.run(
        [*COMMAND, *args], input=input, stdin=stdin, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=ENV
    )


def test_ctrl_c_while_the_command_line_loads_ends_quietly():
    # the console script (setup.cfg) and `python -m foursquare` start at run(), which
    # imports the CLI's modules (Click among them): a Ctrl-C then is no traceback
    hook = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'click':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from foursquare.__main__ import run\n"
        "run()\n"
    )
    done = subprocess.run([sys.executable, "-c", hook, "solve", "--deal", "1"], capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "Interrupted.\n")
    assert "foursquare.__main__:run" in (ROOT / "setup.cfg").read_text()
    # and nothing of the package loads before the guard (its names load on first use)
    loaded = "import sys, foursquare.__main__; print(sorted(m for m in sys.modules if m.startswith('foursquare')))"
    done = subprocess.run([sys.executable, "-c", loaded], capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV)
    assert done.stdout == "['foursquare', 'foursquare.__main__']\n"


def test_a_whole_game_piped_into_play():
    done = run("play", "--deal", "89", input=(EXAMPLES / "deal89.moves").read_text())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Won, score 4.\n")
    assert done.stderr == ""


def test_an_illegal_move_exits_1_with_one_line():
    done = run("play", "--deal", "1", input="d4\n# fine so far\ng7\n")
    assert done.returncode == 1
    assert done.stderr == "<stdin>:3: g7: not next to a pile (above, below or beside it)\n"


def test_closed_stdin_ends_quietly():
    done = run("play", "--deal", "1", stdin=subprocess.DEVNULL)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.startswith("Stopped after 0 cards placed")


def test_usage_error_exits_2_and_version_and_help_work():
    assert run("play", "--deal", "x", stdin=subprocess.DEVNULL).returncode == 2
    version = run("--version")
    assert version.returncode == 0 and "foursquare" in version.stdout
    helped = run("--help")
    assert all(name in helped.stdout for name in ("play", "replay", "state", "validate"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_keeps_the_recording(tmp_path):
    record = tmp_path / "game.yaml"
    process = subprocess.Popen(
        [*COMMAND, "play", "--interactive", "--deal", "1", "--record", str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    process.stdin.write(b"d4\ne4\n")
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until both moves are recorded
        if record.exists() and record.read_text().count("cell:") == 2:
            break
        time.sleep(0.05)
    time.sleep(0.2)  # at the prompt again
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert b"Traceback" not in err and b"Traceback" not in out
    assert b"Stopped after 2 cards placed" in out
    check = run("validate", str(record))
    assert check.returncode == 0, check.stderr


# ------------------------------------------------------------ closed stdin

def _close_stdin():
    os.close(0)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize(
    "args, code, out, err",
    [
        (["play", "--deal", "1"], 0, "Stopped after 0 cards placed", ""),
        (["play", "--deal", "1", "--interactive"], 0, "Stopped after 0 cards placed", ""),
        (["validate", "-"], 1, "<stdin>: invalid", "<stdin>"),
        (["replay", "-"], 1, "", "<stdin>:1: the file is empty"),
        (["state", "-"], 1, "", "<stdin>:1: the file is empty"),
        (["analyze", "-", "--no-bot"], 1, "", "<stdin>:1: the file is empty"),
        # an empty move script with a deal: the start of the deal
        (["replay", "-", "--deal", "1"], 0, "Result: playing (deal 1, 0 moves", ""),
    ],
)
def test_a_closed_stdin_reads_as_empty_input(args, code, out, err):
    """`foursquare ... <&-`: no stdin at all is the same as an empty one."""
    done = subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=60, cwd=ROOT, env=ENV, preexec_fn=_close_stdin
    )
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
    assert out in done.stdout
    assert err in done.stderr
    assert len(done.stderr.splitlines()) <= 1


# ------------------------------------------- a reader that closes early

#: A script whose output (grids drawn with `show`) is far more than a pipe holds.
LONG_SHOW = "d4\n" + "show\n" * 400


@pytest.mark.parametrize(
    "args, script, code, stderr",
    [
        (["play", "--deal", "1", "--verbose"], LONG_SHOW + "e4\n", 0, ""),
        (["play", "--deal", "1", "--verbose"], LONG_SHOW + "g7\n", 1, "<stdin>:402: g7: not next to a pile (above, below or beside it)\n"),
        (["play", "--deal", "1", "--verbose"], LONG_SHOW + "7H e4\n", 1, "<stdin>:402: the card drawn is 3C, not 7H\n"),
        (["play", "--deal", "1", "--interactive"], LONG_SHOW + "e4\n", 0, ""),
        (["play", "--deal", "1"], LONG_SHOW + "g7\n", 1, "<stdin>:402: g7: not next to a pile (above, below or beside it)\n"),
        (["replay", str(EXAMPLES / "lost.yaml")], "", 0, ""),
        # more output than a pipe holds (64 KiB), so the writer surely meets the closed pipe
        (["validate", "--format", "json", *[str(EXAMPLES / "won.yaml")] * 800], "", 0, ""),
    ],
)
def test_a_closed_pipe_silences_the_output_but_not_the_errors_or_the_status(args, script, code, stderr):
    """Like `foursquare play ... | head -1`: output stops, the command runs to its end
    (FORMATS.md: output piped into a closed reader ends quietly)."""
    process = subprocess.Popen(
        [*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    process.stdin.write(script.encode())
    process.stdin.close()
    first = process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == code
    assert first.strip()
    assert err == stderr  # no traceback, no "Exception ignored"


@pytest.mark.parametrize(
    "args, code",
    [
        (["validate", *[str(EXAMPLES / "won.yaml")] * 400, str(EXAMPLES / "invalid.yaml")], 1),
        (["validate", "--format", "json", *[str(EXAMPLES / "won.yaml")] * 400, str(EXAMPLES / "invalid.yaml")], 1),
        (["replay", "--format", "yaml", str(EXAMPLES / "lost.yaml")], 0),
    ],
)
def test_a_closed_pipe_keeps_the_status_of_every_command(args, code):
    process = subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == code
    assert first.strip()
    assert "Traceback" not in err and "Exception ignored" not in err
    if code == 1:
        assert "invalid.yaml:" in err  # the errors are still reported


# ------------------------------------------------------------------ SIGTERM

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("mode", ["--interactive", "--script"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM), signal.SIGINT])
def test_sigterm_keeps_the_recording_and_leaves_no_temporary_file(tmp_path, mode, signum):
    record = tmp_path / "game.yaml"
    process = subprocess.Popen(
        [*COMMAND, "play", mode, "--deal", "1", "--record", str(record), *(["--verbose"] if mode == "--script" else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    process.stdin.write(b"d4\ne4\n")
    process.stdin.flush()
    # both moves made: drawn on stdout ("Last move: 3C to e4")
    seen = b""
    while b"3C to e4" not in seen:
        line = process.stdout.readline()
        assert line, "the game ended early"
        seen += line
    time.sleep(0.2)  # waiting for the next line
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum
    assert b"Traceback" not in err
    assert b"Stopped after 2 cards placed" in out  # how far it got, at the prompt and in a script
    assert list(tmp_path.glob(".foursquare-*")) == []
    check = run("validate", str(record))
    assert check.returncode == 0, check.stderr
    assert record.read_text().count("cell:") == 2


def test_a_line_that_is_not_utf8_is_named_by_its_number():
    done = subprocess.run(
        [*COMMAND, "play", "--deal", "1"], input=b"d4\n3C e4 # caf\xe9\n", capture_output=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 1
    assert done.stderr.decode().startswith("<stdin>:2: not UTF-8 text")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals")
@pytest.mark.parametrize(
    "env, colour",
    [({"TERM": "xterm"}, True), ({"TERM": "dumb"}, False), ({"TERM": "xterm", "NO_COLOR": "1"}, False)],
)
def test_colour_on_a_terminal_unless_dumb_or_no_color(env, colour):
    base = {k: v for k, v in ENV.items() if k not in ("NO_COLOR", "TERM", "COLUMNS")}
    out = on_a_terminal(["play", "--deal", "1"], input=b"d4\nquit\n", streams=("stdin", "stdout"),
                        env={**base, **env, "COLUMNS": "40"}).terminal
    assert b"Stopped after 1 card placed" in out
    assert (b"\x1b[" in out) is colour
    import re

    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode("utf-8", "replace")).replace("\r", "")
    grid = [line for line in plain.splitlines() if re.match(r"^( [1-7] | +[a-g]( |$))", line)]
    assert len(grid) == 7 + 1 + 3 + 1  # the empty frame, then after d4: rows 3-5, headers
    assert max(len(line) for line in grid) <= 40  # the grid fits a 40-column terminal


# ------------------------------------------- signals: what is said and kept


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum, code, word", [(signal.SIGINT, 130, "Interrupted."), (signal.SIGTERM, 143, "Terminated.")])
def test_a_signal_at_the_prompt_ends_the_line_and_says_why(tmp_path, signum, code, word):
    process = subprocess.Popen(
        [*COMMAND, "play", "--interactive", "--deal", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, text=True,
    )
    process.stdin.write("d4\n")
    process.stdin.flush()
    seen = ""
    while not seen.endswith("3C> "):  # at the prompt again, for the second card (however slow the start)
        char = process.stdout.read(1)
        assert char, f"the game ended early: {seen!r}"
        seen += char
    time.sleep(0.2)  # waiting for the line
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == code
    assert err == f"{word}\n"
    assert out.startswith("\nStopped after 1 card placed")  # the prompt's line ("3C> ") ended first


def _lines(path):
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_an_interrupted_solve_keeps_the_deals_finished(tmp_path, signum, code, fmt):
    out_path, csv_path = tmp_path / "out", tmp_path / "out.csv"
    with open(out_path, "w") as out:  # a file: block-buffered unless the command flushes
        process = subprocess.Popen(
            [*COMMAND, "solve", "--deals", "0-9999999", "--jobs", "2", "--max-nodes", "3000", "--format", fmt,
             *(["-v"] if fmt == "text" else []), "--output", str(csv_path)],
            stdout=out, stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ), text=True,
        )
        assert wait_for(lambda: len(_lines(out_path)) >= 3 and len(_lines(csv_path)) >= 3)
        process.send_signal(signum)
        err = process.communicate(timeout=30)[1]
    assert process.returncode == code
    assert "Traceback" not in err and err.endswith(("Interrupted.\n", "Terminated.\n"))
    lines, rows = _lines(out_path), _lines(csv_path)
    assert rows[0].startswith("deal,status")
    if fmt == "json":
        records = [json.loads(line) for line in lines]
        deals = [r["deal"] for r in records[:-1]]
        assert deals == list(range(len(deals)))
        interrupted = records[-1]["interrupted"]
        assert interrupted["deals_done"] == len(deals)
        # an unknown deal (the node limit ran out) is done but not solved
        settled = sum(r["status"] != "unknown" for r in records[:-1])
        assert interrupted["deals_solved"] == settled and interrupted["deals_unknown"] == len(deals) - settled
        assert len(rows) - 1 == len(deals)
    else:
        assert lines[0].startswith("deal 0: ")
        assert any(line.startswith("interrupted: ") for line in lines)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("vs", [[], ["--vs", "random"]])
def test_an_interrupted_simulate_keeps_its_csv_rows(tmp_path, jobs, vs):
    csv_path = tmp_path / "int.csv"
    process = subprocess.Popen(
        [*COMMAND, "simulate", "--bot", "greedy", *vs, "--deals", "0-9999999", "--jobs", jobs, "--output", str(csv_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, text=True,
    )
    bots = ["greedy", "random"] if vs else ["greedy"]
    assert wait_for(lambda: len(_lines(csv_path)) >= 1 + 2 * len(bots))  # two whole deals at least
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in err
    rows = _lines(csv_path)
    assert rows[0].startswith("bot,deal,status,reason,score,moves,seconds,slowest_move_seconds,")  # (then the settings: cli/options.py)
    games = [row.split(",")[:2] for row in rows[1:] if row.count(",") == rows[0].count(",")]
    assert games == [[bots[i % len(bots)], str(i // len(bots))] for i in range(len(games))] and len(games) >= 2
    # the summary of the games played (on the deals every bot finished), as solve gives it
    lines = out.splitlines()
    played = int(lines[0].split()[1])
    assert lines[0] == f"interrupted: {played} of {10000000 * len(bots)} games played" and played == len(games)
    assert played % len(bots) == 0  # whole deals only, in the CSV as in the summary
    both = played // len(bots)
    assert lines[1] == f"greedy on deals 0-{both - 1}: {both} games"
    if vs:
        assert f"greedy minus random, paired over {both} deals (95% CI, normal approximation):" in lines


def _close_stderr():
    os.close(2)


def _stderr_into_a_closed_pipe(args) -> subprocess.CompletedProcess[bytes]:
    """The program run when the reader of its stderr is already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([*COMMAND, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=write, timeout=60, cwd=ROOT)
    finally:
        os.close(write)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")
@pytest.mark.parametrize(
    "args, code",
    [
        (["play", "--bogus"], 2),  # Click's usage errors
        (["solve", "--deal", "x"], 2),
        (["solve", "--deal", "05"], 2),
        (["hint", "--bot", "nobody"], 2),
        (["nosuchcommand"], 2),
        (["plya"], 2),  # "did you mean"
        ([], 2),
        (["validate", str(EXAMPLES / "invalid.yaml")], 1),  # our own errors
        (["replay", str(EXAMPLES / "won.yaml")], 0),
    ],
)
def test_a_closed_or_unread_stderr_keeps_the_status(args, code):
    """`2>&-` and `2>&1 | head -0`: the message is lost, the status is not, and a
    usage error prints nothing on stdout instead."""
    closed = subprocess.run(
        [*COMMAND, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, timeout=60, cwd=ROOT, preexec_fn=_close_stderr
    )
    unread = _stderr_into_a_closed_pipe(args)
    assert closed.returncode == unread.returncode == code
    if code == 2:
        assert closed.stdout == unread.stdout == b""
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = subprocess.run([*COMMAND, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=full, timeout=60, cwd=ROOT)
        assert done.returncode == code


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [["--help"], ["--version"], ["play", "--help"], ["state", "--deal", "1"], ["validate", "examples/won.yaml"],
     ["replay", "examples/won.yaml"], ["solve", "--deal", "1"]],
)
def test_output_to_a_full_disk_is_one_line_and_status_1(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run([*COMMAND, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr == "<stdout>: No space left on device (the disk is full)\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX devices")
@pytest.mark.parametrize(
    "args, message",
    [
        # NUL bytes are binary: said at the first block read
        (["validate", "/dev/zero"], "/dev/zero:1: a binary file, not text"),
        (["replay", "-", "--deal", "1"], "<stdin>:1: a binary file, not text"),
        (["play", "--deal", "1"], "<stdin>:1: a binary file, not text"),
        (["play", "--deal", "1", "--interactive"], "<stdin>:1: a binary file, not text"),
        (["play", "--deck", "/dev/zero"], "/dev/zero:1: a binary file, not text"),
    ],
)
def test_an_endless_input_ends_with_an_error_not_an_exhausted_memory(args, message):
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([*COMMAND, *args], stdin=zero, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_an_endless_text_input_ends_with_too_large():
    """Endless text (comment lines: no game ends) stops at the size limit."""
    feed = subprocess.Popen([sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('# x\\n' * 4096)"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        done = subprocess.run([*COMMAND, "validate", "-"], stdin=feed.stdout, capture_output=True, text=True,
                              timeout=120, cwd=ROOT)
    finally:
        feed.kill()
        feed.wait()
    assert done.returncode == 1
    line = 64 * 1024 * 1024 // 4 + 1  # where the limit was passed: 4 bytes a line
    assert f"<stdin>:{line}: too large: over 64 MiB" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize("args", [["play", "--deal", "1", "--no-history"], ["play", "--deal", "1", "--interactive"], ["replay", "-"]])
def test_a_pipe_of_blank_lines_past_the_size_limit_is_refused_at_the_limit(args):
    """The limit is counted in bytes as the input is read, before its lines are acted on:
    a writer of endless blank lines (short lines, the most of them) is refused where the
    limit is passed, as every reader refuses it, never after acting on each line."""
    feed = subprocess.Popen([sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'\\n' * 65536)"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        done = subprocess.run([*COMMAND, *args], stdin=feed.stdout,
                              capture_output=True, text=True, timeout=300, cwd=ROOT, env=ENV)
    finally:
        feed.kill()
        feed.wait()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line = 64 * 1024 * 1024 + 1  # one byte a line
    assert f"<stdin>:{line}: too large: over 64 MiB, more than any game file holds" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_a_move_script_piped_past_the_size_limit_is_refused_at_its_line_after_its_moves(tmp_path):
    """play's stdin has the one limit of every input: a writer that would send more is
    refused at the line where the limit is passed, the moves before it played and kept."""
    comment = "#" * 1023 + "\n"  # long lines: few of them to play
    feed = subprocess.Popen(
        [sys.executable, "-c", f"import sys\nsys.stdout.write('d4\\ne4\\n')\nwhile True: sys.stdout.write({comment!r})"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    record = tmp_path / "r.yaml"
    try:
        done = subprocess.run([*COMMAND, "play", "--deal", "1", "--no-history", "--record", str(record)],
                              stdin=feed.stdout, capture_output=True, text=True, timeout=300, cwd=ROOT, env=ENV)
    finally:
        feed.kill()
        feed.wait()
    assert done.returncode == 1
    line = 2 + (64 * 1024 * 1024 - 6) // 1024 + 1
    assert done.stderr.splitlines()[-1] == f"<stdin>:{line}: too large: over 64 MiB, more than any game file holds"
    assert "Traceback" not in done.stderr
    held = record.read_text(encoding="utf-8")
    assert '"d4"' in held and '"e4"' in held


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_solve_interrupted_before_its_first_deal_still_says_so(fmt, tmp_path):
    # deal 325 takes minutes: Ctrl-C comes before any deal is finished, once the sweep has
    # begun (its CSV header is written: an event, where a fixed sleep of 1.5 s came before
    # the command started on a loaded machine)
    rows = tmp_path / "rows.csv"
    process = subprocess.Popen(
        [*COMMAND, "solve", "--deals", "325-326", "--format", fmt, "--output", rows],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ), text=True,
    )
    try:
        deadline = time.monotonic() + 120  # (a safety net: the header comes long before)
        while not (rows.exists() and rows.read_text().startswith("deal,")) and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and "Traceback" not in err
    if fmt == "json":
        assert json.loads(out.splitlines()[-1])["interrupted"] == {"deals_solved": 0, "deals_unknown": 0, "deals_done": 0, "deals_asked": 2}
    else:
        assert out.splitlines()[:2] == ["interrupted: 0 of 2 deals done (0 settled, 0 unknown)", "deals: 0; settled: 0 (solved 0, no win 0); unknown: 0"]


def _cpu_seconds_of_the_group(group: int) -> dict[int, float]:
    """The CPU seconds (user and system) of each process of process group ``group`` but
    its leader, from Linux's ``/proc/PID/stat``."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == group:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except OSError:  # (gone meanwhile)
            continue
        if int(fields[2]) == group:  # fields from the state on: state, ppid, pgrp, ...
            out[int(name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (getattr(signal, "SIGHUP", signal.SIGTERM), 128 + getattr(signal, "SIGHUP", signal.SIGTERM))])
@pytest.mark.parametrize("deals", ["325-326", "0-9999999"])
def test_a_signal_to_the_whole_process_group_ends_a_batch_with_workers(tmp_path, signum, code, deals):
    # `timeout`, a closed terminal and service managers signal every process of the
    # group, the workers too: the command still stops them and ends at once.
    process = subprocess.Popen(
        [*COMMAND, "solve", "--deals", deals, "--jobs", "2", "--max-nodes", "3000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ), text=True,
        start_new_session=True,
    )
    # the workers are busy (325, its search's 3 s) or between short deals: a worker has
    # spent a second of CPU time, its start-up (a fraction of that) long past (elsewhere
    # than Linux: 2 s of wall time)
    if os.path.isdir(f"/proc/{process.pid}"):
        assert wait_for(lambda: max(_cpu_seconds_of_the_group(process.pid).values(), default=0.0) >= 1.0)
    else:
        time.sleep(2.0)
    os.killpg(process.pid, signum)
    try:
        err = process.communicate(timeout=30)[1]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == code
    assert "Traceback" not in err and err.endswith("Terminated.\n")


_A_WORKER_DIES = """
import os, signal, sys, time
import {module} as command

real = command.{task}

def dies_at_deal_6(task):  # as kill -9, or the kernel when memory runs out
    if task[{at}] == 6:
        time.sleep(0.5)  # (the deals before it are done by then)
        os.kill(os.getpid(), signal.SIGKILL)
    return real(task)

command.{task} = dies_at_deal_6
from foursquare.__main__ import run
sys.argv = ["foursquare", *sys.argv[1:]]
run()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "module, task, at, args, kept",
    [
        ("foursquare.solver.batch", "_solve_one", 0, ["solve", "--deals", "0-40", "--max-nodes", "3000"], "interrupted: {} of 41 deals done"),
        ("foursquare.bots.simulate", "_play_task", 1, ["simulate", "--bot", "greedy", "--deals", "0-40"], "interrupted: {} of 41 games played"),
    ],
)
def test_a_worker_killed_mid_batch_is_one_error_line_after_the_summary(tmp_path, module, task, at, args, kept):
    # (a process pool waited for ever for the dead worker's result)
    csv_path = tmp_path / "out.csv"
    process = subprocess.run(
        [sys.executable, "-c", _A_WORKER_DIES.format(module=module, task=task, at=at), *args, "--jobs", "2", "--output", str(csv_path)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=ENV,
    )
    assert process.returncode == 1
    assert process.stderr.endswith("a worker process was killed by SIGKILL before it finished its task\n")
    assert "Traceback" not in process.stderr
    rows = _lines(csv_path)[1:]
    assert [row.split(",")[0 if module.endswith("batch") else 1] for row in rows] == [str(d) for d in range(6)]  # the deals before the lost one
    assert kept.format(len(rows)) in process.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.1, 0.5])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_second_ctrl_c_does_not_cut_the_clean_up_short(tmp_path, delay, jobs):
    # an impatient user presses Ctrl-C twice: the second one met Click's own handler
    # ("Aborted!", status 1) or cut the summary short
    csv_path = tmp_path / "out.csv"
    process = subprocess.Popen(
        [*COMMAND, "simulate", "--bot", "greedy", "--deals", "0-999999", "--jobs", jobs, "--output", str(csv_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
    )
    # (from the CSV's header on: Python's own start-up, before the command's code runs, is past)
    assert wait_for(lambda: csv_path.exists() and csv_path.stat().st_size > 0)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    time.sleep(0.002)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, err[-13:]) == (130, "Interrupted.\n"), err
    assert "Aborted" not in err and "Traceback" not in err
    assert f"interrupted: {len(_lines(csv_path)) - 1} of 1000000 games played" in out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize("shown", [["--format", "json"], ["-v"]])
def test_a_batch_that_also_writes_a_csv_file_completes_it_when_the_reader_of_stdout_leaves(tmp_path, shown):
    # (the run stopped at the reader's leaving, exit 0, with the CSV cut short and nothing said)
    csv_path = tmp_path / "deals.csv"
    err = _reader_leaves_after_one_line(["solve", "--deals", "0-299", "--max-nodes", "2000", *shown, "--output", str(csv_path)])
    assert "Traceback" not in err
    assert [row.split(",")[0] for row in _lines(csv_path)[1:]] == [str(d) for d in range(300)]


def _reader_leaves_after_one_line(args: list[str]) -> str:
    """Run ``foursquare ARGS``, read one line of stdout and close it (as ``| head -1``
    does); check that the command ends, with status 0; what it said on stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # the reader leaves, as head does
    try:
        code = process.wait(timeout=120)
    finally:
        process.kill()
    err = process.stderr.read().decode()
    assert first and code == 0, err
    return err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize(
    "args, said",
    [
        (["solve", "--deals", "0-999999", "--max-nodes", "2000", "--output", "-"], "interrupted: "),
        (["solve", "--deals", "0-999999", "--max-nodes", "2000", "--format", "json"], ""),
        (["simulate", "--bot", "greedy", "--deals", "0-999999", "--output", "-"], "interrupted: "),
    ],
)
def test_a_batch_whose_results_go_to_stdout_stops_when_the_reader_leaves(args, said):
    # (| head -2 left the batch running to its end: minutes, or until a timeout killed it)
    err = _reader_leaves_after_one_line(args)
    assert "Traceback" not in err and said in err


# ----------------------------------------------------------------------------
# The summary of a batch whose results go to stdout (``simulate --output -``,
# ``solve --deals --output -``, ``solve --deals --format json``) when the reader closes
# early (``| head -N``): it counts the deals whose results the reader got, not the one
# whose result went into the closed pipe (``head -1`` of the CSV: the header only, so no
# deal; it used to say ``deals 0: 1 game``).


#: Linux has pipes of one write (``O_DIRECT`` packet mode, ``F_SETPIPE_SZ``): see :func:`_head`.
LINUX_PIPES = sys.platform.startswith("linux")


def _head(args: list[str], lines: int) -> tuple[int, list[str], str]:
    """Run ``foursquare ARGS | head -LINES``: the command's status, the lines head got, its stderr.

    The reader leaves at a moment fixed by construction, not by the command's speed:
    stdout is a pipe in packet mode with room for one write (Linux: ``O_DIRECT``, one
    page), so the command's next row waits in ``write`` until the last line this reader
    takes is read.  Before reading that line the reader stops the command (SIGSTOP,
    and waits until it is stopped), reads it, closes the pipe and lets the command go
    on (SIGCONT): the next row goes into a pipe whose reader is gone.  Elsewhere the
    reader reads its lines and closes the pipe, as before (a race the command's slow
    rows win: :data:`QUICK` is empty there)."""
    if not LINUX_PIPES:
        return _head_by_readline(args, lines)
    read, write = os.pipe2(os.O_DIRECT)
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    try:
        process = subprocess.Popen(["nice", "-n", "10", *COMMAND, *args], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    finally:
        os.close(write)
    assert process.stderr is not None
    try:
        data = b""
        while data.count(b"\n") < lines - 1:
            data += os.read(read, 65536)  # one write of the command's (one row)
        select.select([read], [], [])  # the last line is written, the next one cannot be yet
        process.send_signal(signal.SIGSTOP)
        os.waitpid(process.pid, os.WUNTRACED)
        data += os.read(read, 65536)
    finally:
        os.close(read)  # the reader leaves, as head does
        process.send_signal(signal.SIGCONT)
    err = process.stderr.read().decode()
    return process.wait(timeout=120), data.decode().splitlines(keepends=True), err


def _head_by_readline(args: list[str], lines: int) -> tuple[int, list[str], str]:
    """:func:`_head` where pipes of one write are missing: read the lines, then close."""
    process = subprocess.Popen(
        ["nice", "-n", "10", *COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV
    )
    assert process.stdout is not None and process.stderr is not None
    got = [process.stdout.readline().decode() for _ in range(lines)]
    process.stdout.close()  # the reader leaves, as head does
    err = process.stderr.read().decode()
    return process.wait(timeout=120), got, err


#: The deep bot's work per deal: small where the reader leaves by construction (its speed
#: does not matter there); its default elsewhere, so that its next row comes well after.
QUICK = ["--nodes", "2000"] if LINUX_PIPES else []

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")


def _into_a_gone_reader(args: list[str]) -> tuple[int, str]:
    """Run the command with stdout a pipe whose reader is already gone (``| head -0``): its status and stderr."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(["nice", "-n", "10", *COMMAND, *args], stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, timeout=120)
    finally:
        os.close(write)
    return done.returncode, done.stderr.decode()


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_simulate_counts_only_the_rows_read(fmt):
    # the second row is written after the reader left (on Linux by construction: see _head)
    code, got, err = _head(["simulate", "--bot", "deep", "--deals", "0-3", *QUICK, "--output", "-", "--format", fmt], 2)
    assert code == 0 and "Traceback" not in err
    assert got[0].startswith("bot,deal,") and got[1].startswith("deep,0,")
    read = len(got) - 1  # the rows the reader got (the header aside)
    if fmt == "json":
        summary = json.loads(err)
        assert summary["interrupted"]["games_played"] == read
        assert summary["games"] == read and summary["deals"] == "0"
    else:
        assert f"interrupted: {read} of 4 games played" in err
        if fmt == "text":
            assert "deep on deals 0: 1 game\n" in err


@pytest.mark.parametrize("vs", [[], ["--vs", "random"]])
def test_simulate_into_a_gone_reader_plays_no_deal(vs):
    code, err = _into_a_gone_reader(["simulate", "--bot", "greedy", *vs, "--deals", "0-3", "--output", "-"])
    assert code == 0
    assert err == f"interrupted: 0 of {4 * (1 + len(vs) // 2)} games played\n"  # no "on deals 0": no row was read


def test_solve_into_a_gone_reader_solves_no_deal():
    code, err = _into_a_gone_reader(["solve", "--deals", "0-9", "--output", "-"])
    assert code == 0 and "Traceback" not in err
    assert err.startswith("interrupted: 0 of 10 deals done")
    assert "deals: 1" not in err


def test_solve_json_lines_into_a_gone_reader_end_quietly():
    code, err = _into_a_gone_reader(["solve", "--deals", "0-9", "--format", "json"])
    assert code == 0 and err == ""


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
@pytest.mark.parametrize(
    "args, label",
    [(["analyze", str(EXAMPLES / "won.yaml"), "--no-bot", "--max-nodes", "500"], b"analyzing"),
     (["solve", "--deals", "0-3", "--max-nodes", "500"], b"solving")],
)
def test_a_long_command_draws_progress_on_a_terminal_only(args, label):
    import subprocess

    run = on_a_terminal(args, streams=("stderr",))
    code, out, terminal = run.status, run.stdout, run.terminal
    assert code == 0
    assert label in terminal and b"100%" in terminal and label not in out
    piped = subprocess.run([sys.executable, "-m", "foursquare", *args], capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout.splitlines()[0] == out.splitlines()[0]


_CTRL_C_AS_CLICK_STARTS = """
import signal, sys
import click.core

# a Ctrl-C as Click starts, before any command's own boundary (its shell-completion check)
click.core.Command._main_shell_completion = lambda *args, **kwargs: signal.raise_signal(signal.SIGINT)
from foursquare.__main__ import run
sys.argv = ["foursquare", "validate", "-"]
run()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_ctrl_c_while_click_starts_is_interrupted_not_a_traceback():
    # (between the modules loaded and a command's boundary, a Ctrl-C left a traceback)
    done = subprocess.run([sys.executable, "-c", _CTRL_C_AS_CLICK_STARTS], input="", capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=ENV)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "Interrupted.\n")


_SIGTERM_AS_THE_COMMAND_ENDS = """
import signal, sys
import foursquare.cli.boundary as boundary

real = boundary.restore_handlers

def struck(handlers):  # a SIGTERM as the command's boundary puts the handlers back
    signal.raise_signal(signal.SIGTERM)
    real(handlers)

boundary.restore_handlers = struck
from foursquare.__main__ import run
sys.argv = ["foursquare", "validate", "examples/won.yaml"]
run()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_sigterm_as_the_command_ends_is_said_terminated():
    # (caught by the boundary's handler, but struck in its finally: status 143 and nothing said)
    done = subprocess.run([sys.executable, "-c", _SIGTERM_AS_THE_COMMAND_ENDS], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=ENV)
    assert done.returncode == 143 and done.stderr.splitlines()[-1:] == ["Terminated."], done.stderr
