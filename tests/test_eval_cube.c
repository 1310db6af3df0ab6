/* test_eval_cube.c - the cube model against numbers worked out by hand from
 * Janowski's formulas and the match equity table. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cubes.h"

#include "cube.h"
#include "met.h"

/* cmocka compares floats in single precision: this one keeps doubles. */
static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.12g != %.12g (within %g)", line, a, b, eps);
}
#define assert_near(a, b, eps) near((a), (b), (eps), __LINE__)


static void chances(double p, double wg, double lg, double out[OUT_COUNT])
{
    out[OUT_WIN] = p;
    out[OUT_WIN_GAMMON] = wg;
    out[OUT_WIN_BG] = 0.0;
    out[OUT_LOSE_GAMMON] = lg;
    out[OUT_LOSE_BG] = 0.0;
}

/* No gammons (W = L = 1), perfect efficiency: take point 0.2, cash point
 * 0.8 (Janowski: (L - 1/2) / (W + L + 1/2), (L + 1) / (W + L + 1/2)), and
 * the centred cube's equity runs linearly from -1 at 0.2 to +1 at 0.8. */
static void test_money_live_cube(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    double out[OUT_COUNT];
    CubeEquities eq;
    static const double p[] = {0.2, 0.35, 0.5, 0.65, 0.8};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        chances(p[i], 0, 0, out);
        cube_equities(out, &cs, 1.0, &eq);
        assert_near(eq.no_double, -1.0 + (p[i] - 0.2) * 2 / 0.6, 1e-12);
    }
    /* Dead cube (x = 0): the cubeless 2p - 1. */
    chances(0.7, 0, 0, out);
    cube_equities(out, &cs, 0.0, &eq);
    assert_near(eq.no_double, 0.4, 1e-12);
}

/* With x = 0.68 Janowski's take point is (L - 1/2) / (W + L + x/2) =
 * 0.5 / 2.34: the doubler's DT crosses DP = 1 at p = 1 - 0.5 / 2.34. */
static void test_money_take_point(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    double out[OUT_COUNT], tp = 1.0 - 0.5 / 2.34;
    CubeEquities eq;
    chances(tp - 1e-4, 0, 0, out);
    cube_equities(out, &cs, 0.68, &eq);
    assert_true(eq.double_take < eq.double_pass);
    chances(tp + 1e-4, 0, 0, out);
    cube_equities(out, &cs, 0.68, &eq);
    assert_true(eq.double_take > eq.double_pass);
    /* Owning the cube: p (W + L + x/2) - L (Janowski). */
    cs.owner = SIDE_ROLLER, cs.cube = 2;
    chances(0.6, 0, 0, out);
    cube_equities(out, &cs, 0.68, &eq);
    assert_near(eq.no_double, 0.6 * 2.34 - 1.0, 1e-12);
    /* The other side owning it: p (W + L + x/2) - L - x/2. */
    cs.owner = SIDE_OPPONENT;
    cube_equities(out, &cs, 0.68, &eq);
    assert_near(eq.no_double, 0.6 * 2.34 - 1.0 - 0.34, 1e-12);
    assert_false(eq.can_double);
}

/* Gammons count; under Jacoby only after a double; Jacoby needs the cube. */
static void test_money_cubeless(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    double out[OUT_COUNT];
    chances(0.6, 0.2, 0.1, out);
    assert_near(cube_cubeless(out, &cs), 0.2 + 0.2 - 0.1, 1e-12);
    cs.jacoby = true;
    assert_near(cube_cubeless(out, &cs), 0.2, 1e-12);
    cs.owner = SIDE_ROLLER;
    assert_near(cube_cubeless(out, &cs), 0.3, 1e-12);
    cs = cubes_money();
    cs.jacoby = true;
    cs.cube_in_use = false;
    assert_near(cube_cubeless(out, &cs), 0.3, 1e-12);
    /* A resignation under Jacoby with the cube centred: a gammon is one. */
    cs.cube_in_use = true;
    assert_near(cube_win_value(&cs, 2), 1.0, 0);
    cs.jacoby = false;
    assert_near(cube_win_value(&cs, 2), 2.0, 0);
}

