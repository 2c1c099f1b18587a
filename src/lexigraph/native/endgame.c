/* endgame.c: solve_endgame, the exact endgame solver of lexigraph.scrabble.endgame (the bag empty, both racks known).
 *
 * solve_endgame(request, deadline) -> (value, complete, depth, nodes, pv, thread_nodes, thread_cpu_seconds)
 *   request: (tables, board, blanks, (rack_a, rack_b), zero_turns, table_entries), as
 *   lexigraph.engine.interface.EndgameRequest lays it out: a GameTables (game_tables.h; its leave table unused),
 *   the board (a tile code per square) and its blanks, both racks, the turns without a play just made, the
 *   transposition table's entries.
 *
 * `rack_a` (the side to move) and `rack_b` hold a count per tile code (index 0: blanks). The game from here:
 * each turn the side to move makes a play (any play lx_movegen_run finds for its rack) or passes; a play that
 * empties the rack ends the game and gains twice the points left on the other rack; after `6 - zero_turns`
 * passes in a row (six turns without a play, the rule of selfplay.c and docs/games.md) each side loses the
 * points on its own rack. `value` is the spread from here to the end (the side to move's points minus the
 * other's, end adjustments included) under best play by both.
 *
 * The search: negamax with alpha-beta (fail-soft; after a node's first move, null windows that are searched again
 * when a move proves better: principal variation search), iterative deepening one ply at a time, a transposition table
 * of `table_entries` 16-byte entries (a power of two; Zobrist keys of the board, both racks, the side to move
 * and the passes in a row; always-replace), moves ordered by the table's move, then the plays that go out, then
 * score. A line cut by the depth limit is valued by the racks' points (the value if both passed out from there)
 * and marks the iteration as inexact; the first iteration that no cut touched is the exact answer (`complete`
 * 1). Past `deadline` (a time.monotonic() value or None, deadline.h) the search stops and answers
 * the last iteration it finished, with `complete` 0 (the first iteration, one ply valued by the racks' points,
 * always finishes, so that there is a move to answer).
 *
 * The best move at the root is, among the moves of the best value, the first in a fixed order (score
 * descending, across before down, row, column, length, the squares' bytes; the pass last), so that the Python
 * twin (lexigraph.engine.python.endgame), which searches differently, names the same move: root moves after the
 * first are searched with the window (best - 1, +inf), which tells a tie from a worse move exactly.
 *
 * `pv` is the principal variation as move records (LX_MOVE_RECORD_SIZE bytes each; a pass is a record of
 * length 0): the best move, then, move by move, a move of the position's value, found by null-window searches
 * on the warm table (exact when the search was complete). `nodes` counts every thread's nodes and the walk's;
 * `thread_nodes` and `thread_cpu_seconds` give, per thread (the main thread first), the nodes of its search until
 * the answer (the walk not counted) and its CPU time there (CLOCK_THREAD_CPUTIME_ID; 0 where there is none): on a
 * loaded machine the wall time says little about what the threads did.
 *
 * Several threads search as ABDADA does (search_threads).
 *
 * Why C: every node generates every play of a rack (lx_movegen_run, without the GIL); the board, the racks and
 * the keys are updated in place, and each ply keeps its move buffer from node to node.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deadline.h"
#include "limits.h"
#include "movegen.h"

#ifndef _WIN32
#include <pthread.h>
#endif

#define ZERO_TURNS_TO_END 6
/* Most threads one endgame searches on (lexigraph.engine.interface.ENDGAME_MAX_THREADS). */
#define LX_ENDGAME_MAX_THREADS 64
/* Plies a game may still last: each play puts down at least one of at most 2 * LX_ENDGAME_MAX_RACK tiles, and
 * at most five passes come between two plays. */
#define MAX_PLY ((2 * LX_ENDGAME_MAX_RACK + 1) * ZERO_TURNS_TO_END + 2)
#define INF_VALUE 1000000
#define REC_SQUARES 16
#define NO_MOVE 0xFFFF
#define PASS_MOVE 0xFFFE
#define FLAG_EXACT 0
#define FLAG_LOWER 1
#define FLAG_UPPER 2
#define FLAG_SOLVED 4    /* no depth limit cut the subtree: the bound holds at any depth */
#define FLAG_HELPER 8    /* stored by a helper thread */
#define FLAG_BORROWED 16 /* the main thread's, not solved only because it took a helper's bound that was not */
/* What cut a subtree (Search.cut, bits): a depth limit in the thread's own search (or an entry of its own that one
 * cut), or, on the main thread, only a bound a helper stored (or an entry of its own marked FLAG_BORROWED). */
#define CUT_DEPTH 1
#define CUT_BORROWED 2
#define DEADLINE_NODES 256
#define KILLER_BYTES (LX_MOVE_RECORD_SIZE - 4) /* a record without its score: where, which way, the squares */
#define HISTORY_SIZE 4096
#define HISTORY_CAP ((1u << 20) - 1)
/* Order keys: the table's move, then the plays that go out, the killers, then score, history and stuck tiles. */
#define KEY_FIRST ((int64_t)1 << 60)
#define KEY_OUT ((int64_t)1 << 56)
#define KEY_KILLER ((int64_t)1 << 52)
#define SCORE_SHIFT 20
/* A play's order key loses this many points per tile put down, times the sixteenths of the other side's points
 * that are stuck: when the other side cannot go out, the mover gains by playing out slowly over several turns. */
#define STUCK_TILE_POINTS 3
/* ABDADA: on several threads, a node at this depth or more defers a move (after its first) whose child another
 * thread is searching at the same depth, and searches it after its other moves. Shallower nodes search their moves
 * in order: of 2, 3, 4 and 6, the main thread of a 2-thread search needed the fewest nodes at 3 and 4 on the hard
 * positions (docs/performance.md, "Two threads that part ways"). */
#define DEFER_MIN_DEPTH 4
/* Slots of the table of the children being searched (a power of two; shared by the threads). */
#define BUSY_SLOTS ((size_t)1 << 16)

/* A table entry, shared by the threads without a lock: `data` packs the value (low 32 bits), the move (the index
 * of the best move in generation order, PASS_MOVE or NO_MOVE; 16 bits), the depth and the flag (8 bits each), and
 * `check` is the key XOR data. Each word is read and written whole (relaxed atomics); a reader that meets one
 * thread's check beside another's data sees a key that does not match and takes the entry as empty, so a torn
 * entry is never believed. */
typedef struct {
    uint64_t check;
    uint64_t data;
} Entry;

typedef struct {
    int32_t value;
    unsigned move, depth, flag;
} Probe;

#if defined(__GNUC__) || defined(__clang__)
#define LOAD_WORD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_WORD(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define LOAD_FLAG(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_FLAG(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define LOAD_FLAG(p) (*(volatile const int *)(p))
#define STORE_FLAG(p, v) (*(volatile int *)(p) = (v))
#define LOAD_WORD(p) (*(volatile uint64_t *)(p))
#define STORE_WORD(p, v) (*(volatile uint64_t *)(p) = (v))
#endif

/* The entry of `key` into *probe: 1, or 0 when the slot holds another position (or a torn write). */
static inline int
table_probe(Entry *e, uint64_t key, Probe *probe)
{
    uint64_t data = LOAD_WORD(&e->data), check = LOAD_WORD(&e->check);
    if ((check ^ data) != key || (check == 0 && data == 0))
        return 0;
    probe->value = (int32_t)(uint32_t)(data & 0xFFFFFFFFu);
    probe->move = (unsigned)(data >> 32) & 0xFFFF;
    probe->depth = (unsigned)(data >> 48) & 0xFF;
    probe->flag = (unsigned)(data >> 56);
    return 1;
}

