/*
 * threads.h: the few thread primitives self-play (selfplay.c) and the simulation's play-outs (playouts.c) need to
 * run their games and iterations on C threads inside one process: start workers and wait for them, and a lock
 * around the counter that hands the work out.
 *
 * POSIX threads where the platform has them, Windows threads on Windows. Elsewhere lx_threads_available() is 0
 * and the callers refuse a request for more than one thread with a clear error.
 *
 * The workers touch no Python object: the caller releases the GIL around lx_run_threads, and every worker reads
 * shared tables that nobody writes (game_tables.h) and writes only its own state and its own slots of the answer.
 * The work is claimed in increasing order under the lock, so what a unit computes depends only on its index, never
 * on which thread ran it: one thread and N threads give the same bytes.
 */
#ifndef LEXIGRAPH_THREADS_H
#define LEXIGRAPH_THREADS_H

#if defined(_WIN32)
#include <windows.h>
#define LX_THREADS 1
typedef CRITICAL_SECTION LxMutex;
#elif defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define LX_THREADS 1
typedef pthread_mutex_t LxMutex;
#else
#define LX_THREADS 0
typedef int LxMutex;
#endif

/* Most threads one call runs (as many as lexigraph.support.workers.MAX_WORKERS allows processes). */
#define LX_MAX_THREADS 256

/* 1 where this build runs C threads, else 0. */
int lx_threads_available(void);

/* A lock for the work counter: 0, or -1 when it could not be made. */
int lx_mutex_init(LxMutex *mutex);
void lx_mutex_lock(LxMutex *mutex);
void lx_mutex_unlock(LxMutex *mutex);
void lx_mutex_destroy(LxMutex *mutex);

/* Runs work(arguments[k]) for k in 0 .. count - 1, arguments[0] on the calling thread and the others on new
 * threads, and returns once all are done. A thread the system refuses to start is skipped: its argument is never
 * run (the callers hand work out by a shared counter, so the threads that did start do all of it). Returns the
 * number of workers that ran. */
int lx_run_threads(void (*work)(void *), void **arguments, int count);

/* A job's `threads` argument checked: 1 .. LX_MAX_THREADS, and more than one only where C threads run; -1 with
 * ValueError set ("JOB: inconsistent arguments", or that this build runs no C threads). The GIL must be held. */
int lx_threads_argument(int threads, const char *job);

#endif
