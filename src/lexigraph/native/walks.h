/*
 * walks.h: the pattern walk of the word graph, shared by walks.c (walk_pattern, prefix_words) and
 * pattern.c (pattern_words and cross_words, whose plan may walk the graph from the first cell).
 *
 * A walk enumerates the graph depth first, so its words come out in alphabetical (tile) order,
 * and cuts every branch whose tile a position's mask does not allow.
 */
#ifndef LEXIGRAPH_WALKS_H
#define LEXIGRAPH_WALKS_H

#include "deadline.h"
#include "probe.h"

/* masks: 32 bytes (a 256-bit set of tile codes) per position; positions past the masks allow any
 * tile. Words of min_len..max_len tiles, at most `limit` of them (limit < 0: all); with want_ids
 * each is written to out as a little-endian int64 word id (from the hash probe; -1 for a word it
 * lacks), otherwise as its tile codes and a 0 byte. `budget` (< 0: none) bounds the arcs the walk
 * reads, counted as the Python walk counts them (every arc a prefix walk can reach in each list
 * entered); `stop` is 0, or the walk's answer when it stopped early (deadline.h: the graph points
 * outside itself or holds a tile outside the alphabet, the deadline passed, the budget ran out). */
typedef struct {
    const unsigned char *arcs;
    size_t n_arcs;
    unsigned n_tiles;
    const unsigned char *masks;
    int n_masks;
    int min_len, max_len, want_ids;
    Py_ssize_t limit, found;
    long long budget, visited;
    LxDeadline deadline;
    unsigned char path[256];
    const Probe *probe;
    char *out;
    Py_ssize_t out_len, out_cap;
    int stop;
} PatternWalk;

/* Walk from the arc list at `node`, `depth` tiles down; 0, or -1 when memory runs out. */
int lx_pattern_walk_from(PatternWalk *w, size_t node, int depth);

/* Words of a walk's output (codes, each word ended by a 0 byte) as a list of str, through the
 * probe's one-letter ASCII labels. */
PyObject *lx_words_from_codes(const Probe *self, const char *out, Py_ssize_t count);

#endif
