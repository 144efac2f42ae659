"""``foursquare stats``: the statistics of the games in the history.

The games come from the history of the data folder (:mod:`foursquare.app.datafolder`,
:mod:`foursquare.history.store`): games played (won or lost), games stopped
before their end, the share won with its 95% Wilson interval, the mean and best
score of the games won, the current and longest winning streaks, hints and time
per game; the same for each rule set; at a terminal, a histogram of the scores.
"""

from __future__ import annotations

import json
import sys

import click

from ..app.datafolder import history_path, words_setting
from ..errors import shown_name
from ..history.rows import GameRecord
from ..history.stats import Summary, by_rules, summarize
from ..history.store import read_records
from . import SHORT_HELP
from .boundary import Command, command_boundary
from .options import given_on_the_command_line, option_needs
from .style import counted, percent
from .words import spoken

#: The longest bar of the histogram (characters).
BAR = 30


@click.command(cls=Command, short_help=SHORT_HELP["stats"])
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: for people; json: one object (played, won, ..., and by_rules for each rule set).",
)
@click.option(
    "--histogram/--no-histogram",
    default=None,
    help="Draw the scores of the games won as a text histogram (default: when stdout is a terminal).",
)
@click.option("--words", is_flag=True, help="In sentences, for a screen reader (default: while play's words mode is on).")
@command_boundary
def stats(fmt: str, histogram: bool | None, words: bool) -> None:
    """The statistics of the games in the history: played, won, scores, streaks,
    hints and time, in all and for each rule set.

    The history is kept in the data folder (FOURSQUARE_HOME, or the user's
    application folder); games played at the prompt go into it.
    """
    if fmt != "text" and given_on_the_command_line("histogram"):
        option_needs("--histogram" if histogram else "--no-histogram", True, "--format text", None)
    option_needs("--words", words, "--format text", fmt == "text" or None)
    path = history_path()
    records = read_records(path)
    if fmt == "json":
        out: dict[str, object] = {"history": path, **summarize(records).to_dict()}
        out["by_rules"] = {name: summary.to_dict() for name, summary in by_rules(records).items()}
        click.echo(json.dumps(out, indent=2))
        return
    if words or words_setting(None):
        click.echo(spoken(stats_text(records, path, words=True)))
        return
    click.echo(stats_text(records, path, histogram=sys.stdout.isatty() if histogram is None else histogram))


def stats_text(records: list[GameRecord], path: str, *, histogram: bool = False, words: bool = False) -> str:
    """The statistics for people: the summary, a table by rule set when there are
    several, and (``histogram``) the scores of the games won as bars; ``words``: the
    summary of each rule set instead of the table, and no histogram."""
    if not records:
        return f"No games in the history yet ({shown_name(path)}).\nPlay one at the prompt: foursquare play"
    total = summarize(records)
    lines = summary_lines(total)
    groups = by_rules(records)
    if words:
        many = len(groups) > 1
        return "\n".join(lines + [line for name, s in groups.items() if many for line in [f"The {name} rules.", *summary_lines(s)]])
    if len(groups) > 1:  # one line a rule set: played, won, the share won, stopped, mean and best score
        width = max(len("rules"), *(len(name) for name in groups))
        lines += ["", "By rule set:", f"  {'rules':<{width}}  played   won   share  stopped   mean  best"]
        lines += [
            f"  {name:<{width}}  {s.played:>6}  {s.won:>4}  {percent(s.win_share) if s.played else '-':>6}  {s.stopped:>7}"
            f"  {'-' if s.mean_score is None else f'{s.mean_score:.1f}':>5}  {'-' if s.best_score is None else s.best_score:>4}"
            for name, s in groups.items()
        ]
    if histogram and total.scores:
        lines += ["", f"Scores of the {counted(total.won, 'game')} won:", *histogram_lines(total.scores)]
    return "\n".join(lines)


def summary_lines(s: Summary) -> list[str]:
    """The lines of one summary: played, the share won, scores, streaks, hints, time."""
    stopped = f"; {s.stopped} stopped before the end" if s.stopped else ""
    lines = [f"Games played: {s.played} (won {s.won}, lost {s.lost}){stopped}"]
    if s.played:
        low, high = s.win_interval
        lines.append(f"Won: {percent(s.win_share)} (95% interval {percent(low)} to {percent(high)})")
    if s.mean_score is not None:
        lines.append(f"Score: mean {s.mean_score:.1f}, best {s.best_score} (of the {counted(s.won, 'game')} won)")
    lines.append(f"Winning streak: current {s.current_streak}, longest {s.longest_streak}")
    if s.hints_per_game is not None:
        lines.append(f"Hints: {s.hints_per_game:.1f} a game played (mean)")
    if s.seconds_per_game is not None:
        lines.append(f"Time: {duration_text(s.seconds_per_game)} a game played (median)")
    return lines


def histogram_lines(scores: dict[int, int]) -> list[str]:
    """A bar a score, from the lowest to the highest score reached (a score no game
    reached has an empty bar), the longest bar :data:`BAR` characters.

    >>> print("\\n".join(histogram_lines({2: 1, 4: 3})))
     2 | ########## 1
     3 | 0
     4 | ############################## 3
    """
    low, high = min(scores), max(scores)
    most = max(scores.values())
    width = len(str(high))
    bars = {score: "#" * max(1, round(BAR * count / most)) + " " for score, count in scores.items() if count}  # a score reached has a bar
    return [f"{score:>{width + 1}} | {bars.get(score, '')}{scores.get(score, 0)}" for score in range(low, high + 1)]


def duration_text(seconds: float) -> str:
    """A duration for people: ``45 s``, ``3 min 05 s``, ``1 h 02 min``.

    >>> duration_text(45.2), duration_text(185), duration_text(3725)
    ('45 s', '3 min 05 s', '1 h 02 min')
    """
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
