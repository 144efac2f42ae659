"""Kinds of bad input, each told one way by every command that reads it (FORMATS.md:
status 1 for a bad file, 2 for a usage error; one ``FILE[:LINE]: message`` line,
never a traceback).

- A tab where YAML wants spaces: one message, at the tab's line, from every YAML
  reader (transcript, state, rules file) and from either parser (libyaml's or PyYAML's).
- A binary file (a NUL byte): ``FILE:LINE: a binary file, not text``, from the one
  place files are read (:class:`foursquare.formats.inputs.InputFile`), for every command,
  never "not YAML", "not a card" or "a move script".
- A missing input file: ``FILE: no such file``, status 1, in every command, ``rules
  FILE`` and ``--rules FILE`` too (a value written as a file's name); only a word that
  is neither a preset nor a file is a usage error (a misspelt preset, status 2).
- A bad environment value: ``FOURSQUARE_HOME`` set but empty is an error (status 1,
  as one naming a file), never the default data folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES, ROOT, invoke

from foursquare.formats.inputs import BINARY_WORDS, InputFile, read_source
from foursquare.formats.yaml import TAB_WORDS, read_documents, strict

# ------------------------------------------------------------------ a tab in YAML

#: A transcript, a state and a rules file, each with a tab (line 4, 3, 3) where
#: YAML wants spaces: as indentation, after ``-``, in an indentation of spaces.
TABBED = {
    "transcript.yaml": ("foursquare: 1\ndeal: 1\nmoves:\n\t- \"2D d4\"\n", 4),
    "after-dash.yaml": ("foursquare: 1\ndeal: 1\nmoves:\n-\t\"2D d4\"\n", 4),
    "state.yaml": ("foursquare: 1\nrules: standard\n \tplaced: 6\n", 3),
    "rules.yaml": ("preset: fixed-board\nties:\n\tcount\n", 3),
}

#: The commands that read each file (FILE stands for it).
READERS = {
    "transcript.yaml": [["validate", "FILE"], ["replay", "FILE"], ["state", "FILE"], ["analyze", "--no-bot", "FILE"]],
    "after-dash.yaml": [["validate", "FILE"], ["replay", "FILE"]],
    "state.yaml": [["state", "FILE"], ["replay", "FILE"], ["play", "--resume", "FILE"]],
    "rules.yaml": [["rules", "FILE"], ["replay", "--deal", "1", "--rules", "FILE", str(EXAMPLES / "deal89.moves")]],
}

CASES = [(name, args) for name, commands in READERS.items() for args in commands]


@pytest.fixture(params=["libyaml", "pure"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with PyYAML's C parser (when there) and its pure-Python one."""
    if request.param == "pure":
        monkeypatch.setattr(strict, "LOADER", yaml.SafeLoader)
    elif not hasattr(yaml, "CSafeLoader"):
        pytest.skip("libyaml is not installed")
    return str(request.param)


