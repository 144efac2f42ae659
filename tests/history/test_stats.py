"""The statistics of the history (history/stats.py ``summarize``, cli/stats.py): what
counts as played, the share won and its Wilson interval, scores of the games won
(RULES.md §5), streaks in the order the games ended, hints and time per game."""

from __future__ import annotations

import random

import pytest

from foursquare.cli.stats import BAR, duration_text, histogram_lines, stats_text
from foursquare.engine.game import Reason, Status
from foursquare.figures import wilson_interval
from foursquare.history.rows import GameRecord, Kind, Source
from foursquare.history.stats import summarize

_ids = iter(range(1, 10**6))


def rec(status: str, score: int | None = None, *, ended_at: float | None = None, hints: int | None = 0,
        seconds: float | None = 60.0, rules: str = "standard") -> GameRecord:
    """A record that ended (its last move) at ``ended_at``."""
    rid = next(_ids)
    when = float(rid) * 1000 if ended_at is None else ended_at
    return GameRecord(
        id=rid, kind=Kind.TRANSCRIPT, record="", rules=rules, deal=rid, moves=10, status=Status(status),
        reason=Reason.STOCK_EMPTY if status == "lost" else None, score=score, hints=hints,
        started=None if seconds is None else when - seconds, last_move=when, ended=when, added=when,
        source=Source.PROMPT,
    )


def test_only_games_won_or_lost_are_played_and_stopped_ones_are_counted_apart():
    s = summarize([rec("won", 3), rec("lost"), rec("playing"), rec("playing")])
    assert (s.played, s.won, s.lost, s.stopped) == (2, 1, 1, 2)
    assert s.win_share == 0.5


def test_the_share_won_has_the_wilson_interval():
    games = [rec("won", 1)] * 7 + [rec("lost")] * 13
    s = summarize(games)
    assert s.win_interval == wilson_interval(7, 20)
    low, high = s.win_interval
    assert low < 7 / 20 < high


def test_the_score_is_that_of_the_games_won():
    s = summarize([rec("won", 2), rec("won", 9), rec("lost"), rec("won", 4)])
    assert s.mean_score == 5.0 and s.best_score == 9
    assert s.scores == {2: 1, 9: 1, 4: 1}
    assert summarize([rec("lost")]).mean_score is None


def test_streaks_follow_the_order_the_games_ended_not_the_order_given():
    w1, w2, lost, w3 = (rec("won", 1, ended_at=t) for t in (10, 20, 0, 40))
    lost = rec("lost", ended_at=30)
    s = summarize([w3, lost, w2, w1])  # ended: w1, w2, lost, w3
    assert (s.longest_streak, s.current_streak) == (2, 1)
    shuffled = [rec("won", 1, ended_at=t) for t in range(5)] + [rec("lost", ended_at=5.5)]
    random.Random(1).shuffle(shuffled)
    s = summarize(shuffled)
    assert (s.longest_streak, s.current_streak) == (5, 0)


def test_a_stopped_game_does_not_break_a_streak():
    s = summarize([rec("won", 1, ended_at=1), rec("playing", ended_at=2), rec("won", 1, ended_at=3)])
    assert (s.longest_streak, s.current_streak) == (2, 2)


def test_hints_and_time_per_game():
    s = summarize([rec("won", 1, hints=4, seconds=30), rec("lost", hints=0, seconds=90), rec("lost", hints=None, seconds=600),
                   rec("playing", hints=2, seconds=None)])
    assert s.hints_per_game == pytest.approx(4 / 2)  # the games played whose hints are known: not the stopped one
    assert s.seconds_per_game == 90  # the median of the games played
    assert summarize([rec("won", 1, seconds=None)]).seconds_per_game is None


def test_the_histogram_has_a_bar_a_score_scaled_to_the_most_common():
    lines = histogram_lines({3: 2, 5: 8, 6: 1})
    assert [line.split("|")[0].strip() for line in lines] == ["3", "4", "5", "6"]
    bars = [line.split("|")[1].split()[0].count("#") if "#" in line else 0 for line in lines]
    assert bars == [round(BAR * 2 / 8), 0, BAR, 4]
    assert [line.split()[-1] for line in lines] == ["2", "0", "8", "1"]


