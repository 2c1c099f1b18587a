/* _fill: the hot loop of crossword autofill.
 *
 * filter_rows(rows, width, idx, masks, check, out, masks_out) -> kept
 *
 *   rows       C-contiguous uint8 buffer of a length bucket: count rows of `width` tile codes
 *   idx        int32 buffer: the candidate rows (indexes into `rows`), ascending
 *   masks      uint64 buffer of `width` entries: the tiles allowed in each position (bit = tile code)
 *   check      uint8 buffer: the positions to test (the others are known to pass)
 *   out        writable int32 buffer of at least len(idx) entries: the kept rows, in order
 *   masks_out  writable uint64 buffer of `width` entries: the tiles the kept rows put in each position
 *
 * Returns the number of kept rows. One pass over the candidates; the pure-Python twin is
 * lexigraph.autofill._filter_py, which the tests hold to the same answers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static int get(PyObject *obj, Py_buffer *view, int writable, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous%s buffer", what, writable ? " writable" : "");
        return -1;
    }
    return 0;
}

static PyObject *filter_rows(PyObject *self, PyObject *args) {
    PyObject *o_rows, *o_idx, *o_masks, *o_check, *o_out, *o_mout;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "OnOOOOO", &o_rows, &width, &o_idx, &o_masks, &o_check, &o_out, &o_mout)) return NULL;
    if (width < 1 || width > 255) {
        PyErr_SetString(PyExc_ValueError, "width must be from 1 to 255");
        return NULL;
    }
    Py_buffer rows, idx, masks, check, out, mout;
    if (get(o_rows, &rows, 0, "rows") < 0) return NULL;
    if (get(o_idx, &idx, 0, "idx") < 0) { PyBuffer_Release(&rows); return NULL; }
    if (get(o_masks, &masks, 0, "masks") < 0) { PyBuffer_Release(&rows); PyBuffer_Release(&idx); return NULL; }
    if (get(o_check, &check, 0, "check") < 0) {
        PyBuffer_Release(&rows); PyBuffer_Release(&idx); PyBuffer_Release(&masks); return NULL;
    }
    if (get(o_out, &out, 1, "out") < 0) {
        PyBuffer_Release(&rows); PyBuffer_Release(&idx); PyBuffer_Release(&masks); PyBuffer_Release(&check);
        return NULL;
    }
    if (get(o_mout, &mout, 1, "masks_out") < 0) {
        PyBuffer_Release(&rows); PyBuffer_Release(&idx); PyBuffer_Release(&masks); PyBuffer_Release(&check);
        PyBuffer_Release(&out);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t count = rows.len / width;
    Py_ssize_t n = idx.len / (Py_ssize_t)sizeof(int32_t);
    if (rows.len % width || idx.len % sizeof(int32_t) || masks.len != width * (Py_ssize_t)sizeof(uint64_t)
        || mout.len != width * (Py_ssize_t)sizeof(uint64_t) || out.len < n * (Py_ssize_t)sizeof(int32_t)
        || check.len > width) {
        PyErr_SetString(PyExc_ValueError, "filter_rows: buffer sizes do not agree");
        goto done;
    }
    {
        const unsigned char *r = (const unsigned char *)rows.buf;
        const int32_t *in = (const int32_t *)idx.buf;
        uint64_t m[255], seen[255];
        unsigned char pos[255];
        Py_ssize_t n_check = check.len;
        memcpy(m, masks.buf, width * sizeof(uint64_t));
        memset(seen, 0, sizeof(seen));
        for (Py_ssize_t j = 0; j < n_check; j++) {
            pos[j] = ((const unsigned char *)check.buf)[j];
            if (pos[j] >= width) {
                PyErr_SetString(PyExc_ValueError, "filter_rows: a position to check lies outside the width");
                goto done;
            }
        }
        int32_t *o = (int32_t *)out.buf;
        Py_ssize_t kept = 0, unsat = width;
        int bad = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) {
            int32_t row = in[i];
            if (row < 0 || row >= count) { bad = 1; break; }
            const unsigned char *w = r + (Py_ssize_t)row * width;
            Py_ssize_t j = 0;
            for (; j < n_check; j++) {
                unsigned c = w[pos[j]];
                if (c > 63 || !((m[pos[j]] >> c) & 1u)) break;
            }
            if (j < n_check) continue;
            o[kept++] = row;
            /* Once every position has seen every tile its mask allows, the used masks are final. */
            if (unsat) {
                unsat = 0;
                for (j = 0; j < width; j++) {
                    seen[j] |= (uint64_t)1 << (w[j] & 63);
                    unsat += seen[j] != m[j];
                }
            }
        }
        Py_END_ALLOW_THREADS
        if (bad) {
            PyErr_SetString(PyExc_IndexError, "filter_rows: a candidate row lies outside the bucket");
            goto done;
        }
        memcpy(mout.buf, seen, width * sizeof(uint64_t));
        result = PyLong_FromSsize_t(kept);
    }
done:
    PyBuffer_Release(&rows); PyBuffer_Release(&idx); PyBuffer_Release(&masks); PyBuffer_Release(&check);
    PyBuffer_Release(&out); PyBuffer_Release(&mout);
    return result;
}

static PyMethodDef methods[] = {
    {"filter_rows", filter_rows, METH_VARARGS,
     "filter_rows(rows, width, idx, masks, check, out, masks_out) -> kept: keep the candidate rows whose tile in "
     "each position of check is allowed by that position's mask; write them to out and the tiles they use per "
     "position to masks_out."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fill", "The hot loop of crossword autofill.", -1, methods};

PyMODINIT_FUNC PyInit__fill(void) { return PyModule_Create(&module); }
