/* selfplay.c: play_games, whole games of self-play in C (lexigraph.scrabble.selfplay orchestrates batches).
 *
 * play_games(graph, kids, root, n, letter_mult, word_mult, points, counts, start, rack_size, bingo, opening,
 *            vowels, player_a, player_b, seed, first, count) -> (turns, games)
 *
 * Games first .. first + count - 1 of the run `seed`, each played to its end by two players, each a tuple
 * (by_equity, keys, values): by_equity 0 plays the highest-scoring play (and exchanges its whole rack only when
 * it has no play); 1 plays the best play by equity (score + the value of the tiles kept in its leave table
 * `keys`/`values`, as leaves.c reads them, + the end-of-game and opening adjustments of
 * lexigraph.scrabble.equity), or the exchange that keeps the best leave when that is worth more (exchanges only
 * while the bag holds a rack's worth), else passes.
 *
 * Determinism. Game i is game i % 2 of pair i / 2: both games of a pair draw from the same bag order, player A
 * moves first in the even game and player B in the odd one (mirrored pairs). The pair's random numbers come from
 * xoshiro256** (Blackman and Vigna) seeded by splitmix64 from seed + (pair + 1) * 0x9E3779B97F4A7C15; the bag
 * (every tile of `counts`, codes ascending) is shuffled by Fisher-Yates from its end with uniform numbers below
 * k by rejection (next % k, redrawn when next < 2^64 mod k); tiles are drawn from the bag's end; an exchange
 * draws first, then puts each exchanged tile back (rack order, codes ascending) at the end and swaps it with a
 * uniform position. So a game depends only on (seed, i), never on how the games are split between workers.
 * The Python twin (lexigraph.engine.python.selfplay) plays the same games move for move.
 *
 * The end: a player who plays out with the bag empty gains twice the points left on the other's rack; after
 * six consecutive turns without a play (passes and exchanges), each player loses the points on its own rack.
 *
 * Returns bytes of turn records (TURN_SIZE each; lexigraph.engine.interface.turn_record_dtype) and of game
 * records (GAME_SIZE each; game_record_dtype), the games in order and each game's turns in order.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deadline.h"
#include "limits.h"
#include "movegen.h"

#define TURN_SIZE 96
#define GAME_SIZE 64
#define MAX_RACK 16
#define MAX_BAG 1024
#define ZERO_TURNS_TO_END 6
#define ENDGAME_PENALTY 10.0
#define KIND_PLAY 0
#define KIND_EXCHANGE 1
#define KIND_PASS 2
/* Turns one game may take: plays put at least one tile down, and six zero turns end a game. */
#define MAX_TURNS (MAX_BAG * (ZERO_TURNS_TO_END + 1) + 8)

typedef struct {
    uint64_t s[4];
} Rng;

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t
rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void
rng_seed(Rng *r, uint64_t seed, uint64_t pair)
{
    uint64_t x = seed + (pair + 1) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

/* Uniform below k (k >= 1), by rejection: no bias, the same numbers on every machine. */
static uint64_t
rng_below(Rng *r, uint64_t k)
{
    uint64_t threshold = (0 - k) % k;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return x % k;
    }
}

typedef struct {
    int by_equity;
    const unsigned char *keys, *values;
    size_t n;
} Player;

typedef struct {
    const unsigned char *graph, *kids;
    size_t n_records;
    uint32_t root;
    int n, n_codes, start, rack_size, bingo;
    const unsigned char *lm, *wm, *points, *counts;
    const double *opening; /* NULL: none */
    const unsigned char *vowels;
    Player players[2];
} Setup;

/* The lexicon, board and rules both entry points share (the players are filled by each). */
static void
setup_game(Setup *S, const Py_buffer *graph, const Py_buffer *kids, uint32_t root, int n, int n_codes, int start,
           int rack_size, int bingo, const char *letter_mult, const char *word_mult, const char *points,
           const char *counts, const double *opening, const char *vowels)
{
    S->graph = graph->buf;
    S->kids = kids->buf;
    S->n_records = (size_t)graph->len / 8;
    S->root = root;
    S->n = n;
    S->n_codes = n_codes;
    S->start = start;
    S->rack_size = rack_size;
    S->bingo = bingo;
    S->lm = (const unsigned char *)letter_mult;
    S->wm = (const unsigned char *)word_mult;
    S->points = (const unsigned char *)points;
    S->counts = (const unsigned char *)counts;
    S->opening = opening;
    S->vowels = (const unsigned char *)vowels;
}

static uint64_t
key_at(const unsigned char *keys, size_t i)
{
    uint64_t k;
    memcpy(&k, keys + 8 * i, 8);
    return k;
}

