/* rollout_run.h - a rollout's trials spread over threads: one or more
 * rollouts (a position, or each candidate move of a roll) played on the
 * same trials, so that the candidates share their dice and their
 * differences are measured more closely than their values.
 *
 * A shard of a run plays the trials first, first + step, first + 2 step,
 * ... below `trials` (`--shard K/N`: first K - 1, step N). Each thread
 * takes the next trial number and plays it for every rollout, with its
 * own engine scratch, and adds the values to the sums (rollout_sums.h):
 * integers, so the sums are the same for any number of threads, and the
 * shards' sums add up to the whole run's. rollout_run_stop (from any
 * thread) ends the run after the trials in play: the sums then hold the
 * trials finished, every rollout the same ones. */
#ifndef SHESH_ROLLOUT_RUN_H
#define SHESH_ROLLOUT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "rollout.h"
#include "rollout_sums.h"

typedef struct RolloutPlan {
    const RolloutGame *games; /* the rollouts, each on every trial */
    int count;
    int64_t trials;           /* the whole run's: trials 0 .. trials - 1 */
    int64_t first, step;      /* this shard's: first, first + step, ... */
    int threads;              /* >= 1 */
} RolloutPlan;

typedef struct RolloutRun RolloutRun;

RolloutRun *rollout_run_new(const RolloutPlan *plan, Err *err);
void rollout_run_free(RolloutRun *r);

/* Plays the trials and returns when all are done, or stopped (true), or
 * when one failed (false, err says why). */
bool rollout_run(RolloutRun *r, Err *err);

/* From any thread: start no more trials. */
void rollout_run_stop(RolloutRun *r);

/* The trials of this shard, and those finished so far (every rollout). */
int64_t rollout_run_total(const RolloutRun *r);
int64_t rollout_run_done(RolloutRun *r);

/* A copy of the sums of rollout i so far (from any thread). */
void rollout_run_sums(RolloutRun *r, int i, RolloutSums *out);

#endif
