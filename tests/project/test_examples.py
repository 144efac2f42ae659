"""Every file of examples/ does what examples/README.md says, and every example of the README and the docs runs."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import EXAMPLES, invoke

from foursquare.formats.inputs import read_source
from foursquare.formats.loading import load_input


def load(name: str):
    text, source = read_source(str(EXAMPLES / name))
    return load_input(text, source)


@pytest.mark.parametrize(
    "name, deal, status, reason, score",
    [("won.yaml", 153, "won", None, 8), ("lost.yaml", 21, "lost", "too-many-face-down", None)],
)
def test_recorded_games_validate_and_end_as_claimed(name, deal, status, reason, score):
    result = invoke(["validate", str(EXAMPLES / name)])
    assert result.exit_code == 0 and result.stderr == ""
    game = load(name)
    assert (game.deal, game.status, game.reason, game.score) == (deal, status, reason, score)


def test_move_script_wins_when_piped_into_play():
    result = invoke(["play", "--deal", "89"], input=(EXAMPLES / "deal89.moves").read_text())
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "Won, score 4."


def test_invalid_transcript_gives_exactly_the_expected_errors(monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    result = invoke(["validate", "invalid.yaml"])
    assert result.exit_code == 1
    assert result.stderr == (EXAMPLES / "invalid.expected").read_text()
    assert result.stdout == "invalid.yaml: 4 games, 3 invalid\n"


def test_saved_state_resumes_exactly():
    game = load("state.yaml")
    assert (game.deal, game.placed, str(game.next_card)) == (153, 12, "2D")
    again = invoke(["state", str(EXAMPLES / "state.yaml")])
    assert again.stdout == (EXAMPLES / "state.yaml").read_text()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_script_passes():
    env = dict(os.environ, FOURSQUARE=f"{sys.executable} -m foursquare")
    done = subprocess.run(
        ["bash", str(EXAMPLES / "ci-check.sh")], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("all checks passed")


# ------------------------------------------------------------------ README

ROOT_DIR = EXAMPLES.parent
README = ROOT_DIR / "README.md"


def test_readme_starts_with_the_two_set_up_commands():
    blocks = README.read_text().split("```")
    assert blocks[0] == ""
    assert blocks[1] == (
        "sh\npython3 -m venv .venv && . .venv/bin/activate && pip install -e . && foursquare play --deal 1\n"
    )
    assert blocks[3] == "sh\n. .venv/bin/activate && pip install -e '.[test]' && python -m pytest -q\n"


def test_ci_runs_the_readmes_test_command():
    # issue 42, item 15: .ci/run installs and tests as the README's second command says.
    script = (ROOT_DIR / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test]'" in README.read_text().split("```")[3]
    assert re.search(r"pip install -q -e '\.\[test[,\]]", script)
    assert "pytest_step -q\n" in script


#: The pages whose examples run here: the README and every page of the documentation site.
PAGES = [README, *sorted((EXAMPLES.parent / "docs").rglob("*.md"))]


def page_name(page: Path) -> str:
    return str(page.relative_to(EXAMPLES.parent))


def console_examples():
    for page in PAGES:
        blocks = page.read_text(encoding="utf-8").split("```")
        for block in blocks[1::2]:
            if block.startswith("console\n$ foursquare "):
                command, _, output = block[len("console\n$ ") :].partition("\n")
                yield pytest.param(command, output, id=f"{page_name(page)}: {command}")


@pytest.mark.parametrize("command, output", list(console_examples()))
def test_console_examples_of_the_readme_and_the_docs_are_real_output(command, output, monkeypatch):
    import shlex

    monkeypatch.chdir(EXAMPLES.parent)
    words = shlex.split(command)[1:]
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = Path(words[at + 1]).read_text()
        words = words[:at]
    result = invoke(words, input=stdin)
    assert result.output == output


#: Whether Gymnasium is installed (the gym extra): the pages whose examples import
#: foursquare.gym (docs/guide/training.md) are skipped without it.
HAS_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
_NEEDS_GYMNASIUM = pytest.mark.skipif(not HAS_GYMNASIUM, reason="its examples need the gym extra: pip install -e '.[gym]'")


def _needs_gymnasium(text: str) -> bool:
    return "import foursquare.gym" in text


def python_pages():
    return [
        pytest.param(page, id=page_name(page), marks=[_NEEDS_GYMNASIUM] if _needs_gymnasium(page.read_text(encoding="utf-8")) else [])
        for page in PAGES
        if ">>> " in page.read_text(encoding="utf-8")
    ]


@pytest.mark.parametrize("page", python_pages())
def test_python_examples_of_the_readme_and_the_docs(page, monkeypatch):
    import doctest

    monkeypatch.chdir(EXAMPLES.parent)
    failures, tried = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= 1 and failures == 0


def test_python_examples_of_the_readme_and_the_docs_type_check_with_mypy_strict(tmp_path):
    # (round(best.win_chance, 2) failed mypy --strict: win_chance is float | None)
    import doctest
    import re

    blocks = [
        block
        for page in PAGES
        if HAS_GYMNASIUM or not _needs_gymnasium(page.read_text(encoding="utf-8"))
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    ]
    assert len(blocks) >= 2
    files = []
    for number, block in enumerate(blocks, 1):
        path = tmp_path / f"readme_example_{number}.py"
        path.write_text("".join(example.source for example in doctest.DocTestParser().get_examples(block)), encoding="utf-8")
        files.append(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), *files],
        capture_output=True, text=True, cwd=EXAMPLES.parent, timeout=600,  # (where the package is found)
    )
    assert done.returncode == 0, done.stdout + done.stderr


# The other sessions shown (```text blocks starting "$ foursquare"): their output holds
# figures of time or of the machine, so they are compared with those figures left out;
# a line "..." stands for lines left out. The sessions that need a history or a terminal
# are checked by their own tests, named here.
CHECKED_ELSEWHERE = {
    "foursquare play --deal 1 --ascii --record deal1.yaml": "cli/test_cli_play.py (at 40 columns)",
    "foursquare stats": "history/test_stats.py (a history of those games)",
    "foursquare history --limit 4": "illustrative: your own games, on your dates",
}
#: Figures that change from run to run or machine to machine: times, the search core.
VARYING = re.compile(r"\d+(\.\d+)? ?(µs|ms|s)\b|seconds: [\d.]+|search core: [^\n]*")


def text_sessions():
    for page in PAGES:
        for block in page.read_text(encoding="utf-8").split("```")[1::2]:
            lang, _, body = block.partition("\n")
            body = textwrap.dedent(body)
            if lang == "text" and body.startswith("$ foursquare "):
                command, _, output = body[2:].partition("\n")
                if command not in CHECKED_ELSEWHERE:
                    yield pytest.param(command, output, id=f"{page_name(page)}: {command}")


def _same_but_the_varying_figures(shown: str, real: str) -> bool:
    """Whether ``real`` holds the lines ``shown`` in order ("..." for any lines), times aside."""
    real_lines = iter(VARYING.sub("#", real).splitlines())
    shown_lines = VARYING.sub("#", shown).rstrip("\n").splitlines()
    at_any = False
    for line in shown_lines:
        if line.strip() == "...":
            at_any = True
            continue
        for other in real_lines:
            if other == line:
                break
            if not at_any:
                return False
        else:
            return False
        at_any = False
    return at_any or next(real_lines, None) is None


@pytest.mark.parametrize("command, output", list(text_sessions()))
def test_text_sessions_of_the_docs_are_real_output_but_for_times(command, output, monkeypatch):
    import shlex

    monkeypatch.chdir(EXAMPLES.parent)
    result = invoke(shlex.split(command)[1:], prog_name="foursquare")
    assert _same_but_the_varying_figures(output, result.output), result.output
