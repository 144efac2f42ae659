"""``foursquare hint``: where should the card in hand go, at the end of a game file."""

from __future__ import annotations

import json

import click

from .common import PATH, SECONDS, command_boundary, game_options, load_game_text, load_rules_option


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def _score(s: float | None) -> str:
    return "-" if s is None else f"{s:.1f}"


def _bot_names() -> list[str]:
    from ..bots import BOTS

    return list(BOTS)


def _load_view(game_path, deal, deck_path, rules_spec):
    """What the player knows at the end of the file: a state or player's view is
    read as it is (a player's view has no stock order to replay); a transcript or
    a move script is replayed, with the options' agreement checked."""
    from ..sources import input_kind, load_view, read_source

    text, name = read_source(game_path)
    if text.strip() and input_kind(text) == "state" and deal is None and deck_path is None and rules_spec is None:
        return load_view(text, name)
    game = load_game_text(text, name, deal, deck_path, load_rules_option(rules_spec), rules_spec=rules_spec)
    if game.status == "playing" and game.next_card is None:
        from ..errors import FormatError

        raise FormatError(name, None, "the next card is unknown (give --deal N or --deck FILE)")
    return game.view()


@click.command(short_help="Recommend a cell for the next card of a game file.")
@click.argument("game_path", metavar="FILE", type=PATH)
@game_options
@click.option(
    "--bot",
    default="deep",
    show_default=True,
    type=click.Choice(_bot_names()),
    help="The bot that answers.",
)
@click.option(
    "--budget",
    type=SECONDS,
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="The bot's thinking time.",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the bot's random choices.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)
@command_boundary
def hint(game_path, deal, deck_path, rules_spec, bot, budget, seed, fmt):
    """Recommend a cell for the card to place at the end of FILE (a state YAML,
    a transcript or a move script; '-' for stdin), with the bot's estimate
    (win chance, expected score with losses counting 0) and the next two
    alternatives.

    The bot sees only what the player sees: the layout, the card in hand and
    which cards are unseen, never their order (RULES.md section 6).
    """
    from ..bots import BotError, recommend

    view = _load_view(game_path, deal, deck_path, rules_spec)
    if view.status != "playing":
        raise BotError(f"{game_path}: the game is over ({view.status}): there is no card to place")
    estimates = recommend(view, bot=bot, budget=budget, seed=seed)
    best = estimates[0]
    if fmt == "json":
        out = {
            "card": str(view.next_card),
            "cell": str(best.cell),
            "win_chance": best.win_chance,
            "expected_score": best.expected_score,
            "bot": bot,
            "budget": budget,
            "alternatives": [e.as_dict() for e in estimates[1:3]],
            "estimates": [e.as_dict() for e in estimates],
        }
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{view.next_card} to {best.cell}   win {_pct(best.win_chance)}, expected score {_score(best.expected_score)}")
    for alt in estimates[1:3]:
        click.echo(f"   or {alt.cell}   win {_pct(alt.win_chance)}, expected score {_score(alt.expected_score)}")
    placed = view.rules.deck_size - view.stock_count
    click.echo(f"({bot} bot, {budget:g} s; {placed} cards placed, {view.stock_count} in the stock)")
