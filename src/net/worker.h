/* worker.h - a pool of threads that runs jobs handed over by one owner (the
 * event loop) and hands them back when done, through a file descriptor the
 * owner can watch with epoll next to its sockets. */
#ifndef SHESH_WORKER_H
#define SHESH_WORKER_H

#include <stdbool.h>

#include "err.h"

/* Embed this in your own job struct; the pool only touches next. */
typedef struct WorkerJob WorkerJob;
struct WorkerJob {
    /* Called on a worker thread, with that thread's own state (below). */
    void (*run)(WorkerJob *job, void *thread);
    WorkerJob *next; /* the pool's, while the job is queued or done */
};

/* What each thread owns for the jobs it runs (scratch memory...): made
 * for every thread when the pool is, freed with the pool. */
typedef struct WorkerThreadState {
    void *ctx;
    void *(*make)(void *ctx, Err *err); /* NULL result: the pool fails */
    void (*free)(void *ctx, void *state);
} WorkerThreadState;

typedef struct WorkerPool WorkerPool;

/* The number of online cores (at least 1): the default pool size. */
int worker_default_threads(void);

/* per_thread may be NULL: jobs then get a NULL thread state. */
WorkerPool *worker_pool_new(int threads, const WorkerThreadState *per_thread, Err *err);

/* Queues a job; jobs start in the order submitted. */
void worker_pool_submit(WorkerPool *p, WorkerJob *job);

/* Readable while finished jobs wait to be collected. */
int worker_pool_fd(const WorkerPool *p);

/* Every finished job not yet collected, oldest first (NULL if none). */
WorkerJob *worker_pool_collect(WorkerPool *p);

/* Lets queued jobs run, then waits at most timeout_s seconds (< 0: without
 * limit) for every job to finish. True: all threads have ended and the
 * finished jobs can be collected. False: some job is still running; the
 * pool must then be left alone (not freed) - the process is ending anyway. */
bool worker_pool_stop(WorkerPool *p, double timeout_s);

/* Frees a pool whose worker_pool_stop returned true (or stops it first,
 * waiting as long as it takes), with the threads' states. Jobs not
 * collected are simply forgotten. */
void worker_pool_free(WorkerPool *p);

#endif
