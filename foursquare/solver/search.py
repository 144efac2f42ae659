"""The perfect-information solver: how well can a deal be played when the stock order is known?

Given a position and the order of the cards still to come, :func:`solve` finds a
win that uses the fewest cards — the highest score (RULES.md §5: the cards left
in the stock) — or proves that no win exists.  It is engine-level: no I/O, no
Click; it never changes the :class:`~foursquare.engine.game.Game` it is given.

Three outcomes are kept apart (:class:`Solution`): ``solved`` (a proved-optimal
score and the moves that reach it), ``no-win`` (proved: no order of placements
wins with the known cards) and ``unknown`` (the node or time limit ran out;
:attr:`Solution.max_score` then bounds the score from above).

How it works
------------
Depth-first search with iterative deepening on the number of cards used: first
try to win with exactly the cards needed to fill the grid (score 24 from the
start), then one more, and so on.  The search keeps its own compact board
(bit masks and flat lists, make/unmake) and prunes with admissible lower bounds on the cards
still needed:

- every empty cell of the final 4×4 grid needs a new pile: ``16 - piles`` cards;
- *line parity*: a card placed on a new pile flips every other pile of its row
  (or none of them), so every pile of a row is flipped by the same future
  placements in that row, and likewise for columns.  With R(row) and C(column)
  the parities of the future row and column flips, a pile that stays uncovered
  ends face up only if ``R(row) + C(column) = 1`` exactly when it is face down
  now; a line with no empty cell left gets no new pile, so its parity is 0
  unless a card is stacked in it.  When this parity system has no solution, at
  least one card must be stacked (covering a pile frees its equation and the
  parities of its two lines); when no single such cell helps, at least two.
- *forced lines*: with no card to spare, a line in which every card still to come
  would flip (none can find face-up cards ranked at most and at least its own
  there) is flipped by each card it gets, so its parity is the number of cards it
  still gets (``n`` minus its piles), no longer free; the parity system must still
  have a solution (see :func:`~foursquare.solver.bounds.forced_lines_search`).  With one card to spare,
  the same holds for some pile the spare card covers.  Late aces and tens make such lines.

Every smaller budget has failed before a budget K is tried, so a win found
with budget K ends with card K - 1.  Its rank alone can rule the budget out
(*last card*): the last card's lines hold n - 1 other piles each and must end
face up, so one of its lines does not flip, which needs face-up cards ranked
at most and at least its rank in that line (a tie counts) — when no card
that can be on top then (a top card now, or a card before the last) qualifies,
budget K is skipped without search.  (A deal whose 16th card is the only ace
of the first 16 has no score-24 win.)  *Last two cards*: when both make new
piles and the second-to-last is ranked strictly beyond every top card it can
meet, it flips both its lines, and the face-down cards that this needs just
before it exceed the limit (see :func:`~foursquare.solver.bounds.two_last_rule_out`).  Both rules are
checked again after each stacked card, since the covered card is no longer a
top card.  With one card to spare (slack 1) the last-two rule still holds when
the last card, too, lies outside every top card's rank span (the last card would
then have to cover the second-to-last: see :func:`~foursquare.solver.bounds.two_last_cut`).

*Last three cards*: before each budget, :mod:`foursquare.solver.lastcards` undoes the
last three placements of a win from its known end (a full grid, every card face
up), with the face-down limit after each and what the flips say about the ranks
of the top cards placed before them; when no way back exists, the budget is
skipped without search.  (Deal 24 has no 23: ``TH AC 9S`` are its 15th to 17th
cards, and ``TC`` is the only other ten.)  This rule settles most deals whose best
score is below 24, which the forward search alone could not.  With cards to
spare, the same backward search says which of the last three cards can be the
stacked ones (*stack patterns*); the forward search then drops every line that
stacks a card where no pattern allows it.  (Deal 546's best win stacks its last
two cards, so its first 16 must fill the grid: a quarter of the positions.)  With
exactly one card to spare the last four cards are undone first, within a step
budget: deal 325's 23 must stack its 15th card.  When the only pattern stacks the
last one or two cards, the cards before them fill the grid, and their forced lines
count (:func:`~foursquare.solver.bounds.last_stacked_fail`).

A transposition table keyed on the layout up to translation (with the frame's
remaining room when the frame binds) and the number of cards placed records
the card budgets with which positions are known to fail.  Ranks enter the key
by *class*: a top card is only ever compared with the cards still to come, so
two ranks with the same order relative to every rank still to come are
interchangeable; with no card to spare (nothing stacked from here on) the pile
heights are left out too.  Each entry also records its *work*, the positions its
search took; when the table is full, the half that took the least work goes
(:func:`tt_make_room`), rather than the whole table.  From an
empty board the first card goes to the centre (every game is a translation of
one that does) and mirror images of layouts that lie on the middle row or
column are searched once.

A rule set whose grid holds fewer cards than the deck can run out of room
(RULES.md §5 point 4): the position with every pile full is lost, a dead end,
and no budget beyond the grid's room is tried.

Only the standard flip mechanics are supported (face-up comparison, blocking
ties, no self-flip, edge adjacency); grid size, pile cap, face-down limit, the
deck and a fixed board may vary.

Where each part lives
---------------------
:mod:`foursquare.solver.board` (the compact position), :mod:`foursquare.solver.bounds`
(line parity, forced lines, last two cards), :mod:`foursquare.solver.lastcards` (last
three cards, stack patterns), this module (iterative deepening, the last-card rule, move
generation, the transposition key: :class:`Search`), :mod:`foursquare.solver.batch`
(many deals, in worker processes).  Each budget's search (:meth:`Search.search_budget`)
and the backward last-cards search run in the compiled core (``_core.c``) where it is
built, the exact twin of the Python here: the same positions in the same order, so the
same results and node counts (:mod:`foursquare.solver.core`).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence

from ..engine.arguments import check
from ..engine.cards import Card
from ..engine.frame import frame_tables
from ..engine.game import Game, Status
from ..engine.rules import STANDARD, Adjacency, Comparison, LayoutKind, Rules, Ties
from ..errors import ArgumentError, PositionError, wrong_argument
from . import core as _core_choice
from . import lastcards
from .board import Board
from .bounds import (
    FlagTable,
    PileMasks,
    forced_lines_flag_table,
    forced_lines_search,
    forced_lines_table,
    last_cards_rule,
    last_stacked_fail,
    parity_extra,
    two_last_cut,
)
from .lastcards import TailLimit, cached_tail_search, rank_classes, stack_pattern_rule, tail_key, tail_patterns
from .reference import solve_with_engine
from .solution import DEFAULT_MAX_NODES, NO_WIN, SOLVED, UNKNOWN, Outcome, Solution, ended

__all__ = [
    "DEFAULT_MAX_NODES", "NO_WIN", "SOLVED", "TAIL_CARDS", "TAIL_STEPS_ONE_MORE", "UNKNOWN", "Outcome", "Search", "Solution",
    "fast_rules", "solve", "solve_deal", "solve_deck",
]

#: How many last cards of a win :mod:`foursquare.solver.lastcards` undoes before each budget.
TAIL_CARDS = 3
#: With exactly one card to spare, one more last card is undone first (which of the
#: last four is the stacked one), within this many steps of the backward search (and
#: a tenth of the positions left); beyond them, the last :data:`TAIL_CARDS` only.
TAIL_STEPS_ONE_MORE = 100_000
#: The most positions the transposition table holds: when it holds this many and one
#: more is to be stored, the half that took the least work goes first
#: (:func:`tt_make_room`, both searches alike, so the node counts agree), which bounds
#: its memory on huge searches (docs/benchmarks.md).
TT_MAX_ENTRIES = 1 << 21
#: The fewest and the most bytes a search may be given (``memory``, ``--memory``): the
#: most is the cap of a process that the transposition table must stay within.
MEMORY_MIN, MEMORY_MAX = 160 << 20, 1 << 30
#: What a search's process holds besides its transposition table (the interpreter, the
#: engine, the other caches), taken out of ``memory`` first (docs/benchmarks.md).
MEMORY_RESERVE = 64 << 20


def tt_entries(memory: int, n: int = 4) -> int:
    """The most positions the transposition table of a search given ``memory`` bytes holds
    (its :attr:`Search.tt_max`), for an ``n`` by ``n`` grid: the compiled core's table of
    ``memory - MEMORY_RESERVE`` bytes, each position taking its key (``_core.c``:
    ``TT_WORDS(n)`` words of 8 bytes), its work (4 bytes) and its share of the slots
    (8 bytes each, a power of 2 of them, at most 3/4 used).  The pure-Python search holds
    as many positions, in more memory each.

    >>> tt_entries(MEMORY_MIN), tt_entries(MEMORY_MAX)
    (2396745, 25165824)
    """
    check("tt_entries", memory=memory)
    words = (30 + 2 * n * n + 63) // 64 + (n * n + 7) // 8
    table = memory - MEMORY_RESERVE
    best, slots = 1, 2048
    while 8 * slots < table:
        best = max(best, min(3 * slots // 4, (table - 8 * slots) // (8 * words + 4)))
        slots *= 2
    return best


#: The most work a table entry records (32 bits in the compiled core): more counts as this.
TT_WORK_MAX = (1 << 32) - 1


def tt_make_room(tt: dict[tuple[int, ...], int]) -> None:
    """The transposition table's replacement policy, when it is full: keep the ``len(tt) // 2``
    entries whose search took the most positions (the values: their *work*, what a hit
    saves), the newer first among equal work, and halve their work (*aging*: an entry
    kept long ago gives way in time to newer ones that took less); the kept stay in their
    order (the oldest first), and the rest go.  The compiled core keeps the same ones
    (``_core.c``: ``tt_make_room``), so the node counts agree.  Against emptying the full
    table, deal 1209 takes 16 % fewer positions (docs/benchmarks.md).

    >>> tt = {(1,): 5, (2,): 1, (3,): 9, (4,): 1, (5,): 5}
    >>> tt_make_room(tt)
    >>> tt
    {(3,): 4, (5,): 2}
    """
    items = list(tt.items())
    ranked = sorted(range(len(items)), key=lambda i: (items[i][1], i))  # least work first, then the oldest
    kept = sorted(ranked[len(items) - len(items) // 2 :])
    tt.clear()
    tt.update((items[i][0], items[i][1] >> 1) for i in kept)


@functools.cache
def _windows(F: int, n: int, floating: bool) -> tuple[list[list[int]], list[list[int]]]:
    """Where a new pile may go, by the piles' box (rows ``r0 .. r1``, columns alike): the
    masks ``[r0][r1]`` of the rows, and of the columns, of the box grown by one line each
    way unless it spans ``n`` lines (within the frame ``F`` wide); of a floating layout's
    middle line, one side only (mirror images are searched once)."""
    frame = frame_tables(F)
    mid = n - 1

    def window(band: list[list[int]], a: int, b: int) -> int:
        return band[a][b] if b - a >= mid else band[max(a - 1, 0)][mid if floating and a == b == mid else min(b + 1, F - 1)]

    rows, cols = ([[window(band, a, b) for b in range(F)] for a in range(F)] for band in (frame.rows_band, frame.cols_band))
    return rows, cols


class _Limit(Exception):
    """Raised inside the search when the node or time limit runs out."""


def fast_rules(rules: Rules) -> bool:
    """Whether :class:`Search` supports the rule set: the standard flip and adjacency
    rules (RULES.md §4, §8: face-up comparison, blocking ties, no self-flip, edge
    adjacency; any size, pile cap, face-down limit, deck and layout).  Other rule sets
    are solved by :mod:`foursquare.solver.reference` on the engine itself."""
    return rules.comparison is Comparison.FACE_UP and rules.ties is Ties.BLOCK and not rules.self_flip and rules.adjacency is Adjacency.EDGE


def solve(
    game: Game,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    within_known_cards: bool = False,
    score_at_most: int | None = None,
    memory: int | None = None,
) -> Solution:
    """Solve a game from its current position, knowing the whole stock order.

    :param game: a :class:`~foursquare.engine.game.Game`; its known deck (``game.deck``)
        is the stock order.  When the deck is a prefix, wins within the known cards
        are looked for: one found is optimal (a shorter win would use known cards
        only); when there is none, the answer is ``unknown`` (the cards after the
        prefix are not known), with ``max_score`` the best a later win could score.
        The game is not changed.
    :param within_known_cards: answer the narrower question "is there a win using
        only the known cards?": ``no-win`` then means none with these cards.
    :param max_nodes: the most positions to search (``None``: no limit).
    :param timeout: the most wall-clock seconds to spend (``None``: no limit).
    :param score_at_most: a bound on the best score that the caller knows to hold,
        such as the :attr:`~Solution.max_score` of the position before the last move
        (a move never raises the best score: the position's wins are among its
        parent's).  The budgets that would score more are not searched, so the answer
        is the same with fewer positions, provided the bound is true (``None``: none).
    :param memory: the bytes the search may use, from :data:`MEMORY_MIN` (160 MiB: at least the default table) to
        :data:`MEMORY_MAX` (1 GiB): its transposition table holds :func:`tt_entries`
        positions (``None``: :data:`TT_MAX_ENTRIES`, a process of about 110 MB).  A larger table may
        take fewer positions on a long search, and more time per position.
    :returns: a :class:`Solution`; its moves start from the game's position.
    :raises PositionError: for a game whose next card is unknown; ArgumentError for an argument of another type.

    Rule sets with other flip or adjacency rules (RULES.md §8) are searched by the plain engine-based
    solver (:func:`foursquare.solver.reference.solve_with_engine`): the same answers, much slower.
    """
    if not isinstance(game, Game):  # a view hides the stock's order, which the solver needs (RULES.md §6)
        raise wrong_argument("solve", "game", "a Game (the solver needs the stock's order, which a view hides)", game)
    check(
        "solve", max_nodes=max_nodes, timeout=timeout, within_known_cards=within_known_cards, score_at_most=score_at_most,
        memory=memory,
    )
    start = time.perf_counter()
    rules = game.rules
    total = rules.deck_size
    fewest = 0 if score_at_most is None else total - score_at_most  # the fewest cards a win can use
    if game.is_over:  # won: its score, proved; lost: no win
        return ended(SOLVED if game.status is Status.WON else NO_WIN, total - (game.score or 0), (), 0, start, total)
    deck, t0 = game.deck, game.placed
    if t0 >= len(deck):
        raise PositionError("the next card is unknown: the solver needs the stock order")
    if fast_rules(rules):
        search = Search(Board(game), [c >> 2 for c in deck], t0, max_nodes, timeout, start)
        if memory is not None:
            search.tt_max = tt_entries(memory, rules.size)
        sol = run_search(search, start, fewest)
    else:  # (the reference search's table has a cap of its own, reference.TABLE_MAX_ENTRIES)
        sol = ended(*solve_with_engine(game, max_nodes=max_nodes, timeout=timeout, fewest_cards=fewest), start, total)
    return sol if within_known_cards else within_known_cards_only(sol, len(deck), rules)


def run_search(search: Search, start: float, fewest_cards: int = 0) -> Solution:
    """Run ``search`` (:meth:`Search.run`) and say what it found as a :class:`Solution`
    (its moves as cells of the search's board; ``start``: the :func:`time.perf_counter`
    time its seconds count from)."""
    status, cards, path = search.run(fewest_cards)
    return ended(status, cards, tuple(search.b.frame.to_cell[q] for q in path), search.nodes, start, search.b.rules.deck_size)


def within_known_cards_only(sol: Solution, known: int, rules: Rules) -> Solution:
    """``sol`` for a position whose first ``known`` cards of the deck are known: a
    ``no-win`` with fewer than the whole deck known becomes ``unknown``, bounded by the
    score of a win on the first unknown card: it proves nothing about the cards after them."""
    if sol.status is not NO_WIN or known >= rules.deck_size:
        return sol
    best = min(rules.deck_size - known - 1, rules.deck_size - rules.size * rules.size)
    return Solution(UNKNOWN, None, (), sol.nodes, sol.seconds, best, unknown_cards=True)


def solve_deck(
    deck: Sequence[Card | str],
    rules: Rules | str = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    within_known_cards: bool = False,
    memory: int | None = None,
) -> Solution:
    """Solve a game from the start with a known card order (top first).

    :param deck: the stock, top first (40 cards, or a prefix: see :func:`solve`).
    :raises ParseError, ValueError: for a deck the engine rejects; :class:`~foursquare.errors.PositionError` as :func:`solve`.
    """
    return solve(Game(deck, rules), max_nodes=max_nodes, timeout=timeout, within_known_cards=within_known_cards, memory=memory)


def solve_deal(
    deal: int,
    rules: Rules | str = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    memory: int | None = None,
) -> Solution:
    """Solve deal number ``deal`` (RULES.md §2) from the start; see :func:`solve`."""
    return solve(Game.from_deal(deal, rules), max_nodes=max_nodes, timeout=timeout, memory=memory)


class Search:
    """Iterative deepening on the number of cards used, with make/unmake on a :class:`~foursquare.solver.board.Board`.

    :param board: the position (changed during the search, restored after it).
    :param ranks: the ranks of the known deck, top first (card ``t`` is the ``t``-th card drawn).
    :param t0: the cards placed so far: card ``t0`` is the next one.
    :param max_nodes: the most positions to search (``None``: no limit).
    :param timeout: the most seconds from ``start`` (``None``: no limit).
    :param start: a :func:`time.perf_counter` time.
    :param compiled: run each budget's search in the compiled core
        (:mod:`foursquare.solver.core`); ``None``: when it is built and not switched
        off (``FOURSQUARE_PURE_PYTHON``).  Either way the results and node counts are
        the same.  Frames the core does not take (:func:`~foursquare.solver.core.fits`)
        are searched in Python.
    :raises ArgumentError: for ``compiled=True`` where the core is not built.
    :ivar nodes: positions searched so far (with the steps of the last-cards search).
    :ivar tt_max: the most positions in the transposition table (:data:`TT_MAX_ENTRIES`;
        set it before :meth:`run`: :func:`tt_entries` says how many fit in some memory).
    """

    def __init__(
        self, board: Board, ranks: list[int], t0: int, max_nodes: int | None, timeout: float | None, start: float,
        compiled: bool | None = None,
    ) -> None:
        if compiled and _core_choice.CORE is None:
            raise ArgumentError("the compiled search core is not built (or FOURSQUARE_PURE_PYTHON is set)")
        core = _core_choice.CORE if compiled is not False else None
        self.core = core if core is not None and _core_choice.fits(board.F, board.n, board.cap) else None
        self.b = board
        self.ranks = ranks
        self.t0 = t0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.deadline = start + timeout if timeout is not None else None
        self.nodes = 0
        self.tt: dict[tuple[int, ...], int] = {}
        self.tt_max = TT_MAX_ENTRIES

    def run(self, fewest_cards: int = 0) -> tuple[Outcome, int, list[int]]:
        """Try the budgets in turn: ``(outcome, cards used by the best win or the first
        budget not ruled out, the win's path of board indices)``.

        :param fewest_cards: the fewest cards (counted from the deal's first) a win can
            use, known to the caller (see :func:`solve`'s ``score_at_most``): the budgets
            below it are not searched, as if they had failed.
        """
        b = self.b
        n2 = b.n * b.n
        first = self.t0 + (n2 - b.p) + parity_extra(b.om, b.dm, b.fm, b.F, b.n, 2)
        path: list[int] = []
        last = len(self.ranks)
        if b.rules.can_run_out_of_room:
            last = min(last, b.rules.room)  # a win needs a legal cell for each card (RULES.md §5 point 4)
        for K in range(max(first, fewest_cards), last + 1):
            if not self.last_card_can_end(K) or not self.last_two_can_end(K):
                continue
            self.tt.clear()  # entries of a smaller budget never answer for this one
            try:
                pats = self.tail_patterns(K)
                if not pats[0]:
                    continue
                found = self.search_budget(K, path, pats)
            except _Limit:
                return UNKNOWN, K, []
            if found:
                return SOLVED, self.t0 + len(path), path
        return NO_WIN, len(self.ranks), []

    def last_card_can_end(self, K: int) -> bool:
        """The *last card* rule: whether a win whose last card is card ``K - 1`` is not ruled out by ranks alone.

        Every smaller budget has failed before budget ``K`` is tried, so a win found
        now uses exactly ``K`` cards and ends with card ``K - 1`` (rank x) at some
        cell e of the full grid.  Each line through e then holds ``n - 1`` other
        piles, and D = 0 after the move: a line that flips must have had all its
        other piles face down, a line that does not flip must have had them all face
        up with x between their lowest and highest rank (a tie counts).  Both lines
        flipping would need ``2(n - 1)`` face-down piles before the move, more than
        the limit allows (when it does).  So one line through e has face-up top
        cards ranked <= x and >= x: top cards that are either on the grid now or
        among cards ``t0 .. K - 2``.  When no such card exists, budget ``K`` fails.
        """
        b = self.b
        last = K - 1
        if last < self.t0 or 2 * (b.n - 1) <= b.limit:
            return True
        x = self.ranks[last]
        pool = self.ranks[self.t0 : last] + [b.rk[q] for q in range(len(b.h)) if b.h[q]]
        return any(v <= x for v in pool) and any(v >= x for v in pool)

    def tail_patterns(self, K: int) -> tuple[int, int]:
        """The *last three cards* rule and the *stack patterns*: the patterns of the last
        :data:`TAIL_CARDS` cards (one more, when that search ends within
        :data:`TAIL_STEPS_ONE_MORE` steps, with exactly one card to spare) with which a
        win of exactly ``K`` cards can end, as ``(set, k)``: see
        :func:`foursquare.solver.lastcards.tail_patterns`; an empty set (0) rules budget
        ``K`` out.  The steps of that backward search count as positions searched.

        :raises _Limit: when the node or time limit runs out.
        """
        b = self.b
        slack = K - self.t0 - (b.n * b.n - b.p)
        k = min(TAIL_CARDS, K - self.t0, K - 1)
        if k < 1:
            return 1, 0
        if slack == 1 and k < min(K - self.t0, K - 1):
            # Deal 325's 23: the last three allow any one stacked card, the last four only the 15th.
            # (never more than a tenth of the positions left: under a low limit it would use them all)
            pats = self._tail_search(K, k + 1, slack, min(TAIL_STEPS_ONE_MORE, (self.max_nodes - self.nodes) // 10))
            if pats is not None:
                return pats, k + 1
        found = self._tail_search(K, k, slack, None)
        assert found is not None  # without a cap, the search answers or raises
        return found, k

    def _tail_search(self, K: int, k: int, slack: int, cap: int | None) -> int | None:
        """:func:`foursquare.solver.lastcards.tail_patterns` for the last ``k`` of ``K`` cards, in
        at most ``cap`` steps (``None``: the search's own limits); ``None`` when over ``cap``.
        Answered from :data:`~foursquare.solver.lastcards.TAIL_CACHE` where it can be, with
        the same result and steps (:func:`~foursquare.solver.lastcards.cached_tail_search`).

        :raises _Limit: when the node or time limit runs out.
        """
        b = self.b
        T = K - k
        tail = self.ranks[T:K]
        earlier = [b.rk[q] for q in range(len(b.h)) if b.h[q]] + self.ranks[self.t0 : T]
        left = self.max_nodes - self.nodes
        allowed = left if cap is None else min(cap, left)

        def run() -> tuple[bool, int, int]:
            if self.core is not None:
                stopped, pats, steps = self.core.tail_patterns(
                    tail, earlier, b.n, b.limit, slack, allowed, -1.0 if self.deadline is None else self.deadline, True,
                    lastcards.TAIL_MEMO_MAX,
                )
                return bool(stopped), int(pats), int(steps)
            try:
                pats, steps = tail_patterns(
                    tail, earlier, b.n, b.limit, slack, max_nodes=allowed, deadline=self.deadline, every=True,
                    memo_max=lastcards.TAIL_MEMO_MAX,
                )
            except TailLimit as e:
                return True, 0, e.steps
            return False, pats, steps

        key = (*tail_key(tail, earlier, b.n * b.n), b.n, b.limit, slack, self.core is not None)
        over, pats, steps = cached_tail_search(key, allowed, self.deadline, run)
        self.nodes += steps
        if over:
            if cap is None or self.nodes >= self.max_nodes or (self.deadline is not None and time.perf_counter() > self.deadline):
                raise _Limit
            return None
        return pats

    def last_two_can_end(self, K: int) -> bool:
        """The *last two cards* rule: whether a win with exactly ``K`` cards is not ruled out by its last two cards.

        Only when every card from now on makes a new pile (``K`` cards exactly fill
        the empty cells, or with one to spare) and the face-down limit is below
        ``2n - 3``; see :func:`~foursquare.solver.bounds.two_last_cut`.
        """
        b = self.b
        n = b.n
        slack = K - self.t0 - (n * n - b.p)
        if slack not in (0, 1) or K - 2 < self.t0:
            return True
        pool = [b.rk[q] for q in range(len(b.h)) if b.h[q]] + self.ranks[self.t0 : K - 2]  # the tops now, the cards before the last two
        lo = min(pool, default=99)
        hi = max(pool, default=0)
        return not two_last_cut(self.ranks[K - 2], self.ranks[K - 1], lo, hi, n, b.limit, slack)

    def search_budget(self, K: int, path: list[int], pats: tuple[int, int] = (1, 0)) -> bool:  # noqa: C901 — its count is that of dfs, nested for speed (closures over the tables below); mirrored in _core.c's search_budget
        """Depth-first search for a win with exactly ``K`` cards from the board's position.

        ``pats``: the stack patterns of :meth:`tail_patterns`.  On success the win's
        board indices are in ``path`` (cleared first) and the result is True.

        Each position (:func:`dfs` below) goes through the steps of the module
        docstring: the node count and limits; move generation (RULES.md §3: a new
        pile next to one, within the grid's box, or a card stacked on a pile not
        full; the first card to the centre, mirror images once); the flips and the
        face-down count of each move (RULES.md §4, §5), fewest face-down first with
        no card to spare; then, after each move, the bounds in turn: the stack
        patterns, line parity, last cards after a stacked card, forced lines, and the
        transposition table.

        :raises _Limit: when the node or time limit runs out.
        """
        b = self.b
        if self.core is not None:  # in the compiled core (foursquare/solver/_core.c, the same search)
            found, self.nodes, moves = self.core.search_budget(
                b.F, b.n, b.cap, b.limit, b.rules.room if b.rules.can_run_out_of_room else -1,
                int(b.rules.layout is LayoutKind.FLOATING), b.h, b.rk, b.p, b.down, b.box, b.om, b.dm, self.ranks, self.t0,
                K, pats[0], pats[1], self.nodes, self.max_nodes, -1.0 if self.deadline is None else self.deadline, self.tt_max,
            )
            if found < 0:
                raise _Limit
            path[:] = moves
            return bool(found == 1)
        F = b.F
        n = b.n
        n2 = n * n
        cap = b.cap
        limit = b.limit
        h, rk = b.h, b.rk  # pile height and top rank by board index (0: empty)
        ranks = self.ranks
        last = len(ranks)
        # Cards placed when every pile is full: no legal cell is left, the game is lost
        # (RULES.md §5 point 4), a dead end; -1 when the rules cannot get there.
        room = b.rules.room if b.rules.can_run_out_of_room else -1
        tt = self.tt
        tt_max = self.tt_max
        floating = b.rules.layout is LayoutKind.FLOATING
        centre = (n - 1) * (F + 1)  # the middle cell of a floating frame (2n-1 wide)
        above_centre_bit = 1 << (centre - F)
        max_nodes = self.max_nodes
        deadline = self.deadline
        perf = time.perf_counter
        # Bit masks over the frame (bit row*F + column): a line's other cells, bands of rows and columns.
        frame = b.frame
        row_o, col_o, rows_band, cols_band = frame.row_mask, frame.col_mask, frame.rows_band, frame.cols_band
        row_win, col_win = _windows(F, n, floating)
        every = frame.every
        not_col0 = every & ~cols_band[0][0]
        not_colz = every & ~cols_band[F - 1][F - 1]
        # Top cards by rank (rm[v]: the piles whose top card has rank v, ranks below top),
        # piles by height (hm[k]: the piles of k cards or more, up to cap + 1), and the
        # lowest and highest top card of each row and column (0, 0 for a line with no pile,
        # for the forced-lines test), kept up to date by make/unmake.
        top = max(ranks + rk) + 2
        rm = [0] * top
        hm = [0] * (cap + 2)
        lo_r, hi_r, lo_c, hi_c = [0] * F, [0] * F, [0] * F, [0] * F
        for q, height in enumerate(h):
            if height:
                rm[rk[q]] |= 1 << q
                for k in range(1, height + 1):
                    hm[k] |= 1 << q
                for lo_l, hi_l, i in ((lo_r, hi_r, q // F), (lo_c, hi_c, q % F)):
                    lo_l[i] = min(lo_l[i] or top, rk[q])
                    hi_l[i] = max(hi_l[i], rk[q])

        # The transposition key groups ranks by class (see rank_classes): runs of ranks
        # of one class, by the number of cards placed (made when first needed).
        @functools.cache
        def rank_runs(t: int) -> list[tuple[int, ...]]:
            classes = rank_classes(ranks[t:K], max(ranks) + 2)  # a pile meets cards t .. K - 1 only
            # the ranks 0 .. top - 1 in runs of one class each (classes are monotone), lowest first
            return [tuple(run) for _, run in itertools.groupby(range(top), classes.__getitem__)]

        last_cards_rule_out = last_cards_rule(ranks, self.t0, K, n, limit, rm, top)

        # Stack patterns of the last kt cards (lastcards.stack_pattern_rule); positions in
        # the tail are keyed with their pattern so far (tail_key).
        kt = pats[1]
        spare = K - self.t0 - (n2 - b.p)  # the cards to spare: stacked cards of the win
        pat_rule, tail_start, ok_before_tail, ok_in_tail = stack_pattern_rule(pats, K, spare, last)
        stacked = [0] * (last + 1)  # stacked[t]: 1 when card t was stacked on a pile

        # forced_lines_flag_table by cards placed, made when first needed: of the cards up to
        # K, and of the cards that fill the grid before the last `last_stacked` when the one
        # stack pattern stacks those (1 or 2: bounds.last_stacked_fail)
        only_last = pat_rule and 0 < spare <= min(2, kt) and cap >= 2 and pats[0] == 1 << (((1 << spare) - 1) << (kt - spare))
        last_stacked = spare if only_last else 0

        @functools.cache
        def flag_table(t: int, end: int) -> FlagTable:
            return forced_lines_flag_table(forced_lines_table(ranks, t, end, top), n, top)

        def line_flags(ft: list[list[int]], om2: int, R0: int, R1: int, C0: int, C1: int) -> int:
            """Each line's two forced-lines bits, from a flag table's ``[k][lo * top + hi]``."""
            flags = 0
            for i in range(R0, R1 + 1):
                flags = flags << 2 | ft[n - (om2 & rows_band[i][i]).bit_count()][lo_r[i] * top + hi_r[i]]
            for i in range(C0, C1 + 1):
                flags = flags << 2 | ft[n - (om2 & cols_band[i][i]).bit_count()][lo_c[i] * top + hi_c[i]]
            return flags

        def dfs(t: int, piles: int, down: int, r0: int, r1: int, c0: int, c1: int, om: int, dm: int) -> bool:  # noqa: C901, PLR0912, PLR0913 — the search's inner loop, mirrored line for line in _core.c's dfs; split, it would be slower and no longer a twin
            """Whether cards ``t ..`` can win within ``K`` cards from this position:
            ``piles`` piles, ``down`` face-down top cards, the piles' box, ``om`` the
            piles and ``dm`` the face-down top cards as masks (the rest in h, rk, rm, hm)."""
            # -- the node count and the limits
            if self.nodes >= max_nodes:
                raise _Limit  # the limit is the most positions searched: never one more
            self.nodes += 1
            if deadline is not None and not self.nodes & 63 and perf() > deadline:
                raise _Limit
            x = ranks[t]  # the rank of the card to place
            can_stack = t + 1 + n2 - piles <= K  # a card to spare for stacking
            # -- move generation (RULES.md §3): the cells the card may go to
            if piles == 0:
                cells = (1 << centre) if floating else every
            else:
                # new piles: empty cells next to a pile (edge adjacency), inside the window (_windows)
                cells = ((om << 1) & not_col0 | (om >> 1) & not_colz | om << F | om >> F) & ~om & row_win[r0][r1] & col_win[c0][c1]
                if can_stack and (not pat_rule or t >= tail_start or ok_before_tail[t + 1][K - t - (n2 - piles) - 1]):
                    cells |= om & ~hm[cap]  # stacked on a pile not full (unless no stack pattern lets this card be stacked)
                if floating and piles == 1 and om >> centre == 1:
                    cells &= ~above_centre_bit  # the diagonal mirror of the cell to the left
            # -- the flips of each move (RULES.md §4): a line flips unless it holds face-up
            # top cards ranked at most x and at least x (a tie blocks)
            up = om & ~dm
            below = 0  # the piles ranked below x
            for v in range(1, x):
                below |= rm[v]
            up_at_most = (below | rm[x]) & up
            up_at_least = up & ~below
            t1 = t + 1
            children = []
            while cells:
                cell_bit = cells & -cells
                cells ^= cell_bit
                q = cell_bit.bit_length() - 1
                # the face-down count after the move: most children go over the
                # face-down limit (RULES.md §5) and are dropped right here
                down_after = down - 1 if dm & cell_bit else down
                flipped = 0
                line = row_o[q] & om
                if line and not (line & up_at_most and line & up_at_least):
                    flipped = line
                    down_after += line.bit_count() - 2 * (line & dm).bit_count()
                line = col_o[q] & om
                if line and not (line & up_at_most and line & up_at_least):
                    flipped |= line
                    down_after += line.bit_count() - 2 * (line & dm).bit_count()
                if down_after <= limit:
                    children.append((down_after, q, cell_bit, flipped))
            if not can_stack:
                children.sort()  # no card to spare: fewest face-down cards first (see the module notes)
            for down_after, q, cell_bit, flipped in children:
                # -- make the move
                height = h[q]
                covered_rank = rk[q]
                piles_after = piles
                R0, R1, C0, C1 = r0, r1, c0, c1
                r, c = divmod(q, F)
                saved_spans = lo_r[r], hi_r[r], lo_c[c], hi_c[c]
                if height == 0:  # a new pile: its lines' rank spans and the box grow
                    piles_after += 1
                    slr, shr, slc, shc = saved_spans  # 0, 0 for a line with no pile
                    lo_r[r] = x if x < slr or not slr else slr
                    hi_r[r] = x if x > shr else shr
                    lo_c[c] = x if x < slc or not slc else slc
                    hi_c[c] = x if x > shc else shc
                    R0, R1 = (r if r < R0 else R0), (r if r > R1 else R1)
                    C0, C1 = (c if c < C0 else C0), (c if c > C1 else C1)
                else:
                    rm[covered_rank] ^= cell_bit
                rm[x] |= cell_bit
                om2 = om | cell_bit
                dm2 = (dm & ~cell_bit) ^ flipped
                h[q] = height + 1
                hm[height + 1] |= cell_bit
                rk[q] = x
                if height:  # the covered card may have been its lines' lowest or highest
                    ranks_in_line = [v for v in rk[r * F : r * F + F] if v]
                    lo_r[r] = min(ranks_in_line)
                    hi_r[r] = max(ranks_in_line)
                    ranks_in_line = [v for v in rk[c::F] if v]
                    lo_c[c] = min(ranks_in_line)
                    hi_c[c] = max(ranks_in_line)
                # -- a win (RULES.md §5: a full grid, every top card face up), or the bounds
                found = False
                found = piles_after == n2 and down_after == 0
                if not found and t1 < last and t1 != room:
                    slack = K - t1 - (n2 - piles_after)  # cards to spare: the budget's first bound
                    if slack >= 0:
                        go = True
                        tail_key = -1
                        if pat_rule:  # stack patterns (lastcards.tail_patterns)
                            stacked[t] = 1 if height else 0
                            if t1 <= tail_start:
                                go = ok_before_tail[t1][slack]
                            else:
                                pre = 0
                                for i in range(tail_start, t1):
                                    pre |= stacked[i] << (i - tail_start)
                                go = (t1 - tail_start, pre, slack) in ok_in_tail
                                tail_key = pre + (kt << 8)
                        s = R0 * F + C0  # the box's corner: keys are up to translation
                        if go and down_after and slack < 2:  # line parity (bounds.parity_extra, cached by the layout's shape)
                            go = parity_extra(om2 >> s, dm2 >> s, hm[cap] >> s, F, n, slack + 1) <= slack
                        if go and height and last_cards_rule_out(t1, slack):  # last cards, after a stacked card
                            go = False
                        if go and slack < 2:  # forced lines (bounds.forced_lines_search)
                            flags = line_flags(flag_table(t1, K)[slack], om2, R0, R1, C0, C1)
                            corner = PileMasks(om2 >> s, dm2 >> s, hm[cap] >> s if slack else 0, F, n, (0, R1 - R0, 0, C1 - C0))
                            go = not (flags and forced_lines_search(corner, slack, flags))
                        if go and last_stacked and slack == last_stacked and t1 <= K - last_stacked:
                            # the last cards are the stacked ones (bounds.last_stacked_fail)
                            flags = line_flags(flag_table(t1, K - last_stacked)[0], om2, R0, R1, C0, C1)
                            corner = PileMasks(om2 >> s, dm2 >> s, hm[cap] >> s, F, n, (0, R1 - R0, 0, C1 - C0))
                            go = not ((flags or slack > 1) and last_stacked_fail(corner, flags, slack))
                        if go and piles_after > 1:
                            # transposition table: the layout up to translation with ranks
                            # by class (see rank_classes), the frame's room, t1; with no card to
                            # spare (slack 0: no card is stacked from here on) the pile heights
                            # never matter again, only which cells hold a pile
                            room_c = n - 1 - C1 + C0
                            room_r = n - 1 - R1 + R0
                            key = [
                                t1, om2 >> s, dm2 >> s, min(C0, room_c), min(F - 1 - C1, room_c), min(R0, room_r), min(F - 1 - R1, room_r),
                            ]
                            for run in rank_runs(t1):
                                m = 0
                                for v in run:
                                    m |= rm[v]
                                key.append(m >> s)
                            # heights only matter through the room left on a pile (RULES.md §3:
                            # at most cap cards), and at most `slack` more cards are stacked
                            for k in range(max(2, cap + 1 - slack), cap + 1):
                                key.append(hm[k] >> s)
                            key.append(tail_key)
                            tkey = tuple(key)
                            if tkey not in tt:  # the table is this budget's: an entry failed with K cards
                                before = self.nodes
                                found = dfs(t1, piles_after, down_after, R0, R1, C0, C1, om2, dm2)
                                if not found:
                                    if len(tt) >= tt_max:
                                        tt_make_room(tt)  # full: the better half kept, as in the compiled core
                                    tt[tkey] = min(self.nodes - before, TT_WORK_MAX)
                        elif go:
                            found = dfs(t1, piles_after, down_after, R0, R1, C0, C1, om2, dm2)
                # -- unmake the move
                hm[height + 1] ^= cell_bit
                h[q] = height
                rk[q] = covered_rank
                lo_r[r], hi_r[r], lo_c[c], hi_c[c] = saved_spans
                rm[x] ^= cell_bit
                if height:
                    rm[covered_rank] |= cell_bit
                if found:
                    path.append(q)
                    return True
            return False

        r0, r1, c0, c1 = b.box
        path.clear()
        found = dfs(self.t0, b.p, b.down, r0, r1, c0, c1, b.om, b.dm)
        path.reverse()
        return found
