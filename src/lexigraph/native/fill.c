/* fill.c: filter_rows, the pass that filters a slot's starting candidates (the FillState type that
 * keeps them arc consistent during a fill is in fill_state.c).
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

static int
get(PyObject *obj, Py_buffer *view, int writable, const char *what)
{
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
            if (c > LX_FILL_MAX_TILE_CODES || !((m[pos[j]] >> c) & 1u))
                break;
        }
        if (j < n_check)
            continue;
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

/* The masks, one int per position: 0, or -1 with an error set. */
static int
read_masks(PyObject *masks, Py_ssize_t width, uint64_t *out)
{
    PyObject *fast = PySequence_Fast(masks, "masks must be a sequence of integers");
    if (fast == NULL)
        return -1;
    int status = 0;
    if (PySequence_Fast_GET_SIZE(fast) != width) {
        PyErr_SetString(PyExc_ValueError, "filter_rows: one mask per position is needed");
        status = -1;
    }
    for (Py_ssize_t j = 0; status == 0 && j < width; j++) {
        out[j] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, j));
        if (out[j] == (uint64_t)-1 && PyErr_Occurred())
            status = -1;
    }
    Py_DECREF(fast);
    return status;
}

/* The tiles each position's kept rows use, as a tuple of ints. */
static PyObject *
used_tiles(const uint64_t *seen, Py_ssize_t width)
{
    PyObject *used = PyTuple_New(width);
    for (Py_ssize_t j = 0; used != NULL && j < width; j++) {
        PyObject *v = PyLong_FromUnsignedLongLong(seen[j]);
        if (v == NULL)
            Py_CLEAR(used);
        else
            PyTuple_SET_ITEM(used, j, v);
    }
    return used;
}

/* The buffers' sizes agree and the positions to check lie inside the width (copied into `positions`); room for
 * `n` kept rows in the scratch. */
static int
check_buffers(const Py_buffer *rows, const Py_buffer *idx, const Py_buffer *check, Py_ssize_t width,
              unsigned char *positions)
{
    if (rows->len % width || idx->len % sizeof(int32_t) || check->len > width) {
        PyErr_SetString(PyExc_ValueError, "filter_rows: buffer sizes do not agree");
        return -1;
    }
    for (Py_ssize_t j = 0; j < check->len; j++) {
        positions[j] = ((const unsigned char *)check->buf)[j];
        if (positions[j] >= width) {
            PyErr_SetString(PyExc_ValueError, "filter_rows: a position to check lies outside the width");
            return -1;
        }
    }
    Py_ssize_t n = idx->len / (Py_ssize_t)sizeof(int32_t);
    if (n > scratch_cap) {
        int32_t *grown = PyMem_Realloc(scratch, (size_t)n * sizeof(int32_t));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        scratch = grown;
        scratch_cap = n;
    }
    return 0;
}

/* The filter on checked buffers: (kept, used). */
static PyObject *
filter(const Py_buffer *rows, const Py_buffer *idx, Py_ssize_t width, const unsigned char *positions,
       Py_ssize_t n_check, const uint64_t *masks)
{
    uint64_t seen[LX_MAX_FILL_SLOT];
    memset(seen, 0, sizeof(seen));
    Py_ssize_t n = idx->len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t kept = keep_fitting((const unsigned char *)rows->buf, rows->len / width, width,
                                   (const int32_t *)idx->buf, n, positions, n_check, masks, seen, scratch);
    if (kept < 0) {
        PyErr_SetString(PyExc_IndexError, "filter_rows: a candidate row lies outside the bucket");
        return NULL;
    }
    PyObject *used = used_tiles(seen, width);
    PyObject *kept_rows =
        kept == n ? Py_NewRef(Py_None) : PyBytes_FromStringAndSize((const char *)scratch, kept * (Py_ssize_t)4);
    PyObject *result = used && kept_rows ? PyTuple_Pack(2, kept_rows, used) : NULL;
    Py_XDECREF(used);
    Py_XDECREF(kept_rows);
    return result;
}

static PyObject *
filter_rows(PyObject *self, PyObject *args)
{
    PyObject *o_rows, *o_idx, *o_masks, *o_check;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "OnOOO", &o_rows, &width, &o_idx, &o_masks, &o_check))
        return NULL;
    if (width < 1 || width > LX_MAX_FILL_SLOT) {
        PyErr_SetString(PyExc_ValueError, "width must be from 1 to 255");
        return NULL;
    }
    uint64_t masks[LX_MAX_FILL_SLOT];
    unsigned char positions[LX_MAX_FILL_SLOT];
    if (read_masks(o_masks, width, masks) < 0)
        return NULL;
    Py_buffer rows, idx, check;
    if (get(o_rows, &rows, 0, "rows") < 0)
        return NULL;
    if (get(o_idx, &idx, 0, "idx") < 0) {
        PyBuffer_Release(&rows);
        return NULL;
    }
    if (get(o_check, &check, 0, "check") < 0) {
        PyBuffer_Release(&rows);
        PyBuffer_Release(&idx);
        return NULL;
    }
    PyObject *result = NULL;
    if (check_buffers(&rows, &idx, &check, width, positions) == 0)
        result = filter(&rows, &idx, width, positions, check.len, masks);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&idx);
    PyBuffer_Release(&check);
    return result;
}

static PyMethodDef fill_methods[] = {
    {"filter_rows", filter_rows, METH_VARARGS,
     "filter_rows(rows, width, idx, masks, check) -> (kept, used): the candidate rows whose tile in each "
     "position of check its mask allows (bytes of int32, None when all pass), and the tiles they use per position."},
    {NULL, NULL, 0, NULL}};

int
lx_add_fill(PyObject *module)
{
    return PyModule_AddFunctions(module, fill_methods);
}
