/* test_eval_pubeval.c - the pubeval port against sums of Tesauro's published
 * weights worked out by hand from the original encoding, and its inputs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pubeval.h"

/* cmocka compares floats in single precision: this one keeps doubles. */
static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.12g != %.12g (within %g)", line, a, b, eps);
}
#define assert_near(a, b, eps) near((a), (b), (eps), __LINE__)

static void clear(Position *p)
{
    memset(p, 0, sizeof *p);
}

/* Opening position as the mover's result: 2 on his 24-point (block 0,
 * "2 or more": wc[2] = -1.66135), 5 on the 13 (block 11: wc[57] = 1.78389
 * and (5-3)/2 * wc[59] = 0.36797), 3 on the 8 (block 16: wc[82] = 1.83120,
 * wc[83] = 0.58722), 5 on the 6 (block 18: wc[92] = 3.35809, wc[94] =
 * 0.57353). Nothing on the bar, nothing off. */
static void test_opening_contact(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    double expect = -1.66135 + 1.78389 + 0.36797 + 1.83120 + 0.58722 + 3.35809 + 0.57353;
    assert_near(pubeval_score(&p, false), expect, 1e-9);
}

/* Two of the mover's checkers on his ace point (block 23: w[117]), 13 off
 * (w[121] * 13/15), one opposing blot on the mover's 24-point (block 0,
 * input 0). Race: wr[117] = -7.26713, wr[121] = 3.42040, wr[0] = 0.
 * Contact: wc[117] = 0.10438, wc[121] = -2.75800, wc[0] = 0.25696. */
static void test_race_and_contact_weights(void **state)
{
    (void)state;
    Position p;
    clear(&p);
    p.side[SIDE_ROLLER][0] = 2;
    p.side[SIDE_OPPONENT][0] = 1; /* his ace point = the mover's 24-point */
    assert_near(pubeval_score(&p, true), -7.26713 + 3.42040 * 13 / 15.0, 1e-9);
    assert_near(pubeval_score(&p, false), 0.10438 - 2.75800 * 13 / 15.0 + 0.25696,
                       1e-9);
}

/* Four on the 6-point (wc[92] = 3.35809 and (4-3)/2 * wc[94] = 0.57353),
 * three on the 8 (wc[82] = 1.83120, wc[83] = 0.58722), one on the 24
 * (wc[1] = -0.66937), two opposing checkers on the bar (2/2 * wc[120] =
 * 5.62596), seven off (7/15 * wc[121] = -2.75800). */
static void test_bar_and_stacks(void **state)
{
    (void)state;
    Position p;
    clear(&p);
    p.side[SIDE_ROLLER][5] = 4;
    p.side[SIDE_ROLLER][7] = 3;
    p.side[SIDE_ROLLER][23] = 1;
    p.side[SIDE_OPPONENT][POS_BAR] = 2;
    p.side[SIDE_OPPONENT][10] = 13;
    double expect = 3.35809 + 0.5 * 0.57353 + 1.83120 + 0.58722 - 0.66937 + 5.62596 -
                    2.75800 * 7 / 15.0;
    assert_near(pubeval_score(&p, false), expect, 1e-9);
}

static void test_all_off_is_best(void **state)
{
    (void)state;
    Position p;
    clear(&p);
    p.side[SIDE_OPPONENT][3] = 15;
    assert_near(pubeval_score(&p, true), PUBEVAL_ALL_OFF, 0.0);
    assert_near(pubeval_score(&p, false), PUBEVAL_ALL_OFF, 0.0);
}

/* The input vector is the original's setx(): check the slots of the
 * opening position one by one, and that nothing else is set. */
static void test_inputs(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    double x[PUBEVAL_INPUTS];
    pubeval_inputs(&p, x);
    double expect[PUBEVAL_INPUTS] = {0};
    expect[2] = 1.0;                  /* 24-point: 2 */
    expect[57] = 1.0, expect[59] = 1; /* 13-point: 5 */
    expect[82] = 1.0, expect[83] = 1; /* 8-point: 3 */
    expect[92] = 1.0, expect[94] = 1; /* 6-point: 5 */
    for (int i = 0; i < PUBEVAL_INPUTS; i++)
        assert_near(x[i], expect[i], 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opening_contact),
        cmocka_unit_test(test_race_and_contact_weights),
        cmocka_unit_test(test_bar_and_stacks),
        cmocka_unit_test(test_all_off_is_best),
        cmocka_unit_test(test_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
