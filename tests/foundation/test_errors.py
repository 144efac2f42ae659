"""A file name is shown one way everywhere: as a shell would quote it
(:func:`foursquare.errors.shown_name`), in every message, summary and JSON, and
a name that is not UTF-8 never reaches the output as a raw byte or a lone
surrogate (issue 16, item 7)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, invoke

from foursquare.errors import FormatError, shown_name

#: A name holding the byte 0xfe (not UTF-8), and how it is shown.
RAW = b"w\xfe.yaml"
SHOWN = "$'w\\xfe.yaml'"


def run(args: list[str | bytes], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "foursquare", *args], cwd=cwd, input=stdin, capture_output=True, env=env, timeout=120
    )


def assert_clean(*outputs: bytes) -> None:
    """Valid UTF-8, no raw 0xfe byte, no surrogate written out as ``\\udcfe``."""
    for out in outputs:
        text = out.decode("utf-8")  # strict: a raw 0xfe fails here
        assert "\\udc" not in text and "\udcfe" not in text


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    if sys.platform == "darwin":
        pytest.skip("the file system refuses names that are not UTF-8")
    shutil.copy(EXAMPLES / "won.yaml", tmp_path / os.fsdecode(RAW))
    (tmp_path / os.fsdecode(b"bad\xfe.yaml")).write_text("moves: 3\n", encoding="utf-8")
    return tmp_path


def test_validate_shows_the_name_one_way(odd: Path) -> None:
    done = run(["validate", RAW, b"bad\xfe.yaml"], odd)
    assert_clean(done.stdout, done.stderr)
    assert done.returncode == 1
    out, err = done.stdout.decode(), done.stderr.decode()
    assert f"{SHOWN}: 1 game, all valid" in out.splitlines()
    assert all(line.startswith("$'bad\\xfe.yaml'") for line in err.splitlines()), err
    assert any(line.startswith("$'bad\\xfe.yaml'") for line in out.splitlines())
    done = run(["validate", "--format", "json", RAW, b"bad\xfe.yaml"], odd)
    assert_clean(done.stdout, done.stderr)
    results = json.loads(done.stdout.decode("utf-8"))
    assert [r["file"] for r in results][:1] == [SHOWN]
    assert results[-1]["file"] == "$'bad\\xfe.yaml'"
    assert all(e["text"].startswith("$'bad\\xfe.yaml'") for r in results[1:] for e in r["errors"])


@pytest.mark.parametrize("command", [["replay"], ["state"], ["analyze", "--no-bot"], ["hint"], ["validate"]])
def test_every_reader_names_the_file_one_way(odd: Path, command: list[str]) -> None:
    done = run([*command, b"bad\xfe.yaml"], odd)
    assert_clean(done.stdout, done.stderr)
    assert done.returncode == 1
    assert done.stderr.decode().startswith("$'bad\\xfe.yaml'"), done.stderr
    missing = run([*command, b"none\xfe.yaml"], odd)
    assert_clean(missing.stdout, missing.stderr)
    assert missing.stderr.decode().strip().splitlines()[-1] == "$'none\\xfe.yaml': no such file"


def test_a_recording_is_named_one_way(odd: Path) -> None:
    done = run(["play", "--deal", "1", "--record", b"rec\xfe.yaml"], odd, stdin=b"d4\nquit\n")
    assert_clean(done.stdout, done.stderr)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    # (the command goes on a line of its own when the whole line passes 40 columns)
    assert "The transcript is in $'rec\\xfe.yaml':" in out and "foursquare replay $'rec\\xfe.yaml'\n" in out
    assert "Continue it:\n  foursquare play --resume $'rec\\xfe.yaml' --record $'rec\\xfe.yaml'\n" in out
    assert (odd / os.fsdecode(b"rec\xfe.yaml")).exists()
    again = run(["play", "--deal", "1", "--record", b"rec\xfe.yaml"], odd, stdin=b"quit\n")
    assert_clean(again.stdout, again.stderr)
    assert again.stderr.decode().startswith("$'rec\\xfe.yaml': the file exists")
    # the shown name is a shell word naming the same file
    replayed = subprocess.run(
        ["bash", "-c", f"{shlex.quote(sys.executable)} -m foursquare replay {SHOWN.replace('w', 'rec', 1)} >/dev/null"],
        cwd=odd, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120,
    ) if shutil.which("bash") else None
    assert replayed is None or replayed.returncode == 0


@pytest.mark.parametrize(
    "name, shown",
    [
        ("won.yaml", "won.yaml"),
        ("dir/café-1.yaml", "dir/café-1.yaml"),
        ("my game.yaml", "'my game.yaml'"),
        ("it's.yaml", "'it'\"'\"'s.yaml'"),
        ("~/x.yaml", "'~/x.yaml'"),
        ("a\nb", "$'a\\nb'"),
        ("a\0b", "$'a\\0b'"),
        ("w\udcfe'.yaml", "$'w\\xfe\\'.yaml'"),
        ("x\ud800", "$'x\\ud800'"),
        ("<stdin>", "<stdin>"),
    ],
)
def test_shown_name(name: str, shown: str) -> None:
    assert shown_name(name) == shown
    shown.encode("utf-8")  # never a lone surrogate
    assert str(FormatError(name, 3, "why")) == f"{shown}:3: why"


def test_a_name_with_a_space_in_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my game.yaml").write_text("moves: 3\n", encoding="utf-8")
    result = invoke(["validate", "--format", "json", "my game.yaml"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)[0]["file"] == "'my game.yaml'"
    assert result.stderr.startswith("'my game.yaml':")


@pytest.mark.parametrize("command", [["rules"], ["replay", "--rules"]])
@pytest.mark.parametrize(
    ("name", "status", "words"),
    [(b"none\xfe.yaml", 1, "$'none\\xfe.yaml': no such file"), (b"none\xfe", 2, "$'none\\xfe' is neither a preset")],
)
def test_a_rules_name_that_is_no_file_is_shown_one_way(
    odd: Path, command: list[str], name: bytes, status: int, words: str
) -> None:
    """A file's name (a dot) that names no file is a missing file (status 1), a word a usage error."""
    done = run([*command, name, *(["-"] if command[0] == "replay" else [])], odd)
    assert_clean(done.stdout, done.stderr)
    assert done.returncode == status
    assert words in done.stderr.decode()
