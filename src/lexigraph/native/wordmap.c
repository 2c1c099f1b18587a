/*
 * wordmap.c: the word map's lookups (wordmap.h documents the lx_wordmap_* API move generation calls) and the
 * WordMap type Python reaches them through: WordMap(buffer).has_word(length, codes, blanks) and
 * .lookup(length, codes, blanks) -> [(first, count, blank codes)].
 *
 * The twin is lexigraph/engine/python/wordmap.py: the same checks of the file (a malformed one raises
 * ValueError here, FileFormatError there; lexigraph/engine/wordmap.py opens both and turns it into
 * FileFormatError) and the same hits in the same order.
 */
#include "module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "wordmap.h"

#define HEADER_SIZE 64
#define DESCRIPTOR_SIZE 48
#define RECORD_SIZE 16
#define ALIGNMENT 64
#define MULTIPLIER UINT64_C(0x9E3779B97F4A7C15)
/* The filters' hash (another multiplier than the buckets', so that a bucket's keys spread over the filter). */
#define FILTER_MULTIPLIER UINT64_C(0xC2B2AE3D27D4EB4F)
#define MIN_LOG2_FILTER 9
#define MAX_LOG2_FILTER 26
#define MIN_LOG2_BUCKETS 4
#define MAX_LOG2_BUCKETS 31
#define RANK_CODES (LX_WORDMAP_MAX_CODE + 1)

static const uint8_t MAGIC[8] = {0x89, 'L', 'X', 'W', '\r', '\n', 0x1A, '\n'};

static inline uint32_t
le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t
le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* --- init: the header, the directory, each table checked against the file --- */

static int
fail(char *error, size_t error_size, const char *message)
{
    snprintf(error, error_size, "%s", message);
    return -1;
}

/* Whether [offset, offset + length) lies inside data[start..size) and offset is aligned. */
static int
inside(uint64_t offset, uint64_t length, uint64_t start, uint64_t size)
{
    return offset % ALIGNMENT == 0 && offset >= start && offset <= size && length <= size - offset;
}

/* The rank terms C(t - 1 + i, i + 1), by Pascal's rule; -1 if one exceeds 64 bits. */
static int
fill_ranks(LxWordMap *map)
{
    int rows = map->max_length + RANK_CODES + 1;
    uint64_t *pascal = calloc((size_t)rows * (size_t)rows, sizeof(uint64_t));
    map->ranks = calloc((size_t)map->max_length * RANK_CODES, sizeof(uint64_t));
    if (!pascal || !map->ranks) {
        free(pascal);
        return -1;
    }
    for (int n = 0; n < rows; n++) {
        pascal[n * rows] = 1;
        for (int k = 1; k <= n; k++) {
            uint64_t a = pascal[(n - 1) * rows + k - 1], b = pascal[(n - 1) * rows + k];
            pascal[n * rows + k] = (a + b < a || a == UINT64_MAX || b == UINT64_MAX) ? UINT64_MAX : a + b;
        }
    }
    int ok = 1;
    for (int i = 0; i < map->max_length; i++)
        for (int t = 1; t <= map->highest_code; t++) {
            uint64_t v = pascal[(t - 1 + i) * rows + i + 1];
            ok &= v != UINT64_MAX;
            map->ranks[i * RANK_CODES + t] = v;
        }
    /* The largest key of max_length codes must stay below 2^64: C(A + L - 1, L) fits. */
    ok &= pascal[(map->highest_code + map->max_length - 1) * rows + map->max_length] != UINT64_MAX;
    free(pascal);
    return ok ? 0 : 1;
}