static double
lookup(const Player *p, uint64_t key)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_at(p->keys, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == p->n || key_at(p->keys, lo) != key)
        return 0.0;
    double v;
    memcpy(&v, p->values + 8 * lo, 8);
    return v;
}

/* The key of the tiles `rack` keeps when `used` go (counts per code): leaves.c's layout; 0 for none or too many. */
static uint64_t
leave_key(const int *rack, const int *used, int n_codes)
{
    uint64_t key = 0;
    int at = 0;
    for (int t = 0; t < n_codes; t++)
        for (int j = used ? used[t] : 0; j < rack[t]; j++) {
            if (at >= LX_LEAVE_KEY_TILES)
                return 0;
            key |= (uint64_t)t << (6 * at++);
        }
    return at ? key | (uint64_t)at << 60 : 0;
}

typedef struct {
    unsigned char board[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE], blanks[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE];
    int racks[2][LX_MAX_MOVE_TILE_CODES]; /* per player (A, B): counts per code */
    int rack_len[2];
    int score[2];
    unsigned char bag[MAX_BAG];
    int bag_len;
    Rng rng;
} State;

static int
rack_points(const Setup *S, const int *rack)
{
    int s = 0;
    for (int t = 1; t < S->n_codes; t++)
        s += rack[t] * S->points[t];
    return s;
}

static void
draw(State *st, int p, int rack_size)
{
    while (st->rack_len[p] < rack_size && st->bag_len > 0) {
        st->racks[p][st->bag[--st->bag_len]]++;
        st->rack_len[p]++;
    }
}

/* The turn record's common fields, and the rack before the turn (codes ascending). */
static unsigned char *
begin_turn(unsigned char *rec, const State *st, int p, int n_codes)
{
    memset(rec, 0, TURN_SIZE);
    rec[1] = (unsigned char)p;
    int k = 0;
    for (int t = 0; t < n_codes; t++)
        for (int j = 0; j < st->racks[p][t] && k < MAX_RACK; j++)
            rec[40 + k++] = (unsigned char)t;
    rec[2] = (unsigned char)k;
    uint16_t bag = (uint16_t)st->bag_len;
    memcpy(rec + 8, &bag, 2);
    return rec;
}

static void
put_i32(unsigned char *at, int32_t v)
{
    memcpy(at, &v, 4);
}

/* One turn of player p by its rule: the board, racks, bag and scores of `st` updated, the turn recorded in `rec`
 * (begin_turn's fields first: kind, leave key, score, equity, squares). `values` has room for LX_MAX_RACK_SUBSETS
 * doubles. Returns 0 after a play, 1 after an exchange or a pass (a zero turn), or -status on an error. Self-play
 * and the simulation's play-outs both take their turns here. */
