/* movegen.c: generate_moves, the hot loop of lexigraph.scrabble.movegen (Appel and Jacobson, 1988).
 *
 * generate_moves(request, deadline) -> (bytes, count)
 *   request: (tables, board, blanks, rack, leave_values, top, by_equity, prune, opening), as
 *   lexigraph.engine.interface.MoveRequest lays it out: a GameTables (game_tables.h: the board's multipliers,
 *   the tiles, the word graph), the board (a tile code per square, 0 empty) and its blanks (1 where the board
 *   tile is a blank), the rack (a count per tile code, index 0 the blanks), then how plays are valued and kept.
 * reads the word graph's 64-bit arc records through arc.h (and the tables' tile masks: per arc index, the tiles
 * of the arc list starting there, WordGraph.tile_masks, which let a dead end stop before scanning its arcs) and
 * returns plays as fixed records of LX_MOVE_RECORD_SIZE bytes: int32 score (little-endian), row, col, across
 * (1/0), length of the main word, float64 equity (little-endian), then one byte per square of the main word: 0
 * for a tile already on the board, else the tile code, | LX_BLANK_FLAG for a blank. One-tile plays come once
 * (from the across pass when they form an across word). `count` is the number of plays found. On an empty board
 * of a symmetric layout (game_tables.h) only the across plays come, unless the request's `both_directions`: the
 * down ones are their transposes, of the same value, and rank after them.
 *
 * Equity: `leave_values` holds a float64 per subset of the rack a play uses, indexed in mixed radix over the
 * rack's tile codes in ascending order (code t's digit counts the t tiles used; its place value is the product
 * of (count + 1) of the codes below it): the leave's value with the end-of-game adjustments folded in
 * (lexigraph.scrabble.equity builds it). The index is kept up to date as tiles leave and return to the rack,
 * so a play's equity is its score plus one table read. With `opening`, the tables' opening penalty of a square
 * is added for each vowel a play puts there on an empty board.
 *
 * Ranking: with `top` >= 0 only the best `top` plays are kept, in a bounded heap (worst at the root, so a play
 * that cannot enter costs one comparison), and returned best first; the order is the key (equity when
 * `by_equity`, else score) descending, then across before down, row, column, length and the squares' bytes
 * ascending, as lexigraph.scrabble.movegen ranks. With `top` < 0 every play comes, in generation order. With
 * `prune` (and `top` > 0), once the heap is full an anchor is skipped when its shadow bound (the best key any
 * play from it could reach: the rack's highest points on the squares that multiply them most, or when lower each
 * square's best rack tile that its cross-check allows (restricted squares), the bingo bonus,
 * the best leave value for that many tiles) is below the heap's worst; the plays kept are the same, and `count`
 * is then -1 (not every play was counted). With the lexicon's word map in the tables (game_tables.h), an extent no
 * word can fill gives no bound: one through no board tile whose length no tiles of the rack spell
 * (lx_wordmap_playable_lengths, at most once per call), and one through board tiles keeping no rack tile (or one,
 * with a blank on the rack) when no word is made of the rack less the kept tile and the board tiles
 * (lx_wordmap_has_word), whose leave bound is then the best among the kept tiles that make one (word_map_leave);
 * so the bingo bonus and impossible lengths stop keeping anchors alive. Every play's extent and leave are among those kept, so the plays kept are the same.
 * With the word map and a rack that has a blank, is a word by itself or holds at most four tiles, the pruned
 * ranking finds its plays in the map instead, best window first (movegen_wordmap.h): the same records in the same order.
 *
 * `deadline` (a time.monotonic() value or None, deadline.h) is checked at the start and every few thousand
 * extensions; past it the call raises TimeoutError, which the engine turns into DeadlineExceeded.
 *
 * The pure-Python twin is lexigraph.engine.python.movegen; tests hold both to the same answers and to
 * brute-force oracles (plays, scores and equity).
 *
 * Why C: every play costs graph steps and score arithmetic per square, a Python frame each in the twin; here
 * the board, the cross-checks and the rack live in one struct, and the generation runs without the GIL. The
 * board is kept twice, once per orientation, in line coordinates (line * size + position: the rows for the
 * across plays, the columns for the down plays), so that both passes read lines as rows.
 */
#include "module.h"

/* movegen_popcnt.c compiles this file a second time for processors with the popcnt instruction (the tile sets'
 * counts are a tenth of the generation in software) under another name; lx_movegen_run picks one at run time. */
#ifndef LX_MOVEGEN_CORE
#define LX_MOVEGEN_CORE lx_movegen_run_portable
#define LX_MOVEGEN_ENTRY_POINTS 1
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arc.h"
#include "bits.h"
#include "limits.h"
#include "movegen.h"

/* Where a record keeps its fields (lexigraph.engine.interface.move_record_dtype). */
#define RECORD_ROW 4
#define RECORD_COLUMN 5
#define RECORD_ACROSS 6
#define RECORD_LENGTH 7
#define RECORD_EQUITY 8
#define RECORD_SQUARES 16
#define RECORD_SQUARE_BYTES (LX_MOVE_RECORD_SIZE - RECORD_SQUARES)
/* From this `top` on, every play is kept and ranked at the end: a heap of that many costs more than a sort. */
#define LX_RANK_ALL_FROM 4096
/* The orientations, as the records' across byte. */
#define DOWN 0
#define ACROSS 1

/* MoveGenerator.error values: the graph points outside itself, out of memory, past the deadline. */
#define ERROR_GRAPH 1
#define ERROR_MEMORY 2
#define ERROR_DEADLINE 3

/* An anchor with no board tile on its left: its left parts come from the rack (left_parts). */
typedef struct {
    int orientation, line, position;
    int left_room; /* free squares left of it a left part may take */
    int bounds_at; /* where its bounds by left part length start in MoveGenerator.left_bounds (when sorted by bound) */
    double bound;  /* the best key a play from this anchor may reach (shadow bound; ranking with top > 0 only) */
} Anchor;

typedef struct {
    /* the word graph, the game's scalars, what went wrong (the fields every step reads, first) */
    const unsigned char *arcs;
    size_t arc_count;
    uint32_t root;
    int size, rack_size, bingo_bonus, error;
    /* per orientation (DOWN, ACROSS), per square in line coordinates: the board's tile codes (0 empty), what
     * each scores (a blank nothing), the multipliers, the tiles that may go on an empty square, the points of
     * the tiles across the line from it, and the anchors (board_state.h: the structure a game loop keeps) */
    LxBoardState board;
    /* the tiles and the rack */
    int tile_points[LX_MAX_MOVE_TILE_CODES];
    int rack_counts[LX_MAX_MOVE_TILE_CODES];
    /* the play being grown: its main word's squares, its line and anchor */
    uint8_t word[LX_MAX_BOARD_SIZE + 8];
    int word_length;
    int orientation, line, anchor, word_start;
    int tiles_on_rack;
    int code_count;
    /* the left part being built, shared by every anchor that takes one from the rack */
    uint8_t left_part_tiles[LX_MAX_BOARD_SIZE];
    int left_part_points[LX_MAX_BOARD_SIZE];
    Anchor queued_anchors[2 * LX_MAX_SQUARES];
    int queued_count, most_left_room;
    const unsigned char *tile_masks; /* per arc index: the tiles of the list starting there (uint64 LE) */
    uint64_t rack_tile_set;          /* tiles with a count on the rack (bit t; the blank's 0 not among them) */
    /* equity: the table by used-tile index, each code's place value, the index of the tiles in play */
    const double *leave_values;
    double *left_bounds; /* per queued anchor, per left part length 0 .. left_room: the bound of those plays */
    int place_values[LX_MAX_MOVE_TILE_CODES];
    int leave_index;
    const double *opening_penalty; /* per orientation and square (across, then down), or NULL */
    uint64_t vowels;
    int across_only_opening; /* on an empty board, the across plays only (a symmetric layout, not both asked) */
    /* ranking: top < 0 keeps every play (records, in order); else a heap of at most top records */
    Py_ssize_t top;
    Py_ssize_t rank_all_to; /* >= 0: every play kept, then ranked and cut to this many (a large top) */
    int by_equity;
    int prune;                                  /* skip anchors that cannot beat the heap's worst (top > 0) */
    int anchors_by_bound;                       /* queued anchors sorted by bound: left_parts may stop early */
    int rack_points_desc[LX_MAX_BOARD_SIZE];    /* the rack's tile points, highest first (blanks 0) */
    int rack_point_sums[LX_MAX_BOARD_SIZE + 1]; /* rack_point_sums[k]: the sum of the k highest */
    uint8_t fit_codes[LX_MAX_MOVE_TILE_CODES];  /* the rack's letters (not its blanks), most points first */
    int fit_code_count;
    double best_leave_by_tiles[LX_MAX_BOARD_SIZE + 1]; /* the best leave value of a play using m tiles */
    /* the word map's view of the rack (prune only; word_map NULL: none, or the rack does not fit the map) */
    const LxWordMap *word_map;
    uint64_t playable_lengths;               /* bit m: some m tiles of the rack alone make a word */
    int playable_known;                      /* playable_lengths computed (on first need: it costs lookups) */
    uint8_t rack_letters[LX_MAX_BOARD_SIZE]; /* the rack's tiles but its blanks, codes ascending */
    int rack_letter_count, rack_blanks;
    LxDeadline deadline;
    char *records;
    size_t play_count, kept, capacity;
} MoveGenerator;

