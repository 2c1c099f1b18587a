/*
 * board_state.h: a board's state as the move generator reads it (native/movegen.c), kept from turn to turn by the
 * game loop (game_loop.c: self-play and the simulation's play-outs) instead of set up again for every turn.
 *
 * Per orientation (0: down, 1: across, as a move record's across byte) and per square in line coordinates
 * (line * size + position: the rows for across plays, the columns for down plays): the tile codes, their points
 * (a blank nothing), the multipliers, and for an empty square the cross-set (the codes that make a word with the
 * tiles across the line from it, for every code of the alphabet: the masks no longer depend on a rack), the cross
 * sum (those tiles' points), whether a cross-word is there, and whether the square is an anchor (a tile beside it
 * in its line, a cross-word, or the start square of an empty board). An occupied square holds every code, 0, 0, 0.
 *
 * lx_board_state_set sets it up from scratch; lx_board_state_place, after tiles are put down, recomputes only the
 * squares they can change: each new square, its two neighbours in each line through it, and the empty squares at
 * both ends of the runs of tiles through it across each line (a cross-set, a cross sum or an anchor flag depends on
 * nothing else). Tests hold the two to each other and to a brute-force oracle after every play of seeded games
 * (the debug entries board_state and board_state_after of lexigraph._native).
 */
#ifndef LEXIGRAPH_BOARD_STATE_H
#define LEXIGRAPH_BOARD_STATE_H

#include <stdint.h>

#include "game_tables.h"

typedef struct LxBoardState {
    int size, board_empty;
    uint8_t line_tiles[2][LX_MAX_SQUARES];
    int line_points[2][LX_MAX_SQUARES];
    uint8_t letter_multipliers[2][LX_MAX_SQUARES];
    uint8_t word_multipliers[2][LX_MAX_SQUARES];
    uint64_t cross_checks[2][LX_MAX_SQUARES];
    int cross_scores[2][LX_MAX_SQUARES];
    uint8_t has_cross_word[2][LX_MAX_SQUARES];
    uint8_t is_anchor[2][LX_MAX_SQUARES];
} LxBoardState;

/* The state of `board` and `blanks` (a byte per square, row * size + column) from scratch: 0, or an LX_MOVEGEN_*
 * status (a tile outside the alphabet, a graph that points outside itself). */
int lx_board_state_set(LxBoardState *state, const LxGameTables *tables, const unsigned char *board,
                       const unsigned char *blanks);

/* Tiles put on `count` empty squares (row * size + column; tiles[i] a code, | LX_BLANK_FLAG for a blank): the
 * state brought up to date by recomputing only what they change; 0 or an LX_MOVEGEN_* status. */
int lx_board_state_place(LxBoardState *state, const LxGameTables *tables, const int *squares,
                         const unsigned char *tiles, int count);

/* `from` copied into `to`, the squares its board has only. */
void lx_board_state_copy(LxBoardState *to, const LxBoardState *from);

#endif
