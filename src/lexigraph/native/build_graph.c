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

/* One build: the words, the trie (breadth first: level by level, within a level in word order), its equivalence
 * classes and the arc lists laid out. Every array is freed by free_build. */
typedef struct {
    /* the words */
    const unsigned char *flat;
    const i64 *starts, *lens;
    Py_ssize_t word_count;
    i64 longest;
    uint16_t *lcps; /* each word's common prefix with the one before */
    /* the trie */
    i64 nodes;
    i64 *level_count, *level_offset; /* per depth */
    uint16_t *height;                /* at most the longest word: 65535 */
    uint32_t *first_child;           /* node numbers: fewer than 2^32 */
    uint16_t *child_count;           /* at most 256: one arc a tile */
    i64 *keys; /* each node's arc key: label << 33 | accepts << 32 | class (0, the leaves', until minimised) */
    /* the minimisation: nodes by height, each height's classes */
    i64 tallest;
    i64 *height_count, *height_offset;
    uint32_t *by_height, *representatives;
    i64 class_count;
    size_t widest; /* the most nodes of one height above the leaves */
    SigNode *signatures, *distinct, *by_signature;
    i64 *slot_of, *class_of;
    Slot *table;
    size_t table_capacity;
    /* the layout: per arc list (a class with arcs), all numbers below 2^32 */
    i64 list_count, host_count;
    uint32_t *lists, *list_end, *list_degree, *order, *host_of, *hosts, *host_start, *start_of_class;
    uint32_t *list_representative;
    BackKey *back_keys;
} GraphBuild;

/* What a stage ends in besides going on: an error set, a 64-bit collision (the NumPy code settles it), a graph
 * over the record limit. */
enum { BUILD_ON = 0, BUILD_ERROR = -1, BUILD_COLLISION = -2, BUILD_TOO_LARGE = -3 };

static int
out_of_memory(void)
{
    PyErr_NoMemory();
    return BUILD_ERROR;
}

static void
free_build(GraphBuild *b)
{
    void *arrays[] = {
        b->lcps,           b->level_count,         b->level_offset,  b->height,    b->first_child,     b->child_count,
        b->keys,           b->height_count,        b->height_offset, b->by_height, b->representatives, b->signatures,
        b->distinct,       b->by_signature,        b->slot_of,       b->class_of,  b->table,           b->lists,
        b->list_end,       b->list_degree,         b->order,         b->host_of,   b->hosts,           b->host_start,
        b->start_of_class, b->list_representative, b->back_keys};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
}

/* The words checked (inside the tile array, strictly increasing), their common prefixes and the trie's nodes
 * per depth. */
static int
read_words(GraphBuild *b, Py_ssize_t flat_length)
{
    for (Py_ssize_t i = 0; i < b->word_count; i++) {
        i64 start = b->starts[i], length = b->lens[i];
        if (start < 0 || length < 0 || length > flat_length || start > flat_length - length) {
            PyErr_SetString(PyExc_ValueError, "a word lies outside the tile array");
            return BUILD_ERROR;
        }
        if (length > b->longest)
            b->longest = length;
    }
    if (b->longest > 65535) {
        PyErr_SetString(PyExc_ValueError, "words longer than 65535 tiles");
        return BUILD_ERROR;
    }
    b->level_count = calloc((size_t)b->longest + 2, sizeof(i64));
    b->level_offset = calloc((size_t)b->longest + 2, sizeof(i64));
    b->lcps = malloc(((size_t)b->word_count + 1) * sizeof(uint16_t));
    if (!b->level_count || !b->level_offset || !b->lcps)
        return out_of_memory();
    b->nodes = 1;
    for (Py_ssize_t i = 0; i < b->word_count; i++) { /* lcp with the previous word; new nodes per depth */
        i64 length = b->lens[i], lcp = 0;
        if (i > 0) {
            const unsigned char *before = b->flat + b->starts[i - 1], *word = b->flat + b->starts[i];
            i64 shorter = b->lens[i - 1] < length ? b->lens[i - 1] : length;
            while (lcp < shorter && before[lcp] == word[lcp])
                lcp++;
            if (!(lcp < shorter ? before[lcp] < word[lcp] : b->lens[i - 1] < length)) {
                PyErr_SetString(PyExc_ValueError, "words must be in strictly increasing code order");
                return BUILD_ERROR;
            }
        }
        b->lcps[i] = (uint16_t)lcp;
        for (i64 d = lcp + 1; d <= length; d++)
            b->level_count[d]++;
        b->nodes += length - lcp;
    }
    if (b->nodes >= ((i64)1 << 32)) { /* keys hold a class in 32 bits */
        PyErr_SetString(PyExc_ValueError, "too many tiles for one word graph");
        return BUILD_ERROR;
    }
    b->level_count[0] = 1;
    for (i64 d = 1; d <= b->longest + 1; d++)
        b->level_offset[d] = b->level_offset[d - 1] + b->level_count[d - 1];
    return BUILD_ON;
}

