/*
 * module.h: how the C files of lexigraph._native join one module.
 *
 * Each C file that gives Python something (a type, functions) has one hook,
 * lx_add_<file>(module), that readies its types and adds them and its
 * functions to the module; module.c's PyInit__native calls every hook in
 * turn. A hook returns 0, or -1 with an exception set. Why hooks: a file
 * keeps its method tables and type objects static, and module.c needs to
 * know no more of it than this one line.
 */
#ifndef LEXIGRAPH_MODULE_H
#define LEXIGRAPH_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The module's import name; types are named LX_MODULE_NAME ".Probe" and so on. */
#define LX_MODULE_NAME "lexigraph._native"

int lx_add_hash(PyObject *module);         /* hash.c: home_slot() */
int lx_add_probe(PyObject *module);        /* probe.c: the Probe type (its methods live in several files) */
int lx_add_facade(PyObject *module);       /* facade.c: the Facade type, base of lexigraph.Lexicon */
int lx_add_walks(PyObject *module);        /* walks.c: walk_codes() */
int lx_add_deadline(PyObject *module);     /* deadline.c: monotonic(), WALK_ANSWERS */
int lx_add_build_graph(PyObject *module);  /* build_graph.c: build_graph() */
int lx_add_build_tables(PyObject *module); /* build_tables.c: hash_table(), alphagram_order(), bucket_rows() */
int lx_add_build_scan(PyObject *module);   /* build_scan.c: scan_ascii() */
int lx_add_movegen(PyObject *module);      /* movegen.c: generate_moves() */
int lx_add_leaves(PyObject *module);       /* leaves.c: rack_leave_values() */
int lx_add_fill(PyObject *module);         /* fill.c: filter_rows() */
int lx_add_fill_state(PyObject *module);   /* fill_state.c: the FillState type */
int lx_add_game_tables(PyObject *module);  /* game_tables.c: the GameTables type */
int lx_add_selfplay(PyObject *module);     /* selfplay.c: play_games() */
int lx_add_playouts(PyObject *module);     /* playouts.c: simulate_plays() */
int lx_add_endgame(PyObject *module);      /* endgame.c: solve_endgame() */
int lx_add_kwg_build(PyObject *module);    /* kwg_build.c: kwg_layout() */
int lx_add_wordmap(PyObject *module);      /* wordmap.c: the WordMap type; wordmap_build.c: word_map_tables() */
int lx_add_board_state(PyObject *module);  /* board_state.c: board_state(), board_state_after() (debug) */
int lx_add_generator(PyObject *module);    /* generator.c: the MoveGenerator type */
int lx_add_ranking(PyObject *module);      /* ranking.c: rank_extras() */

/* Ready `type` and add it to `module` under its short name; 0 or -1. */
static inline int
lx_add_type(PyObject *module, PyTypeObject *type, const char *name)
{
    if (PyType_Ready(type) < 0)
        return -1;
    return PyModule_AddObjectRef(module, name, (PyObject *)type);
}

#endif
