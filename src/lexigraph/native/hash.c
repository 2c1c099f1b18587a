/*
 * hash.c: the CRC-32 tables behind hash.h, and home_slot(), the hash's slot formula as Python sees it.
 *
 * Why a file of its own: the tables are the one copy the probe and the builder share (hash.h
 * explains why they must share it), and home_slot() lets tests hold the C formula to
 * (zlib.crc32(codes) * home) >> 32 without building a lexicon.
 */
#include "module.h"
#include "hash.h"

uint32_t lx_crc_tables[4][256];

void
lx_crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        lx_crc_tables[0][i] = c;
    }
    for (int k = 1; k < 4; k++)
        for (uint32_t i = 0; i < 256; i++)
            lx_crc_tables[k][i] = (lx_crc_tables[k - 1][i] >> 8) ^ lx_crc_tables[0][lx_crc_tables[k - 1][i] & 0xFF];
}

/* home_slot(codes, home) -> (zlib.crc32(codes) * home) >> 32, for 0 <= home < 2**32. */
static PyObject *
home_slot(PyObject *Py_UNUSED(module), PyObject *args)
{
    Py_buffer codes;
    long long home;
    if (!PyArg_ParseTuple(args, "y*L", &codes, &home))
        return NULL;
    PyObject *result = NULL;
    if (home < 0 || home > 0xFFFFFFFFLL)
        PyErr_SetString(PyExc_ValueError, "home must be from 0 to 2**32 - 1");
    else
        result = PyLong_FromUnsignedLongLong(
            lx_home_slot((const unsigned char *)codes.buf, (size_t)codes.len, (uint64_t)home));
    PyBuffer_Release(&codes);
    return result;
}

static PyMethodDef hash_methods[] = {
    {"home_slot", home_slot, METH_VARARGS,
     "home_slot(codes, home) -> int\n\n"
     "The home slot of the tile codes in a hash table of `home` home slots: (zlib.crc32(codes) * home) >> 32, "
     "as the builder and the probe compute it."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_hash(PyObject *module)
{
    return PyModule_AddFunctions(module, hash_methods);
}
