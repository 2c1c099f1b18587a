/* leave_index.c: the rank-indexed leave table (leave_index.h says the layout and why). */
#include "leave_index.h"

#include <stdlib.h>
#include <string.h>

/* C(n, k), or UINT64_MAX past 2^63 (no index is that large). */
static uint64_t
choose(uint64_t n, uint64_t k)
{
    if (k > n)
        return 0;
    uint64_t out = 1;
    for (uint64_t i = 1; i <= k; i++) {
        if (out > (UINT64_MAX >> 1) / (n - k + i))
            return UINT64_MAX;
        out = out * (n - k + i) / i; /* exact: a product of i consecutive numbers divides by i! */
    }
    return out;
}

int
lx_leave_index_build(LxLeaveIndex *index, const unsigned char *keys, const unsigned char *values, size_t count,
                     int code_count)
{
    memset(index, 0, sizeof *index);
    index->code_count = code_count;
    for (size_t i = 0; i < count; i++) {
        uint64_t key;
        memcpy(&key, keys + 8 * i, 8);
        int length = (int)(key >> 60);
        if (length > index->longest && length <= LX_LEAVE_KEY_TILES)
            index->longest = length;
    }
    uint64_t slots = 0, limit = 4 * (uint64_t)count > ((uint64_t)1 << 22) ? 4 * (uint64_t)count : (uint64_t)1 << 22;
    for (int k = 0; k <= index->longest; k++) {
        index->base[k] = (size_t)slots;
        uint64_t here = choose((uint64_t)code_count + (uint64_t)k - 1, (uint64_t)k);
        if (here == UINT64_MAX || slots + here > limit)
            return 1;
        slots += here;
    }
    index->base[index->longest + 1] = (size_t)slots;
    for (int place = 1; place <= index->longest; place++)
        for (int code = 0; code < code_count; code++)
            index->rank_part[place][code] = choose((uint64_t)code + (uint64_t)place - 1, (uint64_t)place);
    index->values = calloc((size_t)slots, sizeof(double));
    if (!index->values)
        return -1;
    index->slot_count = (size_t)slots;
    for (size_t i = 0; i < count; i++) {
        uint64_t key;
        double value;
        memcpy(&key, keys + 8 * i, 8);
        memcpy(&value, values + 8 * i, 8);
        int length = (int)(key >> 60);
        if (length < 1 || length > index->longest)
            continue;
        uint64_t rank = 0;
        int usable = 1;
        for (int place = 1; place <= length; place++) {
            int code = (int)((key >> (6 * (place - 1))) & 63);
            if (code >= code_count) {
                usable = 0;
                break;
            }
            rank += index->rank_part[place][code];
        }
        if (usable)
            index->values[index->base[length] + rank] = value;
    }
    return 0;
}

void
lx_leave_index_free(LxLeaveIndex *index)
{
    free(index->values);
    index->values = NULL;
}