static void test_access(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    assert_true(cubestate_access(&cs, SIDE_ROLLER));
    assert_true(cubestate_access(&cs, SIDE_OPPONENT));
    cs.owner = SIDE_OPPONENT;
    assert_false(cubestate_access(&cs, SIDE_ROLLER));
    cs.owner = SIDE_ROLLER, cs.cube = 64;
    assert_false(cubestate_access(&cs, SIDE_ROLLER));
    cs = cubes_match(5, 4, 2);
    cs.crawford = true;
    assert_false(cubestate_access(&cs, SIDE_ROLLER));
    cs = cubes_money();
    cs.cube_in_use = false;
    assert_false(cubestate_access(&cs, SIDE_ROLLER));
    Err err = {{0}};
    cs = cubes_money();
    cs.cube = 3;
    assert_false(cubestate_valid(&cs, &err));
    cs = cubes_match(5, 5, 0);
    assert_false(cubestate_valid(&cs, &err));
    cs = cubes_money();
    cs.owner = 2;
    assert_false(cubestate_valid(&cs, &err));
}

/* Kazaross-XG2 entries, the post-Crawford row, symmetry and the normal
 * approximation beyond 25 points. */
static void test_met(void **state)
{
    (void)state;
    assert_near(met_mwc(1, 1, false), 0.5, 0);
    assert_near(met_mwc(1, 2, false), 0.67736, 1e-12);
    assert_near(met_mwc(3, 5, false), 0.64795, 1e-12);
    assert_near(met_mwc(2, 1, true), 0.48803, 1e-12);
    assert_near(met_mwc(1, 2, true), 1 - 0.48803, 1e-12);
    assert_near(met_mwc(0, 3, false), 1.0, 0);
    assert_near(met_mwc(-2, 3, false), 1.0, 0);
    assert_near(met_mwc(3, 0, true), 0.0, 0);
    for (int a = 1; a <= 30; a++)
        for (int b = 1; b <= 30; b++) {
            assert_near(met_mwc(a, b, false) + met_mwc(b, a, false), 1.0, 1e-9);
            if (a < b)
                assert_true(met_mwc(a, b, false) > 0.5);
        }
    assert_near(met_mwc(40, 40, false), 0.5, 1e-12);
    /* The approximation continues the table: one more point for the other
     * side is worth about what it is worth inside the table (0.031). */
    double step = met_mwc(24, 26, false) - met_mwc(24, 25, false);
    assert_true(step > 0.02 && step < 0.04);
}

/* Match: the cubeless value is the MET averaged over the outcomes. At
 * double match point only the winner matters. */
static void test_match_cubeless(void **state)
{
    (void)state;
    double out[OUT_COUNT];
    chances(0.6, 0.3, 0.2, out);
    CubeState cs = cubes_match(7, 6, 6);
    assert_near(cube_cubeless(out, &cs), 0.6, 1e-12);
    cs = cubes_match(7, 0, 0);
    double v = 0.3 * met_mwc(6, 7, false) + 0.3 * met_mwc(5, 7, false) +
               0.2 * met_mwc(7, 6, false) + 0.2 * met_mwc(7, 5, false);
    assert_near(cube_cubeless(out, &cs), v, 1e-12);
    /* cube_linear is the same function written as base + w . out. */
    for (int side = 0; side < 2; side++) {
        double base, w[OUT_COUNT];
        CubeState c2 = cubes_match(9, 3, 5);
        cube_linear(&c2, side, &base, w);
        double o[OUT_COUNT] = {0.55, 0.2, 0.03, 0.15, 0.01};
        double lin = base;
        for (int k = 0; k < OUT_COUNT; k++)
            lin += w[k] * o[k];
        if (side == SIDE_OPPONENT) {
            int t = c2.score[0];
            c2.score[0] = c2.score[1];
            c2.score[1] = t;
        }
        assert_near(lin, cube_cubeless(o, &c2), 1e-12);
    }
}

