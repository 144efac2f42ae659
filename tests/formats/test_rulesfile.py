"""Rule sets given by name or in a YAML rules file (issue 6; RULES.md §8)."""

import pytest
from helpers import EXAMPLES

from foursquare.engine.rules import PRESETS, STANDARD, get_rules
from foursquare.errors import FormatError
from foursquare.formats.schema import load_rules, read_rules, rules_from_value, rules_value
from foursquare.formats.yaml import dump, read_documents


def error(text):
    with pytest.raises(FormatError) as info:
        read_rules(text, "r.yaml")
    return str(info.value)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_names(name):
    assert load_rules(name) is PRESETS[name]
    assert rules_value(PRESETS[name]) == name
    assert read_rules(f"{name}\n", "r.yaml") is PRESETS[name]


def test_overrides_of_a_preset():
    rules = read_rules("preset: fixed-board\nties: count\nface_down_limit: 3\n", "r.yaml")
    assert rules.layout == "fixed" and rules.ties == "count" and rules.face_down_limit == 3
    assert rules.name is None and rules_value(rules) == rules.parameters()


def test_overrides_that_equal_a_preset_are_that_preset():
    assert read_rules("preset: standard\nlayout: fixed\n", "r.yaml") is get_rules("fixed-board")


def test_every_parameter_round_trips_through_the_written_mapping():
    custom = STANDARD.with_changes(size=5, ranks=13, pile_cap=3, self_flip=True)
    text = dump({"rules": rules_value(custom)})
    [doc] = read_documents(text, "r.yaml")
    assert rules_from_value(doc.entries["rules"], "r.yaml") == custom


def test_a_full_mapping_must_list_every_parameter():
    message = error("size: 5\nranks: 13\n")
    assert message.startswith("r.yaml:1: rules: missing pile_cap, face_down_limit, suits")


def test_unknown_key_names_the_key_and_the_known_ones():
    message = error("preset: standard\nsizes: 5\n")
    assert message.startswith("r.yaml:2: unknown key 'sizes' in rules (known: preset, size, pile_cap")


@pytest.mark.parametrize(
    "line, expected",
    [
        ("size: 9", "r.yaml:2: rules: size must be a whole number from 3 to 6, not the number 9"),
        ("size: '4'", "r.yaml:2: rules: size must be a whole number from 3 to 6, not the text '4'"),
        ("layout: round", "r.yaml:2: rules: layout must be one of floating, fixed, not the text 'round'"),
        ("self_flip: yes", "r.yaml:2: rules: self_flip must be true or false, not the word yes"),
        ("comparison: no", "r.yaml:2: rules: comparison must be one of face-up, all, not the word no"),
    ],
)
def test_out_of_range_values_name_the_key_and_allowed_values(line, expected):
    assert error(f"preset: standard\n{line}\n") == expected


def test_unknown_preset_lists_the_presets():
    assert error("preset: chess\n").startswith("r.yaml:1: rules: preset: unknown preset 'chess' (presets: standard,")
    assert error("chess\n").startswith("r.yaml:1: rules: unknown preset 'chess'")


def test_inconsistent_parameters_are_a_clear_error():
    # 3 ranks x 4 suits = 12 cards cannot fill a 4x4 grid
    assert "cannot fill" in error("preset: standard\nranks: 3\n")


def test_load_rules_from_a_file(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("preset: standard\nadjacency: edge-or-corner\n")
    assert load_rules(str(path)) is get_rules("diagonal")


def test_load_rules_unknown_name_or_missing_file():
    with pytest.raises(FormatError) as info:
        load_rules("nosuch")
    assert str(info.value).startswith("nosuch: no such preset or rules file (presets: standard,")


def test_example_rules_file_in_test_data():
    rules = load_rules("tests/data/formats/house-rules.yaml")
    assert rules.ties == "count" and rules.layout == "fixed"


@pytest.mark.parametrize("name", ["won.yaml", "lost.yaml", "state.yaml"])
def test_a_game_file_given_as_a_rules_file_is_named_as_such(name):
    path = EXAMPLES / name
    with pytest.raises(FormatError, match="this is a game file .*not a rules file"):
        read_rules(path.read_text(), str(path))
