"""The library API a user holds (issue 41): the file formats on the objects, grid and
unseen alike on a game and a view, comparisons that never answer a silent False, the
public names only, and ten error classes carrying their advice as data."""

from __future__ import annotations

import inspect

import pytest

import foursquare
from foursquare import Card, Cell, FormatError, FoursquareError, Game, PlayerView
from foursquare.errors import Advice


def test_a_game_writes_and_reads_its_transcript_and_its_state():
    game = Game.from_deal(1)
    game.play("d4")
    game.play("e4")
    again = Game.from_transcript(game.transcript())
    assert [m.cell for m in again.moves] == [m.cell for m in game.moves] and again.deal == 1
    resumed = Game.from_state(game.state())
    assert resumed.grid == game.grid and resumed.next_card == game.next_card
    view = PlayerView.from_state(game.state(player_view=True, reveal=True))
    assert view == game.view()


def test_an_option_that_would_do_nothing_is_refused_not_passed_over():
    # (Game.state(reveal=True) wrote the full state as if reveal were not given; the command
    # line makes state --reveal without --player-view a usage error)
    from foursquare.errors import ArgumentError

    with pytest.raises(ArgumentError, match=r"^Game\.state: reveal must be False unless player_view=True"):
        Game.from_deal(1).state(reveal=True)


def test_the_source_name_is_optional_and_names_the_text_in_errors():
    with pytest.raises(FormatError, match=r"^transcript:2: game 1, move 1: not a cell"):
        Game.from_transcript("foursquare: 1\nmoves: [zz]\n")
    with pytest.raises(FormatError, match=r"^my.yaml:"):
        Game.from_state("grid: 3\n", "my.yaml")


def test_grid_and_unseen_are_the_same_kind_of_member_on_a_game_and_a_view():
    game = Game.from_deal(1)
    game.play("d4")
    view = game.view()
    assert game.grid == view.grid and sorted(game.unseen) == list(view.unseen)
    assert isinstance(inspect.getattr_static(Game, "grid"), property)
    assert isinstance(inspect.getattr_static(Game, "unseen"), property)


def test_comparing_a_card_or_a_cell_with_text_is_a_clear_type_error():
    game = Game.from_deal(1)
    assert game.next_card == Card("2D") and game.next_card != Card("3D")
    with pytest.raises(TypeError, match="a Card equals only a Card"):
        _ = game.next_card == "2D"
    with pytest.raises(TypeError, match="a Cell equals only a Cell"):
        _ = Cell("d4") != "d4"
    with pytest.raises(foursquare.ArgumentError, match=r"Cell.parse\(text\)"):
        _ = "d4" in game.legal_cells()
    assert Cell("d4") in {Cell("d4")} and Card("7H") == Card.parse("7h")


def test_a_grid_takes_a_cell_or_its_name_and_never_misses_one_silently():
    game = Game.from_deal(1)
    game.play("d4")
    for grid in (game.grid, game.view().grid, foursquare.PlayerView.from_state(game.state()).grid):
        assert "d4" in grid and " D4 " in grid and Cell("d4") in grid and "a1" not in grid
        assert grid["d4"] == grid[Cell("d4")] == grid.get("d4") and grid.get("a1") is None
        with pytest.raises(KeyError):
            _ = grid["a1"]
        with pytest.raises(foursquare.ParseError):
            _ = "zz" in grid


def test_dir_shows_the_public_names_only():
    names = dir(foursquare)
    assert set(names) == set(foursquare.__all__) | {"__version__"}
    assert not {"Any", "TYPE_CHECKING", "importlib"} & set(names)
    for name in foursquare.__all__:
        assert getattr(foursquare, name) is not None


def _public_error_classes() -> set[type]:
    import importlib
    import pkgutil

    found: set[type] = set()
    for info in pkgutil.walk_packages(foursquare.__path__, "foursquare."):
        if info.name.startswith(("foursquare.gym", "foursquare.__main__")):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, FoursquareError) and not name.startswith("_"):
                found.add(value)
    return found


def test_at_most_ten_public_error_classes_each_a_foursquare_error():
    classes = _public_error_classes()
    assert len(classes) <= 10, sorted(c.__name__ for c in classes)
    assert {c.__module__ for c in classes} == {"foursquare.errors"}


def test_the_advice_is_data_that_a_caller_words_its_own_way():
    error = FormatError("f.yaml", 3, "the moves don't name their cards", advice=Advice.NAME_THE_CARDS)
    assert str(error) == "f.yaml:3: the moves don't name their cards; name the deal or the deck"
    assert error.message == "the moves don't name their cards" and error.advice is Advice.NAME_THE_CARDS
    words = {Advice.NAME_THE_CARDS: "say which deal"}
    assert error.text(words) == "f.yaml:3: the moves don't name their cards; say which deal"


@pytest.mark.parametrize("read", [Game.from_transcript, Game.from_state, PlayerView.from_state])
@pytest.mark.parametrize("text", [123, b"deal: 1\n", None, ["deal: 1"]])
def test_the_format_readers_refuse_what_is_not_text_by_name(read, text):
    with pytest.raises(foursquare.ArgumentError, match=r"\.from_\w+: text must be the file's text as a str"):
        read(text)
    with pytest.raises(foursquare.ArgumentError, match="source must be a name"):
        read("deal: 1\n", source=3)


def test_an_illegal_cell_is_named_in_the_errors_facts():
    game = Game.from_deal(1)
    game.play("d4")
    with pytest.raises(foursquare.IllegalMoveError, match="not next to a pile") as caught:
        game.play("g7")
    assert caught.value.facts == {"cell": Cell("g7")}
