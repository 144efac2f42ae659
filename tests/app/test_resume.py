"""Resumable sweeps (cli/options.py): ``--output FILE.csv --resume`` continues a CSV
that stopped partway, skipping the deals in it, after checking that the file was
written with this run's settings; the finished file is an uninterrupted run's
(but for the measured seconds)."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys

import pytest
from helpers import ROOT, gated_environment, invoke, wait_for

from foursquare.app.files import claim

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
SOLVE = ["solve", "--max-nodes", "500"]
SIMULATE = ["simulate", "--bot", "greedy", "--vs", "random"]


def without_seconds(text: str) -> list[list[str]]:
    """A CSV's rows with the measured times (the columns two runs never share) left out."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    keep = [i for i, column in enumerate(rows[0]) if column not in ("seconds", "slowest_move_seconds")]
    return [[row[i] for i in keep] for row in rows]


def summary_without_times(value):
    """A JSON summary with its measured times left out."""
    if isinstance(value, dict):
        return {k: summary_without_times(v) for k, v in value.items() if "seconds" not in k}
    if isinstance(value, list):
        return [summary_without_times(v) for v in value]
    return value


def _rows(path) -> int:
    try:
        return path.read_bytes().count(b"\n") - 1
    except FileNotFoundError:
        return -1


