/* test_position.c - starting position, swap, counts (of any bytes) and
 * gnubg's validity checks (pos_valid), including every position of
 * posid.tsv.gz. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "position.h"
#include "tsv.h"

static void test_start(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0xff, sizeof p);
    pos_start(&p);
    static const uint8_t side[POS_SLOTS] = {0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5,
                                            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0};
    assert_memory_equal(p.side[0], side, POS_SLOTS);
    assert_memory_equal(p.side[1], side, POS_SLOTS);
    assert_int_equal(pos_checkers(&p, 0), 15);
    assert_int_equal(pos_checkers(&p, 1), 15);
    assert_int_equal(pos_pips(&p, 0), 167);
    assert_int_equal(pos_pips(&p, 1), 167);
    assert_true(pos_valid(&p, NULL));
}

static void test_swap_equal(void **state)
{
    (void)state;
    Position p, q;
    memset(&p, 0, sizeof p);
    p.side[0][3] = 2;
    p.side[1][POS_BAR] = 1;
    p.side[1][20] = 4;
    q = p;
    assert_true(pos_equal(&p, &q));
    pos_swap(&q);
    assert_false(pos_equal(&p, &q));
    assert_int_equal(q.side[1][3], 2);
    assert_int_equal(q.side[0][POS_BAR], 1);
    assert_int_equal(q.side[0][20], 4);
    assert_int_equal(pos_checkers(&q, 0), 5);
    assert_int_equal(pos_pips(&q, 0), 25 + 4 * 21);
    assert_int_equal(pos_pips(&q, 1), 2 * 4);
    pos_swap(&q);
    assert_true(pos_equal(&p, &q));
}

/* pos_checkers counts every slot and pos_points_holding finds every point
 * holding so many, a damaged position's too: all 255 (25 x 255), and
 * against plain loops over positions of bytes of every size. */
static void test_counts_any_bytes(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0xff, sizeof p);
    assert_int_equal(pos_checkers(&p, 0), 25 * 255);
    assert_int_equal(pos_checkers(&p, 1), 25 * 255);
    assert_int_equal(pos_points_holding(p.side[0], 255), 0xffffffu);
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int t = 0; t < 20000; t++) {
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < POS_SLOTS; i++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                p.side[k][i] = (uint8_t)(t % 2 ? s & 0xff : s % 4);
            }
        for (int k = 0; k < 2; k++) {
            int n = 0;
            for (int i = 0; i < POS_SLOTS; i++)
                n += p.side[k][i];
            assert_int_equal(pos_checkers(&p, k), n);
            for (int least = 1; least <= 255; least += least < 4 ? 1 : 63) {
                uint32_t m = 0;
                for (int i = 0; i < 24; i++)
                    m |= (uint32_t)(p.side[k][i] >= least) << i;
                assert_int_equal(pos_points_holding(p.side[k], least), m);
            }
        }
    }
}

static void expect_invalid(const Position *p, const char *needle)
{
    Err err = {{0}};
    assert_false(pos_valid(p, &err));
    if (!strstr(err.text, needle))
        fail_msg("message '%s' does not mention '%s'", err.text, needle);
}

static void test_valid_rules(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    assert_true(pos_valid(&p, NULL)); /* everything borne off: allowed */

    p.side[1][0] = 16;
    expect_invalid(&p, "side 1 (on roll) has 16 checkers");
    memset(&p, 0, sizeof p);
    p.side[0][POS_BAR] = 10;
    p.side[0][2] = 6;
    expect_invalid(&p, "side 0 (opponent) has 16 checkers");

    /* Side 1's index 4 (his 5-point) is side 0's index 19. */
    memset(&p, 0, sizeof p);
    p.side[1][4] = 1;
    p.side[0][19] = 1;
    expect_invalid(&p, "same point");
    p.side[0][19] = 0;
    p.side[0][18] = 1;
    assert_true(pos_valid(&p, NULL));

    /* Both on the bar and both boards closed: nobody can ever move. */
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 6; i++)
        p.side[0][i] = p.side[1][i] = 2;
    p.side[0][POS_BAR] = p.side[1][POS_BAR] = 1;
    expect_invalid(&p, "bar");
    p.side[1][POS_BAR] = 0; /* only one side on the bar: fine */
    assert_true(pos_valid(&p, NULL));
    p.side[1][POS_BAR] = 1;
    p.side[1][5] = 1; /* a gap in one board: fine */
    assert_true(pos_valid(&p, NULL));
}

/* Every position gnubg wrote an ID for is one it accepted. */
static void test_vectors_valid(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/posid.tsv.gz"));
    int rows = 0;
    while (tsv_next(r)) {
        assert_int_equal(r->nfields, 4);
        Position p;
        assert_true(tsv_parse_side(r->field[1], p.side[0]));
        assert_true(tsv_parse_side(r->field[2], p.side[1]));
        Err err = {{0}};
        if (!pos_valid(&p, &err))
            fail_msg("line %d: %s", r->lineno, err.text);
        assert_true(pos_checkers(&p, 0) <= 15 && pos_checkers(&p, 1) <= 15);
        rows++;
    }
    tsv_close(r);
    free(r);
    assert_int_equal(rows, 1902);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_swap_equal),
        cmocka_unit_test(test_counts_any_bytes),
        cmocka_unit_test(test_valid_rules),
        cmocka_unit_test(test_vectors_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
