"""The strict YAML layer (FORMATS.md: no coercion, duplicate keys, safe tags, FILE:LINE)."""

import pytest
import yaml

from foursquare.errors import FormatError
from foursquare.formats.inputs import read_source
from foursquare.formats.yaml import (
    Flow,
    FlowList,
    Quoted,
    YMap,
    YSeq,
    as_bool,
    as_choice,
    as_int,
    as_text,
    dump,
    read_documents,
    read_each_document,
    strict,
)

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


@pytest.fixture(autouse=True, params=LOADERS, ids=lambda loader: loader.__name__)
def loader(request, monkeypatch):
    """Every test runs with PyYAML's pure-Python composer and with libyaml's: they differ
    in details (libyaml marks a plain scalar with style '' rather than None)."""
    monkeypatch.setattr(strict, "LOADER", request.param)
    return request.param


def one(text):
    [doc] = read_documents(text, "f.yaml")
    return doc


def error(fn, *args):
    with pytest.raises(FormatError) as info:
        fn(*args)
    return str(info.value)


@pytest.mark.parametrize("bait", ["no", "on", "yes", "off", "010", "1e3", "7e1", "0x1F", "1_000", "12:30", "2001-12-14", "~x"])
def test_scalars_are_kept_as_written(bait):
    doc = one(f"card: {bait}\n")
    assert as_text(doc.entries["card"], "card", "f.yaml") == bait


def test_every_node_has_its_line():
    doc = one("a: 1\nb:\n  - x\n  - {c: d}\n\ne: |\n  text\n")
    assert doc.line == 1
    assert doc.key_lines == {"a": 1, "b": 2, "e": 6}
    seq = doc.entries["b"]
    assert isinstance(seq, YSeq) and seq.line == 3
    assert [item.line for item in seq.items] == [3, 4]
    assert isinstance(seq.items[1], YMap) and seq.items[1].entries["c"].line == 4


def test_duplicate_keys_are_an_error_at_the_second_key():
    assert error(read_documents, "a: 1\nb: 2\na: 3\n", "f.yaml") == "f.yaml:3: duplicate key 'a' (first on line 1)"
    assert "f.yaml:2: duplicate key 'x'" in error(read_documents, "m:\n  {x: 1, x: 2}\n", "f.yaml")
    # two documents run together (two `solve` outputs appended): say how to separate them
    assert error(read_documents, "foursquare: 1\nmoves: []\nfoursquare: 1\n", "f.yaml") == (
        "f.yaml:3: duplicate key 'foursquare' (first on line 1); to put several documents in one file,"
        " start each with a line '---'"
    )
    assert error(read_documents, "m:\n  foursquare: 1\n  foursquare: 2\n", "f.yaml").endswith("(first on line 2)")


#: Tags outside the core types, and core tags that make a value something else
#: than what it is written as: one rule for every file.
_OUTSIDE = "(only plain values, lists and mappings)"
_CHANGES = "here (write the value plainly, without a tag)"


@pytest.mark.parametrize(
    "text, tag, why",
    [
        ("a: !!python/object:os.system {}\n", "!!python/object:os.system", _OUTSIDE),
        ("a: !!python/object/apply:os.system ['ls']\n", "!!python/object/apply:os.system", _OUTSIDE),
        ("a: !!binary aGVsbG8=\n", "!!binary", _OUTSIDE),
        ("a: !!set {x}\n", "!!set", _OUTSIDE),
        ("a: !local x\n", "!local", _OUTSIDE),
        ("a: !!str 010\n", "!!str", _CHANGES),
        ("a: !!str 1\n", "!!str", _CHANGES),
        ("a: !!str true\n", "!!str", _CHANGES),
        ('a: !!int "1"\n', "!!int", _CHANGES),
        ("a: !!float 1\n", "!!float", _CHANGES),
        ("a: !!int\n", "!!int", _CHANGES),
        ('a: !!null ""\n', "!!null", _CHANGES),
        ("a: !!bool down\n", "!!bool", _CHANGES),
        ("a: !!seq {b: 1}\n", "!!seq", _CHANGES),
        ("a: !!map [1]\n", "!!map", _CHANGES),
        ("!!int d4: x\n", "!!int", _CHANGES),
        ("!!seq {a: 1}\n", "!!seq", _CHANGES),
    ],
)
def test_unsupported_tags_are_rejected(text, tag, why):
    assert error(read_documents, text, "f.yaml") == f"f.yaml:1: unsupported YAML tag {tag} {why}"


