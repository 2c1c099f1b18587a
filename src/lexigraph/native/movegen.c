/* movegen.c: generate_moves, the hot loop of lexigraph.scrabble.movegen (Appel and Jacobson, 1988).
 *
 * generate_moves(graph, kids, root, n, cells, blanks, letter_mult, word_mult, points, rack, start, rack_size,
 *                bingo[, leave_values, opening_penalty, vowels, top, by_equity, deadline]) -> (bytes, count)
 * (`kids`: per arc index, a little-endian uint64 with bit t set for each tile of the arc list starting
 * there, see WordGraph.tile_masks; it lets a dead end stop before scanning its arcs)
 * reads the word graph's 64-bit arc records through arc.h and returns plays as fixed records of
 * LX_MOVE_RECORD_SIZE bytes: int32 score (little-endian), row, col, across (1/0), length of the main
 * word, float64 equity (little-endian), then one byte per square of the main word: 0 for a tile already
 * on the board, else the tile code, | LX_BLANK_FLAG for a blank. One-tile plays come once (from the
 * across pass when they form an across word). `count` is the number of plays found.
 *
 * Equity: `leave_values` holds a float64 per subset of the rack a play uses, indexed in mixed radix over
 * the rack's tile codes in ascending order (code t's digit counts the t tiles used; its place value is
 * the product of (count + 1) of the codes below it): the leave's value with the end-of-game adjustments
 * folded in (lexigraph.scrabble.equity builds it). The index is kept up to date as tiles leave and
 * return to the rack, so a play's equity is its score plus one table read. `opening_penalty` (float64
 * per square, across squares then down squares; empty: none) is added for each vowel (`vowels`: bit t
 * for tile code t) a play puts on an empty board.
 *
 * Ranking: with `top` >= 0 only the best `top` plays are kept, in a bounded heap (worst at the root,
 * so a play that cannot enter costs one comparison), and returned best first; the order is the key
 * (equity when `by_equity`, else score) descending, then across before down, row, column, length and
 * the squares' bytes ascending, as lexigraph.scrabble.movegen ranks. With `top` < 0 every play comes,
 * in generation order. With `prune` (and `top` > 0), once the heap is full an anchor is skipped when its shadow
 * bound (the best key any play from it could reach: the rack's highest points on the squares that multiply them
 * most, the bingo bonus, the best leave value for that many tiles) is below the heap's worst; the plays kept are
 * the same, and `count` is then -1 (not every play was counted).
 *
 * `deadline` (a CLOCK_MONOTONIC time in seconds, the clock of Python's time.monotonic on Linux; negative: none)
 * is checked at the start and every few thousand extensions; past it the call raises TimeoutError, which the
 * engine turns into DeadlineExceeded.
 *
 * The pure-Python twin is lexigraph.engine.python.movegen; tests hold both to the same answers and to
 * brute-force oracles (plays, scores and equity).
 *
 * Why C: every play costs graph steps and score arithmetic per square, a Python frame each in the
 * twin; here the board, the cross-checks and the rack live in one struct, and the generation runs
 * without the GIL.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arc.h"
#include "bits.h"
#include "limits.h"
#include "movegen.h"

/* Squares of the largest board: the per-square arrays of Gen are this long. */
#define MAX_SQUARES (LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE)
/* Where a record keeps its fields (lexigraph.engine.interface.move_record_dtype). */
#define REC_EQUITY 8
#define REC_SQUARES 16
#define REC_SQUARE_BYTES (LX_MOVE_RECORD_SIZE - REC_SQUARES)
/* Extensions between two looks at the clock: a look costs about as much as a few extensions. */
#define DEADLINE_STEPS 4096

/* G->err values: the graph points outside itself, out of memory, past the deadline. */
#define ERR_GRAPH 1
#define ERR_MEMORY 2
#define ERR_DEADLINE 3

typedef struct {
    int o, row, a, limit;
    double bound; /* the best key a play from this anchor may reach (shadow bound; ranking with top > 0 only) */
} Anchor;

typedef struct {
    const unsigned char *g;
    size_t nrec;
    uint32_t root;
    int n, rack_size, bingo, err;
    /* per orientation (0 down, 1 across): lines are the rows of these arrays */
    uint8_t C[2][MAX_SQUARES];
    int P[2][MAX_SQUARES];
    uint8_t LM[2][MAX_SQUARES], WM[2][MAX_SQUARES];
    uint64_t mask[2][MAX_SQUARES];
    int csum[2][MAX_SQUARES];
    uint8_t hasx[2][MAX_SQUARES], anchor[2][MAX_SQUARES];
    int points[LX_MAX_MOVE_TILE_CODES];
    int rack[LX_MAX_MOVE_TILE_CODES];
    uint8_t word[LX_MAX_BOARD_SIZE + 8];
    int wlen;
    int o, row, a, start_c; /* the line and anchor being extended */
    int left;               /* tiles left on the rack */
    int n_codes;
    /* the left part being built, shared by every anchor that takes one from the rack */
    uint8_t lp_code[LX_MAX_BOARD_SIZE];
    int lp_pts[LX_MAX_BOARD_SIZE];
    int lp_len;
    Anchor anchors[2 * MAX_SQUARES];
    int n_anchors, max_limit;
    const unsigned char *kids; /* per arc index: the tiles of the list starting there (uint64 LE) */
    uint64_t avail;            /* tiles with a count on the rack (bit t) */
    /* equity: the table by used-tile index, each code's place value, the index of the tiles in play */
    double *leave_values; /* copies, owned: the arguments' bytes need not be aligned for doubles */
    int place[LX_MAX_MOVE_TILE_CODES];
    int used;
    double *opening; /* per orientation and square (line coordinates: across, then down), or NULL */
    uint64_t vowels;
    int board_empty;
    /* ranking: top < 0 keeps every play (out, in order); else a heap of at most top records in out */
    Py_ssize_t top;
    int by_equity;
    int prune;                                 /* skip anchors that cannot beat the heap's worst (top > 0) */
    int pruning;                               /* queued anchors sorted by bound: left_parts may stop early */
    int rack_points[LX_MAX_BOARD_SIZE];        /* the rack's tile points, highest first (blanks 0) */
    int rack_sums[LX_MAX_BOARD_SIZE + 1];      /* rack_sums[k]: the sum of the k highest */
    double best_adjust[LX_MAX_BOARD_SIZE + 1]; /* the best leave value of a play using m tiles */
    double deadline;
    unsigned steps;
    char *out;
    size_t count, kept, cap;
} Gen;

