/*
 * deadline.h: deadlines for the C loops that may run long (the walks of walks.c and pattern.c, the
 * alphagram walk of alphagram.c), and the answers a stopped walk gives.
 *
 * A deadline is a time.monotonic() value (lexigraph.errors.DeadlineExceeded documents the
 * convention); None is no deadline. A loop calls lx_deadline_passed once per step (an arc list
 * entered, a range narrowed); it reads the clock every LX_DEADLINE_STEPS steps only, at most a
 * millisecond or so of work apart, so a walk stops within that of its deadline and a walk without
 * one pays a compare per step. The clock is the one time.monotonic reads: CLOCK_MONOTONIC on Linux
 * (deadline.c; elsewhere it calls time.monotonic itself), so a deadline the server computes in
 * Python means the same instant here. tests/test_native.py holds the two clocks together.
 */
#ifndef LEXIGRAPH_DEADLINE_H
#define LEXIGRAPH_DEADLINE_H

#include "module.h"

#include <math.h>

/* Steps between two readings of the clock. */
#define LX_DEADLINE_STEPS 4096

/* What a walk answers Python besides its output (compiled.py turns each into an error; deadline.c
 * exports them as WALK_ANSWERS): the graph points outside itself, the deadline passed, the walk
 * read more arcs than its budget allows (a graph with more paths than its words: forged). The
 * one-call answers, which the engine binds without a Python frame, raise the error the engine
 * handed their probe instead (probe.h, lx_probe_past_deadline). */
enum { LX_WALK_OUTSIDE = -1, LX_WALK_PAST_DEADLINE = -2, LX_WALK_OVER_BUDGET = -3 };

typedef struct {
    double at;          /* time.monotonic() value; INFINITY: no deadline */
    unsigned countdown; /* steps until the clock is read again */
    int passed;
} LxDeadline;

/* The current time.monotonic() value; a Python error (only where the clock is Python's) gives -1. */
double lx_monotonic(void);

/* A deadline from a Python argument: None or a number (a time.monotonic() value); 0, or -1 with a
 * TypeError set. A NULL argument (not given) is no deadline. */
int lx_deadline_parse(PyObject *value, LxDeadline *deadline);

/* Whether the deadline has passed, reading the clock now (for work that takes few steps: a binary
 * search, a rotation order's range). */
static inline int
lx_deadline_passed_now(LxDeadline *d)
{
    if (d->passed)
        return 1;
    if (d->at == INFINITY)
        return 0;
    d->countdown = LX_DEADLINE_STEPS;
    double now = lx_monotonic();
    if (now < 0 || now > d->at) {
        if (now < 0)
            PyErr_Clear(); /* a clock that cannot be read stops the walk: it cannot say it is early */
        d->passed = 1;
    }
    return d->passed;
}

/* Whether the deadline has passed, reading the clock every LX_DEADLINE_STEPS calls. */
static inline int
lx_deadline_passed(LxDeadline *d)
{
    if (d->passed)
        return 1;
    if (d->at == INFINITY || --d->countdown)
        return 0;
    return lx_deadline_passed_now(d);
}

#endif
