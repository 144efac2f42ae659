"""Properties of random games (RULES.md §3–5), with hypothesis.

Random deal numbers (§2) and random choices among the legal cells: the
invariants of the layout and the flips hold after every placement, undo
restores the exact state, the rules do not care about the frame's symmetries,
and the naive reference engine of ``test_perft.py`` agrees move by move.
"""

from __future__ import annotations

import random
from collections import Counter

from helpers import play_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.test_perft import RefGame
from foursquare.engine.deal import deal_deck
from foursquare.engine.frame import frame_of
from foursquare.engine.game import Game, Status
from foursquare.engine.layout import CELLS, STRIDE
from foursquare.engine.rules import STANDARD

deals = st.integers(min_value=0, max_value=2**64 - 1)
seeds = st.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=150, deadline=None)
FRAME = frame_of(STANDARD).to_cell


def random_game(deal: int, seed: int, stop: int = 40) -> Game:
    """Deal ``deal`` played with random legal cells, for at most ``stop`` moves."""
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    while not game.is_over and game.placed < stop:
        game.play(rng.choice(game.legal_cells()))
    return game


def snapshot(game: Game) -> tuple:
    """Everything a caller can observe of a game."""
    return (
        game.grid,
        game.status,
        game.reason,
        game.score,
        game.face_down,
        game.placed,
        game.stock_count,
        game.next_card,
        game.legal_cells(),
        game.moves,
        game.deck,
        game.bounding_box(),
        game.unseen,
        [game.why_illegal(cell) for cell in FRAME],
    )


def check_invariants(game: Game) -> None:
    grid = game.grid
    down = sum(not p.face_up for p in grid.values())
    assert game.face_down == down
    if game.status is Status.PLAYING:
        assert down <= 4  # §5: more would have lost
        assert game.legal_cells()  # §3: always a legal placement
    assert all(1 <= len(p.cards) <= 4 for p in grid.values())  # §3 piles of 1 to 4
    if grid:
        rows = [c.row for c in grid]
        cols = [c.column for c in grid]
        assert max(rows) - min(rows) < 4 and max(cols) - min(cols) < 4  # §3 the 4×4 box
        assert game.bounding_box() == (min(rows), max(rows), min(cols), max(cols))
    # The 40 cards are conserved between the grid and the stock (§2, §3).
    on_grid = [c for p in grid.values() for c in p.cards]
    assert len(on_grid) == game.placed
    assert Counter(on_grid + list(game.deck[game.placed :])) == Counter(deal_deck(game.deal))
    assert game.stock_count == 40 - game.placed


@SETTINGS
@given(deals, seeds)
def test_invariants_after_every_placement(deal, seed):
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    check_invariants(game)
    while not game.is_over:
        record = game.play(rng.choice(game.legal_cells()))
        check_invariants(game)
        assert game.pile(record.cell).face_up and game.pile(record.cell).top == record.card  # §4: X stays up
        names = [str(f) for f in record.flipped]
        assert names == sorted(names) and len(set(names)) == len(names)  # §9: sorted as text
    assert game.status in (Status.WON, Status.LOST)
    assert (game.score is not None) == (game.status is Status.WON)


@SETTINGS
@given(deals, seeds)
def test_undo_restores_the_exact_state(deal, seed):
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    history = [snapshot(game)]
    while not game.is_over:
        legal = game.legal_cells()
        # Try a few other cells first and take them back.
        for cell in rng.sample(legal, min(3, len(legal))):
            game.play(cell)
            game.undo()
            assert snapshot(game) == history[-1]
        game.play(rng.choice(legal))
        history.append(snapshot(game))
    # Take everything back, checking each earlier state on the way.
    while history[:-1]:
        history.pop()
        game.undo()
        assert snapshot(game) == history[-1]
    assert game.placed == 0


def _mirror(cell: int) -> int:
    return (cell >> 4) * STRIDE + 6 - (cell & 15)


def _transpose(cell: int) -> int:
    return (cell & 15) * STRIDE + (cell >> 4)


def _rotate(cell: int) -> int:  # a quarter turn: transpose then mirror
    return _mirror(_transpose(cell))


SYMMETRIES = {"mirror": _mirror, "transpose": _transpose, "rotate": _rotate, "flip": lambda c: _transpose(_rotate(c))}


@SETTINGS
@given(deals, seeds, st.sampled_from(sorted(SYMMETRIES)))
def test_results_unchanged_under_symmetries_of_the_frame(deal, seed, name):
    f = SYMMETRIES[name]
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    image = Game.from_deal(deal)
    while not game.is_over:
        legal = game.legal_cells()
        assert sorted(f(c) for c in legal) == sorted(image.legal_cells())
        cell = rng.choice(legal)
        a = game.play(cell)
        b = image.play(CELLS[f(cell)])
        assert sorted(f(c) for c in a.flipped) == sorted(b.flipped)
        assert (a.card, a.face_down, a.status, a.reason, a.score) == (b.card, b.face_down, b.status, b.reason, b.score)
    assert {f(c): p for c, p in game.grid.items()} == image.grid


@SETTINGS
@given(deals, seeds)
def test_reference_engine_agrees_on_random_games(deal, seed):
    rng = random.Random(seed)
    game = Game.from_deal(deal)
    ref = RefGame([str(c) for c in game.deck])
    while True:
        legal = [str(c) for c in game.legal_cells()]
        assert legal == ref.legal_names()
        if not legal:
            break
        name = rng.choice(legal)
        p = game.play(name)
        assert (str(p.card), [str(c) for c in p.flipped], p.face_down, p.status.value) == ref.play(name)
    assert (game.status.value, game.reason and game.reason.value, game.score) == (ref.status, ref.reason, ref.score)
    assert {str(c): ([str(x) for x in p.cards], p.face_up) for c, p in game.grid.items()} == ref.grid


@SETTINGS
@given(deals, seeds, st.integers(min_value=0, max_value=30))
def test_copy_is_independent(deal, seed, moves):
    game = random_game(deal, seed, stop=moves)
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    rng = random.Random(seed + 1)
    while not twin.is_over:
        twin.play(rng.choice(twin.legal_cells()))
    assert snapshot(game) == before
    while twin.moves:
        twin.undo()
    assert snapshot(game) == before
    if not game.is_over:
        game.play(game.legal_cells()[0])
        assert twin.placed == 0 and twin.grid == {}
    # Play the twin again and leave it there: the original still undoes exactly.
    while not twin.is_over:
        twin.play(rng.choice(twin.legal_cells()))
    cells = [m.cell for m in game.moves]
    while cells:
        game.undo()
        cells.pop()
        assert snapshot(game) == snapshot(play_moves(Game.from_deal(deal), cells))


@SETTINGS
@given(deals, seeds)
def test_replaying_the_moves_gives_the_same_game(deal, seed):
    game = random_game(deal, seed)
    again = Game.from_deal(deal)
    for record in game.moves:
        assert again.play(str(record.cell), str(record.card)) == record
    assert snapshot(again) == snapshot(game)
