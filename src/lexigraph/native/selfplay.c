/* selfplay.c: play_games, whole games of self-play in C (lexigraph.scrabble.runs orchestrates batches).
 *
 * play_games(request, first, count, threads=1) -> (turns, games)
 *   request: (players, seed), as lexigraph.engine.interface.SelfPlayRequest lays it out; players: player A's and
 *   player B's (tables, by_equity), each a GameTables of the same game and word graph with that player's leave
 *   table (game_tables.h), and its rule (game_loop.h: by equity, or by score).
 *
 * Games first .. first + count - 1 of the run `seed`, each played to its end by the game loop (game_loop.c). Game
 * i is game i % 2 of pair i / 2: both games of a pair draw from the same bag order (every tile of the tables'
 * counts, codes ascending, shuffled by the pair's random numbers), player A moves first in the even game and
 * player B in the odd one (mirrored pairs). So a game depends only on (seed, i), never on how the games are split
 * between workers or threads. On `threads` C threads (threads.h; 1 .. LX_MAX_THREADS) each thread claims the
 * next game in increasing order under a lock, plays it with its own buffers and random numbers (the game's own)
 * and keeps its turns in the game's slot; the slots are joined in game order after the threads end, so the
 * bytes are the same on any number of threads. The Python twin (lexigraph.engine.python.selfplay) plays the same
 * games move for move.
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
#include "threads.h"

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

/* One game. `turns` has room for MAX_TURNS records, `values` for LX_MAX_RACK_SUBSETS doubles; `board` is the
 * game's board state, set up here and kept by each play; returns the number of turns, or -status on an error. */
static int
play_one(const LxPlayer *players, uint64_t seed, int64_t index, double *values, LxBoardState *board,
         unsigned char *turns, unsigned char *game)
{
    const LxGameTables *tables = players[0].tables;
    LxGameState state;
    deal_game(tables, seed, index, &state);
    int set_up = lx_board_state_set(board, tables, state.board, state.blanks);
    if (set_up != LX_MOVEGEN_OK)
        return -set_up;
    state.board_state = board;
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

/* A run of games on one or more threads: what every thread reads, the counter that hands the games out in
 * increasing order, the first error, and each game's own slot (its turn records, its game record). */
typedef struct {
    const LxPlayer *players;
    uint64_t seed;
    int64_t first;
    Py_ssize_t count;
    LxMutex lock;
    Py_ssize_t next; /* the next game to claim, from 0 */
    int status;      /* the first error (an LX_MOVEGEN_* status), 0 while none */
    unsigned char **turns;
    int *turn_counts;
    unsigned char *games;
} GameRun;

/* What one thread plays in: a game's turns as they come, the leave values' room, the board's state. */
typedef struct {
    GameRun *run;
    unsigned char *one_game;
    double *values;
    LxBoardState *board;
} GameWorker;

/* The next game to play, or -1 when none is left or a thread failed. */
static Py_ssize_t
claim_game(GameRun *run)
{
    lx_mutex_lock(&run->lock);
    Py_ssize_t g = (run->status || run->next >= run->count) ? -1 : run->next++;
    lx_mutex_unlock(&run->lock);
    return g;
}

static void
fail_run(GameRun *run, int status)
{
    lx_mutex_lock(&run->lock);
    if (!run->status)
        run->status = status;
    lx_mutex_unlock(&run->lock);
}

/* A thread's loop: claim a game, play it, keep its turns in the game's slot. */
static void
play_claimed_games(void *data)
{
    GameWorker *worker = data;
    GameRun *run = worker->run;
    for (Py_ssize_t g; (g = claim_game(run)) >= 0;) {
        int got = play_one(run->players, run->seed, run->first + g, worker->values, worker->board, worker->one_game,
                           run->games + g * GAME_SIZE);
        if (got < 0) {
            fail_run(run, -got);
            return;
        }
        run->turns[g] = malloc((size_t)(got ? got : 1) * LX_TURN_SIZE);
        if (!run->turns[g]) {
            fail_run(run, LX_MOVEGEN_MEMORY);
            return;
        }
        memcpy(run->turns[g], worker->one_game, (size_t)got * LX_TURN_SIZE);
        run->turn_counts[g] = got;
    }
}

/* The run's games on `threads` threads (each with its own buffers): 0, or an LX_MOVEGEN_* status. */
static int
play_threaded(GameRun *run, int threads)
{
    GameWorker workers[LX_MAX_THREADS];
    void *arguments[LX_MAX_THREADS];
    int made = 0, status = 0;
    for (; made < threads; made++) {
        workers[made].run = run;
        workers[made].one_game = malloc((size_t)MAX_TURNS * LX_TURN_SIZE);
        workers[made].values = malloc(LX_MAX_RACK_SUBSETS * sizeof(double));
        workers[made].board = malloc(sizeof(LxBoardState));
        arguments[made] = &workers[made];
        if (!workers[made].one_game || !workers[made].values || !workers[made].board) {
            free(workers[made].one_game);
            free(workers[made].values);
            free(workers[made].board);
            status = LX_MOVEGEN_MEMORY;
            break;
        }
    }
    if (!status)
        lx_run_threads(play_claimed_games, arguments, threads);
    for (int k = 0; k < made; k++) {
        free(workers[k].one_game);
        free(workers[k].values);
        free(workers[k].board);
    }
    return status ? status : run->status;
}

/* The games' turn records one after the other, in game order, as bytes; NULL with MemoryError set. */
static PyObject *
joined_turns(const GameRun *run)
{
    size_t total = 0;
    for (Py_ssize_t g = 0; g < run->count; g++)
        total += (size_t)run->turn_counts[g] * LX_TURN_SIZE;
    PyObject *turns = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!turns)
        return NULL;
    unsigned char *at = (unsigned char *)PyBytes_AS_STRING(turns);
    for (Py_ssize_t g = 0; g < run->count; g++) {
        memcpy(at, run->turns[g], (size_t)run->turn_counts[g] * LX_TURN_SIZE);
        at += (size_t)run->turn_counts[g] * LX_TURN_SIZE;
    }
    return turns;
}

