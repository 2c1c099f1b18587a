/* fill_state.c: the FillState type: a grid's slots, their candidate words and their cells' domains, kept
 * arc consistent as the search decides; the twin of lexigraph.engine.python.propagation.PythonFillState
 * (which the tests hold to the same states, filtering pass for filtering pass).
 *
 * FillState(problem, candidates, domains, wrap)
 *   problem      a lexigraph.engine.interface.PropagationProblem, whose fields are read by name:
 *   rows         list, per slot, of its bucket: a C-contiguous (count, width) uint8 array of tile codes
 *                of at most LX_FILL_MAX_TILE_CODES (slots of one length share one array)
 *   slot_cells   list, per slot, of its cell ids (ints)
 *   cell_slots   list, per cell id, of (slot, position) pairs
 *   complete     bytes, per slot: 1 when the slot must become a word
 *   fixed        bytes, per slot: 1 when the grid gives the slot's whole word
 *   same_length  list, per slot, of the complete slots of its length (shared lists are fine)
 *   allow_repeats whether complete slots may repeat a word
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
    PyObject_HEAD
    Py_ssize_t n_slots, n_cells;
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

/* The tile row sets a filtering pass tests, in groups (one per dirty position that may strike): a group keeps the
 * rows of its tiles (group_keeps 1) or strikes them; group_end[g] is where group g's sets end in S->tests. */
typedef struct {
    int count;
    int end[LX_MAX_FILL_SLOT];
    unsigned char keeps[LX_MAX_FILL_SLOT];
} TestGroups;

/* Per dirty position, the tile row sets to test: keep the rows of the allowed tiles, or strike those of the struck
 * ones (known while the support is), whichever takes fewer sets. */
static void
plan_tests(FillState *S, int32_t si, const uint64_t *m, const unsigned char *pos, int n_check, TestGroups *groups)
{
    const Bucket *B = bucket_of(S, si);
    const uint64_t *support = S->support + S->support_off[si];
    const int support_ok = S->support_ok[si];
    int n_tests = 0;
    groups->count = 0;
    for (int k = 0; k < n_check; k++) {
        int j = pos[k], keeps = 1;
        uint64_t allowed = m[j] & B->present[j], letters;
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
            S->tests[n_tests++] = B->tile_rows + B->tile_rows_at[64 * j + lowest_bit(letters)];
        groups->end[groups->count] = n_tests;
        groups->keeps[groups->count++] = (unsigned char)keeps;
    }
}

/* The slot's candidates that pass every group, word by word, into S->next_bits (the live words only). */
static void
apply_tests(FillState *S, int32_t si, const TestGroups *groups)
{
    const uint64_t *bits = S->bits[si], **tests = S->tests;
    const int32_t *live = S->live[si];
    uint64_t *next = S->next_bits;
    for (Py_ssize_t i = 0; i < S->n_live[si]; i++) {
        int32_t w = live[i];
        uint64_t x = bits[w];
        for (int g = 0, t = 0; g < groups->count && x; g++) {
            uint64_t any = 0;
            for (; t < groups->end[g]; t++)
                any |= tests[t][w];
            x &= groups->keeps[g] ? any : ~any;
        }
        next[w] = x;
    }
}

/* A complete slot's passing candidates, without the words other slots hold (unless repeats are allowed) and the
 * words that share a run taken: how many are left. */
static Py_ssize_t
keep_untaken(FillState *S, int32_t si)
{
    const Bucket *B = bucket_of(S, si);
    const uint64_t *bits = S->bits[si];
    uint64_t *next = S->next_bits;
    if (S->complete[si] && !S->allow_repeats) /* the words other slots hold */
        for (Py_ssize_t q = 0; q < B->n_taken; q++) {
            int32_t row = B->taken[q];
            if (B->used[row] != si + 1 && ((bits[row >> 6] >> (row & 63)) & 1))
                next[row >> 6] &= ~row_bit(row);
        }
    if (S->complete[si] && S->max_shared && S->width[si] >= S->max_shared && S->n_keys)
        return keep_runs_free(S, si, next);
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < S->n_live[si]; i++)
        kept += bit_count(next[S->live[si][i]]);
    return kept;
}

