"""A UTF-8 byte-order mark (what Notepad, PowerShell 5 and a spreadsheet's "CSV UTF-8"
put at the start of a file) is not content, wherever the tool reads text back: a
move script, a transcript, a state, a deck, a rules file, and its own CSV given to
``--resume`` (kept, and the rows appended after it)."""

from __future__ import annotations

import codecs
import csv
import io
import re

import pytest
from helpers import EXAMPLES, invoke

from foursquare.engine.deal import deal_deck

BOM = codecs.BOM_UTF8
SOLVE = ["solve", "--max-nodes", "500"]
SIMULATE = ["simulate", "--bot", "greedy", "--vs", "random"]


def without_seconds(text: str) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    keep = [i for i, column in enumerate(rows[0]) if column not in ("seconds", "slowest_move_seconds")]
    return [[row[i] for i in keep] for row in rows]


@pytest.mark.parametrize(
    "args, rows, per_deal", [([*SOLVE, "--deals", "0-9"], 4, 1), ([*SIMULATE, "--deals", "0-4"], 4, 2)], ids=["solve", "simulate"]
)
def test_our_csv_with_a_byte_order_mark_resumes_keeping_the_mark(tmp_path, args, rows, per_deal):
    whole = tmp_path / "whole.csv"
    assert invoke([*args, "--output", whole]).exit_code == 0
    text = whole.read_bytes().decode()
    cut = "\r\n".join(text.split("\r\n")[: rows + 1]) + "\r\n"  # the header and the first rows
    path = tmp_path / "saved.csv"
    path.write_bytes(BOM + cut.encode())
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    assert f"resuming {path}: {rows} of" in result.stderr
    data = path.read_bytes()
    assert data.startswith(BOM + b"deal,status," if per_deal == 1 else BOM + b"bot,deal,")
    assert data[len(BOM):].startswith(cut.encode())  # nothing of the file rewritten
    assert without_seconds(data[len(BOM):].decode()) == without_seconds(text)


@pytest.mark.parametrize("args", [[*SOLVE, "--deals", "0-4"], [*SIMULATE, "--deals", "0-1"]], ids=["solve", "simulate"])
def test_a_csv_of_only_a_byte_order_mark_is_empty_and_starts_the_sweep_keeping_the_mark(tmp_path, args):
    path = tmp_path / "empty.csv"
    path.write_bytes(BOM)
    result = invoke([*args, "--output", path, "--resume"])
    assert result.exit_code == 0, result.output
    whole = tmp_path / "whole.csv"
    assert invoke([*args, "--output", whole]).exit_code == 0
    data = path.read_bytes()
    assert data.startswith(BOM)  # the mark is kept, as at the start of any file resumed
    assert without_seconds(data[len(BOM):].decode()) == without_seconds(whole.read_bytes().decode())


def test_a_byte_order_mark_does_not_hide_the_real_fault_of_a_csv(tmp_path):
    whole = tmp_path / "whole.csv"
    assert invoke([*SOLVE, "--deals", "0-4", "--output", whole]).exit_code == 0
    lf = whole.read_bytes().replace(b"\r\n", b"\n")
    path = tmp_path / "lf.csv"
    path.write_bytes(BOM + lf)
    result = invoke([*SOLVE, "--deals", "0-4", "--output", path, "--resume"])
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}:1: the line ends are LF"), result.stderr
    assert path.read_bytes() == BOM + lf  # refused, untouched
    path.write_bytes(BOM + b"deal,other\r\n")
    result = invoke([*SOLVE, "--deals", "0-4", "--output", path, "--resume"])
    assert result.exit_code == 1 and f"{path}:1: not a CSV of this command" in result.stderr


def _deck() -> str:
    return " ".join(str(card) for card in deal_deck(89)) + "\n"


#: Every reader of a text file, with the file it reads (name, text) and the command.
READERS = [
    pytest.param("m.moves", (EXAMPLES / "deal89.moves").read_text(), ["replay", "m.moves", "--deal", "89", "--final"], id="replay-moves"),
    pytest.param("m.moves", (EXAMPLES / "deal89.moves").read_text(), ["state", "m.moves", "--deal", "89"], id="state-moves"),
    pytest.param("w.yaml", (EXAMPLES / "won.yaml").read_text(), ["validate", "w.yaml"], id="validate"),
    pytest.param("w.yaml", (EXAMPLES / "won.yaml").read_text(), ["replay", "w.yaml", "--final"], id="replay-transcript"),
    pytest.param("s.yaml", (EXAMPLES / "state.yaml").read_text(), ["state", "s.yaml"], id="state-state"),
    pytest.param("s.yaml", (EXAMPLES / "state.yaml").read_text(), ["play", "--resume", "s.yaml", "--no-history"], id="play-resume"),
    pytest.param("d.txt", _deck(), ["play", "--deck", "d.txt", "--no-history"], id="play-deck"),
    pytest.param("d.txt", _deck(), ["solve", "--deck", "d.txt", "--max-nodes", "2000"], id="solve-deck"),
    pytest.param("r.yaml", "preset: three-square\npile_cap: 2\n", ["rules", "r.yaml"], id="rules-file"),
    pytest.param("r.yaml", "preset: three-square\npile_cap: 2\n", ["state", "--deal", "1", "--rules", "r.yaml"], id="state-rules"),
]


@pytest.mark.parametrize("name, text, args", READERS)
def test_every_reader_takes_a_byte_order_mark_as_nothing(tmp_path, monkeypatch, name, text, args):
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    plain.mkdir()
    marked.mkdir()
    (plain / name).write_bytes(text.encode())
    (marked / name).write_bytes(BOM + text.replace("\n", "\r\n").encode())
    stdin = (EXAMPLES / "deal89.moves").read_text() if args[0] == "play" and "--deck" in args else ""
    results = []
    for folder in (plain, marked):
        monkeypatch.chdir(folder)
        results.append(invoke(args, input=stdin))
    assert results[0].exit_code == 0, results[0].output
    plain_output, marked_output = (re.sub(r"seconds: [0-9.]+", "seconds: S", r.output) for r in results)  # solve's time
    assert (results[1].exit_code, marked_output) == (results[0].exit_code, plain_output)


def test_a_move_script_on_stdin_with_a_byte_order_mark():
    script = (EXAMPLES / "deal89.moves").read_bytes()
    plain = invoke(["play", "--deal", "89", "--no-history"], input=script)
    marked = invoke(["play", "--deal", "89", "--no-history"], input=BOM + script.replace(b"\n", b"\r\n"))
    assert plain.exit_code == 0 and plain.stdout.startswith("Won, score 4.")
    assert (marked.exit_code, marked.output) == (plain.exit_code, plain.output)
