/*
 * lexigraph._speedups: the exact-lookup hot paths in C.
 *
 * Optional: when this extension is missing, probe.py and wordgraph.py
 * answer the same queries in Python, only slower. A Probe looks up tile
 * codes in any lexicon (_probe_key, after Python has encoded the word). For
 * lexicons whose tiles are single ASCII letters (English and most
 * word-game lists) it also takes the words themselves: a word is then its
 * bytes mapped through a 256-entry table, with no Unicode work. Facade is
 * the base of lexigraph.Lexicon: its `in` slot hands the word to the
 * lexicon's Probe without entering a Python frame, and to the Python path
 * when the probe is not a C one or cannot decide. walk_codes follows a
 * prefix through the word graph (records as in arc.h).
 *
 * Why C: a lookup in Python costs a dozen bytecodes and six C calls, about
 * four times what a `set` costs; the lexicon file stays the only copy of
 * the words and nothing here allocates per word.
 *
 * Safety: every offset comes from a file that may be hostile. The tables
 * are checked against the buffer once, on attach; a probe never reads past
 * its table (it stops at the table's end even if the last slot were full)
 * and a slot pointing past its bucket counts as "not found".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arc.h"

/* Longest word the fast path encodes on the stack; longer ones go to Python. */
#define MAX_FAST 256

static uint32_t crc_table[256];

static void
crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