static inline void
table_store(Entry *e, uint64_t key, int32_t value, unsigned move, unsigned depth, unsigned flag)
{
    uint64_t data = (uint64_t)(uint32_t)value | ((uint64_t)(move & 0xFFFF) << 32) | ((uint64_t)(depth & 0xFF) << 48)
                    | ((uint64_t)(flag & 0xFF) << 56);
    STORE_WORD(&e->data, data);
    STORE_WORD(&e->check, key ^ data);
}

typedef struct {
    int64_t key; /* higher first */
    uint32_t index;
} Order;

typedef struct {
    unsigned char *records; /* this ply's moves, generation order */
    size_t cap, count;
    Order *order; /* the moves and the pass (index count), best first */
    size_t order_cap;
    uint32_t *deferred; /* the moves put off because another thread was searching their child */
} Ply;

typedef struct {
    LxMoveInput in;
    unsigned char board[LX_MAX_SQUARES], blanks[LX_MAX_SQUARES];
    unsigned char racks[2][LX_MAX_MOVE_TILE_CODES];
    int rack_len[2], rack_points[2];
    int n, n_codes;
    const unsigned char *points;
    uint64_t key; /* board ^ racks ^ side */
    int side;     /* the side to move: 0 (A) or 1 (B) */
    Entry *table;
    size_t mask;
    Ply plies[MAX_PLY + 1];
    LxDeadline deadline;       /* read every DEADLINE_NODES nodes */
    int64_t nodes, node_limit; /* node_limit < 0: none */
    int stop, status;
    int cut;        /* CUT_* bits: what cut the search since the iteration began (a node stores SOLVED when none) */
    int strict;     /* the main thread's search again of an iteration: helpers' unsolved bounds are not taken */
    int researches; /* iterations the main thread searched again (strict) */
    int last_depth; /* the deepest iteration iterative deepening searches (MAX_PLY unless endgame_iterations says) */
    int64_t *iteration_nodes; /* endgame_iterations: the nodes searched by the end of each depth (NULL: not kept) */
    double *iteration_cpu;    /* and the thread's CPU seconds by then */
    const int *abort;         /* helpers: set by the main thread when its search ends (NULL: the main thread) */
    /* Move ordering: two killer moves per ply (the move fields of the record, which name a play on any board),
     * a history score per side and move hash, and per side the sixteenths of its rack's points on stuck tiles. */
    unsigned char killers[MAX_PLY + 1][2][KILLER_BYTES];
    uint32_t history[2][HISTORY_SIZE];
    int stuck16[2];
    int helper; /* 0: the main thread; k > 0: the k-th helper */
    /* ABDADA, on several threads: the children being searched (a tag per slot: the child's key and depth), shared
     * by the threads; NULL on one thread, which searches as it always did. */
    uint64_t *busy;
    /* On several threads: the main thread's iteration (its depth), which it writes and the helpers read: a helper
     * never searches deeper than the main thread (NULL on one thread). */
    int *iteration;
    uint32_t *root_trace; /* endgame_root_order: the root's moves in the order searched (NULL: not traced) */
    size_t root_traced;
    int64_t search_nodes; /* the nodes of the search itself, until its answer (the PV walk not counted) */
    double cpu_seconds;   /* the thread's CPU time in that search */
} Search;

static uint64_t
mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline uint64_t
square_key(int sq, unsigned char tile)
{
    return mix(((uint64_t)sq << 8) | tile);
}
static inline uint64_t
rack_key(int side, int code, int count)
{
    return count ? mix(0x100000000ULL | ((uint64_t)side << 24) | ((uint64_t)code << 8) | (uint64_t)count) : 0;
}
static inline uint64_t
zeros_key(int zeros)
{
    return mix(0x200000000ULL | (uint64_t)zeros);
}
#define SIDE_KEY 0x5bd1e9955bd1e995ULL

static inline int32_t
rec_score(const unsigned char *r)
{
    int32_t s;
    memcpy(&s, r, 4);
    return s;
}

/* Tiles a record puts down. */
static inline int
rec_tiles(const unsigned char *r)
{
    int k = 0;
    for (int i = 0; i < r[7]; i++)
        k += r[REC_SQUARES + i] != 0;
    return k;
}

/* The fixed order of the root's tie-break: < 0 when a comes first. */
static int
canonical_cmp(const unsigned char *a, const unsigned char *b)
{
    int32_t sa = rec_score(a), sb = rec_score(b);
    if (sa != sb)
        return sa > sb ? -1 : 1;
    if (a[6] != b[6])
        return a[6] > b[6] ? -1 : 1; /* across (1) first */
    for (int i = 4; i <= 5; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    if (a[7] != b[7])
        return a[7] < b[7] ? -1 : 1;
    return memcmp(a + REC_SQUARES, b + REC_SQUARES, LX_MOVE_RECORD_SIZE - REC_SQUARES);
}

/* Put a play's tiles down (undo: take them back), keeping racks, points and keys in step. */
static void
apply_play(Search *s, const unsigned char *r, int undo)
{
    int row = r[4], col = r[5], across = r[6], len = r[7], p = s->side;
    for (int k = 0; k < len; k++) {
        unsigned char b = r[REC_SQUARES + k];
        if (!b)
            continue;
        int sq = across ? row * s->n + col + k : (row + k) * s->n + col;
        unsigned char tile = b & (unsigned char)~LX_BLANK_FLAG;
        int code = (b & LX_BLANK_FLAG) ? 0 : b;
        int before = s->racks[p][code], after = undo ? before + 1 : before - 1;
        s->key ^= rack_key(p, code, before) ^ rack_key(p, code, after) ^ square_key(sq, b);
        s->racks[p][code] = (unsigned char)after;
        s->rack_len[p] += undo ? 1 : -1;
        s->rack_points[p] += (undo ? 1 : -1) * (code ? s->points[code] : 0);
        s->board[sq] = undo ? 0 : tile;
        s->blanks[sq] = undo ? 0 : (b & LX_BLANK_FLAG) != 0;
    }
}

static inline void
switch_side(Search *s)
{
    s->side ^= 1;
    s->key ^= SIDE_KEY;
}

/* The moves of the side to move into its ply's buffer (generation order); 0, or an LX_MOVEGEN_* status. */
static int
generate(Search *s, Ply *ply)
{
    s->in.rack = s->racks[s->side];
    LxMoveOutput out;
    int status = lx_movegen_run(&s->in, &out);
    if (status != LX_MOVEGEN_OK)
        return status;
    size_t need = out.kept * LX_MOVE_RECORD_SIZE;
    if (need > ply->cap) {
        unsigned char *grown = realloc(ply->records, need);
        if (!grown) {
            free(out.records);
            return LX_MOVEGEN_MEMORY;
        }
        ply->records = grown;
        ply->cap = need;
    }
    if (need)
        memcpy(ply->records, out.records, need);
    free(out.records);
    ply->count = out.kept;
    if (ply->count + 1 > ply->order_cap) {
        size_t cap = ply->count + 1 + ply->count / 2;
        Order *order = realloc(ply->order, cap * sizeof *order);
        if (!order)
            return LX_MOVEGEN_MEMORY;
        ply->order = order;
        uint32_t *deferred = realloc(ply->deferred, cap * sizeof *deferred);
        if (!deferred)
            return LX_MOVEGEN_MEMORY;
        ply->deferred = deferred;
        ply->order_cap = cap;
    }
    return LX_MOVEGEN_OK;
}

static int
by_key(const void *a, const void *b)
{
    const Order *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static inline uint32_t
move_hash(const unsigned char *r)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 4; i < REC_SQUARES + r[7]; i++)
        h = (h ^ r[i]) * 0x100000001b3ULL;
    return (uint32_t)(h ^ (h >> 29)) & (HISTORY_SIZE - 1);
}

/* The ply's moves (and the pass, index count) best first: `first` (an index, or NO_MOVE), the plays that go out,
 * the ply's killers, then by score (less the stuck-tile penalty) and history. The order changes the time of the
 * search, never its answer. */
