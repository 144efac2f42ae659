"""Can a win end with these last cards?  A backward search over the last few placements.

The solver (:mod:`foursquare.solver`) tries budgets of K cards in turn: a win with
exactly K cards ends with cards ``K - k .. K - 1`` (the *tail*) placed on a full
grid.  Whatever the position before the tail, its end is known exactly: every
cell holds a pile and every top card is face up (RULES.md §5).  Undoing the tail
placements one at a time from there, the faces before each placement follow
from which lines it flipped (RULES.md §4 flips every other pile of a line, or
none), so they are known at every step; only the top cards placed before the
tail are unknown.  What the flip rule says about them becomes a range of ranks
for each one (a flipped line's face-up cards all rank above the card, or all
below; a line that did not flip holds a face-up card ranked at most and one
ranked at least the card's rank), and the top cards must be different cards
of the deck, so a range that only one card fits can be given to one pile only.

:func:`tail_patterns` searches every way of undoing the tail (which cell, which
flips, a new pile or a stacked card, the covered card's face) with these
constraints and the face-down limit after every placement.  When none works,
no win uses exactly K cards.  Otherwise it tells which
tail cards can have been stacked (the *stack patterns* that work): a win with
cards to spare stacks that many cards, and the solver drops every line that
stacks them elsewhere.  It is a relaxation (it ignores the order of the earlier
cards, adjacency beyond "next to some pile", the pile cap), so a pattern found
proves nothing; a pattern not found is a proof.

Example: deal 24 under the standard rules draws ``TH AC 9S`` as its 15th to 17th cards,
and ``TC`` is the only other ten among its first 14 cards.  No win uses exactly
17 cards: the ace flips both of its lines wherever it goes, and the last card
cannot turn enough of them back.
"""

from __future__ import annotations

import functools
import itertools
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from ..engine.frame import frame_tables

#: A range narrowing of one pile: (pile, lowest class, highest class).
_Narrowing = tuple[int, int, int]

#: The most masks the cells of which :func:`_bits_of` keeps for a grid of over 16 cells
#: (the least recently used go first: a cache, the answers are the same).
BITS_CACHE_MAX = 1 << 16
#: The most positions the memo of one backward search (:func:`tail_patterns`) holds: when
#: it holds this many and one more is to be kept, it is emptied first, in both search
#: cores alike (the steps agree), which bounds its memory (about 700 bytes a position in
#: Python, 100 in the compiled core) however many steps the search is given.
TAIL_MEMO_MAX = 1 << 19


@functools.cache
def _bits_of(N: int) -> Callable[[int], tuple[int, ...]]:
    """A function: bit mask over ``N`` cells -> tuple of its cells, lowest first (a
    table up to 16 cells, else a bounded cache of the masks met)."""
    if N > 16:

        @functools.lru_cache(maxsize=BITS_CACHE_MAX)
        def bits(m: int) -> tuple[int, ...]:
            return tuple(i for i in range(N) if m >> i & 1)

        return bits
    table: list[tuple[int, ...]] = [()] * (1 << N)
    for m in range(1, 1 << N):
        low = m & -m
        table[m] = (low.bit_length() - 1,) + table[m ^ low]
    return table.__getitem__


