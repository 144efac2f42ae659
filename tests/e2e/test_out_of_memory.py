"""A command that runs out of memory (``MemoryError``): one line naming what ran out and
what to try (a lower ``--max-nodes``), status 1, no traceback, and what it had written
kept.  Run as real processes under an address-space limit (RLIMIT_AS) that the input
needs more than: the hardest of deals 0-999 (deal 325) fills its transposition table
past a few tens of MB within seconds, in either search core."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest
from helpers import ROOT

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux counts it")

COMMAND = [sys.executable, "-m", "foursquare"]
#: The address space the command may use: enough to start and solve the easy deals, not deal 325.
LIMIT = 90 * 1024 * 1024
SAID = "out of memory: the search needs more memory than there is; try a lower --max-nodes\n"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run_limited(*args: str, pure_python: bool = False) -> subprocess.CompletedProcess[str]:
    """The command as a process whose address space is at most :data:`LIMIT`."""
    env = dict(os.environ, FOURSQUARE_PURE_PYTHON="1" if pure_python else "")
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env, preexec_fn=_limited,
    )


@pytest.mark.parametrize("pure_python", [False, True], ids=["compiled", "pure Python"])
def test_a_solve_out_of_memory_says_so_in_one_line(pure_python):
    done = run_limited("solve", "--deal", "325", "--max-nodes", "100000000", pure_python=pure_python)
    assert done.returncode == 1
    assert done.stderr == SAID and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_sweep_out_of_memory_keeps_its_csv_rows(tmp_path, jobs):
    """Deals 320-324 are solved in a few hundred positions; deal 325 runs out of memory
    (in the worker with --jobs 2): the rows of the deals before it stay in the CSV file."""
    csv_path = tmp_path / "sweep.csv"
    done = run_limited("solve", "--deals", "320-325", "--max-nodes", "100000000", "--jobs", jobs, "--output", str(csv_path))
    assert done.returncode == 1
    assert done.stderr.endswith(SAID) and "Traceback" not in done.stderr
    rows = csv_path.read_text().splitlines()
    assert rows[0].startswith("deal,status")
    assert [row.split(",")[0] for row in rows[1:]] == ["320", "321", "322", "323", "324"]
    # stopped as at Ctrl-C: the summary of the deals done, then the deal that ran out named
    assert "interrupted: 5 of 6 deals done" in done.stdout + done.stderr
    if jobs == "1":
        assert done.stderr.endswith("deal 325: " + SAID)


def test_the_advice_names_the_option_that_bounds_the_search():
    from foursquare.cli.boundary import out_of_memory_text

    assert out_of_memory_text({"max_nodes": None}).endswith("try a lower --max-nodes")
    assert out_of_memory_text({"nodes": 5}).endswith("try a lower --nodes")
    # the memory the search was given, when it was: that is what ran out
    assert out_of_memory_text({"max_nodes": None, "memory": 1 << 30}).endswith("try a lower --memory")
    assert out_of_memory_text({"max_nodes": None, "memory": None}).endswith("try a lower --max-nodes")
    assert out_of_memory_text({"game_path": "g.yaml"}) == (
        "out of memory: the command needs more memory than there is (is an input too large?)"
    )


@pytest.mark.parametrize("error", [MemoryError(), SystemError("error return without exception set")], ids=["MemoryError", "SystemError"])
def test_an_allocation_that_fails_is_said_as_out_of_memory_whichever_error_python_gives(monkeypatch, error):
    # (CPython sometimes gives a SystemError when an allocation fails in C code: the
    # pure-Python search printed its traceback, one run in a dozen under the limit above)
    from helpers import invoke

    import foursquare.solver

    def out_of_memory(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(foursquare.solver, "solve", out_of_memory)
    result = invoke(["solve", "--deal", "325", "--max-nodes", "100000000"])
    assert result.exit_code == 1 and result.stderr == SAID and result.stdout == ""
