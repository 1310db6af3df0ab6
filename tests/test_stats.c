/* test_stats.c - the referee's statistics: a small run worked by hand,
 * shards merged equal to one run to the last bit, the spread unknown below
 * two pairs, overflow refused, Student's t and Wilson's interval at known
 * values, and the sequential test deciding for the true hypothesis on
 * seeded pairs (and refusing hypotheses that make no sense). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"

static void test_by_hand(void **state)
{
    (void)state;
    /* Pairs 2, -1, 0, 3: 4 points in 8 games; pair mean 1, squared
     * deviations 1 + 4 + 1 + 4 = 10, sample variance 10/3. */
    StatsPairs s = {0};
    const int64_t pairs[] = {2, -1, 0, 3};
    for (size_t i = 0; i < 4; i++)
        assert_true(stats_pairs_add(&s, pairs[i]));
    assert_int_equal(s.n, 4);
    assert_int_equal(s.sum, 4);
    assert_int_equal(s.sum_sq, 14);
    StatsSummary sum;
    stats_pairs_summary(&s, &sum);
    assert_int_equal(sum.pairs, 4);
    assert_true(fabs(sum.ppg - 0.5) < 1e-12);
    double se = sqrt(10.0 / 3.0 / 4.0) / 2.0;
    assert_true(fabs(sum.se - se) < 1e-12);
    assert_true(fabs(sum.ci95[0] - (0.5 - 3.182 * se)) < 1e-12);
    assert_true(fabs(sum.ci95[1] - (0.5 + 3.182 * se)) < 1e-12);
}

static void test_few_pairs(void **state)
{
    (void)state;
    StatsPairs s = {0};
    StatsSummary sum;
    stats_pairs_summary(&s, &sum);
    assert_int_equal(sum.pairs, 0);
    assert_true(sum.ppg == 0.0);
    assert_true(isnan(sum.se));
    assert_true(stats_pairs_add(&s, -3));
    stats_pairs_summary(&s, &sum);
    assert_true(fabs(sum.ppg + 1.5) < 1e-12);
    assert_true(isnan(sum.se) && isnan(sum.ci95[0]) && isnan(sum.ci95[1]));
}

/* The same pairs in one run and in three shards merged in another order. */
static void test_shards(void **state)
{
    (void)state;
    StatsPairs one = {0}, shard[3] = {{0}};
    uint64_t x = 12345;
    for (int i = 0; i < 3000; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        int64_t points = (int64_t)(x >> 60) - 8; /* -8 .. 7 */
        assert_true(stats_pairs_add(&one, points));
        assert_true(stats_pairs_add(&shard[i % 3], points));
    }
    StatsPairs merged = shard[2];
    assert_true(stats_pairs_merge(&merged, &shard[0]));
    assert_true(stats_pairs_merge(&merged, &shard[1]));
    assert_int_equal(merged.n, one.n);
    assert_int_equal(merged.sum, one.sum);
    assert_int_equal(merged.sum_sq, one.sum_sq);
    StatsSummary a, b;
    stats_pairs_summary(&one, &a);
    stats_pairs_summary(&merged, &b);
    assert_memory_equal(&a, &b, sizeof a);
}

static void test_overflow(void **state)
{
    (void)state;
    StatsPairs s = {0};
    assert_false(stats_pairs_add(&s, (int64_t)1 << 40));
    assert_int_equal(s.n, 0);
    StatsPairs big = {INT64_MAX, 0, 0, 0, 0, 0}, one = {1, 1, 1, 2, 4, 2};
    assert_false(stats_pairs_merge(&big, &one));
    assert_int_equal(big.n, INT64_MAX);
    assert_int_equal(big.sum, 0);
}

/* Pairs of matches have as many games as they took: ppg is points over
 * games, and its error the ratio estimator's, which for pairs of two games
 * is the usual one. */
