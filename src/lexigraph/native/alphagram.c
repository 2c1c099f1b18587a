/*
 * alphagram.c: exact anagrams from a bucket's alphagram order (exact_anagram_words,
 * exact_anagram_ids).
 *
 * A bucket's alphagram order lists its rows by their tiles sorted, so all the anagrams of a rack
 * are one run of it, found by binary search; with blanks, a walk of the sorted alphagrams visits
 * only the multisets that exist. Why C: a rack's answer is a few binary searches, which in Python
 * cost more in calls than in work. The NumPy twin is lexigraph.engine.python.anagrams.exact_anagram_ids.
 * A bucket's order is checked on its first use (entry_grams: a permutation of the rows, sorted by
 * alphagram); on a forged one these answer None and the twin raises FileFormatError.
 */
#include "deadline.h"
#include "probe.h"

#include <stdlib.h>

/* ---- Exact anagrams by the alphagram index -------------------------------------
 *
 * A bucket's alphagram order lists its rows by their tiles sorted; all the
 * anagrams of a rack are one run of it, found by binary search comparing the
 * rack's sorted tiles with the sorted tiles of each row visited. */

static int
compare_ssize(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

static int
compare_int64(const void *a, const void *b)
{
    int64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return (x > y) - (x < y);
}

static void
sort_codes(unsigned char *p, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        unsigned char v = p[i];
        Py_ssize_t j = i;
        while (j > 0 && p[j - 1] > v) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = v;
    }
}

static inline Py_ssize_t
order_at(const LengthTable *t, Py_ssize_t i)
{
    const unsigned char *p = t->order + i * t->order_width;
    return t->order_width == 2 ? (Py_ssize_t)(p[0] | p[1] << 8) : (Py_ssize_t)lx_u32le(p);
}

/* Sorted tiles of up to 8 codes packed big-end first: integers that order like the alphagrams. */
static inline uint64_t
pack_key(const unsigned char *sorted, Py_ssize_t n)
{
    uint64_t k = 0;
    for (Py_ssize_t i = 0; i < 8; i++)
        k = k << 8 | (i < n ? sorted[i] : 0);
    return k;
}

/* Whether a bucket's rows are what Store.rows accepts: codes 1..n_tiles, each row after the one
 * before (a forged bucket is refused there, so it is refused here too: the same one error). */
static int
rows_hold(const LengthTable *t, Py_ssize_t n, unsigned n_tiles)
{
    for (Py_ssize_t i = 0; i < t->count; i++) {
        const unsigned char *row = t->rows + i * n;
        for (Py_ssize_t j = 0; j < n; j++)
            if (row[j] < 1 || row[j] > n_tiles)
                return 0;
        if (i && memcmp(row - n, row, (size_t)n) >= 0)
            return 0;
    }
    return 1;
}

/* The bucket's alphagrams (each entry's sorted tiles) in alphagram order, built and checked on first
 * use: the bucket's rows must hold (rows_hold), and the order must name every row of the bucket
 * once (a permutation) and list them by their sorted tiles. A forged order (a row twice, every
 * entry zero, unsorted, past the bucket) or bucket is refused for good (grams_state -1) and
 * answered NULL: the Python path then reads the same index, checks it the same way
 * (Store.rows, Store.alphagrams) and raises FileFormatError, so that no answer comes from an index
 * that lies. NULL also when memory runs out (checked again on the next call). For words of up to
 * 8 tiles the packed keys are built too, so that searches compare integers. */