/* The trie in breadth-first order, each node's key (label, accepts), its children and its height. */
static int
build_trie(GraphBuild *b)
{
    const size_t nodes = (size_t)b->nodes;
    i64 *path = calloc((size_t)b->longest + 2, sizeof(i64)), *level_fill = calloc((size_t)b->longest + 2, sizeof(i64));
    b->height = calloc(nodes, sizeof(uint16_t));
    b->first_child = calloc(nodes, sizeof(uint32_t));
    b->child_count = calloc(nodes, sizeof(uint16_t));
    b->keys = calloc(nodes, sizeof(i64));
    if (!path || !level_fill || !b->height || !b->first_child || !b->child_count || !b->keys) {
        free(path);
        free(level_fill);
        return out_of_memory();
    }
    for (Py_ssize_t i = 0; i < b->word_count; i++) {
        i64 length = b->lens[i];
        const unsigned char *word = b->flat + b->starts[i];
        for (i64 d = b->lcps[i] + 1; d <= length; d++) {
            i64 id = b->level_offset[d] + level_fill[d]++, parent = path[d - 1];
            b->keys[id] = (i64)word[d - 1] << 33;
            if (b->child_count[parent] == 0)
                b->first_child[parent] = (uint32_t)id;
            b->child_count[parent]++;
            path[d] = id;
        }
        if (length > 0)
            b->keys[path[length]] |= (i64)1 << 32;
    }
    free(path);
    free(level_fill);
    /* heights bottom-up (children come after their parent); first_child of a leaf as NumPy's searchsorted */
    for (i64 v = b->nodes - 1; v >= 0; v--) {
        i64 h = 0;
        for (i64 c = b->first_child[v]; c < (i64)b->first_child[v] + b->child_count[v]; c++)
            if (b->height[c] + 1 > h)
                h = b->height[c] + 1;
        b->height[v] = (uint16_t)h;
    }
    return BUILD_ON;
}

/* The nodes by height (ascending id within a height), and the work arrays of one height. */
static int
sort_by_height(GraphBuild *b)
{
    const i64 tallest = b->tallest = b->height[0];
    b->height_count = calloc((size_t)tallest + 2, sizeof(i64));
    b->height_offset = calloc((size_t)tallest + 2, sizeof(i64));
    b->by_height = malloc((size_t)b->nodes * sizeof(uint32_t));
    b->representatives = malloc((size_t)b->nodes * sizeof(uint32_t));
    i64 *fill = calloc((size_t)tallest + 2, sizeof(i64));
    if (!b->height_count || !b->height_offset || !b->by_height || !b->representatives || !fill) {
        free(fill);
        return out_of_memory();
    }
    for (i64 v = 0; v < b->nodes; v++)
        b->height_count[b->height[v]]++;
    b->widest = 1; /* as long as the largest height above the leaves (far fewer than the nodes) */
    for (i64 h = 1; h <= tallest; h++)
        if ((size_t)b->height_count[h] > b->widest)
            b->widest = (size_t)b->height_count[h];
    for (i64 h = 1; h <= tallest + 1; h++)
        b->height_offset[h] = b->height_offset[h - 1] + b->height_count[h - 1];
    for (i64 v = 0; v < b->nodes; v++)
        b->by_height[b->height_offset[b->height[v]] + fill[b->height[v]]++] = (uint32_t)v;
    free(fill);
    b->signatures = malloc(b->widest * sizeof(SigNode));
    b->distinct = malloc(b->widest * sizeof(SigNode));
    b->slot_of = malloc(b->widest * sizeof(i64));
    b->by_signature = malloc(b->widest * sizeof(SigNode));
    b->class_of = malloc(b->widest * sizeof(i64));
    b->table_capacity = 1024;
    b->table = malloc(b->table_capacity * sizeof(Slot));
    if (!b->signatures || !b->distinct || !b->slot_of || !b->by_signature || !b->class_of || !b->table)
        return out_of_memory();
    return BUILD_ON;
}

