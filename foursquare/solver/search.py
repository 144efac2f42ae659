"""The perfect-information solver: how well can a deal be played when the stock order is known?

Given a position and the order of the cards still to come, :func:`solve` finds a
win that uses the fewest cards — the highest score (RULES.md §5: the cards left
in the stock) — or proves that no win exists.  It is engine-level: no I/O, no
Click; it never changes the :class:`~foursquare.game.Game` it is given.

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
  have a solution (see :func:`_forced_lines_fail`).  With one card to spare, once
  the grid's place is known, the same holds for some pile the spare card covers.
  Late aces and tens make such lines.

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
before it exceed the limit (see :func:`_two_last_rule_out`).  Both rules are
checked again after each stacked card, since the covered card is no longer a
top card.  With one card to spare (slack 1) the last-two rule still holds when
the last card, too, lies outside every top card's rank span (the last card would
then have to cover the second-to-last: see :func:`_two_last_cut`).

*Last three cards*: before each budget, :mod:`foursquare.lastcards` undoes the
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
budget: deal 325's 23 must stack its 15th card.

A transposition table keyed on the layout up to translation (with the frame's
remaining room when the frame binds) and the number of cards placed records
the card budgets with which positions are known to fail.  Ranks enter the key
by *class*: a top card is only ever compared with the cards still to come, so
two ranks with the same order relative to every rank still to come are
interchangeable; with no card to spare (nothing stacked from here on) the pile
heights are left out too.  From an
empty board the first card goes to the centre (every game is a translation of
one that does) and mirror images of layouts that lie on the middle row or
column are searched once.

Only the standard flip mechanics are supported (face-up comparison, blocking
ties, no self-flip, edge adjacency); grid size, pile cap, face-down limit, the
deck and a fixed board may vary.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.layout import CELLS, STRIDE, Cell
from ..engine.rules import STANDARD, Adjacency, Comparison, LayoutKind, Rules, Ties
from ..errors import FoursquareError
from .lastcards import TailLimit, rank_classes, tail_patterns

SOLVED = "solved"
NO_WIN = "no-win"
UNKNOWN = "unknown"

#: Default node limit of one solve: most deals need a few hundred positions; the
#: hardest of deals 0-999 (deal 325) needs 3.54 million; a search that uses it all
#: runs at 20,000 to 60,000 positions a second (so up to minutes).
#: Positions include the steps of the last-cards search (:mod:`foursquare.lastcards`).
DEFAULT_MAX_NODES = 4_000_000

#: How many last cards of a win :mod:`foursquare.lastcards` undoes before each budget.
TAIL_CARDS = 3
#: With exactly one card to spare, one more last card is undone first (which of the
#: last four is the stacked one), within this many steps of the backward search (and
#: a tenth of the positions left); beyond them, the last :data:`TAIL_CARDS` only.
TAIL_STEPS_ONE_MORE = 100_000


class SolverError(FoursquareError, ValueError):
    """The solver cannot work on this input (an unsupported rule set, an unknown next card)."""


@dataclass(frozen=True)
class Solution:
    """What the solver found for one position.

    :ivar status: ``solved`` (a win with the fewest cards, proved optimal),
        ``no-win`` (proved: no win exists with the known cards) or ``unknown``
        (a limit ran out first).
    :ivar score: the best score (cards left in the stock when the game is won),
        or ``None`` unless solved.
    :ivar moves: the cells of an optimal win from the position, in order
        (empty unless solved).
    :ivar nodes: positions searched (with the steps of the last-cards search).
    :ivar seconds: wall-clock time spent, in seconds.
    :ivar max_score: the highest score not yet ruled out: equal to ``score`` when
        solved, ``None`` when no win exists; for ``unknown`` every win scores at most this.
    :ivar unknown_cards: for ``unknown``: the known cards hold no win and the rest
        of the stock is not known (a deck prefix), rather than a limit running out.
    """

    status: str
    score: int | None
    moves: tuple[Cell, ...]
    nodes: int
    seconds: float
    max_score: int | None
    unknown_cards: bool = False

    @property
    def won(self) -> bool:
        """Whether a win exists (the status is ``solved``)."""
        return self.status == SOLVED

    @property
    def settled(self) -> bool:
        """Whether the question is answered (``solved`` or ``no-win``)."""
        return self.status != UNKNOWN


class _Limit(Exception):
    """Raised inside the search when the node or time limit runs out."""


def _fast_rules(rules: Rules) -> bool:
    """Whether the fast search supports the rule set: the standard flip and adjacency
    rules (any size, pile cap, face-down limit, deck and layout).  Other rule sets
    are solved by :mod:`foursquare.reference_solver` on the engine itself."""
    return rules.comparison is Comparison.FACE_UP and rules.ties is Ties.BLOCK and not rules.self_flip and rules.adjacency is Adjacency.EDGE


# Parity bound cache: (occupied, face-down, full piles, frame width, size, want) -> extra cards (0, 1, 2).
# It depends on the layout's shape only, so it is shared by every search.
_PARITY_CACHE: dict[tuple, int] = {}
_PARITY_CACHE_MAX = 2_000_000

#: Column 0 of a frame F wide, as a bit mask; shifted left by c for column c.
_COLUMN_MASKS = {F: sum(1 << (r * F) for r in range(F)) for F in range(1, 16)}


def _parity_window(om: int, dm: int, F: int, n: int, frows: int = 0, fcols: int = 0) -> bool:
    """:func:`_parity_consistent` for piles that lie in rows and columns ``0 .. n - 1``
    of a frame ``F`` wide (``frows``, ``fcols``: bit ``i`` for row or column ``i``).

    For each choice of the column parities (an ``n``-bit value), each row's parity is
    then forced (the value ``face down ^ column`` its piles share) or impossible; a
    table (:func:`_parity_rows_table`) gives, for each row, the column choices it
    accepts, and the system has a solution when some choice suits every row and
    leaves the fixed columns 0.
    """
    table, free = _parity_rows_table(n)
    lm = (1 << n) - 1
    ok = free[fcols & lm]
    every = lm
    nrows = 0
    for _ in range(n):
        o = om & lm
        if o:
            nrows += 1
            every &= o
            ok &= table[(o << n | dm & o) << 1 | (frows & 1 or o.bit_count() >= n)]
            if not ok:
                return False
        om >>= F
        dm >>= F
        frows >>= 1
    if nrows >= n:
        ok &= free[every]  # a column with a pile in each of the n rows is full
    return ok != 0


def _parity_consistent(om: int, dm: int, F: int, n: int, frows: int = 0, fcols: int = 0) -> bool:
    """Whether the line-parity system (see :func:`_parity_extra`) has a solution, on bit masks.

    ``om``, ``dm``: the piles and the face-down top cards (bit ``row*F + column``),
    which fit in ``n`` rows and ``n`` columns.  Full lines (``n`` piles; a full
    column has a pile in each of ``n`` rows) and the rows and columns of ``frows``
    and ``fcols`` (bit ``i`` for frame row or column ``i``) are fixed at 0.
    """
    if not om:
        return True
    r0, c0 = _window_origin(om, F)
    s = r0 * F + c0
    return _parity_window(om >> s, dm >> s, F, n, frows >> r0, fcols >> c0)


def _window_origin(om: int, F: int) -> tuple[int, int]:
    """The first row and the first column that hold a pile (``om`` not 0)."""
    r0 = ((om & -om).bit_length() - 1) // F
    lm = (1 << F) - 1
    cols = 0
    while om:
        cols |= om & lm
        om >>= F
    return r0, (cols & -cols).bit_length() - 1


@functools.lru_cache(maxsize=None)
def _parity_rows_table(n: int) -> tuple[list[int], list[int]]:
    """Tables for :func:`_parity_window` on ``n`` columns.

    ``rows[(o << n | d) << 1 | f]``: the column parities (an ``n``-bit value ``C``,
    as a set: bit ``C`` of the mask) with which a row holding piles ``o`` and
    face-down top cards ``d`` (``n``-bit masks, ``d`` within ``o``) can be
    satisfied: ``d ^ C`` is the same on every pile of the row (that value is the
    row's parity) and 0 when the row is fixed (``f``).  ``free[fixed]``: the column
    parities that leave the columns of ``fixed`` at 0.
    """
    size = 1 << n
    rows = [0] * (size * size * 2)
    for o in range(size):
        for d in range(size):
            for f in (0, 1):
                m = 0
                for c in range(size):
                    v = (d ^ c) & o
                    if not v or (not f and v == o):
                        m |= 1 << c
                rows[(o << n | d) << 1 | f] = m
    free = [sum(1 << c for c in range(size) if not c & fixed) for fixed in range(size)]
    return rows, free


def _parity_extra(om: int, dm: int, fm: int, F: int, n: int, want: int) -> int:
    """A lower bound on the cards that must be stacked (0, 1, or 2 when ``want`` is 2).

    ``om``, ``dm``, ``fm``: bit masks (bit ``row*F + column``) of the piles, the
    face-down top cards and the full piles.  See the module docstring.

    The system has a variable for each row and each column: for each pile,
    row + column = "face down" (mod 2), and a full line's variable is 0.  One
    stacked card on pile z (not full) frees z's equation and z's row and
    column, as if z were not on the grid; so one card can help exactly when the
    system without z has a solution.
    """
    if not om:
        return 0
    r0, c0 = _window_origin(om, F)
    s = r0 * F + c0
    om >>= s
    dm >>= s
    if _parity_window(om, dm, F, n):
        return 0
    if want < 2:
        return 1
    return 1 if _one_pile_frees(om, dm, om & ~(fm >> s), F, n) else 2


def _one_pile_frees(om: int, dm: int, candidates: int, F: int, n: int) -> bool:
    """Whether some pile of ``candidates`` frees the parity system (:func:`_parity_window`
    on ``om ^ z``, ``dm & ~z`` for that one pile z), for piles in rows ``0 .. n - 1``.

    Only z's row changes (and the columns with a pile in every row), so the rows'
    tables are looked up once, with the products of the rows before and after each row.
    """
    table, free = _parity_rows_table(n)
    lm = (1 << n) - 1
    every_choice = free[0]
    rows_o = []
    rows_t = []
    for r in range(n):
        o = om >> (r * F) & lm
        d = dm >> (r * F) & lm
        rows_o.append(o)
        rows_t.append(table[(o << n | d & o) << 1 | (o.bit_count() >= n)] if o else every_choice)
    before = [every_choice] * (n + 1)  # before[r]: the product of rows 0 .. r - 1; after[r]: rows r .. n - 1
    after = [every_choice] * (n + 1)
    before_o = [lm] * (n + 1)  # the same for the piles' columns (rows with no pile count as lm)
    after_o = [lm] * (n + 1)
    for r in range(n):
        before[r + 1] = before[r] & rows_t[r]
        before_o[r + 1] = before_o[r] & (rows_o[r] or lm)
        after[n - 1 - r] = after[n - r] & rows_t[n - 1 - r]
        after_o[n - 1 - r] = after_o[n - r] & (rows_o[n - 1 - r] or lm)
    all_rows = all(rows_o)
    while candidates:
        b = candidates & -candidates
        candidates ^= b
        r, c = divmod(b.bit_length() - 1, F)
        o = rows_o[r] & ~(1 << c)
        ok = before[r] & after[r + 1]
        if o:
            ok &= table[(o << n | (dm >> (r * F)) & o) << 1]  # a row of n - 1 piles or fewer: not full
            if all_rows:  # a column with a pile in each of the n rows is full
                ok &= free[before_o[r] & after_o[r + 1] & o]
        if ok:
            return True
    return False


def _two_last_rule_out(y: int, lo: int, hi: int, n: int, limit: int) -> bool:
    """Whether a win whose last two cards both make new piles is impossible because
    the second-to-last card (rank ``y``) is ranked strictly below or above every
    top card it can meet (ranks ``lo`` .. ``hi``).

    Such a card flips both of its lines (RULES.md §4: no face-up card can hold it
    in between or tie it).  Say it goes to e' and the last card to e, the only
    empty cells before it.  After it, just before the last card, every top card
    outside e's lines is face up and each line through e is all face up or all
    face down, not both face down when ``2(n - 1)`` exceeds the limit (see
    :meth:`_Search._last_card_can_end`).  Undoing the flips of e''s lines then
    leaves, before the second-to-last card, at least: ``2n - 3`` face-down cards
    when both lines through e are face up (e''s ``2n - 3`` or ``2n - 2``
    line-mates were all face up, as everything but e is); ``3n - 4`` when a line
    through e is face down and e' lies on the other one; ``3n - 5`` when e' lies
    on neither (e' on the face-down line is impossible: its own card is face
    up).  When ``2n - 3`` already exceeds the limit the game was lost before.
    """
    if 2 * (n - 1) <= limit or 2 * n - 3 <= limit:
        return False
    return y < lo or y > hi


def _two_last_cut(y: int, x: int, lo: int, hi: int, n: int, limit: int, slack: int) -> bool:
    """Whether a win whose last two cards are ranked ``y`` then ``x`` is impossible when
    ``slack`` (0 or 1) cards beyond the empty cells remain to be stacked, and every top
    card the last two can meet (a top card now, or a card before the last two) is
    ranked within ``lo`` .. ``hi``.

    Slack 0: :func:`_two_last_rule_out`.  Slack 1 (exactly one card is stacked), with
    ``2(n - 1)`` and ``2n - 3`` above the limit and ``y`` strictly beyond ``lo .. hi``
    (so ``y`` flips both of its lines, at e'), by where the stacked card goes:

    (i) a card before the last two: then both last cards make new piles, and the
        top cards at that time are still within ``lo .. hi``: :func:`_two_last_rule_out`.
    (ii) ``y`` is stacked, the last card makes a new pile at e: the counting of
        :func:`_two_last_rule_out` never uses that e' was empty — it counts e''s
        line-mates other than e and the piles of e's lines, all piles either way,
        and e''s own (covered) top is not among them; so the same bound holds.
    (iii) ``y`` makes the last new pile (at e'), the last card is stacked on e.
        Before the last card every top off e's lines is face up and each line
        through e (n - 1 piles each, e's own top is covered) is all up or all
        down, not both down (``2(n - 1)`` > limit).  If e' != e: undo y's flips.
        Both lines of e up: e''s ``2n - 2`` line-mates were face down, but for e
        (whose top we do not know): at least ``2n - 3``.  One line L of e down,
        e' on the other: e''s line-mates off L, but for e, were all face down:
        ``2n - 3``.  L down, e' on neither (so e is no line-mate of e'): all of
        e''s ``2n - 2`` line-mates but its one on L were face down (``2n - 3``),
        and L's other ``n - 2`` piles too.  Each count exceeds the limit.  So e' = e: the last card covers y, and one line of e
        does not flip, so holds face-up cards ranked <= x and >= x: these top
        cards were top cards before y (y only flipped them), so within ``lo .. hi``
        of this position's tops and the cards before the last two (y itself is
        covered).  When ``x`` is outside ``lo .. hi``, (iii) fails too.
    """
    if not _two_last_rule_out(y, lo, hi, n, limit):
        return False
    if slack == 0:
        return True
    return slack == 1 and not lo <= x <= hi


def _forced_lines_table(ranks: Sequence[int], t: int, K: int, top: int) -> tuple[list[list[bool]], list[list[bool]]]:
    """Which lines every card from ``t`` to ``K - 1`` would flip (RULES.md §4).

    ``table[k][lo][hi]`` is True when no card of ``ranks[t:K]`` placed in a line
    whose piles are ranked ``lo`` .. ``hi`` can find face-up cards ranked at most and
    at least its own there (a tie counts), so each of them flips the line whatever
    the faces: ``k`` 0 for a line with one empty cell left, 1 for more (cards before
    it may then join the line and widen its span).  Ranks below ``top``.
    """
    cards = ranks[t:K]
    one = [[not any(lo <= x <= hi for x in cards) for hi in range(top)] for lo in range(top)]
    more = [[False] * top for _ in range(top)]
    for lo in range(top):
        for hi in range(lo, top):
            if one[lo][hi]:
                a, b = lo, hi
                for x in cards:
                    if a <= x <= b:
                        break
                    a, b = min(a, x), max(b, x)
                else:
                    more[lo][hi] = True
    return one, more


def _forced_lines_fail(
    h: list[int], rk: list[int], F: int, n: int, box: tuple[int, int, int, int], om: int, dm: int, fm: int, slack: int, table
) -> bool:
    """Whether the line-parity system has no solution once forced lines are fixed.

    For a position whose piles span rows ``R0 .. R1`` and columns ``C0 .. C1``
    (``box``) of a frame ``F`` wide (``h``, ``rk``: heights and top ranks by cell;
    ``om``, ``dm``, ``fm``: the piles, the face-down top cards and the full piles)
    and whose cards to come fill the ``n`` x ``n`` grid with ``slack`` (0 or 1)
    cards to spare.

    With no card to spare, a line holding ``c`` piles gets exactly ``k = n - c``
    more cards (the finished grid holds every pile and ``n`` in each line, wherever
    it lies).  When every card to come flips it (``table``: see
    :func:`_forced_lines_table`), each of its piles is flipped ``k`` times more by
    the line, so the line's parity in the system of :func:`_parity_extra` is ``k``
    mod 2, no longer free.  With one card to spare (checked once the grid's place
    is known: ``box`` n x n), that card is stacked on some pile z (one there now,
    or one still to be made): z's equation goes (its top card is covered) and z's
    two lines get one card more; the system must have a solution for some z.
    Future piles are left out: the test only ever rules out positions that cannot
    end with every top card face up (RULES.md §5).
    """
    R0, R1, C0, C1 = box
    if slack and (R1 - R0 != n - 1 or C1 - C0 != n - 1):
        return False
    return _forced_lines_verdict(om, dm, fm, slack, _forced_lines_flags(rk, F, n, box, slack, table), F, n, box)


def _forced_lines_flags(rk: list[int], F: int, n: int, box: tuple[int, int, int, int], slack: int, table) -> int:
    """The two bits of each line of ``box`` for :func:`_forced_lines_search`, from the
    top ranks by cell (``rk``, 0 for an empty cell) and :func:`_forced_lines_table`."""
    R0, R1, C0, C1 = box
    flags = 0
    lines = [(r * F + C0, r * F + C1 + 1, 1) for r in range(R0, R1 + 1)]
    lines += [(R0 * F + c, R1 * F + c + 1, F) for c in range(C0, C1 + 1)]
    for first, stop, step in lines:
        ranks = rk[first:stop:step]  # 0 marks an empty cell
        hi = max(ranks)
        flags <<= 2
        if hi:
            k = n - (len(ranks) - ranks.count(0))  # the cards this line still gets
            flags |= _line_bits(table, k, min(filter(None, ranks)), hi, slack)
    return flags


def _line_bits(table, k: int, lo: int, hi: int, slack: int) -> int:
    """A line's two bits for :func:`_forced_lines_search`: 2 when it is fixed with the
    ``k`` cards it still gets, 1 (with a card to spare) when fixed with one card more;
    its piles' top cards ranked ``lo`` .. ``hi``, ``table`` from :func:`_forced_lines_table`."""
    one, more = table
    f = 0
    if k and (more if k > 1 else one)[lo][hi]:
        f |= 2
    if slack and (more if k else one)[lo][hi]:
        f |= 1
    return f


def _forced_lines_flag_table(table, n: int, top: int) -> list[list[list[int]]]:
    """The two bits of a line in :func:`_forced_lines_fail`, looked up:
    ``[slack][k][lo * top + hi]`` for a line whose piles' top cards are ranked
    ``lo`` .. ``hi`` and that still gets ``k`` cards (``n`` minus its piles), from
    :func:`_forced_lines_table`'s ``table``; ranks below ``top``."""
    one, more = table
    # ranks start at 1, and lo <= hi: other entries (lo = hi = 0: a line with no pile) give 0
    valid = [1 <= lo <= hi for lo in range(top) for hi in range(top)]
    flat_one = [v and x for v, x in zip(valid, (x for row in one for x in row))]
    flat_more = [v and x for v, x in zip(valid, (x for row in more for x in row))]
    none = [False] * (top * top)

    def bits(fixed_now: list, fixed_more: list) -> list[int]:
        return [2 * a + b for a, b in zip(fixed_now, fixed_more)]

    # as _line_bits: "fixed now" by k (0: never, 1: one, more: more), "fixed with one card
    # more" only with a card to spare (k 0: one, else more); three tables serve every k
    now = [none, flat_one] + [flat_more] * (n - 1)
    no_spare = [bits(now[k], none) for k in range(min(n, 2) + 1)]
    spare = [bits(now[k], flat_one if k == 0 else flat_more) for k in range(min(n, 2) + 1)]
    return [[no_spare[min(k, 2)] for k in range(n + 1)], [spare[min(k, 2)] for k in range(n + 1)]]


def _forced_lines_verdict(om: int, dm: int, fm: int, slack: int, flags: int, F: int, n: int, box: tuple[int, int, int, int]) -> bool:
    """:func:`_forced_lines_fail` once the two bits of each line (``flags``) are known;
    the verdicts are cached by the layout's shape."""
    if not flags:
        return False  # nothing beyond the parity bound already checked
    R0, R1, C0, C1 = box
    s = R0 * F + C0
    key = ("forced", om >> s, dm >> s, (fm >> s) if slack else 0, flags, slack, R1 - R0, C1 - C0, F, n)
    e = _PARITY_CACHE.get(key)
    if e is None:
        if len(_PARITY_CACHE) > _PARITY_CACHE_MAX:
            _PARITY_CACHE.clear()
        e = _PARITY_CACHE[key] = _forced_lines_search(om, dm, fm, slack, flags, F, n, box)
    return e


def _forced_lines_search(om: int, dm: int, fm: int, slack: int, flags: int, F: int, n: int, box: tuple[int, int, int, int]) -> bool:
    """:func:`_forced_lines_fail` once the forced lines are known: ``flags`` holds two bits
    a line, the rows then the columns of ``box``, the first line highest (fixed with the
    cards the line gets now; fixed with one card more)."""
    R0, R1, C0, C1 = box
    nr = R1 - R0 + 1
    nl = nr + C1 - C0 + 1
    s = R0 * F + C0
    om >>= s
    dm >>= s
    row = (1 << F) - 1
    col = _COLUMN_MASKS[F] & ((1 << (nr * F)) - 1)
    # Each line as fixed now and as fixed with one card more: its bit among the fixed
    # rows (or columns), and the piles its forced parity flips (0 when not fixed or even).
    fix_now = [0] * nl
    tog_now = [0] * nl
    fix_more = [0] * nl
    tog_more = [0] * nl
    frows = fcols = tog = 0
    for idx in range(nl):
        f = flags >> (2 * (nl - 1 - idx)) & 3
        if idx < nr:
            m = om & (row << (idx * F))
            bit = 1 << idx
        else:
            m = om & (col << (idx - nr))
            bit = 1 << (idx - nr)
        k = n - m.bit_count()
        if f & 2:
            fix_now[idx] = bit
            tog_now[idx] = m if k & 1 else 0
        if f & 1:
            fix_more[idx] = bit
            tog_more[idx] = m if not k & 1 else 0
        if idx < nr:
            frows |= fix_now[idx]
        else:
            fcols |= fix_now[idx]
        tog ^= tog_now[idx]
    if slack == 0:
        return not _parity_window(om, (dm ^ tog) & om, F, n, frows, fcols)
    fm >>= s
    # the spare card on z = (i, j): z's row and column get one card more, z's equation goes
    for i in range(n):
        fr = (frows & ~fix_now[i]) | fix_more[i]
        ti = tog ^ tog_now[i] ^ tog_more[i]
        for j in range(n):
            c = nr + j
            fc = (fcols & ~fix_now[c]) | fix_more[c]
            tz = ti ^ tog_now[c] ^ tog_more[c]
            zb = 1 << (i * F + j)
            if om & zb:
                if fm & zb:
                    continue
                o2 = om ^ zb
            else:
                o2 = om
            if _parity_window(o2, (dm ^ tz) & o2, F, n, fr, fc):
                return False
    return True


@functools.lru_cache(maxsize=None)
def _frame_masks(F: int) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:
    """Bit masks (bit ``row*F + column``) of a frame ``F`` wide: each cell's row and
    column without the cell, and the bands of rows ``r0 .. r1`` and of columns
    ``c0 .. c1`` (indexed ``[r0][r1]``)."""
    row = (1 << F) - 1
    col = _COLUMN_MASKS[F]
    row_o = [(row << (q - q % F)) & ~(1 << q) for q in range(F * F)]
    col_o = [(col << (q % F)) & ~(1 << q) for q in range(F * F)]
    rows_band = [[((1 << (F * (r1 - r0 + 1))) - 1) << (F * r0) if r1 >= r0 else 0 for r1 in range(F)] for r0 in range(F)]
    cols_band = [[col * (((1 << (c1 - c0 + 1)) - 1) << c0) if c1 >= c0 else 0 for c1 in range(F)] for c0 in range(F)]
    return row_o, col_o, rows_band, cols_band


class _Board:
    """The solver's own compact position: flat lists indexed ``row*F + column`` of the frame."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.size
        self.F = rules.frame
        self.cap = rules.pile_cap
        self.limit = rules.face_down_limit
        F = self.F
        size = F * F
        self.h = [0] * size
        self.rk = [0] * size  # 0 marks an empty cell (ranks start at 1)
        self.p = 0
        self.down = 0
        self.box = (99, -1, 99, -1)
        self.om = 0
        self.dm = 0
        self.fm = 0

    @classmethod
    def of_game(cls, game) -> "_Board":
        rules = game.rules
        b = cls(rules)
        F = b.F
        r0, r1, c0, c1 = 99, -1, 99, -1
        for cell, pile in game.grid().items():
            r, c = cell >> 4, cell & 15
            q = r * F + c
            b.h[q] = len(pile.cards)
            b.rk[q] = pile.top >> 2
            b.p += 1
            b.om |= 1 << q
            if not pile.face_up:
                b.dm |= 1 << q
                b.down += 1
            if b.h[q] >= b.cap:
                b.fm |= 1 << q
            r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
        b.box = (r0, r1, c0, c1)
        return b

    def cell(self, q: int) -> Cell:
        """The engine's cell of an internal index."""
        r, c = divmod(q, self.F)
        return CELLS[r * STRIDE + c]


def solve(
    game,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    within_known_cards: bool = False,
) -> Solution:
    """Solve a game from its current position, knowing the whole stock order.

    :param game: a :class:`~foursquare.game.Game`; its known deck (``game.deck``)
        is the stock order.  When the deck is a prefix, wins within the known cards
        are looked for: one found is optimal (a shorter win would use known cards
        only); when there is none, the answer is ``unknown`` (the cards after the
        prefix are not known), with ``max_score`` the best a later win could score.
        The game is not changed.
    :param within_known_cards: answer the narrower question "is there a win using
        only the known cards?": ``no-win`` then means none with these cards.
    :param max_nodes: the most positions to search (``None``: no limit).
    :param timeout: the most wall-clock seconds to spend (``None``: no limit).
    :returns: a :class:`Solution`; its moves start from the game's position.
    :raises SolverError: for a game whose next card is unknown.

    Rule sets with other flip or adjacency rules (RULES.md §8) are searched by the
    plain engine-based solver (:func:`foursquare.reference_solver.solve_with_engine`):
    the same answers, much slower.
    """
    sol = _solve(game, max_nodes=max_nodes, timeout=timeout)
    return sol if within_known_cards else _known_cards_only(game, sol)


def _solve(game, *, max_nodes: int | None, timeout: float | None) -> Solution:
    """:func:`solve`, with ``no-win`` meaning: no win within the known cards."""
    start = time.perf_counter()
    rules = game.rules
    total = rules.deck_size
    if game.status == "won":
        return Solution(SOLVED, game.score, (), 0, time.perf_counter() - start, game.score)
    if game.status == "lost":
        return Solution(NO_WIN, None, (), 0, time.perf_counter() - start, None)
    deck = game.deck
    t0 = game.placed
    if t0 >= len(deck):
        raise SolverError("the next card is unknown: the solver needs the stock order")
    if not _fast_rules(rules):
        from .reference import solve_with_engine

        status, cards, cells, nodes = solve_with_engine(game, max_nodes=max_nodes, timeout=timeout)
        seconds = time.perf_counter() - start
        if status == SOLVED:
            return Solution(SOLVED, total - cards, cells, nodes, seconds, total - cards)
        if status == NO_WIN:
            return Solution(NO_WIN, None, (), nodes, seconds, None)
        return Solution(UNKNOWN, None, (), nodes, seconds, total - cards)
    board = _Board.of_game(game)
    ranks = [c >> 2 for c in deck]
    search = _Search(board, ranks, t0, max_nodes, timeout, start)
    status, cards, path = search.run()
    seconds = time.perf_counter() - start
    if status == SOLVED:
        moves = tuple(board.cell(q) for q in path)
        return Solution(SOLVED, total - cards, moves, search.nodes, seconds, total - cards)
    if status == NO_WIN:
        return Solution(NO_WIN, None, (), search.nodes, seconds, None)
    return Solution(UNKNOWN, None, (), search.nodes, seconds, total - cards)


def _known_cards_only(game, sol: Solution) -> Solution:
    """A ``no-win`` over a deck prefix proves nothing about the unknown cards after it:
    report ``unknown``, bounded by the score of a win on the first unknown card."""
    rules = game.rules
    known = len(game.deck)
    if sol.status != NO_WIN or known >= rules.deck_size or game.is_over:
        return sol
    best = min(rules.deck_size - known - 1, rules.deck_size - rules.size * rules.size)
    return Solution(UNKNOWN, None, (), sol.nodes, sol.seconds, best, unknown_cards=True)


def solve_deck(
    deck: Sequence[Card | str],
    rules: Rules = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    within_known_cards: bool = False,
) -> Solution:
    """Solve a game from the start with a known card order (top first).

    :param deck: the stock, top first (40 cards, or a prefix: see :func:`solve`).
    :raises ParseError, ValueError: for a deck the engine rejects; :class:`SolverError` as :func:`solve`.
    """
    from ..engine.game import Game

    return solve(Game(deck, rules), max_nodes=max_nodes, timeout=timeout, within_known_cards=within_known_cards)


def solve_deal(
    deal: int,
    rules: Rules = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
) -> Solution:
    """Solve deal number ``deal`` (RULES.md §2) from the start; see :func:`solve`."""
    from ..engine.game import Game

    return solve(Game.from_deal(deal, rules), max_nodes=max_nodes, timeout=timeout)


class _Search:
    """Iterative deepening on the number of cards used, with make/unmake on a :class:`_Board`."""

    def __init__(self, board: _Board, ranks: list[int], t0: int, max_nodes, timeout, start: float) -> None:
        self.b = board
        self.ranks = ranks
        self.t0 = t0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.deadline = start + timeout if timeout is not None else None
        self.nodes = 0
        self.tt: dict[int, int] = {}

    def run(self) -> tuple[str, int, list[int]]:
        """Returns (status, cards used by the best win or the first budget not ruled out, path)."""
        b = self.b
        n2 = b.n * b.n
        first = self.t0 + (n2 - b.p)
        if b.down:
            first += _parity_extra(b.om, b.dm, b.fm, b.F, b.n, 2)
        path: list[int] = []
        for K in range(first, len(self.ranks) + 1):
            if not self._last_card_can_end(K) or not self._last_two_can_end(K):
                continue
            self.tt.clear()  # entries of a smaller budget never answer for this one
            try:
                pats = self._tail_patterns(K)
                if not pats[0]:
                    continue
                found = self._dfs_root(K, path, pats)
            except _Limit:
                return UNKNOWN, K, []
            if found:
                return SOLVED, self.t0 + len(path), path
        return NO_WIN, len(self.ranks), []

    def _last_card_can_end(self, K: int) -> bool:
        """Whether a win whose last card is card ``K - 1`` is not ruled out by ranks alone.

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
        n = b.n
        last = K - 1
        if last < self.t0 or 2 * (n - 1) <= b.limit:
            return True
        x = self.ranks[last]
        pool = [self.ranks[i] for i in range(self.t0, last)]
        pool += [b.rk[q] for q in range(len(b.h)) if b.h[q]]
        return any(v <= x for v in pool) and any(v >= x for v in pool)

    def _tail_patterns(self, K: int) -> tuple[int, int]:
        """The stack patterns of the last :data:`TAIL_CARDS` cards (one more, when that
        search ends within :data:`TAIL_STEPS_ONE_MORE` steps, with exactly one card to
        spare) with which a win of exactly ``K`` cards can end, as ``(set, k)``: see
        :func:`foursquare.lastcards.tail_patterns`; an empty set (0) rules budget
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
        return self._tail_search(K, k, slack, None), k

    def _tail_search(self, K: int, k: int, slack: int, cap: int | None) -> int | None:
        """:func:`foursquare.lastcards.tail_patterns` for the last ``k`` of ``K`` cards, in
        at most ``cap`` steps (``None``: the search's own limits); ``None`` when over ``cap``.

        :raises _Limit: when the node or time limit runs out.
        """
        b = self.b
        T = K - k
        earlier = [b.rk[q] for q in range(len(b.h)) if b.h[q]] + self.ranks[self.t0 : T]
        left = self.max_nodes - self.nodes
        try:
            pats, steps = tail_patterns(
                self.ranks[T:K], earlier, b.n, b.limit, slack,
                max_nodes=left if cap is None else min(cap, left), deadline=self.deadline, every=True,
            )
        except TailLimit as e:
            self.nodes += e.steps
            if cap is None or self.nodes >= self.max_nodes or (self.deadline is not None and time.perf_counter() > self.deadline):
                raise _Limit from None
            return None
        self.nodes += steps
        return pats

    def _last_two_can_end(self, K: int) -> bool:
        """Whether a win with exactly ``K`` cards is not ruled out by its last two cards.

        Only when every card from now on makes a new pile (``K`` cards exactly fill
        the empty cells) and the face-down limit is below ``2n - 3``; see
        :func:`_two_last_rule_out`.
        """
        b = self.b
        n = b.n
        slack = K - self.t0 - (n * n - b.p)
        if slack not in (0, 1) or K - 2 < self.t0:
            return True
        tops = [b.rk[q] for q in range(len(b.h)) if b.h[q]]
        future = self.ranks[self.t0 : K - 2]
        lo = min(tops + future, default=99)
        hi = max(tops + future, default=0)
        return not _two_last_cut(self.ranks[K - 2], self.ranks[K - 1], lo, hi, n, b.limit, slack)

    @staticmethod
    def _rank_classes(ranks: list[int], t: int, K: int) -> list[int]:
        """Rank -> class for positions whose next card is card ``t`` and whose cards run out at ``K``.

        A pile's rank only ever meets the ranks of cards ``t .. K - 1``: see
        :func:`foursquare.lastcards.rank_classes`.
        """
        return rank_classes(ranks[t:K], max(ranks) + 2 if ranks else 2)

    def _dfs_root(self, K: int, path: list[int], pats: tuple[int, int] = (1, 0)) -> bool:
        b = self.b
        F = b.F
        n = b.n
        n2 = n * n
        nm1 = n - 1
        cap = b.cap
        limit = b.limit
        h, rk = b.h, b.rk
        ranks = self.ranks
        last = len(ranks)
        tt = self.tt
        floating = b.rules.layout is LayoutKind.FLOATING
        mid = nm1  # the middle row/column of a floating frame (2n-1 wide)
        centre = mid * F + mid
        above_centre_bit = 1 << (centre - F)
        cache = _PARITY_CACHE
        max_nodes = self.max_nodes
        deadline = self.deadline
        perf = time.perf_counter
        search = self
        # Bit masks over the frame (bit row*F + column): a line's other cells, bands of rows and columns.
        row_o, col_o, rows_band, cols_band = _frame_masks(F)
        col0 = cols_band[0][0]
        colz = cols_band[F - 1][F - 1]
        every = (1 << (F * F)) - 1
        not_col0 = every & ~col0
        not_colz = every & ~colz
        # Top cards by rank (rm[v]: the piles whose top card has rank v) and piles by height
        # (hm[k]: the piles of k cards or more), kept up to date by make/unmake.
        top = max(ranks + rk) + 2
        rm = [0] * top
        hm = [0] * (cap + 2)
        for q in range(F * F):
            if h[q]:
                rm[rk[q]] |= 1 << q
                for k in range(1, h[q] + 1):
                    hm[k] |= 1 << q
        # The transposition key groups ranks by class (see _rank_classes): runs of ranks
        # of one class, by the number of cards placed (made when first needed).
        groups: list = [None] * (last + 1)

        def rank_runs(t: int) -> list[tuple[int, ...]]:
            cl = self._rank_classes(ranks, t, K)
            runs: list[tuple[int, ...]] = []
            for v in range(top):
                if runs and cl[v] == cl[runs[-1][0]]:
                    runs[-1] += (v,)
                else:
                    runs.append((v,))
            groups[t] = runs
            return runs

        # The last-card and last-two-cards rules again after a stacked card: the
        # covered card is no longer a top card that the last cards could meet.
        x_last = ranks[K - 1]
        y_last = ranks[K - 2] if K >= 2 else 0
        two_rule = K - 2 >= self.t0 and _two_last_rule_out(y_last, 99, 0, n, limit)
        one_rule = 2 * nm1 > limit
        span1 = []  # min and max rank of cards t .. K-2 (before the last card)
        span2 = []  # min and max rank of cards t .. K-3 (before the last two)
        for t in range(last + 1):
            a = ranks[t : K - 1]
            span1.append((min(a, default=99), max(a, default=0)))
            a = ranks[t : K - 2]
            span2.append((min(a, default=99), max(a, default=0)))

        def last_cards_rule_out(t1: int, slack: int) -> bool:
            """After a stacked card: True when the last card (or, with no card to
            spare, the last two) can no longer end a win (see _last_card_can_end)."""
            lo = 0
            while not rm[lo]:
                lo += 1
            hi = top - 1
            while not rm[hi]:
                hi -= 1
            if one_rule and t1 <= K - 1:
                a, b_ = span1[t1]
                if not (min(lo, a) <= x_last <= max(hi, b_)):
                    return True
            if two_rule and slack <= 1 and t1 <= K - 2:
                a, b_ = span2[t1]
                lo2 = min(lo, a)
                hi2 = max(hi, b_)
                if y_last < lo2 or y_last > hi2:
                    # slack 1: see _two_last_cut, case (iii): the last card must fit lo2..hi2
                    if not slack or not lo2 <= x_last <= hi2:
                        return True
            return False

        # Stack patterns of the last kt cards that can end a win (lastcards.tail_patterns):
        # before the tail, the cards still to stack must leave room for a possible
        # pattern; inside it, the cards stacked so far must begin one.  Positions in
        # the tail are then keyed with their pattern so far (tailkey).
        P, kt = pats
        Kt = K - kt
        spare = K - self.t0 - (n2 - b.p)  # the cards to spare: stacked cards of the win
        pat_rule = P != sum(1 << p for p in range(1 << kt) if p.bit_count() <= spare)
        okpre = oktail = None
        if pat_rule:
            possible = [p for p in range(1 << kt) if P >> p & 1]
            # okpre[t][s]: s cards still to stack after card t - 1, none of them in the tail yet
            okpre = [[any(p.bit_count() <= s <= p.bit_count() + Kt - t for p in possible) for s in range(last + 1)] for t in range(Kt + 1)]
            # (tail cards placed, their pattern, cards still to stack)
            oktail = {(i, p & ((1 << i) - 1), (p >> i).bit_count()) for p in possible for i in range(1, kt + 1)}
        stacked = [0] * (last + 1)

        # _forced_lines_flag_table by cards placed, made when first needed
        flagtabs: list = [None] * (last + 1)

        def flag_table(t: int):
            flagtabs[t] = _forced_lines_flag_table(_forced_lines_table(ranks, t, K, top), n, top)
            return flagtabs[t]

        # The lowest and highest top card of each row and column (0, 0 for a line
        # with no pile), kept up to date by make/unmake for the forced-lines test.
        lo_r = [0] * F
        hi_r = [0] * F
        lo_c = [0] * F
        hi_c = [0] * F
        for q in range(F * F):
            if h[q]:
                for lo_l, hi_l, i in ((lo_r, hi_r, q // F), (lo_c, hi_c, q % F)):
                    lo_l[i] = min(lo_l[i] or top, rk[q])
                    hi_l[i] = max(hi_l[i], rk[q])

        def dfs(t: int, p: int, down: int, r0: int, r1: int, c0: int, c1: int, om: int, dm: int) -> bool:
            if search.nodes >= max_nodes:
                raise _Limit  # the limit is the most positions searched: never one more
            search.nodes += 1
            if deadline is not None and not search.nodes & 63 and perf() > deadline:
                raise _Limit
            x = ranks[t]
            stack_ok = t + 1 + n2 - p <= K
            if p == 0:
                cm = (1 << centre) if floating else every
            else:
                rr0, rr1, cc0, cc1 = r0, r1, c0, c1
                if r1 - r0 < nm1:
                    if r0 > 0:
                        rr0 -= 1
                    if r1 < F - 1:
                        rr1 += 1
                if c1 - c0 < nm1:
                    if c0 > 0:
                        cc0 -= 1
                    if c1 < F - 1:
                        cc1 += 1
                if floating:  # mirror images of a layout on the middle row/column: search one side
                    if r0 == r1 == mid:
                        rr1 = mid
                    if c0 == c1 == mid:
                        cc1 = mid
                cm = ((om << 1) & not_col0 | (om >> 1) & not_colz | om << F | om >> F) & ~om & rows_band[rr0][rr1] & cols_band[cc0][cc1]
                if stack_ok and (not pat_rule or t >= Kt or okpre[t + 1][K - t - (n2 - p) - 1]):
                    cm |= om & ~hm[cap]  # (unless no possible stack pattern lets this card be stacked)
                if floating and p == 1 and om >> centre == 1:
                    cm &= ~above_centre_bit  # the diagonal mirror of the cell to the left
            # the face-up top cards ranked at most x, and at least x
            up = om & ~dm
            below = 0  # the piles ranked below x
            for v in range(1, x):
                below |= rm[v]
            le = (below | rm[x]) & up
            ge = up & ~below
            t1 = t + 1
            kids = []
            while cm:
                qb = cm & -cm
                cm ^= qb
                q = qb.bit_length() - 1
                # D after the move: most children go over the face-down limit
                # (RULES.md §5) and are dropped right here
                d = down - 1 if dm & qb else down
                flip = 0
                o = row_o[q] & om
                if o and not (o & le and o & ge):
                    flip = o
                    d += o.bit_count() - 2 * (o & dm).bit_count()
                o = col_o[q] & om
                if o and not (o & le and o & ge):
                    flip |= o
                    d += o.bit_count() - 2 * (o & dm).bit_count()
                if d <= limit:
                    kids.append((d, q, qb, flip))
            if not stack_ok:
                kids.sort()  # no card to spare: fewest face-down cards first (see the module notes)
            for d, q, qb, flip in kids:
                oh = h[q]
                ork = rk[q]
                np_ = p
                R0, R1, C0, C1 = r0, r1, c0, c1
                r, c = divmod(q, F)
                slr, shr, slc, shc = lo_r[r], hi_r[r], lo_c[c], hi_c[c]
                if oh == 0:
                    np_ += 1
                    if not shr:
                        lo_r[r] = hi_r[r] = x
                    elif x < slr:
                        lo_r[r] = x
                    elif x > shr:
                        hi_r[r] = x
                    if not shc:
                        lo_c[c] = hi_c[c] = x
                    elif x < slc:
                        lo_c[c] = x
                    elif x > shc:
                        hi_c[c] = x
                    if r < R0:
                        R0 = r
                    if r > R1:
                        R1 = r
                    if c < C0:
                        C0 = c
                    if c > C1:
                        C1 = c
                else:
                    rm[ork] ^= qb
                rm[x] |= qb
                om2 = om | qb
                dm2 = (dm & ~qb) ^ flip
                h[q] = oh + 1
                hm[oh + 1] |= qb
                rk[q] = x
                if oh:  # the covered card may have been its lines' lowest or highest
                    line = [v for v in rk[r * F : r * F + F] if v]
                    lo_r[r] = min(line)
                    hi_r[r] = max(line)
                    line = [v for v in rk[c::F] if v]
                    lo_c[c] = min(line)
                    hi_c[c] = max(line)
                found = False
                if np_ == n2 and d == 0:
                    found = True
                elif t1 < last:
                    slack = K - t1 - (n2 - np_)
                    if slack >= 0:
                        go = True
                        tailkey = -1
                        if pat_rule:
                            stacked[t] = 1 if oh else 0
                            if t1 <= Kt:
                                go = okpre[t1][slack]
                            else:
                                pre = 0
                                for i in range(Kt, t1):
                                    pre |= stacked[i] << (i - Kt)
                                go = (t1 - Kt, pre, slack) in oktail
                                tailkey = pre + (kt << 8)
                        s = R0 * F + C0
                        if go and d and slack < 2:
                            key = (om2 >> s, dm2 >> s, hm[cap] >> s, F, n, slack + 1)
                            e = cache.get(key)
                            if e is None:
                                if len(cache) > _PARITY_CACHE_MAX:
                                    cache.clear()
                                e = cache[key] = _parity_extra(om2, dm2, hm[cap], F, n, slack + 1)
                            go = e <= slack
                        if go and oh and last_cards_rule_out(t1, slack):
                            go = False
                        if go and slack < 2 and (not slack or R1 - R0 == nm1 and C1 - C0 == nm1):
                            # forced lines (_forced_lines_fail), from the lines' rank spans
                            ft = (flagtabs[t1] or flag_table(t1))[slack]
                            flags = 0
                            for i in range(R0, R1 + 1):
                                flags = flags << 2 | ft[n - (om2 & rows_band[i][i]).bit_count()][lo_r[i] * top + hi_r[i]]
                            for i in range(C0, C1 + 1):
                                flags = flags << 2 | ft[n - (om2 & cols_band[i][i]).bit_count()][lo_c[i] * top + hi_c[i]]
                            if flags and _forced_lines_verdict(om2, dm2, hm[cap], slack, flags, F, n, (R0, R1, C0, C1)):
                                go = False
                        if go and np_ > 1:
                            # transposition table: the layout up to translation with ranks
                            # by class (see _rank_classes), the frame's room, t1; with no card to
                            # spare (slack 0: no card is stacked from here on) the pile heights
                            # never matter again, only which cells hold a pile
                            w = nm1 - C1 + C0
                            v = nm1 - R1 + R0
                            key = [t1, om2 >> s, dm2 >> s, min(C0, w), min(F - 1 - C1, w), min(R0, v), min(F - 1 - R1, v)]
                            for run in groups[t1] or rank_runs(t1):
                                m = 0
                                for v in run:
                                    m |= rm[v]
                                key.append(m >> s)
                            # heights only matter through the room left on a pile (RULES.md §3:
                            # at most cap cards), and at most `slack` more cards are stacked
                            for k in range(max(2, cap + 1 - slack), cap + 1):
                                key.append(hm[k] >> s)
                            key.append(tailkey)
                            key = tuple(key)
                            if tt.get(key, -1) >= K:
                                go = False
                            else:
                                go = dfs(t1, np_, d, R0, R1, C0, C1, om2, dm2)
                                if go:
                                    found = True
                                else:
                                    tt[key] = K
                                go = False
                        if go and dfs(t1, np_, d, R0, R1, C0, C1, om2, dm2):
                            found = True
                hm[oh + 1] ^= qb
                h[q] = oh
                rk[q] = ork
                lo_r[r], hi_r[r], lo_c[c], hi_c[c] = slr, shr, slc, shc
                rm[x] ^= qb
                if oh:
                    rm[ork] |= qb
                if found:
                    path.append(q)
                    return True
            return False

        r0, r1, c0, c1 = b.box
        path.clear()
        found = dfs(self.t0, b.p, b.down, r0, r1, c0, c1, b.om, b.dm)
        path.reverse()
        return found


def _solve_one(args: tuple) -> tuple[int, Solution]:
    deal, rules, max_nodes, timeout = args
    return deal, solve_deal(deal, rules, max_nodes=max_nodes, timeout=timeout)


def solve_deals(
    deals: Sequence[int],
    rules: Rules = STANDARD,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    timeout: float | None = None,
    jobs: int = 1,
    initializer: Callable[[], None] | None = None,
) -> Iterator[tuple[int, Solution]]:
    """Solve many deal numbers; yields ``(deal, solution)`` in the order of ``deals``.

    :param jobs: worker processes (1: solve in this process).  Each deal is solved
        on its own with the same limits, so the results do not depend on ``jobs``
        (except through ``timeout``, which depends on the machine's load).
    """
    work = ((d, rules, max_nodes, timeout) for d in deals)
    if jobs <= 1 or len(deals) <= 1:
        for item in work:
            yield _solve_one(item)
        return
    from ..parallel import ordered_map

    yield from ordered_map(_solve_one, work, min(jobs, len(deals)), initializer=initializer)


def check_rules(rules: Rules) -> None:
    """Refuse, before any work, a rule set the solver cannot handle (none is refused yet).

    :raises SolverError: for such a rule set.
    """