/* Check one descriptor (length, blanks) and record its table; 0 or -1. */
static int
read_table(LxWordMap *map, const uint8_t *d, int length, int blanks, uint64_t start)
{
    uint64_t directory = le64(d), records = le64(d + 8), words = le64(d + 32), letters = le64(d + 24);
    uint32_t count = le32(d + 16);
    int log2 = d[20];
    if (d[21] != length || d[22] != blanks || log2 < MIN_LOG2_BUCKETS || log2 > MAX_LOG2_BUCKETS)
        return -1;
    uint64_t buckets = (uint64_t)1 << log2;
    if (!inside(directory, 4 * (buckets + 1), start, map->size)
        || !inside(records, (uint64_t)RECORD_SIZE * count, start, map->size))
        return -1;
    if (blanks == 0) {
        if (words >= ((uint64_t)1 << 32) || !inside(letters, words * (uint64_t)length, start, map->size))
            return -1;
        map->letters[length] = map->data + letters;
        map->words[length] = (uint32_t)words;
    } else if (words || letters)
        return -1;
    const uint8_t *starts = map->data + directory;
    uint32_t previous = le32(starts);
    if (previous != 0)
        return -1;
    for (uint64_t b = 1; b <= buckets; b++) {
        uint32_t next = le32(starts + 4 * b);
        if (next < previous)
            return -1;
        previous = next;
    }
    if (previous != count)
        return -1;
    map->tables[length][blanks] = (LxWordMapTable){starts, map->data + records, count, log2};
    return 0;
}

/* The header's fields; 0 or -1 with the message set. */
static int
read_header(LxWordMap *map, char *error, size_t error_size)
{
    const uint8_t *h = map->data;
    if (map->size < HEADER_SIZE || memcmp(h, MAGIC, 8) != 0)
        return fail(error, error_size, "not a lexigraph word map (no magic number or truncated)");
    uint8_t covered[HEADER_SIZE - 4];
    memcpy(covered, h, 44);
    memcpy(covered + 44, h + 48, 16);
    if (lx_crc32(covered, sizeof covered) != le32(h + 44))
        return fail(error, error_size, "the word map's header is corrupt (checksum mismatch)");
    if ((h[8] | h[9] << 8) != 1 || le32(h + 12) != HEADER_SIZE)
        return fail(error, error_size, "word map format version not read by this lexigraph");
    if (le64(h + 16) != map->size)
        return fail(error, error_size, "the word map's size is not the one its header gives");
    map->lexicon_size = le64(h + 24);
    map->lexicon_crc = le32(h + 32);
    map->highest_code = h[36];
    map->max_blanks = h[37];
    map->min_length = h[38];
    map->max_length = h[39];
    static const uint8_t zero[8];
    if (le64(h + 48) != MULTIPLIER || memcmp(h + 56, zero, 8) != 0 || map->highest_code < 1
        || map->highest_code > LX_WORDMAP_MAX_CODE || map->max_blanks > LX_WORDMAP_MAX_BLANKS || map->min_length < 1
        || map->min_length > map->max_length)
        return fail(error, error_size, "the word map's header is malformed");
    return 0;
}

/* Each table's filter: about 8 bits a record (a power of two), the bit of each key set; 0 or -1 (out of memory). */
static int
build_filters(LxWordMap *map)
{
    size_t words = 0;
    for (int length = map->min_length; length <= map->max_length; length++)
        for (int blanks = 0; blanks <= map->max_blanks; blanks++) {
            LxWordMapTable *table = &map->tables[length][blanks];
            int log2 = MIN_LOG2_FILTER;
            while (log2 < MAX_LOG2_FILTER && ((uint64_t)1 << log2) < 8 * (uint64_t)table->count)
                log2++;
            table->log2_filter = log2;
            words += table->count ? ((size_t)1 << log2) / 64 : 0;
        }
    map->filters = calloc(words ? words : 1, sizeof(uint64_t));
    if (!map->filters)
        return -1;
    uint64_t *next = map->filters;
    for (int length = map->min_length; length <= map->max_length; length++)
        for (int blanks = 0; blanks <= map->max_blanks; blanks++) {
            LxWordMapTable *table = &map->tables[length][blanks];
            if (!table->count)
                continue;
            const int shift = 64 - table->log2_filter;
            for (uint32_t i = 0; i < table->count; i++) {
                uint64_t bit = (le64(table->records + (size_t)i * RECORD_SIZE) * FILTER_MULTIPLIER) >> shift;
                next[bit >> 6] |= (uint64_t)1 << (bit & 63);
            }
            table->filter = next;
            next += ((size_t)1 << table->log2_filter) / 64;
        }
    return 0;
}

