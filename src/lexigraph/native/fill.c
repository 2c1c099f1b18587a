/* fill.c: the hot loop of crossword autofill: filter_rows and the Propagator type.
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
 * Propagator: arc consistency over a grid's slots, the loop of lexigraph.engine.python.propagation.PythonPropagator.propagate
 * (its pure-Python twin, which the tests hold to the same states) with the filter above inlined.
 *
 * Propagator(rows, slot_cells, cell_slots, complete, groups, allow_repeats, wrap, clock)
 *   rows        list, per slot, of its bucket: a C-contiguous (count, width) uint8 array
 *   slot_cells  list, per slot, of its cell ids (ints)
 *   cell_slots  list, per cell id, of (slot, position) pairs
 *   complete    bytes, per slot: 1 when the slot must become a word
 *   groups      list, per slot, of the complete slots of its length (shared lists are fine)
 *   wrap        callable turning bytes of int32 into the candidate array type (np.frombuffer)
 *   clock       callable returning the current time (time.monotonic), for the deadline
 *
 * .propagate(cand, dom, queue, singles, deadline) -> -1 done, -2 deadline passed, else the slot
 *   that ran out of candidates. cand: list of int32 arrays (replaced, never written); dom: writable
 *   uint64 buffer indexed by cell id; queue: dict slot -> set of positions | None (all);
 *   singles: slots that have just become single.  .filters counts filtering passes.
 * --------------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n_slots, n_cells;
    Py_buffer *rows;            /* per slot */
    int *width;                 /* per slot */
    Py_ssize_t *cell_off;       /* per slot + 1: offsets into cells */
    int32_t *cells;
    Py_ssize_t *ref_off;        /* per cell + 1: offsets into refs */
    int32_t *refs;              /* pairs (slot, position) */
    Py_ssize_t *group_off;      /* per slot + 1 */
    int32_t *group;
    unsigned char *complete;
    int allow_repeats;
    PyObject *wrap, *clock;
    /* scratch */
    unsigned char *queued;      /* per slot */
    unsigned char *all_dirty;   /* per slot */
    uint64_t *dirty;            /* per slot, 4 words: positions 0..255 */
    int32_t *pending, *singles;
    Py_ssize_t n_singles_cap;
    long long filters;
} Propagator;

