/* test_eval_race.c - the bear-off database, its zone table and the race
 * model: small cases worked out by hand, properties over all 54,264 home
 * boards and all 3,003 zone boards, and chances that must come out exactly
 * in simple races. */
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

/* Calls f for every home board of at most max checkers. */
static void each_board(int max, void (*f)(uint8_t c[6], void *arg), void *arg)
{
    uint8_t c[6];
    for (int a = 0; a <= max; a++)
        for (int b = 0; a + b <= max; b++)
            for (int d = 0; a + b + d <= max; d++)
                for (int e = 0; a + b + d + e <= max; e++)
                    for (int f2 = 0; a + b + d + e + f2 <= max; f2++)
                        for (int g = 0; a + b + d + e + f2 + g <= max; g++) {
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
    each_board(15, mark_index, seen);
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
    each_board(15, check_board, &checked);
    assert_int_equal(checked, BEAROFF_POSITIONS - 15504);
}

/* The zone table (checkers to bring out of the other side's home board, a
 * board of checkers k + 1 pips from leaving it), worked by hand: one
 * checker 5 pips out stays in only on 1-1, 1-2, 1-3 (either way): 5/36;
 * one 6 pips out on every roll under 6 pips: 9/36; two 5 pips out both
 * leave at once only on 5-6, 5-5, 6-6, 3-3 and 4-4: 6/36; two 1 pip out
 * always leave. */
static void test_zone_hand_worked(void **state)
{
    (void)state;
    const float *z = bearoff_zone(db, index_of(0, 0, 0, 0, 1, 0));
    assert_near(z[0], 0.0, 0);
    assert_near(z[1], 31.0 / 36, 1e-6);
    assert_near(z[2], 5.0 / 36, 1e-6);
    assert_near(bearoff_zone(db, index_of(0, 0, 0, 0, 0, 1))[1], 27.0 / 36, 1e-6);
    assert_near(bearoff_zone(db, index_of(0, 0, 0, 0, 2, 0))[1], 6.0 / 36, 1e-6);
    assert_near(bearoff_zone(db, index_of(2, 0, 0, 0, 0, 0))[1], 1.0, 1e-6);
    assert_near(bearoff_zone(db, 0)[0], 1.0, 0);
}

/* The fewest expected rolls out, worked out by playing every sequence of
 * every roll from boards of up to 4 checkers (memo by index, -1 unknown). */
static double zone_rest(uint8_t c[6], const int *dice, int n, double *memo);

static double zone_mean(uint8_t c[6], double *memo)
{
    int i = bearoff_index(c);
    if (i == 0)
        return 0.0;
    if (memo[i] >= 0)
        return memo[i];
    double mean = 1.0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = 1; d2 <= 6; d2++) {
            int dice[4] = {d1, d2, d1, d2};
            mean += zone_rest(c, dice, d1 == d2 ? 4 : 2, memo) / 36.0;
        }
    return memo[i] = mean;
}

/* The best expected rolls after playing dice[0 .. n-1] from c, a non-double
 * in either order. */
static double zone_rest(uint8_t c[6], const int *dice, int n, double *memo)
{
    if (n == 0 || bearoff_index(c) == 0)
        return zone_mean(c, memo);
    double best = 1e9;
    for (int order = 0; order < (n == 2 && dice[0] != dice[1] ? 2 : 1); order++) {
        int d = dice[order], other[1] = {n == 2 ? dice[1 - order] : 0};
        const int *next = n == 2 ? other : dice + 1;
        for (int k = 0; k < 6; k++) {
            if (!c[k])
                continue;
            c[k]--;
            if (k - d >= 0)
                c[k - d]++;
            double v = zone_rest(c, next, n - 1, memo);
            if (k - d >= 0)
                c[k - d]--;
            c[k]++;
            best = v < best ? v : best;
        }
    }
    return best;
}

static double table_mean(const float *d)
{
    double mean = 0.0;
    for (int r = 0; r < BEAROFF_ROLLS; r++)
        mean += r * d[r];
    return mean;
}

typedef struct ZoneCheck {
    double memo[BEAROFF_ZONE_POSITIONS]; /* zone_mean's, -1 unknown */
    int boards, brute;
} ZoneCheck;

/* A zone board: its distribution sums to 1, is never slower than the
 * bear-off of the same board (a stricter rule), and one more checker never
 * makes it quicker; up to 4 checkers its mean is that of playing every
 * sequence. */