static void
order_moves(Search *s, Ply *ply, int ply_index, unsigned first)
{
    size_t count = ply->count;
    int p = s->side, left = s->rack_len[p], stuck16 = s->stuck16[p ^ 1];
    const unsigned char(*killers)[KILLER_BYTES] = s->killers[ply_index];
    for (size_t i = 0; i < count; i++) {
        const unsigned char *r = ply->records + i * LX_MOVE_RECORD_SIZE;
        int tiles = rec_tiles(r);
        int64_t key;
        if (tiles == left) {
            key = KEY_OUT + rec_score(r);
        } else if (memcmp(r + 4, killers[0], KILLER_BYTES) == 0) {
            key = KEY_KILLER + 1;
        } else if (memcmp(r + 4, killers[1], KILLER_BYTES) == 0) {
            key = KEY_KILLER;
        } else {
            int64_t points16 = 16 * (int64_t)rec_score(r) - (int64_t)stuck16 * STUCK_TILE_POINTS * tiles;
            key = (points16 << (SCORE_SHIFT - 4)) + s->history[p][move_hash(r)];
        }
        ply->order[i] = (Order){key, (uint32_t)i};
    }
    ply->order[count] = (Order){-KEY_FIRST, (uint32_t)count}; /* the pass, last */
    if (first == PASS_MOVE)
        ply->order[count].key = KEY_FIRST;
    else if (first < count)
        ply->order[first].key = KEY_FIRST;
    qsort(ply->order, count + 1, sizeof *ply->order, by_key);
}

/* A move that cut the search off at this ply: a killer of the ply, and its history score grows. */
static void
remember_cutoff(Search *s, Ply *ply, int ply_index, size_t i, int depth)
{
    if (i >= ply->count)
        return;
    const unsigned char *r = ply->records + i * LX_MOVE_RECORD_SIZE;
    unsigned char(*killers)[KILLER_BYTES] = s->killers[ply_index];
    if (memcmp(r + 4, killers[0], KILLER_BYTES) != 0) {
        memcpy(killers[1], killers[0], KILLER_BYTES);
        memcpy(killers[0], r + 4, KILLER_BYTES);
    }
    uint32_t *h = &s->history[s->side][move_hash(r)];
    uint32_t bump = (uint32_t)(depth * depth);
    *h = *h + bump > HISTORY_CAP ? HISTORY_CAP : *h + bump;
}

static inline int
static_value(const Search *s)
{
    return s->rack_points[s->side ^ 1] - s->rack_points[s->side];
}

static int negamax(Search *s, int ply_index, int depth, int alpha, int beta, int zeros);

/* ABDADA's table of the children being searched. A slot holds the tag of one child (its key and the depth it is
 * searched to), written whole without a lock: a thread marks the child it enters and clears its mark when it
 * leaves, unless another mark took the slot. A slot that is lost or wrong only changes the order in which a thread
 * searches its moves (every move is searched, the deferred ones last), never a value. */
static inline uint64_t
busy_tag(uint64_t key, int depth)
{
    return key ^ mix(0x300000000ULL | (uint64_t)depth);
}

static inline uint64_t *
busy_slot(const Search *s, uint64_t tag)
{
    return &s->busy[tag & (BUSY_SLOTS - 1)];
}

/* Mark the position to move in (the child just entered) as searched to `depth`: its tag, 0 when nothing was marked. */
static inline uint64_t
busy_enter(Search *s, int depth)
{
    if (!s->busy || depth < DEFER_MIN_DEPTH - 1)
        return 0;
    uint64_t tag = busy_tag(s->key, depth);
    STORE_WORD(busy_slot(s, tag), tag);
    return tag;
}