/* The slot's cells keep the tiles `held` (its candidates' at each position); the crossing slots of each cell that
 * shrank wake up. -1, or ERROR_RESULT. */
static long
shrink_domains(FillState *S, int32_t si, const uint64_t *held, Py_ssize_t *n_pending)
{
    const int32_t *cells = S->cells + S->cell_off[si];
    for (int j = 0; j < S->width[si]; j++) {
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

/* Whether the slot's support (its candidates' tiles, still valid) shows that no dirty position strikes any. */
static int
support_holds(const FillState *S, int32_t si, const uint64_t *m, const unsigned char *pos, int n_check)
{
    if (!S->support_ok[si])
        return 0;
    const uint64_t *support = S->support + S->support_off[si];
    for (int j = 0; j < n_check; j++)
        if (support[pos[j]] & ~m[pos[j]])
            return 0;
    return 1;
}

/* Keep the candidates of slot si that fit its cells' domains at the dirty positions (and, for a complete slot,
 * repeat no word and share no run taken by another slot); shrink its cells' domains to the tiles the kept rows
 * hold and wake the crossing slots. -1, the slot itself when none is kept, or ERROR_RESULT. */
static long
filter_slot(FillState *S, int32_t si, Py_ssize_t *n_pending, Py_ssize_t *n_singles)
{
    const int width = S->width[si];
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
    if (support_holds(S, si, m, pos, n_check)) /* every candidate still fits: its tiles are the slot's support */
        return shrink_domains(S, si, support, n_pending);
    TestGroups groups;
    plan_tests(S, si, m, pos, n_check, &groups);
    apply_tests(S, si, &groups);
    Py_ssize_t kept = keep_untaken(S, si);
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
    return shrink_domains(S, si, held, n_pending);
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

/* The problem's fields (a lexigraph.engine.interface.PropagationProblem, read by attribute), borrowed from it. */
typedef struct {
    PyObject *rows, *slot_cells, *cell_slots, *complete, *fixed, *groups, *given;
    int allow_repeats, max_shared;
    Py_ssize_t eager_limit;
} Problem;

/* An attribute of the problem of the given type (NULL: any), borrowed; NULL with an error set. */
static PyObject *
problem_field(PyObject *problem, const char *name, PyTypeObject *type, PyObject **held)
{
    PyObject *value = PyObject_GetAttrString(problem, name);
    if (value == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "FillState: a PropagationProblem is needed (it has no %s)", name);
        }
        return NULL;
    }
    *held = value; /* the problem holds it too: the caller drops this reference at once */
    if (type != NULL && !PyObject_TypeCheck(value, type)) {
        PyErr_Format(PyExc_TypeError, "FillState: the problem's %s must be a %s", name, type->tp_name);
        return NULL;
    }
    return value;
}

static int
read_problem(PyObject *problem, Problem *p)
{
    struct {
        const char *name;
        PyTypeObject *type;
        PyObject **out;
    } fields[] = {
        {"rows", &PyList_Type, &p->rows},
        {"slot_cells", &PyList_Type, &p->slot_cells},
        {"cell_slots", &PyList_Type, &p->cell_slots},
        {"complete", &PyBytes_Type, &p->complete},
        {"fixed", &PyBytes_Type, &p->fixed},
        {"same_length", &PyList_Type, &p->groups},
        {"given_words", &PyList_Type, &p->given},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        PyObject *held = NULL;
        *fields[i].out = problem_field(problem, fields[i].name, fields[i].type, &held);
        Py_XDECREF(held); /* borrowed from here on: the problem keeps its fields for the call */
        if (*fields[i].out == NULL)
            return -1;
    }
    PyObject *repeats = PyObject_GetAttrString(problem, "allow_repeats");
    PyObject *shared = repeats ? PyObject_GetAttrString(problem, "max_shared") : NULL;
    PyObject *eager = shared ? PyObject_GetAttrString(problem, "eager_limit") : NULL;
    int ok = eager != NULL && (p->allow_repeats = PyObject_IsTrue(repeats)) >= 0
             && !((p->max_shared = PyLong_AsLong(shared)) == -1 && PyErr_Occurred())
             && !((p->eager_limit = PyLong_AsSsize_t(eager)) == -1 && PyErr_Occurred());
    Py_XDECREF(repeats);
    Py_XDECREF(shared);
    Py_XDECREF(eager);
    return ok ? 0 : -1;
}

/* The problem's sizes agree, its rules are in range. */
static int
check_problem(const Problem *p, Py_ssize_t candidates)
{
    Py_ssize_t slots = PyList_GET_SIZE(p->rows);
    if (PyList_GET_SIZE(p->slot_cells) != slots || PyList_GET_SIZE(p->groups) != slots
        || PyBytes_GET_SIZE(p->complete) != slots || PyBytes_GET_SIZE(p->fixed) != slots || candidates != slots) {
        PyErr_SetString(PyExc_ValueError, "FillState: one entry per slot is needed");
        return -1;
    }
    if (p->max_shared != 0 && (p->max_shared < 2 || p->max_shared > LX_FILL_MAX_SHARED)) {
        PyErr_SetString(PyExc_ValueError,
                        "FillState: max_shared must be 0 or from 2 to " Py_STRINGIFY(LX_FILL_MAX_SHARED));
        return -1;
    }
    if (p->eager_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "FillState: eager_limit must be >= 0");
        return -1;
    }
    return 0;
}

