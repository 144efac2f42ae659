"""``foursquare rules``: the rule presets, and what a rule set means in plain words (RULES.md §8)."""

from __future__ import annotations

import click

from ..app.games import GameSpec
from ..engine.cards import RANK_CHARS
from ..engine.rules import (
    DESCRIPTIONS,
    PRESETS,
    STANDARD,
    Adjacency,
    Comparison,
    LayoutKind,
    Rules,
    Ties,
)
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import RULES_SPEC


def explain(rules: Rules) -> list[str]:
    """Plain sentences saying what each parameter of ``rules`` means for play.

    :param rules: the rule set.
    :returns: one line per rule, in the order of RULES.md §1–5.
    """
    n = rules.size
    return [
        f"Deck: {rules.deck_size} cards, ranks A-{RANK_CHARS[rules.ranks]} (ace low) in "
        + ("one suit." if rules.suits == 1 else f"{rules.suits} suits."),
        (
            f"Layout: a fixed {n}x{n} board, cells a1 to {chr(96 + n)}{n}."
            if rules.layout is LayoutKind.FIXED
            else f"Layout: floating; the first card goes anywhere in a {rules.frame}x{rules.frame} frame "
            f"and the piles must fit in {n} rows and {n} columns."
        ),
        "A new pile goes next to an existing one, sharing "
        + ("an edge." if rules.adjacency is Adjacency.EDGE else "an edge or a corner."),
        ("A pile holds one card only." if rules.pile_cap == 1 else f"A pile holds at most {rules.pile_cap} cards; ")
        + ("" if rules.pile_cap == 1 else "a card placed on a pile covers its top card."),
        "After each placement the card is compared with the "
        + ("face-up top cards" if rules.comparison is Comparison.FACE_UP else "top cards, face up or down,")
        + " of the other piles in its row, then in its column.",
        "If it is higher than all of them, lower than all of them, or there are none, the other top cards "
        "of that line flip; "
        + (
            "a tie with any of them blocks the flip."
            if rules.ties is Ties.BLOCK
            else "an equal rank counts as higher or lower, so a tie flips too."
        ),
        "The placed card " + ("flips with its line." if rules.self_flip else "stays face up."),
        f"Won: all {n * n} piles laid with no top card face down; the score is the cards left in the stock.",
        f"Lost: more than {rules.face_down_limit} top cards face down, or the stock runs out"
        + (
            f", or every pile is full ({n * n} piles of {rules.pile_cap}: {rules.room} cards) with no cell for the next card."
            if rules.can_run_out_of_room
            else "."
        ),
    ]


@click.command(cls=Command, short_help=SHORT_HELP["rules"])
@click.argument("spec", metavar="[NAME|FILE]", required=False, type=RULES_SPEC)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "yaml"]),
    default="text",
    show_default=True,
    help="yaml: the parameters as a rules file.",
)
@command_boundary
def rules(spec: str | None, fmt: str) -> None:
    """With no argument, list the presets of the rules, one line each; with a
    preset NAME or a rules FILE (YAML), explain that rule set in plain words and
    list its parameters. Every command takes the same value with --rules."""
    if spec is None:
        if fmt == "yaml":
            raise click.UsageError("--format yaml needs a NAME or FILE")
        width = max(map(len, PRESETS))
        click.echo("\n".join(f"{name:<{width}}  {DESCRIPTIONS[name]}" for name in PRESETS))
        return
    chosen = GameSpec.read(rules_spec=spec).rules
    assert chosen is not None  # spec is given
    if fmt == "yaml":
        import yaml

        click.echo(yaml.safe_dump(chosen.parameters(), sort_keys=False), nl=False)
        return
    title, standard = chosen.name or "custom", STANDARD.parameters()
    click.echo("\n".join([
        f"Rules: {title}" + (f" ({DESCRIPTIONS[title]})" if title in DESCRIPTIONS else ""),
        *(f"- {line}" for line in explain(chosen)),
        "Parameters" + ("" if chosen == STANDARD else " (* differs from standard)") + ":",
        *(  # * marks a value that differs from the standard rules'; a yes/no value as YAML writes it
            f"  {'*' if value != standard[key] else ' '} {key}: {str(value).lower() if isinstance(value, bool) else value}"
            for key, value in chosen.parameters().items()
        ),
    ]))
