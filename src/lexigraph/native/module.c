/*
 * module.c: lexigraph._native, the one C extension module of lexigraph: PyInit__native.
 *
 * The module gathers the C hot loops, each with a pure-Python twin that answers when the module
 * is not built or LEXIGRAPH_PURE_PYTHON is set (lexigraph.buildinfo.c_module loads it):
 *   probe.c, encode.c, batch.c    the Probe: exact lookups, words encoded in C, check_many
 *   walks.c, alphagram.c,         word graph walks, exact anagrams, rotation orders,
 *   rotation.c, pattern.c         plain patterns: the Probe's one-call answers
 *   facade.c                      the Facade, base of lexigraph.Lexicon (`in` without a Python frame)
 *   deadline.c / deadline.h       the deadlines walks stop at, on time.monotonic's clock
 *   build_scan.c, build_graph.c,  the builder: plain lists read, the word graph, hash tables,
 *   build_tables.c                alphagram orders, bucket rows
 *   kwg_build.c                   wolges's KWG word graph, built and laid out (export --format kwg)
 *   game_tables.c                 a game's tables (board, tiles, leave table, word graph) checked once
 *   movegen.c                     move generation for board games
 *   board_state.c                 the board's state for the generator, kept from turn to turn by the game loop
 *   generator.c                   the MoveGenerator type: a generator's state kept across calls from Python
 *   game_loop.c, selfplay.c,      the game loop (the bag, draws, a player's turn), self-play's whole games,
 *   playouts.c, endgame.c         the simulation's play-outs, the exact endgame
 *   leaves.c                      leave tables: every subset of a rack valued at once
 *   fill.c, fill_state.c          crossword autofill: starting candidates, propagation (FillState)
 *   hash.c / hash.h               the one CRC-32 and hash slot formula the probe and builder share
 * Why one module: one import, one thing to build and report, and code shared between concerns
 * (the hash, the limits, the arc layout) compiled once instead of copied per module.
 *
 * This file only registers: each file adds its types and functions through its lx_add_* hook
 * (module.h). The constants live here: ARC_LAYOUT (arc.h) and LIMITS (limits.h), which tests
 * hold to their Python twins.
 */
#include "module.h"

#include "arc.h"
#include "hash.h"
#include "limits.h"

/* LIMITS: every limit of limits.h by name, so that tests can hold each to its Python twin. */
static int
add_limits(PyObject *module)
{
    PyObject *limits = PyDict_New();
    if (limits == NULL)
        return -1;
#define LX_ADD_LIMIT(name)                                                                                             \
    do {                                                                                                               \
        PyObject *value = PyLong_FromUnsignedLongLong((unsigned long long)(LX_##name));                                \
        if (value == NULL || PyDict_SetItemString(limits, #name, value) < 0) {                                         \
            Py_XDECREF(value);                                                                                         \
            Py_DECREF(limits);                                                                                         \
            return -1;                                                                                                 \
        }                                                                                                              \
        Py_DECREF(value);                                                                                              \
    } while (0);
    LX_LIMITS(LX_ADD_LIMIT)
#undef LX_ADD_LIMIT
    int status = PyModule_AddObjectRef(module, "LIMITS", limits);
    Py_DECREF(limits);
    return status;
}

/* ARC_LAYOUT: (tile mask, accepts bit, last bit, target shift, record size), held to
 * lexigraph.engine.wordgraph by the tests. */
static int
add_arc_layout(PyObject *module)
{
    PyObject *layout = Py_BuildValue("(IIIii)", (unsigned)LX_TILE_MASK, (unsigned)LX_ACCEPTS_BIT, (unsigned)LX_LAST_BIT,
                                     LX_TARGET_SHIFT, LX_RECORD_SIZE);
    if (layout == NULL)
        return -1;
    int status = PyModule_AddObjectRef(module, "ARC_LAYOUT", layout);
    Py_DECREF(layout);
    return status;
}

/* Functions and types come from the hooks, not from a method table here. m_size -1: the files keep
 * their state in static variables (the CRC tables, the fill's scratch buffer), one per process. */
static struct PyModuleDef native_module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = LX_MODULE_NAME,
    .m_doc = "lexigraph's C hot loops: lookups, graph walks, anagrams, patterns, building, move generation and "
             "autofill. Every path has a pure-Python twin; lexigraph works without this module.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    lx_crc_init();
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL)
        return NULL;
    if (lx_add_hash(module) < 0 || lx_add_probe(module) < 0 || lx_add_facade(module) < 0 || lx_add_walks(module) < 0
        || lx_add_deadline(module) < 0 || lx_add_build_scan(module) < 0 || lx_add_build_graph(module) < 0
        || lx_add_build_tables(module) < 0 || lx_add_movegen(module) < 0 || lx_add_leaves(module) < 0
        || lx_add_fill(module) < 0 || lx_add_fill_state(module) < 0 || lx_add_game_tables(module) < 0
        || lx_add_selfplay(module) < 0 || lx_add_playouts(module) < 0 || lx_add_endgame(module) < 0
        || lx_add_kwg_build(module) < 0 || lx_add_wordmap(module) < 0 || lx_add_board_state(module) < 0
        || lx_add_generator(module) < 0 || lx_add_ranking(module) < 0 || add_arc_layout(module) < 0
        || add_limits(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
