/* test_nn_features.c - the contact network's hand-made features against
 * counts worked by hand: the rolls that hit a blot at each distance (the
 * table every backgammon book prints), those a point in between takes
 * away, the pips a hit costs, escapes past a prime, the rest read off the
 * board; and a network with the features still sees each side the same way
 * whichever side it is. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nn.h"
#include "nn_features.h"
#include "randpos.h"

static void near(double a, double b, int line)
{
    if (!(fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1))) /* float features */
        fail_msg("line %d: %.9g != %.9g", line, a, b);
}
#define assert_near(a, b) near((a), (b), __LINE__)

/* The roller's features of p. */
static void roller(const Position *p, float f[NN_FEATURES])
{
    float both[2][NN_FEATURES];
    nn_features(p, both);
    memcpy(f, both[0], sizeof both[0]);
}

/* The roller has a blot d pips in front of the other side's one checker on
 * its 24-point (the roller's index d, the rest of both sides borne off). */
static void blot_before(Position *p, int d)
{
    memset(p, 0, sizeof *p);
    p->side[SIDE_ROLLER][d] = 1;
    p->side[SIDE_OPPONENT][23] = 1;
}

static void test_shots_by_distance(void **state)
{
    (void)state;
    /* Rolls of 36 hitting a blot d pips away, nothing in between. */
    static const int rolls[25] = {0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3,
                                  0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0};
    for (int d = 1; d <= 23; d++) {
        Position p;
        blot_before(&p, d);
        float f[NN_FEATURES];
        roller(&p, f);
        assert_near(f[NN_FEAT_SHOTS] * 36.0, rolls[d]);
        /* Hit, the blot d pips from the other side's checker goes back
         * to the bar: it had d + 1 pips to go, it has 25. */
        assert_near(f[NN_FEAT_PIP_LOSS] * 36.0 * 24.0, rolls[d] * (24 - d));
    }
}

static void test_shots_blocked(void **state)
{
    (void)state;
    Position p;
    blot_before(&p, 6);
    p.side[SIDE_ROLLER][3] = 2; /* a point 3 pips in front of the hitter */
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 16); /* 17 less 3-3 */
    /* 8 away: 6-2, 5-3, 4-4, 2-2 (6 rolls); a point 4 pips in front stops
     * 4-4 and 2-2 on it. */
    blot_before(&p, 8);
    p.side[SIDE_ROLLER][4] = 2;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 4);
    /* From the bar only the checker entering hits: a blot on the roller's
     * 3-point is hit by any 3 entering, and by 2-1 and 1-1 entering and
     * going on; not by the 2s their checker on the roller's 1-point has. */
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][2] = 1;
    p.side[SIDE_OPPONENT][POS_BAR] = 1;
    p.side[SIDE_OPPONENT][23] = 1;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 11 + 2 + 1);
    /* Two on the bar: 2-1 enters both; 1-1 still has three steps for one. */
    p.side[SIDE_OPPONENT][POS_BAR] = 2;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 11 + 1);
}

static void test_escapes(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][23] = 1; /* on the other side's 1-point */
    for (int i = 1; i <= 5; i++) /* a 5-prime in front: its 2- to 6-points */
        p.side[SIDE_OPPONENT][i] = 2;
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES] * 36.0, 11); /* a 6 jumps it */
    p.side[SIDE_OPPONENT][6] = 2;               /* a full prime */
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES], 0);
    /* Their 3-, 4- and 5-points held (his 22-, 21-, 20-points): a 5 or a 6
     * jumps them (20 rolls), and 4-1 through his 23-point; no double does. */
    p.side[SIDE_OPPONENT][1] = 0, p.side[SIDE_OPPONENT][5] = 0, p.side[SIDE_OPPONENT][6] = 0;
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES] * 36.0, 20 + 2);
    assert_near(f[NN_FEAT_REAR], 24 / 25.0);
}

static void test_board_counts(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS], 0); /* no blots */
    assert_near(f[NN_FEAT_PRIME], 1 / 6.0);
    assert_near(f[NN_FEAT_HOME], 1 / 6.0);   /* the 6-point */
    assert_near(f[NN_FEAT_ANCHORS], 1 / 2.0); /* the 24-point */
    assert_near(f[NN_FEAT_DANCE], 1 / 36.0);
    assert_near(f[NN_FEAT_FORWARD], 1.0); /* the 13-point, their 12 */
    /* Their rearmost checkers are on his 1-point: to pass them he moves
     * 2 x 23 from the 24-point, 5 x 12 from the 13, 3 x 7 and 5 x 5. */
    assert_near(f[NN_FEAT_CONTACT], 152 / 200.0);
    float both[2][NN_FEATURES];
    nn_features(&p, both);
    assert_memory_equal(both[0], both[1], sizeof both[0]);
}

/* The same position seen from the other side: the features swap. */
static void test_sides_swap(void **state)
{
    (void)state;
    uint64_t s = 0x2545f4914f6cdd1dULL;
    for (int n = 0; n < 2000; n++) {
        Position p;
        randpos_loose(&s, &p);
        float a[2][NN_FEATURES], b[2][NN_FEATURES];
        nn_features(&p, a);
        for (int k = 0; k < NN_FEATURES; k++)
            for (int side = 0; side < 2; side++)
                if (!(a[side][k] >= 0.0f && a[side][k] <= 1.0f))
                    fail_msg("position %d: feature %d of side %d is %g", n, k, side,
                             (double)a[side][k]);
        pos_swap(&p);
        nn_features(&p, b);
        assert_memory_equal(a[0], b[1], sizeof a[0]);
        assert_memory_equal(a[1], b[0], sizeof a[1]);
    }
}

/* A network with the features reads them after the points, the roller's
 * first; a raw one never does. */
static void test_inputs_with_features(void **state)
{
    (void)state;
    NnWeights *w = calloc(1, sizeof *w);
    assert_non_null(w);
    Position p;
    blot_before(&p, 6);
    int index[NN_INPUTS];
    float value[NN_INPUTS];
    w->inputs = NN_RAW_INPUTS;
    int raw = nn_inputs(w, &p, index, value);
    for (int k = 0; k < raw; k++)
        assert_true(index[k] < NN_RAW_INPUTS);
    w->inputs = NN_INPUTS;
    int n = nn_inputs(w, &p, index, value);
    assert_true(n > raw);
    float dense[NN_INPUTS] = {0};
    for (int k = 0; k < n; k++)
        dense[index[k]] = value[k];
    assert_near(dense[NN_RAW_INPUTS + NN_FEAT_SHOTS], 17 / 36.0);
    /* Theirs, after: their checker is a blot 6 pips in front of his. */
    assert_near(dense[NN_RAW_INPUTS + NN_FEATURES + NN_FEAT_SHOTS], 17 / 36.0);
    assert_near(dense[NN_RAW_INPUTS + NN_FEATURES + NN_FEAT_REAR], 24 / 25.0);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shots_by_distance), cmocka_unit_test(test_shots_blocked),
        cmocka_unit_test(test_escapes),           cmocka_unit_test(test_board_counts),
        cmocka_unit_test(test_sides_swap),        cmocka_unit_test(test_inputs_with_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