/* The same value as zlib.crc32(data). */
static uint32_t
crc32_of(const unsigned char *p, Py_ssize_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (Py_ssize_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

typedef struct {
    const unsigned char *slots; /* little-endian u16 or u32 row numbers plus one; 0 empty */
    Py_ssize_t n_slots;
    int width;                  /* 2 or 4 bytes per slot; 0: no words of this length */
    uint64_t home;              /* home slots: crc * home >> 32 */
    const unsigned char *rows;  /* the bucket: count rows of `length` codes */
    Py_ssize_t count;
    Py_ssize_t first_id;
    const unsigned char *order; /* alphagram order: rows by sorted tiles, `order_width`-byte row numbers */
    int order_width;
    uint64_t *keys;             /* words of up to 8 tiles: each entry's sorted tiles packed, built on first use */
    unsigned char *grams;       /* each entry's sorted tiles, in alphagram order, built on first use */
    int grams_state;            /* 0 not built, 1 built and sorted, -1 unusable (a forged index) */
    /* Rotation orders (see rotation.py), per start 1..length-1, built on first use: the rows sorted
     * by their first ROT_TILES tiles read from that start, wrapping round, and those sort keys. */
    uint32_t **rot_rows;
    uint64_t **rot_keys;
} LengthTable;

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int attached;
    int encodes;                /* the character table is valid: Latin-1 words are encoded here */
    unsigned char codes[256];   /* Latin-1 character -> tile code; 0: no word holds it */
    unsigned char defer[256];   /* characters whose folding makes several: the word goes to Python */
    unsigned char labels[256];  /* tile code -> its one-character ASCII label (when `encodes`) */
    /* Alphabets with multi-letter tiles (when `encodes` is 2): each Latin-1 character prepared
     * (lower case, folded) into prep[], then split greedily, longest tile first. */
    unsigned char prep[256];
    int n_multi;
    unsigned char multi_len[32];
    unsigned char multi_key[32][8];
    unsigned char multi_code[32];
    /* The word graph, attached once Python has checked it against the buckets (see walk.py). */
    const unsigned char *graph;
    size_t graph_arcs;
    size_t graph_root;
    unsigned graph_tiles;       /* the alphabet's size, when every tile has a one-letter ASCII label; else 0 */
    Py_ssize_t max_length;
    LengthTable *tables;        /* indexed by length, 0..max_length */
} Probe;

static void
probe_detach(Probe *self)
{
    if (self->attached) {
        PyBuffer_Release(&self->view);
        self->attached = 0;
    }
    for (Py_ssize_t n = 0; self->tables != NULL && n <= self->max_length; n++) {
        LengthTable *t = &self->tables[n];
        PyMem_Free(t->keys);
        PyMem_Free(t->grams);
        for (Py_ssize_t s = 0; t->rot_rows != NULL && s < n; s++) {
            PyMem_Free(t->rot_rows[s]);
            PyMem_Free(t->rot_keys[s]);
        }
        PyMem_Free(t->rot_rows);
        PyMem_Free(t->rot_keys);
    }
    PyMem_Free(self->tables);
    self->tables = NULL;
    self->max_length = -1;
    self->graph = NULL;
}

static void
Probe_dealloc(Probe *self)
{
    probe_detach(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Probe_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    Probe *self = (Probe *)type->tp_alloc(type, 0);
    if (self != NULL)
        self->max_length = -1;
    return (PyObject *)self;
}

static inline uint32_t
u32le(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t
slot_at(const LengthTable *t, Py_ssize_t i)
{
    const unsigned char *p = t->slots + i * t->width;
    if (t->width == 2)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    return u32le(p);
}

/* Word id of the tile codes `key`, or -1. */
static Py_ssize_t
probe_codes(const Probe *self, const unsigned char *key, Py_ssize_t length)
{
    if (length > self->max_length)
        return -1;
    const LengthTable *t = &self->tables[length];
    if (!t->width)
        return -1;
    Py_ssize_t i = (Py_ssize_t)(((uint64_t)crc32_of(key, length) * t->home) >> 32);
    for (; i < t->n_slots; i++) {
        uint32_t v = slot_at(t, i);
        if (!v || (Py_ssize_t)v > t->count)
            return -1;
        if (memcmp(t->rows + (Py_ssize_t)(v - 1) * length, key, (size_t)length) == 0)
            return t->first_id + (Py_ssize_t)v - 1;
    }
    return -1;
}

enum { UNDECIDED = -2, TOO_LONG = -3 };

/* Greedy longest-match split of Latin-1 text into tiles, as Alphabet.encode splits it. */
static Py_ssize_t
encode_multi(const Probe *self, const unsigned char *text, Py_ssize_t n, unsigned char *key, Py_ssize_t cap)
{
    unsigned char prepared[256];
    if (n > 256)
        return TOO_LONG;
    for (Py_ssize_t i = 0; i < n; i++) {
        prepared[i] = self->prep[text[i]];
        if (!prepared[i])
            return -1;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (k >= cap)
            return TOO_LONG;
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
 * it cannot be a word; UNDECIDED when Python must decide (a closed lexicon,
 * where Python raises the error; text beyond Latin-1, which normalisation
 * may map onto tiles; an alphabet whose words do not encode character by
 * character); TOO_LONG when it needs more than `cap` codes. */
static Py_ssize_t
encode_word(const Probe *self, PyObject *word, unsigned char *key, Py_ssize_t cap)
{
    if (!self->attached || !self->encodes || PyUnicode_KIND(word) != PyUnicode_1BYTE_KIND)
        return UNDECIDED;
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    const unsigned char *text = PyUnicode_1BYTE_DATA(word);
    if (self->encodes == 2)
        return encode_multi(self, text, n, key, cap);
    if (n > self->max_length || !self->tables[n].width)
        return -1;
    if (n > cap)
        return TOO_LONG;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = self->codes[text[i]];
        if (!c)
            return self->defer[text[i]] ? UNDECIDED : -1;
        key[i] = c;
    }
    return n;
}

/* Word id of the str `word`, -1 when it is not a word, UNDECIDED when Python must decide. */
static Py_ssize_t
probe_word(const Probe *self, PyObject *word)
{
    unsigned char key[MAX_FAST];
    Py_ssize_t n = encode_word(self, word, key, MAX_FAST);
    if (n == TOO_LONG)
        return UNDECIDED;
    return n < 0 ? n : probe_codes(self, key, n);
}


/* _probe_key(codes: bytes) -> word id, -1 when not a word, -2 when closed. */
static PyObject *
Probe_probe_key(Probe *self, PyObject *codes)
{
    char *key;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(codes, &key, &n) < 0)
        return NULL;
    if (!self->attached)
        return PyLong_FromLong(UNDECIDED);
    return PyLong_FromSsize_t(probe_codes(self, (const unsigned char *)key, n));
}

/* _probe_word(word: str) -> word id, -1 when not a word, -2 when Python must encode it. */
static PyObject *
Probe_probe_word(Probe *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return PyLong_FromLong(-1);
    return PyLong_FromSsize_t(probe_word(self, word));
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* Words looked up together in check_many, so that their memory accesses
 * overlap. 8 measured fastest on TWL06 (4 to 64 tried). */
#ifndef BATCH
#define BATCH 8
#endif
/* Longest word a batch holds; longer ones are looked up one by one. */
#define BATCH_KEY 32

/* Verdicts for items[0..m): 1 word, 0 not, 2 for Python to decide.
 *
 * A random lookup costs three cache misses (the string, its hash slot, its
 * row), each waiting on the one before. Taking words in batches and
 * prefetching each stage for the whole batch before the next stage reads
 * it lets the misses of different words overlap. */
static Py_ssize_t
probe_batch(const Probe *self, PyObject **items, Py_ssize_t m, unsigned char *dst)
{
    unsigned char keys[BATCH][BATCH_KEY];
    Py_ssize_t lens[BATCH], pos[BATCH];
    uint32_t vals[BATCH];
    Py_ssize_t undecided = 0;

    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *w = items[j];
        dst[j] = 0;
        lens[j] = -1;
        if (!PyUnicode_Check(w))
            continue;
        Py_ssize_t n = encode_word(self, w, keys[j], BATCH_KEY);
        if (n == TOO_LONG) { /* rare: looked up on its own */
            Py_ssize_t id = probe_word(self, w);
            dst[j] = id >= 0;
            n = id == UNDECIDED ? UNDECIDED : -1;
        }
        if (n == UNDECIDED) {
            dst[j] = 2;
            undecided++;
        }
        if (n < 0)
            continue;
        const LengthTable *t = &self->tables[n];
        lens[j] = n;
        pos[j] = (Py_ssize_t)(((uint64_t)crc32_of(keys[j], n) * t->home) >> 32);
        PREFETCH(t->slots + pos[j] * t->width);
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        if (lens[j] < 0)
            continue;
        const LengthTable *t = &self->tables[lens[j]];
        vals[j] = slot_at(t, pos[j]);
        if (vals[j] && (Py_ssize_t)vals[j] <= t->count)
            PREFETCH(t->rows + (Py_ssize_t)(vals[j] - 1) * lens[j]);
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        Py_ssize_t n = lens[j];
        if (n < 0)
            continue;
        const LengthTable *t = &self->tables[n];
        for (Py_ssize_t i = pos[j]; i < t->n_slots; i++) {
            uint32_t v = i == pos[j] ? vals[j] : slot_at(t, i);
            if (!v || (Py_ssize_t)v > t->count)
                break;
            if (memcmp(t->rows + (Py_ssize_t)(v - 1) * n, keys[j], (size_t)n) == 0) {
                dst[j] = 1;
                break;
            }
        }
    }
    return undecided;
}

/* _probe_many(words, out): out[i] = 1 if words[i] is a word, 0 if not, 2 if
 * Python must decide. Returns how many are undecided. */
static PyObject *
Probe_probe_many(Probe *self, PyObject *args)
{
    PyObject *words;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "Ow*", &words, &out))
        return NULL;
    PyObject *seq = PySequence_Fast(words, "words must be a sequence");
    if (seq == NULL) {
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (out.len < n) {
        PyBuffer_Release(&out);
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "the output holds %zd entries, not %zd", out.len, n);
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    unsigned char *dst = out.buf;
    Py_ssize_t undecided = 0;
    for (Py_ssize_t j = 0; j < n && j < BATCH; j++)
        PREFETCH(items[j]);
    for (Py_ssize_t start = 0; start < n; start += BATCH) {
        Py_ssize_t m = n - start < BATCH ? n - start : BATCH;
        /* The next batch's strings arrive while this batch is probed. */
        for (Py_ssize_t j = start + BATCH; j < n && j < start + 2 * BATCH; j++) {
            PREFETCH(items[j]);
            PREFETCH((const char *)items[j] + 64);
        }
        undecided += probe_batch(self, items + start, m, dst + start);
    }
    PyBuffer_Release(&out);
    Py_DECREF(seq);
    return PyLong_FromSsize_t(undecided);
}

static int
get_ssize(PyObject *tuple, Py_ssize_t k, Py_ssize_t *out)
{
    *out = PyLong_AsSsize_t(PyTuple_GET_ITEM(tuple, k));
    if (*out == -1 && PyErr_Occurred())
        return -1;
    if (*out < 0) {
        PyErr_SetString(PyExc_ValueError, "negative table field");
        return -1;
    }
    return 0;
}

/* _probe_attach(buffer, byte_table, tables, encodes): tables is a list of tuples
 * (length, slots_offset, n_slots, width, home, rows_offset, count, first_id);
 * encodes: whether byte_table maps ASCII words to tile codes. */
static PyObject *
Probe_probe_attach(Probe *self, PyObject *args)
{
    PyObject *buffer, *tables, *multi = NULL;
    Py_buffer table, prep = {0};
    int encodes;
    if (!PyArg_ParseTuple(args, "Oy*O!p|y*O!", &buffer, &table, &PyList_Type, &tables, &encodes, &prep, &PyList_Type,
                          &multi))
        return NULL;
    /* multi-letter tiles: (prepared key bytes, code) pairs, longest first */
    self->n_multi = 0;
    memset(self->prep, 0, 256);
    if (multi != NULL) {
        if (prep.len != 256 || PyList_GET_SIZE(multi) > 32) {
            PyBuffer_Release(&prep);
            PyBuffer_Release(&table);
            PyErr_SetString(PyExc_ValueError, "bad multi-letter program");
            return NULL;
        }
        memcpy(self->prep, prep.buf, 256);
        for (Py_ssize_t m = 0; m < PyList_GET_SIZE(multi); m++) {
            const char *k;
            Py_ssize_t klen;
            int code;
            PyObject *item = PyList_GET_ITEM(multi, m);
            if (!PyArg_ParseTuple(item, "y#i", &k, &klen, &code) || klen < 1 || klen > 8 || code < 1 || code > 255) {
                PyBuffer_Release(&prep);
                PyBuffer_Release(&table);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "bad multi-letter tile");
                return NULL;
            }
            memcpy(self->multi_key[m], k, (size_t)klen);
            self->multi_len[m] = (unsigned char)klen;
            self->multi_code[m] = (unsigned char)code;
            self->n_multi++;
        }
        encodes = encodes ? 2 : 0;
    }
    if (prep.obj != NULL)
        PyBuffer_Release(&prep);
    if (table.len != 256 && table.len != 512) {
        PyBuffer_Release(&table);
        PyErr_SetString(PyExc_ValueError, "the character table must hold 256 or 512 entries");
        return NULL;
    }
    probe_detach(self);
    memcpy(self->codes, table.buf, 256);
    memset(self->defer, 0, 256);
    if (table.len == 512)
        memcpy(self->defer, (const unsigned char *)table.buf + 256, 256);
    memset(self->labels, 0, 256);
    for (int ch = 'a'; ch <= 'z'; ch++)  /* labels are lower case: the table maps both cases */
        if (self->codes[ch])
            self->labels[self->codes[ch]] = (unsigned char)ch;
    for (int ch = 1; ch < 128; ch++)
        if (self->codes[ch] && !self->labels[self->codes[ch]] && !(ch >= 'A' && ch <= 'Z'))
            self->labels[self->codes[ch]] = (unsigned char)ch;
    PyBuffer_Release(&table);
    if (PyObject_GetBuffer(buffer, &self->view, PyBUF_SIMPLE) < 0)
        return NULL;
    self->attached = 1;
    self->encodes = encodes;
    Py_ssize_t n = PyList_GET_SIZE(tables), max_length = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *t = PyList_GET_ITEM(tables, k);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 10) {
            PyErr_SetString(PyExc_ValueError, "a table entry must be a 10-tuple");
            goto fail;
        }
        Py_ssize_t length;
        if (get_ssize(t, 0, &length) < 0)
            goto fail;
        if (length > max_length)
            max_length = length;
    }
    if (max_length > 255) {
        PyErr_SetString(PyExc_ValueError, "word length out of range");
        goto fail;
    }
    self->tables = PyMem_Calloc((size_t)max_length + 1, sizeof(LengthTable));
    if (self->tables == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    self->max_length = max_length;
    const unsigned char *base = self->view.buf;
    Py_ssize_t size = self->view.len;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *t = PyList_GET_ITEM(tables, k);
        Py_ssize_t f[10];
        for (int j = 0; j < 10; j++)
            if (get_ssize(t, j, &f[j]) < 0)
                goto fail;
        Py_ssize_t length = f[0], slots_off = f[1], n_slots = f[2], width = f[3];
        Py_ssize_t home = f[4], rows_off = f[5], count = f[6], first_id = f[7];
        Py_ssize_t order_off = f[8], order_width = f[9];
        if (length == 0 || (width != 2 && width != 4) || home < 1 || home >= n_slots
            || home > (Py_ssize_t)0xFFFFFFFF || slots_off > size || n_slots > (size - slots_off) / width
            || rows_off > size || (count && count > (size - rows_off) / length)
            || (order_width != 2 && order_width != 4) || order_off > size
            || (count && count > (size - order_off) / order_width)
            || self->tables[length].width) {
            PyErr_Format(PyExc_ValueError, "the hash table of length %zd does not fit the file", length);
            goto fail;
        }
        LengthTable *lt = &self->tables[length];
        lt->slots = base + slots_off;
        lt->n_slots = n_slots;
        lt->width = (int)width;
        lt->home = (uint64_t)home;
        lt->rows = base + rows_off;
        lt->count = count;
        lt->first_id = first_id;
        lt->order = base + order_off;
        lt->order_width = (int)order_width;
    }
    Py_RETURN_NONE;
