"""State YAML (FORMATS.md "State"): dump, resume exactly, and every inconsistency caught."""

import re

import pytest
import yaml
from helpers import DATA, conformance_records, play

from foursquare import Game, get_rules
from foursquare.engine.rules import STANDARD
from foursquare.errors import FormatError
from foursquare.formats.state import read_state, state_text
from foursquare.formats.transcript import transcript_text, validate

RECORDS = conformance_records()
WON = next(r for r in RECORDS if r["final"]["status"] == "won")
LOST_FACE_DOWN = next(r for r in RECORDS if r["final"]["reason"] == "too-many-face-down")
LOST_STOCK = next(r for r in RECORDS if r["final"]["reason"] == "stock-empty")


def replayed(rec, upto=None):
    return play(Game.from_deal(rec["deal"]), rec["moves"][:upto])


def in_progress():
    game = Game.from_deal(1)
    for cell in ("d4", "e4", "c4", "d3", "d5"):
        game.play(cell)
    return game


def from_position():
    game = Game.from_position({"d4": (["5C", "7S"], True), "c4": (["2H"], False), "e4": (["9D"], True)}, ["7C", "AS", "3D"])
    game.play("d3")
    return game


def prefix_deck():
    game = Game(["5C", "9D", "2H", "7S"])
    for cell in ("d4", "e4", "c4"):
        game.play(cell)
    return game


def named_cards_past_the_deck():
    game = Game(["5C"])
    game.play("d4")
    game.play("e4", "9D")
    return game


def custom_rules():
    rules = STANDARD.with_changes(size=3, ranks=5, pile_cap=2)
    game = Game.from_deal(3, rules)
    for cell in ("b2", "b3", "c2"):
        game.play(cell)
    return game


GAMES = {
    "new": lambda: Game.from_deal(7),
    "in-progress": in_progress,
    "won": lambda: replayed(WON),
    "lost-face-down": lambda: replayed(LOST_FACE_DOWN),
    "lost-stock-empty": lambda: replayed(LOST_STOCK),
    "from-position": from_position,
    "prefix-deck": prefix_deck,
    "named-past-deck": named_cards_past_the_deck,
    "preset-variant": lambda: Game.from_deal(2, get_rules("five-square")),
    "custom-rules": custom_rules,
}


@pytest.mark.parametrize("name", list(GAMES))
def test_dump_load_dump_is_byte_identical(name):
    game = GAMES[name]()
    text = state_text(game)
    again = read_state(text, "s.yaml")
    assert state_text(again) == text
    assert again.grid == game.grid and again.rules == game.rules
    assert again.deck[again.placed :] == game.deck[game.placed :]
    if len(game.moves) == game.placed:  # with its whole history, the history and the deck come back
        assert again.deck == game.deck and again.moves == game.moves
    else:  # resumed from a position: no history before it
        assert again.moves == ()
    assert (again.status, again.reason, again.score, again.face_down, again.placed, again.next_card) == (
        game.status, game.reason, game.score, game.face_down, game.placed, game.next_card
    )


@pytest.mark.parametrize("name", ["in-progress", "won", "lost-stock-empty"])
def test_a_resumed_game_plays_on_and_records_like_the_original(name):
    game = GAMES[name]()
    again = read_state(state_text(game), "s.yaml")
    assert transcript_text(again) == transcript_text(game)
    [report] = validate(transcript_text(again), "t.yaml")
    assert report.valid
    if not game.is_over:
        cell = game.legal_cells()[0]
        assert again.play(cell) == game.play(cell)


def test_state_keys_and_quoting():
    text = state_text(in_progress())
    data = yaml.safe_load(text)
    assert list(data) == [
        "foursquare", "rules", "deal", "placed", "stock", "next", "status", "reason", "score", "face_down",
        "grid", "remaining", "moves",
    ]
    assert data["placed"] == 5 and data["stock"] == 35 and data["next"] == "9D" and data["face_down"] == 2
    assert list(data["grid"]) == ["d3", "c4", "d4", "e4", "d5"]  # reading order
    assert len(data["remaining"]) == 34
    # every card and cell is a double-quoted string in the text
    for token in re.findall(r'(?<![\w"])([2-9ATJQK][CDHS]|[a-g][1-7])(?![\w"])', text):
        pytest.fail(f"unquoted card or cell {token!r} in:\n{text}")


