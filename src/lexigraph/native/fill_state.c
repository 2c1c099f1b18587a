/* fill_state.c: the FillState type: a grid's slots, their candidate words and their cells' domains, kept
 * arc consistent as the search decides; the twin of lexigraph.engine.python.propagation.PythonFillState
 * (which the tests hold to the same states, filtering pass for filtering pass).
 *
 * FillState(rows, slot_cells, cell_slots, complete, fixed, groups, allow_repeats, max_shared,
 *           eager_limit, given_words, candidates, domains, wrap)
 *   rows         list, per slot, of its bucket: a C-contiguous (count, width) uint8 array of tile codes
 *                of at most LX_FILL_MAX_TILE_CODES (slots of one length share one array)
 *   slot_cells   list, per slot, of its cell ids (ints)
 *   cell_slots   list, per cell id, of (slot, position) pairs
 *   complete     bytes, per slot: 1 when the slot must become a word
 *   fixed        bytes, per slot: 1 when the grid gives the slot's whole word
 *   groups       list, per slot, of the complete slots of its length (shared lists are fine)
 *   max_shared   0, or N: no two entries may share a run of N tiles (pairs of given entries excepted)
 *   eager_limit  a new entry is struck at once from the slots with at most this many candidates;
 *                larger slots drop it when they are next filtered
 *   given_words  bytes of tile codes: whole words outside the slots, which no entry may share a run with
 *   candidates   list, per slot, of int32 arrays: its starting candidate rows, ascending
 *   domains      uint64 buffer, per cell id: the tiles the cell may hold (bit = tile code)
 *   wrap         callable turning bytes of int32 into the array type (np.frombuffer)
 *
 * Candidates are bit sets. A slot's candidates are a bit per row of its bucket, and each bucket keeps,
 * per position and tile, the set of its rows holding that tile there. A filtering pass then works 64
 * rows at a time: the rows a shrunk domain strikes are the union of the struck tiles' sets (or the rows
 * it keeps, the union of the allowed tiles' sets, when those are fewer), and a tile stays in a cell's
 * domain when its set meets the candidates, which the word where they last met (a residue) usually
 * shows at once. This is Compact-Table (Demeulenaere et al., CP 2016) with a slot's bucket as its
 * table. Why: a pass that reads each candidate row costs time in proportion to the slot's candidates,
 * and on stacked 15-letter rows at minimum 0 nine passes in ten read more than 512 rows
 * (docs/performance.md, autofill).
 *
 * Each slot keeps the indexes of its words with a bit set first (live, n_live), so that a pass over a
 * slot with few candidates left touches few words. Every change is written on a trail (a word's old
 * bits, an old live count, an old size, an old domain, a word or a run taken) that undo(mark) unwinds.
 * A word leaves the live ones only once empty, by a swap among them, so restoring a live count
 * restores the live set before any of the word's bits come back.
 *
 * Memory: per bucket, its tile sets (a bit per row for each tile each position holds: at most 8 bytes
 * per row and position); per slot, a bit per row of its bucket; and a trail no longer than the bits
 * the candidates can lose. It grows with the grid and the list, never with the search.
 *
 * Results of propagate / assign / exclude / set_tile / exclude_tile: -1 consistent, -2 the deadline
 * (a time.monotonic() value or None, kept by deadline.h; NaN is a TypeError) passed, else the slot left
 * without candidates.
 * After anything but -1 the caller undoes to a mark taken before.
 */
#include "module.h"

#include <stdint.h>
#include <string.h>

#include "bits.h"
#include "deadline.h"
#include "limits.h"

enum { TRAIL_SIZE, TRAIL_DOM, TRAIL_USED, TRAIL_KEY, TRAIL_BITS, TRAIL_LIVE };

typedef struct {
    int32_t kind, target; /* target: the slot, cell or bucket changed */
    int32_t word;         /* TRAIL_BITS: which word of the slot's set */
    uint64_t old;         /* the value before (TRAIL_USED: the row; TRAIL_KEY: the table index) */
} TrailEntry;

/* The words of one length, which the slots of that length share. */
typedef struct {
    const unsigned char *tiles; /* count rows of width tile codes */
    int width;
    Py_ssize_t count, n_words;
    uint64_t *present;        /* per position: the tiles some row holds there */
    Py_ssize_t *tile_rows_at; /* per position x 64 tiles: where that tile's row set starts in tile_rows, or -1 */
    uint64_t *tile_rows;
    int32_t *used;  /* per row: 1 + the single slot that holds the word, or 0 */
    int32_t *taken; /* the rows held, oldest first (the trail gives them back newest first) */
    Py_ssize_t n_taken;
} Bucket;

typedef struct {
    PyObject_HEAD Py_ssize_t n_slots, n_cells;
    /* the problem */
    Py_buffer *rows;      /* per slot: its bucket's rows */
    int *width;           /* per slot */
    Py_ssize_t *cell_off; /* per slot + 1: offsets into cells */
    int32_t *cells;
    Py_ssize_t *ref_off;   /* per cell + 1: offsets into refs */
    int32_t *refs;         /* pairs (slot, position) */
    Py_ssize_t *group_off; /* per slot: where its group starts in `group` (slots share one copy of a shared list) */
    Py_ssize_t *group_len; /* per slot */
    int32_t *group;
    unsigned char *complete, *fixed;
    int allow_repeats, max_shared;
    Py_ssize_t eager_limit;
    Bucket *buckets;
    int n_buckets;
    int *bucket_id;        /* per slot */
    int32_t *shared_slots; /* complete slots at least max_shared long */
    Py_ssize_t n_shared_slots;
    uint64_t *keys;  /* runs taken: open addressing, key 0 = empty */
    int32_t *owners; /* 1 + slot, or n_slots + 1 for a given word outside the slots */
    Py_ssize_t table_mask;
    Py_ssize_t n_keys;
    /* the state */
    uint64_t **bits; /* per slot: its candidates, a bit per row of its bucket */
    int32_t **live;  /* per slot: word indexes, the first n_live holding every word with a bit set */
    Py_ssize_t *n_live;
    Py_ssize_t *size;  /* per slot: its number of candidates */
    int32_t **residue; /* per slot, per position x 64 tiles: a word where the tile's rows last met the candidates */
    uint64_t *dom;
    TrailEntry *trail;
    Py_ssize_t trail_len, trail_cap;
    Py_ssize_t owned_bytes;
    /* scratch */
    unsigned char *queued, *all_dirty;
    uint64_t *dirty; /* per slot, 4 words: positions 0..255 */
    int32_t *pending, *singles;
    Py_ssize_t n_singles_cap;
    uint64_t *next_bits;    /* one pass's new candidate words, by word index */
    const uint64_t **tests; /* one pass's tile row sets */
    double *room_scratch;   /* best_row: per crossing, the room of each tile (64 a crossing) */
    /* Per slot: the tiles its candidates hold at each position (at support_off[s] + j), valid while
     * support_ok[s]: when its candidates have not changed since. A filtering pass whose dirty positions
     * all still allow those tiles would strike nothing: it is skipped. */
    uint64_t *support;
    Py_ssize_t *support_off;
    unsigned char *support_ok;
    long long filters;
    /* Per slot: a stamp of its candidates, new at each change and restored by undo; per slot and position,
     * its candidates' tiles counted (tile_counts, 64 a position, at 64 x support_off[s] + 64 j) and the stamp
     * they were counted at. The value order counts the tiles of the same crossing slots again after each
     * failure undone; those counts are read back. */
    uint64_t *version, clock;
    int32_t *tile_counts;
    uint64_t *counted_at;
    int32_t *nogoods; /* the branches apply_nogoods reads (set_nogoods) */
    Py_ssize_t n_nogoods;
    PyObject *wrap;
} FillState;

#define OUTSIDE_OWNER(S) ((int32_t)(S)->n_slots + 1)
#define ERROR_RESULT (-3)

static void
free_each(void **arrays, Py_ssize_t n)
{
    if (arrays)
        for (Py_ssize_t i = 0; i < n; i++)
            PyMem_Free(arrays[i]);
    PyMem_Free(arrays);
}

