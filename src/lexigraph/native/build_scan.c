/*
 * build_scan.c: scan_ascii, a plain ASCII word list read in one scan, from the source's bytes to
 * tile codes: the twin of lexigraph/compiler/normalize.py's scan_ascii.
 *
 * Why C: most word lists are plain ASCII, one word a line, and reading them is the first pass of
 * every build; one scan here replaces several NumPy passes over the whole text. Anything else (other
 * bytes, capitalised words, letters outside the alphabet) answers None, and the general loop of
 * normalize decides and words the errors.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"

/* 1: lower-case ASCII letter, 2: upper-case, 0: anything else (filled by lx_add_build_scan) */
static unsigned char letter_class[256];

static void
init_letters(void)
{
    for (int c = 'a'; c <= 'z'; c++)
        letter_class[c] = 1;
    for (int c = 'A'; c <= 'Z'; c++)
        letter_class[c] = 2;
}

/*
 * scan_ascii(data, table, min_len, max_len, char_cap)
 *   -> (codes, lens, upper, lines, letters, short, long, ordered) | None
 *
 * data: the bytes of a list, one word a line (LF, CRLF or a lone CR ends a
 * line, as str.splitlines). None unless every byte is an ASCII letter or a
 * line end and no word mixes upper- and lower-case letters: the general loop
 * then decides. Blank lines are skipped (not counted). A word longer than
 * char_cap is counted as too long before anything else; of the others, the
 * letters present are gathered (bit c - 'a' of `letters`), and a word shorter
 * than min_len or longer than max_len is counted and left out. The words kept
 * come back as tile codes (codes: the words one after another; lens: one byte
 * each; upper: 1 for a word written in upper case), in input order, coded by
 * `table` (256 bytes, lower- and upper-case letter -> code; a letter it codes
 * 0 gives None) or, with table None, by the rank of the letter among the
 * letters present (1 for the first), as Alphabet.from_letters codes them.
 * `lines` counts the lines as str.splitlines does; `ordered` says whether the
 * kept words are in strictly increasing code order.
 */
static PyObject *
scan_ascii(PyObject *self, PyObject *args)
{
    Py_buffer db = {0};
    PyObject *table_obj;
    Py_ssize_t min_len, max_len, char_cap;
    PyObject *result = NULL;
    PyObject *codes_obj = NULL; /* the codes are written straight into the bytes object handed back */
    unsigned char *codes = NULL, *lens = NULL, *upper = NULL;
    if (!PyArg_ParseTuple(args, "y*Onnn", &db, &table_obj, &min_len, &max_len, &char_cap))
        return NULL;
    const unsigned char *table = NULL;
    if (table_obj != Py_None) {
        if (!PyBytes_Check(table_obj) || PyBytes_GET_SIZE(table_obj) != 256) {
            PyErr_SetString(PyExc_ValueError, "table must be None or 256 bytes");
            goto done;
        }
        table = (const unsigned char *)PyBytes_AS_STRING(table_obj);
    }
    if (min_len < 1 || max_len < min_len || max_len > LX_MAX_WORD_LENGTH || char_cap < max_len) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= min_len <= max_len <= 255 and max_len <= char_cap");
        goto done;
    }
    const unsigned char *d = db.buf;
    Py_ssize_t n = db.len;
    /* every kept word takes at least one byte of data, and its bytes at most those it was read from */
    codes_obj = PyBytes_FromStringAndSize(NULL, n);
    if (!codes_obj)
        goto done;
    codes = (unsigned char *)PyBytes_AS_STRING(codes_obj);
    lens = malloc((size_t)n / 2 + 2);
    upper = malloc((size_t)n / 2 + 2);
    if (!codes || !lens || !upper) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t pos = 0, o = 0, nw = 0, lines = 0, n_short = 0, n_long = 0, words = 0;
    uint32_t present = 0;
    while (pos < n) {
        Py_ssize_t start = pos, ups = 0;
        uint32_t seen = 0;
        unsigned char *w = codes + o;
        while (pos < n) {
            unsigned char c = d[pos], k = letter_class[c];
            if (!k)
                break;
            ups += k >> 1;
            c |= 0x20;
            seen |= 1u << (c - 'a');
            w[pos - start] = c; /* codes + o + (pos - start) <= codes + pos: inside the buffer */
            pos++;
        }
        Py_ssize_t L = pos - start;
        if (pos < n) { /* a line end, or a byte the general loop must see */
            unsigned char c = d[pos];
            if (c == '\n')
                pos++;
            else if (c == '\r') {
                pos++;
                if (pos < n && d[pos] == '\n')
                    pos++;
            } else
                goto general;
        }
        lines++;
        if (!L)
            continue;
        if (ups && ups != L)
            goto general; /* capitalised: the case policy decides */
        words++;
        if (L > char_cap) {
            n_long++;
            continue;
        }
        present |= seen;
        if (L < min_len)
            n_short++;
        else if (L > max_len)
            n_long++;
        else {
            o += L;
            lens[nw] = (unsigned char)L;
            upper[nw] = ups != 0;
            nw++;
        }
    }
    if (!words || !present)
        goto general; /* nothing to build from: the general loop words the error */
    unsigned char map[32] = {0};
    if (table) {
        for (int c = 0; c < 26; c++)
            if (present >> c & 1) {
                map[c + 1] = table['a' + c];
                if (!map[c + 1] || table['A' + c] != map[c + 1])
                    goto general; /* a letter outside the alphabet: the loop reports it */
            }
    } else {
        unsigned char rank = 0;
        for (int c = 0; c < 26; c++)
            if (present >> c & 1)
                map[c + 1] = ++rank;
    }
    int ordered = 1;
    {
        Py_ssize_t off = 0, prev = -1, prev_len = 0;
        for (Py_ssize_t i = 0; i < nw; i++) {
            Py_ssize_t L = lens[i];
            unsigned char *w = codes + off;
            for (Py_ssize_t j = 0; j < L; j++)
                w[j] = map[w[j] & 31];
            if (ordered && prev >= 0) {
                const unsigned char *pw = codes + prev;
                Py_ssize_t m = prev_len < L ? prev_len : L, j = 0;
                while (j < m && pw[j] == w[j])
                    j++;
                if (j < m ? pw[j] > w[j] : prev_len >= L)
                    ordered = 0;
            }
            prev = off;
            prev_len = L;
            off += L;
        }
    }
    if (_PyBytes_Resize(&codes_obj, o) < 0) /* shrinking: frees codes_obj on failure */
        goto done;
    result = Py_BuildValue("(Ny#y#nknnO)", codes_obj, (const char *)lens, nw, (const char *)upper, nw, lines,
                           (unsigned long)present, n_short, n_long, ordered ? Py_True : Py_False);
    codes_obj = NULL; /* "N": the tuple holds it now (or it was released with the failure) */
    goto done;
general:
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&db);
    Py_XDECREF(codes_obj);
    free(lens);
    free(upper);
    return result;
}

static PyMethodDef build_scan_methods[] = {
    {"scan_ascii", scan_ascii, METH_VARARGS,
     "scan_ascii(data, table, min_len, max_len, char_cap) -> (codes, lens, upper, lines, letters, short, long, "
     "ordered) | None\n\nA plain ASCII list's words as tile codes, in one scan (see normalize.scan_ascii)."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_build_scan(PyObject *module)
{
    init_letters();
    return PyModule_AddFunctions(module, build_scan_methods);
}
