/*
 * build_tables.c: a length bucket's tables, built in C: its rows gathered from the word list
 * (bucket_rows), its exact-match hash table (hash_table) and its alphagram order (alphagram_order).
 *
 * The twins are lexigraph/compiler/builder.py (bucket_rows, alphagram_order) and
 * lexigraph/compiler/hash_tables.py (build_table); each C function gives byte for byte what its
 * twin gives. Why C: these are the passes of a build that touch every word, and in NumPy each
 * takes several array passes. The hash table places every word at the home slot hash.h defines,
 * the one the probe looks it up at.
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"

/* --- the exact-match hash table of one length bucket (twin of hash_tables.build_table) --- */

/*
 * hash_table(rows, count, length, size) -> bytes: the slots as little-endian uint32.
 *
 * Placement in rounds, as the NumPy code: in each round every pending row
 * tries its current slot, in row order; the first to find it empty takes it,
 * the others move one slot on. The result is trimmed to max(used, size) + 1.
 */
static PyObject *
hash_table(PyObject *self, PyObject *args)
{
    Py_buffer rb = {0};
    Py_ssize_t count, length, size;
    PyObject *result = NULL;
    i64 *pos = NULL, *pending = NULL;
    uint32_t *table = NULL;
    if (!PyArg_ParseTuple(args, "y*nnn", &rb, &count, &length, &size))
        return NULL;
    if (count < 0 || length < 1 || size < 1 || count >= 0xFFFFFFFFLL || (length && count > rb.len / length)
        || count * length != rb.len || size > 4 * count + 64) {
        /* the builder's size is about 2.9 slots a row: anything far larger is refused, not allocated */
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes, and size between 1 and 4 x count + 64");
        goto done;
    }
    const unsigned char *rows = rb.buf;
    pos = malloc(((size_t)count + 1) * sizeof(i64));
    pending = malloc(((size_t)count + 1) * sizeof(i64));
    size_t cap = (size_t)size + 64;
    table = calloc(cap, sizeof(uint32_t));
    if (!pos || !pending || !table) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        /* each row at its home slot (hash.h), where the probe will look for it */
        pos[i] = (i64)lx_home_slot(rows + (size_t)i * (size_t)length, (size_t)length, (u64)size);
        pending[i] = i;
    }
    Py_ssize_t np_ = count;
    size_t used = 0;
    while (np_ > 0) {
        i64 top = 0;
        for (Py_ssize_t k = 0; k < np_; k++)
            if (pos[k] > top)
                top = pos[k];
        if ((size_t)top + 2 > cap) {
            size_t ncap = (size_t)top + 2 + 64;
            uint32_t *t = realloc(table, ncap * sizeof(uint32_t));
            if (!t) {
                PyErr_NoMemory();
                goto done;
            }
            memset(t + cap, 0, (ncap - cap) * sizeof(uint32_t));
            table = t;
            cap = ncap;
        }
        Py_ssize_t keep = 0;
        for (Py_ssize_t k = 0; k < np_; k++) {
            i64 p = pos[k];
            if (table[p] == 0) {
                table[p] = (uint32_t)(pending[k] + 1);
                if ((size_t)p + 1 > used)
                    used = (size_t)p + 1;
            } else {
                pending[keep] = pending[k];
                pos[keep] = p + 1;
                keep++;
            }
        }
        np_ = keep;
    }
    size_t n_out = (used > (size_t)size ? used : (size_t)size) + 1;
    if (n_out > cap) { /* only when size + 1 > cap, which the initial capacity rules out */
        PyErr_SetString(PyExc_RuntimeError, "hash table overflow");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_out * 4));
    if (result) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (size_t t = 0; t < n_out; t++) {
            uint32_t v = table[t];
            o[4 * t] = (unsigned char)v;
            o[4 * t + 1] = (unsigned char)(v >> 8);
            o[4 * t + 2] = (unsigned char)(v >> 16);
            o[4 * t + 3] = (unsigned char)(v >> 24);
        }
    }
done:
    PyBuffer_Release(&rb);
    free(pos);
    free(pending);
    free(table);
    return result;
}