/* A node's 64-bit signature: its arcs' keys (label, accepts, target class) and their number, mixed. */
static u64
node_signature(const GraphBuild *b, i64 v)
{
    i64 degree = b->child_count[v], first = b->first_child[v];
    u64 signature = 0;
    for (i64 p = 0; p < degree; p++) {
        u64 child = (u64)b->keys[first + p];
        u64 key = ((child >> 33) << 40) | ((child & 0xFFFFFFFFu) << 1) | ((child >> 32) & 1);
        signature += mix64(key ^ ((u64)p << 58));
    }
    return signature + mix64((u64)degree);
}

/* Whether node v's arcs equal those of node `representative`, arc by arc. */
static int
same_arcs(const GraphBuild *b, i64 v, i64 representative)
{
    i64 degree = b->child_count[v];
    if (degree != b->child_count[representative])
        return 0;
    for (i64 p = 0; p < degree; p++)
        if (b->keys[b->first_child[v] + p] != b->keys[b->first_child[representative] + p])
            return 0;
    return 1;
}

/* The hash table of one height's distinct signatures, twice as large, every signature placed again. */
static int
grow_table(GraphBuild *b, i64 distinct_count)
{
    size_t capacity = b->table_capacity * 2;
    Slot *grown = malloc(capacity * sizeof(Slot));
    if (!grown)
        return out_of_memory();
    free(b->table);
    b->table = grown;
    b->table_capacity = capacity;
    for (size_t q = 0; q < capacity; q++)
        b->table[q].uid = -1;
    for (i64 u = 0; u < distinct_count; u++) {
        size_t q = (size_t)(mix64(b->distinct[u].sig) & (capacity - 1));
        while (b->table[q].uid >= 0)
            q = (q + 1) & (capacity - 1);
        b->table[q].sig = b->distinct[u].sig;
        b->table[q].uid = u;
    }
    return BUILD_ON;
}

/* The distinct signatures of one height's `count` nodes (b->signatures), through a hash table that grows with
 * them (far fewer than the nodes at low heights: it stays in cache); the first node of each is its
 * representative, and every other one must equal it. The number of distinct ones, or a BUILD_* end. */
static i64
distinct_signatures(GraphBuild *b, i64 count)
{
    for (size_t t = 0; t < b->table_capacity; t++)
        b->table[t].uid = -1;
    i64 distinct_count = 0;
    for (i64 k = 0; k < count; k++) {
        u64 signature = b->signatures[k].sig;
        size_t mask = b->table_capacity - 1, t = (size_t)(mix64(signature) & mask);
        while (b->table[t].uid >= 0 && b->table[t].sig != signature)
            t = (t + 1) & mask;
        i64 uid = b->table[t].uid;
        if (uid < 0) {
            uid = distinct_count++;
            b->table[t].sig = signature;
            b->table[t].uid = uid;
            b->distinct[uid] = b->signatures[k];
            if ((size_t)distinct_count * 2 > b->table_capacity && grow_table(b, distinct_count) < 0)
                return BUILD_ERROR;
        } else if (!same_arcs(b, b->signatures[k].node, b->distinct[uid].node)) {
            return BUILD_COLLISION; /* a 64-bit collision: let the NumPy code settle it */
        }
        b->slot_of[k] = uid;
    }
    return distinct_count;
}

/* One height's classes, numbered in ascending signature order (as np.unique does), written into the keys. */
static int
classify_height(GraphBuild *b, i64 h)
{
    const i64 count = b->height_count[h];
    const uint32_t *nodes = b->by_height + b->height_offset[h];
    for (i64 k = 0; k < count; k++) {
        b->signatures[k].sig = node_signature(b, nodes[k]);
        b->signatures[k].node = nodes[k];
    }
    i64 distinct_count = distinct_signatures(b, count);
    if (distinct_count < 0)
        return (int)distinct_count;
    for (i64 u = 0; u < distinct_count; u++) {
        b->by_signature[u].sig = b->distinct[u].sig;
        b->by_signature[u].node = u;
    }
    lx_radix_sort(b->by_signature, b->signatures, (size_t)distinct_count); /* signatures: scratch now */
    for (i64 r = 0; r < distinct_count; r++) {
        i64 u = b->by_signature[r].node;
        b->representatives[b->class_count + r] = (uint32_t)b->distinct[u].node;
        b->class_of[u] = b->class_count + r;
    }
    for (i64 k = 0; k < count; k++)
        b->keys[nodes[k]] |= b->class_of[b->slot_of[k]];
    b->class_count += distinct_count;
    return BUILD_ON;
}

/* The minimisation: equivalent nodes (same arcs to the same classes) found height by height. */
static int
minimise(GraphBuild *b)
{
    int status = sort_by_height(b);
    b->class_count = 1;
    b->representatives[0] = b->by_height[0]; /* the first leaf: there is always one */
    for (i64 h = 1; h <= b->tallest && status == BUILD_ON; h++)
        if (b->height_count[h])
            status = classify_height(b, h);
    return status;
}

