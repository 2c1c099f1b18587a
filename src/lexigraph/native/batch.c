/*
 * batch.c: check_words, the verdicts for a whole list of words in one call (Lexicon.check_many).
 *
 * Why a batch: the lookups of several words overlap their cache misses (probe_batch says how),
 * so a list is checked faster than word by word. The Python twin is
 * lexigraph.engine.python.batch.check_arrays.
 */
#include "probe.h"

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* Words looked up together in check_many, so that their memory accesses
 * overlap. 8 measured fastest on TWL06 (4 to 64 tried). */
#ifndef BATCH
#define BATCH 8
#endif
/* Longest word a batch holds; longer ones are looked up one by one. */
#define BATCH_KEY 32

/* Verdicts for items[0..m): 1 word, 0 not, 2 for Python to decide.
 *
 * A random lookup costs three cache misses (the string, its hash slot, its
 * row), each waiting on the one before. Taking words in batches and
 * prefetching each stage for the whole batch before the next stage reads
 * it lets the misses of different words overlap. */
static Py_ssize_t
probe_batch(const Probe *self, PyObject **items, Py_ssize_t m, unsigned char *dst)
{
    unsigned char keys[BATCH][BATCH_KEY];
    Py_ssize_t lens[BATCH], pos[BATCH];
    uint32_t vals[BATCH];
    Py_ssize_t undecided = 0;

    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *w = items[j];
        dst[j] = 0;
        lens[j] = -1;
        if (!PyUnicode_Check(w))
            continue;
        Py_ssize_t n = lx_encode_word(self, w, keys[j], BATCH_KEY);
        if (n == LX_TOO_LONG) { /* rare: looked up on its own */
            Py_ssize_t id = lx_probe_word(self, w);
            dst[j] = id >= 0;
            n = id == LX_UNDECIDED ? LX_UNDECIDED : -1;
        }
        if (n == LX_UNDECIDED) {
            dst[j] = 2;
            undecided++;
        }
        if (n < 0)
            continue;
        const LengthTable *t = &self->tables[n];
        lens[j] = n;
        pos[j] = (Py_ssize_t)lx_home_slot(keys[j], (size_t)n, t->home);
        PREFETCH(t->slots + pos[j] * t->width);
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        if (lens[j] < 0)
            continue;
        const LengthTable *t = &self->tables[lens[j]];
        vals[j] = lx_slot_at(t, pos[j]);
        if (vals[j] && (Py_ssize_t)vals[j] <= t->count)
            PREFETCH(t->rows + (Py_ssize_t)(vals[j] - 1) * lens[j]);
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        Py_ssize_t n = lens[j];
        if (n < 0)
            continue;
        const LengthTable *t = &self->tables[n];
        for (Py_ssize_t i = pos[j]; i < t->n_slots; i++) {
            uint32_t v = i == pos[j] ? vals[j] : lx_slot_at(t, i);
            if (!v || (Py_ssize_t)v > t->count)
                break;
            if (memcmp(t->rows + (Py_ssize_t)(v - 1) * n, keys[j], (size_t)n) == 0) {
                dst[j] = 1;
                break;
            }
        }
    }
    return undecided;
}

/* check_words(words, out): out[i] = 1 if words[i] is a word, 0 if not, 2 if
 * Python must decide. Returns how many are undecided. */
PyObject *
lx_probe_check_words(Probe *self, PyObject *args)
{
    PyObject *words;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "Ow*", &words, &out))
        return NULL;
    PyObject *seq = PySequence_Fast(words, "words must be a sequence");
    if (seq == NULL) {
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (out.len < n) {
        PyBuffer_Release(&out);
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "the output holds %zd entries, not %zd", out.len, n);
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    unsigned char *dst = out.buf;
    Py_ssize_t undecided = 0;
    for (Py_ssize_t j = 0; j < n && j < BATCH; j++)
        PREFETCH(items[j]);
    for (Py_ssize_t start = 0; start < n; start += BATCH) {
        Py_ssize_t m = n - start < BATCH ? n - start : BATCH;
        /* The next batch's strings arrive while this batch is probed. */
        for (Py_ssize_t j = start + BATCH; j < n && j < start + 2 * BATCH; j++) {
            PREFETCH(items[j]);
            PREFETCH((const char *)items[j] + 64);
        }
        undecided += probe_batch(self, items + start, m, dst + start);
    }
    PyBuffer_Release(&out);
    Py_DECREF(seq);
    return PyLong_FromSsize_t(undecided);
}
