/* rollout_run.c - a rollout's trials over threads (rollout_run.h). */
#include "rollout_run.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct RolloutRun {
    RolloutPlan plan;
    int64_t total;

    pthread_mutex_t lock;
    RolloutSums *sums;    /* [plan.count], under lock */
    int64_t done;         /* trials added, under lock */
    bool failed;
    Err err;              /* why, under lock */

    atomic_llong next;    /* the next trial to start, counted in the shard */
    atomic_bool stop;
};

RolloutRun *rollout_run_new(const RolloutPlan *plan, Err *err)
{
    if (plan->count < 1 || plan->threads < 1 || plan->trials < 0 || plan->first < 0 ||
        plan->step < 1) {
        err_set(err, "rollout: bad plan");
        return NULL;
    }
    RolloutRun *r = calloc(1, sizeof *r);
    RolloutSums *sums = calloc((size_t)plan->count, sizeof *sums);
    if (!r || !sums) {
        free(r);
        free(sums);
        err_set(err, "out of memory for the rollout");
        return NULL;
    }
    r->plan = *plan;
    r->sums = sums;
    for (int i = 0; i < plan->count; i++)
        rollout_sums_init(&r->sums[i]);
    r->total = plan->first < plan->trials
                   ? (plan->trials - plan->first + plan->step - 1) / plan->step
                   : 0;
    pthread_mutex_init(&r->lock, NULL);
    atomic_init(&r->next, 0);
    atomic_init(&r->stop, false);
    return r;
}

void rollout_run_free(RolloutRun *r)
{
    if (!r)
        return;
    pthread_mutex_destroy(&r->lock);
    free(r->sums);
    free(r);
}

static void fail(RolloutRun *r, const Err *why)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) {
        r->failed = true;
        r->err = *why;
    }
    pthread_mutex_unlock(&r->lock);
    rollout_run_stop(r);
}

static void *worker(void *arg)
{
    RolloutRun *r = arg;
    const RolloutPlan *p = &r->plan;
    Err err = {{0}};
    EngineScratch *sc = engine_scratch_new(&err);
    double (*v)[ROLLOUT_VALUES] = malloc((size_t)p->count * sizeof *v);
    if (!sc || !v) {
        if (!err.text[0])
            err_set(&err, "out of memory for a rollout thread");
        fail(r, &err);
        goto out;
    }
    while (!atomic_load(&r->stop)) {
        int64_t k = atomic_fetch_add(&r->next, 1);
        if (k >= r->total)
            break;
        int64_t trial = p->first + k * p->step;
        for (int i = 0; i < p->count; i++)
            if (!rollout_trial(&p->games[i], sc, trial, v[i], &err)) {
                fail(r, &err);
                goto out;
            }
        pthread_mutex_lock(&r->lock);
        for (int i = 0; i < p->count; i++)
            rollout_sums_add(&r->sums[i], v[i]);
        r->done++;
        pthread_mutex_unlock(&r->lock);
    }
out:
    free(v);
    engine_scratch_free(sc);
    return NULL;
}

bool rollout_run(RolloutRun *r, Err *err)
{
    int n = r->plan.threads;
    pthread_t *tids = calloc((size_t)n, sizeof *tids);
    if (!tids)
        return err_set(err, "out of memory for the rollout's threads");
    int started = 0;
    for (; started < n; started++)
        if (pthread_create(&tids[started], NULL, worker, r) != 0) {
            Err e;
            err_set(&e, "cannot start a thread");
            fail(r, &e);
            break;
        }
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    pthread_mutex_lock(&r->lock);
    bool ok = !r->failed;
    if (!ok)
        *err = r->err;
    pthread_mutex_unlock(&r->lock);
    return ok;
}

void rollout_run_stop(RolloutRun *r)
{
    atomic_store(&r->stop, true);
}

int64_t rollout_run_total(const RolloutRun *r)
{
    return r->total;
}

int64_t rollout_run_done(RolloutRun *r)
{
    pthread_mutex_lock(&r->lock);
    int64_t d = r->done;
    pthread_mutex_unlock(&r->lock);
    return d;
}

void rollout_run_sums(RolloutRun *r, int i, RolloutSums *out)
{
    pthread_mutex_lock(&r->lock);
    *out = r->sums[i];
    pthread_mutex_unlock(&r->lock);
}