static void
fs_dealloc(FillState *S)
{
    if (S->rows)
        for (Py_ssize_t i = 0; i < S->n_slots; i++)
            if (S->rows[i].obj)
                PyBuffer_Release(&S->rows[i]);
    if (S->buckets)
        for (int b = 0; b < S->n_buckets; b++) {
            Bucket *B = &S->buckets[b];
            PyMem_Free(B->present);
            PyMem_Free(B->tile_rows_at);
            PyMem_Free(B->tile_rows);
            PyMem_Free(B->used);
            PyMem_Free(B->taken);
        }
    free_each((void **)S->bits, S->n_slots);
    free_each((void **)S->live, S->n_slots);
    free_each((void **)S->residue, S->n_slots);
    PyMem_Free(S->rows);
    PyMem_Free(S->width);
    PyMem_Free(S->cell_off);
    PyMem_Free(S->cells);
    PyMem_Free(S->ref_off);
    PyMem_Free(S->refs);
    PyMem_Free(S->group_off);
    PyMem_Free(S->group_len);
    PyMem_Free(S->group);
    PyMem_Free(S->complete);
    PyMem_Free(S->fixed);
    PyMem_Free(S->buckets);
    PyMem_Free(S->bucket_id);
    PyMem_Free(S->shared_slots);
    PyMem_Free(S->keys);
    PyMem_Free(S->owners);
    PyMem_Free(S->n_live);
    PyMem_Free(S->size);
    PyMem_Free(S->dom);
    PyMem_Free(S->trail);
    PyMem_Free(S->queued);
    PyMem_Free(S->all_dirty);
    PyMem_Free(S->dirty);
    PyMem_Free(S->pending);
    PyMem_Free(S->singles);
    PyMem_Free(S->next_bits);
    PyMem_Free((void *)S->tests);
    PyMem_Free(S->room_scratch);
    PyMem_Free(S->support);
    PyMem_Free(S->support_off);
    PyMem_Free(S->support_ok);
    PyMem_Free(S->nogoods);
    PyMem_Free(S->version);
    PyMem_Free(S->tile_counts);
    PyMem_Free(S->counted_at);
    Py_XDECREF(S->wrap);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int
as_index(PyObject *o, Py_ssize_t limit, const char *what, int32_t *out)
{
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= limit) {
        PyErr_Format(PyExc_ValueError, "FillState: %s %zd out of range", what, v);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

static void *
zalloc(Py_ssize_t n, size_t each)
{
    return PyMem_Calloc(n > 0 ? (size_t)n : 1, each);
}

static inline uint64_t
row_bit(Py_ssize_t row)
{
    return (uint64_t)1 << (row & 63);
}

static inline Bucket *
bucket_of(FillState *S, int32_t s)
{
    return &S->buckets[S->bucket_id[s]];
}

static inline const unsigned char *
row_tiles(FillState *S, int32_t s, Py_ssize_t row)
{
    return bucket_of(S, s)->tiles + row * S->width[s];
}

static inline int
holds_row(FillState *S, int32_t s, Py_ssize_t row)
{
    return row >= 0 && row < bucket_of(S, s)->count && ((S->bits[s][row >> 6] >> (row & 63)) & 1);
}

/* -- the trail ----------------------------------------------------------------------------------- */

static int
push_trail(FillState *S, int kind, int32_t target, int32_t word, uint64_t old)
{
    if (S->trail_len == S->trail_cap) {
        Py_ssize_t cap = S->trail_cap ? 2 * S->trail_cap : 1024;
        TrailEntry *grown = PyMem_Realloc(S->trail, (size_t)cap * sizeof(TrailEntry));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->trail = grown;
        S->trail_cap = cap;
    }
    TrailEntry *e = &S->trail[S->trail_len++];
    e->kind = kind;
    e->target = target;
    e->word = word;
    e->old = old;
    return 0;
}

static void
undo_to(FillState *S, Py_ssize_t mark)
{
    while (S->trail_len > mark) {
        TrailEntry *e = &S->trail[--S->trail_len];
        switch (e->kind) {
        case TRAIL_SIZE:
            S->size[e->target] = e->word;
            S->version[e->target] = e->old;
            S->support_ok[e->target] = 0;
            break;
        case TRAIL_DOM:
            S->dom[e->target] = e->old;
            break;
        case TRAIL_USED: {
            Bucket *B = &S->buckets[e->target];
            B->used[e->old] = 0;
            B->n_taken--;
            break;
        }
        case TRAIL_KEY: /* last in, first out: no later probe passed over it */
            S->keys[e->old] = 0;
            S->owners[e->old] = 0;
            S->n_keys--;
            break;
        case TRAIL_BITS:
            S->bits[e->target][e->word] = e->old;
            break;
        case TRAIL_LIVE:
            S->n_live[e->target] = (Py_ssize_t)e->old;
            break;
        }
    }
}

static int
set_size(FillState *S, int32_t s, Py_ssize_t n)
{
    if (push_trail(S, TRAIL_SIZE, s, (int32_t)S->size[s], S->version[s]) < 0)
        return -1;
    S->size[s] = n;
    S->version[s] = ++S->clock;
    S->support_ok[s] = 0;
    return 0;
}

static int
set_dom(FillState *S, int32_t cell, uint64_t mask)
{
    if (push_trail(S, TRAIL_DOM, cell, 0, S->dom[cell]) < 0)
        return -1;
    S->dom[cell] = mask;
    return 0;
}

static int
set_word(FillState *S, int32_t s, int32_t w, uint64_t value)
{
    if (push_trail(S, TRAIL_BITS, s, w, S->bits[s][w]) < 0)
        return -1;
    S->bits[s][w] = value;
    return 0;
}

/* Strike one candidate row of slot s. */
static int
strike_row(FillState *S, int32_t s, Py_ssize_t row)
{
    int32_t w = (int32_t)(row >> 6);
    if (set_word(S, s, w, S->bits[s][w] & ~row_bit(row)) < 0)
        return -1;
    return set_size(S, s, S->size[s] - 1);
}

/* Slot s's candidates become S->next_bits (for its live words), `kept` rows in all: write the words that
 * change, and move the emptied ones past the live ones. */
static int
commit_next(FillState *S, int32_t s, Py_ssize_t kept)
{
    uint64_t *bits = S->bits[s];
    const uint64_t *next = S->next_bits;
    int32_t *live = S->live[s];
    Py_ssize_t n = S->n_live[s];
    for (Py_ssize_t i = 0; i < n;) {
        int32_t w = live[i];
        if (next[w] != bits[w] && set_word(S, s, w, next[w]) < 0)
            return -1;
        if (next[w]) {
            i++;
            continue;
        }
        live[i] = live[--n];
        live[n] = w;
    }
    if (n != S->n_live[s]) {
        if (push_trail(S, TRAIL_LIVE, s, 0, (uint64_t)S->n_live[s]) < 0)
            return -1;
        S->n_live[s] = n;
    }
    return set_size(S, s, kept);
}

/* -- runs of max_shared tiles ---------------------------------------------------------------------- */

static inline uint64_t
run_key(const unsigned char *w, int n)
{
    uint64_t k = (uint64_t)1 << 63; /* never 0, the empty key */
    for (int i = 0; i < n; i++)
        k |= (uint64_t)(w[i] & 63) << (6 * i);
    return k;
}

static inline Py_ssize_t
key_home(FillState *S, uint64_t key)
{
    return (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & S->table_mask;
}

static int32_t
key_owner(FillState *S, uint64_t key)
{
    for (Py_ssize_t i = key_home(S, key);; i = (i + 1) & S->table_mask) {
        if (S->keys[i] == key)
            return S->owners[i];
        if (S->keys[i] == 0)
            return 0;
    }
}

/* Insert a key that is not there; trailed unless `permanent`. */
static int
add_key(FillState *S, uint64_t key, int32_t owner, int permanent)
{
    Py_ssize_t i = key_home(S, key);
    while (S->keys[i] != 0)
        i = (i + 1) & S->table_mask;
    S->keys[i] = key;
    S->owners[i] = owner;
    S->n_keys++;
    return permanent ? 0 : push_trail(S, TRAIL_KEY, 0, 0, (uint64_t)i);
}

static inline int
owner_is_given(FillState *S, int32_t owner)
{
    return owner == OUTSIDE_OWNER(S) || (owner >= 1 && S->fixed[owner - 1]);
}

/* Whether the word w of slot s shares no run with an entry taken by another slot. */
static inline int
runs_free(FillState *S, int32_t s, const unsigned char *w, int width)
{
    int n = S->max_shared;
    for (int i = 0; i + n <= width; i++) {
        int32_t o = key_owner(S, run_key(w + i, n));
        if (o && o != s + 1 && !(S->fixed[s] && owner_is_given(S, o)))
            return 0;
    }
    return 1;
}

/* S->next_bits for slot s's live words: those of `from` (the same layout) without the rows sharing a run
 * with an entry another slot took. Returns the rows kept. */
static Py_ssize_t
keep_runs_free(FillState *S, int32_t s, const uint64_t *from)
{
    const int32_t *live = S->live[s];
    int width = S->width[s];
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < S->n_live[s]; i++) {
        int32_t w = live[i];
        uint64_t x = from[w], rest = x;
        while (rest) {
            Py_ssize_t row = ((Py_ssize_t)w << 6) + lowest_bit(rest);
            rest &= rest - 1;
            if (!runs_free(S, s, row_tiles(S, s, row), width))
                x &= ~row_bit(row);
        }
        S->next_bits[w] = x;
        kept += bit_count(x);
    }
    return kept;
}

/* -- the queue ---------------------------------------------------------------------------------------- */

static void
enqueue(FillState *S, Py_ssize_t *n_pending, int32_t t, int k)
{
    /* k < 0: no position (only the candidates changed) */
    if (!S->queued[t]) {
        S->queued[t] = 1;
        S->all_dirty[t] = 0;
        memset(S->dirty + 4 * t, 0, 4 * sizeof(uint64_t));
        S->pending[(*n_pending)++] = t;
    }
    if (k >= 0 && !S->all_dirty[t])
        S->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
}

static int
push_single(FillState *S, Py_ssize_t *n, int32_t s)
{
    if (*n >= S->n_singles_cap) {
        Py_ssize_t cap = 2 * S->n_singles_cap;
        int32_t *grown = PyMem_Realloc(S->singles, (size_t)cap * sizeof(int32_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->singles = grown;
        S->n_singles_cap = cap;
    }
    S->singles[(*n)++] = s;
    return 0;
}

/* -- one slot's filtering pass -------------------------------------------------------------------- */

/* The tiles slot s's candidates hold at each position into `held`, given that they fit the domains m.
 * A handful of candidates are read row by row; for more, a tile is held where its row set meets the
 * candidates, tried first at the word where they last met. */
static void
tiles_held(FillState *S, int32_t s, const uint64_t *m, uint64_t *held)
{
    Bucket *B = bucket_of(S, s);
    int width = S->width[s];
    const uint64_t *bits = S->bits[s];
    const int32_t *live = S->live[s];
    Py_ssize_t n_live = S->n_live[s];
    memset(held, 0, (size_t)width * sizeof(uint64_t));
    if (S->size[s] <= 64) {
        for (Py_ssize_t i = 0; i < n_live; i++) {
            int32_t w = live[i];
            for (uint64_t rest = bits[w]; rest; rest &= rest - 1) {
                const unsigned char *tiles = row_tiles(S, s, ((Py_ssize_t)w << 6) + lowest_bit(rest));
                for (int j = 0; j < width; j++)
                    held[j] |= (uint64_t)1 << tiles[j];
            }
        }
        return;
    }
    int32_t *residue = S->residue[s];
    for (int j = 0; j < width; j++) {
        for (uint64_t letters = m[j] & B->present[j]; letters; letters &= letters - 1) {
            int c = lowest_bit(letters);
            const uint64_t *rows = B->tile_rows + B->tile_rows_at[64 * j + c];
            int32_t *last = &residue[64 * j + c];
            int met = (bits[*last] & rows[*last]) != 0;
            for (Py_ssize_t i = 0; i < n_live && !met; i++) {
                int32_t w = live[i];
                if (bits[w] & rows[w]) {
                    *last = w;
                    met = 1;
                }
            }
            if (met)
                held[j] |= (uint64_t)1 << c;
        }
    }
}

/* Keep the candidates of slot si that fit its cells' domains at the dirty positions (and, for a
 * complete slot, repeat no word and share no run taken by another slot); shrink its cells' domains
 * to the tiles the kept rows hold and wake the crossing slots. -1, the slot itself when none is
 * kept, or ERROR_RESULT. */
static long
filter_slot(FillState *S, int32_t si, Py_ssize_t *n_pending, Py_ssize_t *n_singles)
{
    int width = S->width[si];
    Bucket *B = bucket_of(S, si);
    const int32_t *cells = S->cells + S->cell_off[si];
    uint64_t m[LX_MAX_FILL_SLOT], held[LX_MAX_FILL_SLOT];
    unsigned char pos[LX_MAX_FILL_SLOT];
    int n_check = 0;
    for (int j = 0; j < width; j++) {
        m[j] = S->dom[cells[j]];
        if (S->all_dirty[si] || ((S->dirty[4 * si + (j >> 6)] >> (j & 63)) & 1))
            pos[n_check++] = (unsigned char)j;
    }
    uint64_t *support = S->support + S->support_off[si];
    int support_ok = S->support_ok[si];
    if (support_ok) {
        int strikes = 0;
        for (int j = 0; j < n_check && !strikes; j++)
            strikes = (support[pos[j]] & ~m[pos[j]]) != 0;
        if (!strikes) { /* every candidate still fits: its tiles are the slot's support */
            memcpy(held, support, (size_t)width * sizeof(uint64_t));
            goto domains;
        }
    }
    /* Per dirty position, the tile row sets to test: keep the rows of the allowed tiles, or strike those of
     * the struck ones (known while the support is), whichever takes fewer sets. */
    const uint64_t **tests = S->tests;
    int n_tests = 0, n_groups = 0;
    int group_end[LX_MAX_FILL_SLOT];
    unsigned char group_keeps[LX_MAX_FILL_SLOT];
    for (int k = 0; k < n_check; k++) {
        int j = pos[k];
        uint64_t allowed = m[j] & B->present[j], letters;
        int keeps = 1;
        if (support_ok) {
            uint64_t struck = support[j] & ~m[j];
            if (!struck)
                continue;
            keeps = bit_count(allowed) < bit_count(struck);
            letters = keeps ? allowed : struck;
        } else {
            if (allowed == B->present[j])
                continue; /* every row holds one of the allowed tiles */
            letters = allowed;
        }
        for (; letters; letters &= letters - 1)
            tests[n_tests++] = B->tile_rows + B->tile_rows_at[64 * j + lowest_bit(letters)];
        group_end[n_groups] = n_tests;
        group_keeps[n_groups++] = (unsigned char)keeps;
    }
    const uint64_t *bits = S->bits[si];
    uint64_t *next = S->next_bits;
    const int32_t *live = S->live[si];
    Py_ssize_t n_live = S->n_live[si], kept = 0;
    for (Py_ssize_t i = 0; i < n_live; i++) {
        int32_t w = live[i];
        uint64_t x = bits[w];
        for (int g = 0, t = 0; g < n_groups && x; g++) {
            uint64_t any = 0;
            for (; t < group_end[g]; t++)
                any |= tests[t][w];
            x &= group_keeps[g] ? any : ~any;
        }
        next[w] = x;
    }
    if (S->complete[si] && !S->allow_repeats) /* the words other slots hold */
        for (Py_ssize_t q = 0; q < B->n_taken; q++) {
            int32_t row = B->taken[q];
            if (B->used[row] != si + 1 && ((bits[row >> 6] >> (row & 63)) & 1))
                next[row >> 6] &= ~row_bit(row);
        }
    if (S->complete[si] && S->max_shared && width >= S->max_shared && S->n_keys)
        kept = keep_runs_free(S, si, next);
    else
        for (Py_ssize_t i = 0; i < n_live; i++)
            kept += bit_count(next[live[i]]);
    if (kept == 0)
        return si;
    if (kept != S->size[si]) {
        if (commit_next(S, si, kept) < 0)
            return ERROR_RESULT;
        if (kept == 1 && push_single(S, n_singles, si) < 0)
            return ERROR_RESULT;
    }
    tiles_held(S, si, m, held);
    memcpy(support, held, (size_t)width * sizeof(uint64_t));
    S->support_ok[si] = 1;
domains:
    for (int j = 0; j < width; j++) {
        int32_t cid = cells[j];
        if (held[j] == S->dom[cid])
            continue;
        if (set_dom(S, cid, held[j]) < 0)
            return ERROR_RESULT;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++) {
            int32_t t = S->refs[2 * q], k = S->refs[2 * q + 1];
            if (t != si)
                enqueue(S, n_pending, t, k);
        }
    }
    return -1;
}

/* A step of the loops that strike taken entries: past the deadline (the clock read every few thousand)? */
static inline int
tick(LxDeadline *deadline)
{
    return lx_deadline_passed(deadline);
}

/* A filtering pass weighs as much as this many steps of the strike loops (the clock is read every 256 passes). */
#define FILTER_STEPS (LX_DEADLINE_STEPS / 256)

/* The one candidate row of a slot that has one. */
static Py_ssize_t
only_row(FillState *S, int32_t s)
{
    const int32_t *live = S->live[s];
    for (Py_ssize_t i = 0; i < S->n_live[s]; i++)
        if (S->bits[s][live[i]])
            return ((Py_ssize_t)live[i] << 6) + lowest_bit(S->bits[s][live[i]]);
    return -1;
}

/* Slot s has one candidate left: take its word (and its runs) from the other slots. */
static long
take_single(FillState *S, int32_t s, LxDeadline *deadline, Py_ssize_t *n_pending, Py_ssize_t *n_singles)
{
    if (!S->complete[s])
        return -1;
    Py_ssize_t w = only_row(S, s);
    const unsigned char *tiles = row_tiles(S, s, w);
    int width = S->width[s];
    if (!S->allow_repeats) {
        Bucket *B = bucket_of(S, s);
        if (B->used[w] == s + 1)
            goto runs; /* taken already */
        if (B->used[w])
            return s;
        B->used[w] = s + 1;
        B->taken[B->n_taken++] = (int32_t)w;
        if (push_trail(S, TRAIL_USED, S->bucket_id[s], 0, (uint64_t)w) < 0)
            return ERROR_RESULT;
        for (Py_ssize_t g = S->group_off[s]; g < S->group_off[s] + S->group_len[s]; g++) {
            int32_t t = S->group[g];
            if (tick(deadline))
                return -2;
            Py_ssize_t n = S->size[t];
            if (t == s || n > S->eager_limit || !holds_row(S, t, w))
                continue;
            if (n == 1)
                return t;
            if (strike_row(S, t, w) < 0)
                return ERROR_RESULT;
            enqueue(S, n_pending, t, -1);
            if (n - 1 == 1 && push_single(S, n_singles, t) < 0)
                return ERROR_RESULT;
        }
    }
runs:
    if (S->max_shared && width >= S->max_shared) {
        int n_run = S->max_shared, added = 0;
        for (int i = 0; i + n_run <= width; i++) {
            uint64_t key = run_key(tiles + i, n_run);
            int32_t o = key_owner(S, key);
            if (o == s + 1)
                continue;
            if (o) {
                if (S->fixed[s] && owner_is_given(S, o))
                    continue;
                return s;
            }
            if (add_key(S, key, s + 1, 0) < 0)
                return ERROR_RESULT;
            added++;
        }
        if (!added)
            return -1;
        for (Py_ssize_t g = 0; g < S->n_shared_slots; g++) {
            int32_t t = S->shared_slots[g];
            if (tick(deadline))
                return -2;
            Py_ssize_t n = S->size[t];
            if (t == s || n > S->eager_limit)
                continue;
            Py_ssize_t kept = keep_runs_free(S, t, S->bits[t]);
            if (kept == n)
                continue;
            if (!kept)
                return t;
            if (commit_next(S, t, kept) < 0)
                return ERROR_RESULT;
            enqueue(S, n_pending, t, -1);
            if (kept == 1 && push_single(S, n_singles, t) < 0)
                return ERROR_RESULT;
        }
    }
    return -1;
}

/* Run the queue and the singles until nothing changes. */
static long
run_queue(FillState *S, LxDeadline *deadline, Py_ssize_t n_pending, Py_ssize_t n_singles)
{
    long result = -1;
    while (result == -1 && (n_pending || n_singles)) {
        while (result == -1 && n_singles)
            result = take_single(S, S->singles[--n_singles], deadline, &n_pending, &n_singles);
        if (result != -1 || !n_pending)
            break;
        S->filters++;
        if (lx_deadline_passed_after(deadline, FILTER_STEPS)) {
            result = -2;
            break;
        }
        /* The pending slot with the fewest candidates first (the last one among equals): small
         * slots settle cheaply and shrink the cells of the large ones before a large one is
         * filtered, which otherwise is filtered again after each small one. On stacked 15-letter
         * rows this made a decision's propagation about eight times cheaper. */
        Py_ssize_t pick = n_pending - 1;
        for (Py_ssize_t i = 0; i < n_pending - 1; i++)
            if (S->size[S->pending[i]] < S->size[S->pending[pick]])
                pick = i;
        int32_t si = S->pending[pick];
        S->pending[pick] = S->pending[--n_pending];
        S->queued[si] = 0;
        result = filter_slot(S, si, &n_pending, &n_singles);
    }
    /* leave the queue empty for the next call */
    for (Py_ssize_t i = 0; i < n_pending; i++)
        S->queued[S->pending[i]] = 0;
    return result;
}

static PyObject *
result_of(long r)
{
    if (r == ERROR_RESULT)
        return NULL;
    return PyLong_FromLong(r);
}

/* -- construction ------------------------------------------------------------------------------------ */

/* A bucket's tile row sets, and room for the words its slots take. */
static int
build_bucket(Bucket *B, const unsigned char *tiles, int width, Py_ssize_t count, Py_ssize_t n_slots)
{
    B->tiles = tiles;
    B->width = width;
    B->count = count;
    B->n_words = (count + 63) / 64;
    B->present = zalloc(width, sizeof(uint64_t));
    B->tile_rows_at = PyMem_Malloc((size_t)width * 64 * sizeof(Py_ssize_t));
    B->used = zalloc(count, sizeof(int32_t));
    B->taken = zalloc(n_slots + 1, sizeof(int32_t));
    if (!B->present || !B->tile_rows_at || !B->used || !B->taken) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < count; r++)
        for (int j = 0; j < width; j++) {
            unsigned c = tiles[r * width + j];
            if (c > LX_FILL_MAX_TILE_CODES) {
                PyErr_Format(PyExc_ValueError, "FillState: row %zd holds tile code %u, above %d", r, c,
                             LX_FILL_MAX_TILE_CODES);
                return -1;
            }
            B->present[j] |= (uint64_t)1 << c;
        }
    Py_ssize_t n_sets = 0;
    for (int j = 0; j < width; j++)
        for (int c = 0; c < 64; c++)
            B->tile_rows_at[64 * j + c] = ((B->present[j] >> c) & 1) ? (n_sets++) * B->n_words : -1;
    if (n_sets && B->n_words > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(uint64_t) / n_sets) {
        PyErr_NoMemory();
        return -1;
    }
    B->tile_rows = zalloc(n_sets * B->n_words, sizeof(uint64_t));
    if (!B->tile_rows) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < count; r++)
        for (int j = 0; j < width; j++)
            B->tile_rows[B->tile_rows_at[64 * j + tiles[r * width + j]] + (r >> 6)] |= row_bit(r);
    return 0;
}

/* Slot s's starting candidates (ascending rows of its bucket) as its bit set. */
static int
start_slot(FillState *S, int32_t s, PyObject *candidates)
{
    Bucket *B = bucket_of(S, s);
    Py_buffer view;
    if (PyObject_GetBuffer(candidates, &view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    int status = -1;
    Py_ssize_t n = view.len / (Py_ssize_t)sizeof(int32_t);
    const int32_t *rows = view.buf;
    if (view.len % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "FillState: candidates must be int32 arrays");
        goto done;
    }
    S->bits[s] = zalloc(B->n_words, sizeof(uint64_t));
    S->live[s] = zalloc(B->n_words, sizeof(int32_t));
    S->residue[s] = zalloc(64 * S->width[s], sizeof(int32_t));
    if (!S->bits[s] || !S->live[s] || !S->residue[s]) {
        PyErr_NoMemory();
        goto done;
    }
    S->owned_bytes +=
        B->n_words * (Py_ssize_t)(sizeof(uint64_t) + sizeof(int32_t)) + 64 * S->width[s] * (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (rows[i] < 0 || rows[i] >= B->count) {
            PyErr_SetString(PyExc_IndexError, "FillState: a candidate row lies outside the bucket");
            goto done;
        }
        if (i && rows[i] <= rows[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "FillState: a slot's candidate rows must be ascending");
            goto done;
        }
        S->bits[s][rows[i] >> 6] |= row_bit(rows[i]);
    }
    for (Py_ssize_t w = 0; w < B->n_words; w++)
        if (S->bits[s][w])
            S->live[s][S->n_live[s]++] = (int32_t)w;
    for (Py_ssize_t w = 0, at = S->n_live[s]; w < B->n_words; w++)
        if (!S->bits[s][w])
            S->live[s][at++] = (int32_t)w;
    S->size[s] = n;
    status = 0;
done:
    PyBuffer_Release(&view);
    return status;
}

static int
fs_init(FillState *S, PyObject *args, PyObject *kwds)
{
    PyObject *rows, *slot_cells, *cell_slots, *complete, *fixed, *groups, *given, *cands, *doms, *wrap;
    int allow_repeats, max_shared;
    Py_ssize_t eager_limit;
    if (S->rows != NULL) {
        PyErr_SetString(PyExc_TypeError, "FillState: already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!O!O!SSO!pinO!O!OO", &PyList_Type, &rows, &PyList_Type, &slot_cells, &PyList_Type,
                          &cell_slots, &complete, &fixed, &PyList_Type, &groups, &allow_repeats, &max_shared,
                          &eager_limit, &PyList_Type, &given, &PyList_Type, &cands, &doms, &wrap))
        return -1;
    Py_ssize_t NS = PyList_GET_SIZE(rows), NC = PyList_GET_SIZE(cell_slots);
    if (PyList_GET_SIZE(slot_cells) != NS || PyList_GET_SIZE(groups) != NS || PyBytes_GET_SIZE(complete) != NS
        || PyBytes_GET_SIZE(fixed) != NS || PyList_GET_SIZE(cands) != NS) {
        PyErr_SetString(PyExc_ValueError, "FillState: one entry per slot is needed");
        return -1;
    }
    if (max_shared != 0 && (max_shared < 2 || max_shared > LX_FILL_MAX_SHARED)) {
        PyErr_SetString(PyExc_ValueError,
                        "FillState: max_shared must be 0 or from 2 to " Py_STRINGIFY(LX_FILL_MAX_SHARED));
        return -1;
    }
    if (eager_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "FillState: eager_limit must be >= 0");
        return -1;
    }
    S->n_slots = NS;
    S->n_cells = NC;
    S->allow_repeats = allow_repeats;
    S->max_shared = max_shared;
    S->eager_limit = eager_limit;
    Py_INCREF(wrap);
    S->wrap = wrap;
    S->rows = zalloc(NS, sizeof(Py_buffer));
    S->width = zalloc(NS, sizeof(int));
    S->cell_off = zalloc(NS + 1, sizeof(Py_ssize_t));
    S->group_off = zalloc(NS, sizeof(Py_ssize_t));
    S->group_len = zalloc(NS, sizeof(Py_ssize_t));
    S->ref_off = zalloc(NC + 1, sizeof(Py_ssize_t));
    S->complete = zalloc(NS, 1);
    S->fixed = zalloc(NS, 1);
    S->bucket_id = zalloc(NS, sizeof(int));
    S->buckets = zalloc(NS, sizeof(Bucket));
    S->shared_slots = zalloc(NS, sizeof(int32_t));
    S->bits = zalloc(NS, sizeof(uint64_t *));
    S->live = zalloc(NS, sizeof(int32_t *));
    S->residue = zalloc(NS, sizeof(int32_t *));
    S->n_live = zalloc(NS, sizeof(Py_ssize_t));
    S->size = zalloc(NS, sizeof(Py_ssize_t));
    S->dom = zalloc(NC, sizeof(uint64_t));
    S->queued = zalloc(NS, 1);
    S->all_dirty = zalloc(NS, 1);
    S->dirty = zalloc(4 * NS, sizeof(uint64_t));
    S->pending = zalloc(NS, sizeof(int32_t));
    S->n_singles_cap = 2 * NS + 16;
    S->singles = zalloc(S->n_singles_cap, sizeof(int32_t));
    if (!S->rows || !S->width || !S->cell_off || !S->group_off || !S->group_len || !S->ref_off || !S->complete
        || !S->fixed || !S->bucket_id || !S->buckets || !S->shared_slots || !S->bits || !S->live || !S->residue
        || !S->n_live || !S->size || !S->dom || !S->queued || !S->all_dirty || !S->dirty || !S->pending
        || !S->singles) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(S->complete, PyBytes_AS_STRING(complete), NS);
    memcpy(S->fixed, PyBytes_AS_STRING(fixed), NS);
    /* cells, groups, rows */
    /* A group list shared by several slots (the usual case: one per length) is copied once: the
     * previous slots' lists are compared by identity, the last few distinct ones remembered. */
    enum { RECENT = 64 };
    PyObject *recent[RECENT] = {NULL};
    Py_ssize_t recent_at[RECENT] = {0}, n_recent = 0;
    Py_ssize_t total = 0, gtotal = 0, rtotal = 0, n_keys_max = 16, widest = 1;
    for (Py_ssize_t s = 0; s < NS; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        if (!PyList_Check(cl) || !PyList_Check(g)) {
            PyErr_SetString(PyExc_TypeError, "FillState: slot cells and groups must be lists");
            return -1;
        }
        total += PyList_GET_SIZE(cl);
        int seen = 0;
        for (Py_ssize_t r = 0; r < n_recent && !seen; r++)
            seen = recent[r] == g;
        if (!seen) {
            recent[n_recent++ % RECENT] = g;
            if (n_recent > RECENT)
                n_recent = RECENT;
            gtotal += PyList_GET_SIZE(g);
        }
    }
    n_recent = 0;
    for (Py_ssize_t c = 0; c < NC; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        if (!PyList_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "FillState: cell slots must be lists");
            return -1;
        }
        rtotal += PyList_GET_SIZE(r);
    }
    S->cells = zalloc(total, sizeof(int32_t));
    S->group = zalloc(gtotal, sizeof(int32_t));
    S->refs = zalloc(2 * rtotal, sizeof(int32_t));
    if (!S->cells || !S->group || !S->refs) {
        PyErr_NoMemory();
        return -1;
    }
    total = gtotal = rtotal = 0;
    for (Py_ssize_t s = 0; s < NS; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        S->cell_off[s] = total;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(cl); j++)
            if (as_index(PyList_GET_ITEM(cl, j), NC, "cell", &S->cells[total++]) < 0)
                return -1;
        Py_ssize_t r = 0;
        while (r < n_recent && recent[r] != g)
            r++;
        if (r < n_recent) {
            S->group_off[s] = recent_at[r];
        } else {
            recent[n_recent % RECENT] = g;
            recent_at[n_recent % RECENT] = gtotal;
            if (n_recent < RECENT)
                n_recent++;
            S->group_off[s] = gtotal;
            for (Py_ssize_t j = 0; j < PyList_GET_SIZE(g); j++)
                if (as_index(PyList_GET_ITEM(g, j), NS, "slot", &S->group[gtotal++]) < 0)
                    return -1;
        }
        S->group_len[s] = PyList_GET_SIZE(g);
        if (PyObject_GetBuffer(PyList_GET_ITEM(rows, s), &S->rows[s], PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        Py_ssize_t w = PyList_GET_SIZE(cl);
        if (w < 1 || w > LX_MAX_FILL_SLOT || S->rows[s].len % w) {
            PyErr_SetString(PyExc_ValueError, "FillState: a slot's rows do not match its cells");
            return -1;
        }
        if (S->rows[s].len / w > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "FillState: a bucket is too large");
            return -1;
        }
        S->width[s] = (int)w;
        if (w > widest)
            widest = w;
        if (S->complete[s] && max_shared && w >= max_shared) {
            S->shared_slots[S->n_shared_slots++] = (int32_t)s;
            n_keys_max += w - max_shared + 1;
        }
    }
    S->cell_off[NS] = total;
    /* buckets: slots whose rows are one buffer of one width share one; then each slot's candidates */
    Py_ssize_t most_words = 1;
    for (Py_ssize_t s = 0; s < NS; s++) {
        int b = 0;
        while (b < S->n_buckets
               && (S->buckets[b].tiles != S->rows[s].buf || S->buckets[b].width != S->width[s]
                   || S->buckets[b].count != S->rows[s].len / S->width[s]))
            b++;
        if (b == S->n_buckets) {
            S->n_buckets++;
            if (build_bucket(&S->buckets[b], S->rows[s].buf, S->width[s], S->rows[s].len / S->width[s], NS) < 0)
                return -1;
            if (S->buckets[b].n_words > most_words)
                most_words = S->buckets[b].n_words;
        }
        S->bucket_id[s] = b;
        if (start_slot(S, (int32_t)s, PyList_GET_ITEM(cands, s)) < 0)
            return -1;
    }
    for (int b = 0; b < S->n_buckets; b++) {
        Bucket *B = &S->buckets[b];
        Py_ssize_t n_sets = 0;
        for (int j = 0; j < B->width; j++)
            n_sets += bit_count(B->present[j]);
        S->owned_bytes += n_sets * B->n_words * (Py_ssize_t)sizeof(uint64_t);
    }
    for (Py_ssize_t c = 0; c < NC; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        S->ref_off[c] = rtotal;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r); j++) {
            PyObject *pair = PyList_GET_ITEM(r, j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "FillState: cell slots hold (slot, position) pairs");
                return -1;
            }
            if (as_index(PyTuple_GET_ITEM(pair, 0), NS, "slot", &S->refs[2 * rtotal]) < 0)
                return -1;
            if (as_index(PyTuple_GET_ITEM(pair, 1), LX_MAX_FILL_SLOT, "position", &S->refs[2 * rtotal + 1]) < 0)
                return -1;
            rtotal++;
        }
    }
    S->ref_off[NC] = rtotal;
    /* domains */
    Py_buffer db;
    if (PyObject_GetBuffer(doms, &db, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (db.len != NC * (Py_ssize_t)sizeof(uint64_t)) {
        PyBuffer_Release(&db);
        PyErr_SetString(PyExc_ValueError, "FillState: domains must hold one uint64 per cell");
        return -1;
    }
    memcpy(S->dom, db.buf, (size_t)db.len);
    PyBuffer_Release(&db);
    S->support_off = zalloc(NS, sizeof(Py_ssize_t));
    S->support_ok = zalloc(NS, 1);
    S->support = zalloc(total, sizeof(uint64_t));
    S->version = zalloc(NS, sizeof(uint64_t));
    S->tile_counts = zalloc(64 * total, sizeof(int32_t));
    S->counted_at = zalloc(total, sizeof(uint64_t)); /* 0: never (stamps start at 1) */
    if (!S->version || !S->tile_counts || !S->counted_at) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < NS; s++)
        S->version[s] = ++S->clock;
    if (!S->support_off || !S->support_ok || !S->support) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0, at = 0; s < NS; at += S->width[s], s++)
        S->support_off[s] = at;
    /* scratch for one filtering pass */
    S->next_bits = zalloc(most_words, sizeof(uint64_t));
    S->tests = zalloc(64 * widest, sizeof(uint64_t *));
    S->room_scratch = zalloc(64 * widest, sizeof(double));
    if (!S->next_bits || !S->tests || !S->room_scratch) {
        PyErr_NoMemory();
        return -1;
    }
    /* runs of the given words outside the slots */
    if (max_shared) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
            PyObject *g = PyList_GET_ITEM(given, i);
            if (!PyBytes_Check(g)) {
                PyErr_SetString(PyExc_TypeError, "FillState: given words are bytes");
                return -1;
            }
            if (PyBytes_GET_SIZE(g) >= max_shared)
                n_keys_max += PyBytes_GET_SIZE(g) - max_shared + 1;
        }
        Py_ssize_t cap = 64;
        while (cap < 2 * n_keys_max)
            cap <<= 1;
        S->keys = zalloc(cap, sizeof(uint64_t));
        S->owners = zalloc(cap, sizeof(int32_t));
        if (!S->keys || !S->owners) {
            PyErr_NoMemory();
            return -1;
        }
        S->table_mask = cap - 1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
            PyObject *g = PyList_GET_ITEM(given, i);
            const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(g);
            for (Py_ssize_t j = 0; j + max_shared <= PyBytes_GET_SIZE(g); j++) {
                uint64_t key = run_key(w + j, max_shared);
                if (!key_owner(S, key))
                    add_key(S, key, OUTSIDE_OWNER(S), 1);
            }
        }
    }
    return 0;
}