/* leading zero bits of x != 0 */
static inline unsigned
clz64(u64 x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* --- alphagram order of one length bucket (twin of builder.alphagram_order) --- */

/*
 * alphagram_order(rows, count, length) -> bytes: row numbers as little-endian
 * uint32, ordered by each row's tiles sorted (its alphagram), ties by row,
 * which is np.argsort(kind="stable") of the alphagrams as bytes. Each
 * alphagram is packed into 64-bit words (`bits` bits a tile, the first tile
 * highest), which a stable radix sort orders, the last word first.
 *
 * Rows of up to 15 tiles under 64 are not sorted tile by tile: their tiles
 * are counted, 4 bits a code, lowest code highest, each count c stored as
 * 15 - c (one subtraction a tile, no branch). That key orders alphagrams too
 * (at the first code whose counts differ, the alphagram with more of it is
 * the smaller); when the alphagram fits one word it is rebuilt from the
 * counts (a shift a code), else the counts are the key.
 */
static PyObject *
alphagram_order(PyObject *self, PyObject *args)
{
    Py_buffer rb = {0};
    Py_ssize_t count, length;
    PyObject *result = NULL;
    u64 *packed = NULL;
    SigNode *a = NULL, *b = NULL;
    if (!PyArg_ParseTuple(args, "y*nn", &rb, &count, &length))
        return NULL;
    if (count < 0 || length < 1 || count >= 0xFFFFFFFFLL || count > rb.len / length || count * length != rb.len) {
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes");
        goto done;
    }
    const unsigned char *rows = rb.buf;
    unsigned maxcode = 0;
    for (Py_ssize_t i = 0; i < rb.len; i++)
        if (rows[i] > maxcode)
            maxcode = rows[i];
    int bits = 1;
    while ((1u << bits) <= maxcode)
        bits++;
    int by_counts = length <= 15 && maxcode < 64;
    int one_word = by_counts && bits * length < 64;
    size_t per_word = (size_t)(64 / bits); /* tiles a word holds */
    size_t words = one_word ? 1 : by_counts ? (maxcode + 16) / 16 : ((size_t)length + per_word - 1) / per_word;
    u64 ones[16] = {0}; /* ones[k]: k fields of `bits` bits, each 1 */
    for (int k = 1; k < 16; k++)
        ones[k] = (ones[k - 1] << bits) | 1;
    if (count && words > (size_t)-1 / 8 / (size_t)count) {
        PyErr_NoMemory();
        goto done;
    }
    packed = malloc(((size_t)count * words + 1) * sizeof(u64));
    a = malloc(((size_t)count + 1) * sizeof(SigNode));
    b = malloc(((size_t)count + 1) * sizeof(SigNode));
    if (!packed || !a || !b) {
        PyErr_NoMemory();
        goto done;
    }
    /* each row's tiles in order: by insertion into a copy (short rows, or a large alphabet), else by counting */
    int counting = length > 16 && (maxcode + 1 <= 4 * (unsigned)length || maxcode < 64);
    unsigned char *gram = malloc((size_t)length + 1);
    if (!gram) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        const unsigned char *r = rows + (size_t)i * (size_t)length;
        a[i].node = i;
        if (by_counts) {
            u64 cnt[4] = {~(u64)0, ~(u64)0, ~(u64)0, ~(u64)0};
            if (maxcode < 32) { /* two words, kept in registers: no store-to-load chain through cnt[] */
                u64 c0 = ~(u64)0, c1 = ~(u64)0;
                for (Py_ssize_t j = 0; j < length; j++) {
                    u64 m = (u64)1 << (4 * (15 - (r[j] & 15))), hi = (u64)0 - (u64)(r[j] >> 4);
                    c0 -= m & ~hi;
                    c1 -= m & hi;
                }
                cnt[0] = c0;
                cnt[1] = c1;
            } else
                for (Py_ssize_t j = 0; j < length; j++)
                    cnt[r[j] >> 4] -= (u64)1 << (4 * (15 - (r[j] & 15)));
            u64 *w = packed + (size_t)i * words;
            if (!one_word) {
                for (size_t k = 0; k < words; k++)
                    w[k] = cnt[k];
                continue;
            }
            u64 v = 0; /* bits * length < 64: no shift reaches 64 */
            for (unsigned q = 0; q < 4; q++) {
                u64 x = ~cnt[q]; /* each nibble a count: visit the codes present, lowest (highest nibble) first */
                while (x) {
                    unsigned nib = (unsigned)(clz64(x) >> 2), shift = 4 * (15 - nib);
                    unsigned k = (unsigned)(x >> shift) & 15;
                    v = (v << (bits * k)) | ((q * 16 + nib) * ones[k]);
                    x &= ~((u64)15 << shift);
                }
            }
            w[0] = v;
            continue;
        }
        if (counting) {
            uint32_t tally[256];
            memset(tally, 0, (maxcode + 1) * sizeof(uint32_t));
            for (Py_ssize_t j = 0; j < length; j++)
                tally[r[j]]++;
            unsigned char *q = gram;
            for (unsigned c = 0; c <= maxcode; c++)
                for (uint32_t t = tally[c]; t; t--)
                    *q++ = (unsigned char)c;
        } else {
            for (Py_ssize_t j = 0; j < length; j++) {
                unsigned char x = r[j];
                Py_ssize_t k = j;
                while (k > 0 && gram[k - 1] > x) {
                    gram[k] = gram[k - 1];
                    k--;
                }
                gram[k] = x;
            }
        }
        u64 *w = packed + (size_t)i * words;
        for (size_t k = 0; k < words; k++) {
            u64 v = 0;
            size_t lo = k * per_word, hi = lo + per_word < (size_t)length ? lo + per_word : (size_t)length;
            for (size_t j = lo; j < hi; j++)
                v = (v << bits) | gram[j];
            w[k] = v; /* the last word holds fewer tiles: every row alike, so words compare as the grams */
        }
    }
    free(gram);
    for (size_t k = words; k-- > 0;) {
        for (Py_ssize_t i = 0; i < count; i++)
            a[i].sig = packed[(size_t)a[i].node * words + k];
        lx_radix_sort(a, b, (size_t)count);
    }
    result = PyBytes_FromStringAndSize(NULL, count * 4);
    if (result) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            uint32_t v = (uint32_t)a[i].node;
            o[4 * i] = (unsigned char)v;
            o[4 * i + 1] = (unsigned char)(v >> 8);
            o[4 * i + 2] = (unsigned char)(v >> 16);
            o[4 * i + 3] = (unsigned char)(v >> 24);
        }
    }