int
lx_wordmap_init(LxWordMap *map, const uint8_t *data, size_t size, char *error, size_t error_size)
{
    memset(map, 0, sizeof *map);
    map->data = data;
    map->size = size;
    if (read_header(map, error, error_size) < 0)
        return -1;
    int rc = fill_ranks(map);
    if (rc != 0) {
        lx_wordmap_release(map);
        return fail(error, error_size, rc < 0 ? "out of memory" : "the word map's header is malformed");
    }
    int per_length = map->max_blanks + 1;
    uint64_t tables = (uint64_t)(map->max_length - map->min_length + 1) * (uint64_t)per_length;
    uint64_t start = HEADER_SIZE + tables * DESCRIPTOR_SIZE;
    if (start > size) {
        lx_wordmap_release(map);
        return fail(error, error_size, "the word map's directory lies outside the file");
    }
    for (uint64_t t = 0; t < tables; t++) {
        int length = map->min_length + (int)(t / (uint64_t)per_length), blanks = (int)(t % (uint64_t)per_length);
        if (read_table(map, data + HEADER_SIZE + t * DESCRIPTOR_SIZE, length, blanks, start) < 0) {
            lx_wordmap_release(map);
            snprintf(error, error_size, "the word map's table of length %d with %d blank(s) does not fit the file",
                     length, blanks);
            return -1;
        }
    }
    if (build_filters(map) < 0) {
        lx_wordmap_release(map);
        return fail(error, error_size, "out of memory");
    }
    return 0;
}

void
lx_wordmap_release(LxWordMap *map)
{
    free(map->ranks);
    map->ranks = NULL;
    free(map->filters);
    map->filters = NULL;
}

/* --- lookups --- */

int
lx_wordmap_probe(const LxWordMap *map, int length, int blanks, uint64_t key, uint32_t *lo, uint32_t *hi)
{
    const LxWordMapTable *table = &map->tables[length][blanks];
    if (!table->filter)
        return 0; /* no records */
    uint64_t bit = (key * FILTER_MULTIPLIER) >> (64 - table->log2_filter);
    if (!(table->filter[bit >> 6] >> (bit & 63) & 1))
        return 0;
    uint64_t bucket = (key * MULTIPLIER) >> (64 - table->log2_buckets);
    uint32_t first = le32(table->directory + 4 * bucket), stop = le32(table->directory + 4 * (bucket + 1));
    for (const uint8_t *r = table->records + (size_t)first * RECORD_SIZE; first < stop; first++, r += RECORD_SIZE) {
        uint64_t k = le64(r);
        if (k == key) {
            *lo = le32(r + 8);
            *hi = le32(r + 12);
            if (blanks == 0 && (*hi == 0 || (uint64_t)*lo + *hi > map->words[length]))
                return -2;
            return 1;
        }
        if (k > key)
            break;
    }
    return 0;
}

/* Whether the arguments name a lookup the map holds. */
static int
valid(const LxWordMap *map, int length, const uint8_t *sorted, int n, int blanks)
{
    if (length < map->min_length || length > map->max_length || blanks < 0 || blanks > map->max_blanks || n < 0
        || n + blanks != length)
        return 0;
    for (int i = 0; i < n; i++)
        if (sorted[i] < 1 || sorted[i] > map->highest_code || (i && sorted[i] < sorted[i - 1]))
            return 0;
    return 1;
}

int
lx_wordmap_has_word(const LxWordMap *map, int length, const uint8_t *sorted, int n, int blanks)
{
    if (!valid(map, length, sorted, n, blanks))
        return -1;
    uint32_t lo, hi;
    int found = lx_wordmap_probe(map, length, blanks, lx_wordmap_key(map, sorted, n), &lo, &hi);
    return found < 0 ? -2 : found;
}

/* sorted[0..n) with code c inserted, into out (n + 1 codes). */
static void
insert_code(const uint8_t *sorted, int n, uint8_t c, uint8_t *out)
{
    int i = 0;
    for (; i < n && sorted[i] <= c; i++)
        out[i] = sorted[i];
    out[i] = c;
    memcpy(out + i + 1, sorted + i, (size_t)(n - i));
}

/* The mask of the `blanks`-blank table at sorted[0..n): 0 when absent. */
static uint64_t
mask_at(const LxWordMap *map, int length, int blanks, const uint8_t *sorted, int n)
{
    uint32_t lo, hi;
    if (lx_wordmap_probe(map, length, blanks, lx_wordmap_key(map, sorted, n), &lo, &hi) != 1)
        return 0;
    return (uint64_t)hi << 32 | lo;
}

