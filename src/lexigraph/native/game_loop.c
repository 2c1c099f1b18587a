/*
 * game_loop.c: the game loop self-play and the simulation's play-outs share (game_loop.h says the rules): the
 * random numbers, the bag, the draws and a player's turn. It touches no Python object: the callers run it without
 * the GIL.
 */
#include "game_loop.h"

#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "movegen.h"

/* -- random numbers: xoshiro256** seeded by splitmix64 ------------------------------------------------------ */

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t
rotate_left(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t
random_next(LxRandom *random)
{
    uint64_t *s = random->state;
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

void
lx_random_seed(LxRandom *random, uint64_t seed, uint64_t pair)
{
    uint64_t x = seed + (pair + 1) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4; i++)
        random->state[i] = splitmix64(&x);
}

uint64_t
lx_random_below(LxRandom *random, uint64_t bound)
{
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = random_next(random);
        if (x >= threshold)
            return x % bound;
    }
}

void
lx_shuffle(LxRandom *random, unsigned char *tiles, int count)
{
    for (int i = count - 1; i > 0; i--) {
        int j = (int)lx_random_below(random, (uint64_t)i + 1);
        unsigned char held = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = held;
    }
}

/* -- the bag and the racks ---------------------------------------------------------------------------------- */

void
lx_draw(LxGameState *state, int player, int rack_size)
{
    while (state->rack_length[player] < rack_size && state->bag_length > 0) {
        state->racks[player][state->bag[--state->bag_length]]++;
        state->rack_length[player]++;
    }
}

int
lx_rack_points(const LxGameTables *tables, const int *rack)
{
    int points = 0;
    for (int code = 1; code < tables->code_count; code++)
        points += rack[code] * tables->points[code];
    return points;
}

uint64_t
lx_leave_key(const int *rack, const int *used, int code_count)
{
    uint64_t key = 0;
    int at = 0;
    for (int code = 0; code < code_count; code++)
        for (int j = used ? used[code] : 0; j < rack[code]; j++) {
            if (at >= LX_LEAVE_KEY_TILES)
                return 0;
            key |= (uint64_t)code << (6 * at++);
        }
    return at ? key | (uint64_t)at << 60 : 0;
}

/* The tiles `gone` leave player p's rack. */
static void
remove_from_rack(LxGameState *state, int player, const int *gone, int code_count)
{
    for (int code = 0; code < code_count; code++) {
        state->racks[player][code] -= gone[code];
        state->rack_length[player] -= gone[code];
    }
}

void
lx_exchange(LxGameState *state, int player, const int *gone, int rack_size, int code_count)
{
    remove_from_rack(state, player, gone, code_count);
    lx_draw(state, player, rack_size);
    for (int code = 0; code < code_count; code++)
        for (int j = 0; j < gone[code]; j++) { /* at the end, then swapped with a uniform place */
            state->bag[state->bag_length] = (unsigned char)code;
            int at = (int)lx_random_below(&state->random, (uint64_t)state->bag_length + 1);
            state->bag[state->bag_length] = state->bag[at];
            state->bag[at] = (unsigned char)code;
            state->bag_length++;
        }
}

/* -- a turn ------------------------------------------------------------------------------------------------- */

/* A rack's subsets in the used-tile index (movegen.c's mixed radix): its codes ascending (the digits), how many,
 * and the number of subsets. */
typedef struct {
    int codes[LX_MAX_MOVE_TILE_CODES];
    int distinct;
    long subsets;
} RackSubsets;

static void
rack_subsets(RackSubsets *subsets, const int *rack, int code_count)
{
    subsets->distinct = 0;
    subsets->subsets = 1;
    for (int code = 0; code < code_count; code++) {
        if (!rack[code])
            continue;
        subsets->codes[subsets->distinct++] = code;
        subsets->subsets *= rack[code] + 1;
    }
}

/* What lx_value_rack_subsets walks with: the rack, its codes, the leave index (NULL: the table's binary search),
 * the end's adjustments (the bag empty), and the values' room. */
typedef struct {
    const LxGameTables *tables;
    const LxLeaveIndex *index;
    const int *codes;
    int distinct;
    const int *rack;
    int bag_empty, opponent_points;
    int used[LX_MAX_MOVE_TILE_CODES];
    double *values;
} LeaveWalk;

/* The value of a subset once every digit is chosen: `kept` tiles worth `kept_points` stay, of slot `rank` among
 * the leaves of their length (valid while kept <= the index's longest). */
static inline double
leave_at(const LeaveWalk *walk, int kept, int kept_points, uint64_t rank)
{
    if (walk->bag_empty)
        return kept == 0 ? 2.0 * walk->opponent_points : -LX_ENDGAME_PENALTY - 2.0 * kept_points;
    if (kept == 0 || kept > LX_LEAVE_KEY_TILES)
        return 0.0;
    if (!walk->index)
        return lx_leave_value_kept(walk->tables, walk->rack, walk->used);
    return kept > walk->index->longest ? 0.0 : walk->index->values[walk->index->base[kept] + rank];
}