static void prop_dealloc(Propagator *self) {
    if (self->rows) {
        for (Py_ssize_t i = 0; i < self->n_slots; i++)
            if (self->rows[i].obj) PyBuffer_Release(&self->rows[i]);
    }
    PyMem_Free(self->rows); PyMem_Free(self->width); PyMem_Free(self->cell_off); PyMem_Free(self->cells);
    PyMem_Free(self->ref_off); PyMem_Free(self->refs); PyMem_Free(self->group_off); PyMem_Free(self->group);
    PyMem_Free(self->complete); PyMem_Free(self->queued); PyMem_Free(self->all_dirty); PyMem_Free(self->dirty);
    PyMem_Free(self->pending); PyMem_Free(self->singles);
    Py_XDECREF(self->wrap); Py_XDECREF(self->clock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int as_index(PyObject *o, Py_ssize_t limit, const char *what, int32_t *out) {
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= limit) {
        PyErr_Format(PyExc_ValueError, "Propagator: %s %zd out of range", what, v);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

static int prop_init(Propagator *self, PyObject *args, PyObject *kwds) {
    PyObject *rows, *slot_cells, *cell_slots, *complete, *groups, *wrap, *clock;
    int allow_repeats;
    if (!PyArg_ParseTuple(args, "O!O!O!SO!pOO", &PyList_Type, &rows, &PyList_Type, &slot_cells, &PyList_Type,
                          &cell_slots, &complete, &PyList_Type, &groups, &allow_repeats, &wrap, &clock))
        return -1;
    Py_ssize_t S = PyList_GET_SIZE(rows), C = PyList_GET_SIZE(cell_slots);
    if (PyList_GET_SIZE(slot_cells) != S || PyList_GET_SIZE(groups) != S || PyBytes_GET_SIZE(complete) != S) {
        PyErr_SetString(PyExc_ValueError, "Propagator: one entry per slot is needed");
        return -1;
    }
    self->n_slots = S; self->n_cells = C; self->allow_repeats = allow_repeats;
    Py_INCREF(wrap); self->wrap = wrap; Py_INCREF(clock); self->clock = clock;
    self->rows = PyMem_Calloc(S ? S : 1, sizeof(Py_buffer));
    self->width = PyMem_Calloc(S ? S : 1, sizeof(int));
    self->cell_off = PyMem_Calloc(S + 1, sizeof(Py_ssize_t));
    self->group_off = PyMem_Calloc(S + 1, sizeof(Py_ssize_t));
    self->ref_off = PyMem_Calloc(C + 1, sizeof(Py_ssize_t));
    self->complete = PyMem_Malloc(S ? S : 1);
    self->queued = PyMem_Calloc(S ? S : 1, 1);
    self->all_dirty = PyMem_Calloc(S ? S : 1, 1);
    self->dirty = PyMem_Calloc(S ? 4 * S : 4, sizeof(uint64_t));
    self->pending = PyMem_Malloc((S ? S : 1) * sizeof(int32_t));
    self->n_singles_cap = 2 * S + 16;
    self->singles = PyMem_Malloc(self->n_singles_cap * sizeof(int32_t));
    if (!self->rows || !self->width || !self->cell_off || !self->group_off || !self->ref_off || !self->complete
        || !self->queued || !self->all_dirty || !self->dirty || !self->pending || !self->singles) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->complete, PyBytes_AS_STRING(complete), S);
    Py_ssize_t total = 0, gtotal = 0, rtotal = 0;
    for (Py_ssize_t s = 0; s < S; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        if (!PyList_Check(cl) || !PyList_Check(g)) {
            PyErr_SetString(PyExc_TypeError, "Propagator: slot cells and groups must be lists");
            return -1;
        }
        total += PyList_GET_SIZE(cl);
        gtotal += PyList_GET_SIZE(g);
    }
    for (Py_ssize_t c = 0; c < C; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        if (!PyList_Check(r)) { PyErr_SetString(PyExc_TypeError, "Propagator: cell slots must be lists"); return -1; }
        rtotal += PyList_GET_SIZE(r);
    }
    self->cells = PyMem_Malloc((total ? total : 1) * sizeof(int32_t));
    self->group = PyMem_Malloc((gtotal ? gtotal : 1) * sizeof(int32_t));
    self->refs = PyMem_Malloc((rtotal ? 2 * rtotal : 2) * sizeof(int32_t));
    if (!self->cells || !self->group || !self->refs) { PyErr_NoMemory(); return -1; }
    total = gtotal = rtotal = 0;
    for (Py_ssize_t s = 0; s < S; s++) {
        PyObject *cl = PyList_GET_ITEM(slot_cells, s), *g = PyList_GET_ITEM(groups, s);
        self->cell_off[s] = total;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(cl); j++)
            if (as_index(PyList_GET_ITEM(cl, j), C, "cell", &self->cells[total++]) < 0) return -1;
        self->group_off[s] = gtotal;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(g); j++)
            if (as_index(PyList_GET_ITEM(g, j), S, "slot", &self->group[gtotal++]) < 0) return -1;
        if (PyObject_GetBuffer(PyList_GET_ITEM(rows, s), &self->rows[s], PyBUF_C_CONTIGUOUS) < 0) return -1;
        Py_ssize_t w = PyList_GET_SIZE(cl);
        if (w < 1 || w > LX_MAX_FILL_SLOT || self->rows[s].len % w) {
            PyErr_SetString(PyExc_ValueError, "Propagator: a slot's rows do not match its cells");
            return -1;
        }
        self->width[s] = (int)w;
    }
    self->cell_off[S] = total;
    self->group_off[S] = gtotal;
    for (Py_ssize_t c = 0; c < C; c++) {
        PyObject *r = PyList_GET_ITEM(cell_slots, c);
        self->ref_off[c] = rtotal;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r); j++) {
            PyObject *pair = PyList_GET_ITEM(r, j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "Propagator: cell slots hold (slot, position) pairs");
                return -1;
            }
            if (as_index(PyTuple_GET_ITEM(pair, 0), S, "slot", &self->refs[2 * rtotal]) < 0) return -1;
            if (as_index(PyTuple_GET_ITEM(pair, 1), LX_MAX_FILL_SLOT, "position", &self->refs[2 * rtotal + 1]) < 0)
                return -1;
            rtotal++;
        }
    }
    self->ref_off[C] = rtotal;
    return 0;
}

