/* rollout_sums.h - what a rollout adds up, exactly: for each value of
 * rollout.h, the sum of the trials' values and of their squares as whole
 * multiples of ROLLOUT_QUANTUM, in 128-bit integers. Integer sums do not
 * depend on the order trials are added in, so any number of threads and
 * the shards of a run merged give the same sums, byte for byte, as one
 * run; means and standard errors are computed from them alone. */
#ifndef SHESH_ROLLOUT_SUMS_H
#define SHESH_ROLLOUT_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "rollout.h"

/* A value is counted as round(value / ROLLOUT_QUANTUM), after clamping to
 * +-ROLLOUT_VALUE_MAX (a backgammon at the largest cube of an ID, 3 *
 * 32768, stays below it; the bound keeps the squares of 10^9 trials, the
 * most shesh rollout plays, within a sum). */
#define ROLLOUT_QUANTUM 1e-9
#define ROLLOUT_VALUE_MAX 1e5

/* Sums are kept within +-(10^38 - 1): 38 decimal digits. */
__extension__ typedef __int128 RolloutWide;
#define ROLLOUT_WIDE_DIGITS 38

typedef struct RolloutSums {
    int64_t trials;
    RolloutWide sum[ROLLOUT_VALUES], sum_sq[ROLLOUT_VALUES];
} RolloutSums;

void rollout_sums_init(RolloutSums *s);

/* Adds one trial's values. */
void rollout_sums_add(RolloutSums *s, const double v[ROLLOUT_VALUES]);

/* into += add; false (into unchanged) when a sum would leave its range. */
bool rollout_sums_merge(RolloutSums *into, const RolloutSums *add, Err *err);

/* The mean of value k, and the standard error of that mean (0 with fewer
 * than two trials); 0 and 0 without trials. */
double rollout_sums_mean(const RolloutSums *s, int k);
double rollout_sums_se(const RolloutSums *s, int k);

/* x in decimal, as the JSON of a rollout carries it; buf holds
 * ROLLOUT_WIDE_TEXT bytes. Returns buf. */
#define ROLLOUT_WIDE_TEXT (ROLLOUT_WIDE_DIGITS + 2)
const char *rollout_wide_text(RolloutWide x, char *buf);

/* Reads a decimal integer: an optional '-', 1 to 38 digits, no leading
 * zero but for 0 itself, nothing else. */
bool rollout_wide_read(const char *s, RolloutWide *out, Err *err);

#endif
