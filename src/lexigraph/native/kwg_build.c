/*
 * kwg_build.c: kwg_layout, wolges's KWG word graph built and laid out in C: the twin of
 * lexigraph/formats/kwg.py (_States, _gaddag_words, _Layout and the nodes written), byte for byte.
 *
 * kwg_layout(flat, lens, gaddag, max_nodes) -> bytes | int
 *
 * Word i is the next lens[i] bytes of flat (tile numbers below 64; with gaddag, from 1: tile 0 is the
 * GADDAG's separator); lens is int64; the words are distinct, not empty and in increasing order as
 * bytes compare. The result is the file's nodes as little-endian u32 (node 0 the DAWG's root pointer,
 * node 1 the GADDAG's with gaddag), or, when the layout needs more than max_nodes nodes, that count.
 * Input that breaks these rules is a ValueError; no memory, a MemoryError.
 *
 * The steps are the Python code's, in its order, so that every choice it makes by number (states are
 * numbered as first made; ties in the layout's order go to the lower number) comes out the same:
 *   1. the DAWG: a trie of the words, each sibling list closed into states shared by value (a list
 *      that ends like another shares its tail);
 *   2. with gaddag: every GADDAG path (each word reversed; each reversed proper front with the
 *      separator), sorted, added the same way, a separator arc leading into the DAWG list after the
 *      front;
 *   3. the layout: lists placed most-used first (the DAWG's first) into free runs of 16-node blocks;
 *   4. the nodes written at the places the layout gave.
 *
 * Why C: TWL06's KWG took 7-15 s of CPU in Python (docs/performance.md, "KWG export"); this is well
 * under a second. Memory: about 60 bytes per state and 12 per GADDAG path, plus the paths' tiles.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KWG_TILE_SHIFT 24
#define KWG_ACCEPTS (1u << 23)
#define KWG_IS_END (1u << 22)
#define KWG_BLOCK 16
#define KWG_U32_MAX 0xFFFFFFFFu
#define KWG_MAX_TILE 63

typedef uint32_t u32;
typedef uint64_t u64;

/* -- growable arrays ----------------------------------------------------------------------------- */

/* Make room for `need` elements of `size` bytes in *buf (capacity *cap); 0, or -1 when out of memory. */
static int
reserve(void **buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2 / size)
            return -1;
        cap2 *= 2;
    }
    void *grown = realloc(*buf, cap2 * size);
    if (grown == NULL)
        return -1;
    *buf = grown;
    *cap = cap2;
    return 0;
}

/* -- states: sibling lists shared by value --------------------------------------------------------- */

typedef struct {
    unsigned char *tile, *accepts;
    u32 *arc, *next;
    size_t count, cap;
    u32 *table; /* open addressing: state numbers, 0 empty (state 0, the empty list, is never stored) */
    size_t table_size;
} States;

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

static u64
state_hash(unsigned tile, unsigned accepts, u32 arc, u32 next)
{
    return mix64(((u64)arc << 32 | next) ^ ((u64)(tile << 1 | accepts) * 0x9E3779B97F4A7C15ULL));
}

static int
states_init(States *s)
{
    memset(s, 0, sizeof *s);
    if (reserve((void **)&s->tile, &s->cap, 1024, 1) < 0)
        return -1;
    size_t cap = 0;
    if (reserve((void **)&s->accepts, &cap, 1024, 1) < 0)
        return -1;
    cap = 0;
    if (reserve((void **)&s->arc, &cap, 1024, sizeof(u32)) < 0)
        return -1;
    cap = 0;
    if (reserve((void **)&s->next, &cap, 1024, sizeof(u32)) < 0)
        return -1;
    s->tile[0] = s->accepts[0] = 0;
    s->arc[0] = s->next[0] = 0;
    s->count = 1;
    s->table_size = 4096;
    s->table = calloc(s->table_size, sizeof(u32));
    return s->table == NULL ? -1 : 0;
}

static void
states_free(States *s)
{
    free(s->tile);
    free(s->accepts);
    free(s->arc);
    free(s->next);
    free(s->table);
}