static int
take_turn(const Setup *S, State *st, int p, double *values, unsigned char *rec)
{
    const int nn = S->n * S->n, nc = S->n_codes;
    int zero = 0;
    const Player *pl = &S->players[p];
    int *rack = st->racks[p];
    /* The rack's codes, ascending: the digits of the used-tile index (movegen.c's mixed radix), and the
     * number of subsets; then the table per subset, in index order (the first code turning fastest). */
    int codes[LX_MAX_MOVE_TILE_CODES], distinct = 0;
    long size = 1;
    for (int t = 0; t < nc; t++) {
        if (!rack[t])
            continue;
        codes[distinct++] = t;
        size *= rack[t] + 1;
    }
    int used[LX_MAX_MOVE_TILE_CODES] = {0};
    if (pl->by_equity) {
        int opp_points = rack_points(S, st->racks[1 - p]);
        for (long index_ = 0; index_ < size; index_++) {
            int kept = 0, kept_points = 0;
            for (int d = 0; d < distinct; d++) {
                int t = codes[d];
                kept += rack[t] - used[t];
                if (t)
                    kept_points += (rack[t] - used[t]) * S->points[t];
            }
            double v;
            if (st->bag_len > 0)
                v = (kept > 0 && kept <= LX_LEAVE_KEY_TILES) ? lookup(pl, leave_key(rack, used, nc)) : 0.0;
            else
                v = kept == 0 ? 2.0 * opp_points : -ENDGAME_PENALTY - 2.0 * kept_points;
            values[index_] = v;
            for (int d = 0; d < distinct; d++) {
                int t = codes[d];
                if (++used[t] <= rack[t])
                    break;
                used[t] = 0;
            }
        }
    }
    unsigned char rack_counts[LX_MAX_MOVE_TILE_CODES];
    for (int t = 0; t < nc; t++)
        rack_counts[t] = (unsigned char)rack[t];
    int empty = 1;
    for (int i = 0; i < nn; i++)
        if (st->board[i]) {
            empty = 0;
            break;
        }
    LxMoveInput in = {
        .graph = S->graph,
        .n_records = S->n_records,
        .kids = S->kids,
        .root = S->root,
        .n = S->n,
        .cells = st->board,
        .blanks = st->blanks,
        .letter_mult = S->lm,
        .word_mult = S->wm,
        .points = S->points,
        .rack = rack_counts,
        .n_codes = nc,
        .start = S->start,
        .rack_size = S->rack_size,
        .bingo = S->bingo,
        .leave_values = pl->by_equity ? values : NULL,
        .n_leave_values = pl->by_equity ? (size_t)size : 0,
        .opening = (pl->by_equity && empty) ? S->opening : NULL,
        .vowels = S->vowels,
        .top = 1,
        .by_equity = pl->by_equity,
        .deadline = -1.0,
        .prune = 1,
    };
    LxMoveOutput out;
    int status = lx_movegen_run(&in, &out);
    if (status != LX_MOVEGEN_OK) {
        return -status;
    }
    int have_play = out.kept > 0;
    double play_key = 0.0;
    if (have_play) {
        if (pl->by_equity) {
            memcpy(&play_key, out.records + 8, 8);
        } else {
            int32_t s;
            memcpy(&s, out.records, 4);
            play_key = (double)s;
        }
    }
    /* Exchanges: the subset (by used-tile index, lowest first among equals) whose leave is worth most-> */
    long exchange = -1;
    if (st->bag_len >= S->rack_size) {
        if (pl->by_equity) {
            double best = 0.0;
            for (long i = 1; i < size; i++)
                if (exchange < 0 || values[i] > best) {
                    best = values[i];
                    exchange = i;
                }
            if (have_play && !(best > play_key))
                exchange = -1;
        } else if (!have_play) {
            exchange = size - 1; /* the whole rack */
        }
    }
    if (exchange >= 0) {
        int gone[LX_MAX_MOVE_TILE_CODES] = {0};
        long rest = exchange;
        int k = 0;
        for (int d = 0; d < distinct; d++) {
            int t = codes[d], radix = rack[t] + 1;
            gone[t] = (int)(rest % radix);
            rest /= radix;
        }
        rec[0] = KIND_EXCHANGE;
        double e = pl->by_equity ? values[exchange] : 0.0;
        memcpy(rec + 24, &e, 8);
        uint64_t lk = leave_key(rack, gone, nc);
        memcpy(rec + 32, &lk, 8);
        for (int t = 0; t < nc; t++)
            for (int j = 0; j < gone[t]; j++)
                rec[56 + k++] = (unsigned char)t;
        rec[3] = (unsigned char)k;
        for (int t = 0; t < nc; t++) {
            rack[t] -= gone[t];
            st->rack_len[p] -= gone[t];
        }
        draw(st, p, S->rack_size);
        for (int t = 0; t < nc; t++)
            for (int j = 0; j < gone[t]; j++) {
                st->bag[st->bag_len] = (unsigned char)t;
                int at = (int)rng_below(&st->rng, (uint64_t)st->bag_len + 1);
                st->bag[st->bag_len] = st->bag[at];
                st->bag[at] = (unsigned char)t;
                st->bag_len++;
            }
        zero = 1;
    } else if (have_play) {
        const unsigned char *r = out.records;
        int32_t score;
        memcpy(&score, r, 4);
        int row = r[4], col = r[5], across = r[6], len = r[7];
        rec[0] = KIND_PLAY;
        rec[3] = (unsigned char)len;
        rec[4] = (unsigned char)row;
        rec[5] = (unsigned char)col;
        rec[6] = (unsigned char)across;
        put_i32(rec + 12, score);
        memcpy(rec + 24, r + 8, 8);
        memcpy(rec + 56, r + 16, (size_t)len);
        int gone[LX_MAX_MOVE_TILE_CODES] = {0};
        for (int k = 0; k < len; k++) {
            unsigned char b = r[16 + k];
            if (!b)
                continue;
            int sq = across ? row * S->n + col + k : (row + k) * S->n + col;
            st->board[sq] = b & (unsigned char)~LX_BLANK_FLAG;
            st->blanks[sq] = (b & LX_BLANK_FLAG) ? 1 : 0;
            gone[(b & LX_BLANK_FLAG) ? 0 : b]++;
        }
        uint64_t lk = leave_key(rack, gone, nc);
        memcpy(rec + 32, &lk, 8);
        for (int t = 0; t < nc; t++) {
            rack[t] -= gone[t];
            st->rack_len[p] -= gone[t];
        }
        st->score[p] += score;
        draw(st, p, S->rack_size);
        zero = 0;
    } else {
        rec[0] = KIND_PASS;
        uint64_t lk = leave_key(rack, NULL, nc);
        memcpy(rec + 32, &lk, 8);
        zero = 1;
    }
    free(out.records);
    return zero;
}

