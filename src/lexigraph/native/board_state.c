/*
 * board_state.c: the board's state the move generator reads, set up from scratch or brought up to date after a
 * play (board_state.h says what it holds and which squares a play can change).
 *
 * board_state(tables, board, blanks) -> state
 * board_state_after(tables, board, blanks, plays) -> [state, ...]
 *   Debug entries for the tests: the state from scratch, and the state after each play of `plays` (each a pair:
 *   the squares, row * size + column, and a bytes object of their tiles, | 0x80 for a blank), kept incrementally
 *   from the board's. A state is a tuple (board_empty, tiles, points, letter multipliers, word multipliers,
 *   cross-sets, cross sums, cross-word flags, anchor flags), each a bytes object of 2 * size * size entries
 *   (orientation 0, down, then 1, across; in line coordinates): uint8, int32, uint8, uint8, uint64, int32, uint8,
 *   uint8, in the machine's byte order.
 *
 * Why kept: a self-play turn set the whole board up again (each empty square's runs walked, each cross-word's
 * set found in the word graph) where a play changes a few squares; the cross-sets hold every code of the
 * alphabet so that they serve any rack. It touches no Python object but in the debug entries.
 */
#include "module.h"

#include <stdlib.h>
#include <string.h>

#include "arc.h"
#include "bits.h"
#include "board_state.h"
#include "limits.h"
#include "movegen.h"

#define DOWN 0
#define ACROSS 1

/* The arc of `tile` in the list at `node`: 1 and *arc when there, 0 when not, -1 when the graph points outside
 * itself (tiles rise strictly along a list: the arc is the list's popcount(tiles below) th, as movegen.c finds). */
static int
follow_tile(const LxGameTables *tables, uint32_t node, unsigned tile, uint64_t *arc)
{
    if (!node || tile >= 64)
        return 0;
    if (node >= tables->arc_count)
        return -1;
    uint64_t list_tiles;
    memcpy(&list_tiles, tables->tile_masks + 8 * (size_t)node, 8);
    if (!((list_tiles >> tile) & 1u))
        return 0;
    size_t index = (size_t)node + (size_t)bit_count(list_tiles & (((uint64_t)1 << tile) - 1));
    if (index >= tables->arc_count)
        return -1;
    *arc = lx_arc_at(tables->arcs, index);
    return LX_TILE(*arc) == tile ? 1 : -1;
}

/* Whether `arc` (a tile on the square at `row`) ends a word with the tiles of rows row + 1 .. below_end of the
 * line position `column`: 1, 0, or -1 for a graph error. */
static int
completes_cross_word(const LxGameTables *tables, const uint8_t *tiles, int size, uint64_t arc, int column, int row,
                     int below_end)
{
    if (below_end == row)
        return (int)LX_ACCEPTS(arc);
    uint32_t node = (uint32_t)LX_TARGET(arc);
    int accepts = 0;
    for (int k = row + 1; k <= below_end; k++) {
        uint64_t next;
        int found = follow_tile(tables, node, tiles[k * size + column], &next);
        if (found <= 0)
            return found;
        accepts = (int)LX_ACCEPTS(next);
        node = (uint32_t)LX_TARGET(next);
    }
    return accepts;
}

/* The codes that make a word on the empty square (row, column) between the tiles from above_start to below_end;
 * *error set on a graph error. */