static int
states_grow_table(States *s)
{
    size_t size = s->table_size * 2;
    u32 *table = calloc(size, sizeof(u32));
    if (table == NULL)
        return -1;
    for (size_t i = 0; i < s->table_size; i++) {
        u32 p = s->table[i];
        if (p == 0)
            continue;
        size_t h = (size_t)state_hash(s->tile[p], s->accepts[p], s->arc[p], s->next[p]) & (size - 1);
        while (table[h])
            h = (h + 1) & (size - 1);
        table[h] = p;
    }
    free(s->table);
    s->table = table;
    s->table_size = size;
    return 0;
}

/* The state (tile, accepts, arc, next): found, or made with the next number. -1: out of memory or of numbers. */
static int64_t
state_of(States *s, unsigned tile, unsigned accepts, u32 arc, u32 next)
{
    if (tile == 0 && accepts == 0 && arc == 0 && next == 0)
        return 0;
    size_t mask = s->table_size - 1;
    size_t h = (size_t)state_hash(tile, accepts, arc, next) & mask;
    for (;;) {
        u32 p = s->table[h];
        if (p == 0)
            break;
        if (s->tile[p] == tile && s->accepts[p] == accepts && s->arc[p] == arc && s->next[p] == next)
            return p;
        h = (h + 1) & mask;
    }
    if (s->count >= KWG_U32_MAX)
        return -1;
    size_t p = s->count;
    if (p + 1 > s->cap) {
        size_t cap = s->cap, c2;
        if (reserve((void **)&s->tile, &cap, p + 1, 1) < 0)
            return -1;
        c2 = s->cap;
        if (reserve((void **)&s->accepts, &c2, p + 1, 1) < 0)
            return -1;
        c2 = s->cap;
        if (reserve((void **)&s->arc, &c2, p + 1, sizeof(u32)) < 0)
            return -1;
        c2 = s->cap;
        if (reserve((void **)&s->next, &c2, p + 1, sizeof(u32)) < 0)
            return -1;
        s->cap = cap;
    }
    s->tile[p] = (unsigned char)tile;
    s->accepts[p] = (unsigned char)accepts;
    s->arc[p] = arc;
    s->next[p] = next;
    s->count = p + 1;
    s->table[h] = (u32)p;
    if (s->count * 2 > s->table_size && states_grow_table(s) < 0)
        return -1;
    return (int64_t)p;
}

/* -- adding words: a trie whose lists are closed into states as the sorted words pass ------------ */

typedef struct {
    unsigned char tile, accepts;
    u32 arc;
} Pending;

typedef struct {
    Pending *pending;
    size_t n_pending, cap_pending;
    size_t *opened; /* where the children of each open arc start in pending (one past the arc) */
    size_t n_opened, cap_opened;
} Trie;

/* The state of the list pending[from:] (made from its last sibling up). -1: out of memory. */
static int64_t
make_list(States *s, const Pending *siblings, size_t n)
{
    int64_t head = 0;
    for (size_t k = n; k-- > 0;) {
        head = state_of(s, siblings[k].tile, siblings[k].accepts, siblings[k].arc, (u32)head);
        if (head < 0)
            return -1;
    }
    return head;
}

static int
close_list(States *s, Trie *t)
{
    size_t start = t->opened[--t->n_opened];
    int64_t list = make_list(s, t->pending + start, t->n_pending - start);
    if (list < 0)
        return -1;
    t->pending[start - 1].arc = (u32)list;
    t->n_pending = start;
    return 0;
}

/* The DAWG list after `front` (tiles front[0..n-1]) from the list `root`; 0 when a tile is missing. */
static u32
dawg_list_after(const States *s, u32 root, const unsigned char *front, size_t n)
{
    u32 state = root;
    for (size_t k = 0; k < n; k++) {
        while (state != 0 && s->tile[state] != front[k])
            state = s->next[state];
        if (state == 0)
            return 0;
        state = s->arc[state];
    }
    return state;
}

