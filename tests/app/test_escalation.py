"""Escalating a sweep (app/sweep.py, ``solve --deals A-B --output F.csv --resume`` with a
higher ``--max-nodes``): only the rows ``unknown`` under a lower limit are solved
again, every settled row kept byte for byte; the rows solved again go to the journal
beside the file (``F.csv.escalating``) as they come and are merged into it, in deal
order, when the pass ends or stops, so that a run stopped at any point (Ctrl-C,
SIGTERM, ``kill -9``) loses nothing settled and ``--resume`` finishes the pass."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT, invoke

from app.test_resume import without_seconds

COMMAND = [sys.executable, "-m", "foursquare"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
DEALS = ["--deals", "0-99"]
LOW = ["solve", "--max-nodes", "200", *DEALS]
HIGH = ["solve", "--max-nodes", "100000", *DEALS]
#: Linux pipes of one write (``O_DIRECT`` packet mode, ``F_SETPIPE_SZ``): see :func:`stopped_mid_pass`.
LINUX_PIPES = sys.platform.startswith("linux")


def lines_of(data: bytes) -> list[bytes]:
    """The lines of a CSV, each with its CR LF."""
    return data.splitlines(keepends=True)


def rows_of(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode(), newline="")))


def journal_of(path: Path) -> Path:
    return path.with_name(path.name + ".escalating")


def swept_low(tmp_path: Path, name: str = "table.csv", args: list[str] = LOW) -> tuple[Path, bytes]:
    """A sweep of deals 0-99 under --max-nodes 200 (45 of them unknown): its file and text."""
    path = tmp_path / name
    result = invoke([*args, "--output", path])
    assert result.exit_code == 0, result.output
    return path, path.read_bytes()


def escalated(tmp_path: Path, extra: list[str] | None = None) -> tuple[bytes, bytes, object]:
    """The low sweep, then a resume under --max-nodes 100000, uninterrupted: (low text, escalated text, result)."""
    path, low = swept_low(tmp_path, "whole.csv")
    result = invoke([*HIGH, "--output", path, "--resume", *(extra or [])])
    assert result.exit_code == 0, result.output
    return low, path.read_bytes(), result


def check_settled_rows_kept(low: bytes, now: bytes) -> None:
    """Every settled row of ``low`` is in ``now`` byte for byte, at its line; every other line of
    ``now`` is its deal's row under the higher limit."""
    before, after = lines_of(low), lines_of(now)
    assert len(after) == len(before) and after[0] == before[0]
    for old, new in zip(before[1:], after[1:], strict=True):
        if b",unknown," not in old:
            assert new == old
        else:
            assert new.split(b",")[0] == old.split(b",")[0]


def test_a_higher_limit_solves_again_only_the_unknown_rows_and_keeps_every_settled_row_byte_for_byte(tmp_path):
    low, now, result = escalated(tmp_path, ["--format", "json"])
    check_settled_rows_kept(low, now)
    before, after = rows_of(low), rows_of(now)
    unknown = [r["deal"] for r in before if r["status"] == "unknown"]
    assert len(unknown) == 45  # (deals 0-99 under 200 positions: the case is not empty)
    changed = [a for b, a in zip(before, after, strict=True) if a != b]
    assert [r["deal"] for r in changed] == unknown  # only the unknown rows, every one of them
    # each row says the limit it was settled under: the settled rows theirs, the others the new one
    assert all(r["max_nodes"] == ("100000" if r["deal"] in unknown else "200") for r in after)
    # the rows solved again are those of a sweep under the higher limit (but for the time measured)
    fresh = tmp_path / "fresh.csv"
    assert invoke([*HIGH, "--output", fresh]).exit_code == 0
    fresh_rows = {r["deal"]: r for r in rows_of(fresh.read_bytes())}
    assert all({**r, "seconds": ""} == {**fresh_rows[r["deal"]], "seconds": ""} for r in changed)
    settled = sum(r["status"] != "unknown" for r in changed)
    assert 0 < settled < 45
    # the summary says how many were solved again and settled, and counts the file as it is
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["solved_again"] == {"max_nodes": 100000, "deals_asked": 45, "deals_done": 45,
                                       "deals_settled": settled, "deals_unknown": 45 - settled}
    assert summary["summary"]["deals"] == 100 and summary["summary"]["unknown"] == 45 - settled
    assert "45 of them unknown under a lower --max-nodes, solved again under 100000" in result.stderr
    assert not journal_of(tmp_path / "whole.csv").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_the_text_summary_says_how_many_were_solved_again_and_settled(tmp_path):
    path, low = swept_low(tmp_path)
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    settled = sum(r["status"] != "unknown" for r in rows_of(path.read_bytes()))
    before = sum(r["status"] != "unknown" for r in rows_of(low))
    assert result.stdout.splitlines()[0] == (
        f"solved again under --max-nodes 100000: 45 deals unknown under a lower limit; {settled - before} settled, "
        f"{100 - settled} still unknown"
    )
    assert f"deals: 100; settled: {settled}" in result.stdout