/* The classes with arcs (the lists): their class, degree, last arc and representative; the sort's room. */
static int
collect_lists(GraphBuild *b)
{
    const size_t classes = (size_t)b->class_count;
    uint32_t **arrays[] = {&b->lists,      &b->list_end,       &b->list_degree,
                           &b->order,      &b->host_of,        &b->hosts,
                           &b->host_start, &b->start_of_class, &b->list_representative};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if ((*arrays[i] = calloc(classes, sizeof(uint32_t))) == NULL)
            return out_of_memory();
    b->list_count = 0;
    for (i64 k = 0; k < b->class_count; k++) {
        i64 degree = b->child_count[b->representatives[k]], l = b->list_count;
        if (degree > 0) {
            b->lists[l] = (uint32_t)k;
            b->list_degree[l] = (uint32_t)degree;
            b->list_end[l] = (uint32_t)(b->first_child[b->representatives[k]] + degree - 1);
            b->list_representative[l] = b->representatives[k];
            b->list_count++;
        }
    }
    b->back_keys = malloc(((size_t)b->list_count + 1) * sizeof(BackKey));
    if ((size_t)b->list_count > b->widest) { /* signatures and by_signature sort the lists */
        SigNode *a = realloc(b->signatures, (size_t)b->list_count * sizeof(SigNode));
        if (a)
            b->signatures = a;
        SigNode *c = a ? realloc(b->by_signature, (size_t)b->list_count * sizeof(SigNode)) : NULL;
        if (c)
            b->by_signature = c;
        if (!a || !c)
            return out_of_memory();
    }
    return b->back_keys ? BUILD_ON : out_of_memory();
}

/* The lists by cmp_backwards: radix sorts by the second-last key, then (stably) the last, then each run of lists
 * equal in both by the comparator (signatures and by_signature are scratch now). */
static void
order_lists(GraphBuild *b)
{
    SigNode *sorted = b->signatures;
    const i64 *keys = b->keys;
    const uint32_t *end = b->list_end, *degree = b->list_degree;
    for (i64 i = 0; i < b->list_count; i++) {
        sorted[i].sig = degree[i] > 1 ? (u64)keys[end[i] - 1] + 1 : 0;
        sorted[i].node = i;
    }
    lx_radix_sort(sorted, b->by_signature, (size_t)b->list_count);
    for (i64 i = 0; i < b->list_count; i++)
        sorted[i].sig = (u64)keys[end[sorted[i].node]];
    lx_radix_sort(sorted, b->by_signature, (size_t)b->list_count);
    g_keys = keys;
    g_end = end;
    g_deg = degree;
    for (i64 i = 0; i < b->list_count;) {
        i64 j = i + 1, a = sorted[i].node;
        i64 second_last = degree[a] > 1 ? keys[end[a] - 1] : -1;
        while (j < b->list_count && keys[end[sorted[j].node]] == keys[end[a]]
               && (degree[sorted[j].node] > 1 ? keys[end[sorted[j].node] - 1] : -1) == second_last)
            j++;
        if (j - i > 1) {
            for (i64 r = i; r < j; r++)
                b->back_keys[r - i] = (BackKey){keys[end[sorted[r].node]], second_last, sorted[r].node};
            qsort(b->back_keys, (size_t)(j - i), sizeof(BackKey), cmp_backwards);
            for (i64 r = i; r < j; r++)
                b->order[r] = (uint32_t)b->back_keys[r - i].idx;
        } else {
            b->order[i] = (uint32_t)a;
        }
        i = j;
    }
}

/* Whether list a is a proper backward prefix of list c (its arcs end c's). */
static int
backward_prefix(const GraphBuild *b, i64 a, i64 c)
{
    if (b->list_degree[a] >= b->list_degree[c])
        return 0;
    for (i64 p = 0; p < b->list_degree[a]; p++)
        if (b->keys[b->list_end[a] - p] != b->keys[b->list_end[c] - p])
            return 0;
    return 1;
}

/* Each list's host (lists stored inside the lists they end): the first rank from its own whose list is not a
 * proper backward prefix of the next; the hosts in breadth-first order of their representatives. */
