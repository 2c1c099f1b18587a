/* Move generation in C: the hot loop of lexigraph.movegen (Appel and Jacobson, 1988).
 *
 * generate(graph, root, n, cells, blanks, letter_mult, word_mult, points, rack, start, rack_size, bingo)
 *   -> (bytes, count)
 * reads the word graph's 64-bit arc records through arc.h and returns every play as a fixed
 * record of REC_SIZE bytes: int32 score (little-endian), row, col, across (1/0), length of the
 * main word, then one byte per square of the main word: 0 for a tile already on the board, else
 * the tile code, | 0x80 for a blank. One-tile plays come once (from the across pass when they
 * form an across word). The pure-Python twin is movegen.generate_raw; tests hold both to the
 * same answers and to a brute-force oracle.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include("arc.h")
#include "arc.h"
#define LX_HAVE_ARC_H 1
#endif
#endif
#ifndef LX_HAVE_ARC_H
/* The shared arc record (see docs/format.md): bits 0-7 tile, 8 accepts, 9 is_last, 32-63 target. */
static inline uint64_t lx_arc_at(const unsigned char *buf, size_t i) {
    uint64_t r;
    memcpy(&r, buf + 8 * i, 8);
    return r;
}
#define LX_TILE(r) ((unsigned)((r)&0xFFu))
#define LX_ACCEPTS(r) ((unsigned)(((r) >> 8) & 1u))
#define LX_IS_LAST(r) ((unsigned)(((r) >> 9) & 1u))
#define LX_TARGET(r) ((uint32_t)((r) >> 32))
#endif

#define MAXN 26
#define MAXSQ (MAXN * MAXN)
#define MAXT 64
#define REC_SIZE 40
#define BLANK_FLAG 0x80

typedef struct {
    const unsigned char *g;
    size_t nrec;
    uint32_t root;
    int n, across, rack_size, bingo, err;
    uint8_t C[MAXSQ];
    int P[MAXSQ];
    uint8_t LM[MAXSQ], WM[MAXSQ];
    uint64_t mask[MAXSQ];
    int csum[MAXSQ];
    uint8_t hasx[MAXSQ], anchor[MAXSQ];
    int points[MAXT];
    int rack[MAXT];
    uint8_t word[MAXN + 8];
    int wlen;
    /* left part being built */
    uint8_t lp_tile[MAXN];
    int lp_pts[MAXN];
    int lp_len;
    char *out;
    size_t count, cap;
} Gen;

/* The arc of `tile` in the list starting at `node`: 1 and *rec if found. */
static inline int step(Gen *G, uint32_t node, unsigned tile, uint64_t *rec) {
    if (!node) return 0;
    for (size_t i = node;; i++) {
        if (i >= G->nrec) {
            G->err = 1;
            return 0;
        }
        uint64_t r = lx_arc_at(G->g, i);
        unsigned t = LX_TILE(r);
        if (t == tile) {
            *rec = r;
            return 1;
        }
        if (t > tile || LX_IS_LAST(r)) return 0;
    }
}

static int record(Gen *G, int row, int start_c, int score) {
    if (G->count == G->cap) {
        size_t cap = G->cap ? G->cap * 2 : 1024;
        char *p = realloc(G->out, cap * REC_SIZE);
        if (!p) {
            G->err = 2;
            return -1;
        }
        G->out = p;
        G->cap = cap;
    }
    unsigned char *rec = (unsigned char *)G->out + G->count * REC_SIZE;
    memset(rec, 0, REC_SIZE);
    uint32_t s = (uint32_t)score;
    rec[0] = s & 0xFF;
    rec[1] = (s >> 8) & 0xFF;
    rec[2] = (s >> 16) & 0xFF;
    rec[3] = (s >> 24) & 0xFF;
    if (G->across) {
        rec[4] = (unsigned char)row;
        rec[5] = (unsigned char)start_c;
    } else {
        rec[4] = (unsigned char)start_c;
        rec[5] = (unsigned char)row;
    }
    rec[6] = (unsigned char)G->across;
    rec[7] = (unsigned char)G->wlen;
    memcpy(rec + 8, G->word, (size_t)G->wlen);
    G->count++;
    return 0;
}

