/*
 * game_tables.c: the GameTables type, a game's tables parsed and checked once for the C jobs (game_tables.h).
 *
 * GameTables(layout, tiles, leaves, graph)
 *   layout  (size, start_square, letter_multipliers, word_multipliers, opening_penalty): the board, a byte per
 *           square (row * size + column) for each multiplier; opening_penalty 2 * size * size float64s (the
 *           across plays' squares in line coordinates, then the down plays'), or empty for none
 *   tiles   (points, counts, vowels, rack_size, bingo_bonus): a byte per tile code (index 0: the blank) for the
 *           points and the bag's counts; vowels a byte per code (1: a vowel), or empty
 *   leaves  (keys, values): a leave table as leaves.c keys it (sorted uint64 keys, a float64 each), or empty
 *   graph   (arcs, tile_masks, root): the word graph's records, WordGraph.tile_masks and the root
 * (lexigraph.engine.interface's BoardLayout, TileSet and PackedLeaves; lexigraph.engine.compiled makes them).
 *
 * Every argument is checked here, once, with ValueError "GameTables: inconsistent arguments" for anything that
 * does not fit (the engine turns it into FileFormatError, as the jobs' own checks were); the small tables are
 * copied (the opening penalties into aligned doubles), and the buffers of the graph and the leave table are held
 * for the object's life. The object keeps its four arguments, read-only, as its attributes; its Python twin is
 * lexigraph.engine.python.tables.PythonGameTables.
 */
#include "game_tables.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    LxGameTables tables;
    PyObject *layout, *tiles, *leaves, *graph; /* the arguments, as given */
    PyObject *word_map;                        /* the _native.WordMap tables.word_map points into, or NULL */
    Py_buffer arcs, tile_masks, keys, values;  /* held: the tables point into them */
    int held;                                  /* how many of those four buffers are held */
    PyObject *weak_references;                 /* a cache may hold the tables weakly */
} GameTables;

static int
fail(const char *why)
{
    PyErr_Format(PyExc_ValueError, "GameTables: inconsistent arguments (%s)", why);
    return -1;
}

/* The board: its size and start square, the multipliers copied, the opening penalties as aligned doubles. */
static int
parse_layout(LxGameTables *t, PyObject *layout)
{
    const char *letter, *word, *opening;
    Py_ssize_t letter_length, word_length, opening_length;
    if (!PyArg_ParseTuple(layout, "iiy#y#y#", &t->size, &t->start_square, &letter, &letter_length, &word, &word_length,
                          &opening, &opening_length))
        return -1;
    Py_ssize_t squares = (Py_ssize_t)t->size * t->size;
    if (t->size < 1 || t->size > LX_MAX_BOARD_SIZE || t->start_square < 0 || t->start_square >= squares)
        return fail("the board's size or start square");
    if (letter_length != squares || word_length != squares)
        return fail("a multiplier per square");
    if (opening_length && opening_length != 2 * squares * (Py_ssize_t)sizeof(double))
        return fail("two opening penalties per square");
    memcpy(t->letter_multipliers, letter, (size_t)squares);
    memcpy(t->word_multipliers, word, (size_t)squares);
    t->has_opening_penalty = opening_length > 0;
    memcpy(t->opening_penalty, opening, (size_t)opening_length);
    int size = t->size;
    t->symmetric = t->start_square / size == t->start_square % size;
    for (int row = 0; row < size; row++)
        for (int column = 0; column < row; column++) {
            int here = row * size + column, there = column * size + row;
            if (t->letter_multipliers[here] != t->letter_multipliers[there]
                || t->word_multipliers[here] != t->word_multipliers[there])
                t->symmetric = 0;
        }
    if (opening_length && memcmp(opening, opening + opening_length / 2, (size_t)opening_length / 2) != 0)
        t->symmetric = 0; /* the penalties are in line coordinates: alike for transposed plays when the halves are */
    t->shadow_bounds_hold = 1;
    for (Py_ssize_t i = 0; i < squares; i++)
        if (t->letter_multipliers[i] > 4) /* the bounds pair letter multipliers 1-4 (every game's) */
            t->shadow_bounds_hold = 0;
    return 0;
}

/* The tiles: points, counts and vowels per code, the rack size and the bingo bonus. */
static int
parse_tiles(LxGameTables *t, PyObject *tiles)
{
    const char *points, *counts, *vowels;
    Py_ssize_t code_count, counts_length, vowels_length;
    if (!PyArg_ParseTuple(tiles, "y#y#y#ii", &points, &code_count, &counts, &counts_length, &vowels, &vowels_length,
                          &t->rack_size, &t->bingo_bonus))
        return -1;
    if (code_count < 2 || code_count > LX_MAX_MOVE_TILE_CODES)
        return fail("from 2 to " Py_STRINGIFY(LX_MAX_MOVE_TILE_CODES) " tile codes");
    if (counts_length != code_count || (vowels_length && vowels_length != code_count))
        return fail("a count and a vowel flag per tile code");
    if (t->rack_size < 1 || t->rack_size >= LX_MAX_RACK || t->bingo_bonus < 0)
        return fail("the rack size or the bingo bonus");
    t->code_count = (int)code_count;
    memcpy(t->points, points, (size_t)code_count);
    memcpy(t->counts, counts, (size_t)code_count);
    t->vowels = 0;
    t->bag_tiles = 0;
    for (int code = 0; code < t->code_count; code++) {
        if (vowels_length && vowels[code])
            t->vowels |= (uint64_t)1 << code;
        t->bag_tiles += t->counts[code];
    }
    return 0;
}