/* Replace cand[s] with the given rows; returns 0 or -1 on error. */
static int set_cand(Propagator *self, PyObject *cand, Py_ssize_t s, const int32_t *rows, Py_ssize_t n) {
    PyObject *b = PyBytes_FromStringAndSize((const char *)rows, n * (Py_ssize_t)sizeof(int32_t));
    if (b == NULL) return -1;
    PyObject *arr = PyObject_CallOneArg(self->wrap, b);
    Py_DECREF(b);
    if (arr == NULL) return -1;
    return PyList_SetItem(cand, s, arr); /* steals arr */
}

static int push_single(Propagator *self, Py_ssize_t *n, int32_t s) {
    if (*n >= self->n_singles_cap) {
        Py_ssize_t cap = 2 * self->n_singles_cap;
        int32_t *grown = PyMem_Realloc(self->singles, cap * sizeof(int32_t));
        if (grown == NULL) { PyErr_NoMemory(); return -1; }
        self->singles = grown;
        self->n_singles_cap = cap;
    }
    self->singles[(*n)++] = s;
    return 0;
}

static void enqueue(Propagator *self, Py_ssize_t *n_pending, int32_t t, int k) {
    /* k < 0: no position (only the candidates changed) */
    if (!self->queued[t]) {
        self->queued[t] = 1;
        self->all_dirty[t] = 0;
        memset(self->dirty + 4 * t, 0, 4 * sizeof(uint64_t));
        self->pending[(*n_pending)++] = t;
    }
    if (k >= 0 && !self->all_dirty[t]) self->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
}

