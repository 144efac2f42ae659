"""Text from a file (its name, moves, keys, values, a deck's cards, a move script's
words) never reaches the terminal with its control characters raw, in any command's
output: an ANSI escape, an OSC sequence, BEL, backspace, CR, DEL or a C1 control in an
input is shown escaped, as the messages quote input (``quote``, ``shown_name``)."""

from __future__ import annotations

import re

import pytest
from helpers import EXAMPLES, invoke

#: What a terminal would obey: every C0 control but LF and tab, DEL and the C1 controls.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Clear the screen, set the window's title (OSC, ended by BEL), backspace, CR, CSI (C1), DEL.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x08\r\x9b31m\x7f"
#: The same in YAML's double-quoted escapes.
HOSTILE_YAML = '"\\e[2J\\e]0;pwned\\a\\b\\r\\x9b31m\\x7f"'

TRANSCRIPTS = {
    "move": f"foursquare: 1\ndeal: 1\nmoves: [d4, {HOSTILE_YAML}]\n",
    "key": f"foursquare: 1\ndeal: 1\nmoves: [d4]\n{HOSTILE_YAML}: 1\n",
    "value": f"foursquare: 1\ndeal: {HOSTILE_YAML}\nmoves: []\n",
    "card": f"foursquare: 1\ndeal: 1\nmoves: [{{card: {HOSTILE_YAML}, cell: d4}}]\n",
    "rules": f"foursquare: 1\ndeal: 1\nrules: {HOSTILE_YAML}\nmoves: []\n",
    "raw": f"foursquare: 1\ndeal: 1\nmoves: [d4, '{HOSTILE}']\n",
    "script": f"d4\n{HOSTILE}\n",
}


def _commands(path: str) -> list[list[str]]:
    """Every command that reads a game file, given ``path``."""
    return [
        ["validate", path], *(["validate", "--format", fmt, path] for fmt in ("json", "json-lines", "github", "junit")),
        ["replay", path], ["replay", "--format", "yaml", path], ["state", path], ["hint", path],
        ["analyze", "--no-bot", path], ["play", "--resume", path], ["history", "import", path],
        ["play", "--deal", "1", "--deck", path], ["rules", path], ["solve", "--rules", path],
    ]  # fmt: skip


def _assert_escaped(args: list[str], output: str) -> None:
    raw = RAW_CONTROL.search(output)
    assert raw is None, f"foursquare {' '.join(map(repr, args))} printed {raw.group()!r} raw: {output!r}"


@pytest.mark.parametrize("kind", sorted(TRANSCRIPTS))
def test_no_command_prints_a_files_control_characters_raw(tmp_path, kind):
    path = tmp_path / f"{kind}.yaml"
    path.write_text(TRANSCRIPTS[kind], encoding="utf-8")
    for args in _commands(str(path)):
        result = invoke(args, catch_exceptions=False)
        _assert_escaped(args, result.output)


def test_no_command_prints_a_file_names_control_characters_raw(tmp_path):
    path = tmp_path / f"name{HOSTILE}.yaml"
    path.write_text((EXAMPLES / "invalid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    for args in [*_commands(str(path)), ["play", "--deal", "1", "--record", str(path)]]:
        _assert_escaped(args, invoke(args, input="d4\n").output)


def test_a_piped_move_script_is_never_echoed_raw():
    for script in (f"d4\n{HOSTILE}\n", f"2D d4\n3C{HOSTILE} e4\n", f"# {HOSTILE}\nd4 e4 {HOSTILE}\n"):
        args = ["play", "--deal", "1"]
        _assert_escaped(args, invoke(args, input=script).output)
