"""The rule set as a value (RULES.md §8 lists the points that vary).

:data:`STANDARD` is the standard game of RULES.md.  Every parameter the engine
uses lives in one frozen :class:`Rules`; the named presets in :data:`PRESETS`
are the other readings of the published rules and a few house rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..errors import RulesError, quote, wrong_argument
from .cards import MAX_RANK


class Comparison(StrEnum):
    """Which other top cards the placed card is compared with (RULES §4, §8)."""

    FACE_UP = "face-up"  #: the face-up top cards only (standard)
    ALL = "all"  #: every top card, face up or down


class Adjacency(StrEnum):
    """Where a new pile may go (RULES §3, §8)."""

    EDGE = "edge"  #: next to a pile, sharing an edge (standard)
    EDGE_OR_CORNER = "edge-or-corner"  #: also diagonally next to one


class LayoutKind(StrEnum):
    """The kind of grid (RULES §3, §8)."""

    FLOATING = "floating"  #: a ``2*size-1`` square frame, the first card anywhere (standard)
    FIXED = "fixed"  #: a ``size`` square board at ``a1``


class Ties(StrEnum):
    """What a tie with a face-up card does to a flip (RULES §4, §8)."""

    BLOCK = "block"  #: a tie blocks the flip (standard)
    COUNT = "count"  #: an equal rank counts as higher or lower, so the line flips


#: The parameters that take a word, with the enum of their allowed values.
CHOICE_TYPES: dict[str, type[StrEnum]] = {
    "comparison": Comparison,
    "adjacency": Adjacency,
    "layout": LayoutKind,
    "ties": Ties,
}
#: Allowed values of the parameters that take a word, as text.
CHOICES: dict[str, tuple[str, ...]] = {key: tuple(e.value for e in enum) for key, enum in CHOICE_TYPES.items()}
#: Allowed ranges (inclusive) of the parameters that take a number.
RANGES = {
    "size": (3, 6),
    "pile_cap": (1, 8),
    "face_down_limit": (0, 36),
    "ranks": (2, MAX_RANK),
    "suits": (1, 4),
}


@dataclass(frozen=True)
class Rules:
    """Every parameter of the game; the defaults are the standard rules.

    :param size: the grid is ``size`` × ``size`` piles (RULES.md §3: 4).
    :param pile_cap: most cards in one pile (§3: 4).
    :param face_down_limit: the game is lost when more top cards than this are
        face down after a turn (§5: 4).
    :param ranks: the deck holds ranks 1..``ranks`` (§1: 10).
    :param suits: of the suits C, D, H, S, the first ``suits`` (§1: 4).
    :param comparison: ``face-up`` (§4) or ``all``: which other top cards the
        placed card is compared with.
    :param self_flip: whether the placed card flips with its line (§8: no).
    :param adjacency: ``edge`` (§3) or ``edge-or-corner``: where a new pile may go.
    :param layout: ``floating`` (§3: a ``2*size-1`` square frame, first card
        anywhere) or ``fixed`` (a ``size`` square board at ``a1``).
    :param ties: ``block`` (§8: a tie with a face-up card blocks the flip) or
        ``count`` (an equal rank counts as higher or lower, so the line flips).
    :param name: the preset name, or ``None`` for a custom set.
    :raises RulesError: when a parameter is unknown or out of range.
    """

    size: int = 4
    pile_cap: int = 4
    face_down_limit: int = 4
    ranks: int = 10
    suits: int = 4
    comparison: Comparison = Comparison.FACE_UP
    self_flip: bool = False
    adjacency: Adjacency = Adjacency.EDGE
    layout: LayoutKind = LayoutKind.FLOATING
    ties: Ties = Ties.BLOCK
    name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for key, (low, high) in RANGES.items():
            value = getattr(self, key)
            if type(value) is not int or not low <= value <= high:
                raise RulesError(f"rules: {key} must be a whole number from {low} to {high}, not {quote(value)}")
        for key, enum in CHOICE_TYPES.items():
            value = getattr(self, key)
            if not isinstance(value, str) or value not in CHOICES[key]:
                raise RulesError(f"rules: {key} must be one of {', '.join(CHOICES[key])}, not {quote(value)}")
            # A word given as text becomes its enum member: one representation.
            object.__setattr__(self, key, enum(value))
        if type(self.self_flip) is not bool:
            raise RulesError(f"rules: self_flip must be true or false, not {quote(self.self_flip)}")
        if self.deck_size < self.size * self.size:
            raise RulesError(
                f"rules: a deck of {self.deck_size} cards cannot fill a {self.size}x{self.size} grid"
            )

    @property
    def frame(self) -> int:
        """Side of the square frame of cells: ``2*size-1`` floating, ``size`` fixed."""
        return self.size if self.layout is LayoutKind.FIXED else 2 * self.size - 1

    @property
    def deck_size(self) -> int:
        """Cards in the deck (40 in the standard game)."""
        return self.ranks * self.suits

    @property
    def room(self) -> int:
        """Cards the grid can hold: ``size * size`` piles of ``pile_cap`` (64 in the standard game)."""
        return self.size * self.size * self.pile_cap

    @property
    def can_run_out_of_room(self) -> bool:
        """Whether a game can be lost with no legal cell for the next card (RULES.md §5, point 4).

        True when the grid holds fewer cards than the deck (:attr:`room` <
        :attr:`deck_size`) and ``face_down_limit`` is at least 1; when false, no
        game ever gets there.  When true the position is allowed, and reached in
        play under ``three-square`` and small grids; how often depends on the deal
        and the limit (with a limit of 1 it is rare, and some decks may never
        reach it), so "can" is an upper bound and "cannot" exact.  A running game
        always has an empty cell next to a pile inside the box until all
        ``size * size`` piles exist (the piles are connected and their box, or the
        row or column beside it, holds an empty neighbour), so no cell is left only
        when every pile is full: :attr:`room` cards placed.  A card must then
        remain in the stock, and the full grid must not have ended the game: with
        a limit of 0 it is won (no card face down) or lost (too many face down).
        Under the standard rules (64 >= 40) and the presets other than
        ``three-square`` (27 < 40, limit 2) it never happens.
        """
        return self.room < self.deck_size and self.face_down_limit >= 1

    @property
    def label(self) -> str:
        """The preset name, or ``custom``."""
        return self.name or "custom"

    def parameters(self) -> dict[str, int | bool | str]:
        """The parameters as a plain mapping (without the name), in declaration order.

        Words are plain ``str`` (``"face-up"``), ready for YAML or JSON.
        """
        return {
            f.name: (str(value) if isinstance(value, StrEnum) else value)
            for f in dataclasses.fields(self)
            if f.name != "name"
            for value in (getattr(self, f.name),)
        }

    def with_changes(self, **changes: Any) -> Rules:
        """A copy with some parameters changed; the name is kept only when nothing changes.

        :raises RulesError: for an unknown parameter or a bad value.
        """
        unknown = sorted(set(changes) - set(self.parameters()))
        if unknown:
            raise RulesError(
                f"rules: unknown parameter {quote(unknown[0])} (known: {', '.join(self.parameters())})"
            )
        new = dataclasses.replace(self, name=None, **changes)
        return next((preset for preset in PRESETS.values() if preset == new), new)


#: The standard rules (RULES.md): 40 cards, a 4x4 grid, at most 4 cards a pile.
STANDARD = Rules(name="standard")

#: The named rule sets, by name (``get_rules(name)`` and ``--rules NAME`` take these names).
PRESETS: dict[str, Rules] = {"standard": STANDARD}
DESCRIPTIONS: dict[str, str] = {
    "standard": "the standard rules of RULES.md: 4x4 floating grid, 40 cards, face-up comparison",
}


# The other presets: each one's name, what it changes in words, and the changes.
for _name, _description, _changes in (
    ("fixed-board", "a fixed 4x4 board at a1-d4 instead of a floating grid", {"layout": LayoutKind.FIXED}),
    ("open-comparison", "the placed card is compared with every top card, face down too", {"comparison": Comparison.ALL}),
    ("self-flip", "the placed card flips with its row or column", {"self_flip": True}),
    ("diagonal", "a new pile may also go diagonally next to an existing one", {"adjacency": Adjacency.EDGE_OR_CORNER}),
    ("ties-count", "an equal rank counts as higher or lower, so ties flip the line", {"ties": Ties.COUNT}),
    ("five-square", "a 5x5 grid dealt from a 52-card deck (ranks A-K)", {"size": 5, "ranks": 13}),
    ("three-square", "a 3x3 grid with piles of at most 3 and at most 2 face down", {"size": 3, "pile_cap": 3, "face_down_limit": 2}),
):
    PRESETS[_name] = dataclasses.replace(STANDARD, name=_name, **_changes)
    DESCRIPTIONS[_name] = _description


def get_rules(name: str) -> Rules:
    """The preset of that name (``standard``, ``fixed-board``, ...).

    :raises RulesError: for an unknown name; the message lists the presets.
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown rule set {quote(name)} (presets: {', '.join(PRESETS)})") from None


def as_rules(rules: Rules | str, where: str) -> Rules:
    """The rule set an argument names: a :class:`Rules` as it is, a preset's name
    (``"three-square"``) as that preset (:data:`PRESETS`).

    :param where: the function given it, for the message (``Game.from_deal``).
    :raises RulesError: for an unknown name (the message lists the presets), or anything else.
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if rules in PRESETS:
            return PRESETS[rules]
        raise RulesError(f"{where}: rules: unknown rule set {quote(rules)} (presets: {', '.join(PRESETS)})")
    raise wrong_argument(where, "rules", f"a Rules value or a preset's name ({', '.join(PRESETS)})", rules, RulesError)
