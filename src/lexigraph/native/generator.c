/*
 * generator.c: the MoveGenerator type, a move generator's state kept across calls from Python for one game's
 * tables (a GameTables: the lexicon's word graph, the game, a leave table), so that a call costs little beyond the
 * generation itself. lexigraph.scrabble.movegen keeps one per (lexicon, game, leave table) (generator_for).
 *
 * MoveGenerator(tables)
 * generate(board, blanks, rack, other_rack, top, flags, deadline=None, values=b"") -> (records, count, values, bag)
 *   board, blanks: a byte per square (the tile code, 0 empty; 1 where the tile is a blank), as bytes or as a list of
 *                  ints (a Position's own lists, read without a bytes() copy); rack: a count per tile
 *   code (index 0 the blanks); other_rack: the opponent's rack size when the position says it, else -1 (a full
 *   rack if the unseen tiles allow); top: keep the best `top` (-1: every play); flags: BY_EQUITY 1, PRUNE 2,
 *   BOTH_DIRECTIONS 4 (movegen.h), VALUES 8: value the rack's subsets here from the tables' leave table, else by
 *   `values` (a float64 per subset, lexigraph.scrabble.equity.rack_values' order; b"": none). Returns the records
 *   (movegen.c's layout), the plays counted (-1 when pruned), the subsets' values as float64 bytes (the exchanges
 *   and the pass are valued with them), and the bag's size.
 *
 * What it does that lexigraph.scrabble.movegen did in Python before each generation: the unseen tiles and the
 * bag (equity.unseen_counts and bag_size), and each subset's value (equity.rack_values: the leave table's value of
 * the tiles kept while the bag holds tiles, else the end-of-game adjustment: twice the unseen tiles' points for
 * playing out, else -10 less twice the kept tiles' points). What it keeps: the last rack's values (a rack asked
 * again, the same bag, is not valued again) and the last board; when a board comes twice in a row, its state
 * (board_state.h: cross-sets of every code, cross sums, anchors) is set up once and served to every later call on
 * it (analysis and simulation ask one board for many racks), else the generator sets up the rack's cross-sets
 * itself. The generation runs without the GIL; one caller at a time uses the kept state (a lock, not waited on:
 * a second thread at the same time generates without it, with the same answers).
 *
 * The Python twin is lexigraph.engine.python.move_generator.PythonMoveGenerator; tests hold both to the answers
 * of the functions they replace.
 */
#include "module.h"

#include <pythread.h>
#include <stdlib.h>
#include <string.h>

#include "board_state.h"
#include "deadline.h"
#include "game_loop.h"
#include "limits.h"
#include "movegen.h"

#define FLAG_BY_EQUITY 1
#define FLAG_PRUNE 2
#define FLAG_BOTH_DIRECTIONS 4
#define FLAG_VALUES 8

typedef struct {
    PyObject_HEAD
    PyObject *tables_object;
    const LxGameTables *tables;
    PyThread_type_lock lock;
    /* the last board asked, and its state once it was asked twice in a row */
    unsigned char board[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE], blanks[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE];
    int board_known, state_ready;
    LxBoardState *state;
    /* the last rack valued here: its counts, the bag and the unseen points it was valued with, the values */
    unsigned char rack[LX_MAX_MOVE_TILE_CODES];
    int values_known, values_bag, values_opponent;
    long subsets;
    double values[LX_MAX_RACK_SUBSETS];
} MoveGenerator;

/* What a call works with: the position's counts, and where its values and board state come from. */
typedef struct {
    const unsigned char *board, *blanks, *rack;
    int unseen_total, unseen_points, bag;
    long subsets;
    const double *values;
    const LxBoardState *state;
} Call;

/* The tiles neither on the board nor on the rack (equity.unseen_counts: a blank on the board counts as a blank),
 * their count and points, and the bag (less the opponent's rack). */
