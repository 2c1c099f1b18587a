/*
 * lexigraph._build: the builder's hot loops in C. The word graph's construction, the twin of
 * lexigraph/graph.py (build_trie, minimize(accept_on_edge=True), layout_arcs).
 *
 * graph(flat, starts, lens, max_arcs) -> (records: bytes, root) | None
 *
 * The words are given as in graph.build_trie: word i is
 * flat[starts[i] : starts[i] + lens[i]] (uint8 tile codes), starts and lens
 * int64, words in strictly increasing code order. The result is the arc
 * records, little-endian 64-bit (layout in arc.h), byte for byte those of
 * the NumPy code, including the numbering of equivalence classes by 64-bit
 * signature (which decides where a shared suffix list is stored). None means
 * two different nodes of one height share a signature: the caller runs the
 * NumPy code, which settles that case exactly.
 *
 * Memory: about 60 bytes per trie node, and nodes <= tiles + 1.
 *
 * hash_table(rows, count, length, size) builds one length bucket's
 * exact-match table, the twin of hashindex.build_table; alphagram_order(rows,
 * count, length) a bucket's alphagram order, the twin of builder.alphagram_order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arc.h"

typedef int64_t i64;
typedef uint64_t u64;

static u64
mix64(u64 x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

typedef struct {
    u64 sig;
    i64 node;
} SigNode;

typedef struct {
    u64 sig;
    i64 node; /* representative; -1: empty slot */
    i64 cls;
} Slot;