static uint64_t
cross_set(const LxGameTables *tables, const uint8_t *tiles, int size, int column, int row, int above_start,
          int below_end, int *error)
{
    uint32_t node = tables->root;
    for (int k = above_start; k < row; k++) {
        uint64_t arc;
        int found = follow_tile(tables, node, tiles[k * size + column], &arc);
        if (found <= 0) {
            *error = found < 0;
            return 0;
        }
        node = (uint32_t)LX_TARGET(arc);
    }
    if (!node)
        return 0;
    uint64_t allowed = 0;
    for (size_t index = node;; index++) {
        if (index >= tables->arc_count) {
            *error = 1;
            return 0;
        }
        uint64_t arc = lx_arc_at(tables->arcs, index);
        unsigned tile = LX_TILE(arc);
        if (tile >= 1 && (int)tile < tables->code_count) {
            int completes = completes_cross_word(tables, tiles, size, arc, column, row, below_end);
            if (completes < 0) {
                *error = 1;
                return 0;
            }
            if (completes)
                allowed |= (uint64_t)1 << tile;
        }
        if (LX_IS_LAST(arc))
            break;
    }
    return allowed;
}

static uint64_t
every_code(const LxGameTables *tables)
{
    uint64_t every = 0;
    for (int code = 1; code < tables->code_count; code++)
        every |= (uint64_t)1 << code;
    return every;
}

/* The start square in orientation o's line coordinates. */
static int
start_of(const LxGameTables *tables, int orientation)
{
    const int size = tables->size, start = tables->start_square;
    return orientation == ACROSS ? start : (start % size) * size + start / size;
}

/* One square of orientation o (line coordinates) from the tiles around it; 0, or -1 for a graph error. */
static int
update_square(LxBoardState *state, const LxGameTables *tables, int orientation, int square, uint64_t every)
{
    const int size = state->size;
    const uint8_t *tiles = state->line_tiles[orientation];
    state->cross_checks[orientation][square] = every;
    state->cross_scores[orientation][square] = 0;
    state->has_cross_word[orientation][square] = 0;
    state->is_anchor[orientation][square] = 0;
    if (tiles[square])
        return 0;
    const int row = square / size, column = square % size;
    int above = row, below = row;
    while (above > 0 && tiles[(above - 1) * size + column])
        above--;
    while (below + 1 < size && tiles[(below + 1) * size + column])
        below++;
    if ((column > 0 && tiles[square - 1]) || (column + 1 < size && tiles[square + 1]))
        state->is_anchor[orientation][square] = 1;
    if (state->board_empty && square == start_of(tables, orientation))
        state->is_anchor[orientation][square] = 1;
    if (above == row && below == row)
        return 0;
    state->has_cross_word[orientation][square] = 1;
    state->is_anchor[orientation][square] = 1;
    int cross_score = 0;
    for (int k = above; k <= below; k++)
        if (k != row)
            cross_score += state->line_points[orientation][k * size + column];
    state->cross_scores[orientation][square] = cross_score;
    if (tables->root >= tables->arc_count)
        return 0; /* no graph: the generator finds no play, the sets are never read */
    int error = 0;
    state->cross_checks[orientation][square] = cross_set(tables, tiles, size, column, row, above, below, &error);
    return error ? -1 : 0;
}

/* The tile `placed` (a code, | LX_BLANK_FLAG for a blank) on board square `square` in both orientations. */
static void
put_tile(LxBoardState *state, const LxGameTables *tables, int square, unsigned char placed)
{
    const int size = state->size, row = square / size, column = square % size;
    const unsigned char code = placed & (unsigned char)~LX_BLANK_FLAG;
    const int points = (placed & LX_BLANK_FLAG) ? 0 : tables->points[code];
    const int at[2] = {column * size + row, row * size + column};
    for (int o = DOWN; o <= ACROSS; o++) {
        state->line_tiles[o][at[o]] = code;
        state->line_points[o][at[o]] = code ? points : 0;
    }
}

