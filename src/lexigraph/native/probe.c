/*
 * probe.c: the Probe type: attaching a mapped lexicon, exact lookups of tile codes, releasing.
 *
 * Why C: a lookup in Python costs a dozen bytecodes and six C calls, about four times what a `set`
 * costs; the lexicon file stays the only copy of the words and nothing here allocates per word.
 * The pure-Python twin is lexigraph.engine.python.probe.PythonProbe. This file owns the type and its
 * method table; the other query files (see probe.h) add the methods they implement.
 */
#include "deadline.h"
#include "probe.h"

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
    self->walk_arcs = NULL;
}

static void
Probe_dealloc(Probe *self)
{
    probe_detach(self);
    Py_CLEAR(self->deadline_error);
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

/* id_of_codes(codes: bytes) -> word id, -1 when not a word, -2 when released. */
static PyObject *
Probe_id_of_codes(Probe *self, PyObject *codes)
{
    char *key;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(codes, &key, &n) < 0)
        return NULL;
    if (!self->attached)
        return PyLong_FromLong(LX_UNDECIDED);
    return PyLong_FromSsize_t(lx_probe_codes(self, (const unsigned char *)key, n));
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

/* An alphabet's multi-letter program (Alphabet.latin1_program): the prepared characters and the (key bytes, code)
 * pairs, longest first. 0, or -1 with an error set. */
static int
read_multi_letter(Probe *self, const Py_buffer *prep, PyObject *multi)
{
    self->n_multi = 0;
    memset(self->prep, 0, 256);
    if (multi == NULL)
        return 0;
    if (prep->len != 256 || PyList_GET_SIZE(multi) > LX_MAX_MULTI_LETTER_TILES) {
        PyErr_SetString(PyExc_ValueError, "bad multi-letter program");
        return -1;
    }
    memcpy(self->prep, prep->buf, 256);
    for (Py_ssize_t m = 0; m < PyList_GET_SIZE(multi); m++) {
        const char *key;
        Py_ssize_t key_length;
        int code;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(multi, m), "y#i", &key, &key_length, &code) || key_length < 1
            || key_length > LX_MAX_MULTI_LETTER_KEY || code < 1 || code > LX_MAX_ALPHABET_TILES) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bad multi-letter tile");
            return -1;
        }
        memcpy(self->multi_key[m], key, (size_t)key_length);
        self->multi_len[m] = (unsigned char)key_length;
        self->multi_code[m] = (unsigned char)code;
        self->n_multi++;
    }
    return 0;
}

/* The character table (character -> code, then optionally the characters deferred to Python) and the labels it
 * gives each code (lower case: the table maps both cases). */
static void
read_character_table(Probe *self, const Py_buffer *table)
{
    memcpy(self->codes, table->buf, 256);
    memset(self->defer, 0, 256);
    if (table->len == 512)
        memcpy(self->defer, (const unsigned char *)table->buf + 256, 256);
    memset(self->labels, 0, 256);
    for (int ch = 'a'; ch <= 'z'; ch++)
        if (self->codes[ch])
            self->labels[self->codes[ch]] = (unsigned char)ch;
    for (int ch = 1; ch < 128; ch++)
        if (self->codes[ch] && !self->labels[self->codes[ch]] && !(ch >= 'A' && ch <= 'Z'))
            self->labels[self->codes[ch]] = (unsigned char)ch;
}

/* The longest length the table entries name: -1 with an error set for a malformed entry or a length out of range. */
static Py_ssize_t
longest_length(PyObject *tables)
{
    Py_ssize_t longest = 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tables); k++) {
        PyObject *t = PyList_GET_ITEM(tables, k);
        Py_ssize_t length;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 10) {
            PyErr_SetString(PyExc_ValueError, "a table entry must be a 10-tuple");
            return -1;
        }
        if (get_ssize(t, 0, &length) < 0)
            return -1;
        if (length > longest)
            longest = length;
    }
    if (longest > LX_MAX_WORD_LENGTH) {
        PyErr_SetString(PyExc_ValueError, "word length out of range");
        return -1;
    }
    return longest;
}

