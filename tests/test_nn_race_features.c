/* test_nn_race_features.c - a race network's hand-made features against
 * counts worked by hand on two boards, the caps at 1 on a side far from
 * home, the sides swapping with the board, and a race network reading them
 * (not the contact features) after the points; the race model's features
 * (race-234) against the model's own chances and the bear-off database. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bearoff.h"
#include "eval_race.h"
#include "nn.h"
#include "nn_features.h"
#include "nn_race_features.h"
#include "randpos.h"

static void near(double a, double b, int line)
{
    if (!(fabs(a - b) <= 1e-6)) /* float features in 0..1 */
        fail_msg("line %d: %.9g != %.9g", line, a, b);
}
#define assert_near(a, b) near((a), (b), __LINE__)

/* The roller: 4 on his 1-point, 1 on his 3-point, 3 on his 6-point, 2 on
 * his 8-point, 1 on his 20-point, 4 off. The other side: all 15 on his
 * 1-point. (Index i is point i + 1, each side from his own home.) */
static void bear_in(Position *p)
{
    memset(p, 0, sizeof *p);
    uint8_t *me = p->side[SIDE_ROLLER];
    me[0] = 4, me[2] = 1, me[5] = 3, me[7] = 2, me[19] = 1;
    p->side[SIDE_OPPONENT][0] = 15;
}

static void test_worked_by_hand(void **state)
{
    (void)state;
    Position p;
    bear_in(&p);
    float f[2][NN_RACE_FEATURES];
    nn_race_features(&p, NULL, NN_RACE_FEATURES_FIRST, f);
    const float *me = f[0], *him = f[1];
    assert_near(me[NN_RACE_OUTSIDE], 3 / 15.0);      /* the 8s and the 20 */
    assert_near(me[NN_RACE_CARRY], (2 * 2 + 14) / 60.0); /* to his 6-point */
    assert_near(me[NN_RACE_CROSSINGS], (2 * 1 + 3) / 30.0);
    assert_near(me[NN_RACE_IN_ZONE], 1 / 15.0);      /* the 20-point is in the other home */
    assert_near(me[NN_RACE_ZONE_PIPS], 2 / 30.0);    /* 20 -> 18 */
    assert_near(me[NN_RACE_NONE_OFF], 0.0);          /* 4 are off */
    assert_near(me[NN_RACE_GAPS], 3 / 5.0);          /* the 2, 4 and 5 below the 6 */
    assert_near(me[NN_RACE_WASTAGE], (3 * 4 + 1) / 45.0);
    assert_near(me[NN_RACE_STACK], 4 / 15.0);
    /* 61 pips and 2 for each of 11 checkers, in rolls of 49/6 pips, / 20 */
    assert_near(me[NN_RACE_ROLLS], (61 + 22) * 6 / 49.0 / 20.0);

    assert_near(him[NN_RACE_OUTSIDE], 0.0);
    assert_near(him[NN_RACE_CARRY], 0.0);
    assert_near(him[NN_RACE_NONE_OFF], 1.0);
    assert_near(him[NN_RACE_GAPS], 0.0);             /* nothing above the 1-point */
    assert_near(him[NN_RACE_WASTAGE], 1.0);          /* 15 on the 1-point, weight 3 */
    assert_near(him[NN_RACE_STACK], 1.0);
    assert_near(him[NN_RACE_ROLLS], (15 + 30) * 6 / 49.0 / 20.0);
}

/* Fifteen checkers on the 24-point: every pip feature is capped at 1. */
static void test_capped(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][23] = 15;
    p.side[SIDE_OPPONENT][0] = 1;
    float f[2][NN_RACE_FEATURES];
    nn_race_features(&p, NULL, NN_RACE_FEATURES_FIRST, f);
    assert_near(f[0][NN_RACE_OUTSIDE], 1.0);
    assert_near(f[0][NN_RACE_CARRY], 1.0);     /* 270 pips */
    assert_near(f[0][NN_RACE_CROSSINGS], 1.0); /* 45 */
    assert_near(f[0][NN_RACE_IN_ZONE], 1.0);
    assert_near(f[0][NN_RACE_ZONE_PIPS], 1.0); /* 90 */
    assert_near(f[0][NN_RACE_ROLLS], 1.0);     /* 47.7 rolls */
    assert_near(f[0][NN_RACE_GAPS], 0.0);      /* no checker home: no gaps below one */
}

