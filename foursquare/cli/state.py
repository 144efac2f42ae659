"""``foursquare state``: the state YAML of a game (FORMATS.md, State)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import click

from ..errors import shown_name
from . import SHORT_HELP
from .boundary import Command, command_boundary, fail
from .options import NATURAL, PATH, game_of_options_file, game_options, game_spec, option_needs
from .style import counted


@click.command(cls=Command, short_help=SHORT_HELP["state"])
@click.argument("moves_path", metavar="[MOVES]", required=False, type=PATH)
@game_options()
@click.option("--after", type=NATURAL, metavar="K", help="Stop after the first K moves.")
@click.option(
    "--player-view",
    is_flag=True,
    help="Only what the player may know: no 'remaining', no face-down card identities.",
)
@click.option(
    "--reveal",
    is_flag=True,
    help="With --player-view: write the face-down cards too (the player saw them placed), so that hint can read the view;"
    " with --format svg: print them on their backs.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["yaml", "svg"]),
    default="yaml",
    show_default=True,
    help="yaml: the state; svg: a picture of the layout (SVG, for a browser; redirect it to a file).",
)
@command_boundary
def state(**options: Any) -> None:
    """Print the state (YAML) of a game: the start of --deal/--deck, or after the
    moves of MOVES (a move script, a transcript or a state; '-' for stdin).

    Loading the output with 'foursquare play --resume FILE' resumes the game exactly.
    --format svg draws the layout instead, as a picture (state ... --format svg > game.svg).
    """
    o = SimpleNamespace(**options)  # the options as Click reads them
    svg = o.fmt == "svg"
    option_needs("--player-view", o.player_view and svg, "--format yaml", None)
    option_needs("--reveal", o.reveal and not svg, "--player-view", o.player_view)
    # the game of MOVES, or the start of --deal/--deck
    spec = game_spec(o)
    if o.moves_path is None and o.game_number is not None:
        raise click.UsageError("--game needs a transcript file (MOVES)")
    game = spec.start() if o.moves_path is None else game_of_options_file(o.moves_path, spec, game_number=o.game_number)
    if game is None:
        raise click.UsageError("give MOVES, --deal N or --deck FILE")
    if o.after is not None:  # take back every move after the first K of the game of MOVES
        if o.moves_path is None:  # --after needs MOVES, whatever K (docs/reference/contract.md: an option that changes nothing)
            raise click.UsageError(f"--after {o.after}: without MOVES the game is at its start (0 moves); give the moves to replay")
        if o.after > len(game.moves):
            name = shown_name("<stdin>" if o.moves_path == "-" else o.moves_path)
            fail(f"{name}: --after {o.after}: the game has only {counted(len(game.moves), 'move')}")
        while len(game.moves) > o.after:
            game.undo()
    if svg:
        from ..formats.svg import svg_text

        click.echo(svg_text(game, reveal=o.reveal), nl=False)
    else:
        from ..formats.state import state_text

        click.echo(state_text(game, player_view=o.player_view, reveal=o.reveal), nl=False)
