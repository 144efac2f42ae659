"""``foursquare state``: the state YAML of a game (FORMATS.md, State)."""

from __future__ import annotations

import click

from .common import PATH, command_boundary, exclusive, fail, game_options, load_game_file, load_rules_option, new_game


@click.command(short_help="Print the state YAML of a game.")
@click.argument("moves_path", metavar="[MOVES]", required=False, type=PATH)
@game_options
@click.option("--after", type=click.IntRange(min=0), metavar="K", help="Stop after the first K moves.")
@click.option(
    "--player-view",
    is_flag=True,
    help="Only what the player may know: no 'remaining', no face-down card identities.",
)
@command_boundary
def state(moves_path, deal, deck_path, rules_spec, after, player_view):
    """Print the state (YAML) of a game: the start of --deal/--deck, or after the
    moves of MOVES (a move script, a transcript or a state; '-' for stdin).

    Loading the output with 'foursquare play --resume FILE' resumes the game exactly.
    """
    exclusive(deal=deal, deck=deck_path)
    rules = load_rules_option(rules_spec)
    if moves_path is not None:
        game = load_game_file(moves_path, deal, deck_path, rules)
        name = "<stdin>" if moves_path == "-" else moves_path
    else:
        game = new_game(deal, deck_path, rules)
        name = "--deal" if deal is not None else "--deck"
        if game is None:
            raise click.UsageError("give MOVES, --deal N or --deck FILE")
    if after is not None:
        if after > len(game.moves):
            fail(f"{name}: --after {after}: the game has only {len(game.moves)} moves")
        while len(game.moves) > after:
            game.undo()
    from ..state import state_text

    click.echo(state_text(game, player_view=player_view), nl=False)
