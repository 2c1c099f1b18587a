/* fill.c: the hot loops of crossword autofill: filter_rows and the FillState type.
 *
 * filter_rows(rows, width, idx, masks, check) -> (kept, used)
 *
 *   rows       C-contiguous uint8 buffer of a length bucket: count rows of `width` tile codes
 *   idx        int32 buffer: the candidate rows (indexes into `rows`), ascending
 *   masks      sequence of `width` ints: the tiles allowed in each position (bit = tile code, codes < 64)
 *   check      uint8 buffer: the positions to test (the others are known to pass)
 *
 *   kept       bytes of int32: the rows that pass, in order; None when every row passes
 *   used       tuple of `width` ints: the tiles the kept rows put in each position
 *
 * One pass over the candidates; the pure-Python twin is lexigraph.engine.python.propagation.filter_rows,
 * which the tests hold to the same answers.
 *
 * Why C: a fill spends its time filtering candidate rows and propagating what that leaves
 * (docs/performance.md, autofill); moving the pass, then the loop around it, here cut that time
 * most. Masks are uint64 (bit = tile code), so this path takes alphabets of at most
 * LX_FILL_MAX_TILE_CODES tiles and slots of at most LX_MAX_FILL_SLOT cells (limits.h).
 */
#include "module.h"

#include <stdint.h>
#include <string.h>

#include "limits.h"

static int get(PyObject *obj, Py_buffer *view, int writable, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous%s buffer", what, writable ? " writable" : "");
        return -1;
    }
    return 0;
}

/* Kept rows are gathered here, then copied into a bytes object of the exact size: allocating
 * the worst case per call costs page faults on large buckets. Used only while the GIL is held. */
static int32_t *scratch = NULL;
static Py_ssize_t scratch_cap = 0;

/* Keep the candidate rows (`n` row numbers of a bucket of `count` rows, `width` tiles each) whose
 * tiles at the `n_check` positions `pos` fit the masks `m`, in order, into `out`; OR each kept row's
 * tiles into `seen` (zeroed by the caller) until every position has seen every tile its mask allows,
 * after which the masks it gives are final. Returns how many were kept, or -1 for a row number
 * outside the bucket. */
static Py_ssize_t
keep_fitting(const unsigned char *r, Py_ssize_t count, Py_ssize_t width, const int32_t *in, Py_ssize_t n,
             const unsigned char *pos, Py_ssize_t n_check, const uint64_t *m, uint64_t *seen, int32_t *out)
{
    Py_ssize_t kept = 0, unsat = width;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t row = in[i];
        if (row < 0 || row >= count)
            return -1;
        const unsigned char *w = r + (Py_ssize_t)row * width;
        Py_ssize_t j = 0;
        for (; j < n_check; j++) {
            unsigned c = w[pos[j]];
            if (c > LX_FILL_MAX_TILE_CODES || !((m[pos[j]] >> c) & 1u)) break;
        }
        if (j < n_check) continue;
        out[kept++] = row;
        if (unsat) {
            unsat = 0;
            for (j = 0; j < width; j++) {
                seen[j] |= (uint64_t)1 << (w[j] & 63);
                unsat += seen[j] != m[j];
            }
        }
    }
    return kept;
}

static PyObject *filter_rows(PyObject *self, PyObject *args) {
    PyObject *o_rows, *o_idx, *o_masks, *o_check;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "OnOOO", &o_rows, &width, &o_idx, &o_masks, &o_check)) return NULL;
    if (width < 1 || width > LX_MAX_FILL_SLOT) {
        PyErr_SetString(PyExc_ValueError, "width must be from 1 to 255");
        return NULL;
    }
    uint64_t m[LX_MAX_FILL_SLOT], seen[LX_MAX_FILL_SLOT];
    unsigned char pos[LX_MAX_FILL_SLOT];
    PyObject *fast = PySequence_Fast(o_masks, "masks must be a sequence of integers");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != width) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "filter_rows: one mask per position is needed");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        m[j] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, j));
        if (m[j] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    Py_buffer rows, idx, check;
    if (get(o_rows, &rows, 0, "rows") < 0) return NULL;
    if (get(o_idx, &idx, 0, "idx") < 0) { PyBuffer_Release(&rows); return NULL; }
    if (get(o_check, &check, 0, "check") < 0) { PyBuffer_Release(&rows); PyBuffer_Release(&idx); return NULL; }
    PyObject *result = NULL, *kept_obj = NULL;
    Py_ssize_t count = rows.len / width;
    Py_ssize_t n = idx.len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t n_check = check.len;
    if (rows.len % width || idx.len % sizeof(int32_t) || n_check > width) {
        PyErr_SetString(PyExc_ValueError, "filter_rows: buffer sizes do not agree");
        goto done;
    }
    for (Py_ssize_t j = 0; j < n_check; j++) {
        pos[j] = ((const unsigned char *)check.buf)[j];
        if (pos[j] >= width) {
            PyErr_SetString(PyExc_ValueError, "filter_rows: a position to check lies outside the width");
            goto done;
        }
    }
    if (n > scratch_cap) {
        int32_t *grown = PyMem_Realloc(scratch, (size_t)n * sizeof(int32_t));
        if (grown == NULL) { PyErr_NoMemory(); goto done; }
        scratch = grown;
        scratch_cap = n;
    }
    {
        memset(seen, 0, sizeof(seen));
        Py_ssize_t kept = keep_fitting((const unsigned char *)rows.buf, count, width, (const int32_t *)idx.buf, n,
                                       pos, n_check, m, seen, scratch);
        if (kept < 0) {
            PyErr_SetString(PyExc_IndexError, "filter_rows: a candidate row lies outside the bucket");
            goto done;
        }
        PyObject *used = PyTuple_New(width);
        if (used == NULL) goto done;
        for (Py_ssize_t j = 0; j < width; j++) {
            PyObject *v = PyLong_FromUnsignedLongLong(seen[j]);
            if (v == NULL) { Py_DECREF(used); goto done; }
            PyTuple_SET_ITEM(used, j, v);
        }
        if (kept == n) {
            result = PyTuple_Pack(2, Py_None, used);
        } else {
            kept_obj = PyBytes_FromStringAndSize((const char *)scratch, kept * (Py_ssize_t)sizeof(int32_t));
            if (kept_obj == NULL) { Py_DECREF(used); goto done; }
            result = PyTuple_Pack(2, kept_obj, used);
        }
        Py_DECREF(used);
    }
done:
    Py_XDECREF(kept_obj);
    PyBuffer_Release(&rows); PyBuffer_Release(&idx); PyBuffer_Release(&check);
    return result;
}


