"""Text in another Unicode encoding (UTF-16 or UTF-32 with its byte-order mark: what
Windows PowerShell 5 writes with ``>``) is named as such by every reader, at line 1,
with what to do; other bytes that are not UTF-8 stay "not UTF-8 text" at their line."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, invoke

from foursquare.engine.deal import deal_deck


def _deck() -> str:
    return " ".join(str(card) for card in deal_deck(89)) + "\n"


#: Every reader of a text file: the file's name and text, the command.
READERS = [
    pytest.param("m.moves", (EXAMPLES / "deal89.moves").read_text(), ["replay", "m.moves", "--deal", "89"], id="replay"),
    pytest.param("w.yaml", (EXAMPLES / "won.yaml").read_text(), ["validate", "w.yaml"], id="validate"),
    pytest.param("s.yaml", (EXAMPLES / "state.yaml").read_text(), ["state", "s.yaml"], id="state"),
    pytest.param("s.yaml", (EXAMPLES / "state.yaml").read_text(), ["play", "--resume", "s.yaml", "--no-history"], id="play-resume"),
    pytest.param("d.txt", _deck(), ["play", "--deck", "d.txt", "--no-history"], id="play-deck"),
    pytest.param("r.yaml", "preset: three-square\npile_cap: 2\n", ["rules", "r.yaml"], id="rules"),
    pytest.param("w.yaml", (EXAMPLES / "won.yaml").read_text(), ["history", "import", "w.yaml"], id="history-import"),
]


@pytest.mark.parametrize("encoding, name", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")])
@pytest.mark.parametrize("file, text, args", READERS)
def test_every_reader_names_utf16_and_utf32(tmp_path, monkeypatch, encoding, name, file, text, args):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    (tmp_path / file).write_bytes(data)
    result = invoke(args)
    assert result.exit_code == 1
    expected = f"{file}:1: not UTF-8 text: it is {name} (it starts with a {name} byte-order mark); save it as UTF-8"
    assert expected in result.stderr.splitlines()


def test_a_move_script_piped_in_as_utf16():
    script = (EXAMPLES / "deal89.moves").read_text().encode("utf-16")
    done = subprocess.run([sys.executable, "-m", "foursquare", "play", "--deal", "89"], input=script, capture_output=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1
    assert done.stderr.decode() == "<stdin>:1: not UTF-8 text: it is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8\n"


@pytest.mark.parametrize("args", [["replay", "m.moves", "--deal", "1"], ["validate", "m.moves"]])
def test_latin1_is_still_not_utf8_at_its_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.moves").write_bytes("d4\n# caf\u00e9\n".encode("latin-1"))
    result = invoke(args)
    assert result.exit_code == 1
    assert "m.moves:2: not UTF-8 text" in result.stderr.splitlines()
    result = invoke(["play", "--deal", "1", "--no-history"], input="d4\n# caf\u00e9\n".encode("latin-1"))
    assert result.exit_code == 1 and result.stderr == "<stdin>:2: not UTF-8 text\n"  # as replay and validate say it