/* Add `n` sorted, distinct words (word i: data + off[i], len[i] bytes) and return their root list's
 * state; with gaddag, a word ending with the separator 0 is a front whose arc leads into the DAWG list
 * after it (from dawg_root). -1: out of memory; -2: the words are not as promised. */
static int64_t
add_words(States *s, Trie *t, const unsigned char *data, const size_t *off, const uint16_t *len, size_t n,
          u32 dawg_root, int gaddag, unsigned char *scratch)
{
    t->n_pending = t->n_opened = 0;
    const unsigned char *previous = NULL;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *word = data + off[i];
        size_t length = len[i];
        size_t common = 0, limit = length < t->n_opened ? length : t->n_opened;
        while (common < limit && previous[common] == word[common])
            common++;
        while (t->n_opened > common)
            if (close_list(s, t) < 0)
                return -1;
        if (common == length)
            return -2; /* a word that is the previous one, or a prefix of it: not sorted and distinct */
        if (reserve((void **)&t->pending, &t->cap_pending, t->n_pending + length - common, sizeof(Pending)) < 0
            || reserve((void **)&t->opened, &t->cap_opened, t->n_opened + length - common, sizeof(size_t)) < 0)
            return -1;
        for (size_t k = common; k < length; k++) {
            t->pending[t->n_pending].tile = word[k];
            t->pending[t->n_pending].accepts = 0;
            t->pending[t->n_pending].arc = 0;
            t->n_pending++;
            t->opened[t->n_opened++] = t->n_pending;
        }
        if (gaddag && word[length - 1] == 0) {
            t->n_opened--;
            for (size_t k = 0; k + 1 < length; k++) /* the front: the path before the separator, reversed */
                scratch[k] = word[length - 2 - k];
            u32 after = dawg_list_after(s, dawg_root, scratch, length - 1);
            if (after == 0)
                return -2;
            t->pending[t->n_pending - 1].arc = after;
        } else {
            t->pending[t->n_pending - 1].accepts = 1;
        }
        previous = word;
    }
    while (t->n_opened)
        if (close_list(s, t) < 0)
            return -1;
    return make_list(s, t->pending, t->n_pending);
}

/* -- the GADDAG's paths ------------------------------------------------------------------------------ */

typedef struct {
    const unsigned char *p;
    size_t n;
} Str;

/* Bytes order (a prefix first), by multikey quicksort (Bentley and Sedgewick): the key at depth d is the
 * byte + 1, or 0 past the end. Iterative, with the parts still to sort on a heap stack: no deep recursion
 * whatever the words. 0, or -1 out of memory. */
static int
key_at(const Str *s, size_t d)
{
    return d < s->n ? s->p[d] + 1 : 0;
}

static void
swap_str(Str *a, Str *b)
{
    Str t = *a;
    *a = *b;
    *b = t;
}

static void
insertion_sort(Str *a, size_t n, size_t depth)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            const Str *x = &a[j - 1], *y = &a[j];
            size_t m = x->n < y->n ? x->n : y->n;
            int c = m > depth ? memcmp(x->p + depth, y->p + depth, m - depth) : 0;
            if (c < 0 || (c == 0 && x->n <= y->n))
                break;
            swap_str(&a[j - 1], &a[j]);
        }
}

typedef struct {
    size_t first, n, depth;
} Part;

static int
sort_strings(Str *all, size_t count)
{
    Part *todo = NULL;
    size_t n_todo = 0, cap = 0;
    if (reserve((void **)&todo, &cap, 1, sizeof(Part)) < 0)
        return -1;
    todo[n_todo++] = (Part){0, count, 0};
    while (n_todo) {
        Part part = todo[--n_todo];
        Str *a = all + part.first;
        size_t n = part.n, depth = part.depth;
        if (n < 16) {
            insertion_sort(a, n, depth);
            continue;
        }
        swap_str(&a[0], &a[n / 2]);
        int pivot = key_at(&a[0], depth);
        size_t lt = 0, i = 1, gt = n;
        while (i < gt) {
            int k = key_at(&a[i], depth);
            if (k < pivot)
                swap_str(&a[lt++], &a[i++]);
            else if (k > pivot)
                swap_str(&a[i], &a[--gt]);
            else
                i++;
        }
        if (reserve((void **)&todo, &cap, n_todo + 3, sizeof(Part)) < 0) {
            free(todo);
            return -1;
        }
        if (lt > 1)
            todo[n_todo++] = (Part){part.first, lt, depth};
        if (n - gt > 1)
            todo[n_todo++] = (Part){part.first + gt, n - gt, depth};
        if (pivot != 0 && gt - lt > 1) /* the strings that end here are equal: nothing more to sort */
            todo[n_todo++] = (Part){part.first + lt, gt - lt, depth + 1};
    }
    free(todo);
    return 0;
}

