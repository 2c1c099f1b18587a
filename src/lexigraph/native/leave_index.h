/*
 * leave_index.h: a leave table indexed by the rank of the leave (a multiset of tile codes), so that a leave's
 * value is one array read instead of a binary search over the sorted keys (about twenty probes over the shipped
 * table's 914,624 keys, the last ones cache misses).
 *
 * The rank. A leave of k tiles, its codes sorted c_1 <= ... <= c_k (the blank's code 0 included), with
 * t_i = c_i + 1, has rank  sum_i C(t_i + i - 2, i):  the colex rank of the set {t_i + i - 2}, which maps the
 * multisets of k codes of n one to one onto 0 .. C(n + k - 1, k) - 1. Its slot is base[k] + rank, base[k] the
 * slots of the shorter leaves. Slots the table does not list hold 0, a missing leave's value.
 *
 * Size: for 27 codes and leaves of up to 6 tiles, 1,107,568 slots of a double (8.9 MB; the shipped table lists
 * 82% of them). A table whose slots would exceed max(4 x its leaves, 2^22) gets no index (lx_leave_index_build
 * answers 1) and its users keep the binary search: long leaves over large alphabets stay bounded in memory.
 */
#ifndef LEXIGRAPH_LEAVE_INDEX_H
#define LEXIGRAPH_LEAVE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "limits.h"

typedef struct {
    double *values; /* by slot */
    size_t slot_count;
    int code_count; /* n: the codes a leave may hold (0 .. n - 1) */
    int longest;    /* the longest leave the table lists */
    size_t base[LX_LEAVE_KEY_TILES + 2];
    /* rank_part[i][c]: C(c + 1 + i - 2, i), the part of the rank of code c at (1-based) place i */
    uint64_t rank_part[LX_LEAVE_KEY_TILES + 1][LX_MAX_MOVE_TILE_CODES];
} LxLeaveIndex;

/* The index of a table given as leaves.c's sorted keys and a double each (little-endian, unaligned), over
 * `code_count` codes: 0, or 1 when it would be too large (no index: values stays NULL), or -1 out of memory.
 * Keys holding a code of `code_count` or more are left out (no rack of the game holds them). */
int lx_leave_index_build(LxLeaveIndex *index, const unsigned char *keys, const unsigned char *values, size_t count,
                         int code_count);

void lx_leave_index_free(LxLeaveIndex *index);

/* The value of the tiles `rack` keeps when `used` go (counts per code, code_count of them; `used` NULL: none go),
 * 0 when the table does not list them or they are longer than its longest leave. The index must be built. */
static inline double
lx_leave_index_value(const LxLeaveIndex *index, const int *rack, const int *used)
{
    uint64_t rank = 0;
    int place = 0;
    for (int code = 0; code < index->code_count; code++) {
        int kept = rack[code] - (used ? used[code] : 0);
        if (place + kept > index->longest)
            return 0.0;
        for (int j = 0; j < kept; j++)
            rank += index->rank_part[++place][code];
    }
    return place ? index->values[index->base[place] + rank] : 0.0;
}

#endif
