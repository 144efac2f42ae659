"""``foursquare validate`` for CI: its machine formats (json, json-lines, github,
junit) parsed back, ``--finished``, ``--duplicates``, errors written as they are found,
and ``--game K`` reading no further than game K."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from helpers import EXAMPLES, ROOT, invoke

from foursquare.errors import shown_name
from foursquare.formats.reports import escape_data, escape_property, github_command

WON, LOST, INVALID = (EXAMPLES / n for n in ("won.yaml", "lost.yaml", "invalid.yaml"))
UNFINISHED = 'foursquare: 1\ndeal: 1\nmoves: ["d4", "e4"]\n'


def write(tmp_path, text: str, name="games.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def unended(tmp_path, text: str, name="games.yaml"):
    """A FIFO holding ``text`` whose writing end stays open: a command reading it has
    all of ``text`` but never the end of its input, so it runs until it is killed (what
    it wrote by then came before its end, by construction).  Returns the path and the
    writing end, for ``os.close``."""
    path = tmp_path / name
    os.mkfifo(path)
    writer = os.open(path, os.O_RDWR)  # read-write: the open does not wait for the reader
    data = text.encode()
    assert len(data) < 65536  # what a pipe holds: the write does not wait either
    os.write(writer, data)
    return path, writer


def games_text(n: int) -> str:
    """``n`` copies of the won example (a full game with every claim)."""
    return "---\n".join([WON.read_text(encoding="utf-8")] * n)


# ----------------------------------------------------------------- formats


def test_json_lines_one_object_a_line_and_json_the_same_objects():
    lines = invoke(["validate", "--format", "json-lines", WON, INVALID])
    array = invoke(["validate", "--format", "json", WON, INVALID])
    assert lines.exit_code == array.exit_code == 1
    objects = [json.loads(line) for line in lines.stdout.splitlines()]
    assert objects == json.loads(array.stdout)
    assert [(o["file"], o["game"], o["valid"]) for o in objects] == [(str(WON), 1, True)] + [(str(INVALID), k, k == 1) for k in range(1, 5)]


def test_json_of_no_game_checked_is_an_empty_array_and_a_file_error_is_an_object(tmp_path):
    empty = write(tmp_path, "# nothing\n")
    result = invoke(["validate", "--format", "json", empty])
    assert result.exit_code == 1
    (only,) = json.loads(result.stdout)
    assert only["game"] is None and not only["valid"]


def test_junit_parses_with_a_testcase_per_game_and_a_failure_per_invalid_game():
    result = invoke(["validate", "--format", "junit", WON, INVALID])
    assert result.exit_code == 1
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [str(WON), str(INVALID)]
    assert [(s.get("tests"), s.get("failures")) for s in suites] == [("1", "0"), ("4", "3")]
    cases = suites[1].findall("testcase")
    assert [c.get("name") for c in cases] == [f"game {k}" for k in range(1, 5)]
    assert {c.get("classname") for c in cases} == {str(INVALID)}
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["game 2", "game 3", "game 4"]
    errors = [e for e in result.stderr.splitlines() if ": game 2," in e or ": game 2:" in e]
    assert failed[0].find("failure").text.splitlines() == errors  # every error of the game


def test_github_commands_one_per_error_then_the_summary():
    result = invoke(["validate", "--format", "github", WON, INVALID])
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    commands = [line for line in out if line.startswith("::error ")]
    assert len(commands) == len(result.stderr.splitlines()) == 5
    for command, text in zip(commands, result.stderr.splitlines(), strict=True):
        props, message = command[len("::error ") :].split("::", 1)
        fields = dict(p.split("=", 1) for p in props.split(","))
        assert fields["file"] == escape_property(str(INVALID))
        assert text.startswith(f"{INVALID}:{fields['line']}: ")
        assert text.endswith(message)
        assert fields["title"].startswith("foursquare validate%3A game ")
    assert out[-1] == "5 games checked, 3 invalid"  # the summary still printed


def _unescape(text: str) -> str:
    """The Actions runner's unescaping of a workflow command (its reverse order)."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


