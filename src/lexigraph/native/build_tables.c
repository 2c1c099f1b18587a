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
/* uint32 values as the little-endian bytes of a new bytes object. */
static PyObject *
uint32_bytes(const uint32_t *values, size_t count)
{
    PyObject *result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * 4));
    if (result) {
        unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
        for (size_t t = 0; t < count; t++) {
            uint32_t v = values[t];
            out[4 * t] = (unsigned char)v;
            out[4 * t + 1] = (unsigned char)(v >> 8);
            out[4 * t + 2] = (unsigned char)(v >> 16);
            out[4 * t + 3] = (unsigned char)(v >> 24);
        }
    }
    return result;
}

/* The table's slots, grown as the rows move past its end. */
typedef struct {
    uint32_t *slots;
    size_t capacity, used;
} Slots;

/* Room for slot `top` and the one after; -1 out of memory. */
static int
make_room(Slots *t, size_t top)
{
    if (top + 2 <= t->capacity)
        return 0;
    size_t capacity = top + 2 + 64;
    uint32_t *grown = realloc(t->slots, capacity * sizeof(uint32_t));
    if (!grown)
        return -1;
    memset(grown + t->capacity, 0, (capacity - t->capacity) * sizeof(uint32_t));
    t->slots = grown;
    t->capacity = capacity;
    return 0;
}

/* Placement in rounds: every pending row (pending[k] at slot position[k]) tries its slot, in row order; the first
 * to find it empty takes it, the others move one slot on. -1 out of memory. */
static int
place_rows(Slots *t, i64 *position, i64 *pending, Py_ssize_t count)
{
    while (count > 0) {
        i64 top = 0;
        for (Py_ssize_t k = 0; k < count; k++)
            if (position[k] > top)
                top = position[k];
        if (make_room(t, (size_t)top) < 0)
            return -1;
        Py_ssize_t keep = 0;
        for (Py_ssize_t k = 0; k < count; k++) {
            i64 p = position[k];
            if (t->slots[p] == 0) {
                t->slots[p] = (uint32_t)(pending[k] + 1);
                if ((size_t)p + 1 > t->used)
                    t->used = (size_t)p + 1;
            } else {
                pending[keep] = pending[k];
                position[keep] = p + 1;
                keep++;
            }
        }
        count = keep;
    }
    return 0;
}

