/* The solver's compiled search core: Search.search_budget of search.py, in C.
 *
 * One algorithm, two spellings: this file is the exact twin of the pure-Python
 * search in foursquare/solver/search.py (dfs), bounds.py (parity_extra,
 * one_pile_frees, forced_lines_table, forced_lines_flag_table,
 * forced_lines_search, last_cards_rule) and lastcards.py (stack_pattern_rule).
 * Names follow the Python; comments say which Python function a part mirrors.
 * Both visit the same positions in the same order, so they agree on the result
 * and on the node count (tests/solver/test_core_twin.py checks it).
 *
 * Differences that cannot change a result:
 * - The parity and forced-lines verdicts are computed each time (Python keeps
 *   them in caches shared by every search: they only remember pure functions).
 * - The transposition table is a hash set of exact keys (all that the Python
 *   tuple says, none lost), made for one budget and freed after it; like the
 *   Python dict, it keeps each entry's work, and when it holds tt_max entries and
 *   one more is to be stored it keeps the same half of them (search.py:
 *   tt_make_room).
 *
 * Limits: frames of at most 63 cells (bit masks in one 64-bit word; every grid
 * up to 4x4 floating and up to 6x6 fixed); search.py keeps the other frames.
 * The only state outside a call is the parity tables (pure functions of n,
 * made once when the module is imported, read only after).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#ifdef MAP_ANONYMOUS
#define HAVE_MMAP_ANON 1
#endif
#ifdef MADV_HUGEPAGE
#define HAVE_HUGE_PAGES 1
#endif
#endif

typedef uint64_t mask;

#define MAXN 6           /* grid side */
#define MAXCELLS 63      /* frame cells: one 64-bit word */
#define MAXTOP 16        /* ranks 1 .. 13, plus 2 (search.py: top) */
#define MAXCAP 8         /* pile cap */
#define TAIL_MEMO_MAX ((Py_ssize_t)1 << 19) /* lastcards.TAIL_MEMO_MAX */
#define MAXDECK 64       /* cards in a deck (13 ranks x 4 suits = 52) */

#define STOP_LIMIT 1
#define STOP_ERROR 2

/* The search's hot functions (HOT) in two versions on x86-64 Linux where the compiler
 * can: with the popcount instruction, picked when the processor has it (nearly all do),
 * and without.  Elsewhere one version, with the instruction where the build allows it
 * (-mpopcnt, -march=native; __builtin_popcountll is the instruction on arm64), else a SWAR
 * bit count (portable, and faster than libgcc's table walk). */
#if defined(__has_attribute)
#if __has_attribute(target_clones) && defined(__x86_64__) && defined(__GLIBC__) && !defined(__POPCNT__)
#define HOT __attribute__((target_clones("popcnt", "default")))
#define POPCOUNT_BUILTIN 1
#endif
#endif
#ifndef HOT
#define HOT
#endif
/* small helpers of the hot functions, inlined into each of their versions */
#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif
#if defined(__POPCNT__) || defined(__aarch64__)
#define POPCOUNT_BUILTIN 1
#endif