/* Digits d .. of the subsets' index (d: the rack's d-th code, ascending; `at` the index so far, `stride` digit d's
 * weight), with `kept` tiles of the codes before d kept, worth `kept_points`, their rank so far `rank`: the rank
 * lx_leave_index_value computes, one code's part added per digit instead of the whole leave per subset. */
static void
walk_leaves(LeaveWalk *walk, int d, long at, long stride, int kept, int kept_points, uint64_t rank)
{
    if (d == walk->distinct) { /* an empty rack */
        walk->values[at] = leave_at(walk, kept, kept_points, rank);
        return;
    }
    const int code = walk->codes[d], count = walk->rack[code], last = d + 1 == walk->distinct;
    const int points = code ? walk->tables->points[code] : 0;
    const int longest = walk->index ? walk->index->longest : 0;
    /* used = count - keep goes into the index; keep copies of the code join the leave at places kept + 1 .. */
    uint64_t part = rank;
    for (int keep = 0; keep <= count; keep++) {
        if (keep) {
            int place = kept + keep;
            if (walk->index && place <= longest)
                part += walk->index->rank_part[place][code];
        }
        walk->used[code] = count - keep;
        long here = at + (long)(count - keep) * stride;
        if (last) /* the subset is whole: no call for it */
            walk->values[here] = leave_at(walk, kept + keep, kept_points + keep * points, part);
        else
            walk_leaves(walk, d + 1, here, stride * (count + 1), kept + keep, kept_points + keep * points, part);
    }
    walk->used[code] = 0;
}

long
lx_value_rack_subsets(const LxGameTables *tables, const int *rack, int bag_empty, int opponent_points, double *values)
{
    LeaveWalk walk = {
        .tables = tables,
        .index = tables->leave_index.values ? &tables->leave_index : NULL,
        .rack = rack,
        .bag_empty = bag_empty,
        .opponent_points = opponent_points,
        .values = values,
    };
    int codes[LX_MAX_MOVE_TILE_CODES];
    long size = 1;
    for (int code = 0; code < tables->code_count; code++) {
        if (!rack[code])
            continue;
        codes[walk.distinct++] = code;
        if ((size *= rack[code] + 1) > LX_MAX_RACK_SUBSETS)
            return -1;
    }
    walk.codes = codes;
    memset(walk.used, 0, sizeof walk.used);
    walk_leaves(&walk, 0, 0, 1, 0, 0, 0);
    return size;
}

/* The player's best play by its rule (out->kept 0: none); an LX_MOVEGEN_* status. */
static int
best_play(const LxPlayer *player, const LxGameState *state, int p, const double *values, long subsets,
          LxMoveOutput *out)
{
    const LxGameTables *tables = player->tables;
    unsigned char rack_counts[LX_MAX_MOVE_TILE_CODES];
    for (int code = 0; code < tables->code_count; code++)
        rack_counts[code] = (unsigned char)state->racks[p][code];
    LxMoveInput in = {
        .tables = tables,
        .board = state->board,
        .blanks = state->blanks,
        .rack = rack_counts,
        .leave_values = player->by_equity ? values : NULL,
        .leave_value_count = player->by_equity ? (size_t)subsets : 0,
        .opening = player->by_equity,
        .top = 1,
        .by_equity = player->by_equity,
        .prune = 1,
        .deadline = lx_no_deadline(),
        .board_state = state->board_state,
    };
    return lx_movegen_run(&in, out);
}

/* The exchange the player makes instead of the play `out` holds (the subset's index), or -1: the equity player
 * the subset whose leave is worth most (lowest first among equals) when it beats the play, the score player its
 * whole rack when it has no play; none unless the bag holds a rack's worth. */
static long
choose_exchange(const LxPlayer *player, const LxGameState *state, const double *values, long subsets,
                const LxMoveOutput *out)
{
    if (state->bag_length < player->tables->rack_size)
        return -1;
    int have_play = out->kept > 0;
    if (!player->by_equity)
        return have_play ? -1 : subsets - 1;
    long exchange = -1;
    double best = 0.0;
    for (long i = 1; i < subsets; i++)
        if (exchange < 0 || values[i] > best) {
            best = values[i];
            exchange = i;
        }
    if (have_play) {
        double play_equity;
        memcpy(&play_equity, out->records + 8, 8);
        if (!(best > play_equity))
            exchange = -1;
    }
    return exchange;
}

static void
put_u64(unsigned char *at, uint64_t value)
{
    memcpy(at, &value, 8);
}

