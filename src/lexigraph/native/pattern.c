/*
 * pattern.c: plain fixed-length patterns in one call (pattern_words) and two crossing patterns
 * (cross_words), for lexigraph.Lexicon.match and Lexicon.cross.
 *
 * A plain pattern is ASCII letters and '?' or '.' for any tile. Its plan (plan_start) estimates
 * the nodes each way of reading it visits, and either walks the word graph from the first cell
 * (walks.h) or descends the rotation order at the fixed cell that should visit the fewest
 * (rotation.c). Why C: the answer is the list of words itself, decoded here without a Python
 * frame per word. Everything else (sets, stars, multi-letter alphabets, a graph not checked yet,
 * a forged file) answers None, and the general paths of lexigraph.query.matching and lexigraph.query.crossings decide.
 */
#include "walks.h"

#include <math.h>

/* The estimated cost of answering a pattern from `start` (n cells, `window` of them read there): the
 * nodes a walk visits, level by level, while it may still narrow (each level holds at most the
 * prefixes its wildcards can spell and at most the rows its fixed tiles leave, with `tiles` tiles
 * spread evenly over `rows` rows), then the rows left to test. */
static double
plan_cost(const int *fixed, Py_ssize_t n, Py_ssize_t start, Py_ssize_t window, double rows, double tiles)
{
    double spelled = 1.0, left = rows, cost = 0.0, level = 0.0;
    Py_ssize_t last = -1;
    for (Py_ssize_t j = 0; j < window; j++)
        if (fixed[(start + j) % n])
            last = j;
    for (Py_ssize_t j = 0; j <= last; j++) {
        if (fixed[(start + j) % n])
            left /= tiles;
        else
            spelled *= tiles;
        level = spelled < left ? spelled : left;
        cost += level;
    }
    return cost + (last < 0 ? rows : left);
}

/* Where to read a plain pattern from: -1 for the word graph (from its first cell), else the start of
 * the rotation order that should visit the fewest nodes (a cell that opens a run of fixed ones). */
static Py_ssize_t
plan_start(const int *fixed, Py_ssize_t n, double rows, double tiles)
{
    Py_ssize_t best = fixed[0] ? -1 : 0;
    double best_cost = fixed[0] ? plan_cost(fixed, n, 0, n, rows, tiles) : HUGE_VAL;
    for (Py_ssize_t s = 1; s < n; s++) {
        if (!fixed[s] || fixed[s - 1])
            continue;
        double c = plan_cost(fixed, n, s, n < LX_ROTATION_KEY_TILES ? n : LX_ROTATION_KEY_TILES, rows, tiles);
        if (c < best_cost) {
            best = s;
            best_cost = c;
        }
    }
    return best;
}

/* What pattern_rows answers besides an error (-1). */
enum { PATTERN_ANSWERED = 0, PATTERN_TO_PYTHON = 1, PATTERN_PAST_DEADLINE = 2 };

/* The pattern's per-position masks (a 256-bit set a position) and which positions are fixed tiles: 0, or
 * PATTERN_TO_PYTHON for a character the one-call path does not take (sets, stars, vowels). */
static int
pattern_masks(const Probe *self, const unsigned char *text, Py_ssize_t n, unsigned char *masks, int *fixed)
{
    memset(masks, 0, (size_t)(32 * n));
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] == '?' || text[i] == '.') {
            for (unsigned t = 1; t <= self->graph_tiles; t++)
                masks[32 * i + (t >> 3)] |= (unsigned char)(1u << (t & 7));
            fixed[i] = 0;
            continue;
        }
        unsigned char c = self->codes[text[i]];
        if (!c)
            return PATTERN_TO_PYTHON;
        masks[32 * i + (c >> 3)] |= (unsigned char)(1u << (c & 7));
        fixed[i] = 1;
    }
    return 0;
}

/* The plan that walks the word graph from the first cell: its words into *out. */
static int
walk_rows(Probe *self, const unsigned char *masks, Py_ssize_t n, LxDeadline *deadline, char **out, Py_ssize_t *count)
{
    PatternWalk w;
    memset(&w, 0, sizeof w);
    w.arcs = self->graph;
    w.n_arcs = self->graph_arcs;
    w.n_tiles = self->graph_tiles;
    w.masks = masks;
    w.n_masks = (int)n;
    w.min_len = (int)n;
    w.max_len = (int)n;
    w.limit = -1;
    w.budget = -1;
    w.deadline = *deadline;
    w.probe = self;
    if (lx_pattern_walk_from(&w, self->graph_root, 0) < 0) {
        PyMem_Free(w.out);
        PyErr_NoMemory();
        return -1;
    }
    *deadline = w.deadline;
    if (w.stop) {
        PyMem_Free(w.out);
        return w.stop == LX_WALK_PAST_DEADLINE ? PATTERN_PAST_DEADLINE : PATTERN_TO_PYTHON;
    }
    *out = w.out;
    *count = w.found;
    return PATTERN_ANSWERED;
}