def test_remaining_is_the_whole_stock_when_the_game_is_over():
    # a won game: no next card, and every card of the stock in `remaining`
    game = replayed(WON)
    data = yaml.safe_load(state_text(game))
    assert data["next"] is None and data["status"] == "won"
    assert data["remaining"] == WON["deck"][WON["final"]["placed"]:]
    assert data["stock"] == data["score"] == len(data["remaining"])


def test_player_view_hides_the_order_and_face_down_cards_and_cannot_be_resumed():
    game = in_progress()
    text = state_text(game, player_view=True)
    data = yaml.safe_load(text)
    assert "remaining" not in data and "deal" not in data and "moves" not in data and data["view"] == "player"
    for cell, pile in game.grid.items():
        top = data["grid"][str(cell)]["cards"][-1]
        assert top == (str(pile.top) if pile.face_up else None)
    with pytest.raises(FormatError) as info:
        read_state(text, "s.yaml")
    assert str(info.value) == (
        "s.yaml:2: a player's view cannot be replayed or resumed: the hidden order of the stock (remaining) is missing"
        " (foursquare hint reads a player's view)"
    )


def error(text):
    with pytest.raises(FormatError) as info:
        read_state(text, "s.yaml")
    return str(info.value)


BASE = state_text(in_progress())
NO_MOVES = re.sub(r"moves:.*\n", "", BASE)


def test_state_without_moves_resumes_from_the_position():
    game = read_state(NO_MOVES, "s.yaml")
    assert game.moves == () and game.placed == 5 and state_text(game) == NO_MOVES


@pytest.mark.parametrize("base", [BASE, NO_MOVES], ids=["with-moves", "without-moves"])
@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("placed: 5", "placed: 6", "s.yaml:4: placed: 6, but the grid gives 5"),
        ("stock: 35", "stock: 34", "s.yaml:5: stock: 34, but the grid gives 35"),
        ("face_down: 2", "face_down: 1", "s.yaml:10: face_down: 1, but the grid gives 2"),
        ("status: playing", "status: won", "s.yaml:7: status: won, but the position is playing"),
        ("reason: null", "reason: stock-empty", "s.yaml:8: reason: stock-empty, but the position gives null"),
        ("score: null", "score: 3", "s.yaml:9: score: 3, but the position gives null"),
        ('"5H", ', "", "s.yaml:17: the stock holds 35 cards (40 in the deck, 5 on the grid), but next and remaining list 34"),
        ('"5H"', '"7H"', "s.yaml:17: remaining card 1: 7H appears twice (first on line 12)"),
        ('next: "9D"', "next: null", "s.yaml:17: the stock holds 35 cards (40 in the deck, 5 on the grid), but next and remaining list 34"),
        ('next: "9D"', "next: no", "s.yaml:6: next: not a card: 'no'"),
        ('next: "9D"', "next: 1e3", "s.yaml:6: next: not a card: '1e3'"),
        ("face: down", "face: on", "s.yaml:12: pile d3: face must be one of up, down, not the word on"),
        ('"d3": {cards: ["7H"]', '"d3": {cards: "7H"', "s.yaml:12: pile d3: cards must be a list"),
        ('"d3": {cards: ["7H"], face: down}', '"d3": {cards: ["7H"], face: down, fce: up}', "s.yaml:12: unknown key 'fce' in pile d3"),
        ('"d3":', '"010":', "s.yaml:12: grid: not a cell: '010'"),
        ('"d3":', '"h3":', "s.yaml:12: grid: h3 is outside the frame (a1-g7)"),
        ("face_down: 2", "face_down: 2\nface_dwn: 2", "s.yaml:11: unknown key 'face_dwn' in a state"),
        ("placed: 5", "placed: '5'", "s.yaml:4: placed must be a whole number"),
        ("deal: 1", "deal: -1", "s.yaml:3: deal must be a whole number from 0 to 18446744073709551615"),
        ("foursquare: 1", "foursquare: 2", "s.yaml:1: unsupported format version 2"),
        ("placed: 5", "placed: 5\nplaced: 5", "s.yaml:5: duplicate key 'placed' (first on line 4)"),
        ("rules: standard", "rules: !!python/object:foursquare.engine.rules.Rules {}", "s.yaml:2: unsupported YAML tag"),
    ],
)
def test_bad_states(base, old, new, expected):
    assert old in base
    assert error(base.replace(old, new, 1)).startswith(expected)