/* ---------------------------------------------------------------------------------------------
 * FillState: a grid's slots, their candidate rows and their cells' domains, kept arc consistent as
 * the search decides; the twin of lexigraph.engine.python.propagation.PythonFillState (which the tests
 * hold to the same states, filtering pass for filtering pass).
 *
 * FillState(rows, slot_cells, cell_slots, complete, fixed, groups, allow_repeats, max_shared,
 *           eager_limit, given_words, candidates, domains, wrap)
 *   rows         list, per slot, of its bucket: a C-contiguous (count, width) uint8 array
 *   slot_cells   list, per slot, of its cell ids (ints)
 *   cell_slots   list, per cell id, of (slot, position) pairs
 *   complete     bytes, per slot: 1 when the slot must become a word
 *   fixed        bytes, per slot: 1 when the grid gives the slot's whole word
 *   groups       list, per slot, of the complete slots of its length (shared lists are fine)
 *   max_shared   0, or N: no two entries may share a run of N tiles (pairs of given entries excepted)
 *   eager_limit  a new entry is struck at once from the slots with at most this many candidates;
 *                larger slots drop it when they are next filtered
 *   given_words  bytes of tile codes: whole words outside the slots, which no entry may share a run with
 *   candidates   list, per slot, of int32 arrays: its starting candidate rows
 *   domains      uint64 buffer, per cell id: the tiles the cell may hold (bit = tile code)
 *   wrap         callable turning bytes of int32 into the array type (np.frombuffer)
 *
 * Memory: a slot's candidates are a sparse set (a permutation of its starting rows and a size) copied
 * from its starting array the first time it shrinks; every change is written on a trail (old size,
 * old domain, a word or a run taken) that undo(mark) unwinds. So the state holds at most one copy of
 * each slot's starting rows plus a trail no longer than the changes they allow: it grows with the
 * grid and the list, never with the search.
 *
 * Results of propagate / assign / exclude / set_tile / exclude_tile: -1 consistent, -2 the deadline
 * (a time.monotonic() value; CLOCK_MONOTONIC here) passed, else the slot left without candidates.
 * After anything but -1 the caller undoes to a mark taken before.
 * --------------------------------------------------------------------------------------------- */

#include <time.h>

enum { TRAIL_SIZE, TRAIL_DOM, TRAIL_USED, TRAIL_KEY };

typedef struct {
    int32_t kind, a;
    uint64_t b;
} TrailEntry;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_slots, n_cells;
    /* the problem */
    Py_buffer *rows;            /* per slot */
    int *width;                 /* per slot */
    Py_ssize_t *count;          /* per slot: rows in its bucket */
    Py_ssize_t *cell_off;       /* per slot + 1: offsets into cells */
    int32_t *cells;
    Py_ssize_t *ref_off;        /* per cell + 1: offsets into refs */
    int32_t *refs;              /* pairs (slot, position) */
    Py_ssize_t *group_off;      /* per slot: where its group starts in `group` (slots share one copy of a shared list) */
    Py_ssize_t *group_len;      /* per slot */
    int32_t *group;
    unsigned char *complete, *fixed;
    int allow_repeats, max_shared;
    Py_ssize_t eager_limit;
    int *bucket_id;             /* per slot: which used map (slots of one bucket share it) */
    int n_buckets;
    int32_t **used;             /* per bucket: per row, 1 + the single slot that holds the word, or 0 */
    int32_t *shared_slots;      /* complete slots at least max_shared long */
    Py_ssize_t n_shared_slots;
    uint64_t *keys;             /* runs taken: open addressing, key 0 = empty */
    int32_t *owners;            /* 1 + slot, or n_slots + 1 for a given word outside the slots */
    Py_ssize_t table_mask;
    Py_ssize_t n_keys;
    /* the state */
    Py_buffer *start;           /* per slot: its starting candidates (int32) */
    int32_t **perm;             /* per slot: current candidates first, then the struck ones */
    unsigned char *own;         /* per slot: perm is a copy of ours */
    Py_ssize_t *size;
    uint64_t *dom;
    TrailEntry *trail;
    Py_ssize_t trail_len, trail_cap;
    Py_ssize_t owned_bytes;
    /* scratch */
    unsigned char *queued, *all_dirty;
    uint64_t *dirty;            /* per slot, 4 words: positions 0..255 */
    int32_t *pending, *singles;
    Py_ssize_t n_singles_cap;
    int32_t *keep, *drop;       /* rows kept and struck by one filtering pass */
    /* Per slot: the tiles its candidates use at each position (at support_off[s] + j), valid while
     * support_ok[s]: when its candidates have not changed since. A filtering pass whose dirty positions
     * all still allow those tiles would strike nothing: it is skipped. */
    uint64_t *support;
    Py_ssize_t *support_off;
    unsigned char *support_ok;
    Py_ssize_t scratch_cap;
    long long filters, steps;
    PyObject *wrap;
} FillState;

