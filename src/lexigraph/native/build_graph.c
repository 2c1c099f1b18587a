/*
 * build_graph.c: build_graph, the lexicon's word graph built in C: the twin of
 * lexigraph/compiler/graph_builder.py (build_trie, minimize(accept_on_edge=True), layout_arcs).
 *
 * build_graph(flat, starts, lens, max_arcs) -> (records: bytes, root) | (None, arcs needed) | None
 *
 * The words are given as in graph_builder.build_trie: word i is
 * flat[starts[i] : starts[i] + lens[i]] (uint8 tile codes), starts and lens
 * int64, words in strictly increasing code order. The result is the arc
 * records, little-endian 64-bit (layout in arc.h), byte for byte those of
 * the NumPy code, including the numbering of equivalence classes by 64-bit
 * signature (which decides where a shared suffix list is stored). (None, n)
 * means the graph needs n records, more than max_arcs. None means
 * two different nodes of one height share a signature: the caller runs the
 * NumPy code, which settles that case exactly.
 *
 * Why C: a build is what a user waits for the first time a list is opened, and these passes visit
 * every node of the trie; the C loops make them without NumPy's temporaries (docs/performance.md
 * has the timings).
 *
 * Memory: about 30 bytes per trie node (nodes <= tiles + 1; fewer than 2^32),
 * plus about 60 per node of the widest height and per arc list.
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>

#include "arc.h"
#include "limits.h"

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
    i64 uid; /* the signature's number in order of first sight; -1: empty slot */
} Slot;

/* build.h: the radix sort the graph's classes and the alphagram order share */
void
lx_radix_sort(SigNode *a, SigNode *tmp, size_t n)
{
    if (n < 64) {
        for (size_t i = 1; i < n; i++) {
            SigNode x = a[i];
            size_t k = i;
            while (k > 0 && a[k - 1].sig > x.sig) {
                a[k] = a[k - 1];
                k--;
            }
            a[k] = x;
        }
        return;
    }
    size_t cnt[8][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++) {
        u64 k = a[i].sig;
        for (int d = 0; d < 8; d++)
            cnt[d][(k >> (8 * d)) & 255]++;
    }
    SigNode *src = a, *dst = tmp;
    for (int d = 0; d < 8; d++) {
        size_t *c = cnt[d];
        if (c[(src[0].sig >> (8 * d)) & 255] == n)
            continue;
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t t = c[b];
            c[b] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i].sig >> (8 * d)) & 255]++] = src[i];
        SigNode *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof(SigNode));
}