static inline uint64_t
tile_mask_at(const MoveGenerator *gen, uint32_t node)
{
    uint64_t mask;
    memcpy(&mask, gen->tile_masks + 8 * (size_t)node, 8);
    return mask;
}

/* The arc of `tile` in the list at `node`, whose tiles are `list_tiles` (the tile among them): tiles rise
 * strictly along a list (WordGraph.check_structure), so it is the list's arc number popcount(list_tiles below
 * the tile). 1 and *arc, or 0 and gen->error when the record there is not that tile (a forged graph). */
static inline int
arc_of_tile(MoveGenerator *gen, uint32_t node, uint64_t list_tiles, unsigned tile, uint64_t *arc)
{
    size_t index = (size_t)node + (size_t)bit_count(list_tiles & (((uint64_t)1 << tile) - 1));
    if (index >= gen->arc_count) {
        gen->error = ERROR_GRAPH;
        return 0;
    }
    *arc = lx_arc_at(gen->arcs, index);
    if (LX_TILE(*arc) != tile) {
        gen->error = ERROR_GRAPH;
        return 0;
    }
    return 1;
}

static inline void
take_from_rack(MoveGenerator *gen, int code)
{
    if (--gen->rack_counts[code] == 0 && code)
        gen->rack_tile_set &= ~((uint64_t)1 << code);
    gen->tiles_on_rack--;
    gen->leave_index += gen->place_values[code];
}

static inline void
put_back_on_rack(MoveGenerator *gen, int code)
{
    if (gen->rack_counts[code]++ == 0 && code)
        gen->rack_tile_set |= (uint64_t)1 << code;
    gen->tiles_on_rack++;
    gen->leave_index -= gen->place_values[code];
}

/* The arc of `tile` in the list starting at `node`: 1 and *arc if found. */
static inline int
follow_tile(MoveGenerator *gen, uint32_t node, unsigned tile, uint64_t *arc)
{
    if (!node || tile >= 64)
        return 0;
    if (node >= gen->arc_count) {
        gen->error = ERROR_GRAPH;
        return 0;
    }
    uint64_t list_tiles = tile_mask_at(gen, node);
    if (!((list_tiles >> tile) & 1u))
        return 0;
    return arc_of_tile(gen, node, list_tiles, tile, arc);
}

/* -- the plays kept: every play in order, or a bounded heap of the best ------------------------------------- */

/* The ranking key of a record: its equity, or its score. */
static inline double
ranking_key(const MoveGenerator *gen, const unsigned char *record)
{
    if (gen->by_equity) {
        double equity;
        memcpy(&equity, record + RECORD_EQUITY, sizeof equity);
        return equity;
    }
    int32_t score;
    memcpy(&score, record, sizeof score);
    return (double)score;
}

/* < 0 when record a ranks before record b (see the file comment); distinct plays never compare equal. */
static int
compare_ranks(const MoveGenerator *gen, const unsigned char *a, const unsigned char *b)
{
    double key_a = ranking_key(gen, a), key_b = ranking_key(gen, b);
    if (key_a != key_b)
        return key_a > key_b ? -1 : 1;
    if (a[RECORD_ACROSS] != b[RECORD_ACROSS])
        return a[RECORD_ACROSS] > b[RECORD_ACROSS] ? -1 : 1; /* across first */
    if (a[RECORD_ROW] != b[RECORD_ROW])
        return a[RECORD_ROW] < b[RECORD_ROW] ? -1 : 1;
    if (a[RECORD_COLUMN] != b[RECORD_COLUMN])
        return a[RECORD_COLUMN] < b[RECORD_COLUMN] ? -1 : 1;
    if (a[RECORD_LENGTH] != b[RECORD_LENGTH])
        return a[RECORD_LENGTH] < b[RECORD_LENGTH] ? -1 : 1;
    return memcmp(a + RECORD_SQUARES, b + RECORD_SQUARES, RECORD_SQUARE_BYTES);
}

static inline unsigned char *
record_at(const MoveGenerator *gen, size_t i)
{
    return (unsigned char *)gen->records + i * LX_MOVE_RECORD_SIZE;
}

static void
swap_records(MoveGenerator *gen, size_t i, size_t j)
{
    unsigned char held[LX_MOVE_RECORD_SIZE];
    memcpy(held, record_at(gen, i), LX_MOVE_RECORD_SIZE);
    memcpy(record_at(gen, i), record_at(gen, j), LX_MOVE_RECORD_SIZE);
    memcpy(record_at(gen, j), held, LX_MOVE_RECORD_SIZE);
}

/* The heap keeps its worst record at the root: each parent ranks after (or with) its children. */
static void
sift_down(MoveGenerator *gen, size_t i, size_t heap_size)
{
    for (;;) {
        size_t left = 2 * i + 1, right = left + 1, worst = i;
        if (left < heap_size && compare_ranks(gen, record_at(gen, left), record_at(gen, worst)) > 0)
            worst = left;
        if (right < heap_size && compare_ranks(gen, record_at(gen, right), record_at(gen, worst)) > 0)
            worst = right;
        if (worst == i)
            return;
        swap_records(gen, i, worst);
        i = worst;
    }
}

static void
sift_up(MoveGenerator *gen, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (compare_ranks(gen, record_at(gen, i), record_at(gen, parent)) <= 0)
            return;
        swap_records(gen, i, parent);
        i = parent;
    }
}

/* Best first: the worst goes to the end, again and again (heap sort). */
static void
sort_heap(MoveGenerator *gen)
{
    for (size_t end = gen->kept; end > 1; end--) {
        swap_records(gen, 0, end - 1);
        sift_down(gen, 0, end - 1);
    }
}

/* -- ranking every play: a radix sort (a heap of tens of thousands of plays costs more than finding them) ---- */

/* A record's place in the ranking: its key made an unsigned integer ascending best first, then where it lies. */
typedef struct {
    uint64_t key;   /* the ranking key's bits, order-preserving, complemented: ascending = best first */
    uint32_t where; /* down after across, then row, column, length, each ascending */
    uint32_t index; /* the record's index in generation order */
} RankEntry;

static uint64_t
descending_bits(double key)
{
    uint64_t bits;
    if (key == 0.0)
        key = 0.0; /* -0.0 ranks with 0.0, as the doubles compare */
    memcpy(&bits, &key, sizeof bits);
    bits = (bits >> 63) ? ~bits : bits | ((uint64_t)1 << 63); /* ascending as the doubles */
    return ~bits;
}

/* One stable counting pass over byte `shift / 8` of the 96-bit (key, where) value; 0 when every entry shares that
 * byte (nothing moves). */
static int
radix_pass(const RankEntry *from, RankEntry *to, size_t n, int shift)
{
    size_t counts[257] = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned digit = shift < 32 ? (from[i].where >> shift) & 0xFF : (unsigned)(from[i].key >> (shift - 32)) & 0xFF;
        counts[digit + 1]++;
    }
    for (int d = 0; d < 256; d++)
        if (counts[d + 1] == n)
            return 0;
    for (int d = 0; d < 256; d++)
        counts[d + 1] += counts[d];
    for (size_t i = 0; i < n; i++) {
        unsigned digit = shift < 32 ? (from[i].where >> shift) & 0xFF : (unsigned)(from[i].key >> (shift - 32)) & 0xFF;
        to[counts[digit]++] = from[i];
    }
    return 1;
}

/* Every kept record (generation order) put in ranking order, then cut to `top`: the order compare_ranks gives,
 * ties of key and place (the same squares, other tiles) broken by the squares' bytes. */