static void
free_run(GameRun *run)
{
    if (run->turns)
        for (Py_ssize_t g = 0; g < run->count; g++)
            free(run->turns[g]);
    free(run->turns);
    free(run->turn_counts);
    free(run->games);
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
    int threads = 1;
    LxPlayer players[2];
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!Ln|i:play_games", &PyTuple_Type, &request, &first, &count, &threads)
        || parse_players(request, players, &seed) < 0 || lx_threads_argument(threads, "play_games") < 0)
        return NULL;
    if (count < 0 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
        return NULL;
    }
    GameRun run = {players, (uint64_t)seed, (int64_t)first, count};
    run.turns = calloc((size_t)(count ? count : 1), sizeof *run.turns);
    run.turn_counts = calloc((size_t)(count ? count : 1), sizeof *run.turn_counts);
    run.games = malloc((size_t)(count ? count : 1) * GAME_SIZE);
    PyObject *result = NULL;
    int status = LX_MOVEGEN_MEMORY;
    if (run.turns && run.turn_counts && run.games && lx_mutex_init(&run.lock) == 0) {
        if (threads > count)
            threads = count ? (int)count : 1;
        Py_BEGIN_ALLOW_THREADS
        status = play_threaded(&run, threads);
        Py_END_ALLOW_THREADS
        lx_mutex_destroy(&run.lock);
    }
    if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
        PyErr_SetString(PyExc_ValueError, "play_games: inconsistent arguments");
    else if (status)
        PyErr_NoMemory();
    else {
        PyObject *turns = joined_turns(&run);
        if (turns)
            result = Py_BuildValue("(Ny#)", turns, (const char *)run.games, (Py_ssize_t)(count * GAME_SIZE));
    }
    free_run(&run);
    return result;
}

static PyObject *
threads_available(PyObject *module, PyObject *unused)
{
    return PyBool_FromLong(lx_threads_available());
}

static PyMethodDef selfplay_methods[] = {
    {"play_games", play_games, METH_VARARGS,
     "play_games(request, first, count, threads=1) -> (turns, games)\n\nWhole games of self-play (see selfplay.c)."},
    {"threads_available", threads_available, METH_NOARGS,
     "threads_available() -> bool\n\nWhether this build runs self-play and play-outs on C threads (threads.h)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_selfplay(PyObject *module)
{
    return PyModule_AddFunctions(module, selfplay_methods);
}