def _uninterrupted(tmp_path, args, name="whole.csv"):
    path = tmp_path / name
    result = invoke([*args, "--output", path])
    assert result.exit_code == 0, result.output
    return path.read_bytes().decode(), result


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "args",
    [[*SOLVE, "--deals", "0-59"], pytest.param([*SIMULATE, "--deals", "0-299"], marks=pytest.mark.slow)],
    ids=["solve", "simulate"],
)
def test_a_run_stopped_by_ctrl_c_resumes_to_the_file_of_an_uninterrupted_run(tmp_path, args):
    path = tmp_path / "sweep.csv"
    # the stopped run's processes hold the later deals (its gate never opens), so that it
    # is still going when Ctrl-C comes; the resumed run is not gated
    gated = gated_environment(tmp_path / "gated", tmp_path / "gate", ENV)
    process = subprocess.Popen([*COMMAND, *args, "--output", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT, env=gated, text=True)
    assert wait_for(lambda: _rows(path) >= 5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err
    kept = _rows(path)
    total = 60 if args[0] == "solve" else 600
    assert 5 <= kept < total  # stopped partway
    resumed = subprocess.run([*COMMAND, *args, "--output", str(path), "--resume", "--format", "json"],
                             capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    what = "deals" if args[0] == "solve" else "games"
    assert f"resuming {path}: {kept} of {total} {what} done already" in resumed.stderr
    text, whole = _uninterrupted(tmp_path, [*args, "--format", "json"])
    assert without_seconds(path.read_bytes().decode()) == without_seconds(text)
    # the summary counts every deal of the file, the ones of the first run too
    mine, theirs = resumed.stdout.splitlines()[-1], whole.stdout.splitlines()[-1]
    if args[0] == "simulate":
        mine, theirs = resumed.stdout, whole.stdout
    assert summary_without_times(json.loads(mine)) == summary_without_times(json.loads(theirs))


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-19"], [*SIMULATE, "--deals", "0-29"]], ids=["solve", "simulate"])
def test_a_last_line_cut_short_by_a_crash_is_written_again(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    assert lines[-1] == ""  # every line ends with the CSV's line end, the last too
    for cut in (len("\r\n".join(lines[:8])) + 1, len("\r\n".join(lines[:8])) + 6, len("\r\n".join(lines[:8])) - 3):
        path = tmp_path / "crashed.csv"
        path.write_bytes(text.encode()[:cut])  # half of a row, or a row without its line end
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 0, result.output
        assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


def test_a_deal_that_not_every_bot_finished_is_played_again(tmp_path):
    args = [*SIMULATE, "--deals", "0-9"]
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    path = tmp_path / "half.csv"
    path.write_bytes(("\r\n".join(lines[:6]) + "\r\n").encode())  # deal 2: greedy's game, not random's
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    assert "resuming" in result.stderr and "4 of 20 games done already" in result.stderr
    assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_resume_starts_afresh_on_a_missing_or_empty_file(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    for name, empty in (("missing.csv", False), ("empty.csv", True)):
        path = tmp_path / name
        if empty:
            path.write_text("")
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 0 and "resuming" not in result.stderr
        assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_resume_refuses_a_fifo_without_opening_it(tmp_path, args):
    """A FIFO is read to be continued: opening it waited for a writer for ever."""
    import contextlib
    import os
    import threading

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)

    def unblock() -> None:  # a safety net: a command that opened the FIFO would wait for ever
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))

    timer = threading.Timer(30, unblock)
    timer.start()
    try:
        result = invoke([*args, "--output", fifo, "--resume"])
    finally:
        timer.cancel()
    assert result.exit_code == 2, result.output
    assert f"--resume needs a file to continue: {fifo} is a FIFO (named pipe)" in result.stderr


def test_a_finished_file_is_left_as_it_is_and_summarized(tmp_path):
    args = [*SOLVE, "--deals", "0-9"]
    text, whole = _uninterrupted(tmp_path, [*args, "--format", "json"])
    path = tmp_path / "whole.csv"
    result = invoke([*args, "--format", "json", "--output", path, "--resume"])
    assert result.exit_code == 0 and "10 of 10 deals done already" in result.stderr
    assert path.read_bytes().decode() == text  # not one byte changed
    assert summary_without_times(json.loads(result.stdout)) == summary_without_times(json.loads(whole.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    ("first", "again", "words"),
    [
        # (a higher --max-nodes solves the unknown rows again: tests/app/test_escalation.py)
        ([*SOLVE, "--deals", "0-9"], ["solve", "--max-nodes", "400", "--deals", "0-9"], "written with --max-nodes 500, this run has 400"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-9", "--rules", "fixed-board"], "--rules standard, this run has fixed-board"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-9", "--timeout", "5"], "without --timeout, this run has 5.0"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "3-9"], "the file starts at deal 0, --deals starts at 3"),
        ([*SOLVE, "--deals", "0-9"], [*SOLVE, "--deals", "0-5"], "more deals than --deals 0-5 asks for"),
        ([*SIMULATE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-4", "--seed", "7"], "--seed 0, this run has 7"),
        ([*SIMULATE, "--deals", "0-4"], ["simulate", "--bot", "greedy", "--vs", "expectimax", "--deals", "0-4"],
         "deal 0 was played by random where expectimax is due"),
        ([*SIMULATE, "--deals", "0-4"], ["simulate", "--bot", "greedy", "--deals", "0-4"],
         "deal 0 was played by random where greedy is due (this run's bots: greedy)"),
        (["simulate", "--bot", "deep", "--nodes", "300", "--deals", "0-0"], ["simulate", "--bot", "deep", "--nodes", "400", "--deals", "0-0"],
         "--nodes 300, this run has 400"),
    ],
)
def test_a_file_of_other_settings_is_refused_before_any_work(tmp_path, first, again, words):
    path = tmp_path / "sweep.csv"
    assert invoke([*first, "--output", path]).exit_code == 0
    before = path.read_bytes()
    result = invoke([*again, "--output", path, "--resume"])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == before


def test_a_file_that_is_not_this_commands_csv_is_refused_at_its_line(tmp_path):
    path = tmp_path / "other.csv"
    assert invoke([*SIMULATE, "--deals", "0-1", "--output", path]).exit_code == 0
    result = invoke([*SOLVE, "--deals", "0-9", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:1: not a CSV of this command to continue")
    text, _ = _uninterrupted(tmp_path, [*SOLVE, "--deals", "0-3"])
    lines = text.split("\r\n")
    for bad, words in ((lines[2].replace("solved", "won", 1), "a value this command does not write"),
                       (lines[2] + ",more", "a row of 12 fields, not 11")):
        path.write_bytes(("\r\n".join([*lines[:2], bad, *lines[3:]])).encode())
        result = invoke([*SOLVE, "--deals", "0-3", "--output", path, "--resume"])
        assert result.exit_code == 1 and result.stderr.startswith(f"{path}:3: {words}"), result.stderr


def test_a_file_another_command_writes_is_refused(tmp_path):
    path = tmp_path / "busy.csv"
    held = claim(str(path))
    try:
        result = invoke([*SOLVE, "--deals", "0-3", "--output", path, "--resume"])
    finally:
        held.release()
    assert result.exit_code == 1 and "in use" in result.stderr


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--resume"], "--resume needs --output"),
        (["--resume", "--output", "-"], "standard output cannot be continued"),
        (["--resume", "--output", "x.csv", "--force"], "--resume and --force"),
    ],
)
@pytest.mark.parametrize("command", [[*SOLVE, "--deals", "0-1"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_resume_usage_errors(tmp_path, monkeypatch, command, extra, words):
    monkeypatch.chdir(tmp_path)
    result = invoke([*command, *extra])
    assert result.exit_code == 2 and words in result.stderr
    assert not (tmp_path / "x.csv").exists()


def test_every_row_carries_the_settings_that_made_it(tmp_path):
    path = tmp_path / "rows.csv"
    assert invoke(["solve", "--deals", "0-1", "--max-nodes", "700", "--timeout", "9", "--output", path]).exit_code == 0
    rows = list(csv.DictReader(path.open(newline="")))
    assert [(r["rules"], r["max_nodes"], r["timeout"], r["memory"]) for r in rows] == [("standard", "700", "9.0", "")] * 2
    # the memory a search is given sizes its table, so it shapes the node counts: it is a setting like the others
    assert invoke(["solve", "--deals", "0-1", "--memory", "256M", "--output", path, "--force"]).exit_code == 0
    assert [r["memory"] for r in csv.DictReader(path.open(newline=""))] == [str(256 << 20)] * 2
    before = path.read_bytes()
    result = invoke(["solve", "--deals", "0-3", "--memory", "512M", "--output", path, "--resume"])
    assert result.exit_code == 2 and f"{path}:2: the file was written with --memory {256 << 20}" in result.stderr, result.stderr
    assert path.read_bytes() == before
    result = invoke(["solve", "--deals", "0-3", "--output", path, "--resume"])
    assert f"written with --memory {256 << 20}, this run has no --memory: resume it" in result.stderr, result.stderr
    assert invoke(["solve", "--deals", "0-3", "--memory", "256M", "--output", path, "--resume"]).exit_code == 0
    # a file of an earlier version, before the memory column: what to do to resume it
    old = b"".join(line.rsplit(b",", 1)[0] + b"\r\n" for line in before.splitlines())
    path.write_bytes(old)
    result = invoke(["solve", "--deals", "0-3", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(
        f"{path}:1: an earlier version's CSV, without the last column memory: to resume it, end its header line with "
        "',memory' and every row with ','"
    ), result.stderr
    assert path.read_bytes() == old
    assert invoke(["simulate", "--bot", "greedy", "--deals", "3-4", "--seed", "5", "--rules", "fixed-board", "--output", path, "--force"]).exit_code == 0
    rows = list(csv.DictReader(path.open(newline="")))
    assert [(r["deal"], r["seed"], r["nodes"], r["budget"], r["rules"]) for r in rows] == [("3", "5", "", "", "fixed-board"), ("4", "5", "", "", "fixed-board")]


def test_a_resumed_simulate_keeps_the_worst_move_time_of_the_games_read_back(tmp_path):
    # the CSV keeps each game's slowest move: a summary over games read back from the
    # file reports the worst of them exactly, not the mean time of a move
    args = ["simulate", "--bot", "greedy", "--deals", "0-5", "--format", "json"]
    text, _ = _uninterrupted(tmp_path, args)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    result = invoke([*args, "--output", tmp_path / "whole.csv", "--resume"])
    assert result.exit_code == 0 and "6 of 6 games done already" in result.stderr
    summary = json.loads(result.stdout)
    assert summary["worst_move_seconds"] == pytest.approx(max(float(row["slowest_move_seconds"]) for row in rows), abs=1e-6)
    assert summary["moves"] == sum(int(row["moves"]) for row in rows)


# --- a file that is not this command's CSV is never altered --------------------------------

NOT_OURS = [
    b"hello world\nthis is my thesis\n",  # any text file, LF line ends
    b"hello world\r\nthis is my thesis\r\n",  # the same with CR LF
    b"a,b,c\n1,2,3\n",
    b"one line without an end",
    bytes(range(256)) * 4,  # random bytes
    b"\0" * 300,
    b"deal,status,scx",  # the start of a header line, but not of this command's
]


@pytest.mark.parametrize("content", NOT_OURS, ids=["text", "text-crlf", "csv", "no-line-end", "bytes", "nuls", "other-header"])
@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_a_file_that_does_not_begin_with_the_header_line_is_never_altered(tmp_path, args, content):
    path = tmp_path / "thesis.txt"
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1, result.output
    words = "a binary file, not text" if b"\0" in content else "not a CSV of this command"  # as every reader says
    assert result.stderr.startswith(f"{path}:1: {words}") and "Traceback" not in result.output
    assert path.read_bytes() == content


@pytest.mark.parametrize(
    ("row", "words"),
    [(b"4,solved,24,24,91,0.1,d4\0c4,standard,500,,\r\n", "a binary file, not text"),
     (b"4,solved,24,24,91,0.1,d4\xe9c4\0,standard,500,,\r\n", "not UTF-8 text"),  # the earlier fault is said
     (b"4,solved,24,24,91,0.1," + b"d4 " * 400_000 + b",standard,500,,\r\n", "the line is too long (over 1,048,576 characters)")],
    ids=["nul", "not-utf8-before-a-nul", "long"],
)
def test_a_row_is_refused_at_its_line_with_the_words_of_every_reader(tmp_path, row, words):
    text, _ = _uninterrupted(tmp_path, [*SOLVE, "--deals", "0-3"])
    path = tmp_path / "sweep.csv"
    path.write_bytes(text.encode() + row)
    result = invoke([*SOLVE, "--deals", "0-9", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:6: {words}"), result.stderr
    assert path.read_bytes() == text.encode() + row


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_our_csv_saved_in_another_encoding_is_named_as_every_reader_names_it_and_never_altered(tmp_path, args, encoding):
    text, _ = _uninterrupted(tmp_path, args)
    path = tmp_path / "sweep.csv"
    path.write_bytes(text.encode(encoding))  # with its byte-order mark, as a spreadsheet saves it
    result = invoke([*args, "--output", path, "--resume"])
    name = encoding.upper()
    assert result.exit_code == 1 and result.stderr.startswith(
        f"{path}:1: not UTF-8 text: it is {name} (it starts with a {name} byte-order mark); save it as UTF-8"
    ), result.stderr
    assert path.read_bytes() == text.encode(encoding)


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"\xff\xfe", "not UTF-8 text: it is UTF-16"), (b"\xfe\xff\n", "not UTF-8 text: it is UTF-16"),
     (b"deal,st\xffatus\r\n", "not UTF-8 text"), (b"\xff\n", "not UTF-8 text")],
    ids=["utf16-mark-alone", "utf16be-mark-line", "header-not-utf8", "a-byte-not-utf8"],
)
def test_a_first_line_that_is_not_utf8_is_named_so_before_its_header_is_judged(tmp_path, content, words):
    path = tmp_path / "sweep.csv"
    path.write_bytes(content)
    result = invoke([*SOLVE, "--deals", "0-3", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:1: {words}"), result.stderr
    assert path.read_bytes() == content


def _lf(text: str) -> bytes:
    return text.replace("\r\n", "\n").encode()


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-9"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_our_csv_with_its_line_ends_changed_to_lf_is_refused_unchanged_and_resumes_once_converted_back(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    cases = {
        "whole file": (_lf(text), 1),
        "cut short": (_lf("\r\n".join(lines[:6]))[:-4], 1),  # dos2unix'd, then a crash cut its last line
        "header only": (_lf(lines[0] + "\r\n"), 1),
        "one row": (("\r\n".join(lines[:3]) + "\n" + "\r\n".join(lines[3:6]) + "\r\n").encode(), 3),
    }
    for name, (content, line) in cases.items():
        path = tmp_path / "converted.csv"
        path.write_bytes(content)
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 1, (name, result.output)
        assert result.stderr.startswith(f"{path}:{line}: the line ends are LF"), (name, result.stderr)
        assert "unix2dos" in result.stderr and "Traceback" not in result.output
        assert path.read_bytes() == content, name
    # as the message says: converted back, the file resumes to an uninterrupted run's
    path.write_bytes(_lf("\r\n".join(lines[:6]) + "\r\n").replace(b"\n", b"\r\n"))
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0 and "resuming" in result.stderr, result.output
    assert without_seconds(path.read_bytes().decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-9"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_a_bad_row_ending_in_lf_alone_is_diagnosed_as_a_bad_row_not_as_its_line_end(tmp_path, args):
    # the line end is the diagnosis only when the row would be whole with CR LF
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    width = len(lines[0].split(","))
    fields = next(csv.reader([lines[3]]))
    other = ",".join(fields[:-1] + ["12345"])  # a row of other settings (its last setting column)
    bad_value = list(fields)
    bad_value[lines[0].split(",").index("status")] = "weird"  # a value the command never writes
    cases = {
        "garbage": ("garbage,,x", "a row of 3 fields, not"),
        "too wide": (lines[3] + ",more", f"a row of {width + 1} fields, not {width}"),
        "a bad value": (",".join(bad_value), "a value this command does not write"),
        "a whole row": (lines[3], "the line ends are LF"),
        "other settings": (other, "the line ends are LF"),
    }
    for name, (row, words) in cases.items():
        content = ("\r\n".join(lines[:3]) + "\r\n" + row + "\n" + "\r\n".join(lines[4:])).encode()
        path = tmp_path / "mixed.csv"
        path.write_bytes(content)
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 1, (name, result.output)
        assert result.stderr.startswith(f"{path}:4: {words}"), (name, result.stderr)
        assert "Traceback" not in result.output and path.read_bytes() == content, name


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-9"], [*SIMULATE, "--deals", "0-4"]], ids=["solve", "simulate"])
def test_a_last_line_without_its_end_that_is_not_the_row_due_is_refused_unchanged(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    kept = "\r\n".join(lines[:4]) + "\r\n"
    first = lines[4].split(",")[0]  # solve: the deal due; simulate: the bot due
    for tail in ("my notes", "99," + lines[4], "x" * 50 + "\0", first + ',"quoted', lines[4] + ",more\r", "é" + lines[4][:5]):
        path = tmp_path / "tail.csv"
        content = (kept + tail).encode()
        path.write_bytes(content)
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 1, (tail, result.output)
        words = "a binary file, not text" if "\0" in tail else "a last line without its line end"  # (NUL: as every reader)
        assert result.stderr.startswith(f"{path}:5: {words}"), result.stderr
        assert path.read_bytes() == content
    # a whole file after which something else was written, without a line end
    path.write_bytes((text + "thanks for reading").encode())
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1 and path.read_bytes() == (text + "thanks for reading").encode()


def _changed(text: str, line: int, column: int | None, value: str, column2: int | None = None, value2: str = "") -> bytes:
    """The CSV ``text`` with one or two fields of line ``line`` (from 1) changed (``column`` None: a column added)."""
    lines = text.split("\r\n")
    fields = next(csv.reader([lines[line - 1]]))
    if column is None:
        fields.append(value)
    else:
        fields[column] = value
    if column2 is not None:
        fields[column2] = value2
    out = io.StringIO(newline="")
    csv.writer(out).writerow(fields)
    lines[line - 1] = out.getvalue()[:-2]
    return "\r\n".join(lines).encode()


# solve, deals 0-9 with --max-nodes 500: line 2 is deal 0, solved (score 24 = 40 cards - 16 piles), line 4 deal 2, unknown
# columns: deal status score max_score nodes seconds moves ...
SOLVE_BAD = [
    (2, 2, "25", 3, "25", "score"),  # above the rules' best score (24 under the standard rules)
    (2, 2, "-1", 3, "-1", "score"),
    (2, 2, "", 3, "", "score"),  # solved without a score
    (2, 3, "23", None, "", "max_score"),  # solved: the max score is the score
    (2, 6, "d4 d5", None, "", "moves"),  # not the 16 cells of a win of score 24
    (2, 6, " ".join(["z9"] * 16), None, "", "moves"),  # cells outside the frame
    (2, 4, "-3", None, "", "nodes"),
    (2, 4, "1.5", None, "", "nodes"),
    (2, 4, "", None, "", "nodes"),
    (2, 4, "501", None, "", "nodes"),  # above the row's max_nodes (500): the search stops at its limit
    (4, 4, "99999999999999999999999999", None, "", "nodes"),
    (2, 5, "1e999", None, "", "seconds"),  # not finite
    (2, 5, "1_0", None, "", "seconds"),  # Python reads it, the command never writes it
    (2, 5, "+1.0", None, "", "seconds"),
    (2, 5, "-0.5", None, "", "seconds"),
    (2, 5, "nan", None, "", "seconds"),
    (2, 1, "won", None, "", "status"),
    (4, 2, "12", None, "", "a score or moves"),  # unknown with a score
    (4, 1, "no-win", None, "", "max_score"),  # no-win with a max score
    (4, 3, "25", None, "", "max_score"),
    (4, 3, "x", None, "", "max_score"),
]
# simulate greedy vs random, deals 0-4: line 2 greedy's lost game of deal 0 (19 moves), line 4 greedy's won game of deal 1
# columns: bot deal status reason score moves seconds slowest_move_seconds ...
SIMULATE_BAD = [
    (4, 4, "25", 5, "15", "score"),  # above the best score, though the moves match it
    (4, 4, "", None, "", "score"),  # won without a score
    (4, 3, "stock-empty", None, "", "reason"),  # won with a reason
    (4, 5, "29", None, "", "moves"),  # not the 30 placements of a win of score 10
    (2, 3, "", None, "", "reason"),  # lost without a reason
    (2, 4, "3", None, "", "score"),  # lost with a score
    (2, 3, "no-placement", None, "", "reason"),  # a loss the standard rules never have
    (2, 3, "stock-empty", None, "", "moves"),  # a stock-empty loss places every card
    (2, 5, "-3", None, "", "moves"),
    (2, 5, "2.5", None, "", "moves"),
    (2, 5, "41", None, "", "moves"),
    (2, 6, "-1", None, "", "seconds"),
    (2, 6, "inf", None, "", "seconds"),
    (2, 7, "1e400", None, "", "slowest_move_seconds"),
    (2, 2, "playing", None, "", "status"),
]


@pytest.mark.parametrize(
    ("args", "line", "column", "value", "column2", "value2", "words"),
    [([*SOLVE, "--deals", "0-9"], *case) for case in SOLVE_BAD] + [([*SIMULATE, "--deals", "0-4"], *case) for case in SIMULATE_BAD],
    ids=[f"solve-{c[5]}-{c[2] or 'empty'}" for c in SOLVE_BAD] + [f"simulate-{c[5]}-{c[2] or 'empty'}" for c in SIMULATE_BAD],
)
def test_a_row_with_a_value_this_command_never_writes_is_refused_at_its_line(tmp_path, args, line, column, value, column2, value2, words):
    text, _ = _uninterrupted(tmp_path, args)
    path = tmp_path / "edited.csv"
    content = _changed(text, line, column, value, column2, value2)[: -len(text.split("\r\n")[-2]) - 2]  # a last row cut
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{path}:{line}: a value this command does not write ("), result.stderr
    assert words in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == content  # not even the cut last row is cut


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_a_row_with_an_extra_trailing_column_is_refused_unchanged(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    path = tmp_path / "wide.csv"
    width = len(text.split("\r\n")[0].split(","))
    for extra in ("", "more"):
        content = _changed(text, 3, None, extra)
        path.write_bytes(content)
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 1 and result.stderr.startswith(f"{path}:3: a row of {width + 1} fields, not {width}")
        assert path.read_bytes() == content
    # the same values, quoted where the csv module never quotes them
    lines = text.split("\r\n")
    content = "\r\n".join([*lines[:2], '"' + lines[2].replace(",", '","') + '"', *lines[3:]]).encode()
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:3: a row not written as this command writes it")
    assert path.read_bytes() == content


def test_the_score_limit_comes_from_the_rules(tmp_path):
    # three-square: a 3x3 grid, so a win scores up to 40 - 9 = 31, above the standard best of 24
    args = [*SOLVE, "--deals", "0-3", "--rules", "three-square"]
    text, _ = _uninterrupted(tmp_path, args)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    best = max(int(row["score"]) for row in rows if row["score"])
    assert best > 24  # the standard rules' limit would refuse this file
    path = tmp_path / "three.csv"
    path.write_bytes(text.encode())
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0 and "4 of 4 deals done already" in result.stderr
    solved = next(i for i, row in enumerate(rows, start=2) if row["status"] == "solved")
    content = _changed(text, solved, 2, "32", 3, "32")
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1 and "score '32': not a whole number from 0 to 31" in result.stderr
    assert path.read_bytes() == content


@pytest.mark.parametrize("command", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_as_a_real_process_a_text_file_or_a_converted_csv_is_never_altered(tmp_path, command):
    thesis = tmp_path / "t.txt"
    thesis.write_bytes(b"hello world\nthis is my thesis\n")
    run = subprocess.run([*COMMAND, *command, "--output", str(thesis), "--resume"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert run.returncode == 1 and run.stderr.startswith(f"{thesis}:1: not a CSV of this command"), run.stderr
    assert thesis.read_bytes() == b"hello world\nthis is my thesis\n"
    text, _ = _uninterrupted(tmp_path, command)
    converted = tmp_path / "converted.csv"
    converted.write_bytes(_lf(text))
    run = subprocess.run([*COMMAND, *command, "--output", str(converted), "--resume"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert run.returncode == 1 and "the line ends are LF" in run.stderr and "Traceback" not in run.stderr
    assert converted.read_bytes() == _lf(text)
    edited = tmp_path / "edited.csv"
    edited.write_bytes(_changed(text, 2, None, "extra"))
    run = subprocess.run([*COMMAND, *command, "--output", str(edited), "--resume"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert run.returncode == 1 and run.stderr.startswith(f"{edited}:2: a row of"), run.stderr
    assert edited.read_bytes() == _changed(text, 2, None, "extra")


# --- damage of the CSV: every kind is a FILE:LINE: message, the file untouched -----------------


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
@pytest.mark.parametrize("where", ["after-first-comma", "before-line-end", "last-row"])
def test_a_cr_alone_inside_a_row_is_refused_at_its_line(tmp_path, args, where):
    text, _ = _uninterrupted(tmp_path, args)
    lines = text.split("\r\n")
    line = 4 if where == "last-row" else 3
    lines[line - 1] = lines[line - 1] + "\r" if where == "before-line-end" else lines[line - 1].replace(",", ",\r", 1)
    content = "\r\n".join(lines).encode()
    path = tmp_path / "cr.csv"
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{path}:{line}: a CR alone inside the row"), result.stderr
    assert "Traceback" not in result.output and path.read_bytes() == content


def test_as_a_real_process_a_cr_alone_inside_a_row_is_refused_at_its_line(tmp_path):
    text, _ = _uninterrupted(tmp_path, [*SOLVE, "--deals", "0-3"])
    content = text.replace("\r\n1,", "\r\n1,\r", 1).encode()
    path = tmp_path / "cr.csv"
    path.write_bytes(content)
    run = subprocess.run([*COMMAND, *SOLVE, "--deals", "0-3", "--output", str(path), "--resume"],
                         capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120)
    assert run.returncode == 1 and run.stderr.startswith(f"{path}:3: a CR alone inside the row"), run.stderr
    assert "Traceback" not in run.stderr and path.read_bytes() == content


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "bom"])
def test_a_header_line_cut_short_is_written_again_as_a_last_row_is(tmp_path, args, bom):
    text, _ = _uninterrupted(tmp_path, args)
    header = text.split("\r\n")[0]
    path = tmp_path / "cut.csv"
    for cut in (header[:1], header[:9], header, header + "\r"):  # a crash while the header was written
        path.write_bytes(bom + cut.encode())
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 0, result.output
        assert "resuming" not in result.stderr
        content = path.read_bytes()
        assert content.startswith(bom) and without_seconds(content[len(bom):].decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
@pytest.mark.parametrize("spaced", [" {}", "{} ", "\t{}"], ids=["leading", "trailing", "tab"])
def test_a_field_with_spaces_around_it_is_refused_naming_the_field_quoted(tmp_path, args, spaced):
    text, _ = _uninterrupted(tmp_path, args)
    column = 0 if args[0] == "solve" else 1  # the deal column
    fields = next(csv.reader([text.split("\r\n")[2]]))
    content = _changed(text, 3, column, spaced.format(fields[column]))
    path = tmp_path / "spaced.csv"
    path.write_bytes(content)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 1, result.output
    shown = repr(spaced.format(fields[column]))
    assert result.stderr.startswith(f"{path}:3: the deal field {shown} has spaces around it"), result.stderr
    assert path.read_bytes() == content


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-3"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_a_deal_number_never_written_is_refused_as_not_this_commands_and_shown_quoted(tmp_path, args):
    text, _ = _uninterrupted(tmp_path, args)
    column = 0 if args[0] == "solve" else 1
    path = tmp_path / "odd.csv"
    for value, shown in (("", "''"), ("4'8", '"4\'8"'), ("01", "01"), ("\u0661", "\u0661"), ("+1", "+1")):
        # a deal number this command never writes: not its CSV (status 1), not a deal out of order
        path.write_bytes(_changed(text, 3, column, value))
        result = invoke([*args, "--output", path, "--resume"])
        assert result.exit_code == 1, result.output
        assert result.stderr.startswith(f"{path}:3: deal {shown}: a deal number this command never writes"), result.stderr
        assert path.read_bytes() == _changed(text, 3, column, value)
    path.write_bytes(_changed(text, 3, column, "48"))  # a deal number, but not the one due: status 2
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 2, result.output
    assert f"{path}:3: deal 48 where deal " in result.stderr, result.stderr