/* The leave table: its keys and values held, the same number of each. */
static int
parse_leaves(GameTables *self, PyObject *leaves)
{
    if (!PyArg_ParseTuple(leaves, "y*y*", &self->keys, &self->values))
        return -1;
    self->held += 2;
    if (self->keys.len % 8 || self->values.len != self->keys.len)
        return fail("a leave table's keys and values differ in length");
    self->tables.leave_keys = self->keys.buf;
    self->tables.leave_values = self->values.buf;
    self->tables.leave_count = (size_t)self->keys.len / 8;
    if (lx_leave_index_build(&self->tables.leave_index, self->tables.leave_keys, self->tables.leave_values,
                             self->tables.leave_count, self->tables.code_count)
        < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The word graph: its records and tile masks held (a mask per record), the root. */
static int
parse_graph(GameTables *self, PyObject *graph)
{
    unsigned int root;
    if (!PyArg_ParseTuple(graph, "y*y*I", &self->arcs, &self->tile_masks, &root))
        return -1;
    self->held += 2;
    if (self->arcs.len % 8 || self->tile_masks.len != self->arcs.len)
        return fail("a tile mask per arc");
    self->tables.arcs = self->arcs.buf;
    self->tables.arc_count = (size_t)self->arcs.len / 8;
    self->tables.tile_masks = self->tile_masks.buf;
    self->tables.root = root;
    return 0;
}

static int
GameTables_init(GameTables *self, PyObject *args, PyObject *kwds)
{
    PyObject *layout, *tiles, *leaves, *graph;
    if (self->layout != NULL || self->held) {
        PyErr_SetString(PyExc_TypeError, "GameTables: already made");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!O!O!O!:GameTables", &PyTuple_Type, &layout, &PyTuple_Type, &tiles, &PyTuple_Type,
                          &leaves, &PyTuple_Type, &graph))
        return -1;
    if (parse_layout(&self->tables, layout) < 0 || parse_tiles(&self->tables, tiles) < 0
        || parse_leaves(self, leaves) < 0 || parse_graph(self, graph) < 0)
        return -1;
    self->layout = Py_NewRef(layout);
    self->tiles = Py_NewRef(tiles);
    self->leaves = Py_NewRef(leaves);
    self->graph = Py_NewRef(graph);
    return 0;
}

static void
GameTables_dealloc(GameTables *self)
{
    if (self->weak_references != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    lx_leave_index_free(&self->tables.leave_index);
    Py_buffer *held[] = {&self->keys, &self->values, &self->arcs, &self->tile_masks};
    for (int i = 0; i < self->held; i++)
        PyBuffer_Release(held[i]);
    Py_XDECREF(self->layout);
    Py_XDECREF(self->tiles);
    Py_XDECREF(self->leaves);
    Py_XDECREF(self->graph);
    Py_XDECREF(self->word_map);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

const LxGameTables *
lx_game_tables_of(PyObject *object)
{
    if (!PyObject_TypeCheck(object, &lx_game_tables_type) || ((GameTables *)object)->layout == NULL) {
        PyErr_Format(PyExc_TypeError, "a request's tables must be a GameTables made by the engine, not %.100s",
                     Py_TYPE(object)->tp_name);
        return NULL;
    }
    return &((GameTables *)object)->tables;
}

/* use_word_map(word_map) -> bool: let move generation bound its plays with the lexicon's word map (a
 * lexigraph._native.WordMap over the same alphabet: its highest code the tiles' last). Once, before any job reads
 * the tables (they are shared, and read without the GIL): False when the map does not fit the tiles or a map is
 * already set. */
static PyObject *
GameTables_use_word_map(GameTables *self, PyObject *object)
{
    if (self->layout == NULL) {
        PyErr_SetString(PyExc_TypeError, "GameTables: not made");
        return NULL;
    }
    const LxWordMap *map = lx_wordmap_of(object);
    if (map == NULL)
        return NULL;
    if (self->word_map != NULL || map->highest_code != self->tables.code_count - 1)
        Py_RETURN_FALSE;
    self->word_map = Py_NewRef(object);
    self->tables.word_map = map;
    Py_RETURN_TRUE;
}

static PyMethodDef GameTables_methods[] = {
    {"use_word_map", (PyCFunction)GameTables_use_word_map, METH_O,
     "use_word_map(word_map) -> bool: bound move generation with the lexicon's word map (see game_tables.c)."},
    {NULL},
};

static PyMemberDef GameTables_members[] = {
    {"layout", T_OBJECT, offsetof(GameTables, layout), READONLY, "the board layout, as given"},
    {"tiles", T_OBJECT, offsetof(GameTables, tiles), READONLY, "the tile set, as given"},
    {"leaves", T_OBJECT, offsetof(GameTables, leaves), READONLY, "the leave table (keys, values), as given"},
    {"graph", T_OBJECT, offsetof(GameTables, graph), READONLY, "the word graph (arcs, tile_masks, root), as given"},
    {"word_map", T_OBJECT, offsetof(GameTables, word_map), READONLY, "the word map in use (use_word_map), or None"},
    {NULL},
};

PyTypeObject lx_game_tables_type = {
    .ob_base = {PyObject_HEAD_INIT(NULL) 0},
    .tp_name = LX_MODULE_NAME ".GameTables",
    .tp_doc = "GameTables(layout, tiles, leaves, graph): a game's tables checked once for the C jobs "
              "(see game_tables.c).",
    .tp_basicsize = sizeof(GameTables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)GameTables_init,
    .tp_dealloc = (destructor)GameTables_dealloc,
    .tp_members = GameTables_members,
    .tp_methods = GameTables_methods,
    .tp_weaklistoffset = offsetof(GameTables, weak_references),
};

int
lx_add_game_tables(PyObject *module)
{
    return lx_add_type(module, &lx_game_tables_type, "GameTables");
}
