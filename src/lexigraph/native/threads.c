/* threads.c: starting worker threads and waiting for them, and the work counter's lock (threads.h). */
#include "module.h"

#include "threads.h"

#include <stdlib.h>

/* A started worker: what it runs and on what. */
typedef struct {
    void (*work)(void *);
    void *argument;
} Worker;

int
lx_threads_available(void)
{
    return LX_THREADS;
}

#if defined(_WIN32)

int
lx_mutex_init(LxMutex *mutex)
{
    InitializeCriticalSection(mutex);
    return 0;
}

void
lx_mutex_lock(LxMutex *mutex)
{
    EnterCriticalSection(mutex);
}

void
lx_mutex_unlock(LxMutex *mutex)
{
    LeaveCriticalSection(mutex);
}

void
lx_mutex_destroy(LxMutex *mutex)
{
    DeleteCriticalSection(mutex);
}

static DWORD WINAPI
worker_main(LPVOID data)
{
    Worker *worker = data;
    worker->work(worker->argument);
    return 0;
}

typedef HANDLE Thread;

static int
start_thread(Thread *thread, Worker *worker)
{
    *thread = CreateThread(NULL, 0, worker_main, worker, 0, NULL);
    return *thread ? 0 : -1;
}

static void
join_thread(Thread thread)
{
    WaitForSingleObject(thread, INFINITE);
    CloseHandle(thread);
}

#elif LX_THREADS

int
lx_mutex_init(LxMutex *mutex)
{
    return pthread_mutex_init(mutex, NULL) == 0 ? 0 : -1;
}

void
lx_mutex_lock(LxMutex *mutex)
{
    pthread_mutex_lock(mutex);
}

void
lx_mutex_unlock(LxMutex *mutex)
{
    pthread_mutex_unlock(mutex);
}

void
lx_mutex_destroy(LxMutex *mutex)
{
    pthread_mutex_destroy(mutex);
}

static void *
worker_main(void *data)
{
    Worker *worker = data;
    worker->work(worker->argument);
    return NULL;
}

typedef pthread_t Thread;

static int
start_thread(Thread *thread, Worker *worker)
{
    return pthread_create(thread, NULL, worker_main, worker) == 0 ? 0 : -1;
}

static void
join_thread(Thread thread)
{
    pthread_join(thread, NULL);
}

#else /* no threads: one worker, on the calling thread */

int
lx_mutex_init(LxMutex *mutex)
{
    *mutex = 0;
    return 0;
}

void
lx_mutex_lock(LxMutex *mutex)
{
    (void)mutex;
}

void
lx_mutex_unlock(LxMutex *mutex)
{
    (void)mutex;
}

void
lx_mutex_destroy(LxMutex *mutex)
{
    (void)mutex;
}

typedef int Thread;

static int
start_thread(Thread *thread, Worker *worker)
{
    (void)thread;
    (void)worker;
    return -1;
}

static void
join_thread(Thread thread)
{
    (void)thread;
}

#endif

int
lx_run_threads(void (*work)(void *), void **arguments, int count)
{
    if (count > LX_MAX_THREADS)
        count = LX_MAX_THREADS;
    Worker workers[LX_MAX_THREADS];
    Thread threads[LX_MAX_THREADS];
    int started[LX_MAX_THREADS] = {0};
    for (int k = 1; k < count; k++) {
        workers[k].work = work;
        workers[k].argument = arguments[k];
        started[k] = start_thread(&threads[k], &workers[k]) == 0;
    }
    if (count > 0)
        work(arguments[0]);
    int ran = count > 0;
    for (int k = 1; k < count; k++)
        if (started[k]) {
            join_thread(threads[k]);
            ran++;
        }
    return ran;
}

/* How many threads a call asked for, checked: 1 .. LX_MAX_THREADS, and more than one only where C threads run.
 * -1 with ValueError set. */
int
lx_threads_argument(int threads, const char *job)
{
    if (threads < 1 || threads > LX_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "%s: inconsistent arguments", job);
        return -1;
    }
    if (threads > 1 && !lx_threads_available()) {
        PyErr_Format(PyExc_ValueError, "%s: this build of lexigraph runs no C threads", job);
        return -1;
    }
    return threads;
}