@functools.cache
def _geometry(n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """For an ``n`` × ``n`` grid (cell ``row*n + column``, :mod:`foursquare.engine.frame`):
    bit masks of each cell's row and column without the cell and of its edge
    neighbours, and one cell of each orbit of the square's 8 symmetries."""
    frame = frame_tables(n)
    seen: set[int] = set()
    orbit_reps = []
    for q in range(n * n):
        r, c = divmod(q, n)
        images = {a2 * n + b2 for a, b in ((r, c), (c, r)) for a2, b2 in ((a, b), (n - 1 - a, b), (a, n - 1 - b), (n - 1 - a, n - 1 - b))}
        if not images & seen:
            orbit_reps.append(q)
        seen |= images
    return frame.row_mask, frame.col_mask, frame.nbr_mask, orbit_reps


def rank_classes(future: Iterable[int], top: int) -> list[int]:
    """Rank -> class, for ranks ``0 .. top - 1``, against the ranks of ``future`` cards.

    A card's rank only matters through comparisons with the cards still to come
    (RULES.md §4: ``lo <= x <= hi`` with the face-up others).  The class counts the
    future ranks below the rank (twice), plus one when the rank is itself a future
    rank: it is monotone, and for every future rank x, ``v <= x`` exactly when
    ``class(v) <= class(x)``.  So two ranks of the same class can be swapped without
    changing any future flip.
    """
    ranks = set(future)
    return [2 * sum(1 for f in ranks if f < v) + (v in ranks) for v in range(top)]


def _distinct(narrowed: list[int], lo: list[int], hi: list[int], av: list[int]) -> bool:
    """Whether the piles ``narrowed`` can have different cards within their class ranges
    ``lo[p] .. hi[p]``, with ``av[c]`` cards of class ``c`` (the piles whose range is not
    narrowed never compete; greedy by range end is exact).  Sorts ``narrowed``."""
    if len(narrowed) > 1:
        narrowed.sort(key=hi.__getitem__)
    a = av[:]
    for p in narrowed:
        v, b = lo[p], hi[p]
        while v <= b and not a[v]:
            v += 1
        if v > b:
            return False
        a[v] -= 1
    return True


class TailLimit(Exception):
    """The node or time limit of :func:`tail_patterns` ran out; ``steps``: the steps searched.
    A signal inside the solver's search (it never reaches a caller), not an error."""

    def __init__(self, steps: int) -> None:
        super().__init__(steps)
        self.steps = steps


def tail_patterns(  # noqa: C901, PLR0913 — the backward search, mirrored in _core.c's tail_patterns (the same nine arguments); its count is that of undo, nested for speed
    tail: Sequence[int],
    earlier: Sequence[int],
    n: int,
    limit: int,
    stacks: int,
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    every: bool = False,
    memo_max: int | None = None,
) -> tuple[int, int]:
    """The stack patterns with which a win can end with the placements of ``tail``
    (standard flip rules).

    A *stack pattern* says which tail cards were stacked on a pile rather than
    making a new one: pattern ``p`` has bit ``j`` set when tail card ``j`` (in the
    order drawn) was stacked.  The answer is a set of patterns as a bit mask over
    them (bit ``p`` set: pattern ``p`` is possible), so 0 means that no win ends
    with this tail.  Deal 546 needs 18 cards for its best win (score 22), two to
    spare, and its only possible pattern is ``0b110``: its last two cards are
    stacked, so its first 16 cards must fill the grid.

    :param tail: the ranks of the last ``k`` cards of the win, in the order drawn;
        at least one card was placed before them (the tail does not start the game).
    :param earlier: the ranks of every card that can be a top card when the tail
        begins (the cards drawn before it, or the top cards of a position and the
        cards drawn after it); each is one card (ranks repeat for different cards).
    :param n: the grid is ``n`` × ``n`` piles.
    :param limit: the face-down limit (RULES.md §5: more face-down top cards loses).
    :param stacks: the most tail cards that may be stacked on a pile rather than
        make a new one (cards beyond the empty cells the win must fill).
    :param max_nodes: the most backward steps to try (``None``: no limit).
    :param deadline: a :func:`time.perf_counter` time to give up at.
    :param every: find every possible pattern; when false, stop at the first way
        back found and report every pattern with at most ``stacks`` stacked cards
        (the answer is then only "0 or not").
    :param memo_max: the most positions the search's memo holds, emptied when full
        (``None``: :data:`TAIL_MEMO_MAX`); the compiled core's ``tail_patterns`` takes
        the same and counts the same steps.
    :returns: (the set of possible patterns — a pattern left out is a proof that no
        win ends that way —, steps searched).
    :raises TailLimit: when ``max_nodes`` or ``deadline`` runs out first.
    """
    k = len(tail)
    N = n * n
    if k == 0:
        return True, 0
    # A top card only meets tail cards, so its rank matters through its class
    # (rank_classes): xs the class of each tail card, HI the highest class (twice the
    # distinct tail ranks); avail[j][c] the cards of class c that can be top cards before
    # tail card j (the earlier cards and tail cards 0 .. j - 1), prefix[j][c] those of
    # class below c.
    rank_class = rank_classes(tail, max([*tail, *earlier]) + 1)
    xs = [rank_class[v] for v in tail]
    HI = 2 * len(set(tail))
    counts = [0] * (HI + 1)
    for v in earlier:
        counts[rank_class[v]] += 1
    avail = []
    for x in xs:
        avail.append(counts[:])
        counts[x] += 1
    prefix = [[0, *itertools.accumulate(a)] for a in avail]
    # The end position is the same under the 8 symmetries of the square: the last
    # card's cell is tried once per orbit.
    row_o, col_o, nbr, orbit_reps = _geometry(n)
    bits = _bits_of(N)
    cap_nodes = max_nodes if max_nodes is not None else 1 << 62
    nodes = 0
    known: dict[tuple[object, ...], int] = {}  # state -> the patterns of the cards before it that undo it
    most = max(1, TAIL_MEMO_MAX if memo_max is None else memo_max)

    def remember(key: tuple[object, ...], S: int) -> int:
        if len(known) >= most:
            known.clear()  # full: emptied, as in the compiled core
        known[key] = S
        return S

    # full[j][r]: the set of every stack pattern of cards 0 .. j with at most r stacks
    full = [[sum(1 << p for p in range(2 << j) if p.bit_count() <= r) for r in range(stacks + 1)] for j in range(k)]

    def distinct_cards(om: int, lo: list[int], hi: list[int], av: list[int]) -> bool:
        """Whether the piles of ``om`` can have different cards within their ranges."""
        return _distinct([p for p in bits(om) if lo[p] or hi[p] < HI], lo, hi, av)

    def line_ways(line: int, up: int, flip: int, x: int, lo: list[int], hi: list[int], ps: list[int]) -> list[tuple[_Narrowing, ...]]:
        """The ways a line's flip test (RULES.md §4) can have gone, each as range
        narrowings ``(pile, lo, hi)``: ``line`` its other piles, ``up`` the face-up
        top cards before the placement, ``x`` the placed card's class."""
        U = line & up
        if flip:  # every face-up card ranks above x, or every one below
            if not U:
                return [()]
            cells = bits(U)
            ways: list[tuple[_Narrowing, ...]] = []
            if all(ps[hi[p] + 1] - ps[max(lo[p], x + 1)] > 0 for p in cells):
                ways.append(tuple((p, x + 1, HI) for p in cells))
            if all(ps[min(hi[p], x - 1) + 1] - ps[lo[p]] > 0 for p in cells):
                ways.append(tuple((p, 0, x - 1) for p in cells))
            return ways
        if not U:  # no face-up card: the line flips
            return []
        # a face-up card ranked at most x and one at least x; a pile already known
        # to qualify makes every other choice redundant
        cells = bits(U)
        low: list[tuple[_Narrowing, ...]] = (
            [()] if any(hi[p] <= x for p in cells) else [((p, 0, x),) for p in cells if ps[min(hi[p], x) + 1] - ps[lo[p]] > 0]
        )
        high: list[tuple[_Narrowing, ...]] = (
            [()] if any(lo[p] >= x for p in cells) else [((p, x, HI),) for p in cells if ps[hi[p] + 1] - ps[max(lo[p], x)] > 0]
        )
        return [a + b for a in low for b in high]

    def undo(j: int, ts: int, om: int, dm: int, lo: list[int], hi: list[int]) -> int:  # noqa: C901, PLR0912 — the backward search's inner loop, mirrored line for line in _core.c's undo; split, it would be slower and no longer a twin
        """The stack patterns of tail cards 0 .. j with which they can be undone from
        this position (after card j): ``om`` piles, ``dm`` face-down top cards,
        ``lo``/``hi`` class ranges, ``ts`` tail cards stacked after card j."""
        nonlocal nodes
        if nodes >= cap_nodes or (deadline is not None and not nodes & 255 and time.perf_counter() > deadline):
            raise TailLimit(nodes)
        nodes += 1
        if j < 0:
            if not every:
                raise _Enough
            return 1
        key = (j, ts, om, dm, tuple(lo), tuple(hi))
        got = known.get(key)
        if got is not None:
            return got
        S = 0
        enough = full[j][stacks - ts]
        stack_bit = 1 << j
        x = xs[j]
        av = avail[j]
        ps = prefix[j]
        narrowed = [p for p in bits(om) if lo[p] or hi[p] < HI]
        others_fit = _distinct(narrowed[:], lo, hi, av)  # for a q whose range is not narrowed
        for q in orbit_reps if j == k - 1 else bits(om & ~dm):
            # card j is q's top card, face up; the other top cards are earlier cards
            if not lo[q] <= x <= hi[q]:
                continue
            if not (_distinct([p for p in narrowed if p != q], lo, hi, av) if q in narrowed else others_fit):
                continue
            qb = 1 << q
            R = row_o[q] & om
            C = col_o[q] & om
            for fr in (0, 1) if R else (0,):
                for fc in (0, 1) if C else (0,):
                    d2 = dm ^ (R if fr else 0) ^ (C if fc else 0)  # faces before card j
                    down = (d2 & om & ~qb).bit_count()
                    if down > limit + 1:
                        continue
                    up = om & ~d2
                    col_ways = line_ways(C, up, fc, x, lo, hi, ps)
                    if not col_ways:
                        continue
                    for w1 in line_ways(R, up, fr, x, lo, hi, ps):
                        for w2 in col_ways:
                            lo2 = lo[:]
                            hi2 = hi[:]
                            for p, a, b in w1 + w2:
                                if a > lo2[p]:
                                    lo2[p] = a
                                if b < hi2[p]:
                                    hi2[p] = b
                                if lo2[p] > hi2[p]:
                                    break
                            else:
                                lo2[q] = 0  # q: empty before card j, or an unknown covered card
                                hi2[q] = HI
                                om2 = om & ~qb
                                # card j made a new pile next to another one (RULES.md §3)
                                if down <= limit and om2 & nbr[q] and distinct_cards(om2, lo2, hi2, av):
                                    S |= undo(j - 1, ts, om2, d2, lo2, hi2)
                                    if S & enough == enough:
                                        return remember(key, S)
                                # card j was stacked on q's pile, whose top was face up or down
                                if ts < stacks and distinct_cards(om, lo2, hi2, av):
                                    if down <= limit:
                                        S |= undo(j - 1, ts + 1, om, d2, lo2, hi2) << stack_bit
                                    if down < limit:
                                        S |= undo(j - 1, ts + 1, om, d2 | qb, lo2, hi2) << stack_bit
                                    if S & enough == enough:
                                        return remember(key, S)
        return remember(key, S)

    try:
        return undo(k - 1, 0, (1 << N) - 1, 0, [0] * N, [HI] * N), nodes
    except _Enough:
        return full[k - 1][stacks], nodes


#: The answers of :func:`tail_patterns` with ``every`` (the forward search's use,
#: :meth:`foursquare.solver.search.Search._tail_search`), ``(set of patterns, steps)``, by
#: what they depend on (:func:`tail_key`): the same inputs recur across the budgets of a
#: solve and, far more, across the sampled stocks and cells of the ``expert`` bot.  A
#: search stopped by its node limit is kept as ``(-1, steps)``: more steps needed.  Each
#: search core keeps its own answers (so that the twins are still compared search against
#: search); node counts and ``--max-nodes`` are the same with the cache or without it
#: (:func:`cached_tail_search`).
TAIL_CACHE: dict[tuple[object, ...], tuple[int, int]] = {}
#: The tail cache is emptied when it is to hold more answers than this (0: no cache);
#: about 400 bytes an answer, so at most about 40 MB.
TAIL_CACHE_MAX = 100_000


def tail_key(tail: Sequence[int], earlier: Sequence[int], N: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What :func:`tail_patterns` of ``tail`` after ``earlier`` on ``N`` cells depends on
    besides the grid, the limit and the stacks: the classes of the tail cards
    (:func:`rank_classes`) and how many earlier cards each class holds, at most ``N`` (the
    search only asks whether a range of classes holds a card, and gives one card to each
    of at most ``N`` piles), so ranks that compare alike share one answer."""
    distinct = sorted(set(tail))
    cls = {v: 2 * i + 1 for i, v in enumerate(distinct)}
    counts = [0] * (2 * len(distinct) + 1)
    for v, m in Counter(earlier).items():
        c = cls.get(v)
        counts[2 * bisect_left(distinct, v) if c is None else c] += m
    return tuple(cls[v] for v in tail), tuple(m if m < N else N for m in counts)


def cached_tail_search(
    key: tuple[object, ...], allowed: int, deadline: float | None, search: Callable[[], tuple[bool, int, int]],
) -> tuple[bool, int, int]:
    """``search()`` — a backward search of at most ``allowed`` steps, as ``(stopped by its
    limit, set of patterns, steps)`` — or what :data:`TAIL_CACHE` knows of it under
    ``key``, the same as the search would give (while ``deadline``, a
    :func:`time.perf_counter` time, has not passed): an answer found in at most
    ``allowed`` steps counts its steps; one that took more, or a search known to need
    more, stops after exactly ``allowed`` steps (a search stopped by its node limit has
    always searched them all)."""
    known = TAIL_CACHE.get(key) if TAIL_CACHE_MAX > 0 else None
    if (
        known is not None and allowed >= 0 and (known[0] >= 0 or allowed <= known[1])
        and (deadline is None or time.perf_counter() <= deadline)
    ):
        return (False, known[0], known[1]) if known[0] >= 0 and known[1] <= allowed else (True, 0, allowed)
    over, pats, steps = search()
    if TAIL_CACHE_MAX > 0 and (not over or known is None or steps > known[1]):
        if len(TAIL_CACHE) >= TAIL_CACHE_MAX:
            TAIL_CACHE.clear()
        TAIL_CACHE[key] = (-1, steps) if over else (pats, steps)
    return over, pats, steps


class _Enough(Exception):
    """A way back exists and no more is asked (``every`` false)."""


def stack_pattern_rule(
    patterns: tuple[int, int], K: int, spare: int, last: int,
) -> tuple[bool, int, list[list[bool]], set[tuple[int, int, int]]]:
    """The *stack patterns* rule for a win of exactly ``K`` cards: before the tail, the
    cards still to stack must leave room for a possible pattern; inside it, the cards
    stacked so far must begin one.  The forward search's use of the stack patterns,
    ``(in_force, tail_start, before, inside)``:

    - ``in_force``: whether the patterns rule anything out (not when every pattern
      with at most the cards to spare is possible);
    - ``tail_start``: the first tail card (``K - k``);
    - ``before[t][s]``: whether ``s`` cards still to stack after card ``t - 1``, none
      of them in the tail yet, fit some possible pattern (``t`` up to ``tail_start``);
    - ``inside``: ``(tail cards placed, their pattern, cards still to stack)`` for
      every beginning of a possible pattern.

    :param patterns: ``(set, k)``: the possible patterns of the last ``k`` cards
        (:func:`tail_patterns`, bit ``p`` for pattern ``p``).
    :param spare: the cards to spare (the win's stacked cards, RULES.md §3).
    :param last: the number of known cards (the tables cover ``0 .. last`` cards to stack).
    """
    P, kt = patterns
    tail_start = K - kt
    in_force = P != sum(1 << p for p in range(1 << kt) if p.bit_count() <= spare)
    if not in_force:
        return False, tail_start, [], set()
    possible = [p for p in range(1 << kt) if P >> p & 1]
    before = [
        [any(p.bit_count() <= s <= p.bit_count() + tail_start - t for p in possible) for s in range(last + 1)]
        for t in range(tail_start + 1)
    ]
    inside = {(i, p & ((1 << i) - 1), (p >> i).bit_count()) for p in possible for i in range(1, kt + 1)}
    return True, tail_start, before, inside