/* The arrays with one entry per slot or per cell. */
static int
allocate_per_slot(FillState *S)
{
    const Py_ssize_t NS = S->n_slots, NC = S->n_cells;
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
    return 0;
}

/* A group list shared by several slots (the usual case: one per length) is copied once: the previous slots'
 * lists are compared by identity, the last few distinct ones remembered. */
enum { RECENT_GROUPS = 64 };
typedef struct {
    PyObject *list[RECENT_GROUPS];
    Py_ssize_t at[RECENT_GROUPS]; /* where each was copied in S->group */
    Py_ssize_t count;
} RecentGroups;

/* The cells, groups and (slot, position) pairs every slot and cell lists, counted: the arrays' lengths. */
static int
count_entries(const Problem *p, Py_ssize_t *cells, Py_ssize_t *groups, Py_ssize_t *refs)
{
    RecentGroups recent = {{NULL}, {0}, 0};
    *cells = *groups = *refs = 0;
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(p->rows); s++) {
        PyObject *cl = PyList_GET_ITEM(p->slot_cells, s), *g = PyList_GET_ITEM(p->groups, s);
        if (!PyList_Check(cl) || !PyList_Check(g)) {
            PyErr_SetString(PyExc_TypeError, "FillState: slot cells and groups must be lists");
            return -1;
        }
        *cells += PyList_GET_SIZE(cl);
        int seen = 0;
        for (Py_ssize_t r = 0; r < recent.count && !seen; r++)
            seen = recent.list[r] == g;
        if (!seen) {
            recent.list[recent.count++ % RECENT_GROUPS] = g;
            if (recent.count > RECENT_GROUPS)
                recent.count = RECENT_GROUPS;
            *groups += PyList_GET_SIZE(g);
        }
    }
    for (Py_ssize_t c = 0; c < PyList_GET_SIZE(p->cell_slots); c++) {
        PyObject *r = PyList_GET_ITEM(p->cell_slots, c);
        if (!PyList_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "FillState: cell slots must be lists");
            return -1;
        }
        *refs += PyList_GET_SIZE(r);
    }
    return 0;
}