static void
count_unseen(const LxGameTables *tables, Call *call, int other_rack)
{
    const int squares = tables->size * tables->size, codes = tables->code_count;
    int unseen[LX_MAX_MOVE_TILE_CODES];
    for (int code = 0; code < codes; code++)
        unseen[code] = tables->counts[code] - call->rack[code];
    for (int square = 0; square < squares; square++)
        if (call->board[square])
            unseen[call->blanks[square] ? 0 : call->board[square]]--;
    call->unseen_total = call->unseen_points = 0;
    for (int code = 0; code < codes; code++)
        if (unseen[code] > 0) {
            call->unseen_total += unseen[code];
            call->unseen_points += unseen[code] * tables->points[code];
        }
    int opponent = other_rack >= 0 ? other_rack
                                   : (call->unseen_total < tables->rack_size ? call->unseen_total : tables->rack_size);
    call->bag = call->unseen_total - opponent;
}

/* The rack's subsets in index order (the first code turning fastest), valued into `values` as the game loop values
 * them (lx_value_rack_subsets: the unseen tiles are the opponent's rack once the bag is empty); -1 when there are
 * more than LX_MAX_RACK_SUBSETS. */
static long
value_subsets(const LxGameTables *tables, const Call *call, double *values)
{
    int rack[LX_MAX_MOVE_TILE_CODES];
    for (int code = 0; code < tables->code_count; code++)
        rack[code] = call->rack[code];
    return lx_value_rack_subsets(tables, rack, call->bag <= 0, call->unseen_points, values);
}

/* The kept state for this call (the lock held): the values, kept or made; the board's state when it came before. */
static int
use_kept_state(MoveGenerator *self, Call *call)
{
    const LxGameTables *tables = self->tables;
    const size_t squares = (size_t)tables->size * (size_t)tables->size, codes = (size_t)tables->code_count;
    if (!call->values) {
        if (!self->values_known || self->values_bag != call->bag || self->values_opponent != call->unseen_points
            || memcmp(self->rack, call->rack, codes) != 0) {
            self->values_known = 0;
            if ((self->subsets = value_subsets(tables, call, self->values)) < 0)
                return LX_MOVEGEN_BAD_TABLE;
            memcpy(self->rack, call->rack, codes);
            self->values_bag = call->bag;
            self->values_opponent = call->unseen_points;
            self->values_known = 1;
        }
        call->values = self->values;
        call->subsets = self->subsets;
    }
    if (self->board_known && memcmp(self->board, call->board, squares) == 0
        && memcmp(self->blanks, call->blanks, squares) == 0) {
        if (!self->state_ready && lx_board_state_set(self->state, tables, call->board, call->blanks) == 0)
            self->state_ready = 1;
        call->state = self->state_ready ? self->state : NULL;
    } else {
        memcpy(self->board, call->board, squares);
        memcpy(self->blanks, call->blanks, squares);
        self->board_known = 1;
        self->state_ready = 0;
    }
    return LX_MOVEGEN_OK;
}

/* Whether any value is not 0 (none: the generation is asked without values, as equity.pack leaves them out). */
static int
any_value(const double *values, long count)
{
    for (long i = 0; i < count; i++)
        if (values[i] != 0.0)
            return 1;
    return 0;
}

static PyObject *
answer(int status, LxMoveOutput *out, const double *values, long subsets, int bag)
{
    switch (status) {
    case LX_MOVEGEN_OK:
        return Py_BuildValue("(y#ny#i)", out->records ? (const char *)out->records : "",
                             (Py_ssize_t)(out->kept * LX_MOVE_RECORD_SIZE), out->count,
                             values ? (const char *)values : "", (Py_ssize_t)(values ? subsets * 8 : 0), bag);
    case LX_MOVEGEN_BAD_TABLE:
        PyErr_SetString(PyExc_ValueError, "MoveGenerator: the leave values do not fit the rack");
        return NULL;
    case LX_MOVEGEN_BAD_BOARD:
        PyErr_SetString(PyExc_ValueError, "MoveGenerator: a board tile is outside the alphabet");
        return NULL;
    case LX_MOVEGEN_GRAPH:
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        return NULL;
    case LX_MOVEGEN_DEADLINE:
        PyErr_SetString(PyExc_TimeoutError, "MoveGenerator: past the deadline");
        return NULL;
    default:
        return PyErr_NoMemory();
    }
}

