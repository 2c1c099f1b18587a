/*
 * game_loop.h: the game loop self-play (selfplay.c) and the simulation's play-outs (playouts.c) share: the seeded
 * random numbers, the bag and the draws, a player's turn by its rule, the racks' points at the end.
 *
 * Determinism. A game's random numbers come from xoshiro256** (Blackman and Vigna) seeded by splitmix64 from
 * seed + (pair + 1) * 0x9E3779B97F4A7C15 (lx_random_seed); a bag is shuffled by Fisher-Yates from its end with
 * uniform numbers below k by rejection (next % k, redrawn when next < 2^64 mod k); tiles are drawn from the bag's
 * end; an exchange draws first, then puts each exchanged tile back (codes ascending) at the end and swaps it with
 * a uniform position. The Python twin (lexigraph.engine.python.game_loop) restates each rule and draws the same
 * numbers.
 *
 * A turn (lx_take_turn): the equity player plays its best play by equity (score + the value of the tiles kept in
 * its leave table, as leaves.c keys them, + the end-of-game and opening adjustments of
 * lexigraph.scrabble.equity), or the exchange that keeps the best leave when that is worth more (exchanges only
 * while the bag holds a rack's worth), else passes; the score player plays its highest-scoring play and exchanges
 * its whole rack only when it has no play.
 *
 * The end: a player who plays out with the bag empty gains twice the points left on the other's rack; after six
 * consecutive turns without a play (passes and exchanges), each player loses the points on its own rack.
 */
#ifndef LEXIGRAPH_GAME_LOOP_H
#define LEXIGRAPH_GAME_LOOP_H

#include <stdint.h>

#include "board_state.h"
#include "game_tables.h"

/* Bytes of a turn record (lexigraph.engine.interface.turn_record_dtype). */
#define LX_TURN_SIZE 96
/* Most tiles a bag holds. */
#define LX_MAX_BAG 1024
/* Turns without a play that end a game. */
#define LX_ZERO_TURNS_TO_END 6
/* What keeping tiles costs an equity player when the bag is empty, on top of twice their points. */
#define LX_ENDGAME_PENALTY 10.0
/* A turn record's kinds. */
#define LX_TURN_PLAY 0
#define LX_TURN_EXCHANGE 1
#define LX_TURN_PASS 2
/* Where a turn record keeps its fields (turn_record_dtype). */
#define LX_TURN_KIND 0
#define LX_TURN_PLAYER 1
#define LX_TURN_RACK_LENGTH 2
#define LX_TURN_LENGTH 3
#define LX_TURN_BAG_BEFORE 8
#define LX_TURN_BAG_AFTER 10
#define LX_TURN_SCORE 12
#define LX_TURN_TOTAL 16
#define LX_TURN_EQUITY 24
#define LX_TURN_LEAVE 32
#define LX_TURN_RACK 40
#define LX_TURN_SQUARES 56

/* xoshiro256**'s state. */
typedef struct {
    uint64_t state[4];
} LxRandom;

/* One side of a game: the game's tables (its leave table this player's) and its rule. */
typedef struct {
    const LxGameTables *tables;
    int by_equity;
} LxPlayer;

/* A game in play: the board, both racks (counts per code) and scores, the bag, the random numbers to come; and
 * the board's state for the generator (board_state.h), or NULL: a turn's play brings it up to date instead of the
 * next turn setting the board up again (the caller owns it, and sets it up from the board when the game starts). */
typedef struct {
    unsigned char board[LX_MAX_SQUARES], blanks[LX_MAX_SQUARES];
    LxBoardState *board_state;
    int racks[2][LX_MAX_MOVE_TILE_CODES];
    int rack_length[2];
    int score[2];
    unsigned char bag[LX_MAX_BAG];
    int bag_length;
    LxRandom random;
} LxGameState;

/* The random numbers of pair `pair` of the run `seed`. */
void lx_random_seed(LxRandom *random, uint64_t seed, uint64_t pair);

/* Uniform below `bound` (>= 1), by rejection: no bias, the same numbers on every machine. */
uint64_t lx_random_below(LxRandom *random, uint64_t bound);

/* Fisher-Yates from the end: `tiles` shuffled in place. */
void lx_shuffle(LxRandom *random, unsigned char *tiles, int count);

/* Player p draws from the bag's end until its rack holds `rack_size` tiles or the bag is empty. */
void lx_draw(LxGameState *state, int player, int rack_size);

/* The points of the tiles on a rack (counts per code; blanks score nothing). */
int lx_rack_points(const LxGameTables *tables, const int *rack);

/* The key of the tiles `rack` keeps when `used` go (counts per code; NULL: none): leaves.c's layout; 0 for none
 * or too many to key. */
uint64_t lx_leave_key(const int *rack, const int *used, int code_count);

/* Player p makes an exchange of `gone` (counts per code): the rest kept, the rack refilled, then each exchanged
 * tile put back into the bag at a uniform place. */
void lx_exchange(LxGameState *state, int player, const int *gone, int rack_size, int code_count);

/* Tiles put on the board of `state` (squares row * size + column; tiles[i] a code, | LX_BLANK_FLAG for a blank), and
 * on its board state when it keeps one; 0 or an LX_MOVEGEN_* status. */
int lx_place_tiles(const LxGameTables *tables, LxGameState *state, const int *squares, const unsigned char *tiles,
                   int count);

/* What keeping the rest of `rack` is worth, per subset a play or an exchange uses, into `values` in index order
 * (mixed radix over the rack's codes ascending, the first code turning fastest): the leave table's value while the
 * bag holds tiles, else the end's adjustment (`bag_empty`: twice `opponent_points` for going out, else the penalty
 * and twice the points kept). Walked digit by digit, each code's share of the leave's size, points and rank added
 * once for every subset under it. Returns the number of subsets, or -1 past LX_MAX_RACK_SUBSETS (nothing written). */
long lx_value_rack_subsets(const LxGameTables *tables, const int *rack, int bag_empty, int opponent_points,
                           double *values);

/* One turn of player p by its rule: the board, racks, bag and scores of `state` updated, the turn recorded in
 * `record` (kind, leave key, score, equity, squares; the caller writes the rest). `values` has room for
 * LX_MAX_RACK_SUBSETS doubles. Returns 0 after a play, 1 after an exchange or a pass (a zero turn), or -status
 * (movegen.h's LX_MOVEGEN_*) on an error. */
int lx_take_turn(const LxPlayer *player, LxGameState *state, int p, double *values, unsigned char *record);

#endif