static void extend(Gen *G, uint32_t node, int c, int row, int a, int start_c, int acc, int placed, int msum,
                   int wmul, int xtot, int last_sq) {
    const int n = G->n;
    const int base = row * n;
    if (G->err) return;
    if (c < n && G->C[base + c]) {
        uint64_t r;
        if (!step(G, node, G->C[base + c], &r)) return;
        G->word[G->wlen++] = 0;
        extend(G, LX_TARGET(r), c + 1, row, a, start_c, (int)LX_ACCEPTS(r), placed, msum + G->P[base + c], wmul, xtot,
               last_sq);
        G->wlen--;
        return;
    }
    if (acc && placed && c > a && c - start_c >= 2) {
        if (!(!G->across && placed == 1 && G->hasx[last_sq])) {
            int score = msum * wmul + xtot + (placed == G->rack_size ? G->bingo : 0);
            if (record(G, row, start_c, score)) return;
        }
    }
    if (c >= n || !node) return;
    const int i = base + c;
    const uint64_t m = G->mask[i];
    const int lmv = G->LM[i], wmv = G->WM[i], hx = G->hasx[i], cs = G->csum[i];
    for (size_t k = node;; k++) {
        if (k >= G->nrec) {
            G->err = 1;
            return;
        }
        uint64_t r = lx_arc_at(G->g, k);
        unsigned t = LX_TILE(r);
        if (t < MAXT && ((m >> t) & 1u)) {
            uint32_t tgt = LX_TARGET(r);
            int tacc = (int)LX_ACCEPTS(r);
            if (G->rack[t]) {
                int p = G->points[t];
                G->rack[t]--;
                G->word[G->wlen++] = (uint8_t)t;
                extend(G, tgt, c + 1, row, a, start_c, tacc, placed + 1, msum + p * lmv, wmul * wmv,
                       xtot + (hx ? (cs + p * lmv) * wmv : 0), i);
                G->wlen--;
                G->rack[t]++;
            }
            if (G->rack[0]) {
                G->rack[0]--;
                G->word[G->wlen++] = (uint8_t)(t | BLANK_FLAG);
                extend(G, tgt, c + 1, row, a, start_c, tacc, placed + 1, msum, wmul * wmv, xtot + (hx ? cs * wmv : 0),
                       i);
                G->wlen--;
                G->rack[0]++;
            }
            if (G->err) return;
        }
        if (LX_IS_LAST(r)) break;
    }
}

static void left_part(Gen *G, uint32_t node, int limit, int row, int a) {
    const int n = G->n, base = row * n, k = G->lp_len;
    int msum = 0, wmul = 1;
    for (int j = 0; j < k; j++) {
        int sq = base + a - k + j;
        msum += G->lp_pts[j] * G->LM[sq];
        wmul *= G->WM[sq];
    }
    extend(G, node, a, row, a, a - k, 0, k, msum, wmul, 0, -1);
    if (limit <= 0 || !node || G->err) return;
    for (size_t i = node;; i++) {
        if (i >= G->nrec) {
            G->err = 1;
            return;
        }
        uint64_t r = lx_arc_at(G->g, i);
        unsigned t = LX_TILE(r);
        if (t < MAXT && t > 0) {
            for (int blank = 0; blank < 2; blank++) {
                int slot = blank ? 0 : (int)t;
                if (!G->rack[slot]) continue;
                G->rack[slot]--;
                G->lp_tile[G->lp_len] = (uint8_t)t;
                G->lp_pts[G->lp_len] = blank ? 0 : G->points[t];
                G->lp_len++;
                G->word[G->wlen++] = (uint8_t)(blank ? (t | BLANK_FLAG) : t);
                left_part(G, LX_TARGET(r), limit - 1, row, a);
                G->wlen--;
                G->lp_len--;
                G->rack[slot]++;
                if (G->err) return;
            }
        }
        if (LX_IS_LAST(r)) break;
    }
}

/* Cross-checks and anchors of the current orientation (lines are rows of G->C). */
static void prepare(Gen *G, uint64_t all_mask, int board_empty, int start) {
    const int n = G->n;
    for (int i = 0; i < n * n; i++) {
        G->mask[i] = all_mask;
        G->csum[i] = 0;
        G->hasx[i] = 0;
        G->anchor[i] = 0;
        if (G->C[i]) continue;
        int r = i / n, c = i % n;
        int up = r, dn = r;
        while (up > 0 && G->C[(up - 1) * n + c]) up--;
        while (dn + 1 < n && G->C[(dn + 1) * n + c]) dn++;
        if ((c > 0 && G->C[i - 1]) || (c + 1 < n && G->C[i + 1])) G->anchor[i] = 1;
        if (up == r && dn == r) continue;
        G->hasx[i] = 1;
        G->anchor[i] = 1;
        int s = 0;
        for (int k = up; k <= dn; k++)
            if (k != r) s += G->P[k * n + c];
        G->csum[i] = s;
        uint64_t m = 0;
        uint32_t node = G->root;
        int ok = 1;
        for (int k = up; k < r; k++) {
            uint64_t rec;
            if (!step(G, node, G->C[k * n + c], &rec)) {
                ok = 0;
                break;
            }
            node = LX_TARGET(rec);
        }
        if (ok && node) {
            for (size_t j = node;; j++) {
                if (j >= G->nrec) {
                    G->err = 1;
                    return;
                }
                uint64_t rec = lx_arc_at(G->g, j);
                unsigned t = LX_TILE(rec);
                int good;
                if (dn == r) {
                    good = (int)LX_ACCEPTS(rec);
                } else {
                    uint32_t nd = LX_TARGET(rec);
                    good = 0;
                    for (int k = r + 1; k <= dn; k++) {
                        uint64_t r2;
                        if (!step(G, nd, G->C[k * n + c], &r2)) {
                            good = 0;
                            break;
                        }
                        good = (int)LX_ACCEPTS(r2);
                        nd = LX_TARGET(r2);
                    }
                }
                if (good && t < MAXT) m |= (uint64_t)1 << t;
                if (LX_IS_LAST(rec)) break;
            }
        }
        G->mask[i] = m;
    }
    if (board_empty) G->anchor[start] = 1;
}

