"""Every reader of a move script or a transcript (``play``'s stdin, ``replay``, ``state``,
``hint``, ``analyze``, ``validate``) says the same fault the same way, from one place
(foursquare/formats/inputs.py): a byte that is not UTF-8, a line over the one limit
(:data:`~foursquare.formats.inputs.MAX_LINE_CHARS`); and a move script ends at ``quit``
for every one of them: what follows is not read (foursquare/formats/loading.py
``read_game_text``), as ``play`` never read it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import EXAMPLES, ROOT, invoke

from foursquare.formats import inputs
from foursquare.formats.inputs import InputFile

#: The one limit of a line, and what every reader says of a line over it.
MAX_LINE_CHARS = 1024 * 1024
LINE_TOO_LONG_WORDS = "the line is too long (over 1,048,576 characters)"

#: Each reader of a move script, given it on stdin (``-``) or as a file (``{file}``).
READERS = {
    "play": ["play", "--deal", "1", "--no-history"],
    "replay": ["replay", "--deal", "1", "--final", "{file}"],
    "state": ["state", "--deal", "1", "{file}"],
    "hint": ["hint", "--deal", "1", "--bot", "greedy", "{file}"],
    "analyze": ["analyze", "--deal", "1", "{file}"],
}
MOVES = b"d4\ne4\n"
#: After ``quit``: a byte that is not UTF-8, a NUL, a line over the limit.
AFTER_QUIT = b"\xe9 not text\n\x00\n" + b"#" * (MAX_LINE_CHARS + 10) + b"\n"


def _run(reader: str, data: bytes, tmp_path, where: str):
    """The reader on ``data``: on stdin, or (``where`` "file", but ``play``) in a file."""
    args = list(READERS[reader])
    if "{file}" in args:
        path = tmp_path / "game.moves"
        path.write_bytes(data)
        args[args.index("{file}")] = "-" if where == "stdin" else str(path)
    name = "<stdin>" if where == "stdin" or reader == "play" else str(tmp_path / "game.moves")
    return invoke(args, input=data), name


@pytest.mark.parametrize("where", ["stdin", "file"])
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_says_a_byte_that_is_not_utf8_the_same_way(reader, where, tmp_path):
    # (play said 'the input is not UTF-8 text (byte 1 of the line)', the others 'not UTF-8 text')
    result, name = _run(reader, MOVES + b"\xe9\n", tmp_path, where)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"{name}:3: not UTF-8 text"


@pytest.mark.parametrize("where", ["stdin", "file"])
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_has_the_one_line_limit(reader, where, tmp_path):
    # (play refused a 5 MB line, replay, state, hint and analyze read it)
    at_the_limit, _ = _run(reader, MOVES + b"#" * MAX_LINE_CHARS + b"\n", tmp_path, where)
    assert at_the_limit.exit_code == 0, at_the_limit.stderr
    over, name = _run(reader, MOVES + b"#" * (MAX_LINE_CHARS + 1) + b"\ne4\n", tmp_path, where)
    assert over.exit_code == 1
    assert over.stderr.splitlines()[-1] == f"{name}:3: {LINE_TOO_LONG_WORDS}"


@pytest.mark.parametrize("where", ["stdin", "file"])
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("end", [b"\r", b"\x0c", b"\x0b", "\u2028".encode(), "\x85".encode()], ids=["cr", "ff", "vt", "u2028", "nel"])
def test_every_reader_ends_a_line_of_moves_at_lf_alone(reader, where, end, tmp_path):
    # (a file of CR line ends was three moves for replay, state and hint, one bad line for play)
    result, name = _run(reader, b"d4" + end + b"e4" + end + b"c4\n", tmp_path, where)
    assert result.exit_code == 1, result.output
    said = result.stderr.splitlines()[-1]
    assert said.startswith(f"{name}:1: ")
    if end == b"\r":
        assert said == f"{name}:1: a CR alone inside the line: line ends are LF or CR LF"
    crlf, _ = _run(reader, b"d4\r\ne4\r\n", tmp_path, where)
    assert crlf.exit_code == 0, crlf.stderr


@pytest.mark.parametrize("command", [["validate"], ["replay", "--final"], ["state"]])
def test_a_transcript_has_the_same_line_limit(command, tmp_path):
    won = (EXAMPLES / "won.yaml").read_bytes()
    path = tmp_path / "won.yaml"
    path.write_bytes(b"#" * MAX_LINE_CHARS + b"\n" + won)
    assert invoke([*command, path]).exit_code == 0
    path.write_bytes(b"#" * (MAX_LINE_CHARS + 1) + b"\n" + won)
    result = invoke([*command, path])
    assert result.exit_code == 1 and f"{path}:1: {LINE_TOO_LONG_WORDS}" in result.stderr.splitlines()


@pytest.mark.parametrize("where", ["stdin", "file"])
@pytest.mark.parametrize("reader", READERS)
def test_a_move_script_ends_at_quit_for_every_reader(reader, where, tmp_path):
    # (play did not read what follows quit; replay, state, hint and analyze failed on it)
    plain, _ = _run(reader, MOVES, tmp_path, where)
    assert plain.exit_code == 0, plain.stderr
    for stop in (b"quit\n", b"  QUIT # done\n"):
        result, _ = _run(reader, MOVES + stop + AFTER_QUIT, tmp_path, where)
        assert result.exit_code == 0, result.stderr
        if reader != "hint":  # (hint says how long it thought)
            assert result.stdout == plain.stdout


def test_a_game_of_a_move_script_with_game_k_is_refused_for_what_it_is_not_for_what_follows_quit(tmp_path):
    path = tmp_path / "game.moves"
    path.write_bytes(MOVES + b"quit\n" + AFTER_QUIT)
    result = invoke(["replay", "--deal", "1", "--game", "1", path])
    assert result.exit_code == 2 and "not a transcript" in result.stderr


@pytest.mark.parametrize("reader", READERS)
def test_a_real_pipe_stops_at_quit_and_says_a_bad_byte_as_every_reader(reader):
    args = [a if a != "{file}" else "-" for a in READERS[reader]]
    run = [sys.executable, "-m", "foursquare", *args]
    done = subprocess.run(run, input=MOVES + b"quit\n" + AFTER_QUIT, capture_output=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(run, input=MOVES + b"\xe9\n", capture_output=True, cwd=ROOT, timeout=300)
    assert done.returncode == 1 and done.stderr.decode().splitlines()[-1] == "<stdin>:3: not UTF-8 text"


def test_the_line_limit_is_met_at_its_line_across_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_LINE_CHARS", 100)
    monkeypatch.setattr(inputs, "CHUNK_BYTES", 64)  # the long line spans blocks
    path = tmp_path / "g.moves"
    path.write_text("d4\n" + "#" * 100 + "\n" + "e4\n" * 50 + "#" * 101 + "\nd5\n", encoding="utf-8")
    with pytest.raises(inputs.FormatError) as caught, InputFile(str(path)) as source:
        list(source)
    assert caught.value.line == 53


#: Each reader of stdin, and what it is given there (play's move script, its prompt fed
#: by a pipe, a transcript, a deck, a history export): one limit of size for them all.
STDIN_READERS = {
    "play": ["play", "--deal", "1", "--no-history"],
    "play --interactive": ["play", "--deal", "1", "--no-history", "--interactive"],
    "replay": ["replay", "--deal", "1", "-"],
    "state": ["state", "--deal", "1", "-"],
    "validate": ["validate", "-"],
    "hint": ["hint", "--deal", "1", "--bot", "greedy", "-"],
    "--deck": ["solve", "--deck", "-"],
    "history import": ["history", "import", "-"],
}


@pytest.mark.parametrize("reader", STDIN_READERS)
def test_every_reader_of_stdin_refuses_it_past_the_one_size_limit_at_its_line(reader, monkeypatch):
    # (play read a 68 MB move script for minutes; the others refused the same file at once)
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 100)  # the public constant: every reader's
    over = invoke(STDIN_READERS[reader], input=MOVES + b"# x\n" * 100)  # byte 101 is on line 26
    assert over.exit_code == 1
    assert over.stderr.splitlines()[-1] == "<stdin>:26: too large: over 100 bytes, more than any game file holds"


@pytest.mark.parametrize("interactive", [False, True], ids=["script", "prompt"])
def test_a_move_script_at_the_size_limit_is_played_and_past_it_keeps_the_moves_before(interactive, tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 106)
    args = [*STDIN_READERS["play"], "--record", tmp_path / "r.yaml", *(["--interactive"] if interactive else [])]
    at_the_limit = invoke(args, input=MOVES + b"# x\n" * 25)  # 106 bytes: read
    assert at_the_limit.exit_code == 0, at_the_limit.stderr
    (tmp_path / "r.yaml").unlink()
    over = invoke(args, input=MOVES + b"# x\n" * 25 + b"#")
    assert over.exit_code == 1
    assert over.stderr.splitlines()[-1] == "<stdin>:28: too large: over 106 bytes, more than any game file holds"
    recorded = (tmp_path / "r.yaml").read_text(encoding="utf-8")
    assert '"d4"' in recorded and '"e4"' in recorded  # the moves before the limit were played
    if interactive:
        assert "Stopped after 2 cards placed." in over.stdout


#: Each kind of file a command reads, with a CR alone on its line 2 (``{file}``: its path).
CR_ALONE_FILES = {
    "transcript": (["validate", "{file}"], b"# a game\nfoursquare: 1\rdeal: 1\nmoves: [d4]\n"),
    "transcript replayed": (["replay", "--final", "{file}"], b"foursquare: 1\ndeal: 1\rmoves: [d4]\n"),
    "state": (["state", "{file}"], b"# a state\nfoursquare: 1\rdeal: 1\n"),
    "rules": (["rules", "{file}"], b"# rules\npreset: standard\rsize: 3\n"),
    "deck": (["play", "--no-history", "--deck", "{file}"], b"2D\n3C\r7D\n"),
    "history import": (["history", "import", "{file}"], b"foursquare: 1\ndeal: 1\rmoves: [d4]\n"),
}


@pytest.mark.parametrize("kind", CR_ALONE_FILES)
def test_every_reader_of_a_file_refuses_a_cr_alone_at_its_line(kind, tmp_path, monkeypatch):
    # (the YAML readers and the deck reader took a CR alone for a line end or a space: a file of
    # CR line ends was read, and an error after it named the wrong line)
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    args, data = CR_ALONE_FILES[kind]
    path = tmp_path / "file.yaml"
    path.write_bytes(data)
    result = invoke([str(path) if a == "{file}" else a for a in args], input="d4\n")
    assert result.exit_code == 1, result.output
    assert f"{path}:2: a CR alone inside the line: line ends are LF or CR LF" in result.stderr.splitlines()
    path.write_bytes(data.replace(b"\r", b"\r\n").replace(b"\n", b"\r\n").replace(b"\r\r\n", b"\r\n"))
    assert invoke([str(path) if a == "{file}" else a for a in args], input="d4\n").exit_code == 0