static inline int popcount(mask m)
{
#ifdef POPCOUNT_BUILTIN
    return __builtin_popcountll(m);
#else
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int lowest(mask m) { return __builtin_ctzll(m); }
static inline mask low_bits(int k) { return k >= 64 ? ~(mask)0 : (((mask)1 << k) - 1); }

/* ---- line parity (bounds.py) ---- */

/* _parity_rows_table(n): rows[(o << n | d) << 1 | f] and free[fixed], for n = 3 .. 6. */
static mask *parity_rows[MAXN + 1];
static mask *parity_free[MAXN + 1];

static int make_parity_tables(void)
{
    for (int n = 3; n <= MAXN; n++) {
        int size = 1 << n;
        mask *rows = calloc((size_t)size * size * 2, sizeof(mask));
        mask *free_ = calloc((size_t)size, sizeof(mask));
        if (!rows || !free_) {
            free(rows);
            free(free_);
            return -1;
        }
        for (int o = 0; o < size; o++)
            for (int d = 0; d < size; d++)
                for (int f = 0; f < 2; f++) {
                    mask m = 0;
                    for (int c = 0; c < size; c++) {
                        int v = (d ^ c) & o;
                        if (!v || (!f && v == o))
                            m |= (mask)1 << c;
                    }
                    rows[((o << n | d) << 1) | f] = m;
                }
        for (int fixed = 0; fixed < size; fixed++) {
            mask m = 0;
            for (int c = 0; c < size; c++)
                if (!(c & fixed))
                    m |= (mask)1 << c;
            free_[fixed] = m;
        }
        parity_rows[n] = rows;
        parity_free[n] = free_;
    }
    return 0;
}

/* A row's set of column parities: bit c is set when the column parities c solve the row's
   equation.  o: the row's piles (n bits), d: their face-down bits, fixed: the row's own
   parity is fixed (a fixed line; a full row always is). */
INLINE mask row_set(const mask *table, int n, mask o, mask d, int fixed)
{
    return table[((o << n | (d & o)) << 1) | (fixed || popcount(o) >= n)];
}

/* row_set of a row one of whose piles is taken out: never full, its parity free */
INLINE mask row_set_less(const mask *table, int n, mask o, mask d)
{
    return table[(o << n | (d & o)) << 1];
}

/* The rows around each row i: `before[i]` ANDs the sets of column parities of the rows
   0 .. i - 1 (a row with no pile allows every set), `after[i]` those of the rows i .. n - 1;
   `piles` ANDs their piles likewise (a row with no pile counts as all n) and `rows` counts
   the rows holding a pile.  So the system without row i's equation is before[i] & after[i + 1]. */
typedef struct {
    mask set[MAXN + 1], piles[MAXN + 1];
    int rows[MAXN + 1];
} Around;

INLINE void rows_around(const mask *table, int n, const mask *ro, const mask *rd, mask frows, Around *before, Around *after)
{
    mask lm = low_bits(n), any = parity_free[n][0], set[MAXN], piles[MAXN];
    for (int i = 0; i < n; i++) {
        set[i] = ro[i] ? row_set(table, n, ro[i], rd[i], frows >> i & 1) : any;
        piles[i] = ro[i] ? ro[i] : lm;
    }
    before->set[0] = after->set[n] = any;
    before->piles[0] = after->piles[n] = lm;
    before->rows[0] = after->rows[n] = 0;
    for (int i = 0; i < n; i++) {
        before->set[i + 1] = before->set[i] & set[i];
        before->piles[i + 1] = before->piles[i] & piles[i];
        before->rows[i + 1] = before->rows[i] + (ro[i] != 0);
        int k = n - 1 - i;
        after->set[k] = after->set[k + 1] & set[k];
        after->piles[k] = after->piles[k + 1] & piles[k];
        after->rows[k] = after->rows[k + 1] + (ro[k] != 0);
    }
}

/* parity_window */
HOT static int parity_window(mask om, mask dm, int F, int n, mask frows, mask fcols)
{
    const mask *table = parity_rows[n], *free_ = parity_free[n];
    mask lm = low_bits(n);
    mask ok = free_[fcols & lm];
    mask every = lm;
    int nrows = 0;
    for (int i = 0; i < n; i++) {
        mask o = om & lm;
        if (o) {
            nrows++;
            every &= o;
            ok &= row_set(table, n, o, dm, frows & 1);
            if (!ok)
                return 0;
        }
        om >>= F;
        dm >>= F;
        frows >>= 1;
    }
    if (nrows >= n)
        ok &= free_[every];
    return ok != 0;
}

/* _window_origin: the first row and column holding a pile, as the shift r0 * F + c0 */
HOT static int window_shift(mask om, int F)
{
    int r0 = lowest(om) / F;
    mask lm = low_bits(F), cols = 0;
    while (om) {
        cols |= om & lm;
        om >>= F;
    }
    return r0 * F + lowest(cols);
}

/* one_pile_frees */
HOT static int one_pile_frees(mask om, mask dm, mask candidates, int F, int n)
{
    const mask *table = parity_rows[n], *free_ = parity_free[n];
    mask lm = low_bits(n), ro[MAXN], rd[MAXN];
    Around before, after;
    for (int r = 0; r < n; r++) {
        ro[r] = (om >> (r * F)) & lm;
        rd[r] = (dm >> (r * F)) & lm;
    }
    rows_around(table, n, ro, rd, 0, &before, &after);
    while (candidates) {
        int i = lowest(candidates);
        candidates &= candidates - 1;
        int r = i / F, c = i % F;
        mask o = ro[r] & ~((mask)1 << c);
        mask ok = before.set[r] & after.set[r + 1];
        if (o) {
            ok &= row_set_less(table, n, o, rd[r]);
            if (before.rows[r] + after.rows[r + 1] + 1 >= n)
                ok &= free_[before.piles[r] & after.piles[r + 1] & o];
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* parity_extra */
HOT static int parity_extra(mask om, mask dm, mask fm, int F, int n, int want)
{
    if (!om)
        return 0;
    int s = window_shift(om, F);
    om >>= s;
    dm >>= s;
    if (parity_window(om, dm, F, n, 0, 0))
        return 0;
    if (want < 2)
        return 1;
    return one_pile_frees(om, dm, om & ~(fm >> s), F, n) ? 1 : 2;
}

/* ---- the search's state for one budget (search.py: Search.search_budget) ---- */

typedef struct {
    /* the rules and the frame */
    int F, n, n2, nm1, cap, limit, room, floating, top, last, K, t0;
    int mid, centre;
    mask above_centre_bit, every, not_col0, not_colz, col0;
    mask row_o[MAXCELLS], col_o[MAXCELLS];
    /* the position, changed by make/unmake */
    int ranks[MAXDECK];
    int h[MAXCELLS], rk[MAXCELLS];
    mask rm[MAXTOP], hm[MAXCAP + 2];
    int lo_r[MAXN * 2], hi_r[MAXN * 2], lo_c[MAXN * 2], hi_c[MAXN * 2];
    /* limits */
    long long nodes, max_nodes;
    double deadline;
    int has_deadline, stop;
    /* stack patterns (lastcards.stack_pattern_rule) */
    int pat_rule, tail_start, kt;
    unsigned char *ok_before; /* [t][s]: (tail_start + 1) x (last + 1) */
    unsigned char ok_in_tail[5][16][5];
    int stacked[MAXDECK + 1];
    /* last cards after a stacked card (bounds.last_cards_rule) */
    int one_rule, two_rule, x_last, y_last;
    int span1_lo[MAXDECK + 1], span1_hi[MAXDECK + 1], span2_lo[MAXDECK + 1], span2_hi[MAXDECK + 1];
    /* rank runs (search.py: rank_runs) and forced-lines flag tables, by cards placed */
    signed char nruns[MAXDECK + 1]; /* -1: not made yet */
    unsigned char run_of[MAXDECK + 1][MAXTOP]; /* rank -> its run */
    unsigned char *flag_tables[MAXDECK + 1]; /* [slack 0/1][min(k, 2)][lo * top + hi] */
    /* the last cards are the stacked ones (bounds.last_stacked_fail): how many (0: not so),
       and the forced-lines flag tables of the cards before them, by cards placed */
    int last_stacked;
    unsigned char *fill_tables[MAXDECK + 1];
    uint64_t *ls_cache; /* last_stacked_fail's verdicts by the layout's shape, made when first needed */
    /* transposition table: exact keys of keyw words, open addressing */
    int keyw;
    mask *keys;           /* entries * keyw words */
    uint32_t *works;      /* by entry: the positions its search took, at most TT_WORK_MAX (search.py: the dict's values) */
    uint64_t *slots;      /* entry + 1 << 32 | hash tag; 0: empty */
    size_t nentries, cap_entries, nslots;
    size_t tt_max; /* the most entries: when full, the half that took the least work goes (search.py: tt_make_room) */
    /* the win's path, last move first */
    int path[MAXDECK];
    int npath;
} Search;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* time.perf_counter's clock on Linux */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline mask rows_band(const Search *S, int r0, int r1)
{
    return r1 >= r0 ? low_bits(S->F * (r1 - r0 + 1)) << (S->F * r0) : 0;
}

static inline mask cols_band(const Search *S, int c0, int c1)
{
    return c1 >= c0 ? S->col0 * (low_bits(c1 - c0 + 1) << c0) : 0;
}

/* rank_classes + rank_runs: runs of ranks of one class for positions whose next card is t */
static void make_rank_runs(Search *S, int t)
{
    int in_future[MAXTOP] = {0};
    for (int i = t; i < S->K && i < S->last; i++)
        in_future[S->ranks[i]] = 1;
    int cl[MAXTOP];
    int below = 0;
    for (int v = 0; v < S->top; v++) {
        cl[v] = 2 * below + in_future[v];
        below += in_future[v];
    }
    int nr = 0;
    for (int v = 0; v < S->top; v++) {
        if (v > 0 && cl[v] != cl[v - 1])
            nr++;
        S->run_of[t][v] = (unsigned char)nr;
    }
    S->nruns[t] = (signed char)(nr + 1);
}

/* forced_lines_table + forced_lines_flag_table for cards t .. end - 1 */
static unsigned char *make_flag_table(Search *S, int t, int end)
{
    int top = S->top, tt = top * top;
    unsigned char *ft = calloc((size_t)2 * 3 * tt, 1);
    if (!ft)
        return NULL;
    const int *cards = S->ranks + t;
    int ncards = end - t;
    if (ncards < 0)
        ncards = 0;
    for (int lo = 1; lo < top; lo++)
        for (int hi = lo; hi < top; hi++) {
            int one = 1;
            for (int i = 0; i < ncards; i++)
                if (lo <= cards[i] && cards[i] <= hi) {
                    one = 0;
                    break;
                }
            int more = 0;
            if (one) {
                int a = lo, b = hi;
                more = 1;
                for (int i = 0; i < ncards; i++) {
                    int x = cards[i];
                    if (a <= x && x <= b) {
                        more = 0;
                        break;
                    }
                    if (x < a)
                        a = x;
                    if (x > b)
                        b = x;
                }
            }
            int e = lo * top + hi;
            /* [slack 0]: k 0 -> 0; k 1 -> 2 one; k >= 2 -> 2 more */
            ft[0 * tt + e] = 0;
            ft[1 * tt + e] = (unsigned char)(2 * one);
            ft[2 * tt + e] = (unsigned char)(2 * more);
            /* [slack 1]: k 0 -> one; k 1 -> 2 one + more; k >= 2 -> 3 more */
            ft[3 * tt + e] = (unsigned char)one;
            ft[4 * tt + e] = (unsigned char)(2 * one + more);
            ft[5 * tt + e] = (unsigned char)(3 * more);
        }
    return ft;
}

/* A set of column parities (bit c: the parities c of the n columns) with column j's parity
   toggled: bit c goes to bit c ^ (1 << j). */
static inline mask flip_column(mask set, int j)
{
    static const mask stay[MAXN] = {0x5555555555555555ULL, 0x3333333333333333ULL, 0x0F0F0F0F0F0F0F0FULL,
                                    0x00FF00FF00FF00FFULL, 0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
    int w = 1 << j;
    return (set & stay[j]) << w | (set >> w & stay[j]);
}

/* forced_lines_search */
HOT static int forced_lines_search(const Search *S, mask om, mask dm, mask fm, int slack, uint64_t flags, int R0, int R1, int C0, int C1)
{
    int F = S->F, n = S->n;
    int nr = R1 - R0 + 1;
    int nl = nr + C1 - C0 + 1;
    int s = R0 * F + C0;
    om >>= s;
    dm >>= s;
    mask row = low_bits(F);
    mask col = S->col0 & low_bits(nr * F);
    mask fix_now[2 * MAXN], tog_now[2 * MAXN], fix_more[2 * MAXN], tog_more[2 * MAXN];
    mask frows = 0, fcols = 0, tog = 0;
    for (int idx = 0; idx < nl; idx++) {
        int f = (int)(flags >> (2 * (nl - 1 - idx)) & 3);
        mask m, bit;
        if (idx < nr) {
            m = om & (row << (idx * F));
            bit = (mask)1 << idx;
        } else {
            m = om & (col << (idx - nr));
            bit = (mask)1 << (idx - nr);
        }
        int k = n - popcount(m);
        fix_now[idx] = tog_now[idx] = fix_more[idx] = tog_more[idx] = 0;
        if (f & 2) {
            fix_now[idx] = bit;
            tog_now[idx] = (k & 1) ? m : 0;
        }
        if (f & 1) {
            fix_more[idx] = bit;
            tog_more[idx] = !(k & 1) ? m : 0;
        }
        if (idx < nr)
            frows |= fix_now[idx];
        else
            fcols |= fix_now[idx];
        tog ^= tog_now[idx];
    }
    if (slack == 0)
        return !parity_window(om, (dm ^ tog) & om, F, n, frows, fcols);
    fm >>= s;
    /* z's row: one of the box's nr rows, or (i == nr, when the box has fewer than n rows)
       a row with no pile yet, whose card changes no line of the system; columns alike.
       Row by row, as parity_window: a choice changes only row i's equation (z's pile less,
       its fixed parity), the fixed columns, and column j's parity, which toggles the bit j
       of every row's piles: that maps each row's set of column parities c to c ^ (1 << j),
       and so their AND (flip_column) */
    int nc = nl - nr;
    int ni = nr < n ? nr + 1 : nr, nj = nc < n ? nc + 1 : nc;
    const mask *table = parity_rows[n], *free_ = parity_free[n];
    mask lm = low_bits(n), ro[MAXN], rd[MAXN];
    Around before, after;
    dm = (dm ^ tog) & om;
    for (int i = 0; i < n; i++) {
        ro[i] = om >> (i * F) & lm;
        rd[i] = dm >> (i * F) & lm;
    }
    rows_around(table, n, ro, rd, frows, &before, &after);
    for (int i = 0; i < ni; i++) {
        mask rows_ok = before.set[n], rest = lm, o = 0, d = 0;
        int rest_rows = before.rows[n], fixed_i = 0;
        if (i < nr) {
            rows_ok = before.set[i] & after.set[i + 1];
            rest = before.piles[i] & after.piles[i + 1];
            rest_rows = before.rows[i] + after.rows[i + 1];
            o = ro[i];
            d = rd[i] ^ ((tog_now[i] ^ tog_more[i]) >> (i * F) & lm);
            fixed_i = fix_more[i] != 0;
        }
        for (int j = 0; j < nj; j++) {
            mask fc = fcols, flip = 0, oz = o;
            if (j < nc) {
                int c = nr + j;
                fc = (fcols & ~fix_now[c]) | fix_more[c];
                flip = tog_now[c] ^ tog_more[c];
                if (i < nr && (o >> j & 1)) {
                    if (fm >> (i * F + j) & 1)
                        continue;
                    oz = o & ~((mask)1 << j);
                }
            }
            mask ok = rows_ok, every = rest;
            int nrows = rest_rows;
            if (i < nr) {
                if (oz) {
                    ok &= row_set(table, n, oz, d, fixed_i);
                    every &= oz;
                    nrows++;
                }
            }
            if (flip)
                ok = flip_column(ok, j);
            ok &= free_[fc];
            if (nrows >= n)
                ok &= free_[every];
            if (ok)
                return 0;
        }
    }
    return 1;
}


/* bounds.last_stacked_fail.  The same verdict as trying parity_window on every choice of
   the piles, computed row by row: a choice changes only its piles' rows (a pile less, the
   line no longer fixed) and the fixed columns, so the other rows' sets of column parities
   are ANDed once, in ranges.  A freed line's parity toggle is left out: the line's own
   parity is then free, and flipping it maps the solutions onto those of the toggled system. */
HOT static int last_stacked_fail(const Search *S, mask om, mask dm, mask fm, uint64_t flags, int spare, int R0, int R1, int C0, int C1)
{
    int F = S->F, n = S->n;
    int nr = R1 - R0 + 1, nc = C1 - C0 + 1, nl = nr + nc;
    int s = R0 * F + C0;
    om >>= s;
    dm >>= s;
    fm >>= s;
    mask row = low_bits(F);
    mask col = S->col0 & low_bits(nr * F);
    mask fixed[2 * MAXN]; /* a fixed line's bit among the rows (or columns) */
    mask frows = 0, fcols = 0, tog = 0;
    for (int idx = 0; idx < nl; idx++) {
        fixed[idx] = 0;
        if (!(flags >> (2 * (nl - 1 - idx)) & 2))
            continue;
        mask m = idx < nr ? om & (row << (idx * F)) : om & (col << (idx - nr));
        fixed[idx] = (mask)1 << (idx < nr ? idx : idx - nr);
        if ((n - popcount(m)) & 1)
            tog ^= m;
        if (idx < nr)
            frows |= fixed[idx];
        else
            fcols |= fixed[idx];
    }
    dm = (dm ^ tog) & om;
    /* the cells of the box the stacked cards may go to, by row: their columns' bits */
    mask lm = low_bits(n), cand[MAXN];
    int nz = 0;
    for (int i = 0; i < nr; i++) {
        cand[i] = ~(fm >> (i * F)) & low_bits(nc);
        nz += popcount(cand[i]);
    }
    /* a pile off the box's lines (while the box is not n x n) frees nothing, and freeing only helps */
    if ((nz || nr < n || nc < n) && parity_window(om, dm, F, n, frows, fcols))
        return 0;
    /* each row's piles and parity bits; the ANDs of the rows' sets of column parities as they
       are (and of their piles, for the full columns) over the rows a .. b - 1 */
    const mask *table = parity_rows[n], *free_ = parity_free[n];
    mask any = free_[0];
    mask ro[MAXN], rd[MAXN], set_and[MAXN + 1][MAXN + 1], piles_and[MAXN + 1][MAXN + 1];
    int rows_with[MAXN + 1][MAXN + 1];
    for (int i = 0; i < n; i++) {
        ro[i] = om >> (i * F) & lm;
        rd[i] = dm >> (i * F) & lm;
    }
    for (int a = 0; a <= n; a++) {
        set_and[a][a] = any;
        piles_and[a][a] = lm;
        rows_with[a][a] = 0;
        for (int b = a; b < n; b++) {
            mask o = ro[b];
            set_and[a][b + 1] = set_and[a][b];
            piles_and[a][b + 1] = piles_and[a][b];
            rows_with[a][b + 1] = rows_with[a][b];
            if (o) {
                set_and[a][b + 1] &= row_set(table, n, o, rd[b], frows >> b & 1);
                piles_and[a][b + 1] &= o;
                rows_with[a][b + 1]++;
            }
        }
    }
    /* the choices by their rows i1 <= i2 (the same row for one card); a pair of rows is
       passed over when even the system without those rows' equations, with every column
       of their cells freed, has no solution (a choice's system has fewer solutions) */
    for (int i1 = 0; i1 < nr; i1++) {
        if (!cand[i1])
            continue;
        for (int i2 = i1; i2 < (spare == 2 ? nr : i1 + 1); i2++) {
            if (!cand[i2])
                continue;
            mask rest = set_and[0][i1] & set_and[i1 + 1 < i2 ? i1 + 1 : i2][i2] & set_and[i2 + 1][n];
            if (!(rest & free_[fcols & ~(cand[i1] | cand[i2])]))
                continue;
            mask every_rest = piles_and[0][i1] & piles_and[i1 + 1 < i2 ? i1 + 1 : i2][i2] & piles_and[i2 + 1][n];
            int rows_rest = rows_with[0][i1] + rows_with[i1 + 1 < i2 ? i1 + 1 : i2][i2] + rows_with[i2 + 1][n];
            for (mask m1 = cand[i1]; m1; m1 &= m1 - 1) {
                int j1 = lowest(m1);
                /* the second card's cells: none for one card; in the same row, from j1 on */
                mask m2 = spare == 1 ? (mask)1 << j1 : i2 == i1 ? m1 : cand[i2];
                for (; m2; m2 &= m2 - 1) {
                    int j2 = lowest(m2);
                    mask ok = rest & free_[fcols & ~((mask)1 << j1 | (mask)1 << j2)];
                    mask every = every_rest;
                    int nrows = rows_rest;
                    mask o1 = ro[i1] & ~((mask)1 << j1), o2 = ro[i2] & ~((mask)1 << j2);
                    if (i1 == i2)
                        o2 = o1 &= o2;
                    if (o1) {
                        ok &= row_set_less(table, n, o1, rd[i1]);
                        every &= o1;
                        nrows++;
                    }
                    if (i2 != i1 && o2) {
                        ok &= row_set_less(table, n, o2, rd[i2]);
                        every &= o2;
                        nrows++;
                    }
                    if (nrows >= n)
                        ok &= free_[every];
                    if (ok)
                        return 0;
                }
            }
        }
    }
    return 1;
}


/* bounds.last_cards_rule: last_cards_rule_out(t1, slack) */
static int last_cards_rule_out(const Search *S, int t1, int slack)
{
    int lo = 0, hi = S->top - 1;
    while (!S->rm[lo])
        lo++;
    while (!S->rm[hi])
        hi--;
    int K = S->K;
    if (S->one_rule && t1 <= K - 1) {
        int a = S->span1_lo[t1], b = S->span1_hi[t1];
        int l = lo < a ? lo : a, u = hi > b ? hi : b;
        if (!(l <= S->x_last && S->x_last <= u))
            return 1;
    }
    if (S->two_rule && slack <= 1 && t1 <= K - 2) {
        int a = S->span2_lo[t1], b = S->span2_hi[t1];
        int lo2 = lo < a ? lo : a, hi2 = hi > b ? hi : b;
        if (S->y_last < lo2 || S->y_last > hi2)
            if (!slack || !(lo2 <= S->x_last && S->x_last <= hi2))
                return 1;
    }
    return 0;
}

/* A mask of the board in n-bit rows from the window's corner (shift s = R0 * F + C0: the
   first row and column holding a pile), as the transposition table's key and the verdict
   cache take a layout's piles, face-down and full piles. */
static inline mask window_rows(mask m, int F, int n, int s)
{
    mask w = 0, lm = low_bits(n);
    m >>= s;
    for (int r = 0; r < n; r++)
        w |= (m >> (r * F) & lm) << (r * n);
    return w;
}

/* The shape of a layout: its piles and face-down piles (window_rows) */
typedef struct {
    mask ow, dw;
} Shape;

static inline Shape window_shape(const Search *S, mask om, mask dm, int R0, int C0)
{
    const int s = R0 * S->F + C0;
    Shape w = {window_rows(om, S->F, S->n, s), window_rows(dm, S->F, S->n, s)};
    return w;
}

/* ---- the transposition table: a set of exact keys ---- */

static uint64_t key_hash(const mask *key, int w)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < w; i++) {
        h ^= key[i];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    /* murmur3's finalizer: every bit of the key reaches the low bits (the slot) */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

/* Zeroed memory for the slot array, released with big_free(p, bytes).  A big one comes
 * from mmap where there is one, untouched, and on transparent huge pages where Linux has
 * them (madvise): a probe then costs one cache miss and no page walk of its own, and the
 * kernel zeroes 2 MB pages at a time.  Only a hint: nothing changes where it is missing. */
#define HUGE_PAGE ((size_t)2 << 20)

static void *big_zeroed(size_t bytes)
{
#ifdef HAVE_MMAP_ANON
    if (bytes >= 2 * HUGE_PAGE) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
#ifdef HAVE_HUGE_PAGES
        uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (b > a)
            (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#endif
        return p;
    }
#endif
    return calloc(bytes, 1);
}

static void big_free(void *p, size_t bytes)
{
    if (!p)
        return;
#ifdef HAVE_MMAP_ANON
    if (bytes >= 2 * HUGE_PAGE) {
        munmap(p, bytes);
        return;
    }
#endif
    (void)bytes;
    free(p);
}

/* The key: t1, the frame's room, the tail pattern and the layout in its n x n window (om,
 * dm), in fields of fixed widths one after the other; then from the next word on, a byte a
 * pile, in the order of om's bits: the run of its top rank (search.py: rank_runs) and how
 * many of hm[kmin .. cap] hold it.  The Python key has a mask a run and a mask a height
 * instead: the runs partition the piles and the heights nest, so the bytes and the masks
 * say the same, and the words are as exact as the Python tuple.  3 words for n = 4. */
#define TT_HEAD 30 /* t1: 7 bits (<= 64); a, b, d, e: 3 each (<= n - 1 <= 5); tail_key + 1: 11 (<= 15 + 4 * 256 + 1) */
#define TT_WORDS(n) ((TT_HEAD + 2 * (n) * (n) + 63) / 64 + ((n) * (n) + 7) / 8)
#define KEYW TT_WORDS(MAXN)

static inline void put_bits(mask *key, int *pos, mask v, int bits)
{
    int w = *pos >> 6, o = *pos & 63;
    key[w] |= v << o;
    if (o + bits > 64)
        key[w + 1] |= v >> (64 - o);
    *pos += bits;
}

/* An entry's slot: the entry + 1 in the high half (0: empty), the hash's low 32 bits (a tag,
 * checked before the key) in the low half.  The slot to start from: the hash's high half
 * scaled to the table (any size works; no division). */
static inline size_t tt_home(const Search *S, uint64_t hash) { return (size_t)(((hash >> 32) * (uint64_t)S->nslots) >> 32); }

static inline void tt_prefetch(const Search *S, uint64_t hash)
{
#if defined(__GNUC__) || defined(__clang__)
    if (S->nslots)
        __builtin_prefetch(S->slots + tt_home(S, hash));
#else
    (void)S;
    (void)hash;
#endif
}

static inline int same_key(const mask *a, const mask *b, int w)
{
    for (int i = 0; i < w; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static inline int tt_find(const Search *S, const mask *key, uint64_t hash)
{
    if (!S->nslots)
        return 0;
    uint32_t tag = (uint32_t)hash;
    for (size_t i = tt_home(S, hash);;) {
        uint64_t sl = S->slots[i];
        if (!sl)
            return 0;
        if ((uint32_t)sl == tag && same_key(S->keys + (size_t)((sl >> 32) - 1) * S->keyw, key, S->keyw))
            return 1;
        if (++i == S->nslots)
            i = 0;
    }
}

static inline void tt_place(Search *S, uint64_t hash, size_t e)
{
    size_t i = tt_home(S, hash);
    while (S->slots[i])
        if (++i == S->nslots)
            i = 0;
    S->slots[i] = (uint64_t)(e + 1) << 32 | (uint32_t)hash;
}

#define TT_BATCH 16
#define TT_WORK_MAX 0xFFFFFFFFu /* search.py: TT_WORK_MAX */

/* Every entry placed in slots that are all empty, the slots of a batch fetched together. */
static void tt_place_all(Search *S)
{
    for (size_t e0 = 0; e0 < S->nentries; e0 += TT_BATCH) {
        uint64_t hs[TT_BATCH];
        size_t nb = S->nentries - e0 < TT_BATCH ? S->nentries - e0 : TT_BATCH;
        for (size_t j = 0; j < nb; j++) {
            hs[j] = key_hash(S->keys + (e0 + j) * S->keyw, S->keyw);
            tt_prefetch(S, hs[j]);
        }
        for (size_t j = 0; j < nb; j++)
            tt_place(S, hs[j], e0 + j);
    }
}

/* search.py: tt_make_room.  The table full: keep its n / 2 entries that took the most work,
 * the newer first among equal work, in their order, their work halved.  The least work kept, v, is found by a
 * radix select on the 32-bit works (the high half, then the low half); `rank` is then how
 * many entries of work v rank below the cut: the oldest of them go. */
static int tt_make_room(Search *S)
{
    size_t n = S->nentries, keep = n / 2, e = 0;
    if (keep) {
        size_t *count = calloc((size_t)1 << 16, sizeof(size_t));
        if (!count)
            return -1;
        const uint32_t *w = S->works;
        size_t rank = n - keep; /* the cut's place in the works sorted up, from 0 */
        for (size_t i = 0; i < n; i++)
            count[w[i] >> 16]++;
        uint32_t hi = 0;
        while (rank >= count[hi])
            rank -= count[hi++];
        memset(count, 0, ((size_t)1 << 16) * sizeof(size_t));
        for (size_t i = 0; i < n; i++)
            if (w[i] >> 16 == hi)
                count[w[i] & 0xFFFFu]++;
        uint32_t lo = 0;
        while (rank >= count[lo])
            rank -= count[lo++];
        free(count);
        uint32_t v = hi << 16 | lo;
        for (size_t i = 0; i < n; i++) {
            uint32_t wi = S->works[i];
            if (wi < v)
                continue;
            if (wi == v && rank) {
                rank--;
                continue;
            }
            if (e != i)
                memcpy(S->keys + e * S->keyw, S->keys + i * S->keyw, sizeof(mask) * S->keyw);
            S->works[e++] = wi >> 1; /* aged: halved */
        }
    }
    S->nentries = e;
    if (S->nslots) {
        memset(S->slots, 0, S->nslots * sizeof(uint64_t));
        tt_place_all(S);
    }
    return 0;
}

static int tt_insert(Search *S, const mask *key, uint64_t hash, long long work)
{
    if (S->nentries >= S->tt_max && tt_make_room(S) < 0) /* full: the better half kept, as search.py's dict */
        return -1;
    if (S->nentries == S->cap_entries) { /* doubled up to tt_max; where realloc moves pages (mremap), nothing is copied */
        size_t c = S->cap_entries ? S->cap_entries * 2 : 1024;
        if (c > S->tt_max)
            c = S->tt_max;
        if (c > 0xFFFFFFF0u || c > SIZE_MAX / (sizeof(mask) * S->keyw))
            return -1;
        mask *k = realloc(S->keys, c * sizeof(mask) * S->keyw);
        if (!k)
            return -1;
        S->keys = k;
        uint32_t *wk = realloc(S->works, c * sizeof(uint32_t));
        if (!wk)
            return -1;
        S->works = wk;
        S->cap_entries = c;
    }
    if (4 * (S->nentries + 1) > 3 * S->nslots) { /* at most 3/4 full: twice the slots, placed again from the keys */
        size_t ns = S->nslots ? S->nslots * 2 : 2048;
        if ((uint64_t)ns > (uint64_t)1 << 32 || ns > SIZE_MAX / sizeof(uint64_t)) /* tt_home: at most 2^32 slots */
            return -1;
        big_free(S->slots, S->nslots * sizeof(uint64_t));
        S->nslots = 0;
        S->slots = big_zeroed(ns * sizeof(uint64_t));
        if (!S->slots)
            return -1;
        S->nslots = ns;
        tt_place_all(S);
    }
    size_t e = S->nentries++;
    memcpy(S->keys + e * S->keyw, key, sizeof(mask) * S->keyw);
    S->works[e] = work > (long long)TT_WORK_MAX ? TT_WORK_MAX : (uint32_t)work;
    tt_place(S, hash, e);
    return 0;
}

/* The key of the position after a move (t1 cards placed, `slack` cards to spare), and its hash. */
static inline uint64_t tt_key(Search *S, mask *key, const Shape *sh, int t1, int slack, long long tail_key, int R0, int R1, int C0, int C1, mask om2)
{
    const int F = S->F, n = S->n, nm1 = S->nm1, cap = S->cap;
    int room_c = nm1 - C1 + C0, room_r = nm1 - R1 + R0;
    int a = C0 < room_c ? C0 : room_c, b = F - 1 - C1 < room_c ? F - 1 - C1 : room_c;
    int d = R0 < room_r ? R0 : room_r, e = F - 1 - R1 < room_r ? F - 1 - R1 : room_r;
    memset(key, 0, sizeof(mask) * KEYW);
    int pos = 0;
    put_bits(key, &pos, (mask)t1 | (mask)a << 7 | (mask)b << 10 | (mask)d << 13 | (mask)e << 16 | (mask)(tail_key + 1) << 19, TT_HEAD);
    put_bits(key, &pos, sh->ow, n * n); /* the window's rows, n bits each (every pile lies in it) */
    put_bits(key, &pos, sh->dw, n * n);
    if (S->nruns[t1] < 0)
        make_rank_runs(S, t1);
    const unsigned char *run_of = S->run_of[t1];
    int kmin = cap + 1 - slack > 2 ? cap + 1 - slack : 2;
    unsigned char *piles = (unsigned char *)(key + (pos + 63) / 64);
    for (mask m = om2; m; m &= m - 1) {
        int pq = lowest(m);
        int hk = S->h[pq] - kmin + 1;
        *piles++ = (unsigned char)(run_of[S->rk[pq]] | (hk > 0 ? hk : 0) << 4);
    }
    return key_hash(key, S->keyw);
}

/* bounds.last_stacked_fail: its verdicts cached by the layout's shape (a direct-mapped
   table of LS_CACHE entries of two words, made when first needed; grids up to 5 x 5,
   larger ones uncached).  The twin caches them its own way (functools.lru_cache): the
   verdicts are the same (nothing else changes, the node counts included).  Word 0: the
   piles | the face-down ones << 32 (never 0: the window holds a pile); word 1: the full
   piles | the arguments << 25 | the verdict << 63.  1: it fails, 0: not. */
#define LS_CACHE (1 << 16)
static int last_stacked_verdict(Search *S, const Shape *sh, mask om, mask dm, mask fm, uint64_t flags, int spare, int R0, int R1, int C0, int C1)
{
    if (S->n > 5 || (!S->ls_cache && !(S->ls_cache = calloc((size_t)2 * LS_CACHE, sizeof(uint64_t)))))
        return last_stacked_fail(S, om, dm, fm, flags, spare, R0, R1, C0, C1); /* uncached */
    uint64_t args = flags | (uint64_t)(R1 - R0) << 20 | (uint64_t)(C1 - C0) << 23 | (uint64_t)(spare - 1) << 26;
    mask key[2] = {sh->ow | sh->dw << 32, window_rows(fm, S->F, S->n, R0 * S->F + C0) | args << 25};
    uint64_t *e = S->ls_cache + 2 * (key_hash(key, 2) & (LS_CACHE - 1));
    if (e[0] == key[0] && (e[1] & ~((uint64_t)1 << 63)) == key[1])
        return (int)(e[1] >> 63);
    int fails = last_stacked_fail(S, om, dm, fm, flags, spare, R0, R1, C0, C1);
    e[0] = key[0];
    e[1] = key[1] | (uint64_t)fails << 63;
    return fails;
}

/* search.py's line_flags: each line's two forced-lines bits, the rows then the columns of
   the box, from a flag table's [min(k, 2)][lo * top + hi] */
static inline uint64_t line_flags(const Search *S, const unsigned char *ft, mask om2, int R0, int R1, int C0, int C1)
{
    const int n = S->n, top = S->top;
    uint64_t flags = 0;
    for (int i = R0; i <= R1; i++) {
        int k = n - popcount(om2 & rows_band(S, i, i));
        flags = flags << 2 | ft[(k < 2 ? k : 2) * top * top + S->lo_r[i] * top + S->hi_r[i]];
    }
    for (int i = C0; i <= C1; i++) {
        int k = n - popcount(om2 & cols_band(S, i, i));
        flags = flags << 2 | ft[(k < 2 ? k : 2) * top * top + S->lo_c[i] * top + S->hi_c[i]];
    }
    return flags;
}

/* ---- the search: search.py's dfs ---- */

typedef struct {
    int down_after, q;
    mask cell_bit, flipped;
} Child;

/* 1: a win within K cards (its moves pushed on S->path), 0: none, -1: stopped (S->stop) */
HOT static int dfs(Search *S, int t, int piles, int down, int r0, int r1, int c0, int c1, mask om, mask dm)
{
    const int F = S->F, n2 = S->n2, nm1 = S->nm1, cap = S->cap, K = S->K, top = S->top;
    int *h = S->h, *rk = S->rk;
    mask *rm = S->rm, *hm = S->hm;
    int *lo_r = S->lo_r, *hi_r = S->hi_r, *lo_c = S->lo_c, *hi_c = S->hi_c;
    /* -- the node count and the limits */
    if (S->nodes >= S->max_nodes) {
        S->stop = STOP_LIMIT;
        return -1;
    }
    S->nodes++;
    if (S->has_deadline && !(S->nodes & 63) && now() > S->deadline) {
        S->stop = STOP_LIMIT;
        return -1;
    }
    if (!(S->nodes & 4095) && PyErr_CheckSignals() < 0) { /* Ctrl-C */
        S->stop = STOP_ERROR;
        return -1;
    }
    int x = S->ranks[t];
    int can_stack = t + 1 + n2 - piles <= K;
    /* -- move generation (RULES.md §3) */
    mask cells;
    if (piles == 0)
        cells = S->floating ? (mask)1 << S->centre : S->every;
    else {
        int wr0 = r0, wr1 = r1, wc0 = c0, wc1 = c1;
        if (r1 - r0 < nm1) {
            if (r0 > 0)
                wr0--;
            if (r1 < F - 1)
                wr1++;
        }
        if (c1 - c0 < nm1) {
            if (c0 > 0)
                wc0--;
            if (c1 < F - 1)
                wc1++;
        }
        if (S->floating) {
            if (r0 == r1 && r1 == S->mid)
                wr1 = S->mid;
            if (c0 == c1 && c1 == S->mid)
                wc1 = S->mid;
        }
        cells = (((om << 1) & S->not_col0) | ((om >> 1) & S->not_colz) | (om << F) | (om >> F)) & ~om & rows_band(S, wr0, wr1) &
                cols_band(S, wc0, wc1);
        if (can_stack &&
            (!S->pat_rule || t >= S->tail_start || S->ok_before[(size_t)(t + 1) * (S->last + 1) + (K - t - (n2 - piles) - 1)]))
            cells |= om & ~hm[cap];
        if (S->floating && piles == 1 && (om >> S->centre) == 1)
            cells &= ~S->above_centre_bit;
    }
    /* -- the flips of each move (RULES.md §4) */
    mask up = om & ~dm;
    mask below = 0;
    for (int v = 1; v < x; v++)
        below |= rm[v];
    mask up_at_most = (below | rm[x]) & up;
    mask up_at_least = up & ~below;
    int t1 = t + 1;
    Child children[MAXCELLS];
    int nchildren = 0;
    while (cells) {
        int q = lowest(cells);
        mask cell_bit = cells & -cells;
        cells ^= cell_bit;
        int down_after = (dm & cell_bit) ? down - 1 : down;
        mask flipped = 0;
        mask line = S->row_o[q] & om;
        if (line && !((line & up_at_most) && (line & up_at_least))) {
            flipped = line;
            down_after += popcount(line) - 2 * popcount(line & dm);
        }
        line = S->col_o[q] & om;
        if (line && !((line & up_at_most) && (line & up_at_least))) {
            flipped |= line;
            down_after += popcount(line) - 2 * popcount(line & dm);
        }
        if (down_after <= S->limit) {
            Child ch = {down_after, q, cell_bit, flipped};
            children[nchildren++] = ch;
        }
    }
    if (!can_stack) { /* fewest face-down cards first; ties by cell, as Python's sort of (down, q, ...) */
        for (int i = 1; i < nchildren; i++) {
            Child ch = children[i];
            int j = i;
            while (j > 0 && children[j - 1].down_after > ch.down_after) {
                children[j] = children[j - 1];
                j--;
            }
            children[j] = ch;
        }
    }
    for (int ci = 0; ci < nchildren; ci++) {
        const int down_after = children[ci].down_after, q = children[ci].q;
        const mask cell_bit = children[ci].cell_bit, flipped = children[ci].flipped;
        /* -- make the move */
        int height = h[q];
        int covered_rank = rk[q];
        int piles_after = piles;
        int R0 = r0, R1 = r1, C0 = c0, C1 = c1;
        int r = q / F, c = q % F;
        int slr = lo_r[r], shr = hi_r[r], slc = lo_c[c], shc = hi_c[c];
        if (height == 0) {
            piles_after++;
            if (!shr)
                lo_r[r] = hi_r[r] = x;
            else if (x < slr)
                lo_r[r] = x;
            else if (x > shr)
                hi_r[r] = x;
            if (!shc)
                lo_c[c] = hi_c[c] = x;
            else if (x < slc)
                lo_c[c] = x;
            else if (x > shc)
                hi_c[c] = x;
            if (r < R0)
                R0 = r;
            if (r > R1)
                R1 = r;
            if (c < C0)
                C0 = c;
            if (c > C1)
                C1 = c;
        } else
            rm[covered_rank] ^= cell_bit;
        rm[x] |= cell_bit;
        mask om2 = om | cell_bit;
        mask dm2 = (dm & ~cell_bit) ^ flipped;
        h[q] = height + 1;
        hm[height + 1] |= cell_bit;
        rk[q] = x;
        if (height) { /* the covered card may have been its lines' lowest or highest */
            int lo = 99, hi = 0;
            for (int i = r * F; i < r * F + F; i++)
                if (rk[i]) {
                    if (rk[i] < lo)
                        lo = rk[i];
                    if (rk[i] > hi)
                        hi = rk[i];
                }
            lo_r[r] = lo;
            hi_r[r] = hi;
            lo = 99;
            hi = 0;
            for (int i = c; i < F * F; i += F)
                if (rk[i]) {
                    if (rk[i] < lo)
                        lo = rk[i];
                    if (rk[i] > hi)
                        hi = rk[i];
                }
            lo_c[c] = lo;
            hi_c[c] = hi;
        }
        /* -- a win (RULES.md §5), or the bounds */
        int found = 0;
        if (piles_after == n2 && down_after == 0)
            found = 1;
        else if (t1 < S->last && t1 != S->room) {
            int slack = K - t1 - (n2 - piles_after);
            if (slack >= 0) {
                int go = 1;
                long long tail_key = -1;
                if (S->pat_rule) { /* stack patterns */
                    S->stacked[t] = height ? 1 : 0;
                    if (t1 <= S->tail_start)
                        go = S->ok_before[(size_t)t1 * (S->last + 1) + slack];
                    else {
                        int pre = 0;
                        for (int i = S->tail_start; i < t1; i++)
                            pre |= S->stacked[i] << (i - S->tail_start);
                        int i = t1 - S->tail_start;
                        go = i <= 4 && pre < 16 && slack <= 4 && S->ok_in_tail[i][pre][slack];
                        tail_key = pre + ((long long)S->kt << 8);
                    }
                }
                Shape sh = window_shape(S, om2, dm2, R0, C0);
                if (go && down_after && slack < 2) /* line parity */
                    go = parity_extra(om2, dm2, hm[cap], F, S->n, slack + 1) <= slack;
                /* the transposition table's key, made before the other bounds so that its slot is on the way meanwhile */
                mask key[KEYW];
                uint64_t hash = 0;
                if (go && piles_after > 1) {
                    hash = tt_key(S, key, &sh, t1, slack, tail_key, R0, R1, C0, C1, om2);
                    tt_prefetch(S, hash);
                }
                if (go && height && last_cards_rule_out(S, t1, slack)) /* last cards, after a stacked card */
                    go = 0;
                if (go && slack < 2) { /* forced lines */
                    if (!S->flag_tables[t1]) {
                        S->flag_tables[t1] = make_flag_table(S, t1, K);
                        if (!S->flag_tables[t1]) {
                            PyErr_NoMemory();
                            S->stop = STOP_ERROR;
                            return -1;
                        }
                    }
                    uint64_t flags = line_flags(S, S->flag_tables[t1] + (size_t)slack * 3 * top * top, om2, R0, R1, C0, C1);
                    if (flags && forced_lines_search(S, om2, dm2, hm[cap], slack, flags, R0, R1, C0, C1))
                        go = 0;
                }
                if (go && S->last_stacked && slack == S->last_stacked && t1 <= K - slack) { /* the last cards are the stacked ones */
                    if (!S->fill_tables[t1]) {
                        S->fill_tables[t1] = make_flag_table(S, t1, K - slack);
                        if (!S->fill_tables[t1]) {
                            PyErr_NoMemory();
                            S->stop = STOP_ERROR;
                            return -1;
                        }
                    }
                    uint64_t flags = line_flags(S, S->fill_tables[t1], om2, R0, R1, C0, C1);
                    if (flags || slack > 1) {
                        if (last_stacked_verdict(S, &sh, om2, dm2, hm[cap], flags, slack, R0, R1, C0, C1))
                            go = 0;
                    }
                }
                if (go && piles_after > 1) { /* the transposition table */
                    if (!tt_find(S, key, hash)) {
                        long long before = S->nodes;
                        int got = dfs(S, t1, piles_after, down_after, R0, R1, C0, C1, om2, dm2);
                        if (got < 0)
                            return got;
                        if (got)
                            found = 1;
                        else if (tt_insert(S, key, hash, S->nodes - before) < 0) {
                            PyErr_NoMemory();
                            S->stop = STOP_ERROR;
                            return -1;
                        }
                    }
                    go = 0;
                }
                if (go) {
                    int got = dfs(S, t1, piles_after, down_after, R0, R1, C0, C1, om2, dm2);
                    if (got < 0)
                        return got;
                    if (got)
                        found = 1;
                }
            }
        }
        /* -- unmake the move */
        hm[height + 1] ^= cell_bit;
        h[q] = height;
        rk[q] = covered_rank;
        lo_r[r] = slr;
        hi_r[r] = shr;
        lo_c[c] = slc;
        hi_c[c] = shc;
        rm[x] ^= cell_bit;
        if (height)
            rm[covered_rank] |= cell_bit;
        if (found) {
            S->path[S->npath++] = q;
            return 1;
        }
    }
    return 0;
}

static int int_list(PyObject *list, int *out, Py_ssize_t most, Py_ssize_t *len, const char *what);

/* ---- the backward search over the last cards: lastcards.py's tail_patterns ---- */

#define TMAXK 4                 /* tail cards (search.py: TAIL_CARDS + 1) */
#define TMAXHI 15               /* classes 0 .. HI (HI = 2 x distinct tail ranks <= 8) */
#define TKEYW 9                 /* memo key words: (j, ts), om, dm, lo (3 words of nibbles), hi (3) */
#define TAIL_ENOUGH 3

typedef struct {
    int n, N, k, limit, stacks, every, HI;
    int xs[TMAXK];
    int avail[TMAXK][TMAXHI + 2], prefix[TMAXK][TMAXHI + 3];
    mask row_o[MAXN * MAXN], col_o[MAXN * MAXN], nbr[MAXN * MAXN];
    int orbit_reps[MAXN * MAXN], norbit;
    uint32_t full[TMAXK][TMAXK + 1];
    long long nodes, cap_nodes;
    double deadline;
    int has_deadline, stop;
    /* known: the memo, exact keys */
    mask *keys;
    uint32_t *values;
    uint64_t *hashes;
    uint32_t *slots;
    size_t nentries, cap_entries, nslots;
    size_t memo_max; /* the most entries: when full, emptied (lastcards.TAIL_MEMO_MAX, as the Python dict) */
} Tail;

typedef struct {
    int cnt;
    signed char p[2 * MAXN], a[2 * MAXN], b[2 * MAXN];
} Way;

#define MAXWAYS (MAXN * MAXN + 2)

static void tail_key(const Tail *T, int j, int ts, mask om, mask dm, const int *lo, const int *hi, mask *key)
{
    memset(key, 0, sizeof(mask) * TKEYW);
    key[0] = (mask)(j + 1) | (mask)ts << 8;
    key[1] = om;
    key[2] = dm;
    for (int p = 0; p < T->N; p++) {
        key[3 + p / 16] |= (mask)lo[p] << (4 * (p % 16));
        key[6 + p / 16] |= (mask)hi[p] << (4 * (p % 16));
    }
}

static int tail_find(const Tail *T, const mask *key, uint64_t hash, uint32_t *value)
{
    if (!T->nslots)
        return 0;
    size_t m = T->nslots - 1;
    for (size_t i = hash & m;; i = (i + 1) & m) {
        uint32_t e = T->slots[i];
        if (!e)
            return 0;
        e--;
        if (T->hashes[e] == hash && !memcmp(T->keys + (size_t)e * TKEYW, key, sizeof(mask) * TKEYW)) {
            *value = T->values[e];
            return 1;
        }
    }
}

static int tail_store(Tail *T, const mask *key, uint64_t hash, uint32_t value)
{
    if (T->nentries >= T->memo_max) { /* full: emptied, as lastcards.py's dict */
        T->nentries = 0;
        if (T->nslots)
            memset(T->slots, 0, T->nslots * sizeof(uint32_t));
    }
    if (T->nentries == T->cap_entries) {
        size_t c = T->cap_entries ? T->cap_entries * 2 : 256;
        if (c > 0xFFFFFFF0u)
            return -1;
        mask *k = realloc(T->keys, c * sizeof(mask) * TKEYW);
        if (!k)
            return -1;
        T->keys = k;
        uint32_t *v = realloc(T->values, c * sizeof(uint32_t));
        if (!v)
            return -1;
        T->values = v;
        uint64_t *hs = realloc(T->hashes, c * sizeof(uint64_t));
        if (!hs)
            return -1;
        T->hashes = hs;
        T->cap_entries = c;
    }
    if (2 * (T->nentries + 1) > T->nslots) {
        size_t ns = T->nslots ? T->nslots * 2 : 512;
        uint32_t *sl = calloc(ns, sizeof(uint32_t));
        if (!sl)
            return -1;
        for (size_t e = 0; e < T->nentries; e++) {
            size_t i = T->hashes[e] & (ns - 1);
            while (sl[i])
                i = (i + 1) & (ns - 1);
            sl[i] = (uint32_t)(e + 1);
        }
        free(T->slots);
        T->slots = sl;
        T->nslots = ns;
    }
    size_t e = T->nentries++;
    memcpy(T->keys + e * TKEYW, key, sizeof(mask) * TKEYW);
    T->values[e] = value;
    T->hashes[e] = hash;
    size_t i = hash & (T->nslots - 1);
    while (T->slots[i])
        i = (i + 1) & (T->nslots - 1);
    T->slots[i] = (uint32_t)(e + 1);
    return 0;
}

/* distinct: whether the piles `narrowed` (ascending) can have different cards within their ranges */
static int distinct(const int *narrowed, int cnt, const int *lo, const int *hi, const int *av, int HI)
{
    int order[MAXN * MAXN];
    for (int i = 0; i < cnt; i++) { /* stable sort by range end, as list.sort(key=hi.__getitem__) */
        int p = narrowed[i], j = i;
        while (j > 0 && hi[order[j - 1]] > hi[p]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = p;
    }
    int a[TMAXHI + 2];
    memcpy(a, av, sizeof(int) * (HI + 1));
    for (int i = 0; i < cnt; i++) {
        int p = order[i], v = lo[p], b = hi[p];
        while (v <= b && !a[v])
            v++;
        if (v > b)
            return 0;
        a[v]--;
    }
    return 1;
}

/* distinct_cards: the narrowed piles of om */
static int distinct_cards(const Tail *T, mask om, const int *lo, const int *hi, const int *av)
{
    int narrowed[MAXN * MAXN], cnt = 0;
    for (mask m = om; m; m &= m - 1) {
        int p = lowest(m);
        if (lo[p] || hi[p] < T->HI)
            narrowed[cnt++] = p;
    }
    return distinct(narrowed, cnt, lo, hi, av, T->HI);
}

/* line_ways: the ways a line's flip test can have gone, in the Python's order */
static int line_ways(const Tail *T, mask line, mask up, int flip, int x, const int *lo, const int *hi, const int *ps, Way *ways)
{
    int HI = T->HI;
    mask U = line & up;
    int cells[MAXN * 2], nc = 0;
    for (mask m = U; m; m &= m - 1)
        cells[nc++] = lowest(m);
    if (flip) {
        if (!U) {
            ways[0].cnt = 0;
            return 1;
        }
        int nw = 0, ok = 1;
        for (int i = 0; i < nc && ok; i++) {
            int p = cells[i];
            ok = ps[hi[p] + 1] - ps[lo[p] > x + 1 ? lo[p] : x + 1] > 0;
        }
        if (ok) {
            ways[nw].cnt = nc;
            for (int i = 0; i < nc; i++) {
                ways[nw].p[i] = (signed char)cells[i];
                ways[nw].a[i] = (signed char)(x + 1);
                ways[nw].b[i] = (signed char)HI;
            }
            nw++;
        }
        ok = 1;
        for (int i = 0; i < nc && ok; i++) {
            int p = cells[i];
            ok = ps[(hi[p] < x - 1 ? hi[p] : x - 1) + 1] - ps[lo[p]] > 0;
        }
        if (ok) {
            ways[nw].cnt = nc;
            for (int i = 0; i < nc; i++) {
                ways[nw].p[i] = (signed char)cells[i];
                ways[nw].a[i] = 0;
                ways[nw].b[i] = (signed char)(x - 1);
            }
            nw++;
        }
        return nw;
    }
    if (!U)
        return 0;
    int low_p[MAXN * 2], nlow = 0, low_any = 0, high_p[MAXN * 2], nhigh = 0, high_any = 0;
    for (int i = 0; i < nc; i++)
        if (hi[cells[i]] <= x)
            low_any = 1;
    if (!low_any)
        for (int i = 0; i < nc; i++) {
            int p = cells[i];
            if (ps[(hi[p] < x ? hi[p] : x) + 1] - ps[lo[p]] > 0)
                low_p[nlow++] = p;
        }
    for (int i = 0; i < nc; i++)
        if (lo[cells[i]] >= x)
            high_any = 1;
    if (!high_any)
        for (int i = 0; i < nc; i++) {
            int p = cells[i];
            if (ps[hi[p] + 1] - ps[lo[p] > x ? lo[p] : x] > 0)
                high_p[nhigh++] = p;
        }
    int na = low_any ? 1 : nlow, nb = high_any ? 1 : nhigh, nw = 0;
    for (int ia = 0; ia < na; ia++)
        for (int ib = 0; ib < nb; ib++) {
            Way *w = &ways[nw++];
            w->cnt = 0;
            if (!low_any) {
                w->p[w->cnt] = (signed char)low_p[ia];
                w->a[w->cnt] = 0;
                w->b[w->cnt++] = (signed char)x;
            }
            if (!high_any) {
                w->p[w->cnt] = (signed char)high_p[ib];
                w->a[w->cnt] = (signed char)x;
                w->b[w->cnt++] = (signed char)HI;
            }
        }
    return nw;
}

/* undo: the stack patterns of tail cards 0 .. j with which they can be undone; -1: stopped (T->stop) */
static long long undo(Tail *T, int j, int ts, mask om, mask dm, const int *lo, const int *hi)
{
    if (T->nodes >= T->cap_nodes || (T->has_deadline && !(T->nodes & 255) && now() > T->deadline)) {
        T->stop = STOP_LIMIT;
        return -1;
    }
    T->nodes++;
    if (!(T->nodes & 4095) && PyErr_CheckSignals() < 0) {
        T->stop = STOP_ERROR;
        return -1;
    }
    if (j < 0) {
        if (!T->every) {
            T->stop = TAIL_ENOUGH;
            return -1;
        }
        return 1;
    }
    mask key[TKEYW];
    tail_key(T, j, ts, om, dm, lo, hi, key);
    uint64_t hash = key_hash(key, TKEYW);
    uint32_t got;
    if (tail_find(T, key, hash, &got))
        return got;
    uint32_t S = 0;
    int r_left = T->stacks - ts;
    uint32_t enough = T->full[j][r_left < T->k ? r_left : T->k];
    int stack_bit = 1 << j;
    int x = T->xs[j];
    const int *av = T->avail[j], *ps = T->prefix[j];
    int HI = T->HI, N = T->N;
    int narrowed[MAXN * MAXN] = {0}, nn = 0, is_narrowed[MAXN * MAXN];
    for (int p = 0; p < N; p++)
        is_narrowed[p] = 0;
    for (mask m = om; m; m &= m - 1) {
        int p = lowest(m);
        if (lo[p] || hi[p] < HI) {
            narrowed[nn++] = p;
            is_narrowed[p] = 1;
        }
    }
    int others_fit = distinct(narrowed, nn, lo, hi, av, HI);
    int qs[MAXN * MAXN], nq = 0;
    if (j == T->k - 1)
        for (int i = 0; i < T->norbit; i++)
            qs[nq++] = T->orbit_reps[i];
    else
        for (mask m = om & ~dm; m; m &= m - 1)
            qs[nq++] = lowest(m);
    Way row_ways[MAXWAYS], col_ways[MAXWAYS];
    int lo2[MAXN * MAXN], hi2[MAXN * MAXN];
    for (int qi = 0; qi < nq; qi++) {
        int q = qs[qi];
        if (!(lo[q] <= x && x <= hi[q]))
            continue;
        int fit;
        if (is_narrowed[q]) {
            int rest[MAXN * MAXN], nr = 0;
            for (int i = 0; i < nn; i++)
                if (narrowed[i] != q)
                    rest[nr++] = narrowed[i];
            fit = distinct(rest, nr, lo, hi, av, HI);
        } else
            fit = others_fit;
        if (!fit)
            continue;
        mask qb = (mask)1 << q;
        mask R = T->row_o[q] & om, C = T->col_o[q] & om;
        for (int fr = 0; fr < (R ? 2 : 1); fr++)
            for (int fc = 0; fc < (C ? 2 : 1); fc++) {
                mask d2 = dm ^ (fr ? R : 0) ^ (fc ? C : 0);
                int down = popcount(d2 & om & ~qb);
                if (down > T->limit + 1)
                    continue;
                mask up = om & ~d2;
                int ncw = line_ways(T, C, up, fc, x, lo, hi, ps, col_ways);
                if (!ncw)
                    continue;
                int nrw = line_ways(T, R, up, fr, x, lo, hi, ps, row_ways);
                for (int i1 = 0; i1 < nrw; i1++)
                    for (int i2 = 0; i2 < ncw; i2++) {
                        memcpy(lo2, lo, sizeof(int) * N);
                        memcpy(hi2, hi, sizeof(int) * N);
                        int broke = 0;
                        for (int side = 0; side < 2 && !broke; side++) {
                            const Way *w = side ? &col_ways[i2] : &row_ways[i1];
                            for (int i = 0; i < w->cnt; i++) {
                                int p = w->p[i];
                                if (w->a[i] > lo2[p])
                                    lo2[p] = w->a[i];
                                if (w->b[i] < hi2[p])
                                    hi2[p] = w->b[i];
                                if (lo2[p] > hi2[p]) {
                                    broke = 1;
                                    break;
                                }
                            }
                        }
                        if (broke)
                            continue;
                        lo2[q] = 0;
                        hi2[q] = HI;
                        mask om2 = om & ~qb;
                        if (down <= T->limit && (om2 & T->nbr[q]) && distinct_cards(T, om2, lo2, hi2, av)) {
                            long long v = undo(T, j - 1, ts, om2, d2, lo2, hi2);
                            if (v < 0)
                                return v;
                            S |= (uint32_t)v;
                            if ((S & enough) == enough)
                                goto done;
                        }
                        if (ts < T->stacks && distinct_cards(T, om, lo2, hi2, av)) {
                            if (down <= T->limit) {
                                long long v = undo(T, j - 1, ts + 1, om, d2, lo2, hi2);
                                if (v < 0)
                                    return v;
                                S |= (uint32_t)v << stack_bit;
                            }
                            if (down < T->limit) {
                                long long v = undo(T, j - 1, ts + 1, om, d2 | qb, lo2, hi2);
                                if (v < 0)
                                    return v;
                                S |= (uint32_t)v << stack_bit;
                            }
                            if ((S & enough) == enough)
                                goto done;
                        }
                    }
            }
    }
done:
    if (tail_store(T, key, hash, S) < 0) {
        PyErr_NoMemory();
        T->stop = STOP_ERROR;
        return -1;
    }
    return S;
}

PyDoc_STRVAR(tail_patterns_doc,
             "tail_patterns(tail, earlier, n, limit, stacks, max_nodes, deadline, every, memo_max=524288)\n--\n\n"
             "foursquare.solver.lastcards.tail_patterns, compiled (max_nodes -1: none; deadline < 0: none;\n"
             "memo_max: the most positions its memo holds, emptied when full).\n"
             "Returns (0 answered / 1 the node or time limit ran out, the set of patterns, steps searched).");

static PyObject *tail_patterns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *tail_list, *earlier_list;
    int n, limit, stacks, every;
    long long max_nodes;
    double deadline;
    Py_ssize_t memo_max = TAIL_MEMO_MAX;
    if (!PyArg_ParseTuple(args, "O!O!iiiLdp|n", &PyList_Type, &tail_list, &PyList_Type, &earlier_list, &n, &limit, &stacks,
                          &max_nodes, &deadline, &every, &memo_max))
        return NULL;
    int tail[TMAXK], earlier[MAXDECK + MAXCELLS];
    Py_ssize_t k, ne;
    if (int_list(tail_list, tail, TMAXK, &k, "tail") < 0 || int_list(earlier_list, earlier, MAXDECK + MAXCELLS, &ne, "earlier") < 0)
        return NULL;
    if (n < 3 || n > MAXN || k < 1 || stacks < 0) {
        PyErr_SetString(PyExc_ValueError, "tail_patterns: a grid or tail beyond the compiled core");
        return NULL;
    }
    Tail *T = calloc(1, sizeof(Tail));
    if (!T)
        return PyErr_NoMemory();
    T->n = n;
    T->N = n * n;
    T->k = (int)k;
    T->limit = limit;
    T->stacks = stacks;
    T->every = every;
    T->cap_nodes = max_nodes < 0 ? (1LL << 62) : max_nodes;
    T->memo_max = memo_max < 1 ? 1 : (size_t)memo_max;
    T->deadline = deadline;
    T->has_deadline = deadline >= 0;
    /* rank_classes(tail, ...): 2 x (distinct tail ranks below) + (a tail rank itself) */
    int in_tail[64] = {0}, distinct_tail = 0;
    for (int j = 0; j < k; j++) {
        if (tail[j] < 0 || tail[j] >= 64) {
            free(T);
            PyErr_SetString(PyExc_ValueError, "tail_patterns: a rank out of range");
            return NULL;
        }
        if (!in_tail[tail[j]])
            distinct_tail++;
        in_tail[tail[j]] = 1;
    }
    int rank_class[64], below = 0;
    for (int v = 0; v < 64; v++) {
        rank_class[v] = 2 * below + in_tail[v];
        below += in_tail[v];
    }
    T->HI = 2 * distinct_tail;
    for (int j = 0; j < k; j++)
        T->xs[j] = rank_class[tail[j]];
    int counts[TMAXHI + 2] = {0};
    for (Py_ssize_t i = 0; i < ne; i++) {
        if (earlier[i] < 0 || earlier[i] >= 64) {
            free(T);
            PyErr_SetString(PyExc_ValueError, "tail_patterns: a rank out of range");
            return NULL;
        }
        counts[rank_class[earlier[i]]]++;
    }
    for (int j = 0; j < k; j++) {
        memcpy(T->avail[j], counts, sizeof counts);
        counts[T->xs[j]]++;
        T->prefix[j][0] = 0;
        for (int c = 0; c <= T->HI; c++)
            T->prefix[j][c + 1] = T->prefix[j][c] + T->avail[j][c];
    }
    /* _geometry(n): lines and edge neighbours in an n x n frame, one cell per orbit of the square's symmetries */
    mask seen = 0;
    for (int q = 0; q < T->N; q++) {
        int r = q / n, c = q % n;
        mask rowm = 0, colm = 0, nb = 0;
        for (int i = 0; i < n; i++) {
            rowm |= (mask)1 << (r * n + i);
            colm |= (mask)1 << (i * n + c);
        }
        if (r > 0)
            nb |= (mask)1 << (q - n);
        if (r < n - 1)
            nb |= (mask)1 << (q + n);
        if (c > 0)
            nb |= (mask)1 << (q - 1);
        if (c < n - 1)
            nb |= (mask)1 << (q + 1);
        T->row_o[q] = rowm & ~((mask)1 << q);
        T->col_o[q] = colm & ~((mask)1 << q);
        T->nbr[q] = nb;
        mask images = 0;
        for (int swap = 0; swap < 2; swap++) {
            int a = swap ? c : r, b = swap ? r : c;
            int as[2] = {a, n - 1 - a}, bs[2] = {b, n - 1 - b};
            for (int i = 0; i < 2; i++)
                for (int i2 = 0; i2 < 2; i2++)
                    images |= (mask)1 << (as[i] * n + bs[i2]);
        }
        if (!(images & seen))
            T->orbit_reps[T->norbit++] = q;
        seen |= images;
    }
    /* full[j][r]: every pattern of cards 0 .. j with at most r stacked */
    for (int j = 0; j < k; j++)
        for (int r = 0; r <= k; r++) {
            uint32_t f = 0;
            for (int pat = 0; pat < (1 << (j + 1)); pat++)
                if (popcount((mask)pat) <= r)
                    f |= (uint32_t)1 << pat;
            T->full[j][r] = f;
        }
    int lo[MAXN * MAXN], hi[MAXN * MAXN];
    for (int p = 0; p < T->N; p++) {
        lo[p] = 0;
        hi[p] = T->HI;
    }
    long long got = undo(T, (int)k - 1, 0, low_bits(T->N), 0, lo, hi);
    PyObject *result = NULL;
    if (got >= 0)
        result = Py_BuildValue("iLL", 0, got, T->nodes);
    else if (T->stop == STOP_LIMIT)
        result = Py_BuildValue("iLL", 1, 0LL, T->nodes);
    else if (T->stop == TAIL_ENOUGH)
        result = Py_BuildValue("iLL", 0, (long long)T->full[k - 1][stacks < k ? stacks : k], T->nodes);
    free(T->keys);
    free(T->values);
    free(T->hashes);
    free(T->slots);
    free(T);
    return result;
}

/* ---- the Python entry point ---- */

static int int_list(PyObject *list, int *out, Py_ssize_t most, Py_ssize_t *len, const char *what)
{
    if (!PyList_Check(list)) {
        PyErr_Format(PyExc_TypeError, "%s: a list", what);
        return -1;
    }
    Py_ssize_t k = PyList_GET_SIZE(list);
    if (k > most) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        out[i] = (int)v;
    }
    *len = k;
    return 0;
}

static void search_free(Search *S)
{
    free(S->ok_before);
    for (int t = 0; t <= MAXDECK; t++) {
        free(S->flag_tables[t]);
        free(S->fill_tables[t]);
    }
    free(S->ls_cache);
    free(S->keys);
    free(S->works);
    big_free(S->slots, S->nslots * sizeof(uint64_t));
    free(S);
}

PyDoc_STRVAR(search_budget_doc,
             "search_budget(F, n, cap, limit, room, floating, h, rk, piles, down, box, om, dm, ranks, t0, K, patterns, kt, "
             "nodes, max_nodes, deadline, tt_max)\n--\n\n"
             "Search.search_budget of foursquare.solver.search, compiled: the depth-first search for a win with exactly K "
             "cards.\nReturns (1 found / 0 none / -1 the node or time limit, nodes after the search, the win's board indices).");

static PyObject *search_budget(PyObject *self, PyObject *args)
{
    (void)self;
    int F, n, cap, limit, room, floating, p, down, r0, r1, c0, c1, t0, K, kt;
    PyObject *h_list, *rk_list, *ranks_list;
    unsigned long long om, dm, P;
    long long nodes, max_nodes;
    double deadline;
    Py_ssize_t tt_max;
    if (!PyArg_ParseTuple(args, "iiiiiiO!O!ii(iiii)KKO!iiKiLLdn", &F, &n, &cap, &limit, &room, &floating, &PyList_Type, &h_list,
                          &PyList_Type, &rk_list, &p, &down, &r0, &r1, &c0, &c1, &om, &dm, &PyList_Type, &ranks_list, &t0, &K, &P,
                          &kt, &nodes, &max_nodes, &deadline, &tt_max))
        return NULL;
    if (tt_max < 1) {
        PyErr_SetString(PyExc_ValueError, "search_budget: tt_max must be at least 1");
        return NULL;
    }
    if (n < 3 || n > MAXN || F < n || F * F > MAXCELLS || cap < 1 || cap > MAXCAP || kt < 0 || kt > 4) {
        PyErr_SetString(PyExc_ValueError, "search_budget: a frame, grid or pile cap beyond the compiled core");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S)
        return PyErr_NoMemory();
    Py_ssize_t nh, nrk, nranks;
    if (int_list(h_list, S->h, MAXCELLS, &nh, "h") < 0 || int_list(rk_list, S->rk, MAXCELLS, &nrk, "rk") < 0 ||
        int_list(ranks_list, S->ranks, MAXDECK, &nranks, "ranks") < 0) {
        search_free(S);
        return NULL;
    }
    if (nh != F * F || nrk != F * F || K > nranks || t0 < 0 || t0 >= nranks) {
        search_free(S);
        PyErr_SetString(PyExc_ValueError, "search_budget: inconsistent board");
        return NULL;
    }
    S->F = F;
    S->n = n;
    S->n2 = n * n;
    S->nm1 = n - 1;
    S->cap = cap;
    S->limit = limit;
    S->room = room;
    S->floating = floating;
    S->last = (int)nranks;
    S->K = K;
    S->t0 = t0;
    S->nodes = nodes;
    S->max_nodes = max_nodes;
    S->deadline = deadline;
    S->has_deadline = deadline >= 0;
    S->tt_max = (size_t)tt_max;
    /* the frame (engine/frame.py) */
    S->mid = n - 1;
    S->centre = S->mid * F + S->mid;
    S->above_centre_bit = S->centre >= F ? (mask)1 << (S->centre - F) : 0;
    S->every = low_bits(F * F);
    S->col0 = 0;
    for (int i = 0; i < F; i++)
        S->col0 |= (mask)1 << (i * F);
    S->not_col0 = S->every & ~S->col0;
    S->not_colz = S->every & ~(S->col0 << (F - 1));
    for (int q = 0; q < F * F; q++) {
        int r = q / F, c = q % F;
        S->row_o[q] = rows_band(S, r, r) & ~((mask)1 << q);
        S->col_o[q] = cols_band(S, c, c) & ~((mask)1 << q);
    }
    /* top = max(ranks + rk) + 2; rm, hm; the lines' rank spans */
    int top = 0;
    for (int i = 0; i < S->last; i++)
        if (S->ranks[i] > top)
            top = S->ranks[i];
    for (int q = 0; q < F * F; q++)
        if (S->rk[q] > top)
            top = S->rk[q];
    top += 2;
    if (top > MAXTOP) {
        search_free(S);
        PyErr_SetString(PyExc_ValueError, "search_budget: ranks beyond the compiled core");
        return NULL;
    }
    S->top = top;
    for (int q = 0; q < F * F; q++)
        if (S->h[q]) {
            if (S->h[q] > cap || S->rk[q] < 1) {
                search_free(S);
                PyErr_SetString(PyExc_ValueError, "search_budget: inconsistent board");
                return NULL;
            }
            S->rm[S->rk[q]] |= (mask)1 << q;
            for (int k = 1; k <= S->h[q]; k++)
                S->hm[k] |= (mask)1 << q;
            int r = q / F, c = q % F, v = S->rk[q];
            S->lo_r[r] = S->lo_r[r] ? (S->lo_r[r] < v ? S->lo_r[r] : v) : v;
            S->hi_r[r] = S->hi_r[r] > v ? S->hi_r[r] : v;
            S->lo_c[c] = S->lo_c[c] ? (S->lo_c[c] < v ? S->lo_c[c] : v) : v;
            S->hi_c[c] = S->hi_c[c] > v ? S->hi_c[c] : v;
        }
    /* bounds.last_cards_rule */
    S->x_last = S->ranks[K - 1];
    S->y_last = K >= 2 ? S->ranks[K - 2] : 0;
    S->two_rule = K - 2 >= t0 && 2 * (n - 1) > limit && 2 * n - 3 > limit;
    S->one_rule = 2 * (n - 1) > limit;
    for (int t = 0; t <= S->last; t++) {
        int lo = 99, hi = 0;
        for (int i = t; i < K - 1; i++) {
            if (S->ranks[i] < lo)
                lo = S->ranks[i];
            if (S->ranks[i] > hi)
                hi = S->ranks[i];
        }
        S->span1_lo[t] = lo;
        S->span1_hi[t] = hi;
        lo = 99;
        hi = 0;
        for (int i = t; i < K - 2; i++) {
            if (S->ranks[i] < lo)
                lo = S->ranks[i];
            if (S->ranks[i] > hi)
                hi = S->ranks[i];
        }
        S->span2_lo[t] = lo;
        S->span2_hi[t] = hi;
        S->nruns[t] = -1;
    }
    /* lastcards.stack_pattern_rule */
    int spare = K - t0 - (S->n2 - p);
    S->kt = kt;
    S->tail_start = K - kt;
    uint64_t full = 0;
    for (int pat = 0; pat < (1 << kt); pat++)
        if (popcount((mask)pat) <= spare)
            full |= (uint64_t)1 << pat;
    S->pat_rule = P != full;
    if (S->pat_rule) {
        int ts = S->tail_start;
        S->ok_before = calloc((size_t)(ts + 1) * (S->last + 1), 1);
        if (!S->ok_before) {
            search_free(S);
            return PyErr_NoMemory();
        }
        for (int pat = 0; pat < (1 << kt); pat++) {
            if (!(P >> pat & 1))
                continue;
            int pc = popcount((mask)pat);
            for (int t = 0; t <= ts; t++)
                for (int s = pc; s <= pc + ts - t && s <= S->last; s++)
                    S->ok_before[(size_t)t * (S->last + 1) + s] = 1;
            for (int i = 1; i <= kt; i++)
                S->ok_in_tail[i][pat & ((1 << i) - 1)][popcount((mask)(pat >> i))] = 1;
        }
    }
    /* search.py: last_stacked (the one pattern stacks the last `spare` cards) */
    if (S->pat_rule && spare > 0 && spare <= 2 && spare <= kt && cap >= 2 && P == (uint64_t)1 << (((1 << spare) - 1) << (kt - spare)))
        S->last_stacked = spare;
    S->keyw = TT_WORDS(n);
    int found = dfs(S, t0, p, down, r0, r1, c0, c1, (mask)om, (mask)dm);
    if (found < 0 && S->stop == STOP_ERROR) {
        search_free(S);
        return NULL;
    }
    PyObject *path = PyList_New(found > 0 ? S->npath : 0);
    if (path && found > 0)
        for (int i = 0; i < S->npath; i++) /* first move first */
            PyList_SET_ITEM(path, i, PyLong_FromLong(S->path[S->npath - 1 - i]));
    long long nodes_after = S->nodes;
    search_free(S);
    if (!path)
        return NULL;
    return Py_BuildValue("iLN", found, nodes_after, path);
}

/* ==== the bots' expectimax search: bots_root (foursquare/bots/expectimax.py) ====
 *
 * The exact twin of Search.root, _after, _best, _best_last and _tick in
 * foursquare/bots/expectimax.py, on a copy of the position of
 * foursquare/bots/_board.py's Board (play, _flip_lines, undo, legal, status,
 * draw, undraw) and with evaluation.py's evaluate and estimate_of.  For the same
 * position, rules, weights, width, depth and limits both give the same list (the
 * same cells in the same order, the same floats bit for bit: every sum and
 * formula is computed in the Python's order, exp and log1p are libm's as in
 * CPython's math module, and setup.py turns floating-point contraction off),
 * examine the same number of placements, stop at the same one and set
 * used_evaluation alike (tests/bots/test_core_twin.py).  Every rule set and frame
 * the engine allows (frames of at most 11 x 11 cells, decks of at most 52 cards).
 * The deadline is checked as the Python checks it, every 128 placements, with
 * time.perf_counter itself (called through Python: the same clock on every
 * platform); Ctrl-C is looked at then too.  The hot loop touches no Python object.
 */

#include <math.h>

#define BMAXF 15            /* frame side: a cell index fits in a byte, 255 marks "none" */
#define BMAXCELLS (BMAXF * BMAXF)
#define BMAXRANKS 15        /* counts[1 .. ranks] */
#define BMAXDECK 64         /* cards in a deck: placements on the stack at once */
#define BNONE 255

typedef struct {
    int c;
    double u, p, s;
} BEntry; /* expectimax.RootValue */

typedef struct {
    int c, rank, up, r0, r1, c0, c1, down, flips;
} BSaved; /* _board.Saved, and where the placement's flips begin */

typedef struct {
    /* the rules' part of Board, and the frame's tables (frame.Frame) */
    int F, ncells, nline, n, cap, target, limit, total, room, full, sees_all, ties_count, self_flip, nranks;
    unsigned char lines[BMAXCELLS][2][BMAXF - 1]; /* Board.lines: the row's other cells, then the column's */
    unsigned char nbrs[BMAXCELLS][8];             /* Frame.nbrs, BNONE after the last */
    /* the utility's weights and the estimate's models (evaluation.py) */
    double wd, wm, bonus, win[4], extra[3], rough[4];
    /* the position (Board) */
    int rank[BMAXCELLS], up[BMAXCELLS], h[BMAXCELLS], counts[BMAXRANKS + 1];
    int npiles, down, placed, unseen, r0, r1, c0, c1;
    BSaved stack[BMAXDECK + 2];
    int sp, flipped[(BMAXDECK + 2) * 2 * BMAXF], nflipped;
    /* the search (Search) */
    int width; /* -1: every cell */
    long long nodes;
    double node_limit, deadline;
    PyObject *clock; /* time.perf_counter when there is a deadline, else NULL */
    int used_evaluation;
    int nlevels, *cellbuf; /* per level of the recursion: ncells cells, ncells entries */
    BEntry *entbuf;
} Bots;

/* Board.status: 1 won, 2 lost, 0 the game goes on */
static inline int bots_status(const Bots *B)
{
    if (B->npiles == B->target && B->down == 0)
        return 1;
    if (B->down > B->limit || B->placed >= B->total || B->placed == B->room)
        return 2;
    return 0;
}

/* Board.legal: the cells for the next card, in reading order */
static int bots_legal(const Bots *B, int *out)
{
    int k = 0;
    if (!B->npiles) {
        for (int i = 0; i < B->ncells; i++)
            out[k++] = i;
        return k;
    }
    int F = B->F, r0 = B->r0, r1 = B->r1, c0 = B->c0, c1 = B->c1;
    if (r1 - r0 + 1 < B->n) {
        r0 = r0 - 1 > 0 ? r0 - 1 : 0;
        r1 = r1 + 1 < F - 1 ? r1 + 1 : F - 1;
    }
    if (c1 - c0 + 1 < B->n) {
        c0 = c0 - 1 > 0 ? c0 - 1 : 0;
        c1 = c1 + 1 < F - 1 ? c1 + 1 : F - 1;
    }
    for (int r = r0; r <= r1; r++)
        for (int c = r * F + c0; c <= r * F + c1; c++) {
            if (B->h[c]) {
                if (B->h[c] < B->cap)
                    out[k++] = c;
            } else {
                for (int j = 0; j < 8 && B->nbrs[c][j] != BNONE; j++)
                    if (B->h[B->nbrs[c][j]]) {
                        out[k++] = c;
                        break;
                    }
            }
        }
    return k;
}

/* Board._flip_lines: the flips of rank x just placed on c; returns the face-down count after them */
static inline int bots_flip_lines(Bots *B, int c, int x, int down)
{
    for (int l = 0; l < 2; l++) {
        const unsigned char *line = B->lines[c][l];
        int lo = 99, hi = 0, no = 0, others[BMAXF];
        for (int j = 0; j < B->nline; j++) {
            int o = line[j];
            if (B->h[o]) {
                others[no++] = o;
                if (B->up[o] || B->sees_all) {
                    if (B->rank[o] < lo)
                        lo = B->rank[o];
                    if (B->rank[o] > hi)
                        hi = B->rank[o];
                }
            }
        }
        if (!no)
            continue;
        if (hi && lo <= x && x <= hi && !(B->ties_count && (x == lo || x == hi)))
            continue;
        for (int j = 0; j < no; j++) {
            int o = others[j];
            down += B->up[o] ? 1 : -1;
            B->up[o] = !B->up[o];
            B->flipped[B->nflipped++] = o;
        }
        if (B->self_flip) {
            B->up[c] = !B->up[c];
            down += B->up[c] ? -1 : 1;
            B->flipped[B->nflipped++] = c;
        }
    }
    return down;
}

/* Board.play */
static inline void bots_play(Bots *B, int c, int x)
{
    int down = B->down;
    B->stack[B->sp++] = (BSaved){c, B->rank[c], B->up[c], B->r0, B->r1, B->c0, B->c1, down, B->nflipped};
    if (B->h[c]) {
        if (!B->up[c])
            down--;
    } else {
        int r = c / B->F, col = c % B->F;
        B->npiles++;
        B->r0 = r < B->r0 ? r : B->r0;
        B->r1 = r > B->r1 ? r : B->r1;
        B->c0 = col < B->c0 ? col : B->c0;
        B->c1 = col > B->c1 ? col : B->c1;
    }
    B->h[c]++;
    B->rank[c] = x;
    B->up[c] = 1;
    B->placed++;
    B->down = bots_flip_lines(B, c, x, down);
}

/* Board.undo */
static inline void bots_undo(Bots *B)
{
    const BSaved *s = &B->stack[--B->sp];
    while (B->nflipped > s->flips) {
        int f = B->flipped[--B->nflipped];
        B->up[f] = !B->up[f];
    }
    int c = s->c;
    B->rank[c] = s->rank;
    B->up[c] = s->up;
    B->r0 = s->r0;
    B->r1 = s->r1;
    B->c0 = s->c0;
    B->c1 = s->c1;
    B->down = s->down;
    if (!--B->h[c])
        B->npiles--;
    B->placed--;
}

/* Search._tick: 0 go on, 1 the node limit or the deadline is reached, -1 a Python error (Ctrl-C) */
static inline int bots_tick(Bots *B)
{
    B->nodes++;
    if ((double)B->nodes > B->node_limit)
        return 1;
    if (!(B->nodes & 127)) {
        if (PyErr_CheckSignals() < 0)
            return -1;
        if (B->clock) {
            PyObject *t = PyObject_CallNoArgs(B->clock);
            if (!t)
                return -1;
            double v = PyFloat_AsDouble(t);
            Py_DECREF(t);
            if (v == -1.0 && PyErr_Occurred())
                return -1;
            if (v > B->deadline)
                return 1;
        }
    }
    return 0;
}

/* evaluation.estimate_of: (win chance, expected score) */
static void bots_estimate(const Bots *B, int down, int missing, int stock, double *p, double *s)
{
    double q, left;
    if (B->n != 4) {
        q = B->rough[0];
        left = stock - (B->rough[1] + B->rough[2] * missing + B->rough[3] * down);
    } else {
        int spare = stock - missing > 0 ? stock - missing : 0;
        double z = B->win[0] + B->win[1] * down + B->win[2] * missing + B->win[3] * log1p((double)spare);
        q = 1.0 / (1.0 + exp(-z));
        left = stock - (B->extra[0] + B->extra[1] * missing + B->extra[2] * down);
    }
    *p = q;
    *s = q * (left > 0.0 ? left : 0.0); /* max(0.0, left) */
}

/* the search utility of a position that goes on (evaluation.evaluate, Search._best_last) */
static inline double bots_utility(const Bots *B, int down, int missing, int stock)
{
    return exp(-B->wd * down - B->wm * missing) * (B->bonus + (stock > missing ? stock - missing : 0));
}

static int bots_after(Bots *B, int level, int depth, double *v);

/* Search.root without its sort: each cell's value, in the order of cells */
static int bots_values(Bots *B, int level, const int *cells, int k, int x, int depth, BEntry *out)
{
    for (int i = 0; i < k; i++) {
        int st;
        double v[3];
        bots_play(B, cells[i], x);
        if ((st = bots_tick(B)) != 0 || (st = bots_after(B, level, depth - 1, v)) != 0)
            return st;
        bots_undo(B);
        out[i] = (BEntry){cells[i], v[0], v[1], v[2]};
    }
    return 0;
}

/* Search.root's sort: stable, by descending utility */
static void bots_sort(BEntry *e, int k)
{
    for (int i = 1; i < k; i++) {
        BEntry t = e[i];
        int j = i;
        for (; j > 0 && e[j - 1].u < t.u; j--)
            e[j] = e[j - 1];
        e[j] = t;
    }
}

static int bots_no_cell(void)
{
    PyErr_SetString(PyExc_AssertionError, "no legal cell in a position that goes on");
    return -1;
}

static int bots_too_deep(void)
{
    PyErr_SetString(PyExc_RuntimeError, "bots_root: the search went deeper than its deck allows");
    return -1;
}

/* Search._best: the value of the best placement of rank x, depth (>= 2) placements */
static int bots_best(Bots *B, int level, int x, int depth, double *v)
{
    if (level >= B->nlevels)
        return bots_too_deep();
    int *cells = B->cellbuf + (size_t)level * B->ncells, st;
    BEntry *e = B->entbuf + (size_t)level * B->ncells;
    int k = bots_legal(B, cells);
    if (B->width >= 0 && k > B->width) {
        if ((st = bots_values(B, level, cells, k, x, 1, e)) != 0)
            return st;
        bots_sort(e, k);
        k = B->width;
        for (int i = 0; i < k; i++)
            cells[i] = e[i].c;
    }
    if ((st = bots_values(B, level, cells, k, x, depth, e)) != 0)
        return st;
    if (!k)
        return bots_no_cell();
    int best = 0; /* the first of the highest utility: root(...)[0] */
    for (int i = 1; i < k; i++)
        if (e[i].u > e[best].u)
            best = i;
    v[0] = e[best].u;
    v[1] = e[best].p;
    v[2] = e[best].s;
    return 0;
}

/* Search._best_last: the best placement of rank x judged by its outcome or the utility */
static int bots_best_last(Bots *B, int level, int x, double *v)
{
    if (level >= B->nlevels)
        return bots_too_deep();
    int *cells = B->cellbuf + (size_t)level * B->ncells;
    B->used_evaluation = 1;
    double bu = -1.0;
    int found = 0, bd = 0, bm = 0, bs = 0;
    int k = bots_legal(B, cells);
    for (int i = 0; i < k; i++) {
        bots_play(B, cells[i], x);
        int st = bots_tick(B);
        if (st)
            return st;
        int down = B->down, missing = B->target - B->npiles, stock = B->total - B->placed;
        bots_undo(B);
        double u = !missing && !down ? B->bonus + stock
                   : down > B->limit || stock <= 0 || stock == B->full ? 0.0
                   : bots_utility(B, down, missing, stock);
        if (u > bu) {
            bu = u;
            found = 1;
            bd = down;
            bm = missing;
            bs = stock;
        }
    }
    if (!found)
        return bots_no_cell();
    if (!bm && !bd) {
        v[0] = bu;
        v[1] = 1.0;
        v[2] = (double)bs;
    } else if (bd > B->limit || bs <= 0 || bs == B->full) {
        v[0] = v[1] = v[2] = 0.0;
    } else {
        v[0] = bu;
        bots_estimate(B, bd, bm, bs, &v[1], &v[2]);
    }
    return 0;
}

/* Search._after: the value of the board just after a placement, depth placements still to search */
static int bots_after(Bots *B, int level, int depth, double *v)
{
    int st = bots_status(B);
    if (st == 1) {
        double score = (double)(B->total - B->placed);
        v[0] = B->bonus + score;
        v[1] = 1.0;
        v[2] = score;
        return 0;
    }
    if (st == 2) {
        v[0] = v[1] = v[2] = 0.0;
        return 0;
    }
    int missing = B->target - B->npiles, stock = B->total - B->placed;
    if (depth == 0) {
        B->used_evaluation = 1;
        v[0] = bots_utility(B, B->down, missing, stock);
        bots_estimate(B, B->down, missing, stock, &v[1], &v[2]);
        return 0;
    }
    double su = 0.0, sp = 0.0, ss = 0.0, w[3];
    for (int r = 1; r <= B->nranks; r++) {
        int k = B->counts[r];
        if (k) {
            B->counts[r]--;
            B->unseen--;
            if ((st = depth > 1 ? bots_best(B, level + 1, r, depth, w) : bots_best_last(B, level + 1, r, w)) != 0)
                return st;
            B->counts[r]++;
            B->unseen++;
            su += k * w[0];
            sp += k * w[1];
            ss += k * w[2];
        }
    }
    int n = B->unseen;
    v[0] = su / n;
    v[1] = sp / n;
    v[2] = ss / n;
    return 0;
}

/* the checks of bots_root's arguments: 0, or -1 with ValueError set */
static int bots_check(const Bots *B, Py_ssize_t nlines, Py_ssize_t nnbrs, Py_ssize_t nrank, Py_ssize_t nup, Py_ssize_t nh,
                      Py_ssize_t ncounts)
{
    int ok = B->F >= 1 && B->F <= BMAXF && B->n >= 1 && B->n <= B->F && nlines == (Py_ssize_t)B->ncells * 2 * B->nline &&
             nnbrs == (Py_ssize_t)B->ncells * 8 && nrank == B->ncells && nup == B->ncells && nh == B->ncells && ncounts >= 2 &&
             ncounts <= BMAXRANKS + 1 && B->total >= 0 && B->total <= BMAXDECK && B->placed >= 0 && B->placed <= B->total &&
             B->unseen >= 0 && (!B->npiles || (B->r0 >= 0 && B->r0 <= B->r1 && B->r1 < B->F && B->c0 >= 0 && B->c0 <= B->c1 &&
                                               B->c1 < B->F));
    for (int i = 0; ok && i < B->ncells; i++) {
        for (int j = 0; j < B->nline; j++)
            ok &= B->lines[i][0][j] < B->ncells && B->lines[i][1][j] < B->ncells;
        for (int j = 0; j < 8; j++)
            ok &= B->nbrs[i][j] < B->ncells || B->nbrs[i][j] == BNONE;
    }
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "bots_root: a board or table beyond the compiled core");
    return ok ? 0 : -1;
}

static void bots_free(Bots *B)
{
    Py_XDECREF(B->clock);
    free(B->cellbuf);
    free(B->entbuf);
    free(B);
}

PyDoc_STRVAR(bots_root_doc,
             "bots_root(fixed, board, width, node_limit, deadline, nodes, used_evaluation, cells, x, depth)\n--\n\n"
             "Search.root of foursquare.bots.expectimax, compiled (CoreSearch.root builds the arguments):\n"
             "fixed: (lines, nbrs, frame, size, pile_cap, target, limit, total, room, sees_all, ties_count, self_flip,\n"
             "face_down, missing, win_bonus, WIN_MODEL, EXTRA_MODEL, ROUGH_MODEL); board: (rank, up, h, counts as bytes,\n"
             "npiles, down, placed, unseen, r0, r1, c0, c1); width -1: every cell; deadline: a time.perf_counter value\n"
             "or None.  Returns (stopped, nodes, used_evaluation, [(cell, utility, win chance, expected score), ...]\n"
             "best first; empty when stopped).  The board is only read.");

static PyObject *bots_root(PyObject *self, PyObject *args)
{
    (void)self;
    const char *lines, *nbrs, *rank, *up, *h, *counts;
    Py_ssize_t nlines, nnbrs, nrank, nup, nh, ncounts;
    PyObject *deadline, *cell_list;
    int x, depth, used;
    Bots *B = calloc(1, sizeof(Bots));
    if (!B)
        return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "(y#y#iiiiiiipppddd(dddd)(ddd)(dddd))(y#y#y#y#iiiiiiii)idOLpO!ii", &lines, &nlines, &nbrs,
                          &nnbrs, &B->F, &B->n, &B->cap, &B->target, &B->limit, &B->total, &B->room, &B->sees_all,
                          &B->ties_count, &B->self_flip, &B->wd, &B->wm, &B->bonus, &B->win[0], &B->win[1], &B->win[2],
                          &B->win[3], &B->extra[0], &B->extra[1], &B->extra[2], &B->rough[0], &B->rough[1], &B->rough[2],
                          &B->rough[3], &rank, &nrank, &up, &nup, &h, &nh, &counts, &ncounts, &B->npiles, &B->down,
                          &B->placed, &B->unseen, &B->r0, &B->r1, &B->c0, &B->c1, &B->width, &B->node_limit, &deadline,
                          &B->nodes, &used, &PyList_Type, &cell_list, &x, &depth)) {
        free(B);
        return NULL;
    }
    B->ncells = B->F >= 1 && B->F <= BMAXF ? B->F * B->F : 0;
    B->nline = B->F - 1;
    B->nranks = (int)ncounts - 1;
    B->full = B->total - B->room; /* the stock when every pile is full (Search._best_last) */
    B->used_evaluation = used;
    if (B->ncells && nlines == (Py_ssize_t)B->ncells * 2 * B->nline && nnbrs == (Py_ssize_t)B->ncells * 8)
        for (int i = 0; i < B->ncells; i++) {
            memcpy(B->lines[i][0], lines + (size_t)i * 2 * B->nline, (size_t)B->nline);
            memcpy(B->lines[i][1], lines + (size_t)i * 2 * B->nline + B->nline, (size_t)B->nline);
            memcpy(B->nbrs[i], nbrs + (size_t)i * 8, 8);
        }
    if (bots_check(B, nlines, nnbrs, nrank, nup, nh, ncounts) < 0) {
        bots_free(B);
        return NULL;
    }
    for (int i = 0; i < B->ncells; i++) {
        B->rank[i] = (unsigned char)rank[i];
        B->up[i] = up[i] != 0;
        B->h[i] = (unsigned char)h[i];
    }
    for (int r = 0; r <= B->nranks; r++)
        B->counts[r] = (unsigned char)counts[r];
    /* levels: one a placement on the stack, at most the cards left (and one more at the root) */
    B->nlevels = B->total - B->placed + 2;
    B->cellbuf = malloc((size_t)B->nlevels * B->ncells * sizeof(int));
    B->entbuf = malloc((size_t)B->nlevels * B->ncells * sizeof(BEntry));
    if (!B->cellbuf || !B->entbuf) {
        bots_free(B);
        return PyErr_NoMemory();
    }
    Py_ssize_t k = PyList_GET_SIZE(cell_list);
    if (k > B->ncells) {
        bots_free(B);
        PyErr_SetString(PyExc_ValueError, "bots_root: more cells than the frame has");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(cell_list, i));
        if (c == -1 && PyErr_Occurred()) {
            bots_free(B);
            return NULL;
        }
        if (c < 0 || c >= B->ncells) {
            bots_free(B);
            PyErr_SetString(PyExc_ValueError, "bots_root: a cell outside the frame");
            return NULL;
        }
        B->cellbuf[i] = (int)c;
    }
    if (deadline != Py_None) {
        B->deadline = PyFloat_AsDouble(deadline);
        PyObject *time_module = B->deadline == -1.0 && PyErr_Occurred() ? NULL : PyImport_ImportModule("time");
        B->clock = time_module ? PyObject_GetAttrString(time_module, "perf_counter") : NULL;
        Py_XDECREF(time_module);
        if (!B->clock) {
            bots_free(B);
            return NULL;
        }
    }
    int st = bots_values(B, 0, B->cellbuf, (int)k, x, depth, B->entbuf);
    if (st < 0) {
        bots_free(B);
        return NULL;
    }
    PyObject *out = PyList_New(st ? 0 : k);
    if (out && !st) {
        bots_sort(B->entbuf, (int)k);
        for (Py_ssize_t i = 0; i < k; i++) {
            const BEntry *e = &B->entbuf[i];
            PyObject *item = Py_BuildValue("(iddd)", e->c, e->u, e->p, e->s);
            if (!item) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, item);
        }
    }
    PyObject *result = out ? Py_BuildValue("(OLON)", st ? Py_True : Py_False, B->nodes, B->used_evaluation ? Py_True : Py_False, out) : NULL;
    bots_free(B);
    return result;
}

static PyMethodDef core_methods[] = {
    {"search_budget", search_budget, METH_VARARGS, search_budget_doc},
    {"tail_patterns", tail_patterns, METH_VARARGS, tail_patterns_doc},
    {"bots_root", bots_root, METH_VARARGS, bots_root_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's compiled search core (see foursquare/solver/_core.c).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (!parity_rows[MAXN] && make_parity_tables() < 0)
        return PyErr_NoMemory();
    return PyModule_Create(&core_module);
}