int
lx_board_state_set(LxBoardState *state, const LxGameTables *tables, const unsigned char *board,
                   const unsigned char *blanks)
{
    const int size = tables->size;
    state->size = size;
    state->board_empty = 1;
    for (int square = 0; square < size * size; square++) {
        if (board[square] >= tables->code_count)
            return LX_MOVEGEN_BAD_BOARD;
        if (board[square])
            state->board_empty = 0;
    }
    for (int row = 0; row < size; row++)
        for (int column = 0; column < size; column++) {
            const int square = row * size + column, at[2] = {column * size + row, square};
            for (int o = DOWN; o <= ACROSS; o++) {
                state->letter_multipliers[o][at[o]] = tables->letter_multipliers[square];
                state->word_multipliers[o][at[o]] = tables->word_multipliers[square];
            }
            put_tile(state, tables, square, (unsigned char)(board[square] | (blanks[square] ? LX_BLANK_FLAG : 0)));
        }
    const uint64_t every = every_code(tables);
    for (int o = DOWN; o <= ACROSS; o++)
        for (int square = 0; square < size * size; square++)
            if (update_square(state, tables, o, square, every) < 0)
                return LX_MOVEGEN_GRAPH;
    return LX_MOVEGEN_OK;
}

/* Square `square` of orientation o once in `list` (count so far in *count). */
static void
add_once(int *list, int *count, int square)
{
    for (int i = 0; i < *count; i++)
        if (list[i] == square)
            return;
    list[(*count)++] = square;
}

/* What a tile put on `square` (orientation o's line coordinates) changes there: its empty neighbours in the line
 * become anchors, and the empty squares at both ends of the run of tiles through it across the lines get their
 * cross-words again (listed once in `ends`: the tiles of one play in one line share theirs). A neighbour's own
 * cross-word runs across the line through its position: a new tile there either joins it through tiles, and then
 * the neighbour ends that tile's run and is listed, or is cut off from it by an empty square and changes nothing. */
static void
note_changes(LxBoardState *state, int orientation, int square, int *ends, int *end_count)
{
    const int size = state->size, line = square / size, position = square % size;
    const uint8_t *tiles = state->line_tiles[orientation];
    if (position > 0 && !tiles[square - 1])
        state->is_anchor[orientation][square - 1] = 1;
    if (position + 1 < size && !tiles[square + 1])
        state->is_anchor[orientation][square + 1] = 1;
    int k = line - 1;
    while (k >= 0 && tiles[k * size + position])
        k--;
    if (k >= 0)
        add_once(ends, end_count, k * size + position);
    k = line + 1;
    while (k < size && tiles[k * size + position])
        k++;
    if (k < size)
        add_once(ends, end_count, k * size + position);
}

/* Orientation o after `count` tiles were put on `squares` (board coordinates): each new square and the squares
 * note_changes lists; 0, or -1 for a graph error. */
static int
update_orientation(LxBoardState *state, const LxGameTables *tables, int orientation, const int *squares, int count,
                   uint64_t every)
{
    const int size = state->size;
    int ends[2 * LX_MAX_BOARD_SIZE], end_count = 0;
    for (int i = 0; i < count; i++) {
        const int row = squares[i] / size, column = squares[i] % size;
        const int square = orientation == ACROSS ? squares[i] : column * size + row;
        if (update_square(state, tables, orientation, square, every) < 0)
            return -1;
        note_changes(state, orientation, square, ends, &end_count);
    }
    for (int i = 0; i < end_count; i++)
        if (update_square(state, tables, orientation, ends[i], every) < 0)
            return -1;
    return 0;
}

int
lx_board_state_place(LxBoardState *state, const LxGameTables *tables, const int *squares, const unsigned char *tiles,
                     int count)
{
    const int size = state->size;
    if (count > LX_MAX_BOARD_SIZE)
        return LX_MOVEGEN_BAD_BOARD;
    for (int i = 0; i < count; i++) {
        const unsigned char code = tiles[i] & (unsigned char)~LX_BLANK_FLAG;
        if (squares[i] < 0 || squares[i] >= size * size || code < 1 || code >= tables->code_count
            || state->line_tiles[ACROSS][squares[i]])
            return LX_MOVEGEN_BAD_BOARD;
        put_tile(state, tables, squares[i], tiles[i]);
    }
    if (!count)
        return LX_MOVEGEN_OK;
    const int was_empty = state->board_empty;
    state->board_empty = 0;
    const uint64_t every = every_code(tables);
    for (int o = DOWN; o <= ACROSS; o++) {
        /* the start square is an anchor no more, unless a tile is beside it */
        if (was_empty && update_square(state, tables, o, start_of(tables, o), every) < 0)
            return LX_MOVEGEN_GRAPH;
        if (update_orientation(state, tables, o, squares, count, every) < 0)
            return LX_MOVEGEN_GRAPH;
    }
    return LX_MOVEGEN_OK;
}