/* The generation, the GIL released: with the kept state when no other thread uses it, else with a values buffer
 * of its own and no board state. */
static int
run(MoveGenerator *self, Call *call, LxMoveInput *in, LxMoveOutput *out, int value_here, double **own_values)
{
    int status = LX_MOVEGEN_OK;
    int kept = PyThread_acquire_lock(self->lock, NOWAIT_LOCK);
    if (kept) {
        status = use_kept_state(self, call);
    } else if (value_here) {
        *own_values = malloc(LX_MAX_RACK_SUBSETS * sizeof(double));
        if (!*own_values)
            status = LX_MOVEGEN_MEMORY;
        else if ((call->subsets = value_subsets(self->tables, call, *own_values)) < 0)
            status = LX_MOVEGEN_BAD_TABLE;
        call->values = *own_values;
    }
    if (status == LX_MOVEGEN_OK) {
        int valued = any_value(call->values, call->subsets);
        in->leave_values = valued ? call->values : NULL;
        in->leave_value_count = valued ? (size_t)call->subsets : 0;
        in->board_state = call->state;
        status = lx_movegen_run(in, out);
    }
    if (kept) {
        if (status == LX_MOVEGEN_OK && call->values == self->values) { /* answered from the kept values: copied
                                                                          before another caller may change them */
            *own_values = malloc((size_t)(call->subsets ? call->subsets : 1) * sizeof(double));
            if (*own_values)
                memcpy(*own_values, self->values, (size_t)call->subsets * sizeof(double));
            else
                status = LX_MOVEGEN_MEMORY;
            call->values = *own_values;
        }
        PyThread_release_lock(self->lock);
    }
    return status;
}

/* A board's bytes (tile codes, or blank flags) from a bytes-like object or from a list of small ints or bools (a
 * Position's own lists: read here at a few instructions an item, where bytes(list) takes some seventy). */
