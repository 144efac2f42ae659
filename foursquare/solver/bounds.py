"""The solver's lower bounds: tests that rule a position out without searching it.

Each function here implements one rule of the search described in the docstring
of :mod:`foursquare.solver.search` (section "How it works"); the search calls them,
the tests check them against brute force.  Positions are bit masks over a frame
``F`` wide in compact indexing (bit ``row*F + column``, see
:mod:`foursquare.engine.frame`): ``om`` the piles, ``dm`` the face-down top cards,
``fm`` the full piles (RULES.md §3: at most the pile cap), for an ``n`` × ``n`` grid;
the tests of a whole position take these with the piles' box as one :class:`PileMasks`.

- *Line parity* (RULES.md §4: a card placed on a new pile flips every other pile
  of its row, or none, and likewise its column; RULES.md §5: a win ends with every
  top card face up): :func:`parity_window`,
  :func:`parity_extra` (how many cards must be stacked), :func:`one_pile_frees`.
- *Forced lines* (a line that every card to come would flip):
  :func:`forced_lines_table`, :func:`forced_lines_flag_table`, :func:`forced_lines_search`;
  when the last cards are the stacked ones: :func:`last_stacked_fail`.
- *Last two cards*: :func:`two_last_rule_out`, :func:`two_last_cut`; with the *last
  card* rule again after a stacked card: :func:`last_cards_rule`.

The last-card rule before a budget is :meth:`foursquare.solver.search.Search.last_card_can_end`;
the last-three-cards rule (stack patterns) is in :mod:`foursquare.solver.lastcards`.

The verdicts of the parity and forced-lines tests depend on the layout's shape
only (the search gives them the piles moved to the frame's corner), so they are
cached, shared by every search: at most :data:`CACHE_MAX` verdicts in all.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..engine.frame import frame_tables

#: One line's forced-lines table (:func:`forced_lines_table`): ``(one, more)``, each ``[lo][hi]``.
ForcedTable = tuple[list[list[bool]], list[list[bool]]]
#: The looked-up form (:func:`forced_lines_flag_table`): ``[slack][k][lo * top + hi]`` -> a line's two bits.
FlagTable = list[list[list[int]]]
#: The lines whose parity the forced lines fix (:func:`_fixed_lines`), each line by its
#: index (the box's rows, then its columns): ``(now, toggles_now, more, toggles_more,
#: rows, cols, toggles)``: a fixed line's bit among the rows (or the columns), 0 when not
#: fixed; the piles its fixed parity flips (0 when not fixed or even); the same two with
#: one card more; the rows fixed now (bit ``i`` for row ``i``), the columns; the piles
#: that every line fixed now flips, together.
FixedLines = tuple[list[int], list[int], list[int], list[int], int, int, int]
#: A box of piles: (top row, bottom row, left column, right column), from 0.
Box = tuple[int, int, int, int]


class PileMasks(NamedTuple):
    """A position as the bounds see it: its piles as bit masks over the frame, and their box.

    :ivar om: the piles.
    :ivar dm: the face-down top cards.
    :ivar fm: the full piles (RULES.md §3: at most the pile cap).
    :ivar F: the frame's width (bit ``row*F + column``).
    :ivar n: the grid's side (``n`` × ``n`` piles when it is full).
    :ivar box: the rows and columns the piles span (:data:`Box`).
    """

    om: int
    dm: int
    fm: int
    F: int
    n: int
    box: Box

    def at_corner(self) -> PileMasks:
        """The same piles moved to the frame's corner: the box's first row and column become 0."""
        R0, R1, C0, C1 = self.box
        s = R0 * self.F + C0
        return PileMasks(self.om >> s, self.dm >> s, self.fm >> s, self.F, self.n, (0, R1 - R0, 0, C1 - C0))


#: The most verdicts the cached tests keep together: half of them :func:`parity_extra`'s,
#: a quarter each :func:`forced_lines_search`'s and :func:`last_stacked_fail`'s (the least
#: recently used go first; some 200 to 250 bytes each: at most about 250 MB); a cache,
#: the verdicts and node counts are the same.
CACHE_MAX = 1_000_000

def parity_window(om: int, dm: int, F: int, n: int, frows: int = 0, fcols: int = 0) -> bool:
    """Whether the line-parity system (see :func:`parity_extra`) has a solution, for
    piles (``om``) and face-down top cards (``dm``) that lie in rows and columns
    ``0 .. n - 1`` of a frame ``F`` wide.  Full lines (``n`` piles; a full column has a
    pile in each of ``n`` rows) and the rows and columns of ``frows`` and ``fcols``
    (bit ``i`` for row or column ``i``) are fixed at 0.

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


