"""The fast reader of the plain form (formats/yaml/fast.py) gives exactly the strict reader's nodes.

Whenever :func:`fast.read_plain` accepts a document, the strict reader (built
from PyYAML's events, pure-Python and libyaml's) must read it without an error to
the same nodes: same kinds, texts, quoting, tags, keys in order, lines.  Checked
on the writer's own transcripts, on generated documents and on mutations of both
(an edited character, a repeated or dropped line), where the fast reader must
step aside for anything unusual.
"""

import random

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foursquare.bots import get_bot
from foursquare.engine.game import Game
from foursquare.formats import transcript_write as transcript
from foursquare.formats.yaml import MAX_NODES, YMap, YNode, YScalar, YSeq, fast, iter_pieces, read_documents, strict

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


def shape(node: YNode | None) -> object:
    """Everything a node holds, as plain data (YNode compares by identity)."""
    if node is None:
        return None
    if isinstance(node, YScalar):
        return ("scalar", node.line, node.text, node.plain, node.tag)
    if isinstance(node, YSeq):
        return ("seq", node.line, [shape(item) for item in node.items])
    assert isinstance(node, YMap)
    assert list(node.entries) == list(node.key_lines)
    return ("map", node.line, [(k, node.key_lines[k], shape(v)) for k, v in node.entries.items()])


def strict_nodes(text: str, offset: int, loader: type) -> list[object]:
    return [shape(n) for n in strict.build_nodes(loader(text).get_event, "t.yaml", offset)]


def check_same(text: str, offset: int = 0) -> bool:
    """When the fast reader accepts ``text``, every strict reader gives the same nodes; whether it did."""
    plain = fast.read_plain(text, offset, MAX_NODES)
    if plain is None:
        return False
    for loader in LOADERS:
        assert strict_nodes(text, offset, loader) == [shape(plain)], (loader, text)
    return True


def played(deal: int) -> Game:
    bot = get_bot("greedy")
    game = Game.from_deal(deal)
    rng = random.Random(deal)
    while not game.is_over:
        game.play(bot.choose(game.view(), None, rng.getrandbits(64)))
    return game


GAMES = [played(deal) for deal in range(1, 6)]
TEXTS = [transcript.transcript_text(game, claims=True) for game in GAMES] + [
    transcript.transcript_text(game, claims=False) for game in GAMES
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_writers_transcripts_are_read_fast_to_the_strict_readers_nodes(text):
    assert check_same(text, 0)
    assert check_same("---\n" + text, 41)


def test_a_stream_reads_to_the_same_documents_and_each_game_through_the_fast_reader():
    text = transcript.transcripts_text(GAMES, claims=True)
    pieces = list(iter_pieces([text]))
    assert len(pieces) == len(GAMES)
    for piece in pieces:
        assert check_same(piece.text, piece.offset)


ODD = '"\\#:,{}[]-&*!|>%@`~ .\n\tx1_\'?'


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    what = rng.randrange(5)
    if what == 0 and len(text) > 1:  # a character replaced
        at = rng.randrange(len(text))
        return text[:at] + rng.choice(ODD) + text[at + 1 :]
    if what == 1:  # a character inserted
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(ODD) + text[at:]
    if what == 2 and len(text) > 1:  # a character dropped
        at = rng.randrange(len(text))
        return text[:at] + text[at + 1 :]
    if what == 3:  # a line repeated (a duplicate key, a longer list)
        at = rng.randrange(len(lines))
        return "\n".join(lines[: at + 1] + lines[at:])
    at = rng.randrange(len(lines))  # a line dropped
    return "\n".join(lines[:at] + lines[at + 1 :])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(TEXTS) - 1), st.integers(0, 2**32), st.integers(1, 3))
def test_mutated_transcripts_are_read_alike_or_left_to_the_strict_reader(which, seed, edits):
    rng = random.Random(seed)
    text = TEXTS[which]
    for _ in range(edits):
        text = mutate(text, rng)
    check_same(text, rng.randrange(3))


