"""The deals ``play`` chooses: ``--daily`` (engine/deal.py ``daily_deal``, the same number
for everyone on a UTC date, and the solver's best score at the end) and ``--winnable``
(a random deal the solver proves winnable), through app/deals.py."""

from __future__ import annotations

import datetime
import random
import re
import subprocess
import sys

import pytest
from helpers import ROOT, invoke

from foursquare.app.deals import (
    RANDOM_DEALS,
    WINNABLE_NODES,
    Pick,
    daily_comparison,
    daily_pick,
    winnable_pick,
)
from foursquare.engine.deal import daily_deal
from foursquare.engine.game import Game
from foursquare.engine.rules import get_rules
from foursquare.errors import FoursquareError
from foursquare.solver import solve_deal


def first_splitmix64_output(seed: int) -> int:
    """RULES.md §2's SplitMix64, written out again from its text: the first output."""
    mask = (1 << 64) - 1
    state = (seed + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def documented_daily_deal(day: datetime.date) -> int:
    """The formula of ``daily_deal``'s documentation: the date as YYYYMMDD, the first output, mod 10^6."""
    return first_splitmix64_output(int(day.strftime("%Y%m%d"))) % 1_000_000


@pytest.mark.parametrize(
    "day", [datetime.date(2026, 12, 1), datetime.date(2000, 2, 29), datetime.date(1999, 12, 31), datetime.date(1, 1, 1),
            datetime.date(9999, 12, 31)]
)
def test_the_daily_deal_follows_the_documented_formula(day):
    assert daily_deal(day) == documented_daily_deal(day)
    assert 0 <= daily_deal(day) < 1_000_000


def test_the_daily_deal_of_a_fixed_date_never_changes():
    # Shared deals must stay shared: the number of 2026-12-01, from the formula above,
    # written down so that a change of formula (another seed, another modulus) shows.
    assert documented_daily_deal(datetime.date(2026, 12, 1)) == 330954
    assert daily_deal(datetime.date(2026, 12, 1)) == 330954


def test_days_get_different_deals_and_a_datetime_counts_by_its_date():
    days = [datetime.date(2027, 1, 1) + datetime.timedelta(days=n) for n in range(60)]
    assert len({daily_deal(d) for d in days}) >= 58
    late = datetime.datetime(2026, 12, 1, 23, 59, tzinfo=datetime.UTC)
    assert daily_deal(late) == daily_deal(datetime.date(2026, 12, 1))
    with pytest.raises(TypeError):
        daily_deal("2026-12-01")  # type: ignore[arg-type]


def test_today_is_the_utc_date():
    before = datetime.datetime.now(datetime.UTC).date()
    assert daily_pick().day in (before, datetime.datetime.now(datetime.UTC).date())
    pick = daily_pick(datetime.date(2026, 12, 1))
    assert pick == Pick(330954, "the daily deal of 2026-12-01, UTC", datetime.date(2026, 12, 1))


def solver_moves(deal: int) -> tuple[int, str]:
    """The best score of ``deal`` and a move script that reaches it (today's deal: a
    hard one, rare, skips rather than slow the run down)."""
    solution = solve_deal(deal, max_nodes=200_000)
    if not solution.won:
        pytest.skip(f"today's deal {deal} is not solved within 200,000 positions")
    return solution.score, "".join(f"{cell}\n" for cell in solution.moves)


def todays_deals() -> set[int]:
    return {daily_deal(datetime.datetime.now(datetime.UTC).date())}


def test_play_daily_plays_todays_deal_and_ends_with_the_solvers_best_score():
    deals = todays_deals()
    deal = next(iter(deals))
    best, moves = solver_moves(deal)
    result = invoke(["play", "--daily"], input=moves)
    deals |= todays_deals()  # the date may have turned during the run
    assert result.exit_code == 0, result.output
    shown = int(re.match(r"Deal (\d+) \(the daily deal of (\d{4}-\d\d-\d\d), UTC; play it again with --deal \1\)", result.stdout)[1])
    assert shown in deals
    if shown == deal:
        assert f"Won, score {best}." in result.stdout
        assert result.stdout.rstrip().endswith(f"the solver's best score is {best}; yours is {best}.")


def test_a_daily_game_not_finished_gets_no_comparison():
    result = invoke(["play", "--daily"], input="d4\n")
    assert result.exit_code == 0
    assert "Stopped after 1 card placed." in result.stdout and "solver" not in result.stdout


def test_the_comparison_words():
    day = datetime.date(2026, 12, 1)
    pick = daily_pick(day)
    game = Game.from_deal(pick.deal)
    assert daily_comparison(game, pick) is None  # not over
    rng = random.Random(1)
    while not game.is_over:
        game.play(rng.choice(game.legal_cells()))
    best = solve_deal(pick.deal).score
    words = daily_comparison(game, pick)
    yours = f"yours is {game.score}" if game.score is not None else "you lost"
    assert words == f"Daily deal of 2026-12-01: the solver's best score is {best}; {yours}."
    unsettled = daily_comparison(game, pick, max_nodes=1)
    assert unsettled is not None and "the solver did not settle its best score within 1 positions or 15 s" in unsettled
    assert unsettled.endswith(f"; {yours}.")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--daily", "--deal", "3"], "use only one of --deal, --daily"),
        (["--daily", "--winnable"], "use only one of --winnable, --daily"),
        (["--winnable", "--deal", "3"], "use only one of --deal, --winnable"),
        (["--winnable", "--deck", "x.txt"], "use only one of --deck, --winnable"),
        (["--daily", "--resume", "x.yaml"], "use only one of --resume, --daily"),
    ],
)
def test_daily_and_winnable_go_with_no_other_choice_of_deal(args, message):
    result = invoke(["play", *args], input="")
    assert result.exit_code == 2 and message in result.stderr


