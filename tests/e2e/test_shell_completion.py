"""The shell's Tab completion of the command line (foursquare/cli/shellcompletion.py):
in a real bash, the rule presets of ``--rules`` and ``rules`` and the file names
both come back (Click's own script dropped the presets for its ``file`` item), a
file-only parameter is still bash's own file completion, and zsh and fish still get
the presets and their ``file`` item.  Each bash here sources the script the program
writes (``_FOURSQUARE_COMPLETE=bash_source foursquare``); the candidates themselves
(presets, files, bots) are asked of the program as bash's script asks them."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import invoke

from foursquare.bots import BOTS
from foursquare.engine.rules import PRESETS

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

#: The commands whose rules value is completed: (the words before the value).
RULES_WORDS = ["play --rules", "simulate --deals 0-9 --rules", "hint --rules", "solve --rules", "replay --rules", "rules"]


def _environment() -> dict[str, str]:
    """This Python's ``foursquare`` first on the PATH."""
    folder = os.path.dirname(sys.executable)
    return dict(os.environ, PATH=folder + os.pathsep + os.environ.get("PATH", ""))


def _folder(tmp_path: Path) -> Path:
    """A folder with two rules files, one starting with ``th`` as ``three-square`` does, and a folder."""
    (tmp_path / "thick.yaml").write_text("preset: standard\n")
    (tmp_path / "other.yaml").write_text("preset: standard\n")
    (tmp_path / "thin").mkdir()
    return tmp_path


def _bash_reply(words: list[str], cwd: Path) -> list[str]:
    """COMPREPLY of the program's bash script for the last of ``words`` (after ``foursquare``)."""
    script = (
        'eval "$(_FOURSQUARE_COMPLETE=bash_source foursquare)"\n'
        'COMP_WORDS=(foursquare "$@"); COMP_CWORD=$#\n'
        "_foursquare_completion foursquare 2>/dev/null\n"  # (compopt speaks only to a real Tab)
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script, "bash", *words],
        capture_output=True, text=True, cwd=cwd, env=_environment(), timeout=120, check=True,
    )
    return [line for line in done.stdout.splitlines() if line]


@pytest.mark.parametrize("before", RULES_WORDS)
def test_bash_completes_the_rules_presets_and_the_files_together(tmp_path, before):
    folder = _folder(tmp_path)
    reply = _bash_reply([*before.split(), "th"], folder)
    assert reply == ["three-square", "thick.yaml", "thin"]


def test_bash_offers_every_preset_then_every_file_for_an_empty_rules_value(tmp_path):
    folder = _folder(tmp_path)
    reply = _bash_reply(["rules", ""], folder)
    assert reply[: len(PRESETS)] == list(PRESETS)
    assert sorted(reply[len(PRESETS) :]) == ["other.yaml", "thick.yaml", "thin"]


def test_bash_completes_a_rules_file_that_matches_no_preset_with_its_own_file_completion(tmp_path):
    folder = _folder(tmp_path)
    assert _bash_reply(["play", "--rules", "oth"], folder) == []  # no name: bash's own file completion, as Click's


def test_bash_leaves_a_file_parameter_to_its_own_file_completion_and_names_stay_names(tmp_path):
    folder = _folder(tmp_path)
    assert _bash_reply(["replay", ""], folder) == []  # Click's way: the reply empty, bash completes the files
    assert _bash_reply(["hint", "--bot", ""], folder) == list(BOTS)


def test_the_bash_script_is_ours_in_process_too():
    done = invoke([], env={"_FOURSQUARE_COMPLETE": "bash_source"}, prog_name="foursquare")
    assert done.exit_code == 0
    assert "compgen -f" in done.stdout and "complete -o nosort -F _foursquare_completion foursquare" in done.stdout


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_still_get_the_presets_and_their_file_item(shell):
    env = dict(_environment(), _FOURSQUARE_COMPLETE=f"{shell}_complete")
    if shell == "zsh":
        env.update(COMP_WORDS="foursquare play --rules th", COMP_CWORD="3")
    else:
        env.update(COMP_WORDS="foursquare play --rules th", COMP_CWORD="th")
    out = subprocess.run(
        [sys.executable, "-m", "foursquare"], env=env, capture_output=True, text=True, timeout=60, check=True
    ).stdout
    if shell == "zsh":
        assert out.splitlines() == ["plain", "three-square", "_", "file", "th", "_"]
    else:
        assert out.splitlines() == ["plain,three-square", "file,th"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal as on Linux")
def test_a_real_tab_in_an_interactive_bash_lists_the_presets_and_the_files(tmp_path):
    folder = _folder(tmp_path)
    script = tmp_path / "completion.bash"
    script.write_bytes(
        subprocess.run(
            ["foursquare"], env=dict(_environment(), _FOURSQUARE_COMPLETE="bash_source"),
            capture_output=True, timeout=60, check=True,
        ).stdout
    )
    master, slave = pty.openpty()
    env = dict(_environment(), TERM="dumb", PS1="$ ", INPUTRC=os.devnull)
    shell = subprocess.Popen(
        ["bash", "--norc", "--noprofile", "-i"], stdin=slave, stdout=slave, stderr=slave,
        cwd=folder, env=env, close_fds=True,
    )
    os.close(slave)
    screen = b""

    def read_until(token: bytes) -> bool:
        nonlocal screen
        end = time.monotonic() + 60
        while token not in screen and time.monotonic() < end:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    screen += os.read(master, 4096)
                except OSError:
                    break
        return token in screen

    try:
        os.write(master, f"source {script}; echo sourced\n".encode())
        assert read_until(b"sourced"), screen
        os.write(master, b"foursquare play --rules th\t\t")  # two Tabs: the list of the candidates
        assert read_until(b"thin/"), screen
        listed = screen.split(b"--rules th", 1)[1]
        assert b"three-square" in listed and b"thick.yaml" in listed
        os.write(master, b"\x15foursquare rules thr\t")  # one candidate: completed on the line
        assert read_until(b"rules three-square "), screen
    finally:
        os.write(master, b"\x15exit\n")
        shell.wait(60)
        os.close(master)


def _complete(words: str) -> list[tuple[str, str]]:
    """What bash completion offers for the last word of ``words`` (``foursquare ...``)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, _FOURSQUARE_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=str(len(words.split(" ")) - 1))
    out = subprocess.run(
        [sys.executable, "-m", "foursquare"], env=env, capture_output=True, text=True, timeout=60, check=True
    ).stdout
    return [tuple(line.split(",", 1)) for line in out.splitlines()]  # type: ignore[misc]


@pytest.mark.parametrize("command", ["play", "simulate --deals 0-9", "hint", "solve", "rules"])
def test_completion_offers_the_rule_presets_and_files(command):
    from foursquare.engine.rules import PRESETS

    option = "" if command == "rules" else " --rules"
    offered = _complete(f"foursquare {command}{option} ")
    assert [v for kind, v in offered if kind == "plain"] == list(PRESETS)
    assert ("file", "") in offered
    assert [v for kind, v in _complete(f"foursquare {command}{option} th") if kind == "plain"] == ["three-square"]


@pytest.mark.parametrize("words", ["foursquare hint --bot ", "foursquare simulate --bot ", "foursquare simulate --vs "])
def test_completion_offers_the_bots(words):
    from foursquare.bots import BOTS

    assert [v for kind, v in _complete(words) if kind == "plain"] == list(BOTS)
