"""Reading a file block by block (issue 17): the same documents, lines and errors as
reading it whole, in memory that does not grow with the file, and a pipe's first
documents read before the pipe ends."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc

import pytest
from helpers import EXAMPLES, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare.errors import FormatError
from foursquare.formats import inputs, transcript
from foursquare.formats.inputs import InputFile
from foursquare.formats.yaml import cut, iter_pieces, read_each_document

WON = (EXAMPLES / "won.yaml").read_text(encoding="utf-8")
INVALID = (EXAMPLES / "invalid.yaml").read_text(encoding="utf-8")

LINES = st.lists(
    st.sampled_from(["---", "--- a: 1", "...", "a: 1", "  b: [1,", "  2]", "# c", "", "%YAML 1.1", "- x", "k: v", "k: w"]),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(LINES, st.lists(st.integers(0, 40), max_size=8))
def test_blocks_cut_at_any_line_ends_give_the_pieces_and_documents_of_the_whole_text(lines, cuts):
    text = "".join(line + "\n" for line in lines)
    ends = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    at = sorted({ends[c % len(ends)] for c in cuts}) if ends else []
    blocks = [text[a:b] for a, b in zip([0, *at], [*at, len(text)], strict=True)]
    assert list(iter_pieces(blocks)) == list(iter_pieces((text,)))
    whole = [(d.line, d.node is None, str(d.error)) for d in read_each_document(text, "s.yaml")]
    assert [(d.line, d.node is None, str(d.error)) for d in read_each_document(iter(blocks), "s.yaml")] == whole


def _source_blocks(path, monkeypatch, chunk: int) -> list[str]:
    monkeypatch.setattr(inputs, "CHUNK_BYTES", chunk)
    with InputFile(str(path)) as source:
        return list(source)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_a_file_read_in_any_chunks_is_its_text_with_bom_and_crlf_cleaned(tmp_path, monkeypatch, chunk):
    path = tmp_path / "g.yaml"
    path.write_bytes(b"\xef\xbb\xbf# caf\xc3\xa9 \xe2\x82\xac\r\n" + WON.replace("\n", "\r\n").encode())
    blocks = _source_blocks(path, monkeypatch, chunk)
    assert "".join(blocks) == "# café €\n" + WON
    assert all(block.endswith("\n") for block in blocks[:-1])  # each block ends at a line end
    reports = list(transcript.iter_validate(iter(blocks), "g.yaml"))
    whole = list(transcript.iter_validate("# café €\n" + WON, "g.yaml"))
    assert [r.valid for r in reports] == [True] and reports[0].line == whole[0].line > 1


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
def test_not_utf8_is_found_at_its_line_whatever_the_chunks(tmp_path, monkeypatch, chunk):
    path = tmp_path / "g.yaml"
    path.write_bytes(b"a: 1\nb: \xc3\xa9\n\n# \xff here\n")
    with pytest.raises(FormatError) as caught:
        _source_blocks(path, monkeypatch, chunk)
    assert str(caught.value) == f"{path}:4: not UTF-8 text"


def test_a_pipe_over_the_input_cap_is_refused_while_read(monkeypatch):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1000)
    read, write = os.pipe()
    os.write(write, b"# x\n" * 300)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": pipe})())
        with pytest.raises(FormatError, match="too large"):
            list(InputFile("-"))


def test_a_document_over_the_size_limit_is_refused_while_read_and_the_others_are_read(tmp_path, monkeypatch):
    monkeypatch.setattr(cut, "MAX_DOCUMENT_CHARS", 8000)
    path = tmp_path / "g.yaml"
    huge_line = "x: " + "y" * 50_000 + "\n"  # one line far over the limit: cut while read
    many_lines = "".join(f"k{i}: {i}\n" for i in range(2000))  # many short lines over the limit
    path.write_text("---\n".join([WON, huge_line, WON, many_lines, WON]), encoding="utf-8")
    blocks = _source_blocks(path, monkeypatch, 4096)
    reports = list(transcript.iter_validate(iter(blocks), "g.yaml"))
    assert [r.valid for r in reports] == [True, False, True, False, True]
    won_lines = WON.count("\n")
    assert [str(e) for r in reports for e in r.errors] == [
        f"g.yaml:{won_lines + 1}: game 2: the YAML document is too large (over 8,000 characters)",
        f"g.yaml:{2 * won_lines + 4}: game 4: the YAML document is too large (over 8,000 characters)",
    ]
    # the lines after are counted as written: game 5's first key is as far after its '---' as game 1's
    assert reports[4].line == 2 * won_lines + 2005 + reports[0].line


def _peak(path) -> int:
    tracemalloc.start()
    try:
        with InputFile(str(path)) as source:
            for _ in transcript.iter_validate(source, "g.yaml"):
                pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_games_of_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "CHUNK_BYTES", 4096)  # both files are many chunks
    few, many = tmp_path / "few.yaml", tmp_path / "many.yaml"
    few.write_text("---\n".join([WON] * 30), encoding="utf-8")
    many.write_text("---\n".join([WON] * 300), encoding="utf-8")  # ten times more
    assert _peak(many) < 1.5 * _peak(few)  # read whole, it would be ten times as much


def test_the_first_error_of_a_slow_pipe_is_reported_before_the_pipe_ends():
    bad = INVALID.split("---\n")[2]  # a game with a wrong card at its move 2
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare", "validate", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        assert process.stdin is not None and process.stderr is not None
        process.stdin.write((bad + "---\n" + WON + "---\n").encode())  # game 3 has begun: game 1 and 2 are whole
        process.stdin.flush()
        start = time.monotonic()
        first = process.stderr.readline().decode()
        waited = time.monotonic() - start
        still_open = process.poll() is None
        process.stdin.write(WON.encode())
        process.stdin.close()
        rest = process.stderr.read().decode()
        process.wait(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert first.startswith("<stdin>:") and ": game 1, move 2:" in first, first
    assert still_open and waited < 30  # read while the pipe was open, not when it ended
    assert process.returncode == 1 and "game 3" not in rest