/* -- methods ----------------------------------------------------------------------------------------- */

static PyObject *
fs_propagate(FillState *S, PyObject *args)
{
    PyObject *queue, *singles_in, *deadline_obj;
    if (!PyArg_ParseTuple(args, "O!OO", &PyDict_Type, &queue, &singles_in, &deadline_obj))
        return NULL;
    LxDeadline deadline;
    if (lx_deadline_parse(deadline_obj, &deadline) < 0)
        return NULL;
    Py_ssize_t n_pending = 0, n_singles = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int error = 0;
    while (!error && PyDict_Next(queue, &pos, &key, &value)) {
        int32_t t;
        if (as_index(key, S->n_slots, "slot", &t) < 0) {
            error = 1;
            break;
        }
        enqueue(S, &n_pending, t, -1);
        if (value == Py_None) {
            S->all_dirty[t] = 1;
            continue;
        }
        PyObject *it = PyObject_GetIter(value);
        if (it == NULL) {
            error = 1;
            break;
        }
        PyObject *item;
        while ((item = PyIter_Next(it)) != NULL) {
            int32_t k;
            int bad = as_index(item, S->width[t], "position", &k);
            Py_DECREF(item);
            if (bad < 0) {
                error = 1;
                break;
            }
            S->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
        }
        Py_DECREF(it);
        if (PyErr_Occurred())
            error = 1;
    }
    if (!error) {
        PyObject *it = PyObject_GetIter(singles_in);
        if (it == NULL)
            error = 1;
        else {
            PyObject *item;
            while ((item = PyIter_Next(it)) != NULL) {
                int32_t t;
                int bad = as_index(item, S->n_slots, "slot", &t);
                Py_DECREF(item);
                if (bad < 0) {
                    error = 1;
                    break;
                }
                if (S->size[t] != 1) {
                    PyErr_SetString(PyExc_ValueError, "propagate: a single slot has more or fewer than one candidate");
                    error = 1;
                    break;
                }
                if (push_single(S, &n_singles, t) < 0) {
                    error = 1;
                    break;
                }
            }
            Py_DECREF(it);
            if (PyErr_Occurred())
                error = 1;
        }
    }
    if (error) {
        for (Py_ssize_t i = 0; i < n_pending; i++)
            S->queued[S->pending[i]] = 0;
        return NULL;
    }
    return result_of(run_queue(S, &deadline, n_pending, n_singles));
}