static int
square_bytes(PyObject *object, unsigned char *out, Py_ssize_t squares)
{
    if (PyList_CheckExact(object)) {
        if (PyList_GET_SIZE(object) != squares)
            return -1;
        for (Py_ssize_t i = 0; i < squares; i++) {
            PyObject *item = PyList_GET_ITEM(object, i);
            long value;
            if (item == Py_False)
                value = 0;
            else if (item == Py_True)
                value = 1;
            else if ((value = PyLong_AsLong(item)) == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return -1;
            }
            if (value < 0 || value > 255)
                return -1;
            out[i] = (unsigned char)value;
        }
        return 0;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(object, &view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        return -1;
    }
    const int fits = view.len == squares;
    if (fits)
        memcpy(out, view.buf, (size_t)squares);
    PyBuffer_Release(&view);
    return fits ? 0 : -1;
}

static PyObject *
MoveGenerator_generate(MoveGenerator *self, PyObject *args)
{
    PyObject *board_object, *blanks_object;
    Py_buffer rack, given = {0};
    int other_rack, flags;
    Py_ssize_t top;
    PyObject *deadline_object = Py_None;
    if (!PyArg_ParseTuple(args, "OOy*ini|Oy*:generate", &board_object, &blanks_object, &rack, &other_rack, &top, &flags,
                          &deadline_object, &given))
        return NULL;
    const LxGameTables *tables = self->tables;
    const Py_ssize_t squares = (Py_ssize_t)tables->size * tables->size;
    PyObject *result = NULL;
    unsigned char board[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE], blanks[LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE];
    LxMoveInput in = {.tables = tables,
                      .board = board,
                      .blanks = blanks,
                      .rack = rack.buf,
                      .opening = 1,
                      .top = top,
                      .by_equity = (flags & FLAG_BY_EQUITY) != 0,
                      .prune = (flags & FLAG_PRUNE) != 0,
                      .both_directions = (flags & FLAG_BOTH_DIRECTIONS) != 0};
    if (squares > LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE || square_bytes(board_object, board, squares) < 0
        || square_bytes(blanks_object, blanks, squares) < 0 || rack.len != tables->code_count
        || given.len % (Py_ssize_t)sizeof(double) || other_rack < -1) {
        PyErr_SetString(PyExc_ValueError, "MoveGenerator.generate: inconsistent arguments");
        goto done;
    }
    if (lx_deadline_parse(deadline_object, &in.deadline) < 0)
        goto done;
    Call call = {.board = board, .blanks = blanks, .rack = rack.buf};
    count_unseen(tables, &call, other_rack);
    double *own_values = NULL, *given_values = NULL;
    const int value_here = (flags & FLAG_VALUES) != 0;
    if (!value_here) { /* the caller's values (aligned: a bytes object's buffer need not be) */
        call.subsets = (long)(given.len / (Py_ssize_t)sizeof(double));
        given_values = malloc((size_t)(given.len ? given.len : 1));
        if (!given_values) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(given_values, given.buf, (size_t)given.len);
        call.values = given_values;
    }
    LxMoveOutput out = {0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run(self, &call, &in, &out, value_here, &own_values);
    Py_END_ALLOW_THREADS
    result = answer(status, &out, call.values, call.subsets, call.bag);
    if (status == LX_MOVEGEN_OK)
        free(out.records);
    free(own_values);
    free(given_values);
done:
    PyBuffer_Release(&rack);
    if (given.obj)
        PyBuffer_Release(&given);
    return result;
}

static int
MoveGenerator_init(MoveGenerator *self, PyObject *args, PyObject *kwargs)
{
    PyObject *tables_object;
    static char *names[] = {"tables", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:MoveGenerator", names, &tables_object))
        return -1;
    const LxGameTables *tables = lx_game_tables_of(tables_object);
    if (!tables)
        return -1;
    if (self->tables) {
        PyErr_SetString(PyExc_TypeError, "MoveGenerator: made once");
        return -1;
    }
    self->state = malloc(sizeof(LxBoardState));
    self->lock = PyThread_allocate_lock();
    if (!self->state || !self->lock) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(tables_object);
    self->tables_object = tables_object;
    self->tables = tables;
    return 0;
}

static void
MoveGenerator_dealloc(MoveGenerator *self)
{
    Py_XDECREF(self->tables_object);
    free(self->state);
    if (self->lock)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
MoveGenerator_tables(MoveGenerator *self, void *closure)
{
    (void)closure;
    if (!self->tables_object)
        Py_RETURN_NONE;
    Py_INCREF(self->tables_object);
    return self->tables_object;
}

static PyMethodDef MoveGenerator_methods[] = {
    {"generate", (PyCFunction)MoveGenerator_generate, METH_VARARGS,
     "generate(board, blanks, rack, other_rack, top, flags, deadline=None, values=b'') -> (records, count, values, "
     "bag)\n\nPlays for a rack on a board, valued and kept as generate_moves does (see generator.c)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef MoveGenerator_getset[] = {
    {"tables", (getter)MoveGenerator_tables, NULL, "the GameTables it generates with", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *
MoveGenerator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)args;
    (void)kwargs;
    MoveGenerator *self = (MoveGenerator *)type->tp_alloc(type, 0);
    return (PyObject *)self; /* every field 0: tp_alloc clears the object */
}

static PyTypeObject MoveGeneratorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = LX_MODULE_NAME ".MoveGenerator",
    .tp_doc = "MoveGenerator(tables): a move generator's state kept across calls for one game's tables (see "
              "generator.c).",
    .tp_basicsize = sizeof(MoveGenerator),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = MoveGenerator_new,
    .tp_init = (initproc)MoveGenerator_init,
    .tp_dealloc = (destructor)MoveGenerator_dealloc,
    .tp_methods = MoveGenerator_methods,
    .tp_getset = MoveGenerator_getset,
};

int
lx_add_generator(PyObject *module)
{
    return lx_add_type(module, &MoveGeneratorType, "MoveGenerator");
}