static int
cmp_signode(const void *a, const void *b)
{
    const SigNode *x = a, *y = b;
    if (x->sig != y->sig)
        return x->sig < y->sig ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

/* context for sorting arc lists read backwards (qsort has no context argument; the GIL is held) */
static const i64 *g_keys;
static const i64 *g_end;  /* index of the last key of each list */
static const i64 *g_deg;

typedef struct {
    i64 k0, k1; /* the list's last and second-last keys (-1: none), which settle most comparisons */
    i64 idx;
} BackKey;

static int
cmp_backwards(const void *a, const void *b)
{
    const BackKey *x = a, *y = b;
    if (x->k0 != y->k0)
        return x->k0 < y->k0 ? -1 : 1;
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    i64 i = x->idx, j = y->idx;
    i64 di = g_deg[i], dj = g_deg[j];
    i64 n = di < dj ? di : dj;
    const i64 *ki = g_keys + g_end[i], *kj = g_keys + g_end[j];
    for (i64 p = 2; p < n; p++) {
        i64 u = ki[-p], v = kj[-p];
        if (u != v)
            return u < v ? -1 : 1;
    }
    if (di != dj)
        return di < dj ? -1 : 1;
    return (i > j) - (i < j);
}

static PyObject *
build_graph(PyObject *self, PyObject *args)
{
    Py_buffer fb = {0}, sb = {0}, lb = {0};
    unsigned long long max_arcs;
    PyObject *result = NULL;
    /* all work arrays; freed at the end */
    i64 *cur = NULL, *level_count = NULL, *level_off = NULL, *level_fill = NULL;
    unsigned char *label = NULL, *term = NULL;
    int32_t *height = NULL;
    i64 *first_child = NULL, *n_children = NULL, *node_class = NULL, *reps = NULL;
    i64 *hcount = NULL, *hoff = NULL, *by_height = NULL;
    SigNode *sn = NULL, *uniq = NULL;
    Slot *table = NULL;
    size_t tcap = 0;
    i64 *slot_of = NULL;
    i64 *keys = NULL, *lists = NULL, *lend = NULL, *ldeg = NULL, *order = NULL, *host_of = NULL;
    i64 *hosts = NULL, *host_start = NULL, *start_of_class = NULL, *lrep = NULL;
    unsigned char *out = NULL;
    BackKey *bk = NULL;

    if (!PyArg_ParseTuple(args, "y*y*y*K", &fb, &sb, &lb, &max_arcs))
        return NULL;
    if (sb.len != lb.len || sb.len % 8 != 0) {
        PyErr_SetString(PyExc_ValueError, "starts and lens must be int64 arrays of one length");
        goto done;
    }
    const unsigned char *flat = fb.buf;
    const i64 *starts = sb.buf, *lens = lb.buf;
    Py_ssize_t n = sb.len / 8;
    Py_ssize_t flat_len = fb.len;

    /* --- checks, and the trie's size per depth --- */
    i64 maxlen = 0, nodes = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 s = starts[i], L = lens[i];
        if (s < 0 || L < 0 || L > flat_len || s > flat_len - L) {
            PyErr_SetString(PyExc_ValueError, "a word lies outside the tile array");
            goto done;
        }
        if (L > maxlen)
            maxlen = L;
    }
    if (maxlen > 65535) {
        PyErr_SetString(PyExc_ValueError, "words longer than 65535 tiles");
        goto done;
    }
    level_count = calloc((size_t)maxlen + 2, sizeof(i64));
    level_off = calloc((size_t)maxlen + 2, sizeof(i64));
    level_fill = calloc((size_t)maxlen + 2, sizeof(i64));
    cur = calloc((size_t)maxlen + 2, sizeof(i64));
    if (!level_count || !level_off || !level_fill || !cur) {
        PyErr_NoMemory();
        goto done;
    }
    /* lcp with the previous word; count new nodes per depth */
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 L = lens[i], lcp = 0;
        if (i > 0) {
            const unsigned char *a = flat + starts[i - 1], *b = flat + starts[i];
            i64 m = lens[i - 1] < L ? lens[i - 1] : L;
            while (lcp < m && a[lcp] == b[lcp])
                lcp++;
            int increasing = lcp < m ? a[lcp] < b[lcp] : lens[i - 1] < L;
            if (!increasing) {
                PyErr_SetString(PyExc_ValueError, "words must be in strictly increasing code order");
                goto done;
            }
        }
        for (i64 d = lcp + 1; d <= L; d++)
            level_count[d]++;
        nodes += L - lcp;
    }
    level_off[0] = 0;
    level_count[0] = 1;
    for (i64 d = 1; d <= maxlen + 1; d++)
        level_off[d] = level_off[d - 1] + level_count[d - 1];

    size_t N = (size_t)nodes;
    label = calloc(N, 1);
    term = calloc(N, 1);
    height = calloc(N, sizeof(int32_t));
    first_child = calloc(N, sizeof(i64));
    n_children = calloc(N, sizeof(i64));
    node_class = malloc(N * sizeof(i64));
    if (!label || !term || !height || !first_child || !n_children || !node_class) {
        PyErr_NoMemory();
        goto done;
    }

    /* --- trie in breadth-first order: level by level, within a level in word order --- */
    cur[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 L = lens[i], lcp = 0;
        const unsigned char *w = flat + starts[i];
        if (i > 0) {
            const unsigned char *a = flat + starts[i - 1];
            i64 m = lens[i - 1] < L ? lens[i - 1] : L;
            while (lcp < m && a[lcp] == w[lcp])
                lcp++;
        }
        for (i64 d = lcp + 1; d <= L; d++) {
            i64 id = level_off[d] + level_fill[d]++;
            i64 parent = cur[d - 1];
            label[id] = w[d - 1];
            if (n_children[parent] == 0)
                first_child[parent] = id;
            n_children[parent]++;
            cur[d] = id;
        }
        if (L > 0)
            term[cur[L]] = 1;
    }
    /* heights bottom-up (children come after their parent); first_child of a leaf as NumPy's searchsorted */
    for (i64 v = nodes - 1; v >= 0; v--) {
        i64 h = 0;
        if (n_children[v]) {
            for (i64 c = first_child[v]; c < first_child[v] + n_children[v]; c++)
                if (height[c] + 1 > h)
                    h = height[c] + 1;
        }
        height[v] = (int32_t)h;
    }

    /* --- minimisation: nodes by height (ascending id within a height) --- */
    i64 H = height[0];
    hcount = calloc((size_t)H + 2, sizeof(i64));
    hoff = calloc((size_t)H + 2, sizeof(i64));
    by_height = malloc(N * sizeof(i64));
    reps = malloc(N * sizeof(i64));
    sn = malloc(N * sizeof(SigNode));
    uniq = malloc(N * sizeof(SigNode));
    slot_of = malloc(N * sizeof(i64));
    if (!hcount || !hoff || !by_height || !reps || !sn || !uniq || !slot_of) {
        PyErr_NoMemory();
        goto done;
    }
    for (i64 v = 0; v < nodes; v++)
        hcount[height[v]]++;
    for (i64 h = 1; h <= H + 1; h++)
        hoff[h] = hoff[h - 1] + hcount[h - 1];
    {
        i64 *fill = calloc((size_t)H + 2, sizeof(i64));
        if (!fill) {
            PyErr_NoMemory();
            goto done;
        }
        for (i64 v = 0; v < nodes; v++)
            by_height[hoff[height[v]] + fill[height[v]]++] = v;
        free(fill);
    }
    i64 n_classes = 1;
    reps[0] = by_height[0]; /* the first leaf: there is always one */
    for (i64 k = 0; k < hcount[0]; k++)
        node_class[by_height[k]] = 0;
    for (i64 h = 1; h <= H; h++) {
        i64 cnt = hcount[h];
        const i64 *hn = by_height + hoff[h];
        if (!cnt)
            continue;
        for (i64 k = 0; k < cnt; k++) {
            i64 v = hn[k], deg = n_children[v], f = first_child[v];
            u64 sig = 0;
            for (i64 p = 0; p < deg; p++) {
                i64 c = f + p;
                u64 key = ((u64)label[c] << 40) | ((u64)node_class[c] << 1) | (u64)term[c];
                sig += mix64(key ^ ((u64)p << 58));
            }
            sig += mix64((u64)deg);
            sn[k].sig = sig;
            sn[k].node = v;
        }
        /* distinct signatures through a hash table (first node of each is its representative),
           then classes numbered in ascending signature order, as np.unique does */
        size_t cap = 16;
        while (cap < (size_t)cnt * 2)
            cap <<= 1;
        if (cap > tcap) {
            free(table);
            table = malloc(cap * sizeof(Slot));
            tcap = cap;
            if (!table) {
                PyErr_NoMemory();
                goto done;
            }
        }
        for (size_t t = 0; t < cap; t++)
            table[t].node = -1;
        i64 nu = 0;
        for (i64 k = 0; k < cnt; k++) {
            u64 sig = sn[k].sig;
            size_t t = (size_t)(mix64(sig) & (cap - 1));
            while (table[t].node >= 0 && table[t].sig != sig)
                t = (t + 1) & (cap - 1);
            if (table[t].node < 0) {
                table[t].sig = sig;
                table[t].node = sn[k].node;
                uniq[nu].sig = sig;
                uniq[nu].node = (i64)t;
                nu++;
            }
            else {
                /* verify the node equals its group's representative, arc by arc */
                i64 v = sn[k].node, rep = table[t].node, deg = n_children[v];
                int same = deg == n_children[rep];
                for (i64 p = 0; same && p < deg; p++) {
                    i64 a = first_child[v] + p, b = first_child[rep] + p;
                    same = label[a] == label[b] && term[a] == term[b] && node_class[a] == node_class[b];
                }
                if (!same) { /* a 64-bit collision: let the NumPy code settle it */
                    result = Py_None;
                    Py_INCREF(result);
                    goto done;
                }
            }
            slot_of[k] = (i64)t;
        }
        qsort(uniq, (size_t)nu, sizeof(SigNode), cmp_signode);
        for (i64 u = 0; u < nu; u++) {
            Slot *e = &table[uniq[u].node];
            reps[n_classes + u] = e->node;
            e->cls = n_classes + u;
        }
        for (i64 k = 0; k < cnt; k++)
            node_class[sn[k].node] = table[slot_of[k]].cls;
        n_classes += nu;
    }

    /* --- layout: lists stored inside the lists they end, hosts in breadth-first order --- */
    keys = malloc(N * sizeof(i64));
    lists = malloc((size_t)n_classes * sizeof(i64));
    lend = malloc((size_t)n_classes * sizeof(i64));
    ldeg = malloc((size_t)n_classes * sizeof(i64));
    order = malloc((size_t)n_classes * sizeof(i64));
    host_of = malloc((size_t)n_classes * sizeof(i64));
    hosts = malloc((size_t)n_classes * sizeof(i64));
    host_start = calloc((size_t)n_classes, sizeof(i64));
    start_of_class = calloc((size_t)n_classes, sizeof(i64));
    lrep = malloc((size_t)n_classes * sizeof(i64));
    if (!keys || !lists || !lend || !ldeg || !order || !host_of || !hosts || !host_start || !start_of_class
        || !lrep) {
        PyErr_NoMemory();
        goto done;
    }
    for (i64 v = 0; v < nodes; v++)
        keys[v] = ((i64)label[v] << 33) | ((i64)term[v] << 32) | node_class[v];
    i64 nl = 0;
    for (i64 k = 0; k < n_classes; k++) {
        i64 d = n_children[reps[k]];
        if (d > 0) {
            lists[nl] = k;
            ldeg[nl] = d;
            lend[nl] = first_child[reps[k]] + d - 1;
            lrep[nl] = reps[k];
            nl++;
        }
    }
    bk = malloc(((size_t)nl + 1) * sizeof(BackKey));
    if (!bk) {
        PyErr_NoMemory();
        goto done;
    }
    for (i64 i = 0; i < nl; i++) {
        bk[i].k0 = keys[lend[i]];
        bk[i].k1 = ldeg[i] > 1 ? keys[lend[i] - 1] : -1;
        bk[i].idx = i;
    }
    g_keys = keys;
    g_end = lend;
    g_deg = ldeg;
    qsort(bk, (size_t)nl, sizeof(BackKey), cmp_backwards);
    for (i64 i = 0; i < nl; i++)
        order[i] = bk[i].idx;
    /* host of rank r: the first rank >= r whose list is not a proper backward prefix of the next */
    {
        i64 host_rank = -1;
        for (i64 r = nl - 1; r >= 0; r--) {
            int prefix_of_next = 0;
            if (r + 1 < nl) {
                i64 a = order[r], b = order[r + 1];
                if (ldeg[a] < ldeg[b]) {
                    prefix_of_next = 1;
                    for (i64 p = 0; p < ldeg[a]; p++)
                        if (keys[lend[a] - p] != keys[lend[b] - p]) {
                            prefix_of_next = 0;
                            break;
                        }
                }
            }
            if (!prefix_of_next)
                host_rank = r;
            host_of[order[r]] = order[host_rank];
        }
    }
    i64 nh = 0;
    for (i64 i = 0; i < nl; i++)
        if (host_of[i] == i)
            hosts[nh++] = i;
    /* hosts in breadth-first order of their representatives: one pass over the nodes */
    {
        i64 *host_at = keys; /* keys are no longer needed: reuse them, node -> list index + 1 */
        memset(host_at, 0, N * sizeof(i64));
        for (i64 k = 0; k < nh; k++)
            host_at[lrep[hosts[k]]] = hosts[k] + 1;
        nh = 0;
        for (i64 v = 0; v < nodes; v++)
            if (host_at[v])
                hosts[nh++] = host_at[v] - 1;
    }
    u64 total = 1;
    for (i64 k = 0; k < nh; k++) {
        host_start[hosts[k]] = (i64)total;
        total += (u64)ldeg[hosts[k]];
    }
    if (total > max_arcs) {
        result = Py_BuildValue("(OK)", Py_None, (unsigned long long)total);
        goto done;
    }
    for (i64 i = 0; i < nl; i++) {
        i64 host = host_of[i];
        start_of_class[lists[i]] = host_start[host] + ldeg[host] - ldeg[i];
    }
    out = calloc((size_t)total, LX_RECORD_SIZE);
    if (!out) {
        PyErr_NoMemory();
        goto done;
    }
    {
        unsigned char *p = out + LX_RECORD_SIZE;
        for (i64 k = 0; k < nh; k++) {
            i64 rep = lrep[hosts[k]], f = first_child[rep], d = n_children[rep];
            for (i64 c = f; c < f + d; c++) {
                u64 rec = (u64)label[c];
                if (term[c])
                    rec |= LX_ACCEPTS_BIT;
                if (c == f + d - 1)
                    rec |= LX_LAST_BIT;
                rec |= (u64)start_of_class[node_class[c]] << LX_TARGET_SHIFT;
                for (int b = 0; b < 8; b++)
                    p[b] = (unsigned char)(rec >> (8 * b));
                p += LX_RECORD_SIZE;
            }
        }
    }
    {
        i64 root = n_children[0] ? start_of_class[node_class[0]] : 0;
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(total * LX_RECORD_SIZE));
        if (bytes) {
            result = Py_BuildValue("(NL)", bytes, (long long)root);
        }
    }