static int
slot_and_row(FillState *S, PyObject *args, int32_t *s, Py_ssize_t *row, LxDeadline *deadline)
{
    PyObject *o_s, *o_row, *o_deadline;
    if (!PyArg_ParseTuple(args, "OOO", &o_s, &o_row, &o_deadline))
        return -1;
    if (as_index(o_s, S->n_slots, "slot", s) < 0)
        return -1;
    Py_ssize_t r = PyNumber_AsSsize_t(o_row, PyExc_OverflowError);
    if (r == -1 && PyErr_Occurred())
        return -1;
    if (lx_deadline_parse(o_deadline, deadline) < 0)
        return -1;
    if (!holds_row(S, *s, r)) {
        PyErr_Format(PyExc_ValueError, "row %zd is not a candidate of slot %d", r, (int)*s);
        return -1;
    }
    *row = r;
    return 0;
}

static PyObject *
fs_assign(FillState *S, PyObject *args)
{
    int32_t s;
    Py_ssize_t row, n_pending = 0, n_singles = 0;
    LxDeadline deadline;
    if (slot_and_row(S, args, &s, &row, &deadline) < 0)
        return NULL;
    if (S->size[s] > 1) { /* the slot keeps the row alone, its word first among the live ones */
        int32_t target = (int32_t)(row >> 6), *live = S->live[s];
        for (Py_ssize_t i = 0; i < S->n_live[s]; i++) {
            int32_t w = live[i];
            uint64_t want = w == target ? row_bit(row) : 0;
            if (S->bits[s][w] != want && set_word(S, s, w, want) < 0)
                return NULL;
            if (w == target) {
                live[i] = live[0];
                live[0] = w;
            }
        }
        if (S->n_live[s] != 1) {
            if (push_trail(S, TRAIL_LIVE, s, 0, (uint64_t)S->n_live[s]) < 0)
                return NULL;
            S->n_live[s] = 1;
        }
        if (set_size(S, s, 1) < 0)
            return NULL;
    }
    const int32_t *cells = S->cells + S->cell_off[s];
    const unsigned char *w = row_tiles(S, s, row);
    for (int j = 0; j < S->width[s]; j++) {
        uint64_t m = (uint64_t)1 << w[j];
        int32_t cid = cells[j];
        if (S->dom[cid] == m)
            continue;
        if (set_dom(S, cid, m) < 0)
            return NULL;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++) {
            int32_t t = S->refs[2 * q], k = S->refs[2 * q + 1];
            if (t != s)
                enqueue(S, &n_pending, t, k);
        }
    }
    if (push_single(S, &n_singles, s) < 0)
        return NULL;
    return result_of(run_queue(S, &deadline, n_pending, n_singles));
}

