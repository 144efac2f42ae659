"""RULES.md §9: the conformance games replay field for field.

``tests/data/conformance_games.jsonl`` was produced by an independent
implementation of RULES.md (a copy of ``shared/conformance/games.jsonl``).
Every step's card, cell, flipped cells, face-down count and status, and the
final status, reason, score, cards placed and grid must match.
"""

from __future__ import annotations

import pytest
from helpers import conformance_records

from foursquare.engine.deal import deal_deck
from foursquare.engine.game import Game

GAMES = conformance_records()


def test_the_data_covers_every_ending():
    endings = {(g["final"]["status"], g["final"]["reason"]) for g in GAMES}
    assert endings == {("won", None), ("lost", "too-many-face-down"), ("lost", "stock-empty")}
    assert len({g["id"] for g in GAMES}) == len(GAMES) >= 200


@pytest.mark.parametrize("record", GAMES, ids=[g["id"] for g in GAMES])
def test_conformance_game(record):
    if record["deal"] is not None:
        assert [str(c) for c in deal_deck(record["deal"])] == record["deck"]  # §2
    game = Game(record["deck"], deal=record["deal"])
    assert len(record["moves"]) == len(record["steps"])
    for i, (move, step) in enumerate(zip(record["moves"], record["steps"], strict=False), 1):
        assert str(game.next_card) == step["card"], f"move {i}"
        placement = game.play(move)
        got = {
            "card": str(placement.card),
            "cell": str(placement.cell),
            "flipped": [str(c) for c in placement.flipped],
            "face_down": placement.face_down,
            "status": placement.status.value,
        }
        assert got == step, f"move {i}"
        assert game.face_down == step["face_down"]
    final = record["final"]
    assert game.status.value == final["status"]
    assert (game.reason.value if game.reason else None) == final["reason"]
    assert game.score == final["score"]
    assert game.placed == final["placed"] == len(record["moves"])
    grid = {
        str(cell): {"cards": [str(c) for c in pile.cards], "face": "up" if pile.face_up else "down"}
        for cell, pile in game.grid.items()
    }
    assert grid == final["grid"]
    if final["status"] != "playing":
        assert game.legal_cells() == []


def test_conformance_games_undo_to_the_start():
    # Replaying forward then undoing every move gives back each earlier step's count of face-down cards.
    for record in GAMES[:40]:
        game = Game(record["deck"])
        for move in record["moves"]:
            game.play(move)
        for step in reversed(record["steps"]):
            assert game.face_down == step["face_down"]
            assert str(game.undo().cell) == step["cell"]
        assert game.placed == 0 and game.grid == {}