static PyObject *
hash_table(PyObject *self, PyObject *args)
{
    Py_buffer rows = {0};
    Py_ssize_t count, length, size;
    if (!PyArg_ParseTuple(args, "y*nnn", &rows, &count, &length, &size))
        return NULL;
    PyObject *result = NULL;
    i64 *position = NULL, *pending = NULL;
    Slots table = {NULL, (size_t)size + 64, 0};
    if (count < 0 || length < 1 || size < 1 || count >= 0xFFFFFFFFLL || (length && count > rows.len / length)
        || count * length != rows.len || size > 4 * count + 64) {
        /* the builder's size is about 2.9 slots a row: anything far larger is refused, not allocated */
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes, and size between 1 and 4 x count + 64");
        goto done;
    }
    position = malloc(((size_t)count + 1) * sizeof(i64));
    pending = malloc(((size_t)count + 1) * sizeof(i64));
    table.slots = calloc(table.capacity, sizeof(uint32_t));
    if (!position || !pending || !table.slots) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) { /* each row at its home slot (hash.h), where the probe looks */
        position[i] =
            (i64)lx_home_slot((const unsigned char *)rows.buf + (size_t)i * (size_t)length, (size_t)length, (u64)size);
        pending[i] = i;
    }
    if (place_rows(&table, position, pending, count) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* trimmed to max(used, size) + 1 slots; the initial capacity holds size + 1 */
    result = uint32_bytes(table.slots, (table.used > (size_t)size ? table.used : (size_t)size) + 1);
done:
    PyBuffer_Release(&rows);
    free(position);
    free(pending);
    free(table.slots);
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
/* How one bucket's alphagrams are keyed (see the comment above). */
typedef struct {
    const unsigned char *rows;
    Py_ssize_t count, length;
    unsigned highest_code;
    int bits;        /* bits a tile takes in a packed key */
    int by_counts;   /* rows of up to 15 tiles under 64: keyed by their counts */
    int one_word;    /* by counts, and the alphagram fits one word: rebuilt from the counts */
    int counting;    /* long rows: sorted by counting, else by insertion */
    size_t per_word; /* tiles a word holds */
    size_t words;    /* words a key takes */
    u64 ones[16];    /* ones[k]: k fields of `bits` bits, each 1 */
} Alphagrams;

static void
plan_keys(Alphagrams *g)
{
    for (Py_ssize_t i = 0; i < g->count * g->length; i++)
        if (g->rows[i] > g->highest_code)
            g->highest_code = g->rows[i];
    g->bits = 1;
    while ((1u << g->bits) <= g->highest_code)
        g->bits++;
    g->by_counts = g->length <= 15 && g->highest_code < 64;
    g->one_word = g->by_counts && g->bits * g->length < 64;
    g->per_word = (size_t)(64 / g->bits);
    g->words = g->one_word    ? 1
               : g->by_counts ? (g->highest_code + 16) / 16
                              : ((size_t)g->length + g->per_word - 1) / g->per_word;
    for (int k = 1; k < 16; k++)
        g->ones[k] = (g->ones[k - 1] << g->bits) | 1;
    g->counting = g->length > 16 && (g->highest_code + 1 <= 4 * (unsigned)g->length || g->highest_code < 64);
}

/* A row's tiles counted, 4 bits a code, lowest code highest, each count c stored as 15 - c. */
static void
count_tiles(const Alphagrams *g, const unsigned char *row, u64 *counts)
{
    counts[0] = counts[1] = counts[2] = counts[3] = ~(u64)0;
    if (g->highest_code < 32) { /* two words, kept in registers: no store-to-load chain through counts[] */
        u64 low = ~(u64)0, high = ~(u64)0;
        for (Py_ssize_t j = 0; j < g->length; j++) {
            u64 bit = (u64)1 << (4 * (15 - (row[j] & 15))), upper = (u64)0 - (u64)(row[j] >> 4);
            low -= bit & ~upper;
            high -= bit & upper;
        }
        counts[0] = low;
        counts[1] = high;
        return;
    }
    for (Py_ssize_t j = 0; j < g->length; j++)
        counts[row[j] >> 4] -= (u64)1 << (4 * (15 - (row[j] & 15)));
}

/* The alphagram packed in one word, rebuilt from the counts (a shift a code; bits * length < 64). */
static u64
packed_from_counts(const Alphagrams *g, const u64 *counts)
{
    u64 packed = 0;
    for (unsigned q = 0; q < 4; q++) {
        u64 x = ~counts[q]; /* each nibble a count: visit the codes present, lowest (highest nibble) first */
        while (x) {
            unsigned nibble = (unsigned)(clz64(x) >> 2), shift = 4 * (15 - nibble);
            unsigned k = (unsigned)(x >> shift) & 15;
            packed = (packed << (g->bits * k)) | ((q * 16 + nibble) * g->ones[k]);
            x &= ~((u64)15 << shift);
        }
    }
    return packed;
}

/* A row's tiles in order, into `gram`: by counting (long rows), else by insertion. */
static void
sort_tiles(const Alphagrams *g, const unsigned char *row, unsigned char *gram)
{
    if (g->counting) {
        uint32_t tally[256];
        memset(tally, 0, (g->highest_code + 1) * sizeof(uint32_t));
        for (Py_ssize_t j = 0; j < g->length; j++)
            tally[row[j]]++;
        for (unsigned c = 0; c <= g->highest_code; c++)
            for (uint32_t t = tally[c]; t; t--)
                *gram++ = (unsigned char)c;
        return;
    }
    for (Py_ssize_t j = 0; j < g->length; j++) {
        unsigned char x = row[j];
        Py_ssize_t k = j;
        while (k > 0 && gram[k - 1] > x) {
            gram[k] = gram[k - 1];
            k--;
        }
        gram[k] = x;
    }
}

/* Row i's key, g->words words at `key`. */
static void
key_of_row(const Alphagrams *g, Py_ssize_t i, unsigned char *gram, u64 *key)
{
    const unsigned char *row = g->rows + (size_t)i * (size_t)g->length;
    if (g->by_counts) {
        u64 counts[4];
        count_tiles(g, row, counts);
        if (g->one_word)
            key[0] = packed_from_counts(g, counts);
        else
            for (size_t k = 0; k < g->words; k++)
                key[k] = counts[k];
        return;
    }
    sort_tiles(g, row, gram);
    for (size_t k = 0; k < g->words; k++) {
        u64 packed = 0;
        size_t low = k * g->per_word,
               high = low + g->per_word < (size_t)g->length ? low + g->per_word : (size_t)g->length;
        for (size_t j = low; j < high; j++)
            packed = (packed << g->bits) | gram[j];
        key[k] = packed; /* the last word holds fewer tiles: every row alike, so words compare as the grams */
    }
}

/* The rows by key: stable radix sorts, the last word first. `order` (count records) holds the result. */
static int
sort_rows(const Alphagrams *g, SigNode *order)
{
    u64 *keys = malloc(((size_t)g->count * g->words + 1) * sizeof(u64));
    SigNode *scratch = malloc(((size_t)g->count + 1) * sizeof(SigNode));
    unsigned char *gram = malloc((size_t)g->length + 1);
    if (!keys || !scratch || !gram) {
        free(keys);
        free(scratch);
        free(gram);
        return -1;
    }
    for (Py_ssize_t i = 0; i < g->count; i++) {
        order[i].node = i;
        key_of_row(g, i, gram, keys + (size_t)i * g->words);
    }
    for (size_t k = g->words; k-- > 0;) {
        for (Py_ssize_t i = 0; i < g->count; i++)
            order[i].sig = keys[(size_t)order[i].node * g->words + k];
        lx_radix_sort(order, scratch, (size_t)g->count);
    }
    free(keys);
    free(scratch);
    free(gram);
    return 0;
}

static PyObject *
alphagram_order(PyObject *self, PyObject *args)
{
    Py_buffer rows = {0};
    Alphagrams g = {0};
    if (!PyArg_ParseTuple(args, "y*nn", &rows, &g.count, &g.length))
        return NULL;
    PyObject *result = NULL;
    SigNode *order = NULL;
    uint32_t *numbers = NULL;
    if (g.count < 0 || g.length < 1 || g.count >= 0xFFFFFFFFLL || g.count > rows.len / g.length
        || g.count * g.length != rows.len) {
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes");
        goto done;
    }
    g.rows = rows.buf;
    plan_keys(&g);
    if (g.count && g.words > (size_t)-1 / 8 / (size_t)g.count) {
        PyErr_NoMemory();
        goto done;
    }
    order = malloc(((size_t)g.count + 1) * sizeof(SigNode));
    numbers = malloc(((size_t)g.count + 1) * sizeof(uint32_t));
    if (!order || !numbers || sort_rows(&g, order) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < g.count; i++)
        numbers[i] = (uint32_t)order[i].node;
    result = uint32_bytes(numbers, (size_t)g.count);
done:
    PyBuffer_Release(&rows);
    free(order);
    free(numbers);
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
