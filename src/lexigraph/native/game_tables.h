/*
 * game_tables.h: a game's tables as the C jobs read them: the board layout, the tiles, a leave table and the
 * word graph, checked and parsed once per (game, lexicon, leave table) by the GameTables type (game_tables.c)
 * and shared by move generation (movegen.c), self-play (selfplay.c, game_loop.c), the simulation's play-outs
 * (playouts.c) and the endgame (endgame.c).
 *
 * Why one structure: every job needs the same dozen tables, and passing them as arguments made entry points of
 * 17 to 26 positional arguments, each checked again on every call. A GameTables object is made once (Python's
 * lexigraph.scrabble.tables keeps it per lexicon, game and leave table) and a request names it; the C struct
 * below holds no Python object, so the jobs read it without the GIL.
 *
 * What comes next hangs here: the tables are read-only once made, so threads may share them; a faster move
 * generator's reusable state (per lexicon, game and leave table: its scratch arrays, a leave lookup by rack)
 * and the per-thread states of self-play and simulation threads are to be made from an LxGameTables and owned
 * beside it, never written into it.
 */
#ifndef LEXIGRAPH_GAME_TABLES_H
#define LEXIGRAPH_GAME_TABLES_H

#include "module.h"

#include <stdint.h>
#include <string.h>

#include "leave_index.h"
#include "limits.h"
#include "wordmap.h"

/* Squares of the largest board. */
#define LX_MAX_SQUARES (LX_MAX_BOARD_SIZE * LX_MAX_BOARD_SIZE)
/* Most tiles a rack of the game loops holds (their turn records keep 16 tile codes). */
#define LX_MAX_RACK 16

typedef struct {
    /* the word graph (arc.h), checked by Python (WordGraph.check_structure, the engine's consistency check) */
    const unsigned char *arcs;
    size_t arc_count;
    const unsigned char *tile_masks; /* per arc index: the tiles of the list starting there (uint64 LE) */
    uint32_t root;
    /* the board: a byte per square (row * size + column) */
    int size;
    int start_square;
    unsigned char letter_multipliers[LX_MAX_SQUARES];
    unsigned char word_multipliers[LX_MAX_SQUARES];
    int has_opening_penalty;
    double opening_penalty[2 * LX_MAX_SQUARES]; /* per square in line coordinates: across plays', then down's */
    int shadow_bounds_hold;                     /* every letter multiplier is 1-4: the generator's bounds apply */
    /* the layout is its own transpose (multipliers, the start on the diagonal, the across and down opening
     * penalties alike): on an empty board every down play is an across play transposed, with the same value */
    int symmetric;
    /* the tiles, per code (the blank's 0 included) */
    int code_count;
    unsigned char points[LX_MAX_MOVE_TILE_CODES];
    unsigned char counts[LX_MAX_MOVE_TILE_CODES];
    uint64_t vowels; /* bit t for a vowel's code t */
    int bag_tiles;   /* the counts' sum */
    int rack_size;
    int bingo_bonus;
    /* the leave table (leaves.c's keys): sorted uint64 keys and a float64 value each, little-endian */
    const unsigned char *leave_keys;
    const unsigned char *leave_values;
    size_t leave_count;
    /* the same table by rank (leave_index.h), built with the tables; values NULL when too large to index */
    LxLeaveIndex leave_index;
    /* the lexicon's word map (wordmap.h), or NULL: set once after the tables are made (GameTables.use_word_map),
     * before any job reads them; the move generator's bounds drop the extents no word can fill */
    const LxWordMap *word_map;
} LxGameTables;

/* The GameTables type (game_tables.c). */
extern PyTypeObject lx_game_tables_type;

/* The tables a GameTables object holds; NULL with a TypeError set when `object` is not one. */
const LxGameTables *lx_game_tables_of(PyObject *object);

/* The leave table's value of `key` (a read of the rank index, else a binary search), or 0 when the table does not
 * list it. */
static inline double
lx_leave_value(const LxGameTables *tables, uint64_t key)
{
    const LxLeaveIndex *index = &tables->leave_index;
    if (index->values) {
        int length = (int)(key >> 60);
        if (length < 1 || length > index->longest)
            return 0.0;
        uint64_t rank = 0;
        for (int place = 1; place <= length; place++) {
            int code = (int)((key >> (6 * (place - 1))) & 63);
            if (code >= index->code_count)
                return 0.0;
            rank += index->rank_part[place][code];
        }
        return index->values[index->base[length] + rank];
    }
    size_t low = 0, high = tables->leave_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        uint64_t at;
        memcpy(&at, tables->leave_keys + 8 * middle, 8);
        if (at < key)
            low = middle + 1;
        else
            high = middle;
    }
    uint64_t found;
    if (low == tables->leave_count || (memcpy(&found, tables->leave_keys + 8 * low, 8), found != key))
        return 0.0;
    double value;
    memcpy(&value, tables->leave_values + 8 * low, 8);
    return value;
}

/* The leave table's value of the tiles `rack` keeps when `used` go (counts per code; `used` NULL: none go): one
 * read of the rank index, else the binary search; 0 when not listed. */
uint64_t lx_leave_key(const int *rack, const int *used, int code_count);

static inline double
lx_leave_value_kept(const LxGameTables *tables, const int *rack, const int *used)
{
    if (tables->leave_index.values)
        return lx_leave_index_value(&tables->leave_index, rack, used);
    return lx_leave_value(tables, lx_leave_key(rack, used, tables->code_count));
}

#endif