/* Slot s's group: copied into S->group at *group_total, or the copy of the same list a slot before made. */
static int
read_group(FillState *S, Py_ssize_t s, PyObject *g, RecentGroups *recent, Py_ssize_t *group_total)
{
    Py_ssize_t r = 0;
    while (r < recent->count && recent->list[r] != g)
        r++;
    if (r < recent->count) {
        S->group_off[s] = recent->at[r];
    } else {
        recent->list[recent->count % RECENT_GROUPS] = g;
        recent->at[recent->count % RECENT_GROUPS] = *group_total;
        if (recent->count < RECENT_GROUPS)
            recent->count++;
        S->group_off[s] = *group_total;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(g); j++)
            if (as_index(PyList_GET_ITEM(g, j), S->n_slots, "slot", &S->group[(*group_total)++]) < 0)
                return -1;
    }
    S->group_len[s] = PyList_GET_SIZE(g);
    return 0;
}

/* Slot s's rows (its bucket, held) and width, checked against its cells. */
static int
read_rows(FillState *S, Py_ssize_t s, PyObject *rows, Py_ssize_t width)
{
    if (PyObject_GetBuffer(rows, &S->rows[s], PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (width < 1 || width > LX_MAX_FILL_SLOT || S->rows[s].len % width) {
        PyErr_SetString(PyExc_ValueError, "FillState: a slot's rows do not match its cells");
        return -1;
    }
    if (S->rows[s].len / width > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "FillState: a bucket is too large");
        return -1;
    }
    S->width[s] = (int)width;
    return 0;
}

/* Every slot's cells, group, rows and width; the complete slots long enough to share runs. Returns the widest
 * slot, or -1; *keys gains the runs those slots may take. */
static Py_ssize_t
read_slots(FillState *S, const Problem *p, Py_ssize_t *keys)
{
    RecentGroups recent = {{NULL}, {0}, 0};
    Py_ssize_t cells = 0, groups = 0, widest = 1;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        PyObject *cl = PyList_GET_ITEM(p->slot_cells, s);
        S->cell_off[s] = cells;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(cl); j++)
            if (as_index(PyList_GET_ITEM(cl, j), S->n_cells, "cell", &S->cells[cells++]) < 0)
                return -1;
        if (read_group(S, s, PyList_GET_ITEM(p->groups, s), &recent, &groups) < 0
            || read_rows(S, s, PyList_GET_ITEM(p->rows, s), PyList_GET_SIZE(cl)) < 0)
            return -1;
        Py_ssize_t w = S->width[s];
        if (w > widest)
            widest = w;
        if (S->complete[s] && p->max_shared && w >= p->max_shared) {
            S->shared_slots[S->n_shared_slots++] = (int32_t)s;
            *keys += w - p->max_shared + 1;
        }
    }
    S->cell_off[S->n_slots] = cells;
    return widest;
}

/* Buckets (slots whose rows are one buffer of one width share one), then each slot's starting candidates.
 * Returns the most words a bucket's bit sets take, or -1. */
static Py_ssize_t
read_buckets(FillState *S, PyObject *candidates)
{
    Py_ssize_t most_words = 1;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        int b = 0;
        while (b < S->n_buckets
               && (S->buckets[b].tiles != S->rows[s].buf || S->buckets[b].width != S->width[s]
                   || S->buckets[b].count != S->rows[s].len / S->width[s]))
            b++;
        if (b == S->n_buckets) {
            S->n_buckets++;
            if (build_bucket(&S->buckets[b], S->rows[s].buf, S->width[s], S->rows[s].len / S->width[s], S->n_slots) < 0)
                return -1;
            if (S->buckets[b].n_words > most_words)
                most_words = S->buckets[b].n_words;
        }
        S->bucket_id[s] = b;
        if (start_slot(S, (int32_t)s, PyList_GET_ITEM(candidates, s)) < 0)
            return -1;
    }
    for (int b = 0; b < S->n_buckets; b++) {
        Bucket *B = &S->buckets[b];
        Py_ssize_t n_sets = 0;
        for (int j = 0; j < B->width; j++)
            n_sets += bit_count(B->present[j]);
        S->owned_bytes += n_sets * B->n_words * (Py_ssize_t)sizeof(uint64_t);
    }
    return most_words;
}

