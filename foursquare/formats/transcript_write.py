"""Writing transcripts (FORMATS.md "Transcripts"): one YAML document per game, every
claim written or the moves alone.  :mod:`foursquare.formats.transcript` reads them (and
gives these functions too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..engine.game import Game
from ..errors import ArgumentError
from .rulesfile import rules_value
from .schema import FORMAT_VERSION
from .yaml import Flow, FlowList, Quoted, dump


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
    rules = rules_value(game.rules)
    doc: dict[str, Any] = {"foursquare": FORMAT_VERSION, "rules": rules if isinstance(rules, str) else Flow(rules)}
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