/* One game. `turns` has room for MAX_TURNS records; returns the number of turns, or -status on an error. */
static int
play_one(const Setup *S, uint64_t seed, int64_t index, unsigned char *turns, unsigned char *game)
{
    State st;
    memset(&st, 0, sizeof st);
    const int nc = S->n_codes;
    for (int t = 0; t < nc; t++)
        for (int j = 0; j < S->counts[t]; j++)
            st.bag[st.bag_len++] = (unsigned char)t;
    rng_seed(&st.rng, seed, (uint64_t)index >> 1);
    for (int i = st.bag_len - 1; i > 0; i--) {
        int j = (int)rng_below(&st.rng, (uint64_t)i + 1);
        unsigned char tmp = st.bag[i];
        st.bag[i] = st.bag[j];
        st.bag[j] = tmp;
    }
    const int first = (int)(index & 1); /* player A (0) moves first in even games, B (1) in odd ones */
    draw(&st, first, S->rack_size);
    draw(&st, 1 - first, S->rack_size);
    int p = first, zeros = 0, n_turns = 0, ending = 1;
    double *values = malloc(LX_MAX_RACK_SUBSETS * sizeof(double));
    if (!values)
        return -LX_MOVEGEN_MEMORY;
    for (;;) {
        if (zeros >= ZERO_TURNS_TO_END)
            break;
        if (n_turns >= MAX_TURNS)
            break; /* cannot happen: a bound for the buffer */
        unsigned char *rec = begin_turn(turns + (size_t)n_turns * TURN_SIZE, &st, p, nc);
        n_turns++;
        int turn = take_turn(S, &st, p, values, rec);
        if (turn < 0) {
            free(values);
            return turn;
        }
        zeros = turn ? zeros + 1 : 0;
        put_i32(rec + 16, st.score[p]);
        uint16_t bag_after = (uint16_t)st.bag_len;
        memcpy(rec + 10, &bag_after, 2);
        if (st.rack_len[p] == 0 && st.bag_len == 0) {
            ending = 0;
            break;
        }
        p = 1 - p;
    }
    free(values);
    int adjust[2] = {0, 0};
    if (ending == 0) {
        adjust[p] = 2 * rack_points(S, st.racks[1 - p]);
    } else {
        adjust[0] = -rack_points(S, st.racks[0]);
        adjust[1] = -rack_points(S, st.racks[1]);
    }
    memset(game, 0, GAME_SIZE);
    memcpy(game, &index, 8);
    put_i32(game + 8, st.score[0] + adjust[0]);
    put_i32(game + 12, st.score[1] + adjust[1]);
    put_i32(game + 16, adjust[0]);
    put_i32(game + 20, adjust[1]);
    uint16_t nt = (uint16_t)n_turns;
    memcpy(game + 24, &nt, 2);
    game[26] = (unsigned char)first;
    game[27] = (unsigned char)ending;
    game[28] = (unsigned char)(ending == 0 ? p : 0); /* who went out */
    memset(game + 32, 0xFF, 32);
    for (int q = 0; q < 2; q++) {
        int k = 0;
        for (int t = 0; t < nc; t++)
            for (int j = 0; j < st.racks[q][t] && k < MAX_RACK; j++)
                game[32 + 16 * q + k++] = (unsigned char)t;
    }
    return n_turns;
}

static int
parse_player(PyObject *spec, Player *p, Py_buffer *keys, Py_buffer *values)
{
    if (!PyArg_ParseTuple(spec, "py*y*", &p->by_equity, keys, values))
        return -1;
    if (keys->len % 8 || values->len != keys->len) {
        PyBuffer_Release(keys);
        PyBuffer_Release(values);
        PyErr_SetString(PyExc_ValueError, "play_games: a leave table's keys and values differ in length");
        return -1;
    }
    p->keys = keys->buf;
    p->values = values->buf;
    p->n = (size_t)keys->len / 8;
    return 0;
}