#define OUTSIDE_OWNER(S) ((int32_t)(S)->n_slots + 1)

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fs_dealloc(FillState *S) {
    if (S->rows)
        for (Py_ssize_t i = 0; i < S->n_slots; i++)
            if (S->rows[i].obj) PyBuffer_Release(&S->rows[i]);
    if (S->start)
        for (Py_ssize_t i = 0; i < S->n_slots; i++)
            if (S->start[i].obj) PyBuffer_Release(&S->start[i]);
    if (S->perm && S->own)
        for (Py_ssize_t i = 0; i < S->n_slots; i++)
            if (S->own[i]) PyMem_Free(S->perm[i]);
    if (S->used)
        for (int i = 0; i < S->n_buckets; i++) PyMem_Free(S->used[i]);
    PyMem_Free(S->rows); PyMem_Free(S->width); PyMem_Free(S->count); PyMem_Free(S->cell_off); PyMem_Free(S->cells);
    PyMem_Free(S->ref_off); PyMem_Free(S->refs); PyMem_Free(S->group_off); PyMem_Free(S->group_len);
    PyMem_Free(S->group);
    PyMem_Free(S->complete); PyMem_Free(S->fixed); PyMem_Free(S->bucket_id); PyMem_Free(S->used);
    PyMem_Free(S->shared_slots); PyMem_Free(S->keys); PyMem_Free(S->owners);
    PyMem_Free(S->start); PyMem_Free(S->perm); PyMem_Free(S->own); PyMem_Free(S->size); PyMem_Free(S->dom);
    PyMem_Free(S->trail); PyMem_Free(S->queued); PyMem_Free(S->all_dirty); PyMem_Free(S->dirty);
    PyMem_Free(S->pending); PyMem_Free(S->singles); PyMem_Free(S->keep); PyMem_Free(S->drop);
    PyMem_Free(S->support); PyMem_Free(S->support_off); PyMem_Free(S->support_ok);
    Py_XDECREF(S->wrap);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int as_index(PyObject *o, Py_ssize_t limit, const char *what, int32_t *out) {
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= limit) {
        PyErr_Format(PyExc_ValueError, "FillState: %s %zd out of range", what, v);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

static void *zalloc(Py_ssize_t n, size_t each) { return PyMem_Calloc(n > 0 ? (size_t)n : 1, each); }

/* -- the trail ----------------------------------------------------------------------------------- */

static int push_trail(FillState *S, int kind, int32_t a, uint64_t b) {
    if (S->trail_len == S->trail_cap) {
        Py_ssize_t cap = S->trail_cap ? 2 * S->trail_cap : 1024;
        TrailEntry *grown = PyMem_Realloc(S->trail, (size_t)cap * sizeof(TrailEntry));
        if (grown == NULL) { PyErr_NoMemory(); return -1; }
        S->trail = grown;
        S->trail_cap = cap;
    }
    TrailEntry *e = &S->trail[S->trail_len++];
    e->kind = kind; e->a = a; e->b = b;
    return 0;
}

static void undo_to(FillState *S, Py_ssize_t mark) {
    while (S->trail_len > mark) {
        TrailEntry *e = &S->trail[--S->trail_len];
        switch (e->kind) {
        case TRAIL_SIZE: S->size[e->a] = (Py_ssize_t)e->b; S->support_ok[e->a] = 0; break;
        case TRAIL_DOM: S->dom[e->a] = e->b; break;
        case TRAIL_USED: S->used[e->a][e->b] = 0; break;
        case TRAIL_KEY: /* last in, first out: no later probe passed over it */
            S->keys[e->b] = 0; S->owners[e->b] = 0; S->n_keys--; break;
        }
    }
}

/* A slot's candidates become ours to reorder the first time they change. */
static int own_rows(FillState *S, int32_t s) {
    if (S->own[s]) return 0;
    Py_ssize_t n = S->start[s].len / (Py_ssize_t)sizeof(int32_t);
    int32_t *copy = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (copy == NULL) { PyErr_NoMemory(); return -1; }
    memcpy(copy, S->perm[s], (size_t)n * sizeof(int32_t));
    S->perm[s] = copy;
    S->own[s] = 1;
    S->owned_bytes += n * (Py_ssize_t)sizeof(int32_t);
    return 0;
}

static int set_size(FillState *S, int32_t s, Py_ssize_t n) {
    if (push_trail(S, TRAIL_SIZE, s, (uint64_t)S->size[s]) < 0) return -1;
    S->size[s] = n;
    S->support_ok[s] = 0;
    return 0;
}

static int set_dom(FillState *S, int32_t cell, uint64_t mask) {
    if (push_trail(S, TRAIL_DOM, cell, S->dom[cell]) < 0) return -1;
    S->dom[cell] = mask;
    return 0;
}

/* -- runs of max_shared tiles ---------------------------------------------------------------------- */

static inline uint64_t run_key(const unsigned char *w, int n) {
    uint64_t k = (uint64_t)1 << 63; /* never 0, the empty key */
    for (int i = 0; i < n; i++) k |= (uint64_t)(w[i] & 63) << (6 * i);
    return k;
}

static inline Py_ssize_t key_home(FillState *S, uint64_t key) {
    return (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & S->table_mask;
}

static int32_t key_owner(FillState *S, uint64_t key) {
    for (Py_ssize_t i = key_home(S, key);; i = (i + 1) & S->table_mask) {
        if (S->keys[i] == key) return S->owners[i];
        if (S->keys[i] == 0) return 0;
    }
}

/* Insert a key that is not there; trailed unless `permanent`. */
static int add_key(FillState *S, uint64_t key, int32_t owner, int permanent) {
    Py_ssize_t i = key_home(S, key);
    while (S->keys[i] != 0) i = (i + 1) & S->table_mask;
    S->keys[i] = key;
    S->owners[i] = owner;
    S->n_keys++;
    return permanent ? 0 : push_trail(S, TRAIL_KEY, 0, (uint64_t)i);
}

static inline int owner_is_given(FillState *S, int32_t owner) {
    return owner == OUTSIDE_OWNER(S) || (owner >= 1 && S->fixed[owner - 1]);
}

/* Whether the word w of slot s shares no run with an entry taken by another slot. */
static inline int runs_free(FillState *S, int32_t s, const unsigned char *w, int width) {
    int n = S->max_shared;
    for (int i = 0; i + n <= width; i++) {
        int32_t o = key_owner(S, run_key(w + i, n));
        if (o && o != s + 1 && !(S->fixed[s] && owner_is_given(S, o))) return 0;
    }
    return 1;
}

/* -- the queue ---------------------------------------------------------------------------------------- */

static void enqueue(FillState *S, Py_ssize_t *n_pending, int32_t t, int k) {
    /* k < 0: no position (only the candidates changed) */
    if (!S->queued[t]) {
        S->queued[t] = 1;
        S->all_dirty[t] = 0;
        memset(S->dirty + 4 * t, 0, 4 * sizeof(uint64_t));
        S->pending[(*n_pending)++] = t;
    }
    if (k >= 0 && !S->all_dirty[t]) S->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
}

static int push_single(FillState *S, Py_ssize_t *n, int32_t s) {
    if (*n >= S->n_singles_cap) {
        Py_ssize_t cap = 2 * S->n_singles_cap;
        int32_t *grown = PyMem_Realloc(S->singles, (size_t)cap * sizeof(int32_t));
        if (grown == NULL) { PyErr_NoMemory(); return -1; }
        S->singles = grown;
        S->n_singles_cap = cap;
    }
    S->singles[(*n)++] = s;
    return 0;
}

/* -- one slot's filtering pass -------------------------------------------------------------------- */

#define ERROR_RESULT (-3)

static inline const unsigned char *row_tiles(FillState *S, int32_t s, int32_t row) {
    return (const unsigned char *)S->rows[s].buf + (Py_ssize_t)row * S->width[s];
}

/* Keep the candidates of slot si that fit its cells' domains at the dirty positions (and, for a
 * complete slot, repeat no word and share no run taken by another slot); shrink its cells' domains
 * to the tiles the kept rows use and wake the crossing slots. -1, the slot itself when none is
 * kept, or ERROR_RESULT. */
static long filter_slot(FillState *S, int32_t si, Py_ssize_t *n_pending, Py_ssize_t *n_singles) {
    int width = S->width[si];
    const int32_t *cells = S->cells + S->cell_off[si];
    uint64_t m[LX_MAX_FILL_SLOT], seen[LX_MAX_FILL_SLOT];
    unsigned char pos[LX_MAX_FILL_SLOT];
    int n_check = 0;
    for (int j = 0; j < width; j++) {
        m[j] = S->dom[cells[j]];
        seen[j] = 0;
        if (S->all_dirty[si] || ((S->dirty[4 * si + (j >> 6)] >> (j & 63)) & 1)) pos[n_check++] = (unsigned char)j;
    }
    uint64_t *support = S->support + S->support_off[si];
    if (S->support_ok[si]) {
        int strikes = 0;
        for (int j = 0; j < n_check && !strikes; j++) strikes = (support[pos[j]] & ~m[pos[j]]) != 0;
        if (!strikes) { /* every candidate still fits: its tiles are the slot's support */
            for (int j = 0; j < width; j++) seen[j] = support[j];
            goto domains;
        }
    }
    int check_used = S->complete[si] && !S->allow_repeats;
    int check_runs = S->complete[si] && S->max_shared && width >= S->max_shared && S->n_keys;
    const int32_t *used = check_used ? S->used[S->bucket_id[si]] : NULL;
    const int32_t *rows = S->perm[si];
    Py_ssize_t n = S->size[si], kept = 0, dropped = 0, unsat = width;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t row = rows[i];
        const unsigned char *w = row_tiles(S, si, row);
        int ok = 1;
        for (int j = 0; j < n_check; j++) {
            unsigned c = w[pos[j]];
            if (c > LX_FILL_MAX_TILE_CODES || !((m[pos[j]] >> c) & 1u)) { ok = 0; break; }
        }
        if (ok && used && used[row] && used[row] != si + 1) ok = 0;
        if (ok && check_runs && !runs_free(S, si, w, width)) ok = 0;
        if (!ok) { S->drop[dropped++] = row; continue; }
        S->keep[kept++] = row;
        if (unsat) {
            unsat = 0;
            for (int j = 0; j < width; j++) {
                seen[j] |= (uint64_t)1 << (w[j] & 63);
                unsat += seen[j] != m[j];
            }
        }
    }
    if (kept == 0) return si;
    if (dropped) {
        if (own_rows(S, si) < 0 || set_size(S, si, kept) < 0) return ERROR_RESULT;
        memcpy(S->perm[si], S->keep, (size_t)kept * sizeof(int32_t));
        memcpy(S->perm[si] + kept, S->drop, (size_t)dropped * sizeof(int32_t));
        if (kept == 1 && push_single(S, n_singles, si) < 0) return ERROR_RESULT;
    }
    memcpy(support, seen, (size_t)width * sizeof(uint64_t));
    S->support_ok[si] = 1;
domains:
    for (int j = 0; j < width; j++) {
        int32_t cid = cells[j];
        if (seen[j] == S->dom[cid]) continue;
        if (set_dom(S, cid, seen[j]) < 0) return ERROR_RESULT;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++) {
            int32_t t = S->refs[2 * q], k = S->refs[2 * q + 1];
            if (t != si) enqueue(S, n_pending, t, k);
        }
    }
    return -1;
}

/* Strike row `at` (an index below the size) of slot t, keeping the others in order. */
static int strike_at(FillState *S, int32_t t, Py_ssize_t at) {
    Py_ssize_t n = S->size[t];
    if (own_rows(S, t) < 0 || set_size(S, t, n - 1) < 0) return -1;
    int32_t *p = S->perm[t];
    int32_t row = p[at];
    memmove(p + at, p + at + 1, (size_t)(n - 1 - at) * sizeof(int32_t));
    p[n - 1] = row;
    return 0;
}

static inline int tick(FillState *S, double deadline) {
    /* every few thousand steps of the loops that strike taken entries: past the deadline? */
    return deadline >= 0 && !(++S->steps & 4095) && monotonic_now() > deadline;
}

/* Slot s has one candidate left: take its word (and its runs) from the other slots. */
static long take_single(FillState *S, int32_t s, double deadline, Py_ssize_t *n_pending, Py_ssize_t *n_singles) {
    if (!S->complete[s]) return -1;
    int32_t w = S->perm[s][0];
    const unsigned char *tiles = row_tiles(S, s, w);
    int width = S->width[s];
    if (!S->allow_repeats) {
        int32_t *used = S->used[S->bucket_id[s]];
        if (used[w] == s + 1) goto runs; /* taken already */
        if (used[w]) return s;
        used[w] = s + 1;
        if (push_trail(S, TRAIL_USED, S->bucket_id[s], (uint64_t)w) < 0) return ERROR_RESULT;
        for (Py_ssize_t g = S->group_off[s]; g < S->group_off[s] + S->group_len[s]; g++) {
            int32_t t = S->group[g];
            if (tick(S, deadline)) return -2;
            Py_ssize_t n = S->size[t];
            if (t == s || n > S->eager_limit) continue;
            const int32_t *p = S->perm[t];
            Py_ssize_t at = 0;
            while (at < n && p[at] != w) at++;
            if (at == n) continue;
            if (n == 1) return t;
            if (strike_at(S, t, at) < 0) return ERROR_RESULT;
            enqueue(S, n_pending, t, -1);
            if (n - 1 == 1 && push_single(S, n_singles, t) < 0) return ERROR_RESULT;
        }
    }
runs:
    if (S->max_shared && width >= S->max_shared) {
        int n_run = S->max_shared, added = 0;
        for (int i = 0; i + n_run <= width; i++) {
            uint64_t key = run_key(tiles + i, n_run);
            int32_t o = key_owner(S, key);
            if (o == s + 1) continue;
            if (o) {
                if (S->fixed[s] && owner_is_given(S, o)) continue;
                return s;
            }
            if (add_key(S, key, s + 1, 0) < 0) return ERROR_RESULT;
            added++;
        }
        if (!added) return -1;
        for (Py_ssize_t g = 0; g < S->n_shared_slots; g++) {
            int32_t t = S->shared_slots[g];
            if (tick(S, deadline)) return -2;
            Py_ssize_t n = S->size[t];
            if (t == s || n > S->eager_limit) continue;
            const int32_t *p = S->perm[t];
            Py_ssize_t kept = 0, dropped = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                if (runs_free(S, t, row_tiles(S, t, p[i]), S->width[t])) S->keep[kept++] = p[i];
                else S->drop[dropped++] = p[i];
            }
            if (!dropped) continue;
            if (!kept) return t;
            if (own_rows(S, t) < 0 || set_size(S, t, kept) < 0) return ERROR_RESULT;
            memcpy(S->perm[t], S->keep, (size_t)kept * sizeof(int32_t));
            memcpy(S->perm[t] + kept, S->drop, (size_t)dropped * sizeof(int32_t));
            enqueue(S, n_pending, t, -1);
            if (kept == 1 && push_single(S, n_singles, t) < 0) return ERROR_RESULT;
        }
    }
    return -1;
}