/* Strike a candidate row (known to be one) from slot s and propagate: -1, -2 or the slot left without candidates. */
static long
exclude_row(FillState *S, int32_t s, Py_ssize_t row, LxDeadline *deadline)
{
    Py_ssize_t n = S->size[s], n_pending = 0, n_singles = 0;
    if (n == 1)
        return s;
    if (strike_row(S, s, row) < 0)
        return ERROR_RESULT;
    enqueue(S, &n_pending, s, -1);
    if (n - 1 == 1 && push_single(S, &n_singles, s) < 0)
        return ERROR_RESULT;
    return run_queue(S, deadline, n_pending, n_singles);
}

static PyObject *
fs_exclude(FillState *S, PyObject *args)
{
    int32_t s;
    Py_ssize_t row;
    LxDeadline deadline;
    if (slot_and_row(S, args, &s, &row, &deadline) < 0)
        return NULL;
    return result_of(exclude_row(S, s, row, &deadline));
}

/* Cell cid (in some slot) keeps only the tile `code`, or loses it; propagate. */
static long
change_cell(FillState *S, int32_t cid, int32_t code, int keep_only, LxDeadline *deadline)
{
    uint64_t bit = (uint64_t)1 << code, m = keep_only ? (S->dom[cid] & bit) : (S->dom[cid] & ~bit);
    if (!m)
        return S->refs[2 * S->ref_off[cid]];
    Py_ssize_t n_pending = 0;
    if (m != S->dom[cid]) {
        if (set_dom(S, cid, m) < 0)
            return ERROR_RESULT;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++)
            enqueue(S, &n_pending, S->refs[2 * q], S->refs[2 * q + 1]);
    }
    return run_queue(S, deadline, n_pending, 0);
}