/* -- the layout: wolges's default (most used first, 16-node blocks) -------------------------------- */

typedef struct {
    u64 key; /* not in the DAWG, then more ways first, then longer lists first */
    u32 state;
} Rank;

static int
rank_cmp(const void *a, const void *b)
{
    const Rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->state > y->state) - (x->state < y->state);
}

typedef struct {
    u32 *items;
    size_t n, cap;
} Stack;

static int
push(Stack *st, u32 v)
{
    if (reserve((void **)&st->items, &st->cap, st->n + 1, sizeof(u32)) < 0)
        return -1;
    st->items[st->n++] = v;
    return 0;
}

typedef struct {
    const States *s;
    u32 *head, *to_end, *dest;
    u32 *fill; /* nodes used in each block */
    size_t blocks, cap_fill;
    Stack by_fill[KWG_BLOCK]; /* blocks with that many nodes used */
} Layout;

typedef struct {
    u32 first, cursor, slot, length;
} Frame;

static int
add_block(Layout *l, u32 used)
{
    if (reserve((void **)&l->fill, &l->cap_fill, l->blocks + 1, sizeof(u32)) < 0)
        return -1;
    l->fill[l->blocks++] = used;
    return 0;
}

/* Reserve the slots of the list that state p ends (its head's); 1 with *out set, 0 when placed or in
 * progress, -1 out of memory. */
static int
reserve_list(Layout *l, u32 p, Frame *out)
{
    p = l->head[p];
    if (l->dest[p] != 0)
        return 0;
    l->dest[p] = KWG_U32_MAX; /* in progress */
    u32 length = l->to_end[p];
    u64 slot;
    if (length > KWG_BLOCK) {
        if (l->blocks & 1) { /* long lists start on an even block */
            if (push(&l->by_fill[0], (u32)l->blocks) < 0 || add_block(l, 0) < 0)
                return -1;
        }
        slot = (u64)l->blocks * KWG_BLOCK;
        u32 rest = length;
        while (rest > KWG_BLOCK) {
            if (add_block(l, KWG_BLOCK) < 0)
                return -1;
            rest -= KWG_BLOCK;
        }
        if (rest < KWG_BLOCK && push(&l->by_fill[rest], (u32)l->blocks) < 0)
            return -1;
        if (add_block(l, rest) < 0)
            return -1;
    } else {
        u32 used = KWG_BLOCK - length; /* the fullest block the list fits in first */
        for (;;) {
            Stack *st = &l->by_fill[used];
            if (st->n) {
                u32 block = st->items[--st->n];
                slot = (u64)block * KWG_BLOCK + used;
                used += length;
                if (used < KWG_BLOCK && push(&l->by_fill[used], block) < 0)
                    return -1;
                l->fill[block] = used;
                break;
            }
            if (used == 0) {
                slot = (u64)l->blocks * KWG_BLOCK;
                if (length < KWG_BLOCK && push(&l->by_fill[length], (u32)l->blocks) < 0)
                    return -1;
                if (add_block(l, length) < 0)
                    return -1;
                break;
            }
            used--;
        }
    }
    if (slot + length >= KWG_U32_MAX)
        return -1;
    out->first = out->cursor = p;
    out->slot = (u32)slot;
    out->length = length;
    return 1;
}

