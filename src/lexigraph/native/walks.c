/*
 * walks.c: walks of the word graph: a prefix followed (walk_codes), the words a rack makes
 * (walk_rack, rack_words), the words that fit per-position tile sets (walk_pattern, prefix_words).
 *
 * Why C: a walk's cost follows its answers and the branches it opens, not the list, but in Python
 * each arc visited costs a dozen bytecodes. The Python twins are lexigraph.engine.wordgraph
 * (WordGraph.follow) and lexigraph.engine.python.walks (rack_walk, pattern_walk), which
 * tests hold to the same answers. Walks read the arc records through arc.h and stop, answering
 * "the graph points outside itself", at any index past the graph or tile outside the alphabet: the
 * file may be hostile. They go no deeper than the lexicon's longest word (a graph whose paths go
 * further, round a cycle, is forged), stop at their deadline (deadline.h), and the walk that checks
 * a graph once (CompiledEngine.check_consistent) also stops at a budget of arcs read.
 */
#include "walks.h"

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
 * -1 when memory runs out. The walks below, the alphagram walk and the pattern answers all write
 * their answers this way. */
int
lx_out_reserve(char **buf, Py_ssize_t len, Py_ssize_t *cap, Py_ssize_t need)
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

/* What a walk hands back to Python: why it stopped early (deadline.h), else its output bytes. */
static PyObject *
walk_answer(int stop, const char *out, Py_ssize_t len)
{
    if (stop)
        return PyLong_FromLong(stop);
    return PyBytes_FromStringAndSize(out ? out : "", len);
}

/* The longest word a walk may spell: what the caller asks, at most the lexicon's longest word (a
 * path beyond it, round a cycle of a forged graph, is never a word) and the path buffer's size. */
static int
walk_depth(const Probe *self, int max_len)
{
    if (max_len > self->max_length)
        max_len = (int)self->max_length;
    return max_len > LX_MAX_WORD_LENGTH ? LX_MAX_WORD_LENGTH : max_len;
}

/* ---- Anagram walks: the word graph searched with a rack ---------------------
 *
 * walk_rack(rack, through, blanks, (min_len, max_len), mode[, want_ids[, deadline]])
 * -> bytes of little-endian int64 word ids (want_ids false: each word's codes and a 0 byte), in
 * alphabetical (depth-first) order, or a walk's answer of deadline.h (-1: the graph points outside
 * itself; -2: the deadline passed).
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
    unsigned char supply[256]; /* rack + through, what can be used without a blank */
    unsigned char through[256];
    unsigned char used[256];
    int blanks_left;
    int through_missing; /* through tiles the path has not used yet */
    int rack_missing;    /* super: rack + through tiles not used yet */
    int min_len, max_len, mode;
    unsigned char path[256];
    const Probe *probe;
    char *out;
    Py_ssize_t out_len, out_cap;
    int stop;     /* 0, or why the walk stopped early (deadline.h) */
    int want_ids; /* 1: int64 ids; 0: each word's codes and a 0 byte */
    LxDeadline deadline;
} RackWalk;