static PyObject *
cell_change(FillState *S, PyObject *args, int keep_only)
{
    PyObject *o_cell, *o_code, *o_deadline;
    int32_t cid, code;
    LxDeadline deadline;
    if (!PyArg_ParseTuple(args, "OOO", &o_cell, &o_code, &o_deadline))
        return NULL;
    if (as_index(o_cell, S->n_cells, "cell", &cid) < 0 || as_index(o_code, 64, "tile code", &code) < 0
        || lx_deadline_parse(o_deadline, &deadline) < 0)
        return NULL;
    if (S->ref_off[cid] == S->ref_off[cid + 1]) {
        PyErr_Format(PyExc_ValueError, "cell %d lies in no slot", (int)cid);
        return NULL;
    }
    return result_of(change_cell(S, cid, code, keep_only, &deadline));
}

static PyObject *
fs_set_tile(FillState *S, PyObject *args)
{
    return cell_change(S, args, 1);
}
static PyObject *
fs_exclude_tile(FillState *S, PyObject *args)
{
    return cell_change(S, args, 0);
}

/* set_nogoods(packed): the branches of interrupted runs that apply_nogoods reads, checked and copied once
 * (packed, int32: branch after branch, each its number of decisions then a (flags, var, value) triple per
 * decision, flags bit 0 for a decision taken (else a refutation), bit 1 for a cell's tile (else a slot's
 * word)). */
