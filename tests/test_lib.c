/* test_lib.c - the public API (shesh.h) as an embedding program sees it:
 * only shesh.h is included from src/. Every row of posid.tsv.gz decoded
 * and encoded back, a GNUBG-ID's match fields, the move, cube decision and
 * evaluation answered, and every misuse (bad IDs, NULLs, small buffers,
 * bad dice, depths and counts) an error value with a message. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shesh.h"
#include "tsv.h"

#define START "4HPwATDgc/ABMA"
/* 7-point match, the player to act leads 2-1, rolled 5-2, his opponent
 * owns the cube at 2 (docs/shesh.1's EXAMPLES). */
#define MATCH_ID "4HPwATDgc/ABMA:QYnqABAAEAAE"

static shesh_engine *engine;

static int setup(void **state)
{
    (void)state;
    shesh_error err;
    engine = shesh_engine_new(NULL, &err);
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    shesh_engine_free(engine);
    return 0;
}

/* A failure as the API promises one: its code, in err too, with a text. */
static void assert_fails(int rc, int code, const shesh_error *err)
{
    assert_int_equal(rc, code);
    assert_int_equal(err->code, code);
    assert_true(err->text[0] != '\0');
}

static void test_vectors(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/posid.tsv.gz"));
    int rows = 0;
    while (tsv_next(r)) {
        uint8_t want[2][25];
        assert_true(tsv_parse_side(r->field[1], want[0]));
        assert_true(tsv_parse_side(r->field[2], want[1]));
        shesh_position pos;
        shesh_error err;
        if (shesh_decode_id(r->field[0], &pos, &err) != SHESH_OK)
            fail_msg("line %d: %s refused: %s", r->lineno, r->field[0], err.text);
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < 25; i++)
                if (pos.checkers[s][i] != want[s][i])
                    fail_msg("line %d: side %d slot %d", r->lineno, s, i);
        assert_int_equal(pos.cube, 1);
        assert_int_equal(pos.cube_owner, -1);
        assert_int_equal(pos.match_length, 0);
        char id[SHESH_POSITION_ID_MAX];
        assert_int_equal(shesh_encode_position_id(&pos, id, sizeof id, &err), SHESH_OK);
        assert_string_equal(id, r->field[0]);
        rows++;
    }
    tsv_close(r);
    free(r);
    assert_int_equal(rows, 1902);
}

static void test_match_id(void **state)
{
    (void)state;
    shesh_position pos;
    assert_int_equal(shesh_decode_id(MATCH_ID, &pos, NULL), SHESH_OK);
    assert_int_equal(pos.match_length, 7);
    assert_int_equal(pos.score[1], 2);
    assert_int_equal(pos.score[0], 1);
    assert_int_equal(pos.cube, 2);
    assert_int_equal(pos.cube_owner, 0);
    assert_int_equal(pos.dice[0] + pos.dice[1], 7);
    assert_int_equal(pos.dice[0] * pos.dice[1], 10);
    char id[SHESH_POSITION_ID_MAX];
    assert_int_equal(shesh_encode_position_id(&pos, id, sizeof id, NULL), SHESH_OK);
    assert_string_equal(id, START);
}