WORDS = st.sampled_from(
    ["a", "b" * 1030, "playing", "won", "null", "Null", "NULL", "true", "no", "On", "y", "1", "010", "0x1F", "0o7", "1e3",
     "1.5", "1_000", "2001-12-14", "12:30", "nan", "x.y", "a-b", "T", "d4", "2D", "=", "<<", "_", "9.x"]
)  # fmt: skip
KEYS = st.sampled_from(["card", "cell", "null", "a", "b", "yes", "x_1", "Null", "on", "k" * 100, "k" * 1030])


def scalar() -> st.SearchStrategy[str]:
    quoted = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=6).map(
        lambda t: '"' + t + '"'
    )
    return st.one_of(WORDS, quoted)


flow = st.recursive(
    scalar(),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(KEYS, inner), max_size=4).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
    ),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(KEYS, flow).map(lambda kv: f"{kv[0]}: {kv[1]}"),
            st.tuples(KEYS, st.lists(flow, min_size=1, max_size=3)).map(
                lambda kv: "\n".join([f"{kv[0]}:"] + [f"- {v}" for v in kv[1]])
            ),
        ),
        min_size=1,
        max_size=5,
    ),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_generated_documents_are_read_alike_or_left_to_the_strict_reader(parts, marker, seed):
    text = ("---\n" if marker else "") + "\n".join(parts) + "\n"
    check_same(text, 3)
    check_same(mutate(text, random.Random(seed)), 0)


def test_unusual_documents_are_left_to_the_strict_reader():
    for text in [
        "a: 1\n\nb: 2\n",  # a blank line
        "a: 1 # note\n",  # a comment
        "a: 1\na: 2\n",  # a duplicate key (the strict reader says where)
        "a: {b: 1, b: 2}\n",
        "null: 1\n",
        'a: "x\\"y"\n',  # an escape
        "a: !!str 1\n",
        "a: &x 1\nb: *x\n",
        "a:\n  - 1\n",  # indentation
        "a: <<\n",
        "a: é\n",
        "a: 1 \n",
        "moves:\nb: 1\n",  # a key without its list
        "- 1\n",
        "...\n",
        "a" * 1100 + ": 1\n",  # an implicit key over YAML's 1024 characters
        "x: {" + "a" * 1100 + ": 1}\n",
    ]:
        assert fast.read_plain(text, 0, MAX_NODES) is None, text


def test_a_document_near_the_value_limit_is_left_to_the_strict_reader(monkeypatch):
    monkeypatch.setattr(strict, "MAX_NODES", 50)
    assert fast.read_plain(TEXTS[0], 0, strict.MAX_NODES) is None
    with pytest.raises(Exception, match="too large"):
        read_documents(TEXTS[0], "t.yaml")


def reports(text: str) -> list[tuple[object, ...]]:
    """What ``validate`` says of ``text``, game by game (every message with its file and line)."""
    from foursquare.errors import FormatError
    from foursquare.formats import transcript as checker

    try:
        return [
            (r.number, r.valid, r.line, [str(e) for e in r.errors]) for r in checker.iter_validate(text, "g.yaml")
        ]
    except FormatError as exc:
        return [("file", str(exc))]


STREAM = transcript.transcripts_text(GAMES, claims=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_validate_says_the_same_with_and_without_the_fast_reader(seed, edits):
    """Mutated streams of games (claims, cells, cards edited; lines repeated or dropped):
    the same reports, messages and lines, whether the fast reader is used or not."""
    rng = random.Random(seed)
    text = STREAM
    for _ in range(edits):
        if rng.random() < 0.5:  # an edit the fast reader still accepts: a digit or a cell letter
            at = rng.choice([i for i, ch in enumerate(text) if ch.isdigit() or ch in "bcde"])
            text = text[:at] + rng.choice("0123456789bcde") + text[at + 1 :]
        else:
            text = mutate(text, rng)
    with_fast = reports(text)
    original = fast.read_plain
    fast.read_plain = lambda text, offset, limit: None  # type: ignore[assignment]
    try:
        strict_only = reports(text)
    finally:
        fast.read_plain = original
    assert with_fast == strict_only