@pytest.mark.parametrize("base", [BASE, NO_MOVES], ids=["with-moves", "without-moves"])
def test_next_null_while_the_game_goes_on(base):
    bad = base.replace('next: "9D"', "next: null").replace('remaining: ["', 'remaining: ["9D", "')
    assert error(bad) == "s.yaml:6: next is null but the game goes on and remaining lists cards (next is the card to place now)"


def test_grid_that_disagrees_with_the_moves():
    bad = BASE.replace('"d3": {cards: ["7H"], face: down}', '"d3": {cards: ["7H"], face: up}')
    assert error(bad) == "s.yaml:12: grid: d3 is not what the moves give (7H, face down)"


def test_grid_that_disagrees_with_the_deal():
    bad = NO_MOVES.replace('"7H"', '"5H"', 1).replace('"5H", "3D"', '"7H", "3D"', 1)
    assert error(bad) == "s.yaml:11: grid: these are not the first 5 cards of deal 1"


def test_next_that_disagrees_with_the_deal():
    bad = NO_MOVES.replace('"5H", "3D"', '"3D", "5H"', 1)
    assert error(bad) == "s.yaml:17: next and remaining are not the rest of deal 1 in order"


def test_a_position_that_breaks_the_rules_shape():
    bad = NO_MOVES.replace('"d5": {cards: ["9H"], face: up}', '"g7": {cards: ["9H"], face: up}')
    assert error(bad).startswith("s.yaml:11: grid:")
    bad = NO_MOVES.replace('"d5": {cards: ["9H"]', '"d5": {cards: ["9H", "5H", "3D", "TH", "6S"]').replace(
        '"5H", "3D", "TH", "6S", ', ""
    )
    assert error(bad) == "s.yaml:16: pile d5 has 5 cards (1 to 4 allowed)"


def test_a_finished_game_has_no_next_card():
    text = state_text(replayed(WON))
    first = yaml.safe_load(text)["remaining"][0]
    bad = text.replace("next: null", f'next: "{first}"').replace(f'"{first}", ', "", 1).replace(f'["{first}"]', "[]")
    assert bad.count(f'"{first}"') == 1
    assert error(bad) == "s.yaml:6: next must be null: the game is won"


def test_empty_and_multi_document_states():
    assert error("") == "s.yaml:1: the state is empty"
    second = BASE.count("\n") + 2
    assert error(BASE + "---\n" + BASE) == f"s.yaml:{second}: a state is one YAML document; this file holds more"
    assert error("- d4\n") == "s.yaml:1: a state must be a mapping, not a list"


def test_bom_and_crlf_state():
    game = read_state("\ufeff" + BASE.replace("\n", "\r\n"), "s.yaml")
    assert state_text(game) == BASE


def test_example_state_file_in_test_data():
    text = (DATA / "formats" / "worked-example.state.yaml").read_text()
    game = read_state(text, "worked-example.state.yaml")
    # RULES.md §7 after step 6: c4, d3 and d4 face down, d4 holds 5C under 7S
    assert game.face_down == 3 and [str(c) for c in game.pile("d4").cards] == ["5C", "7S"]
    assert [str(c) for c, p in game.grid.items() if not p.face_up] == ["d3", "c4", "d4"]
    assert state_text(game) == text
