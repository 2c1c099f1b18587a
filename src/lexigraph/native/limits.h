/*
 * limits.h: the limits the C code shares with the Python code, one #define each.
 *
 * Why here: each of these numbers is also written in a Python module (named
 * beside it), and the two must agree: a Python check that lets through what
 * a C buffer cannot hold would read past that buffer. module.c exports them
 * all as lexigraph._native.LIMITS, and tests/test_native.py holds every entry
 * to its Python twin. Add a limit here (and to LX_LIMITS below) rather than
 * writing its number in a .c file.
 */
#ifndef LEXIGRAPH_LIMITS_H
#define LEXIGRAPH_LIMITS_H

/* Longest word a lexicon holds, in tiles (lengths are stored in a byte): lexigraph.engine.store.MAX_LENGTH.
 * The probe refuses longer buckets; walks and patterns keep one byte of path per tile. */
#define LX_MAX_WORD_LENGTH 255

/* Most tiles an alphabet holds (codes 1..255, one byte each): lexigraph.alphabet.MAX_TILES. */
#define LX_MAX_ALPHABET_TILES 255

/* Most multi-letter tiles and aliases the probe splits words into, and the longest of them in
 * bytes: lexigraph.alphabet.Alphabet.latin1_program hands the C probe no more than these. */
#define LX_MAX_MULTI_LETTER_TILES 32
#define LX_MAX_MULTI_LETTER_KEY 8

/* Most blanks a rack may hold for the one-call C rack walk (Probe.rack_words):
 * lexigraph.engine.compiled.MAX_RACK_BLANKS. */
#define LX_MAX_RACK_BLANKS 3

/* Most arc records a word graph may hold: a record's target has 32 bits.
 * lexigraph.engine.wordgraph.MAX_ARCS. */
#define LX_MAX_ARCS (1ULL << 32)

/* Tiles of a rotation its sort key holds: lexigraph.engine.rotation.KEY_TILES. */
#define LX_ROTATION_KEY_TILES 8

/* Largest board side the move generator takes: lexigraph.scrabble.game.MAX_SIZE. */
#define LX_MAX_BOARD_SIZE 26

/* Tile codes the move generator handles, the blank's code 0 included (a rack set is a uint64):
 * lexigraph.engine.compiled.CompiledEngine.generate_moves sends it alphabets of fewer than 64 tiles (more go to the Python twin). */
#define LX_MAX_MOVE_TILE_CODES 64

/* Bytes of one play the move generator returns: lexigraph.engine.interface.MOVE_RECORD_SIZE. */
#define LX_MOVE_RECORD_SIZE 48

/* Longest leave table the move generator takes: entries, one per subset of the rack (a 16-tile rack of
 * distinct tiles has 65,536): lexigraph.engine.python.movegen.MAX_RACK_SUBSETS. */
#define LX_MAX_RACK_SUBSETS 65536

/* Most tiles of a leave the C leave table keys (6 bits a tile, the length in the top 4 bits of a uint64):
 * lexigraph.scrabble.leaves.KEY_TILES; tables of longer leaves are looked up by the Python twin. */
#define LX_LEAVE_KEY_TILES 10

/* Set on a placed tile's code when a blank plays it: lexigraph.engine.interface.BLANK_FLAG. */
#define LX_BLANK_FLAG 0x80

/* Longest slot the autofill accepts (per-position masks live on the stack):
 * lexigraph.crossword.fill.MAX_SLOT. */
#define LX_MAX_FILL_SLOT 255

/* Highest tile code the autofill's 64-bit masks hold (bit 0 is never a tile): the fill's C path
 * runs for alphabets of at most this many tiles (lexigraph.engine.compiled hands larger alphabets to the Python twin). */
#define LX_FILL_MAX_TILE_CODES 63

/* Longest run of tiles two fill entries may be forbidden to share (--max-shared): a run is one
 * 64-bit key of 6-bit tile codes in fill.c: lexigraph.crossword.fill.MAX_SHARED. */
#define LX_FILL_MAX_SHARED 10

/* Most tiles on either rack of an endgame the solver takes (endgame.c sizes its plies by it):
 * lexigraph.engine.interface.ENDGAME_MAX_RACK. */
#define LX_ENDGAME_MAX_RACK 16

/* Largest transposition table of the endgame solver, in megabytes (--table-mb; bounded memory):
 * lexigraph.engine.interface.ENDGAME_MAX_TABLE_MB. */
#define LX_ENDGAME_MAX_TABLE_MB 4096

/* Every limit above, by its Python-visible name, for module.c's LIMITS dict. */
#define LX_LIMITS(X)                                                                                                   \
    X(MAX_WORD_LENGTH)                                                                                                 \
    X(MAX_ALPHABET_TILES)                                                                                              \
    X(MAX_MULTI_LETTER_TILES)                                                                                          \
    X(MAX_MULTI_LETTER_KEY)                                                                                            \
    X(MAX_RACK_BLANKS)                                                                                                 \
    X(MAX_ARCS)                                                                                                        \
    X(ROTATION_KEY_TILES)                                                                                              \
    X(MAX_BOARD_SIZE)                                                                                                  \
    X(MAX_MOVE_TILE_CODES)                                                                                             \
    X(MOVE_RECORD_SIZE)                                                                                                \
    X(MAX_RACK_SUBSETS)                                                                                                \
    X(LEAVE_KEY_TILES)                                                                                                 \
    X(BLANK_FLAG)                                                                                                      \
    X(MAX_FILL_SLOT)                                                                                                   \
    X(FILL_MAX_TILE_CODES)                                                                                             \
    X(FILL_MAX_SHARED)                                                                                                 \
    X(ENDGAME_MAX_RACK)                                                                                                \
    X(ENDGAME_MAX_TABLE_MB)

#endif