static void test_games_per_pair(void **state)
{
    (void)state;
    StatsPairs two = {0}, var = {0};
    static const int pts[] = {3, -1, 0, 2, -4, 1};
    for (int i = 0; i < 6; i++) {
        assert_true(stats_pairs_add(&two, pts[i]));
        assert_true(stats_pairs_add_games(&var, pts[i], 2));
    }
    assert_memory_equal(&two, &var, sizeof two);
    StatsPairs m = {0};
    /* Points 4, -2, 6 over 4, 6, 8 games: ppg 8 / 18; residuals
     * p - r g = 4 - 16/9, -2 - 24/9, 6 - 32/9. */
    assert_true(stats_pairs_add_games(&m, 4, 4));
    assert_true(stats_pairs_add_games(&m, -2, 6));
    assert_true(stats_pairs_add_games(&m, 6, 8));
    StatsSummary s;
    stats_pairs_summary(&m, &s);
    double r = 8.0 / 18.0, e[3] = {4 - 4 * r, -2 - 6 * r, 6 - 8 * r};
    double ss = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
    assert_float_equal(s.ppg, r, 1e-12);
    assert_float_equal(s.se, sqrt(ss / 6.0) / 6.0, 1e-12);
    assert_false(stats_pairs_add_games(&m, 1, 0));
}

static void test_t95(void **state)
{
    (void)state;
    assert_true(isnan(stats_t95(0)));
    assert_true(stats_t95(1) == 12.706);
    assert_true(stats_t95(10) == 2.228);
    assert_true(stats_t95(30) == 2.042);
    assert_true(stats_t95(1000000) == 1.960);
    for (int64_t df = 1; df < 200; df++)
        assert_true(stats_t95(df + 1) <= stats_t95(df));
}

static void test_wilson(void **state)
{
    (void)state;
    double ci[2];
    stats_wilson95(0, 0, ci);
    assert_true(ci[0] == 0.0 && ci[1] == 1.0);
    stats_wilson95(50, 100, ci);
    assert_true(fabs(ci[0] - 0.4038) < 1e-4 && fabs(ci[1] - 0.5962) < 1e-4);
    stats_wilson95(0, 10, ci);
    assert_true(ci[0] == 0.0 && fabs(ci[1] - 0.2775) < 1e-4);
    stats_wilson95(10, 10, ci);
    assert_true(fabs(ci[0] - 0.7225) < 1e-4 && ci[1] == 1.0);
}

/* Pairs of +2 or -2 points with P(+2) = p: pair mean 4p - 2, ppg 2p - 1. */
static StatsSprtDecision run_sprt(double p, const StatsSprt *t, int *pairs)
{
    StatsPairs s = {0};
    StatsSprtState st = {0};
    uint64_t x = 99;
    for (*pairs = 1; *pairs <= 100000; (*pairs)++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(x >> 11) / 9007199254740992.0;
        assert_true(stats_pairs_add(&s, u < p ? 2 : -2));
        stats_sprt(t, &s, &st);
        assert_true(st.lower < 0 && st.upper > 0);
        if (st.decision != SPRT_CONTINUE)
            return st.decision;
    }
    return SPRT_CONTINUE;
}

static void test_sprt(void **state)
{
    (void)state;
    StatsSprt t = {0.0, 0.1, 0.05, 0.05};
    char msg[128];
    assert_true(stats_sprt_valid(&t, msg, sizeof msg));
    int pairs;
    assert_int_equal(run_sprt(0.55, &t, &pairs), SPRT_H1); /* ppg 0.1 */
    assert_true(pairs > 10);
    assert_int_equal(run_sprt(0.50, &t, &pairs), SPRT_H0); /* ppg 0 */
    assert_int_equal(run_sprt(0.40, &t, &pairs), SPRT_H0); /* ppg -0.2 */

    /* One pair, or pairs without spread, decide nothing. */
    StatsPairs s = {0};
    StatsSprtState st;
    assert_true(stats_pairs_add(&s, 2));
    assert_true(stats_pairs_add(&s, 2));
    stats_sprt(&t, &s, &st);
    assert_int_equal(st.decision, SPRT_CONTINUE);

    StatsSprt bad = {0.1, 0.0, 0.05, 0.05};
    assert_false(stats_sprt_valid(&bad, msg, sizeof msg));
    assert_non_null(strstr(msg, "PPG0 below PPG1"));
    StatsSprt bad2 = {0.0, 0.1, 0.0, 0.05};
    assert_false(stats_sprt_valid(&bad2, msg, sizeof msg));
    assert_non_null(strstr(msg, "ALPHA and BETA"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),  cmocka_unit_test(test_few_pairs),
        cmocka_unit_test(test_shards),   cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_games_per_pair),
        cmocka_unit_test(test_t95),      cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_sprt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
