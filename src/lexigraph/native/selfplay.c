/* selfplay.c: play_games, whole games of self-play in C (lexigraph.scrabble.runs orchestrates batches).
 *
 * play_games(request, first, count) -> (turns, games)
 *   request: (players, seed), as lexigraph.engine.interface.SelfPlayRequest lays it out; players: player A's and
 *   player B's (tables, by_equity), each a GameTables of the same game and word graph with that player's leave
 *   table (game_tables.h), and its rule (game_loop.h: by equity, or by score).
 *
 * Games first .. first + count - 1 of the run `seed`, each played to its end by the game loop (game_loop.c). Game
 * i is game i % 2 of pair i / 2: both games of a pair draw from the same bag order (every tile of the tables'
 * counts, codes ascending, shuffled by the pair's random numbers), player A moves first in the even game and
 * player B in the odd one (mirrored pairs). So a game depends only on (seed, i), never on how the games are split
 * between workers. The Python twin (lexigraph.engine.python.selfplay) plays the same games move for move.
 *
 * Returns bytes of turn records (LX_TURN_SIZE each; lexigraph.engine.interface.turn_record_dtype) and of game
 * records (GAME_SIZE each; game_record_dtype), the games in order and each game's turns in order.
 */
#include "module.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game_loop.h"
#include "limits.h"
#include "movegen.h"

/* Bytes of a game record (game_record_dtype). */
#define GAME_SIZE 64
/* Turns one game may take: plays put at least one tile down, and six zero turns end a game. */
#define MAX_TURNS (LX_MAX_BAG * (LX_ZERO_TURNS_TO_END + 1) + 8)

static void
put_i32(unsigned char *at, int32_t value)
{
    memcpy(at, &value, 4);
}

static void
put_u16(unsigned char *at, int value)
{
    uint16_t small = (uint16_t)value;
    memcpy(at, &small, 2);
}

/* The turn record's common fields, and the rack before the turn (codes ascending). */
static unsigned char *
begin_turn(unsigned char *record, const LxGameState *state, int p, int code_count)
{
    memset(record, 0, LX_TURN_SIZE);
    record[LX_TURN_PLAYER] = (unsigned char)p;
    int k = 0;
    for (int code = 0; code < code_count; code++)
        for (int j = 0; j < state->racks[p][code] && k < LX_MAX_RACK; j++)
            record[LX_TURN_RACK + k++] = (unsigned char)code;
    record[LX_TURN_RACK_LENGTH] = (unsigned char)k;
    put_u16(record + LX_TURN_BAG_BEFORE, state->bag_length);
    return record;
}

/* Game `index`'s start: the pair's bag shuffled, both racks drawn (the first mover first). */
static void
deal_game(const LxGameTables *tables, uint64_t seed, int64_t index, LxGameState *state)
{
    memset(state, 0, sizeof *state);
    for (int code = 0; code < tables->code_count; code++)
        for (int j = 0; j < tables->counts[code]; j++)
            state->bag[state->bag_length++] = (unsigned char)code;
    lx_random_seed(&state->random, seed, (uint64_t)index >> 1);
    lx_shuffle(&state->random, state->bag, state->bag_length);
    const int first = (int)(index & 1); /* player A (0) moves first in even games, B (1) in odd ones */
    lx_draw(state, first, tables->rack_size);
    lx_draw(state, 1 - first, tables->rack_size);
}

/* The game record: its number, the final scores with the end's adjustments, the turns, who moved first, how it
 * ended (0: player `last` went out; 1: six turns without a play), the racks left. */
static void
write_game(const LxGameTables *tables, const LxGameState *state, int64_t index, int turns, int ending, int last,
           unsigned char *game)
{
    int adjust[2] = {0, 0};
    if (ending == 0) {
        adjust[last] = 2 * lx_rack_points(tables, state->racks[1 - last]);
    } else {
        adjust[0] = -lx_rack_points(tables, state->racks[0]);
        adjust[1] = -lx_rack_points(tables, state->racks[1]);
    }
    memset(game, 0, GAME_SIZE);
    memcpy(game, &index, 8);
    put_i32(game + 8, state->score[0] + adjust[0]);
    put_i32(game + 12, state->score[1] + adjust[1]);
    put_i32(game + 16, adjust[0]);
    put_i32(game + 20, adjust[1]);
    put_u16(game + 24, turns);
    game[26] = (unsigned char)(index & 1);
    game[27] = (unsigned char)ending;
    game[28] = (unsigned char)(ending == 0 ? last : 0); /* who went out */
    memset(game + 32, 0xFF, 32);
    for (int q = 0; q < 2; q++) {
        int k = 0;
        for (int code = 0; code < tables->code_count; code++)
            for (int j = 0; j < state->racks[q][code] && k < LX_MAX_RACK; j++)
                game[32 + 16 * q + k++] = (unsigned char)code;
    }
}

/* One game. `turns` has room for MAX_TURNS records, `values` for LX_MAX_RACK_SUBSETS doubles; returns the
 * number of turns, or -status on an error. */
