"""Rule sets named in files: a preset name or a YAML rules mapping (RULES.md §8).

Wherever a rule set is given — ``--rules`` on the command line, ``rules:`` in a
transcript or a state — it is either a preset name (``standard``,
``fixed-board``, ...) or a mapping:

- ``{preset: NAME, KEY: VALUE, ...}``: the preset with some parameters changed;
- every parameter of :class:`~foursquare.engine.rules.Rules` (as :func:`rules_value` writes it).

Unknown keys and out-of-range values are errors naming the key and what is allowed.
"""

from __future__ import annotations

from ..engine.rules import PRESETS, Rules
from ..errors import FormatError, quote, shorten
from .schema import RULE_PARAMETERS
from .schema import rules_from_value as rules_from_value
from .yaml import YMap, YScalar, one_document


def rules_value(rules: Rules) -> str | dict[str, int | bool | str]:
    """How a rule set is written: its preset name, or every parameter as a mapping.

    :param rules: the rule set.
    :returns: ``"standard"`` (or another preset name) or ``{size: 4, pile_cap: 4, ...}``.
    """
    if rules.name in PRESETS and PRESETS[rules.name] == rules:
        return rules.name
    return rules.parameters()


def read_rules(text: str, source: str) -> Rules:
    """A rules file's rule set: one YAML document, a preset name or a rules mapping.

    :raises FormatError: for bad YAML, an empty file, several documents, or a bad rule set.
    """
    node = one_document(
        text, source, "the rules file is empty (expected a preset name or a rules mapping)",
        "the rules file holds more than one YAML document",
    )
    if isinstance(node, YMap) and "foursquare" in node and not any(key in node for key in RULE_PARAMETERS):
        # a game file (transcript or state) given where a rules file is expected
        raise FormatError(
            source, node.line, "this is a game file (a transcript or a state), not a rules file;"
            " its rules are read with the game (foursquare rules NAME shows a rule set)"
        )
    if isinstance(node, YScalar) and len(node.text.split()) > 1:
        # words, not a preset name: a deck or a move script given where a rules file is expected
        raise FormatError(
            source, node.line, f"not a rules file: {quote(node.text)} is text, not a preset name or a rules mapping"
            f" (a rules file is YAML: a preset name, or 'preset: NAME' and the parameters that differ; presets: {', '.join(PRESETS)})"
        )
    return rules_from_value(node, source)


def load_rules(spec: str) -> Rules:
    """A rule set from a preset name (``standard``, ``fixed-board``, ...) or a YAML rules file path.

    A preset name wins over a file of the same name.

    :param spec: the preset name or the file path (``-``: standard input).
    :returns: the rule set.
    :raises FormatError: for a name that is neither a preset nor a readable file,
        or a bad rules file (``FILE:LINE: message``).
    """
    if spec in PRESETS:
        return PRESETS[spec]
    from .inputs import names_a_file, read_source

    if not names_a_file(spec):  # a word, no file: a misspelt preset (a file's name: "no such file")
        raise FormatError(shorten(spec), None, f"no such preset or rules file (presets: {', '.join(PRESETS)})")

    text, name = read_source(spec)
    return read_rules(text, name)
