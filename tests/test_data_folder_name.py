"""``FOURSQUARE_HOME`` is read as a person writes it: a leading ``~`` is the home folder
(quoted, the shell leaves it as it is), a relative name is taken from the folder the
command runs in, once, so the history stays where it was made and messages name it in
full (CliRunner, and the real program in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLES, invoke


def test_a_leading_tilde_is_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    monkeypatch.setenv("FOURSQUARE_HOME", "~/games")
    monkeypatch.chdir(tmp_path)
    done = invoke(["history", "import", str(EXAMPLES / "won.yaml")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "me" / "games" / "history.sqlite3").is_file()
    assert not (tmp_path / "~").exists()  # no folder named '~' in the current folder
    listed = invoke(["history"])
    assert listed.exit_code == 0 and "won, score" in listed.output


def test_a_relative_name_is_named_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURSQUARE_HOME", "data")
    monkeypatch.chdir(tmp_path)
    done = invoke(["history"])
    assert done.exit_code == 0, done.output
    assert str(tmp_path / "data" / "history.sqlite3") in done.output


def test_the_real_program_reads_the_same_folder_from_anywhere(tmp_path: Path) -> None:
    env = dict(os.environ, HOME=str(tmp_path), FOURSQUARE_HOME="~/fs")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for cwd in (tmp_path, elsewhere):
        args = ["history", "import", str(EXAMPLES / "won.yaml")] if cwd == tmp_path else ["history"]
        done = subprocess.run(
            [sys.executable, "-m", "foursquare", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
        )
        assert done.returncode == 0, done.stderr
    assert "won, score" in done.stdout
    assert (tmp_path / "fs" / "history.sqlite3").is_file()