static int
walk_emit(RackWalk *w, int depth)
{
    Py_ssize_t need = w->want_ids ? 8 : depth + 1;
    int64_t v = 0;
    if (w->want_ids) {
        v = lx_probe_codes(w->probe, w->path, depth);
        if (v < 0)
            return 0; /* a forged graph's word the hash index lacks: not a word */
    }
    if (lx_out_reserve(&w->out, w->out_len, &w->out_cap, need) < 0)
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
    if (lx_deadline_passed(&w->deadline)) { /* a step per list entered: the clock read every few thousand */
        w->stop = LX_WALK_PAST_DEADLINE;
        return 0;
    }
    unsigned previous = 0;
    for (size_t i = node;; i++) {
        if (i - node >= w->n_tiles)
            return 0; /* a list holds at most one arc per tile, as the Python walk reads it */
        if (i >= w->n_arcs) {
            w->stop = LX_WALK_OUTSIDE;
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
        if (t > w->n_tiles) {
            w->stop = LX_WALK_OUTSIDE; /* a tile outside the alphabet: a forged graph */
            return 0;
        }
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
            if (LX_ACCEPTS(rec) && len >= w->min_len && missing == 0 && (w->mode != WALK_EXACT || len == w->max_len)) {
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
        if (w->stop)
            return 0;
    next:
        if (LX_IS_LAST(rec))
            return 0;
    }
}

/* set_graph(offset, n_arcs, root, n_tiles): the word graph lies in the attached buffer at `offset`; the walks
 * read it from then on (its root and tiles are checked by each walk, as a forged file's may be anything). */
PyObject *
lx_probe_set_graph(Probe *self, PyObject *args)
{
    Py_ssize_t offset, n_arcs, root;
    unsigned n_tiles;
    if (!PyArg_ParseTuple(args, "nnnI:set_graph", &offset, &n_arcs, &root, &n_tiles))
        return NULL;
    if (!self->attached || offset < 0 || n_arcs < 0 || offset > self->view.len
        || n_arcs > (self->view.len - offset) / LX_RECORD_SIZE || n_tiles < 1 || n_tiles > LX_MAX_ALPHABET_TILES) {
        PyErr_SetString(PyExc_ValueError, "the word graph does not fit the file");
        return NULL;
    }
    self->walk_arcs = (const unsigned char *)self->view.buf + offset;
    self->walk_arc_count = (size_t)n_arcs;
    self->walk_root = root;
    self->walk_tiles = n_tiles;
    Py_RETURN_NONE;
}

/* The word lengths a walk takes, (shortest, longest). */
static int
parse_lengths(PyObject *lengths, int *min_len, int *max_len)
{
    return PyArg_ParseTuple(lengths, "ii", min_len, max_len) ? 0 : -1;
}

PyObject *
lx_probe_walk_rack(Probe *self, PyObject *args)
{
    Py_buffer rack, through;
    PyObject *lengths;
    int blanks, min_len, max_len, mode, want_ids = 1;
    PyObject *deadline = NULL;
    if (!PyArg_ParseTuple(args, "y*y*iO!i|pO:walk_rack", &rack, &through, &blanks, &PyTuple_Type, &lengths, &mode,
                          &want_ids, &deadline))
        return NULL;
    if (parse_lengths(lengths, &min_len, &max_len) < 0) {
        PyBuffer_Release(&rack);
        PyBuffer_Release(&through);
        return NULL;
    }
    PyObject *result = NULL;
    RackWalk *w = PyMem_Calloc(1, sizeof(RackWalk));
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    w->want_ids = want_ids;
    if (lx_deadline_parse(deadline, &w->deadline) < 0)
        goto done;
    if (!self->attached || self->walk_arcs == NULL) {
        PyErr_SetString(PyExc_ValueError, "the lexicon is closed");
        goto done;
    }
    if (rack.len != 256 || through.len != 256 || mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "bad walk arguments");
        goto done;
    }
    const Py_ssize_t root = self->walk_root;
    w->arcs = self->walk_arcs;
    w->n_arcs = self->walk_arc_count;
    w->n_tiles = self->walk_tiles;
    w->probe = self;
    w->blanks_left = blanks < 0 ? 0 : blanks;
    w->min_len = min_len;
    w->max_len = walk_depth(self, max_len);
    w->mode = mode;
    for (int t = 0; t < 256; t++) {
        unsigned char r = ((const unsigned char *)rack.buf)[t], th = ((const unsigned char *)through.buf)[t];
        w->through[t] = th;
        w->supply[t] = (unsigned char)(r + th > 255 ? 255 : r + th);
        w->through_missing += th;
        w->rack_missing += w->supply[t];
    }
    if (root < 0 || (size_t)root >= w->n_arcs) {
        w->stop = LX_WALK_OUTSIDE;
    } else if (walk_rack_from(w, (size_t)root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = walk_answer(w->stop, w->out, w->out_len);
done:
    if (w != NULL)
        PyMem_Free(w->out);
    PyMem_Free(w);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&through);
    return result;
}

/* ---- Pattern walks: every word whose tiles fit per-position sets ------------
 *
 * walk_pattern(masks, (min_len, max_len), want_ids, limit[, deadline[, budget]]) -> bytes, or a walk's answer of deadline.h (-1: the graph points outside itself; -2: the
 * deadline passed; -3: the walk read more than `budget` arcs).
 *
 * masks: 32 bytes (a 256-bit set of tile codes) per position; positions past
 * the masks allow any tile. Words of min_len..max_len tiles, in alphabetical
 * (depth-first) order, at most `limit` of them (limit < 0: all). With
 * want_ids the result is little-endian int64 word ids (from the hash probe; -1
 * for a word it lacks);
 * otherwise each word's tile codes followed by a 0 byte. The walk's state is
 * PatternWalk (walks.h): pattern.c walks the same way. */

static int
pattern_out(PatternWalk *w, const void *data, Py_ssize_t n)
{
    if (lx_out_reserve(&w->out, w->out_len, &w->out_cap, n) < 0)
        return -1;
    memcpy(w->out + w->out_len, data, (size_t)n);
    w->out_len += n;
    return 0;
}

/* The budget's count for the list at `node`: its arcs a prefix walk can reach (tiles rising, at
 * most one per tile), as lexigraph.engine.python.walks.pattern_walk counts them; 0 when the walk
 * must stop (stop set). */
static int
count_list(PatternWalk *w, size_t node)
{
    long long reachable = 0;
    unsigned previous = 0;
    for (size_t i = node; i - node < w->n_tiles; i++) {
        if (i >= w->n_arcs) {
            w->stop = LX_WALK_OUTSIDE;
            return 0;
        }
        uint64_t rec = lx_arc_at(w->arcs, i);
        if (LX_TILE(rec) > previous) {
            previous = LX_TILE(rec);
            reachable++;
        }
        if (LX_IS_LAST(rec))
            break;
    }
    w->visited += reachable;
    if (w->visited > w->budget) {
        w->stop = LX_WALK_OVER_BUDGET;
        return 0;
    }
    return 1;
}

int
lx_pattern_walk_from(PatternWalk *w, size_t node, int depth)
{
    if (depth >= w->max_len || !node)
        return 0;
    if (w->budget >= 0 && !count_list(w, node))
        return 0;
    if (lx_deadline_passed(&w->deadline)) { /* a step per list entered: the clock read every few thousand */
        w->stop = LX_WALK_PAST_DEADLINE;
        return 0;
    }
    const unsigned char *mask = depth < w->n_masks ? w->masks + 32 * depth : NULL;
    unsigned previous = 0;
    for (size_t i = node;; i++) {
        if (w->limit >= 0 && w->found >= w->limit)
            return 0;
        if (i - node >= w->n_tiles)
            return 0;
        if (i >= w->n_arcs) {
            w->stop = LX_WALK_OUTSIDE;
            return 0;
        }
        uint64_t rec = lx_arc_at(w->arcs, i);
        unsigned t = LX_TILE(rec);
        if (t > previous) {
            previous = t;
            if (t > w->n_tiles) {
                w->stop = LX_WALK_OUTSIDE; /* a tile outside the alphabet: a forged graph */
                return 0;
            }
            if (mask == NULL || (mask[t >> 3] >> (t & 7)) & 1) {
                w->path[depth] = (unsigned char)t;
                int len = depth + 1;
                if (LX_ACCEPTS(rec) && len >= w->min_len) {
                    if (w->want_ids) {
                        /* -1 for a word the hash index lacks (only in a forged file) */
                        int64_t v = lx_probe_codes(w->probe, w->path, len);
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
                if (lx_pattern_walk_from(w, LX_TARGET(rec), len) < 0)
                    return -1;
                if (w->stop)
                    return 0;
            }
        }
        if (LX_IS_LAST(rec))
            return 0;
    }
}

PyObject *
lx_probe_walk_pattern(Probe *self, PyObject *args)
{
    Py_buffer masks;
    PyObject *lengths;
    Py_ssize_t limit;
    int min_len, max_len, want_ids;
    PyObject *deadline = NULL;
    long long budget = -1;
    if (!PyArg_ParseTuple(args, "y*O!pn|OL:walk_pattern", &masks, &PyTuple_Type, &lengths, &want_ids, &limit, &deadline,
                          &budget))
        return NULL;
    if (parse_lengths(lengths, &min_len, &max_len) < 0) {
        PyBuffer_Release(&masks);
        return NULL;
    }
    PyObject *result = NULL;
    PatternWalk *w = PyMem_Calloc(1, sizeof(PatternWalk));
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (lx_deadline_parse(deadline, &w->deadline) < 0)
        goto done;
    if (!self->attached || self->walk_arcs == NULL) {
        PyErr_SetString(PyExc_ValueError, "the lexicon is closed");
        goto done;
    }
    if (masks.len % 32 || masks.len / 32 > LX_MAX_WORD_LENGTH) {
        PyErr_SetString(PyExc_ValueError, "bad walk arguments");
        goto done;
    }
    const Py_ssize_t root = self->walk_root;
    w->arcs = self->walk_arcs;
    w->n_arcs = self->walk_arc_count;
    w->n_tiles = self->walk_tiles;
    w->masks = masks.buf;
    w->n_masks = (int)(masks.len / 32);
    w->min_len = min_len;
    w->max_len = walk_depth(self, max_len);
    w->want_ids = want_ids;
    w->limit = limit;
    w->budget = budget < 0 ? -1 : budget;
    w->probe = self;
    if (root < 0 || (size_t)root >= w->n_arcs)
        w->stop = LX_WALK_OUTSIDE;
    else if (lx_pattern_walk_from(w, (size_t)root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = walk_answer(w->stop, w->out, w->out_len);
done:
    if (w != NULL)
        PyMem_Free(w->out);
    PyMem_Free(w);
    PyBuffer_Release(&masks);
    return result;
}

/* Words of a walk's output (codes, each word ended by a 0 byte) as a list of str, through the
 * one-letter ASCII labels. */
PyObject *
lx_words_from_codes(const Probe *self, const char *out, Py_ssize_t count)
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

/* rack_words(rack, min_len, mode[, deadline]) -> the sub- (mode 0) or super-anagrams (2; also a
 * trailing '*') of a plain ASCII rack ('?' a blank, at most three), alphabetically, as a list of
 * str; past the deadline, the probe's deadline error; None when Python must answer (other characters, more blanks,
 * no checked graph yet, a forged graph). */
PyObject *
lx_probe_rack_words(Probe *self, PyObject *args)
{
    PyObject *rack, *deadline = NULL;
    int min_len, mode;
    if (!PyArg_ParseTuple(args, "Uii|O", &rack, &min_len, &mode, &deadline))
        return NULL;
    LxDeadline until;
    if (lx_deadline_parse(deadline, &until) < 0)
        return NULL;
    if (!self->attached || self->encodes != 1 || self->graph == NULL || !self->graph_tiles || !PyUnicode_IS_ASCII(rack)
        || (mode != WALK_SUB && mode != WALK_SUPER))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(rack);
    const unsigned char *text = PyUnicode_1BYTE_DATA(rack);
    if (n && text[n - 1] == '*') {
        mode = WALK_SUPER;
        n--;
    }
    if (n < 1 || n > LX_MAX_WORD_LENGTH)
        Py_RETURN_NONE;
    RackWalk *w = PyMem_Calloc(1, sizeof(RackWalk));
    if (w == NULL)
        return PyErr_NoMemory();
    w->deadline = until;
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
    if (w->blanks_left > LX_MAX_RACK_BLANKS || min_len < 1) {
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
        w->max_len = walk_depth(self, LX_MAX_WORD_LENGTH);
        w->blanks_left = 0; /* in a super-anagram a blank only raises the length */
    } else {
        w->max_len = walk_depth(self, size);
    }
    PyObject *result = NULL;
    if (walk_rack_from(w, self->graph_root, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (w->stop) {
        /* past the deadline: say so; otherwise the Python path raises the graph's error */
        result = w->stop == LX_WALK_PAST_DEADLINE ? lx_probe_past_deadline(self) : Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < w->out_len; i++)
        count += !w->out[i];
    result = lx_words_from_codes(self, w->out, count);
done:
    PyMem_Free(w->out);
    PyMem_Free(w);
    return result;
}

/* prefix_words(prefix, min_len, max_len[, deadline]) -> the words starting with a plain ASCII
 * prefix, in alphabetical order, as a list of str; past the deadline, the probe's deadline error; None when Python
 * must answer (no checked graph yet, other characters, an alphabet of multi-letter tiles, a forged
 * graph). */
PyObject *
lx_probe_prefix_words(Probe *self, PyObject *args)
{
    PyObject *prefix, *deadline = NULL;
    int min_len, max_len;
    if (!PyArg_ParseTuple(args, "Uii|O", &prefix, &min_len, &max_len, &deadline))
        return NULL;
    PatternWalk w;
    memset(&w, 0, sizeof w);
    if (lx_deadline_parse(deadline, &w.deadline) < 0)
        return NULL;
    if (!self->attached || self->encodes != 1 || self->graph == NULL || !self->graph_tiles
        || !PyUnicode_IS_ASCII(prefix))
        Py_RETURN_NONE;
    Py_ssize_t n = PyUnicode_GET_LENGTH(prefix);
    if (n > LX_MAX_WORD_LENGTH)
        Py_RETURN_NONE;
    const unsigned char *text = PyUnicode_1BYTE_DATA(prefix);
    unsigned char masks[32 * LX_MAX_WORD_LENGTH];
    memset(masks, 0, (size_t)(32 * n));
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = self->codes[text[i]];
        if (!c)
            Py_RETURN_NONE;
        masks[32 * i + (c >> 3)] |= (unsigned char)(1u << (c & 7));
    }
    w.arcs = self->graph;
    w.n_arcs = self->graph_arcs;
    w.n_tiles = self->graph_tiles;
    w.masks = masks;
    w.n_masks = (int)n;
    w.min_len = min_len;
    w.max_len = walk_depth(self, max_len);
    w.want_ids = 0;
    w.limit = -1;
    w.budget = -1;
    w.probe = self;
    if (lx_pattern_walk_from(&w, self->graph_root, 0) < 0) {
        PyMem_Free(w.out);
        return PyErr_NoMemory();
    }
    if (w.stop) {
        PyMem_Free(w.out);
        /* past the deadline: say so; otherwise the Python path raises the graph's error */
        if (w.stop == LX_WALK_PAST_DEADLINE)
            return lx_probe_past_deadline(self);
        Py_RETURN_NONE;
    }
    PyObject *out = lx_words_from_codes(self, w.out, w.found);
    PyMem_Free(w.out);
    return out;
}

static PyMethodDef walks_methods[] = {
    {"walk_codes", walk_codes, METH_VARARGS,
     "walk_codes(arcs, root, key, list_limit=0) -> (next list, accepts[, tiles]) | None | -1 (graph points outside "
     "itself)"},
    {NULL, NULL, 0, NULL},
};

int
lx_add_walks(PyObject *module)
{
    return PyModule_AddFunctions(module, walks_methods);
}