/* Place the list of p, then (depth first) the lists its arcs lead to, then write its slots. */
static int
place(Layout *l, u32 p, Frame **stack, size_t *cap)
{
    const u32 *arc = l->s->arc, *next = l->s->next;
    u32 *dest = l->dest;
    size_t n = 0;
    if (reserve((void **)stack, cap, 1, sizeof(Frame)) < 0)
        return -1;
    int got = reserve_list(l, p, &(*stack)[0]);
    if (got <= 0)
        return got;
    n = 1;
    while (n) {
        Frame *top = &(*stack)[n - 1];
        if (top->cursor) {
            u32 target = arc[top->cursor];
            top->cursor = next[top->cursor];
            if (target) {
                if (reserve((void **)stack, cap, n + 1, sizeof(Frame)) < 0)
                    return -1;
                got = reserve_list(l, target, &(*stack)[n]);
                if (got < 0)
                    return -1;
                n += (size_t)got;
            }
            continue;
        }
        Frame f = *top;
        n--;
        u32 write = f.first;
        dest[write] = 0;
        for (u32 offset = 0; offset < f.length; offset++) {
            if (dest[write] != 0)
                break;
            dest[write] = f.slot + offset;
            write = next[write];
        }
    }
    return 0;
}

/* -- the function --------------------------------------------------------------------------------- */

typedef struct {
    /* inputs */
    const unsigned char *flat;
    const int64_t *lens;
    size_t n_words;
    int gaddag;
    u64 max_nodes;
    /* outputs */
    u32 *nodes;
    size_t size;
    int status; /* 0 done; 1 too many nodes (size: the count); -1 no memory; -2 bad input */
} Job;

/* What a build holds from stage to stage; every array freed by free_kwg_build. */
typedef struct {
    States states;
    Trie trie;
    Layout layout;
    size_t *offsets;   /* each word's first tile in job->flat */
    uint16_t *lengths; /* each word's length */
    unsigned char *scratch;
    u32 roots[2];
    size_t root_count;
    Rank *ranks;
    size_t rank_count;
    Frame *frames;
    size_t frames_capacity;
} KwgBuild;

static void
free_kwg_build(KwgBuild *b)
{
    states_free(&b->states);
    void *arrays[] = {b->trie.pending, b->trie.opened, b->offsets,       b->lengths,     b->scratch,    b->ranks,
                      b->frames,       b->layout.head, b->layout.to_end, b->layout.dest, b->layout.fill};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    for (int k = 0; k < KWG_BLOCK; k++)
        free(b->layout.by_fill[k].items);
}

/* The words checked (1 to 65534 tiles below 64, none 0 with a GADDAG, strictly increasing as bytes compare)
 * and located: 0, -1 no memory, -2 bad input. */
static int
read_words(const Job *job, KwgBuild *b)
{
    const size_t n = job->n_words;
    b->offsets = malloc((n + 1) * sizeof(size_t));
    b->lengths = malloc((n + 1) * sizeof(uint16_t));
    b->scratch = malloc(65536);
    if (b->offsets == NULL || b->lengths == NULL || b->scratch == NULL)
        return -1;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t length = job->lens[i];
        if (length < 1 || length > 65534)
            return -2;
        b->offsets[i] = total;
        b->lengths[i] = (uint16_t)length;
        const unsigned char *word = job->flat + total;
        for (int64_t k = 0; k < length; k++)
            if (word[k] > KWG_MAX_TILE || (job->gaddag && word[k] == 0))
                return -2;
        if (i) {
            const unsigned char *before = job->flat + b->offsets[i - 1];
            size_t shorter = b->lengths[i - 1] < (size_t)length ? b->lengths[i - 1] : (size_t)length;
            int c = memcmp(before, word, shorter);
            if (c > 0 || (c == 0 && b->lengths[i - 1] >= (size_t)length))
                return -2;
        }
        total += (size_t)length;
    }
    return 0;
}

/* The tiles word i shares with the word before, at most its length and one less than the one before's. */
static size_t
shared_front(const Job *job, const KwgBuild *b, size_t i)
{
    if (i == 0)
        return 0;
    const unsigned char *before = job->flat + b->offsets[i - 1], *word = job->flat + b->offsets[i];
    size_t length = b->lengths[i], before_length = b->lengths[i - 1];
    size_t limit = length < before_length - 1 ? length : before_length - 1, shared = 0;
    while (shared < limit && before[shared] == word[shared])
        shared++;
    return shared;
}

