"""Transcripts: the record of one or more games in YAML (FORMATS.md "Transcripts").

One YAML document per game, ``---`` between::

    foursquare: 1
    rules: standard
    deal: 42
    moves:
    - {card: "6H", cell: "d4", flipped: [], face_down: 0, status: playing}
    - "7D e4"
    result: {status: lost, reason: too-many-face-down, score: null}

Reading is in two steps: :func:`iter_transcripts` checks each document's
shape (keys, types, cards, cells) and :func:`check_game` replays the moves and
checks every claim.  :func:`validate` does both for a whole file (the
``validate`` command; :class:`Repeats` finds a game that repeats another, for
``validate --duplicates``); :func:`transcript_text` writes a game (:func:`transcripts_text`
several); :func:`load_game` reads a one-game transcript into a
:class:`~foursquare.engine.game.Game`.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import Card
from ..engine.game import Game, Status
from ..engine.layout import Cell
from ..engine.rules import STANDARD, Rules
from ..errors import Advice, ArgumentError, FormatError, ParseError, PositionError, shorten, shown_name
from .movescript import Move, new_game, parse_move, play_move
from .movescript import read_entries as read_script
from .schema import FORMAT_VERSION, GAME, MISSING_VERSION, MOVE, RESULT, RULE_PARAMETERS, rules_value
from .yaml import (
    KNOWN_CARDS,
    KNOWN_CELLS,
    Document,
    Flow,
    FlowList,
    Quoted,
    YMap,
    YNode,
    YScalar,
    YSeq,
    as_card,
    dump,
    read_each_document,
)
from .yaml.values import read_entries

_STATUS_OF = {s.value: s for s in Status}
#: The numbers 0 to 99 by their text, as :func:`~foursquare.formats.yaml.as_int` reads them.
_SMALL_NUMBER = {str(n): n for n in range(100)}


@dataclass
class MoveEntry:
    """One item of ``moves``.

    :ivar card: the card the move names, or ``None``.
    :ivar cell: where the card goes.
    :ivar claims: the claims to check after the move: ``flipped`` (list of
        :class:`~foursquare.engine.layout.Cell`), ``face_down`` (int), ``status`` (:class:`Status`).
    :ivar line: the item's line.
    :ivar claim_lines: claim name -> its line.
    """

    card: Card | None
    cell: Cell
    claims: dict[str, Any] = field(default_factory=dict)
    line: int = 0
    claim_lines: dict[str, int] = field(default_factory=dict)


@dataclass
class TranscriptGame:
    """One game document as read, before replay.

    :ivar number: the game's number in the file, from 1 (``None`` for a file that
        could not be read game by game: its one error is about the whole file).
    :ivar line: the document's first line (``None`` when the file has none to give).
    :ivar rules: the rule set (standard when the document names none).
    :ivar rules_given: whether the document has a readable ``rules`` value.
    :ivar deal: the deal number, or ``None``.
    :ivar deck: the card order (top first), or ``None``.
    :ivar moves: the readable moves, in order, up to the first unreadable one.
    :ivar complete: false when some move could not be read (replay stops after ``moves``).
    :ivar result: the result claims: ``status`` (:class:`Status`), ``reason``
        (:class:`Reason` or ``None``), ``score`` (int or ``None``).
    :ivar result_lines: claim name -> its line.
    :ivar lines: top-level key -> the line of its value.
    :ivar errors: the schema errors found while reading the document.
    :ivar readable: false when the document is not readable YAML (its error is in
        ``errors``; nothing else is known of the game).
    """

    number: int
    line: int
    rules: Rules = STANDARD
    rules_given: bool = False
    deal: int | None = None
    deck: list[Card] | None = None
    moves: list[MoveEntry] = field(default_factory=list)
    complete: bool = True
    result: dict[str, Any] = field(default_factory=dict)
    result_lines: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    errors: list[FormatError] = field(default_factory=list)
    readable: bool = True


@dataclass
class GameReport:
    """The verdict on one game of a transcript file.

    :ivar number: the game's number in the file, from 1 (``None`` for a file that
        could not be read game by game: its one error is about the whole file).
    :ivar valid: whether the game has no error.
    :ivar errors: every error found, in line order.
    :ivar game: the game replayed as far as it got (``None`` when it could not be built).
    :ivar line: the document's first line (``None`` when the file has none to give).
    """

    number: int | None
    valid: bool
    errors: list[FormatError]
    game: Game | None
    line: int | None = 1

    def to_dict(self, words: Mapping[Advice, str] | None = None) -> dict[str, Any]:
        """A JSON-friendly summary: ``game``, ``line``, ``valid``, ``errors`` (each
        ``{line, move, message, text}``, the advice in ``words``: see
        :meth:`~foursquare.errors.FoursquareError.worded`), ``status``, ``reason``, ``score``, ``moves``."""
        return {
            "game": self.number,
            "line": self.line,
            "valid": self.valid,
            "errors": [
                {"line": e.line, "move": e.move, "message": e.worded(words), "text": e.text(words)} for e in self.errors
            ],
            "status": None if self.game is None else self.game.status.value,
            "reason": None if self.game is None or self.game.reason is None else self.game.reason.value,
            "score": None if self.game is None else self.game.score,
            "moves": 0 if self.game is None else len(self.game.moves),
        }


# ------------------------------------------------------------------ writing


def transcript_text(game: Game, *, claims: bool = True) -> str:
    """One YAML document recording ``game`` (FORMATS.md "Transcripts").

    Keys: ``foursquare: 1``, ``rules`` (the preset name, or every parameter),
    ``deal`` when known else ``deck`` (the whole known order), ``moves`` (with
    claims: ``{card, cell, flipped, face_down, status}`` mappings; without:
    ``"CARD CELL"`` strings) and ``result`` (status, reason, score).  Cards and
    cells are quoted.  The text validates (:func:`validate`).  Join several games'
    texts with :func:`transcripts_text`.

    :raises ArgumentError: when the game has no full history (resumed from a
        position without its moves), which a transcript cannot record (a ``ValueError`` too).
    """
    if len(game.moves) != game.placed:
        raise ArgumentError(
            "this game was resumed from a position without its moves, so it cannot be written as a transcript"
        )
    doc: dict[str, Any] = {"foursquare": FORMAT_VERSION, "rules": rules_value(game.rules)}
    if game.deal is not None:
        doc["deal"] = game.deal
    else:
        doc["deck"] = FlowList(Quoted(str(c)) for c in game.deck)
    doc["moves"] = [
        Flow(
            card=Quoted(str(p.card)),
            cell=Quoted(str(p.cell)),
            flipped=FlowList(Quoted(str(c)) for c in p.flipped),
            face_down=p.face_down,
            status=p.status.value,
        )
        if claims
        else Quoted(f"{p.card} {p.cell}")
        for p in game.moves
    ]
    doc["result"] = Flow(
        status=game.status.value,
        reason=None if game.reason is None else game.reason.value,
        score=game.score,
    )
    return dump(doc)


def transcripts_text(games: Sequence[Game], *, claims: bool = True) -> str:
    """Several games as one multi-document transcript (documents joined with ``---``)."""
    return "---\n".join(transcript_text(g, claims=claims) for g in games)


def leading_comments(text: str) -> str:
    """The comment lines at the top of a YAML file, before its first document (an
    editor's modeline, ``# yaml-language-server: $schema=...``, docs/guide/ci.md), with
    the blank lines among them, each ending with a line end: what a rewrite of the file
    keeps at its top.  Empty when the file starts with anything else.

    >>> leading_comments("# yaml-language-server: $schema=transcript.schema.json\\n\\n# mine\\n\\nfoursquare: 1\\n")
    '# yaml-language-server: $schema=transcript.schema.json\\n\\n# mine\\n'
    >>> leading_comments("foursquare: 1\\n# not at the top\\n")
    ''
    """
    head = next(_LEADING_COMMENTS.finditer(text.removeprefix("\ufeff").replace("\r\n", "\n"))).group()  # (the first: at 0)
    return "".join(f"{line.rstrip()}\n" for line in head.removesuffix("\n").split("\n")) if head else ""


#: Blank lines and comment lines from the start, up to the last comment line (each piece
#: atomic: a blank line is never a comment line, so nothing is tried twice).
_LEADING_COMMENTS = re.compile(r"(?:(?:[^\S\n]*+\n)*+[^\S\n]*+#[^\n]*+(?:\n|\Z))*+")


# ------------------------------------------------------------------ reading


def iter_transcripts(
    text: str | Iterable[str], source: str, *, read: Callable[[int], bool] | None = None
) -> Iterator[TranscriptGame]:
    """Read the game documents of a transcript file one at a time (shape only; no replay).

    Each document is read when the iterator reaches it, so a caller that drops each
    game before taking the next holds one game at a time, and one that stops after
    game K reads no further.

    :param text: the file's text (UTF-8 text; a byte-order mark and CRLF are accepted),
        or its blocks as :class:`foursquare.formats.inputs.InputFile` reads them: then the
        file is read as the games are taken, and the first game is given as soon as it
        is read (when it is a game; a first document that is not one is looked at with
        the next, to tell a file of another kind).
    :param source: the file name used in errors.
    :param read: which games to read, by number (``None``: all): the others are only
        counted (their first events are read, to know that they are a game), and are
        given with nothing known but their number and line.
    :returns: one :class:`TranscriptGame` per non-empty document, in order; the errors of
        each game are in its ``errors``.  Each document is read on its own: one
        that is not readable YAML (a syntax error, a duplicate key, an unsupported
        tag) is a game with that error, and the other games are still read.
    :raises FormatError: when the file holds no game at all, or is a move script,
        a state, a rules file or another YAML file of one document rather than a
        transcript (the message says which): raised before the first game is given.
    """
    content = [isinstance(text, str) and bool(text.strip())]  # whether any block holds more than white space

    def noted(blocks: Iterable[str]) -> Iterator[str]:
        for block in blocks:
            content[0] = content[0] or bool(block.strip())
            yield block

    docs = (
        doc
        for doc in read_each_document(
            text if isinstance(text, str) else noted(text),
            source,
            skip=None if read is None else (lambda k: k > 2 and not read(k)),  # the first two tell the file's kind
        )
        if doc.node is not None or doc.error is not None or doc.skipped
    )
    first = list(itertools.islice(docs, 1))  # the rest is read game by game (one game's nodes at a time)
    if not first:
        why = "it is empty" if not content[0] else "it holds only comments or empty documents"
        raise FormatError(source, 1, f"no game in the file ({why})")
    other = _another_kind(first[0].node) if isinstance(first[0].node, YMap) else None
    if other is not None or not isinstance(first[0].node, YMap):
        first += itertools.islice(docs, 1)  # not a game: one document alone is a file of another kind
    if len(first) == 1 and _looks_like_moves(text if isinstance(text, str) else first[0].text, first[0]):
        raise FormatError(source, first[0].line, "this looks like a move script, not a transcript (replay it with foursquare replay)")
    if len(first) == 1 and other is not None:  # a whole file of another kind: a file error, no game
        raise FormatError(source, first[0].line, other[0], advice=other[1])
    for number, doc in enumerate(itertools.chain(first, docs), 1):
        if doc.skipped or read is not None and not read(number):
            tg = TranscriptGame(number, doc.line, complete=False)
        elif doc.node is None:  # the documents kept hold a node or an error
            tg = TranscriptGame(number, doc.line, complete=False, errors=[doc.error] if doc.error else [], readable=False)
        else:
            tg = _read_game(doc.node, number, source)
        for error in tg.errors:
            error.game = number
        yield tg


#: Keys of a state (FORMATS.md "State") that a game document does not have: a document with
#: ``grid`` or two of these is a state (one alone is more likely a misspelt key).
_STATE_ONLY_KEYS = frozenset({"grid", "placed", "stock", "next", "remaining", "face_down", "view", "unknown"})


def _looks_like_moves(text: str, doc: Document) -> bool:
    """Whether a one-document file is a move script: YAML reads it as one plain text
    (or fails on it), and its first entry is a move or a command of the move-script syntax."""
    if doc.node is not None and not (isinstance(doc.node, YScalar) and doc.node.plain):
        return False
    try:  # the lines (each up to a LF) one at a time, not a list of every line: a long file takes 50 times its size so
        return next(read_script(match.group() for match in re.finditer(".*", text)), None) is not None
    except FormatError:
        return False


def _another_kind(doc: YMap) -> tuple[str, Advice | None] | None:
    """What a document that is no game is (a state, a rules file, some other YAML),
    in words, and what to do with it; ``None`` for a game document."""
    if "grid" in doc.entries or len(_STATE_ONLY_KEYS.intersection(doc.entries)) >= 2:
        return (
            ("this is a player's view, not a transcript (foursquare hint reads it)", None) if "view" in doc.entries
            else ("this is a state, not a transcript", Advice.READ_AS_STATE)
        )
    if any(key in doc.entries for key in GAME):
        return None
    if any(key in doc.entries for key in ("preset", *RULE_PARAMETERS)):
        return "this is a rules file, not a transcript", Advice.USE_AS_RULES
    found = ", ".join(list(doc.entries)[:5]) + (", ..." if len(doc.entries) > 5 else "")
    return f"not a Foursquare transcript: none of its keys ({shorten(found)}) is a key of a game ({', '.join(GAME)})", None


def _read_game(doc: YNode, number: int, source: str) -> TranscriptGame:
    if not isinstance(doc, YMap):
        return TranscriptGame(
            number, doc.line, complete=False,
            errors=[FormatError(source, doc.line, f"a game must be a mapping (foursquare: 1, moves: ...), not {doc.kind}")],
        )
    lines = {key: node.line for key, node in doc.entries.items()}
    if (other := _another_kind(doc)) is not None:  # one line saying what the document is, not one error a key
        return TranscriptGame(
            number, doc.line, complete=False, lines=lines, errors=[FormatError(source, doc.line, other[0], advice=other[1])]
        )
    values, _, errors = read_entries(doc, GAME, "a game", source, missing={"foursquare": MISSING_VERSION})
    tg = TranscriptGame(number, doc.line, values.get("rules", STANDARD), "rules" in values, values.get("deal"), lines=lines, errors=errors)
    if any(key in doc.entries and key not in values for key in ("rules", "deal")):
        tg.complete = False  # the moves cannot be judged under unknown rules, nor drawn from an unknown deal
    if "deck" in doc.entries:
        tg.deck = _read_deck(doc.entries["deck"], tg, source)
    for m, item in enumerate(_items(doc.entries.get("moves"), "moves must be a list", tg, source), 1):
        entry = _read_move(item, m, source, errors)
        if entry is None:
            tg.complete = False
        elif tg.complete:
            tg.moves.append(entry)
    if isinstance(node := doc.entries.get("result"), YMap):
        tg.result, tg.result_lines, found = read_entries(node, RESULT, "result", source, "result: ")
        errors += found
    elif node is not None:
        errors.append(FormatError(source, node.line, f"result must be a mapping {{status, reason, score}}, not {node.kind}"))
    return tg


def _items(node: YNode | None, what: str, tg: TranscriptGame, source: str) -> list[YNode]:
    """The items of a list of a game (none when ``node`` is ``None``); when it is no list,
    none, the error ``what, not ...`` added and the game incomplete."""
    if node is None or isinstance(node, YSeq):
        return [] if node is None else node.items
    tg.errors.append(FormatError(source, node.line, f"{what}, not {node.kind}"))
    tg.complete = False
    return []


def _read_deck(node: YNode, tg: TranscriptGame, source: str) -> list[Card] | None:
    first: dict[Card, int] = {}  # each card read, in order, and its line
    for i, item in enumerate(_items(node, "deck must be a list of cards", tg, source), 1):
        try:
            card = as_card(item, f"deck card {i}", source)
            if card in first:
                raise FormatError(source, item.line, f"deck: {card} is listed twice (first on line {first[card]})")
        except FormatError as exc:
            tg.errors.append(exc)
            tg.complete = False
            continue
        first[card] = item.line
    return list(first) if isinstance(node, YSeq) else None


def _read_move(item: YNode, m: int, source: str, errors: list[FormatError]) -> MoveEntry | None:
    """Move ``m`` of ``moves``: text (``"CARD CELL"``, ``"CELL"``) or a mapping; ``None``
    when it cannot be read (its errors added to ``errors``)."""
    if isinstance(item, YScalar) and not item.is_null:
        try:
            move = parse_move(item.text)
        except ParseError as exc:
            errors.append(FormatError(source, item.line, str(exc), move=m))
            return None
        return MoveEntry(move.card, move.cell, {}, item.line)
    if not isinstance(item, YMap):
        errors.append(
            FormatError(source, item.line, f'a move must be "CARD CELL", "CELL" or a mapping {{card, cell, ...}}, not {item.kind}', move=m)
        )
        return None
    # every key, as transcript_text writes a move: read at once when all is common
    if (entry := _common_move(item)) is not None:
        return entry
    # the general path: every fault found
    values, lines, found = read_entries(item, MOVE, "a move", source, missing={"cell": "the move has no cell"})
    for error in found:
        error.move = m
    errors += found
    if "cell" not in values or "card" in item.entries and "card" not in values:
        return None
    card, cell = values.pop("card", None), values.pop("cell")
    return MoveEntry(card, cell, values, item.line, {key: lines[key] for key in values})  # the claims and their lines


def _common_move(item: YMap) -> MoveEntry | None:
    """A move with its five keys whose values are all common texts (a card, a cell, a
    list of cells, a small number, a status word, as the dicts of the readers know them),
    read without the general path, to the same entry; ``None`` when any is not (the
    general path then reads it, and says what is wrong)."""
    e = item.entries
    if len(e) != len(MOVE) or e.keys() != MOVE.keys():
        return None
    card_node, cell_node, flipped_node = e["card"], e["cell"], e["flipped"]
    face_down_node, status_node = e["face_down"], e["status"]
    if (
        type(card_node) is not YScalar or card_node.tag == "null"
        or type(cell_node) is not YScalar or cell_node.tag == "null"
        or type(flipped_node) is not YSeq
        or type(face_down_node) is not YScalar or not face_down_node.plain
        or type(status_node) is not YScalar or status_node.tag == "null"
    ):  # fmt: skip
        return None
    card = KNOWN_CARDS.get(card_node.text)
    cell = KNOWN_CELLS.get(cell_node.text)
    face_down = _SMALL_NUMBER.get(face_down_node.text)
    status = _STATUS_OF.get(status_node.text)
    if card is None or cell is None or face_down is None or status is None:
        return None
    flipped = []
    for node in flipped_node.items:
        flip = KNOWN_CELLS.get(node.text) if type(node) is YScalar and node.tag != "null" else None
        if flip is None:
            return None
        flipped.append(flip)
    claims = {"flipped": flipped, "face_down": face_down, "status": status}
    lines = {"flipped": flipped_node.line, "face_down": face_down_node.line, "status": status_node.line}
    return MoveEntry(card, cell, claims, item.line, lines)


# ------------------------------------------------------------------- replay


def check_game(
    tg: TranscriptGame,
    source: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
) -> tuple[Game | None, list[FormatError]]:
    """Replay a game read by :func:`iter_transcripts`, checking every move and claim.

    The card order comes from the document's ``deal`` or ``deck``, else from the
    ``deal``/``deck`` given here, else from the moves themselves (each must then
    name its card).  The document's ``rules`` win over ``rules`` given here.

    Checked: each move is legal; a card it names is the card drawn (and not one
    drawn before); its claims ``flipped``, ``face_down``, ``status`` hold after
    it; the ``result`` claims hold at the end.  After a move that cannot be
    played the replay stops (later moves and the result are not judged).

    :returns: the game as far as it got (``None`` when the deal or deck itself is
        bad) and every error, the schema errors included, in line order; each
        error names the game and, where one applies, the move.
    """
    errors = list(tg.errors)

    def fail(line: int | None, message: str, move: int | None = None, advice: Advice | None = None) -> None:
        errors.append(FormatError(source, line, message, tg.number, move, advice=advice))

    game = _start(tg, tg.rules if tg.rules_given or rules is None else rules, deal, deck, fail) if tg.readable else None
    order_unknown = tg.deal is None and tg.deck is None and deal is None and deck is None
    if game is not None and (tg.complete or tg.moves) and not _replay(tg, game, order_unknown, fail) and tg.complete:
        actual = {
            "status": f"the game is {game.status}",
            "reason": f"the reason is {game.reason or 'null (the game is not lost)'}",
            "score": f"the score is {'null (the game is not won)' if game.score is None else game.score}",
        }
        for key, claimed in tg.result.items():  # the result's claims hold at the end
            if claimed != getattr(game, key):
                fail(tg.result_lines[key], f"result {key}: {'null' if claimed is None else claimed}, but {actual[key]}")
    return game, sorted(errors, key=lambda e: e.line or 0)


def _start(
    tg: TranscriptGame,
    rules: Rules,
    deal: int | None,
    deck: Sequence[Card] | None,
    fail: Callable[[int | None, str], None],
) -> Game | None:
    """The game before its first move, from the document's deal or deck, else from the
    ``deal``/``deck`` given; ``None`` when the deal or deck is bad (said through ``fail``,
    unless the reading said it already)."""
    own = tg.deal is not None or tg.deck is not None
    if not own and ("deal" in tg.lines or "deck" in tg.lines):
        return None  # a bad deal or deck, already reported
    try:  # (the document's deal wins over its deck, which must then be the deal's first cards)
        game = new_game(deal=tg.deal, deck=tg.deck, rules=rules) if own else new_game(deal=deal, deck=deck, rules=rules)
    except (ParseError, PositionError) as exc:
        key = "deck" if tg.deck is not None or "deal" not in tg.lines else "deal"
        fail(tg.lines.get(key, tg.line), f"{key}: {exc}")
        return None
    if tg.deal is not None and tg.deck is not None and list(tg.deck) != list(game.deck[: len(tg.deck)]):
        # the first card where they differ, or the first past the deal's deck
        at = next((i for i, (a, b) in enumerate(zip(tg.deck, game.deck, strict=False)) if a != b), len(game.deck))
        fail(tg.lines.get("deck"), f"deck disagrees with deal {tg.deal} at card {at + 1}")
    return game


def _replay(tg: TranscriptGame, game: Game, order_unknown: bool, fail: Callable[..., None]) -> bool:
    """Play the moves of ``tg`` on ``game``, checking each one's claims; the errors said
    through ``fail``.  :returns: whether the replay stopped at a move that cannot be played."""
    for m, entry in enumerate(tg.moves, 1):
        if order_unknown and entry.card is None and game.next_card is None and not game.is_over:
            # (said at the first move without a card of a game whose card order is unknown)
            fail(entry.line, "the game names no deal or deck and this move names no card: add 'deal: N' or 'deck: [...]'", m,
                 Advice.NAME_THE_CARDS)
            return True
        try:  # (play_move says why a move is refused; fail names the file, the game and the move)
            placement = play_move(game, Move(entry.cell, entry.card), "", entry.line)
        except FormatError as exc:
            fail(entry.line, exc.message, m)
            return True
        claims, lines = entry.claims, entry.claim_lines
        # (the engine's flipped cells are in text order, each once, as a transcript writes them)
        if "flipped" in claims and tuple(claims["flipped"]) != placement.flipped and sorted(claims["flipped"]) != sorted(placement.flipped):
            said, flipped = (", ".join(map(str, cells)) for cells in (claims["flipped"], placement.flipped))
            fail(lines["flipped"], f"claim flipped: [{said}], but the move flipped [{flipped}]", m)
        if "face_down" in claims and claims["face_down"] != placement.face_down:
            fail(lines["face_down"], f"claim face_down: {claims['face_down']}, but {placement.face_down} top cards are face down", m)
        if "status" in claims and claims["status"] != placement.status:
            fail(lines["status"], f"claim status: {claims['status']}, but the game is {placement.status}", m)
    return False


def validate(text: str | Iterable[str], source: str, *, finished: bool = False, repeats: Repeats | None = None) -> list[GameReport]:
    """Check every game of a transcript file: the list of :func:`iter_validate`,
    whose parameters, description and errors it shares."""
    return list(iter_validate(text, source, finished=finished, repeats=repeats))


def iter_validate(
    text: str | Iterable[str], source: str, *, finished: bool = False, repeats: Repeats | None = None
) -> Iterator[GameReport]:
    """Check the games of a transcript file one at a time (the ``validate`` command).

    Each game is read, replayed and reported before the next is read
    (:func:`iter_transcripts`), so a caller that drops each report holds one game.

    :param text: the file's text, or its blocks as read (:func:`iter_transcripts`).
    :param source: the file name used in errors.
    :param finished: when true, a game still going on (status ``playing``) is an
        error at its first line (RULES.md "End of the game": a finished game is won or lost).
    :param repeats: when given, a game that repeats one it has seen (in this file or
        an earlier one given to the same :class:`Repeats`) is an error naming both places.
    :returns: one :class:`GameReport` per game, in order; a document that is not
        readable YAML is an invalid game (``FILE:LINE: game K: YAML syntax error...``)
        and the others are checked all the same; a state's document is an invalid
        game that says it is a state.
    :raises FormatError: when the file holds no game, or is a move script (nothing
        can be said game by game), before the first report.
    """
    for tg in iter_transcripts(text, source):
        game, errors = check_game(tg, source)
        if game is not None and not errors:
            if finished and game.status is Status.PLAYING:
                errors.append(FormatError(
                    source, tg.line, "the game is not finished (status playing): every game must be won or lost", tg.number
                ))
            if repeats is not None and (first := repeats.seen(game, source, tg.line, tg.number)) is not None:
                errors.append(FormatError(source, tg.line, f"the game repeats {first}", tg.number))
        yield GameReport(tg.number, not errors, errors, game, tg.line)


class Repeats:
    """The games seen so far, to find a game that repeats an earlier one: the same
    card order (its deal's, or its deck), the same rules and the same moves (cells
    and cards), in any of the files checked with it.

    Each game seen is kept as a 16-byte digest and its place (file, line, number),
    so memory grows by about 150 bytes a game.
    """

    def __init__(self) -> None:
        self._places: dict[bytes, tuple[str, int | None, int]] = {}

    def seen(self, game: Game, source: str, line: int | None, number: int) -> str | None:
        """Note ``game`` (game ``number`` of ``source``, at ``line``).

        :returns: ``None`` the first time such a game is seen; for a repeat, where the
            first one is, as ``game J (FILE:LINE)``.
        """
        key = repr((game.rules, [str(c) for c in game.deck], [(str(p.card), str(p.cell)) for p in game.moves]))
        digest = hashlib.blake2b(key.encode(), digest_size=16).digest()
        first = self._places.setdefault(digest, (source, line, number))
        if first == (source, line, number):
            return None
        name, at, j = first
        return f"game {j} ({shown_name(name) if at is None else f'{shown_name(name)}:{at}'})"


def load_game(
    text: str,
    source: str,
    *,
    deal: int | None = None,
    deck: Sequence[Card] | None = None,
    rules: Rules | None = None,
) -> Game:
    """The game of a one-game transcript, replayed (every claim checked).

    :param deal, deck, rules: the game, when the transcript does not name its deal
        or deck (see :func:`check_game`).
    :returns: the game after its last move.
    :raises FormatError: the first error (in line order), or when the file holds
        more than one game.
    """
    games = list(iter_transcripts(text, source))
    if len(games) > 1:
        raise FormatError(source, games[1].line, f"the file holds {len(games)} games; give a one-game transcript")
    game, errors = check_game(games[0], source, deal=deal, deck=deck, rules=rules)
    if errors:
        raise errors[0]
    assert game is not None
    return game
