/* test_matchid.c - the Match ID codec against every row of matchid.tsv.gz
 * (decode gives the fields, encoding the fields gives the ID), the worked
 * examples of section 6.2 of the protocol notes, and every refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "matchid.h"
#include "tsv.h"

#define VECTORS "positions/gnubg-1.07/matchid.tsv.gz"

static int num(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0')
        fail_msg("'%s' is not a number", s);
    return (int)v;
}

/* Columns: matchid cube cube_owner dice_owner crawford game_state turn
 * doubled resigned die1 die2 match_len score0 score1 jacoby source */
static void row_fields(TsvReader *r, MatchId *m)
{
    m->cube = num(r->field[1]);
    m->cube_owner = num(r->field[2]);
    m->dice_owner = num(r->field[3]);
    m->crawford = num(r->field[4]);
    m->game_state = num(r->field[5]);
    m->turn = num(r->field[6]);
    m->doubled = num(r->field[7]);
    m->resigned = num(r->field[8]);
    m->dice[0] = num(r->field[9]);
    m->dice[1] = num(r->field[10]);
    m->match_length = num(r->field[11]);
    m->score[0] = num(r->field[12]);
    m->score[1] = num(r->field[13]);
    m->jacoby = num(r->field[14]);
}

static void test_vectors_both_ways(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    int rows = 0;
    while (tsv_next(r)) {
        assert_int_equal(r->nfields, 16);
        MatchId want, got;
        row_fields(r, &want);
        Err err = {{0}};
        if (!matchid_decode(r->field[0], &got, &err))
            fail_msg("line %d: %s refused: %s", r->lineno, r->field[0], err.text);
        if (!matchid_equal(&got, &want))
            fail_msg("line %d: %s decodes to other fields", r->lineno, r->field[0]);
        char id[MATCHID_LEN + 1];
        if (!matchid_encode(&want, id, &err))
            fail_msg("line %d: fields of %s refused: %s", r->lineno, r->field[0], err.text);
        assert_string_equal(id, r->field[0]);
        rows++;
    }
    tsv_close(r);
    free(r);
    assert_int_equal(rows, 97);
    print_message("matchid.tsv.gz: %d rows decoded and encoded\n", rows);
}

/* Section 6.2: the ID, then the fields it stands for. */
static void test_worked_examples(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        MatchId m;
    } ex[] = {
        /* 9-point match, 2-4, player 0 owns a 2-cube, player 1 rolled 5-2 */
        {"QYkqASAAIAAA", {2, 0, 1, false, 1, 1, false, 0, {5, 2}, 9, {2, 4}, true}},
        /* money, cube 1 centred, player 1 on roll with 3-1, Jacoby on */
        {"cIkFAAAAAAAA", {1, -1, 1, false, 1, 1, false, 0, {3, 1}, 0, {0, 0}, true}},
        {"cIkFAAAAAAAE", {1, -1, 1, false, 1, 1, false, 0, {3, 1}, 0, {0, 0}, false}},
        /* 5-point match 2-4, Crawford game, player 1 with 3-1 */
        {"8ImlACAAIAAA", {1, -1, 1, true, 1, 1, false, 0, {3, 1}, 5, {2, 4}, true}},
        /* money, a double offered: the cube shows the value before it */
        {"cRkAAAAAAAAA", {2, -1, 1, false, 1, 1, true, 0, {0, 0}, 0, {0, 0}, true}},
        {"UQkAAAAAAAAA", {2, 1, 1, false, 1, 1, false, 0, {0, 0}, 0, {0, 0}, true}},
        {"MAEAAAAAAAAA", {1, -1, 0, false, 1, 0, false, 0, {0, 0}, 0, {0, 0}, true}},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        MatchId m;
        Err err = {{0}};
        if (!matchid_decode(ex[i].id, &m, &err))
            fail_msg("%s refused: %s", ex[i].id, err.text);
        if (!matchid_equal(&m, &ex[i].m))
            fail_msg("%s: fields differ from section 6.2", ex[i].id);
        char id[MATCHID_LEN + 1];
        assert_true(matchid_encode(&ex[i].m, id, &err));
        assert_string_equal(id, ex[i].id);
    }
}

