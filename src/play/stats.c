/* stats.c - pair statistics, intervals and the sequential test (stats.h). */
#include "stats.h"

#include <math.h>
#include <stdio.h>

static bool add_checked(int64_t *a, int64_t b)
{
    if ((b > 0 && *a > INT64_MAX - b) || (b < 0 && *a < INT64_MIN - b))
        return false;
    *a += b;
    return true;
}

bool stats_pairs_add(StatsPairs *s, int64_t points)
{
    return stats_pairs_add_games(s, points, 2);
}

bool stats_pairs_add_games(StatsPairs *s, int64_t points, int64_t games)
{
    /* |points| stays far below 2^31 in any real game (a pair scores at
     * most 2 x 4 points x a 2^15 cube), so its square cannot overflow;
     * likewise the games of a pair of matches. */
    if (points > INT32_MAX || points < -INT32_MAX || games < 1 || games > INT32_MAX)
        return false;
    StatsPairs t = *s;
    if (!add_checked(&t.n, 1) || !add_checked(&t.sum, points) ||
        !add_checked(&t.sum_sq, points * points) || !add_checked(&t.games, games) ||
        !add_checked(&t.games_sq, games * games) || !add_checked(&t.cross, points * games))
        return false;
    *s = t;
    return true;
}

bool stats_pairs_merge(StatsPairs *a, const StatsPairs *b)
{
    StatsPairs t = *a;
    if (!add_checked(&t.n, b->n) || !add_checked(&t.sum, b->sum) ||
        !add_checked(&t.sum_sq, b->sum_sq) || !add_checked(&t.games, b->games) ||
        !add_checked(&t.games_sq, b->games_sq) || !add_checked(&t.cross, b->cross))
        return false;
    *a = t;
    return true;
}

/* The sample variance of the pair results (n - 1 in the denominator), from
 * the integer sums: n * sum_sq - sum^2 is exact in long double for any
 * run that fits the sums. */
static double pair_variance(const StatsPairs *s)
{
    if (s->n < 2)
        return NAN;
    long double n = (long double)s->n, sum = (long double)s->sum;
    long double num = n * (long double)s->sum_sq - sum * sum;
    if (num < 0)
        num = 0; /* rounding only: the true value is never negative */
    return (double)(num / (n * (n - 1)));
}

double stats_t95(int64_t df)
{
    /* t(0.975, df) for df = 1..30, then the usual steps to the normal. */
    static const double table[30] = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    };
    if (df < 1)
        return NAN;
    if (df <= 30)
        return table[df - 1];
    if (df <= 40)
        return 2.021;
    if (df <= 60)
        return 2.000;
    if (df <= 120)
        return 1.980;
    return 1.960;
}

void stats_pairs_summary(const StatsPairs *s, StatsSummary *out)
{
    out->pairs = s->n;
    out->ppg = s->games > 0 ? (double)s->sum / (double)s->games : 0.0;
    /* The ratio estimator: ppg = sum(p) / sum(g) over the pairs, its
     * variance from the residuals p - ppg g, whose sum of squares the
     * integer sums give exactly. With two games a pair this is the pair
     * mean's error halved. */
    out->se = NAN;
    if (s->n >= 2) {
        long double r = out->ppg, n = (long double)s->n;
        long double ss = (long double)s->sum_sq - 2 * r * (long double)s->cross +
                         r * r * (long double)s->games_sq;
        if (ss < 0)
            ss = 0; /* rounding only */
        long double mean_g = (long double)s->games / n;
        out->se = (double)(sqrtl(ss / (n * (n - 1))) / mean_g);
    }
    double half = stats_t95(s->n - 1) * out->se;
    out->ci95[0] = out->ppg - half;
    out->ci95[1] = out->ppg + half;
}

void stats_wilson95(int64_t wins, int64_t n, double out[2])
{
    if (n <= 0) {
        out[0] = 0.0, out[1] = 1.0;
        return;
    }
    const double z = 1.959964;
    double p = (double)wins / (double)n, nn = (double)n;
    double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
    /* At 0 or n wins the bound is exactly 0 or 1; rounding would miss it. */
    out[0] = wins <= 0 || centre - half < 0 ? 0 : centre - half;
    out[1] = wins >= n || centre + half > 1 ? 1 : centre + half;
}

bool stats_sprt_valid(const StatsSprt *t, char *msg, unsigned size)
{
    if (!(t->ppg0 < t->ppg1)) {
        snprintf(msg, size, "the SPRT needs PPG0 below PPG1 (got %g and %g)", t->ppg0, t->ppg1);
        return false;
    }
    if (!(t->alpha > 0 && t->alpha < 0.5) || !(t->beta > 0 && t->beta < 0.5)) {
        snprintf(msg, size, "the SPRT's ALPHA and BETA must be above 0 and below 0.5 (got %g and %g)",
                 t->alpha, t->beta);
        return false;
    }
    return true;
}

void stats_sprt(const StatsSprt *t, const StatsPairs *s, StatsSprtState *out)
{
    out->lower = log(t->beta / (1 - t->alpha));
    out->upper = log((1 - t->beta) / t->alpha);
    out->llr = 0.0;
    out->decision = SPRT_CONTINUE;
    /* The maximum-likelihood variance (n in the denominator), as the
     * generalised SPRT uses it; zero spread tells nothing yet. */
    double var = pair_variance(s);
    if (!(var > 0))
        return;
    double n = (double)s->n;
    var *= (n - 1) / n;
    /* Pair means under the hypotheses: the games a pair has on average. */
    double g = (double)s->games / n;
    double mu0 = g * t->ppg0, mu1 = g * t->ppg1;
    /* log L1/L0 for normal observations with a common variance:
     * sum((x - mu0)^2 - (x - mu1)^2) / (2 var). */
    out->llr = (mu1 - mu0) * (2 * (double)s->sum - n * (mu0 + mu1)) / (2 * var);
    if (out->llr >= out->upper)
        out->decision = SPRT_H1;
    else if (out->llr <= out->lower)
        out->decision = SPRT_H0;
}
