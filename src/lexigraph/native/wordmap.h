/*
 * wordmap.h: the word map's lookups in C, for move generation: which words of length L one multiset of tiles
 * makes, with 0, 1 or 2 blanks (the blanks' letters reported), and whether there is any.
 *
 * The file (NAME.lxw) is laid out in docs/format.md ("The word map file"); lexigraph/engine/wordmap_layout.py
 * holds the same constants for Python, and lexigraph/engine/python/wordmap.py is the twin of these functions
 * (the same checks, the same answers; tests/engine/test_wordmap.py holds them together).
 *
 * Use (no function here touches Python objects or needs the GIL; an LxWordMap is read-only after init, so any
 * number of threads may look up in one):
 *
 *     LxWordMap map;
 *     char error[200];
 *     if (lx_wordmap_init(&map, data, size, error, sizeof error) < 0) ...   // refuses a forged file
 *     uint8_t tiles[] = {1, 14, 20};                       // codes 1..highest_code, sorted ascending
 *     LxWordMapHit hits[LX_WORDMAP_MAX_HITS];
 *     int n = lx_wordmap_lookup(&map, 4, tiles, 3, 1, hits, LX_WORDMAP_MAX_HITS);   // "ANT" + 1 blank
 *     for (int i = 0; i < n; i++)                          // hits[i].blanks[0]: the blank's letter
 *         for (uint32_t r = 0; r < hits[i].count; r++)
 *             use(lx_wordmap_row(&map, 4, hits[i].first + r));   // 4 codes of one word
 *     lx_wordmap_release(&map);
 *
 * The data must outlive the map (a mapping of the file that Python keeps; the C WordMap type holds a buffer
 * export of it). Move generation that merges a subset of the rack with the board's letters can compute the key
 * itself (lx_wordmap_key over the merged sorted codes) and probe the tables (lx_wordmap_probe), as lookup does.
 *
 * Keys: a sorted multiset t_1 <= ... <= t_n of codes is keyed by sum C(t_i + i - 2, i) (i from 1), its exact
 * rank; ranks[i][t] holds each term. A table (length L, k blanks) is hashed by the top log2 B bits of
 * key * 0x9E3779B97F4A7C15; its bucket directory gives each bucket's run of 16-byte records (u64 key, u32 lo,
 * u32 hi), sorted by key. k = 0: the words are rows lo .. lo + hi of the length's letters. k = 1: bit c of
 * hi:lo is set iff key + c is a word multiset; k = 2: bit c iff some d >= c makes key + c + d one.
 *
 * Safety: init checks the header (magic, version, header checksum, size) and every table against the file:
 * offsets aligned and inside, each bucket directory non-decreasing from 0 to its record count. A lookup stops
 * at its bucket's end, and a words record pointing past its length's letters is an error (-2), never a read.
 * The body's checksum is checked by Python when the file is opened (lexigraph/engine/wordmap.py).
 */
#ifndef LEXIGRAPH_WORDMAP_H
#define LEXIGRAPH_WORDMAP_H

#include <stddef.h>
#include <stdint.h>

#define LX_WORDMAP_MAX_BLANKS 2
#define LX_WORDMAP_MAX_CODE 63
#define LX_WORDMAP_MAX_LENGTH 255
/* The most hits one lookup gives: one per blank letter, or per pair c <= d of two blanks' letters. */
#define LX_WORDMAP_MAX_HITS (LX_WORDMAP_MAX_CODE * (LX_WORDMAP_MAX_CODE + 1) / 2)

/* One table: the bucket directory (u32[2^log2_buckets + 1]) and the records. */
typedef struct {
    const uint8_t *directory;
    const uint8_t *records;
    uint32_t count;
    int log2_buckets;
    /* a bit per hash of a key (about 8 bits a record, built at init): a key whose bit is clear is absent, found
     * without touching the table (most probes of move generation miss, and the tables are far larger than a
     * cache); NULL for an empty table */
    const uint64_t *filter;
    int log2_filter;
} LxWordMapTable;