static void
rank_every_record(MoveGenerator *gen, size_t top)
{
    size_t n = gen->kept;
    RankEntry *entries = malloc(2 * (n ? n : 1) * sizeof *entries);
    char *ranked = malloc((n ? n : 1) * LX_MOVE_RECORD_SIZE);
    if (!entries || !ranked) {
        free(entries);
        free(ranked);
        gen->error = ERROR_MEMORY;
        return;
    }
    RankEntry *a = entries, *b = entries + n;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *r = record_at(gen, i);
        a[i].key = descending_bits(ranking_key(gen, r));
        a[i].where = (uint32_t)(1 - r[RECORD_ACROSS]) << 24 | (uint32_t)r[RECORD_ROW] << 16
                     | (uint32_t)r[RECORD_COLUMN] << 8 | r[RECORD_LENGTH];
        a[i].index = (uint32_t)i;
    }
    for (int shift = 0; shift < 96; shift += 8)
        if (radix_pass(a, b, n, shift)) {
            RankEntry *held = a;
            a = b;
            b = held;
        }
    /* runs of equal key and place: an insertion sort by the squares (short runs: the blanks' designations) */
    for (size_t i = 1; i < n; i++) {
        RankEntry held = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].key == held.key && a[j - 1].where == held.where
               && memcmp(record_at(gen, a[j - 1].index) + RECORD_SQUARES, record_at(gen, held.index) + RECORD_SQUARES,
                         RECORD_SQUARE_BYTES)
                      > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = held;
    }
    if (top < n)
        n = top;
    for (size_t i = 0; i < n; i++)
        memcpy(ranked + i * LX_MOVE_RECORD_SIZE, record_at(gen, a[i].index), LX_MOVE_RECORD_SIZE);
    free(entries);
    free(gen->records);
    gen->records = ranked;
    gen->kept = n;
    gen->capacity = n ? n : 1;
}

static int
grow_records(MoveGenerator *gen)
{
    size_t capacity = gen->capacity ? gen->capacity * 2 : 1024;
    if (gen->top >= 0 && capacity > (size_t)gen->top)
        capacity = (size_t)gen->top;
    char *grown = realloc(gen->records, capacity * LX_MOVE_RECORD_SIZE);
    if (!grown) {
        gen->error = ERROR_MEMORY;
        return -1;
    }
    gen->records = grown;
    gen->capacity = capacity;
    return 0;
}

static void
write_record(const MoveGenerator *gen, unsigned char *record, int score, double equity)
{
    memset(record, 0, LX_MOVE_RECORD_SIZE);
    uint32_t bits = (uint32_t)score;
    record[0] = bits & 0xFF;
    record[1] = (bits >> 8) & 0xFF;
    record[2] = (bits >> 16) & 0xFF;
    record[3] = (bits >> 24) & 0xFF;
    int across = gen->orientation == ACROSS;
    record[RECORD_ROW] = (unsigned char)(across ? gen->line : gen->word_start);
    record[RECORD_COLUMN] = (unsigned char)(across ? gen->word_start : gen->line);
    record[RECORD_ACROSS] = (unsigned char)across;
    record[RECORD_LENGTH] = (unsigned char)gen->word_length;
    memcpy(record + RECORD_EQUITY, &equity, sizeof equity);
    memcpy(record + RECORD_SQUARES, gen->word, (size_t)gen->word_length);
}

/* The play's equity: its score, the leave value of the tiles it uses, the opening penalty of its vowels. */
static double
equity_of(const MoveGenerator *gen, int score)
{
    /* The same sum, in the same order, as the Python twin: the doubles agree bit for bit. */
    double equity = (double)score;
    if (gen->leave_values)
        equity += gen->leave_values[gen->leave_index];
    if (gen->opening_penalty && gen->board.board_empty) {
        const int size = gen->size;
        const double *penalty = gen->opening_penalty + (size_t)(gen->orientation == ACROSS ? 0 : size * size)
                                + (size_t)gen->line * (size_t)size + (size_t)gen->word_start;
        for (int k = 0; k < gen->word_length; k++) {
            unsigned code = gen->word[k] & ~LX_BLANK_FLAG;
            if (gen->word[k] && ((gen->vowels >> code) & 1u))
                equity += penalty[k];
        }
    }
    return equity;
}

/* A play found (gen->word, on the current line from gen->word_start): valued, then kept or passed over. */
static void
record_play(MoveGenerator *gen, int score)
{
    gen->play_count++;
    double equity = equity_of(gen, score);
    if (gen->top < 0) {
        if (gen->kept == gen->capacity && grow_records(gen) < 0)
            return;
        write_record(gen, record_at(gen, gen->kept++), score, equity);
        return;
    }
    if (gen->top == 0)
        return;
    if (gen->kept == (size_t)gen->top) {
        /* Full: most plays lose to the worst kept on the key alone, without building a record. */
        double worst = ranking_key(gen, record_at(gen, 0));
        double key = gen->by_equity ? equity : (double)score;
        if (key < worst)
            return;
        unsigned char record[LX_MOVE_RECORD_SIZE];
        write_record(gen, record, score, equity);
        if (compare_ranks(gen, record, record_at(gen, 0)) >= 0)
            return;
        memcpy(record_at(gen, 0), record, LX_MOVE_RECORD_SIZE);
        sift_down(gen, 0, gen->kept);
        return;
    }
    if (gen->kept == gen->capacity && grow_records(gen) < 0)
        return;
    write_record(gen, record_at(gen, gen->kept), score, equity);
    sift_up(gen, gen->kept++);
}

/* -- shadow bounds: anchors whose best possible play cannot enter the heap are skipped --------------------- */

static inline int
heap_full(const MoveGenerator *gen)
{
    return gen->prune && gen->kept == (size_t)gen->top;
}

static inline double
worst_key(const MoveGenerator *gen)
{
    return ranking_key(gen, record_at(gen, 0));
}

/* The rack's points highest first (an insertion sort of at most a rack), and their running sums. */
static void
sort_rack_points(MoveGenerator *gen)
{
    int count = 0;
    for (int code = 0; code < gen->code_count && count < LX_MAX_BOARD_SIZE; code++)
        for (int k = 0; k < gen->rack_counts[code] && count < LX_MAX_BOARD_SIZE; k++) {
            int points = code ? gen->tile_points[code] : 0, j = count++;
            while (j > 0 && gen->rack_points_desc[j - 1] < points) {
                gen->rack_points_desc[j] = gen->rack_points_desc[j - 1];
                j--;
            }
            gen->rack_points_desc[j] = points;
        }
    for (int j = count; j < LX_MAX_BOARD_SIZE; j++)
        gen->rack_points_desc[j] = 0;
    gen->fit_code_count = 0;
    for (int code = 1; code < gen->code_count; code++) {
        if (!gen->rack_counts[code])
            continue;
        int j = gen->fit_code_count++;
        while (j > 0 && gen->tile_points[gen->fit_codes[j - 1]] < gen->tile_points[code]) {
            gen->fit_codes[j] = gen->fit_codes[j - 1];
            j--;
        }
        gen->fit_codes[j] = (uint8_t)code;
    }
    gen->rack_point_sums[0] = 0;
    for (int j = 0; j < LX_MAX_BOARD_SIZE; j++)
        gen->rack_point_sums[j + 1] = gen->rack_point_sums[j] + gen->rack_points_desc[j];
}

/* The word map's view of the rack, when the tables have a map the rack fits (at most its blanks, at most 15
 * tiles): its letters sorted and the lengths it spells alone; else gen->word_map stays NULL (no such bounds). */
static void
prepare_word_map(MoveGenerator *gen, const LxWordMap *map)
{
    gen->word_map = NULL;
    if (!map || gen->rack_counts[0] > map->max_blanks || gen->tiles_on_rack > 15
        || gen->code_count - 1 > map->highest_code)
        return;
    int n = 0;
    for (int code = 1; code < gen->code_count; code++)
        for (int k = 0; k < gen->rack_counts[code]; k++)
            gen->rack_letters[n++] = (uint8_t)code;
    gen->rack_letter_count = n;
    gen->rack_blanks = gen->rack_counts[0];
    gen->playable_known = 0;
    gen->word_map = map;
}

/* What the word map says of an extent (m = tiles_placed rack tiles, `length` squares, the board tiles
 * through[0 .. through_count) on it): 0 when no play can fill it, else 1 with *leave the best leave value a play
 * of it can keep. Through no board tile: some m tiles of the rack must spell a word (the leave bound stays the
 * best for m tiles). Through board tiles, keeping no tile, or (a blank on the rack) at most MOST_KEPT_LOOKED_UP
 * tiles: each way of keeping that many is looked up (the rack less them and the board tiles, the blanks any
 * letter), and the leave bound becomes the best of those that make a word. Otherwise, or for a length the map does not hold, the best leave for m
 * tiles and 1. */
#define MOST_KEPT_LOOKED_UP 1

/* Whether the whole rack (no blank on it) and the board tiles through[0 .. through_count) make a word of `length`:
 * the key merged from the rack's sorted letters and the board's (sorted here) and probed directly, where
 * lx_wordmap_has_word would copy and check the letters again (the codes were checked: the rack's by
 * prepare_word_map, the board's by read_board). 1 also when the map cannot answer (no narrowing). */
static int
whole_rack_makes_word(const MoveGenerator *gen, int length, const uint8_t *through, int through_count)
{
    uint8_t sorted[LX_MAX_BOARD_SIZE];
    for (int i = 0; i < through_count; i++) {
        int j = i;
        while (j > 0 && sorted[j - 1] > through[i]) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = through[i];
    }
    if (gen->rack_letter_count + through_count != length)
        return 1;
    const uint64_t key =
        lx_wordmap_key_merged(gen->word_map, gen->rack_letters, gen->rack_letter_count, sorted, through_count);
    uint32_t lo, hi;
    return lx_wordmap_probe(gen->word_map, length, 0, key, &lo, &hi) != 0;
}

