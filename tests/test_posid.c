/* test_posid.c - Position ID codec: every row of posid.tsv.gz both ways, the
 * worked examples, random round trips and malformed IDs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "posid.h"
#include "tsv.h"

static void test_vectors(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/posid.tsv.gz"));
    int rows = 0;
    while (tsv_next(r)) {
        assert_int_equal(r->nfields, 4);
        Position want, got;
        assert_true(tsv_parse_side(r->field[1], want.side[0]));
        assert_true(tsv_parse_side(r->field[2], want.side[1]));
        char id[POSID_LEN + 1];
        posid_encode(&want, id);
        if (strcmp(id, r->field[0]))
            fail_msg("line %d: encoded %s, gnubg says %s", r->lineno, id, r->field[0]);
        Err err = {{0}};
        memset(&got, 0xee, sizeof got);
        if (!posid_decode(r->field[0], &got, &err))
            fail_msg("line %d: %s rejected: %s", r->lineno, r->field[0], err.text);
        if (!pos_equal(&got, &want))
            fail_msg("line %d: %s decodes to another position", r->lineno, r->field[0]);
        rows++;
    }
    tsv_close(r);
    free(r);
    assert_int_equal(rows, 1902);
}

static void test_examples(void **state)
{
    (void)state;
    Position p;
    char id[POSID_LEN + 1];
    pos_start(&p);
    posid_encode(&p, id);
    assert_string_equal(id, "4HPwATDgc/ABMA");

    p.side[0][12] = p.side[1][12] = 4;
    p.side[0][POS_BAR] = p.side[1][POS_BAR] = 1;
    posid_encode(&p, id);
    assert_string_equal(id, "4HPwAFjgc/AAWA");
    Position q;
    assert_true(posid_decode("4HPwAFjgc/AAWA", &q, NULL));
    assert_true(pos_equal(&p, &q));

    memset(&p, 0, sizeof p);
    posid_encode(&p, id);
    assert_string_equal(id, "AAAAAAAAAAAAAA");
    memset(&q, 1, sizeof q);
    assert_true(posid_decode(id, &q, NULL));
    assert_true(pos_equal(&p, &q));
}

/* Random valid positions (a fixed LCG, so failures reproduce) survive an
 * encode/decode round trip. */
static void test_random_round_trip(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    for (int n = 0; n < 20000; n++) {
        Position p;
        memset(&p, 0, sizeof p);
        for (int s = 0; s < 2; s++) {
            seed = seed * 1103515245u + 12345u;
            int checkers = (int)(seed >> 16) % 16;
            for (int c = 0; c < checkers; c++) {
                seed = seed * 1103515245u + 12345u;
                int i = (int)(seed >> 16) % POS_SLOTS;
                if (i < 24 && p.side[!s][23 - i])
                    continue; /* the other side holds that point */
                p.side[s][i]++;
            }
        }
        if (!pos_valid(&p, NULL))
            continue;
        char id[POSID_LEN + 1];
        posid_encode(&p, id);
        Position q;
        Err err = {{0}};
        if (!posid_decode(id, &q, &err))
            fail_msg("%s: %s", id, err.text);
        assert_true(pos_equal(&p, &q));
    }
}

static void expect_bad(const char *id, const char *needle)
{
    Position p, before;
    memset(&p, 0x5a, sizeof p);
    before = p;
    Err err = {{0}};
    assert_false(posid_decode(id, &p, &err));
    if (!strstr(err.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", id ? id : "(null)", err.text,
                 needle);
    assert_true(pos_equal(&p, &before)); /* untouched on failure */
    assert_false(posid_decode(id, &p, NULL)); /* err may be NULL */
}

static void test_malformed(void **state)
{
    (void)state;
    expect_bad(NULL, "no Position ID");
    expect_bad("", "this one has 0");
    expect_bad("4HPwATDgc/ABM", "this one has 13");
    expect_bad("4HPwATDgc/ABMAA", "this one has 15");
    expect_bad("4HPwATDgc/ABMA\n", "this one has 15");
    expect_bad("4HPwATDgc/AB=A", "character 13");
    expect_bad("4HPwATDgc/AB A", "character 13");
    expect_bad("-HPwATDgc/ABMA", "character 1 ");
    expect_bad("4HPwATDgc/ABM\xff", "0xff");
    /* 'B' in the last place sets bit 83, beyond the 80-bit key. */
    expect_bad("4HPwATDgc/ABMB", "beyond the 80");
    /* All 50 slots end at bit 49; 'E' at character 13 sets bit 75. */
    expect_bad("AAAAAAAAAAAAEA", "after the last slot");
    /* 80 ones: no slot ever closes. */
    expect_bad("/////////////w", "too many checkers");
    /* 16 ones then zeros: 16 checkers on side 0's point 1. */
    expect_bad("//8AAAAAAAAAAA", "side 0 (opponent) has 16 checkers");
}

/* Positions gnubg refuses encode to IDs that decode must refuse, for the
 * reason pos_valid gives. */
static void test_invalid_positions(void **state)
{
    (void)state;
    Position p;
    char id[POSID_LEN + 1];

    memset(&p, 0, sizeof p);
    p.side[1][7] = 16;
    posid_encode(&p, id);
    expect_bad(id, "side 1 (on roll) has 16 checkers");

    memset(&p, 0, sizeof p);
    p.side[0][0] = 1;
    p.side[1][23] = 1;
    posid_encode(&p, id);
    expect_bad(id, "same point");

    memset(&p, 0, sizeof p);
    for (int i = 0; i < 6; i++)
        p.side[0][i] = p.side[1][i] = 2;
    p.side[0][POS_BAR] = p.side[1][POS_BAR] = 1;
    posid_encode(&p, id);
    expect_bad(id, "bar");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_random_round_trip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_invalid_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