static void
find_hosts(GraphBuild *b)
{
    i64 host_rank = -1;
    for (i64 r = b->list_count - 1; r >= 0; r--) {
        if (r + 1 >= b->list_count || !backward_prefix(b, b->order[r], b->order[r + 1]))
            host_rank = r;
        b->host_of[b->order[r]] = b->order[host_rank];
    }
    b->host_count = 0;
    for (i64 i = 0; i < b->list_count; i++)
        if (b->host_of[i] == i)
            b->hosts[b->host_count++] = (uint32_t)i;
    uint32_t *host_at = b->by_height; /* free since the minimisation: node -> list index + 1 */
    memset(host_at, 0, (size_t)b->nodes * sizeof(uint32_t));
    for (i64 k = 0; k < b->host_count; k++)
        host_at[b->list_representative[b->hosts[k]]] = (uint32_t)(b->hosts[k] + 1);
    b->host_count = 0;
    for (i64 v = 0; v < b->nodes; v++)
        if (host_at[v])
            b->hosts[b->host_count++] = host_at[v] - 1;
}

/* Where each host starts: one after another from record 1. The records needed. */
static u64
place_hosts(GraphBuild *b)
{
    u64 total = 1;
    for (i64 k = 0; k < b->host_count; k++) {
        b->host_start[b->hosts[k]] = (uint32_t)total; /* total <= max_arcs <= 2^32: checked before it is read */
        total += (u64)b->list_degree[b->hosts[k]];
    }
    return total;
}

/* Where each class's list starts: inside its host, ending where the host ends. */
static void
place_lists(GraphBuild *b)
{
    for (i64 i = 0; i < b->list_count; i++) {
        i64 host = b->host_of[i];
        b->start_of_class[b->lists[i]] = b->host_start[host] + b->list_degree[host] - b->list_degree[i];
    }
}

/* The records (record 0: the null arc) straight into a bytes object, and the root: (records, root). */
static PyObject *
write_records(const GraphBuild *b, u64 total)
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * LX_RECORD_SIZE));
    if (!bytes)
        return NULL;
    unsigned char *at = (unsigned char *)PyBytes_AS_STRING(bytes);
    memset(at, 0, LX_RECORD_SIZE);
    at += LX_RECORD_SIZE;
    for (i64 k = 0; k < b->host_count; k++) {
        i64 representative = b->list_representative[b->hosts[k]];
        i64 first = b->first_child[representative], degree = b->child_count[representative];
        for (i64 c = first; c < first + degree; c++) {
            u64 key = (u64)b->keys[c];
            u64 record = key >> 33;
            if (key >> 32 & 1)
                record |= LX_ACCEPTS_BIT;
            if (c == first + degree - 1)
                record |= LX_LAST_BIT;
            record |= (u64)b->start_of_class[key & 0xFFFFFFFFu] << LX_TARGET_SHIFT;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(at, &record, 8);
#else
            for (int byte = 0; byte < 8; byte++)
                at[byte] = (unsigned char)(record >> (8 * byte));
#endif
            at += LX_RECORD_SIZE;
        }
    }
    i64 root = b->child_count[0] ? b->start_of_class[(u64)b->keys[0] & 0xFFFFFFFFu] : 0;
    return Py_BuildValue("(NL)", bytes, (long long)root);
}

/* The stages one after another: the answer of build_graph (see the file's comment), or NULL with an error. */
static PyObject *
build(GraphBuild *b, Py_ssize_t flat_length, unsigned long long max_arcs)
{
    int status = read_words(b, flat_length);
    if (status == BUILD_ON)
        status = build_trie(b);
    if (status == BUILD_ON)
        status = minimise(b);
    if (status == BUILD_ON)
        status = collect_lists(b);
    if (status == BUILD_COLLISION)
        Py_RETURN_NONE;
    if (status != BUILD_ON)
        return NULL;
    order_lists(b);
    find_hosts(b);
    u64 total = place_hosts(b);
    if (total > max_arcs)
        return Py_BuildValue("(OK)", Py_None, (unsigned long long)total);
    place_lists(b);
    return write_records(b, total);
}

static PyObject *
build_graph(PyObject *self, PyObject *args)
{
    Py_buffer flat = {0}, starts = {0}, lens = {0};
    unsigned long long max_arcs;
    if (!PyArg_ParseTuple(args, "y*y*y*K", &flat, &starts, &lens, &max_arcs))
        return NULL;
    if (max_arcs > LX_MAX_ARCS) /* a record's target has 32 bits */
        max_arcs = LX_MAX_ARCS;
    PyObject *result = NULL;
    if (starts.len != lens.len || starts.len % 8 != 0) {
        PyErr_SetString(PyExc_ValueError, "starts and lens must be int64 arrays of one length");
    } else {
        GraphBuild b = {.flat = flat.buf, .starts = starts.buf, .lens = lens.buf, .word_count = starts.len / 8};
        result = build(&b, flat.len, max_arcs);
        free_build(&b);
    }
    PyBuffer_Release(&flat);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lens);
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
