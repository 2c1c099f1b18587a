/*
 * hash.h: THE one definition of the lexicon's hash: zlib's CRC-32 of a word's tile codes, and the
 * home slot it gives in a length bucket's table, home slot = (crc32(codes) * home) >> 32.
 *
 * Why one place: the builder (build_tables.c, hash_table) places every word at its home slot and
 * the probe (probe.h, lx_probe_codes) looks it up there; if the two ever computed different slots
 * every lookup would miss. The Python twins use zlib.crc32 and the same formula
 * (lexigraph.compiler.hash_tables, lexigraph.engine.python.probe.PythonProbe), and tests/test_native.py
 * holds lx_home_slot to them through the module's home_slot().
 *
 * The CRC runs four bytes a step ("slicing by 4": lx_crc_tables[k] advances a byte k + 1 places);
 * hash.c fills the tables once, when the module is imported.
 */
#ifndef LEXIGRAPH_HASH_H
#define LEXIGRAPH_HASH_H

#include <stddef.h>
#include <stdint.h>

extern uint32_t lx_crc_tables[4][256];

/* Fill lx_crc_tables; module.c calls it before anything hashes. */
void lx_crc_init(void);

/* The same value as zlib.crc32(p[0:n]). */
static inline uint32_t
lx_crc32(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        crc ^= (uint32_t)p[j] | (uint32_t)p[j + 1] << 8 | (uint32_t)p[j + 2] << 16 | (uint32_t)p[j + 3] << 24;
        crc = lx_crc_tables[3][crc & 0xFF] ^ lx_crc_tables[2][(crc >> 8) & 0xFF] ^ lx_crc_tables[1][(crc >> 16) & 0xFF]
              ^ lx_crc_tables[0][crc >> 24];
    }
    for (; j < n; j++)
        crc = lx_crc_tables[0][(crc ^ p[j]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

/* The home slot of the tile codes p[0:n] in a table whose hash spreads over `home` slots:
 * (crc32 * home) >> 32, in 64-bit unsigned arithmetic as the NumPy twin (uint64) computes it. */
static inline uint64_t
lx_home_slot(const unsigned char *p, size_t n, uint64_t home)
{
    return ((uint64_t)lx_crc32(p, n) * home) >> 32;
}

#endif