static int
play_one(const LxPlayer *players, uint64_t seed, int64_t index, double *values, unsigned char *turns,
         unsigned char *game)
{
    const LxGameTables *tables = players[0].tables;
    LxGameState state;
    deal_game(tables, seed, index, &state);
    int p = (int)(index & 1), zeros = 0, n_turns = 0, ending = 1;
    while (zeros < LX_ZERO_TURNS_TO_END && n_turns < MAX_TURNS) { /* MAX_TURNS cannot be reached: a bound */
        unsigned char *record = begin_turn(turns + (size_t)n_turns * LX_TURN_SIZE, &state, p, tables->code_count);
        n_turns++;
        int turn = lx_take_turn(&players[p], &state, p, values, record);
        if (turn < 0)
            return turn;
        zeros = turn ? zeros + 1 : 0;
        put_i32(record + LX_TURN_TOTAL, state.score[p]);
        put_u16(record + LX_TURN_BAG_AFTER, state.bag_length);
        if (state.rack_length[p] == 0 && state.bag_length == 0) {
            ending = 0;
            break;
        }
        p = 1 - p;
    }
    write_game(tables, &state, index, n_turns, ending, p, game);
    return n_turns;
}

/* The games' records, grown as they come. */
typedef struct {
    unsigned char *turns, *games, *one_game;
    size_t turn_bytes, turn_capacity;
    double *values;
} Batch;

static void
free_batch(Batch *batch)
{
    free(batch->turns);
    free(batch->games);
    free(batch->one_game);
    free(batch->values);
}

/* Games first .. first + count - 1 into the batch: 0, or an LX_MOVEGEN_* status. */
static int
play_batch(const LxPlayer *players, uint64_t seed, int64_t first, Py_ssize_t count, Batch *batch)
{
    for (Py_ssize_t g = 0; g < count; g++) {
        int got = play_one(players, seed, first + g, batch->values, batch->one_game, batch->games + g * GAME_SIZE);
        if (got < 0)
            return -got;
        size_t need = batch->turn_bytes + (size_t)got * LX_TURN_SIZE;
        if (need > batch->turn_capacity) {
            while (batch->turn_capacity < need)
                batch->turn_capacity *= 2;
            unsigned char *grown = realloc(batch->turns, batch->turn_capacity);
            if (!grown)
                return LX_MOVEGEN_MEMORY;
            batch->turns = grown;
        }
        memcpy(batch->turns + batch->turn_bytes, batch->one_game, (size_t)got * LX_TURN_SIZE);
        batch->turn_bytes = need;
    }
    return 0;
}

/* The two players of a request, checked: tables of one game and word graph, a bag that fills both racks. */
static int
parse_players(PyObject *request, LxPlayer *players, unsigned long long *seed)
{
    PyObject *tables[2];
    if (!PyArg_ParseTuple(request, "((Op)(Op))K:play_games", &tables[0], &players[0].by_equity, &tables[1],
                          &players[1].by_equity, seed))
        return -1;
    for (int q = 0; q < 2; q++)
        if ((players[q].tables = lx_game_tables_of(tables[q])) == NULL)
            return -1;
    const LxGameTables *a = players[0].tables, *b = players[1].tables;
    if (memcmp(a, b, offsetof(LxGameTables, leave_keys)) != 0) {
        PyErr_SetString(PyExc_ValueError, "play_games: the players' tables are of different games or lexicons");
        return -1;
    }
    if (a->bag_tiles > LX_MAX_BAG || a->bag_tiles < 2 * a->rack_size) {
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
        return -1;
    }
    return 0;
}

static PyObject *
play_games(PyObject *module, PyObject *args)
{
    PyObject *request;
    long long first;
    Py_ssize_t count;
    LxPlayer players[2];
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!Ln:play_games", &PyTuple_Type, &request, &first, &count)
        || parse_players(request, players, &seed) < 0)
        return NULL;
    if (count < 0 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
        return NULL;
    }
    Batch batch = {
        malloc(1024), malloc((size_t)(count ? count : 1) * GAME_SIZE), malloc((size_t)MAX_TURNS * LX_TURN_SIZE), 0,
        1024,         malloc(LX_MAX_RACK_SUBSETS * sizeof(double))};
    PyObject *result = NULL;
    int status = LX_MOVEGEN_MEMORY;
    if (batch.turns && batch.games && batch.one_game && batch.values) {
        Py_BEGIN_ALLOW_THREADS
        status = play_batch(players, (uint64_t)seed, (int64_t)first, count, &batch);
        Py_END_ALLOW_THREADS
    }
    if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
    else if (status)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(y#y#)", (const char *)batch.turns, (Py_ssize_t)batch.turn_bytes,
                               (const char *)batch.games, (Py_ssize_t)(count * GAME_SIZE));
    free_batch(&batch);
    return result;
}

static PyMethodDef selfplay_methods[] = {
    {"play_games", play_games, METH_VARARGS,
     "play_games(request, first, count) -> (turns, games)\n\nWhole games of self-play (see selfplay.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_selfplay(PyObject *module)
{
    return PyModule_AddFunctions(module, selfplay_methods);
}
