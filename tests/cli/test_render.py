"""The grid drawing (foursquare.cli.render): golden pictures checked by hand against RULES.md;
the outcome of a game in words wherever a person reads it."""

from __future__ import annotations

import re

import pytest
from helpers import DATA, EXAMPLES, conformance_record, invoke, play

from foursquare import Game
from foursquare.cli.render import draw, grid_text, outcome_text, region

GOLDEN = DATA / "golden"


def worked_example() -> Game:
    """RULES.md §7 after its six moves (the next card, 3D, added to the stock)."""
    return play(Game("5C 9D 2H 7S 7C AS 3D".split()), "d4 e4 c4 d4 d3 d5".split())


def conformance_game(deal: int) -> Game:
    return play(Game.from_deal(deal), conformance_record(deal)["moves"])


@pytest.mark.parametrize(
    "name, make, options",
    [
        ("worked_example.txt", worked_example, {}),
        ("worked_example_revealed.txt", worked_example, {"symbols": True, "reveal": True}),
        ("deal21_lost.txt", lambda: conformance_game(21), {}),
    ],
)
def test_golden_drawings(name, make, options):
    assert draw(make(), **options) + "\n" == (GOLDEN / name).read_text(encoding="utf-8")


def test_face_down_cards_are_hidden_unless_revealed():
    game = worked_example()
    hidden = grid_text(game)
    assert "##" in hidden and "7C" not in hidden and "2H" not in hidden
    shown = grid_text(game, reveal=True)
    assert "(7C)" in shown and "(2H)" in shown and "(7S)" in shown and "##" not in shown


def test_region_is_piles_plus_legal_cells():
    game = worked_example()
    # piles c4-e4, d3, d5; legal empty cells reach b4, f4, d2, d6
    assert region(game) == (1, 5, 1, 5)
    assert region(Game.from_deal(1)) == (0, 6, 0, 6)  # before the first card: the whole frame


def test_only_the_legal_empty_cells_are_marked_plus():
    game = worked_example()
    rows = grid_text(game).splitlines()[1:]
    plus = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "+"}
    empty_legal = [c for c in game.legal_cells() if game.pile(c) is None]
    assert len(plus) == len(empty_legal) == 8


def test_flipped_cells_of_the_last_move_are_starred():
    game = worked_example()
    text = grid_text(game)
    assert text.count("*") == len(game.moves[-1].flipped) == 2


def test_style_gets_roles_and_does_not_change_the_layout():
    game = worked_example()
    seen = []

    def style(text, role):
        seen.append(role)
        return text

    assert draw(game, style=style) == draw(game)
    assert {"black", "down", "legal", "flip", "frame"} <= set(seen)
    marked = draw(game, style=lambda t, r: f"<{r}>{t}</{r}>")
    assert "<down> ##</down>" in marked and "<flip>*</flip>" in marked


def test_status_line_counts_against_the_limit():
    game = worked_example()
    assert draw(game).split("\n")[1:3] == ["Card to place: 3D", "Stock: 34   Face down: 3 (limit 4)"]
    assert draw(game, symbols=True).split("\n")[1] == "Card to place: 3♦"


def test_outcome_text_of_won_and_lost_games():
    assert outcome_text(conformance_game(153)) == "won, score 8"
    assert outcome_text(conformance_game(21)) == "lost: too many face down (5, limit 4)"
    assert outcome_text(Game.from_deal(1)) == "playing"


# ------------------------------------------------ closing lines with a command to copy

CLOSING_LINES = [
    "Deal 1. Play it again: foursquare play --deal 1",
    "Deal 18446744073709551615. Play it again: foursquare play --deal 18446744073709551615 --rules fixed-board",
    "The transcript is in deal1.yaml: foursquare replay deal1.yaml",
    "The transcript is in /a/rather/long/folder/of/games/d1.yaml: foursquare replay /a/rather/long/folder/of/games/d1.yaml",
    "Continue it: foursquare play --resume deal1.yaml --record deal1.yaml",
    "Continue it: foursquare play --resume '/tmp/my games/de al1.yaml' --record '/tmp/my games/de al1.yaml'",
    "Stopped after 4 cards placed.",
    "Lost: no room for the next card (all 9 piles full, 3 cards each), with the stock at 12.",
]


