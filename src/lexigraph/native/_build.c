/*
 * lexigraph._build: the builder's hot loops in C. The word graph's construction, the twin of
 * lexigraph/compiler/graph_builder.py (build_trie, minimize(accept_on_edge=True), layout_arcs).
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
 * Memory: about 30 bytes per trie node (nodes <= tiles + 1; fewer than 2^32),
 * plus about 60 per node of the widest height and per arc list.
 *
 * hash_table(rows, count, length, size) builds one length bucket's
 * exact-match table, the twin of hashindex.build_table; alphagram_order(rows,
 * count, length) a bucket's alphagram order, the twin of builder.alphagram_order;
 * bucket_rows(flat, starts, ids, length) a bucket's words, the twin of
 * builder.bucket_rows; scan_ascii(data, table, min_len, max_len, char_cap) a
 * plain ASCII list's words as tile codes, the twin of normalize.scan_ascii.
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
    i64 uid; /* the signature's number in order of first sight; -1: empty slot */
} Slot;

/* A stable least-significant-digit radix sort of n records by sig (8-bit digits; a digit every record
   shares is skipped); a holds the result, tmp is scratch for n records. Small inputs by insertion. */
static void
radix_sort(SigNode *a, SigNode *tmp, size_t n)
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
    uint16_t *height = NULL; /* at most the longest word: 65535 */
    uint32_t *first_child = NULL, *reps = NULL, *by_height = NULL; /* node numbers: fewer than 2^32 */
    uint16_t *n_children = NULL;                                    /* at most 256: one arc a tile */
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
    if (max_arcs > (1ULL << 32)) /* a record's target has 32 bits */
        max_arcs = 1ULL << 32;
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
            }
            else {
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
        radix_sort(by_sig, sn, (size_t)nu); /* sn: scratch now (sn[k].node is hn[k]) */
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
    if (!lists || !lend || !ldeg || !order || !host_of || !hosts || !host_start || !start_of_class
        || !lrep) {
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
        SigNode *a = realloc(sn, (size_t)nl * sizeof(SigNode)), *b = a ? realloc(by_sig, (size_t)nl * sizeof(SigNode)) : NULL;
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
    radix_sort(sn, by_sig, (size_t)nl);
    for (i64 i = 0; i < nl; i++)
        sn[i].sig = (u64)keys[lend[sn[i].node]];
    radix_sort(sn, by_sig, (size_t)nl);
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
        }
        else
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
    free(cur); free(level_count); free(level_off); free(level_fill);
    free(height); free(first_child); free(n_children); free(reps); free(lcps);
    free(hcount); free(hoff); free(by_height); free(sn); free(uniq); free(slot_of); free(table); free(by_sig); free(cls_of);
    free(keys); free(lists); free(lend); free(ldeg); free(order); free(host_of);
    free(hosts); free(host_start); free(start_of_class); free(lrep); free(bk);
    return result;
}


/* --- the exact-match hash table of one length bucket (twin of hashindex.build_table) --- */

/* zlib's CRC-32, four bytes a step ("slicing by 4": crc_tables[k] advances a byte k + 1 places) */
static uint32_t crc_tables[4][256];
#define crc_table crc_tables[0]

static void
init_crc(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        crc_tables[0][i] = c;
    }
    for (int k = 1; k < 4; k++)
        for (uint32_t i = 0; i < 256; i++)
            crc_tables[k][i] = (crc_tables[k - 1][i] >> 8) ^ crc_tables[0][crc_tables[k - 1][i] & 0xFF];
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
        Py_ssize_t j = 0;
        for (; j + 4 <= length; j += 4) {
            crc ^= (uint32_t)r[j] | (uint32_t)r[j + 1] << 8 | (uint32_t)r[j + 2] << 16 | (uint32_t)r[j + 3] << 24;
            crc = crc_tables[3][crc & 0xFF] ^ crc_tables[2][(crc >> 8) & 0xFF] ^ crc_tables[1][(crc >> 16) & 0xFF]
                  ^ crc_tables[0][crc >> 24];
        }
        for (; j < length; j++)
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