static void check_zone_board(uint8_t c[6], void *arg)
{
    ZoneCheck *zc = arg;
    int i = bearoff_index(c), n = c[0] + c[1] + c[2] + c[3] + c[4] + c[5];
    assert_true(i < BEAROFF_ZONE_POSITIONS);
    const float *z = bearoff_zone(db, i);
    double sum = 0.0;
    for (int r = 0; r < BEAROFF_ROLLS; r++)
        sum += z[r];
    assert_near(sum, 1.0, 1e-5);
    double mean = table_mean(z);
    assert_true(mean <= bearoff_mean(db, i) + 1e-5);
    if (n < BEAROFF_ZONE_CHECKERS)
        for (int k = 0; k < 6; k++) {
            c[k]++;
            assert_true(table_mean(bearoff_zone(db, bearoff_index(c))) >= mean - 1e-5);
            c[k]--;
        }
    if (n <= 4) {
        assert_near(mean, zone_mean(c, zc->memo), 1e-5);
        zc->brute++;
    }
    zc->boards++;
}

static void test_zone_all_boards(void **state)
{
    (void)state;
    static ZoneCheck zc;
    for (int i = 0; i < BEAROFF_ZONE_POSITIONS; i++)
        zc.memo[i] = -1.0;
    each_board(BEAROFF_ZONE_CHECKERS, check_zone_board, &zc);
    assert_int_equal(zc.boards, BEAROFF_ZONE_POSITIONS);
    assert_int_equal(zc.brute, 210); /* C(10, 6) boards of at most 4 */
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
    eval_race(db, NULL, &p, out, NULL);
    assert_near(out[OUT_WIN], 0.8125, 1e-6);
    for (int k = OUT_WIN_GAMMON; k < OUT_COUNT; k++)
        assert_near(out[k], 0.0, 1e-12);
    p = race(ace, six);
    eval_race(db, NULL, &p, out, NULL);
    assert_near(out[OUT_WIN], 1.0, 1e-9);
    /* The 6-point checker on roll against the ace: 3/4. */
    p = race(six, ace);
    eval_race(db, NULL, &p, out, NULL);
    assert_near(out[OUT_WIN], 0.75, 1e-6);
    /* Two on the ace against fifteen still on the opponent's 13-point:
     * a certain gammon, and no backgammon (nothing in the roller's home). */
    static const int two[6] = {2, 0, 0, 0, 0, 0}, none[6] = {0};
    p = race(two, none);
    p.side[SIDE_OPPONENT][12] = 15;
    eval_race(db, NULL, &p, out, NULL);
    assert_near(out[OUT_WIN], 1.0, 1e-9);
    assert_near(out[OUT_WIN_GAMMON], 1.0, 1e-6);
    assert_near(out[OUT_WIN_BG], 0.0, 1e-6);
    /* The same 15 in the roller's home board: a backgammon. */
    p.side[SIDE_OPPONENT][12] = 0;
    p.side[SIDE_OPPONENT][22] = 15;
    eval_race(db, NULL, &p, out, NULL);
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
            eval_race(db, NULL, &p, plain, NULL);
            eval_race(db, c, &p, cached, NULL);
            eval_race(db, c, &p, cached, NULL);
            assert_memory_equal(plain, cached, sizeof plain);
        }
    race_cache_free(c);
}

/* A race network refines only what the model leaves open: where the model
 * is sure (a certain gammon, no backgammon, a race that cannot be lost) or
 * exact (a backgammon the tables give) eval_static keeps the model's value
 * whatever the network says, and it
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
    eval_race(db, NULL, &p, model, NULL);
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
    eval_race(db, NULL, &p, model, NULL);
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
    eval_race(db, NULL, &p, model, NULL);
    eval_static(&ctx, NULL, &p, out);
    assert_memory_equal(out, model, sizeof out);
    /* Two of the roller's checkers on his 23-point, the rest home or
     * nearly, against four on the other side's ace (DwAAgO2uAQADAA): the
     * backgammon is exact, the model's whatever the network says, and the
     * network's gammon is raised to it. */
    static const int back[6] = {0, 0, 2, 2, 3, 3}, four[6] = {4, 0, 0, 0, 0, 0};
    p = race(back, four);
    p.side[SIDE_ROLLER][6] = 1;
    p.side[SIDE_ROLLER][7] = 2;
    p.side[SIDE_ROLLER][22] = 2;
    bool exact[OUT_COUNT];
    eval_race(db, NULL, &p, model, exact);
    eval_static(&ctx, NULL, &p, out);
    nn_eval(w, &p, net);
    assert_true(exact[OUT_LOSE_BG] && !exact[OUT_LOSE_GAMMON] && !exact[OUT_WIN]);
    assert_true(model[OUT_LOSE_BG] > 0.1 && fabs(net[OUT_LOSE_BG] - model[OUT_LOSE_BG]) > 1e-3);
    assert_near(out[OUT_LOSE_BG], model[OUT_LOSE_BG], 0.0);
    assert_true(out[OUT_LOSE_GAMMON] >= out[OUT_LOSE_BG]);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_all_boards),
        cmocka_unit_test(test_same_database),
        cmocka_unit_test(test_zone_hand_worked),
        cmocka_unit_test(test_zone_all_boards),
        cmocka_unit_test(test_exact_races),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_race_network_guarded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