void
lx_board_state_copy(LxBoardState *to, const LxBoardState *from)
{
    const size_t squares = (size_t)from->size * (size_t)from->size;
    to->size = from->size;
    to->board_empty = from->board_empty;
    for (int o = DOWN; o <= ACROSS; o++) {
        memcpy(to->line_tiles[o], from->line_tiles[o], squares);
        memcpy(to->line_points[o], from->line_points[o], squares * sizeof(int));
        memcpy(to->letter_multipliers[o], from->letter_multipliers[o], squares);
        memcpy(to->word_multipliers[o], from->word_multipliers[o], squares);
        memcpy(to->cross_checks[o], from->cross_checks[o], squares * sizeof(uint64_t));
        memcpy(to->cross_scores[o], from->cross_scores[o], squares * sizeof(int));
        memcpy(to->has_cross_word[o], from->has_cross_word[o], squares);
        memcpy(to->is_anchor[o], from->is_anchor[o], squares);
    }
}

/* -- the debug entries -------------------------------------------------------------------------------------- */

/* Both orientations' first size * size entries of an array of `item` bytes per entry, as one bytes object. */
static PyObject *
both_orientations(const void *array, size_t row_bytes, size_t used_bytes)
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(2 * used_bytes));
    if (!bytes)
        return NULL;
    char *at = PyBytes_AS_STRING(bytes);
    memcpy(at, array, used_bytes);
    memcpy(at + used_bytes, (const char *)array + row_bytes, used_bytes);
    return bytes;
}

static PyObject *
state_tuple(const LxBoardState *state)
{
    const size_t n = (size_t)state->size * (size_t)state->size, sq = LX_MAX_SQUARES;
    return Py_BuildValue("(iNNNNNNNN)", state->board_empty, both_orientations(state->line_tiles, sq, n),
                         both_orientations(state->line_points, sq * sizeof(int), n * sizeof(int)),
                         both_orientations(state->letter_multipliers, sq, n),
                         both_orientations(state->word_multipliers, sq, n),
                         both_orientations(state->cross_checks, sq * sizeof(uint64_t), n * sizeof(uint64_t)),
                         both_orientations(state->cross_scores, sq * sizeof(int), n * sizeof(int)),
                         both_orientations(state->has_cross_word, sq, n), both_orientations(state->is_anchor, sq, n));
}

static PyObject *
state_error(int status)
{
    if (status == LX_MOVEGEN_GRAPH)
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
    else
        PyErr_SetString(PyExc_ValueError, "board_state: a tile outside the alphabet or on a taken square");
    return NULL;
}

/* The tables, and a state set up from the board's bytes (malloc'ed: the caller frees it); NULL with an error. */
static LxBoardState *
parse_state(PyObject *tables_object, Py_buffer *board, Py_buffer *blanks, const LxGameTables **tables)
{
    if ((*tables = lx_game_tables_of(tables_object)) == NULL)
        return NULL;
    const Py_ssize_t squares = (Py_ssize_t)(*tables)->size * (*tables)->size;
    if (board->len != squares || blanks->len != squares) {
        PyErr_SetString(PyExc_ValueError, "board_state: the board is not the game's size");
        return NULL;
    }
    LxBoardState *state = malloc(sizeof *state);
    if (!state)
        return (LxBoardState *)PyErr_NoMemory();
    int status = lx_board_state_set(state, *tables, board->buf, blanks->buf);
    if (status) {
        free(state);
        return (LxBoardState *)state_error(status);
    }
    return state;
}