@functools.cache
def _parity_rows_table(n: int) -> tuple[list[int], list[int]]:
    """Tables for :func:`parity_window` on ``n`` columns.

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


@functools.lru_cache(maxsize=CACHE_MAX // 2)
def parity_extra(om: int, dm: int, fm: int, F: int, n: int, want: int) -> int:
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
    cols = 0  # the columns that hold a pile, and the first row that does: moved to the corner
    for r in range(F):
        cols |= om >> (r * F) & ((1 << F) - 1)
    s = ((om & -om).bit_length() - 1) // F * F + (cols & -cols).bit_length() - 1
    om >>= s
    dm >>= s
    if parity_window(om, dm, F, n):
        return 0
    return 1 if want < 2 or one_pile_frees(om, dm, om & ~(fm >> s), F, n) else 2


def one_pile_frees(om: int, dm: int, candidates: int, F: int, n: int) -> bool:
    """Whether some pile of ``candidates`` frees the parity system (:func:`parity_window`
    on ``om ^ z``, ``dm & ~z`` for that one pile z), for piles in rows ``0 .. n - 1``.

    Only z's row changes (and the columns with a pile in every row), so the rows'
    tables are looked up once, with the products of the rows before and after each row.
    """
    table, free = _parity_rows_table(n)
    lm = (1 << n) - 1
    every_choice = free[0]
    rows_o = [om >> (r * F) & lm for r in range(n)]
    rows_t = [table[(o << n | dm >> (r * F) & o) << 1 | (o.bit_count() >= n)] if o else every_choice for r, o in enumerate(rows_o)]
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


def two_last_rule_out(y: int, lo: int, hi: int, n: int, limit: int) -> bool:
    """Whether a win whose last two cards both make new piles is impossible because
    the second-to-last card (rank ``y``) is ranked strictly below or above every
    top card it can meet (ranks ``lo`` .. ``hi``).

    Such a card flips both of its lines (RULES.md §4: no face-up card can hold it
    in between or tie it).  Say it goes to e' and the last card to e, the only
    empty cells before it.  After it, just before the last card, every top card
    outside e's lines is face up and each line through e is all face up or all
    face down, not both face down when ``2(n - 1)`` exceeds the limit (see
    :meth:`foursquare.solver.search.Search.last_card_can_end`).  Undoing the flips of e''s lines then
    leaves, before the second-to-last card, at least: ``2n - 3`` face-down cards
    when both lines through e are face up (e''s ``2n - 3`` or ``2n - 2``
    line-mates were all face up, as everything but e is); ``3n - 4`` when a line
    through e is face down and e' lies on the other one; ``3n - 5`` when e' lies
    on neither (e' on the face-down line is impossible: its own card is face
    up).  When ``2n - 3`` already exceeds the limit the game was lost before.
    """
    return 2 * (n - 1) > limit and 2 * n - 3 > limit and (y < lo or y > hi)


def two_last_cut(y: int, x: int, lo: int, hi: int, n: int, limit: int, slack: int) -> bool:
    """Whether a win whose last two cards are ranked ``y`` then ``x`` is impossible when
    ``slack`` (0 or 1) cards beyond the empty cells remain to be stacked, and every top
    card the last two can meet (a top card now, or a card before the last two) is
    ranked within ``lo`` .. ``hi``.

    Slack 0: :func:`two_last_rule_out`.  Slack 1 (exactly one card is stacked), with
    ``2(n - 1)`` and ``2n - 3`` above the limit and ``y`` strictly beyond ``lo .. hi``
    (so ``y`` flips both of its lines, at e'), by where the stacked card goes:

    (i) a card before the last two: then both last cards make new piles, and the
        top cards at that time are still within ``lo .. hi``: :func:`two_last_rule_out`.
    (ii) ``y`` is stacked, the last card makes a new pile at e: the counting of
        :func:`two_last_rule_out` never uses that e' was empty — it counts e''s
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
    return two_last_rule_out(y, lo, hi, n, limit) and (slack == 0 or slack == 1 and not lo <= x <= hi)


def forced_lines_table(ranks: Sequence[int], t: int, K: int, top: int) -> ForcedTable:
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


def forced_lines_flag_table(table: ForcedTable, n: int, top: int) -> FlagTable:
    """The two bits of a line for :func:`forced_lines_search`, looked up:
    ``[slack][k][lo * top + hi]`` for a line whose piles' top cards are ranked
    ``lo`` .. ``hi`` and that still gets ``k`` cards (``n`` minus its piles), from
    :func:`forced_lines_table`'s ``table``; ranks below ``top``."""
    one, more = table
    # ranks start at 1, and lo <= hi: other entries (lo = hi = 0: a line with no pile) give 0
    flat_one = [1 <= lo <= hi and one[lo][hi] for lo in range(top) for hi in range(top)]
    flat_more = [1 <= lo <= hi and more[lo][hi] for lo in range(top) for hi in range(top)]
    none = [False] * (top * top)

    def bits(fixed_now: list[bool], fixed_more: list[bool]) -> list[int]:
        return [2 * a + b for a, b in zip(fixed_now, fixed_more, strict=True)]

    # "fixed now" by k (0: never, 1: one, more: more), "fixed with one card
    # more" only with a card to spare (k 0: one, else more); three tables serve every k
    now = [none, flat_one] + [flat_more] * (n - 1)
    no_spare = [bits(now[k], none) for k in range(min(n, 2) + 1)]
    spare = [bits(now[k], flat_one if k == 0 else flat_more) for k in range(min(n, 2) + 1)]
    return [[no_spare[min(k, 2)] for k in range(n + 1)], [spare[min(k, 2)] for k in range(n + 1)]]


@functools.lru_cache(maxsize=CACHE_MAX // 4)
def forced_lines_search(piles: PileMasks, slack: int, flags: int) -> bool:
    """Whether the line-parity system has no solution once forced lines are fixed, for a
    position (``piles``) whose cards to come fill the ``n`` x ``n`` grid with ``slack``
    (0 or 1) cards to spare.  ``flags`` holds two bits a line, the rows then the columns
    of the box, the first line highest: 2 when every card to come flips it
    (:func:`forced_lines_table`) with the cards it gets now, 1 (with a card to spare)
    with one card more.

    With no card to spare, a line holding ``c`` piles gets exactly ``k = n - c`` more
    cards (the finished grid holds ``n`` piles in each line, wherever it lies).  When
    every card to come flips it, each of its piles is flipped ``k`` times more by the
    line, so the line's parity in the system of :func:`parity_extra` is ``k`` mod 2, no
    longer free.  With one card to spare, that card is stacked on some pile z (one there
    now, or one still to be made, also in a row or a column that holds no pile yet while
    the box is smaller than n x n): z's equation goes (its top card is covered) and z's
    two lines get one card more; the system must have a solution for some z.  Future
    piles are left out: the test only ever rules out positions that cannot end with
    every top card face up (RULES.md §5).

    The spare card on z = (i, j): z's row and column get one card more, z's equation
    goes; z's row is one of the box's nr rows or (i == nr, when the box has fewer than
    n rows) a row with no pile yet, whose card changes no line of the system; columns alike.
    """
    corner = piles.at_corner()
    om, dm, fm, F, n, (_, R1, _, C1) = corner
    now, toggles_now, more, toggles_more, rows, cols, toggles = _fixed_lines(corner, flags)
    if slack == 0:
        return not parity_window(om, (dm ^ toggles) & om, F, n, rows, cols)
    nr = R1 + 1
    nc = C1 + 1
    for i in range(nr + 1 if nr < n else nr):
        fr, ti = rows, toggles
        if i < nr:
            fr = (rows & ~now[i]) | more[i]
            ti = toggles ^ toggles_now[i] ^ toggles_more[i]
        for j in range(nc + 1 if nc < n else nc):
            fc, tz = cols, ti
            if j < nc:
                c = nr + j
                fc = (cols & ~now[c]) | more[c]
                tz = ti ^ toggles_now[c] ^ toggles_more[c]
            zb = 1 << (i * F + j) if i < nr and j < nc else 0
            if fm & zb:  # a full pile (fm within om) takes no card
                continue
            o2 = om & ~zb
            if parity_window(o2, (dm ^ tz) & o2, F, n, fr, fc):
                return False  # the spare card on z frees the system
    return True


def _fixed_lines(corner: PileMasks, flags: int) -> FixedLines:
    """Each line of the box, as fixed with the cards it gets now and with one card more
    (``flags``: as :func:`forced_lines_search` takes them), for piles at the frame's corner.

    A fixed line of ``c`` piles that gets ``k = n - c`` more cards, each of which flips
    it, has its parity fixed at ``k`` mod 2: an odd ``k`` flips its piles (RULES.md §4).
    """
    om, F, n, (_, R1, _, C1) = corner.om, corner.F, corner.n, corner.box
    nr = R1 + 1
    nl = nr + C1 + 1
    col = frame_tables(F).cols_band[0][0] & ((1 << (nr * F)) - 1)
    # each line: its piles, its bit among the rows (or the columns)
    lines = [(om & ((1 << F) - 1) << (i * F), 1 << i) for i in range(nr)] + [(om & col << j, 1 << j) for j in range(C1 + 1)]
    now = [0] * nl
    toggles_now = [0] * nl
    more = [0] * nl
    toggles_more = [0] * nl
    toggles = 0
    for idx, (m, bit) in enumerate(lines):
        f = flags >> (2 * (nl - 1 - idx)) & 3
        k = n - m.bit_count()
        if f & 2:
            now[idx] = bit
            toggles_now[idx] = m if k & 1 else 0
            toggles ^= toggles_now[idx]
        if f & 1:
            more[idx] = bit
            toggles_more[idx] = m if not k & 1 else 0
    return now, toggles_now, more, toggles_more, sum(now[:nr]), sum(now[nr:]), toggles


@functools.lru_cache(maxsize=CACHE_MAX // 4)
def last_stacked_fail(piles: PileMasks, flags: int, spare: int) -> bool:
    """Whether no win can end by stacking its last ``spare`` cards (1 or 2) when every
    card before them makes a new pile (the *stack patterns* say so: see
    :func:`foursquare.solver.lastcards.stack_pattern_rule`).

    The cards before the last ``spare`` then fill the grid: a line of the box holding
    ``c`` piles gets exactly ``n - c`` of them, so a line that every one of them flips
    (``flags``: the two bits of each line of the box, as :func:`forced_lines_search`
    takes them with no card to spare, from :func:`forced_lines_table` over those cards
    only) has its parity fixed, as with no card to spare.  Each stacked card, on some
    pile z of the full grid (a pile now or one still to be made in the box, not full;
    the same one twice too), frees z's equation (its top card is covered) and z's two
    lines (the stacked card may flip them or not); a pile off the box's lines frees
    nothing.  True when the parity system (:func:`parity_window`) has no solution for
    any choice of the ``spare`` piles.
    RULES.md §3, §4, §5.
    """
    corner = piles.at_corner()
    om, dm, fm, F, n, (_, R1, _, C1) = corner
    nr = R1 + 1
    nc = C1 + 1
    # only the lines fixed now count: no card to spare before the last
    now, toggles_now, _, _, fr0, fc0, tog = _fixed_lines(corner, flags)
    cells = [(i, j) for i in range(nr) for j in range(nc) if not fm >> (i * F + j) & 1]
    # a pile off the box's lines (while the box is not n x n) frees nothing, and freeing only helps
    if (cells or nr < n or nc < n) and parity_window(om, (dm ^ tog) & om, F, n, fr0, fc0):
        return False
    for zs in itertools.combinations_with_replacement(cells, spare):
        lines = {i for i, _ in zs} | {nr + j for _, j in zs}
        fr, fc, tz, o2 = fr0, fc0, tog, om
        for idx in lines:
            tz ^= toggles_now[idx]
            if idx < nr:
                fr &= ~now[idx]
            else:
                fc &= ~now[idx]
        for i, j in zs:
            o2 &= ~(1 << (i * F + j))
        if parity_window(o2, (dm ^ tz) & o2, F, n, fr, fc):
            return False
    return True


def last_cards_rule(ranks: Sequence[int], t0: int, K: int, n: int, limit: int, rm: list[int], top: int) -> Callable[[int, int], bool]:
    """The *last card* and *last two cards* rules again after a stacked card, for a win
    of exactly ``K`` cards (the solver's docstring; :meth:`~foursquare.solver.search.Search.last_card_can_end`,
    :func:`two_last_cut`): the covered card is no longer a top card that the last cards
    could meet.

    :param ranks: the ranks of the deck, top first; ``t0``: the first card of the search.
    :param n: the grid's side; ``limit``: the face-down limit (RULES.md §5).
    :param rm: the search's top cards by rank (``rm[v]``: a mask of the piles whose
        top card has rank ``v``), read at each call; ``top``: its length (ranks below it,
        some pile on the grid).
    :returns: a function ``(t1, slack) -> bool``: True when the rules rule out the
        position whose next card is card ``t1``, with ``slack`` cards to spare.
    """
    last = len(ranks)
    x_last = ranks[K - 1]
    y_last = ranks[K - 2] if K >= 2 else 0
    two_rule = K - 2 >= t0 and two_last_rule_out(y_last, 99, 0, n, limit)
    one_rule = 2 * (n - 1) > limit
    # min and max rank of cards t .. K-2 (before the last card), of cards t .. K-3 (before the last two)
    span1 = [(min(ranks[t : K - 1], default=99), max(ranks[t : K - 1], default=0)) for t in range(last + 1)]
    span2 = [(min(ranks[t : K - 2], default=99), max(ranks[t : K - 2], default=0)) for t in range(last + 1)]

    def last_cards_rule_out(t1: int, slack: int) -> bool:
        lo = 0  # the lowest and highest top card now
        while not rm[lo]:
            lo += 1
        hi = top - 1
        while not rm[hi]:
            hi -= 1
        if one_rule and t1 <= K - 1:  # the last card's rank within the tops it can meet
            a, b = span1[t1]
            if not (min(lo, a) <= x_last <= max(hi, b)):
                return True
        if two_rule and slack <= 1 and t1 <= K - 2:  # the second-to-last strictly beyond them
            a, b = span2[t1]
            lo2 = min(lo, a)
            hi2 = max(hi, b)
            # slack 1: see two_last_cut, case (iii): the last card must fit lo2..hi2
            if (y_last < lo2 or y_last > hi2) and (not slack or not lo2 <= x_last <= hi2):
                return True
        return False

    return last_cards_rule_out