@pytest.mark.parametrize("text", ["100% sure", "a\rb\nc", "x: y, z", "%0A is not a newline", "::error ,,::"])
def test_github_escapes_follow_the_toolkit(text):
    assert escape_data(text) == text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    assert escape_property(text) == escape_data(text).replace(":", "%3A").replace(",", "%2C")
    command = github_command(
        {"file": f"d/{text}.yaml", "game": 3},
        {"line": 7, "move": 2, "message": text},
    )
    props, message = command[len("::error ") :].split("::", 1)
    assert "\n" not in command and "\r" not in command
    assert _unescape(message) == text
    fields = dict(p.split("=", 1) for p in props.split(","))  # no raw comma in a property
    assert set(fields) == {"file", "line", "title"}
    assert _unescape(fields["file"]) == f"d/{text}.yaml" and ":" not in fields["file"]
    assert _unescape(fields["title"]) == "foursquare validate: game 3, move 2"


# ----------------------------------------------------------- --finished, --duplicates


def test_finished_makes_an_unfinished_game_an_error_at_its_line(tmp_path):
    path = write(tmp_path, WON.read_text(encoding="utf-8") + "---\n" + UNFINISHED)
    assert invoke(["validate", path]).exit_code == 0
    result = invoke(["validate", "--finished", path])
    assert result.exit_code == 1
    line = WON.read_text(encoding="utf-8").count("\n") + 2
    assert result.stderr.splitlines() == [
        f"{path}:{line}: game 2: the game is not finished (status playing): every game must be won or lost"
    ]
    assert result.stdout.splitlines() == [f"{path}: 2 games, 1 invalid"]


def test_duplicates_across_two_files_name_both_places(tmp_path):
    won = WON.read_text(encoding="utf-8")
    first = write(tmp_path, LOST.read_text(encoding="utf-8") + "---\n" + won, "a.yaml")
    second = write(tmp_path, UNFINISHED + "---\n" + won, "b.yaml")
    assert invoke(["validate", first, second]).exit_code == 0
    result = invoke(["validate", "--duplicates", first, second])
    assert result.exit_code == 1
    at_first = LOST.read_text(encoding="utf-8").count("\n") + 4  # after "---", the won game's "foursquare: 1"
    at_second = UNFINISHED.count("\n") + 4
    assert result.stderr.splitlines() == [f"{second}:{at_second}: game 2: the game repeats game 2 ({first}:{at_first})"]
    assert result.stdout.splitlines()[-1] == "4 games checked, 1 invalid"


def test_duplicates_within_a_file_and_not_of_a_different_game(tmp_path):
    path = write(tmp_path, "---\n".join([UNFINISHED, UNFINISHED.replace("deal: 1", "deal: 2"), UNFINISHED]))
    result = invoke(["validate", "--duplicates", "--format", "json-lines", path])
    verdicts = [json.loads(line)["valid"] for line in result.stdout.splitlines()]
    assert verdicts == [True, True, False]


# --------------------------------------------------------------- streaming


@pytest.mark.parametrize("fmt", ["text", "json-lines"])
def test_results_are_written_as_found_not_at_the_end(tmp_path, fmt):
    # the file never ends: a result written at the end would never come.  In text, the
    # first game is invalid and its error line comes on stderr; in json-lines, the first
    # game's object comes on stdout
    bad = INVALID.read_text(encoding="utf-8").split("---\n")[2] + "---\n" if fmt == "text" else ""  # game 3: a wrong card
    path, writer = unended(tmp_path, bad + games_text(10) + "---\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare", "validate", "--format", fmt, str(path)],
        stdout=subprocess.PIPE if fmt != "text" else subprocess.DEVNULL,
        stderr=subprocess.PIPE if fmt == "text" else subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        first = (process.stderr if fmt == "text" else process.stdout).readline()
        running = process.poll() is None
    finally:
        process.kill()
        process.wait()
        os.close(writer)
    assert running  # the result came before the end
    if fmt == "text":
        assert first.startswith(f"{path}:") and ": game 1, move 2:" in first
    else:
        assert json.loads(first)["game"] == 1 and json.loads(first)["valid"]