static PyObject *
board_state(PyObject *module, PyObject *args)
{
    PyObject *tables_object;
    Py_buffer board, blanks;
    const LxGameTables *tables;
    if (!PyArg_ParseTuple(args, "Oy*y*:board_state", &tables_object, &board, &blanks))
        return NULL;
    LxBoardState *state = parse_state(tables_object, &board, &blanks, &tables);
    PyObject *result = state ? state_tuple(state) : NULL;
    free(state);
    PyBuffer_Release(&board);
    PyBuffer_Release(&blanks);
    return result;
}

/* One play of board_state_after's list put on `state`: 0, or -1 with an error. */
static int
place_play(LxBoardState *state, const LxGameTables *tables, PyObject *play)
{
    PyObject *squares_object;
    const char *tiles;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(play, "Oy#:board_state_after", &squares_object, &tiles, &count))
        return -1;
    PyObject *squares_list = PySequence_Fast(squares_object, "board_state_after: squares must be a sequence");
    if (!squares_list)
        return -1;
    int squares[LX_MAX_BOARD_SIZE];
    int status = -1;
    if (PySequence_Fast_GET_SIZE(squares_list) != count || count > LX_MAX_BOARD_SIZE) {
        PyErr_SetString(PyExc_ValueError, "board_state_after: a play's squares and tiles do not match");
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long square = PyLong_AsLong(PySequence_Fast_GET_ITEM(squares_list, i));
        if (square == -1 && PyErr_Occurred())
            goto done;
        squares[i] = square < 0 || square > LX_MAX_SQUARES ? -1 : (int)square;
        for (Py_ssize_t j = 0; j < i; j++)
            if (squares[j] == squares[i])
                squares[i] = -1; /* the same square twice: refused */
    }
    int placed = lx_board_state_place(state, tables, squares, (const unsigned char *)tiles, (int)count);
    if (placed)
        state_error(placed);
    else
        status = 0;
done:
    Py_DECREF(squares_list);
    return status;
}

static PyObject *
board_state_after(PyObject *module, PyObject *args)
{
    PyObject *tables_object, *plays;
    Py_buffer board, blanks;
    const LxGameTables *tables;
    if (!PyArg_ParseTuple(args, "Oy*y*O:board_state_after", &tables_object, &board, &blanks, &plays))
        return NULL;
    PyObject *result = NULL, *sequence = PySequence_Fast(plays, "board_state_after: plays must be a sequence");
    LxBoardState *state = sequence ? parse_state(tables_object, &board, &blanks, &tables) : NULL;
    if (state && (result = PyList_New(0)) != NULL)
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(sequence); i++) {
            PyObject *after = NULL;
            if (place_play(state, tables, PySequence_Fast_GET_ITEM(sequence, i)) < 0
                || (after = state_tuple(state)) == NULL || PyList_Append(result, after) < 0) {
                Py_XDECREF(after);
                Py_CLEAR(result);
                break;
            }
            Py_DECREF(after);
        }
    free(state);
    Py_XDECREF(sequence);
    PyBuffer_Release(&board);
    PyBuffer_Release(&blanks);
    return result;
}

static PyMethodDef board_state_methods[] = {
    {"board_state", board_state, METH_VARARGS,
     "board_state(tables, board, blanks) -> state\n\nThe move generator's board state set up from scratch, for the "
     "tests (see board_state.c)."},
    {"board_state_after", board_state_after, METH_VARARGS,
     "board_state_after(tables, board, blanks, plays) -> [state, ...]\n\nThe state after each play, kept "
     "incrementally, for the tests (see board_state.c)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_board_state(PyObject *module)
{
    return PyModule_AddFunctions(module, board_state_methods);
}