static inline uint64_t
kids_of(const Gen *G, uint32_t node)
{
    uint64_t k;
    memcpy(&k, G->kids + 8 * (size_t)node, 8);
    return k;
}

/* The arc of tile t in the list at `node`, whose tiles are `kids` (t among them): tiles rise strictly along a
 * list (WordGraph.check_structure), so it is the list's arc number popcount(kids below t). 1 and *rec, or 0 and
 * G->err when the record there is not that tile (a forged graph). */
static inline int
arc_of(Gen *G, uint32_t node, uint64_t kids, unsigned t, uint64_t *rec)
{
    size_t k = (size_t)node + (size_t)bit_count(kids & (((uint64_t)1 << t) - 1));
    if (k >= G->nrec) {
        G->err = ERR_GRAPH;
        return 0;
    }
    *rec = lx_arc_at(G->g, k);
    if (LX_TILE(*rec) != t) {
        G->err = ERR_GRAPH;
        return 0;
    }
    return 1;
}

static inline void
take(Gen *G, int slot)
{
    if (--G->rack[slot] == 0 && slot)
        G->avail &= ~((uint64_t)1 << slot);
    G->left--;
    G->used += G->place[slot];
}

static inline void
put(Gen *G, int slot)
{
    if (G->rack[slot]++ == 0 && slot)
        G->avail |= (uint64_t)1 << slot;
    G->left++;
    G->used -= G->place[slot];
}

static double
monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The arc of `tile` in the list starting at `node`: 1 and *rec if found. */
static inline int
step(Gen *G, uint32_t node, unsigned tile, uint64_t *rec)
{
    if (!node || tile >= 64)
        return 0;
    if (node >= G->nrec) {
        G->err = ERR_GRAPH;
        return 0;
    }
    uint64_t kids = kids_of(G, node);
    if (!((kids >> tile) & 1u))
        return 0;
    return arc_of(G, node, kids, tile, rec);
}

/* The ranking key of a record: its equity, or its score. */
static inline double
rec_key(const Gen *G, const unsigned char *rec)
{
    if (G->by_equity) {
        double e;
        memcpy(&e, rec + REC_EQUITY, sizeof e);
        return e;
    }
    int32_t s;
    memcpy(&s, rec, sizeof s);
    return (double)s;
}

/* < 0 when record a ranks before record b (see the file comment); distinct plays never compare equal. */
static int
rank_cmp(const Gen *G, const unsigned char *a, const unsigned char *b)
{
    double ka = rec_key(G, a), kb = rec_key(G, b);
    if (ka != kb)
        return ka > kb ? -1 : 1;
    if (a[6] != b[6])
        return a[6] > b[6] ? -1 : 1; /* across first */
    if (a[4] != b[4])
        return a[4] < b[4] ? -1 : 1;
    if (a[5] != b[5])
        return a[5] < b[5] ? -1 : 1;
    if (a[7] != b[7])
        return a[7] < b[7] ? -1 : 1;
    return memcmp(a + REC_SQUARES, b + REC_SQUARES, REC_SQUARE_BYTES);
}

static inline unsigned char *
slot_at(const Gen *G, size_t i)
{
    return (unsigned char *)G->out + i * LX_MOVE_RECORD_SIZE;
}

static void
swap_records(Gen *G, size_t i, size_t j)
{
    unsigned char tmp[LX_MOVE_RECORD_SIZE];
    memcpy(tmp, slot_at(G, i), LX_MOVE_RECORD_SIZE);
    memcpy(slot_at(G, i), slot_at(G, j), LX_MOVE_RECORD_SIZE);
    memcpy(slot_at(G, j), tmp, LX_MOVE_RECORD_SIZE);
}

/* The heap keeps its worst record at the root: each parent ranks after (or with) its children. */
static void
sift_down(Gen *G, size_t i, size_t size)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, worst = i;
        if (l < size && rank_cmp(G, slot_at(G, l), slot_at(G, worst)) > 0)
            worst = l;
        if (r < size && rank_cmp(G, slot_at(G, r), slot_at(G, worst)) > 0)
            worst = r;
        if (worst == i)
            return;
        swap_records(G, i, worst);
        i = worst;
    }
}