static inline void
busy_leave(Search *s, uint64_t tag)
{
    if (!tag)
        return;
#if defined(__GNUC__) || defined(__clang__)
    uint64_t expected = tag;
    __atomic_compare_exchange_n(busy_slot(s, tag), &expected, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#else
    if (LOAD_WORD(busy_slot(s, tag)) == tag)
        STORE_WORD(busy_slot(s, tag), 0);
#endif
}

/* The key of the position after move `i` of the ply (count: the pass), or 0 when the move ends the game. */
static uint64_t
child_key(Search *s, Ply *ply, size_t i, int zeros)
{
    if (i == ply->count)
        return zeros + 1 >= ZERO_TURNS_TO_END ? 0 : s->key ^ SIDE_KEY ^ zeros_key(zeros) ^ zeros_key(zeros + 1);
    const unsigned char *r = ply->records + i * LX_MOVE_RECORD_SIZE;
    if (rec_tiles(r) == s->rack_len[s->side])
        return 0;
    apply_play(s, r, 0);
    uint64_t key = s->key ^ SIDE_KEY ^ zeros_key(zeros) ^ zeros_key(0);
    apply_play(s, r, 1);
    return key;
}

/* Whether to put move `i` off for now: another thread is searching its child at the same depth (ABDADA). */
static int
should_defer(Search *s, Ply *ply, size_t i, int depth, int zeros)
{
    if (!s->busy || depth < DEFER_MIN_DEPTH)
        return 0;
    uint64_t key = child_key(s, ply, i, zeros);
    if (!key)
        return 0;
    uint64_t tag = busy_tag(key, depth - 1);
    return LOAD_WORD(busy_slot(s, tag)) == tag;
}

/* The value of move `i` of the ply (count: the pass) for the side to move, its children searched in (alpha, beta). */
static int
child_value(Search *s, Ply *ply, int ply_index, size_t i, int depth, int alpha, int beta, int zeros)
{
    int p = s->side, v;
    if (i == ply->count) { /* the pass */
        if (zeros + 1 >= ZERO_TURNS_TO_END)
            return s->rack_points[p ^ 1] - s->rack_points[p];
        switch_side(s);
        s->key ^= zeros_key(zeros) ^ zeros_key(zeros + 1);
        uint64_t tag = busy_enter(s, depth - 1);
        v = -negamax(s, ply_index + 1, depth - 1, -beta, -alpha, zeros + 1);
        busy_leave(s, tag);
        s->key ^= zeros_key(zeros) ^ zeros_key(zeros + 1);
        switch_side(s);
        return v;
    }
    const unsigned char *r = ply->records + i * LX_MOVE_RECORD_SIZE;
    int score = rec_score(r);
    if (rec_tiles(r) == s->rack_len[p]) { /* goes out */
        apply_play(s, r, 0);
        v = score + 2 * s->rack_points[p ^ 1];
        apply_play(s, r, 1);
        return v;
    }
    apply_play(s, r, 0);
    switch_side(s);
    s->key ^= zeros_key(zeros) ^ zeros_key(0);
    uint64_t tag = busy_enter(s, depth - 1);
    v = score - negamax(s, ply_index + 1, depth - 1, score - beta, score - alpha, 0);
    busy_leave(s, tag);
    s->key ^= zeros_key(zeros) ^ zeros_key(0);
    switch_side(s);
    apply_play(s, r, 1);
    return v;
}

typedef struct {
    int value;
    unsigned move;
} Bests;

/* Search move `i` of a node in (*alpha, beta) (`first`: the node's first move, in the full window; the others
 * with a null window first: principal variation search) and keep it in *bests when better. 1 when the node is
 * done: the move cut it off, or the search stops. */
static int
try_move(Search *s, Ply *ply, int ply_index, size_t i, int depth, int *alpha, int beta, int zeros, int first,
         Bests *bests)
{
    int v;
    if (first || beta - *alpha <= 1) {
        v = child_value(s, ply, ply_index, i, depth, *alpha, beta, zeros);
    } else { /* prove the move no better with a null window, else search again */
        v = child_value(s, ply, ply_index, i, depth, *alpha, *alpha + 1, zeros);
        if (!s->stop && v > *alpha && v < beta)
            v = child_value(s, ply, ply_index, i, depth, *alpha, beta, zeros);
    }
    if (s->stop)
        return 1;
    if (v > bests->value) {
        bests->value = v;
        bests->move = i == ply->count ? PASS_MOVE : (i < PASS_MOVE ? (unsigned)i : NO_MOVE);
        if (v > *alpha)
            *alpha = v;
        if (*alpha >= beta) {
            remember_cutoff(s, ply, ply_index, i, depth);
            return 1;
        }
    }
    return 0;
}

/* Whether the table's bound answers a node searched to `depth` in (alpha, beta), noting in s->cut what cut it when
 * it is not solved: a bound of the thread's own depth-limited search cuts the iteration as the thread's own depth
 * limit would (CUT_DEPTH). On the main thread a helper's unsolved bound (or an entry of its own that took one) only
 * CUT_BORROWED it: the helper searched that child in another window and order, where its depth limit cut lines the
 * main thread's own search would have ended at the end of the game, so such a cut alone is searched again (strict,
 * deepen_from) instead of deeper. In the strict search those bounds are not taken. */
static inline int
bound_ends_node(Search *s, const Probe *probe, int depth, int alpha, int beta)
{
    int solved = probe->flag & FLAG_SOLVED, kind = probe->flag & 3;
    if (!solved && (int)probe->depth < depth)
        return 0;
    if (!(kind == FLAG_EXACT || (kind == FLAG_LOWER && probe->value >= beta)
          || (kind == FLAG_UPPER && probe->value <= alpha)))
        return 0;
    if (solved)
        return 1;
    int foreign = probe->flag & (FLAG_HELPER | FLAG_BORROWED);
    if (foreign && s->strict) /* a helper in the strict search takes what the main thread takes */
        return 0;
    s->cut |= foreign && !s->helper ? CUT_BORROWED : CUT_DEPTH;
    return 1;
}

static int
negamax(Search *s, int ply_index, int depth, int alpha, int beta, int zeros)
{
    if (s->stop)
        return 0;
    if (++s->nodes == s->node_limit || lx_deadline_passed(&s->deadline)
        || (s->abort && (s->nodes & (DEADLINE_NODES - 1)) == 0 && LOAD_FLAG(s->abort))) {
        s->stop = 1;
        return 0;
    }
    Entry *e = &s->table[s->key & s->mask];
    unsigned first = NO_MOVE;
    Probe probe;
    if (table_probe(e, s->key, &probe)) {
        first = probe.move;
        if (bound_ends_node(s, &probe, depth, alpha, beta))
            return probe.value;
    }
    if (depth <= 0 || ply_index >= MAX_PLY) {
        s->cut |= CUT_DEPTH;
        return static_value(s);
    }
    Ply *ply = &s->plies[ply_index];
    int status = generate(s, ply);
    if (status) {
        s->status = status;
        s->stop = 1;
        return 0;
    }
    order_moves(s, ply, ply_index, first);
    int cut_before = s->cut;
    s->cut = 0;
    int original_alpha = alpha;
    Bests bests = {-INF_VALUE, NO_MOVE};
    int done = 0;
    size_t deferred = 0;
    for (size_t k = 0; k <= ply->count && !done; k++) {
        size_t i = ply->order[k].index;
        if (k > 0 && should_defer(s, ply, i, depth, zeros))
            ply->deferred[deferred++] = (uint32_t)i;
        else
            done = try_move(s, ply, ply_index, i, depth, &alpha, beta, zeros, k == 0, &bests);
    }
    for (size_t d = 0; d < deferred && !done; d++)
        done = try_move(s, ply, ply_index, ply->deferred[d], depth, &alpha, beta, zeros, 0, &bests);
    if (s->stop)
        return 0;
    int best = bests.value;
    unsigned best_move = bests.move;
    int cut = s->cut;
    s->cut = cut | cut_before;
    unsigned flag = (best <= original_alpha ? FLAG_UPPER
                     : best >= beta         ? FLAG_LOWER
                                            : FLAG_EXACT)
                    | (cut ? 0 : FLAG_SOLVED) | (s->helper ? FLAG_HELPER : 0)
                    | (cut == CUT_BORROWED ? FLAG_BORROWED : 0);
    table_store(e, s->key, best, best_move, (unsigned)(depth > 255 ? 255 : depth), flag);
    return best;
}

typedef struct {
    int value, have;
    size_t best; /* index in the root ply */
    unsigned char record[LX_MOVE_RECORD_SIZE];
} RootAnswer;

/* A helper's root order: the main thread's, turned by `by` places. */
static void
rotate_order(Ply *ply, int by)
{
    size_t n = ply->count + 1, shift = (size_t)by % n;
    Order *turned = malloc(n * sizeof *turned);
    if (!turned)
        return; /* the order only changes the time */
    for (size_t k = 0; k < n; k++)
        turned[k] = ply->order[(k + shift) % n];
    memcpy(ply->order, turned, n * sizeof *turned);
    free(turned);
}

/* Search the root's move `i` and keep it in *answer when better (a tie: the fixed order decides, the pass last).
 * The moves after the first are searched with the window (best - 1, +inf), which tells a tie from a worse move. */
static void
try_root_move(Search *s, Ply *ply, size_t i, int depth, int zeros, RootAnswer *answer)
{
    int best = answer->value;
    size_t best_i = answer->best;
    int alpha = answer->have ? best - 1 : -INF_VALUE;
    if (s->root_trace)
        s->root_trace[s->root_traced++] = (uint32_t)i;
    int v = child_value(s, ply, 0, i, depth, alpha, INF_VALUE, zeros);
    if (s->stop)
        return;
    int better = !answer->have || v > best;
    if (!better && v == best) {
        better =
            best_i == ply->count
            || (i != ply->count
                && canonical_cmp(ply->records + i * LX_MOVE_RECORD_SIZE, ply->records + best_i * LX_MOVE_RECORD_SIZE)
                       < 0);
    }
    if (better) {
        answer->value = v;
        answer->best = i;
        answer->have = 1;
    }
}

/* One iteration at the root: the best value and move (the tie-break of the file's comment); on several threads a
 * move whose child another thread is searching is put off until the others are done (ABDADA). */
static void
search_root(Search *s, int depth, int zeros, unsigned first, RootAnswer *answer)
{
    Ply *ply = &s->plies[0];
    order_moves(s, ply, 0, first);
    if (s->helper > 1 && ply->count > 1) /* helpers after the first: another root order, so that they part ways */
        rotate_order(ply, s->helper - 1);
    answer->have = 0;
    answer->value = -INF_VALUE;
    answer->best = 0;
    size_t deferred = 0;
    for (size_t k = 0; k <= ply->count && !s->stop; k++) {
        size_t i = ply->order[k].index;
        if (k > 0 && should_defer(s, ply, i, depth, zeros))
            ply->deferred[deferred++] = (uint32_t)i;
        else
            try_root_move(s, ply, i, depth, zeros, answer);
    }
    for (size_t d = 0; d < deferred && !s->stop; d++)
        try_root_move(s, ply, ply->deferred[d], depth, zeros, answer);
    size_t best_i = answer->best;
    memset(answer->record, 0, LX_MOVE_RECORD_SIZE);
    if (answer->have && best_i < ply->count)
        memcpy(answer->record, ply->records + best_i * LX_MOVE_RECORD_SIZE, LX_MOVE_RECORD_SIZE);
}

/* Play a move for the PV walk: records keep the move; returns 1 when the game ended with it. */
static int
pv_step(Search *s, const unsigned char *r, int *zeros)
{
    if (r[7] == 0) {
        if (++*zeros >= ZERO_TURNS_TO_END)
            return 1;
        switch_side(s);
        s->key ^= zeros_key(*zeros - 1) ^ zeros_key(*zeros);
        return 0;
    }
    int out = rec_tiles(r) == s->rack_len[s->side];
    apply_play(s, r, 0);
    if (out)
        return 1;
    s->key ^= zeros_key(*zeros) ^ zeros_key(0);
    *zeros = 0;
    switch_side(s);
    return 0;
}

/* The principal variation after the best move: at each position, the first move (in search order) whose value
 * reaches the position's value, by null-window searches on the warm table. Appends records to pv. */
static size_t
walk_pv(Search *s, const RootAnswer *root, int zeros, int depth, unsigned char *pv, size_t room)
{
    size_t n = 0;
    memcpy(pv, root->record, LX_MOVE_RECORD_SIZE);
    n++;
    int value = root->value;
    /* the value left for the side to move after each move */
    const unsigned char *r = root->record;
    int score = r[7] ? rec_score(r) : 0;
    if (pv_step(s, pv, &zeros))
        return n;
    value = -(value - score);
    depth--;
    while (n < room && depth > 1) {
        Ply *ply = &s->plies[0];
        if (generate(s, ply))
            break;
        Probe probe;
        order_moves(s, ply, 0, table_probe(&s->table[s->key & s->mask], s->key, &probe) ? probe.move : NO_MOVE);
        size_t found = (size_t)-1;
        for (size_t k = 0; k <= ply->count && found == (size_t)-1; k++) {
            size_t i = ply->order[k].index;
            int v = child_value(s, ply, 0, i, depth, value - 1, value, zeros);
            if (s->stop)
                return n;
            if (v >= value)
                found = i;
        }
        if (found == (size_t)-1)
            break;
        unsigned char *out = pv + n * LX_MOVE_RECORD_SIZE;
        memset(out, 0, LX_MOVE_RECORD_SIZE);
        if (found < ply->count)
            memcpy(out, ply->records + found * LX_MOVE_RECORD_SIZE, LX_MOVE_RECORD_SIZE);
        n++;
        score = out[7] ? rec_score(out) : 0;
        if (pv_step(s, out, &zeros))
            break;
        value = -(value - score);
        depth--;
    }
    return n;
}

/* The plies' buffers, and the tables unless the search is a helper's (which shares the main thread's). */
static void
free_search(Search *s)
{
    for (int i = 0; i <= MAX_PLY; i++) {
        free(s->plies[i].records);
        free(s->plies[i].order);
        free(s->plies[i].deferred);
    }
    if (!s->helper) {
        free(s->table);
        free(s->busy);
    }
}

/* Tiles of `side`'s rack that no play of that rack on the board puts down (a blank counts as code 0), as counts
 * per code into `stuck`. 0, or an LX_MOVEGEN_* status. */
static int
find_stuck_tiles(Search *s, int side, unsigned char *stuck)
{
    int saved = s->side;
    s->side = side;
    int status = generate(s, &s->plies[0]);
    s->side = saved;
    if (status)
        return status;
    unsigned char used[LX_MAX_MOVE_TILE_CODES] = {0};
    for (size_t i = 0; i < s->plies[0].count; i++) {
        const unsigned char *r = s->plies[0].records + i * LX_MOVE_RECORD_SIZE;
        for (int k = 0; k < r[7]; k++) {
            unsigned char b = r[REC_SQUARES + k];
            if (b)
                used[(b & LX_BLANK_FLAG) ? 0 : b] = 1;
        }
    }
    for (int code = 0; code < s->n_codes; code++)
        stuck[code] = used[code] ? 0 : s->racks[side][code];
    return LX_MOVEGEN_OK;
}

/* Each side's sixteenths of rack points on stuck tiles, for the move order. 0, or an LX_MOVEGEN_* status. */
static int
weigh_stuck_tiles(Search *s)
{
    for (int side = 0; side < 2; side++) {
        unsigned char stuck[LX_MAX_MOVE_TILE_CODES];
        int status = find_stuck_tiles(s, side, stuck), points = 0;
        if (status)
            return status;
        for (int code = 1; code < s->n_codes; code++)
            points += stuck[code] * s->points[code];
        s->stuck16[side] = s->rack_points[side] ? 16 * points / s->rack_points[side] : 0;
    }
    return LX_MOVEGEN_OK;
}

/* A request's position and tables, checked: the search set up (board, racks, their points and keys), its table
 * allocated, and the threads asked for (1 when the request does not say). NULL with an error set. */
static Search *
start_search(PyObject *request, int *zero_turns, int *threads)
{
    PyObject *tables_object;
    const char *board, *blanks, *racks[2];
    Py_ssize_t board_length, blanks_length, rack_lengths[2], table_entries;
    *threads = 1;
    if (!PyArg_ParseTuple(request, "Oy#y#(y#y#)in|i:solve_endgame", &tables_object, &board, &board_length, &blanks,
                          &blanks_length, &racks[0], &rack_lengths[0], &racks[1], &rack_lengths[1], zero_turns,
                          &table_entries, threads))
        return NULL;
    const LxGameTables *tables = lx_game_tables_of(tables_object);
    if (tables == NULL)
        return NULL;
    const Py_ssize_t squares = (Py_ssize_t)tables->size * tables->size;
    int bad = board_length != squares || blanks_length != squares || rack_lengths[0] != tables->code_count
              || rack_lengths[1] != tables->code_count || *zero_turns < 0 || *zero_turns >= ZERO_TURNS_TO_END
              || table_entries < 1 || (table_entries & (table_entries - 1))
              || table_entries > ((Py_ssize_t)LX_ENDGAME_MAX_TABLE_MB << 20) / (Py_ssize_t)sizeof(Entry) || *threads < 1
              || *threads > LX_ENDGAME_MAX_THREADS;
    int lengths[2] = {0, 0};
    for (int code = 0; code < tables->code_count && !bad; code++)
        for (int q = 0; q < 2; q++)
            lengths[q] += (unsigned char)racks[q][code];
    for (int q = 0; q < 2; q++)
        bad = bad || lengths[q] < 1 || lengths[q] > LX_ENDGAME_MAX_RACK;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "solve_endgame: inconsistent arguments");
        return NULL;
    }
    Search *s = calloc(1, sizeof *s);
    if (s)
        s->table = calloc((size_t)table_entries, sizeof(Entry));
    if (!s || !s->table) {
        free(s);
        PyErr_NoMemory();
        return NULL;
    }
    s->mask = (size_t)table_entries - 1;
    s->n = tables->size;
    s->n_codes = tables->code_count;
    s->points = tables->points;
    memcpy(s->board, board, (size_t)squares);
    memcpy(s->blanks, blanks, (size_t)squares);
    for (int q = 0; q < 2; q++) {
        memcpy(s->racks[q], racks[q], (size_t)tables->code_count);
        s->rack_len[q] = lengths[q];
        for (int code = 0; code < tables->code_count; code++) {
            if (code)
                s->rack_points[q] += s->racks[q][code] * s->points[code];
            s->key ^= rack_key(q, code, s->racks[q][code]);
        }
    }
    for (int square = 0; square < squares; square++)
        if (s->board[square])
            s->key ^= square_key(square, s->board[square] | (s->blanks[square] ? LX_BLANK_FLAG : 0));
    s->key ^= zeros_key(*zero_turns);
    s->node_limit = -1;
    s->in = (LxMoveInput){.tables = tables,
                          .board = s->board,
                          .blanks = s->blanks,
                          .rack = s->racks[0],
                          .top = -1,
                          .deadline = lx_no_deadline()};
    return s;
}