/* leading zero bits of x != 0 */
static inline unsigned
lx_clz64(u64 x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* --- alphagram order of one length bucket (twin of builder.alphagram_order) --- */

/*
 * alphagram_order(rows, count, length) -> bytes: row numbers as little-endian
 * uint32, ordered by each row's tiles sorted (its alphagram), ties by row,
 * which is np.argsort(kind="stable") of the alphagrams as bytes. Each
 * alphagram is packed into 64-bit words (`bits` bits a tile, the first tile
 * highest), which a stable radix sort orders, the last word first.
 *
 * Rows of up to 15 tiles under 64 are not sorted tile by tile: their tiles
 * are counted, 4 bits a code, lowest code highest, each count c stored as
 * 15 - c (one subtraction a tile, no branch). That key orders alphagrams too
 * (at the first code whose counts differ, the alphagram with more of it is
 * the smaller); when the alphagram fits one word it is rebuilt from the
 * counts (a shift a code), else the counts are the key.
 */
static PyObject *
alphagram_order(PyObject *self, PyObject *args)
{
    Py_buffer rb = {0};
    Py_ssize_t count, length;
    PyObject *result = NULL;
    u64 *packed = NULL;
    SigNode *a = NULL, *b = NULL;
    if (!PyArg_ParseTuple(args, "y*nn", &rb, &count, &length))
        return NULL;
    if (count < 0 || length < 1 || count >= 0xFFFFFFFFLL || count > rb.len / length || count * length != rb.len) {
        PyErr_SetString(PyExc_ValueError, "rows must be count x length bytes");
        goto done;
    }
    const unsigned char *rows = rb.buf;
    unsigned maxcode = 0;
    for (Py_ssize_t i = 0; i < rb.len; i++)
        if (rows[i] > maxcode)
            maxcode = rows[i];
    int bits = 1;
    while ((1u << bits) <= maxcode)
        bits++;
    int by_counts = length <= 15 && maxcode < 64;
    int one_word = by_counts && bits * length < 64;
    size_t per_word = (size_t)(64 / bits); /* tiles a word holds */
    size_t words = one_word ? 1 : by_counts ? (maxcode + 16) / 16 : ((size_t)length + per_word - 1) / per_word;
    u64 ones[16] = {0}; /* ones[k]: k fields of `bits` bits, each 1 */
    for (int k = 1; k < 16; k++)
        ones[k] = (ones[k - 1] << bits) | 1;
    if (count && words > (size_t)-1 / 8 / (size_t)count) {
        PyErr_NoMemory();
        goto done;
    }
    packed = malloc(((size_t)count * words + 1) * sizeof(u64));
    a = malloc(((size_t)count + 1) * sizeof(SigNode));
    b = malloc(((size_t)count + 1) * sizeof(SigNode));
    if (!packed || !a || !b) {
        PyErr_NoMemory();
        goto done;
    }
    /* each row's tiles in order: by insertion into a copy (short rows, or a large alphabet), else by counting */
    int counting = length > 16 && (maxcode + 1 <= 4 * (unsigned)length || maxcode < 64);
    unsigned char *gram = malloc((size_t)length + 1);
    if (!gram) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        const unsigned char *r = rows + (size_t)i * (size_t)length;
        a[i].node = i;
        if (by_counts) {
            u64 cnt[4] = {~(u64)0, ~(u64)0, ~(u64)0, ~(u64)0};
            if (maxcode < 32) { /* two words, kept in registers: no store-to-load chain through cnt[] */
                u64 c0 = ~(u64)0, c1 = ~(u64)0;
                for (Py_ssize_t j = 0; j < length; j++) {
                    u64 m = (u64)1 << (4 * (15 - (r[j] & 15))), hi = (u64)0 - (u64)(r[j] >> 4);
                    c0 -= m & ~hi;
                    c1 -= m & hi;
                }
                cnt[0] = c0;
                cnt[1] = c1;
            }
            else
                for (Py_ssize_t j = 0; j < length; j++)
                    cnt[r[j] >> 4] -= (u64)1 << (4 * (15 - (r[j] & 15)));
            u64 *w = packed + (size_t)i * words;
            if (!one_word) {
                for (size_t k = 0; k < words; k++)
                    w[k] = cnt[k];
                continue;
            }
            u64 v = 0; /* bits * length < 64: no shift reaches 64 */
            for (unsigned q = 0; q < 4; q++) {
                u64 x = ~cnt[q]; /* each nibble a count: visit the codes present, lowest (highest nibble) first */
                while (x) {
                    unsigned nib = (unsigned)(lx_clz64(x) >> 2), shift = 4 * (15 - nib);
                    unsigned k = (unsigned)(x >> shift) & 15;
                    v = (v << (bits * k)) | ((q * 16 + nib) * ones[k]);
                    x &= ~((u64)15 << shift);
                }
            }
            w[0] = v;
            continue;
        }
        if (counting) {
            uint32_t tally[256];
            memset(tally, 0, (maxcode + 1) * sizeof(uint32_t));
            for (Py_ssize_t j = 0; j < length; j++)
                tally[r[j]]++;
            unsigned char *q = gram;
            for (unsigned c = 0; c <= maxcode; c++)
                for (uint32_t t = tally[c]; t; t--)
                    *q++ = (unsigned char)c;
        }
        else {
            for (Py_ssize_t j = 0; j < length; j++) {
                unsigned char x = r[j];
                Py_ssize_t k = j;
                while (k > 0 && gram[k - 1] > x) {
                    gram[k] = gram[k - 1];
                    k--;
                }
                gram[k] = x;
            }
        }
        u64 *w = packed + (size_t)i * words;
        for (size_t k = 0; k < words; k++) {
            u64 v = 0;
            size_t lo = k * per_word, hi = lo + per_word < (size_t)length ? lo + per_word : (size_t)length;
            for (size_t j = lo; j < hi; j++)
                v = (v << bits) | gram[j];
            w[k] = v; /* the last word holds fewer tiles: every row alike, so words compare as the grams */
        }
    }
    free(gram);
    for (size_t k = words; k-- > 0;) {
        for (Py_ssize_t i = 0; i < count; i++)
            a[i].sig = packed[(size_t)a[i].node * words + k];
        radix_sort(a, b, (size_t)count);
    }
    result = PyBytes_FromStringAndSize(NULL, count * 4);
    if (result) {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            uint32_t v = (uint32_t)a[i].node;
            o[4 * i] = (unsigned char)v;
            o[4 * i + 1] = (unsigned char)(v >> 8);
            o[4 * i + 2] = (unsigned char)(v >> 16);
            o[4 * i + 3] = (unsigned char)(v >> 24);
        }
    }
