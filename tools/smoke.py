"""The smoke test of an installed foursquare: the main jobs, as a user runs them.

Run it with any Python 3.11+ (it uses the standard library only) after installing the
package (a wheel, an sdist, pipx or uv tool), from anywhere::

    python tools/smoke.py --core compiled
    python tools/smoke.py --core pure --foursquare ~/.local/bin/foursquare --python /path/to/venv/bin/python

It copies the examples beside it (``examples/``) into a temporary folder and, from
there, with no source tree on the path (``PYTHONPATH`` unset, ``PYTHONSAFEPATH=1``):
``foursquare --version`` (and which search core it reports), a piped game
(``play --deal 89`` with ``examples/deal89.moves``), ``validate`` of the examples (the
valid ones pass, ``invalid.yaml`` gives ``invalid.expected``), ``solve --deal 42``,
``hint --deal 1``, ``schema transcript`` (the package's JSON Schemas), and
``import foursquare`` from Python, which must come from the install, not the sources.
It prints a line a check and exits 1 at the first that fails.  .ci/run's gate
``release`` and cibuildwheel's test command (pyproject.toml) run it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORES = {"compiled": "search core: compiled (C)", "pure": "search core: pure Python"}


class SmokeError(Exception):
    """A check failed: the message says which and what was seen."""


def run(command: list[str], cwd: Path, stdin: str | None = None, expect_status: int = 0) -> str:
    """Run ``command`` in ``cwd`` with no source tree on the path: its stdout (and its stderr,
    after it, when it is expected to fail)."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "FOURSQUARE_PURE_PYTHON")}
    env["PYTHONSAFEPATH"] = "1"
    result = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, env=env, timeout=300)
    if result.returncode != expect_status:
        raise SmokeError(
            f"{' '.join(command)}: exit {result.returncode}, expected {expect_status}\n{result.stdout}{result.stderr}"
        )
    return result.stdout if expect_status == 0 else result.stdout + result.stderr


def expect(text: str, wanted: str, what: str) -> None:
    if wanted not in text:
        raise SmokeError(f"{what}: {wanted!r} not in the output:\n{text}")


def smoke(foursquare: str, python: str, core: str, work: Path) -> None:
    """Every check, in ``work`` (a copy of the examples)."""
    version = run([foursquare, "--version"], work)
    expect(version, "foursquare, version ", "--version")
    if core != "any":
        expect(version, CORES[core], "--version")
    print(f"smoke: --version: {' / '.join(version.splitlines())}")

    played = run([foursquare, "play", "--deal", "89"], work, stdin=(work / "deal89.moves").read_text(encoding="utf-8"))
    expect(played, "Won, score 4.", "play --deal 89 < deal89.moves")
    print("smoke: play --deal 89 < deal89.moves: Won, score 4.")

    checked = run([foursquare, "validate", "won.yaml", "lost.yaml"], work)
    expect(checked, "2 games checked, all valid", "validate")
    invalid = run([foursquare, "validate", "invalid.yaml"], work, expect_status=1)
    expected = (work / "invalid.expected").read_text(encoding="utf-8")
    for line in expected.splitlines():
        if line and not line.startswith("#"):
            expect(invalid, line, "validate invalid.yaml (invalid.expected)")
    print("smoke: validate: the examples pass, invalid.yaml gives invalid.expected (exit 1)")

    solved = run([foursquare, "solve", "--deal", "42"], work)
    expect(solved, "solved: score 24", "solve --deal 42")
    print("smoke: solve --deal 42: score 24, proved optimal")

    hint = run([foursquare, "hint", "--deal", "1"], work)
    if not hint.strip():
        raise SmokeError("hint --deal 1 printed nothing")
    print(f"smoke: hint --deal 1: {hint.splitlines()[0]}")

    schema = json.loads(run([foursquare, "schema", "transcript"], work))
    if "$schema" not in schema:
        raise SmokeError("schema transcript: not a JSON Schema")
    print("smoke: schema transcript: a JSON Schema")

    code = "import foursquare, foursquare.solver.core as c; print(foursquare.__version__, c.describe(), foursquare.__file__)"
    imported = run([python, "-c", code], work)
    location = Path(imported.split(maxsplit=3)[-1].strip()).resolve()
    if location.is_relative_to(ROOT):
        raise SmokeError(f"import foursquare came from the source tree ({location}), not from the install")
    print(f"smoke: import foursquare: {imported.strip()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--core", choices=[*CORES, "any"], default="any", help="the search core --version must report")
    parser.add_argument("--foursquare", default=shutil.which("foursquare") or "foursquare", help="the command (default: from PATH)")
    parser.add_argument("--python", default=sys.executable, help="the Python of the install, for import foursquare")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # in order with stderr
    with tempfile.TemporaryDirectory(prefix="foursquare-smoke-") as folder:
        work = Path(folder) / "examples"
        shutil.copytree(EXAMPLES, work)
        try:
            smoke(args.foursquare, args.python, args.core, work)
        except (SmokeError, OSError, subprocess.SubprocessError, ValueError) as error:
            print(f"smoke: FAILED: {error}", file=sys.stderr)
            return 1
    print("smoke: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
