/*
 * probe.h: the Probe, the C object behind lexigraph.engine.compiled.CompiledEngine, shared by the files that
 * answer queries through it (probe.c, encode.c, batch.c, walks.c, alphagram.c, rotation.c,
 * pattern.c, facade.c).
 *
 * A Probe holds a mapped lexicon's buffer and, per word length, where that length's hash table,
 * bucket rows and alphagram order lie in it (LengthTable); the word graph once Python has checked
 * it (attach_graph); and, for alphabets whose words encode character by character, the tables
 * that turn a str into tile codes in C. Why one header: the struct, the hash lookup every query
 * ends in (lx_probe_codes, inline so that each file's hot loop keeps it inline) and the Probe
 * methods each file contributes to the one method table in probe.c.
 *
 * Safety: every offset comes from a file that may be hostile. The tables are checked against the
 * buffer once, on attach; a probe never reads past its table (it stops at the table's end even if
 * the last slot were full) and a slot pointing past its bucket counts as "not found".
 */
#ifndef LEXIGRAPH_PROBE_H
#define LEXIGRAPH_PROBE_H

#include "module.h"

#include <stdint.h>
#include <string.h>

#include "arc.h"
#include "hash.h"
#include "limits.h"

typedef struct {
    const unsigned char *slots; /* little-endian u16 or u32 row numbers plus one; 0 empty */
    Py_ssize_t n_slots;
    int width;                 /* 2 or 4 bytes per slot; 0: no words of this length */
    uint64_t home;             /* home slots: crc * home >> 32 (hash.h) */
    const unsigned char *rows; /* the bucket: count rows of `length` codes */
    Py_ssize_t count;
    Py_ssize_t first_id;
    const unsigned char *order; /* alphagram order: rows by sorted tiles, `order_width`-byte row numbers */
    int order_width;
    uint64_t *keys;       /* words of up to 8 tiles: each entry's sorted tiles packed, built on first use */
    unsigned char *grams; /* each entry's sorted tiles, in alphagram order, built on first use */
    int grams_state;      /* 0 not checked; 1 built: a permutation of the rows, sorted, and the rows
                                 * rising with codes in the alphabet (Store.rows's check); -1 a forged bucket */
    /* Rotation orders (see rotation.py), per start 1..length-1, built on first use: the rows sorted
     * by their first LX_ROTATION_KEY_TILES tiles read from that start, wrapping round, and those sort keys. */
    uint32_t **rot_rows;
    uint64_t **rot_keys;
} LengthTable;

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int attached;
    int encodes;               /* the character table is valid: Latin-1 words are encoded here */
    unsigned alphabet_tiles;   /* the alphabet's size: a row's codes are 1..alphabet_tiles */
    unsigned char codes[256];  /* Latin-1 character -> tile code; 0: no word holds it */
    unsigned char defer[256];  /* characters whose folding makes several: the word goes to Python */
    unsigned char labels[256]; /* tile code -> its one-character ASCII label (when `encodes`) */
    /* Alphabets with multi-letter tiles (when `encodes` is 2): each Latin-1 character prepared
     * (lower case, folded) into prep[], then split greedily, longest tile first. */
    unsigned char prep[256];
    int n_multi;
    unsigned char multi_len[LX_MAX_MULTI_LETTER_TILES];
    unsigned char multi_key[LX_MAX_MULTI_LETTER_TILES][LX_MAX_MULTI_LETTER_KEY];
    unsigned char multi_code[LX_MAX_MULTI_LETTER_TILES];
    /* The word graph the walks read (set_graph, when the engine opens): walk_rack and walk_pattern walk it
     * before it is checked, to check it. */
    const unsigned char *walk_arcs;
    size_t walk_arc_count;
    Py_ssize_t walk_root;
    unsigned walk_tiles; /* the alphabet's size */
    /* The word graph, attached once Python has checked it against the buckets (see walks.py). */
    const unsigned char *graph;
    size_t graph_arcs;
    size_t graph_root;
    unsigned graph_tiles; /* the alphabet's size, when every tile has a one-letter ASCII label; else 0 */
    Py_ssize_t max_length;
    LengthTable *tables; /* indexed by length, 0..max_length */
    /* What the one-call answers raise past their deadline (set_deadline_error: the engine's
     * DeadlineExceeded), so that the engine can bind them without a Python frame; unset, they
     * answer LX_WALK_PAST_DEADLINE as the walks do. */
    PyObject *deadline_error;
} Probe;