/* Append the hit of the words at sorted[0..length) with blank letters c, d (d 0 for one blank); -2 forged, -3 no
 * room left in hits. */
static int
add_words(const LxWordMap *map, int length, const uint8_t *sorted, uint8_t c, uint8_t d, LxWordMapHit *hits, int *count,
          int cap)
{
    uint32_t lo, hi;
    int found = lx_wordmap_probe(map, length, 0, lx_wordmap_key(map, sorted, length), &lo, &hi);
    if (found == 1 && *count >= cap)
        return -3;
    if (found == 1)
        hits[(*count)++] = (LxWordMapHit){lo, hi, {c, d}};
    return found < 0 ? -2 : 0;
}

int
lx_wordmap_lookup(const LxWordMap *map, int length, const uint8_t *sorted, int n, int blanks, LxWordMapHit *hits,
                  int cap)
{
    if (!valid(map, length, sorted, n, blanks))
        return -1;
    int count = 0;
    if (blanks == 0) {
        int status = add_words(map, length, sorted, 0, 0, hits, &count, cap);
        return status < 0 ? status : count;
    }
    uint8_t with_c[LX_WORDMAP_MAX_LENGTH + 1], with_cd[LX_WORDMAP_MAX_LENGTH + 1];
    uint64_t first_letters = mask_at(map, length, blanks, sorted, n);
    for (int c = 1; c <= map->highest_code; c++) {
        if (!(first_letters >> c & 1))
            continue;
        insert_code(sorted, n, (uint8_t)c, with_c);
        if (blanks == 1) {
            int status = add_words(map, length, with_c, (uint8_t)c, 0, hits, &count, cap);
            if (status < 0)
                return status;
            continue;
        }
        uint64_t second_letters = mask_at(map, length, 1, with_c, n + 1);
        for (int d = c; d <= map->highest_code; d++) {
            if (!(second_letters >> d & 1))
                continue;
            insert_code(with_c, n + 1, (uint8_t)d, with_cd);
            int status = add_words(map, length, with_cd, (uint8_t)c, (uint8_t)d, hits, &count, cap);
            if (status < 0)
                return status;
        }
    }
    return count;
}

/* Every distinct sub-multiset of the rack's letters (distinct[k] with limit[k] copies), each tried with 0 ..
 * blanks blanks: the lengths found set in *found. */
static void
playable_from(const LxWordMap *map, const uint8_t *distinct, const int *limit, int kinds, int k, uint8_t *chosen,
              int size, int blanks, uint64_t *found)
{
    if (k == kinds) {
        for (int b = 0; b <= blanks; b++) {
            int length = size + b;
            if (length < map->min_length || length > map->max_length || (*found >> length & 1))
                continue;
            uint32_t lo, hi;
            if (lx_wordmap_probe(map, length, b, lx_wordmap_key(map, chosen, size), &lo, &hi) == 1)
                *found |= (uint64_t)1 << length;
        }
        return;
    }
    for (int copies = 0; copies <= limit[k]; copies++) {
        for (int c = 0; c < copies; c++)
            chosen[size + c] = distinct[k];
        playable_from(map, distinct, limit, kinds, k + 1, chosen, size + copies, blanks, found);
    }
}

uint64_t
lx_wordmap_playable_lengths(const LxWordMap *map, const uint8_t *sorted, int n, int blanks)
{
    if (n < 0 || blanks < 0 || blanks > map->max_blanks || n + blanks > 15)
        return 0;
    for (int i = 0; i < n; i++)
        if (sorted[i] < 1 || sorted[i] > map->highest_code || (i && sorted[i] < sorted[i - 1]))
            return 0;
    uint8_t distinct[16], chosen[16];
    int limit[16], kinds = 0;
    for (int i = 0; i < n; i++) {
        if (i && sorted[i] == sorted[i - 1])
            limit[kinds - 1]++;
        else {
            distinct[kinds] = sorted[i];
            limit[kinds++] = 1;
        }
    }
    uint64_t found = 0;
    playable_from(map, distinct, limit, kinds, 0, chosen, 0, blanks, &found);
    return found;
}

/* --- the WordMap type: the lookups from Python --- */

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    LxWordMap map;
    int ready;
} WordMapObject;