/* context for sorting arc lists read backwards (qsort has no context argument; the GIL is held) */
static const i64 *g_keys;
static const uint32_t *g_end; /* index of the last key of each list */
static const uint32_t *g_deg;

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
    uint16_t *lcps = NULL;
    uint16_t *height = NULL;                                       /* at most the longest word: 65535 */
    uint32_t *first_child = NULL, *reps = NULL, *by_height = NULL; /* node numbers: fewer than 2^32 */
    uint16_t *n_children = NULL;                                   /* at most 256: one arc a tile */
    i64 *hcount = NULL, *hoff = NULL;
    SigNode *sn = NULL, *uniq = NULL, *by_sig = NULL;
    i64 *cls_of = NULL;
    Slot *table = NULL;
    size_t tcap = 0;
    i64 *slot_of = NULL;
    i64 *keys = NULL;
    /* per arc list (class with arcs): class and node numbers, list indices, arc numbers, all below 2^32 */
    uint32_t *lists = NULL, *lend = NULL, *ldeg = NULL, *order = NULL, *host_of = NULL;
    uint32_t *hosts = NULL, *host_start = NULL, *start_of_class = NULL, *lrep = NULL;
    BackKey *bk = NULL;

    if (!PyArg_ParseTuple(args, "y*y*y*K", &fb, &sb, &lb, &max_arcs))
        return NULL;
    if (max_arcs > LX_MAX_ARCS) /* a record's target has 32 bits */
        max_arcs = LX_MAX_ARCS;
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
    lcps = malloc(((size_t)n + 1) * sizeof(uint16_t));
    if (!level_count || !level_off || !level_fill || !cur || !lcps) {
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
        lcps[i] = (uint16_t)lcp;
        for (i64 d = lcp + 1; d <= L; d++)
            level_count[d]++;
        nodes += L - lcp;
    }
    if (nodes >= ((i64)1 << 32)) { /* keys hold a class in 32 bits */
        PyErr_SetString(PyExc_ValueError, "too many tiles for one word graph");
        goto done;
    }
    level_off[0] = 0;
    level_count[0] = 1;
    for (i64 d = 1; d <= maxlen + 1; d++)
        level_off[d] = level_off[d - 1] + level_count[d - 1];

    size_t N = (size_t)nodes;
    height = calloc(N, sizeof(uint16_t));
    first_child = calloc(N, sizeof(uint32_t));
    n_children = calloc(N, sizeof(uint16_t));
    /* each node's arc key: label << 33 | accepts << 32 | class (class 0, the leaves', until the minimisation) */
    keys = calloc(N, sizeof(i64));
    if (!height || !first_child || !n_children || !keys) {
        PyErr_NoMemory();
        goto done;
    }

    /* --- trie in breadth-first order: level by level, within a level in word order --- */
    cur[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 L = lens[i], lcp = lcps[i];
        const unsigned char *w = flat + starts[i];
        for (i64 d = lcp + 1; d <= L; d++) {
            i64 id = level_off[d] + level_fill[d]++;
            i64 parent = cur[d - 1];
            keys[id] = (i64)w[d - 1] << 33;
            if (n_children[parent] == 0)
                first_child[parent] = (uint32_t)id;
            n_children[parent]++;
            cur[d] = id;
        }
        if (L > 0)
            keys[cur[L]] |= (i64)1 << 32;
    }
    /* heights bottom-up (children come after their parent); first_child of a leaf as NumPy's searchsorted */
    for (i64 v = nodes - 1; v >= 0; v--) {
        i64 h = 0;
        if (n_children[v]) {
            for (i64 c = first_child[v]; c < first_child[v] + n_children[v]; c++)
                if (height[c] + 1 > h)
                    h = height[c] + 1;
        }
        height[v] = (uint16_t)h;
    }

    /* --- minimisation: nodes by height (ascending id within a height) --- */
    i64 H = height[0];
    hcount = calloc((size_t)H + 2, sizeof(i64));
    hoff = calloc((size_t)H + 2, sizeof(i64));
    by_height = malloc(N * sizeof(uint32_t));
    reps = malloc(N * sizeof(uint32_t));
    if (!hcount || !hoff || !by_height || !reps) {
        PyErr_NoMemory();
        goto done;
    }
    for (i64 v = 0; v < nodes; v++)
        hcount[height[v]]++;
    /* the per-height work arrays: as long as the largest height above the leaves (far fewer than the nodes) */
    size_t wide = 1;
    for (i64 h = 1; h <= H; h++)
        if ((size_t)hcount[h] > wide)
            wide = (size_t)hcount[h];
    sn = malloc(wide * sizeof(SigNode));
    uniq = malloc(wide * sizeof(SigNode));
    slot_of = malloc(wide * sizeof(i64));
    by_sig = malloc(wide * sizeof(SigNode));
    cls_of = malloc(wide * sizeof(i64));
    if (!sn || !uniq || !slot_of || !by_sig || !cls_of) {
        PyErr_NoMemory();
        goto done;
    }
    for (i64 h = 1; h <= H + 1; h++)
        hoff[h] = hoff[h - 1] + hcount[h - 1];
    {
        i64 *fill = calloc((size_t)H + 2, sizeof(i64));
        if (!fill) {
            PyErr_NoMemory();
            goto done;
        }
        for (i64 v = 0; v < nodes; v++)
            by_height[hoff[height[v]] + fill[height[v]]++] = (uint32_t)v;
        free(fill);
    }
    i64 n_classes = 1;
    reps[0] = by_height[0]; /* the first leaf: there is always one */
    for (i64 h = 1; h <= H; h++) {
        i64 cnt = hcount[h];
        const uint32_t *hn = by_height + hoff[h];
        if (!cnt)
            continue;
        for (i64 k = 0; k < cnt; k++) {
            i64 v = hn[k], deg = n_children[v], f = first_child[v];
            u64 sig = 0;
            for (i64 p = 0; p < deg; p++) {
                u64 ck = (u64)keys[f + p];
                u64 key = ((ck >> 33) << 40) | ((ck & 0xFFFFFFFFu) << 1) | ((ck >> 32) & 1);
                sig += mix64(key ^ ((u64)p << 58));
            }
            sig += mix64((u64)deg);
            sn[k].sig = sig;
            sn[k].node = v;
        }
        /* distinct signatures through a hash table (first node of each is its representative), which
           grows with the distinct signatures (far fewer than the nodes at low heights: it stays in cache),
           then classes numbered in ascending signature order, as np.unique does */
        size_t cap = tcap;
        if (!table) {
            cap = 1024;
            table = malloc(cap * sizeof(Slot));
            if (!table) {
                PyErr_NoMemory();
                goto done;
            }
            tcap = cap;
        }
        for (size_t t = 0; t < cap; t++)
            table[t].uid = -1;
        i64 nu = 0;
        for (i64 k = 0; k < cnt; k++) {
            u64 sig = sn[k].sig;
            size_t t = (size_t)(mix64(sig) & (cap - 1));
            while (table[t].uid >= 0 && table[t].sig != sig)
                t = (t + 1) & (cap - 1);
            i64 uid = table[t].uid;
            if (uid < 0) {
                uid = nu++;
                table[t].sig = sig;
                table[t].uid = uid;
                uniq[uid].sig = sig;
                uniq[uid].node = sn[k].node;
                if ((size_t)nu * 2 > cap) { /* grow: twice the slots, every signature placed again */
                    size_t ncap = cap * 2;
                    Slot *nt = malloc(ncap * sizeof(Slot));
                    if (!nt) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    free(table);
                    table = nt;
                    cap = tcap = ncap;
                    for (size_t q = 0; q < cap; q++)
                        table[q].uid = -1;
                    for (i64 u = 0; u < nu; u++) {
                        size_t q = (size_t)(mix64(uniq[u].sig) & (cap - 1));
                        while (table[q].uid >= 0)
                            q = (q + 1) & (cap - 1);
                        table[q].sig = uniq[u].sig;
                        table[q].uid = u;
                    }
                }
            } else {
                /* verify the node equals its group's representative, arc by arc */
                i64 v = sn[k].node, rep = uniq[uid].node, deg = n_children[v];
                int same = deg == n_children[rep];
                for (i64 p = 0; same && p < deg; p++) {
                    same = keys[first_child[v] + p] == keys[first_child[rep] + p];
                }
                if (!same) { /* a 64-bit collision: let the NumPy code settle it */
                    result = Py_None;
                    Py_INCREF(result);
                    goto done;
                }
            }
            slot_of[k] = uid;
        }
        for (i64 u = 0; u < nu; u++) {
            by_sig[u].sig = uniq[u].sig;
            by_sig[u].node = u;
        }
        lx_radix_sort(by_sig, sn, (size_t)nu); /* sn: scratch now (sn[k].node is hn[k]) */
        for (i64 r = 0; r < nu; r++) {
            i64 u = by_sig[r].node;
            reps[n_classes + r] = (uint32_t)uniq[u].node;
            cls_of[u] = n_classes + r;
        }
        for (i64 k = 0; k < cnt; k++)
            keys[hn[k]] |= cls_of[slot_of[k]];
        n_classes += nu;
    }

    /* --- layout: lists stored inside the lists they end, hosts in breadth-first order --- */
    lists = malloc((size_t)n_classes * sizeof(uint32_t));
    lend = malloc((size_t)n_classes * sizeof(uint32_t));
    ldeg = malloc((size_t)n_classes * sizeof(uint32_t));
    order = malloc((size_t)n_classes * sizeof(uint32_t));
    host_of = malloc((size_t)n_classes * sizeof(uint32_t));
    hosts = malloc((size_t)n_classes * sizeof(uint32_t));
    host_start = calloc((size_t)n_classes, sizeof(uint32_t));
    start_of_class = calloc((size_t)n_classes, sizeof(uint32_t));
    lrep = malloc((size_t)n_classes * sizeof(uint32_t));
    if (!lists || !lend || !ldeg || !order || !host_of || !hosts || !host_start || !start_of_class || !lrep) {
        PyErr_NoMemory();
        goto done;
    }
    i64 nl = 0;
    for (i64 k = 0; k < n_classes; k++) {
        i64 d = n_children[reps[k]];
        if (d > 0) {
            lists[nl] = (uint32_t)k;
            ldeg[nl] = (uint32_t)d;
            lend[nl] = (uint32_t)(first_child[reps[k]] + d - 1);
            lrep[nl] = reps[k];
            nl++;
        }
    }
    bk = malloc(((size_t)nl + 1) * sizeof(BackKey));
    if ((size_t)nl > wide) { /* sn and by_sig sort the lists below */
        SigNode *a = realloc(sn, (size_t)nl * sizeof(SigNode)),
                *b = a ? realloc(by_sig, (size_t)nl * sizeof(SigNode)) : NULL;
        if (a)
            sn = a;
        if (b)
            by_sig = b;
        if (!a || !b) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (!bk) {
        PyErr_NoMemory();
        goto done;
    }
    /* lists by cmp_backwards: radix sorts by the second-last key, then (stably) the last, then each run of
       lists equal in both by the comparator (sn and by_sig are free now: scratch) */
    for (i64 i = 0; i < nl; i++) {
        sn[i].sig = ldeg[i] > 1 ? (u64)keys[lend[i] - 1] + 1 : 0;
        sn[i].node = i;
    }
    lx_radix_sort(sn, by_sig, (size_t)nl);
    for (i64 i = 0; i < nl; i++)
        sn[i].sig = (u64)keys[lend[sn[i].node]];
    lx_radix_sort(sn, by_sig, (size_t)nl);
    g_keys = keys;
    g_end = lend;
    g_deg = ldeg;
    for (i64 i = 0; i < nl;) {
        i64 j = i + 1, a = sn[i].node;
        i64 a1 = ldeg[a] > 1 ? keys[lend[a] - 1] : -1;
        while (j < nl) {
            i64 b = sn[j].node;
            if (keys[lend[b]] != keys[lend[a]] || (ldeg[b] > 1 ? keys[lend[b] - 1] : -1) != a1)
                break;
            j++;
        }
        if (j - i > 1) {
            for (i64 r = i; r < j; r++) {
                i64 x = sn[r].node;
                bk[r - i].k0 = keys[lend[x]];
                bk[r - i].k1 = a1;
                bk[r - i].idx = x;
            }
            qsort(bk, (size_t)(j - i), sizeof(BackKey), cmp_backwards);
            for (i64 r = i; r < j; r++)
                order[r] = (uint32_t)bk[r - i].idx;
        } else
            order[i] = (uint32_t)a;
        i = j;
    }
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
            hosts[nh++] = (uint32_t)i;
    /* hosts in breadth-first order of their representatives: one pass over the nodes */
    {
        uint32_t *host_at = by_height; /* free since the minimisation: node -> list index + 1 */
        memset(host_at, 0, N * sizeof(uint32_t));
        for (i64 k = 0; k < nh; k++)
            host_at[lrep[hosts[k]]] = (uint32_t)(hosts[k] + 1);
        nh = 0;
        for (i64 v = 0; v < nodes; v++)
            if (host_at[v])
                hosts[nh++] = host_at[v] - 1;
    }
    u64 total = 1;
    for (i64 k = 0; k < nh; k++) {
        host_start[hosts[k]] = (uint32_t)total; /* total <= max_arcs <= 2^32, checked below */
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
    {
        /* the records straight into the bytes object (record 0: the null arc) */
        PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * LX_RECORD_SIZE));
        if (!bytes)
            goto done;
        unsigned char *p = (unsigned char *)PyBytes_AS_STRING(bytes);
        memset(p, 0, LX_RECORD_SIZE);
        p += LX_RECORD_SIZE;
        for (i64 k = 0; k < nh; k++) {
            i64 rep = lrep[hosts[k]], f = first_child[rep], d = n_children[rep];
            for (i64 c = f; c < f + d; c++) {
                u64 ck = (u64)keys[c];
                u64 rec = ck >> 33;
                if (ck >> 32 & 1)
                    rec |= LX_ACCEPTS_BIT;
                if (c == f + d - 1)
                    rec |= LX_LAST_BIT;
                rec |= (u64)start_of_class[ck & 0xFFFFFFFFu] << LX_TARGET_SHIFT;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                memcpy(p, &rec, 8);
#else
                for (int b = 0; b < 8; b++)
                    p[b] = (unsigned char)(rec >> (8 * b));
#endif
                p += LX_RECORD_SIZE;
            }
        }
        i64 root = n_children[0] ? start_of_class[(u64)keys[0] & 0xFFFFFFFFu] : 0;
        result = Py_BuildValue("(NL)", bytes, (long long)root);
    }

done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&lb);
    free(cur);
    free(level_count);
    free(level_off);
    free(level_fill);
    free(height);
    free(first_child);
    free(n_children);
    free(reps);
    free(lcps);
    free(hcount);
    free(hoff);
    free(by_height);
    free(sn);
    free(uniq);
    free(slot_of);
    free(table);
    free(by_sig);
    free(cls_of);
    free(keys);
    free(lists);
    free(lend);
    free(ldeg);
    free(order);
    free(host_of);
    free(hosts);
    free(host_start);
    free(start_of_class);
    free(lrep);
    free(bk);
    return result;
}

static PyMethodDef build_graph_methods[] = {
    {"build_graph", build_graph, METH_VARARGS,
     "build_graph(flat, starts, lens, max_arcs) -> (records, root) | (None, arcs needed) | None\n\n"
     "The lexicon's word graph as little-endian arc records (see graph_builder.py)."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_build_graph(PyObject *module)
{
    return PyModule_AddFunctions(module, build_graph_methods);
}