/* The GADDAG's paths: each word reversed, then for each front a word does not share with the word before, the
 * reversed front of L - k tiles and a 0. Counted first (paths, bytes), then written. */
static int
gaddag_paths(const Job *job, const KwgBuild *b, unsigned char **data, Str **paths, size_t *path_count)
{
    size_t count = 0, bytes = 0;
    for (size_t i = 0; i < job->n_words; i++) {
        size_t length = b->lengths[i], fronts = length - shared_front(job, b, i);
        count++;
        bytes += length;
        for (size_t k = 1; fronts >= 2 && k < fronts; k++) {
            count++;
            bytes += length + 1 - k;
        }
    }
    *data = malloc(bytes ? bytes : 1);
    *paths = malloc((count ? count : 1) * sizeof(Str));
    if (*data == NULL || *paths == NULL)
        return -1;
    size_t at = 0, k_path = 0;
    for (size_t i = 0; i < job->n_words; i++) {
        const unsigned char *word = job->flat + b->offsets[i];
        size_t length = b->lengths[i], fronts = length - shared_front(job, b, i);
        unsigned char *back = *data + at; /* the word reversed */
        for (size_t k = 0; k < length; k++)
            back[k] = word[length - 1 - k];
        (*paths)[k_path++] = (Str){back, length};
        at += length;
        for (size_t k = 1; fronts >= 2 && k < fronts; k++) { /* the reversed front of L - k tiles, then 0 */
            unsigned char *marked = *data + at;
            memcpy(marked, back + k, length - k);
            marked[length - k] = 0;
            (*paths)[k_path++] = (Str){marked, length - k + 1};
            at += length - k + 1;
        }
    }
    *path_count = count;
    return 0;
}

/* The GADDAG's paths made, sorted and added to the states: 0, or the negative status. */
static int
add_gaddag(const Job *job, KwgBuild *b)
{
    unsigned char *data = NULL;
    Str *paths = NULL;
    size_t count = 0, *offsets = NULL;
    uint16_t *lengths = NULL;
    int status = -1;
    if (gaddag_paths(job, b, &data, &paths, &count) < 0 || sort_strings(paths, count) < 0)
        goto done;
    offsets = malloc((count ? count : 1) * sizeof(size_t));
    lengths = malloc((count ? count : 1) * sizeof(uint16_t));
    if (offsets == NULL || lengths == NULL)
        goto done;
    for (size_t k = 0; k < count; k++) {
        offsets[k] = (size_t)(paths[k].p - data);
        lengths[k] = (uint16_t)paths[k].n;
    }
    int64_t root = add_words(&b->states, &b->trie, data, offsets, lengths, count, b->roots[0], 1, b->scratch);
    status = root < 0 ? (int)root : 0;
    if (root >= 0) {
        b->roots[1] = (u32)root;
        b->root_count = 2;
    }
done:
    free(data);
    free(paths);
    free(offsets);
    free(lengths);
    return status;
}

/* How many ways lead to each state from the roots (capped), for the layout's order. */
static u32 *
count_ways(const KwgBuild *b)
{
    const States *s = &b->states;
    u32 *ways = calloc(s->count, sizeof(u32));
    if (ways == NULL)
        return NULL;
    for (size_t r = 0; r < b->root_count; r++)
        ways[b->roots[r]] = 1;
    for (size_t p = s->count - 1; p > 0; p--) {
        u64 w = ways[p];
        if (!w)
            continue;
        u32 q[2] = {s->next[p], s->arc[p]};
        for (int k = 0; k < 2; k++) {
            u64 sum = (u64)ways[q[k]] + w;
            ways[q[k]] = sum > KWG_U32_MAX ? KWG_U32_MAX : (u32)sum;
        }
    }
    return ways;
}

/* Each state's list head and the length from it to its list's end; the states ranked for the layout (not in the
 * DAWG, then more ways first, then longer lists first). */