/* The exchange of subset `index`: recorded and made. */
static void
make_exchange(const LxPlayer *player, LxGameState *state, int p, const RackSubsets *subsets, long index,
              const double *values, unsigned char *record)
{
    const int code_count = player->tables->code_count, *rack = state->racks[p];
    int gone[LX_MAX_MOVE_TILE_CODES] = {0}, k = 0;
    long rest = index;
    for (int d = 0; d < subsets->distinct; d++) { /* the index's digits: how many of each code go back */
        int code = subsets->codes[d], radix = rack[code] + 1;
        gone[code] = (int)(rest % radix);
        rest /= radix;
    }
    record[LX_TURN_KIND] = LX_TURN_EXCHANGE;
    double equity = player->by_equity ? values[index] : 0.0;
    memcpy(record + LX_TURN_EQUITY, &equity, 8);
    put_u64(record + LX_TURN_LEAVE, lx_leave_key(rack, gone, code_count));
    for (int code = 0; code < code_count; code++)
        for (int j = 0; j < gone[code]; j++)
            record[LX_TURN_SQUARES + k++] = (unsigned char)code;
    record[LX_TURN_LENGTH] = (unsigned char)k;
    lx_exchange(state, p, gone, player->tables->rack_size, code_count);
}

int
lx_place_tiles(const LxGameTables *tables, LxGameState *state, const int *squares, const unsigned char *tiles,
               int count)
{
    for (int i = 0; i < count; i++) {
        state->board[squares[i]] = tiles[i] & (unsigned char)~LX_BLANK_FLAG;
        state->blanks[squares[i]] = (tiles[i] & LX_BLANK_FLAG) ? 1 : 0;
    }
    return state->board_state ? lx_board_state_place(state->board_state, tables, squares, tiles, count) : LX_MOVEGEN_OK;
}

/* The play of move record `move`: recorded and made (its tiles on the board, its score, the rack refilled); an
 * LX_MOVEGEN_* status. */
static int
make_play(const LxPlayer *player, LxGameState *state, int p, const unsigned char *move, unsigned char *record)
{
    const LxGameTables *tables = player->tables;
    int32_t score;
    memcpy(&score, move, 4);
    int row = move[4], column = move[5], across = move[6], length = move[7];
    record[LX_TURN_KIND] = LX_TURN_PLAY;
    record[LX_TURN_LENGTH] = (unsigned char)length;
    record[4] = (unsigned char)row;
    record[5] = (unsigned char)column;
    record[6] = (unsigned char)across;
    memcpy(record + LX_TURN_SCORE, &score, 4);
    memcpy(record + LX_TURN_EQUITY, move + 8, 8);
    memcpy(record + LX_TURN_SQUARES, move + 16, (size_t)length);
    int gone[LX_MAX_MOVE_TILE_CODES] = {0}, squares[LX_MAX_BOARD_SIZE], placed_count = 0;
    unsigned char tiles[LX_MAX_BOARD_SIZE];
    for (int k = 0; k < length; k++) {
        unsigned char placed = move[16 + k];
        if (!placed)
            continue;
        squares[placed_count] = across ? row * tables->size + column + k : (row + k) * tables->size + column;
        tiles[placed_count++] = placed;
        gone[(placed & LX_BLANK_FLAG) ? 0 : placed]++;
    }
    put_u64(record + LX_TURN_LEAVE, lx_leave_key(state->racks[p], gone, tables->code_count));
    remove_from_rack(state, p, gone, tables->code_count);
    state->score[p] += score;
    lx_draw(state, p, tables->rack_size);
    return lx_place_tiles(tables, state, squares, tiles, placed_count);
}

int
lx_take_turn(const LxPlayer *player, LxGameState *state, int p, double *values, unsigned char *record)
{
    RackSubsets subsets;
    rack_subsets(&subsets, state->racks[p], player->tables->code_count);
    if (player->by_equity)
        lx_value_rack_subsets(player->tables, state->racks[p], state->bag_length == 0,
                              lx_rack_points(player->tables, state->racks[1 - p]), values);
    LxMoveOutput out;
    int status = best_play(player, state, p, values, subsets.subsets, &out);
    if (status != LX_MOVEGEN_OK)
        return -status;
    long exchange = choose_exchange(player, state, values, subsets.subsets, &out);
    int zero_turn = 1;
    if (exchange >= 0) {
        make_exchange(player, state, p, &subsets, exchange, values, record);
    } else if (out.kept > 0) {
        status = make_play(player, state, p, out.records, record);
        zero_turn = 0;
    } else {
        record[LX_TURN_KIND] = LX_TURN_PASS;
        put_u64(record + LX_TURN_LEAVE, lx_leave_key(state->racks[p], NULL, player->tables->code_count));
    }
    free(out.records);
    return status != LX_MOVEGEN_OK ? -status : zero_turn;
}
