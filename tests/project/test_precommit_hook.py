"""The pre-commit hook (.pre-commit-hooks.yaml at the root) and the example configuration
of a repository of games that uses it (examples/.pre-commit-config.yaml): the keys
pre-commit reads, and which file names the hook checks (docs/guide/ci.md, "A pre-commit hook")."""

from __future__ import annotations

import configparser
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES, ROOT

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
CONFIG = yaml.safe_load((EXAMPLES / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
HOOK = HOOKS[0]


def checked(path: str) -> bool:
    """Whether pre-commit runs the hook on ``path`` (it matches ``files`` and ``exclude`` with re.search)."""
    return bool(re.search(HOOK["files"], path)) and not re.search(HOOK.get("exclude", "^$"), path)


def test_the_manifest_has_the_keys_pre_commit_needs():
    assert isinstance(HOOKS, list) and len(HOOKS) == 1
    assert {"id", "name", "entry", "language"} <= set(HOOK)
    assert HOOK["id"] == "foursquare-validate"
    assert HOOK["entry"] == "foursquare validate"
    assert HOOK["language"] == "python"  # pre-commit installs this repository with pip
    for key in ("files", "exclude"):
        re.compile(HOOK[key])


def test_the_entry_is_the_installed_command():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    scripts = config["options.entry_points"]["console_scripts"]
    program, command = shlex.split(HOOK["entry"])
    assert re.search(rf"^\s*{program}\s*=", scripts, re.M)
    assert command == "validate"


@pytest.mark.parametrize(
    "path",
    ["games/deal-153.yaml", "games/2024/won.yml", "archive/games/lost.yaml", "games/deal-1.transcript.yaml"],
)
def test_the_hook_checks_the_transcripts_of_a_games_folder(path):
    assert checked(path)


@pytest.mark.parametrize(
    "path",
    [
        "games/deal-153.state.yaml",  # a state: validate says it is no transcript
        "games/deal-153.view.yaml",  # a player's view
        "games/house.rules.yaml",  # a rules file
        ".pre-commit-config.yaml",
        ".github/workflows/validate.yml",
        "notes/games.yaml",
        "games/deal-89.moves",  # a move script: replay reads it, not validate
        "games/README.md",
    ],
)
def test_the_hook_leaves_other_files_alone(path):
    assert not checked(path)


def test_the_example_configuration_uses_the_hook():
    (repo,) = CONFIG["repos"]
    assert {"repo", "rev", "hooks"} <= set(repo)
    assert repo["repo"].startswith("https://")
    assert isinstance(repo["rev"], str) and repo["rev"]
    assert [hook["id"] for hook in repo["hooks"]] == [HOOK["id"]]


def test_the_example_configuration_names_no_tag_the_repository_lacks():
    # (rev: v0.1.0 named a tag that does not exist: pre-commit could not check it out)
    (repo,) = CONFIG["repos"]
    tags = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert repo["rev"] == "<commit>" or repo["rev"] in tags


def test_the_entry_run_on_checked_files_validates_them(tmp_path):
    # what pre-commit runs: the entry and the names of the files it checks, as a real process
    games = tmp_path / "games"
    games.mkdir()
    (games / "won.yaml").write_text((EXAMPLES / "won.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (games / "won.state.yaml").write_text((EXAMPLES / "state.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    names = sorted(p.relative_to(tmp_path).as_posix() for p in games.iterdir())
    files = [name for name in names if checked(name)]
    assert files == ["games/won.yaml"]
    program = Path(sys.executable).with_name(shlex.split(HOOK["entry"])[0])
    run = subprocess.run([program, *shlex.split(HOOK["entry"])[1:], *files], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    (games / "bad.yaml").write_text("foursquare: 1\ndeal: 1\nmoves: [d4, no]\n", encoding="utf-8")
    run = subprocess.run([program, "validate", "games/bad.yaml"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1 and "games/bad.yaml:3" in run.stderr