done:
    PyBuffer_Release(&rb);
    free(packed);
    free(a);
    free(b);
    return result;
}

/* --- plain ASCII word lists: one scan from the source's bytes to tile codes (twin of normalize.scan_ascii) --- */

/* 1: lower-case ASCII letter, 2: upper-case, 0: anything else */
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
    if (min_len < 1 || max_len < min_len || max_len > 255 || char_cap < max_len) {
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
            }
            else
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
    }
    else {
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
    result = Py_BuildValue("(Ny#y#nknnO)", codes_obj, (const char *)lens, nw, (const char *)upper, nw,
                           lines, (unsigned long)present, n_short, n_long, ordered ? Py_True : Py_False);
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

/* --- one length bucket's rows (twin of the NumPy gather in builder.bucket_rows) --- */

/*
 * bucket_rows(flat, starts, ids, length) -> bytes: the words ids[0], ids[1], ...
 * (word i: flat[starts[i] : starts[i] + length]) one after another. starts
 * and ids are int64 arrays; every index is checked.
 */
static PyObject *
bucket_rows(PyObject *self, PyObject *args)
{
    Py_buffer fb = {0}, sb = {0}, ib = {0};
    Py_ssize_t length;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*n", &fb, &sb, &ib, &length))
        return NULL;
    if (length < 1 || sb.len % 8 || ib.len % 8) {
        PyErr_SetString(PyExc_ValueError, "starts and ids must be int64 arrays, length at least 1");
        goto done;
    }
    const unsigned char *flat = fb.buf;
    const i64 *starts = sb.buf, *ids = ib.buf;
    Py_ssize_t n_words = sb.len / 8, count = ib.len / 8;
    if (count && length > PY_SSIZE_T_MAX / count) {
        PyErr_SetString(PyExc_ValueError, "too many rows");
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        i64 i = ids[k];
        if (i < 0 || i >= n_words || starts[i] < 0 || starts[i] > fb.len - length) {
            PyErr_SetString(PyExc_ValueError, "a row lies outside the tile array");
            goto done;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, count * length);
    if (!result)
        goto done;
    {
        unsigned char *o = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t k = 0; k < count; k++, o += length)
            memcpy(o, flat + starts[ids[k]], (size_t)length);
    }
done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&ib);
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
    {"bucket_rows", bucket_rows, METH_VARARGS,
     "bucket_rows(flat, starts, ids, length) -> bytes\n\n"
     "The words ids (each `length` tiles) one after another (see builder.bucket_rows)."},
    {"scan_ascii", scan_ascii, METH_VARARGS,
     "scan_ascii(data, table, min_len, max_len, char_cap) -> (codes, lens, upper, lines, letters, short, long, "
     "ordered) | None\n\nA plain ASCII list's words as tile codes, in one scan (see normalize.scan_ascii)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_build", "The word graph's construction in C.", -1,
                                    methods};

PyMODINIT_FUNC
PyInit__build(void)
{
    init_crc();
    init_letters();
    return PyModule_Create(&module);
}
