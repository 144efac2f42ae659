"""``foursquare replay``: a move script or transcript, step by step."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import click

from ..engine.game import Game
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import PATH, game_of_options_file, game_options, game_spec, option_needs
from .render import outcome_text
from .style import Look, counted


@click.command(cls=Command, short_help=SHORT_HELP["replay"])
@click.argument("moves_path", metavar="MOVES", type=PATH)
@game_options()
@click.option("--final", is_flag=True, help="Show only the end of the game.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "yaml", "svg"]),
    default="text",
    show_default=True,
    help="text: the grid after each move; yaml: the state after each move, one YAML document each, for other"
    " programs (each as 'state MOVES --after K' prints it, satisfying 'foursquare schema state'; a reader of a"
    " state reads one document); svg (with --final): a picture of the end (SVG, for a browser).",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Plain ASCII: no colour, no suit symbols (FOURSQUARE_ASCII=1 too).")
@click.option("--reveal", is_flag=True, help="Show face-down cards in brackets (svg: on their backs).")
@click.option("--words", is_flag=True, help="Say each move in sentences, for a screen reader (--final: every pile).")
@command_boundary
def replay(**options: Any) -> None:
    """Replay MOVES (a move script, a transcript or a state; '-' for stdin).

    Prints the grid after each move with the cells it flipped (--final: the end
    only), then the result.  A move script needs --deal or --deck; a transcript
    names its own deal (--game K picks one game of several).
    """
    o = SimpleNamespace(**options)  # the options as Click reads them
    text = o.fmt == "text" or None
    option_needs("--ascii", o.ascii_only, "--format text", text)
    option_needs("--words", o.words, "--format text", text)
    option_needs("--reveal", o.reveal, "--format text or svg", o.fmt in ("text", "svg") or None)
    option_needs("--format svg", o.fmt == "svg" or None, "--final", o.final)  # one picture a file: of the end
    game = game_of_options_file(o.moves_path, game_spec(o), game_number=o.game_number)
    if o.fmt == "svg":
        from ..formats.svg import svg_text

        click.echo(svg_text(game, reveal=o.reveal), nl=False)
    else:
        _echo_steps(game, o.fmt, o.final, o.reveal, o.words, Look.for_stream(ascii=o.ascii_only))


def _echo_steps(game: Game, fmt: str, final: bool, reveal: bool, words: bool, look: Look) -> None:
    """After each move (``final``: at the end only): ``--format yaml``, the state, one YAML
    document each; ``--format text``, the grid, then the result; ``--words``, the start and
    each move in sentences, a line each (``final``: every pile at the end)."""
    from ..formats.state import state_text
    from .words import look_words, move_words, start_words

    step = game.copy()  # the game's start: every move of its history taken back, then played again one by one
    while step.moves:
        step.undo()
    if words and not final:
        click.echo(start_words(step))
    for number, placement in enumerate([] if final else game.moves, 1):
        step.play(placement.cell, placement.card)
        if fmt == "yaml":
            click.echo(("---\n" if number > 1 else "") + state_text(step), nl=False)
        elif words:
            click.echo(f"Move {number}. {move_words(step)}")
        else:
            look.echo(look.draw(step, reveal=reveal, label=f"Move {number}") + "\n")
    if fmt == "yaml" and (final or not game.moves):
        click.echo(state_text(game), nl=False)
    elif words and final:
        click.echo(look_words(game, reveal))
    elif fmt == "text" and not words:
        if final or not game.moves:
            look.echo(look.draw(game, reveal=reveal) + "\n")
        where = f"deal {game.deal}, " if game.deal is not None else ""
        click.echo(f"Result: {outcome_text(game)} ({where}{counted(len(game.moves), 'move')}, {counted(game.placed, 'card')} placed)")