/* What the search found: the last finished iteration's answer and depth, whether it was exact, the PV. */
typedef struct {
    RootAnswer last;
    int depth_done, complete;
    unsigned char pv[(MAX_PLY + 1) * LX_MOVE_RECORD_SIZE];
    size_t pv_count;
    /* per thread (the main thread first): the nodes of its search until the answer, and its CPU seconds there */
    int threads;
    int64_t thread_nodes[LX_ENDGAME_MAX_THREADS];
    double thread_cpu[LX_ENDGAME_MAX_THREADS];
} Solution;

/* The iteration the main thread publishes to its helpers (Search.iteration): its depth, doubled, plus 1 while it
 * searches that depth again without the helpers' unsolved bounds (strict). */
static inline int
iteration_word(int depth, int strict)
{
    return 2 * depth + strict;
}

/* A helper's next iteration: the main thread's word, once it is past `done` (the helper's last), waiting for it
 * meanwhile; 0 when the main thread's search has ended. A helper ahead of the main thread would fill the table with
 * the bounds of a deeper search, cut by its depth limit more often: the main thread, taking their values, would find
 * its own iteration cut and search deeper than it needed. (Runs still differ: the threads' timing decides which
 * entries the main thread meets; see docs/performance.md.) */
static int
helper_next_iteration(const Search *s, int done)
{
    for (;;) {
        if (LOAD_FLAG(s->abort))
            return 0;
        int current = LOAD_FLAG(s->iteration);
        if (current > done)
            return current;
        lx_pause(1e-4); /* 0.1 ms: the main thread's iterations take far longer */
    }
}