/* Run the queue and the singles until nothing changes. */
static long run_queue(FillState *S, double deadline, Py_ssize_t n_pending, Py_ssize_t n_singles) {
    long result = -1;
    while (result == -1 && (n_pending || n_singles)) {
        while (result == -1 && n_singles) result = take_single(S, S->singles[--n_singles], deadline, &n_pending, &n_singles);
        if (result != -1 || !n_pending) break;
        S->filters++;
        if (deadline >= 0 && !(S->filters & 255) && monotonic_now() > deadline) { result = -2; break; }
        /* The pending slot with the fewest candidates first (the last one among equals): small
         * slots settle cheaply and shrink the cells of the large ones before a large one is
         * scanned, which otherwise is scanned again after each small one. On stacked 15-letter
         * rows this made a decision's propagation about eight times cheaper. */
        Py_ssize_t pick = n_pending - 1;
        for (Py_ssize_t i = 0; i < n_pending - 1; i++)
            if (S->size[S->pending[i]] < S->size[S->pending[pick]]) pick = i;
        int32_t si = S->pending[pick];
        S->pending[pick] = S->pending[--n_pending];
        S->queued[si] = 0;
        result = filter_slot(S, si, &n_pending, &n_singles);
    }
    /* leave the queue empty for the next call */
    for (Py_ssize_t i = 0; i < n_pending; i++) S->queued[S->pending[i]] = 0;
    return result;
}