/* One length's tables, checked against the buffer: 0, or -1 with an error set. */
static int
read_length_table(Probe *self, PyObject *entry)
{
    const unsigned char *base = self->view.buf;
    Py_ssize_t size = self->view.len, f[10];
    for (int j = 0; j < 10; j++)
        if (get_ssize(entry, j, &f[j]) < 0)
            return -1;
    Py_ssize_t length = f[0], slots_off = f[1], n_slots = f[2], width = f[3];
    Py_ssize_t home = f[4], rows_off = f[5], count = f[6], first_id = f[7];
    Py_ssize_t order_off = f[8], order_width = f[9];
    if (length == 0 || (width != 2 && width != 4) || home < 1 || home >= n_slots || home > (Py_ssize_t)0xFFFFFFFF
        || slots_off > size || n_slots > (size - slots_off) / width || rows_off > size
        || (count && count > (size - rows_off) / length) || (order_width != 2 && order_width != 4) || order_off > size
        || (count && count > (size - order_off) / order_width) || self->tables[length].width) {
        PyErr_Format(PyExc_ValueError, "the hash table of length %zd does not fit the file", length);
        return -1;
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
    return 0;
}

/* Every length's tables. */
static int
read_length_tables(Probe *self, PyObject *tables)
{
    Py_ssize_t longest = longest_length(tables);
    if (longest < 0)
        return -1;
    if ((self->tables = PyMem_Calloc((size_t)longest + 1, sizeof(LengthTable))) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->max_length = longest;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(tables); k++)
        if (read_length_table(self, PyList_GET_ITEM(tables, k)) < 0)
            return -1;
    return 0;
}

/* attach(buffer, byte_table, tables, encodes, n_tiles[, prepare, multi]): tables is a list of tuples
 * (length, slots_offset, n_slots, width, home, rows_offset, count, first_id, order_offset, order_width);
 * encodes: whether byte_table maps ASCII words to tile codes; n_tiles: the alphabet's size (the
 * codes a row may hold are 1..n_tiles); prepare and multi: an alphabet's multi-letter program
 * (Alphabet.latin1_program). */
static PyObject *
Probe_attach(Probe *self, PyObject *args)
{
    PyObject *buffer, *tables, *multi = NULL;
    Py_buffer table, prep = {0};
    int encodes;
    unsigned n_tiles;
    if (!PyArg_ParseTuple(args, "Oy*O!pI|y*O!", &buffer, &table, &PyList_Type, &tables, &encodes, &n_tiles, &prep,
                          &PyList_Type, &multi))
        return NULL;
    int ok = n_tiles <= LX_MAX_ALPHABET_TILES;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "more tiles than an alphabet holds");
    ok = ok && read_multi_letter(self, &prep, multi) == 0;
    if (ok && (table.len != 256 && table.len != 512)) {
        PyErr_SetString(PyExc_ValueError, "the character table must hold 256 or 512 entries");
        ok = 0;
    }
    if (ok) {
        probe_detach(self);
        read_character_table(self, &table);
    }
    if (prep.obj != NULL)
        PyBuffer_Release(&prep);
    PyBuffer_Release(&table);
    if (!ok || PyObject_GetBuffer(buffer, &self->view, PyBUF_SIMPLE) < 0)
        return NULL;
    self->attached = 1;
    self->encodes = multi != NULL ? (encodes ? 2 : 0) : encodes;
    self->alphabet_tiles = n_tiles;
    if (read_length_tables(self, tables) < 0) {
        probe_detach(self);
        return NULL;
    }
    Py_RETURN_NONE;
}

PyObject *
lx_probe_past_deadline(const Probe *self)
{
    if (self->deadline_error == NULL)
        return PyLong_FromLong(LX_WALK_PAST_DEADLINE);
    PyErr_SetString(self->deadline_error, "the query ran past its deadline");
    return NULL;
}

/* set_deadline_error(cls): the exception class the one-call answers raise past their deadline. */
static PyObject *
Probe_set_deadline_error(Probe *self, PyObject *cls)
{
    if (!PyExceptionClass_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "set_deadline_error() needs an exception class");
        return NULL;
    }
    Py_XSETREF(self->deadline_error, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyObject *
Probe_release(Probe *self, PyObject *Py_UNUSED(ignored))
{
    probe_detach(self);
    Py_RETURN_NONE;
}

/* attach_graph(offset, n_arcs, root, n_tiles): the word graph lies in the attached buffer; called
 * once Python has checked it spells the buckets' words, after which prefix_words, rack_words,
 * pattern_words and cross_words may answer. */
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
    self->graph_tiles = n_tiles >= 1 && n_tiles <= LX_MAX_ALPHABET_TILES ? n_tiles : 0;
    for (unsigned t = 1; t <= self->graph_tiles; t++)
        if (!self->labels[t])
            self->graph_tiles = 0; /* a tile without a one-letter ASCII label: words are decoded in Python */
    Py_RETURN_NONE;
}