/* Each cell's (slot, position) pairs. */
static int
read_cell_slots(FillState *S, PyObject *cell_slots)
{
    Py_ssize_t refs = 0;
    for (Py_ssize_t c = 0; c < S->n_cells; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        S->ref_off[c] = refs;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r); j++) {
            PyObject *pair = PyList_GET_ITEM(r, j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "FillState: cell slots hold (slot, position) pairs");
                return -1;
            }
            if (as_index(PyTuple_GET_ITEM(pair, 0), S->n_slots, "slot", &S->refs[2 * refs]) < 0
                || as_index(PyTuple_GET_ITEM(pair, 1), LX_MAX_FILL_SLOT, "position", &S->refs[2 * refs + 1]) < 0)
                return -1;
            refs++;
        }
    }
    S->ref_off[S->n_cells] = refs;
    return 0;
}

/* Each cell's starting domain, a uint64 per cell. */
static int
read_domains(FillState *S, PyObject *domains)
{
    Py_buffer view;
    if (PyObject_GetBuffer(domains, &view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    int ok = view.len == S->n_cells * (Py_ssize_t)sizeof(uint64_t);
    if (ok)
        memcpy(S->dom, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "FillState: domains must hold one uint64 per cell");
    return ok ? 0 : -1;
}

/* The supports, the stamps and counts of the value order, and one filtering pass's scratch. */
static int
allocate_scratch(FillState *S, Py_ssize_t cells, Py_ssize_t widest, Py_ssize_t most_words)
{
    const Py_ssize_t NS = S->n_slots;
    S->support_off = zalloc(NS, sizeof(Py_ssize_t));
    S->support_ok = zalloc(NS, 1);
    S->support = zalloc(cells, sizeof(uint64_t));
    S->version = zalloc(NS, sizeof(uint64_t));
    S->tile_counts = zalloc(64 * cells, sizeof(int32_t));
    S->counted_at = zalloc(cells, sizeof(uint64_t)); /* 0: never (stamps start at 1) */
    S->next_bits = zalloc(most_words, sizeof(uint64_t));
    S->tests = zalloc(64 * widest, sizeof(uint64_t *));
    S->room_scratch = zalloc(64 * widest, sizeof(double));
    if (!S->support_off || !S->support_ok || !S->support || !S->version || !S->tile_counts || !S->counted_at
        || !S->next_bits || !S->tests || !S->room_scratch) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t s = 0; s < NS; s++)
        S->version[s] = ++S->clock;
    for (Py_ssize_t s = 0, at = 0; s < NS; at += S->width[s], s++)
        S->support_off[s] = at;
    return 0;
}

/* The runs of the given words outside the slots, taken before the search (with max_shared). */
static int
read_given_words(FillState *S, PyObject *given, Py_ssize_t keys)
{
    const int max_shared = S->max_shared;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
        PyObject *g = PyList_GET_ITEM(given, i);
        if (!PyBytes_Check(g)) {
            PyErr_SetString(PyExc_TypeError, "FillState: given words are bytes");
            return -1;
        }
        if (PyBytes_GET_SIZE(g) >= max_shared)
            keys += PyBytes_GET_SIZE(g) - max_shared + 1;
    }
    Py_ssize_t capacity = 64;
    while (capacity < 2 * keys)
        capacity <<= 1;
    S->keys = zalloc(capacity, sizeof(uint64_t));
    S->owners = zalloc(capacity, sizeof(int32_t));
    if (!S->keys || !S->owners) {
        PyErr_NoMemory();
        return -1;
    }
    S->table_mask = capacity - 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
        PyObject *g = PyList_GET_ITEM(given, i);
        const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(g);
        for (Py_ssize_t j = 0; j + max_shared <= PyBytes_GET_SIZE(g); j++) {
            uint64_t key = run_key(w + j, max_shared);
            if (!key_owner(S, key))
                add_key(S, key, OUTSIDE_OWNER(S), 1);
        }
    }
    return 0;
}

