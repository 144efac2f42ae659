"""What a usage error looks like, as README.md ("Everything else") states it: Click's
four lines on stderr (the usage, where the help is, a blank line, ``Error: message``),
status 2, nothing on stdout; an error in the input is one line instead."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from helpers import EXAMPLES, ROOT, invoke

README = ROOT / "README.md"

#: Usage errors of every kind: an unknown option, a bad value, a missing option, options
#: that do not go together, an option that needs another, no such command, a file that
#: disagrees with an option, an option given twice, stdin given twice, a subgroup's command,
#: an option without its value, a missing choice.
USAGE_ERRORS = [
    (["solve", "--bogus"], "solve"),
    (["solve", "--deals", "0-x"], "solve"),
    (["simulate"], "simulate"),
    (["play", "--deal", "1", "--deck", "d.txt"], "play"),
    (["solve", "--force"], "solve"),
    (["sovle"], ""),
    (["replay", str(EXAMPLES / "won.yaml"), "--deal", "1"], "replay"),
    (["state", "--deal", "1", "--deal", "2"], "state"),
    (["replay", "-", "--deck", "-"], "replay"),
    (["history", "export", "--bogus"], "history export"),
    (["solve", "--deals", "0-3", "--output", "-", "--format", "json"], "solve"),
    (["solve", "--deals"], "solve"),  # an option without its value: Click gives no usage, we add it
    (["schema"], "schema"),  # a missing choice: Click lists the values on lines of their own
    (["--bogus"], ""),
    (["history", "bogus"], "history"),
]


@pytest.mark.parametrize("args, command", USAGE_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_usage_error_is_the_four_lines_the_readme_shows(args, command):
    result = invoke(args, prog_name="foursquare")
    assert result.exit_code == 2 and result.stdout == "", result.output
    lines = result.stderr.split("\n")
    path = f"foursquare {command}".strip()
    assert len(lines) == 5 and lines[-1] == "", result.stderr  # four lines, each ended
    assert lines[0].startswith(f"Usage: {path} ")
    assert lines[1] == f"Try '{path} --help' for help."
    assert lines[2] == ""
    assert lines[3].startswith("Error: ") and len(lines[3]) > len("Error: ")


def test_a_missing_choice_names_its_values_on_the_message_line():
    result = invoke(["schema"], prog_name="foursquare")
    assert result.stderr.splitlines()[-1] == "Error: Missing argument '{transcript|state|rules}'. Choose from: transcript, state, rules"


def test_the_readme_example_is_the_real_output():
    text = README.read_text()
    start = text.index("  ```text\n  $ foursquare solve --force\n")
    block = textwrap.dedent(text[start : text.index("  ```\n", start + 10)]).split("\n", 1)[1]
    command, _, shown = block.partition("\n")
    done = subprocess.run([sys.executable, "-m", "foursquare", *command.split()[2:]], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == shown


def test_an_input_error_is_one_line(tmp_path):
    bad = tmp_path / "bad.moves"
    bad.write_text("d4\ne4 f4\n")
    result = invoke(["replay", bad, "--deal", "1"])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and result.stderr.startswith(f"{bad}:2: ")