static int
word_map_leave(MoveGenerator *gen, int tiles_placed, int length, const uint8_t *through, int through_count,
               double *leave)
{
    const LxWordMap *map = gen->word_map;
    *leave = gen->by_equity ? gen->best_leave_by_tiles[tiles_placed] : 0.0;
    if (!map || length < map->min_length || length > map->max_length)
        return 1;
    if (through_count == 0) {
        if (!gen->playable_known) { /* a rack's subsets looked up: only for positions that have such extents */
            gen->playable_lengths =
                lx_wordmap_playable_lengths(map, gen->rack_letters, gen->rack_letter_count, gen->rack_blanks);
            gen->playable_known = 1;
        }
        return tiles_placed >= 64 || (gen->playable_lengths >> tiles_placed & 1);
    }
    const int kept = gen->tiles_on_rack - tiles_placed;
    if (kept > (gen->rack_blanks ? MOST_KEPT_LOOKED_UP : 0))
        return 1; /* without a blank the lookups of kept tiles cost more than the anchors they save (measured) */
    if (!gen->rack_blanks) /* the whole rack, no blank: one probe (the leave bound, the empty leave's, stands) */
        return whole_rack_makes_word(gen, length, through, through_count);
    int counts[LX_MAX_MOVE_TILE_CODES], full_index = 0;
    for (int code = 0; code < gen->code_count; code++) {
        counts[code] = gen->rack_counts[code];
        full_index += gen->place_values[code] * gen->rack_counts[code];
    }
    for (int i = 0; i < through_count; i++)
        counts[through[i]]++; /* the board's letters (codes checked by read_board) */
    double best = -1e300;
    int found = 0;
    /* the kept tiles: none, one code c, or two codes c <= d (a blank is code 0); code_count stands for none */
    const int none = gen->code_count;
    for (int c = kept ? 0 : none; c <= (kept ? none - 1 : none); c++) {
        if (c < none && !gen->rack_counts[c])
            continue;
        for (int d = kept == 2 ? c : none; d <= (kept == 2 ? none - 1 : none); d++) {
            if (d < gen->code_count && gen->rack_counts[d] < 1 + (d == c))
                continue;
            if (c < gen->code_count)
                counts[c]--;
            if (d < gen->code_count)
                counts[d]--;
            uint8_t letters[LX_WORDMAP_MAX_LENGTH];
            int n = 0;
            for (int code = 1; code < gen->code_count && n + counts[code] <= map->max_length; code++)
                for (int k = 0; k < counts[code]; k++)
                    letters[n++] = (uint8_t)code;
            int word = lx_wordmap_has_word(map, length, letters, n, counts[0]);
            if (c < gen->code_count)
                counts[c]++;
            if (d < gen->code_count)
                counts[d]++;
            if (word < 0)
                return 1; /* not a lookup the map answers: no narrowing */
            if (!word)
                continue;
            found = 1;
            if (gen->by_equity && gen->leave_values) {
                int used = full_index - (c < gen->code_count ? gen->place_values[c] : 0)
                           - (d < gen->code_count ? gen->place_values[d] : 0);
                if (gen->leave_values[used] > best)
                    best = gen->leave_values[used];
            }
        }
    }
    if (found && gen->by_equity && gen->leave_values)
        *leave = best;
    return found;
}

/* The rack's points highest first, and per number of tiles used the best value the leave table gives. */
static void
prepare_bounds(MoveGenerator *gen, long subsets)
{
    sort_rack_points(gen);
    for (int j = 0; j <= LX_MAX_BOARD_SIZE; j++)
        gen->best_leave_by_tiles[j] = gen->leave_values ? -1e300 : 0.0;
    if (!gen->leave_values)
        return;
    /* An odometer over the subsets (index order), counting the tiles each uses. */
    int digits[LX_MAX_MOVE_TILE_CODES] = {0}, codes[LX_MAX_MOVE_TILE_CODES], distinct = 0, used = 0;
    for (int code = 0; code < gen->code_count; code++)
        if (gen->rack_counts[code])
            codes[distinct++] = code;
    for (long index = 0; index < subsets; index++) {
        if (used <= LX_MAX_BOARD_SIZE && gen->leave_values[index] > gen->best_leave_by_tiles[used])
            gen->best_leave_by_tiles[used] = gen->leave_values[index];
        for (int d = 0; d < distinct; d++) {
            if (digits[d] < gen->rack_counts[codes[d]]) {
                digits[d]++;
                used++;
                break;
            }
            used -= digits[d];
            digits[d] = 0;
        }
    }
}

/* What an extent of a play is made of, for its bound: the squares it fills per letter multiplier, its word
 * multiplier, the board's points in its main word, and its cross-words' points and multipliers; and the squares'
 * restricted points: each square's best rack tile that its cross-check allows (MAGPIE's restricted squares), times
 * its letter multiplier, summed for the main word (fit_main) and, times the square's word multiplier, for the
 * cross-words (fit_cross). */
typedef struct {
    int tiles_placed, word_multiplier, board_points, cross_points, cross_count;
    int fit_main, fit_cross;
    int squares_by_letter_multiplier[5];      /* 1-4 (generate_moves checks); index 0 unused */
    int cross_multipliers[LX_MAX_BOARD_SIZE]; /* of a tile's points in its cross-word, highest first */
} Extent;

/* The most points a rack tile the square allows (`allowed`, its cross-check) can bring: the first of the rack's
 * letters by points that it allows; 0 when only a blank fits. */
static inline int
best_fit_points(const MoveGenerator *gen, uint64_t allowed)
{
    for (int i = 0; i < gen->fit_code_count; i++)
        if (allowed >> gen->fit_codes[i] & 1u)
            return gen->tile_points[gen->fit_codes[i]];
    return 0;
}

/* An extent with nothing on it yet (the cross multipliers are written before they are read: not cleared). */
static inline void
extent_clear(Extent *extent)
{
    extent->tiles_placed = extent->cross_points = extent->cross_count = extent->board_points = 0;
    extent->fit_main = extent->fit_cross = 0;
    extent->word_multiplier = 1;
    memset(extent->squares_by_letter_multiplier, 0, sizeof extent->squares_by_letter_multiplier);
}

/* A square the extent fills with a rack tile: its multipliers, and its cross-word's when it makes one. */
static inline void
extent_fills(Extent *extent, const MoveGenerator *gen, int orientation, int square)
{
    const int letter = gen->board.letter_multipliers[orientation][square],
              word = gen->board.word_multipliers[orientation][square];
    const int fit = best_fit_points(gen, gen->board.cross_checks[orientation][square]) * letter;
    extent->squares_by_letter_multiplier[letter]++;
    extent->tiles_placed++;
    extent->word_multiplier *= word;
    extent->fit_main += fit;
    if (!gen->board.has_cross_word[orientation][square])
        return;
    extent->fit_cross += fit * word;
    extent->cross_points += gen->board.cross_scores[orientation][square] * word;
    int multiplier = letter * word, j = extent->cross_count++;
    while (j > 0 && extent->cross_multipliers[j - 1] < multiplier) {
        extent->cross_multipliers[j] = extent->cross_multipliers[j - 1];
        j--;
    }
    extent->cross_multipliers[j] = multiplier;
}

/* The best score a play of this extent can reach: the lower of two bounds, the highest points on the highest
 * letter multipliers with the cross-words' best pairing (each tile once, as if every tile fitted every square), and
 * each square's restricted points (the best tile that fits it, perhaps on several squares); plus the bingo bonus. */
static int
extent_score(const MoveGenerator *gen, const Extent *extent)
{
    const int *sums = gen->rack_point_sums;
    int main_word = 0, taken = 0;
    for (int letter = 4; letter >= 1; letter--) {
        int squares = extent->squares_by_letter_multiplier[letter];
        main_word += letter * (sums[taken + squares] - sums[taken]);
        taken += squares;
    }
    int score = (extent->board_points + main_word) * extent->word_multiplier + extent->cross_points;
    for (int i = 0; i < extent->cross_count; i++)
        score += extent->cross_multipliers[i] * gen->rack_points_desc[i];
    const int restricted =
        (extent->board_points + extent->fit_main) * extent->word_multiplier + extent->cross_points + extent->fit_cross;
    return (restricted < score ? restricted : score) + (extent->tiles_placed == gen->rack_size ? gen->bingo_bonus : 0);
}

/* The highest key any play generated from the anchor at (gen->orientation, gen->line, anchor) can have: plays
 * whose left part is the board tiles from left_start (>= 0), or up to `left_room` rack tiles on the free squares
 * left of it (left_start -1). For each extent the play may cover (squares it must fill: fillable by some rack
 * tile, no more than the rack holds; ending where no board tile follows), the rack's highest points go on the
 * squares that multiply them most, as if every tile fitted every square; plus the bingo bonus and the best leave
 * value for that many tiles. The main word's letter multipliers (1 to 4) and the cross-words' are paired with the
 * points apart (each sum at most its best pairing): a count per letter multiplier and a short sorted list of
 * cross-word squares keep each extent's bound a few operations, where sorting every extent's squares cost more
 * than the anchors it saved on small racks. */
