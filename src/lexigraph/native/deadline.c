/*
 * deadline.c: the clock of deadline.h, deadlines parsed from Python, monotonic() (time.monotonic's clock as
 * the C code reads it, for the test that holds the two together) and WALK_ANSWERS (the walks' answers besides
 * their output).
 *
 * Why C reads a clock itself: a loop checks its deadline every few thousand steps, often without the GIL, and
 * a call into Python there would cost more than the steps (and needs the GIL). time.monotonic() on Linux is
 * clock_gettime(CLOCK_MONOTONIC): the same clock. Elsewhere the clock behind it differs by platform and
 * version, so a deadline is moved onto the C clock once, when it is parsed (deadline.h).
 */
#include "deadline.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <time.h>
#endif

double
lx_clock_now(void)
{
#if defined(_WIN32)
    static double period; /* seconds per count of the performance counter, read once */
    LARGE_INTEGER count;
    if (period == 0.0) {
        LARGE_INTEGER frequency;
        QueryPerformanceFrequency(&frequency);
        period = 1.0 / (double)frequency.QuadPart;
    }
    QueryPerformanceCounter(&count);
    return (double)count.QuadPart * period;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

/* Lets the calling thread sleep for `seconds` (under a second): a thread waiting for another's work gives its core
 * away (the endgame's helper threads between the main thread's iterations). */
void
lx_pause(double seconds)
{
#ifdef _WIN32
    Sleep((DWORD)(seconds * 1000.0));
#else
    struct timespec pause = {0, (long)(seconds * 1e9)};
    nanosleep(&pause, NULL);
#endif
}

/* The calling thread's CPU time (the endgame reports each thread's work with it; 0 where there is none). */
double
lx_thread_cpu_seconds(void)
{
#if !defined(_WIN32) && defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return 0.0;
}

#if defined(__linux__)
double
lx_monotonic(void)
{
    return lx_clock_now(); /* time.monotonic() is clock_gettime(CLOCK_MONOTONIC) on Linux */
}
#else
static PyObject *python_monotonic; /* time.monotonic, found on first use */

double
lx_monotonic(void)
{
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
}
#endif

/* A time.monotonic() value on lx_clock_now's clock: the same number on Linux, else moved by the
 * difference between the two clocks now; NaN with an error set when time.monotonic fails. */
static double
on_the_c_clock(double at)
{
#if defined(__linux__)
    return at;
#else
    double python_now = lx_monotonic();
    if (python_now == -1.0 && PyErr_Occurred())
        return NAN;
    return at + (lx_clock_now() - python_now);
#endif
}

int
lx_deadline_parse(PyObject *value, LxDeadline *deadline)
{
    *deadline = lx_no_deadline();
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
    at = on_the_c_clock(at);
    if (isnan(at))
        return -1;
    deadline->at = at;
    /* A deadline already past is seen at the first step, not `every` steps later. */
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