static PyObject *prop_propagate(Propagator *self, PyObject *args) {
    PyObject *cand, *dom_obj, *queue, *singles_in, *deadline_obj;
    if (!PyArg_ParseTuple(args, "O!OO!OO", &PyList_Type, &cand, &dom_obj, &PyDict_Type, &queue, &singles_in, &deadline_obj))
        return NULL;
    if (PyList_GET_SIZE(cand) != self->n_slots) {
        PyErr_SetString(PyExc_ValueError, "propagate: one candidate array per slot is needed");
        return NULL;
    }
    double deadline = -1.0;
    if (deadline_obj != Py_None) {
        deadline = PyFloat_AsDouble(deadline_obj);
        if (deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    Py_buffer dom;
    if (PyObject_GetBuffer(dom_obj, &dom, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return NULL;
    if (dom.len != self->n_cells * (Py_ssize_t)sizeof(uint64_t)) {
        PyBuffer_Release(&dom);
        PyErr_SetString(PyExc_ValueError, "propagate: dom must hold one uint64 per cell");
        return NULL;
    }
    uint64_t *D = (uint64_t *)dom.buf;
    long result = -1;
    Py_ssize_t n_pending = 0, n_singles = 0;
    int error = 0;
    memset(self->queued, 0, self->n_slots);
    /* the queue, in the dict's order */
    {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(queue, &pos, &key, &value)) {
            int32_t t;
            if (as_index(key, self->n_slots, "slot", &t) < 0) { error = 1; break; }
            enqueue(self, &n_pending, t, -1);
            if (value == Py_None) {
                self->all_dirty[t] = 1;
                continue;
            }
            PyObject *it = PyObject_GetIter(value);
            if (it == NULL) { error = 1; break; }
            PyObject *item;
            while ((item = PyIter_Next(it)) != NULL) {
                int32_t k;
                int bad = as_index(item, self->width[t], "position", &k);
                Py_DECREF(item);
                if (bad < 0) { error = 1; break; }
                self->dirty[4 * t + (k >> 6)] |= (uint64_t)1 << (k & 63);
            }
            Py_DECREF(it);
            if (error || PyErr_Occurred()) { error = 1; break; }
        }
    }
    if (!error) {
        PyObject *it = PyObject_GetIter(singles_in);
        if (it == NULL) error = 1;
        else {
            PyObject *item;
            while ((item = PyIter_Next(it)) != NULL) {
                int32_t t;
                int bad = as_index(item, self->n_slots, "slot", &t);
                Py_DECREF(item);
                if (bad < 0 || push_single(self, &n_singles, t) < 0) { error = 1; break; }
            }
            Py_DECREF(it);
            if (PyErr_Occurred()) error = 1;
        }
    }
    while (!error && result == -1 && (n_pending || n_singles)) {
        while (!error && result == -1 && n_singles) {
            int32_t si = self->singles[--n_singles];
            if (self->allow_repeats || !self->complete[si]) continue;
            Py_buffer cb;
            if (PyObject_GetBuffer(PyList_GET_ITEM(cand, si), &cb, PyBUF_C_CONTIGUOUS) < 0) { error = 1; break; }
            int32_t w = cb.len >= 4 ? ((int32_t *)cb.buf)[0] : -1;
            PyBuffer_Release(&cb);
            for (Py_ssize_t g = self->group_off[si]; g < self->group_off[si + 1] && !error && result == -1; g++) {
                int32_t t = self->group[g];
                if (t == si) continue;
                Py_buffer tb;
                if (PyObject_GetBuffer(PyList_GET_ITEM(cand, t), &tb, PyBUF_C_CONTIGUOUS) < 0) { error = 1; break; }
                const int32_t *ct = (const int32_t *)tb.buf;
                Py_ssize_t n = tb.len / 4, lo = 0, hi = n;
                while (lo < hi) {
                    Py_ssize_t mid = (lo + hi) / 2;
                    if (ct[mid] < w) lo = mid + 1; else hi = mid;
                }
                if (lo < n && ct[lo] == w) {
                    if (n == 1) {
                        result = t;
                    } else {
                        if (n - 1 > scratch_cap) {
                            int32_t *grown = PyMem_Realloc(scratch, (size_t)n * sizeof(int32_t));
                            if (grown == NULL) { PyErr_NoMemory(); error = 1; }
                            else { scratch = grown; scratch_cap = n; }
                        }
                        if (!error) {
                            memcpy(scratch, ct, lo * sizeof(int32_t));
                            memcpy(scratch + lo, ct + lo + 1, (n - lo - 1) * sizeof(int32_t));
                            /* tb must be released before cand[t] is replaced */
                        }
                    }
                }
                int removed = lo < n && ct[lo] == w && n > 1;
                PyBuffer_Release(&tb);
                if (error || result != -1 || !removed) continue;
                if (set_cand(self, cand, t, scratch, n - 1) < 0) { error = 1; break; }
                if (n - 1 == 1 && push_single(self, &n_singles, t) < 0) { error = 1; break; }
                enqueue(self, &n_pending, t, -1);
            }
        }
        if (error || result != -1 || !n_pending) break;
        self->filters++;
        if (deadline >= 0 && !(self->filters & 255)) {
            PyObject *now = PyObject_CallNoArgs(self->clock);
            if (now == NULL) { error = 1; break; }
            double t_now = PyFloat_AsDouble(now);
            Py_DECREF(now);
            if (t_now == -1.0 && PyErr_Occurred()) { error = 1; break; }
            if (t_now > deadline) { result = -2; break; }
        }
        int32_t si = self->pending[--n_pending];
        self->queued[si] = 0;
        int width = self->width[si];
        const int32_t *cells = self->cells + self->cell_off[si];
        uint64_t m[LX_MAX_FILL_SLOT], seen[LX_MAX_FILL_SLOT];
        unsigned char posn[LX_MAX_FILL_SLOT];
        Py_ssize_t n_check = 0;
        for (int j = 0; j < width; j++) {
            m[j] = D[cells[j]];
            seen[j] = 0;
            if (self->all_dirty[si] || ((self->dirty[4 * si + (j >> 6)] >> (j & 63)) & 1)) posn[n_check++] = (unsigned char)j;
        }
        Py_buffer cb;
        if (PyObject_GetBuffer(PyList_GET_ITEM(cand, si), &cb, PyBUF_C_CONTIGUOUS) < 0) { error = 1; break; }
        Py_ssize_t n = cb.len / 4;
        if (n > scratch_cap) {
            int32_t *grown = PyMem_Realloc(scratch, (size_t)n * sizeof(int32_t));
            if (grown == NULL) { PyBuffer_Release(&cb); PyErr_NoMemory(); error = 1; break; }
            scratch = grown;
            scratch_cap = n;
        }
        Py_ssize_t kept = keep_fitting((const unsigned char *)self->rows[si].buf, self->rows[si].len / width, width,
                                       (const int32_t *)cb.buf, n, posn, n_check, m, seen, scratch);
        PyBuffer_Release(&cb);
        if (kept < 0) { PyErr_SetString(PyExc_IndexError, "propagate: a candidate row lies outside the bucket"); error = 1; break; }
        if (kept == 0) { result = si; break; }
        if (kept < n) {
            if (set_cand(self, cand, si, scratch, kept) < 0) { error = 1; break; }
            if (kept == 1 && push_single(self, &n_singles, si) < 0) { error = 1; break; }
        }
        for (int j = 0; j < width; j++) {
            int32_t cid = cells[j];
            if (seen[j] == D[cid]) continue;
            D[cid] = seen[j];
            for (Py_ssize_t q = self->ref_off[cid]; q < self->ref_off[cid + 1]; q++) {
                int32_t t = self->refs[2 * q], k = self->refs[2 * q + 1];
                if (t != si) enqueue(self, &n_pending, t, k);
            }
        }
    }
    PyBuffer_Release(&dom);
    if (error) return NULL;
    return PyLong_FromLong(result);
}

static PyObject *prop_filters(Propagator *self, void *closure) { return PyLong_FromLongLong(self->filters); }

static PyMethodDef prop_methods[] = {
    {"propagate", (PyCFunction)prop_propagate, METH_VARARGS,
     "propagate(cand, dom, queue, singles, deadline) -> -1 done, -2 deadline passed, else the slot left without candidates"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef prop_getset[] = {{"filters", (getter)prop_filters, NULL, "filtering passes so far", NULL}, {NULL}};

static PyTypeObject PropagatorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = LX_MODULE_NAME ".Propagator",
    .tp_basicsize = sizeof(Propagator),
    .tp_dealloc = (destructor)prop_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Arc consistency over a grid's slots (see lexigraph.crossword.fill).",
    .tp_methods = prop_methods,
    .tp_getset = prop_getset,
    .tp_init = (initproc)prop_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef fill_methods[] = {
    {"filter_rows", filter_rows, METH_VARARGS,
     "filter_rows(rows, width, idx, masks, check) -> (kept, used): the candidate rows whose tile in each "
     "position of check its mask allows (bytes of int32, None when all pass), and the tiles they use per position."},
    {NULL, NULL, 0, NULL}};

int lx_add_fill(PyObject *module) {
    if (lx_add_type(module, &PropagatorType, "Propagator") < 0) return -1;
    return PyModule_AddFunctions(module, fill_methods);
}