static double
anchor_bound(MoveGenerator *gen, int orientation, int line, int anchor, int left_start, int left_room,
             double *by_left_length)
{
    const int size = gen->size, base = line * size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    const int *points = gen->board.line_points[orientation];
    const uint64_t *cross_checks = gen->board.cross_checks[orientation];
    const uint64_t fillable = gen->rack_counts[0] ? ~(uint64_t)1 : gen->rack_tile_set;
    int left_board_points = 0, left_through = 0;
    uint8_t through[LX_MAX_BOARD_SIZE]; /* the board tiles on the extent, for the word map */
    if (left_start >= 0)
        for (int j = left_start; j < anchor; j++) {
            left_board_points += points[base + j];
            through[left_through++] = tiles[base + j];
        }
    double best = -1e300;
    for (int left_tiles = 0; left_tiles <= (left_start >= 0 ? 0 : left_room) && left_tiles <= gen->tiles_on_rack;
         left_tiles++) {
        Extent extent;
        extent_clear(&extent);
        extent.board_points = left_board_points;
        for (int j = anchor - left_tiles; j < anchor; j++) { /* left-part squares: free, no cross-words */
            const int letter = gen->board.letter_multipliers[orientation][base + j];
            extent.squares_by_letter_multiplier[letter]++;
            extent.fit_main += gen->rack_points_desc[0] * letter;
            extent.tiles_placed++;
            extent.word_multiplier *= gen->board.word_multipliers[orientation][base + j];
        }
        const int start = left_start >= 0 ? left_start : anchor - left_tiles;
        int through_count = left_through;
        for (int end = anchor; end < size; end++) {
            const int square = base + end;
            if (tiles[square]) {
                extent.board_points += points[square];
                through[through_count++] = tiles[square];
            } else {
                if (!(cross_checks[square] & fillable) || extent.tiles_placed == gen->tiles_on_rack)
                    break;
                extent_fills(&extent, gen, orientation, square);
            }
            if ((end + 1 < size && tiles[square + 1]) || end - start < 1)
                continue; /* the word would go on, or one square */
            /* the extent's score bound and the best leave value for that many tiles */
            const int score = extent_score(gen, &extent);
            double bound = (double)score + (gen->by_equity ? gen->best_leave_by_tiles[extent.tiles_placed] : 0.0);
            if (bound <= best && (!by_left_length || bound <= by_left_length[left_tiles]))
                continue; /* raises nothing: the word map need not be asked */
            double leave;
            if (!word_map_leave(gen, extent.tiles_placed, end - start + 1, through, through_count, &leave))
                continue; /* no word fills it */
            bound = (double)score + leave;
            if (bound > best)
                best = bound;
            if (by_left_length && bound > by_left_length[left_tiles])
                by_left_length[left_tiles] = bound;
        }
    }
    return best;
}

/* -- growing plays ---------------------------------------------------------------------------------------- */

static void extend_right(MoveGenerator *gen, uint32_t node, int position, int accepts, int tiles_placed,
                         int main_word_points, int main_word_multiplier, int cross_word_scores, int last_square);

/* Each tile of `wanted` (among `list_tiles`, the tiles of the list at `node`) from the rack, and as a blank, put on
 * the square at `position`, then on. The play so far: its tiles placed, its main word's points (each multiplied
 * by its square's letter multiplier) and word multiplier, its cross-words' scores; separate arguments, as the
 * recursion passes them in registers. */
static void
place_tiles_at(MoveGenerator *gen, uint32_t node, uint64_t list_tiles, int position, uint64_t wanted, int tiles_placed,
               int main_word_points, int main_word_multiplier, int cross_word_scores)
{
    const int orientation = gen->orientation, square = gen->line * gen->size + position;
    const int letter = gen->board.letter_multipliers[orientation][square];
    const int word = gen->board.word_multipliers[orientation][square],
              crosses = gen->board.has_cross_word[orientation][square];
    const int cross_score = gen->board.cross_scores[orientation][square];
    const int length = gen->word_length;
    /* Only the wanted tiles' arcs are read: each found from the list's tile mask. */
    while (wanted) {
        unsigned tile = (unsigned)lowest_bit(wanted);
        wanted &= wanted - 1;
        uint64_t arc;
        if (!arc_of_tile(gen, node, list_tiles, tile, &arc))
            break;
        uint32_t target = (uint32_t)LX_TARGET(arc);
        int accepts = (int)LX_ACCEPTS(arc);
        if (target || accepts) {
            if (gen->rack_counts[tile]) {
                int points = gen->tile_points[tile];
                take_from_rack(gen, (int)tile);
                gen->word[length] = (uint8_t)tile;
                gen->word_length = length + 1;
                extend_right(gen, target, position + 1, accepts, tiles_placed + 1, main_word_points + points * letter,
                             main_word_multiplier * word,
                             cross_word_scores + (crosses ? (cross_score + points * letter) * word : 0), square);
                put_back_on_rack(gen, (int)tile);
            }
            if (gen->rack_counts[0]) {
                take_from_rack(gen, 0);
                gen->word[length] = (uint8_t)(tile | LX_BLANK_FLAG);
                gen->word_length = length + 1;
                extend_right(gen, target, position + 1, accepts, tiles_placed + 1, main_word_points,
                             main_word_multiplier * word, cross_word_scores + (crosses ? cross_score * word : 0),
                             square);
                put_back_on_rack(gen, 0);
            }
        }
        if (gen->error)
            break;
    }
    gen->word_length = length;
}

/* Extend right from `position` of the current line (gen->orientation, gen->line; anchor gen->anchor; word from
 * gen->word_start): board tiles followed, the play recorded when it ends on a word, then each rack tile the next
 * empty square allows (place_tiles_at says what the play so far holds). */
static void
extend_right(MoveGenerator *gen, uint32_t node, int position, int accepts, int tiles_placed, int main_word_points,
             int main_word_multiplier, int cross_word_scores, int last_square)
{
    const int size = gen->size, orientation = gen->orientation, base = gen->line * size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    if (lx_deadline_passed(&gen->deadline)) {
        gen->error = ERROR_DEADLINE;
        return;
    }
    while (position < size && tiles[base + position]) { /* board tiles: follow them without recursion */
        uint64_t arc;
        if (!follow_tile(gen, node, tiles[base + position], &arc))
            return;
        gen->word[gen->word_length++] = 0;
        node = (uint32_t)LX_TARGET(arc);
        accepts = (int)LX_ACCEPTS(arc);
        main_word_points += gen->board.line_points[orientation][base + position];
        position++;
    }
    /* a word of two squares or more through the anchor; a one-tile down play making an across word came already */
    if (accepts && tiles_placed && position > gen->anchor && position - gen->word_start >= 2
        && !(orientation == DOWN && tiles_placed == 1 && gen->board.has_cross_word[orientation][last_square])) {
        record_play(gen, main_word_points * main_word_multiplier + cross_word_scores
                             + (tiles_placed == gen->rack_size ? gen->bingo_bonus : 0));
        if (gen->error)
            return;
    }
    if (position >= size || !node || gen->tiles_on_rack == 0 || gen->error)
        return;
    if (node >= gen->arc_count) {
        gen->error = ERROR_GRAPH;
        return;
    }
    const uint64_t list_tiles = tile_mask_at(gen, node);
    uint64_t wanted = list_tiles & gen->board.cross_checks[orientation][base + position];
    if (!gen->rack_counts[0])
        wanted &= gen->rack_tile_set;
    if (wanted)
        place_tiles_at(gen, node, list_tiles, position, wanted, tiles_placed, main_word_points, main_word_multiplier,
                       cross_word_scores);
}

/* The left part in hand (gen->left_part_*, `depth` tiles, ending before each anchor; `followers`: the tiles the
 * rack may put after it) tried at every queued anchor with room for it; returns the most room an anchor still
 * worth trying has. */