def test_core_tags_that_change_nothing_are_fine():
    doc = one("a: !!str text\nb: !!int 5\nc: !!seq [1]\nd: !!map {e: 1}\n")
    assert doc.entries["a"].text == "text" and doc.entries["b"].text == "5"


def test_merge_keys_and_non_text_keys_are_rejected():
    assert "merge keys" in error(read_documents, "b: &x {c: 1}\na:\n  <<: *x\n", "f.yaml")
    assert error(read_documents, "? [a]\n: b\n", "f.yaml") == "f.yaml:1: a mapping key must be text, not a list"


def test_recursive_alias_is_an_error_not_a_hang():
    assert "refers to itself" in error(read_documents, "a: &x [*x]\n", "f.yaml")


def test_aliases_to_plain_values_work():
    doc = one("a: &c 7H\nb: *c\n")
    assert doc.entries["b"].text == "7H"


def test_syntax_error_names_the_line():
    message = error(read_documents, "a: 1\nb: [1, 2\nc: 3\n", "f.yaml")
    assert message.startswith("f.yaml:") and "YAML syntax error" in message
    line = int(message.split(":")[1])
    assert 2 <= line <= 4


def test_multi_documents_and_empty_documents():
    docs = read_documents("a: 1\n---\nb: 2\n---\n", "f.yaml")
    assert [d.line if d else None for d in docs] == [1, 3, None]
    assert read_documents("", "f.yaml") == []


def decode(data, tmp_path):
    """The text of a file holding ``data``, as every reader reads a file."""
    (tmp_path / "f.yaml").write_bytes(data)
    return read_source(str(tmp_path / "f.yaml"))[0]


def test_bom_and_crlf_are_accepted_and_lines_kept(tmp_path):
    doc = one("\ufeffa: 1\r\nb: x\r\n")
    assert doc.entries["b"].text == "x" and doc.entries["b"].line == 2
    assert decode("\ufeffa: 1\r\n".encode(), tmp_path) == "a: 1\n"


def test_non_utf8_bytes_name_the_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert error(decode, b"a: 1\nb: \xff\n", tmp_path).endswith("f.yaml:2: not UTF-8 text")
    assert error(decode, b"\xfe\xff\x00a", tmp_path).endswith(  # UTF-16 text, which the message names
        "f.yaml:1: not UTF-8 text: it is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"
    )


def test_control_characters_are_an_error():
    assert "U+0007" in error(read_documents, "a: \x07\n", "f.yaml")


@pytest.mark.parametrize(
    "text", ["010", "-1", "1e3", "+5", "1_0", "'5'", '"5"', "five", "null", "[5]", "5.0", "0x5", "true"]
)
def test_numbers_are_plain_decimal_digits_only(text):
    node = one(f"n: {text}\n").entries["n"]
    assert error(as_int, node, "n", "f.yaml").startswith("f.yaml:1: n must be a whole number")


def test_number_ranges():
    assert as_int(one("n: 0\n").entries["n"], "n", "f", 0, 5) == 0
    assert as_int(one(f"n: {2**64 - 1}\n").entries["n"], "n", "f", 0, 2**64 - 1) == 2**64 - 1
    assert "from 0 to" in error(as_int, one(f"n: {2**64}\n").entries["n"], "n", "f", 0, 2**64 - 1)


def test_booleans_are_true_or_false_only():
    assert as_bool(one("b: true\n").entries["b"], "b", "f") is True
    assert as_bool(one("b: False\n").entries["b"], "b", "f") is False
    for bait in ("yes", "no", "on", "'true'", "1"):
        assert "must be true or false" in error(as_bool, one(f"b: {bait}\n").entries["b"], "b", "f")


def test_choices_name_the_allowed_words():
    assert error(as_choice, one("s: Won\n").entries["s"], "status", "f", ("playing", "won", "lost")) == (
        "f:1: status must be one of playing, won, lost, not the text 'Won'"
    )