/* The plan that descends the rotation order at `start`: the bucket's rows holding the fixed tiles, into *out. */
static int
rotation_plan_rows(Probe *self, const unsigned char *text, Py_ssize_t n, const int *fixed, Py_ssize_t start, char **out,
                   Py_ssize_t *count)
{
    LengthTable *t = &self->tables[n];
    int n_fixed = 0;
    unsigned char tiles[LX_MAX_WORD_LENGTH];
    for (Py_ssize_t j = 0; j < n; j++)
        if (fixed[j]) {
            n_fixed++;
            tiles[j] = self->codes[text[j]];
        }
    uint32_t *found = NULL;
    Py_ssize_t n_found = t->count, capacity = 0;
    int status = 0;
    if (n_fixed && (n_found = lx_rotation_rows(t, n, start, fixed, tiles, &found)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n_found && !status; k++) {
        const unsigned char *row = t->rows + (found != NULL ? (Py_ssize_t)found[k] : k) * n;
        for (Py_ssize_t i = 0; i < n && !status; i++)
            if (!row[i] || row[i] > self->graph_tiles) /* a code outside the alphabet: only in a forged file */
                status = PATTERN_TO_PYTHON;
        if (!status && lx_out_reserve(out, *count * (n + 1), &capacity, n + 1) < 0) {
            PyErr_NoMemory();
            status = -1;
        }
        if (!status) {
            memcpy(*out + *count * (n + 1), row, (size_t)n);
            (*out)[*count * (n + 1) + n] = 0;
            (*count)++;
        }
    }
    PyMem_Free(found);
    if (status) {
        PyMem_Free(*out);
        *out = NULL;
        *count = 0;
    }
    return status;
}

/* The words matching a plain fixed-length pattern (ASCII letters, and '?' or '.' for any tile),
 * alphabetically, each as its n codes and a 0 byte, into *out (count of them in *count).
 * Returns PATTERN_ANSWERED, PATTERN_TO_PYTHON when Python must answer (other characters, no
 * checked graph yet, a forged file), PATTERN_PAST_DEADLINE, or -1 on error. The plan (plan_start)
 * walks the word graph from the first cell, or descends the rotation order at the cell that should
 * visit the fewest nodes (see rotation.py): work bounded by one length bucket, in which the walk
 * checks its deadline. */
static int
pattern_rows(Probe *self, PyObject *pattern, LxDeadline *deadline, Py_ssize_t *length, char **out, Py_ssize_t *count)
{
    *out = NULL;
    *count = 0;
    if (!PyUnicode_Check(pattern) || !self->attached || self->encodes != 1 || self->graph == NULL || !self->graph_tiles
        || !PyUnicode_IS_ASCII(pattern))
        return PATTERN_TO_PYTHON;
    Py_ssize_t n = PyUnicode_GET_LENGTH(pattern);
    *length = n;
    if (n < 1 || n > LX_MAX_WORD_LENGTH)
        return PATTERN_TO_PYTHON;
    const unsigned char *text = PyUnicode_1BYTE_DATA(pattern);
    unsigned char masks[32 * LX_MAX_WORD_LENGTH];
    int fixed[LX_MAX_WORD_LENGTH];
    if (pattern_masks(self, text, n, masks, fixed))
        return PATTERN_TO_PYTHON;
    if (n > self->max_length || !self->tables[n].width)
        return PATTERN_ANSWERED;
    if (lx_deadline_passed_now(deadline))
        return PATTERN_PAST_DEADLINE; /* the rotation path reads one bucket: checked once, here */
    Py_ssize_t start = plan_start(fixed, n, (double)self->tables[n].count, (double)self->graph_tiles);
    if (start < 0)
        return walk_rows(self, masks, n, deadline, out, count);
    return rotation_plan_rows(self, text, n, fixed, start, out, count);
}

/* pattern_words(pattern[, deadline]) -> the words matching a plain fixed-length pattern,
 * alphabetically, as a list of str; past the deadline, the probe's deadline error; None when Python must
 * answer (see pattern_rows). */
PyObject *
lx_probe_pattern_words(Probe *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "pattern_words(pattern[, deadline])");
        return NULL;
    }
    LxDeadline deadline;
    if (lx_deadline_parse(nargs > 1 ? args[1] : NULL, &deadline) < 0)
        return NULL;
    Py_ssize_t n, count;
    char *out;
    int r = pattern_rows(self, args[0], &deadline, &n, &out, &count);
    if (r < 0)
        return NULL;
    if (r == PATTERN_PAST_DEADLINE)
        return lx_probe_past_deadline(self);
    if (r == PATTERN_TO_PYTHON)
        Py_RETURN_NONE;
    PyObject *list = lx_words_from_codes(self, out ? out : "", count);
    PyMem_Free(out);
    return list;
}