static inline int
try_left_part(MoveGenerator *gen, uint32_t node, int depth, uint64_t followers)
{
    const int size = gen->size;
    int live_room = gen->anchors_by_bound ? 0 : gen->most_left_room;
    for (int k = 0; k < gen->queued_count; k++) {
        const Anchor *anchor = &gen->queued_anchors[k];
        if (gen->anchors_by_bound) { /* anchors come best bound first; the heap's worst only rises */
            const double worst = worst_key(gen);
            if (anchor->bound < worst)
                break;
            /* the longest left part that may still make the list here: the walk need not go deeper */
            int room = anchor->left_room;
            while (room > live_room && gen->left_bounds[anchor->bounds_at + room] < worst)
                room--;
            if (room > live_room)
                live_room = room;
            if (anchor->left_room < depth || gen->left_bounds[anchor->bounds_at + depth] < worst_key(gen))
                continue; /* no room, or no play with a left part this long can make the list */
        } else if (anchor->left_room < depth) {
            break; /* anchors come longest room first */
        }
        const int base = anchor->line * size, orientation = anchor->orientation;
        if (!(gen->board.cross_checks[orientation][base + anchor->position] & followers))
            continue;
        int main_word_points = 0, main_word_multiplier = 1;
        for (int j = 0; j < depth; j++) {
            int square = base + anchor->position - depth + j;
            main_word_points += gen->left_part_points[j] * gen->board.letter_multipliers[orientation][square];
            main_word_multiplier *= gen->board.word_multipliers[orientation][square];
        }
        gen->word_length = depth;
        /* the whole array, a fixed size copied inline: the bytes past `depth` are written before they are read */
        memcpy(gen->word, gen->left_part_tiles, sizeof gen->left_part_tiles);
        gen->orientation = orientation;
        gen->line = anchor->line;
        gen->anchor = anchor->position;
        gen->word_start = anchor->position - depth;
        extend_right(gen, node, anchor->position, 0, depth, main_word_points, main_word_multiplier, 0, -1);
        if (gen->error)
            break;
    }
    return live_room;
}

/* Every left part from the rack, built once and tried at every anchor whose free squares can hold it. */
static void
left_parts(MoveGenerator *gen, uint32_t node, int depth)
{
    if (node >= gen->arc_count) {
        gen->error = ERROR_GRAPH;
        return;
    }
    const uint64_t list_tiles = node ? tile_mask_at(gen, node) : 0; /* the tiles that can follow the left part */
    const uint64_t playable = gen->rack_counts[0] ? ~(uint64_t)1 : gen->rack_tile_set;
    int live_room = gen->most_left_room; /* the most room an anchor still worth trying has */
    if (list_tiles & playable) {
        live_room = try_left_part(gen, node, depth, list_tiles & playable);
        if (gen->error)
            return;
    }
    if (depth >= live_room || !node)
        return;
    uint64_t wanted = list_tiles & playable; /* the tiles the rack can put next: their arcs only */
    while (wanted) {
        unsigned tile = (unsigned)lowest_bit(wanted);
        wanted &= wanted - 1;
        uint64_t arc;
        if (!arc_of_tile(gen, node, list_tiles, tile, &arc))
            return;
        for (int blank = 0; blank < 2; blank++) {
            int code = blank ? 0 : (int)tile;
            if (!gen->rack_counts[code])
                continue;
            take_from_rack(gen, code);
            gen->left_part_tiles[depth] = (uint8_t)(blank ? (tile | LX_BLANK_FLAG) : tile);
            gen->left_part_points[depth] = blank ? 0 : gen->tile_points[tile];
            left_parts(gen, (uint32_t)LX_TARGET(arc), depth + 1);
            put_back_on_rack(gen, code);
            if (gen->error)
                return;
        }
    }
}

/* -- cross-checks and anchors ----------------------------------------------------------------------------- */

/* Whether `arc` (a tile put on the square between the cross-word's upper part and `below_end`) ends a word with
 * the board tiles below the square, rows square_row + 1 .. below_end of `column`. */
static int
completes_cross_word(MoveGenerator *gen, int orientation, uint64_t arc, int column, int square_row, int below_end)
{
    const int size = gen->size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    if (below_end == square_row)
        return (int)LX_ACCEPTS(arc);
    uint32_t node = (uint32_t)LX_TARGET(arc);
    int accepts = 0;
    for (int row = square_row + 1; row <= below_end; row++) {
        uint64_t next;
        if (!follow_tile(gen, node, tiles[row * size + column], &next))
            return 0;
        accepts = (int)LX_ACCEPTS(next);
        node = (uint32_t)LX_TARGET(next);
    }
    return accepts;
}

/* The tiles that may go on the empty square (square_row, column) of orientation's lines, between board tiles
 * from above_start to below_end across the line: those the rack can play (`wanted`) that make a word there. */
static uint64_t
cross_check_of(MoveGenerator *gen, int orientation, int column, int square_row, int above_start, int below_end,
               uint64_t wanted)
{
    const int size = gen->size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    uint32_t node = gen->root;
    for (int row = above_start; row < square_row; row++) {
        uint64_t arc;
        if (!follow_tile(gen, node, tiles[row * size + column], &arc))
            return 0;
        node = (uint32_t)LX_TARGET(arc);
    }
    if (!node)
        return 0;
    uint64_t allowed = 0;
    for (size_t index = node;; index++) {
        if (index >= gen->arc_count) {
            gen->error = ERROR_GRAPH;
            return 0;
        }
        uint64_t arc = lx_arc_at(gen->arcs, index);
        unsigned tile = LX_TILE(arc);
        /* a tile the rack cannot play here: no need to know */
        if (tile < LX_MAX_MOVE_TILE_CODES && ((wanted >> tile) & 1u)
            && completes_cross_word(gen, orientation, arc, column, square_row, below_end))
            allowed |= (uint64_t)1 << tile;
        if (LX_IS_LAST(arc))
            break;
    }
    return allowed;
}

/* Cross-checks, cross scores and anchors of one orientation (its lines are the rows of its arrays). */
static void
find_cross_checks(MoveGenerator *gen, int orientation, uint64_t every_tile, uint64_t wanted, int start_square)
{
    const int size = gen->size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    for (int square = 0; square < size * size && !gen->error; square++) {
        gen->board.cross_checks[orientation][square] = every_tile;
        gen->board.cross_scores[orientation][square] = 0;
        gen->board.has_cross_word[orientation][square] = 0;
        gen->board.is_anchor[orientation][square] = 0;
        if (tiles[square])
            continue;
        int row = square / size, column = square % size, above = row, below = row;
        while (above > 0 && tiles[(above - 1) * size + column])
            above--;
        while (below + 1 < size && tiles[(below + 1) * size + column])
            below++;
        if ((column > 0 && tiles[square - 1]) || (column + 1 < size && tiles[square + 1]))
            gen->board.is_anchor[orientation][square] = 1;
        if (above == row && below == row)
            continue;
        gen->board.has_cross_word[orientation][square] = 1;
        gen->board.is_anchor[orientation][square] = 1;
        int cross_score = 0;
        for (int k = above; k <= below; k++)
            if (k != row)
                cross_score += gen->board.line_points[orientation][k * size + column];
        gen->board.cross_scores[orientation][square] = cross_score;
        gen->board.cross_checks[orientation][square] =
            cross_check_of(gen, orientation, column, row, above, below, wanted);
    }
    if (gen->board.board_empty)
        gen->board.is_anchor[orientation][start_square] = 1;
}

static int
by_bound(const void *x, const void *y)
{
    const Anchor *a = x, *b = y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    if (a->orientation != b->orientation)
        return b->orientation - a->orientation;
    if (a->line != b->line)
        return a->line - b->line;
    return a->position - b->position;
}

/* The queued anchors by room for a left part, most first (a counting sort: stable, rooms are small), so that
 * left_parts stops at the first anchor without room for the left part in hand; or, when the heap is already full,
 * by shadow bound, best first, so that it stops at the first that cannot beat the heap's worst. */
static void
sort_anchors(MoveGenerator *gen)
{
    if (heap_full(gen)) {
        /* each anchor's bound, and its bound per left part length (a left part of d tiles starts its plays d
         * squares left of the anchor: only the extents from there count) */
        int slots = 0;
        for (int k = 0; k < gen->queued_count; k++)
            slots += gen->queued_anchors[k].left_room + 1;
        gen->left_bounds = malloc((size_t)(slots ? slots : 1) * sizeof(double));
        if (!gen->left_bounds) {
            gen->error = ERROR_MEMORY;
            return;
        }
        for (int k = 0, at = 0; k < gen->queued_count; k++) {
            Anchor *anchor = &gen->queued_anchors[k];
            anchor->bounds_at = at;
            for (int d = 0; d <= anchor->left_room; d++)
                gen->left_bounds[at + d] = -1e300;
            anchor->bound = anchor_bound(gen, anchor->orientation, anchor->line, anchor->position, -1,
                                         anchor->left_room, gen->left_bounds + at);
            at += anchor->left_room + 1;
        }
        /* An anchor whose bound is already below the heap's worst is never tried (the worst only rises): dropped
         * before the sort, and the left parts' walk need only reach the rooms of the others. */
        const double worst = worst_key(gen);
        int live = 0;
        gen->most_left_room = 0;
        for (int k = 0; k < gen->queued_count; k++) {
            const Anchor *anchor = &gen->queued_anchors[k];
            if (anchor->bound < worst)
                continue;
            if (anchor->left_room > gen->most_left_room)
                gen->most_left_room = anchor->left_room;
            gen->queued_anchors[live++] = *anchor;
        }
        gen->queued_count = live;
        qsort(gen->queued_anchors, (size_t)gen->queued_count, sizeof(Anchor), by_bound);
        gen->anchors_by_bound = 1;
        return;
    }
    int count[LX_MAX_BOARD_SIZE + 1] = {0}, start[LX_MAX_BOARD_SIZE + 2];
    for (int k = 0; k < gen->queued_count; k++)
        count[gen->queued_anchors[k].left_room]++;
    start[LX_MAX_BOARD_SIZE] = 0;
    for (int room = LX_MAX_BOARD_SIZE; room > 0; room--)
        start[room - 1] = start[room] + count[room];
    Anchor *sorted = malloc((size_t)gen->queued_count * sizeof(Anchor));
    if (!sorted) {
        gen->error = ERROR_MEMORY;
        return;
    }
    for (int k = 0; k < gen->queued_count; k++)
        sorted[start[gen->queued_anchors[k].left_room]++] = gen->queued_anchors[k];
    memcpy(gen->queued_anchors, sorted, (size_t)gen->queued_count * sizeof(Anchor));
    free(sorted);
}