/* Match cube: in the Crawford game the cube is dead (ND is the cubeless
 * value); post-Crawford the trailer's DT is the dead 2-cube. */
static void test_match_cube(void **state)
{
    (void)state;
    double out[OUT_COUNT];
    chances(0.55, 0.15, 0.1, out);
    CubeState cs = cubes_match(5, 2, 4);
    cs.crawford = true;
    CubeEquities eq;
    cube_equities(out, &cs, 0.68, &eq);
    assert_false(eq.can_double);
    assert_near(eq.no_double, cube_cubeless(out, &cs), 1e-12);
    cs.crawford = false;
    cs.post_crawford = true;
    cube_equities(out, &cs, 0.68, &eq);
    assert_true(eq.can_double);
    /* Trailer needs 3: winning 2 points leaves 1-away/1-away (0.5), a
     * gammon (4) or backgammon wins; losing loses. */
    double dt = (0.55 - 0.15) * 0.5 + 0.15 * 1.0;
    assert_near(eq.double_take, dt, 1e-12);
    assert_near(eq.double_pass, met_mwc(2, 1, true), 1e-12);
    assert_true(eq.double_take > eq.no_double || eq.double_pass > eq.no_double);
}

/* The rules of what a win is worth change the equities: backgammons off
 * values a backgammon as a gammon, star mars adds its share of them at 4
 * points, the home-board zone takes its share down to 2. */
static void test_win_rules(void **state)
{
    (void)state;
    double out[OUT_COUNT] = {0.8, 0.25, 0.2, 0.05, 0.0};
    CubeState cs = cubes_money();
    assert_near(cube_cubeless(out, &cs), 0.6 + 0.25 + 0.2 - 0.05, 1e-12);
    cs.backgammons_off = true;
    assert_near(cube_cubeless(out, &cs), 0.6 + 0.25 - 0.05, 1e-12);
    assert_near(cube_win_value(&cs, 3), 2.0, 0);
    cs = cubes_money();
    cs.star_mars = true;
    assert_near(cube_cubeless(out, &cs), 1.0 + CUBE_BG_SHARE_STAR_MARS * 0.2, 1e-12);
    cs = cubes_money();
    cs.bg_home_only = true;
    assert_near(cube_cubeless(out, &cs), 1.0 - CUBE_BG_SHARE_BAR_ONLY * 0.2, 1e-12);
    /* W = 1 + 0.45 / 0.8, L = 1.25: ND 1.144 > DP, too good to double;
     * with backgammons off W = 1.3125 and ND 0.988: double, pass. */
    CubeEquities eq;
    cs = cubes_money();
    cube_equities(out, &cs, 0.68, &eq);
    assert_true(eq.no_double > eq.double_pass);
    cs.backgammons_off = true;
    cube_equities(out, &cs, 0.68, &eq);
    assert_true(eq.no_double < eq.double_pass && eq.double_take > eq.double_pass);
    /* Match at 3-away each: a backgammon wins the match, or with
     * backgammons off leaves 1-away. */
    cs = cubes_match(7, 4, 4);
    double lose = 0.15 * met_mwc(3, 2, false) + 0.05 * met_mwc(3, 1, false);
    assert_near(cube_cubeless(out, &cs),
                0.55 * met_mwc(2, 3, false) + 0.05 * met_mwc(1, 3, false) + 0.2 + lose, 1e-12);
    cs.backgammons_off = true;
    assert_near(cube_cubeless(out, &cs),
                0.55 * met_mwc(2, 3, false) + 0.25 * met_mwc(1, 3, false) + lose, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_money_live_cube),
        cmocka_unit_test(test_money_take_point),
        cmocka_unit_test(test_money_cubeless),
        cmocka_unit_test(test_access),
        cmocka_unit_test(test_met),
        cmocka_unit_test(test_match_cubeless),
        cmocka_unit_test(test_match_cube),
        cmocka_unit_test(test_win_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