static void
sift_up(Gen *G, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (rank_cmp(G, slot_at(G, i), slot_at(G, parent)) <= 0)
            return;
        swap_records(G, i, parent);
        i = parent;
    }
}

/* Best first: the worst goes to the end, again and again (heap sort). */
static void
sort_heap(Gen *G)
{
    for (size_t end = G->kept; end > 1; end--) {
        swap_records(G, 0, end - 1);
        sift_down(G, 0, end - 1);
    }
}

static int
grow(Gen *G)
{
    size_t cap = G->cap ? G->cap * 2 : 1024;
    if (G->top >= 0 && cap > (size_t)G->top)
        cap = (size_t)G->top;
    char *p = realloc(G->out, cap * LX_MOVE_RECORD_SIZE);
    if (!p) {
        G->err = ERR_MEMORY;
        return -1;
    }
    G->out = p;
    G->cap = cap;
    return 0;
}

static void
fill_record(const Gen *G, unsigned char *rec, int o, int row, int start_c, int score, double equity)
{
    memset(rec, 0, LX_MOVE_RECORD_SIZE);
    uint32_t s = (uint32_t)score;
    rec[0] = s & 0xFF;
    rec[1] = (s >> 8) & 0xFF;
    rec[2] = (s >> 16) & 0xFF;
    rec[3] = (s >> 24) & 0xFF;
    rec[4] = (unsigned char)(o ? row : start_c);
    rec[5] = (unsigned char)(o ? start_c : row);
    rec[6] = (unsigned char)o;
    rec[7] = (unsigned char)G->wlen;
    memcpy(rec + REC_EQUITY, &equity, sizeof equity);
    memcpy(rec + REC_SQUARES, G->word, (size_t)G->wlen);
}

/* A play found (G->word, on line `row` of orientation o from start_c): valued, then kept or passed over. */
static void
record(Gen *G, int o, int row, int start_c, int score)
{
    G->count++;
    /* The same sum, in the same order, as the Python twin: the doubles agree bit for bit. */
    double equity = (double)score;
    if (G->leave_values)
        equity += G->leave_values[G->used];
    if (G->opening && G->board_empty) {
        const double *pen = G->opening + (size_t)(o ? 0 : G->n * G->n) + (size_t)row * (size_t)G->n + (size_t)start_c;
        for (int k = 0; k < G->wlen; k++) {
            unsigned b = G->word[k] & ~LX_BLANK_FLAG;
            if (G->word[k] && ((G->vowels >> b) & 1u))
                equity += pen[k];
        }
    }
    if (G->top < 0) {
        if (G->kept == G->cap && grow(G) < 0)
            return;
        fill_record(G, slot_at(G, G->kept++), o, row, start_c, score, equity);
        return;
    }
    if (G->top == 0)
        return;
    if (G->kept == (size_t)G->top) {
        /* Full: most plays lose to the worst kept on the key alone, without building a record. */
        double worst = rec_key(G, slot_at(G, 0));
        double key = G->by_equity ? equity : (double)score;
        if (key < worst)
            return;
        unsigned char rec[LX_MOVE_RECORD_SIZE];
        fill_record(G, rec, o, row, start_c, score, equity);
        if (rank_cmp(G, rec, slot_at(G, 0)) >= 0)
            return;
        memcpy(slot_at(G, 0), rec, LX_MOVE_RECORD_SIZE);
        sift_down(G, 0, G->kept);
        return;
    }
    if (G->kept == G->cap && grow(G) < 0)
        return;
    fill_record(G, slot_at(G, G->kept), o, row, start_c, score, equity);
    sift_up(G, G->kept++);
}

/* -- shadow bounds: anchors whose best possible play cannot enter the heap are skipped --------------------- */

static inline int
heap_full(const Gen *G)
{
    return G->prune && G->kept == (size_t)G->top;
}

static inline double
worst_key(const Gen *G)
{
    return rec_key(G, slot_at(G, 0));
}

/* The rack's points highest first, and per number of tiles used the best value the leave table gives. */
static void
prepare_bounds(Gen *G, int n_codes, long subsets)
{
    int m = 0;
    for (int t = 0; t < n_codes && m < LX_MAX_BOARD_SIZE; t++)
        for (int k = 0; k < G->rack[t] && m < LX_MAX_BOARD_SIZE; k++) {
            int p = t ? G->points[t] : 0, j = m++;
            while (j > 0 && G->rack_points[j - 1] < p) {
                G->rack_points[j] = G->rack_points[j - 1];
                j--;
            }
            G->rack_points[j] = p;
        }
    for (int j = m; j < LX_MAX_BOARD_SIZE; j++)
        G->rack_points[j] = 0;
    G->rack_sums[0] = 0;
    for (int j = 0; j < LX_MAX_BOARD_SIZE; j++)
        G->rack_sums[j + 1] = G->rack_sums[j] + G->rack_points[j];
    for (int j = 0; j <= LX_MAX_BOARD_SIZE; j++)
        G->best_adjust[j] = G->leave_values ? -1e300 : 0.0;
    if (!G->leave_values)
        return;
    /* An odometer over the subsets (index order), counting the tiles each uses. */
    int digits[LX_MAX_MOVE_TILE_CODES] = {0}, codes[LX_MAX_MOVE_TILE_CODES], distinct = 0, used = 0;
    for (int t = 0; t < n_codes; t++)
        if (G->rack[t])
            codes[distinct++] = t;
    for (long index = 0; index < subsets; index++) {
        if (used <= LX_MAX_BOARD_SIZE && G->leave_values[index] > G->best_adjust[used])
            G->best_adjust[used] = G->leave_values[index];
        for (int d = 0; d < distinct; d++) {
            if (digits[d] < G->rack[codes[d]]) {
                digits[d]++;
                used++;
                break;
            }
            used -= digits[d];
            digits[d] = 0;
        }
    }
}

