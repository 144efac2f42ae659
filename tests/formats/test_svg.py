"""The picture of a game (formats/svg.py): ``state --format svg`` and ``replay --format
svg --final``.  Each picture is parsed as XML and read back: every top card of the
grid with its rank and suit, face-down cards as backs, the flipped cells marked, the
heights, the stock, the status; self-contained SVG 1.1 for any browser."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from helpers import EXAMPLES, ROOT, invoke

from foursquare.engine.game import Game
from foursquare.engine.rules import Rules, get_rules
from foursquare.formats.loading import load_game_text
from foursquare.formats.svg import svg_text

NS = {"svg": "http://www.w3.org/2000/svg"}
XLINK = "{http://www.w3.org/1999/xlink}href"
WON = EXAMPLES / "won.yaml"
LOST = EXAMPLES / "lost.yaml"
RANK_WORDS = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}


def parse(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def loaded(path) -> Game:
    return load_game_text(path.read_text(encoding="utf-8"), str(path))


def piles(root: ET.Element) -> dict[str, ET.Element]:
    """The pile groups by cell, from their ids (``pile-d4``)."""
    found = {}
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        ident = group.get("id", "")
        if ident.startswith("pile-"):
            found[ident.removeprefix("pile-")] = group
    return found


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter("{http://www.w3.org/2000/svg}text")]


def suits_used(element: ET.Element) -> set[str]:
    return {u.get(XLINK, "") for u in element.iter("{http://www.w3.org/2000/svg}use")}


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def check_picture(game: Game, text: str, *, reveal: bool = False) -> ET.Element:
    """Every claim of the picture about ``game``, read from the XML alone."""
    root = parse(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("version") == "1.1"
    width, height = root.get("width"), root.get("height")
    assert root.get("viewBox") == f"0 0 {width} {height}"
    title = root.find("svg:title", NS)
    assert title is not None and "Foursquare" in (title.text or "")
    drawn = piles(root)
    grid = game.grid
    assert set(drawn) == {str(cell) for cell in grid}
    last = game.moves[-1] if game.moves else None
    flipped = {str(c) for c in last.flipped} if last else set()
    for cell, pile in grid.items():
        group = drawn[str(cell)]
        card = str(pile.top)
        rank, suit = RANK_WORDS.get(card[0], card[0]), card[1]
        label = group.find("svg:title", NS).text
        # the height: the badge and the title
        height_badge = [t.text for t in group.iter("{http://www.w3.org/2000/svg}text") if "height" in classes(t)]
        assert height_badge == [str(len(pile.cards))]
        assert label.startswith(f"{cell}: ") and label.endswith(f"pile of {len(pile.cards)} card" + ("s" if len(pile.cards) > 1 else ""))
        backs = [r for r in group.iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") == "url(#lattice)"]
        if pile.face_up:
            assert "face-up" in classes(group) and not backs
            assert f"{card} face up" in label
            ranks = [t.text for t in group.iter("{http://www.w3.org/2000/svg}text") if "rank" in classes(t)]
            assert ranks == [rank, rank]  # the corner and the middle
            assert suits_used(group) == {f"#suit-{suit}"}
        else:
            assert "face-down" in classes(group) and len(backs) == 1  # a card back
            assert suits_used(group) == set()
            assert not [t for t in group.iter("{http://www.w3.org/2000/svg}text") if "rank" in classes(t)]
            if reveal:
                assert f"{card} face down" in label and card in texts(group)
            else:
                assert card not in label and "face down" in label and card not in texts(group)
        assert ("flipped" in classes(group)) == (str(cell) in flipped)
        marks = [r for r in group.iter("{http://www.w3.org/2000/svg}rect") if "flip-mark" in classes(r)]
        assert len(marks) == (str(cell) in flipped)
    # the stock and the result
    stock = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if "stock-count" in classes(t)]
    assert stock == [str(game.stock_count)]
    status = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "status" in classes(g)]
    assert len(status) == 1 and game.status.value in classes(status[0])
    if game.score is not None:
        assert f"score {game.score}" in texts(status[0])
    return root


def check_self_contained(text: str) -> None:
    root = parse(text)
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    local = {e.tag.split("}")[1] for e in root.iter()}
    assert not local & {"script", "image", "foreignObject", "style", "a"}
    for element in root.iter():
        for key, value in element.attrib.items():
            assert not key.startswith("on")  # no event handlers
            for ref in re.findall(r"url\(#([\w-]+)\)", value):
                assert ref in ids
        ref = element.get(XLINK)
        if ref is not None:
            assert ref.startswith("#") and ref[1:] in ids
    # no address but the two namespaces
    assert set(re.findall(r"https?://[^\"' ]+", text)) == {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


@pytest.mark.parametrize("after", [0, 1, 2, 3, 7, 14, 20, 32])
def test_state_format_svg_draws_every_top_card_at_every_stage(after):
    result = invoke(["state", WON, "--after", after, "--format", "svg"])
    assert result.exit_code == 0, result.output
    game = loaded(WON)
    while len(game.moves) > after:
        game.undo()
    root = check_picture(game, result.stdout)
    check_self_contained(result.stdout)
    if after == 0:
        # the start: the empty frame, every cell open
        opens = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "open" in classes(g)]
        assert len(opens) == 49


def test_a_lost_game_shows_its_face_down_cards_as_backs_and_its_flips():
    result = invoke(["replay", LOST, "--format", "svg", "--final"])
    assert result.exit_code == 0, result.output
    game = loaded(LOST)
    assert game.face_down == 5 and len(game.moves[-1].flipped) == 6
    root = check_picture(game, result.stdout)
    assert sum("face-down" in classes(g) for g in piles(root).values()) == 5
    status = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if "status" in classes(g))
    assert "Lost" in texts(status) and "too many face down (5," in " ".join(texts(status))


def test_reveal_prints_the_face_down_cards_on_their_backs():
    result = invoke(["replay", LOST, "--format", "svg", "--final", "--reveal"])
    assert result.exit_code == 0, result.output
    check_picture(loaded(LOST), result.stdout, reveal=True)
    state = invoke(["state", LOST, "--format", "svg", "--reveal"])
    assert state.exit_code == 0 and state.stdout == result.stdout


def test_a_won_game_shows_its_score():
    result = invoke(["replay", WON, "--format", "svg", "--final"])
    game = loaded(WON)
    assert game.score == 8
    check_picture(game, result.stdout)


@pytest.mark.parametrize("name", ["three-square", "five-square", "fixed-board", "diagonal"])
def test_other_grid_sizes_and_frames(name):
    rules = get_rules(name)
    rng = random.Random(name)
    for deal in range(6):
        game = Game.from_deal(deal, rules)
        stops = {0, 1, 5, 12, 30}
        text = svg_text(game)
        check_picture(game, text)
        while not game.is_over:
            game.play(rng.choice(game.legal_cells()))
            if game.placed in stops or game.is_over:
                check_picture(game, svg_text(game))
        root = check_picture(game, svg_text(game))
        # the column letters and row numbers stay inside the frame
        labels = next(g for g in root.iter("{http://www.w3.org/2000/svg}g") if "labels" in classes(g))
        letters = [t for t in texts(labels) if t.isalpha()]
        assert letters and all(ord(ch) - ord("a") < rules.frame for ch in letters)
        assert all(1 <= int(t) <= rules.frame for t in texts(labels) if t.isdigit())


def test_the_face_cards_of_a_long_deck():
    game = Game.from_deal(3, get_rules("five-square"))
    while not any(game.pile(c) and game.pile(c).top.rank > 10 for c in game.grid) and not game.is_over:
        game.play(game.legal_cells()[0])
    root = check_picture(game, svg_text(game))
    assert {"J", "Q", "K"} & {t for g in piles(root).values() for t in texts(g)}


def test_the_text_is_escaped_xml():
    odd = Rules(name='<b>&"quotes"</b>')
    game = Game.from_deal(5, odd)
    game.play("d4")
    root = check_picture(game, svg_text(game))
    assert root.find("svg:title", NS).text == 'Foursquare, deal 5 (<b>&"quotes"</b> rules)'


def test_a_state_file_without_history_marks_nothing(tmp_path):
    state = EXAMPLES / "state.yaml"
    result = invoke(["state", state, "--format", "svg"])
    assert result.exit_code == 0, result.output
    game = loaded(state)
    root = check_picture(game, result.stdout)
    assert len(piles(root)) == len(game.grid) > 0


def test_game_k_of_a_multi_game_file(tmp_path):
    both = tmp_path / "both.yaml"
    both.write_text(WON.read_text(encoding="utf-8") + "---\n" + LOST.read_text(encoding="utf-8"), encoding="utf-8")
    first = invoke(["state", both, "--game", "1", "--format", "svg"])
    second = invoke(["replay", both, "--game", "2", "--format", "svg", "--final"])
    assert first.exit_code == second.exit_code == 0
    check_picture(loaded(WON), first.stdout)
    check_picture(loaded(LOST), second.stdout)
    assert "deal 21" in parse(second.stdout).find("svg:title", NS).text
    unpicked = invoke(["state", both, "--format", "svg"])
    assert unpicked.exit_code == 1 and "pick one with --game K" in unpicked.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["replay", WON, "--format", "svg"], "--format svg needs --final"),
        (["state", WON, "--format", "svg", "--player-view"], "--player-view needs --format yaml"),
        (["replay", WON, "--format", "svg", "--final", "--ascii"], "--ascii needs --format text"),
        (["state", WON, "--format", "png"], "'png' is not one of"),
    ],
)
def test_usage_errors(args, message):
    result = invoke(args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_real_subprocess_writes_a_picture_that_a_renderer_draws(tmp_path):
    picture = tmp_path / "game.svg"
    with picture.open("wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "foursquare", "state", str(WON), "--after", "14", "--format", "svg"],
            stdout=out, stderr=subprocess.PIPE, cwd=ROOT, timeout=60,
        )
    assert done.returncode == 0 and done.stderr == b""
    game = loaded(WON)
    while len(game.moves) > 14:
        game.undo()
    text = picture.read_text(encoding="utf-8")
    check_picture(game, text)
    check_self_contained(text)
    if shutil.which("rsvg-convert"):  # a renderer on this machine: it draws the picture whole
        png = tmp_path / "game.png"
        drawn = subprocess.run(["rsvg-convert", str(picture), "-o", str(png)], capture_output=True, timeout=60)
        assert drawn.returncode == 0 and drawn.stderr == b""
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_example_picture_is_up_to_date():
    # docs/example.svg, shown in docs/guide/replay.md, is the picture of deal 153 after 14 moves
    result = invoke(["state", "examples/won.yaml", "--after", "14", "--format", "svg"])
    assert (ROOT / "docs" / "example.svg").read_text(encoding="utf-8") == result.stdout