static PyObject *
fs_set_nogoods(FillState *S, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    const int32_t *packed = view.buf;
    Py_ssize_t n = view.len / (Py_ssize_t)sizeof(int32_t);
    int ok = view.len % (Py_ssize_t)sizeof(int32_t) == 0;
    for (Py_ssize_t i = 0; ok && i < n;) {
        int32_t count = packed[i++];
        ok = count >= 0 && 3 * (Py_ssize_t)count <= n - i;
        for (const int32_t *d = packed + i, *end = d + 3 * (Py_ssize_t)(ok ? count : 0); ok && d < end; d += 3) {
            int32_t flags = d[0], var = d[1], value = d[2];
            ok = flags >= 0 && flags <= 3 && var >= 0 && value >= 0
                 && (flags & 2 ? var < S->n_cells && S->ref_off[var] < S->ref_off[var + 1] && value <= 63
                               : var < S->n_slots && value < bucket_of(S, var)->count);
        }
        i += 3 * (Py_ssize_t)count;
    }
    if (!ok) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError,
                        "set_nogoods: packed branches are malformed or name a decision outside the grid");
        return NULL;
    }
    int32_t *copy = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (copy == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(copy, packed, (size_t)n * sizeof(int32_t));
    PyBuffer_Release(&view);
    PyMem_Free(S->nogoods);
    S->nogoods = copy;
    S->n_nogoods = n;
    Py_RETURN_NONE;
}

/* apply_nogoods(blame, deadline): strike what the nogood branches (set_nogoods) prove under the decisions
 * that hold now (see lexigraph.crossword.fill.search). A branch is read while its decisions taken hold; a
 * refutation met on the way whose value is still possible is struck (then the branches are read again from
 * the first), or, when it holds, the search must back up: the result is then the slot to blame (its own, or
 * for a cell `blame`, or when that is negative the cell's first slot). -1 when nothing is left to strike,
 * -2 past the deadline, else the slot to blame. */
static PyObject *
fs_apply_nogoods(FillState *S, PyObject *args)
{
    PyObject *o_deadline;
    long blame;
    LxDeadline deadline;
    if (!PyArg_ParseTuple(args, "lO", &blame, &o_deadline) || lx_deadline_parse(o_deadline, &deadline) < 0)
        return NULL;
    const int32_t *packed = S->nogoods;
    Py_ssize_t n = S->n_nogoods;
    long result = -1;
    for (int struck = 1; struck;) {
        struck = 0;
        for (Py_ssize_t i = 0; i < n && !struck;) {
            int32_t count = packed[i++];
            const int32_t *d = packed + i;
            i += 3 * (Py_ssize_t)count;
            for (int32_t k = 0; k < count; k++, d += 3) {
                int taken = d[0] & 1, cell = d[0] & 2;
                int32_t var = d[1], value = d[2];
                int holds, present;
                if (cell) {
                    holds = S->dom[var] == (uint64_t)1 << value;
                    present = (S->dom[var] >> value) & 1;
                } else {
                    present = holds_row(S, var, value);
                    holds = present && S->size[var] == 1;
                }
                if (taken) {
                    if (!holds)
                        break; /* the decisions before the next refutations no longer all hold */
                    continue;
                }
                if (!present)
                    continue;
                if (holds)
                    return PyLong_FromLong(!cell ? var : blame >= 0 ? blame : S->refs[2 * S->ref_off[var]]);
                result = cell ? change_cell(S, var, value, 0, &deadline) : exclude_row(S, var, value, &deadline);
                if (result != -1)
                    return result_of(result);
                struck = 1;
                break;
            }
        }
    }
    return result_of(result);
}

static PyObject *
fs_mark(FillState *S, PyObject *unused)
{
    return PyLong_FromSsize_t(S->trail_len);
}

static PyObject *
fs_undo(FillState *S, PyObject *arg)
{
    Py_ssize_t m = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (m == -1 && PyErr_Occurred())
        return NULL;
    if (m < 0 || m > S->trail_len) {
        PyErr_SetString(PyExc_ValueError, "undo: the mark is not on the trail");
        return NULL;
    }
    undo_to(S, m);
    Py_RETURN_NONE;
}

static PyObject *
fs_sizes(FillState *S, PyObject *unused)
{
    PyObject *out = PyList_New(S->n_slots);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        PyObject *v = PyLong_FromSsize_t(S->size[s]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

static int
slot_arg(FillState *S, PyObject *o, int32_t *s)
{
    return as_index(o, S->n_slots, "slot", s);
}

static PyObject *
wrapped(FillState *S, const void *data, Py_ssize_t n_bytes)
{
    PyObject *b = PyBytes_FromStringAndSize(data, n_bytes);
    if (b == NULL)
        return NULL;
    PyObject *out = PyObject_CallOneArg(S->wrap, b);
    Py_DECREF(b);
    return out;
}

static PyObject *
fs_candidates(FillState *S, PyObject *arg)
{
    int32_t s;
    if (slot_arg(S, arg, &s) < 0)
        return NULL;
    PyObject *b = PyBytes_FromStringAndSize(NULL, S->size[s] * (Py_ssize_t)sizeof(int32_t));
    if (b == NULL)
        return NULL;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(b);
    const uint64_t *bits = S->bits[s];
    Py_ssize_t k = 0;
    for (Py_ssize_t w = 0; w < bucket_of(S, s)->n_words && k < S->size[s]; w++) /* ascending rows */
        for (uint64_t rest = bits[w]; rest; rest &= rest - 1)
            out[k++] = (int32_t)((w << 6) + lowest_bit(rest));
    PyObject *result = PyObject_CallOneArg(S->wrap, b);
    Py_DECREF(b);
    return result;
}

/* Slot s's candidates per tile at position k, into counts (64 entries), counted afresh. */
static void
count_tiles_now(FillState *S, int32_t s, int32_t k, int32_t *counts)
{
    Bucket *B = bucket_of(S, s);
    const uint64_t *bits = S->bits[s];
    const int32_t *live = S->live[s];
    Py_ssize_t n_live = S->n_live[s];
    memset(counts, 0, 64 * sizeof(int32_t));
    if (S->size[s] > (Py_ssize_t)bit_count(B->present[k]) * n_live) { /* dense: each tile's rows a word at a time */
        for (uint64_t tiles = B->present[k]; tiles; tiles &= tiles - 1) {
            int c = lowest_bit(tiles);
            const uint64_t *rows = B->tile_rows + B->tile_rows_at[64 * k + c];
            Py_ssize_t n = 0;
            for (Py_ssize_t i = 0; i < n_live; i++)
                n += bit_count(bits[live[i]] & rows[live[i]]);
            counts[c] = (int32_t)n;
        }
        return;
    }
    const unsigned char *column = B->tiles + k;
    for (Py_ssize_t i = 0; i < n_live; i++) {
        int32_t w = live[i];
        for (uint64_t rest = bits[w]; rest; rest &= rest - 1)
            counts[column[(((Py_ssize_t)w << 6) + lowest_bit(rest)) * B->width]]++;
    }
}

/* The same, read back when the slot's candidates have not changed since they were last counted. */
static const int32_t *
count_tiles(FillState *S, int32_t s, int32_t k)
{
    Py_ssize_t at = S->support_off[s] + k;
    int32_t *counts = S->tile_counts + 64 * at;
    if (S->counted_at[at] != S->version[s]) {
        count_tiles_now(S, s, k, counts);
        S->counted_at[at] = S->version[s];
    }
    return counts;
}

static PyObject *
fs_counts(FillState *S, PyObject *args)
{
    PyObject *o_s, *o_k;
    int32_t s, k;
    if (!PyArg_ParseTuple(args, "OO", &o_s, &o_k) || slot_arg(S, o_s, &s) < 0)
        return NULL;
    if (as_index(o_k, S->width[s], "position", &k) < 0)
        return NULL;
    return wrapped(S, count_tiles(S, s, k), 64 * sizeof(int32_t));
}

/* best_row(slot, keys, crossings, room, taken): the candidate of the slot (other than the taken rows,
 * unless they are all it has) with the highest keys[row] + the sum, over the crossings (position j of the
 * slot, slot t, position k of t) whose slot t has several candidates, of room[the candidates of t with
 * the row's tile at k]; the lowest such row among equals. The sums are taken in the crossings' order,
 * as the twin's arrays take them, so the two pick the same row. */
static PyObject *
fs_best_row(FillState *S, PyObject *args)
{
    PyObject *o_s, *o_keys, *o_crossings, *o_room, *o_taken;
    int32_t s;
    if (!PyArg_ParseTuple(args, "OOOOO", &o_s, &o_keys, &o_crossings, &o_room, &o_taken) || slot_arg(S, o_s, &s) < 0)
        return NULL;
    Bucket *B = bucket_of(S, s);
    Py_buffer keys, crossings, room;
    if (PyObject_GetBuffer(o_keys, &keys, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(o_crossings, &crossings, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&keys);
        return NULL;
    }
    if (PyObject_GetBuffer(o_room, &room, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&keys);
        PyBuffer_Release(&crossings);
        return NULL;
    }
    PyObject *result = NULL, *taken = NULL;
    Py_ssize_t n_cross = crossings.len / (3 * (Py_ssize_t)sizeof(int32_t));
    Py_ssize_t n_room = room.len / (Py_ssize_t)sizeof(double);
    if (keys.len != B->count * (Py_ssize_t)sizeof(double) || crossings.len % (3 * (Py_ssize_t)sizeof(int32_t))
        || n_cross > S->width[s] || room.len % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "best_row: keys (float64, one per row of the bucket), crossings (int32 "
                                          "triples) or room (float64) have the wrong size");
        goto done;
    }
    taken = PySequence_Fast(o_taken, "best_row: taken must be a sequence of rows");
    if (taken == NULL)
        goto done;
    /* per crossing: the room each tile at position j leaves slot t at position k */
    double(*tile_room)[64] = (double(*)[64])S->room_scratch; /* on the heap: 130 KB on a thread's stack is too much */
    int cross_at[LX_MAX_FILL_SLOT], n_used = 0;
    const int32_t *triple = crossings.buf;
    for (Py_ssize_t x = 0; x < n_cross; x++, triple += 3) {
        int32_t j = triple[0], t = triple[1], k = triple[2];
        if (j < 0 || j >= S->width[s] || t < 0 || t >= S->n_slots || k < 0 || k >= S->width[t]) {
            PyErr_SetString(PyExc_ValueError, "best_row: a crossing lies outside the grid");
            goto done;
        }
        if (S->size[t] <= 1)
            continue;
        const int32_t *counts = count_tiles(S, t, k);
        for (int c = 0; c < 64; c++) {
            if (counts[c] >= n_room) {
                PyErr_SetString(PyExc_ValueError, "best_row: room is shorter than a slot's candidates");
                goto done;
            }
            tile_room[n_used][c] = ((const double *)room.buf)[counts[c]];
        }
        cross_at[n_used++] = j;
    }
    const double *key_of = keys.buf;
    const uint64_t *bits = S->bits[s];
    const int32_t *live = S->live[s];
    Py_ssize_t n_taken = PySequence_Fast_GET_SIZE(taken), best = -1;
    double best_key = 0;
    /* the words of the other slots first struck from a copy of the candidates' live words */
    for (int pass = 0; pass < 2 && best < 0; pass++) {
        uint64_t *next = S->next_bits;
        for (Py_ssize_t i = 0; i < S->n_live[s]; i++)
            next[live[i]] = bits[live[i]];
        if (pass == 0)
            for (Py_ssize_t q = 0; q < n_taken; q++) {
                Py_ssize_t row = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(taken, q), PyExc_OverflowError);
                if (row == -1 && PyErr_Occurred())
                    goto done;
                if (holds_row(S, s, row))
                    next[row >> 6] &= ~row_bit(row);
            }
        /* ascending rows, so that the first of equal keys is the lowest row, as the twin's argmax takes it */
        for (Py_ssize_t w = 0; w < B->n_words; w++) {
            if (!bits[w])
                continue;
            for (uint64_t rest = next[w]; rest; rest &= rest - 1) {
                Py_ssize_t row = (w << 6) + lowest_bit(rest);
                const unsigned char *tiles = B->tiles + row * B->width;
                double key = key_of[row];
                for (int x = 0; x < n_used; x++)
                    key += tile_room[x][tiles[cross_at[x]]];
                if (best < 0 || key > best_key) {
                    best = row;
                    best_key = key;
                }
            }
        }
    }
    if (best < 0) {
        PyErr_Format(PyExc_ValueError, "best_row: slot %d has no candidates", (int)s);
        goto done;
    }
    result = PyLong_FromSsize_t(best);
done:
    Py_XDECREF(taken);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&crossings);
    PyBuffer_Release(&room);
    return result;
}

