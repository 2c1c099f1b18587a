/* movegen.h: the move generator as C code calls it (movegen.c): generate_moves, the game loop (game_loop.c) and the
 * endgame (endgame.c).
 *
 * lx_movegen_run reads a position (a board, a rack) over a game's tables (game_tables.h) and touches no Python
 * object, so a caller may run it without the GIL. On LX_MOVEGEN_OK, out->records (malloc'ed, the caller frees
 * it; NULL when no play was kept) holds out->kept records of LX_MOVE_RECORD_SIZE bytes, and out->count the plays
 * found (-1 when pruned).
 */
#ifndef LEXIGRAPH_MOVEGEN_H
#define LEXIGRAPH_MOVEGEN_H

#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board_state.h"
#include "deadline.h"
#include "game_tables.h"

#define LX_MOVEGEN_OK 0
#define LX_MOVEGEN_GRAPH 1     /* the word graph points outside itself */
#define LX_MOVEGEN_MEMORY 2    /* out of memory */
#define LX_MOVEGEN_DEADLINE 3  /* past the deadline */
#define LX_MOVEGEN_BAD_TABLE 4 /* the leave values do not fit the rack */
#define LX_MOVEGEN_BAD_BOARD 5 /* a board tile is outside the alphabet */

typedef struct {
    const LxGameTables *tables;
    const unsigned char *board, *blanks; /* a byte per square: the tile code (0 empty); 1 for a blank */
    const unsigned char *rack;           /* a count per tile code (index 0: blanks) */
    const double *leave_values;          /* one per subset of the rack (mixed radix), or NULL */
    size_t leave_value_count;
    int opening;         /* value vowels on an empty board by the tables' opening penalties */
    Py_ssize_t top;      /* keep the best `top` plays (-1: every play) */
    int by_equity;       /* rank by equity, else by score */
    int prune;           /* skip the anchors whose shadow bound cannot make the best `top` */
    int both_directions; /* on an empty board of a symmetric layout, the down plays too (else across only) */
    LxDeadline deadline;
    const LxBoardState *board_state; /* the board's state kept by the caller (board_state.h), or NULL: set up here */
} LxMoveInput;

typedef struct {
    unsigned char *records;
    size_t kept;
    Py_ssize_t count;
} LxMoveOutput;

int lx_movegen_run(const LxMoveInput *in, LxMoveOutput *out);

/* Which path a pruned ranking with the word map takes (set by _native.word_map_path, for benchmarks and tests that
 * compare the two paths; read atomically, any thread): LX_WORD_MAP_PATH_CHOSEN (the default) per rack as measured,
 * LX_WORD_MAP_PATH_ALWAYS the word map whenever it can answer, LX_WORD_MAP_PATH_NEVER the graph walk (the map still
 * in its bounds). Every setting gives the same records. */
#define LX_WORD_MAP_PATH_CHOSEN 0
#define LX_WORD_MAP_PATH_ALWAYS 1
#define LX_WORD_MAP_PATH_NEVER 2
extern int lx_movegen_word_map_path;

#endif