/* One search of the root to `depth` (from the move `*first`), kept in the solution when it finished: 1, or 0 when
 * the search stopped (the deadline, a helper's abort, an error in s->status). */
static int
search_iteration(Search *s, int depth, int zero_turns, unsigned *first, Solution *solution)
{
    RootAnswer answer = {0};
    search_root(s, depth, zero_turns, *first, &answer);
    if (s->stop || s->status)
        return 0;
    solution->last = answer;
    solution->depth_done = depth;
    *first = answer.best < s->plies[0].count ? (unsigned)answer.best : PASS_MOVE;
    return 1;
}

/* Iterative deepening, one ply at a time from `first_depth`, until an iteration no depth limit cut (exact) or the
 * deadline: the main thread's first iteration always finishes, so that there is a move to answer. An iteration of
 * the main thread that only helpers' unsolved bounds cut (CUT_BORROWED) is searched again at the same depth taking
 * none of them: one thread's search would have ended there when its own search is not cut, and a deeper iteration
 * costs more than searching again the children those bounds stood for. 0, or an LX_MOVEGEN_* status. */
static int
deepen_from(Search *s, int zero_turns, const LxDeadline *deadline, int first_depth, Solution *solution)
{
    int status = generate(s, &s->plies[0]);
    unsigned first = NO_MOVE;
    int last_depth = s->last_depth ? s->last_depth : MAX_PLY;
    for (int depth = first_depth; !status && depth <= last_depth; depth++) {
        if (s->iteration)
            STORE_FLAG(s->iteration, iteration_word(depth, 0));
        s->cut = 0;
        s->deadline = depth == 1 ? lx_no_deadline() : *deadline;
        if (depth > 1 && lx_deadline_passed_now(&s->deadline))
            break;
        int finished = search_iteration(s, depth, zero_turns, &first, solution);
        if (finished && s->cut == CUT_BORROWED) {
            s->researches++;
            s->strict = 1;
            s->cut = 0;
            if (s->iteration)
                STORE_FLAG(s->iteration, iteration_word(depth, 1));
            finished = search_iteration(s, depth, zero_turns, &first, solution);
            s->strict = 0;
        }
        status = s->status;
        if (!finished)
            break;
        if (s->iteration_nodes) {
            s->iteration_nodes[depth] = s->nodes;
            s->iteration_cpu[depth] = lx_thread_cpu_seconds();
        }
        if (!s->cut) {
            solution->complete = 1;
            break;
        }
    }
    return status;
}

/* A helper's iterations: each one the main thread publishes (its depth; strict when the main thread searches it
 * again), until the main thread's search ends. A helper whose own iteration no depth limit cut goes on helping: the
 * main thread's may still be cut, or searched again strict. 0, or an LX_MOVEGEN_* status. */
static int
help_main(Search *s, int zero_turns, const LxDeadline *deadline, Solution *solution)
{
    int status = generate(s, &s->plies[0]);
    unsigned first = NO_MOVE;
    for (int done = 0, word; !status && (word = helper_next_iteration(s, done)); done = word) {
        s->cut = 0;
        s->strict = word & 1;
        s->deadline = *deadline;
        if (lx_deadline_passed_now(&s->deadline))
            break;
        if (!search_iteration(s, word / 2, zero_turns, &first, solution)) {
            status = s->status;
            break;
        }
    }
    return status;
}

/* deepen_from (or a helper's help_main), its nodes and the thread's CPU time kept in the search's counts. */
static int
deepen(Search *s, int zero_turns, const LxDeadline *deadline, int first_depth, Solution *solution)
{
    double cpu_start = lx_thread_cpu_seconds();
    int status = s->helper && s->iteration ? help_main(s, zero_turns, deadline, solution)
                                           : deepen_from(s, zero_turns, deadline, first_depth, solution);
    s->cpu_seconds = lx_thread_cpu_seconds() - cpu_start;
    s->search_nodes = s->nodes;
    return status;
}

/* The principal variation: the best move alone when the search was cut short; else the walk, which searches to
 * the end (no depth limit: no guess can pass for a value) on the warm table, within as many nodes again as the
 * search took. 0, or an LX_MOVEGEN_* status. */
static int
principal_variation(Search *s, int zero_turns, Solution *solution)
{
    if (!solution->complete) {
        memcpy(solution->pv, solution->last.record, LX_MOVE_RECORD_SIZE);
        solution->pv_count = 1;
        return 0;
    }
    s->stop = 0;
    s->deadline = lx_no_deadline();
    s->node_limit = 2 * s->nodes + 100000;
    solution->pv_count = walk_pv(s, &solution->last, zero_turns, MAX_PLY, solution->pv, MAX_PLY + 1);
    return s->status;
}

/* Several threads (ABDADA on a shared table): helper threads search the same iterations as the main thread, each
 * from its own copy of the position, and stop when the main thread's search ends. Each thread puts off the moves
 * whose child another thread is searching at the same depth (the table of busy children) and comes back to them
 * after its other moves, by when the table often holds their value: the threads part ways at every node deep
 * enough instead of searching the same tree node for node. The helpers' answers are dropped: they only fill the
 * table, whose entries are as true as the main thread's own, and the order of the moves never changes a value, so
 * the main thread's answer (value and move) is the one it finds alone. A helper searches the main thread's
 * iteration, never a deeper one (helper_next_iteration). A helper's bound that a depth limit cut (found in another
 * window and order) does not count as its own cut for the main thread: an iteration only such bounds cut is searched
 * again at the same depth without them (deepen_from), the helpers with it (help_main), so that the main thread ends
 * where one thread would. */
typedef struct {
    Search *search;
    Solution *solution;
    int zero_turns;
    LxDeadline deadline;
#ifndef _WIN32
    pthread_t thread;
#endif
    int started;
} Helper;

#ifndef _WIN32
static void *
run_helper(void *arg)
{
    Helper *h = arg;
    deepen(h->search, h->zero_turns, &h->deadline, 1, h->solution);
    return NULL;
}
#endif

/* A helper's search: the main thread's position and table, its own buffers and ordering state. NULL: no memory. */
static Search *
helper_search(const Search *main_search, int k, const int *abort)
{
    Search *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    memcpy(h, main_search, sizeof *h);
    memset(h->plies, 0, sizeof h->plies);
    memset(h->killers, 0, sizeof h->killers);
    memset(h->history, 0, sizeof h->history);
    h->helper = k;
    h->abort = abort;
    h->nodes = 0;
    h->in.board = h->board;
    h->in.blanks = h->blanks;
    return h;
}

/* The search on `threads` threads (the main thread's is the answer); the helpers' nodes are added to the main
 * thread's count, and each thread's nodes and CPU time are kept in the solution. 0, or an LX_MOVEGEN_* status. */
