/* sched.h - what runs the server's requests: the worker pool (worker.h)
 * and, in front of it, the fair queue (fair.h) with its caps. A request
 * is a SchedJob whatever it came from: a line of a socket connection
 * (net.c) or an HTTP request (http.c), so both kinds wait in one queue, in
 * the same turns by peer, under the same --max-queue and
 * --max-queue-per-peer, on the same workers. Loop thread only, but for
 * run, which a worker calls. */
#ifndef SHESH_SCHED_H
#define SHESH_SCHED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "fair.h"
#include "worker.h"

typedef struct SchedJob SchedJob;
struct SchedJob {
    WorkerJob base; /* first: the pool hands back a WorkerJob * */
    /* On a worker thread, with its state (NetHandler.thread_new). */
    void (*run)(SchedJob *j, void *thread);
    /* Back on the loop, after run (or instead of it at exit). */
    void (*done)(SchedJob *j);
    FairPeer *peer; /* whose turn it takes; the owner's to set */
    /* sched.c's: */
    bool busy;      /* queued, or on the pool */
    bool queued;    /* waiting its turn for a worker */
    FairItem turn;  /* its place while queued */
    /* Between the loop and the worker: the loop sets stop when the answer
     * is no longer wanted (the client left, the time budget ran out); the
     * worker sets started_us (microseconds of clock_now, + 1; 0 while
     * queued) when it takes the job, which is when the time budget starts. */
    atomic_bool stop;
    atomic_llong started_us;
};

typedef struct Sched {
    WorkerPool *pool;
    Fair *fair;
    size_t threads;            /* the pool's: it is handed no more jobs */
    size_t max_queue;          /* waiting in all; 0 = no limit */
    size_t max_queue_per_peer; /* waiting from one peer; 0 = no limit */
    size_t on_pool;            /* handed to the pool, not yet back */
} Sched;

/* Whether a job of peer would be refused ("server busy") were it started
 * now: every worker is taken and the queue is full, for the peer or in
 * all. */
bool sched_full(const Sched *s, const FairPeer *peer);

/* j (run, done and peer set, not busy) goes to a worker now if one is free,
 * else waits its peer's turn. */
void sched_start(Sched *s, SchedJob *j);

/* Nobody wants j's answer: a job still waiting stops waiting (no longer
 * busy; done is not called); one on a worker is told to stop (stop), and
 * done still comes. True when that told a running job to stop for the
 * first time (for the count of searches stopped). */
bool sched_cancel(Sched *s, SchedJob *j);

/* When j's time budget runs out: budget seconds from when a worker took
 * it, or, still waiting, not before a whole budget from now. */
double sched_deadline(const SchedJob *j, double now, double budget);

/* Every job back from the pool: no longer busy, the waiting ones handed on
 * in their turns, then its done called (oldest first). */
void sched_collect(Sched *s);

#endif