static PyObject *
play_games(PyObject *self, PyObject *args)
{
    Py_buffer graph, kids, keys[2], values[2];
    unsigned int root;
    int n, start, rack_size, bingo;
    const char *lm, *wm, *points, *counts, *opening, *vowels;
    Py_ssize_t llm, lwm, lp, lc, lop, lvw, count;
    PyObject *spec_a, *spec_b;
    unsigned long long seed;
    long long first;
    if (!PyArg_ParseTuple(args, "y*y*Iiy#y#y#y#iiiy#y#O!O!KLn", &graph, &kids, &root, &n, &lm, &llm, &wm, &lwm, &points,
                          &lp, &counts, &lc, &start, &rack_size, &bingo, &opening, &lop, &vowels, &lvw, &PyTuple_Type,
                          &spec_a, &PyTuple_Type, &spec_b, &seed, &first, &count))
        return NULL;
    PyObject *result = NULL;
    Setup S;
    int parsed = 0;
    unsigned char *turns = NULL, *games = NULL, *one = NULL;
    double *open_table = NULL;
    long bag = 0;
    for (Py_ssize_t t = 0; t < lc; t++)
        bag += (unsigned char)counts[t];
    if (n < 1 || n > LX_MAX_BOARD_SIZE || llm != (Py_ssize_t)n * n || lwm != llm || lp < 2
        || lp > LX_MAX_MOVE_TILE_CODES || lc != lp || start < 0 || start >= n * n || graph.len % 8
        || kids.len != graph.len || (lop && lop != 2 * llm * (Py_ssize_t)sizeof(double)) || (lvw && lvw != lp)
        || rack_size < 1 || rack_size >= MAX_RACK || bag > MAX_BAG || bag < 2 * rack_size || count < 0 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
        goto done;
    }
    if (parse_player(spec_a, &S.players[0], &keys[0], &values[0]) < 0)
        goto done;
    parsed = 1;
    if (parse_player(spec_b, &S.players[1], &keys[1], &values[1]) < 0)
        goto done;
    parsed = 2;
    if (lop && !(open_table = lx_aligned_doubles((const char *)opening, lop)))
        goto done;
    setup_game(&S, &graph, &kids, root, n, (int)lp, start, rack_size, bingo, lm, wm, points, counts, open_table,
               lvw ? vowels : NULL);
    size_t cap = 1024, used_bytes = 0;
    turns = malloc(cap);
    games = malloc((size_t)(count ? count : 1) * GAME_SIZE);
    one = malloc((size_t)MAX_TURNS * TURN_SIZE);
    if (!turns || !games || !one) {
        PyErr_NoMemory();
        goto done;
    }
    int status = 0;
    Py_BEGIN_ALLOW_THREADS for (Py_ssize_t g = 0; g < count; g++)
    {
        int got = play_one(&S, (uint64_t)seed, (int64_t)first + g, one, games + (size_t)g * GAME_SIZE);
        if (got < 0) {
            status = -got;
            break;
        }
        size_t need = used_bytes + (size_t)got * TURN_SIZE;
        if (need > cap) {
            while (cap < need)
                cap *= 2;
            unsigned char *grown = realloc(turns, cap);
            if (!grown) {
                status = LX_MOVEGEN_MEMORY;
                break;
            }
            turns = grown;
        }
        memcpy(turns + used_bytes, one, (size_t)got * TURN_SIZE);
        used_bytes = need;
    }
    Py_END_ALLOW_THREADS if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
    else if (status) PyErr_NoMemory();
    else result = Py_BuildValue("(y#y#)", (const char *)turns, (Py_ssize_t)used_bytes, (const char *)games,
                                (Py_ssize_t)(count * GAME_SIZE));
done:
    free(turns);
    free(games);
    free(one);
    free(open_table);
    for (int i = 0; i < parsed; i++) {
        PyBuffer_Release(&keys[i]);
        PyBuffer_Release(&values[i]);
    }
    PyBuffer_Release(&graph);
    PyBuffer_Release(&kids);
    return result;
}

/* -- Simulation: play-outs of candidate moves (lexigraph.scrabble.simulation orchestrates them) -----------------
 *
 * simulate_plays(graph, kids, root, n, letter_mult, word_mult, points, start, rack_size, bingo, opening, vowels,
 *                keys, values, board, blanks, rack, unseen, opponent_tiles, zero_turns, candidates, plies, seed,
 *                first, count, deadline) -> bytes
 *
 * The side to move (player 0) holds `rack` (a count per code); `unseen` counts the tiles it cannot see (the
 * opponent's rack and the bag). Iteration i deals them alone: xoshiro256** seeded as pair i of the run `seed`
 * (rng_seed above), the unseen tiles (codes ascending) shuffled by Fisher-Yates from the end as self-play shuffles
 * its bag, `opponent_tiles` drawn from the end onto the opponent's rack, the rest the bag. So iteration i depends
 * only on (seed, i), and every candidate of an iteration meets the same draws (common random numbers: each
 * candidate starts from a copy of the dealt state, random number generator included).
 *
 * Each candidate (SIM_CANDIDATE_SIZE bytes: kind, tile count, 2 spare, int32 score, uint16 squares[16] of a
 * play's new tiles, uint8 tiles[16]: the tile put there (BLANK_FLAG for a blank) or, for an exchange, the codes
 * put back) is made by player 0, then `plies` more turns follow, the opponent first, each by the equity player
 * of self-play (take_turn: the best play by equity with the leave table, or an exchange, or a pass). The game
 * may end on the way: a player plays out with the bag empty (gaining twice the other rack's points), or six
 * consecutive zero turns counting the position's `zero_turns` (each loses its own rack's points).
 *
 * The value of a play-out is wolges's simmer's final equity spread: player 0's points from the candidate on
 * minus the opponent's, plus the leave value of player 0's last leave in the play-out minus that of the
 * opponent's last leave (the leave table's raw value; 0 for a side that did not move, and both 0 once the game
 * has ended). Each (iteration, candidate) gives SIM_RESULT_SIZE bytes: float64 value, int32 the same spread
 * without the leaves, uint16 the tiles left unseen by nobody at the end (bag and both racks), uint8 1 when the
 * game ended, 1 spare; iteration by iteration, candidates in order. Past `deadline` (a time.monotonic value;
 * < 0: none) it stops between iterations and answers the whole iterations done.
 */
