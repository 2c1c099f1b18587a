/* playouts.c: simulate_plays, the simulation's play-outs of candidate moves (lexigraph.scrabble.simulation
 * orchestrates them).
 *
 * simulate_plays(request, first, count, deadline, threads=1) -> bytes
 *   request: (tables, board, blanks, rack, unseen, opponent_tiles, zero_turns, candidates, plies, seed), as
 *   lexigraph.engine.interface.SimulationRequest lays it out: a GameTables (game_tables.h) whose leave table both
 *   sides play by, the position (a tile code and a blank flag per square), the side to move's rack and the tiles
 *   it cannot see (counts per code), the opponent's rack size, the zero-score turns so far, the candidates, the
 *   turns played after each, the run's seed.
 *
 * The side to move (player 0) holds `rack`; `unseen` counts the tiles it cannot see (the opponent's rack and the
 * bag). Iteration i deals them alone: the random numbers of pair i of the run `seed` (game_loop.h), the unseen
 * tiles (codes ascending) shuffled as self-play shuffles its bag, `opponent_tiles` drawn from the end onto the
 * opponent's rack, the rest the bag. So iteration i depends only on (seed, i), and every candidate of an iteration
 * meets the same draws (common random numbers: each candidate starts from a copy of the dealt state, random
 * numbers included).
 *
 * With inferred leaves (`leaves`: a count per code each; `leave_weights`: their cumulative weights as uint64,
 * strictly increasing; lexigraph.scrabble.inference infers them from the opponent's last move) iteration i deals
 * otherwise: the first random number of pair i, below the total weight, picks a leave (the first whose cumulative
 * weight exceeds it), which starts the opponent's rack; the unseen tiles less the leave (codes ascending) are
 * shuffled and the opponent's rack is filled from the end (deal_inferred). Without them the deal is as above,
 * byte for byte.
 *
 * Each candidate (CANDIDATE_SIZE bytes: kind, tile count, 2 spare, int32 score, uint16 squares[16] of a play's new
 * tiles, uint8 tiles[16]: the tile put there (BLANK_FLAG for a blank) or, for an exchange, the codes put back) is
 * made by player 0, then `plies` more turns follow, the opponent first, each by self-play's equity player
 * (lx_take_turn). The game may end on the way: a player plays out with the bag empty (gaining twice the other
 * rack's points), or six consecutive zero turns counting the position's `zero_turns` (each loses its own rack's
 * points).
 *
 * The value of a play-out is wolges's simmer's final equity spread: player 0's points from the candidate on
 * minus the opponent's, plus the leave value of player 0's last leave in the play-out minus that of the
 * opponent's last leave (the leave table's raw value; 0 for a side that did not move, and both 0 once the game
 * has ended). Each (iteration, candidate) gives RESULT_SIZE bytes: float64 value, int32 the same spread without
 * the leaves, uint16 the tiles left unseen by nobody at the end (bag and both racks), uint8 1 when the game
 * ended, uint8 the tiles on the rack of the player on turn at the end (0 once the game ended); iteration by
 * iteration, candidates in order. Past `deadline` (a time.monotonic() value or None, deadline.h) it stops between iterations and answers the whole iterations done. On `threads` C threads
 * (threads.h) each thread claims the next iteration in increasing order under a lock and plays it out in its own
 * workspace: an iteration's results depend only on (seed, i), so any number of threads answers the same bytes,
 * and past the deadline the iterations done are still a prefix (no thread claims another; each finishes its
 * own). The Python twin is
 * lexigraph.engine.python.simulation.
 */
#include "module.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deadline.h"
#include "game_loop.h"
#include "limits.h"
#include "movegen.h"
#include "threads.h"

/* Bytes of a candidate and of a play-out's result (lexigraph.engine.interface's SIMULATION_*), most plies. */
#define CANDIDATE_SIZE 64
#define RESULT_SIZE 16
#define MAX_PLIES 64
/* Most candidates and iterations one call takes. */
#define MAX_CANDIDATES 4096
#define MAX_ITERATIONS (1 << 24)
/* Where a candidate keeps its fields. */
#define CANDIDATE_SCORE 4
#define CANDIDATE_SQUARES 8
#define CANDIDATE_TILES 40