static PyObject *result_of(long r) {
    if (r == ERROR_RESULT) return NULL;
    return PyLong_FromLong(r);
}

static int parse_deadline(PyObject *o, double *out) {
    *out = -1.0;
    if (o == Py_None) return 0;
    double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    *out = d < 0 ? 0.0 : d;
    return 0;
}

/* -- construction ------------------------------------------------------------------------------------ */

static int fs_init(FillState *S, PyObject *args, PyObject *kwds) {
    PyObject *rows, *slot_cells, *cell_slots, *complete, *fixed, *groups, *given, *cands, *doms, *wrap;
    int allow_repeats, max_shared;
    Py_ssize_t eager_limit;
    if (S->rows != NULL) { PyErr_SetString(PyExc_TypeError, "FillState: already initialised"); return -1; }
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
        PyErr_SetString(PyExc_ValueError, "FillState: max_shared must be 0 or from 2 to " Py_STRINGIFY(LX_FILL_MAX_SHARED));
        return -1;
    }
    if (eager_limit < 0) { PyErr_SetString(PyExc_ValueError, "FillState: eager_limit must be >= 0"); return -1; }
    S->n_slots = NS; S->n_cells = NC; S->allow_repeats = allow_repeats; S->max_shared = max_shared;
    S->eager_limit = eager_limit;
    Py_INCREF(wrap); S->wrap = wrap;
    S->rows = zalloc(NS, sizeof(Py_buffer)); S->start = zalloc(NS, sizeof(Py_buffer));
    S->width = zalloc(NS, sizeof(int)); S->count = zalloc(NS, sizeof(Py_ssize_t));
    S->cell_off = zalloc(NS + 1, sizeof(Py_ssize_t)); S->group_off = zalloc(NS, sizeof(Py_ssize_t));
    S->group_len = zalloc(NS, sizeof(Py_ssize_t));
    S->ref_off = zalloc(NC + 1, sizeof(Py_ssize_t));
    S->complete = zalloc(NS, 1); S->fixed = zalloc(NS, 1); S->bucket_id = zalloc(NS, sizeof(int));
    S->used = zalloc(NS, sizeof(int32_t *)); S->shared_slots = zalloc(NS, sizeof(int32_t));
    S->perm = zalloc(NS, sizeof(int32_t *)); S->own = zalloc(NS, 1); S->size = zalloc(NS, sizeof(Py_ssize_t));
    S->dom = zalloc(NC, sizeof(uint64_t));
    S->queued = zalloc(NS, 1); S->all_dirty = zalloc(NS, 1); S->dirty = zalloc(4 * NS, sizeof(uint64_t));
    S->pending = zalloc(NS, sizeof(int32_t));
    S->n_singles_cap = 2 * NS + 16;
    S->singles = zalloc(S->n_singles_cap, sizeof(int32_t));
    if (!S->rows || !S->start || !S->width || !S->count || !S->cell_off || !S->group_off || !S->group_len || !S->ref_off
        || !S->complete || !S->fixed || !S->bucket_id || !S->used || !S->shared_slots || !S->perm || !S->own
        || !S->size || !S->dom || !S->queued || !S->all_dirty || !S->dirty || !S->pending || !S->singles) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(S->complete, PyBytes_AS_STRING(complete), NS);
    memcpy(S->fixed, PyBytes_AS_STRING(fixed), NS);
    /* cells, groups, rows, starting candidates */
    /* A group list shared by several slots (the usual case: one per length) is copied once: the
     * previous slots' lists are compared by identity, the last few distinct ones remembered. */
    enum { RECENT = 64 };
    PyObject *recent[RECENT] = {NULL};
    Py_ssize_t recent_at[RECENT] = {0}, n_recent = 0;
    Py_ssize_t total = 0, gtotal = 0, rtotal = 0, biggest = 1, n_keys_max = 16;
    for (Py_ssize_t s = 0; s < NS; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        if (!PyList_Check(cl) || !PyList_Check(g)) {
            PyErr_SetString(PyExc_TypeError, "FillState: slot cells and groups must be lists");
            return -1;
        }
        total += PyList_GET_SIZE(cl);
        int seen = 0;
        for (Py_ssize_t r = 0; r < n_recent && !seen; r++) seen = recent[r] == g;
        if (!seen) {
            recent[n_recent++ % RECENT] = g;
            if (n_recent > RECENT) n_recent = RECENT;
            gtotal += PyList_GET_SIZE(g);
        }
    }
    n_recent = 0;
    for (Py_ssize_t c = 0; c < NC; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        if (!PyList_Check(r)) { PyErr_SetString(PyExc_TypeError, "FillState: cell slots must be lists"); return -1; }
        rtotal += PyList_GET_SIZE(r);
    }
    S->cells = zalloc(total, sizeof(int32_t));
    S->group = zalloc(gtotal, sizeof(int32_t));
    S->refs = zalloc(2 * rtotal, sizeof(int32_t));
    if (!S->cells || !S->group || !S->refs) { PyErr_NoMemory(); return -1; }
    total = gtotal = rtotal = 0;
    for (Py_ssize_t s = 0; s < NS; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        S->cell_off[s] = total;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(cl); j++)
            if (as_index(PyList_GET_ITEM(cl, j), NC, "cell", &S->cells[total++]) < 0) return -1;
        Py_ssize_t r = 0;
        while (r < n_recent && recent[r] != g) r++;
        if (r < n_recent) {
            S->group_off[s] = recent_at[r];
        } else {
            recent[n_recent % RECENT] = g;
            recent_at[n_recent % RECENT] = gtotal;
            if (n_recent < RECENT) n_recent++;
            S->group_off[s] = gtotal;
            for (Py_ssize_t j = 0; j < PyList_GET_SIZE(g); j++)
                if (as_index(PyList_GET_ITEM(g, j), NS, "slot", &S->group[gtotal++]) < 0) return -1;
        }
        S->group_len[s] = PyList_GET_SIZE(g);
        if (PyObject_GetBuffer(PyList_GET_ITEM(rows, s), &S->rows[s], PyBUF_C_CONTIGUOUS) < 0) return -1;
        Py_ssize_t w = PyList_GET_SIZE(cl);
        if (w < 1 || w > LX_MAX_FILL_SLOT || S->rows[s].len % w) {
            PyErr_SetString(PyExc_ValueError, "FillState: a slot's rows do not match its cells");
            return -1;
        }
        S->width[s] = (int)w;
        S->count[s] = S->rows[s].len / w;
        if (S->count[s] > INT32_MAX) { PyErr_SetString(PyExc_ValueError, "FillState: a bucket is too large"); return -1; }
        if (PyObject_GetBuffer(PyList_GET_ITEM(cands, s), &S->start[s], PyBUF_C_CONTIGUOUS) < 0) return -1;
        if (S->start[s].len % (Py_ssize_t)sizeof(int32_t)) {
            PyErr_SetString(PyExc_ValueError, "FillState: candidates must be int32 arrays");
            return -1;
        }
        S->perm[s] = (int32_t *)S->start[s].buf;
        S->size[s] = S->start[s].len / (Py_ssize_t)sizeof(int32_t);
        /* slots of one length often start from one array: check it once per bucket */
        int checked = s > 0 && S->start[s - 1].buf == S->start[s].buf && S->start[s - 1].len == S->start[s].len
                      && S->count[s - 1] == S->count[s];
        for (Py_ssize_t i = 0; !checked && i < S->size[s]; i++)
            if (S->perm[s][i] < 0 || S->perm[s][i] >= S->count[s]) {
                PyErr_SetString(PyExc_IndexError, "FillState: a candidate row lies outside the bucket");
                return -1;
            }
        if (S->size[s] > biggest) biggest = S->size[s];
        if (S->complete[s] && max_shared && w >= max_shared) {
            S->shared_slots[S->n_shared_slots++] = (int32_t)s;
            n_keys_max += w - max_shared + 1;
        }
    }
    S->cell_off[NS] = total;
    /* buckets: slots whose rows are one buffer share a used map */
    int32_t *bucket_first = zalloc(NS, sizeof(int32_t)); /* a slot of each bucket */
    if (bucket_first == NULL) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t s = 0; s < NS; s++) {
        int b = 0;
        while (b < S->n_buckets && (S->rows[bucket_first[b]].buf != S->rows[s].buf
                                    || S->width[bucket_first[b]] != S->width[s]))
            b++;
        if (b == S->n_buckets) {
            bucket_first[b] = (int32_t)s;
            S->n_buckets++;
            S->used[b] = zalloc(S->count[s], sizeof(int32_t));
            if (S->used[b] == NULL) { PyMem_Free(bucket_first); PyErr_NoMemory(); return -1; }
        }
        S->bucket_id[s] = b;
    }
    PyMem_Free(bucket_first);
    for (Py_ssize_t c = 0; c < NC; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        S->ref_off[c] = rtotal;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r); j++) {
            PyObject *pair = PyList_GET_ITEM(r, j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "FillState: cell slots hold (slot, position) pairs");
                return -1;
            }
            if (as_index(PyTuple_GET_ITEM(pair, 0), NS, "slot", &S->refs[2 * rtotal]) < 0) return -1;
            if (as_index(PyTuple_GET_ITEM(pair, 1), LX_MAX_FILL_SLOT, "position", &S->refs[2 * rtotal + 1]) < 0)
                return -1;
            rtotal++;
        }
    }
    S->ref_off[NC] = rtotal;
    /* domains */
    Py_buffer db;
    if (PyObject_GetBuffer(doms, &db, PyBUF_C_CONTIGUOUS) < 0) return -1;
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
    if (!S->support_off || !S->support_ok || !S->support) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t s = 0, at = 0; s < NS; at += S->width[s], s++) S->support_off[s] = at;
    /* scratch for one filtering pass */
    S->scratch_cap = biggest;
    S->keep = zalloc(biggest, sizeof(int32_t));
    S->drop = zalloc(biggest, sizeof(int32_t));
    if (!S->keep || !S->drop) { PyErr_NoMemory(); return -1; }
    /* runs of the given words outside the slots */
    if (max_shared) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
            PyObject *g = PyList_GET_ITEM(given, i);
            if (!PyBytes_Check(g)) { PyErr_SetString(PyExc_TypeError, "FillState: given words are bytes"); return -1; }
            if (PyBytes_GET_SIZE(g) >= max_shared) n_keys_max += PyBytes_GET_SIZE(g) - max_shared + 1;
        }
        Py_ssize_t cap = 64;
        while (cap < 2 * n_keys_max) cap <<= 1;
        S->keys = zalloc(cap, sizeof(uint64_t));
        S->owners = zalloc(cap, sizeof(int32_t));
        if (!S->keys || !S->owners) { PyErr_NoMemory(); return -1; }
        S->table_mask = cap - 1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
            PyObject *g = PyList_GET_ITEM(given, i);
            const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(g);
            for (Py_ssize_t j = 0; j + max_shared <= PyBytes_GET_SIZE(g); j++) {
                uint64_t key = run_key(w + j, max_shared);
                if (!key_owner(S, key)) add_key(S, key, OUTSIDE_OWNER(S), 1);
            }
        }
    }
    return 0;
}