static int
wordmap_init(WordMapObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *buffer;
    static char *keywords[] = {"buffer", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:WordMap", keywords, &buffer))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "WordMap is initialised once");
        return -1;
    }
    if (PyObject_GetBuffer(buffer, &self->view, PyBUF_SIMPLE) < 0)
        return -1;
    char error[200];
    if (lx_wordmap_init(&self->map, self->view.buf, (size_t)self->view.len, error, sizeof error) < 0) {
        PyBuffer_Release(&self->view);
        PyErr_SetString(PyExc_ValueError, error);
        return -1;
    }
    self->ready = 1;
    return 0;
}

static void
wordmap_dealloc(WordMapObject *self)
{
    if (self->ready) {
        lx_wordmap_release(&self->map);
        PyBuffer_Release(&self->view);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The arguments (length, codes, blanks) with the codes sorted into `sorted`; 0 or -1 with ValueError set. */
static int
parse_lookup(WordMapObject *self, PyObject *args, int *length, uint8_t *sorted, int *n, int *blanks)
{
    Py_buffer codes;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "WordMap is not initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "iy*i", length, &codes, blanks))
        return -1;
    int ok = codes.len <= LX_WORDMAP_MAX_LENGTH;
    if (ok) {
        *n = (int)codes.len;
        int counts[256] = {0};
        const uint8_t *p = codes.buf;
        for (int i = 0; i < *n; i++)
            counts[p[i]]++;
        for (int c = 0, i = 0; c < 256; c++)
            for (int k = 0; k < counts[c]; k++)
                sorted[i++] = (uint8_t)c;
        ok = valid(&self->map, *length, sorted, *n, *blanks);
    }
    PyBuffer_Release(&codes);
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "a lookup the word map does not hold (length, blanks or tile codes)");
    return ok ? 0 : -1;
}

static PyObject *
wordmap_has_word(WordMapObject *self, PyObject *args)
{
    int length, n, blanks;
    uint8_t sorted[LX_WORDMAP_MAX_LENGTH + 1];
    if (parse_lookup(self, args, &length, sorted, &n, &blanks) < 0)
        return NULL;
    int found = lx_wordmap_has_word(&self->map, length, sorted, n, blanks);
    if (found < 0) {
        PyErr_SetString(PyExc_ValueError, "a word map record points past its words");
        return NULL;
    }
    return PyBool_FromLong(found);
}

static PyObject *
wordmap_lookup(WordMapObject *self, PyObject *args)
{
    int length, n, blanks;
    uint8_t sorted[LX_WORDMAP_MAX_LENGTH + 1];
    if (parse_lookup(self, args, &length, sorted, &n, &blanks) < 0)
        return NULL;
    LxWordMapHit *hits = PyMem_Malloc(sizeof(LxWordMapHit) * LX_WORDMAP_MAX_HITS);
    if (!hits)
        return PyErr_NoMemory();
    int count;
    Py_BEGIN_ALLOW_THREADS;
    count = lx_wordmap_lookup(&self->map, length, sorted, n, blanks, hits, LX_WORDMAP_MAX_HITS);
    Py_END_ALLOW_THREADS;
    PyObject *result = NULL;
    if (count < 0)
        PyErr_SetString(PyExc_ValueError, "a word map record points past its words");
    else if ((result = PyList_New(count)) != NULL)
        for (int i = 0; i < count; i++) {
            PyObject *hit =
                Py_BuildValue("(IIy#)", hits[i].first, hits[i].count, (const char *)hits[i].blanks, (Py_ssize_t)blanks);
            if (!hit) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, i, hit);
        }
    PyMem_Free(hits);
    return result;
}

/* lookup_many(length, codes, blanks): rows of length - blanks codes each, looked up one after another without the
 * GIL; the number of words found in all (each word once per blank letters it takes). */
