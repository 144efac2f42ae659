"""``foursquare replay``: a move script or a transcript, step by step."""

from __future__ import annotations

import pytest
import yaml
from helpers import EXAMPLES, conformance_record, invoke, one_line_error

from foursquare.formats.state import read_state

WON = EXAMPLES / "won.yaml"


def test_every_move_is_drawn_with_what_it_flipped():
    result = invoke(["replay", str(WON), "--ascii"])
    assert result.exit_code == 0
    out = result.stdout
    assert out.count("Move ") == 32
    assert "Move 1: 8D to g7, nothing flipped" in out
    assert out.rstrip().endswith("Result: won, score 8 (deal 153, 32 moves, 32 cards placed)")


def test_final_only():
    result = invoke(["replay", str(WON), "--final"])
    assert "Move " not in result.stdout
    assert "Game over: won, score 8" in result.stdout


def test_a_move_script_needs_the_deal(tmp_path):
    script = tmp_path / "game.moves"
    script.write_text("\n".join(conformance_record(153)["moves"]) + "\n")
    with_deal = invoke(["replay", str(script), "--deal", "153", "--final"])
    assert with_deal.exit_code == 0 and "won, score 8" in with_deal.stdout
    without = invoke(["replay", str(script)])
    assert without.exit_code == 1
    assert without.stderr.startswith(f"{script}:1: ")
    assert "Traceback" not in without.output


def test_stdin_with_bom_and_crlf():
    text = "\ufeff" + "\r\n".join(conformance_record(153)["moves"]) + "\r\n"
    result = invoke(["replay", "-", "--deal", "153", "--final"], input=text)
    assert result.exit_code == 0, result.output
    assert "won, score 8" in result.stdout


def test_an_illegal_move_names_file_and_line(tmp_path):
    script = tmp_path / "bad.moves"
    script.write_text("# deal 1\nd4\n\ng7\n")
    result = invoke(["replay", str(script), "--deal", "1"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{script}:4: ")
    assert "g7" in result.stderr


def test_yaml_format_gives_the_state_after_each_move():
    result = invoke(["replay", str(WON), "--format", "yaml"])
    documents = result.stdout.split("---\n")
    assert len(documents) == 32
    assert [yaml.safe_load(d)["placed"] for d in documents] == list(range(1, 33))
    last = read_state(documents[-1], "last")
    assert last.status == "won" and last.score == 8
    tenth = read_state(documents[9], "tenth")
    assert tenth.placed == 10 and str(tenth.next_card) == yaml.safe_load(documents[9])["next"]
    final = invoke(["replay", str(WON), "--format", "yaml", "--final"])
    assert final.stdout == documents[-1]


@pytest.mark.parametrize("args", [["replay"], ["replay", "x", "--format", "xml"], ["replay", "x", "--deal", "1", "--deck", "y"]])
def test_usage_errors(args):
    assert invoke(args).exit_code == 2


def test_transcript_file_with_bom_and_crlf(tmp_path):
    path = tmp_path / "won.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + WON.read_bytes().replace(b"\n", b"\r\n"))
    result = invoke(["replay", str(path), "--final"])
    assert result.exit_code == 0, result.output
    assert "Result: won, score 8" in result.stdout
    assert invoke(["validate", str(path)]).exit_code == 0


@pytest.mark.parametrize("moves, words", [("d4\n", "1 move, 1 card placed"), ("d4\ne4\n", "2 moves, 2 cards placed")])
def test_counts_in_the_result_line_agree_with_their_number(moves, words):
    result = invoke(["replay", "-", "--deal", "1", "--final"], input=moves)
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith(f"(deal 1, {words})")


@pytest.mark.parametrize("source", [[str(WON)], [str(EXAMPLES / "lost.yaml")], ["--deal", "89", str(EXAMPLES / "deal89.moves")]])
def test_the_yaml_stream_is_the_states_state_after_k_prints_each_satisfying_the_state_schema(source):
    # (nothing read the stream back and no doc said what it was: it is for other programs,
    # document K being `state MOVES --after K`, each checked by `foursquare schema state`)
    import json

    import jsonschema

    from foursquare.formats.schema import schema_text

    result = invoke(["replay", *source, "--format", "yaml"])
    assert result.exit_code == 0, result.stderr
    documents = result.stdout.split("---\n")
    check = jsonschema.Draft202012Validator(json.loads(schema_text("state")))
    for k, document in enumerate(documents, 1):
        assert not list(check.iter_errors(yaml.safe_load(document))), k
    for k in {1, len(documents) // 2, len(documents)}:
        assert invoke(["state", *source, "--after", k]).stdout == documents[k - 1]


def test_the_yaml_stream_says_what_it_is_in_the_help():
    help_text = " ".join(invoke(["replay", "--help"]).stdout.split())
    assert "for other programs" in help_text and "--after K" in help_text and "foursquare schema state" in help_text


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing yet\n", "  # a comment\n\n# another\n", "\ufeff# bom\n"])
@pytest.mark.parametrize("command", ["hint", "replay", "state"])
def test_an_empty_or_comment_only_script_is_the_start(tmp_path, command, text):
    path = tmp_path / "moves.txt"
    path.write_text(text, encoding="utf-8")
    extra = ["--bot", "greedy"] if command == "hint" else []
    with_deal = invoke([command, path, "--deal", "1", *extra])
    assert with_deal.exit_code == 0, with_deal.output
    start = invoke([command, "-", "--deal", "1", *extra], input="")
    assert start.exit_code == 0
    if command == "hint":  # its last line has timings
        assert start.stdout.splitlines()[0] == with_deal.stdout.splitlines()[0]
    else:
        assert start.stdout == with_deal.stdout
    without = invoke([command, path, *extra])
    assert "with --deal N or --deck FILE" in one_line_error(without, 1)


def test_reveal_works_in_every_format_its_usage_error_names():
    # the usage error of --format yaml --reveal names the formats that take it (text and svg)
    for fmt in ("text", "svg"):
        result = invoke(["replay", str(WON), "--final", "--reveal", "--format", fmt])
        assert result.exit_code == 0, result.output
    refused = invoke(["replay", str(WON), "--reveal", "--format", "yaml"])
    assert refused.exit_code == 2 and "--reveal needs --format text or svg" in refused.stderr
