/*
 * wordmap_build.c: one length's word map tables, built in C: word_map_tables(rows, count, length, highest_code,
 * max_blanks) -> [(directory, records, log2 of buckets)] for 0 .. max_blanks blanks.
 *
 * The twin is lexigraph/compiler/word_map_tables.py, byte for byte (tests/engine/test_wordmap.py). rows are
 * the length's words as sorted codes in alphagram order, so anagrams are runs. Each table is made from pairs
 * (key, value): for the words, (rank of a run, first row | rows << 32); for one blank, (rank of the run's codes
 * less one, bit of that code); for two blanks, (rank less two codes i < j, bit of code i). The pairs are
 * radix-sorted by key, equal keys merged (values OR-ed), then spread into buckets (a counting sort, stable, so
 * keys stay ascending in a bucket) by the top bits of key * 0x9E3779B97F4A7C15. Why C: the two-blank table of
 * TWL06 is made from 8.7 million pairs, which NumPy sorts in several passes each.
 */
#include "module.h"

#include <stdlib.h>
#include <string.h>

#include "wordmap.h"

#define MULTIPLIER UINT64_C(0x9E3779B97F4A7C15)
#define RANK_CODES (LX_WORDMAP_MAX_CODE + 1)

typedef struct {
    uint64_t key, value;
} Pair;

typedef struct {
    Pair *pairs;
    size_t count;
} Pairs;

/* ranks[i][t] = C(t - 1 + i, i + 1), from Pascal's triangle (the caller has checked they fit 64 bits); -1 out of
 * memory. */
static int
fill_rank_terms(uint64_t *ranks, int length, int highest)
{
    int size = length + highest + 1;
    uint64_t *pascal = calloc((size_t)size * (size_t)size, sizeof(uint64_t));
    if (!pascal)
        return -1;
    for (int n = 0; n < size; n++) {
        pascal[n * size] = 1;
        for (int k = 1; k <= n; k++)
            pascal[n * size + k] = pascal[(n - 1) * size + k - 1] + pascal[(n - 1) * size + k];
    }
    for (int i = 0; i < length; i++)
        for (int t = 1; t <= highest; t++)
            ranks[i * RANK_CODES + t] = pascal[(t - 1 + i) * size + i + 1];
    free(pascal);
    return 0;
}

/* The rank of codes[0..n) skipping positions skip1 and skip2 (-1: none). */
static inline uint64_t
rank_without(const uint64_t *ranks, const uint8_t *codes, int n, int skip1, int skip2)
{
    uint64_t key = 0;
    for (int i = 0, at = 0; i < n; i++)
        if (i != skip1 && i != skip2)
            key += ranks[at++ * RANK_CODES + codes[i]];
    return key;
}

/* LSD radix sort by key, a byte at a time, over the bytes the largest key uses; -1 out of memory. */
static int
sort_pairs(Pairs *p)
{
    uint64_t top = 0;
    for (size_t i = 0; i < p->count; i++)
        top |= p->pairs[i].key;
    Pair *spare = malloc(p->count * sizeof(Pair) + 1);
    if (!spare)
        return -1;
    for (int shift = 0; shift < 64 && (top >> shift); shift += 8) {
        size_t counts[257] = {0};
        for (size_t i = 0; i < p->count; i++)
            counts[((p->pairs[i].key >> shift) & 0xFF) + 1]++;
        for (int b = 0; b < 256; b++)
            counts[b + 1] += counts[b];
        for (size_t i = 0; i < p->count; i++)
            spare[counts[(p->pairs[i].key >> shift) & 0xFF]++] = p->pairs[i];
        Pair *swap = p->pairs;
        p->pairs = spare;
        spare = swap;
    }
    free(spare);
    return 0;
}

/* Sorted pairs with equal keys merged, their values OR-ed. */
static void
merge_pairs(Pairs *p)
{
    size_t out = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (out && p->pairs[out - 1].key == p->pairs[i].key)
            p->pairs[out - 1].value |= p->pairs[i].value;
        else
            p->pairs[out++] = p->pairs[i];
    }
    p->count = out;
}

static void
put_le32(uint8_t *o, uint32_t v)
{
    o[0] = (uint8_t)v, o[1] = (uint8_t)(v >> 8), o[2] = (uint8_t)(v >> 16), o[3] = (uint8_t)(v >> 24);
}

/* Merged pairs (keys ascending) as (directory bytes, record bytes, log2 of buckets); NULL with an error set. */
static PyObject *
table_of(Pairs *p)
{
    size_t buckets = 16;
    while (2 * buckets < p->count)
        buckets *= 2;
    int log2 = 0;
    while (((size_t)1 << log2) < buckets)
        log2++;
    PyObject *directory = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(4 * (buckets + 1)));
    PyObject *records = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(16 * p->count));
    uint32_t *starts = calloc(buckets + 1, sizeof(uint32_t));
    if (!directory || !records || !starts) {
        Py_XDECREF(directory);
        Py_XDECREF(records);
        free(starts);
        return starts ? NULL : PyErr_NoMemory();
    }
    for (size_t i = 0; i < p->count; i++)
        starts[((p->pairs[i].key * MULTIPLIER) >> (64 - log2)) + 1]++;
    for (size_t b = 0; b < buckets; b++)
        starts[b + 1] += starts[b];
    uint8_t *d = (uint8_t *)PyBytes_AS_STRING(directory), *r = (uint8_t *)PyBytes_AS_STRING(records);
    for (size_t b = 0; b <= buckets; b++)
        put_le32(d + 4 * b, starts[b]);
    for (size_t i = 0; i < p->count; i++) {
        uint8_t *o = r + 16 * (size_t)starts[(p->pairs[i].key * MULTIPLIER) >> (64 - log2)]++;
        put_le32(o, (uint32_t)p->pairs[i].key);
        put_le32(o + 4, (uint32_t)(p->pairs[i].key >> 32));
        put_le32(o + 8, (uint32_t)p->pairs[i].value);
        put_le32(o + 12, (uint32_t)(p->pairs[i].value >> 32));
    }
    free(starts);
    return Py_BuildValue("(NNi)", directory, records, log2);
}