static void expect_decode_error(const char *id, const char *needle)
{
    MatchId m;
    matchid_init(&m);
    MatchId before = m;
    Err err = {{0}};
    if (matchid_decode(id, &m, &err))
        fail_msg("'%s' was accepted", id);
    if (!strstr(err.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", id, err.text, needle);
    assert_true(matchid_equal(&m, &before)); /* untouched on failure */
}

/* Builds an ID bit by bit, so that refused IDs can be written on purpose. */
static void id_from_bits(const int *bits, int n, char out[MATCHID_LEN + 1])
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint8_t key[9] = {0};
    for (int i = 0; i < n; i += 3)
        for (int b = 0; b < bits[i + 1]; b++)
            if (bits[i + 2] >> b & 1)
                key[(bits[i] + b) / 8] |= (uint8_t)(1 << ((bits[i] + b) % 8));
    for (int c = 0; c < MATCHID_LEN; c++) {
        int v = 0;
        for (int b = 0; b < 6; b++) {
            int k = c * 6 + b; /* big-endian bit k of the byte stream */
            v = v << 1 | (key[k / 8] >> (7 - k % 8) & 1);
        }
        out[c] = b64[v];
    }
    out[MATCHID_LEN] = '\0';
}

static void test_decode_errors(void **state)
{
    (void)state;
    expect_decode_error("", "12 characters, this one has 0");
    expect_decode_error("QYkqASAAIAA", "this one has 11");
    expect_decode_error("QYkqASAAIAAAA", "this one has 13");
    expect_decode_error("QYkqASAA-AAA", "character 9");
    expect_decode_error("QYkq ASAAIAA", "character 5");
    expect_decode_error("QYkqASAAIAA=", "character 12");
    expect_decode_error("QYkqASAAIAA\xc3", "not in the Base64 alphabet");

    /* (bit, width, value) triples; all but the first rows play a game
     * (bits 8-10 = 1) with a centred cube (bits 4-5 = 3), then one bad field */
    static const struct {
        int bits[15];
        int n;
        const char *needle; /* NULL: accepted */
    } cases[] = {
        {{4, 2, 3, 8, 3, 1, 15, 3, 7, 18, 3, 2}, 12, "die 1 is 7"},
        {{4, 2, 3, 8, 3, 1, 15, 3, 3, 18, 3, 7}, 12, "die 2 is 7"},
        {{4, 2, 3, 8, 3, 1, 15, 3, 3}, 9, "both dice"},
        {{4, 2, 3, 8, 3, 1, 21, 15, 65}, 9, "match length 65"},
        {{4, 2, 3, 8, 3, 1, 21, 15, 64, 36, 15, 63}, 12, NULL}, /* gnubg's limit */
        {{4, 2, 3, 8, 3, 2, 21, 15, 5, 51, 15, 6}, 12,
         "score of player 1 is 6, beyond the match length 5"},
        {{4, 2, 3, 8, 3, 1, 21, 15, 5, 36, 15, 5}, 12, "game is not over"},
        {{4, 2, 3, 8, 3, 2, 21, 15, 5, 36, 15, 5}, 12, NULL}, /* gnubg at match end */
        {{4, 2, 3, 8, 3, 2, 21, 15, 5, 36, 15, 5, 51, 15, 5}, 15, "both players"},
        {{4, 2, 3, 7, 1, 1, 8, 3, 1}, 9, "Crawford game flag set in a money game"},
        {{4, 2, 3, 8, 3, 5}, 6, "game state 5"},
        {{4, 2, 2, 8, 3, 1}, 6, "cube owner field is 2"},
        {{4, 2, 3, 8, 3, 1, 70, 1, 1}, 9, "after bit 66"},
        {{4, 2, 3, 8, 3, 1, 67, 1, 1}, 9, "after bit 66"},
        {{0, 4, 15, 4, 2, 3, 8, 3, 1}, 9, NULL}, /* a 32768-cube */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char id[MATCHID_LEN + 1];
        id_from_bits(cases[i].bits, cases[i].n, id);
        if (cases[i].needle) {
            expect_decode_error(id, cases[i].needle);
            continue;
        }
        MatchId m;
        Err err = {{0}};
        if (!matchid_decode(id, &m, &err))
            fail_msg("case %zu (%s) refused: %s", i, id, err.text);
        char again[MATCHID_LEN + 1];
        assert_true(matchid_encode(&m, again, NULL));
        assert_string_equal(again, id);
    }
}

static void expect_encode_error(const MatchId *m, const char *needle)
{
    char id[MATCHID_LEN + 1] = "untouched";
    Err err = {{0}};
    assert_false(matchid_encode(m, id, &err));
    assert_string_equal(id, "untouched");
    if (!strstr(err.text, needle))
        fail_msg("message '%s' does not mention '%s'", err.text, needle);
}

static void test_encode_errors(void **state)
{
    (void)state;
    MatchId m;
    matchid_init(&m);
    char id[MATCHID_LEN + 1];
    assert_true(matchid_encode(&m, id, NULL));
    assert_string_equal(id, "cAkAAAAAAAAE");

    matchid_init(&m), m.cube = 3;
    expect_encode_error(&m, "cube value 3");
    matchid_init(&m), m.cube = 65536;
    expect_encode_error(&m, "cube value 65536");
    matchid_init(&m), m.cube = 0;
    expect_encode_error(&m, "cube value 0");
    matchid_init(&m), m.cube_owner = 2;
    expect_encode_error(&m, "cube owner 2");
    matchid_init(&m), m.dice_owner = -1;
    expect_encode_error(&m, "dice owner -1");
    matchid_init(&m), m.turn = 2;
    expect_encode_error(&m, "turn 2");
    matchid_init(&m), m.game_state = 7;
    expect_encode_error(&m, "game state 7");
    matchid_init(&m), m.resigned = 4;
    expect_encode_error(&m, "resignation 4");
    matchid_init(&m), m.dice[0] = 7, m.dice[1] = 1;
    expect_encode_error(&m, "die 1 is 7");
    matchid_init(&m), m.dice[0] = 0, m.dice[1] = 3;
    expect_encode_error(&m, "both dice");
    matchid_init(&m), m.match_length = 65;
    expect_encode_error(&m, "match length 65");
    matchid_init(&m), m.match_length = -1;
    expect_encode_error(&m, "match length -1");
    matchid_init(&m), m.score[1] = 40000;
    expect_encode_error(&m, "score of player 1 is 40000");
    matchid_init(&m), m.match_length = 7, m.score[0] = 7;
    expect_encode_error(&m, "score of player 0 is 7, the match length");
    matchid_init(&m), m.crawford = true;
    expect_encode_error(&m, "money game");
}

static void test_swap_players(void **state)
{
    (void)state;
    MatchId m, s;
    assert_true(matchid_decode("QYkqASAAIAAA", &m, NULL));
    s = m;
    matchid_swap_players(&s);
    assert_int_equal(s.cube_owner, 1);
    assert_int_equal(s.dice_owner, 0);
    assert_int_equal(s.turn, 0);
    assert_int_equal(s.score[0], 4);
    assert_int_equal(s.score[1], 2);
    assert_int_equal(s.dice[0], 5);
    matchid_swap_players(&s);
    assert_true(matchid_equal(&m, &s));
    matchid_init(&m);
    s = m;
    matchid_swap_players(&s);
    assert_int_equal(s.cube_owner, -1); /* a centred cube stays centred */
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(matchid_game_state_name(4), "dropped");
    assert_string_equal(matchid_game_state_name(9), "unknown");
    assert_string_equal(matchid_resign_name(2), "gammon");
    assert_string_equal(matchid_resign_name(-1), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_both_ways),
        cmocka_unit_test(test_worked_examples),
        cmocka_unit_test(test_decode_errors),
        cmocka_unit_test(test_encode_errors),
        cmocka_unit_test(test_swap_players),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