/* FillState(problem, candidates, domains, wrap): see the file's comment. */
static int
fs_init(FillState *S, PyObject *args, PyObject *kwds)
{
    PyObject *problem, *candidates, *domains, *wrap;
    Problem p;
    Py_ssize_t cells, groups, refs, keys = 16;
    if (S->rows != NULL) {
        PyErr_SetString(PyExc_TypeError, "FillState: already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OO!OO:FillState", &problem, &PyList_Type, &candidates, &domains, &wrap)
        || read_problem(problem, &p) < 0 || check_problem(&p, PyList_GET_SIZE(candidates)) < 0)
        return -1;
    S->n_slots = PyList_GET_SIZE(p.rows);
    S->n_cells = PyList_GET_SIZE(p.cell_slots);
    S->allow_repeats = p.allow_repeats;
    S->max_shared = p.max_shared;
    S->eager_limit = p.eager_limit;
    S->wrap = Py_NewRef(wrap);
    if (allocate_per_slot(S) < 0 || count_entries(&p, &cells, &groups, &refs) < 0)
        return -1;
    memcpy(S->complete, PyBytes_AS_STRING(p.complete), S->n_slots);
    memcpy(S->fixed, PyBytes_AS_STRING(p.fixed), S->n_slots);
    S->cells = zalloc(cells, sizeof(int32_t));
    S->group = zalloc(groups, sizeof(int32_t));
    S->refs = zalloc(2 * refs, sizeof(int32_t));
    if (!S->cells || !S->group || !S->refs) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t widest = read_slots(S, &p, &keys);
    Py_ssize_t most_words = widest < 0 ? -1 : read_buckets(S, candidates);
    if (most_words < 0 || read_cell_slots(S, p.cell_slots) < 0 || read_domains(S, domains) < 0
        || allocate_scratch(S, cells, widest, most_words) < 0)
        return -1;
    return p.max_shared ? read_given_words(S, p.given, keys) : 0;
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

/* Per crossing (position j of slot s, slot t, position k of t) whose slot t has several candidates, the room each
 * tile at j leaves t at k (room[the candidates of t with that tile at k]), into tile_room; the positions j into
 * cross_at. How many crossings count, or -1 with an error set. */
static int
crossing_rooms(FillState *S, int32_t s, const Py_buffer *crossings, const Py_buffer *room, double (*tile_room)[64],
               int *cross_at)
{
    const Py_ssize_t n_cross = crossings->len / (3 * (Py_ssize_t)sizeof(int32_t));
    const Py_ssize_t n_room = room->len / (Py_ssize_t)sizeof(double);
    const int32_t *triple = crossings->buf;
    int n_used = 0;
    for (Py_ssize_t x = 0; x < n_cross; x++, triple += 3) {
        int32_t j = triple[0], t = triple[1], k = triple[2];
        if (j < 0 || j >= S->width[s] || t < 0 || t >= S->n_slots || k < 0 || k >= S->width[t]) {
            PyErr_SetString(PyExc_ValueError, "best_row: a crossing lies outside the grid");
            return -1;
        }
        if (S->size[t] <= 1)
            continue;
        const int32_t *counts = count_tiles(S, t, k);
        for (int c = 0; c < 64; c++) {
            if (counts[c] >= n_room) {
                PyErr_SetString(PyExc_ValueError, "best_row: room is shorter than a slot's candidates");
                return -1;
            }
            tile_room[n_used][c] = ((const double *)room->buf)[counts[c]];
        }
        cross_at[n_used++] = j;
    }
    return n_used;
}

/* The slot's candidates into S->next_bits, the rows of `taken` struck (pass 0); -1 with an error set. */
static int
candidates_but_taken(FillState *S, int32_t s, PyObject *taken, int pass)
{
    uint64_t *next = S->next_bits;
    const int32_t *live = S->live[s];
    for (Py_ssize_t i = 0; i < S->n_live[s]; i++)
        next[live[i]] = S->bits[s][live[i]];
    for (Py_ssize_t q = 0; pass == 0 && q < PySequence_Fast_GET_SIZE(taken); q++) {
        Py_ssize_t row = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(taken, q), PyExc_OverflowError);
        if (row == -1 && PyErr_Occurred())
            return -1;
        if (holds_row(S, s, row))
            next[row >> 6] &= ~row_bit(row);
    }
    return 0;
}

