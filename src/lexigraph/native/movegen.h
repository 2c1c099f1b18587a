/* movegen.h: the move generator as C code calls it (movegen.c), for the self-play game loop (selfplay.c).
 *
 * lx_movegen_run reads the same inputs as the Python-facing generate_moves (see movegen.c's comment), already
 * checked for consistency by its caller, and touches no Python object, so a caller may run it without the GIL.
 * On LX_MOVEGEN_OK, out->records (malloc'ed, the caller frees it; NULL when no play was kept) holds out->kept
 * records of LX_MOVE_RECORD_SIZE bytes, and out->count the plays found (-1 when pruned).
 */
#ifndef LEXIGRAPH_MOVEGEN_H
#define LEXIGRAPH_MOVEGEN_H

#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LX_MOVEGEN_OK 0
#define LX_MOVEGEN_GRAPH 1     /* the word graph points outside itself */
#define LX_MOVEGEN_MEMORY 2    /* out of memory */
#define LX_MOVEGEN_DEADLINE 3  /* past the deadline */
#define LX_MOVEGEN_BAD_TABLE 4 /* the leave table does not fit the rack */
#define LX_MOVEGEN_BAD_BOARD 5 /* a board tile is outside the alphabet */

typedef struct {
    const unsigned char *graph; /* the arc records */
    size_t n_records;
    const unsigned char *kids; /* per record: uint64 LE tile mask of the list starting there */
    uint32_t root;
    int n;                                                         /* board size */
    const unsigned char *cells, *blanks, *letter_mult, *word_mult; /* n * n each */
    const unsigned char *points, *rack;                            /* n_codes each */
    int n_codes, start, rack_size, bingo;
    const double *leave_values; /* one per subset of the rack (mixed radix), or NULL */
    size_t n_leave_values;
    const double *opening;       /* 2 * n * n, or NULL */
    const unsigned char *vowels; /* n_codes flags, or NULL */
    Py_ssize_t top;
    int by_equity;
    double deadline; /* < 0: none */
    int prune;
} LxMoveInput;

typedef struct {
    unsigned char *records;
    size_t kept;
    Py_ssize_t count;
} LxMoveOutput;

int lx_movegen_run(const LxMoveInput *in, LxMoveOutput *out);

/* A copy of a table of doubles passed as bytes (an argument's bytes need not be aligned for doubles), or NULL
 * with MemoryError set. */
static inline double *
lx_aligned_doubles(const char *bytes, Py_ssize_t size)
{
    double *copy = malloc((size_t)size);
    if (!copy) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, bytes, (size_t)size);
    return copy;
}

#endif