/* -- methods ----------------------------------------------------------------------------------------- */

static PyObject *fs_propagate(FillState *S, PyObject *args) {
    PyObject *queue, *singles_in, *deadline_obj;
    if (!PyArg_ParseTuple(args, "O!OO", &PyDict_Type, &queue, &singles_in, &deadline_obj)) return NULL;
    double deadline;
    if (parse_deadline(deadline_obj, &deadline) < 0) return NULL;
    Py_ssize_t n_pending = 0, n_singles = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int error = 0;
    while (!error && PyDict_Next(queue, &pos, &key, &value)) {
        int32_t t;
        if (as_index(key, S->n_slots, "slot", &t) < 0) { error = 1; break; }
        enqueue(S, &n_pending, t, -1);
        if (value == Py_None) { S->all_dirty[t] = 1; continue; }
        PyObject *it = PyObject_GetIter(value);
        if (it == NULL) { error = 1; break; }
        PyObject *item;
        while ((item = PyIter_Next(it)) != NULL) {
            int32_t k;
            int bad = as_index(item, S->width[t], "position", &k);
            Py_DECREF(item);
            if (bad < 0) { error = 1; break; }
            S->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) error = 1;
    }
    if (!error) {
        PyObject *it = PyObject_GetIter(singles_in);
        if (it == NULL) error = 1;
        else {
            PyObject *item;
            while ((item = PyIter_Next(it)) != NULL) {
                int32_t t;
                int bad = as_index(item, S->n_slots, "slot", &t);
                Py_DECREF(item);
                if (bad < 0) { error = 1; break; }
                if (S->size[t] != 1) {
                    PyErr_SetString(PyExc_ValueError, "propagate: a single slot has more or fewer than one candidate");
                    error = 1;
                    break;
                }
                if (push_single(S, &n_singles, t) < 0) { error = 1; break; }
            }
            Py_DECREF(it);
            if (PyErr_Occurred()) error = 1;
        }
    }
    if (error) {
        for (Py_ssize_t i = 0; i < n_pending; i++) S->queued[S->pending[i]] = 0;
        return NULL;
    }
    return result_of(run_queue(S, deadline, n_pending, n_singles));
}