done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&lb);
    free(cur); free(level_count); free(level_off); free(level_fill);
    free(label); free(term); free(height); free(first_child); free(n_children); free(node_class); free(reps);
    free(hcount); free(hoff); free(by_height); free(sn); free(uniq); free(slot_of); free(table);
    free(keys); free(lists); free(lend); free(ldeg); free(order); free(host_of);
    free(hosts); free(host_start); free(start_of_class); free(lrep); free(out); free(bk);
    return result;
}


/* --- the exact-match hash table of one length bucket (twin of hashindex.build_table) --- */

static uint32_t crc_table[256];

static void
init_crc(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_table[i] = c;
    }
}

/*
 * hash_table(rows, count, length, size) -> bytes: the slots as little-endian uint32.
 *
 * Placement in rounds, as the NumPy code: in each round every pending row
 * tries its current slot, in row order; the first to find it empty takes it,
 * the others move one slot on. The result is trimmed to max(used, size) + 1.
 */
static PyObject *
hash_table(PyObject *self, PyObject *args)
{
    Py_buffer rb = {0};
    Py_ssize_t count, length, size;
    PyObject *result = NULL;
    i64 *pos = NULL, *pending = NULL;
    uint32_t *table = NULL;
    if (!PyArg_ParseTuple(args, "y*nnn", &rb, &count, &length, &size))
        return NULL;
    if (count < 0 || length < 1 || size < 1 || count >= 0xFFFFFFFFLL || (length && count > rb.len / length)
        || count * length != rb.len || size > 4 * count + 64) {
        /* the builder's size is about 2.9 slots a row: anything far larger is refused, not allocated */
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes, and size between 1 and 4 x count + 64");
        goto done;
    }
    const unsigned char *rows = rb.buf;
    pos = malloc(((size_t)count + 1) * sizeof(i64));
    pending = malloc(((size_t)count + 1) * sizeof(i64));
    size_t cap = (size_t)size + 64;
    table = calloc(cap, sizeof(uint32_t));
    if (!pos || !pending || !table) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        uint32_t crc = 0xFFFFFFFFu;
        const unsigned char *r = rows + (size_t)i * (size_t)length;
        for (Py_ssize_t j = 0; j < length; j++)
            crc = crc_table[(crc ^ r[j]) & 0xFF] ^ (crc >> 8);
        crc ^= 0xFFFFFFFFu;
        pos[i] = (i64)(((u64)crc * (u64)size) >> 32);
        pending[i] = i;
    }
    Py_ssize_t np_ = count;
    size_t used = 0;
    while (np_ > 0) {
        i64 top = 0;
        for (Py_ssize_t k = 0; k < np_; k++)
            if (pos[k] > top)
                top = pos[k];
        if ((size_t)top + 2 > cap) {
            size_t ncap = (size_t)top + 2 + 64;
            uint32_t *t = realloc(table, ncap * sizeof(uint32_t));
            if (!t) {
                PyErr_NoMemory();
                goto done;
            }
            memset(t + cap, 0, (ncap - cap) * sizeof(uint32_t));
            table = t;
            cap = ncap;
        }
        Py_ssize_t keep = 0;
        for (Py_ssize_t k = 0; k < np_; k++) {
            i64 p = pos[k];
            if (table[p] == 0) {
                table[p] = (uint32_t)(pending[k] + 1);
                if ((size_t)p + 1 > used)
                    used = (size_t)p + 1;
            }
            else {
                pending[keep] = pending[k];
                pos[keep] = p + 1;
                keep++;
            }
        }
        np_ = keep;
    }
    size_t n_out = (used > (size_t)size ? used : (size_t)size) + 1;
    if (n_out > cap) { /* only when size + 1 > cap, which the initial capacity rules out */
        PyErr_SetString(PyExc_RuntimeError, "hash table overflow");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_out * 4));
    if (result) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (size_t t = 0; t < n_out; t++) {
            uint32_t v = table[t];
            o[4 * t] = (unsigned char)v;
            o[4 * t + 1] = (unsigned char)(v >> 8);
            o[4 * t + 2] = (unsigned char)(v >> 16);
            o[4 * t + 3] = (unsigned char)(v >> 24);
        }
    }