/* The highest key any play generated from the anchor at (o, row, a) can have: plays whose left part is the board
 * tiles from left_start (>= 0), or up to `limit` rack tiles on the free squares left of it (left_start -1). For each
 * extent the play may cover (squares it must fill: fillable by some rack tile, no more than the rack holds; ending
 * where no board tile follows), the rack's highest points go on the squares that multiply them most, as if every
 * tile fitted every square; plus the bingo bonus and the best leave value for that many tiles. The main word's
 * letter multipliers (1 to 4) and the cross-words' are paired with the points apart (each sum at most its best
 * pairing): a count per letter multiplier and a short sorted list of cross-word squares keep each extent's bound
 * a few operations, where sorting every extent's squares cost more than the anchors it saved on small racks. */
static double
anchor_bound(const Gen *G, int o, int row, int a, int left_start, int limit)
{
    const int n = G->n, base = row * n;
    const uint8_t *C = G->C[o], *LM = G->LM[o], *WM = G->WM[o], *hasx = G->hasx[o];
    const int *P = G->P[o], *csum = G->csum[o];
    const uint64_t *mask = G->mask[o];
    const uint64_t fillable = G->rack[0] ? ~(uint64_t)1 : G->avail;
    const int tiles = G->left, *sums = G->rack_sums;
    int left_board = 0;
    if (left_start >= 0)
        for (int j = left_start; j < a; j++)
            left_board += P[base + j];
    double best = -1e300;
    for (int d = 0; d <= (left_start >= 0 ? 0 : limit) && d <= tiles; d++) {
        int m = 0, wm = 1, board = left_board, cross_sum = 0, ncross = 0;
        int by_lm[5] = {0, 0, 0, 0, 0};   /* placed squares per letter multiplier (1-4: generate_moves checks) */
        int cross[LX_MAX_BOARD_SIZE];     /* the cross-words' multipliers of a tile's points, highest first */
        for (int j = a - d; j < a; j++) { /* left-part squares: free, no cross-words */
            by_lm[LM[base + j]]++;
            m++;
            wm *= WM[base + j];
        }
        const int start = left_start >= 0 ? left_start : a - d;
        for (int e = a; e < n; e++) {
            const int sq = base + e;
            if (C[sq]) {
                board += P[sq];
            } else {
                if (!(mask[sq] & fillable) || m == tiles)
                    break;
                by_lm[LM[sq]]++;
                m++;
                wm *= WM[sq];
                if (hasx[sq]) {
                    cross_sum += csum[sq] * WM[sq];
                    int c = LM[sq] * WM[sq], j = ncross++;
                    while (j > 0 && cross[j - 1] < c) {
                        cross[j] = cross[j - 1];
                        j--;
                    }
                    cross[j] = c;
                }
            }
            if ((e + 1 < n && C[sq + 1]) || e - start < 1)
                continue; /* the word would go on, or one square */
            /* the main word: the highest points on the highest letter multipliers */
            int main = 0, taken = 0;
            for (int lmv = 4; lmv >= 1; lmv--) {
                main += lmv * (sums[taken + by_lm[lmv]] - sums[taken]);
                taken += by_lm[lmv];
            }
            int score = (board + main) * wm + cross_sum + (m == G->rack_size ? G->bingo : 0);
            for (int i = 0; i < ncross; i++)
                score += cross[i] * G->rack_points[i];
            double bound = (double)score + (G->by_equity ? G->best_adjust[m] : 0.0);
            if (bound > best)
                best = bound;
        }
    }
    return best;
}

