/*
 * encode.c: a word (str) to its tile codes in C, and id_of_word, a word's id in one call.
 *
 * Why: for lexicons whose tiles are single ASCII letters (English and most word-game lists) a word
 * is its bytes mapped through a 256-entry table, with no Unicode work; alphabets with multi-letter
 * tiles (Catalan's NY, L·L) are split greedily, longest tile first, as Alphabet.encode splits them.
 * Anything this cannot settle (a closed lexicon, text beyond Latin-1, folds that make several
 * characters) is LX_UNDECIDED: Python encodes it (Alphabet.encode) and answers.
 */
#include "probe.h"

/* Longest word the fast path encodes on the stack; longer ones go to Python. */
#define MAX_FAST 256

/* Greedy longest-match split of Latin-1 text into tiles, as Alphabet.encode splits it. */
static Py_ssize_t
encode_multi(const Probe *self, const unsigned char *text, Py_ssize_t n, unsigned char *key, Py_ssize_t cap)
{
    unsigned char prepared[256];
    if (n > 256)
        return LX_TOO_LONG;
    for (Py_ssize_t i = 0; i < n; i++) {
        prepared[i] = self->prep[text[i]];
        if (!prepared[i])
            return -1;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (k >= cap)
            return LX_TOO_LONG;
        int matched = 0;
        for (int m = 0; m < self->n_multi; m++) {
            Py_ssize_t len = self->multi_len[m];
            if (i + len <= n && memcmp(prepared + i, self->multi_key[m], (size_t)len) == 0) {
                key[k++] = self->multi_code[m];
                i += len;
                matched = 1;
                break;
            }
        }
        if (!matched) {
            unsigned char c = self->codes[prepared[i++]];
            if (!c)
                return -1;
            key[k++] = c;
        }
    }
    if (k > self->max_length || !self->tables[k].width)
        return -1;
    return k;
}

/* Tile codes of the str `word` into key[0..cap): the word's length; -1 when
 * it cannot be a word; LX_UNDECIDED when Python must decide (a closed lexicon,
 * where Python raises the error; text beyond Latin-1, which normalisation
 * may map onto tiles; an alphabet whose words do not encode character by
 * character); LX_TOO_LONG when it needs more than `cap` codes. */
Py_ssize_t
lx_encode_word(const Probe *self, PyObject *word, unsigned char *key, Py_ssize_t cap)
{
    if (!self->attached || !self->encodes || PyUnicode_KIND(word) != PyUnicode_1BYTE_KIND)
        return LX_UNDECIDED;
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    const unsigned char *text = PyUnicode_1BYTE_DATA(word);
    if (self->encodes == 2)
        return encode_multi(self, text, n, key, cap);
    if (n > self->max_length || !self->tables[n].width)
        return -1;
    if (n > cap)
        return LX_TOO_LONG;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = self->codes[text[i]];
        if (!c)
            return self->defer[text[i]] ? LX_UNDECIDED : -1;
        key[i] = c;
    }
    return n;
}

/* Word id of the str `word`, -1 when it is not a word, LX_UNDECIDED when Python must decide. */
Py_ssize_t
lx_probe_word(const Probe *self, PyObject *word)
{
    unsigned char key[MAX_FAST];
    Py_ssize_t n = lx_encode_word(self, word, key, MAX_FAST);
    if (n == LX_TOO_LONG)
        return LX_UNDECIDED;
    return n < 0 ? n : lx_probe_codes(self, key, n);
}

/* id_of_word(word: str) -> word id, -1 when not a word, -2 when Python must encode it. */
PyObject *
lx_probe_id_of_word(Probe *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return PyLong_FromLong(-1);
    return PyLong_FromSsize_t(lx_probe_word(self, word));
}