def test_the_text_names_every_figure_and_a_table_when_several_rule_sets():
    games = [rec("won", 5), rec("lost"), rec("won", 2, rules="three-square"), rec("playing", rules="three-square")]
    text = stats_text(games, "/h/history.sqlite3")
    assert text.splitlines()[0] == "Games played: 3 (won 2, lost 1); 1 stopped before the end"
    assert "Won: 66.7% (95% interval" in text and "Score: mean 3.5, best 5 (of the 2 games won)" in text
    assert "Winning streak: current 1, longest 1" in text and "Time: 1 min 00 s a game played (median)" in text
    table = text.split("By rule set:\n")[1].splitlines()
    assert table[0].split() == ["rules", "played", "won", "share", "stopped", "mean", "best"]
    assert table[1].split() == ["standard", "2", "1", "50.0%", "0", "5.0", "5"]
    assert table[2].split() == ["three-square", "1", "1", "100.0%", "1", "2.0", "2"]
    assert "Scores of" not in text
    assert "Scores of the 2 games won:" in stats_text(games, "h", histogram=True)


def test_durations_for_people():
    assert [duration_text(s) for s in (0.4, 59.6, 60, 3599, 3600, 7322)] == [
        "0 s", "1 min 00 s", "1 min 00 s", "59 min 59 s", "1 h 00 min", "2 h 02 min"
    ]


def test_at_a_terminal_stats_draws_the_histogram_and_through_a_pipe_it_does_not():
    import os
    import pty
    import subprocess
    import sys

    from helpers import EXAMPLES, ROOT, invoke

    assert invoke(["history", "import", EXAMPLES / "won.yaml"]).exit_code == 0
    assert "Scores of" not in invoke(["stats"]).stdout
    master, slave = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "foursquare", "stats"], stdout=slave, stderr=slave, cwd=ROOT, timeout=60)
    os.close(slave)
    screen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    os.close(master)
    assert done.returncode == 0
    assert b"Scores of the 1 game won:" in screen and b" 8 | " + b"#" * BAR + b" 1" in screen


def test_the_guide_shows_a_stats_output_whose_figures_agree():
    from helpers import ROOT

    blocks = (ROOT / "docs" / "guide" / "history.md").read_text(encoding="utf-8").split("```")
    (block,) = [b for b in blocks[1::2] if b.startswith("text\n$ foursquare stats\n")]
    lines = block.splitlines()[2:]
    import re

    played, won, lost = map(int, re.fullmatch(r"Games played: (\d+) \(won (\d+), lost (\d+)\).*", lines[0]).groups())
    assert played == won + lost
    low, high = wilson_interval(won, played)
    assert lines[1] == f"Won: {100 * won / played:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)"
    bars = [line for line in lines if re.fullmatch(r" *\d+ \| #* ?\d+", line)]
    counts = {int(line.split("|")[0]): int(line.split()[-1]) for line in bars}
    assert sum(counts.values()) == won
    mean = sum(score * n for score, n in counts.items()) / won
    assert f"Score: mean {mean:.1f}, best {max(s for s, n in counts.items() if n)} (of the {won} games won)" in lines
    table = block.split("By rule set:\n")[1].split("\n\n")[0].splitlines()[1:]
    assert sum(int(row.split()[1]) for row in table) == played
    assert sum(int(row.split()[2]) for row in table) == won


def test_histogram_and_no_histogram_together_are_a_usage_error():
    from helpers import invoke

    done = invoke(["stats", "--no-histogram", "--histogram"])
    assert done.exit_code == 2 and "use only one of --histogram, --no-histogram" in done.stderr


def test_hints_and_time_are_over_the_same_games_and_the_text_says_which():
    """One basis for both figures: the games played (won or lost), never the stopped ones."""
    s = summarize([rec("won", 1, hints=1, seconds=60), rec("playing", hints=9, seconds=5)])
    assert s.hints_per_game == 1 and s.seconds_per_game == 60
    text = stats_text([rec("won", 1, hints=1, seconds=60), rec("playing", hints=9, seconds=5)], "/h/history.sqlite3")
    assert "Hints: 1.0 a game played (mean)" in text and "Time: 1 min 00 s a game played (median)" in text
    assert summarize([rec("playing", hints=3)]).hints_per_game is None