@pytest.mark.parametrize(("name", "args"), CASES, ids=lambda x: x if isinstance(x, str) else " ".join(x[:-1]))
def test_a_tab_is_one_message_from_every_reader(tmp_path: Path, parser: str, name: str, args: list[str]) -> None:
    text, line = TABBED[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = invoke([str(path) if a == "FILE" else a for a in args], catch_exceptions=True)
    assert result.exit_code == 1, result.output
    errors = result.stderr.strip().splitlines()
    assert errors, result.output
    last = errors[-1]
    assert last.startswith(f"{path}:{line}: ") and last.endswith(TAB_WORDS), last
    assert "Traceback" not in result.output and "cannot start any token" not in result.output


def test_a_tab_in_a_quoted_value_or_a_comment_is_no_error(tmp_path: Path) -> None:
    """Only a tab where YAML wants spaces is refused: inside a quoted value it is text."""
    path = tmp_path / "rules.yaml"
    path.write_text('# a\ttab in a comment\npreset: "fixed-board"\n', encoding="utf-8")
    result = invoke(["rules", path])
    assert result.exit_code == 0, result.output
    assert read_documents('a: "b\tc"\n', "f")[0] is not None


def test_a_yaml_error_that_is_no_tab_keeps_its_words(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("preset: [fixed-board\n", encoding="utf-8")
    result = invoke(["rules", path])
    assert result.exit_code == 1
    assert "YAML syntax error" in result.stderr and "tab" not in result.stderr


def test_a_tab_through_a_real_process(tmp_path: Path) -> None:
    text, line = TABBED["transcript.yaml"]
    (tmp_path / "tab.yaml").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "validate", "tab.yaml"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env(),
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"tab.yaml:{line}: ")
    assert done.stderr.splitlines()[-1].endswith(TAB_WORDS)
    assert "Traceback" not in done.stderr


def _env() -> dict[str, str]:
    """The environment of a real process: this one's, with the package on the path."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


# ------------------------------------------------------------ a binary file

#: Every command that reads a file, and where (FILE stands for it).
FILE_READERS = [
    ["validate", "FILE"],
    ["replay", "--deal", "1", "FILE"],
    ["state", "--deal", "1", "FILE"],
    ["analyze", "--no-bot", "--max-nodes", "100", "FILE"],
    ["hint", "FILE"],
    ["play", "--resume", "FILE"],
    ["play", "--deck", "FILE"],
    ["solve", "--deck", "FILE"],
    ["rules", "FILE"],
    ["replay", "--deal", "1", "--rules", "FILE", str(EXAMPLES / "deal89.moves")],
]

#: Binary inputs, with the line of their first NUL: a move script, a transcript, a
#: program's first bytes (valid UTF-8 up to the NUL), bytes that are no UTF-8 after it.
BINARY = {
    "script": (b"5C d4\n\x009D e4\n", 2),
    "transcript": (b"foursquare: 1\ndeal: 1\nmoves: []\x00\n", 3),
    "program": (b"\x7fELF\x02\x01\x01\x00\x00\x00\xfe\xff\n", 1),
}


@pytest.mark.parametrize("kind", BINARY)
@pytest.mark.parametrize("args", FILE_READERS, ids=lambda a: " ".join(x for x in a if "/" not in x))
def test_a_binary_file_is_said_to_be_binary_by_every_command(tmp_path: Path, kind: str, args: list[str]) -> None:
    data, line = BINARY[kind]
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    result = invoke([str(path) if a == "FILE" else a for a in args], catch_exceptions=True)
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines()[-1] == f"{path}:{line}: {BINARY_WORDS}"
    assert "Traceback" not in result.output and "YAML" not in result.stderr


@pytest.mark.parametrize("args", [["validate", "-"], ["replay", "--deal", "1", "-"], ["rules", "-"]])
def test_binary_standard_input_is_said_to_be_binary(args: list[str]) -> None:
    result = invoke(args, input=b"5C d4\n\x00\n")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == f"<stdin>:2: {BINARY_WORDS}"


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_the_nul_is_found_at_its_line_in_any_block(tmp_path: Path, chunk: int) -> None:
    """However the file comes in blocks, the NUL is found at its line, and the lines
    before it are given first (as for text that is not UTF-8)."""
    path = tmp_path / "f"
    path.write_bytes("a: 1\nb: é\nc: 3\x00\n".encode())
    source = InputFile(str(path), chunk=chunk)
    got: list[str] = []
    with source, pytest.raises(Exception) as caught:
        got.extend(source)
    assert str(caught.value) == f"{path}:3: {BINARY_WORDS}"
    assert "".join(got) == "a: 1\nb: é\n"  # the lines before the NUL's


def test_a_nul_after_bad_utf8_is_still_not_utf8_and_utf16_keeps_its_advice(tmp_path: Path) -> None:
    """The first fault is said: bytes that are no UTF-8 before the NUL are "not UTF-8"; a
    UTF-16 file (its byte-order mark, then NULs) keeps its advice to save it as UTF-8."""
    path = tmp_path / "f.yaml"
    path.write_bytes(b"a: \xfe\n\x00\n")
    assert invoke(["validate", path]).stderr.strip() == f"{path}:1: not UTF-8 text"
    path.write_bytes("foursquare: 1\n".encode("utf-16"))
    assert "it is UTF-16" in invoke(["validate", path]).stderr
    path.write_bytes(b"a\n\x00")
    with pytest.raises(Exception, match=re.escape(f"{path}:2: {BINARY_WORDS}")):
        read_source(str(path))


@pytest.mark.parametrize("data", [b"d4\n\x00\n", b"d4\ne4\x00\n", "d4\ne4\x00\n"])
def test_a_binary_move_script_piped_to_play_is_said_to_be_binary(data: bytes | str) -> None:
    """play reads its moves line by line, from bytes or (under some runners) text: a NUL
    is binary input at its line, after the moves before it are played."""
    result = invoke(["play", "--deal", "1", "--no-history"], input=data)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == f"<stdin>:2: {BINARY_WORDS}"
    assert "not a cell" not in result.stderr


def test_a_binary_move_script_piped_to_play_through_a_real_process(tmp_path: Path) -> None:
    (tmp_path / "moves").write_bytes(b"d4\ne4\x00\n")
    with open(tmp_path / "moves", "rb") as moves:
        done = subprocess.run(
            [sys.executable, "-m", "foursquare", "play", "--deal", "1", "--no-history"],
            cwd=tmp_path, stdin=moves, capture_output=True, text=True, timeout=120, env=_env(),
        )
    assert done.returncode == 1
    assert f"<stdin>:2: {BINARY_WORDS}" in done.stderr.splitlines()
    assert "Traceback" not in done.stderr and "not a cell" not in done.stderr


def test_a_binary_file_through_a_real_process(tmp_path: Path) -> None:
    (tmp_path / "game.bin").write_bytes(BINARY["script"][0])
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "validate", "game.bin"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env(),
    )
    assert done.returncode == 1
    assert f"game.bin:2: {BINARY_WORDS}" in done.stderr.splitlines()
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------ a missing file

#: Every command that reads a file, the rules ones included (FILE stands for it).
MISSING_READERS = [
    *FILE_READERS,
    ["state", "--deal", "1", "--rules", "FILE"],
    ["solve", "--deal", "1", "--rules", "FILE"],
    ["analyze", "--no-bot", "--deal", "1", "--rules", "FILE", str(EXAMPLES / "deal89.moves")],
]


@pytest.mark.parametrize("name", ["nosuch.yaml", "folder/nosuch", "./nosuch"])
@pytest.mark.parametrize("args", MISSING_READERS, ids=lambda a: " ".join(x for x in a if "/" not in x))
def test_a_missing_file_is_one_rule_in_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke([name if a == "FILE" else a for a in args], catch_exceptions=True)
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines()[-1] == f"{name}: no such file"
    assert "Usage:" not in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("args", [["rules", "fixd-board"], ["replay", "--deal", "1", "--rules", "fixd-board", "-"]])
def test_a_word_that_is_no_preset_and_no_file_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(args)
    assert result.exit_code == 2
    assert "Usage:" in result.stderr and "fixd-board is neither a preset (standard, fixed-board" in result.stderr


def test_a_file_named_as_a_word_is_still_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is there is read whatever its name (``house``, no dot)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house").write_text("preset: fixed-board\nties: count\n", encoding="utf-8")
    result = invoke(["rules", "house"])
    assert result.exit_code == 0, result.output
    assert "* ties: count" in result.stdout


@pytest.mark.parametrize(
    ("args", "status"),
    [(["rules", "nosuch.yaml"], 1), (["replay", "nosuch.yaml"], 1), (["validate", "nosuch.yaml"], 1),
     (["state", "nosuch.yaml"], 1), (["rules", "nosuch"], 2)],
)
def test_missing_files_through_a_real_process(tmp_path: Path, args: list[str], status: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env(),
    )
    assert done.returncode == status, done.stderr
    if status == 1:
        assert done.stderr == f"{args[-1]}: no such file\n"
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------ FOURSQUARE_HOME set but empty

EMPTY_HOME_WORDS = "FOURSQUARE_HOME is set but empty: set it to the data folder, or unset it"


@pytest.mark.parametrize("value", ["", "  "])
@pytest.mark.parametrize("args", [["stats"], ["stats", "--format", "json"], ["history"], ["history", "export"]])
def test_an_empty_home_is_an_error_for_the_history_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, args: list[str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # the default folder: never used
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FOURSQUARE_HOME", value)
    result = invoke(args)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(EMPTY_HOME_WORDS) and len(result.stderr.splitlines()) == 1
    assert result.stdout == "" and not (tmp_path / "config").exists()


def test_play_with_an_empty_home_warns_and_plays_unrecorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FOURSQUARE_HOME", "")
    result = invoke(["play", "--deal", "1", "--history"], input="d4\n")
    assert result.exit_code == 0, result.output
    assert f"{EMPTY_HOME_WORDS}" in result.stderr and "This game is not recorded in the history." in result.stderr
    assert list(tmp_path.iterdir()) == []  # no history made anywhere
    quiet = invoke(["play", "--deal", "1"], input="d4\n")  # a script keeps no history unless asked
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_a_home_that_is_set_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    result = invoke(["stats", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["history"] == str(tmp_path / "home" / "history.sqlite3")


def test_an_empty_home_through_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "foursquare", "stats"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**_env(), "FOURSQUARE_HOME": "", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c")},
    )
    assert done.returncode == 1
    assert done.stderr.startswith(EMPTY_HOME_WORDS) and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