/* A request, parsed: the tables, the position, the candidates and the play-outs' length. */
typedef struct {
    LxPlayer player; /* both sides play by equity with the tables' leave table */
    const unsigned char *board, *blanks, *rack, *unseen, *candidates;
    Py_ssize_t candidate_count;
    int opponent_tiles, zero_turns, plies;
    unsigned long long seed;
    /* The inferred leaves the opponent's rack starts from (a count per code each) and their cumulative weights
     * (uint64, strictly increasing, read with memcpy); leave_count 0: the whole rack drawn from the unseen tiles. */
    const unsigned char *leaves, *leave_weights;
    Py_ssize_t leave_count;
} Simulation;

/* The tiles candidate `candidate` takes from player 0's rack (counts per code), checked against the position:
 * 0, or -LX_MOVEGEN_BAD_BOARD for a candidate the position does not allow. */
static int
candidate_tiles(const LxGameTables *tables, const LxGameState *state, const unsigned char *candidate, int *gone)
{
    const int squares = tables->size * tables->size, code_count = tables->code_count;
    const int kind = candidate[0], count = candidate[1];
    if (count > LX_MAX_RACK || kind > LX_TURN_PASS)
        return -LX_MOVEGEN_BAD_BOARD;
    if (kind == LX_TURN_PLAY) {
        if (count < 1)
            return -LX_MOVEGEN_BAD_BOARD;
        for (int i = 0; i < count; i++) {
            uint16_t square;
            memcpy(&square, candidate + CANDIDATE_SQUARES + 2 * i, 2);
            unsigned char tile = candidate[CANDIDATE_TILES + i], code = tile & (unsigned char)~LX_BLANK_FLAG;
            if (square >= squares || state->board[square] || code < 1 || code >= code_count)
                return -LX_MOVEGEN_BAD_BOARD;
            gone[(tile & LX_BLANK_FLAG) ? 0 : code]++;
        }
    } else if (kind == LX_TURN_EXCHANGE) {
        if (count < 1 || state->bag_length < count)
            return -LX_MOVEGEN_BAD_BOARD;
        for (int i = 0; i < count; i++) {
            if (candidate[CANDIDATE_TILES + i] >= code_count)
                return -LX_MOVEGEN_BAD_BOARD;
            gone[candidate[CANDIDATE_TILES + i]]++;
        }
    }
    for (int code = 0; code < code_count; code++)
        if (gone[code] > state->racks[0][code])
            return -LX_MOVEGEN_BAD_BOARD;
    return 0;
}

/* The squares of a play candidate's tiles (count of them: candidate[1], at most LX_MAX_RACK). */
static void
candidate_squares(const unsigned char *candidate, int *squares)
{
    for (int i = 0; i < candidate[1] && i < LX_MAX_RACK; i++) {
        uint16_t square;
        memcpy(&square, candidate + CANDIDATE_SQUARES + 2 * i, 2);
        squares[i] = square;
    }
}

/* Player 0 makes the candidate on `state`; its leave's value in *leave. `placed`: the board's state after the
 * play, already in state->board_state (the play's tiles are then put on the board's bytes only), or 0. 0 after a
 * play, 1 after an exchange or a pass, -LX_MOVEGEN_BAD_BOARD for a candidate the position does not allow. */