/* Extend right from square c of the current line (G->o, G->row; anchor G->a; word from G->start_c). */
static void
extend(Gen *G, uint32_t node, int c, int acc, int placed, int msum, int wmul, int xtot, int last_sq)
{
    const int n = G->n, o = G->o;
    const int base = G->row * n;
    const uint8_t *C = G->C[o];
    if (G->deadline >= 0 && ++G->steps % DEADLINE_STEPS == 0 && monotonic_seconds() > G->deadline) {
        G->err = ERR_DEADLINE;
        return;
    }
    while (c < n && C[base + c]) { /* board tiles: follow them without recursion */
        uint64_t r;
        if (!step(G, node, C[base + c], &r))
            return;
        G->word[G->wlen++] = 0;
        node = (uint32_t)LX_TARGET(r);
        acc = (int)LX_ACCEPTS(r);
        msum += G->P[o][base + c];
        c++;
    }
    if (acc && placed && c > G->a && c - G->start_c >= 2) {
        if (!(!o && placed == 1 && G->hasx[o][last_sq])) {
            int score = msum * wmul + xtot + (placed == G->rack_size ? G->bingo : 0);
            record(G, o, G->row, G->start_c, score);
            if (G->err)
                return;
        }
    }
    if (c >= n || !node || G->left == 0 || G->err)
        return;
    const int i = base + c;
    if (node >= G->nrec) {
        G->err = ERR_GRAPH;
        return;
    }
    const uint64_t kids = kids_of(G, node);
    uint64_t want = kids & G->mask[o][i];
    if (!G->rack[0])
        want &= G->avail;
    if (!want)
        return;
    const int lmv = G->LM[o][i], wmv = G->WM[o][i], hx = G->hasx[o][i], cs = G->csum[o][i];
    const int wl = G->wlen;
    /* Only the wanted tiles' arcs are read: each found from the list's tile mask. */
    while (want) {
        unsigned t = (unsigned)lowest_bit(want);
        want &= want - 1;
        uint64_t r;
        if (!arc_of(G, node, kids, t, &r))
            break;
        uint32_t tgt = (uint32_t)LX_TARGET(r);
        int tacc = (int)LX_ACCEPTS(r);
        if (tgt || tacc) {
            if (G->rack[t]) {
                int p = G->points[t];
                take(G, (int)t);
                G->word[wl] = (uint8_t)t;
                G->wlen = wl + 1;
                extend(G, tgt, c + 1, tacc, placed + 1, msum + p * lmv, wmul * wmv,
                       xtot + (hx ? (cs + p * lmv) * wmv : 0), i);
                put(G, (int)t);
            }
            if (G->rack[0]) {
                take(G, 0);
                G->word[wl] = (uint8_t)(t | LX_BLANK_FLAG);
                G->wlen = wl + 1;
                extend(G, tgt, c + 1, tacc, placed + 1, msum, wmul * wmv, xtot + (hx ? cs * wmv : 0), i);
                put(G, 0);
            }
        }
        if (G->err)
            break;
    }
    G->wlen = wl;
}

/* Every left part from the rack, built once and tried at every anchor whose free squares can hold it.
 * `kids` is the set of tiles that can follow the left part (the arcs of `node`). */
static void
left_parts(Gen *G, uint32_t node, int depth)
{
    if (node >= G->nrec) {
        G->err = ERR_GRAPH;
        return;
    }
    const uint64_t kids = node ? kids_of(G, node) : 0;
    const uint64_t avail = G->rack[0] ? ~(uint64_t)1 : G->avail;
    int live_limit = G->max_limit; /* the most room an anchor still worth trying has */
    if (kids & avail) {
        const int n = G->n;
        if (G->pruning)
            live_limit = 0;
        for (int k = 0; k < G->n_anchors; k++) {
            const Anchor *A = &G->anchors[k];
            if (G->pruning) { /* anchors come best bound first; the heap's worst only rises */
                if (A->bound < worst_key(G))
                    break;
                if (A->limit > live_limit)
                    live_limit = A->limit;
                if (A->limit < depth)
                    continue;
            } else if (A->limit < depth) {
                break; /* anchors come longest room first */
            }
            const int base = A->row * n;
            if (!(G->mask[A->o][base + A->a] & kids & avail))
                continue;
            int msum = 0, wmul = 1;
            for (int j = 0; j < depth; j++) {
                int sq = base + A->a - depth + j;
                msum += G->lp_pts[j] * G->LM[A->o][sq];
                wmul *= G->WM[A->o][sq];
            }
            G->wlen = depth;
            for (int j = 0; j < depth; j++)
                G->word[j] = G->lp_code[j];
            G->o = A->o;
            G->row = A->row;
            G->a = A->a;
            G->start_c = A->a - depth;
            extend(G, node, A->a, 0, depth, msum, wmul, 0, -1);
            if (G->err)
                return;
        }
    }
    if (depth >= live_limit || !node)
        return;
    uint64_t want = kids & avail; /* the tiles the rack can put next: their arcs only */
    while (want) {
        unsigned t = (unsigned)lowest_bit(want);
        want &= want - 1;
        uint64_t r;
        if (!arc_of(G, node, kids, t, &r))
            return;
        for (int blank = 0; blank < 2; blank++) {
            int slot = blank ? 0 : (int)t;
            if (!G->rack[slot])
                continue;
            take(G, slot);
            G->lp_code[depth] = (uint8_t)(blank ? (t | LX_BLANK_FLAG) : t);
            G->lp_pts[depth] = blank ? 0 : G->points[t];
            left_parts(G, (uint32_t)LX_TARGET(r), depth + 1);
            put(G, slot);
            if (G->err)
                return;
        }
    }
}

