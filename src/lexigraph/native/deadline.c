/*
 * deadline.c: the clock of deadline.h, monotonic() (that clock as Python sees it, for the test that
 * holds it to time.monotonic) and WALK_ANSWERS (the walks' answers besides their output).
 *
 * Why C reads the clock itself on Linux: a walk checks its deadline every few thousand arcs, and a
 * call into Python there would cost more than the arcs. time.monotonic() on Linux is
 * clock_gettime(CLOCK_MONOTONIC); elsewhere the clock behind it differs by platform and version,
 * so this file calls time.monotonic itself (the check is rare enough for that).
 */
#include "deadline.h"

#if defined(__linux__)
#include <time.h>
#endif

#if !defined(__linux__)
static PyObject *python_monotonic; /* time.monotonic, found on first use */
#endif

double
lx_monotonic(void)
{
#if defined(__linux__)
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1.0;
    }
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    if (python_monotonic == NULL) {
        PyObject *time = PyImport_ImportModule("time");
        if (time == NULL)
            return -1.0;
        python_monotonic = PyObject_GetAttrString(time, "monotonic");
        Py_DECREF(time);
        if (python_monotonic == NULL)
            return -1.0;
    }
    PyObject *now = PyObject_CallNoArgs(python_monotonic);
    if (now == NULL)
        return -1.0;
    double value = PyFloat_AsDouble(now);
    Py_DECREF(now);
    return value;
#endif
}

int
lx_deadline_parse(PyObject *value, LxDeadline *deadline)
{
    deadline->at = INFINITY;
    deadline->countdown = LX_DEADLINE_STEPS;
    deadline->passed = 0;
    if (value == NULL || value == Py_None)
        return 0;
    if (!PyFloat_Check(value) && !PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a deadline is a time.monotonic() value or None");
        return -1;
    }
    double at = PyFloat_AsDouble(value);
    if (at == -1.0 && PyErr_Occurred())
        return -1;
    if (isnan(at)) {
        PyErr_SetString(PyExc_TypeError, "a deadline is a time.monotonic() value or None, not nan");
        return -1;
    }
    deadline->at = at;
    /* A deadline already past is seen at the first step, not LX_DEADLINE_STEPS later. */
    deadline->countdown = 1;
    return 0;
}

/* monotonic() -> float: the clock deadlines are read on, in seconds (time.monotonic's). */
static PyObject *
monotonic(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored))
{
    double now = lx_monotonic();
    if (now < 0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(now);
}

static PyMethodDef deadline_methods[] = {
    {"monotonic", monotonic, METH_NOARGS,
     "monotonic() -> float\n\nThe clock the C walks read their deadlines on: time.monotonic()'s."},
    {NULL, NULL, 0, NULL},
};

int
lx_add_deadline(PyObject *module)
{
    if (PyModule_AddFunctions(module, deadline_methods) < 0)
        return -1;
    PyObject *answers = Py_BuildValue("{s:i,s:i,s:i}", "outside", LX_WALK_OUTSIDE, "past_deadline",
                                      LX_WALK_PAST_DEADLINE, "over_budget", LX_WALK_OVER_BUDGET);
    if (answers == NULL)
        return -1;
    int status = PyModule_AddObjectRef(module, "WALK_ANSWERS", answers);
    Py_DECREF(answers);
    return status;
}