def test_play_winnable_chooses_a_deal_the_solver_proves_winnable():
    result = invoke(["play", "--winnable"], input="quit\n")
    assert result.exit_code == 0, result.output
    match = re.match(r"Deal (\d+) \(chosen at random and proved winnable by the solver; play it again with --deal \1\)\n", result.stdout)
    assert match, result.stdout
    deal = int(match[1])
    assert deal < RANDOM_DEALS
    assert solve_deal(deal, max_nodes=WINNABLE_NODES).won  # proved, as said
    assert f"Deal {deal}. Play it again:\n  foursquare play --deal {deal}\n" in result.stdout


def test_play_winnable_under_a_variant():
    result = invoke(["play", "--winnable", "--rules", "fixed-board"], input="")
    assert result.exit_code == 0, result.output
    deal = int(re.match(r"Deal (\d+) ", result.stdout)[1])
    assert f"--deal {deal} --rules fixed-board" in result.stdout
    assert solve_deal(deal, get_rules("fixed-board"), max_nodes=WINNABLE_NODES).won


def test_winnable_pick_takes_the_first_deal_proved_winnable_and_gives_up_after_its_tries():
    rng = random.Random(7)
    pick = winnable_pick(None, random.Random(7), max_nodes=2000)
    # the same draws, judged here: the first that the solver proves winnable within the limit
    expected = next(d for d in iter(lambda: rng.randrange(RANDOM_DEALS), None) if solve_deal(d, max_nodes=2000).won)
    assert pick.deal == expected and pick.day is None
    with pytest.raises(FoursquareError, match="none of 3 random deals was proved winnable within 1 positions each"):
        winnable_pick(None, random.Random(7), tries=3, max_nodes=1)


def test_a_real_subprocess_plays_the_daily_deal(tmp_path):
    deals = todays_deals()
    deal = next(iter(deals))
    best, moves = solver_moves(deal)
    script = tmp_path / "daily.moves"
    script.write_text(moves)
    with script.open() as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "foursquare", "play", "--daily"], stdin=stdin, capture_output=True, text=True,
            cwd=ROOT, timeout=120,
        )
    assert done.returncode == 0, done.stderr
    if daily_deal(datetime.datetime.now(datetime.UTC).date()) == deal:
        assert f"the solver's best score is {best}; yours is {best}." in done.stdout
