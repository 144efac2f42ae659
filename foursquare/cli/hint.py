"""``foursquare hint``: where should the card in hand go, at the end of a game file."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from ..app.games import GameSpec
from ..engine.game import Status
from ..engine.view import PlayerView
from ..errors import Advice, FormatError, PositionError, shown_name
from ..figures import human_seconds
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import (
    BOT_NAMES,
    DEFAULT_BOT,
    NATURAL,
    PATH,
    POSITIVE,
    SECONDS,
    bot_option_needs,
    game_options,
    game_spec,
    given_on_the_command_line,
    option_names,
)
from .style import counted, percent, shown_percent

if TYPE_CHECKING:
    from ..bots import Estimate


def sampled_note(estimates: Sequence[Estimate]) -> str | None:
    """What the sampled estimates are (the ``expert`` bot), or ``None`` when none is sampled."""
    sampled = [e for e in estimates if e.samples is not None]
    if not sampled:
        return None
    fewest, most = min(e.samples or 0 for e in sampled), max(e.samples or 0 for e in sampled)
    samples = str(most) if fewest == most else f"{fewest} to {most}"
    unknown = sum(e.unknown or 0 for e in sampled)
    first = "the best cell" if len(sampled) == 1 else "every cell" if len(sampled) == len(estimates) else f"the first {len(sampled)} cells"
    note = (
        f"({first}: the share of {samples} sampled orders of the unseen cards still won and their mean best score,"
        " each solved with its stock known"
    )
    if unknown:
        note += f"; {unknown} solves unsettled, counted as the prior search's estimate"
    return note + ("" if len(sampled) == len(estimates) else "; the others: the prior search's estimates") + ")"


def estimate_words(estimate: Estimate, digits: tuple[int, int] = (1, 1)) -> str:
    """The one wording of a bot's estimate of a cell, in ``foursquare hint`` and in the
    prompt's ``hint``: ``win 96.8%, expected score 17.2`` (``-`` for a part the bot
    did not estimate), ``no estimate`` when it estimated neither.

    :param estimate: the cell's :class:`~foursquare.bots.Estimate` (its ``win_chance``
        from 0 to 1 and ``expected_score``, the score of RULES.md section 5 with a loss counting 0).
    :param digits: the decimals of the win chance (in percent) and of the score."""
    win, score = estimate.win_chance, estimate.expected_score
    if win is None and score is None:
        return "no estimate"
    return f"win {percent(win, digits[0])}, expected score {'-' if score is None else f'{score:.{digits[1]}f}'}"


def _key(estimate: Estimate, digits: tuple[int, int]) -> tuple[float, float]:
    """What the player can tell apart: the win chance as printed, then the score as
    printed (all that is left once the win is sure)."""
    win, score = estimate.win_chance, estimate.expected_score
    return (
        -1.0 if win is None else shown_percent(win, digits[0]),
        -1.0 if score is None else round(score, digits[1]),
    )


def _digits(values: Sequence[float | None]) -> int:
    """One decimal, or two when one decimal would print different values alike."""
    known = {v for v in values if v is not None}
    return 1 if len({f"{v:.1f}" for v in known}) == len(known) else 2


def _cells(group: Sequence[Estimate]) -> str:
    """``d4``, ``d4 and e4``, ``d4, e4 and f4``; ``d4, e4, f4 and 5 more`` past four."""
    names = [str(e.cell) for e in group]
    if len(names) > 4:
        names = [*names[:3], f"{len(names) - 3} more"]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class ShownHint:
    """A hint as shown to the player (at the prompt and by ``foursquare hint``).

    :ivar lines: up to three lines, best first, each the cells and their words:
        ``("d4, e4 and f4", "tied at win 96.6%, expected score 21.6")``; the bot's
        choice is the first cell of the first line.
    :ivar tied: the cells shown tied with the bot's choice.
    :ivar note: why the bot's choice comes first when a cell shown after it has better
        figures, or ``None``."""

    lines: list[tuple[str, str]]
    tied: list[str]
    note: str | None


def shown_hint(estimates: Sequence[Estimate], bot: str, count: int = 3) -> ShownHint:
    """The ``count`` best lines of the bot's ``estimates`` (best first, as the bot ranks
    them) for a player: the bot's choice first, then the other cells by their figures;
    figures with the decimals that tell the cells shown apart; cells printed alike on one
    line as a tie; and the note when the bot's choice has worse figures than a cell shown."""
    first, *others = estimates
    digits = (1, 1)
    while True:  # one decimal, or two where one decimal prints two cells shown alike
        # the first ``count`` lines of cells: the bot's choice and the cells printed like it
        # with ``digits`` decimals, then the others by their figures, cells printed alike together
        left = [first, *sorted(others, key=lambda e: _key(e, digits), reverse=True)]  # the bot's order within a tie
        groups: list[list[Estimate]] = []
        while left and len(groups) < count:  # (cells printed alike: the same words)
            lead = estimate_words(left[0], digits)
            groups.append([e for e in left if estimate_words(e, digits) == lead])
            left = [e for e in left if estimate_words(e, digits) != lead]
        shown = [e for group in groups for e in group]
        wider = (
            max(digits[0], _digits([None if e.win_chance is None else 100 * e.win_chance for e in shown])),
            max(digits[1], _digits([e.expected_score for e in shown])),
        )
        if wider == digits:
            break
        digits = wider
    lines = [(_cells(g), ("tied at " if len(g) > 1 else "") + estimate_words(g[0], digits)) for g in groups]
    note = None
    if any(_key(g[0], digits) > _key(first, digits) for g in groups[1:]):
        from ..bots import ExpertBot, get_bot

        player = get_bot(bot)
        sampled = player.preference() if first.samples is not None and isinstance(player, ExpertBot) else None
        why = sampled or "its search values filled piles and fewer face-down cards more than these estimates do"
        note = f"(the {bot} bot prefers {first.cell}: {why})"
    return ShownHint(lines, [str(e.cell) for e in groups[0][1:]], note)


