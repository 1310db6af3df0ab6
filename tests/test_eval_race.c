/* test_eval_race.c - the bear-off database and the race model: small cases
 * worked out by hand, properties over all 54,264 home boards, and chances
 * that must come out exactly in simple races. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bearoff.h"
#include "fnv.h"
#include "eval_race.h"
#include "eval_static.h"
#include "nn.h"

/* cmocka compares floats in single precision: this one keeps doubles. */
static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.12g != %.12g (within %g)", line, a, b, eps);
}
#define assert_near(a, b, eps) near((a), (b), (eps), __LINE__)

static BearoffDb *db;

static int setup(void **state)
{
    (void)state;
    db = bearoff_new(NULL);
    return db ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bearoff_free(db);
    return 0;
}

/* Calls f for every home board of at most 15 checkers. */
static void each_board(void (*f)(uint8_t c[6], void *arg), void *arg)
{
    uint8_t c[6];
    for (int a = 0; a <= 15; a++)
        for (int b = 0; a + b <= 15; b++)
            for (int d = 0; a + b + d <= 15; d++)
                for (int e = 0; a + b + d + e <= 15; e++)
                    for (int f2 = 0; a + b + d + e + f2 <= 15; f2++)
                        for (int g = 0; a + b + d + e + f2 + g <= 15; g++) {
                            c[0] = (uint8_t)a, c[1] = (uint8_t)b, c[2] = (uint8_t)d;
                            c[3] = (uint8_t)e, c[4] = (uint8_t)f2, c[5] = (uint8_t)g;
                            f(c, arg);
                        }
}

static int index_of(int p1, int p2, int p3, int p4, int p5, int p6)
{
    uint8_t pts[6] = {(uint8_t)p1, (uint8_t)p2, (uint8_t)p3,
                      (uint8_t)p4, (uint8_t)p5, (uint8_t)p6};
    return bearoff_index(pts);
}

/* The index is a bijection onto 0 .. 54263 with the empty board at 0. */
static void mark_index(uint8_t c[6], void *arg)
{
    uint8_t *seen = arg;
    int i = bearoff_index(c);
    assert_true(i >= 0 && i < BEAROFF_POSITIONS);
    assert_int_equal(seen[i], 0);
    seen[i] = 1;
}

static void test_index(void **state)
{
    (void)state;
    static uint8_t seen[BEAROFF_POSITIONS];
    memset(seen, 0, sizeof seen);
    each_board(mark_index, seen);
    for (int i = 0; i < BEAROFF_POSITIONS; i++)
        assert_int_equal(seen[i], 1);
    assert_int_equal(index_of(0, 0, 0, 0, 0, 0), 0);
    assert_int_equal(index_of(0, 0, 0, 0, 0, 16), -1);
}

/* One checker on the 6-point: gone in one roll unless the dice add up to
 * less than 6 (1-2, 1-3, 1-4, 2-3 either way, and 1-1): 27/36, and surely
 * in two. Fifteen on the 6-point: the first checker comes off at once with
 * any 6, 5-1, 4-2, 3-3 or 2-2: 17/36. */
static void test_hand_worked(void **state)
{
    (void)state;
    const float *d = bearoff_off(db, index_of(0, 0, 0, 0, 0, 1));
    assert_near(d[0], 0.0, 1e-7);
    assert_near(d[1], 27.0 / 36, 1e-6);
    assert_near(d[2], 9.0 / 36, 1e-6);
    assert_near(bearoff_mean(db, index_of(0, 0, 0, 0, 0, 1)), 1.25, 1e-12);
    /* Two on the ace point: any roll. Three: only doubles in one roll. */
    assert_near(bearoff_mean(db, index_of(2, 0, 0, 0, 0, 0)), 1.0, 1e-12);
    assert_near(bearoff_off(db, index_of(3, 0, 0, 0, 0, 0))[1], 6.0 / 36, 1e-6);
    const float *f = bearoff_first(db, index_of(0, 0, 0, 0, 0, 15));
    assert_near(f[1], 17.0 / 36, 1e-6);
    /* Fewer than 15 checkers: one is off already. */
    assert_near(bearoff_first(db, index_of(0, 0, 0, 0, 0, 14))[0], 1.0, 0);
}