static int slot_and_row(FillState *S, PyObject *args, int32_t *s, int32_t *row, double *deadline, Py_ssize_t *at) {
    PyObject *o_s, *o_row, *o_deadline;
    if (!PyArg_ParseTuple(args, "OOO", &o_s, &o_row, &o_deadline)) return -1;
    if (as_index(o_s, S->n_slots, "slot", s) < 0) return -1;
    Py_ssize_t r = PyNumber_AsSsize_t(o_row, PyExc_OverflowError);
    if (r == -1 && PyErr_Occurred()) return -1;
    if (parse_deadline(o_deadline, deadline) < 0) return -1;
    const int32_t *p = S->perm[*s];
    Py_ssize_t n = S->size[*s];
    for (*at = 0; *at < n && p[*at] != r; (*at)++) {}
    if (*at == n) {
        PyErr_Format(PyExc_ValueError, "row %zd is not a candidate of slot %d", r, (int)*s);
        return -1;
    }
    *row = (int32_t)r;
    return 0;
}

static PyObject *fs_assign(FillState *S, PyObject *args) {
    int32_t s, row;
    double deadline;
    Py_ssize_t at, n_pending = 0, n_singles = 0;
    if (slot_and_row(S, args, &s, &row, &deadline, &at) < 0) return NULL;
    Py_ssize_t n = S->size[s];
    if (n > 1) {
        if (own_rows(S, s) < 0 || set_size(S, s, 1) < 0) return NULL;
        int32_t *p = S->perm[s];
        memmove(p + 1, p, (size_t)at * sizeof(int32_t));
        p[0] = row;
    }
    const int32_t *cells = S->cells + S->cell_off[s];
    const unsigned char *w = row_tiles(S, s, row);
    for (int j = 0; j < S->width[s]; j++) {
        uint64_t m = (uint64_t)1 << (w[j] & 63);
        int32_t cid = cells[j];
        if (S->dom[cid] == m) continue;
        if (set_dom(S, cid, m) < 0) return NULL;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++) {
            int32_t t = S->refs[2 * q], k = S->refs[2 * q + 1];
            if (t != s) enqueue(S, &n_pending, t, k);
        }
    }
    if (push_single(S, &n_singles, s) < 0) return NULL;
    return result_of(run_queue(S, deadline, n_pending, n_singles));
}

static PyObject *fs_exclude(FillState *S, PyObject *args) {
    int32_t s, row;
    double deadline;
    Py_ssize_t at, n_pending = 0, n_singles = 0;
    if (slot_and_row(S, args, &s, &row, &deadline, &at) < 0) return NULL;
    Py_ssize_t n = S->size[s];
    if (n == 1) return PyLong_FromLong(s);
    if (strike_at(S, s, at) < 0) return NULL;
    enqueue(S, &n_pending, s, -1);
    if (n - 1 == 1 && push_single(S, &n_singles, s) < 0) return NULL;
    return result_of(run_queue(S, deadline, n_pending, n_singles));
}

static PyObject *cell_change(FillState *S, PyObject *args, int keep_only) {
    PyObject *o_cell, *o_code, *o_deadline;
    int32_t cid, code;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOO", &o_cell, &o_code, &o_deadline)) return NULL;
    if (as_index(o_cell, S->n_cells, "cell", &cid) < 0 || as_index(o_code, 64, "tile code", &code) < 0
        || parse_deadline(o_deadline, &deadline) < 0)
        return NULL;
    if (S->ref_off[cid] == S->ref_off[cid + 1]) {
        PyErr_Format(PyExc_ValueError, "cell %d lies in no slot", (int)cid);
        return NULL;
    }
    uint64_t bit = (uint64_t)1 << code, m = keep_only ? (S->dom[cid] & bit) : (S->dom[cid] & ~bit);
    if (!m) return PyLong_FromLong(S->refs[2 * S->ref_off[cid]]);
    Py_ssize_t n_pending = 0;
    if (m != S->dom[cid]) {
        if (set_dom(S, cid, m) < 0) return NULL;
        for (Py_ssize_t q = S->ref_off[cid]; q < S->ref_off[cid + 1]; q++)
            enqueue(S, &n_pending, S->refs[2 * q], S->refs[2 * q + 1]);
    }
    return result_of(run_queue(S, deadline, n_pending, 0));
}

static PyObject *fs_set_tile(FillState *S, PyObject *args) { return cell_change(S, args, 1); }
static PyObject *fs_exclude_tile(FillState *S, PyObject *args) { return cell_change(S, args, 0); }

static PyObject *fs_mark(FillState *S, PyObject *unused) { return PyLong_FromSsize_t(S->trail_len); }

static PyObject *fs_undo(FillState *S, PyObject *arg) {
    Py_ssize_t m = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (m == -1 && PyErr_Occurred()) return NULL;
    if (m < 0 || m > S->trail_len) {
        PyErr_SetString(PyExc_ValueError, "undo: the mark is not on the trail");
        return NULL;
    }
    undo_to(S, m);
    Py_RETURN_NONE;
}