typedef struct {
    const uint8_t *data;
    size_t size;
    int highest_code, max_blanks, min_length, max_length;
    uint64_t lexicon_size;
    uint32_t lexicon_crc;
    LxWordMapTable tables[LX_WORDMAP_MAX_LENGTH + 1][LX_WORDMAP_MAX_BLANKS + 1];
    const uint8_t *letters[LX_WORDMAP_MAX_LENGTH + 1]; /* the words of each length, in alphagram order */
    uint32_t words[LX_WORDMAP_MAX_LENGTH + 1];
    uint64_t *ranks;   /* ranks[i * (LX_WORDMAP_MAX_CODE + 1) + t]: what code t adds at position i */
    uint64_t *filters; /* every table's filter, one allocation */
} LxWordMap;

/* One lookup's hit: the words are rows first .. first + count of the length's letters; blanks[0..k) are the
 * letters the blanks stand for, ascending (0 past k). */
typedef struct {
    uint32_t first, count;
    uint8_t blanks[LX_WORDMAP_MAX_BLANKS];
} LxWordMapHit;

/* Check the file in data[0..size) and fill `map`: 0, or -1 with a message in error (malformed or out of
 * memory). */
int lx_wordmap_init(LxWordMap *map, const uint8_t *data, size_t size, char *error, size_t error_size);
void lx_wordmap_release(LxWordMap *map);

/* The key of n codes sorted ascending (each in 1..highest_code, n <= max_length). */
static inline uint64_t
lx_wordmap_key(const LxWordMap *map, const uint8_t *sorted, int n)
{
    uint64_t key = 0;
    for (int i = 0; i < n; i++)
        key += map->ranks[i * (LX_WORDMAP_MAX_CODE + 1) + sorted[i]];
    return key;
}

/* Probe the table of (length, blanks) for key: 1 found (*lo, *hi set), 0 absent, -2 a forged words record. The
 * caller checks length in [min_length, max_length] and blanks <= max_blanks. */
int lx_wordmap_probe(const LxWordMap *map, int length, int blanks, uint64_t key, uint32_t *lo, uint32_t *hi);

/* Whether a word of `length` is made of exactly the n sorted codes and `blanks` blanks: 1 yes, 0 no, -1 bad
 * arguments (length, blanks, n + blanks != length, a code out of range or not sorted). */
int lx_wordmap_has_word(const LxWordMap *map, int length, const uint8_t *sorted, int n, int blanks);

/* The words of `length` made of exactly the n sorted codes and `blanks` blanks, one hit per blank letters
 * (ascending): the number of hits, -1 bad arguments, -2 a forged record, -3 more hits than cap (never with cap =
 * LX_WORDMAP_MAX_HITS, the most a lookup can give). */
int lx_wordmap_lookup(const LxWordMap *map, int length, const uint8_t *sorted, int n, int blanks, LxWordMapHit *hits,
                      int cap);

/* The key of the union of two sorted multisets (a rack's subset and the board letters a play goes through),
 * merged on the fly: the same as lx_wordmap_key over the merged codes. na + nb <= max_length. */
static inline uint64_t
lx_wordmap_key_merged(const LxWordMap *map, const uint8_t *a, int na, const uint8_t *b, int nb)
{
    uint64_t key = 0;
    int i = 0, j = 0;
    for (int at = 0; at < na + nb; at++) {
        uint8_t t = (j >= nb || (i < na && a[i] <= b[j])) ? a[i++] : b[j++];
        key += map->ranks[at * (LX_WORDMAP_MAX_CODE + 1) + t];
    }
    return key;
}

/* Which lengths a rack can play alone (no board tile): bit m set iff some m of the rack's tiles (n codes sorted,
 * and blanks, each blank any letter) make a word; m from min_length to max_length. A rack of at most 15 tiles and
 * at most max_blanks blanks (MAGPIE's nonplaythrough_has_word_of_length); 0 for anything else. */
uint64_t lx_wordmap_playable_lengths(const LxWordMap *map, const uint8_t *sorted, int n, int blanks);

/* The LxWordMap inside a lexigraph._native.WordMap (in Python: lexigraph.engine.wordmap.WordMap.lookups when the
 * lexicon's engine is C), or NULL with TypeError set for any other object. The caller keeps the object alive (a
 * reference) while it uses the map; the map may then be used without the GIL. */
struct _object;
const LxWordMap *lx_wordmap_of(struct _object *object);

/* The `length` codes of row `row` of the length's letters (row < words[length], which lookups guarantee). */
static inline const uint8_t *
lx_wordmap_row(const LxWordMap *map, int length, uint32_t row)
{
    return map->letters[length] + (size_t)row * (size_t)length;
}

#endif