def test_escalating_with_two_worker_processes_gives_the_same_file(tmp_path):
    _, one, _ = escalated(tmp_path)
    path, low = swept_low(tmp_path, "jobs.csv")
    result = invoke([*HIGH, "--jobs", "2", "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    check_settled_rows_kept(low, path.read_bytes())
    assert without_seconds(path.read_bytes().decode()) == without_seconds(one.decode())


def test_an_escalated_file_resumes_under_its_limit_unchanged_and_refuses_a_lower_one(tmp_path):
    _, now, _ = escalated(tmp_path)
    path = tmp_path / "whole.csv"
    # the same limit: nothing to do, not a byte changed (its settled rows of the lower limit are accepted)
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 0 and "100 of 100 deals done already" in result.stderr, result.output
    assert "solved again" not in result.output and path.read_bytes() == now
    # a lower limit: refused before any work, as before
    result = invoke([*LOW, "--output", path, "--resume"])
    assert result.exit_code == 2, result.output
    assert "written with --max-nodes 100000, this run has 200" in result.stderr
    assert path.read_bytes() == now


def test_a_lower_limit_in_the_file_without_max_nodes_given_is_refused_with_the_way_to_escalate(tmp_path):
    path, low = swept_low(tmp_path)
    result = invoke(["solve", *DEALS, "--output", path, "--resume"])  # the default limit, not given
    assert result.exit_code == 2, result.output
    first_unknown = next(i for i, line in enumerate(lines_of(low), start=1) if b",unknown," in line)
    deal = lines_of(low)[first_unknown - 1].split(b",")[0].decode()
    assert result.stderr.splitlines()[-1].endswith(
        f"{path}:{first_unknown}: deal {deal} is unknown under --max-nodes 200, this run has 4000000: "
        "give --max-nodes 4000000 to solve the unknown deals again under it, or resume with --max-nodes 200"
    ), result.stderr
    assert path.read_bytes() == low and not journal_of(path).exists()


def test_a_higher_limit_over_a_longer_range_solves_again_then_goes_on(tmp_path):
    path, low = swept_low(tmp_path, args=["solve", "--max-nodes", "200", "--deals", "0-49"])
    result = invoke(["solve", "--max-nodes", "100000", "--deals", "0-99", "--output", path, "--resume", "--format", "json"])
    assert result.exit_code == 0, result.output
    now = path.read_bytes()
    assert lines_of(now)[: len(lines_of(low))] != lines_of(low)
    check_settled_rows_kept(low, b"".join(lines_of(now)[: len(lines_of(low))]))
    # the deals after the file's are solved under the higher limit, after those solved again
    printed = [json.loads(line)["deal"] for line in result.stdout.splitlines()[:-1]]
    unknown = [int(r["deal"]) for r in rows_of(low) if r["status"] == "unknown"]
    assert printed == [*unknown, *range(50, 100)]
    fresh = tmp_path / "fresh.csv"
    assert invoke(["solve", "--max-nodes", "100000", "--deals", "0-99", "--output", fresh]).exit_code == 0
    statuses = [(r["deal"], r["status"], r["score"]) for r in rows_of(now)]
    assert statuses == [(r["deal"], r["status"], r["score"]) for r in rows_of(fresh.read_bytes())]


# --- stopped mid-pass: a real process, stopped while it cannot have finished ----------------


def stopped_mid_pass(
    path: Path, args: list[str], how: signal.Signals, after: int = 3, kill: Callable[[int], None] | None = None
) -> tuple[int, str, bytes]:
    """Run ``foursquare ARGS --output PATH --resume --format json`` and stop it with ``how``
    (or ``kill(its pid)``) in the middle of its pass: (its status, its stderr, its stdout).

    The moment is fixed by construction, not by the solver's speed: stdout is a pipe in
    packet mode with room for one write (Linux: ``O_DIRECT``, one page), and a deal's
    JSON line is written after its row, so that once ``after`` lines are read, at least
    ``after`` rows are in the journal and the command waits (or soon will) in ``write``
    for a line nobody reads: it cannot finish its pass before the signal."""
    import fcntl

    read, write = os.pipe2(os.O_DIRECT)
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    try:
        process = subprocess.Popen([*COMMAND, *args, "--output", str(path), "--resume", "--format", "json"],
                                   stdout=write, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    finally:
        os.close(write)
    assert process.stderr is not None
    try:
        data = b""
        while data.count(b"\n") < after:
            chunk = os.read(read, 65536)
            assert chunk, process.stderr.read().decode()
            data += chunk
        if kill is None:
            process.send_signal(how)
        else:
            kill(process.pid)
        while chunk := os.read(read, 65536):  # (a deferred Ctrl-C or SIGTERM acts once its line is written)
            data += chunk
    finally:
        os.close(read)
        if process.poll() is None:
            process.wait(timeout=120)
    err = process.stderr.read().decode()
    process.stderr.close()
    return process.wait(timeout=120), err, data


@pytest.mark.skipif(not LINUX_PIPES, reason="Linux pipes of one write")
@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]], ids=["one-process", "jobs-2"])
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=["kill-9", "ctrl-c", "sigterm"])
def test_a_pass_stopped_in_the_middle_loses_nothing_and_resumes_to_the_file_of_an_uninterrupted_pass(tmp_path, how, jobs):
    _, whole, _ = escalated(tmp_path)
    path, low = swept_low(tmp_path, "stopped.csv")
    status, err, out = stopped_mid_pass(path, [*HIGH, *jobs], how)
    assert status == {signal.SIGKILL: -9, signal.SIGINT: 130, signal.SIGTERM: 143}[how], err
    assert "Traceback" not in err
    journal = journal_of(path)
    if how is signal.SIGKILL:  # the file as it was; the rows solved so far in the journal beside it
        assert path.read_bytes() == low
        done = len(lines_of(journal.read_bytes())) - 1
        assert b"\r\n".join(journal.read_bytes().split(b"\r\n")[1:]).count(b",100000,") == done
    else:  # merged as the run stopped: the file holds them, in deal order
        assert not journal.exists()
        check_settled_rows_kept(low, path.read_bytes())
        done = sum(b",100000," in line for line in lines_of(path.read_bytes()))
        # the summary counts the file as it now is: the rows not solved again yet are still unknown there
        summary = json.loads(out.splitlines()[-1])
        unknown = sum(b",unknown," in line for line in lines_of(path.read_bytes()))
        assert summary["interrupted"] == {"deals_solved": 100 - unknown, "deals_unknown": unknown, "deals_done": 100, "deals_asked": 100}
        assert summary["solved_again"]["deals_done"] == done and summary["summary"]["deals"] == 100
    assert 3 <= done < 45  # stopped in the middle of the pass
    result = invoke([*HIGH, *jobs, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    # the rows solved before the stop are not solved again
    assert f"{45 - done} of them unknown under a lower --max-nodes, solved again under 100000" in result.stderr
    assert not journal.exists()
    check_settled_rows_kept(low, path.read_bytes())
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())


def _kill_a_worker(pid: int) -> None:
    """Kill (SIGKILL) one worker process of the command ``pid`` (a child of it)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert children, "no worker process"
    os.kill(int(children[0]), signal.SIGKILL)


@pytest.mark.skipif(not LINUX_PIPES, reason="Linux pipes of one write, /proc")
def test_a_worker_process_killed_in_the_middle_of_a_pass_stops_the_run_and_resume_finishes_it(tmp_path):
    _, whole, _ = escalated(tmp_path)
    path, low = swept_low(tmp_path, "worker.csv")
    status, err, _ = stopped_mid_pass(path, [*HIGH, "--jobs", "2"], signal.SIGKILL, kill=_kill_a_worker)
    assert status == 1 and "a worker process was killed by SIGKILL" in err.splitlines()[-1], err
    assert "Traceback" not in err and not journal_of(path).exists()  # merged as the run stopped
    check_settled_rows_kept(low, path.read_bytes())
    done = sum(b",100000," in line for line in lines_of(path.read_bytes()))
    assert 3 <= done < 45
    result = invoke([*HIGH, "--jobs", "2", "--output", path, "--resume"])
    assert result.exit_code == 0 and f"{45 - done} of them unknown under a lower --max-nodes" in result.stderr
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())


@pytest.mark.skipif(not LINUX_PIPES, reason="Linux pipes of one write")
def test_a_journal_left_by_a_killed_run_is_merged_before_a_refusal_so_nothing_is_lost(tmp_path):
    path, low = swept_low(tmp_path)
    assert stopped_mid_pass(path, HIGH, signal.SIGKILL)[0] == -9
    journal = journal_of(path).read_bytes()
    result = invoke([*LOW, "--output", path, "--resume"])  # the old limit: refused, but the journal's rows are kept
    assert result.exit_code == 2 and "this run has 200" in result.stderr, result.output
    assert not journal_of(path).exists()
    assert all(line in lines_of(path.read_bytes()) for line in lines_of(journal)[1:])


# --- the journal: damaged, cut, already merged, left over -------------------------------------


def journal_text(low: bytes, whole: bytes, deals: int) -> bytes:
    """A journal of the first ``deals`` rows solved again (from the escalated file ``whole``)."""
    rows = [new for old, new in zip(lines_of(low)[1:], lines_of(whole)[1:], strict=True) if b",unknown," in old]
    return lines_of(whole)[0] + b"".join(rows[:deals])


def test_a_journals_last_row_cut_short_is_left_out_and_its_deal_solved_again(tmp_path):
    low, whole, _ = escalated(tmp_path)
    path = tmp_path / "cut.csv"
    path.write_bytes(low)
    text = journal_text(low, whole, 5)
    journal_of(path).write_bytes(text[:-20])  # a crash while the fifth row was written
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    assert "41 of them unknown under a lower --max-nodes" in result.stderr  # 45 less the 4 whole rows
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())
    assert not journal_of(path).exists()


def test_a_journal_already_merged_is_merged_again_without_change(tmp_path):
    # (killed between the rename of the merged file and the removal of the journal)
    low, whole, _ = escalated(tmp_path)
    path = tmp_path / "merged.csv"
    path.write_bytes(whole)
    journal_of(path).write_bytes(journal_text(low, whole, 45))
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 0 and "100 of 100 deals done already" in result.stderr, result.output
    assert path.read_bytes() == whole and not journal_of(path).exists()


def _settled_row_journal(low: bytes, whole: bytes) -> bytes:
    header, first = lines_of(whole)[0], lines_of(whole)[1]  # deal 0, settled under 200 in both
    return header + first.replace(b",200,", b",100000,")


@pytest.mark.parametrize(
    ("make", "line", "words"),
    [
        (lambda low, whole: b"my notes\r\n", 1, "it does not begin with this command's header line"),
        (_settled_row_journal, 2, "deal 0: its row in {path} is not an unknown row under a lower max_nodes"),
        (lambda low, whole: journal_text(low, whole, 3)[:-2] + b"\n", 4, "a line that does not end in CR LF"),
        (lambda low, whole: lines_of(whole)[0] + b"".join(reversed(lines_of(journal_text(low, whole, 2))[1:])), 3,
         "does not follow the deal before it"),
        (lambda low, whole: journal_text(low, whole, 2).replace(b"standard", b"stndard"), 2, "a value this command does not write"),
        (lambda low, whole: lines_of(whole)[0] + lines_of(whole)[1].replace(b"0,", b"100,", 1), 2, "has no row of it"),
    ],
    ids=["foreign", "settled-row", "lf", "order", "value", "deal-not-in-file"],
)
def test_a_journal_that_is_not_this_files_is_refused_at_its_line_both_files_untouched(tmp_path, make, line, words):
    low, whole, _ = escalated(tmp_path)
    path = tmp_path / "table.csv"
    path.write_bytes(low)
    journal = journal_of(path)
    text = make(low, whole)
    journal.write_bytes(text)
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"{journal}:{line}: ") and words.format(path=path) in result.stderr, result.stderr
    assert "remove it, or move it away, and resume again" in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == low and journal.read_bytes() == text
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left


def test_a_file_written_afresh_drops_the_journal_of_its_old_text(tmp_path):
    low, whole, _ = escalated(tmp_path)
    path = tmp_path / "table.csv"
    path.write_bytes(low)
    journal_of(path).write_bytes(journal_text(low, whole, 3))
    assert invoke([*LOW, "--output", path, "--force"]).exit_code == 0
    assert not journal_of(path).exists()
    assert without_seconds(path.read_bytes().decode()) == without_seconds(low.decode())


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file size limits")
def test_a_merge_that_fails_for_a_full_disk_keeps_the_file_and_the_journal_for_the_next_resume(tmp_path):
    from e2e.test_sweep_full_disk import _run_limited

    low, whole, _ = escalated(tmp_path)
    path = tmp_path / "full.csv"
    path.write_bytes(low)
    # room for the journal (the 45 rows solved again), not for the merged file (longer than the old)
    assert len(journal_text(low, whole, 45)) < len(low) < len(whole)
    done = _run_limited([*HIGH, "--output", path, "--resume"], len(low) + 100)
    assert done.returncode == 1, done.stderr
    assert f"{path}: File too large" in done.stderr.splitlines()[-1] and "Traceback" not in done.stderr
    assert path.read_bytes() == low  # the old text, whole
    kept = journal_of(path).read_bytes()  # every row solved again kept
    assert without_seconds(kept.decode()) == without_seconds(journal_text(low, whole, 45).decode())
    result = invoke([*HIGH, "--output", path, "--resume"])
    assert result.exit_code == 0 and "100 of 100 deals done already" in result.stderr, result.output
    assert "solved again" not in result.output  # merged, none solved twice
    assert without_seconds(path.read_bytes().decode()) == without_seconds(whole.decode())


def test_through_a_link_the_journal_is_beside_the_real_file_and_named_there(tmp_path):
    low, whole, _ = escalated(tmp_path)
    real = tmp_path / "data" / "table.csv"
    real.parent.mkdir()
    real.write_bytes(low)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    journal = journal_of(real)
    journal.write_bytes(b"my notes\r\n")
    result = invoke([*HIGH, "--output", link, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{journal}:1: "), result.stderr
    journal.unlink()
    result = invoke([*HIGH, "--output", link, "--resume"])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and not journal.exists() and not journal_of(link).exists()
    assert without_seconds(real.read_bytes().decode()) == without_seconds(whole.decode())