@pytest.mark.parametrize("line", CLOSING_LINES)
@pytest.mark.parametrize("width", [20, 30, 40, 60, 80, 120])
def test_a_closing_line_fits_and_its_command_is_never_broken(line, width):
    from foursquare.cli.render import fit_commands

    lines = fit_commands(line, width)
    head, sep, command = line.partition(": foursquare ")
    if len(line) <= width:
        assert lines == [line]  # beside its label when it fits
        return
    if sep:
        # the command on a line of its own, whole, even when longer than the width
        assert lines[-1] == "  foursquare " + command
        label = lines[:-1]
        assert " ".join(part.strip() for part in label) == head + ":"
    else:
        label = lines
        assert " ".join(part.strip() for part in label) == line
    for part in label:  # the label is broken between words, and a word is never cut
        assert len(part) <= width or " " not in part.strip()
    words = (head + ":" if sep else line).split()
    assert [w for part in label for w in part.split()] == words


def test_the_closing_width_is_the_terminals_whole_width():
    from foursquare.cli.render import DRAWING_WIDTH, closing_width

    assert closing_width(None) == DRAWING_WIDTH == 40
    assert closing_width(30) == 30 and closing_width(80) == 80 and closing_width(200) == 200


def test_text_lines_fit_the_whole_width_of_a_wide_terminal():
    """The "Last move" line is broken only where the terminal needs it, not at 40 columns."""
    from foursquare import Game
    from foursquare.cli.render import draw

    game = Game.from_deal(4)
    while len(game.moves) < 14:
        game.play(game.legal_cells()[len(game.moves) * 7 % len(game.legal_cells())])
    line = "Last move: 10♥ to d1, flipped a1 b1 c1 d2"
    assert len(line) > 40 and draw(game, symbols=True, width=80).splitlines()[0] == line
    assert draw(game, symbols=True, width=30).splitlines()[:2] == ["Last move: 10♥ to d1, flipped", "  a1 b1 c1 d2"]


def test_no_reason_token_reaches_a_person():
    from foursquare.engine.game import Reason

    lost = EXAMPLES / "lost.yaml"
    outputs = [
        invoke(["play", "--interactive", "--ascii", "--resume", lost], input="d4\nmoves\nundo\nredo\nquit\n"),
        invoke(["play", "--resume", lost], input="d4\n"),  # a script: the move after the end is an error
        invoke(["replay", lost]),
        invoke(["simulate", "--bot", "random", "--deals", "0-20"]),
    ]
    for result in outputs:
        shown = result.stdout + result.stderr
        assert "too many face down" in shown or "the stock is empty" in shown, shown[-500:]
        assert not [r.value for r in Reason if r.value in shown], shown[-500:]


#: A cell of the grid, 7 characters: an empty cell's mark, or a pile: five characters
#: before its height (`` 9D:``, ``10♦:``, `` ##:``, revealed `` (7H)``, ``(10♦)``), the
#: height, the mark of a flip.
CELL = re.compile(r" {2}[+.] {4}|.{4}[:)][1-4][* ]")


def test_the_columns_keep_their_width_whatever_the_cards_and_the_reveal():
    """Tens (``10♦``) and face-down cards revealed (``(10♦)``) never widen a column, in
    any drawing mode (ASCII, symbols, revealed): the header's letters stand 7 apart, every
    row is cut in cells of 7 characters, and no face runs into the row number."""
    tens = revealed_tens = 0
    for deal in range(40):
        game = Game.from_deal(deal)
        while not game.is_over:
            game.play(game.legal_cells()[0])
            columns = None
            for symbols in (False, True):
                for reveal in (False, True):
                    header, *rows = grid_text(game, symbols=symbols, reveal=reveal).splitlines()
                    starts = [m.start() for m in re.finditer(r"[a-g]", header)]
                    assert starts == [5 + 7 * i for i in range(len(starts))] and columns in (None, len(starts))
                    columns = len(starts)
                    for row in rows:
                        assert re.match(r"[ 1-7]\d ", row), row
                        cells = [row.ljust(3 + 7 * columns)[3 + 7 * i : 10 + 7 * i] for i in range(columns)]
                        assert all(CELL.fullmatch(cell) for cell in cells), row
                        assert len(row) <= 3 + 7 * columns
                        tens += "10" in row
                        revealed_tens += "(10" in row
    assert tens and revealed_tens  # the cases of the reports were met


@pytest.mark.parametrize("lead", ["", "  ", "    "])
def test_a_wrapped_lines_continuation_sits_deeper_than_its_first_line(lead):
    from foursquare.cli.render import fit

    line = lead + "d3, c4, e4 and d5: tied at win 96.6%, expected score 17.0 and a few more words"
    first, *rest = fit(line, 40)
    assert first.startswith(lead) and not first[len(lead)].isspace() and rest
    assert all(part.startswith(lead + "  ") and len(part) <= 40 for part in rest)
