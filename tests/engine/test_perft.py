"""RULES.md §9: move-generation counts ("perft"), explained by a reference engine.

The published counts from deal 1 (49, 217, 1409, 11705, 115760 for k = 1..5)
pin down the placement geometry of §3.  Deeper counts also exercise the flips
(§4) and the end of the turn (§5), since a game can be lost from move 6 on;
there is no published figure for them, so they are checked against
:class:`RefGame`, a deliberately naive reimplementation of RULES.md §3–5 kept
in this module: a dict of cells, no tables, no undo, copied at every step.
The property tests (``test_properties.py``) use it too.

The full depth-6 and depth-7 counts take tens of seconds with the reference
engine; they are marked ``slow`` and run with ``pytest -m slow``.  The default run compares
the two engines move by move ("divide") on a few first moves instead.
"""

from __future__ import annotations

import pytest

from foursquare.engine.deal import deal_deck
from foursquare.engine.game import Game, perft
from foursquare.errors import ArgumentError

# --------------------------------------------------------------------------
# The reference engine: RULES.md §3–5 for the standard rules, read literally.
# Cells are (row, column) pairs from 0; cards are their canonical text (§1).

FRAME = 7  # §3: a 7×7 frame
GRID = 4  # §3: the piles fit in 4 rows and 4 columns
CAP = 4  # §3: piles of 1 to 4 cards
LIMIT = 4  # §5: lost when D > 4


def ref_rank(card: str) -> int:
    """§1: A..9, T is 1..10."""
    return "A23456789T".index(card[0]) + 1


def ref_name(cell: tuple[int, int]) -> str:
    """§3: column letter then row number, e.g. ``d4``."""
    return "abcdefg"[cell[1]] + str(cell[0] + 1)