# ----------------------------------------------------------------- --game K


def _seconds(args) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.thread_time()
        result = invoke(args)
        best = min(best, time.thread_time() - start)
        assert result.exit_code == 0, result.output
    return best


@pytest.mark.parametrize("command", ["replay", "state"])
def test_game_k_reads_no_further_than_game_k(tmp_path, command):
    short = write(tmp_path, games_text(40), "short.yaml")
    long = write(tmp_path, games_text(440), "long.yaml")  # 10x more games after game 20
    args = [command, "--game", "20"] + (["--final"] if command == "replay" else [])
    invoke([*args, short])  # warm up
    ratio = _seconds([*args, long]) / _seconds([*args, short])
    # reading and checking the games after game 20 made it about 11; what is left is
    # cutting the text into documents, a quick pass over the whole file
    assert ratio < 5, ratio


def test_game_k_past_the_end_and_no_choice_still_count_every_game(tmp_path):
    path = write(tmp_path, games_text(3))
    result = invoke(["replay", "--game", "5", path])
    assert result.exit_code == 1 and "the file holds only 3 games" in result.stderr
    result = invoke(["replay", path])
    assert result.exit_code == 1 and "the file holds 3 games" in result.stderr


def test_the_github_actions_example_runs_validate_with_annotations():
    import shlex

    import yaml

    workflow = yaml.safe_load((EXAMPLES / "github-actions.yml").read_text(encoding="utf-8"))
    runs = [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    (command,) = [r for r in runs if r.startswith("foursquare validate")]
    words = shlex.split(command)[1:]
    assert words[-1] == "games/*.yaml"
    result = invoke([*words[:-1], WON, INVALID])  # the same options on the examples
    assert result.exit_code == 1
    assert result.stdout.startswith(f"::error file={INVALID},line=13,")


def test_json_cut_short_by_ctrl_c_is_still_a_valid_array_that_says_it_is_incomplete(tmp_path):
    import signal

    path = write(tmp_path, games_text(3000))
    out = tmp_path / "out.json"
    with out.open("w") as stdout:
        process = subprocess.Popen(
            [sys.executable, "-m", "foursquare", "validate", "--format", "json", str(path)],
            stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while out.stat().st_size < 10_000 and time.monotonic() < deadline:  # some games written
                time.sleep(0.05)
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=30)
        finally:
            process.kill()
            process.wait()
    assert process.returncode == 130
    *games, last = json.loads(out.read_text())
    assert 0 < len(games) < 3000 and [g["game"] for g in games] == list(range(1, len(games) + 1))
    # the last object says the report stops short, and is invalid: a run cut short is never all valid
    assert last["game"] is None and not last["valid"] and last["file"] == str(path)
    assert "interrupted: this report is incomplete" in last["errors"][0]["message"]


def test_junit_holds_a_message_with_a_control_character():
    from foursquare.formats.reports import Reporter

    out: list[str] = []
    reporter = Reporter("junit", out.append)
    reporter.begin()
    error = {"line": 3, "move": None, "message": "bad \x01 <&>", "text": "f.yaml:3: game 1: bad \x01 <&>"}
    reporter.game({"file": "f.yaml", "game": 1, "valid": False, "errors": [error]})
    reporter.file_end("f.yaml")
    reporter.end()
    failure = ET.fromstring("".join(out)).find("testsuite/testcase/failure")
    assert failure.text == "f.yaml:3: game 1: bad \\x01 <&>"


def test_github_annotations_name_the_path_as_given_so_github_can_place_them(tmp_path):
    # (file= carried the shell's quoting, 'games/sp ace.yaml', which names no file of the repository)
    folder = tmp_path / "games"
    folder.mkdir()
    bad = folder / "sp ace%,:.yaml"
    bad.write_text((EXAMPLES / "invalid.yaml").read_text())
    result = invoke(["validate", "--format", "github", str(bad)])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    expected = str(bad).replace("%", "%25").replace(":", "%3A").replace(",", "%2C")
    assert first.startswith(f"::error file={expected},line=")


#: The separators of a workflow command and the line ends, which the runner's escaping
#: carries (the path comes back whole); and the controls a terminal would obey, which it
#: does not (the name is the shown one, quoted, with each escaped).
SEPARATORS = "\n\r\t%:,"
CONTROLS = "".join(chr(c) for c in [*range(1, 32), 127] if chr(c) not in "\n\r\t")


def _command_fields(command: str) -> tuple[dict[str, str], str]:
    """A workflow command's properties and its message, both as the runner unescapes them."""
    assert command.startswith("::error ") and "\n" not in command and "\r" not in command
    props, message = command[len("::error ") :].split("::", 1)
    fields = dict(p.split("=", 1) for p in props.split(","))  # no raw comma nor '::' in a property
    assert "%3A" not in message and "%2C" not in message  # the message data escapes % CR LF only
    return {key: _unescape(value) for key, value in fields.items()}, _unescape(message)


@pytest.mark.parametrize("chars", [SEPARATORS, CONTROLS])
def test_github_annotations_escape_every_separator_and_quote_every_control(chars):
    # (a name that was not printable had file= in the shell's quoting, $'new\nline.yaml', no
    # file's path; then a name with an escape character had it raw, for a terminal to obey)
    path = f"d/new\nline {chars}.yaml"
    message = f"bad {SEPARATORS} here"
    command = github_command({"file": "shown", "game": 3}, {"line": 7, "move": 2, "message": message}, path=path)
    fields, data = _command_fields(command)
    assert fields == {"file": path if chars == SEPARATORS else "shown", "line": "7", "title": "foursquare validate: game 3, move 2"}
    assert data == message


@pytest.mark.parametrize("how", ["in-process", "process"])
@pytest.mark.parametrize("chars", [SEPARATORS, CONTROLS])
def test_github_annotations_give_the_real_path_unless_it_holds_a_control(tmp_path, how, chars):
    name = f"new\nline{chars}.yaml"
    (tmp_path / name).write_text((EXAMPLES / "invalid.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    args = ["validate", "--format", "github", name]
    if how == "in-process":
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            done = invoke(args)
        finally:
            os.chdir(cwd)
        code, out = done.exit_code, done.stdout
    else:
        process = subprocess.run(
            [sys.executable, "-m", "foursquare", *args], cwd=tmp_path, capture_output=True, timeout=120
        )
        code, out = process.returncode, process.stdout.decode("utf-8")
    assert code == 1
    commands = [line for line in out.split("\n") if line.startswith("::error ")]
    assert len(commands) == 5
    for command in commands:
        fields, _ = _command_fields(command)
        assert fields["file"] == (name if chars == SEPARATORS else shown_name(name)) and fields["line"].isdigit()


# ------------------------------------------- github: only the annotations are commands

#: The workflow commands GitHub's runner registers (actions/runner, ActionCommandManager and
#: the command extensions), matched without regard to case.
RUNNER_COMMANDS = frozenset(
    "add-mask add-matcher add-path debug echo endgroup error group notice remove-matcher"
    " save-state set-env set-output stop-commands warning".split()
)


def runner_command(line: str) -> str | None:
    """The name of the workflow command GitHub's runner reads in one line of a step's
    output, or ``None``, by the runner's two parsers (ActionCommand.TryParseV2, then
    TryParse): ``::name props::data`` once leading white space is trimmed; the older
    ``##[name props]data`` anywhere in the line.  Only registered names count."""
    text = line.lstrip()
    if text.startswith("::") and (end := text.find("::", 2)) >= 0:
        name = text[2:end].split(" ", 1)[0]
        if name.lower() in RUNNER_COMMANDS:
            return name.lower()
    if (start := line.find("##[")) >= 0 and (end := line.find("]", start)) >= 0:
        name = line[start + 3 : end].split(" ", 1)[0]
        if name.lower() in RUNNER_COMMANDS:
            return name.lower()
    return None


def runner_lines(text: str) -> list[str]:
    """A stream as the runner reads it, a line at a time (.NET's ReadLine: CR, LF or CRLF)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@pytest.mark.parametrize(
    ("line", "name"),
    [("::error file=a::m", "error"), ("  ::add-mask::x", "add-mask"), ("x ##[stop-commands]t", "stop-commands"),
     ("##[WARNING]w", "warning"), ("x ::error::m", None), ("::nothing::m", None), ("##[error", None),
     ("\\x3a:error::m", None), ("##\\x5berror]m", None)],
)  # fmt: skip
def test_the_runner_parser_reads_both_forms(line, name):
    assert runner_command(line) == name


#: Names, moves, keys and values that a runner would obey if printed as they are.
HOSTILE_NAMES = ["::error::x.yaml", "##[warning]valid.yaml", "::stop-commands::tok.yaml", "##[add-mask]s.yaml", "::group::won.yaml"]
HOSTILE_GAMES = (
    'foursquare: 1\ndeal: 1\nmoves: ["##[stop-commands]tok", "::warning::m"]\n'
    '---\nfoursquare: 1\ndeal: 1\nmoves: [d4]\n"##[add-mask]k": 1\n"::error::k": 2\n'
    '---\nfoursquare: 1\ndeal: "##[group]x"\nmoves: []\n'
    "---\nfoursquare: 1\ndeal: !##[endgroup] 1\nmoves: []\n"
    "---\nfoursquare: 1\ndeal: 1\nmoves: [{card: '##[error]c', cell: '::error::c'}]\n"
)


@pytest.mark.parametrize("how", ["in-process", "process"])
def test_github_format_prints_no_workflow_command_but_its_own_annotations(tmp_path, how):
    # (a move '##[stop-commands]tok' was quoted as it is in the stderr line, so the runner
    # ignored every annotation after it; a file named '::error::x.yaml' forged one)
    games = tmp_path / "games"
    games.mkdir()
    for name in HOSTILE_NAMES:
        (games / name).write_text(HOSTILE_GAMES, encoding="utf-8")
    (games / "##[debug]won.yaml").write_text(WON.read_text(encoding="utf-8"), encoding="utf-8")
    names = sorted(f"games/{p.name}" for p in games.iterdir())
    args = ["validate", "--format", "github", *names, "games/##[error]missing.yaml"]
    if how == "in-process":
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            done = invoke(args)
        finally:
            os.chdir(cwd)
        code, out, err = done.exit_code, done.stdout, done.stderr
    else:
        process = subprocess.run([sys.executable, "-m", "foursquare", *args], cwd=tmp_path, capture_output=True, timeout=120)
        code, out, err = process.returncode, process.stdout.decode(), process.stderr.decode()
    assert code == 1
    assert [line for line in runner_lines(err) if runner_command(line)] == []
    commands = [line for line in runner_lines(out) if runner_command(line)]
    errors = [line for line in runner_lines(err) if line]
    assert len(commands) == len(errors) > len(HOSTILE_NAMES) * 5
    for command, error in zip(commands, errors, strict=True):
        fields, message = _command_fields(command)  # each an ::error of ours, whole
        assert fields["file"] in [*names, "games/##[error]missing.yaml"]
        assert error.endswith(message)
    summary = [line for line in runner_lines(out) if line and not runner_command(line)]
    assert len(summary) == len(names) + 2  # a line a file, the missing one, the total