static PyObject *
fs_has(FillState *S, PyObject *args)
{
    PyObject *o_s, *o_row;
    int32_t s;
    if (!PyArg_ParseTuple(args, "OO", &o_s, &o_row) || slot_arg(S, o_s, &s) < 0)
        return NULL;
    Py_ssize_t row = PyNumber_AsSsize_t(o_row, PyExc_OverflowError);
    if (row == -1 && PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(holds_row(S, s, row));
}

static PyObject *
fs_domain(FillState *S, PyObject *arg)
{
    int32_t c;
    if (as_index(arg, S->n_cells, "cell", &c) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(S->dom[c]);
}

static PyObject *
fs_domains(FillState *S, PyObject *unused)
{
    PyObject *out = PyList_New(S->n_cells);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t c = 0; c < S->n_cells; c++) {
        PyObject *v = PyLong_FromUnsignedLongLong(S->dom[c]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, c, v);
    }
    return out;
}

static PyObject *
fs_filters(FillState *S, void *closure)
{
    return PyLong_FromLongLong(S->filters);
}
static PyObject *
fs_trail_length(FillState *S, void *closure)
{
    return PyLong_FromSsize_t(S->trail_len);
}
static PyObject *
fs_owned_bytes(FillState *S, void *closure)
{
    return PyLong_FromSsize_t(S->owned_bytes);
}
static PyObject *
fs_get_eager(FillState *S, void *closure)
{
    return PyLong_FromSsize_t(S->eager_limit);
}
static int
fs_set_eager(FillState *S, PyObject *value, void *closure)
{
    Py_ssize_t v = value == NULL ? -1 : PyNumber_AsSsize_t(value, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, "eager_limit must be >= 0");
        return -1;
    }
    S->eager_limit = v;
    return 0;
}

static PyObject *
fs_singles(FillState *S, PyObject *unused)
{
    PyObject *out = PyList_New(S->n_slots);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        PyObject *v = PyLong_FromSsize_t(S->size[s] == 1 ? only_row(S, (int32_t)s) : -1);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

static PyMethodDef fs_methods[] = {
    {"propagate", (PyCFunction)fs_propagate, METH_VARARGS,
     "propagate(queue, singles, deadline) -> -1, -2 or a slot: filter from the slots in queue "
     "(slot -> positions whose domain shrank, or None for all) after taking the words of the single slots"},
    {"assign", (PyCFunction)fs_assign, METH_VARARGS,
     "assign(slot, row, deadline): the slot takes the word and propagates"},
    {"exclude", (PyCFunction)fs_exclude, METH_VARARGS,
     "exclude(slot, row, deadline): strike the word from the slot and propagate"},
    {"set_tile", (PyCFunction)fs_set_tile, METH_VARARGS,
     "set_tile(cell, code, deadline): the cell takes the tile and propagates"},
    {"exclude_tile", (PyCFunction)fs_exclude_tile, METH_VARARGS,
     "exclude_tile(cell, code, deadline): strike the tile from the cell and propagate"},
    {"set_nogoods", (PyCFunction)fs_set_nogoods, METH_O,
     "set_nogoods(packed): the nogood branches apply_nogoods reads (int32: per branch its length, then (flags, var, "
     "value) per decision)"},
    {"apply_nogoods", (PyCFunction)fs_apply_nogoods, METH_VARARGS,
     "apply_nogoods(blame, deadline) -> -1, -2 or a slot: strike what the nogood branches prove"},
    {"mark", (PyCFunction)fs_mark, METH_NOARGS, "mark() -> the trail's length, for undo"},
    {"undo", (PyCFunction)fs_undo, METH_O, "undo(mark): unwind every change made since the mark"},
    {"sizes", (PyCFunction)fs_sizes, METH_NOARGS, "sizes() -> each slot's number of candidates"},
    {"singles", (PyCFunction)fs_singles, METH_NOARGS,
     "singles() -> each slot's one candidate row, or -1 when it has more or none"},
    {"candidates", (PyCFunction)fs_candidates, METH_O,
     "candidates(slot) -> its candidate rows, ascending (int32 array)"},
    {"best_row", (PyCFunction)fs_best_row, METH_VARARGS,
     "best_row(slot, keys, crossings, room, taken) -> the candidate with the highest key plus the room it leaves its "
     "crossings"},
    {"counts", (PyCFunction)fs_counts, METH_VARARGS,
     "counts(slot, position) -> candidates per tile code at the position (64 int32)"},
    {"has", (PyCFunction)fs_has, METH_VARARGS, "has(slot, row) -> whether the row is one of the slot's candidates"},
    {"domain", (PyCFunction)fs_domain, METH_O, "domain(cell) -> the tiles the cell may hold (bit mask)"},
    {"domains", (PyCFunction)fs_domains, METH_NOARGS, "domains() -> every cell's domain"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef fs_getset[] = {
    {"filters", (getter)fs_filters, NULL, "filtering passes so far", NULL},
    {"trail_length", (getter)fs_trail_length, NULL, "changes held for undo", NULL},
    {"owned_bytes", (getter)fs_owned_bytes, NULL, "bytes held for the candidate sets (here: bit sets, tile row sets)",
     NULL},
    {"eager_limit", (getter)fs_get_eager, (setter)fs_set_eager,
     "a taken word or run is struck at once from the slots with at most this many candidates", NULL},
    {NULL}};

static PyTypeObject FillStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = LX_MODULE_NAME ".FillState",
    .tp_basicsize = sizeof(FillState),
    .tp_dealloc = (destructor)fs_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "A grid's candidates and domains kept arc consistent, with a trail to undo (see lexigraph.crossword.fill).",
    .tp_methods = fs_methods,
    .tp_getset = fs_getset,
    .tp_init = (initproc)fs_init,
    .tp_new = PyType_GenericNew,
};

int
lx_add_fill_state(PyObject *module)
{
    return lx_add_type(module, &FillStateType, "FillState");
}
