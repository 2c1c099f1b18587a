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
/* One scan: the data, the words kept (their codes written over the bytes they were read from), the counts. */
typedef struct {
    const unsigned char *data;
    Py_ssize_t size;
    Py_ssize_t min_len, max_len, char_cap;
    unsigned char *codes, *lens, *upper;
    Py_ssize_t kept_bytes, kept, lines, n_short, n_long, words;
    uint32_t present; /* the letters met (bit c for 'a' + c) */
} Scan;

/* One line's end at s->data[*pos]: 1 when the line ended there (its end passed), 0 when a byte the general loop
 * must see stands there. */
static int
end_of_line(const Scan *s, Py_ssize_t *pos)
{
    if (*pos >= s->size)
        return 1;
    unsigned char c = s->data[*pos];
    if (c == '\n') {
        (*pos)++;
    } else if (c == '\r') {
        (*pos)++;
        if (*pos < s->size && s->data[*pos] == '\n')
            (*pos)++;
    } else {
        return 0;
    }
    return 1;
}

/* A word of `length` letters (`capitals` of them upper case) read: counted, and kept when its length is in range. */
static void
count_word(Scan *s, Py_ssize_t length, Py_ssize_t capitals, uint32_t seen)
{
    s->words++;
    if (length > s->char_cap) {
        s->n_long++;
        return;
    }
    s->present |= seen;
    if (length < s->min_len) {
        s->n_short++;
    } else if (length > s->max_len) {
        s->n_long++;
    } else {
        s->kept_bytes += length;
        s->lens[s->kept] = (unsigned char)length;
        s->upper[s->kept] = capitals != 0;
        s->kept++;
    }
}

/* Every line, letters lower-cased in place of the kept words: 0, or 1 when the general loop must decide (a byte
 * that is no ASCII letter or line end, a capitalised word). */
static int
scan_lines(Scan *s)
{
    Py_ssize_t pos = 0;
    while (pos < s->size) {
        Py_ssize_t start = pos, capitals = 0;
        uint32_t seen = 0;
        unsigned char *word = s->codes + s->kept_bytes;
        while (pos < s->size) {
            unsigned char c = s->data[pos], k = letter_class[c];
            if (!k)
                break;
            capitals += k >> 1;
            c |= 0x20;
            seen |= 1u << (c - 'a');
            word[pos - start] = c; /* codes + kept_bytes + (pos - start) <= codes + pos: inside the buffer */
            pos++;
        }
        Py_ssize_t length = pos - start;
        if (!end_of_line(s, &pos))
            return 1;
        s->lines++;
        if (!length)
            continue;
        if (capitals && capitals != length)
            return 1; /* capitalised: the case policy decides */
        count_word(s, length, capitals, seen);
    }
    return 0;
}

/* Each letter met to its code (map[c + 1] for 'a' + c): by `table`, else by rank among the letters met. 0, or 1
 * when a letter lies outside the table's alphabet (the general loop reports it). */
static int
letter_codes(uint32_t present, const unsigned char *table, unsigned char *map)
{
    unsigned char rank = 0;
    for (int c = 0; c < 26; c++) {
        if (!(present >> c & 1))
            continue;
        if (!table) {
            map[c + 1] = ++rank;
        } else {
            map[c + 1] = table['a' + c];
            if (!map[c + 1] || table['A' + c] != map[c + 1])
                return 1;
        }
    }
    return 0;
}

/* The kept words coded by `map`; whether they are in strictly increasing code order. */
static int
code_words(Scan *s, const unsigned char *map)
{
    int ordered = 1;
    Py_ssize_t offset = 0, previous = -1, previous_length = 0;
    for (Py_ssize_t i = 0; i < s->kept; i++) {
        Py_ssize_t length = s->lens[i];
        unsigned char *word = s->codes + offset;
        for (Py_ssize_t j = 0; j < length; j++)
            word[j] = map[word[j] & 31];
        if (ordered && previous >= 0) {
            const unsigned char *before = s->codes + previous;
            Py_ssize_t shorter = previous_length < length ? previous_length : length, j = 0;
            while (j < shorter && before[j] == word[j])
                j++;
            if (j < shorter ? before[j] > word[j] : previous_length >= length)
                ordered = 0;
        }
        previous = offset;
        previous_length = length;
        offset += length;
    }
    return ordered;
}

static PyObject *
scan_ascii(PyObject *self, PyObject *args)
{
    Py_buffer data = {0};
    PyObject *table_object, *result = NULL, *codes = NULL; /* the codes: straight into the bytes handed back */
    Scan s = {0};
    if (!PyArg_ParseTuple(args, "y*Onnn", &data, &table_object, &s.min_len, &s.max_len, &s.char_cap))
        return NULL;
    const unsigned char *table = NULL;
    if (table_object != Py_None && (!PyBytes_Check(table_object) || PyBytes_GET_SIZE(table_object) != 256)) {
        PyErr_SetString(PyExc_ValueError, "table must be None or 256 bytes");
        goto done;
    }
    if (table_object != Py_None)
        table = (const unsigned char *)PyBytes_AS_STRING(table_object);
    if (s.min_len < 1 || s.max_len < s.min_len || s.max_len > LX_MAX_WORD_LENGTH || s.char_cap < s.max_len) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= min_len <= max_len <= 255 and max_len <= char_cap");
        goto done;
    }
    s.data = data.buf;
    s.size = data.len;
    /* every kept word takes at least one byte of data, and its bytes at most those it was read from */
    if ((codes = PyBytes_FromStringAndSize(NULL, s.size)) == NULL)
        goto done;
    s.codes = (unsigned char *)PyBytes_AS_STRING(codes);
    s.lens = malloc((size_t)s.size / 2 + 2);
    s.upper = malloc((size_t)s.size / 2 + 2);
    if (!s.lens || !s.upper) {
        PyErr_NoMemory();
        goto done;
    }
    unsigned char map[32] = {0};
    /* nothing to build from, or anything unusual: the general loop words it (None) */
    if (scan_lines(&s) || !s.words || !s.present || letter_codes(s.present, table, map)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int ordered = code_words(&s, map);
    if (_PyBytes_Resize(&codes, s.kept_bytes) < 0) /* shrinking: frees codes on failure */
        goto done;
    result = Py_BuildValue("(Ny#y#nknnO)", codes, (const char *)s.lens, s.kept, (const char *)s.upper, s.kept, s.lines,
                           (unsigned long)s.present, s.n_short, s.n_long, ordered ? Py_True : Py_False);
    codes = NULL; /* "N": the tuple holds it now (or it was released with the failure) */
done:
    PyBuffer_Release(&data);
    Py_XDECREF(codes);
    free(s.lens);
    free(s.upper);
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