/* The best of the rows in S->next_bits (ascending rows, so that the first of equal keys is the lowest row, as the
 * twin's argmax takes it), or -1 when there is none. */
static Py_ssize_t
best_of_candidates(FillState *S, int32_t s, const double *key_of, double (*tile_room)[64], const int *cross_at,
                   int n_used)
{
    const Bucket *B = bucket_of(S, s);
    Py_ssize_t best = -1;
    double best_key = 0;
    for (Py_ssize_t w = 0; w < B->n_words; w++) {
        if (!S->bits[s][w])
            continue;
        for (uint64_t rest = S->next_bits[w]; rest; rest &= rest - 1) {
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
    return best;
}

/* best_row on checked buffers: the row, or NULL with an error set. */
static PyObject *
best_row(FillState *S, int32_t s, const Py_buffer *keys, const Py_buffer *crossings, const Py_buffer *room,
         PyObject *o_taken)
{
    if (keys->len != bucket_of(S, s)->count * (Py_ssize_t)sizeof(double)
        || crossings->len % (3 * (Py_ssize_t)sizeof(int32_t))
        || crossings->len / (3 * (Py_ssize_t)sizeof(int32_t)) > S->width[s] || room->len % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "best_row: keys (float64, one per row of the bucket), crossings (int32 "
                                          "triples) or room (float64) have the wrong size");
        return NULL;
    }
    PyObject *taken = PySequence_Fast(o_taken, "best_row: taken must be a sequence of rows");
    if (taken == NULL)
        return NULL;
    double(*tile_room)[64] = (double(*)[64])S->room_scratch; /* on the heap: 130 KB on a thread's stack is too much */
    int cross_at[LX_MAX_FILL_SLOT];
    int n_used = crossing_rooms(S, s, crossings, room, tile_room, cross_at);
    Py_ssize_t best = -1;
    /* the words of the other slots first struck from a copy of the candidates' live words */
    for (int pass = 0; n_used >= 0 && pass < 2 && best < 0; pass++) {
        if (candidates_but_taken(S, s, taken, pass) < 0) {
            n_used = -1;
            break;
        }
        best = best_of_candidates(S, s, keys->buf, tile_room, cross_at, n_used);
    }
    Py_DECREF(taken);
    if (n_used < 0)
        return NULL;
    if (best < 0)
        return PyErr_Format(PyExc_ValueError, "best_row: slot %d has no candidates", (int)s);
    return PyLong_FromSsize_t(best);
}

/* best_row(slot, keys, crossings, room, taken): the candidate of the slot (other than the taken rows, unless they
 * are all it has) with the highest keys[row] + the sum, over the crossings (position j of the slot, slot t,
 * position k of t) whose slot t has several candidates, of room[the candidates of t with the row's tile at k]; the
 * lowest such row among equals. The sums are taken in the crossings' order, as the twin's arrays take them, so the
 * two pick the same row. */
static PyObject *
fs_best_row(FillState *S, PyObject *args)
{
    PyObject *o_s, *o_keys, *o_crossings, *o_room, *o_taken;
    int32_t s;
    if (!PyArg_ParseTuple(args, "OOOOO", &o_s, &o_keys, &o_crossings, &o_room, &o_taken) || slot_arg(S, o_s, &s) < 0)
        return NULL;
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
    PyObject *result = best_row(S, s, &keys, &crossings, &room, o_taken);
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
    .ob_base = {PyObject_HEAD_INIT(NULL) 0},
    .tp_name = LX_MODULE_NAME ".FillState",
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
