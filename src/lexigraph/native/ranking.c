/* ranking.c: rank_extras, the exchanges and the pass ranked among the plays for "every move ranked"
 * (lexigraph.scrabble.movegen.generate without top; its Python twin: lexigraph.engine.python.move_generator.rank_extras).
 *
 * rank_extras(records, record_size, equity_offset, values, order, passes, by_equity) -> (list, bytes)
 *   records:       the plays as the generator ranked them (move records, equity descending);
 *   record_size:   bytes per record; equity_offset: where a record's little-endian float64 equity lies;
 *   values:        a float64 per subset of the rack (lexigraph.scrabble.equity.pack): subset 0 keeps every
 *                  tile (the pass), subset i > 0 exchanges subset i and is worth values[i];
 *   order:         an int64 per exchange (subsets 1..n-1): (tiles exchanged << 24 | subset), its tie order;
 *                  empty: no exchanges;
 *   passes:        whether the pass is listed (tie order 1 << 30: after the exchanges of its value);
 *   by_equity:     1: each extra placed after the plays of at least its equity; 0: after every play.
 * returns the extras' places in the whole list (ascending), a little-endian int64 each, and a (int64 subset,
 * float64 value) per extra, in rank order: equity descending, then the tie order.
 *
 * best_extra(values, order, passes) -> (subset, value) | None
 *   the first extra rank_extras would rank (the same arguments; no plays): the best move's question, where a
 *   sort of every exchange would cost more than the generation on small positions. None: no extras.
 *
 * Done in Python this is a few NumPy calls of a microsecond or two each (a sort, a search, conversions):
 * 10-15 us a call, as much as the whole generation on the smallest positions.
 */
#include "module.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    double value;
    int64_t order;
    int64_t subset;
} Extra;

/* Whether extra a ranks before extra b: equity down, then the tie order (inlined: qsort's call through a pointer per
 * comparison cost more than the generation on small positions, 127 exchanges a full rack). */
static inline int
ranks_before(const Extra *a, const Extra *b)
{
    return a->value != b->value ? a->value > b->value : a->order < b->order;
}

/* Sorts extras[0..count) by rank: a bottom-up merge sort through scratch (count entries). */
static void
sort_by_rank(Extra *extras, Extra *scratch, Py_ssize_t count)
{
    Extra *from = extras, *to = scratch;
    for (Py_ssize_t width = 1; width < count; width *= 2) {
        for (Py_ssize_t start = 0; start < count; start += 2 * width) {
            Py_ssize_t left = start, middle = start + width < count ? start + width : count,
                       end = start + 2 * width < count ? start + 2 * width : count, right = middle, out = start;
            while (left < middle && right < end)
                to[out++] = ranks_before(&from[right], &from[left]) ? from[right++] : from[left++];
            while (left < middle)
                to[out++] = from[left++];
            while (right < end)
                to[out++] = from[right++];
        }
        Extra *swap = from;
        from = to;
        to = swap;
    }
    if (from != extras)
        memcpy(extras, from, sizeof(Extra) * (size_t)count);
}

static double
double_at(const unsigned char *bytes)
{
    double d;
    memcpy(&d, bytes, sizeof d);
    return d;
}

/* Whether `values` and `order` fit each other: a float64 per subset (at least the pass's), an int64 per exchange
 * (subsets 1 on) or none. */
static int
extras_fit(const Py_buffer *values, const Py_buffer *order)
{
    const Py_ssize_t n_values = values->len / 8, n_order = order->len / 8;
    return !(values->len % 8 || order->len % 8 || n_values < 1 || (n_order && n_order != n_values - 1));
}

/* Extra k of the list rank_extras ranks: exchange k + 1 for k below n_order, then the pass (tie order 1 << 30:
 * after the exchanges of its value). */
static Extra
extra_at(const unsigned char *value_bytes, const unsigned char *order_bytes, Py_ssize_t n_order, Py_ssize_t k)
{
    if (k == n_order)
        return (Extra){.value = double_at(value_bytes), .order = (int64_t)1 << 30, .subset = 0};
    Extra extra = {.value = double_at(value_bytes + 8 * (k + 1)), .subset = k + 1};
    memcpy(&extra.order, order_bytes + 8 * k, 8);
    return extra;
}