fail:
    probe_detach(self);
    return NULL;
}

static PyObject *
Probe_probe_release(Probe *self, PyObject *Py_UNUSED(ignored))
{
    probe_detach(self);
    Py_RETURN_NONE;
}

/* walk_codes(arcs, root, key, list_limit=0) -> (next arc list, accepts), or
 * None when no word starts with key, or -1 when the graph points outside
 * itself. With list_limit > 0 (the alphabet's size), the tuple also holds
 * the tiles of the next arc list (at most list_limit of them) as bytes, and
 * a tile outside 1..list_limit also counts as pointing outside. arcs: the graph's
 * records (arc.h). Sibling lists are sorted by tile: a scan stops at the
 * first tile greater than the one sought, as the Python walk does. */
static PyObject *
walk_codes(PyObject *module, PyObject *args)
{
    Py_buffer arcs, key;
    Py_ssize_t root, list_limit = 0;
    unsigned char tiles[256];
    Py_ssize_t n_tiles = 0;
    if (!PyArg_ParseTuple(args, "y*ny*|n", &arcs, &root, &key, &list_limit))
        return NULL;
    if (list_limit > 256)
        list_limit = 256;
    const unsigned char *a = arcs.buf;
    const unsigned char *k = key.buf;
    Py_ssize_t n_arcs = arcs.len / LX_RECORD_SIZE;
    size_t i = (size_t)root;
    int accepts = 0, found = 1, bad = root < 0 || root >= n_arcs;
    for (Py_ssize_t pos = 0; pos < key.len && found && !bad; pos++) {
        if (!i) {
            found = 0;
            break;
        }
        for (;;) {
            if (i >= (size_t)n_arcs) {
                bad = 1;
                break;
            }
            uint64_t rec = lx_arc_at(a, i);
            unsigned tile = LX_TILE(rec);
            if (tile == k[pos]) {
                accepts = LX_ACCEPTS(rec);
                i = LX_TARGET(rec);
                break;
            }
            if (LX_IS_LAST(rec) || tile > k[pos]) {
                found = 0;
                break;
            }
            i++;
        }
    }
    for (size_t j = i; found && !bad && j && n_tiles < list_limit; j++) {
        if (j >= (size_t)n_arcs) {
            bad = 1;
            break;
        }
        uint64_t rec = lx_arc_at(a, j);
        unsigned tile = LX_TILE(rec);
        if (!tile || tile > (unsigned)list_limit) { /* list_limit is the alphabet's size */
            bad = 1;
            break;
        }
        tiles[n_tiles++] = (unsigned char)tile;
        if (LX_IS_LAST(rec))
            break;
    }
    PyBuffer_Release(&arcs);
    PyBuffer_Release(&key);
    if (bad)
        return PyLong_FromLong(-1);
    if (!found)
        Py_RETURN_NONE;
    if (list_limit > 0)
        return Py_BuildValue("(nOy#)", (Py_ssize_t)i, accepts ? Py_True : Py_False, (const char *)tiles, n_tiles);
    return Py_BuildValue("(nO)", (Py_ssize_t)i, accepts ? Py_True : Py_False);
}


/* Room for `need` more bytes in a growing output buffer (*buf holding *len of *cap bytes);
 * -1 when memory runs out. The walks below all write their answers this way. */
static int
out_reserve(char **buf, Py_ssize_t len, Py_ssize_t *cap, Py_ssize_t need)
{
    if (len + need <= *cap)
        return 0;
    Py_ssize_t size = *cap ? *cap * 2 : 4096;
    while (size < len + need)
        size *= 2;
    char *bigger = PyMem_Realloc(*buf, (size_t)size);
    if (bigger == NULL)
        return -1;
    *buf = bigger;
    *cap = size;
    return 0;
}

/* What a walk hands back to Python: -1 when the graph pointed outside itself, else its output bytes. */
static PyObject *
walk_answer(int bad, const char *out, Py_ssize_t len)
{
    if (bad)
        return PyLong_FromLong(-1);
    return PyBytes_FromStringAndSize(out ? out : "", len);
}

/* ---- Anagram walks: the word graph searched with a rack ---------------------
 *
 * _walk_rack(graph, root, n_tiles, rack, through, blanks, min_len, max_len, mode)
 * -> bytes of little-endian int64 word ids, in alphabetical (depth-first) order.
 *
 * rack and through are 256-byte tile counts. A word fits when it uses every
 * `through` tile, and what it needs beyond them comes from the rack, a
 * blank paying for each tile the rack lacks (mode 0: some tiles, 1: exactly
 * all of rack + through + blanks, 2: all of rack + through and any more).
 * The walk keeps per-tile counts of what the path has used, so a branch is
 * cut as soon as it needs a tile nobody can pay for. Ids come from the
 * hash probe of each word found (the graph holds no ids). */

enum { WALK_SUB = 0, WALK_EXACT = 1, WALK_SUPER = 2 };

typedef struct {
    const unsigned char *arcs;
    size_t n_arcs;
    unsigned n_tiles;
    unsigned char supply[256];   /* rack + through, what can be used without a blank */
    unsigned char through[256];
    unsigned char used[256];
    int blanks_left;
    int through_missing;          /* through tiles the path has not used yet */
    int rack_missing;             /* super: rack + through tiles not used yet */
    int min_len, max_len, mode;
    unsigned char path[256];
    const Probe *probe;
    char *out;
    Py_ssize_t out_len, out_cap;
    int bad;
    int want_ids;                 /* 1: int64 ids; 0: each word's codes and a 0 byte */
} RackWalk;

static int
walk_emit(RackWalk *w, int depth)
{
    Py_ssize_t need = w->want_ids ? 8 : depth + 1;
    int64_t v = 0;
    if (w->want_ids) {
        v = probe_codes(w->probe, w->path, depth);
        if (v < 0)
            return 0; /* a forged graph's word the hash index lacks: not a word */
    }
    if (out_reserve(&w->out, w->out_len, &w->out_cap, need) < 0)
        return -1;
    if (w->want_ids) {
        memcpy(w->out + w->out_len, &v, 8);
    } else {
        memcpy(w->out + w->out_len, w->path, (size_t)depth);
        w->out[w->out_len + depth] = 0;
    }
    w->out_len += need;
    return 0;
}

static int
walk_rack_from(RackWalk *w, size_t node, int depth)
{
    if (depth >= w->max_len || !node)
        return 0;
    unsigned previous = 0;
    for (size_t i = node;; i++) {
        if (i - node >= w->n_tiles)
            return 0; /* a list holds at most one arc per tile, as the Python walk reads it */
        if (i >= w->n_arcs) {
            w->bad = 1;
            return 0;
        }
        uint64_t rec = lx_arc_at(w->arcs, i);
        unsigned t = LX_TILE(rec);
        int blank = 0;
        /* Only arcs a prefix walk can reach (tiles rising along the list, as in a valid file), so
         * that walks and lookups agree on any file. */
        if (t <= previous)
            goto next;
        previous = t;
        if (w->used[t] >= w->supply[t]) {
            if (w->mode == WALK_SUPER)
                blank = 0; /* extra tiles are free */
            else if (w->blanks_left > 0)
                blank = 1;
            else
                goto next;
        }
        w->used[t]++;
        w->blanks_left -= blank;
        int took_through = w->used[t] <= w->through[t];
        int took_rack = w->used[t] <= w->supply[t];
        w->through_missing -= took_through;
        w->rack_missing -= took_rack;
        w->path[depth] = (unsigned char)t;
        int len = depth + 1;
        int missing = w->mode == WALK_SUPER ? w->rack_missing : w->through_missing;
        if (missing <= w->max_len - len) {
            if (LX_ACCEPTS(rec) && len >= w->min_len && missing == 0
                && (w->mode != WALK_EXACT || len == w->max_len)) {
                if (walk_emit(w, len) < 0)
                    return -1;
            }
            if (walk_rack_from(w, LX_TARGET(rec), len) < 0)
                return -1;
        }
        w->used[t]--;
        w->blanks_left += blank;
        w->through_missing += took_through;
        w->rack_missing += took_rack;
    next:
        if (LX_IS_LAST(rec))
            return 0;
    }
}