def ref_cell(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, "abcdefg".index(name[0])


class RefGame:
    """A naive Foursquare game on a known 40-card order (text cards, top first)."""

    def __init__(self, deck: list[str]) -> None:
        self.deck = list(deck)
        self.cards: dict[tuple[int, int], list[str]] = {}  # cell -> pile, bottom to top
        self.face_up: dict[tuple[int, int], bool] = {}  # cell -> is the top card face up
        self.drawn = 0
        self.status = "playing"
        self.reason = None
        self.score = None

    def copy(self) -> RefGame:
        new = RefGame(self.deck)
        new.cards = {cell: list(pile) for cell, pile in self.cards.items()}
        new.face_up = dict(self.face_up)
        new.drawn, new.status, new.reason, new.score = self.drawn, self.status, self.reason, self.score
        return new

    def fits(self, cell: tuple[int, int]) -> bool:
        """§3: the occupied cells plus ``cell`` still fit in 4 rows and 4 columns."""
        rows = [r for r, _ in self.cards] + [cell[0]]
        cols = [c for _, c in self.cards] + [cell[1]]
        return max(rows) - min(rows) < GRID and max(cols) - min(cols) < GRID

    def is_legal(self, cell: tuple[int, int]) -> bool:
        """§3, the placing rule, case by case."""
        if self.status != "playing":
            return False
        if not (0 <= cell[0] < FRAME and 0 <= cell[1] < FRAME):
            return False
        if not self.cards:
            return True  # the first card: any cell of the frame
        if cell in self.cards:
            return len(self.cards[cell]) < CAP
        r, c = cell
        adjacent = any(n in self.cards for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        return adjacent and self.fits(cell)

    def legal_names(self) -> list[str]:
        """The legal cells' names in reading order (row by row)."""
        return [ref_name((r, c)) for r in range(FRAME) for c in range(FRAME) if self.is_legal((r, c))]

    def play(self, name: str) -> tuple[str, list[str], int, str]:
        """Place the next card; returns (card, flipped cell names sorted as text, D, status)."""
        cell = ref_cell(name)
        assert self.is_legal(cell), name
        x = self.deck[self.drawn]
        self.drawn += 1
        self.cards.setdefault(cell, []).append(x)
        self.face_up[cell] = True
        flipped = []
        # §4: the row, then the column; only the other piles' top cards flip.
        for in_line in (lambda o: o[0] == cell[0], lambda o: o[1] == cell[1]):
            others = [o for o in self.cards if o != cell and in_line(o)]
            if not others:
                continue
            u = [ref_rank(self.cards[o][-1]) for o in others if self.face_up[o]]
            if not u or ref_rank(x) > max(u) or ref_rank(x) < min(u):
                for o in others:
                    self.face_up[o] = not self.face_up[o]
                    flipped.append(ref_name(o))
        # §5, in order.
        d = sum(1 for o in self.cards if not self.face_up[o])
        if len(self.cards) == GRID * GRID and d == 0:
            self.status, self.score = "won", len(self.deck) - self.drawn
        elif d > LIMIT:
            self.status, self.reason = "lost", "too-many-face-down"
        elif self.drawn == len(self.deck):
            self.status, self.reason = "lost", "stock-empty"
        return x, sorted(flipped), d, self.status

    @property
    def grid(self) -> dict[str, tuple[list[str], bool]]:
        return {ref_name(cell): (pile, self.face_up[cell]) for cell, pile in self.cards.items()}


def ref_perft(game: RefGame, depth: int) -> int:
    """§9: sequences of ``depth`` legal moves; one whose game ends early does not count."""
    if depth == 0:
        return 1
    names = game.legal_names()
    if depth == 1:
        return len(names)
    total = 0
    for name in names:
        child = game.copy()
        child.play(name)
        total += ref_perft(child, depth - 1)
    return total


# --------------------------------------------------------------------------
# The engine's count is foursquare.engine.game.perft (play and undo).


def divide(game: Game, depth: int) -> dict[str, int]:
    """The count below each first move (the chess "divide" that explains a perft)."""
    out = {}
    for cell in game.legal_cells():
        game.play(cell)
        out[str(cell)] = perft(game, depth - 1)
        game.undo()
    return out


PUBLISHED = {1: 49, 2: 217, 3: 1409, 4: 11705, 5: 115760}


@pytest.mark.parametrize("depth", sorted(PUBLISHED))
def test_s9_perft_published_counts_from_deal_1(depth):
    game = Game.from_deal(1)
    assert perft(game, depth) == PUBLISHED[depth]
    assert game.placed == 0 and game.moves == ()  # every play was undone


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_s9_reference_engine_reproduces_published_counts(depth):
    # The reference is checked against the published figures before it is trusted deeper.
    assert ref_perft(RefGame([str(c) for c in deal_deck(1)]), depth) == PUBLISHED[depth]


def test_s9_perft_by_copy_equals_perft_by_undo():
    def by_copy(game, depth):
        if depth == 1:
            return len(game.legal_cells())
        total = 0
        for cell in game.legal_cells():
            child = game.copy()
            child.play(cell)
            total += by_copy(child, depth - 1)
        return total

    assert by_copy(Game.from_deal(1), 4) == PUBLISHED[4]


@pytest.mark.parametrize(
    "deal, first, depth",
    [(1, "d4", 6), (1, "a1", 6), (7, "c3", 6), (2024, "g4", 6), pytest.param(1, "d4", 7, marks=pytest.mark.slow)],
)
def test_s9_divide_agrees_with_reference(deal, first, depth):
    # Depth 6 reaches the first possible losses (five face down after six piles).
    game = Game.from_deal(deal)
    game.play(first)
    ref = RefGame([str(c) for c in game.deck])
    ref.play(first)
    assert divide(game, depth - 1) == {name: ref_perft(_after(ref, name), depth - 2) for name in ref.legal_names()}


def _after(ref: RefGame, name: str) -> RefGame:
    child = ref.copy()
    child.play(name)
    return child


def ref_endings(game: RefGame, depth: int) -> int:
    """How many move sequences of at most ``depth`` moves end the game (§5)."""
    total = 0
    for name in game.legal_names():
        child = _after(game, name)
        if child.status != "playing":
            total += 1
        elif depth > 1:
            total += ref_endings(child, depth - 1)
    return total


@pytest.mark.parametrize(
    "deal, opening",
    [(14, "d4 d5 d3 c5 d2 d5"), (29, "f6 g6 g7 e6 g5 e5"), (42, "f6 f5 f7 g5 e5 e4")],
)
def test_s9_midgame_divide_with_losses_agrees_with_reference(deal, opening):
    # From a position with face-down cards, lines of four moves end in losses (§5),
    # so the counts test flips and the end of the turn, not only geometry.
    game = Game.from_deal(deal)
    ref = RefGame([str(c) for c in game.deck])
    for name in opening.split():
        game.play(name)
        ref.play(name)
    assert ref_endings(ref, 3) > 0
    assert divide(game, 4) == {name: ref_perft(_after(ref, name), 3) for name in ref.legal_names()}


@pytest.mark.slow
@pytest.mark.parametrize("deal", [1, 42])
def test_s9_perft_depth_6_agrees_with_reference(deal):
    deck = deal_deck(deal)
    assert perft(Game(deck), 6) == ref_perft(RefGame([str(c) for c in deck]), 6)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((None, 2), "perft: game must be a Game, not None"),
        (("deal 1", 2), "perft: game must be a Game, not 'deal 1' (str)"),
        ((Game.from_deal(1), "2"), "perft: depth must be a whole number of at least 0, not '2' (str)"),
        ((Game.from_deal(1), 2.0), "perft: depth must be a whole number of at least 0, not 2.0 (float)"),
    ],
)
def test_wrong_types_are_refused_in_our_words_by_perft(args, words):
    with pytest.raises(ArgumentError) as info:
        perft(*args)
    assert words in str(info.value)