static int
search_threads(Search *s, int zero_turns, const LxDeadline *deadline, int threads, Solution *solution)
{
    int abort = 0, iteration = 0, status;
    Helper helpers[LX_ENDGAME_MAX_THREADS];
    int count = 0;
#ifndef _WIN32
    if (threads > 1) {
        s->busy = calloc(BUSY_SLOTS, sizeof *s->busy); /* none: the helpers search without deferring, as true */
        s->iteration = &iteration;
    }
    for (int k = 1; k < threads; k++) {
        Helper *h = &helpers[count];
        memset(h, 0, sizeof *h);
        h->search = helper_search(s, k, &abort);
        h->solution = h->search ? calloc(1, sizeof *h->solution) : NULL;
        h->zero_turns = zero_turns;
        h->deadline = *deadline;
        if (h->solution && pthread_create(&h->thread, NULL, run_helper, h) == 0)
            h->started = 1;
        if (!h->started) { /* fewer helpers: the answer is the same, later */
            if (h->search)
                free_search(h->search);
            free(h->search);
            free(h->solution);
            break;
        }
        count++;
    }
#else
    (void)threads;
#endif
    status = deepen(s, zero_turns, deadline, 1, solution);
    STORE_FLAG(&abort, 1);
    s->iteration = NULL;
    solution->thread_nodes[0] = s->search_nodes;
    solution->thread_cpu[0] = s->cpu_seconds;
    solution->threads = 1 + count;
    for (int k = 0; k < count; k++) {
#ifndef _WIN32
        pthread_join(helpers[k].thread, NULL);
#endif
        solution->thread_nodes[1 + k] = helpers[k].search->search_nodes;
        solution->thread_cpu[1 + k] = helpers[k].search->cpu_seconds;
        s->nodes += helpers[k].search->nodes;
        free_search(helpers[k].search);
        free(helpers[k].search);
        free(helpers[k].solution);
    }
    return status;
}

/* (value, complete, depth, nodes, pv, thread_nodes, thread_cpu_seconds): the answer as solve_endgame returns it.
 * NULL with an error set. */
static PyObject *
answer_tuple(const Search *s, const Solution *solution)
{
    PyObject *nodes = PyTuple_New(solution->threads), *cpu = PyTuple_New(solution->threads);
    for (int k = 0; nodes && cpu && k < solution->threads; k++) {
        PyObject *n = PyLong_FromLongLong((long long)solution->thread_nodes[k]);
        PyObject *c = PyFloat_FromDouble(solution->thread_cpu[k]);
        if (n)
            PyTuple_SET_ITEM(nodes, k, n);
        if (c)
            PyTuple_SET_ITEM(cpu, k, c);
        if (!n || !c) {
            Py_CLEAR(nodes);
            break;
        }
    }
    PyObject *result = NULL;
    if (nodes && cpu)
        result = Py_BuildValue("(iiiLy#OO)", solution->last.have ? solution->last.value : 0, solution->complete,
                               solution->depth_done, (long long)s->nodes, (const char *)solution->pv,
                               (Py_ssize_t)(solution->pv_count * LX_MOVE_RECORD_SIZE), nodes, cpu);
    Py_XDECREF(nodes);
    Py_XDECREF(cpu);
    return result;
}

static PyObject *
solve_endgame(PyObject *module, PyObject *args)
{
    PyObject *request, *deadline_object = Py_None;
    int zero_turns, threads;
    LxDeadline deadline;
    if (!PyArg_ParseTuple(args, "O!|O:solve_endgame", &PyTuple_Type, &request, &deadline_object)
        || lx_deadline_parse(deadline_object, &deadline) < 0)
        return NULL;
    deadline.every = DEADLINE_NODES;
    Search *s = start_search(request, &zero_turns, &threads);
    Solution *solution = s ? calloc(1, sizeof *solution) : NULL;
    if (s == NULL || solution == NULL) {
        if (s != NULL) {
            free_search(s);
            free(s);
            PyErr_NoMemory();
        }
        return NULL;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = weigh_stuck_tiles(s);
    if (!status)
        status = search_threads(s, zero_turns, &deadline, threads, solution);
    if (!status && solution->last.have)
        status = principal_variation(s, zero_turns, solution);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "solve_endgame: a board tile is outside the alphabet");
    else if (status)
        PyErr_NoMemory();
    else
        result = answer_tuple(s, solution);
    free(solution);
    free_search(s);
    free(s);
    return result;
}

/* endgame_stuck_tiles(request) -> (stuck_a, stuck_b): per side, a count per tile code of the rack's tiles that no
 * play of that rack on the request's board puts down (a blank: code 0). */
static PyObject *
endgame_stuck_tiles(PyObject *module, PyObject *args)
{
    PyObject *request;
    int zero_turns, threads;
    if (!PyArg_ParseTuple(args, "O!:endgame_stuck_tiles", &PyTuple_Type, &request))
        return NULL;
    Search *s = start_search(request, &zero_turns, &threads);
    if (s == NULL)
        return NULL;
    unsigned char stuck[2][LX_MAX_MOVE_TILE_CODES];
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = find_stuck_tiles(s, 0, stuck[0]);
    if (!status)
        status = find_stuck_tiles(s, 1, stuck[1]);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "endgame_stuck_tiles: a board tile is outside the alphabet");
    else if (status)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(y#y#)", (const char *)stuck[0], (Py_ssize_t)s->n_codes, (const char *)stuck[1],
                               (Py_ssize_t)s->n_codes);
    free_search(s);
    free(s);
    return result;
}

/* endgame_root_order(request, depth, busy) -> (order, value, complete, records): one root iteration to `depth` on
 * one thread, with the children of the root's moves `busy` (indices in generation order; the pass: the move
 * count) marked as another thread's (ABDADA's table, by hand): `order` the root's moves in the order they were
 * searched, `value` the iteration's, `complete` 1 when no depth limit cut it, `records` the root's moves
 * (generation order). For the tests of the deferral. */
static PyObject *
endgame_root_order(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *request, *busy_list;
    int depth, zero_turns, threads;
    if (!PyArg_ParseTuple(args, "O!iO!:endgame_root_order", &PyTuple_Type, &request, &depth, &PyList_Type, &busy_list))
        return NULL;
    if (depth < 1 || depth > MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "endgame_root_order: depth outside 1..MAX_PLY");
        return NULL;
    }
    Py_ssize_t n_busy = PyList_GET_SIZE(busy_list);
    size_t busy[512];
    if (n_busy > 512) {
        PyErr_SetString(PyExc_ValueError, "endgame_root_order: at most 512 busy moves");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n_busy; k++) {
        busy[k] = PyLong_AsSize_t(PyList_GET_ITEM(busy_list, k));
        if (PyErr_Occurred())
            return NULL;
    }
    Search *s = start_search(request, &zero_turns, &threads);
    if (s == NULL)
        return NULL;
    RootAnswer answer = {0};
    int status = LX_MOVEGEN_MEMORY;
    s->busy = calloc(BUSY_SLOTS, sizeof *s->busy);
    if (s->busy && !(status = weigh_stuck_tiles(s)) && !(status = generate(s, &s->plies[0]))) {
        Ply *root = &s->plies[0];
        s->root_trace = malloc((root->count + 1) * sizeof *s->root_trace);
        status = s->root_trace ? LX_MOVEGEN_OK : LX_MOVEGEN_MEMORY;
        for (Py_ssize_t k = 0; k < n_busy && !status; k++) {
            uint64_t key = busy[k] <= root->count ? child_key(s, root, busy[k], zero_turns) : 0;
            if (key)
                STORE_WORD(busy_slot(s, busy_tag(key, depth - 1)), busy_tag(key, depth - 1));
        }
        if (!status) {
            s->deadline = lx_no_deadline();
            search_root(s, depth, zero_turns, NO_MOVE, &answer);
            status = s->status;
        }
    }
    PyObject *result = NULL;
    if (status == LX_MOVEGEN_GRAPH || status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "endgame_root_order: the position or the word graph is bad");
    else if (status)
        PyErr_NoMemory();
    else {
        PyObject *order = PyTuple_New((Py_ssize_t)s->root_traced);
        for (size_t k = 0; order && k < s->root_traced; k++) {
            PyObject *index = PyLong_FromSize_t(s->root_trace[k]);
            if (!index) {
                Py_CLEAR(order);
                break;
            }
            PyTuple_SET_ITEM(order, (Py_ssize_t)k, index);
        }
        if (order)
            result = Py_BuildValue("(Niiy#)", order, answer.value, !s->cut,
                                   s->plies[0].count ? (const char *)s->plies[0].records : "",
                                   (Py_ssize_t)(s->plies[0].count * LX_MOVE_RECORD_SIZE));
    }
    free(s->root_trace);
    free_search(s);
    free(s);
    return result;
}