#define SIM_CANDIDATE_SIZE 64
#define SIM_RESULT_SIZE 16
#define SIM_MAX_PLIES 64

/* Player 0 makes the candidate `cand` on `st`; its leave's value in *leave. 0 after a play, 1 after an exchange or
 * a pass, -LX_MOVEGEN_BAD_BOARD for a candidate the position does not allow. */
static int
make_candidate(const Setup *S, State *st, const unsigned char *cand, double *leave)
{
    const int nn = S->n * S->n, nc = S->n_codes, kind = cand[0], k = cand[1];
    int gone[LX_MAX_MOVE_TILE_CODES] = {0};
    if (k > MAX_RACK || kind > KIND_PASS)
        return -LX_MOVEGEN_BAD_BOARD;
    if (kind == KIND_PLAY) {
        if (k < 1)
            return -LX_MOVEGEN_BAD_BOARD;
        for (int i = 0; i < k; i++) {
            uint16_t sq;
            memcpy(&sq, cand + 8 + 2 * i, 2);
            unsigned char b = cand[40 + i], code = b & (unsigned char)~LX_BLANK_FLAG;
            if (sq >= nn || st->board[sq] || code < 1 || code >= nc)
                return -LX_MOVEGEN_BAD_BOARD;
            gone[(b & LX_BLANK_FLAG) ? 0 : code]++;
        }
    } else if (kind == KIND_EXCHANGE) {
        if (k < 1 || st->bag_len < k)
            return -LX_MOVEGEN_BAD_BOARD;
        for (int i = 0; i < k; i++) {
            if (cand[40 + i] >= nc)
                return -LX_MOVEGEN_BAD_BOARD;
            gone[cand[40 + i]]++;
        }
    }
    for (int t = 0; t < nc; t++)
        if (gone[t] > st->racks[0][t])
            return -LX_MOVEGEN_BAD_BOARD;
    uint64_t lk = leave_key(st->racks[0], gone, nc);
    *leave = lk ? lookup(&S->players[0], lk) : 0.0;
    if (kind == KIND_PLAY) {
        int32_t score;
        memcpy(&score, cand + 4, 4);
        for (int i = 0; i < k; i++) {
            uint16_t sq;
            memcpy(&sq, cand + 8 + 2 * i, 2);
            unsigned char b = cand[40 + i];
            st->board[sq] = b & (unsigned char)~LX_BLANK_FLAG;
            st->blanks[sq] = (b & LX_BLANK_FLAG) ? 1 : 0;
        }
        st->score[0] += score;
    }
    for (int t = 0; t < nc; t++) {
        st->racks[0][t] -= gone[t];
        st->rack_len[0] -= gone[t];
    }
    draw(st, 0, S->rack_size);
    if (kind == KIND_EXCHANGE)
        for (int t = 0; t < nc; t++)
            for (int j = 0; j < gone[t]; j++) { /* put back as self-play does */
                st->bag[st->bag_len] = (unsigned char)t;
                int at = (int)rng_below(&st->rng, (uint64_t)st->bag_len + 1);
                st->bag[st->bag_len] = st->bag[at];
                st->bag[at] = (unsigned char)t;
                st->bag_len++;
            }
    return kind == KIND_PLAY ? 0 : 1;
}

