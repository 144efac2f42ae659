"""Kinds of bad input, each told one way by every command that reads it (FORMATS.md:
status 1 for a bad file, 2 for a usage error; one ``FILE[:LINE]: message`` line,
never a traceback).

- A tab where YAML wants spaces: one message, at the tab's line, from every YAML
  reader (transcript, state, rules file) and from either parser (libyaml's or PyYAML's).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import EXAMPLES, ROOT, invoke

from foursquare.formats import yamlio
from foursquare.formats.yamlio import TAB_WORDS

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
        monkeypatch.setattr(yamlio, "_LOADER", yaml.SafeLoader)
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
    assert yamlio.read_documents('a: "b\tc"\n', "f")[0] is not None


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
