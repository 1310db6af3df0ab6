/* stats.h - the statistics of a run of games with duplicate dice: points per
 * game with its standard error and 95 % interval, a win rate with its
 * interval, and a sequential probability ratio test on the pair means.
 *
 * The unit is the PAIR: each dice sequence is played twice with the seats
 * swapped, and the pair's result (A's points over both games) is one
 * observation. Most of the luck cancels inside a pair, so the pairs are far
 * less spread than single games, and they are independent of each other,
 * which single games of a pair are not: an interval from the games would be
 * wrong, one from the pairs is honest.
 *
 * Sums are kept as integers (points are whole numbers), so a run split into
 * shards and merged gives exactly the figures of one run, to the last bit,
 * whatever the order of the merge. */
#ifndef SHESH_STATS_H
#define SHESH_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* Pair results so far. */
typedef struct StatsPairs {
    int64_t n;      /* pairs */
    int64_t sum;    /* A's points over all pairs */
    int64_t sum_sq; /* sum of the squares of the pair results */
    /* Games per pair: two in money play, but a pair of matches has as
     * many as its two matches took. ppg is then a ratio of two sums, and
     * its error comes from these (the ratio estimator). */
    int64_t games, games_sq, cross; /* sums of g, g^2 and points x g */
} StatsPairs;

/* What the pairs say about A's points per game. */
typedef struct StatsSummary {
    int64_t pairs;
    double ppg;         /* A's points per game */
    double se;          /* its standard error, from the spread of the pairs */
    double ci95[2];     /* 95 % interval of ppg (Student's t while pairs are few) */
} StatsSummary;

/* Adds one pair: A's points in the two games together (negative when A
 * lost points). False when a sum would overflow (never in a real run). */
bool stats_pairs_add(StatsPairs *s, int64_t points);

/* The same for a pair of `games` games (a pair of matches): A's points
 * over all of them. */
bool stats_pairs_add_games(StatsPairs *s, int64_t points, int64_t games);

/* Adds the pairs of b to a (shards). False on overflow. */
bool stats_pairs_merge(StatsPairs *a, const StatsPairs *b);

/* The summary; with fewer than two pairs the spread is unknown: se and the
 * interval are then NaN. */
void stats_pairs_summary(const StatsPairs *s, StatsSummary *out);

/* Two-sided 95 % quantile of Student's t with df degrees of freedom (1.96
 * for the normal limit; df < 1 gives NaN). */
double stats_t95(int64_t df);

/* Wilson's 95 % interval of a proportion: `wins` of `n` (matches won). With
 * n = 0 the interval is [0, 1]. */
void stats_wilson95(int64_t wins, int64_t n, double out[2]);

/* --- sequential test: is A's ppg ppg0 (H0) or ppg1 (H1)? -------------- */

typedef enum StatsSprtDecision {
    SPRT_CONTINUE, /* not decided yet: play more pairs */
    SPRT_H0,       /* accept H0: A's ppg is ppg0 */
    SPRT_H1        /* accept H1: A's ppg is ppg1 */
} StatsSprtDecision;

typedef struct StatsSprt {
    double ppg0, ppg1;   /* the two hypotheses, points per game */
    double alpha, beta;  /* error rates: accepting H1 under H0, H0 under H1 */
} StatsSprt;

typedef struct StatsSprtState {
    double llr;          /* log-likelihood ratio of H1 against H0 */
    double lower, upper; /* log(beta / (1 - alpha)), log((1 - beta) / alpha) */
    StatsSprtDecision decision;
} StatsSprtState;

/* Checks the hypotheses and error rates: ppg0 < ppg1, alpha and beta in
 * (0, 0.5). False with a message in msg (at least 128 bytes) otherwise. */
bool stats_sprt_valid(const StatsSprt *t, char *msg, unsigned size);

/* The test after the pairs so far: a generalised SPRT with the normal
 * approximation, the variance estimated from the pairs themselves. Needs
 * two pairs with some spread before it can decide anything. */
void stats_sprt(const StatsSprt *t, const StatsPairs *s, StatsSprtState *out);

#endif
