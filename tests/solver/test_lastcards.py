"""The last-cards rule (foursquare.solver.lastcards): it never rules out a real win, it
rules out wins the brute force cannot find, and it settles deals it was made for."""

from __future__ import annotations

import random

import pytest

from foursquare.engine.deal import deal_deck
from foursquare.engine.game import Game
from foursquare.engine.rules import STANDARD, get_rules
from foursquare.solver.lastcards import TailLimit, tail_patterns
from foursquare.solver.search import SOLVED, solve, solve_deal
from solver.test_solver import brute_force_win_lengths, random_cut_position, replay


def tail_can_end(tail, earlier, n, limit, stacks, *, max_nodes=None, deadline=None):
    """Whether a win can end with the placements of ``tail`` (False: a proof), and the
    steps searched: :func:`tail_patterns` stopped at the first way back."""
    patterns, steps = tail_patterns(tail, earlier, n, limit, stacks, max_nodes=max_nodes, deadline=deadline)
    return patterns != 0, steps


RULE_SETS = [
    STANDARD,
    get_rules("three-square"),
    STANDARD.with_changes(size=3),
    STANDARD.with_changes(face_down_limit=3),
    STANDARD.with_changes(size=3, face_down_limit=3, pile_cap=2),
    STANDARD.with_changes(size=5),
    STANDARD.with_changes(layout="fixed"),
]


def _ranks(game: Game) -> list[int]:
    return [c >> 2 for c in game.deck]


def _stack_pattern(game: Game, start: int, end: int) -> int:
    """The stack pattern of the moves ``start .. end - 1`` of a game (bit ``j``: move
    ``start + j`` covered a pile), replayed from its deck."""
    replayed = Game(game.deck, game.rules)
    pattern = 0
    for i, move in enumerate(game.moves[:end]):
        if i >= start and move.cell in replayed.grid:
            pattern |= 1 << (i - start)
        replayed.play(move.cell)
    return pattern


def _random_win(rules, rng: random.Random) -> Game | None:
    """A game played with random moves, most of them keeping the fewest cards face down."""
    game = Game.from_deal(rng.getrandbits(64), rules)
    greedy = rng.random()
    while game.status == "playing":
        cells = game.legal_cells()
        if not cells:
            return None
        if rng.random() < greedy:
            scored = []
            for cell in cells:
                game.play(cell)
                scored.append((game.status == "won", -game.face_down if game.status != "lost" else -99, rng.random(), cell))
                game.undo()
            game.play(max(scored)[3])
        else:
            game.play(rng.choice(cells))
    return game if game.status == "won" else None


@pytest.mark.parametrize("seed", range(4))
def test_every_win_of_random_play_passes_for_each_tail_length(seed):
    rng = random.Random(seed)
    wins = stacked = 0
    for _ in range(800):
        rules = rng.choice(RULE_SETS)
        game = _random_win(rules, rng)
        if game is None:
            continue
        wins += 1
        n = rules.size
        K = game.placed
        stacked += K > n * n
        ranks = _ranks(game)
        for k in (1, 2, 3, 4):
            ok, steps = tail_can_end(ranks[K - k : K], ranks[: K - k], n, rules.face_down_limit, K - n * n)
            assert ok, (rules.label, [str(c) for c in game.deck[:K]], [str(p.cell) for p in game.moves], k)
            assert steps >= 1
            # the win's own stack pattern of its last k cards is among the possible ones
            patterns, _ = tail_patterns(ranks[K - k : K], ranks[: K - k], n, rules.face_down_limit, K - n * n, every=True)
            assert patterns >> _stack_pattern(game, K - k, K) & 1, (rules.label, [str(p.cell) for p in game.moves], k)
    assert wins >= 20 and stacked >= 5  # the check met real wins, some with stacked cards


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_the_rule_never_rules_out_a_brute_force_win_and_does_rule_some_out(seed):
    # Three-square positions after a few random moves, the deck cut 1 card
    # beyond the empty cells: every length of a win that the engine's brute force
    # finds passes; lengths the rule rules out have no win; the solver agrees.
    rules = get_rules("three-square")
    ruled_out = 0
    for case in range(12):
        rng = random.Random(seed * 100 + case)
        cut = random_cut_position(rng, deal_deck(rng.getrandbits(64), rules), rules)
        if cut is None:
            continue
        empties = 9 - len(cut.grid)
        lengths = brute_force_win_lengths(cut.copy())
        ranks = _ranks(cut)
        tops = [pile.top >> 2 for pile in cut.grid.values()]
        for K in range(cut.placed + empties, len(ranks) + 1):
            k = min(3, K - cut.placed)
            if k < 1:
                continue
            slack = K - cut.placed - empties
            ok, _ = tail_can_end(ranks[K - k : K], tops + ranks[cut.placed : K - k], 3, rules.face_down_limit, slack)
            if K in lengths:
                assert ok, (seed, case, K)
            ruled_out += not ok
        best = rules.deck_size - min(lengths) if lengths else None
        assert solve(cut, within_known_cards=True).score == best
    assert ruled_out >= 1


