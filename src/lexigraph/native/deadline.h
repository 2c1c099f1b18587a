/*
 * deadline.h: the one way a C loop that may run long keeps a deadline (the walks of walks.c, pattern.c and
 * alphagram.c, move generation, self-play's play-outs, the endgame, the fill's propagation), and the answers
 * a stopped walk gives.
 *
 * A deadline is a time.monotonic() value (lexigraph.errors.DeadlineExceeded documents the convention); None
 * is no deadline. lx_deadline_parse reads it from Python (None or a number; NaN is refused) while the GIL is
 * held; from then on the loop needs no Python object: it calls lx_deadline_passed once per step (an arc list
 * entered, an extension, a node), which reads the clock every `every` steps only (LX_DEADLINE_STEPS unless
 * the loop says otherwise), at most a millisecond or so of work apart, so a loop stops within that of its
 * deadline and a loop without one pays a compare per step.
 *
 * The clock, lx_clock_now, is read without the GIL (move generation, self-play and the endgame run without
 * it). On Linux it is CLOCK_MONOTONIC, the clock time.monotonic itself reads, so a deadline the server
 * computes in Python means the same instant here. Elsewhere the clock behind time.monotonic differs by
 * platform and Python version: lx_clock_now reads the platform's monotonic clock (QueryPerformanceCounter on
 * Windows, CLOCK_MONOTONIC on other POSIX systems) and lx_deadline_parse moves the deadline onto it, adding
 * the difference between the two clocks read at that moment (the GIL held). tests/test_native.py holds
 * monotonic() to time.monotonic.
 */
#ifndef LEXIGRAPH_DEADLINE_H
#define LEXIGRAPH_DEADLINE_H

#include "module.h"

#include <math.h>

/* Steps between two readings of the clock, unless the loop sets its own (LxDeadline.every). */
#define LX_DEADLINE_STEPS 4096

/* What a walk answers Python besides its output (compiled.py turns each into an error; deadline.c
 * exports them as WALK_ANSWERS): the graph points outside itself, the deadline passed, the walk
 * read more arcs than its budget allows (a graph with more paths than its words: forged). The
 * one-call answers, which the engine binds without a Python frame, raise the error the engine
 * handed their probe instead (probe.h, lx_probe_past_deadline). */
enum { LX_WALK_OUTSIDE = -1, LX_WALK_PAST_DEADLINE = -2, LX_WALK_OVER_BUDGET = -3 };

typedef struct {
    double at;          /* on lx_clock_now's clock; INFINITY: no deadline */
    unsigned every;     /* steps between two readings of the clock */
    unsigned countdown; /* steps until the clock is read again */
    int passed;
} LxDeadline;

/* The clock deadlines are kept on, in seconds; readable without the GIL. */
double lx_clock_now(void);

/* Sleeps the calling thread for `seconds` (below 1): a thread that waits for another's work gives its core away. */
void lx_pause(double seconds);

/* The calling thread's CPU time in seconds, for reports of the work each thread did (the endgame's threads);
 * 0 where the platform has no such clock. Readable without the GIL. */
double lx_thread_cpu_seconds(void);

/* The current time.monotonic() value (the GIL held); a Python error gives -1. */
double lx_monotonic(void);

/* No deadline. */
static inline LxDeadline
lx_no_deadline(void)
{
    LxDeadline none = {INFINITY, LX_DEADLINE_STEPS, LX_DEADLINE_STEPS, 0};
    return none;
}

/* A deadline from a Python argument: None or a number (a time.monotonic() value); 0, or -1 with a
 * TypeError set (NaN included). A NULL argument (not given) is no deadline. The GIL must be held. */
int lx_deadline_parse(PyObject *value, LxDeadline *deadline);

/* Whether the deadline has passed, reading the clock now (for work that takes few steps: a binary
 * search, a rotation order's range, an iteration of play-outs). */
static inline int
lx_deadline_passed_now(LxDeadline *d)
{
    if (d->passed)
        return 1;
    if (d->at == INFINITY)
        return 0;
    d->countdown = d->every;
    if (lx_clock_now() > d->at)
        d->passed = 1;
    return d->passed;
}

/* Whether the deadline has passed, reading the clock every `every` calls. A loop without a deadline pays one
 * compare (a deadline that has passed is never INFINITY). */
static inline int
lx_deadline_passed(LxDeadline *d)
{
    if (d->at == INFINITY)
        return 0;
    if (d->passed)
        return 1;
    if (--d->countdown)
        return 0;
    return lx_deadline_passed_now(d);
}

/* Whether the deadline has passed after `steps` steps at once (a step that weighs as much as many). */
static inline int
lx_deadline_passed_after(LxDeadline *d, unsigned steps)
{
    if (d->passed)
        return 1;
    if (d->at == INFINITY)
        return 0;
    if (d->countdown > steps) {
        d->countdown -= steps;
        return 0;
    }
    return lx_deadline_passed_now(d);
}

#endif