/* Every distribution sums to 1 and matches its mean; one more checker
 * anywhere never makes the bear-off quicker. */
static void check_board(uint8_t c[6], void *arg)
{
    int *checked = arg;
    int i = bearoff_index(c);
    const float *off = bearoff_off(db, i), *first = bearoff_first(db, i);
    double sum = 0, sum_first = 0, mean = 0;
    for (int r = 0; r < BEAROFF_ROLLS; r++) {
        sum += off[r];
        sum_first += first[r];
        mean += r * off[r];
    }
    assert_near(sum, 1.0, 1e-5);
    assert_near(sum_first, 1.0, 1e-5);
    assert_near(mean, bearoff_mean(db, i), 1e-4);
    if (c[0] + c[1] + c[2] + c[3] + c[4] + c[5] == 15)
        return;
    for (int k = 0; k < 6; k++) {
        c[k]++;
        assert_true(bearoff_mean(db, bearoff_index(c)) >= bearoff_mean(db, i) - 1e-9);
        c[k]--;
    }
    (*checked)++;
}

/* The whole database to the bit: its build may be made faster, never
 * different (the hash of the build that played out every sequence of every
 * roll). */
static void test_same_database(void **state)
{
    (void)state;
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < BEAROFF_POSITIONS; i++) {
        h = fnv_bytes(h, bearoff_off(db, i), BEAROFF_ROLLS * sizeof(float));
        h = fnv_bytes(h, bearoff_first(db, i), BEAROFF_ROLLS * sizeof(float));
        double m = bearoff_mean(db, i);
        h = fnv_bytes(h, &m, sizeof m);
    }
    assert_int_equal(h, 0xddbfd2b604cc0426ull);
}

static void test_all_boards(void **state)
{
    (void)state;
    int checked = 0;
    each_board(check_board, &checked);
    assert_int_equal(checked, BEAROFF_POSITIONS - 15504);
}

static Position race(const int roller[6], const int opp[6])
{
    Position p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 6; i++) {
        p.side[SIDE_ROLLER][i] = (uint8_t)roller[i];
        p.side[SIDE_OPPONENT][i] = (uint8_t)opp[i];
    }
    return p;
}

/* One checker each on the 6-point: the roller wins if he is off at once
 * (3/4) or if both need two rolls (1/4 * 1/4): 0.8125, no gammons. */
static void test_exact_races(void **state)
{
    (void)state;
    static const int six[6] = {0, 0, 0, 0, 0, 1}, ace[6] = {1, 0, 0, 0, 0, 0};
    double out[OUT_COUNT];
    Position p = race(six, six);
    eval_race(db, NULL, &p, out);
    assert_near(out[OUT_WIN], 0.8125, 1e-6);
    for (int k = OUT_WIN_GAMMON; k < OUT_COUNT; k++)
        assert_near(out[k], 0.0, 1e-12);
    p = race(ace, six);
    eval_race(db, NULL, &p, out);
    assert_near(out[OUT_WIN], 1.0, 1e-9);
    /* The 6-point checker on roll against the ace: 3/4. */
    p = race(six, ace);
    eval_race(db, NULL, &p, out);
    assert_near(out[OUT_WIN], 0.75, 1e-6);
    /* Two on the ace against fifteen still on the opponent's 13-point:
     * a certain gammon, and no backgammon (nothing in the roller's home). */
    static const int two[6] = {2, 0, 0, 0, 0, 0}, none[6] = {0};
    p = race(two, none);
    p.side[SIDE_OPPONENT][12] = 15;
    eval_race(db, NULL, &p, out);
    assert_near(out[OUT_WIN], 1.0, 1e-9);
    assert_near(out[OUT_WIN_GAMMON], 1.0, 1e-6);
    assert_near(out[OUT_WIN_BG], 0.0, 1e-6);
    /* The same 15 in the roller's home board: a backgammon. */
    p.side[SIDE_OPPONENT][12] = 0;
    p.side[SIDE_OPPONENT][22] = 15;
    eval_race(db, NULL, &p, out);
    assert_near(out[OUT_WIN_BG], 1.0, 1e-6);
}