/* Every feature in 0..1, and the same board seen from the other side
 * swaps them. */
static void test_sides_swap(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (int n = 0; n < 2000; n++) {
        Position p;
        randpos_loose(&s, &p);
        float a[2][NN_RACE_FEATURES], b[2][NN_RACE_FEATURES];
        nn_race_features(&p, NULL, NN_RACE_FEATURES_FIRST, a);
        for (int k = 0; k < NN_RACE_FEATURES_FIRST; k++)
            for (int side = 0; side < 2; side++)
                if (!(a[side][k] >= 0.0f && a[side][k] <= 1.0f))
                    fail_msg("position %d: feature %d of side %d is %g", n, k, side,
                             (double)a[side][k]);
        pos_swap(&p);
        nn_race_features(&p, NULL, NN_RACE_FEATURES_FIRST, b);
        assert_memory_equal(a[0], b[1], sizeof a[0][0] * NN_RACE_FEATURES_FIRST);
        assert_memory_equal(a[1], b[0], sizeof a[1][0] * NN_RACE_FEATURES_FIRST);
    }
}

/* A race network with features reads the race features in the rows a
 * contact network reads its own; a contact network never reads them. */
static void test_race_network_inputs(void **state)
{
    (void)state;
    NnWeights *w = calloc(1, sizeof *w);
    assert_non_null(w);
    Position p;
    bear_in(&p);
    int index[NN_INPUTS];
    float value[NN_INPUTS];
    float race[2][NN_RACE_FEATURES], contact[2][NN_FEATURES];
    nn_race_features(&p, NULL, NN_RACE_FEATURES_FIRST, race);
    nn_features(&p, NN_FEATURES_FIRST, contact);
    for (int kind = 0; kind < 2; kind++) {
        w->inputs = NN_INPUTS_FIRST;
        w->race = kind == 1;
        int n = nn_inputs(w, &p, index, value);
        float dense[NN_INPUTS] = {0};
        for (int k = 0; k < n; k++)
            dense[index[k]] = value[k];
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < NN_FEATURES_FIRST; i++)
                assert_near(dense[NN_RAW_INPUTS + side * NN_FEATURES_FIRST + i],
                            w->race ? race[side][i] : contact[side][i]);
    }
    /* The features differ on this board, so the check above tells them apart. */
    assert_true(memcmp(race[0], contact[0], sizeof race[0]) != 0 ||
                memcmp(race[1], contact[1], sizeof race[1]) != 0);
    free(w);
}

/* The model's features are the race model's chances and rolls, each side
 * in his own eyes; they swap with the board, and a race-234 network reads
 * all eighteen a side (none without the database). */