done:
    PyBuffer_Release(&rb);
    free(pos);
    free(pending);
    free(table);
    return result;
}

/* --- alphagram order of one length bucket (twin of builder.alphagram_order) --- */

/*
 * alphagram_order(rows, count, length) -> bytes: row numbers as little-endian
 * uint32, ordered by each row's tiles sorted (its alphagram), ties by row:
 * the rows' alphagrams by insertion sort, then a stable least-significant-byte
 * radix sort, which is np.argsort(kind="stable") of the alphagrams as bytes.
 */
static PyObject *
alphagram_order(PyObject *self, PyObject *args)
{
    Py_buffer rb = {0};
    Py_ssize_t count, length;
    PyObject *result = NULL;
    unsigned char *grams = NULL;
    uint32_t *a = NULL, *b = NULL;
    if (!PyArg_ParseTuple(args, "y*nn", &rb, &count, &length))
        return NULL;
    if (count < 0 || length < 1 || count >= 0xFFFFFFFFLL || count > rb.len / length || count * length != rb.len) {
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes");
        goto done;
    }
    grams = malloc((size_t)rb.len + 1);
    a = malloc(((size_t)count + 1) * sizeof(uint32_t));
    b = malloc(((size_t)count + 1) * sizeof(uint32_t));
    if (!grams || !a || !b) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(grams, rb.buf, (size_t)rb.len);
    unsigned maxcode = 0;
    for (Py_ssize_t i = 0; i < rb.len; i++)
        if (grams[i] > maxcode)
            maxcode = grams[i];
    /* a small alphabet: each row's tiles by counting, else by insertion */
    int counting = maxcode + 1 <= 4 * (unsigned)length || maxcode < 64;
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned char *g = grams + (size_t)i * (size_t)length;
        if (counting) {
            uint32_t tally[256];
            memset(tally, 0, (maxcode + 1) * sizeof(uint32_t));
            for (Py_ssize_t j = 0; j < length; j++)
                tally[g[j]]++;
            unsigned char *q = g;
            for (unsigned c = 0; c <= maxcode; c++)
                for (uint32_t t = tally[c]; t; t--)
                    *q++ = (unsigned char)c;
            a[i] = (uint32_t)i;
            continue;
        }
        for (Py_ssize_t j = 1; j < length; j++) {
            unsigned char x = g[j];
            Py_ssize_t k = j;
            while (k > 0 && g[k - 1] > x) {
                g[k] = g[k - 1];
                k--;
            }
            g[k] = x;
        }
        a[i] = (uint32_t)i;
    }
    for (Py_ssize_t j = length - 1; j >= 0; j--) {
        size_t cnt[257] = {0};
        for (Py_ssize_t i = 0; i < count; i++)
            cnt[grams[(size_t)a[i] * (size_t)length + (size_t)j] + 1]++;
        for (int c = 0; c < 256; c++)
            cnt[c + 1] += cnt[c];
        for (Py_ssize_t i = 0; i < count; i++)
            b[cnt[grams[(size_t)a[i] * (size_t)length + (size_t)j]]++] = a[i];
        uint32_t *t = a;
        a = b;
        b = t;
    }
    result = PyBytes_FromStringAndSize(NULL, count * 4);
    if (result) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            uint32_t v = a[i];
            o[4 * i] = (unsigned char)v;
            o[4 * i + 1] = (unsigned char)(v >> 8);
            o[4 * i + 2] = (unsigned char)(v >> 16);
            o[4 * i + 3] = (unsigned char)(v >> 24);
        }
    }
done:
    PyBuffer_Release(&rb);
    free(grams);
    free(a);
    free(b);
    return result;
}

static PyMethodDef methods[] = {
    {"graph", build_graph, METH_VARARGS,
     "graph(flat, starts, lens, max_arcs) -> (records, root) | (None, arcs needed) | None\n\n"
     "The lexicon's word graph as little-endian arc records (see graph.py)."},
    {"hash_table", hash_table, METH_VARARGS,
     "hash_table(rows, count, length, size) -> bytes\n\n"
     "One length bucket's exact-match table as little-endian uint32 slots (see hashindex.py)."},
    {"alphagram_order", alphagram_order, METH_VARARGS,
     "alphagram_order(rows, count, length) -> bytes\n\n"
     "Row numbers (little-endian uint32) by alphagram, ties by row (see builder.alphagram_order)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_build", "The word graph's construction in C.", -1,
                                    methods};

PyMODINIT_FUNC
PyInit__build(void)
{
    init_crc();
    return PyModule_Create(&module);
}
