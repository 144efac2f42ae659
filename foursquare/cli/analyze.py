"""``foursquare analyze``: where a recorded game went wrong, judged with perfect information."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from . import SHORT_HELP
from .boundary import Command, command_boundary
from .games import load_game_file, load_rules_option
from .options import BOT_NAMES, PATH, POSITIVE, SECONDS, bot_option_needs, exclusive, game_number_option, game_options
from .streams import progress_bar

if TYPE_CHECKING:
    from ..bots import Estimate
    from ..engine.game import Game


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _best(outlook: str, score: int | None) -> str:
    if outlook == "win":
        return f"win {score}" if score is not None else "win ?"  # ?: winnable, best score unknown
    return outlook


@click.command(cls=Command, short_help=SHORT_HELP["analyze"])
@click.argument("game_path", metavar="TRANSCRIPT", type=PATH)
@game_options
@game_number_option
@click.option(
    "--max-nodes",
    type=POSITIVE,
    metavar="N",
    help="Solver positions per move before answering 'unknown' (default 2000000).",
)
@click.option("--timeout", type=SECONDS, metavar="SECONDS", help="Solver time limit per move.")
@click.option("--bot", type=click.Choice(BOT_NAMES), help="The bot to compare with (default: the bots package's default).")
@click.option("--no-bot", is_flag=True, help="Do not consult a bot.")
@click.option("--budget", type=SECONDS, metavar="SECONDS", help="The bot's time per move.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "yaml"]), default="text", show_default=True)
@command_boundary
def analyze(
    game_path: str,
    deal: int | None,
    deck_path: str | None,
    rules_spec: str | None,
    game_number: int | None,
    max_nodes: int | None,
    timeout: float | None,
    bot: str | None,
    no_bot: bool,
    budget: float | None,
    fmt: str,
) -> None:
    """For each move of a recorded game (a transcript or a move script with
    --deal/--deck; '-' for stdin): whether a win was still possible with perfect
    information before and after it, the best score from there, the solver's
    cell, and the bot's preferred cell and win chances; then the mistakes.

    'unknown' means the solver's node limit (or --timeout) ran out for that
    position, or the deck given ends before a win could.
    """
    from ..errors import FormatError
    from ..solver.analysis import ANALYSIS_MAX_NODES, analyze_game
    from ..solver.search import SolverError

    exclusive(deal=deal, deck=deck_path)
    if no_bot and (bot is not None or budget is not None):
        raise click.UsageError("--no-bot cannot be used with " + ("--bot" if bot is not None else "--budget"))
    if bot is not None:
        bot_option_needs("--budget", budget, [bot], "uses_budget")
    rules = load_rules_option(rules_spec)
    game = load_game_file(game_path, deal, deck_path, rules, rules_spec=rules_spec, game_number=game_number)
    if len(game.moves) != game.placed:
        name = "<stdin>" if game_path == "-" else game_path
        raise FormatError(name, None, "a state has no moves to analyze; give a transcript or a move script")
    estimator = None
    if not no_bot:
        from ..bots import DEFAULT, recommend
        from ..engine.view import PlayerView

        def estimator(position: Game) -> list[Estimate]:
            return recommend(PlayerView.of(position), bot=bot if bot is not None else DEFAULT, budget=budget, seed=0)

    try:
        with progress_bar(None, len(game.moves) + 1, "analyzing") as bar:  # on a terminal only
            result = analyze_game(
                game,
                max_nodes=max_nodes if max_nodes is not None else ANALYSIS_MAX_NODES,
                timeout=timeout,
                estimator=estimator,
                bot=bot,
                progress=lambda: bar.update(1),
            )
    except SolverError:  # a position of the game has no next card: the stock order is not known
        from ..formats.loading import next_card_unknown

        name = "<stdin>" if game_path == "-" else game_path
        raise FormatError(name, None, "the solver needs the stock order, and " + next_card_unknown(game)) from None
    if fmt == "json":
        click.echo(json.dumps(result.as_dict(), indent=1))
        return
    if fmt == "yaml":
        from ..formats.yamlio import dump  # the one writer of YAML: no string split across lines

        click.echo(dump(result.as_dict()), nl=False)
        return
    with_bot = result.bot is not None
    head = f"{'move':>4}  {'card':4} {'cell':4}  {'before':9} {'after':9} {'solver':6}"
    if with_bot:
        head += f"  {'bot':4} {'bot win':>8} {'played':>8}"
    click.echo(head + "  verdict")
    for m in result.moves:
        line = (
            f"{m.number:>4}  {m.card:4} {m.cell:4}  {_best(m.before, m.best_before):9} "
            f"{_best(m.after, m.best_after):9} {m.solver_cell or '-':6}"
        )
        if with_bot:
            line += f"  {m.bot_cell or '-':4} {_pct(m.bot_win_chance):>8} {_pct(m.played_win_chance):>8}"
        click.echo(line + f"  {m.verdict}")
    outcome = f"won, score {result.score}" if result.status == "won" else result.status
    click.echo(f"start: {_best(result.start, result.best_start)}; outcome: {outcome}")
    unknown = sum(m.verdict == "unknown" for m in result.moves)
    # a limit that ran out leaves moves unjudged: the count of mistakes is then a lower bound
    why = "a higher --max-nodes" + (" or --timeout" if timeout is not None else "") + " may find more"
    if len(game.deck) < game.rules.deck_size:
        why += f", unless the deck's {len(game.deck)} cards run out first"
    more = f" ({unknown} move{'s' if unknown != 1 else ''} unknown: {why})" if unknown else ""
    if not result.mistakes:
        click.echo("mistakes: none found" + more)
        return
    click.echo(f"mistakes: {len(result.mistakes)}{more}")
    for m in result.mistakes:
        if m.verdict == "threw-away-win":
            what = "threw the win away" + (f" (best was {m.best_before})" if m.best_before is not None else "")
        else:
            what = f"best score {m.best_before} -> {m.best_after}"
        better = f"; the solver plays {m.solver_cell}" if m.solver_cell else ""
        click.echo(f"  move {m.number}: {m.card} {m.cell}: {what}{better}")