static void test_model_features(void **state)
{
    (void)state;
    Err err = {{0}};
    BearoffDb *db = bearoff_new(&err);
    assert_non_null(db);
    Position p;
    bear_in(&p);
    float f[2][NN_RACE_FEATURES], g[2][NN_RACE_FEATURES];
    RaceSideModel m[2];
    double scratch[OUT_COUNT];
    eval_race_model(db, NULL, &p, scratch, NULL, m);
    nn_race_features(&p, m, NN_RACE_FEATURES, f);
    double out[OUT_COUNT];
    eval_race(db, NULL, &p, out, NULL);
    assert_memory_equal(scratch, out, sizeof out); /* the model's chances, the same */
    assert_near(f[0][NN_RACE_MODEL_WIN], out[OUT_WIN]);
    assert_near(f[0][NN_RACE_MODEL_GAMMON], out[OUT_WIN_GAMMON]);
    assert_near(f[0][NN_RACE_MODEL_BG], out[OUT_WIN_BG]);
    assert_near(f[1][NN_RACE_MODEL_WIN], 1.0 - out[OUT_WIN]);
    assert_near(f[1][NN_RACE_MODEL_GAMMON], out[OUT_LOSE_GAMMON]);
    assert_near(f[1][NN_RACE_MODEL_BG], out[OUT_LOSE_BG]);
    /* The roller has checkers off: no first checker or zone to wait for. */
    assert_near(f[0][NN_RACE_FIRST_MEAN], 0.0);
    assert_near(f[0][NN_RACE_FIRST_SD], 0.0);
    assert_near(f[0][NN_RACE_CLEAR_MEAN], 0.0);
    /* The other side, all 15 on his 1-point: the database's mean to bear
     * them off; his first checker off at his first roll, always. */
    uint8_t home[BEAROFF_POINTS] = {15, 0, 0, 0, 0, 0};
    assert_near(f[1][NN_RACE_OFF_MEAN], bearoff_mean(db, bearoff_index(home)) / 30.0);
    assert_true(f[1][NN_RACE_OFF_SD] > 0.0f);
    assert_near(f[1][NN_RACE_FIRST_MEAN], 1 / 15.0);
    assert_near(f[1][NN_RACE_FIRST_SD], 0.0);
    assert_near(f[1][NN_RACE_CLEAR_MEAN], 0.0);
    /* The roller's 11 checkers, 61 pips: more rolls than the other's 15 on
     * his 1-point, and more spread. */
    assert_true(f[0][NN_RACE_OFF_MEAN] > f[1][NN_RACE_OFF_MEAN]);
    assert_true(f[0][NN_RACE_OFF_SD] > f[1][NN_RACE_OFF_SD]);

    /* Without the model its features are 0, the others as before. */
    nn_race_features(&p, NULL, NN_RACE_FEATURES, g);
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < NN_RACE_FEATURES; i++)
            assert_near(g[side][i], i < NN_RACE_FEATURES_FIRST ? f[side][i] : 0.0);

    /* The rolls' features swap with the board, on random boards too (the
     * chances do not: the side on roll has the roll), and all are in 0..1. */
    uint64_t s = 11;
    for (int n = 0; n < 200; n++) {
        randpos_loose(&s, &p);
        eval_race_model(db, NULL, &p, scratch, NULL, m);
        nn_race_features(&p, m, NN_RACE_FEATURES, f);
        Position q = p;
        pos_swap(&q);
        eval_race_model(db, NULL, &q, scratch, NULL, m);
        nn_race_features(&q, m, NN_RACE_FEATURES, g);
        for (int side = 0; side < 2; side++)
            for (int i = NN_RACE_OFF_MEAN; i < NN_RACE_FEATURES; i++)
                assert_near(f[side][i], g[1 - side][i]);
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < NN_RACE_FEATURES; i++)
                assert_true(f[side][i] >= 0.0f && f[side][i] <= 1.0f);
    }

    /* A race-234 network reads all eighteen a side after the points, the
     * model's computed from its database (none without it). */
    NnWeights *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->inputs = NN_INPUTS;
    w->race = true;
    bear_in(&p);
    eval_race_model(db, NULL, &p, scratch, NULL, m);
    nn_race_features(&p, m, NN_RACE_FEATURES, f);
    nn_race_features(&p, NULL, NN_RACE_FEATURES, g);
    for (int with = 1; with >= 0; with--) {
        w->race_model = with ? db : NULL;
        int index[NN_INPUTS];
        float value[NN_INPUTS], dense[NN_INPUTS] = {0};
        int n = nn_inputs(w, &p, index, value);
        for (int k = 0; k < n; k++)
            dense[index[k]] = value[k];
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < NN_RACE_FEATURES; i++)
                assert_near(dense[NN_RAW_INPUTS + side * NN_RACE_FEATURES + i],
                            with ? f[side][i] : g[side][i]);
    }
    /* The model given (the engine's, from its race cache) or computed, the
     * same bits, in floats and in integers. */
    nn_init(w, NN_INPUTS, 7);
    w->race = true;
    w->race_model = db;
    for (int quantized = 0; quantized < 2; quantized++) {
        if (quantized)
            nn_quantize(w);
        s = 12;
        for (int k = 0; k < 50; k++) {
            randpos_loose(&s, &p);
            double a[OUT_COUNT], b[OUT_COUNT];
            nn_eval(w, &p, a);
            eval_race_model(db, NULL, &p, scratch, NULL, m);
            nn_eval_race(w, &p, m, b);
            assert_memory_equal(a, b, sizeof a);
        }
    }
    free(w);
    bearoff_free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_by_hand),
        cmocka_unit_test(test_capped),
        cmocka_unit_test(test_sides_swap),
        cmocka_unit_test(test_race_network_inputs),
        cmocka_unit_test(test_model_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