static int
rank_states(KwgBuild *b)
{
    const States *s = &b->states;
    const size_t count = s->count;
    Layout *l = &b->layout;
    l->s = s;
    l->head = malloc(count * sizeof(u32));
    l->to_end = malloc(count * sizeof(u32));
    l->dest = calloc(count, sizeof(u32));
    b->ranks = malloc((count ? count : 1) * sizeof(Rank));
    unsigned char *in_dawg = b->root_count > 1 ? calloc(count, 1) : NULL;
    u32 *ways = count_ways(b);
    int ok = l->head && l->to_end && l->dest && b->ranks && ways && (b->root_count == 1 || in_dawg);
    for (size_t p = 0; ok && p < count; p++) /* the first state of the list each state ends: */
        l->head[p] = (u32)p;                 /* follow the smallest predecessor, again and again */
    for (size_t p = count - 1; ok && p > 0; p--)
        l->head[s->next[p]] = (u32)p;
    for (size_t p = count - 1; ok && p > 0; p--)
        l->head[p] = l->head[l->head[p]];
    for (size_t p = 0; ok && p < count; p++)
        l->to_end[p] = 1;
    for (size_t p = 1; ok && p < count; p++)
        if (s->next[p])
            l->to_end[p] += l->to_end[s->next[p]];
    for (size_t p = 1; in_dawg && ok && p < count; p++)
        in_dawg[p] = p <= (size_t)b->roots[0] || in_dawg[s->next[p]];
    for (size_t p = 1; ok && p < count; p++) {
        u64 outside = in_dawg != NULL && !in_dawg[p];
        u64 to_end = l->to_end[p] > 255 ? 255 : l->to_end[p];
        b->ranks[b->rank_count].key = outside << 40 | (u64)(KWG_U32_MAX - ways[p]) << 8 | (255 - to_end);
        b->ranks[b->rank_count++].state = (u32)p;
    }
    if (ok)
        qsort(b->ranks, b->rank_count, sizeof(Rank), rank_cmp);
    free(ways);
    free(in_dawg);
    return ok ? 0 : -1;
}

/* Every list placed, most used first: the nodes the layout takes, or 0 out of memory (the root block holds one
 * node a root, so a layout is never empty). */
static size_t
lay_out(KwgBuild *b)
{
    Layout *l = &b->layout;
    l->dest[0] = KWG_U32_MAX;
    if (add_block(l, (u32)b->root_count) < 0 || push(&l->by_fill[b->root_count], 0) < 0)
        return 0;
    for (size_t k = 0; k < b->rank_count; k++)
        if (place(l, b->ranks[k].state, &b->frames, &b->frames_capacity) < 0)
            return 0;
    l->dest[0] = 0;
    return (l->blocks - 1) * KWG_BLOCK + l->fill[l->blocks - 1];
}

/* The nodes, each list written whole at its place (a tail shared with another list written again); NULL out
 * of memory. */
static u32 *
write_nodes(const KwgBuild *b, size_t size)
{
    const States *s = &b->states;
    const u32 *dest = b->layout.dest;
    u32 *nodes = calloc(size ? size : 1, sizeof(u32));
    unsigned char *written = calloc(size ? size : 1, 1);
    if (nodes == NULL || written == NULL) {
        free(nodes);
        free(written);
        return NULL;
    }
    for (size_t r = 0; r < b->root_count; r++)
        nodes[r] = dest[b->roots[r]] | KWG_IS_END;
    for (size_t p = 1; p < s->count; p++) {
        u32 at = dest[p];
        if (at == 0 || written[at])
            continue;
        for (u32 q = (u32)p;; at++) {
            u32 next = s->next[q];
            nodes[at] = dest[s->arc[q]] | (next == 0 ? KWG_IS_END : 0) | (s->accepts[q] ? KWG_ACCEPTS : 0)
                        | (u32)s->tile[q] << KWG_TILE_SHIFT;
            written[at] = 1;
            if (next == 0 || at + 1 >= size)
                break;
            q = next;
        }
    }
    free(written);
    return nodes;
}

