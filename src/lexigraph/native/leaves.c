/* leaves.c: rack_leave_values, the leave table's hot loop (lexigraph.scrabble.leaves, lexigraph.scrabble.equity).
 *
 * rack_leave_values(keys, values, rack) -> bytes
 *   keys:   the table's leaves as sorted little-endian uint64 keys (see below), ascending, distinct;
 *   values: a little-endian float64 per key;
 *   rack:   how many of each tile code the rack holds (index 0: blanks), at most LX_MAX_MOVE_TILE_CODES codes.
 * returns a float64 per subset of the rack a play may use, indexed in mixed radix over the rack's codes
 * in ascending order (lexigraph.engine.interface.MoveRequest.leave_values): the value of the tiles kept,
 * 0 for a leave the table does not list.
 *
 * A leave's key: its tile codes sorted ascending, code i (from 0) in bits 6i..6i+5, and its length in
 * bits 60..63 (so "?" and "??" differ); leaves of up to LX_LEAVE_KEY_TILES tiles of codes below 64
 * have keys (lexigraph.scrabble.leaves.LeaveTable.packed makes them, and hands longer tables to the
 * Python twin, lexigraph.scrabble.equity.rack_values). A lookup is a binary search: a rack of seven
 * distinct tiles costs 128 searches, a few microseconds, where the Python twin spends a dictionary
 * lookup and a bytes join per subset. The same table and search serve a game loop in C.
 */
#include "module.h"

#include <stdint.h>
#include <string.h>

#include "limits.h"

/* Entry i of a little-endian uint64 / float64 array (read bytewise: the buffers need not be aligned). */
static inline uint64_t
key_at(const unsigned char *keys, size_t i)
{
    uint64_t k;
    memcpy(&k, keys + 8 * i, 8);
    return k;
}

/* The value of `key` in the table, or 0. */
static double
lookup(const unsigned char *keys, const unsigned char *values, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_at(keys, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n || key_at(keys, lo) != key)
        return 0.0;
    double v;
    memcpy(&v, values + 8 * lo, 8);
    return v;
}

static PyObject *
rack_leave_values(PyObject *self, PyObject *args)
{
    Py_buffer keys, values;
    const unsigned char *rack;
    Py_ssize_t n_codes;
    if (!PyArg_ParseTuple(args, "y*y*y#", &keys, &values, &rack, &n_codes))
        return NULL;
    PyObject *result = NULL;
    size_t n = (size_t)keys.len / 8;
    if (keys.len % 8 || values.len != keys.len || n_codes > LX_MAX_MOVE_TILE_CODES) {
        PyErr_SetString(PyExc_ValueError, "rack_leave_values: inconsistent arguments");
        goto done;
    }
    /* The rack's codes and counts, ascending: the digits of the index. */
    int codes[LX_MAX_MOVE_TILE_CODES], counts[LX_MAX_MOVE_TILE_CODES], digits[LX_MAX_MOVE_TILE_CODES];
    int distinct = 0, tiles = 0;
    long size = 1;
    for (Py_ssize_t t = 0; t < n_codes; t++) {
        if (!rack[t])
            continue;
        codes[distinct] = (int)t;
        counts[distinct] = rack[t];
        digits[distinct] = 0;
        distinct++;
        tiles += rack[t];
        size *= (long)rack[t] + 1;
        if (size > LX_MAX_RACK_SUBSETS) {
            PyErr_SetString(PyExc_ValueError, "rack_leave_values: the rack has too many subsets");
            goto done;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size * (Py_ssize_t)sizeof(double));
    if (!result)
        goto done;
    char *out = PyBytes_AS_STRING(result);
    const unsigned char *k = keys.buf, *v = values.buf;
    /* An odometer over the digits (tiles used of each code), the first code turning fastest: index order. */
    for (long index = 0; index < size; index++) {
        int kept = tiles;
        for (int d = 0; d < distinct; d++)
            kept -= digits[d];
        double value = 0.0;
        if (kept > 0 && kept <= LX_LEAVE_KEY_TILES) {
            uint64_t key = (uint64_t)kept << 60;
            int at = 0;
            for (int d = 0; d < distinct; d++)
                for (int j = digits[d]; j < counts[d]; j++)
                    key |= (uint64_t)codes[d] << (6 * at++);
            value = lookup(k, v, n, key);
        }
        memcpy(out + index * (long)sizeof(double), &value, sizeof value);
        for (int d = 0; d < distinct; d++) {
            if (++digits[d] <= counts[d])
                break;
            digits[d] = 0;
        }
    }
done:
    PyBuffer_Release(&keys);
    PyBuffer_Release(&values);
    return result;
}

static PyMethodDef leaves_methods[] = {
    {"rack_leave_values", rack_leave_values, METH_VARARGS,
     "rack_leave_values(keys, values, rack) -> bytes\n\nThe leave value of every subset of a rack a play may use, "
     "as float64s indexed in mixed radix over the rack's codes (see leaves.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_leaves(PyObject *module)
{
    return PyModule_AddFunctions(module, leaves_methods);
}