/* An anchor with board tiles on its left (from left_start): those tiles are the left part; extend at once. */
static void
extend_after_board_tiles(MoveGenerator *gen, int orientation, int line, int anchor)
{
    const int base = line * gen->size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    int left_start = anchor - 1;
    while (left_start > 0 && tiles[base + left_start - 1])
        left_start--;
    uint32_t node = gen->root;
    int accepts = 0, main_word_points = 0;
    gen->word_length = 0;
    for (int j = left_start; j < anchor; j++) {
        uint64_t arc;
        if (!follow_tile(gen, node, tiles[base + j], &arc))
            return;
        node = (uint32_t)LX_TARGET(arc);
        accepts = (int)LX_ACCEPTS(arc);
        main_word_points += gen->board.line_points[orientation][base + j];
        gen->word[gen->word_length++] = 0;
    }
    if (heap_full(gen) && anchor_bound(gen, orientation, line, anchor, left_start, 0, NULL) < worst_key(gen))
        return;
    gen->orientation = orientation;
    gen->line = line;
    gen->anchor = anchor;
    gen->word_start = left_start;
    extend_right(gen, node, anchor, accepts, 0, main_word_points, 1, 0, -1);
}

/* An anchor with a free square on its left: queued for left_parts, with the room its left parts may take. */
static void
queue_anchor(MoveGenerator *gen, int orientation, int line, int anchor, int total_rack)
{
    const int base = line * gen->size;
    int room = 0, k = anchor - 1;
    while (k >= 0 && !gen->board.line_tiles[orientation][base + k] && !gen->board.is_anchor[orientation][base + k]) {
        room++;
        k--;
    }
    if (room > gen->rack_size - 1)
        room = gen->rack_size - 1;
    if (room > total_rack - 1)
        room = total_rack - 1;
    Anchor *queued = &gen->queued_anchors[gen->queued_count++];
    queued->orientation = orientation;
    queued->line = line;
    queued->position = anchor;
    queued->left_room = room;
    if (room > gen->most_left_room)
        gen->most_left_room = room;
}

/* Anchors with board tiles on their left extend at once; the others are queued for left_parts. */
static void
collect_anchors(MoveGenerator *gen, int orientation, int total_rack)
{
    const int size = gen->size;
    for (int line = 0; line < size && !gen->error; line++) {
        const int base = line * size;
        for (int anchor = 0; anchor < size && !gen->error; anchor++) {
            if (!gen->board.is_anchor[orientation][base + anchor])
                continue;
            if (anchor > 0 && gen->board.line_tiles[orientation][base + anchor - 1])
                extend_after_board_tiles(gen, orientation, line, anchor);
            else
                queue_anchor(gen, orientation, line, anchor, total_rack);
        }
    }
}

/* -- one generation --------------------------------------------------------------------------------------- */

/* Each code's place value in the used-tile index (mixed radix over the rack's codes, ascending), and the
 * table length it implies; -1 when that exceeds LX_MAX_RACK_SUBSETS. */
static long
compute_place_values(MoveGenerator *gen)
{
    long size = 1;
    for (int code = 0; code < LX_MAX_MOVE_TILE_CODES; code++)
        gen->place_values[code] = 0;
    for (int code = 0; code < gen->code_count; code++) {
        if (!gen->rack_counts[code])
            continue;
        gen->place_values[code] = (int)size;
        size *= (long)gen->rack_counts[code] + 1;
        if (size > LX_MAX_RACK_SUBSETS) {
            for (int other = 0; other < LX_MAX_MOVE_TILE_CODES; other++)
                gen->place_values[other] = 0; /* no table: the index stays 0 */
            return -1;
        }
    }
    return size;
}

/* The generator's fields from the request; only the scalars and the small arrays are set: every board array is
 * written before it is read (read_board and find_cross_checks fill them for all squares), and calloc of the
 * whole struct cost more than a small generation. */
static void
start_generator(MoveGenerator *gen, const LxMoveInput *in)
{
    const LxGameTables *tables = in->tables;
    gen->arcs = tables->arcs;
    gen->arc_count = tables->arc_count;
    gen->tile_masks = tables->tile_masks;
    gen->root = tables->root;
    gen->size = tables->size;
    gen->rack_size = tables->rack_size;
    gen->bingo_bonus = tables->bingo_bonus;
    gen->code_count = tables->code_count;
    gen->vowels = tables->vowels;
    gen->opening_penalty = in->opening && tables->has_opening_penalty ? tables->opening_penalty : NULL;
    gen->across_only_opening = tables->symmetric && !in->both_directions;
    gen->leave_values = NULL;
    gen->left_bounds = NULL;
    gen->word_map = NULL;
    gen->error = 0;
    gen->word_length = 0;
    gen->queued_count = 0;
    gen->most_left_room = 0;
    gen->rack_tile_set = 0;
    gen->tiles_on_rack = 0;
    gen->records = NULL;
    gen->play_count = gen->kept = gen->capacity = 0;
    gen->leave_index = 0;
    /* A large `top` keeps every play in generation order, ranked at the end (rank_every_record), not in a heap. */
    gen->rank_all_to = in->top >= LX_RANK_ALL_FROM ? in->top : -1;
    gen->top = gen->rank_all_to >= 0 ? -1 : in->top;
    gen->by_equity = in->by_equity;
    gen->anchors_by_bound = 0;
    gen->deadline = in->deadline;
    memset(gen->rack_counts, 0, sizeof gen->rack_counts);
    memset(gen->tile_points, 0, sizeof gen->tile_points);
    for (int code = 0; code < gen->code_count; code++) {
        gen->tile_points[code] = tables->points[code];
        gen->rack_counts[code] = in->rack[code];
        gen->tiles_on_rack += gen->rack_counts[code];
        if (code && gen->rack_counts[code])
            gen->rack_tile_set |= (uint64_t)1 << code;
    }
}

/* The board in both orientations' line coordinates; LX_MOVEGEN_BAD_BOARD for a tile outside the alphabet. */
static int
read_board(MoveGenerator *gen, const LxMoveInput *in)
{
    const int size = gen->size;
    const LxGameTables *tables = in->tables;
    if (in->board_state) { /* kept by the caller from turn to turn (its cross-checks hold every code, a superset
                              * of the rack's that every reader intersects with the rack) */
        lx_board_state_copy(&gen->board, in->board_state);
        return LX_MOVEGEN_OK;
    }
    gen->board.size = size;
    gen->board.board_empty = 1;
    for (int square = 0; square < size * size; square++) {
        if (in->board[square] >= gen->code_count)
            return LX_MOVEGEN_BAD_BOARD;
        if (in->board[square])
            gen->board.board_empty = 0;
    }
    for (int orientation = ACROSS; orientation >= DOWN; orientation--)
        for (int row = 0; row < size; row++)
            for (int column = 0; column < size; column++) {
                int source = orientation == ACROSS ? row * size + column : column * size + row;
                int square = row * size + column;
                unsigned char code = in->board[source];
                gen->board.line_tiles[orientation][square] = code;
                gen->board.line_points[orientation][square] =
                    (code && !in->blanks[source]) ? gen->tile_points[code] : 0;
                gen->board.letter_multipliers[orientation][square] = tables->letter_multipliers[source];
                gen->board.word_multipliers[orientation][square] = tables->word_multipliers[source];
            }
    return LX_MOVEGEN_OK;
}

/* The best plays by the word map, when it can answer (movegen_wordmap.h: a part of this file). */
#include "movegen_wordmap.h"