static PyMethodDef Probe_methods[] = {
    {"attach", (PyCFunction)Probe_attach, METH_VARARGS,
     "attach(buffer, char_table, tables, encodes[, prepare, multi]) -> None\n\n"
     "Read a mapped lexicon: its hash tables, buckets and alphagram orders (one tuple per length)."},
    {"release", (PyCFunction)Probe_release, METH_NOARGS, "release() -> None\n\nLet go of the buffer."},
    {"set_deadline_error", (PyCFunction)Probe_set_deadline_error, METH_O,
     "set_deadline_error(cls) -> None\n\nThe exception class the one-call answers raise past their deadline."},
    {"attach_graph", (PyCFunction)Probe_attach_graph, METH_VARARGS,
     "attach_graph(offset, n_arcs, root, n_tiles) -> None\n\n"
     "The word graph in the buffer, checked by Python: the one-call answers may use it."},
    {"id_of_codes", (PyCFunction)Probe_id_of_codes, METH_O,
     "id_of_codes(codes) -> int\n\nThe word id of the tile codes; -1 not a word; -2 released."},
    {"id_of_word", (PyCFunction)lx_probe_id_of_word, METH_O,
     "id_of_word(word) -> int\n\nThe word id of a str; -1 not a word; -2 when Python must encode it."},
    {"check_words", (PyCFunction)lx_probe_check_words, METH_VARARGS,
     "check_words(words, out) -> int\n\n"
     "out[i] = 1 if words[i] is a word, 0 if not, 2 if Python must decide; returns how many are 2."},
    {"set_graph", (PyCFunction)lx_probe_set_graph, METH_VARARGS,
     "set_graph(offset, n_arcs, root, n_tiles) -> None\n\n"
     "The word graph in the buffer, as the walks read it (before it is checked: the check walks it)."},
    {"walk_rack", (PyCFunction)lx_probe_walk_rack, METH_VARARGS,
     "walk_rack(rack, through, blanks, lengths, mode[, want_ids[, deadline]]) -> bytes | int\n\n"
     "The words a rack makes (lengths: (shortest, longest)), by a walk of the word graph; an int of WALK_ANSWERS "
     "when it stopped early."},
    {"walk_pattern", (PyCFunction)lx_probe_walk_pattern, METH_VARARGS,
     "walk_pattern(masks, lengths, want_ids, limit[, deadline[, budget]]) -> bytes | int\n\n"
     "The words whose tiles fit per-position sets (lengths: (shortest, longest)), by a walk of the word graph; an "
     "int of WALK_ANSWERS when it stopped early (budget: most arcs read)."},
    {"exact_anagram_ids", (PyCFunction)lx_probe_exact_anagram_ids, METH_VARARGS,
     "exact_anagram_ids(codes, blanks, n_tiles[, deadline]) -> bytes | -2 | None\n\n"
     "Ids (int64, ascending) of the exact anagrams of codes plus blanks, from the alphagram index."},
    {"exact_anagram_words", (PyCFunction)(void (*)(void))lx_probe_exact_anagram_words, METH_FASTCALL,
     "exact_anagram_words(rack[, deadline]) -> list[str] | None\n\n"
     "The exact anagrams of a plain ASCII rack ('?' a blank)."},
    {"rack_words", (PyCFunction)lx_probe_rack_words, METH_VARARGS,
     "rack_words(rack, min_len, mode[, deadline]) -> list[str] | None\n\n"
     "The sub- (mode 0) or super-anagrams (2) of a rack."},
    {"prefix_words", (PyCFunction)lx_probe_prefix_words, METH_VARARGS,
     "prefix_words(prefix, min_len, max_len[, deadline]) -> list[str] | None\n\n"
     "The words starting with a plain ASCII prefix."},
    {"pattern_words", (PyCFunction)(void (*)(void))lx_probe_pattern_words, METH_FASTCALL,
     "pattern_words(pattern[, deadline]) -> list[str] | None\n\nThe words matching a plain fixed-length pattern."},
    {"cross_words", (PyCFunction)lx_probe_cross_words, METH_VARARGS,
     "cross_words(pattern_a, pos_a, pattern_b, pos_b[, deadline]) -> (tiles, words_a, words_b, counts_a, counts_b)"
     " | None\n\n"
     "Two crossing plain patterns: the tiles both allow where they cross, and the words that use them."},
    {NULL}};

PyTypeObject lx_probe_type = {
    .ob_base = {PyObject_HEAD_INIT(NULL) 0},
    .tp_name = LX_MODULE_NAME ".Probe",
    .tp_doc = "Exact lookups over a mapped lexicon's hash index.",
    .tp_basicsize = sizeof(Probe),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Probe_new,
    .tp_dealloc = (destructor)Probe_dealloc,
    .tp_methods = Probe_methods,
};

int
lx_add_probe(PyObject *module)
{
    return lx_add_type(module, &lx_probe_type, "Probe");
}