def test_null_is_not_text():
    assert error(as_text, one("c: ~\n").entries["c"], "card", "f") == "f:1: card must be text, not null"
    assert as_text(one("c: 'null'\n").entries["c"], "card", "f") == "null"


def test_dump_quotes_cards_and_cells_and_reads_back():
    data = {
        "next": Quoted("7H"),
        "moves": [Quoted("TD d4")],
        "grid": {Quoted("d4"): Flow(cards=FlowList([Quoted("5C"), Quoted("7S")]), face="up")},
        "deck": FlowList(Quoted(c) for c in ["9C", "3S"] * 20),
        "reason": None,
    }
    text = dump(data)
    assert '"7H"' in text and '"d4": {cards: ["5C", "7S"], face: up}' in text and "reason: null" in text
    # every card and cell scalar is double-quoted in the emitted YAML
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    styles = {}
    for key, value in node.value:
        styles[key.value] = value
    assert styles["next"].style == '"'
    assert all(item.style == '"' for item in styles["deck"].value)
    assert yaml.safe_load(text)["deck"] == ["9C", "3S"] * 20


def test_the_size_limit_is_per_document_not_per_stream(monkeypatch):
    # a long transcript of small games is read whole (its 2545th game was refused
    # once the stream's shared budget ran out); one document over the limit is
    # refused on its own, and the documents after it are read
    monkeypatch.setattr(strict, "MAX_NODES", 10)
    small = "a: [1, 2, 3]\n"  # 5 values
    big = "b: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"  # 11 values
    docs = list(read_each_document("---\n".join([small] * 30 + [big, small]), "s.yaml"))
    assert [doc.error is None for doc in docs] == [True] * 30 + [False, True]
    assert str(docs[30].error) == "s.yaml:61: the YAML document is too large (more than 10 values)"


#: A child that runs ``foursquare validate FILE`` with the PyYAML loader named, then says
#: on its last line of stderr the most memory it held (ru_maxrss, kB).
_VALIDATE_IN_A_CHILD = """
import resource, sys, yaml
from foursquare.formats.yaml import strict
strict.LOADER = getattr(yaml, sys.argv[1])
from foursquare.cli import main
try:
    main(["validate", sys.argv[2]], prog_name="foursquare")
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def _validate_in_a_child(path, loader) -> tuple[list[str], int]:
    """(stderr's lines but the last, the child's peak memory in MB)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _VALIDATE_IN_A_CHILD, loader.__name__, str(path)], capture_output=True, text=True, timeout=300,
    )
    *lines, peak = done.stderr.splitlines()
    return lines, int(peak) // 1024


@pytest.mark.parametrize("form", ["flow list", "block list", "not the plain form"])
def test_a_document_far_over_the_value_limit_is_refused_in_flat_memory(tmp_path, loader, form):
    """A document of 1.5 million moves (6 MB) is refused at the value that passes the limit,
    with the same message, before its nodes exist: by the fast reader of the plain form
    (which gives up as soon as it is near the limit, tokens and lines read one by one) and by
    the strict reader from either parser's events.  The nodes of the whole list took some
    320 MB, a list of its lines 90 MB; memory now stays that of a small file's check."""
    moves = ["b2", "c3", "d4", "a1"] * 375_000
    if form == "flow list":
        # a thousand moves a line: one 6 MB line is refused by the line limit first
        rows = (", ".join(moves[i : i + 1000]) for i in range(0, len(moves), 1000))
        body, line = "moves: [" + ",\n".join(rows) + "]\n", 102
    elif form == "block list":
        body, line = "moves:\n" + "".join(f"- {m}\n" for m in moves), 99_997
    else:
        body, line = "moves: [\n" + ",\n".join(moves) + "]\n", 99_997
    big = tmp_path / "big.yaml"
    big.write_text("foursquare: 1\ndeal: 1\n" + body)
    small = tmp_path / "small.yaml"
    small.write_text("foursquare: 1\ndeal: 1\nmoves: [b2]\n")
    said, peak = _validate_in_a_child(big, loader)
    _, base = _validate_in_a_child(small, loader)
    assert said[0] == f"{big}:{line}: game 1: the YAML document is too large (more than 100,000 values)"
    assert peak - base < 60, (peak, base)