/* The pairs of the table with `blanks` blanks, from the first row of each run (firsts[0..groups)). */
static int
make_pairs(Pairs *p, const uint8_t *rows, int length, const size_t *firsts, size_t groups, size_t total,
           const uint64_t *ranks, int blanks)
{
    size_t per = blanks == 0 ? 1 : blanks == 1 ? (size_t)length : (size_t)length * (size_t)(length - 1) / 2;
    p->pairs = malloc(groups * per * sizeof(Pair) + 1);
    p->count = 0;
    if (!p->pairs)
        return -1;
    for (size_t g = 0; g < groups; g++) {
        const uint8_t *codes = rows + firsts[g] * (size_t)length;
        if (blanks == 0) {
            size_t stop = g + 1 < groups ? firsts[g + 1] : total;
            p->pairs[p->count++] = (Pair){rank_without(ranks, codes, length, -1, -1),
                                          (uint64_t)firsts[g] | (uint64_t)(stop - firsts[g]) << 32};
        }
        for (int i = 0; blanks >= 1 && i < length; i++) {
            if (blanks == 1)
                p->pairs[p->count++] = (Pair){rank_without(ranks, codes, length, i, -1), (uint64_t)1 << codes[i]};
            else
                for (int j = i + 1; j < length; j++)
                    p->pairs[p->count++] = (Pair){rank_without(ranks, codes, length, i, j), (uint64_t)1 << codes[i]};
        }
    }
    return 0;
}

/* The first row of each run of equal rows; NULL out of memory. */
static size_t *
run_starts(const uint8_t *rows, size_t count, int length, size_t *groups)
{
    size_t *firsts = malloc(count * sizeof(size_t) + 1);
    *groups = 0;
    if (!firsts)
        return NULL;
    for (size_t r = 0; r < count; r++)
        if (!r || memcmp(rows + r * (size_t)length, rows + (r - 1) * (size_t)length, (size_t)length) != 0)
            firsts[(*groups)++] = r;
    return firsts;
}

static PyObject *
word_map_tables(PyObject *module, PyObject *args)
{
    Py_buffer rows;
    Py_ssize_t count;
    int length, highest, max_blanks;
    (void)module;
    if (!PyArg_ParseTuple(args, "y*niii", &rows, &count, &length, &highest, &max_blanks))
        return NULL;
    PyObject *result = NULL;
    uint64_t *ranks = NULL;
    size_t *firsts = NULL, groups = 0;
    if (count < 0 || length < 1 || length > LX_WORDMAP_MAX_LENGTH || highest < 1 || highest > LX_WORDMAP_MAX_CODE
        || max_blanks < 0 || max_blanks > LX_WORDMAP_MAX_BLANKS || rows.len != count * length) {
        PyErr_SetString(PyExc_ValueError, "word_map_tables: bad arguments");
        goto done;
    }
    const uint8_t *data = rows.buf;
    for (Py_ssize_t i = 0; i < rows.len; i++)
        if (data[i] < 1 || data[i] > highest) {
            PyErr_SetString(PyExc_ValueError, "word_map_tables: a code out of range");
            goto done;
        }
    ranks = calloc((size_t)length * RANK_CODES, sizeof(uint64_t));
    firsts = run_starts(data, (size_t)count, length, &groups);
    if (!ranks || !firsts || !(result = PyList_New(0))) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    if (fill_rank_terms(ranks, length, highest) < 0) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    for (int blanks = 0; blanks <= max_blanks; blanks++) {
        Pairs p = {NULL, 0};
        int ok = make_pairs(&p, data, length, firsts, groups, (size_t)count, ranks, blanks) == 0 && sort_pairs(&p) == 0;
        PyObject *table = NULL;
        if (ok) {
            merge_pairs(&p);
            table = table_of(&p);
        } else
            PyErr_NoMemory();
        free(p.pairs);
        if (!table || PyList_Append(result, table) < 0) {
            Py_XDECREF(table);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(table);
    }
done:
    free(ranks);
    free(firsts);
    PyBuffer_Release(&rows);
    return result;
}

static PyMethodDef wordmap_build_methods[] = {
    {"word_map_tables", word_map_tables, METH_VARARGS,
     "word_map_tables(rows, count, length, highest_code, max_blanks) -> [(directory, records, log2_buckets)]\n\n"
     "One length's word map tables (see compiler/word_map_tables.py)."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_wordmap_build(PyObject *module)
{
    return PyModule_AddFunctions(module, wordmap_build_methods);
}