/* Both orientations' anchors found and their plays grown; the heap sorted. */
static void
generate_plays(MoveGenerator *gen, int start_square, const LxBoardState *kept)
{
    const int size = gen->size;
    uint64_t every_tile = 0;
    for (int code = 1; code < gen->code_count; code++)
        every_tile |= (uint64_t)1 << code;
    const uint64_t wanted = gen->rack_counts[0] ? every_tile : gen->rack_tile_set;
    /* An empty board of a symmetric layout: the down plays are the across plays transposed (MAGPIE's and
     * Macondo's convention lists the across ones only). */
    const int last = gen->board.board_empty && gen->across_only_opening ? ACROSS : DOWN;
    for (int orientation = ACROSS; orientation >= last && !gen->error; orientation--) {
        int start = orientation == ACROSS ? start_square : (start_square % size) * size + start_square / size;
        if (!kept) /* else read_board copied them */
            find_cross_checks(gen, orientation, every_tile, wanted, start);
        if (!gen->error)
            collect_anchors(gen, orientation, gen->tiles_on_rack);
    }
    if (!gen->error && gen->queued_count)
        sort_anchors(gen);
    if (!gen->error && gen->queued_count)
        left_parts(gen, gen->root, 0);
    if (!gen->error && gen->rank_all_to >= 0)
        rank_every_record(gen, (size_t)gen->rank_all_to);
    else if (!gen->error && gen->top >= 0)
        sort_heap(gen);
}

/* The generation itself, without Python objects (the caller may hold the GIL or not): see movegen.h. */
int LX_MOVEGEN_CORE(const LxMoveInput *in, LxMoveOutput *result);

int
LX_MOVEGEN_CORE(const LxMoveInput *in, LxMoveOutput *result)
{
    result->records = NULL;
    result->kept = 0;
    result->count = 0;
    MoveGenerator *gen = malloc(sizeof(MoveGenerator));
    if (!gen)
        return LX_MOVEGEN_MEMORY;
    start_generator(gen, in);
    int status = LX_MOVEGEN_OK;
    long subsets = compute_place_values(gen);
    if (in->leave_values) {
        if (subsets < 0 || in->leave_value_count != (size_t)subsets) {
            status = LX_MOVEGEN_BAD_TABLE;
            goto done;
        }
        gen->leave_values = in->leave_values;
    }
    if ((status = read_board(gen, in)) != LX_MOVEGEN_OK)
        goto done;
    gen->prune = in->prune && in->top > 0 && in->tables->shadow_bounds_hold;
    if (gen->prune) {
        prepare_bounds(gen, subsets);
        prepare_word_map(gen, in->tables->word_map);
    }
    if (lx_deadline_passed_now(&gen->deadline)) {
        status = LX_MOVEGEN_DEADLINE;
        goto done;
    }
    if (gen->tiles_on_rack == 0 || gen->root >= gen->arc_count)
        goto done; /* no play: none kept, none counted */
    if (!generate_plays_by_word_map(gen, in->tables->start_square, in->board_state))
        generate_plays(gen, in->tables->start_square, in->board_state);
    if (gen->error)
        status = gen->error == ERROR_GRAPH    ? LX_MOVEGEN_GRAPH
                 : gen->error == ERROR_MEMORY ? LX_MOVEGEN_MEMORY
                                              : LX_MOVEGEN_DEADLINE;
    else {
        result->records = (unsigned char *)gen->records;
        gen->records = NULL;
        result->kept = gen->kept;
        result->count = gen->prune ? -1 : (Py_ssize_t)gen->play_count;
    }
done:
    free(gen->records);
    free(gen->left_bounds);
    free(gen);
    return status;
}

#if LX_MOVEGEN_ENTRY_POINTS

#if LX_POPCNT_CLONE
int lx_movegen_run_popcnt(const LxMoveInput *in, LxMoveOutput *result);

/* Whether this processor counts bits in one instruction (asked once; every caller gets the same answer). Threads
 * may ask at once (self-play's and the play-outs' threads): the answer is read and kept atomically. */
static int
has_popcnt(void)
{
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("popcnt") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}
#endif

int
lx_movegen_run(const LxMoveInput *in, LxMoveOutput *result)
{
#if LX_POPCNT_CLONE
    if (has_popcnt())
        return lx_movegen_run_popcnt(in, result);
#endif
    return lx_movegen_run_portable(in, result);
}

int lx_movegen_word_map_path = LX_WORD_MAP_PATH_CHOSEN;

/* word_map_path(mode) -> the mode before: see movegen.h's LX_WORD_MAP_PATH_*. */
static PyObject *
set_word_map_path(PyObject *module, PyObject *args)
{
    int mode;
    if (!PyArg_ParseTuple(args, "i:word_map_path", &mode))
        return NULL;
    if (mode < LX_WORD_MAP_PATH_CHOSEN || mode > LX_WORD_MAP_PATH_NEVER) {
        PyErr_SetString(PyExc_ValueError, "word_map_path: the mode is 0, 1 or 2");
        return NULL;
    }
    return PyLong_FromLong(__atomic_exchange_n(&lx_movegen_word_map_path, mode, __ATOMIC_RELAXED));
}

/* -- generate_moves: the Python entry point ---------------------------------------------------------------- */

/* A copy of a table of doubles passed as bytes (a request's bytes need not be aligned for doubles), or NULL with
 * MemoryError set. */
static double *
aligned_doubles(const char *bytes, Py_ssize_t size)
{
    double *copy = malloc((size_t)(size ? size : 1));
    if (!copy) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, bytes, (size_t)size);
    return copy;
}

/* The Python answer of a generation's status: (records, count), or the error it stands for. */
static PyObject *
answer_of(int status, LxMoveOutput *out)
{
    switch (status) {
    case LX_MOVEGEN_OK:
        return Py_BuildValue("(y#n)", out->records ? (const char *)out->records : "",
                             (Py_ssize_t)(out->kept * LX_MOVE_RECORD_SIZE), out->count);
    case LX_MOVEGEN_BAD_TABLE:
        PyErr_SetString(PyExc_ValueError, "generate_moves: the leave table does not fit the rack");
        return NULL;
    case LX_MOVEGEN_BAD_BOARD:
        PyErr_SetString(PyExc_ValueError, "generate_moves: a board tile is outside the alphabet");
        return NULL;
    case LX_MOVEGEN_GRAPH:
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        return NULL;
    case LX_MOVEGEN_DEADLINE:
        PyErr_SetString(PyExc_TimeoutError, "generate_moves: past the deadline");
        return NULL;
    default:
        return PyErr_NoMemory();
    }
}

static PyObject *
generate_moves(PyObject *module, PyObject *args)
{
    PyObject *request, *tables_object, *deadline_object = Py_None;
    const char *board, *blanks, *rack, *leave_values;
    Py_ssize_t board_length, blanks_length, rack_length, leave_length, top;
    int by_equity, prune, opening, both_directions = 0;
    if (!PyArg_ParseTuple(args, "O!|O:generate_moves", &PyTuple_Type, &request, &deadline_object)
        || !PyArg_ParseTuple(request, "Oy#y#y#y#nppp|p:generate_moves", &tables_object, &board, &board_length, &blanks,
                             &blanks_length, &rack, &rack_length, &leave_values, &leave_length, &top, &by_equity,
                             &prune, &opening, &both_directions))
        return NULL;
    const LxGameTables *tables = lx_game_tables_of(tables_object);
    LxMoveInput in = {.tables = tables,
                      .opening = opening,
                      .top = top,
                      .by_equity = by_equity,
                      .prune = prune,
                      .both_directions = both_directions};
    if (tables == NULL || lx_deadline_parse(deadline_object, &in.deadline) < 0)
        return NULL;
    Py_ssize_t squares = (Py_ssize_t)tables->size * tables->size;
    if (board_length != squares || blanks_length != squares || rack_length != tables->code_count
        || leave_length % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "generate_moves: inconsistent arguments");
        return NULL;
    }
    double *table = leave_length ? aligned_doubles(leave_values, leave_length) : NULL;
    if (leave_length && !table)
        return NULL;
    in.board = (const unsigned char *)board;
    in.blanks = (const unsigned char *)blanks;
    in.rack = (const unsigned char *)rack;
    in.leave_values = table;
    in.leave_value_count = (size_t)leave_length / sizeof(double);
    LxMoveOutput out;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = lx_movegen_run(&in, &out);
    Py_END_ALLOW_THREADS
    PyObject *result = answer_of(status, &out);
    if (status == LX_MOVEGEN_OK)
        free(out.records);
    free(table);
    return result;
}

static PyMethodDef movegen_methods[] = {
    {"generate_moves", generate_moves, METH_VARARGS,
     "generate_moves(request, deadline=None) -> (records, count)\n\n"
     "Plays on a board for a rack as fixed records, valued by equity; every play, or the best `top` best first "
     "(see movegen.c)."},
    {"word_map_path", set_word_map_path, METH_VARARGS,
     "word_map_path(mode) -> int\n\n"
     "Which path the pruned ranking takes with a word map: 0 chosen per rack (the default), 1 the word map whenever "
     "it answers, 2 the graph walk; returns the mode before (for benchmarks and tests: the records are the same)."},
    {NULL, NULL, 0, NULL}};

int
lx_add_movegen(PyObject *module)
{
    return PyModule_AddFunctions(module, movegen_methods);
}

#endif /* LX_MOVEGEN_ENTRY_POINTS */
