/*
 * build.h: what the builder's C files share: short integer names and the stable radix sort of
 * (64-bit key, index) records that both the word graph's minimisation (build_graph.c) and the
 * alphagram order (build_tables.c) sort with.
 */
#ifndef LEXIGRAPH_BUILD_H
#define LEXIGRAPH_BUILD_H

#include "module.h"

#include <stddef.h>
#include <stdint.h>

typedef int64_t i64;
typedef uint64_t u64;

typedef struct {
    u64 sig;
    i64 node;
} SigNode;

/* A stable least-significant-digit radix sort of n records by sig (8-bit digits; a digit every record
   shares is skipped); a holds the result, tmp is scratch for n records. Small inputs by insertion. */
void lx_radix_sort(SigNode *a, SigNode *tmp, size_t n);

#endif
