"""The strict reader builds its values from the parser's events (FORMATS.md: strict YAML, FILE:LINE).

Its limits hold while it reads (a document over the value limit is refused at
the value that passes it, before the rest of the document is parsed), and
libyaml's events and PyYAML's pure-Python ones give the same values, lines and
errors.
"""

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare.errors import FormatError
from foursquare.formats.yaml import (
    MAX_DEPTH,
    Piece,
    YMap,
    YNode,
    YScalar,
    YSeq,
    cut,
    iter_pieces,
    read_documents,
    read_each_document,
    strict,
)

ROOT = Path(__file__).resolve().parents[2]
LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


def counting(loader: type) -> tuple[type, list[int]]:
    """A subclass of ``loader`` that counts the events it hands out."""
    seen = [0]

    class Counting(loader):  # type: ignore[misc, valid-type]
        def get_event(self):  # noqa: ANN202
            seen[0] += 1
            return super().get_event()

    return Counting, seen


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_a_document_over_the_value_limit_is_refused_at_its_line_before_it_is_read_whole(loader, monkeypatch):
    monkeypatch.setattr(strict, "MAX_NODES", 100)
    counted, seen = counting(loader)
    monkeypatch.setattr(strict, "LOADER", counted)
    # values: the mapping, foursquare, 1, moves, the list, then one per line from line 3
    text = "foursquare: 1\nmoves:\n" + "- d4\n" * 5000 + "---\nfoursquare: 1\n"
    first, second = read_each_document(text, "big.yaml")
    assert first.error is not None and second.error is None and second.node is not None
    assert str(first.error) == "big.yaml:98: the YAML document is too large (more than 100 values)"
    assert 95 < seen[0] < 200  # the events up to the limit were read; the 5,000 others never parsed, let alone built


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(
    "text",
    [
        "a:\n  - [x, y]\n  - {b: c}\n",  # the limit counts nested values and keys
        "a: &x [1, 2]\nb: [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x, *x]\nc: [1, 2, 3]\n",  # an alias counts once
    ],
)
def test_the_limit_counts_what_is_built(loader, text, monkeypatch):
    monkeypatch.setattr(strict, "LOADER", loader)
    monkeypatch.setattr(strict, "MAX_NODES", 30)
    assert read_documents(text, "f.yaml")
    monkeypatch.setattr(strict, "MAX_NODES", 8)
    with pytest.raises(FormatError, match="too large"):
        read_documents(text, "f.yaml")


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_nesting_is_limited_while_reading_at_the_line_that_passes_the_limit(loader, monkeypatch):
    monkeypatch.setattr(strict, "LOADER", loader)
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 300))
    [doc] = read_each_document(deep, "deep.yaml")
    assert str(doc.error) == f"deep.yaml:{MAX_DEPTH + 1}: the YAML is nested too deeply (more than {MAX_DEPTH} levels)"
    flow = "x: " + "[" * 300 + "]" * 300
    [doc] = read_each_document(flow, "flow.yaml")
    assert str(doc.error) == f"flow.yaml:1: the YAML is nested too deeply (more than {MAX_DEPTH} levels)"
    assert read_documents("a:\n" + "".join("  " * i + "- \n" for i in range(1, 150)), "ok.yaml")


# ------------------------------------------------------------ C and pure agree


def shape(node: YNode | None) -> object:
    """A node as plain values, lines included (aliases are shared nodes: compared by value)."""
    if node is None:
        return None
    if isinstance(node, YScalar):
        return ("scalar", node.line, node.text, node.plain, node.tag)
    if isinstance(node, YSeq):
        return ("list", node.line, [shape(item) for item in node.items])
    assert isinstance(node, YMap)
    return ("map", node.line, [(k, node.key_lines[k], shape(v)) for k, v in node.entries.items()])


def read_with(loader: type, text: str) -> list[object]:
    saved = strict.LOADER
    strict.LOADER = loader
    try:
        out: list[object] = []
        for doc in read_each_document(text, "f.yaml"):
            if doc.error is not None and "YAML syntax error" in str(doc.error) and "alias" not in str(doc.error):
                out.append((doc.line, "syntax error"))  # libyaml and PyYAML word (and place) these differently
            else:
                out.append((doc.line, shape(doc.node), None if doc.error is None else str(doc.error)))
        return out
    finally:
        strict.LOADER = saved


def assert_agree(text: str) -> None:
    results = [read_with(loader, text) for loader in LOADERS]
    assert all(result == results[0] for result in results)


CORPUS = sorted(
    p for folder in ("tests/data", "examples") for p in (ROOT / folder).rglob("*") if p.suffix in (".yaml", ".yml")
)