/* Cross-checks and anchors of orientation o (lines are rows of G->C[o]). */
static void
prepare(Gen *G, int o, uint64_t all_mask, uint64_t wanted, int board_empty, int start)
{
    const int n = G->n;
    const uint8_t *C = G->C[o];
    for (int i = 0; i < n * n; i++) {
        G->mask[o][i] = all_mask;
        G->csum[o][i] = 0;
        G->hasx[o][i] = 0;
        G->anchor[o][i] = 0;
        if (C[i])
            continue;
        int r = i / n, c = i % n;
        int up = r, dn = r;
        while (up > 0 && C[(up - 1) * n + c])
            up--;
        while (dn + 1 < n && C[(dn + 1) * n + c])
            dn++;
        if ((c > 0 && C[i - 1]) || (c + 1 < n && C[i + 1]))
            G->anchor[o][i] = 1;
        if (up == r && dn == r)
            continue;
        G->hasx[o][i] = 1;
        G->anchor[o][i] = 1;
        int s = 0;
        for (int k = up; k <= dn; k++)
            if (k != r)
                s += G->P[o][k * n + c];
        G->csum[o][i] = s;
        uint64_t m = 0;
        uint32_t node = G->root;
        int ok = 1;
        for (int k = up; k < r; k++) {
            uint64_t rec;
            if (!step(G, node, C[k * n + c], &rec)) {
                ok = 0;
                break;
            }
            node = (uint32_t)LX_TARGET(rec);
        }
        if (ok && node) {
            for (size_t j = node;; j++) {
                if (j >= G->nrec) {
                    G->err = ERR_GRAPH;
                    return;
                }
                uint64_t rec = lx_arc_at(G->g, j);
                unsigned t = LX_TILE(rec);
                int good;
                if (t >= LX_MAX_MOVE_TILE_CODES || !((wanted >> t) & 1u)) {
                    good = 0; /* a tile the rack cannot play here: no need to know */
                } else if (dn == r) {
                    good = (int)LX_ACCEPTS(rec);
                } else {
                    uint32_t nd = (uint32_t)LX_TARGET(rec);
                    good = 0;
                    for (int k = r + 1; k <= dn; k++) {
                        uint64_t r2;
                        if (!step(G, nd, C[k * n + c], &r2)) {
                            good = 0;
                            break;
                        }
                        good = (int)LX_ACCEPTS(r2);
                        nd = (uint32_t)LX_TARGET(r2);
                    }
                }
                if (good && t < LX_MAX_MOVE_TILE_CODES)
                    m |= (uint64_t)1 << t;
                if (LX_IS_LAST(rec))
                    break;
            }
        }
        G->mask[o][i] = m;
    }
    if (board_empty)
        G->anchor[o][start] = 1;
}

static int
by_bound(const void *x, const void *y)
{
    const Anchor *a = x, *b = y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    if (a->o != b->o)
        return b->o - a->o;
    if (a->row != b->row)
        return a->row - b->row;
    return a->a - b->a;
}

/* The queued anchors by room for a left part, most first (a counting sort: stable, limits are small), so that
 * left_parts stops at the first anchor without room for the left part in hand; or, when the heap is already full,
 * by shadow bound, best first, so that it stops at the first that cannot beat the heap's worst. */
static void
sort_anchors(Gen *G)
{
    if (heap_full(G)) {
        for (int k = 0; k < G->n_anchors; k++) {
            Anchor *A = &G->anchors[k];
            A->bound = anchor_bound(G, A->o, A->row, A->a, -1, A->limit);
        }
        qsort(G->anchors, (size_t)G->n_anchors, sizeof(Anchor), by_bound);
        G->pruning = 1;
        return;
    }
    int count[LX_MAX_BOARD_SIZE + 1] = {0}, start[LX_MAX_BOARD_SIZE + 2];
    for (int k = 0; k < G->n_anchors; k++)
        count[G->anchors[k].limit]++;
    start[LX_MAX_BOARD_SIZE] = 0;
    for (int l = LX_MAX_BOARD_SIZE; l > 0; l--)
        start[l - 1] = start[l] + count[l];
    Anchor *sorted = malloc((size_t)G->n_anchors * sizeof(Anchor));
    if (!sorted) {
        G->err = ERR_MEMORY;
        return;
    }
    for (int k = 0; k < G->n_anchors; k++)
        sorted[start[G->anchors[k].limit]++] = G->anchors[k];
    memcpy(G->anchors, sorted, (size_t)G->n_anchors * sizeof(Anchor));
    free(sorted);
}

/* Anchors with board tiles on their left extend at once; the others are queued for left_parts. */
static void
collect(Gen *G, int o, int total_rack)
{
    const int n = G->n;
    const uint8_t *C = G->C[o];
    for (int row = 0; row < n && !G->err; row++) {
        const int base = row * n;
        for (int a = 0; a < n && !G->err; a++) {
            if (!G->anchor[o][base + a])
                continue;
            if (a > 0 && C[base + a - 1]) {
                int k = a - 1;
                while (k > 0 && C[base + k - 1])
                    k--;
                uint32_t node = G->root;
                int acc = 0, ok = 1, msum = 0;
                G->wlen = 0;
                for (int j = k; j < a; j++) {
                    uint64_t r;
                    if (!step(G, node, C[base + j], &r)) {
                        ok = 0;
                        break;
                    }
                    node = (uint32_t)LX_TARGET(r);
                    acc = (int)LX_ACCEPTS(r);
                    msum += G->P[o][base + j];
                    G->word[G->wlen++] = 0;
                }
                if (ok && heap_full(G) && anchor_bound(G, o, row, a, k, 0) < worst_key(G))
                    ok = 0;
                if (ok) {
                    G->o = o;
                    G->row = row;
                    G->a = a;
                    G->start_c = k;
                    extend(G, node, a, acc, 0, msum, 1, 0, -1);
                }
            } else {
                int limit = 0, k = a - 1;
                while (k >= 0 && !C[base + k] && !G->anchor[o][base + k]) {
                    limit++;
                    k--;
                }
                if (limit > G->rack_size - 1)
                    limit = G->rack_size - 1;
                if (limit > total_rack - 1)
                    limit = total_rack - 1;
                Anchor *A = &G->anchors[G->n_anchors++];
                A->o = o;
                A->row = row;
                A->a = a;
                A->limit = limit;
                if (limit > G->max_limit)
                    G->max_limit = limit;
            }
        }
    }
}