/* One play-out of one candidate from the dealt state `dealt`; its result record in `out`. */
static int
play_out(const Setup *S, const State *dealt, int zero_turns, const unsigned char *cand, int plies, double *values,
         State *st, unsigned char *out)
{
    memcpy(st, dealt, sizeof *st);
    double leave[2] = {0.0, 0.0};
    unsigned char rec[TURN_SIZE];
    int turn = make_candidate(S, st, cand, &leave[0]);
    if (turn < 0)
        return turn;
    int zeros = turn ? zero_turns + 1 : 0, p = 0, out_player = -1;
    if (st->rack_len[0] == 0 && st->bag_len == 0)
        out_player = 0;
    for (int ply = 1; out_player < 0 && zeros < ZERO_TURNS_TO_END && ply <= plies; ply++) {
        p = ply & 1;
        memset(rec, 0, TURN_SIZE);
        turn = take_turn(S, st, p, values, rec);
        if (turn < 0)
            return turn;
        zeros = turn ? zeros + 1 : 0;
        uint64_t key;
        memcpy(&key, rec + 32, 8);
        leave[p] = key ? lookup(&S->players[p], key) : 0.0;
        if (st->rack_len[p] == 0 && st->bag_len == 0)
            out_player = p;
    }
    int ended = 0;
    if (out_player >= 0) {
        st->score[out_player] += 2 * rack_points(S, st->racks[1 - out_player]);
        ended = 1;
    } else if (zeros >= ZERO_TURNS_TO_END) {
        st->score[0] -= rack_points(S, st->racks[0]);
        st->score[1] -= rack_points(S, st->racks[1]);
        ended = 1;
    }
    int32_t spread = (st->score[0] - dealt->score[0]) - (st->score[1] - dealt->score[1]);
    double value = (double)spread + (ended ? 0.0 : leave[0] - leave[1]);
    uint16_t left = (uint16_t)(st->bag_len + st->rack_len[0] + st->rack_len[1]);
    memset(out, 0, SIM_RESULT_SIZE);
    memcpy(out, &value, 8);
    memcpy(out + 8, &spread, 4);
    memcpy(out + 12, &left, 2);
    out[14] = (unsigned char)ended;
    return 0;
}

/* Deal iteration i: the unseen tiles shuffled, the opponent's rack drawn, the rest the bag. */
static void
deal(const State *base, const unsigned char *unseen_codes, int n_unseen, int opponent_tiles, uint64_t seed, uint64_t i,
     State *st)
{
    memcpy(st, base, sizeof *st);
    memcpy(st->bag, unseen_codes, (size_t)n_unseen);
    st->bag_len = n_unseen;
    rng_seed(&st->rng, seed, i);
    for (int k = n_unseen - 1; k > 0; k--) {
        int j = (int)rng_below(&st->rng, (uint64_t)k + 1);
        unsigned char tmp = st->bag[k];
        st->bag[k] = st->bag[j];
        st->bag[j] = tmp;
    }
    draw(st, 1, opponent_tiles);
}