@pytest.mark.skipif(len(LOADERS) < 2, reason="libyaml is not installed")
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_c_and_pure_events_agree_on_every_file_of_the_corpus(path):
    text = path.read_text(encoding="utf-8")
    assert_agree(text)
    assert any(shape(doc.node) for doc in read_each_document(text, "f.yaml"))


@pytest.mark.skipif(len(LOADERS) < 2, reason="libyaml is not installed")
def test_c_and_pure_events_agree_on_games_the_tool_writes():
    from foursquare.engine.game import Game
    from foursquare.formats.transcript import transcripts_text

    games = []
    for deal in (1, 2, 3):
        game = Game.from_deal(deal)
        while not game.is_over:
            game.play(game.legal_cells()[0])
        games.append(game)
    assert_agree(transcripts_text(games, claims=True))


KEYS = st.sampled_from(["a", "b", "foursquare", "<<", "~", '"a"', "'b'", "[x]", "{k: v}", "!!str a", "&k a", "*k", "="])
VALUES = st.sampled_from(
    [
        "1", '"1"', "'x'", "!!str 1", "!!int \"1\"", "!!int 5", "!foo x", "!!binary aGk=", "&a 1", "*a", "*zz",
        "[1, *a]", "{b: 2}", "{b: 2, b: 3}", "~", "", "no", "010", "1e3", "<<", "!!seq {}", "!!map {}", "&a [x]",
        "&r [*r]", "!!null", "2001-12-14", "!! x", "! 5", "=", '"\\u263a"', "[[], {}]", "!!set {a: null}",
    ]
)
LINE = st.tuples(st.integers(0, 2), KEYS, VALUES).map(lambda t: "  " * t[0] + f"{t[1]}: {t[2]}")
DOCUMENT = st.lists(LINE, min_size=1, max_size=8).map("\n".join)


@pytest.mark.skipif(len(LOADERS) < 2, reason="libyaml is not installed")
@settings(max_examples=300, deadline=None)
@given(st.lists(DOCUMENT, min_size=1, max_size=4))
def test_c_and_pure_events_agree_on_generated_documents(documents):
    assert_agree("".join(f"---\n{doc}\n" for doc in documents))


@pytest.mark.skipif(len(LOADERS) < 2, reason="libyaml is not installed")
@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=20,
    ),
    st.sampled_from([True, False, None]),
)
def test_c_and_pure_events_agree_on_dumped_values(value, flow):
    assert_agree(yaml.safe_dump({"v": value}, default_flow_style=flow, allow_unicode=True))


# ------------------------------------------------------------ the cut into documents


def reference_split(text: str) -> list[Piece]:
    """The cut by lines as it was first written (iter_pieces must give the same pieces)."""
    lines = cut.BREAKS.split(text)
    breaks = cut.BREAKS.findall(text) + [""]
    pieces: list[Piece] = []
    start = 0
    first: int | None = None  # the first content line of the current piece
    started = False  # the piece has its '---' or some content: a '---' now starts the next one

    def close(end: int) -> None:
        if first is not None:
            pieces.append(Piece(start, "".join(lines[i] + breaks[i] for i in range(start, end)), first))

    for i, line in enumerate(lines):
        marker = cut.MARKER.match(line) if line[:1] in "-." else None
        if marker and marker.group(1) == "---":
            if started:
                close(i)
                start, first = i, None
            started = True
            first = i + 1 if first is None else first
        elif marker:  # '...': the document ends with this line
            if started or first is not None:
                first = i + 1 if first is None else first
                close(i + 1)
            # (a '...' with no document open ends nothing: it is left out)
            start, first, started = i + 1, None, False
        elif not started:
            stripped = line.strip()
            if line.startswith("%"):  # a directive: it belongs to the document its '---' starts
                first = i + 1 if first is None else first
            elif stripped and not stripped.startswith("#"):
                started = True
                first = i + 1 if first is None else first
    if started or first is not None:
        close(len(lines))
    return pieces


SPLIT_LINES = st.lists(
    st.sampled_from(
        ["---", "--- a: 1", "...", "... # end", "---x", "a: 1", "  b", "# c", "", "  ", "%YAML 1.1", "  %x",
         "- x", ".", "\u3000", "\x0c", "'---'", "|", "  --- no"]
    ),
    max_size=12,
)


@settings(max_examples=500, deadline=None)
@given(SPLIT_LINES, st.lists(st.sampled_from(["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"]), min_size=1))
def test_the_cut_into_documents_is_the_cut_by_lines(lines, breaks):
    text = "".join(line + breaks[i % len(breaks)] for i, line in enumerate(lines))
    for variant in (text, text.rstrip("\n"), text + "x"):
        assert list(iter_pieces((variant,))) == reference_split(variant)