done:
    PyBuffer_Release(&rb);
    free(packed);
    free(a);
    free(b);
    return result;
}

/* --- one length bucket's rows (twin of the NumPy gather in builder.bucket_rows) --- */

/*
 * bucket_rows(flat, starts, ids, length) -> bytes: the words ids[0], ids[1], ...
 * (word i: flat[starts[i] : starts[i] + length]) one after another. starts
 * and ids are int64 arrays; every index is checked.
 */
static PyObject *
bucket_rows(PyObject *self, PyObject *args)
{
    Py_buffer fb = {0}, sb = {0}, ib = {0};
    Py_ssize_t length;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*n", &fb, &sb, &ib, &length))
        return NULL;
    if (length < 1 || sb.len % 8 || ib.len % 8) {
        PyErr_SetString(PyExc_ValueError, "starts and ids must be int64 arrays, length at least 1");
        goto done;
    }
    const unsigned char *flat = fb.buf;
    const i64 *starts = sb.buf, *ids = ib.buf;
    Py_ssize_t n_words = sb.len / 8, count = ib.len / 8;
    if (count && length > PY_SSIZE_T_MAX / count) {
        PyErr_SetString(PyExc_ValueError, "too many rows");
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        i64 i = ids[k];
        if (i < 0 || i >= n_words || starts[i] < 0 || starts[i] > fb.len - length) {
            PyErr_SetString(PyExc_ValueError, "a row lies outside the tile array");
            goto done;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, count * length);
    if (!result)
        goto done;
    {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t k = 0; k < count; k++, o += length)
            memcpy(o, flat + starts[ids[k]], (size_t)length);
    }
done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&ib);
    return result;
}

static PyMethodDef build_tables_methods[] = {
    {"hash_table", hash_table, METH_VARARGS,
     "hash_table(rows, count, length, size) -> bytes\n\n"
     "One length bucket's exact-match table as little-endian uint32 slots (see hash_tables.build_table)."},
    {"alphagram_order", alphagram_order, METH_VARARGS,
     "alphagram_order(rows, count, length) -> bytes\n\n"
     "Row numbers (little-endian uint32) by alphagram, ties by row (see builder.alphagram_order)."},
    {"bucket_rows", bucket_rows, METH_VARARGS,
     "bucket_rows(flat, starts, ids, length) -> bytes\n\n"
     "The words ids (each `length` tiles) one after another (see builder.bucket_rows)."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_build_tables(PyObject *module)
{
    return PyModule_AddFunctions(module, build_tables_methods);
}