static void run_orientation(Gen *G, int total_rack) {
    const int n = G->n;
    for (int row = 0; row < n && !G->err; row++) {
        const int base = row * n;
        for (int a = 0; a < n && !G->err; a++) {
            if (!G->anchor[base + a]) continue;
            G->wlen = 0;
            if (a > 0 && G->C[base + a - 1]) {
                int k = a - 1;
                while (k > 0 && G->C[base + k - 1]) k--;
                uint32_t node = G->root;
                int acc = 0, ok = 1, msum = 0;
                for (int j = k; j < a; j++) {
                    uint64_t r;
                    if (!step(G, node, G->C[base + j], &r)) {
                        ok = 0;
                        break;
                    }
                    node = LX_TARGET(r);
                    acc = (int)LX_ACCEPTS(r);
                    msum += G->P[base + j];
                    G->word[G->wlen++] = 0;
                }
                if (ok) extend(G, node, a, row, a, k, acc, 0, msum, 1, 0, -1);
            } else {
                int limit = 0, k = a - 1;
                while (k >= 0 && !G->C[base + k] && !G->anchor[base + k]) {
                    limit++;
                    k--;
                }
                if (limit > G->rack_size - 1) limit = G->rack_size - 1;
                if (limit > total_rack - 1) limit = total_rack - 1;
                G->lp_len = 0;
                left_part(G, G->root, limit, row, a);
            }
        }
    }
}

static PyObject *py_generate(PyObject *self, PyObject *args) {
    Py_buffer graph;
    unsigned int root;
    int n, start, rack_size, bingo;
    const char *cells, *blanks, *lm, *wm, *points, *rack;
    Py_ssize_t lc, lb, llm, lwm, lp, lr;
    if (!PyArg_ParseTuple(args, "y*Iiy#y#y#y#y#y#iii", &graph, &root, &n, &cells, &lc, &blanks, &lb, &lm, &llm, &wm,
                          &lwm, &points, &lp, &rack, &lr, &start, &rack_size, &bingo))
        return NULL;
    PyObject *result = NULL;
    Gen *G = calloc(1, sizeof(Gen));
    if (!G) {
        PyBuffer_Release(&graph);
        return PyErr_NoMemory();
    }
    if (n < 1 || n > MAXN || lc != (Py_ssize_t)n * n || lb != lc || llm != lc || lwm != lc || lp < 2 || lp > MAXT ||
        lr != lp || start < 0 || start >= n * n || graph.len % 8) {
        PyErr_SetString(PyExc_ValueError, "_movegen.generate: inconsistent arguments");
        goto done;
    }
    G->g = (const unsigned char *)graph.buf;
    G->nrec = (size_t)graph.len / 8;
    G->root = root;
    G->n = n;
    G->rack_size = rack_size;
    G->bingo = bingo;
    uint64_t all_mask = 0;
    for (int t = 1; t < lp; t++) all_mask |= (uint64_t)1 << t;
    int total = 0;
    for (int t = 0; t < lp; t++) {
        G->points[t] = (unsigned char)points[t];
        G->rack[t] = (unsigned char)rack[t];
        total += G->rack[t];
    }
    int board_empty = 1;
    for (int i = 0; i < n * n; i++) {
        if ((unsigned char)cells[i] >= lp) {
            PyErr_SetString(PyExc_ValueError, "_movegen.generate: a board tile is outside the alphabet");
            goto done;
        }
        if (cells[i]) board_empty = 0;
    }
    if (total == 0 || root >= G->nrec) {
        result = Py_BuildValue("(y#n)", "", (Py_ssize_t)0, (Py_ssize_t)0);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (int across = 1; across >= 0 && !G->err; across--) {
        G->across = across;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int src = across ? r * n + c : c * n + r, dst = r * n + c;
                unsigned char code = (unsigned char)cells[src];
                G->C[dst] = code;
                G->P[dst] = (code && !blanks[src]) ? G->points[code] : 0;
                G->LM[dst] = (uint8_t)lm[src];
                G->WM[dst] = (uint8_t)wm[src];
            }
        int st = across ? start : (start % n) * n + start / n;
        prepare(G, all_mask, board_empty, st);
        if (!G->err) run_orientation(G, total);
    }
    Py_END_ALLOW_THREADS
    if (G->err == 1) {
        PyErr_SetString(PyExc_ValueError, "the word graph points outside itself");
        goto done;
    }
    if (G->err == 2) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("(y#n)", G->out ? G->out : "", (Py_ssize_t)(G->count * REC_SIZE), (Py_ssize_t)G->count);
done:
    free(G->out);
    free(G);
    PyBuffer_Release(&graph);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", py_generate, METH_VARARGS, "Every play on a board for a rack, as fixed records (see the module)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen", "Move generation hot loop (see movegen.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__movegen(void) { return PyModule_Create(&module); }