/* The Probe type (probe.c); the Facade answers `in` itself only when its probe is one. */
extern PyTypeObject lx_probe_type;

/* Answers of lx_encode_word and lx_probe_word besides a length or an id: Python must decide
 * (LX_UNDECIDED), or the word needs more codes than the caller's buffer holds (LX_TOO_LONG). */
enum { LX_UNDECIDED = -2, LX_TOO_LONG = -3 };

static inline uint32_t
lx_u32le(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t
lx_slot_at(const LengthTable *t, Py_ssize_t i)
{
    const unsigned char *p = t->slots + i * t->width;
    if (t->width == 2)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    return lx_u32le(p);
}

/* Word id of the tile codes `key`, or -1. */
static inline Py_ssize_t
lx_probe_codes(const Probe *self, const unsigned char *key, Py_ssize_t length)
{
    if (length > self->max_length)
        return -1;
    const LengthTable *t = &self->tables[length];
    if (!t->width)
        return -1;
    Py_ssize_t i = (Py_ssize_t)lx_home_slot(key, (size_t)length, t->home);
    for (; i < t->n_slots; i++) {
        uint32_t v = lx_slot_at(t, i);
        if (!v || (Py_ssize_t)v > t->count)
            return -1;
        if (memcmp(t->rows + (Py_ssize_t)(v - 1) * length, key, (size_t)length) == 0)
            return t->first_id + (Py_ssize_t)v - 1;
    }
    return -1;
}

/* What a one-call answer returns past its deadline: NULL with the probe's deadline error set, or
 * the walks' answer LX_WALK_PAST_DEADLINE (-2) when none was set (probe.c). */
PyObject *lx_probe_past_deadline(const Probe *self);

/* ---- encode.c: words (str) to tile codes ---- */
Py_ssize_t lx_encode_word(const Probe *self, PyObject *word, unsigned char *key, Py_ssize_t cap);
Py_ssize_t lx_probe_word(const Probe *self, PyObject *word);

/* ---- walks.c: growing output buffers, shared by every query that collects answers ---- */
int lx_out_reserve(char **buf, Py_ssize_t len, Py_ssize_t *cap, Py_ssize_t need);

/* ---- rotation.c: the rows matching a pattern's fixed cells, read through a rotation order ---- */
Py_ssize_t lx_rotation_rows(LengthTable *t, Py_ssize_t n, Py_ssize_t start, const int *fixed,
                            const unsigned char *tiles, uint32_t **found);

/* ---- Probe methods defined outside probe.c (probe.c lists them all in the type's method table) ---- */
PyObject *lx_probe_id_of_word(Probe *self, PyObject *word);                                   /* encode.c */
PyObject *lx_probe_check_words(Probe *self, PyObject *args);                                  /* batch.c */
PyObject *lx_probe_set_graph(Probe *self, PyObject *args);                                    /* walks.c */
PyObject *lx_probe_walk_rack(Probe *self, PyObject *args);                                    /* walks.c */
PyObject *lx_probe_walk_pattern(Probe *self, PyObject *args);                                 /* walks.c */
PyObject *lx_probe_rack_words(Probe *self, PyObject *args);                                   /* walks.c */
PyObject *lx_probe_prefix_words(Probe *self, PyObject *args);                                 /* walks.c */
PyObject *lx_probe_exact_anagram_ids(Probe *self, PyObject *args);                            /* alphagram.c */
PyObject *lx_probe_exact_anagram_words(Probe *self, PyObject *const *args, Py_ssize_t nargs); /* alphagram.c */
PyObject *lx_probe_pattern_words(Probe *self, PyObject *const *args, Py_ssize_t nargs);       /* pattern.c */
PyObject *lx_probe_cross_words(Probe *self, PyObject *args);                                  /* pattern.c */

#endif
