"""Games that repeat an earlier one, for ``validate --duplicates`` (FORMATS.md "validate").

A game is kept as a digest of its card order, rules and moves, with its place, so that
a repeat anywhere in the files checked names the first one.
"""

from __future__ import annotations

import hashlib

from ..engine.game import Game
from ..errors import shown_name


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
        where = shown_name(name) if at is None else f"{shown_name(name)}:{at}"
        return f"game {j} ({where})"