static const unsigned char *
entry_grams(LengthTable *t, Py_ssize_t n, unsigned n_tiles)
{
    if (t->grams_state)
        return t->grams_state > 0 ? t->grams : NULL;
    if (!t->count)
        return NULL; /* callers answer an empty bucket before asking */
    if (!rows_hold(t, n, n_tiles)) {
        t->grams_state = -1;
        return NULL;
    }
    unsigned char *grams = PyMem_Malloc((size_t)t->count * (size_t)n);
    unsigned char *seen = PyMem_Calloc((size_t)t->count / 8 + 1, 1);
    uint64_t *keys = n <= 8 ? PyMem_Malloc((size_t)t->count * sizeof(uint64_t)) : NULL;
    if (grams == NULL || seen == NULL || (n <= 8 && keys == NULL)) {
        PyMem_Free(grams);
        PyMem_Free(seen);
        PyMem_Free(keys);
        return NULL;
    }
    int forged = 0;
    for (Py_ssize_t i = 0; i < t->count && !forged; i++) {
        Py_ssize_t row = order_at(t, i);
        unsigned char *g = grams + i * n;
        if (row >= t->count || (seen[row >> 3] >> (row & 7)) & 1) {
            forged = 1; /* past the bucket, or a row named twice (so another never) */
            break;
        }
        seen[row >> 3] |= (unsigned char)(1u << (row & 7));
        memcpy(g, t->rows + row * n, (size_t)n);
        sort_codes(g, n);
        if (i && memcmp(g - n, g, (size_t)n) > 0)
            forged = 1; /* not in alphagram order */
        else if (keys != NULL)
            keys[i] = pack_key(g, n);
    }
    PyMem_Free(seen);
    if (forged) {
        PyMem_Free(grams);
        PyMem_Free(keys);
        t->grams_state = -1;
        return NULL;
    }
    t->grams = grams;
    t->keys = keys;
    t->grams_state = 1;
    return grams;
}

