/* sched.c - the fair queue in front of the worker pool (sched.h). */
#include "sched.h"

#include <stddef.h>

#include "clock.h"

bool sched_full(const Sched *s, const FairPeer *peer)
{
    if (s->on_pool < s->threads)
        return false; /* a worker is free: it would not wait */
    return (s->max_queue > 0 && fair_waiting(s->fair) >= s->max_queue) ||
           (s->max_queue_per_peer > 0 && fair_peer_waiting(peer) >= s->max_queue_per_peer);
}

/* The pool's view of a job: stamp when it starts, then the owner's run. */
static void sched_run(WorkerJob *wj, void *thread)
{
    SchedJob *j = (SchedJob *)wj;
    atomic_store(&j->started_us, (long long)(clock_now() * 1e6) + 1);
    j->run(j, thread);
}

static void submit(Sched *s, SchedJob *j)
{
    s->on_pool++;
    worker_pool_submit(s->pool, &j->base);
}

/* Hands waiting jobs to the pool, in their turns, while a worker is free.
 * The pool is given no more than it has threads: the order of the rest is
 * fair.h's, not first come first served. */
static void run_waiting(Sched *s)
{
    FairItem *it;
    while (s->on_pool < s->threads && (it = fair_pop(s->fair, NULL))) {
        SchedJob *j = (SchedJob *)(void *)((char *)it - offsetof(SchedJob, turn));
        j->queued = false;
        submit(s, j);
    }
}

void sched_start(Sched *s, SchedJob *j)
{
    j->base.run = sched_run;
    j->busy = true;
    atomic_store(&j->stop, false);
    atomic_store(&j->started_us, 0);
    if (s->on_pool < s->threads) {
        submit(s, j);
    } else {
        j->queued = true;
        fair_push(s->fair, j->peer, &j->turn);
    }
}

bool sched_cancel(Sched *s, SchedJob *j)
{
    if (j->queued) { /* it never started: it simply stops waiting */
        fair_remove(s->fair, j->peer, &j->turn);
        j->queued = false;
        j->busy = false;
        return false;
    }
    return j->busy && !atomic_exchange(&j->stop, true);
}

double sched_deadline(const SchedJob *j, double now, double budget)
{
    long long started = atomic_load(&j->started_us);
    return started ? (double)(started - 1) / 1e6 + budget : now + budget;
}

void sched_collect(Sched *s)
{
    for (WorkerJob *wj = worker_pool_collect(s->pool), *next; wj; wj = next) {
        next = wj->next;
        SchedJob *j = (SchedJob *)wj;
        j->busy = false;
        s->on_pool--;
        run_waiting(s); /* the next turn is another's before j's owner starts again */
        j->done(j);
    }
}