static void test_bad_ids(void **state)
{
    (void)state;
    static const char *const bad[] = {"", "nonsense", "4HPwATDgc/ABM", "4HPwATDgc/ABMA!",
                                      "////////////////", "4HPwATDgc/ABMA:garbage",
                                      "XGID=-b----E-C---eE---c-e----B-:1:x:1:52:0:0:0:0:10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        shesh_error err;
        shesh_position pos;
        char move[SHESH_MOVE_MAX] = "untouched";
        shesh_evaluation ev;
        shesh_cube_decision cd;
        assert_fails(shesh_decode_id(bad[i], &pos, &err), SHESH_ERR_ID, &err);
        assert_fails(shesh_move(engine, NULL, bad[i], 3, 1, 0, move, sizeof move, &err),
                     SHESH_ERR_ID, &err);
        assert_string_equal(move, "untouched");
        assert_fails(shesh_evaluate(engine, NULL, bad[i], 0, &ev, &err), SHESH_ERR_ID, &err);
        assert_fails(shesh_cube(engine, NULL, bad[i], 0, &cd, &err), SHESH_ERR_ID, &err);
    }
    /* A NULL err is allowed: the code alone. */
    assert_int_equal(shesh_decode_id("nonsense", &(shesh_position){0}, NULL), SHESH_ERR_ID);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    shesh_error err;
    char move[SHESH_MOVE_MAX];
    shesh_evaluation ev;
    shesh_position pos;
    assert_fails(shesh_decode_id(NULL, &pos, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_decode_id(START, NULL, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_move(NULL, NULL, START, 3, 1, 0, move, sizeof move, &err), SHESH_ERR_ARG,
                 &err);
    assert_fails(shesh_move(engine, NULL, START, 3, 1, 0, NULL, 0, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_move(engine, NULL, START, 0, 1, 0, move, sizeof move, &err),
                 SHESH_ERR_ARG, &err);
    assert_fails(shesh_move(engine, NULL, START, 3, 7, 0, move, sizeof move, &err),
                 SHESH_ERR_ARG, &err);
    /* A Position ID has no dice to take. */
    assert_fails(shesh_move(engine, NULL, START, 0, 0, 0, move, sizeof move, &err),
                 SHESH_ERR_ARG, &err);
    assert_fails(shesh_move(engine, NULL, START, 3, 1, 5, move, sizeof move, &err),
                 SHESH_ERR_ARG, &err);
    assert_fails(shesh_evaluate(engine, NULL, START, -1, &ev, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_evaluate(engine, NULL, START, 0, NULL, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_cube(engine, NULL, START, 0, NULL, &err), SHESH_ERR_ARG, &err);
    assert_null(shesh_engine_new("nonesuch", &err));
    assert_int_equal(err.code, SHESH_ERR_ENGINE);
    assert_non_null(strstr(err.text, "nonesuch"));
    shesh_engine_free(NULL);
    shesh_scratch_free(NULL);
}

static void test_small_buffers(void **state)
{
    (void)state;
    shesh_error err;
    char move[SHESH_MOVE_MAX];
    /* "8/5 6/5" needs 8 bytes. */
    assert_fails(shesh_move(engine, NULL, START, 3, 1, 0, move, 7, &err), SHESH_ERR_SIZE, &err);
    assert_fails(shesh_move(engine, NULL, START, 3, 1, 0, move, 0, &err), SHESH_ERR_SIZE, &err);
    assert_int_equal(shesh_move(engine, NULL, START, 3, 1, 0, move, 8, &err), SHESH_OK);
    assert_string_equal(move, "8/5 6/5");
    shesh_position pos;
    char id[SHESH_POSITION_ID_MAX];
    assert_int_equal(shesh_decode_id(START, &pos, NULL), SHESH_OK);
    assert_fails(shesh_encode_position_id(&pos, id, 14, &err), SHESH_ERR_SIZE, &err);
    assert_fails(shesh_encode_position_id(&pos, NULL, 15, &err), SHESH_ERR_ARG, &err);
    assert_fails(shesh_encode_position_id(NULL, id, 15, &err), SHESH_ERR_ARG, &err);
}

static void test_bad_counts(void **state)
{
    (void)state;
    shesh_error err;
    shesh_position pos;
    char id[SHESH_POSITION_ID_MAX];
    assert_int_equal(shesh_decode_id(START, &pos, NULL), SHESH_OK);
    shesh_position p = pos;
    p.checkers[1][0] = 256; /* would be 0 as a byte */
    assert_fails(shesh_encode_position_id(&p, id, sizeof id, &err), SHESH_ERR_ARG, &err);
    p = pos;
    p.checkers[0][3] = -1;
    assert_fails(shesh_encode_position_id(&p, id, sizeof id, &err), SHESH_ERR_ARG, &err);
    p = pos;
    p.checkers[1][2] = 1; /* 16 checkers */
    assert_fails(shesh_encode_position_id(&p, id, sizeof id, &err), SHESH_ERR_ARG, &err);
    p = pos;
    /* Both sides on one point: his 24 point is the opponent's 1 point. */
    p.checkers[0][0] = 2;
    p.checkers[0][5] = 3;
    assert_fails(shesh_encode_position_id(&p, id, sizeof id, &err), SHESH_ERR_ARG, &err);
}

static void test_decisions(void **state)
{
    (void)state;
    shesh_error err;
    shesh_scratch *sc = shesh_scratch_new(&err);
    assert_non_null(sc);
    char move[SHESH_MOVE_MAX];
    assert_int_equal(shesh_move(engine, sc, START, 6, 6, 1, move, sizeof move, &err), SHESH_OK);
    assert_true(move[0] != '\0');
    /* The dice of a GNUBG-ID when none are given. */
    char given[SHESH_MOVE_MAX];
    assert_int_equal(shesh_move(engine, sc, MATCH_ID, 0, 0, 0, move, sizeof move, &err),
                     SHESH_OK);
    assert_int_equal(shesh_move(engine, sc, MATCH_ID, 5, 2, 0, given, sizeof given, &err),
                     SHESH_OK);
    assert_string_equal(move, given);

    shesh_evaluation ev;
    assert_int_equal(shesh_evaluate(engine, sc, START, 1, &ev, &err), SHESH_OK);
    assert_true(ev.win > 0.4 && ev.win < 0.6);
    assert_true(ev.win_gammon <= ev.win && ev.win_backgammon <= ev.win_gammon);
    assert_true(ev.lose_backgammon <= ev.lose_gammon && ev.lose_gammon <= 1 - ev.win);
    assert_true(fabs(ev.cubeless) < 0.5 && fabs(ev.cubeful) < 0.5);

    shesh_cube_decision cd;
    assert_int_equal(shesh_cube(engine, sc, START, 0, &cd, &err), SHESH_OK);
    assert_int_equal(cd.action, SHESH_NO_DOUBLE);
    assert_true(cd.no_double < cd.double_pass);
    /* His opponent owns the cube: no double allowed. */
    assert_int_equal(shesh_cube(engine, sc, MATCH_ID, 0, &cd, &err), SHESH_OK);
    assert_int_equal(cd.action, SHESH_NO_DOUBLE_ALLOWED);
    shesh_scratch_free(sc);
}

/* On the bar against a closed board: no legal move is an answer, "". */
static void test_no_move(void **state)
{
    (void)state;
    shesh_position pos;
    memset(&pos, 0, sizeof pos);
    for (int i = 0; i < 6; i++)
        pos.checkers[0][i] = 2;
    pos.checkers[0][6] = 3;
    pos.checkers[1][24] = 1;
    pos.checkers[1][0] = 14;
    char id[SHESH_POSITION_ID_MAX], move[SHESH_MOVE_MAX] = "untouched";
    shesh_error err;
    assert_int_equal(shesh_encode_position_id(&pos, id, sizeof id, &err), SHESH_OK);
    assert_int_equal(shesh_move(engine, NULL, id, 6, 5, 0, move, sizeof move, &err), SHESH_OK);
    assert_string_equal(move, "");
}

typedef struct Worker {
    char move[SHESH_MOVE_MAX];
    int rc;
} Worker;

/* One engine shared, a scratch per thread. */
static void *worker(void *arg)
{
    Worker *w = arg;
    shesh_scratch *sc = shesh_scratch_new(NULL);
    w->rc = sc ? shesh_move(engine, sc, START, 4, 2, 1, w->move, sizeof w->move, NULL)
               : SHESH_ERR_MEMORY;
    shesh_scratch_free(sc);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    Worker w[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, worker, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(w[0].rc, SHESH_OK);
    assert_int_equal(w[1].rc, SHESH_OK);
    assert_string_equal(w[0].move, w[1].move);
    assert_string_equal(w[0].move, "8/4 6/4");
}

static void test_version(void **state)
{
    (void)state;
    assert_true(strchr(shesh_version(), '.') != NULL);
    assert_true(shesh_engine_id(engine)[0] != '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),       cmocka_unit_test(test_match_id),
        cmocka_unit_test(test_bad_ids),       cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_small_buffers), cmocka_unit_test(test_bad_counts),
        cmocka_unit_test(test_decisions),     cmocka_unit_test(test_no_move),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