/* The first entry whose alphagram is >= key (right: > key), in checked grams (entry_grams). */
static Py_ssize_t
bound(const LengthTable *t, const unsigned char *grams, const unsigned char *key, Py_ssize_t n, int right)
{
    Py_ssize_t lo = 0, hi = t->count;
    if (t->keys != NULL) {
        uint64_t k = pack_key(key, n);
        while (lo < hi) {
            Py_ssize_t mid = lo + ((hi - lo) >> 1);
            if (t->keys[mid] < k || (right && t->keys[mid] == k))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
    while (lo < hi) {
        Py_ssize_t mid = lo + ((hi - lo) >> 1);
        int c = memcmp(grams + mid * n, key, (size_t)n);
        if (c < 0 || (right && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rows (ascending) whose alphagram is `key`, into rows[0..cap); returns how many, -1 when the index
 * is forged (or memory ran out), cap when there may be more. */
static Py_ssize_t
exact_rows(LengthTable *t, const unsigned char *key, Py_ssize_t n, unsigned n_tiles, Py_ssize_t *rows, Py_ssize_t cap)
{
    if (!t->count)
        return 0;
    const unsigned char *grams = entry_grams(t, n, n_tiles);
    if (grams == NULL)
        return -1;
    Py_ssize_t lo = bound(t, grams, key, n, 0), hi = bound(t, grams, key, n, 1);
    Py_ssize_t found = 0;
    for (Py_ssize_t i = lo; i < hi && found < cap; i++) {
        Py_ssize_t row = order_at(t, i), j = found++;
        while (j > 0 && rows[j - 1] > row) { /* ascending row order: alphabetical */
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = row;
    }
    return found;
}

/* ---- Exact anagrams with blanks: a walk of the sorted alphagrams ----------------
 *
 * The bucket's alphagrams, sorted, form a trie in disguise: the entries that
 * share their first d tiles are one range, and within it the tile at d is
 * sorted. The walk builds the alphagram tile by tile, each tile either the
 * rack's smallest unused one or a blank standing for a tile no greater, and
 * narrows the range by binary search; it visits only alphagrams that exist,
 * and stops at its deadline. */

typedef struct {
    const LengthTable *t;
    const unsigned char *grams;
    Py_ssize_t n;
    unsigned n_tiles;
    unsigned char rack[256];
    int blanks;
    char *out;
    Py_ssize_t out_len, out_cap;
    LxDeadline deadline;
    int late;
} GramWalk;

static int
gram_emit(GramWalk *w, Py_ssize_t lo, Py_ssize_t hi)
{
    Py_ssize_t need = (hi - lo) * 8;
    if (lx_out_reserve(&w->out, w->out_len, &w->out_cap, need) < 0)
        return -1;
    for (Py_ssize_t i = lo; i < hi; i++) {
        int64_t id = w->t->first_id + order_at(w->t, i);
        memcpy(w->out + w->out_len, &id, 8);
        w->out_len += 8;
    }
    return 0;
}

static int
gram_walk(GramWalk *w, Py_ssize_t d, Py_ssize_t lo, Py_ssize_t hi, unsigned prev)
{
    if (d == w->n)
        return gram_emit(w, lo, hi);
    unsigned smallest = w->n_tiles + 1;
    for (unsigned c = prev; c <= w->n_tiles; c++)
        if (w->rack[c]) {
            smallest = c;
            break;
        }
    unsigned top = smallest <= w->n_tiles ? smallest : w->n_tiles;
    for (unsigned c = prev < 1 ? 1 : prev; c <= top && !w->late; c++) {
        int from_rack = w->rack[c] > 0;
        if (!from_rack && !w->blanks)
            continue;
        if (lx_deadline_passed(&w->deadline)) {
            w->late = 1;
            return 0;
        }
        /* entries in [lo, hi) whose tile at d is c */
        Py_ssize_t a = lo, b = hi;
        while (a < b) {
            Py_ssize_t mid = a + ((b - a) >> 1);
            if (w->grams[mid * w->n + d] < c)
                a = mid + 1;
            else
                b = mid;
        }
        Py_ssize_t start = a;
        b = hi;
        while (a < b) {
            Py_ssize_t mid = a + ((b - a) >> 1);
            if (w->grams[mid * w->n + d] <= c)
                a = mid + 1;
            else
                b = mid;
        }
        if (a == start)
            continue;
        if (from_rack)
            w->rack[c]--;
        else
            w->blanks--;
        int r = gram_walk(w, d + 1, start, a, c);
        if (from_rack)
            w->rack[c]++;
        else
            w->blanks++;
        if (r < 0)
            return -1;
    }
    return 0;
}

/* exact_anagram_ids(codes, blanks, n_tiles[, deadline]) -> bytes of int64 ids (ascending); -2 when
 * the deadline passed; None when the NumPy path must answer (a forged index). */
PyObject *
lx_probe_exact_anagram_ids(Probe *self, PyObject *args)
{
    Py_buffer codes;
    int blanks;
    unsigned n_tiles;
    PyObject *deadline = NULL;
    if (!PyArg_ParseTuple(args, "y*iI|O", &codes, &blanks, &n_tiles, &deadline))
        return NULL;
    Py_ssize_t n = codes.len + (blanks > 0 ? blanks : 0);
    PyObject *result = NULL;
    GramWalk w;
    memset(&w, 0, sizeof w);
    if (lx_deadline_parse(deadline, &w.deadline) < 0)
        goto done;
    if (!self->attached || blanks < 0 || n_tiles > LX_MAX_ALPHABET_TILES || n < 1) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (n > self->max_length || !self->tables[n].width || !self->tables[n].count) {
        result = PyBytes_FromStringAndSize("", 0);
        goto done;
    }
    LengthTable *t = &self->tables[n];
    const unsigned char *grams = entry_grams(t, n, self->alphabet_tiles);
    if (grams == NULL) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    w.t = t;
    w.grams = grams;
    w.n = n;
    w.n_tiles = n_tiles;
    w.blanks = blanks;
    for (Py_ssize_t i = 0; i < codes.len; i++) {
        unsigned char c = ((const unsigned char *)codes.buf)[i];
        if (c < 1 || c > n_tiles) { /* no word holds it */
            result = PyBytes_FromStringAndSize("", 0);
            goto done;
        }
        w.rack[c]++;
    }
    if (gram_walk(&w, 0, 0, t->count, 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (w.late) {
        result = PyLong_FromLong(LX_WALK_PAST_DEADLINE);
        goto done;
    }
    /* ids ascending, as the NumPy path gives them */
    if (w.out_len)
        qsort(w.out, (size_t)(w.out_len / 8), 8, compare_int64);
    result = PyBytes_FromStringAndSize(w.out ? w.out : "", w.out_len);
done:
    PyMem_Free(w.out);
    PyBuffer_Release(&codes);
    return result;
}

/* Decode rows (ascending) of a bucket into a list of str through the one-character labels;
 * None when a code has no label (only in a forged file). */
static PyObject *
decode_rows_ascii(const Probe *self, const LengthTable *t, Py_ssize_t n, const Py_ssize_t *rows, Py_ssize_t found)
{
    PyObject *out = PyList_New(found);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < found; k++) {
        PyObject *word = PyUnicode_New(n, 127);
        if (word == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        unsigned char *dst = PyUnicode_1BYTE_DATA(word);
        const unsigned char *src = t->rows + rows[k] * n;
        for (Py_ssize_t i = 0; i < n; i++) {
            dst[i] = self->labels[src[i]];
            if (!dst[i]) {
                Py_DECREF(word);
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
        }
        PyList_SET_ITEM(out, k, word);
    }
    return out;
}

/* The exact anagrams of a rack with blanks (its `k` tile codes in `key`), by the walk of the alphagram entries
 * (GramWalk), as a list of str alphabetically; None when the index is forged; past the deadline, its error. */
static PyObject *
anagrams_with_blanks(Probe *self, LengthTable *t, Py_ssize_t n, const unsigned char *key, Py_ssize_t k, int blanks,
                     GramWalk *w)
{
    const unsigned char *grams = entry_grams(t, n, self->alphabet_tiles);
    if (grams == NULL)
        Py_RETURN_NONE;
    w->t = t;
    w->grams = grams;
    w->n = n;
    w->n_tiles = LX_MAX_ALPHABET_TILES;
    while (w->n_tiles > 1 && !self->labels[w->n_tiles])
        w->n_tiles--;
    w->blanks = blanks;
    for (Py_ssize_t i = 0; i < k; i++)
        w->rack[key[i]]++;
    if (gram_walk(w, 0, 0, t->count, 1) < 0) {
        PyMem_Free(w->out);
        return PyErr_NoMemory();
    }
    if (w->late) {
        PyMem_Free(w->out);
        return lx_probe_past_deadline(self);
    }
    Py_ssize_t found = w->out_len / 8;
    Py_ssize_t *rows = PyMem_Malloc((size_t)(found ? found : 1) * sizeof(Py_ssize_t));
    if (rows == NULL) {
        PyMem_Free(w->out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < found; i++) {
        int64_t id;
        memcpy(&id, w->out + 8 * i, 8);
        rows[i] = (Py_ssize_t)id - t->first_id;
    }
    qsort(rows, (size_t)found, sizeof(Py_ssize_t), compare_ssize);
    PyMem_Free(w->out);
    PyObject *out = decode_rows_ascii(self, t, n, rows, found);
    PyMem_Free(rows);
    return out;
}

/* exact_anagram_words(rack[, deadline]) -> the exact anagrams of a plain ASCII rack ('?' a blank),
 * as a list of words; past the deadline, the probe's deadline error (lx_probe_past_deadline); None when Python must answer (other characters,
 * fewer than two tiles, a forged index). */
PyObject *
lx_probe_exact_anagram_words(Probe *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "exact_anagram_words(rack[, deadline])");
        return NULL;
    }
    PyObject *rack = args[0];
    GramWalk w;
    memset(&w, 0, sizeof w);
    if (lx_deadline_parse(nargs > 1 ? args[1] : NULL, &w.deadline) < 0)
        return NULL;
    /* one character, one tile: alphabets with multi-letter tiles (encodes 2) go to Python */
    if (!PyUnicode_Check(rack) || !self->attached || self->encodes != 1 || !PyUnicode_IS_ASCII(rack))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(rack);
    if (n < 2 || n > LX_MAX_WORD_LENGTH)
        Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(rack);
    unsigned char key[256];
    Py_ssize_t k = 0;
    int blanks = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] == '?') {
            blanks++;
            continue;
        }
        key[k] = self->codes[text[i]];
        if (!key[k++])
            Py_RETURN_NONE; /* a star, a space or a stranger: the general path */
    }
    if (n > self->max_length || !self->tables[n].width || !self->tables[n].count)
        return PyList_New(0);
    LengthTable *t = &self->tables[n];
    if (lx_deadline_passed_now(&w.deadline))
        return lx_probe_past_deadline(self); /* without blanks, a few binary searches: checked once */
    if (!blanks) {
        sort_codes(key, n);
        Py_ssize_t rows[64];
        Py_ssize_t found = exact_rows(t, key, n, self->alphabet_tiles, rows, 64);
        if (found < 0 || found == 64)
            Py_RETURN_NONE; /* a forged index, or more anagrams than fit here: the general path decides */
        return decode_rows_ascii(self, t, n, rows, found);
    }
    return anagrams_with_blanks(self, t, n, key, k, blanks, &w);
}