static int
make_candidate(const LxGameTables *tables, LxGameState *state, const unsigned char *candidate, int placed,
               double *leave)
{
    const int code_count = tables->code_count, kind = candidate[0], count = candidate[1];
    int gone[LX_MAX_MOVE_TILE_CODES] = {0};
    int status = candidate_tiles(tables, state, candidate, gone);
    if (status < 0)
        return status;
    uint64_t key = lx_leave_key(state->racks[0], gone, code_count);
    *leave = key ? lx_leave_value(tables, key) : 0.0;
    if (kind == LX_TURN_EXCHANGE) {
        lx_exchange(state, 0, gone, tables->rack_size, code_count);
        return 1;
    }
    if (kind == LX_TURN_PLAY) {
        int32_t score;
        memcpy(&score, candidate + CANDIDATE_SCORE, 4);
        int squares[LX_MAX_RACK];
        candidate_squares(candidate, squares);
        LxBoardState *board_state = state->board_state;
        if (placed)
            state->board_state = NULL;
        status = lx_place_tiles(tables, state, squares, candidate + CANDIDATE_TILES, count);
        state->board_state = board_state;
        if (status != 0)
            return -status;
        state->score[0] += score;
    }
    for (int code = 0; code < code_count; code++) {
        state->racks[0][code] -= gone[code];
        state->rack_length[0] -= gone[code];
    }
    lx_draw(state, 0, tables->rack_size);
    return kind == LX_TURN_PLAY ? 0 : 1;
}

/* A play-out's result: the spread from the dealt state on, the end's rack points when the game ended (player
 * `out_player` went out, or six zero turns), else the last leaves' values. */
static void
write_result(const LxGameTables *tables, const LxGameState *dealt, LxGameState *state, int out_player, int zeros,
             const double *leave, unsigned char *result)
{
    int ended = 0;
    if (out_player >= 0) {
        state->score[out_player] += 2 * lx_rack_points(tables, state->racks[1 - out_player]);
        ended = 1;
    } else if (zeros >= LX_ZERO_TURNS_TO_END) {
        state->score[0] -= lx_rack_points(tables, state->racks[0]);
        state->score[1] -= lx_rack_points(tables, state->racks[1]);
        ended = 1;
    }
    int32_t spread = (state->score[0] - dealt->score[0]) - (state->score[1] - dealt->score[1]);
    double value = (double)spread + (ended ? 0.0 : leave[0] - leave[1]);
    uint16_t left = (uint16_t)(state->bag_length + state->rack_length[0] + state->rack_length[1]);
    memset(result, 0, RESULT_SIZE);
    memcpy(result, &value, 8);
    memcpy(result + 8, &spread, 4);
    memcpy(result + 12, &left, 2);
    result[14] = (unsigned char)ended;
}

/* One play-out of one candidate from the dealt state `dealt` (worked on in `state`, its board's state in `board`,
 * a copy of the dealt one's, or of `after`, the board's state after the candidate when known); its result in
 * `result`. */
static int
play_out(const Simulation *simulation, const LxGameState *dealt, const unsigned char *candidate,
         const LxBoardState *after, double *values, LxGameState *state, LxBoardState *board, unsigned char *result)
{
    const LxGameTables *tables = simulation->player.tables;
    memcpy(state, dealt, sizeof *state);
    lx_board_state_copy(board, after ? after : dealt->board_state);
    state->board_state = board;
    double leave[2] = {0.0, 0.0};
    unsigned char record[LX_TURN_SIZE];
    int turn = make_candidate(tables, state, candidate, after != NULL, &leave[0]);
    if (turn < 0)
        return turn;
    int zeros = turn ? simulation->zero_turns + 1 : 0, out_player = -1;
    if (state->rack_length[0] == 0 && state->bag_length == 0)
        out_player = 0;
    for (int ply = 1; out_player < 0 && zeros < LX_ZERO_TURNS_TO_END && ply <= simulation->plies; ply++) {
        int p = ply & 1;
        memset(record, 0, LX_TURN_SIZE);
        turn = lx_take_turn(&simulation->player, state, p, values, record);
        if (turn < 0)
            return turn;
        zeros = turn ? zeros + 1 : 0;
        uint64_t key;
        memcpy(&key, record + LX_TURN_LEAVE, 8);
        leave[p] = key ? lx_leave_value(tables, key) : 0.0;
        if (state->rack_length[p] == 0 && state->bag_length == 0)
            out_player = p;
    }
    write_result(tables, dealt, state, out_player, zeros, leave, result);
    /* Unended, every ply was played: the rack of the player on turn tells what it cannot see (the win table's
     * index). */
    if (!result[14])
        result[15] = (unsigned char)state->rack_length[(simulation->plies + 1) & 1];
    return 0;
}