/* Each code's place value in the used-tile index (mixed radix over the rack's codes, ascending), and the
 * table length it implies; -1 when that exceeds LX_MAX_RACK_SUBSETS. */
static long
place_values(Gen *G, int n_codes)
{
    long size = 1;
    for (int t = 0; t < LX_MAX_MOVE_TILE_CODES; t++)
        G->place[t] = 0;
    for (int t = 0; t < n_codes; t++) {
        if (!G->rack[t])
            continue;
        G->place[t] = (int)size;
        size *= (long)G->rack[t] + 1;
        if (size > LX_MAX_RACK_SUBSETS) {
            for (int u = 0; u < LX_MAX_MOVE_TILE_CODES; u++)
                G->place[u] = 0; /* no table: the index stays 0 */
            return -1;
        }
    }
    return size;
}

/* The generation itself, without Python objects (the caller may hold the GIL or not): see movegen.h. */
int
lx_movegen_run(const LxMoveInput *in, LxMoveOutput *result)
{
    result->records = NULL;
    result->kept = 0;
    result->count = 0;
    const int n = in->n, lp = in->n_codes;
    /* Every array is written before it is read (prepare and the copy loop fill the board arrays for
     * all squares), so only the scalars need zeroing: calloc of the whole struct cost more than a
     * small generation. */
    Gen *G = malloc(sizeof(Gen));
    if (!G)
        return LX_MOVEGEN_MEMORY;
    int status = LX_MOVEGEN_OK;
    G->err = 0;
    G->wlen = 0;
    G->lp_len = 0;
    G->n_anchors = 0;
    G->max_limit = 0;
    G->avail = 0;
    G->out = NULL;
    G->count = 0;
    G->kept = 0;
    G->cap = 0;
    G->used = 0;
    G->steps = 0;
    G->top = in->top;
    G->by_equity = in->by_equity;
    G->pruning = 0;
    G->deadline = in->deadline;
    G->leave_values = NULL;
    G->opening = NULL;
    G->vowels = 0;
    memset(G->rack, 0, sizeof G->rack);
    memset(G->points, 0, sizeof G->points);
    G->g = in->graph;
    G->nrec = in->n_records;
    G->kids = in->kids;
    G->root = in->root;
    G->n = n;
    G->rack_size = in->rack_size;
    G->bingo = in->bingo;
    uint64_t all_mask = 0;
    for (int t = 1; t < lp; t++)
        all_mask |= (uint64_t)1 << t;
    int total = 0;
    for (int t = 0; t < lp; t++) {
        G->points[t] = in->points[t];
        G->rack[t] = in->rack[t];
        total += G->rack[t];
        if (t && G->rack[t])
            G->avail |= (uint64_t)1 << t;
        if (in->vowels && in->vowels[t])
            G->vowels |= (uint64_t)1 << t;
    }
    long subsets = place_values(G, lp);
    if (in->leave_values) {
        if (subsets < 0 || in->n_leave_values != (size_t)subsets) {
            status = LX_MOVEGEN_BAD_TABLE;
            goto done;
        }
        G->leave_values = (double *)in->leave_values; /* read only */
    }
    G->opening = (double *)in->opening; /* read only; NULL: none */
    G->left = total;
    G->n_codes = lp;
    int board_empty = 1;
    for (int i = 0; i < n * n; i++) {
        if (in->cells[i] >= lp) {
            status = LX_MOVEGEN_BAD_BOARD;
            goto done;
        }
        if (in->cells[i])
            board_empty = 0;
    }
    G->board_empty = board_empty;
    G->prune = in->prune && in->top > 0;
    for (int i = 0; i < n * n; i++) /* the bounds pair letter multipliers 1-4 (every game's); else no pruning */
        if (in->letter_mult[i] > 4)
            G->prune = 0;
    if (G->prune)
        prepare_bounds(G, lp, subsets);
    if (in->deadline >= 0 && monotonic_seconds() > in->deadline) {
        status = LX_MOVEGEN_DEADLINE;
        goto done;
    }
    if (total == 0 || in->root >= G->nrec)
        goto done;
    for (int o = 1; o >= 0 && !G->err; o--) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int src = o ? r * n + c : c * n + r, dst = r * n + c;
                unsigned char code = in->cells[src];
                G->C[o][dst] = code;
                G->P[o][dst] = (code && !in->blanks[src]) ? G->points[code] : 0;
                G->LM[o][dst] = in->letter_mult[src];
                G->WM[o][dst] = in->word_mult[src];
            }
        int st = o ? in->start : (in->start % n) * n + in->start / n;
        prepare(G, o, all_mask, G->rack[0] ? all_mask : G->avail, board_empty, st);
        if (!G->err)
            collect(G, o, total);
    }
    if (!G->err && G->n_anchors)
        sort_anchors(G);
    if (!G->err && G->n_anchors)
        left_parts(G, G->root, 0);
    if (!G->err && G->top >= 0)
        sort_heap(G);
    if (G->err == ERR_GRAPH)
        status = LX_MOVEGEN_GRAPH;
    else if (G->err == ERR_MEMORY)
        status = LX_MOVEGEN_MEMORY;
    else if (G->err == ERR_DEADLINE)
        status = LX_MOVEGEN_DEADLINE;
    else {
        result->records = (unsigned char *)G->out;
        G->out = NULL;
        result->kept = G->kept;
        result->count = G->prune ? -1 : (Py_ssize_t)G->count;
    }
