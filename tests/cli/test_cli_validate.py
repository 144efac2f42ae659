"""``foursquare validate``: every error of every game, FILE:LINE on stderr, a summary on stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import EXAMPLES, invoke

WON, LOST, INVALID = (EXAMPLES / n for n in ("won.yaml", "lost.yaml", "invalid.yaml"))


def write(tmp_path, text: str | bytes, name="game.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_valid_files_exit_0_with_a_summary():
    result = invoke(["validate", str(WON), str(LOST)])
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        f"{WON}: 1 game, all valid",
        f"{LOST}: 1 game, all valid",
        "2 games checked, all valid",
    ]


def test_every_error_of_every_game_and_exit_1():
    result = invoke(["validate", str(WON), str(INVALID)])
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert len(errors) == 5
    assert all(e.startswith(f"{INVALID}:") for e in errors)
    assert {e.split(": ")[1].split(",")[0] for e in errors} == {"game 2", "game 3", "game 4"}
    assert result.stdout.splitlines()[-1] == "5 games checked, 3 invalid"


def test_a_file_that_cannot_be_read_is_not_counted_as_a_game(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    result = invoke(["validate", missing, str(WON), str(INVALID)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "5 games checked, 3 invalid; 1 file not checked (see above)"
    result = invoke(["validate", missing, str(WON)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "1 game checked, all valid; 1 file not checked (see above)"


def test_json_has_one_object_per_game():
    result = invoke(["validate", "--format", "json", str(WON), str(INVALID)])
    assert result.exit_code == 1
    games = json.loads(result.stdout)
    assert [(Path(g["file"]).name, g["game"], g["valid"]) for g in games] == [
        ("won.yaml", 1, True),
        ("invalid.yaml", 1, True),
        ("invalid.yaml", 2, False),
        ("invalid.yaml", 3, False),
        ("invalid.yaml", 4, False),
    ]
    assert [e["line"] for e in games[2]["errors"]] == [13, 14, 15]
    assert games[2]["errors"][0]["move"] == 2


def test_stdin_and_bom_and_crlf():
    text = "\ufeff" + WON.read_text().replace("\n", "\r\n")
    result = invoke(["validate", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert result.stdout == "<stdin>: 1 game, all valid\n"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ('foursquare: 1\ndeal: 1\nmoves: ["d4", no]\n', 3, "not a cell"),
        ("foursquare: 1\ndeal: 010\nmoves: []\n", 2, "deal"),
        ('foursquare: 1\ndeal: 1\ndeal: 2\nmoves: ["d4"]\n', 3, "duplicate"),
        ('foursquare: 1\ndeal: !!python/object:os.system {}\nmoves: ["d4"]\n', 2, "tag"),
        ('foursquare: 1\ndeal: 1\nmoves: [{cell: "d4", face_down: on}]\n', 3, "face_down"),
        ('foursquare: 1\ndeal: 1\nmoves: ["d4"]\nresult: {staus: won}\n', 4, "staus"),
        ("foursquare: 1\ndeal: 1\nmoves: [d4\n", None, ""),
    ],
)
def test_yaml_that_coerces_or_is_unsafe_is_a_clear_error(tmp_path, text, line, message):
    path = write(tmp_path, text)
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{line}:" if line else f"{path}:")
    assert message in first
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file"),
        ("", "empty"),
        ("# only a comment\n", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff", "UTF-8"),
    ],
)
def test_bad_files_are_one_clear_line(tmp_path, content, message):
    path = tmp_path / "file.yaml"
    if content is not None:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(str(path))
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_directory_is_a_clear_error(tmp_path):
    result = invoke(["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr == f"{tmp_path}: is a directory, not a file\n"


def test_an_unreadable_file_does_not_stop_the_others(tmp_path):
    result = invoke(["validate", "--format", "json", str(tmp_path / "missing.yaml"), str(WON)])
    assert result.exit_code == 1
    games = json.loads(result.stdout)
    assert [g["valid"] for g in games] == [False, True]
    assert games[0]["game"] is None and games[0]["errors"][0]["message"] == "no such file"


def test_every_json_object_has_the_same_keys_even_for_a_file_not_read_game_by_game(tmp_path):
    (tmp_path / "binary.yaml").write_bytes(b"\xff\xfe\x00bad")
    (tmp_path / "empty.yaml").write_text("")
    (tmp_path / "broken.yaml").write_text("foursquare: 1\nmoves: [d4\n")
    files = [tmp_path / "missing.yaml", tmp_path / "binary.yaml", tmp_path / "empty.yaml", tmp_path / "broken.yaml", tmp_path]
    result = invoke(["validate", "--format", "json", *map(str, files), str(WON)])
    games = json.loads(result.stdout)
    assert len(games) == len(files) + 1
    keys = set(games[-1])
    assert {"file", "game", "line", "valid", "errors", "status", "reason", "score", "moves"} <= keys
    for bad in games[:-1]:
        assert set(bad) == keys and bad["valid"] is False and bad["errors"]
        assert bad["status"] is None and bad["score"] is None and bad["moves"] == 0


@pytest.mark.parametrize("args", [["validate"], ["validate", "--format", "xml", "x"], ["validate", "--bogus", "x"]])
def test_usage_errors_exit_2(args):
    assert invoke(args).exit_code == 2


@pytest.mark.parametrize("command", [["validate"], ["replay"], ["state"]])
@pytest.mark.parametrize(
    ("text", "says"),
    [
        # a rules file (as `foursquare rules NAME --format yaml` writes it)
        ("size: 4\npile_cap: 4\nface_down_limit: 4\nranks: 10\n", "this is a rules file, not a transcript"),
        ("preset: diagonal\n", "this is a rules file, not a transcript"),
        # some other YAML file altogether
        ("services:\n  web: 1\nversion: 3\nname: x\nimage: y\nports: []\nenv: z\n", "not a Foursquare transcript"),
    ],
)
def test_another_kind_of_yaml_file_gets_one_line_saying_what_it_is(tmp_path, command, text, says):
    path = write(tmp_path, text)
    result = invoke(command + [str(path)])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith(f"{path}:")]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith(f"{path}:1: ") and says in errors[0]
    assert "unknown key" not in result.stderr


def test_a_game_with_one_misspelt_key_still_gets_every_key_checked(tmp_path):
    # only a document with no game key at all is taken for another kind of file
    path = write(tmp_path, "foursquare: 1\ndeal: 1\nmovess: [d4]\n")
    result = invoke(["validate", str(path)])
    assert result.exit_code == 1
    assert "unknown key 'movess'" in result.stderr


def test_a_players_view_is_named_as_such_with_the_command_that_reads_it(tmp_path):
    # (it was called a state, with the advice to resume it, which play refuses)
    view = tmp_path / "pv.yaml"
    view.write_text(invoke(["state", str(EXAMPLES / "won.yaml"), "--after", "12", "--player-view"]).stdout)
    result = invoke(["validate", str(view)])
    assert result.exit_code == 1
    assert f"{view}:1: this is a player's view, not a transcript (foursquare hint reads it)" in result.stderr
    assert invoke(["hint", str(view), "--bot", "greedy"]).exit_code == 0


@pytest.mark.parametrize(
    "kind, says",
    [("rules", "this is a rules file, not a transcript"), ("state", "this is a state, not a transcript"),
     ("moves", "this looks like a move script"), ("other", "not a Foursquare transcript")],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_says_once_that_a_file_is_of_another_kind(tmp_path, kind, says, fmt):
    text = {
        "rules": invoke(["rules", "three-square", "--format", "yaml"]).stdout,
        "state": (EXAMPLES / "state.yaml").read_text(encoding="utf-8"),
        "moves": "d4\ne4\n",
        "other": "services:\n  web: 1\n",
    }[kind]
    path = tmp_path / f"f.{kind}"
    path.write_text(text, encoding="utf-8")
    result = invoke(["validate", "--format", fmt, path, EXAMPLES / "won.yaml"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{path}:1: {result.stderr.split(': ', 1)[1].rstrip()}"]
    assert says in result.stderr and "game 1" not in result.stderr
    if fmt == "json":
        first = json.loads(result.stdout)[0]
        assert first["game"] is None and first["status"] is None and first["valid"] is False
    else:
        out = result.stdout.splitlines()
        assert out[0] == f"{path}: invalid, not checked game by game (see the error above)" and says not in result.stdout
        assert out[-1] == "1 game checked, all valid; 1 file not checked (see above)"