/* The cache gives what the uncached evaluation gives, whatever the order. */
static void test_cache(void **state)
{
    (void)state;
    RaceCache *c = race_cache_new();
    assert_non_null(c);
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++) {
            int r[6] = {a % 3, 1, a / 3, 0, 2, 1}, o[6] = {1, b % 4, 0, b / 4, 1, 3};
            Position p = race(r, o);
            p.side[SIDE_OPPONENT][10 + a] = 2; /* outside: the normal model */
            double plain[OUT_COUNT], cached[OUT_COUNT];
            eval_race(db, NULL, &p, plain);
            eval_race(db, c, &p, cached);
            eval_race(db, c, &p, cached);
            assert_memory_equal(plain, cached, sizeof plain);
        }
    race_cache_free(c);
}

/* A race network refines only what the model leaves open: where the model
 * is sure (a certain gammon, no backgammon, a race that cannot be lost)
 * eval_static keeps the model's value whatever the network says, and it
 * answers the network's chances elsewhere. The network here is random
 * weights (its chances near a half everywhere), and a race with every
 * checker home stays the database's. */
static void test_race_network_guarded(void **state)
{
    (void)state;
    NnWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    nn_init(w, NN_INPUTS_FIRST, 5);
    w->race = true;
    EvalCtx ctx = {db, NULL, w, 1};
    static const int two[6] = {2, 0, 0, 0, 0, 0}, none[6] = {0}, mid[6] = {2, 2, 2, 2, 2, 1};
    /* Two on the ace against fifteen on the opponent's 13-point: sure. */
    Position p = race(two, none);
    p.side[SIDE_OPPONENT][12] = 15;
    double model[OUT_COUNT], out[OUT_COUNT], net[OUT_COUNT];
    eval_race(db, NULL, &p, model);
    eval_static(&ctx, NULL, &p, out);
    nn_eval(w, &p, net);
    assert_true(net[OUT_WIN] < 0.99 && net[OUT_WIN_GAMMON] < 0.99); /* the network is unsure */
    assert_memory_equal(out, model, sizeof out);
    /* Eleven home and three on the 9-point against eleven home and three on
     * the opponent's 8-point, one off each: open, the network's (settled
     * and clamped). */
    p = race(mid, mid);
    p.side[SIDE_ROLLER][8] = 3;
    p.side[SIDE_OPPONENT][7] = 3;
    eval_race(db, NULL, &p, model);
    eval_static(&ctx, NULL, &p, out);
    nn_eval(w, &p, net);
    eval_settle_gammons(&p, net);
    eval_clamp(net);
    assert_true(model[OUT_WIN] > 1e-6 && model[OUT_WIN] < 1 - 1e-6);
    assert_near(out[OUT_WIN], net[OUT_WIN], 1e-12);
    assert_true(fabs(out[OUT_WIN] - model[OUT_WIN]) > 1e-3);
    /* No gammon either way once a checker is off: sure in the model too. */
    assert_near(out[OUT_WIN_GAMMON], 0.0, 0.0);
    assert_near(out[OUT_LOSE_GAMMON], 0.0, 0.0);
    /* Every checker home: the database's exact values. */
    p = race(mid, mid);
    eval_race(db, NULL, &p, model);
    eval_static(&ctx, NULL, &p, out);
    assert_memory_equal(out, model, sizeof out);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_all_boards),
        cmocka_unit_test(test_same_database),
        cmocka_unit_test(test_exact_races),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_race_network_guarded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
