"""``FOURSQUARE_HOME`` is read as a person writes it: a leading ``~`` is the home folder
(quoted, the shell leaves it as it is), a relative name is taken from the folder the
command runs in, once, so the history stays where it was made and messages name it in
full (CliRunner, and the real program in a subprocess)."""

from __future__ import annotations

import json
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


# ------------------------------------------------ the default folder: HOME and XDG_CONFIG_HOME as they are set

posix_only = pytest.mark.skipif(sys.platform.startswith("win") or sys.platform == "darwin", reason="the XDG folders")
EMPTY_HOME = "HOME is set but empty: set it to your home folder, or set FOURSQUARE_HOME to the data folder"


def _default(monkeypatch: pytest.MonkeyPatch, home: str, xdg: str | None = None) -> None:
    monkeypatch.delenv("FOURSQUARE_HOME")
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)


@posix_only
@pytest.mark.parametrize("home, why", [("", EMPTY_HOME), ("  ", EMPTY_HOME), ("me", EMPTY_HOME.replace("is set but empty", "is not an absolute path ('me')"))],
                         ids=["empty", "white space", "relative"])
def test_a_home_that_names_no_folder_is_an_error_for_every_command(
    home: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _default(monkeypatch, home)
    monkeypatch.chdir(tmp_path)
    # the readers first: without the fix, they name /.config/foursquare (and import would make it)
    for args in (["stats"], ["stats", "--format", "json"], ["history"], ["history", "export"],
                 ["history", "import", str(EXAMPLES / "won.yaml")]):
        done = invoke(args)
        assert (done.exit_code, done.stdout, done.stderr) == (1, "", why + "\n"), args
    played = invoke(["play", "--deal", "1", "--history", "--ascii"], input="d4\nquit\n")
    assert played.exit_code == 0 and "Stopped after 1 card placed." in played.stdout
    assert played.stderr == why + ". This game is not recorded in the history.\n"
    assert os.listdir(tmp_path) == []  # nothing made in the current folder either


def test_a_leading_tilde_with_an_empty_home_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "")
    monkeypatch.setenv("FOURSQUARE_HOME", "~/games")
    done = invoke(["stats"])
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == "HOME is set but empty: so '~' in FOURSQUARE_HOME names no folder: set HOME, or write the data folder in full\n"


@posix_only
@pytest.mark.parametrize("xdg", ["", "relative/config"], ids=["empty", "relative"])
def test_an_empty_or_relative_xdg_config_home_is_ignored(xdg: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _default(monkeypatch, str(tmp_path / "me"), xdg)
    monkeypatch.chdir(tmp_path)
    done = invoke(["stats", "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["history"] == str(tmp_path / "me" / ".config" / "foursquare" / "history.sqlite3")


@posix_only
def test_an_absolute_xdg_config_home_is_the_default_folder_even_with_an_empty_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _default(monkeypatch, "", str(tmp_path / "config"))
    assert invoke(["history", "import", str(EXAMPLES / "won.yaml")]).exit_code == 0
    assert (tmp_path / "config" / "foursquare" / "history.sqlite3").is_file()


@posix_only
def test_the_real_program_with_an_empty_home_says_so_and_plays_unrecorded(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("FOURSQUARE_HOME", "XDG_CONFIG_HOME")}
    env["HOME"] = ""
    command = [sys.executable, "-m", "foursquare"]
    stats = subprocess.run([*command, "stats"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert (stats.returncode, stats.stdout, stats.stderr) == (1, "", EMPTY_HOME + "\n")
    played = subprocess.run([*command, "play", "--deal", "1", "--history"], input="d4\nquit\n",
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert played.returncode == 0 and played.stderr == EMPTY_HOME + ". This game is not recorded in the history.\n"


@pytest.mark.parametrize("appdata", [r"C:\Users\me\AppData\Roaming", None], ids=["APPDATA", "no APPDATA"])
def test_on_windows_the_default_folder_is_the_one_click_names(appdata: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    # click.get_app_dir("foursquare") on Windows (roaming): %APPDATA%\foursquare, the home folder without APPDATA
    from foursquare.app.datafolder import default_folder

    monkeypatch.setattr(sys, "platform", "win32")
    if appdata is None:
        monkeypatch.delenv("APPDATA", raising=False)
    else:
        monkeypatch.setenv("APPDATA", appdata)
    expected = os.path.join(os.path.expanduser("~") if appdata is None else appdata, "foursquare")
    assert default_folder() == expected