def _load_view(game_path: str | None, spec: GameSpec, game_number: int | None = None) -> PlayerView:
    """What the player knows at the end of the file: a state or player's view is
    read as it is (a player's view has no stock order to replay); a transcript or
    a move script is replayed, with the options' agreement checked.  Without a
    file, the start of --deal/--deck."""
    from ..formats.loading import FileKind, input_kind, next_card_unknown, read_game_text
    from ..formats.state import read_view

    if game_path is None:
        if game_number is not None:
            raise click.UsageError("--game needs a transcript file (FILE)")
        game = spec.start()
        if game is None:
            raise click.UsageError("give FILE, --deal N or --deck FILE")
    else:
        text, name = read_game_text(game_path)
        if text.strip() and input_kind(text) is FileKind.STATE and spec == GameSpec() and game_number is None:
            return read_view(text, name)
        with option_names(spec):
            game = spec.game_of_text(text, name, game_number=game_number)
        if game.status is Status.PLAYING and game.next_card is None:
            raise FormatError(name, None, next_card_unknown(game), advice=Advice.NAME_MORE_CARDS)
    return PlayerView.of(game)


@click.command(cls=Command, short_help=SHORT_HELP["hint"])
@click.argument("game_path", metavar="[FILE]", required=False, type=PATH)
@game_options()
@click.option(
    "--bot",
    default=DEFAULT_BOT,
    show_default=True,
    type=click.Choice(BOT_NAMES),
    help="The bot that answers.",
)
@click.option(
    "--budget",
    type=SECONDS,
    default=1.0,
    show_default=True,
    metavar="SECONDS",
    help="The bot's thinking time (with --nodes: none unless given).",
)
@click.option(
    "--nodes",
    "--samples",
    "nodes",
    type=POSITIVE,
    metavar="N",
    help="Fixed work for 'deep', 'expert' or 'chance': the most positions it may examine (the same hint on every "
    "machine; default 600000, within --budget).",
)
@click.option("--seed", type=NATURAL, default=0, show_default=True, help="Seed of the bot's random choices.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)
@command_boundary
def hint(**options: Any) -> None:
    """Recommend a cell for the card to place at the end of FILE (a state YAML,
    a transcript or a move script; '-' for stdin; --game K picks one game of a
    transcript of several), or at the start of --deal N / --deck FILE when FILE
    is not given, with the bot's estimate
    (win chance, expected score with losses counting 0) and the next two
    alternatives.

    The bot sees only what the player sees: the layout, the card in hand and
    which cards are unseen, never their order (RULES.md section 6).
    """
    from ..bots import get_bot, recommend

    o = SimpleNamespace(**options)  # the options as Click reads them
    bot_option_needs("--budget", given_on_the_command_line("budget"), [o.bot], "uses_budget")
    bot_option_needs("--nodes", o.nodes, [o.bot], "uses_nodes")
    # a fixed work limit alone: the same answer on every machine
    budget = None if o.nodes is not None and not given_on_the_command_line("budget") else o.budget
    view = _load_view(o.game_path, game_spec(o), o.game_number)
    if view.status is not Status.PLAYING:  # (the game named by FILE, else by --deal or --deck)
        where = "<stdin>" if o.game_path == "-" else o.game_path or o.deck_path
        where = f"deal {o.deal}" if where is None else shown_name(where)
        raise PositionError(f"{where}: the game is over ({view.status}): there is no card to place")
    started = time.perf_counter()
    estimates = recommend(view, bot=get_bot(o.bot, nodes=o.nodes), budget=budget, seed=o.seed)
    used = time.perf_counter() - started
    best = estimates[0]
    # the random bot gives no estimate at all: its order is random, not a ranking
    random_order = all(e.win_chance is None and e.expected_score is None for e in estimates)
    shown = shown_hint(estimates, o.bot)
    if o.fmt == "json":
        out = {
            "card": str(view.next_card),
            "cell": str(best.cell),
            "win_chance": best.win_chance,
            "expected_score": best.expected_score,
            "bot": o.bot,
            "budget": budget if get_bot(o.bot).uses_budget else None,  # the random bot thinks for no time
            "nodes": o.nodes,
            "seconds": round(used, 4),
            "ranked_by": "random" if random_order else "search",
            "tied": [] if random_order else shown.tied,
            "note": shown.note,
            "alternatives": [e.as_dict() for e in estimates[1:3]],
            "estimates": [e.as_dict() for e in estimates],
        }
        click.echo(json.dumps(out, indent=2))
        return
    if random_order:  # the cells alone, the first to play and two more
        click.echo("\n".join([f"{view.next_card} to {best.cell}", *(f"   or {alt.cell}" for alt in estimates[1:3])]))
    else:
        click.echo("\n".join(
            f"{f'{view.next_card} to' if i == 0 else '   or'} {cells}   {words}" for i, (cells, words) in enumerate(shown.lines)
        ))
    click.echo(
        f"({o.bot} bot, used {human_seconds(used)}{'' if random_order or budget is None else f' of {budget:g} s'}"
        f"{'' if o.nodes is None else ', at most ' + counted(o.nodes, 'position')}; "
        f"{counted(view.rules.deck_size - view.stock_count, 'card')} placed, {view.stock_count} in the stock)"
    )
    if random_order:
        click.echo("(the random bot searches nothing: a random order of the legal cells, drawn from --seed; no estimates)")
    elif (note := sampled_note(estimates)) is not None:
        click.echo(note)
    elif len(estimates) > 1:  # how the cells are ordered, when there is a choice
        click.echo("(ranked by the bot's search; each estimate assumes the bot plays on after that cell)")
    if shown.note is not None:
        click.echo(shown.note)
