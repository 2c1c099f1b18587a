/*
 * The word graph's arc record in C: the twin of lexigraph/engine/wordgraph.py,
 * which documents the layout (docs/format.md, "graph"). Every C file that
 * reads arcs includes this header; tests hold its constants to Python's
 * (lexigraph._native.ARC_LAYOUT).
 *
 * A record is 64 bits, little-endian: bits 0-7 tile code, bit 8 accepts
 * (the path through this arc is a word), bit 9 is_last (the arc ends its
 * node's list), bits 10-31 zero, bits 32-63 target (index of the first arc
 * of the target node's list; 0: the target has no arcs).
 */
#ifndef LEXIGRAPH_ARC_H
#define LEXIGRAPH_ARC_H

#include <stddef.h>
#include <stdint.h>

#define LX_RECORD_SIZE 8
#define LX_TILE_MASK 0xFFu
#define LX_ACCEPTS_BIT (1u << 8)
#define LX_LAST_BIT (1u << 9)
#define LX_TARGET_SHIFT 32

#define LX_TILE(r) ((unsigned)((r)&LX_TILE_MASK))
#define LX_ACCEPTS(r) (((r)&LX_ACCEPTS_BIT) != 0)
#define LX_IS_LAST(r) (((r)&LX_LAST_BIT) != 0)
#define LX_TARGET(r) ((size_t)((r) >> LX_TARGET_SHIFT))

/* Record i of the graph at buf (the caller checks i against the record count). */
static inline uint64_t
lx_arc_at(const unsigned char *buf, size_t i)
{
    const unsigned char *p = buf + i * LX_RECORD_SIZE;
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32
           | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

#endif
