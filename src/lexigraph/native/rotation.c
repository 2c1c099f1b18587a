/*
 * rotation.c: rotation orders, the index that lets a pattern start at any of its fixed cells.
 *
 * A bucket's rotation order at `start` lists its rows sorted by their first
 * LX_ROTATION_KEY_TILES tiles read from that start, wrapping round. A pattern whose fixed cells
 * sit late in the word (??ing) reads them first there, instead of walking the word graph through
 * every prefix its wildcards spell. Why built here, on first use: the file holds no such orders,
 * and a radix sort of packed keys builds one in a few passes. The NumPy twin is
 * lexigraph.engine.rotation (order, run_rows); pattern.c decides when to use them.
 */
#include "probe.h"

#include <stdlib.h>

/* The rotation order of bucket t (words of n tiles) at `start`: built on first use by an LSD radix
 * sort of the keys, one pass per key byte (stable, so ties stay in row order as NumPy's stable
 * argsort leaves them). Returns 0, or -1 when out of memory (no exception set). */
static int
rotation_order(LengthTable *t, Py_ssize_t n, Py_ssize_t start, const uint32_t **rows, const uint64_t **keys)
{
    if (t->rot_rows == NULL) {
        t->rot_rows = PyMem_Calloc((size_t)n, sizeof(uint32_t *));
        t->rot_keys = PyMem_Calloc((size_t)n, sizeof(uint64_t *));
        if (t->rot_rows == NULL || t->rot_keys == NULL) {
            PyMem_Free(t->rot_rows);
            PyMem_Free(t->rot_keys);
            t->rot_rows = NULL;
            t->rot_keys = NULL;
            return -1;
        }
    }
    if (t->rot_rows[start] == NULL) {
        size_t count = (size_t)t->count;
        uint64_t *k = PyMem_Malloc((count ? count : 1) * sizeof(uint64_t));
        uint64_t *k2 = PyMem_Malloc((count ? count : 1) * sizeof(uint64_t));
        uint32_t *r = PyMem_Malloc((count ? count : 1) * sizeof(uint32_t));
        uint32_t *r2 = PyMem_Malloc((count ? count : 1) * sizeof(uint32_t));
        if (k == NULL || k2 == NULL || r == NULL || r2 == NULL) {
            PyMem_Free(k);
            PyMem_Free(k2);
            PyMem_Free(r);
            PyMem_Free(r2);
            return -1;
        }
        Py_ssize_t width = n < LX_ROTATION_KEY_TILES ? n : LX_ROTATION_KEY_TILES;
        for (size_t i = 0; i < count; i++) {
            const unsigned char *row = t->rows + i * (size_t)n;
            uint64_t key = 0;
            for (Py_ssize_t j = 0; j < width; j++)
                key |= (uint64_t)row[(start + j) % n] << (8 * (LX_ROTATION_KEY_TILES - 1 - j));
            k[i] = key;
            r[i] = (uint32_t)i;
        }
        for (int byte = LX_ROTATION_KEY_TILES - width; byte < LX_ROTATION_KEY_TILES; byte++) {
            size_t counts[256] = {0};
            int shift = 8 * byte;
            for (size_t i = 0; i < count; i++)
                counts[(k[i] >> shift) & 0xff]++;
            if (!count || counts[(k[0] >> shift) & 0xff] == count)
                continue; /* every key has the same byte here: the pass would change nothing */
            size_t at = 0;
            for (int b = 0; b < 256; b++) {
                size_t c = counts[b];
                counts[b] = at;
                at += c;
            }
            for (size_t i = 0; i < count; i++) {
                size_t to = counts[(k[i] >> shift) & 0xff]++;
                k2[to] = k[i];
                r2[to] = r[i];
            }
            uint64_t *tk = k;
            k = k2;
            k2 = tk;
            uint32_t *tr = r;
            r = r2;
            r2 = tr;
        }
        PyMem_Free(k2);
        PyMem_Free(r2);
        t->rot_rows[start] = r;
        t->rot_keys[start] = k;
    }
    *rows = t->rot_rows[start];
    *keys = t->rot_keys[start];
    return 0;
}

static int
compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Rotation keys are sorted, so between lo and hi, where keys agree on their bytes above `depth`, the
 * byte at depth is sorted too: the first key whose byte there exceeds `tile`. */