static PyObject *
wordmap_lookup_many(WordMapObject *self, PyObject *args)
{
    int length, blanks;
    Py_buffer codes;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "WordMap is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iy*i", &length, &codes, &blanks))
        return NULL;
    int n = length - blanks;
    long long words = 0;
    int status = 0;
    if (n < 0 || n > LX_WORDMAP_MAX_LENGTH || (n == 0 ? codes.len != 0 : codes.len % n != 0)) {
        PyBuffer_Release(&codes);
        PyErr_SetString(PyExc_ValueError, "a lookup the word map does not hold (length, blanks or tile codes)");
        return NULL;
    }
    LxWordMapHit *hits = PyMem_Malloc(sizeof(LxWordMapHit) * LX_WORDMAP_MAX_HITS);
    if (!hits) {
        PyBuffer_Release(&codes);
        return PyErr_NoMemory();
    }
    Py_ssize_t rows = n ? codes.len / n : 1;
    Py_BEGIN_ALLOW_THREADS;
    uint8_t sorted[LX_WORDMAP_MAX_LENGTH + 1];
    for (Py_ssize_t r = 0; r < rows && status >= 0; r++) {
        const uint8_t *row = (const uint8_t *)codes.buf + r * n;
        memcpy(sorted, row, (size_t)n);
        for (int i = 1; i < n; i++) /* insertion sort: a rack's few tiles */
            for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                uint8_t t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
        status = lx_wordmap_lookup(&self->map, length, sorted, n, blanks, hits, LX_WORDMAP_MAX_HITS);
        for (int h = 0; h < status; h++)
            words += hits[h].count;
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(hits);
    PyBuffer_Release(&codes);
    if (status < 0) {
        PyErr_SetString(PyExc_ValueError, status == -1 ? "a lookup the word map does not hold (length, blanks or tile "
                                                         "codes)"
                                                       : "a word map record points past its words");
        return NULL;
    }
    return PyLong_FromLongLong(words);
}

/* playable_lengths(codes, blanks) -> int: lx_wordmap_playable_lengths's bits. */
static PyObject *
wordmap_playable_lengths(WordMapObject *self, PyObject *args)
{
    Py_buffer codes;
    int blanks;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "WordMap is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*i", &codes, &blanks))
        return NULL;
    uint8_t sorted[16];
    int n = (int)codes.len, ok = codes.len <= 15 && blanks >= 0 && blanks <= self->map.max_blanks && n + blanks <= 15;
    for (int i = 0; ok && i < n; i++) {
        uint8_t c = ((const uint8_t *)codes.buf)[i];
        ok = c >= 1 && c <= self->map.highest_code;
        int j = i;
        for (; j > 0 && sorted[j - 1] > c; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = c;
    }
    PyBuffer_Release(&codes);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a rack the word map does not hold (at most 15 tiles, blanks or codes)");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(lx_wordmap_playable_lengths(&self->map, sorted, n, blanks));
}

static PyMethodDef wordmap_methods[] = {
    {"playable_lengths", (PyCFunction)wordmap_playable_lengths, METH_VARARGS,
     "playable_lengths(codes, blanks) -> int\n\nBit m set iff m of the rack's tiles make a word."},
    {"lookup_many", (PyCFunction)wordmap_lookup_many, METH_VARARGS,
     "lookup_many(length, codes, blanks) -> int\n\nRows of length - blanks codes looked up one after another: the "
     "number of words found."},
    {"has_word", (PyCFunction)wordmap_has_word, METH_VARARGS,
     "has_word(length, codes, blanks) -> bool\n\nWhether a word of length is made of exactly codes and blanks."},
    {"lookup", (PyCFunction)wordmap_lookup, METH_VARARGS,
     "lookup(length, codes, blanks) -> [(first, count, blank codes)]\n\n"
     "The words of length made of exactly codes and blanks: rows of the length's letters, per blank letters."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WordMapType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = LX_MODULE_NAME ".WordMap",
    .tp_doc = "WordMap(buffer): a word map file's lookups (docs/format.md; wordmap.h)",
    .tp_basicsize = sizeof(WordMapObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)wordmap_init,
    .tp_dealloc = (destructor)wordmap_dealloc,
    .tp_methods = wordmap_methods,
};

const LxWordMap *
lx_wordmap_of(PyObject *object)
{
    if (!PyObject_TypeCheck(object, &WordMapType) || !((WordMapObject *)object)->ready) {
        PyErr_SetString(PyExc_TypeError, "expected an initialised lexigraph._native.WordMap");
        return NULL;
    }
    return &((WordMapObject *)object)->map;
}

/* wordmap_build.c's functions, added with the type (one hook per concern in module.h). */
int lx_add_wordmap_build(PyObject *module);

int
lx_add_wordmap(PyObject *module)
{
    return lx_add_type(module, &WordMapType, "WordMap") < 0 ? -1 : lx_add_wordmap_build(module);
}