def brute_force_win_patterns(game: Game, k: int, pattern: int = 0) -> set[tuple[int, int]]:
    """(cards placed, stack pattern of the last ``k`` moves) of every win from a position, by the engine."""
    if game.status == "won":
        return {(game.placed, pattern & ((1 << k) - 1))}
    if game.status == "lost" or game.next_card is None:
        return set()
    out: set[tuple[int, int]] = set()
    grid = game.grid
    for cell in game.legal_cells():
        game.play(cell)
        # bit 0 is the newest move: reversed at the end
        out |= brute_force_win_patterns(game, k, pattern << 1 | (cell in grid))
        game.undo()
    return out


def _reverse(pattern: int, k: int) -> int:
    return int(format(pattern, f"0{k}b")[::-1], 2)


def test_stack_patterns_left_out_are_never_those_of_a_brute_force_win():
    # Three-square positions with one card to spare: a win stacks one card, and
    # the rule may say that it cannot be one of the last three.  In the first
    # positions where it says so, the engine's brute force finds no win that
    # stacks it there, and the solver, which drops those lines, finds the best win.
    rules = get_rules("three-square")
    one_stack = sum(1 << p for p in range(8) if p.bit_count() <= 1)
    checked = 0
    for case in range(400):
        rng = random.Random(case)
        cut = random_cut_position(rng, deal_deck(rng.getrandbits(64), rules), rules)
        if cut is None or len(cut.deck) - 3 < cut.placed:
            continue
        ranks = _ranks(cut)
        tops = [pile.top >> 2 for pile in cut.grid.values()]
        K = len(ranks)
        patterns, _ = tail_patterns(ranks[K - 3 :], tops + ranks[cut.placed : K - 3], 3, rules.face_down_limit, 1, every=True)
        if patterns in (0, one_stack):
            continue
        wins = {(placed, _reverse(p, 3)) for placed, p in brute_force_win_patterns(cut.copy(), 3)}
        for placed, pattern in wins:
            if placed == K:
                assert patterns >> pattern & 1, (case, pattern)
        best = rules.deck_size - min(placed for placed, _ in wins) if wins else None
        assert solve(cut, within_known_cards=True).score == best
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_deal_558_can_only_stack_its_last_card():
    # No 24 (budget 16 is ruled out); a 23 has a card to spare, and of its last
    # three cards only the 17th can be the stacked one: the first 16 fill the grid.
    ranks = [c >> 2 for c in deal_deck(558)]
    assert tail_patterns(ranks[13:16], ranks[:13], 4, 4, 0, every=True)[0] == 0
    patterns, _ = tail_patterns(ranks[14:17], ranks[:14], 4, 4, 1, every=True)
    assert patterns == 1 << 0b100
    # stopped at the first way back, every pattern with at most one stack is reported
    assert tail_patterns(ranks[14:17], ranks[:14], 4, 4, 1)[0] == sum(1 << p for p in range(8) if p.bit_count() <= 1)


def test_deal_24_has_no_23_by_its_last_three_cards_and_its_22_is_proved():
    # The 15th to 17th cards (indexes 14 to 16) are TH AC 9S, and TC is the only other ten before them: the ace
    # flips both of its lines wherever it goes, and neither the ten before it nor
    # the nine after it can turn enough cards back.
    ranks = [c >> 2 for c in deal_deck(24)]
    assert tail_can_end(ranks[14:17], ranks[:14], 4, 4, 1)[0] is False
    # with a second ten among the earlier cards, the same tail is possible
    assert tail_can_end(ranks[14:17], ranks[:13] + [10], 4, 4, 1)[0] is True
    sol = solve_deal(24, max_nodes=400_000)
    assert sol.status == SOLVED and sol.score == 22
    assert replay(Game.from_deal(24), sol.moves).score == 22


def test_a_tail_of_the_first_cards_of_a_24_is_possible():
    ranks = [c >> 2 for c in deal_deck(0)]
    ok, steps = tail_can_end(ranks[13:16], ranks[:13], 4, 4, 0)
    assert ok and steps >= 3
    assert solve_deal(0).score == 24


def test_limits_raise_with_the_steps_searched():
    ranks = [c >> 2 for c in deal_deck(174)]
    with pytest.raises(TailLimit) as info:
        tail_can_end(ranks[14:17], ranks[:14], 4, 4, 1, max_nodes=50)
    assert info.value.steps == 50
    with pytest.raises(TailLimit):
        tail_can_end(ranks[14:17], ranks[:14], 4, 4, 1, deadline=0.0)


def test_an_empty_tail_ends_anything():
    assert tail_can_end([], [1, 2, 3], 4, 4, 0) == (True, 0)


def test_a_one_card_tail_with_no_earlier_card_is_answered():
    # no earlier card can be a top card, so the other 15 piles of the grid cannot exist
    assert tail_can_end([5], [], 4, 4, 0)[0] is False


@pytest.mark.slow  # a deep search (5 s): a node count the slow step checks
def test_deal_720_is_solved_within_400000_positions_with_the_stack_patterns():
    # Its 22 stacks its last two cards (the only possible pattern of its last
    # three): the forward search drops every line that stacks a card before
    # them, which more than halves its positions.
    sol = solve_deal(720, max_nodes=400_000)
    assert sol.status == SOLVED and sol.score == 22
    game = replay(Game.from_deal(720), sol.moves)
    assert game.score == 22
    assert len(replay(Game.from_deal(720), sol.moves[:16]).grid) == 16  # the first 16 cards fill the grid