done:
    free(G->out);
    free(G);
    return status;
}

static PyObject *
generate_moves(PyObject *self, PyObject *args)
{
    Py_buffer graph, kids;
    unsigned int root;
    int n, start, rack_size, bingo;
    const char *cells, *blanks, *lm, *wm, *points, *rack;
    Py_ssize_t lc, lb, llm, lwm, lp, lr;
    const char *leave_values = NULL, *opening = NULL, *vowels = NULL;
    Py_ssize_t llv = 0, lop = 0, lvw = 0, top = -1;
    int by_equity = 1, prune = 0;
    double deadline = -1.0;
    if (!PyArg_ParseTuple(args, "y*y*Iiy#y#y#y#y#y#iii|y#y#y#npdp", &graph, &kids, &root, &n, &cells, &lc, &blanks, &lb,
                          &lm, &llm, &wm, &lwm, &points, &lp, &rack, &lr, &start, &rack_size, &bingo, &leave_values,
                          &llv, &opening, &lop, &vowels, &lvw, &top, &by_equity, &deadline, &prune))
        return NULL;
    PyObject *result = NULL;
    double *table = NULL, *open_table = NULL;
    if (n < 1 || n > LX_MAX_BOARD_SIZE || lc != (Py_ssize_t)n * n || lb != lc || llm != lc || lwm != lc || lp < 2
        || lp > LX_MAX_MOVE_TILE_CODES || lr != lp || start < 0 || start >= n * n || graph.len % 8
        || kids.len != graph.len || (lop && lop != 2 * lc * (Py_ssize_t)sizeof(double)) || (lvw && lvw != lp)
        || llv % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "generate_moves: inconsistent arguments");
        goto done;
    }
    if (llv && !(table = lx_aligned_doubles((const char *)leave_values, llv)))
        goto done;
    if (lop && !(open_table = lx_aligned_doubles((const char *)opening, lop)))
        goto done;
    LxMoveInput in = {
        .graph = (const unsigned char *)graph.buf,
        .n_records = (size_t)graph.len / 8,
        .kids = (const unsigned char *)kids.buf,
        .root = root,
        .n = n,
        .cells = (const unsigned char *)cells,
        .blanks = (const unsigned char *)blanks,
        .letter_mult = (const unsigned char *)lm,
        .word_mult = (const unsigned char *)wm,
        .points = (const unsigned char *)points,
        .rack = (const unsigned char *)rack,
        .n_codes = (int)lp,
        .start = start,
        .rack_size = rack_size,
        .bingo = bingo,
        .leave_values = table,
        .n_leave_values = (size_t)llv / sizeof(double),
        .opening = open_table,
        .vowels = lvw ? (const unsigned char *)vowels : NULL,
        .top = top,
        .by_equity = by_equity,
        .deadline = deadline,
        .prune = prune,
    };
    LxMoveOutput out;
    int status;
    Py_BEGIN_ALLOW_THREADS status = lx_movegen_run(&in, &out);
    Py_END_ALLOW_THREADS switch (status)
    {
    case LX_MOVEGEN_OK:
        result = Py_BuildValue("(y#n)", out.records ? (const char *)out.records : "",
                               (Py_ssize_t)(out.kept * LX_MOVE_RECORD_SIZE), out.count);
        free(out.records);
        break;
    case LX_MOVEGEN_BAD_TABLE:
        PyErr_SetString(PyExc_ValueError, "generate_moves: the leave table does not fit the rack");
        break;
    case LX_MOVEGEN_BAD_BOARD:
        PyErr_SetString(PyExc_ValueError, "generate_moves: a board tile is outside the alphabet");
        break;
    case LX_MOVEGEN_GRAPH:
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        break;
    case LX_MOVEGEN_DEADLINE:
        PyErr_SetString(PyExc_TimeoutError, "generate_moves: past the deadline");
        break;
    default:
        PyErr_NoMemory();
    }
done:
    free(table);
    free(open_table);
    PyBuffer_Release(&graph);
    PyBuffer_Release(&kids);
    return result;
}

static PyMethodDef movegen_methods[] = {
    {"generate_moves", generate_moves, METH_VARARGS,
     "generate_moves(graph, kids, root, n, cells, blanks, letter_mult, word_mult, points, rack, start, rack_size, "
     "bingo[, leave_values, opening_penalty, vowels, top, by_equity, deadline, prune]) -> (records, count)\n\n"
     "Plays on a board for a rack as fixed records, valued by equity; every play, or the best `top` best first "
     "(see movegen.py)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_movegen(PyObject *module)
{
    return PyModule_AddFunctions(module, movegen_methods);
}
