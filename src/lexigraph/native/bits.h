/* bits.h: the lowest set bit and the number of set bits of a 64-bit word, for the C files that
 * keep sets as bit masks (movegen.c's tile sets, fill_state.c's candidate rows). */
#ifndef LX_BITS_H
#define LX_BITS_H

#include <stdint.h>

/* 1 where a second copy of the hottest code is built for processors with the popcnt instruction (GCC on x86;
 * movegen_popcnt.c) and chosen at run time: a build for every x86-64 still counts bits in one instruction. */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define LX_POPCNT_CLONE 1
#else
#define LX_POPCNT_CLONE 0
#endif

/* x must not be 0. */
static inline int
lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int b = 0;
    while (!(x & 1)) {
        x >>= 1;
        b++;
    }
    return b;
#endif
}

static inline int
bit_count(uint64_t x)
{
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    /* Without the popcnt instruction GCC calls a library function: this inline count is faster. */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

#endif