/* The stages: the DAWG, the GADDAG, the states ranked and laid out, the nodes. The job's status: 0 done; 1 too
 * many nodes (size: the count); -1 no memory; -2 bad input. */
static int
run_stages(Job *job, KwgBuild *b)
{
    int status = states_init(&b->states) < 0 ? -1 : read_words(job, b);
    if (status < 0)
        return status;
    int64_t dawg_root =
        add_words(&b->states, &b->trie, job->flat, b->offsets, b->lengths, job->n_words, 0, 0, b->scratch);
    if (dawg_root < 0)
        return (int)dawg_root;
    b->roots[0] = (u32)dawg_root;
    b->root_count = 1;
    if (job->gaddag && (status = add_gaddag(job, b)) < 0)
        return status;
    free(b->states.table); /* the states are final: their lookup table goes */
    b->states.table = NULL;
    if ((u64)b->states.count - 1 > job->max_nodes) { /* every state takes a node of its own */
        job->size = b->states.count - 1;
        return 1;
    }
    size_t size = rank_states(b) < 0 ? 0 : lay_out(b);
    if (size == 0)
        return -1;
    job->size = size;
    if ((u64)size > job->max_nodes)
        return 1;
    return (job->nodes = write_nodes(b, size)) == NULL ? -1 : 0;
}

static void
run(Job *job)
{
    KwgBuild build = {0};
    job->status = run_stages(job, &build);
    free_kwg_build(&build);
}

static PyObject *
kwg_layout(PyObject *self, PyObject *args)
{
    Py_buffer fb = {0}, lb = {0};
    int gaddag;
    unsigned long long max_nodes;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*pK", &fb, &lb, &gaddag, &max_nodes))
        return NULL;
    if (lb.len % 8 != 0) {
        PyErr_SetString(PyExc_ValueError, "lens must be an int64 array");
        goto out;
    }
    Job job = {
        .flat = fb.buf, .lens = lb.buf, .n_words = (size_t)(lb.len / 8), .gaddag = gaddag, .max_nodes = max_nodes};
    /* the lengths must fit the tiles before any word is read */
    u64 total = 0;
    for (size_t i = 0; i < job.n_words; i++) {
        if (job.lens[i] < 1 || (u64)job.lens[i] > (u64)fb.len) {
            PyErr_SetString(PyExc_ValueError, "every word has from 1 tile to the tiles given");
            goto out;
        }
        total += (u64)job.lens[i];
        if (total > (u64)fb.len) {
            PyErr_SetString(PyExc_ValueError, "the words' lengths add up to more than the tiles given");
            goto out;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    run(&job);
    Py_END_ALLOW_THREADS
    if (job.status == 0) {
        result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(job.size * 4));
        if (result != NULL) {
            unsigned char *p = (unsigned char *)PyBytes_AS_STRING(result);
            for (size_t i = 0; i < job.size; i++) { /* little-endian whatever the machine */
                u32 v = job.nodes[i];
                p[4 * i] = (unsigned char)v;
                p[4 * i + 1] = (unsigned char)(v >> 8);
                p[4 * i + 2] = (unsigned char)(v >> 16);
                p[4 * i + 3] = (unsigned char)(v >> 24);
            }
        }
        free(job.nodes);
    } else if (job.status == 1) {
        result = PyLong_FromSize_t(job.size);
    } else if (job.status == -2) {
        PyErr_SetString(PyExc_ValueError,
                        "KWG words must be distinct, sorted, not empty, of tiles below 64 (from 1 with a GADDAG)");
    } else {
        PyErr_NoMemory();
    }
out:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&lb);
    return result;
}

static PyMethodDef kwg_build_methods[] = {
    {"kwg_layout", kwg_layout, METH_VARARGS,
     "kwg_layout(flat, lens, gaddag, max_nodes) -> bytes | int\n\n"
     "The nodes of wolges's KWG of the words (see lexigraph/formats/kwg.py), or the node count when it is "
     "over max_nodes."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_kwg_build(PyObject *module)
{
    return PyModule_AddFunctions(module, kwg_build_methods);
}