/* cross_words(pattern_a, pos_a, pattern_b, pos_b[, deadline]) -> (tiles, words_a, words_b,
 * counts_a, counts_b): the tile codes both plain patterns allow where they cross (ascending, as
 * bytes), each pattern's words that put one of them there (alphabetically), and per shared tile
 * how many words of each do; past the deadline, the probe's deadline error; None when Python must answer. */
PyObject *
lx_probe_cross_words(Probe *self, PyObject *args)
{
    PyObject *pa, *pb, *until = NULL;
    Py_ssize_t pos_a, pos_b, na = 0, nb = 0, ca = 0, cb = 0;
    char *ra = NULL, *rb = NULL;
    PyObject *result = NULL, *wa = NULL, *wb = NULL;
    if (!PyArg_ParseTuple(args, "UnUn|O", &pa, &pos_a, &pb, &pos_b, &until))
        return NULL;
    LxDeadline deadline;
    if (lx_deadline_parse(until, &deadline) < 0)
        return NULL;
    int r = pattern_rows(self, pa, &deadline, &na, &ra, &ca);
    if (r == PATTERN_ANSWERED)
        r = pattern_rows(self, pb, &deadline, &nb, &rb, &cb);
    if (r == PATTERN_PAST_DEADLINE) {
        result = lx_probe_past_deadline(self);
        goto done;
    }
    if (r != PATTERN_ANSWERED || pos_a < 0 || pos_a >= na || pos_b < 0 || pos_b >= nb) {
        if (r >= 0)
            result = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t count_a[256] = {0}, count_b[256] = {0};
    for (Py_ssize_t k = 0; k < ca; k++)
        count_a[(unsigned char)ra[k * (na + 1) + pos_a]]++;
    for (Py_ssize_t k = 0; k < cb; k++)
        count_b[(unsigned char)rb[k * (nb + 1) + pos_b]]++;
    unsigned char tiles[256];
    Py_ssize_t n_tiles = 0;
    for (int t = 1; t < 256; t++)
        if (count_a[t] && count_b[t])
            tiles[n_tiles++] = (unsigned char)t;
    /* keep only the words whose crossing tile is shared, compacting in place */
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < ca; k++)
        if (count_b[(unsigned char)ra[k * (na + 1) + pos_a]]) {
            memmove(ra + m * (na + 1), ra + k * (na + 1), (size_t)(na + 1));
            m++;
        }
    Py_ssize_t mb = 0;
    for (Py_ssize_t k = 0; k < cb; k++)
        if (count_a[(unsigned char)rb[k * (nb + 1) + pos_b]]) {
            memmove(rb + mb * (nb + 1), rb + k * (nb + 1), (size_t)(nb + 1));
            mb++;
        }
    wa = lx_words_from_codes(self, ra ? ra : "", m);
    wb = lx_words_from_codes(self, rb ? rb : "", mb);
    if (wa == NULL || wb == NULL)
        goto done;
    PyObject *counts_a = PyList_New(n_tiles), *counts_b = PyList_New(n_tiles);
    if (counts_a == NULL || counts_b == NULL) {
        Py_XDECREF(counts_a);
        Py_XDECREF(counts_b);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_tiles; k++) {
        PyList_SET_ITEM(counts_a, k, PyLong_FromSsize_t(count_a[tiles[k]]));
        PyList_SET_ITEM(counts_b, k, PyLong_FromSsize_t(count_b[tiles[k]]));
    }
    result = Py_BuildValue("(y#OONN)", (const char *)tiles, n_tiles, wa, wb, counts_a, counts_b);
done:
    Py_XDECREF(wa);
    Py_XDECREF(wb);
    PyMem_Free(ra);
    PyMem_Free(rb);
    return result;
}