/* endgame_borrowed_bounds(request, planted) -> (value, complete, depth, researches, best): the main thread's
 * iterative deepening on one thread, with bounds planted in the table beforehand as a helper's that no depth limit
 * marked solved: `planted` holds (move, value, kind) triples, `move` a root move's index (generation order; the
 * pass: the move count), `value` its child's value for the side to move there, `kind` FLAG_EXACT, FLAG_LOWER or
 * FLAG_UPPER, each stored at the child's key with the deepest depth, so that every iteration may take it. `best` is
 * the index of the answer's move, `researches` the iterations searched again without those bounds. For the tests. */
static PyObject *
endgame_borrowed_bounds(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *request, *planted;
    int zero_turns, threads;
    if (!PyArg_ParseTuple(args, "O!O!:endgame_borrowed_bounds", &PyTuple_Type, &request, &PyList_Type, &planted))
        return NULL;
    Py_ssize_t n_planted = PyList_GET_SIZE(planted);
    if (n_planted > 512) {
        PyErr_SetString(PyExc_ValueError, "endgame_borrowed_bounds: at most 512 planted bounds");
        return NULL;
    }
    size_t moves[512];
    int values[512], kinds[512];
    for (Py_ssize_t k = 0; k < n_planted; k++) {
        if (!PyArg_ParseTuple(PyList_GET_ITEM(planted, k), "nii", &moves[k], &values[k], &kinds[k]))
            return NULL;
        if (kinds[k] < FLAG_EXACT || kinds[k] > FLAG_UPPER) {
            PyErr_SetString(PyExc_ValueError, "endgame_borrowed_bounds: kind outside 0..2");
            return NULL;
        }
    }
    Search *s = start_search(request, &zero_turns, &threads);
    Solution *solution = s ? calloc(1, sizeof *solution) : NULL;
    if (!solution) {
        if (s) {
            free_search(s);
            free(s);
            PyErr_NoMemory();
        }
        return NULL;
    }
    int status = weigh_stuck_tiles(s);
    if (!status)
        status = generate(s, &s->plies[0]);
    for (Py_ssize_t k = 0; k < n_planted && !status; k++) {
        uint64_t key = moves[k] <= s->plies[0].count ? child_key(s, &s->plies[0], moves[k], zero_turns) : 0;
        if (key)
            table_store(&s->table[key & s->mask], key, values[k], NO_MOVE, 255, (unsigned)kinds[k] | FLAG_HELPER);
    }
    LxDeadline none = lx_no_deadline();
    if (!status)
        status = deepen(s, zero_turns, &none, 1, solution);
    PyObject *result = NULL;
    if (status == LX_MOVEGEN_GRAPH || status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "endgame_borrowed_bounds: the position or the word graph is bad");
    else if (status)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(iiiin)", solution->last.value, solution->complete, solution->depth_done, s->researches,
                               (Py_ssize_t)solution->last.best);
    free(solution);
    free_search(s);
    free(s);
    return result;
}

/* endgame_iterations(request, last_depth, deadline) -> ((depth, nodes, cpu_seconds), ...), complete: one thread's
 * iterative deepening to at most `last_depth` plies (or the deadline), the nodes searched and the thread's CPU
 * seconds by the end of each iteration finished. For bench/bench_endgame.py --depths: how the search grows ply by ply, beside another solver's. */
static PyObject *
endgame_iterations(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *request, *deadline_object = Py_None;
    int last_depth, zero_turns, threads;
    LxDeadline deadline;
    if (!PyArg_ParseTuple(args, "O!i|O:endgame_iterations", &PyTuple_Type, &request, &last_depth, &deadline_object)
        || lx_deadline_parse(deadline_object, &deadline) < 0)
        return NULL;
    if (last_depth < 1 || last_depth > MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "endgame_iterations: depth outside 1..MAX_PLY");
        return NULL;
    }
    deadline.every = DEADLINE_NODES;
    Search *s = start_search(request, &zero_turns, &threads);
    Solution *solution = s ? calloc(1, sizeof *solution) : NULL;
    int64_t *nodes = solution ? calloc(MAX_PLY + 1, sizeof *nodes) : NULL;
    double *cpu = nodes ? calloc(MAX_PLY + 1, sizeof *cpu) : NULL;
    if (!cpu) {
        free(nodes);
        free(solution);
        if (s) {
            free_search(s);
            free(s);
            PyErr_NoMemory();
        }
        return NULL;
    }
    s->last_depth = last_depth;
    s->iteration_nodes = nodes;
    s->iteration_cpu = cpu;
    int status;
    double cpu_start;
    Py_BEGIN_ALLOW_THREADS
    cpu_start = lx_thread_cpu_seconds();
    status = weigh_stuck_tiles(s);
    if (!status)
        status = deepen(s, zero_turns, &deadline, 1, solution);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (status == LX_MOVEGEN_GRAPH || status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "endgame_iterations: the position or the word graph is bad");
    else if (status)
        PyErr_NoMemory();
    else {
        PyObject *rows = PyList_New(0);
        for (int depth = 1; rows && depth <= solution->depth_done; depth++) {
            PyObject *row = Py_BuildValue("(iLd)", depth, (long long)nodes[depth], cpu[depth] - cpu_start);
            if (!row || PyList_Append(rows, row) < 0)
                Py_CLEAR(rows);
            Py_XDECREF(row);
        }
        if (rows)
            result = Py_BuildValue("(Ni)", rows, solution->complete);
    }
    free(cpu);
    free(nodes);
    free(solution);
    free_search(s);
    free(s);
    return result;
}

static PyMethodDef endgame_methods[] = {
    {"solve_endgame", solve_endgame, METH_VARARGS,
     "solve_endgame(request, deadline=None) -> (value, complete, depth, nodes, pv, thread_nodes, "
     "thread_cpu_seconds)\n\nThe exact endgame (see "
     "endgame.c)."},
    {"endgame_stuck_tiles", endgame_stuck_tiles, METH_VARARGS,
     "endgame_stuck_tiles(request) -> (stuck_a, stuck_b)\n\nEach rack's tiles no play puts down (see endgame.c)."},
    {"endgame_root_order", endgame_root_order, METH_VARARGS,
     "endgame_root_order(request, depth, busy) -> (order, value, complete, records)\n\nThe root's search order with "
     "the children of `busy` marked as another thread's (see endgame.c)."},
    {"endgame_iterations", endgame_iterations, METH_VARARGS,
     "endgame_iterations(request, last_depth, deadline=None) -> (((depth, nodes, cpu_seconds), ...), complete)\n\nOne "
     "thread's "
     "iterative deepening to at most `last_depth`, the nodes by the end of each iteration (see endgame.c)."},
    {"endgame_borrowed_bounds", endgame_borrowed_bounds, METH_VARARGS,
     "endgame_borrowed_bounds(request, planted) -> (value, complete, depth, researches, best)\n\nOne thread's "
     "search with a helper's unsolved bounds planted in its table (see endgame.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_endgame(PyObject *module)
{
    return PyModule_AddFunctions(module, endgame_methods);
}