static PyObject *
simulate_plays(PyObject *self, PyObject *args)
{
    Py_buffer graph, kids;
    unsigned int root;
    int n, start, rack_size, bingo, opponent_tiles, zero_turns, plies;
    const char *lm, *wm, *points, *opening, *vowels, *keys, *values, *board, *blanks, *rack, *unseen, *cands;
    Py_ssize_t llm, lwm, lp, lop, lvw, lk, lv, lb, lbl, lr, lu, lcand, count;
    unsigned long long seed;
    long long first;
    double deadline;
    if (!PyArg_ParseTuple(args, "y*y*Iiy#y#y#iiiy#y#y#y#y#y#y#y#iiy#iKLnd", &graph, &kids, &root, &n, &lm, &llm, &wm,
                          &lwm, &points, &lp, &start, &rack_size, &bingo, &opening, &lop, &vowels, &lvw, &keys, &lk,
                          &values, &lv, &board, &lb, &blanks, &lbl, &rack, &lr, &unseen, &lu, &opponent_tiles,
                          &zero_turns, &cands, &lcand, &plies, &seed, &first, &count, &deadline))
        return NULL;
    PyObject *result = NULL;
    double *open_table = NULL, *subsets = NULL;
    State *base = NULL, *dealt = NULL, *work = NULL;
    long n_unseen = 0, on_rack = 0;
    int bad = n < 1 || n > LX_MAX_BOARD_SIZE || llm != (Py_ssize_t)n * n || lwm != llm || lb != llm || lbl != llm
              || lp < 2 || lp > LX_MAX_MOVE_TILE_CODES || lr != lp || lu != lp || start < 0 || start >= n * n
              || graph.len % 8 || kids.len != graph.len || (lop && lop != 2 * llm * (Py_ssize_t)sizeof(double))
              || (lvw && lvw != lp) || rack_size < 1 || rack_size >= MAX_RACK || lk % 8 || lv != lk
              || lcand % SIM_CANDIDATE_SIZE || plies < 0 || plies > SIM_MAX_PLIES || count < 0 || first < 0
              || zero_turns < 0 || opponent_tiles < 0 || opponent_tiles > rack_size;
    if (!bad) {
        for (Py_ssize_t t = 0; t < lp; t++) {
            n_unseen += (unsigned char)unseen[t];
            on_rack += (unsigned char)rack[t];
        }
        for (Py_ssize_t i = 0; i < lb; i++)
            if ((unsigned char)board[i] >= lp || (unsigned char)blanks[i] > 1)
                bad = 1;
        bad = bad || n_unseen > MAX_BAG || opponent_tiles > n_unseen || on_rack > rack_size
              || (lcand / SIM_CANDIDATE_SIZE) > 4096 || count > (1 << 24);
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "simulate_plays: inconsistent arguments");
        goto done;
    }
    if (lop && !(open_table = lx_aligned_doubles(opening, lop)))
        goto done;
    Setup S;
    setup_game(&S, &graph, &kids, root, n, (int)lp, start, rack_size, bingo, lm, wm, points, NULL, open_table,
               lvw ? vowels : NULL);
    for (int q = 0; q < 2; q++) {
        S.players[q].by_equity = 1;
        S.players[q].keys = (const unsigned char *)keys;
        S.players[q].values = (const unsigned char *)values;
        S.players[q].n = (size_t)lk / 8;
    }
    const Py_ssize_t n_cands = lcand / SIM_CANDIDATE_SIZE;
    result = PyBytes_FromStringAndSize(NULL, count * n_cands * SIM_RESULT_SIZE);
    base = calloc(1, sizeof *base);
    dealt = malloc(sizeof *dealt);
    work = malloc(sizeof *work);
    subsets = malloc(LX_MAX_RACK_SUBSETS * sizeof(double));
    if (!result || !base || !dealt || !work || !subsets) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    unsigned char unseen_codes[MAX_BAG];
    int k = 0;
    for (int t = 0; t < (int)lp; t++)
        for (int j = 0; j < (unsigned char)unseen[t]; j++)
            unseen_codes[k++] = (unsigned char)t;
    memcpy(base->board, board, (size_t)lb);
    memcpy(base->blanks, blanks, (size_t)lbl);
    for (int t = 0; t < (int)lp; t++)
        base->racks[0][t] = (unsigned char)rack[t];
    base->rack_len[0] = (int)on_rack;
    unsigned char *answer = (unsigned char *)PyBytes_AS_STRING(result);
    const unsigned char *cand_bytes = (const unsigned char *)cands;
    int status = 0;
    Py_ssize_t done_iterations = 0;
    Py_BEGIN_ALLOW_THREADS for (Py_ssize_t i = 0; i < count && !status; i++)
    {
        if (deadline >= 0 && i > 0 && lx_monotonic() > deadline)
            break;
        deal(base, unseen_codes, (int)n_unseen, opponent_tiles, (uint64_t)seed, (uint64_t)(first + i), dealt);
        for (Py_ssize_t c = 0; c < n_cands && !status; c++) {
            int got = play_out(&S, dealt, zero_turns, cand_bytes + c * SIM_CANDIDATE_SIZE, plies, subsets, work,
                               answer + (i * n_cands + c) * SIM_RESULT_SIZE);
            if (got < 0)
                status = -got;
        }
        if (!status)
            done_iterations = i + 1;
    }
    Py_END_ALLOW_THREADS if (status)
    {
        Py_CLEAR(result);
        if (status == LX_MOVEGEN_GRAPH)
            PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
            PyErr_SetString(PyExc_ValueError, "simulate_plays: a candidate the position does not allow");
        else
            PyErr_NoMemory();
    }
    else if (done_iterations < count)
    {
        _PyBytes_Resize(&result, done_iterations * n_cands * SIM_RESULT_SIZE);
    }
done:
    free(open_table);
    free(subsets);
    free(base);
    free(dealt);
    free(work);
    PyBuffer_Release(&graph);
    PyBuffer_Release(&kids);
    return result;
}

static PyMethodDef selfplay_methods[] = {
    {"play_games", play_games, METH_VARARGS,
     "play_games(graph, kids, root, n, letter_mult, word_mult, points, counts, start, rack_size, bingo, opening, "
     "vowels, player_a, player_b, seed, first, count) -> (turns, games)\n\nWhole games of self-play (see "
     "selfplay.c)."},
    {"simulate_plays", simulate_plays, METH_VARARGS,
     "simulate_plays(graph, kids, root, n, letter_mult, word_mult, points, start, rack_size, bingo, opening, vowels, "
     "keys, values, board, blanks, rack, unseen, opponent_tiles, zero_turns, candidates, plies, seed, first, count, "
     "deadline) -> bytes\n\nPlay-outs of candidate moves for the simulation (see selfplay.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_selfplay(PyObject *module)
{
    return PyModule_AddFunctions(module, selfplay_methods);
}