static size_t
byte_above(const uint64_t *keys, size_t lo, size_t hi, int depth, unsigned tile)
{
    int shift = 8 * (LX_ROTATION_KEY_TILES - 1 - depth);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (((keys[mid] >> shift) & 0xff) <= tile)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Narrow lo..hi (keys that agree above `depth`) to the keys whose byte at depth is `tile`. */
static void
narrow(const uint64_t *keys, size_t *lo, size_t *hi, int depth, unsigned tile)
{
    size_t first = tile ? byte_above(keys, *lo, *hi, depth, tile - 1) : *lo;
    *hi = byte_above(keys, first, *hi, depth, tile);
    *lo = first;
}

typedef struct {
    const uint64_t *keys;
    const uint32_t *rows;
    const int *want; /* per key byte: the tile a fixed cell asks for, or -1 */
    int stop;        /* key bytes to descend: up to the last fixed cell of the window */
    uint32_t *found;
    size_t n_found;
} RotationWalk;

/* Descend the sorted keys like a trie: a fixed cell narrows the range to its tile, a wildcard visits
 * each tile present (one binary search per tile); ranges that reach `stop` hand their rows over. */
static void
rotation_descend(RotationWalk *w, size_t lo, size_t hi, int depth)
{
    if (depth == w->stop) {
        for (size_t i = lo; i < hi; i++)
            w->found[w->n_found++] = w->rows[i];
        return;
    }
    int shift = 8 * (LX_ROTATION_KEY_TILES - 1 - depth);
    if (w->want[depth] >= 0) {
        narrow(w->keys, &lo, &hi, depth, (unsigned)w->want[depth]);
        if (lo < hi)
            rotation_descend(w, lo, hi, depth + 1);
        return;
    }
    while (lo < hi) {
        size_t end = byte_above(w->keys, lo, hi, depth, (unsigned)((w->keys[lo] >> shift) & 0xff));
        rotation_descend(w, lo, end, depth + 1);
        lo = end;
    }
}

/* The rows of bucket t (n tiles) whose every fixed cell holds its tile, ascending, read through the
 * rotation order at `start` (a fixed cell). Returns how many into a new array *found, or -1 when out
 * of memory. */
Py_ssize_t
lx_rotation_rows(LengthTable *t, Py_ssize_t n, Py_ssize_t start, const int *fixed, const unsigned char *tiles,
                 uint32_t **found)
{
    const uint32_t *rows;
    const uint64_t *keys;
    if (rotation_order(t, n, start, &rows, &keys) < 0)
        return -1;
    Py_ssize_t width = n < LX_ROTATION_KEY_TILES ? n : LX_ROTATION_KEY_TILES;
    int want[LX_ROTATION_KEY_TILES], stop = 0;
    for (Py_ssize_t j = 0; j < width; j++) {
        Py_ssize_t cell = (start + j) % n;
        want[j] = fixed[cell] ? tiles[cell] : -1;
        if (fixed[cell])
            stop = (int)j + 1;
    }
    /* The start is a fixed cell: its tile's range bounds what the descent finds, and sizes the buffer
     * (not the whole bucket: a query allocates what its first tile leaves). */
    size_t lo = 0, hi = (size_t)t->count;
    int depth = 0;
    if (want[0] >= 0) {
        narrow(keys, &lo, &hi, 0, (unsigned)want[0]);
        depth = 1;
    }
    RotationWalk w = {keys, rows, want, stop, PyMem_Malloc((hi > lo ? hi - lo : 1) * sizeof(uint32_t)), 0};
    if (w.found == NULL)
        return -1;
    if (lo < hi)
        rotation_descend(&w, lo, hi, depth);
    Py_ssize_t m = 0;
    for (size_t i = 0; i < w.n_found; i++) {
        const unsigned char *row = t->rows + (size_t)w.found[i] * (size_t)n;
        Py_ssize_t j = 0;
        while (j < n && (!fixed[j] || row[j] == tiles[j]))
            j++;
        if (j == n)
            w.found[m++] = w.found[i];
    }
    qsort(w.found, (size_t)m, sizeof(uint32_t), compare_u32);
    *found = w.found;
    return m;
}