/* The index of the inferred leave for the random number `drawn` (below the total weight): the first leave whose
 * cumulative weight exceeds it. */
static Py_ssize_t
inferred_leave_index(const Simulation *simulation, uint64_t drawn)
{
    Py_ssize_t low = 0, high = simulation->leave_count - 1;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        uint64_t weight;
        memcpy(&weight, simulation->leave_weights + 8 * middle, 8);
        if (drawn < weight)
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

/* Deal iteration i with an inferred leave: one random number below the total weight picks the leave, which goes
 * onto the opponent's rack and out of the unseen tiles; the rest (codes ascending) shuffled as the plain deal
 * shuffles them, the opponent's rack filled from the end, the rest the bag. */
static void
deal_inferred(const Simulation *simulation, const LxGameState *base, uint64_t i, LxGameState *state)
{
    const int code_count = simulation->player.tables->code_count;
    uint64_t total;
    memcpy(&total, simulation->leave_weights + 8 * (simulation->leave_count - 1), 8);
    memcpy(state, base, sizeof *state);
    lx_random_seed(&state->random, (uint64_t)simulation->seed, i);
    const unsigned char *leave =
        simulation->leaves + inferred_leave_index(simulation, lx_random_below(&state->random, total)) * code_count;
    state->bag_length = 0;
    for (int code = 0; code < code_count; code++) {
        state->racks[1][code] = leave[code];
        state->rack_length[1] += leave[code];
        for (int j = leave[code]; j < simulation->unseen[code]; j++)
            state->bag[state->bag_length++] = (unsigned char)code;
    }
    lx_shuffle(&state->random, state->bag, state->bag_length);
    lx_draw(state, 1, simulation->opponent_tiles);
}

/* Deal iteration i: the unseen tiles shuffled, the opponent's rack drawn, the rest the bag. */
static void
deal(const Simulation *simulation, const LxGameState *base, const unsigned char *unseen_tiles, int unseen_count,
     uint64_t i, LxGameState *state)
{
    memcpy(state, base, sizeof *state);
    memcpy(state->bag, unseen_tiles, (size_t)unseen_count);
    state->bag_length = unseen_count;
    lx_random_seed(&state->random, (uint64_t)simulation->seed, i);
    lx_shuffle(&state->random, state->bag, unseen_count);
    lx_draw(state, 1, simulation->opponent_tiles);
}

/* Candidates whose board state after the play a workspace keeps (the first ones: a simulation takes a few). */
#define KEPT_CANDIDATE_BOARDS 16

/* What a run of play-outs works in: the position before the deal, the dealt state, a play-out's state, the
 * leave values' room, the unseen tiles in code order; the position's board state (set up once) and a play-out's;
 * and the board state after each of the first candidates' plays, made when first met (every iteration deals from
 * the same board, so a play-out copies it instead of copying the position's and bringing it up to date). */
typedef struct {
    LxGameState base, dealt, work;
    LxBoardState base_board, board;
    double values[LX_MAX_RACK_SUBSETS];
    unsigned char unseen_tiles[LX_MAX_BAG];
    int unseen_count;
    LxBoardState candidate_boards[KEPT_CANDIDATE_BOARDS];
    unsigned char candidate_board_made[KEPT_CANDIDATE_BOARDS];
} Workspace;

/* The board state after candidate c's play (made on first use), or NULL: not a play, not among the first
 * KEPT_CANDIDATE_BOARDS, or not made (a play the board refuses: the play-out finds the same error itself). */
static const LxBoardState *
candidate_board(const Simulation *simulation, Workspace *work, Py_ssize_t c)
{
    const unsigned char *candidate = simulation->candidates + c * CANDIDATE_SIZE;
    if (c >= KEPT_CANDIDATE_BOARDS || candidate[0] != LX_TURN_PLAY || candidate[1] > LX_MAX_RACK)
        return NULL;
    LxBoardState *after = &work->candidate_boards[c];
    if (!work->candidate_board_made[c]) {
        int squares[LX_MAX_RACK];
        candidate_squares(candidate, squares);
        lx_board_state_copy(after, &work->base_board);
        if (lx_board_state_place(after, simulation->player.tables, squares, candidate + CANDIDATE_TILES, candidate[1])
            != LX_MOVEGEN_OK)
            return NULL;
        work->candidate_board_made[c] = 1;
    }
    return after;
}

/* Iterations first .. first + count - 1 on one or more threads: what every thread reads, the counter that hands
 * the iterations out in increasing order (so the iterations done are always [0, next)), the deadline read under
 * the lock, and the first error. Iteration i writes its candidates' results at answer[i * candidates ...]. */
typedef struct {
    const Simulation *simulation;
    long long first;
    Py_ssize_t count;
    unsigned char *answer;
    LxMutex lock;
    LxDeadline *deadline;
    Py_ssize_t next;
    int status;
} IterationRun;

/* What one thread works in, and the run it takes iterations from. */
typedef struct {
    IterationRun *run;
    Workspace *work;
} IterationWorker;

/* The next iteration, or -1: none left, a thread failed, or the deadline passed (the first iteration is always
 * played, so that a run answers something). */
static Py_ssize_t
claim_iteration(IterationRun *run)
{
    lx_mutex_lock(&run->lock);
    Py_ssize_t i = -1;
    if (!run->status && run->next < run->count && (run->next == 0 || !lx_deadline_passed_now(run->deadline)))
        i = run->next++;
    lx_mutex_unlock(&run->lock);
    return i;
}

/* A thread's loop: claim an iteration, deal it, play each candidate out. */
static void
play_claimed_iterations(void *data)
{
    IterationWorker *worker = data;
    IterationRun *run = worker->run;
    const Simulation *simulation = run->simulation;
    Workspace *work = worker->work;
    const Py_ssize_t candidates = simulation->candidate_count;
    for (Py_ssize_t i; (i = claim_iteration(run)) >= 0;) {
        if (simulation->leave_count)
            deal_inferred(simulation, &work->base, (uint64_t)(run->first + i), &work->dealt);
        else
            deal(simulation, &work->base, work->unseen_tiles, work->unseen_count, (uint64_t)(run->first + i),
                 &work->dealt);
        for (Py_ssize_t c = 0; c < candidates; c++) {
            int got = play_out(simulation, &work->dealt, simulation->candidates + c * CANDIDATE_SIZE,
                               candidate_board(simulation, work, c), work->values, &work->work, &work->board,
                               run->answer + (i * candidates + c) * RESULT_SIZE);
            if (got < 0) {
                lx_mutex_lock(&run->lock);
                if (!run->status)
                    run->status = -got;
                lx_mutex_unlock(&run->lock);
                return;
            }
        }
    }
}

/* The inferred leaves, checked: each a count per code within the unseen tiles and the opponent's rack, their
 * cumulative weights strictly increasing from above 0. 0, or -1 for a forged distribution. */
static int
check_inferred_leaves(const Simulation *simulation, Py_ssize_t leaves_length, Py_ssize_t weights_length)
{
    const int code_count = simulation->player.tables->code_count;
    if (leaves_length % code_count || weights_length % 8 || leaves_length / code_count != weights_length / 8)
        return -1;
    uint64_t previous = 0;
    for (Py_ssize_t k = 0; k < simulation->leave_count; k++) {
        const unsigned char *leave = simulation->leaves + k * code_count;
        int size = 0;
        for (int code = 0; code < code_count; code++) {
            if (leave[code] > simulation->unseen[code])
                return -1;
            size += leave[code];
        }
        uint64_t weight;
        memcpy(&weight, simulation->leave_weights + 8 * k, 8);
        if (size > simulation->opponent_tiles || weight <= previous)
            return -1;
        previous = weight;
    }
    return 0;
}

/* The request's fields, checked against the tables. */
static int
parse_simulation(PyObject *request, Simulation *simulation)
{
    PyObject *tables_object;
    Py_ssize_t board_length, blanks_length, rack_length, unseen_length, candidates_length;
    Py_ssize_t leaves_length = 0, weights_length = 0;
    simulation->leaves = simulation->leave_weights = NULL;
    if (!PyArg_ParseTuple(request, "Oy#y#y#y#iiy#iK|y#y#:simulate_plays", &tables_object, &simulation->board,
                          &board_length, &simulation->blanks, &blanks_length, &simulation->rack, &rack_length,
                          &simulation->unseen, &unseen_length, &simulation->opponent_tiles, &simulation->zero_turns,
                          &simulation->candidates, &candidates_length, &simulation->plies, &simulation->seed,
                          &simulation->leaves, &leaves_length, &simulation->leave_weights, &weights_length))
        return -1;
    const LxGameTables *tables = simulation->player.tables = lx_game_tables_of(tables_object);
    if (tables == NULL)
        return -1;
    simulation->player.by_equity = 1;
    simulation->candidate_count = candidates_length / CANDIDATE_SIZE;
    const Py_ssize_t squares = (Py_ssize_t)tables->size * tables->size;
    int bad = board_length != squares || blanks_length != squares || rack_length != tables->code_count
              || unseen_length != tables->code_count || candidates_length % CANDIDATE_SIZE
              || simulation->candidate_count > MAX_CANDIDATES || simulation->plies < 0 || simulation->plies > MAX_PLIES
              || simulation->zero_turns < 0 || simulation->opponent_tiles < 0
              || simulation->opponent_tiles > tables->rack_size;
    long unseen = 0, on_rack = 0;
    for (int code = 0; code < tables->code_count && !bad; code++) {
        unseen += simulation->unseen[code];
        on_rack += simulation->rack[code];
    }
    for (Py_ssize_t square = 0; square < squares && !bad; square++)
        bad = simulation->board[square] >= tables->code_count || simulation->blanks[square] > 1;
    simulation->leave_count = weights_length / 8;
    if (bad || unseen > LX_MAX_BAG || simulation->opponent_tiles > unseen || on_rack > tables->rack_size
        || check_inferred_leaves(simulation, leaves_length, weights_length) < 0) {
        PyErr_SetString(PyExc_ValueError, "simulate_plays: inconsistent arguments");
        return -1;
    }
    return 0;
}

/* The position before each deal: the board (and its state) and player 0's rack; the unseen tiles in code order.
 * 0, or an LX_MOVEGEN_* status. */
static int
start_workspace(const Simulation *simulation, Workspace *work)
{
    const LxGameTables *tables = simulation->player.tables;
    const int squares = tables->size * tables->size;
    memset(&work->base, 0, sizeof work->base);
    memset(work->candidate_board_made, 0, sizeof work->candidate_board_made);
    work->unseen_count = 0;
    for (int code = 0; code < tables->code_count; code++)
        for (int j = 0; j < simulation->unseen[code]; j++)
            work->unseen_tiles[work->unseen_count++] = (unsigned char)code;
    memcpy(work->base.board, simulation->board, (size_t)squares);
    memcpy(work->base.blanks, simulation->blanks, (size_t)squares);
    for (int code = 0; code < tables->code_count; code++) {
        work->base.racks[0][code] = simulation->rack[code];
        work->base.rack_length[0] += simulation->rack[code];
    }
    work->base.board_state = &work->base_board; /* each deal's copy points at it; each play-out copies it */
    return lx_board_state_set(&work->base_board, tables, work->base.board, work->base.blanks);
}

/* The run on `threads` threads, each with its own workspace: 0, or an LX_MOVEGEN_* status; the iterations done
 * in run->next. */
static int
run_threaded(IterationRun *run, int threads)
{
    IterationWorker workers[LX_MAX_THREADS];
    void *arguments[LX_MAX_THREADS];
    int made = 0, status = 0;
    for (; made < threads; made++) {
        workers[made].run = run;
        workers[made].work = malloc(sizeof(Workspace));
        arguments[made] = &workers[made];
        if (!workers[made].work) {
            status = LX_MOVEGEN_MEMORY;
            break;
        }
        if ((status = start_workspace(run->simulation, workers[made].work)) != 0) {
            made++;
            break;
        }
    }
    if (!status)
        lx_run_threads(play_claimed_iterations, arguments, threads);
    for (int k = 0; k < made; k++)
        free(workers[k].work);
    return status ? status : run->status;
}

static PyObject *
simulate_plays(PyObject *module, PyObject *args)
{
    PyObject *request, *deadline_object = Py_None;
    long long first;
    Py_ssize_t count;
    int threads = 1;
    Simulation simulation;
    LxDeadline deadline;
    if (!PyArg_ParseTuple(args, "O!Ln|Oi:simulate_plays", &PyTuple_Type, &request, &first, &count, &deadline_object,
                          &threads)
        || parse_simulation(request, &simulation) < 0 || lx_deadline_parse(deadline_object, &deadline) < 0
        || lx_threads_argument(threads, "simulate_plays") < 0)
        return NULL;
    if (count < 0 || first < 0 || count > MAX_ITERATIONS) {
        PyErr_SetString(PyExc_ValueError, "simulate_plays: inconsistent arguments");
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, count * simulation.candidate_count * RESULT_SIZE);
    if (!result)
        return NULL;
    IterationRun run = {&simulation, first, count, (unsigned char *)PyBytes_AS_STRING(result)};
    run.deadline = &deadline;
    if (lx_mutex_init(&run.lock) < 0) {
        Py_DECREF(result);
        return PyErr_NoMemory();
    }
    if (threads > count)
        threads = count ? (int)count : 1;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run_threaded(&run, threads);
    Py_END_ALLOW_THREADS
    lx_mutex_destroy(&run.lock);
    if (status) {
        Py_CLEAR(result);
        if (status == LX_MOVEGEN_GRAPH)
            PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        else if (status == LX_MOVEGEN_BAD_BOARD || status == LX_MOVEGEN_BAD_TABLE)
            PyErr_SetString(PyExc_ValueError, "simulate_plays: a candidate the position does not allow");
        else
            PyErr_NoMemory();
    } else if (run.next < count) {
        _PyBytes_Resize(&result, run.next * simulation.candidate_count * RESULT_SIZE);
    }
    return result;
}

/* simulation_deals(request, first, count) -> bytes: the opponent's rack (a count per code) that iterations
 * first .. first + count - 1 deal, one after another: the deal alone, for the tests to hold against its law and
 * the Python twin. */
static PyObject *
simulation_deals(PyObject *module, PyObject *args)
{
    PyObject *request;
    long long first;
    Py_ssize_t count;
    Simulation simulation;
    if (!PyArg_ParseTuple(args, "O!Ln:simulation_deals", &PyTuple_Type, &request, &first, &count)
        || parse_simulation(request, &simulation) < 0)
        return NULL;
    if (count < 0 || first < 0 || count > MAX_ITERATIONS) {
        PyErr_SetString(PyExc_ValueError, "simulation_deals: inconsistent arguments");
        return NULL;
    }
    const int code_count = simulation.player.tables->code_count;
    Workspace *work = malloc(sizeof(Workspace));
    PyObject *result = work ? PyBytes_FromStringAndSize(NULL, count * code_count) : PyErr_NoMemory();
    if (result) {
        start_workspace(&simulation, work);
        unsigned char *out = (unsigned char *)PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            if (simulation.leave_count)
                deal_inferred(&simulation, &work->base, (uint64_t)(first + i), &work->dealt);
            else
                deal(&simulation, &work->base, work->unseen_tiles, work->unseen_count, (uint64_t)(first + i),
                     &work->dealt);
            for (int code = 0; code < code_count; code++)
                out[i * code_count + code] = (unsigned char)work->dealt.racks[1][code];
        }
    }
    free(work);
    return result;
}

static PyMethodDef playouts_methods[] = {
    {"simulation_deals", simulation_deals, METH_VARARGS,
     "simulation_deals(request, first, count) -> bytes\n\nThe opponent's rack each iteration deals (see playouts.c)."},
    {"simulate_plays", simulate_plays, METH_VARARGS,
     "simulate_plays(request, first, count, deadline=None, threads=1) -> bytes\n\nPlay-outs of candidate moves for the "
     "simulation (see playouts.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_playouts(PyObject *module)
{
    return PyModule_AddFunctions(module, playouts_methods);
}