static PyObject *
Probe_walk_rack(Probe *self, PyObject *args)
{
    Py_buffer graph, rack, through;
    Py_ssize_t root;
    unsigned n_tiles;
    int blanks, min_len, max_len, mode, want_ids = 1;
    if (!PyArg_ParseTuple(args, "y*nIy*y*iiii|p", &graph, &root, &n_tiles, &rack, &through, &blanks, &min_len,
                          &max_len, &mode, &want_ids))
        return NULL;
    PyObject *result = NULL;
    RackWalk *w = PyMem_Calloc(1, sizeof(RackWalk));
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    w->want_ids = want_ids;
    if (!self->attached) {
        PyErr_SetString(PyExc_ValueError, "the lexicon is closed");
        goto done;
    }
    if (rack.len != 256 || through.len != 256 || mode < 0 || mode > 2 || n_tiles < 1 || n_tiles > 255) {
        PyErr_SetString(PyExc_ValueError, "bad walk arguments");
        goto done;
    }
    w->arcs = graph.buf;
    w->n_arcs = (size_t)(graph.len / LX_RECORD_SIZE);
    w->n_tiles = n_tiles;
    w->probe = self;
    w->blanks_left = blanks < 0 ? 0 : blanks;
    w->min_len = min_len;
    w->max_len = max_len > 255 ? 255 : max_len;
    w->mode = mode;
    for (int t = 0; t < 256; t++) {
        unsigned char r = ((const unsigned char *)rack.buf)[t], th = ((const unsigned char *)through.buf)[t];
        w->through[t] = th;
        w->supply[t] = (unsigned char)(r + th > 255 ? 255 : r + th);
        w->through_missing += th;
        w->rack_missing += w->supply[t];
    }
    if (root < 0 || (size_t)root >= w->n_arcs) {
        w->bad = 1;
    } else if (walk_rack_from(w, (size_t)root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = walk_answer(w->bad, w->out, w->out_len);
done:
    if (w != NULL)
        PyMem_Free(w->out);
    PyMem_Free(w);
    PyBuffer_Release(&graph);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&through);
    return result;
}


/* ---- Pattern walks: every word whose tiles fit per-position sets ------------
 *
 * _walk_words(graph, root, n_tiles, masks, min_len, max_len, want_ids, limit)
 * -> bytes, or -1 when the graph points outside itself.
 *
 * masks: 32 bytes (a 256-bit set of tile codes) per position; positions past
 * the masks allow any tile. Words of min_len..max_len tiles, in alphabetical
 * (depth-first) order, at most `limit` of them (limit < 0: all). With
 * want_ids the result is little-endian int64 word ids (from the hash probe; -1
 * for a word it lacks);
 * otherwise each word's tile codes followed by a 0 byte. */

typedef struct {
    const unsigned char *arcs;
    size_t n_arcs;
    unsigned n_tiles;
    const unsigned char *masks;
    int n_masks;
    int min_len, max_len, want_ids;
    Py_ssize_t limit, found;
    unsigned char path[256];
    const Probe *probe;
    char *out;
    Py_ssize_t out_len, out_cap;
    int bad;
} PatternWalk;

static int
pattern_out(PatternWalk *w, const void *data, Py_ssize_t n)
{
    if (out_reserve(&w->out, w->out_len, &w->out_cap, n) < 0)
        return -1;
    memcpy(w->out + w->out_len, data, (size_t)n);
    w->out_len += n;
    return 0;
}

static int
pattern_from(PatternWalk *w, size_t node, int depth)
{
    if (depth >= w->max_len || !node)
        return 0;
    const unsigned char *mask = depth < w->n_masks ? w->masks + 32 * depth : NULL;
    unsigned previous = 0;
    for (size_t i = node;; i++) {
        if (w->limit >= 0 && w->found >= w->limit)
            return 0;
        if (i - node >= w->n_tiles)
            return 0;
        if (i >= w->n_arcs) {
            w->bad = 1;
            return 0;
        }
        uint64_t rec = lx_arc_at(w->arcs, i);
        unsigned t = LX_TILE(rec);
        if (t > previous) {
            previous = t;
            if (mask == NULL || (mask[t >> 3] >> (t & 7)) & 1) {
                w->path[depth] = (unsigned char)t;
                int len = depth + 1;
                if (LX_ACCEPTS(rec) && len >= w->min_len) {
                    if (w->want_ids) {
                        /* -1 for a word the hash index lacks (only in a forged file) */
                        int64_t v = probe_codes(w->probe, w->path, len);
                        if (pattern_out(w, &v, 8) < 0)
                            return -1;
                        w->found++;
                    } else {
                        unsigned char zero = 0;
                        if (pattern_out(w, w->path, len) < 0 || pattern_out(w, &zero, 1) < 0)
                            return -1;
                        w->found++;
                    }
                }
                if (pattern_from(w, LX_TARGET(rec), len) < 0)
                    return -1;
            }
        }
        if (LX_IS_LAST(rec))
            return 0;
    }
}

static PyObject *
Probe_walk_words(Probe *self, PyObject *args)
{
    Py_buffer graph, masks;
    Py_ssize_t root, limit;
    unsigned n_tiles;
    int min_len, max_len, want_ids;
    if (!PyArg_ParseTuple(args, "y*nIy*iipn", &graph, &root, &n_tiles, &masks, &min_len, &max_len, &want_ids, &limit))
        return NULL;
    PyObject *result = NULL;
    PatternWalk *w = PyMem_Calloc(1, sizeof(PatternWalk));
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (!self->attached) {
        PyErr_SetString(PyExc_ValueError, "the lexicon is closed");
        goto done;
    }
    if (masks.len % 32 || masks.len / 32 > 255 || n_tiles < 1 || n_tiles > 255) {
        PyErr_SetString(PyExc_ValueError, "bad walk arguments");
        goto done;
    }
    w->arcs = graph.buf;
    w->n_arcs = (size_t)(graph.len / LX_RECORD_SIZE);
    w->n_tiles = n_tiles;
    w->masks = masks.buf;
    w->n_masks = (int)(masks.len / 32);
    w->min_len = min_len;
    w->max_len = max_len > 255 ? 255 : max_len;
    w->want_ids = want_ids;
    w->limit = limit;
    w->probe = self;
    if (root < 0 || (size_t)root >= w->n_arcs)
        w->bad = 1;
    else if (pattern_from(w, (size_t)root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = walk_answer(w->bad, w->out, w->out_len);
done:
    if (w != NULL)
        PyMem_Free(w->out);
    PyMem_Free(w);
    PyBuffer_Release(&graph);
    PyBuffer_Release(&masks);
    return result;
}


/* ---- Exact anagrams by the alphagram index -------------------------------------
 *
 * A bucket's alphagram order lists its rows by their tiles sorted; all the
 * anagrams of a rack are one run of it, found by binary search comparing the
 * rack's sorted tiles with the sorted tiles of each row visited. */

static int
compare_ssize(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

static int
compare_int64(const void *a, const void *b)
{
    int64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return (x > y) - (x < y);
}

static void
sort_codes(unsigned char *p, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        unsigned char v = p[i];
        Py_ssize_t j = i;
        while (j > 0 && p[j - 1] > v) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = v;
    }
}

static inline Py_ssize_t
order_at(const LengthTable *t, Py_ssize_t i)
{
    const unsigned char *p = t->order + i * t->order_width;
    return t->order_width == 2 ? (Py_ssize_t)(p[0] | p[1] << 8) : (Py_ssize_t)u32le(p);
}

/* Compare the sorted tiles of alphagram entry i with `key`; 2 when the entry points past its bucket. */
static int
compare_entry(const LengthTable *t, Py_ssize_t i, const unsigned char *key, Py_ssize_t n)
{
    unsigned char buf[256];
    Py_ssize_t row = order_at(t, i);
    if (row >= t->count)
        return 2;
    memcpy(buf, t->rows + row * n, (size_t)n);
    sort_codes(buf, n);
    int c = memcmp(buf, key, (size_t)n);
    return c < 0 ? -1 : c > 0;
}

/* Sorted tiles of up to 8 codes packed big-end first: integers that order like the alphagrams. */
static inline uint64_t
pack_key(const unsigned char *sorted, Py_ssize_t n)
{
    uint64_t k = 0;
    for (Py_ssize_t i = 0; i < 8; i++)
        k = k << 8 | (i < n ? sorted[i] : 0);
    return k;
}

/* Each entry's packed alphagram, so that searches read one array and sort nothing
 * (lengths up to 8, where the packed key is the whole alphagram). NULL: an entry points past
 * its bucket, or no memory; the search then compares rows as below. */
static uint64_t *
entry_keys(LengthTable *t, Py_ssize_t n)
{
    if (t->keys != NULL || n > 8 || !t->count)
        return t->keys;
    uint64_t *keys = PyMem_Malloc((size_t)t->count * sizeof(uint64_t));
    if (keys == NULL)
        return NULL;
    unsigned char buf[8];
    for (Py_ssize_t i = 0; i < t->count; i++) {
        Py_ssize_t row = order_at(t, i);
        if (row >= t->count) {
            PyMem_Free(keys);
            return NULL;
        }
        memcpy(buf, t->rows + row * n, (size_t)n);
        sort_codes(buf, n);
        keys[i] = pack_key(buf, n);
    }
    t->keys = keys;
    return keys;
}

/* The first entry whose alphagram is >= key (right: > key), searched as NumPy's searchsorted does,
 * so that both paths agree even on a forged, unsorted index; -1 when it points past its bucket. */
static Py_ssize_t
bound(LengthTable *t, const unsigned char *key, Py_ssize_t n, int right)
{
    Py_ssize_t lo = 0, hi = t->count;
    const uint64_t *keys = entry_keys(t, n);
    if (keys != NULL) {
        uint64_t k = pack_key(key, n);
        while (lo < hi) {
            Py_ssize_t mid = lo + ((hi - lo) >> 1);
            if (keys[mid] < k || (right && keys[mid] == k))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
    while (lo < hi) {
        Py_ssize_t mid = lo + ((hi - lo) >> 1);
        int c = compare_entry(t, mid, key, n);
        if (c == 2)
            return -1;
        if (c < 0 || (right && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rows (ascending) whose alphagram is `key`, into rows[0..cap); returns how many, -1 when the index
 * points past its bucket, cap when there may be more. */
static Py_ssize_t
exact_rows(LengthTable *t, const unsigned char *key, Py_ssize_t n, Py_ssize_t *rows, Py_ssize_t cap)
{
    Py_ssize_t lo = bound(t, key, n, 0), hi = bound(t, key, n, 1);
    if (lo < 0 || hi < 0)
        return -1;
    Py_ssize_t found = 0;
    for (Py_ssize_t i = lo; i < hi && found < cap; i++) {
        Py_ssize_t row = order_at(t, i), j = found++;
        if (row >= t->count)
            return -1;
        while (j > 0 && rows[j - 1] > row) { /* ascending row order: alphabetical */
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = row;
    }
    return found;
}



/* ---- Exact anagrams with blanks: a walk of the sorted alphagrams ----------------
 *
 * The bucket's alphagrams, sorted, form a trie in disguise: the entries that
 * share their first d tiles are one range, and within it the tile at d is
 * sorted. The walk builds the alphagram tile by tile, each tile either the
 * rack's smallest unused one or a blank standing for a tile no greater, and
 * narrows the range by binary search; it visits only alphagrams that exist. */

/* The sorted alphagrams of a bucket; NULL when the index is forged (unsorted or past its bucket):
 * the NumPy path then answers, so that both paths agree on any file. */
static const unsigned char *
entry_grams(LengthTable *t, Py_ssize_t n)
{
    if (t->grams_state)
        return t->grams_state > 0 ? t->grams : NULL;
    t->grams_state = -1;
    if (!t->count)
        return NULL;
    unsigned char *grams = PyMem_Malloc((size_t)t->count * (size_t)n);
    if (grams == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < t->count; i++) {
        Py_ssize_t row = order_at(t, i);
        unsigned char *g = grams + i * n;
        if (row >= t->count) {
            PyMem_Free(grams);
            return NULL;
        }
        memcpy(g, t->rows + row * n, (size_t)n);
        sort_codes(g, n);
        if (i && memcmp(g - n, g, (size_t)n) > 0) {
            PyMem_Free(grams);
            return NULL;
        }
    }
    t->grams = grams;
    t->grams_state = 1;
    return grams;
}

typedef struct {
    const LengthTable *t;
    const unsigned char *grams;
    Py_ssize_t n;
    unsigned n_tiles;
    unsigned char rack[256];
    int blanks;
    char *out;
    Py_ssize_t out_len, out_cap;
} GramWalk;

static int
gram_emit(GramWalk *w, Py_ssize_t lo, Py_ssize_t hi)
{
    Py_ssize_t need = (hi - lo) * 8;
    if (out_reserve(&w->out, w->out_len, &w->out_cap, need) < 0)
        return -1;
    for (Py_ssize_t i = lo; i < hi; i++) {
        int64_t id = w->t->first_id + order_at(w->t, i);
        memcpy(w->out + w->out_len, &id, 8);
        w->out_len += 8;
    }
    return 0;
}

static int
gram_walk(GramWalk *w, Py_ssize_t d, Py_ssize_t lo, Py_ssize_t hi, unsigned prev)
{
    if (d == w->n)
        return gram_emit(w, lo, hi);
    unsigned smallest = w->n_tiles + 1;
    for (unsigned c = prev; c <= w->n_tiles; c++)
        if (w->rack[c]) {
            smallest = c;
            break;
        }
    unsigned top = smallest <= w->n_tiles ? smallest : w->n_tiles;
    for (unsigned c = prev < 1 ? 1 : prev; c <= top; c++) {
        int from_rack = w->rack[c] > 0;
        if (!from_rack && !w->blanks)
            continue;
        /* entries in [lo, hi) whose tile at d is c */
        Py_ssize_t a = lo, b = hi;
        while (a < b) {
            Py_ssize_t mid = a + ((b - a) >> 1);
            if (w->grams[mid * w->n + d] < c)
                a = mid + 1;
            else
                b = mid;
        }
        Py_ssize_t start = a;
        b = hi;
        while (a < b) {
            Py_ssize_t mid = a + ((b - a) >> 1);
            if (w->grams[mid * w->n + d] <= c)
                a = mid + 1;
            else
                b = mid;
        }
        if (a == start)
            continue;
        if (from_rack)
            w->rack[c]--;
        else
            w->blanks--;
        int r = gram_walk(w, d + 1, start, a, c);
        if (from_rack)
            w->rack[c]++;
        else
            w->blanks++;
        if (r < 0)
            return -1;
    }
    return 0;
}

/* _exact_blanks(codes, blanks, n_tiles) -> bytes of int64 ids (ascending), or None when the NumPy
 * path must answer (a forged index). */
static PyObject *
Probe_exact_blanks(Probe *self, PyObject *args)
{
    Py_buffer codes;
    int blanks;
    unsigned n_tiles;
    if (!PyArg_ParseTuple(args, "y*iI", &codes, &blanks, &n_tiles))
        return NULL;
    Py_ssize_t n = codes.len + (blanks > 0 ? blanks : 0);
    PyObject *result = NULL;
    GramWalk w;
    memset(&w, 0, sizeof w);
    if (!self->attached || blanks < 0 || n_tiles > 255 || n < 1) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if (n > self->max_length || !self->tables[n].width || !self->tables[n].count) {
        result = PyBytes_FromStringAndSize("", 0);
        goto done;
    }
    LengthTable *t = &self->tables[n];
    const unsigned char *grams = entry_grams(t, n);
    if (grams == NULL) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    w.t = t;
    w.grams = grams;
    w.n = n;
    w.n_tiles = n_tiles;
    w.blanks = blanks;
    for (Py_ssize_t i = 0; i < codes.len; i++) {
        unsigned char c = ((const unsigned char *)codes.buf)[i];
        if (c < 1 || c > n_tiles) { /* no word holds it */
            result = PyBytes_FromStringAndSize("", 0);
            goto done;
        }
        w.rack[c]++;
    }
    if (gram_walk(&w, 0, 0, t->count, 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* ids ascending, as the NumPy path gives them */
    if (w.out_len)
        qsort(w.out, (size_t)(w.out_len / 8), 8, compare_int64);
    result = PyBytes_FromStringAndSize(w.out ? w.out : "", w.out_len);
done:
    PyMem_Free(w.out);
    PyBuffer_Release(&codes);
    return result;
}

/* Decode rows (ascending) of a bucket into a list of str through the one-character labels;
 * None when a code has no label (only in a forged file). */
static PyObject *
decode_rows_ascii(const Probe *self, const LengthTable *t, Py_ssize_t n, const Py_ssize_t *rows, Py_ssize_t found)
{
    PyObject *out = PyList_New(found);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < found; k++) {
        PyObject *word = PyUnicode_New(n, 127);
        if (word == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        unsigned char *dst = PyUnicode_1BYTE_DATA(word);
        const unsigned char *src = t->rows + rows[k] * n;
        for (Py_ssize_t i = 0; i < n; i++) {
            dst[i] = self->labels[src[i]];
            if (!dst[i]) {
                Py_DECREF(word);
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
        }
        PyList_SET_ITEM(out, k, word);
    }
    return out;
}

/* _exact_words(rack) -> the exact anagrams of a plain ASCII rack ('?' a blank), as a list of words;
 * None when Python must answer (other characters, fewer than two tiles, a forged index). */
static PyObject *
Probe_exact_words(Probe *self, PyObject *rack)
{
    /* one character, one tile: alphabets with multi-letter tiles (encodes 2) go to Python */
    if (!PyUnicode_Check(rack) || !self->attached || self->encodes != 1 || !PyUnicode_IS_ASCII(rack))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(rack);
    if (n < 2 || n > 255)
        Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(rack);
    unsigned char key[256];
    Py_ssize_t k = 0;
    int blanks = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] == '?') {
            blanks++;
            continue;
        }
        key[k] = self->codes[text[i]];
        if (!key[k++])
            Py_RETURN_NONE; /* a star, a space or a stranger: the general path */
    }
    if (n > self->max_length || !self->tables[n].width)
        return PyList_New(0);
    LengthTable *t = &self->tables[n];
    if (!blanks) {
        sort_codes(key, n);
        Py_ssize_t rows[64];
        Py_ssize_t found = exact_rows(t, key, n, rows, 64);
        if (found < 0 || found == 64)
            Py_RETURN_NONE; /* a forged index, or more anagrams than fit here: the general path decides */
        return decode_rows_ascii(self, t, n, rows, found);
    }
    const unsigned char *grams = entry_grams(t, n);
    if (grams == NULL)
        Py_RETURN_NONE;
    GramWalk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.grams = grams;
    w.n = n;
    w.n_tiles = 255;
    while (w.n_tiles > 1 && !self->labels[w.n_tiles])
        w.n_tiles--;
    w.blanks = blanks;
    for (Py_ssize_t i = 0; i < k; i++)
        w.rack[key[i]]++;
    if (gram_walk(&w, 0, 0, t->count, 1) < 0) {
        PyMem_Free(w.out);
        return PyErr_NoMemory();
    }
    Py_ssize_t found = w.out_len / 8;
    Py_ssize_t *rows = PyMem_Malloc((size_t)(found ? found : 1) * sizeof(Py_ssize_t));
    if (rows == NULL) {
        PyMem_Free(w.out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < found; i++) {
        int64_t id;
        memcpy(&id, w.out + 8 * i, 8);
        rows[i] = (Py_ssize_t)id - t->first_id;
    }
    qsort(rows, (size_t)found, sizeof(Py_ssize_t), compare_ssize);
    PyMem_Free(w.out);
    PyObject *out = decode_rows_ascii(self, t, n, rows, found);
    PyMem_Free(rows);
    return out;
}


/* Words of a walk's output (codes, each word ended by a 0 byte) as a list of str, through the
 * one-letter ASCII labels. */
static PyObject *
words_from_codes(const Probe *self, const char *out, Py_ssize_t count)
{
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t len = 0;
        while (out[pos + len])
            len++;
        PyObject *word = PyUnicode_New(len, 127);
        if (word == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        unsigned char *dst = PyUnicode_1BYTE_DATA(word);
        for (Py_ssize_t i = 0; i < len; i++)
            dst[i] = self->labels[(unsigned char)out[pos + i]];
        PyList_SET_ITEM(list, k, word);
        pos += len + 1;
    }
    return list;
}

/* _rack_words(rack, min_len, mode) -> the sub- (mode 0) or super-anagrams (2; also a trailing '*')
 * of a plain ASCII rack ('?' a blank, at most three), alphabetically, as a list of str; None when
 * Python must answer (other characters, more blanks, no checked graph yet, a forged graph). */
static PyObject *
Probe_rack_words(Probe *self, PyObject *args)
{
    PyObject *rack;
    int min_len, mode;
    if (!PyArg_ParseTuple(args, "Uii", &rack, &min_len, &mode))
        return NULL;
    if (!self->attached || self->encodes != 1 || self->graph == NULL || !self->graph_tiles
        || !PyUnicode_IS_ASCII(rack) || (mode != WALK_SUB && mode != WALK_SUPER))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(rack);
    const unsigned char *text = PyUnicode_1BYTE_DATA(rack);
    if (n && text[n - 1] == '*') {
        mode = WALK_SUPER;
        n--;
    }
    if (n < 1 || n > 255)
        Py_RETURN_NONE;
    RackWalk *w = PyMem_Calloc(1, sizeof(RackWalk));
    if (w == NULL)
        return PyErr_NoMemory();
    int size = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] == '?') {
            w->blanks_left++;
            size++;
            continue;
        }
        unsigned char c = self->codes[text[i]];
        if (!c || w->supply[c] == 255) {
            PyMem_Free(w);
            Py_RETURN_NONE;
        }
        w->supply[c]++;
        w->rack_missing++;
        size++;
    }
    if (w->blanks_left > 3 || min_len < 1) {
        PyMem_Free(w);
        Py_RETURN_NONE; /* many blanks: the column scan answers, in Python */
    }
    w->arcs = self->graph;
    w->n_arcs = self->graph_arcs;
    w->n_tiles = self->graph_tiles;
    w->probe = self;
    w->mode = mode;
    w->want_ids = 0;
    w->min_len = min_len;
    if (mode == WALK_SUPER) {
        w->min_len = min_len > size ? min_len : size;
        w->max_len = 255;
        w->blanks_left = 0; /* in a super-anagram a blank only raises the length */
    } else {
        w->max_len = size;
    }
    if (w->max_len > self->max_length)
        w->max_len = (int)self->max_length;
    PyObject *result = NULL;
    if (walk_rack_from(w, self->graph_root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (w->bad) {
        result = Py_None; /* the Python path raises the error */
        Py_INCREF(result);
        goto done;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < w->out_len; i++)
        count += !w->out[i];
    result = words_from_codes(self, w->out, count);
done:
    PyMem_Free(w->out);
    PyMem_Free(w);
    return result;
}

/* Tiles of a rotation its sort key holds (rotation.KEY_TILES). */
#define ROT_TILES 8

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
        Py_ssize_t width = n < ROT_TILES ? n : ROT_TILES;
        for (size_t i = 0; i < count; i++) {
            const unsigned char *row = t->rows + i * (size_t)n;
            uint64_t key = 0;
            for (Py_ssize_t j = 0; j < width; j++)
                key |= (uint64_t)row[(start + j) % n] << (8 * (ROT_TILES - 1 - j));
            k[i] = key;
            r[i] = (uint32_t)i;
        }
        for (int byte = ROT_TILES - width; byte < ROT_TILES; byte++) {
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
            uint64_t *tk = k; k = k2; k2 = tk;
            uint32_t *tr = r; r = r2; r2 = tr;
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

/* The estimated cost of answering a pattern from `start` (n cells, `window` of them read there): the
 * nodes a walk visits, level by level, while it may still narrow (each level holds at most the
 * prefixes its wildcards can spell and at most the rows its fixed tiles leave, with `tiles` tiles
 * spread evenly over `rows` rows), then the rows left to test. */
static double
plan_cost(const int *fixed, Py_ssize_t n, Py_ssize_t start, Py_ssize_t window, double rows, double tiles)
{
    double spelled = 1.0, left = rows, cost = 0.0, level = 0.0;
    Py_ssize_t last = -1;
    for (Py_ssize_t j = 0; j < window; j++)
        if (fixed[(start + j) % n])
            last = j;
    for (Py_ssize_t j = 0; j <= last; j++) {
        if (fixed[(start + j) % n])
            left /= tiles;
        else
            spelled *= tiles;
        level = spelled < left ? spelled : left;
        cost += level;
    }
    return cost + (last < 0 ? rows : left);
}

/* Where to read a plain pattern from: -1 for the word graph (from its first cell), else the start of
 * the rotation order that should visit the fewest nodes (a cell that opens a run of fixed ones). */
static Py_ssize_t
plan_start(const int *fixed, Py_ssize_t n, double rows, double tiles)
{
    Py_ssize_t best = fixed[0] ? -1 : 0;
    double best_cost = fixed[0] ? plan_cost(fixed, n, 0, n, rows, tiles) : HUGE_VAL;
    for (Py_ssize_t s = 1; s < n; s++) {
        if (!fixed[s] || fixed[s - 1])
            continue;
        double c = plan_cost(fixed, n, s, n < ROT_TILES ? n : ROT_TILES, rows, tiles);
        if (c < best_cost) {
            best = s;
            best_cost = c;
        }
    }
    return best;
}

/* Rotation keys are sorted, so between lo and hi, where keys agree on their bytes above `depth`, the
 * byte at depth is sorted too: the first key whose byte there exceeds `tile`. */
static size_t
byte_above(const uint64_t *keys, size_t lo, size_t hi, int depth, unsigned tile)
{
    int shift = 8 * (ROT_TILES - 1 - depth);
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
    const int *want;      /* per key byte: the tile a fixed cell asks for, or -1 */
    int stop;             /* key bytes to descend: up to the last fixed cell of the window */
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
    int shift = 8 * (ROT_TILES - 1 - depth);
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
static Py_ssize_t
rotation_rows(LengthTable *t, Py_ssize_t n, Py_ssize_t start, const int *fixed, const unsigned char *tiles,
              uint32_t **found)
{
    const uint32_t *rows;
    const uint64_t *keys;
    if (rotation_order(t, n, start, &rows, &keys) < 0)
        return -1;
    Py_ssize_t width = n < ROT_TILES ? n : ROT_TILES;
    int want[ROT_TILES], stop = 0;
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

/* The words matching a plain fixed-length pattern (ASCII letters, and '?' or '.' for any tile),
 * alphabetically, each as its n codes and a 0 byte, into *out (count of them in *count).
 * Returns 0, 1 when Python must answer (other characters, no checked graph yet, a forged file),
 * -1 on error. The plan (plan_start) walks the word graph from the first cell, or descends the
 * rotation order at the cell that should visit the fewest nodes (see rotation.py). */
static int
pattern_rows(Probe *self, PyObject *pattern, Py_ssize_t *length, char **out, Py_ssize_t *count)
{
    *out = NULL;
    *count = 0;
    if (!PyUnicode_Check(pattern) || !self->attached || self->encodes != 1 || self->graph == NULL
        || !self->graph_tiles || !PyUnicode_IS_ASCII(pattern))
        return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(pattern);
    *length = n;
    if (n < 1 || n > 255)
        return 1;
    const unsigned char *text = PyUnicode_1BYTE_DATA(pattern);
    unsigned char masks[32 * 255];
    memset(masks, 0, (size_t)(32 * n));
    int fixed[255];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (text[i] == '?' || text[i] == '.') {
            for (unsigned t = 1; t <= self->graph_tiles; t++)
                masks[32 * i + (t >> 3)] |= (unsigned char)(1u << (t & 7));
            fixed[i] = 0;
            continue;
        }
        unsigned char c = self->codes[text[i]];
        if (!c)
            return 1; /* sets, stars, vowels: the general path */
        masks[32 * i + (c >> 3)] |= (unsigned char)(1u << (c & 7));
        fixed[i] = 1;
    }
    if (n > self->max_length || !self->tables[n].width)
        return 0;
    Py_ssize_t start = plan_start(fixed, n, (double)self->tables[n].count, (double)self->graph_tiles);
    if (start < 0) {
        PatternWalk w;
        memset(&w, 0, sizeof w);
        w.arcs = self->graph;
        w.n_arcs = self->graph_arcs;
        w.n_tiles = self->graph_tiles;
        w.masks = masks;
        w.n_masks = (int)n;
        w.min_len = (int)n;
        w.max_len = (int)n;
        w.limit = -1;
        w.probe = self;
        if (pattern_from(&w, self->graph_root, 0) < 0) {
            PyMem_Free(w.out);
            PyErr_NoMemory();
            return -1;
        }
        if (w.bad) {
            PyMem_Free(w.out);
            return 1;
        }
        *out = w.out;
        *count = w.found;
        return 0;
    }
    LengthTable *t = &self->tables[n];
    int n_fixed = 0;
    unsigned char tiles[255];
    for (Py_ssize_t j = 0; j < n; j++)
        if (fixed[j]) {
            n_fixed++;
            tiles[j] = self->codes[text[j]];
        }
    uint32_t *found = NULL;
    Py_ssize_t n_found = t->count, cap = 0;
    int status = 0;
    if (n_fixed) { /* the rows holding the fixed tiles, by the rotation order at the planned start */
        n_found = rotation_rows(t, n, start, fixed, tiles, &found);
        if (n_found < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t k = 0; k < n_found && !status; k++) {
        const unsigned char *row = t->rows + (found != NULL ? (Py_ssize_t)found[k] : k) * n;
        for (Py_ssize_t i = 0; i < n && !status; i++)
            if (!row[i] || row[i] > self->graph_tiles) /* a code outside the alphabet: only in a forged file */
                status = 1;
        if (!status && out_reserve(out, *count * (n + 1), &cap, n + 1) < 0) {
            PyErr_NoMemory();
            status = -1;
        }
        if (!status) {
            memcpy(*out + *count * (n + 1), row, (size_t)n);
            (*out)[*count * (n + 1) + n] = 0;
            (*count)++;
        }
    }
    PyMem_Free(found);
    if (status) {
        PyMem_Free(*out);
        *out = NULL;
        *count = 0;
    }
    return status;
}

/* _pattern_words(pattern) -> the words matching a plain fixed-length pattern, alphabetically, as a
 * list of str; None when Python must answer (see pattern_rows). */
static PyObject *
Probe_pattern_words(Probe *self, PyObject *pattern)
{
    Py_ssize_t n, count;
    char *out;
    int r = pattern_rows(self, pattern, &n, &out, &count);
    if (r < 0)
        return NULL;
    if (r > 0)
        Py_RETURN_NONE;
    PyObject *list = words_from_codes(self, out ? out : "", count);
    PyMem_Free(out);
    return list;
}

/* _cross_words(pattern_a, pos_a, pattern_b, pos_b) -> (tiles, words_a, words_b, counts_a, counts_b):
 * the tile codes both plain patterns allow where they cross (ascending, as bytes), each pattern's
 * words that put one of them there (alphabetically), and per shared tile how many words of each
 * do; None when Python must answer. */
static PyObject *
Probe_cross_words(Probe *self, PyObject *args)
{
    PyObject *pa, *pb;
    Py_ssize_t pos_a, pos_b, na = 0, nb = 0, ca = 0, cb = 0;
    char *ra = NULL, *rb = NULL;
    PyObject *result = NULL, *wa = NULL, *wb = NULL;
    if (!PyArg_ParseTuple(args, "UnUn", &pa, &pos_a, &pb, &pos_b))
        return NULL;
    int r = pattern_rows(self, pa, &na, &ra, &ca);
    if (r == 0)
        r = pattern_rows(self, pb, &nb, &rb, &cb);
    if (r != 0 || pos_a < 0 || pos_a >= na || pos_b < 0 || pos_b >= nb) {
        if (r >= 0) {
            result = Py_None;
            Py_INCREF(result);
        }
        goto done;
    }
    Py_ssize_t count_a[256] = {0}, count_b[256] = {0};
    for (Py_ssize_t k = 0; k < ca; k++)
        count_a[(unsigned char)ra[k * (na + 1) + pos_a]]++;
    for (Py_ssize_t k = 0; k < cb; k++)
        count_b[(unsigned char)rb[k * (nb + 1) + pos_b]]++;
    unsigned char tiles[256];
    Py_ssize_t n_tiles = 0;
    for (int t = 1; t < 256; t++)
        if (count_a[t] && count_b[t])
            tiles[n_tiles++] = (unsigned char)t;
    /* keep only the words whose crossing tile is shared, compacting in place */
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < ca; k++)
        if (count_b[(unsigned char)ra[k * (na + 1) + pos_a]]) {
            memmove(ra + m * (na + 1), ra + k * (na + 1), (size_t)(na + 1));
            m++;
        }
    Py_ssize_t mb = 0;
    for (Py_ssize_t k = 0; k < cb; k++)
        if (count_a[(unsigned char)rb[k * (nb + 1) + pos_b]]) {
            memmove(rb + mb * (nb + 1), rb + k * (nb + 1), (size_t)(nb + 1));
            mb++;
        }
    wa = words_from_codes(self, ra ? ra : "", m);
    wb = words_from_codes(self, rb ? rb : "", mb);
    if (wa == NULL || wb == NULL)
        goto done;
    PyObject *counts_a = PyList_New(n_tiles), *counts_b = PyList_New(n_tiles);
    if (counts_a == NULL || counts_b == NULL) {
        Py_XDECREF(counts_a);
        Py_XDECREF(counts_b);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_tiles; k++) {
        PyList_SET_ITEM(counts_a, k, PyLong_FromSsize_t(count_a[tiles[k]]));
        PyList_SET_ITEM(counts_b, k, PyLong_FromSsize_t(count_b[tiles[k]]));
    }
    result = Py_BuildValue("(y#OONN)", (const char *)tiles, n_tiles, wa, wb, counts_a, counts_b);
done:
    Py_XDECREF(wa);
    Py_XDECREF(wb);
    PyMem_Free(ra);
    PyMem_Free(rb);
    return result;
}

/* _attach_graph(offset, n_arcs, root, n_tiles): the word graph lies in the attached buffer; called
 * once Python has checked it spells the buckets' words, after which _prefix_words may answer. */
static PyObject *
Probe_attach_graph(Probe *self, PyObject *args)
{
    Py_ssize_t offset, n_arcs, root;
    unsigned n_tiles;
    if (!PyArg_ParseTuple(args, "nnnI", &offset, &n_arcs, &root, &n_tiles))
        return NULL;
    if (!self->attached || offset < 0 || n_arcs < 1 || root < 0 || root >= n_arcs || offset > self->view.len
        || n_arcs > (self->view.len - offset) / LX_RECORD_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the word graph does not fit the file");
        return NULL;
    }
    self->graph = (const unsigned char *)self->view.buf + offset;
    self->graph_arcs = (size_t)n_arcs;
    self->graph_root = (size_t)root;
    self->graph_tiles = n_tiles >= 1 && n_tiles <= 255 ? n_tiles : 0;
    for (unsigned t = 1; t <= self->graph_tiles; t++)
        if (!self->labels[t])
            self->graph_tiles = 0; /* a tile without a one-letter ASCII label: words are decoded in Python */
    Py_RETURN_NONE;
}

/* _prefix_words(prefix, min_len, max_len) -> the words starting with a plain ASCII prefix, in
 * alphabetical order, as a list of str; None when Python must answer (no checked graph yet,
 * other characters, an alphabet of multi-letter tiles, a forged graph). */
static PyObject *
Probe_prefix_words(Probe *self, PyObject *args)
{
    PyObject *prefix;
    int min_len, max_len;
    if (!PyArg_ParseTuple(args, "Uii", &prefix, &min_len, &max_len))
        return NULL;
    if (!self->attached || self->encodes != 1 || self->graph == NULL || !self->graph_tiles
        || !PyUnicode_IS_ASCII(prefix))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(prefix);
    if (n > 255)
        Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(prefix);
    unsigned char masks[32 * 255];
    memset(masks, 0, (size_t)(32 * n));
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = self->codes[text[i]];
        if (!c)
            Py_RETURN_NONE;
        masks[32 * i + (c >> 3)] |= (unsigned char)(1u << (c & 7));
    }
    PatternWalk w;
    memset(&w, 0, sizeof w);
    w.arcs = self->graph;
    w.n_arcs = self->graph_arcs;
    w.n_tiles = self->graph_tiles;
    w.masks = masks;
    w.n_masks = (int)n;
    w.min_len = min_len;
    w.max_len = max_len > 255 ? 255 : max_len;
    w.want_ids = 0;
    w.limit = -1;
    w.probe = self;
    if (pattern_from(&w, self->graph_root, 0) < 0) {
        PyMem_Free(w.out);
        return PyErr_NoMemory();
    }
    if (w.bad) {
        PyMem_Free(w.out);
        Py_RETURN_NONE; /* the Python path raises the error */
    }
    PyObject *out = words_from_codes(self, w.out, w.found);
    PyMem_Free(w.out);
    return out;
}

static PyMethodDef Probe_methods[] = {
    {"_cross_words", (PyCFunction)Probe_cross_words, METH_VARARGS, NULL},
    {"_pattern_words", (PyCFunction)Probe_pattern_words, METH_O, NULL},
    {"_rack_words", (PyCFunction)Probe_rack_words, METH_VARARGS, NULL},
    {"_attach_graph", (PyCFunction)Probe_attach_graph, METH_VARARGS, NULL},
    {"_prefix_words", (PyCFunction)Probe_prefix_words, METH_VARARGS, NULL},
    {"_exact_blanks", (PyCFunction)Probe_exact_blanks, METH_VARARGS, NULL},
    {"_exact_words", (PyCFunction)Probe_exact_words, METH_O, NULL},
    {"_walk_words", (PyCFunction)Probe_walk_words, METH_VARARGS, NULL},
    {"_walk_rack", (PyCFunction)Probe_walk_rack, METH_VARARGS, NULL},
    {"_probe_key", (PyCFunction)Probe_probe_key, METH_O, NULL},
    {"_probe_word", (PyCFunction)Probe_probe_word, METH_O, NULL},
    {"_probe_many", (PyCFunction)Probe_probe_many, METH_VARARGS, NULL},
    {"_probe_attach", (PyCFunction)Probe_probe_attach, METH_VARARGS, NULL},
    {"_probe_release", (PyCFunction)Probe_probe_release, METH_NOARGS, NULL},
    {NULL}
};

static PyTypeObject ProbeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lexigraph._speedups.Probe",
    .tp_doc = "Exact lookups over a mapped lexicon's hash index.",
    .tp_basicsize = sizeof(Probe),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Probe_new,
    .tp_dealloc = (destructor)Probe_dealloc,
    .tp_methods = Probe_methods,
};

/* Facade: the base of lexigraph.Lexicon. `probe` is the lexicon's probe
 * (composition): a C Probe answers ASCII words here; anything else, and
 * any word a C probe cannot decide, goes to the Python method
 * _contains_slow. */
typedef struct {
    PyObject_HEAD
    PyObject *probe;
} Facade;

static int
Facade_traverse(Facade *self, visitproc visit, void *arg)
{
    Py_VISIT(self->probe);
    return 0;
}

static int
Facade_clear_refs(Facade *self)
{
    Py_CLEAR(self->probe);
    return 0;
}

static void
Facade_dealloc(Facade *self)
{
    PyObject_GC_UnTrack(self);
    Facade_clear_refs(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Facade_contains(Facade *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return 0;
    if (self->probe != NULL && Py_IS_TYPE(self->probe, &ProbeType)) {
        Py_ssize_t id = probe_word((Probe *)self->probe, word);
        if (id != UNDECIDED)
            return id >= 0;
    }
    PyObject *r = PyObject_CallMethod((PyObject *)self, "_contains_slow", "O", word);
    if (r == NULL)
        return -1;
    int truth = PyObject_IsTrue(r);
    Py_DECREF(r);
    return truth;
}

static PyObject *
Facade_check(Facade *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return PyErr_Format(PyExc_TypeError, "check() needs a str, not %.100s", Py_TYPE(word)->tp_name);
    int r = Facade_contains(self, word);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

static PyObject *
Facade_set_probe(Facade *self, PyObject *probe)
{
    Py_INCREF(probe);
    Py_XSETREF(self->probe, probe);
    Py_RETURN_NONE;
}

static PyMethodDef Facade_methods[] = {
    {"check", (PyCFunction)Facade_check, METH_O,
     "check(word) -> bool\n\nWhether word is in the lexicon (any case; unknown letters: False)."},
    {"_set_probe", (PyCFunction)Facade_set_probe, METH_O, NULL},
    {NULL}
};

static PySequenceMethods Facade_as_sequence = {
    .sq_contains = (objobjproc)Facade_contains,
};

static PyTypeObject FacadeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lexigraph._speedups.Facade",
    .tp_doc = "Base of lexigraph.Lexicon: `in` and check() through the lexicon's probe.",
    .tp_basicsize = sizeof(Facade),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Facade_dealloc,
    .tp_traverse = (traverseproc)Facade_traverse,
    .tp_clear = (inquiry)Facade_clear_refs,
    .tp_methods = Facade_methods,
    .tp_as_sequence = &Facade_as_sequence,
};

static PyMethodDef module_methods[] = {
    {"walk_codes", walk_codes, METH_VARARGS,
     "walk_codes(arcs, root, key, list_limit=0) -> (next list, accepts[, tiles]) | None | -1 (graph points outside itself)"},
    {NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "lexigraph._speedups",
    "C hot paths for exact lookups and graph walks; lexigraph works without them.", -1, module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    crc_init();
    if (PyType_Ready(&ProbeType) < 0 || PyType_Ready(&FacadeType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *layout = Py_BuildValue("(IIIii)", (unsigned)LX_TILE_MASK, (unsigned)LX_ACCEPTS_BIT,
                                     (unsigned)LX_LAST_BIT, LX_TARGET_SHIFT, LX_RECORD_SIZE);
    if (layout == NULL || PyModule_AddObjectRef(m, "Probe", (PyObject *)&ProbeType) < 0
        || PyModule_AddObjectRef(m, "Facade", (PyObject *)&FacadeType) < 0
        || PyModule_AddObjectRef(m, "ARC_LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(layout);
    return m;
}