static PyObject *fs_sizes(FillState *S, PyObject *unused) {
    PyObject *out = PyList_New(S->n_slots);
    if (out == NULL) return NULL;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        PyObject *v = PyLong_FromSsize_t(S->size[s]);
        if (v == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

static int slot_arg(FillState *S, PyObject *o, int32_t *s) { return as_index(o, S->n_slots, "slot", s); }

static PyObject *fs_candidates(FillState *S, PyObject *arg) {
    int32_t s;
    if (slot_arg(S, arg, &s) < 0) return NULL;
    PyObject *b = PyBytes_FromStringAndSize((const char *)S->perm[s], S->size[s] * (Py_ssize_t)sizeof(int32_t));
    if (b == NULL) return NULL;
    PyObject *out = PyObject_CallOneArg(S->wrap, b);
    Py_DECREF(b);
    return out;
}

static PyObject *fs_counts(FillState *S, PyObject *args) {
    PyObject *o_s, *o_k;
    int32_t s, k;
    if (!PyArg_ParseTuple(args, "OO", &o_s, &o_k) || slot_arg(S, o_s, &s) < 0) return NULL;
    if (as_index(o_k, S->width[s], "position", &k) < 0) return NULL;
    int32_t counts[64] = {0};
    const int32_t *p = S->perm[s];
    const unsigned char *base = (const unsigned char *)S->rows[s].buf + k;
    int width = S->width[s];
    for (Py_ssize_t i = 0; i < S->size[s]; i++) counts[base[(Py_ssize_t)p[i] * width] & 63]++;
    PyObject *b = PyBytes_FromStringAndSize((const char *)counts, sizeof(counts));
    if (b == NULL) return NULL;
    PyObject *out = PyObject_CallOneArg(S->wrap, b);
    Py_DECREF(b);
    return out;
}

static PyObject *fs_has(FillState *S, PyObject *args) {
    PyObject *o_s, *o_row;
    int32_t s;
    if (!PyArg_ParseTuple(args, "OO", &o_s, &o_row) || slot_arg(S, o_s, &s) < 0) return NULL;
    long row = PyLong_AsLong(o_row);
    if (row == -1 && PyErr_Occurred()) return NULL;
    const int32_t *p = S->perm[s];
    for (Py_ssize_t i = 0; i < S->size[s]; i++)
        if (p[i] == row) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *fs_domain(FillState *S, PyObject *arg) {
    int32_t c;
    if (as_index(arg, S->n_cells, "cell", &c) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(S->dom[c]);
}

static PyObject *fs_domains(FillState *S, PyObject *unused) {
    PyObject *out = PyList_New(S->n_cells);
    if (out == NULL) return NULL;
    for (Py_ssize_t c = 0; c < S->n_cells; c++) {
        PyObject *v = PyLong_FromUnsignedLongLong(S->dom[c]);
        if (v == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, c, v);
    }
    return out;
}

static PyObject *fs_filters(FillState *S, void *closure) { return PyLong_FromLongLong(S->filters); }
static PyObject *fs_trail_length(FillState *S, void *closure) { return PyLong_FromSsize_t(S->trail_len); }
static PyObject *fs_owned_bytes(FillState *S, void *closure) { return PyLong_FromSsize_t(S->owned_bytes); }
static PyObject *fs_get_eager(FillState *S, void *closure) { return PyLong_FromSsize_t(S->eager_limit); }
static int fs_set_eager(FillState *S, PyObject *value, void *closure) {
    Py_ssize_t v = value == NULL ? -1 : PyNumber_AsSsize_t(value, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0) { PyErr_SetString(PyExc_ValueError, "eager_limit must be >= 0"); return -1; }
    S->eager_limit = v;
    return 0;
}

static PyObject *fs_firsts(FillState *S, PyObject *unused) {
    PyObject *out = PyList_New(S->n_slots);
    if (out == NULL) return NULL;
    for (Py_ssize_t s = 0; s < S->n_slots; s++) {
        PyObject *v = PyLong_FromLong(S->size[s] == 1 ? S->perm[s][0] : -1);
        if (v == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

static PyMethodDef fs_methods[] = {
    {"propagate", (PyCFunction)fs_propagate, METH_VARARGS,
     "propagate(queue, singles, deadline) -> -1, -2 or a slot: filter from the slots in queue "
     "(slot -> positions whose domain shrank, or None for all) after taking the words of the single slots"},
    {"assign", (PyCFunction)fs_assign, METH_VARARGS, "assign(slot, row, deadline): the slot takes the word and propagates"},
    {"exclude", (PyCFunction)fs_exclude, METH_VARARGS, "exclude(slot, row, deadline): strike the word from the slot and propagate"},
    {"set_tile", (PyCFunction)fs_set_tile, METH_VARARGS, "set_tile(cell, code, deadline): the cell takes the tile and propagates"},
    {"exclude_tile", (PyCFunction)fs_exclude_tile, METH_VARARGS, "exclude_tile(cell, code, deadline): strike the tile from the cell and propagate"},
    {"mark", (PyCFunction)fs_mark, METH_NOARGS, "mark() -> the trail's length, for undo"},
    {"undo", (PyCFunction)fs_undo, METH_O, "undo(mark): unwind every change made since the mark"},
    {"sizes", (PyCFunction)fs_sizes, METH_NOARGS, "sizes() -> each slot's number of candidates"},
    {"singles", (PyCFunction)fs_firsts, METH_NOARGS, "singles() -> each slot's one candidate row, or -1 when it has more or none"},
    {"candidates", (PyCFunction)fs_candidates, METH_O, "candidates(slot) -> its candidate rows (int32 array)"},
    {"counts", (PyCFunction)fs_counts, METH_VARARGS, "counts(slot, position) -> candidates per tile code at the position (64 int32)"},
    {"has", (PyCFunction)fs_has, METH_VARARGS, "has(slot, row) -> whether the row is one of the slot's candidates"},
    {"domain", (PyCFunction)fs_domain, METH_O, "domain(cell) -> the tiles the cell may hold (bit mask)"},
    {"domains", (PyCFunction)fs_domains, METH_NOARGS, "domains() -> every cell's domain"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef fs_getset[] = {
    {"filters", (getter)fs_filters, NULL, "filtering passes so far", NULL},
    {"trail_length", (getter)fs_trail_length, NULL, "changes held for undo", NULL},
    {"owned_bytes", (getter)fs_owned_bytes, NULL, "bytes of candidate rows copied so far", NULL},
    {"eager_limit", (getter)fs_get_eager, (setter)fs_set_eager,
     "a taken word or run is struck at once from the slots with at most this many candidates", NULL},
    {NULL}};

static PyTypeObject FillStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = LX_MODULE_NAME ".FillState",
    .tp_basicsize = sizeof(FillState),
    .tp_dealloc = (destructor)fs_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A grid's candidates and domains kept arc consistent, with a trail to undo (see lexigraph.crossword.fill).",
    .tp_methods = fs_methods,
    .tp_getset = fs_getset,
    .tp_init = (initproc)fs_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef fill_methods[] = {
    {"filter_rows", filter_rows, METH_VARARGS,
     "filter_rows(rows, width, idx, masks, check) -> (kept, used): the candidate rows whose tile in each "
     "position of check its mask allows (bytes of int32, None when all pass), and the tiles they use per position."},
    {NULL, NULL, 0, NULL}};

int lx_add_fill(PyObject *module) {
    if (lx_add_type(module, &FillStateType, "FillState") < 0) return -1;
    return PyModule_AddFunctions(module, fill_methods);
}