static PyObject *
rank_extras(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer records, values, order;
    Py_ssize_t record_size, equity_offset;
    int passes, by_equity;
    if (!PyArg_ParseTuple(args, "y*nny*y*pp:rank_extras", &records, &record_size, &equity_offset, &values, &order,
                          &passes, &by_equity))
        return NULL;
    PyObject *result = NULL;
    Extra *extras = NULL;
    const Py_ssize_t n_order = order.len / 8;
    if (record_size <= 0 || equity_offset < 0 || equity_offset + 8 > record_size || records.len % record_size
        || !extras_fit(&values, &order)) {
        PyErr_SetString(PyExc_ValueError, "rank_extras: buffers of inconsistent sizes");
        goto done;
    }
    const Py_ssize_t plays = records.len / record_size, count = n_order + (passes ? 1 : 0);
    extras =
        PyMem_Malloc(2 * sizeof(Extra) * (size_t)(count ? count : 1)); /* the extras, then sort_by_rank's scratch */
    if (!extras) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++)
        extras[k] = extra_at(values.buf, order.buf, n_order, k);
    sort_by_rank(extras, extras + count, count);
    PyObject *places = PyBytes_FromStringAndSize(NULL, 8 * count);
    PyObject *ranked = PyBytes_FromStringAndSize(NULL, 16 * count);
    if (!places || !ranked) {
        Py_XDECREF(places);
        Py_XDECREF(ranked);
        goto done;
    }
    const unsigned char *equity = (const unsigned char *)records.buf + equity_offset;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(ranked);
    Py_ssize_t before = by_equity ? 0 : plays; /* plays before the next extra */
    for (Py_ssize_t k = 0; k < count; k++) {
        while (by_equity && before < plays && double_at(equity + before * record_size) >= extras[k].value)
            before++; /* a play first at equal equity */
        const int64_t place = before + k;
        memcpy(PyBytes_AS_STRING(places) + 8 * k, &place, 8);
        memcpy(out + 16 * k, &extras[k].subset, 8);
        memcpy(out + 16 * k + 8, &extras[k].value, 8);
    }
    result = Py_BuildValue("(NN)", places, ranked);
done:
    PyMem_Free(extras);
    PyBuffer_Release(&records);
    PyBuffer_Release(&values);
    PyBuffer_Release(&order);
    return result;
}

static PyObject *
best_extra(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer values, order;
    int passes;
    if (!PyArg_ParseTuple(args, "y*y*p:best_extra", &values, &order, &passes))
        return NULL;
    PyObject *result = NULL;
    if (!extras_fit(&values, &order)) {
        PyErr_SetString(PyExc_ValueError, "best_extra: buffers of inconsistent sizes");
        goto done;
    }
    const Py_ssize_t n_order = order.len / 8, count = n_order + (passes ? 1 : 0);
    Extra best = {.subset = -1};
    for (Py_ssize_t k = 0; k < count; k++) {
        const Extra candidate = extra_at(values.buf, order.buf, n_order, k);
        if (best.subset < 0 || ranks_before(&candidate, &best))
            best = candidate;
    }
    if (best.subset < 0)
        result = Py_NewRef(Py_None);
    else
        result = Py_BuildValue("(Ld)", (long long)best.subset, best.value);
done:
    PyBuffer_Release(&values);
    PyBuffer_Release(&order);
    return result;
}

static PyMethodDef ranking_methods[] = {
    {"rank_extras", rank_extras, METH_VARARGS,
     "rank_extras(records, record_size, equity_offset, values, order, passes, by_equity) -> (bytes, bytes)"},
    {"best_extra", best_extra, METH_VARARGS, "best_extra(values, order, passes) -> (subset, value) | None"},
    {NULL, NULL, 0, NULL},
};

int
lx_add_ranking(PyObject *module)
{
    return PyModule_AddFunctions(module, ranking_methods);
}
