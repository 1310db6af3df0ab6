/* test_referee.c - one refereed game (src/play/referee.h): the dice depend
 * on (seed, pair, game) alone and are fair; games between the yardstick
 * players end with the record and the result agreeing, in money play and
 * in matches; a player that fails to answer forfeits the game at the
 * cube's value, with the fault described and recorded; a cancelled player
 * leaves the game unfinished; a beaver the rules forbid is taken and
 * counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "movegen.h"
#include "player_random.h"
#include "record_mat.h"
#include "referee.h"

static Engine *engine;

static int setup(void **state)
{
    (void)state;
    engine = engine_new("default", NULL);
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    return 0;
}

static void test_dice(void **state)
{
    (void)state;
    RefereeDice a, b, c;
    referee_dice_init(&a, 7, 3, 1);
    referee_dice_init(&b, 7, 3, 1);
    referee_dice_init(&c, 7, 4, 1);
    int same = 0, differ = 0;
    for (int i = 0; i < 200; i++) {
        int x = referee_die(&a), y = referee_die(&b), z = referee_die(&c);
        assert_true(x >= 1 && x <= 6);
        assert_int_equal(x, y);
        same += x == z;
        differ += x != z;
    }
    assert_true(differ > 100); /* another pair, another stream */
    /* 60,000 throws: each face within 3 % of 10,000 (the seed is fixed,
     * so this is a fact about the generator, not a chance). */
    long count[7] = {0};
    RefereeDice d;
    referee_dice_init(&d, 1, 0, 0);
    for (int i = 0; i < 60000; i++)
        count[referee_die(&d)]++;
    for (int f = 1; f <= 6; f++)
        assert_true(count[f] > 9700 && count[f] < 10300);
    (void)same;
}

/* Plays one game of m between pa (A, in seat a_seat) and pb. */
static RefereeStatus play(Match *m, Player *pa, Player *pb, int a_seat, Record *rec,
                          RefereeGame *g, Err *err)
{
    Referee *ref = referee_new(err);
    assert_non_null(ref);
    Player *players[2] = {pa, pb};
    RefereeDice dice;
    referee_dice_init(&dice, 5, 0, record_games(rec));
    RefereeStatus st = referee_play_game(ref, m, players, a_seat, &dice, rec, g, err);
    referee_free(ref);
    return st;
}

static void test_games_agree_with_the_record(void **state)
{
    (void)state;
    Player *pa = player_random_new(engine, NULL), *pb = player_random_new(engine, NULL);
    assert_non_null(pa);
    assert_non_null(pb);
    Rules r = rules_default();
    for (int length = 0; length <= 5; length += 5) {
        Match m;
        Record rec;
        Err err = {{0}};
        assert_true(match_start(&m, &r, length, &err));
        assert_true(record_init(&rec, "A", "B", length, &r, &err));
        for (int game = 0; game < 30 && !match_over(&m); game++) {
            if (game > 0)
                assert_true(match_new_game(&m, &err));
            RefereeGame g;
            /* A keeps one seat through a match (the record scores by
             * player, the match by seat): seat 1 in the match, 0 in money. */
            int a_seat = length > 0;
            assert_int_equal(play(&m, pa, pb, a_seat, &rec, &g, &err), REFEREE_OK);
            const RecordGame *rg = record_game(&rec, game);
            assert_int_equal(rg->winner, g.winner);
            assert_int_equal(rg->points, g.points);
            assert_int_equal(g.winner, m.winner ^ a_seat);
            assert_false(g.forfeit);
            assert_true(g.turns > 0);
            if (length == 0)
                break;
        }
        if (length > 0)
            assert_true(match_over(&m));
        Buf mat;
        buf_init(&mat);
        record_mat(&rec, &mat);
        assert_non_null(strstr(mat.data, " Game 1\n"));
        buf_free(&mat);
        record_free(&rec);
    }
    player_close(pa);
    player_close(pb);
}

/* A player whose every answer is one status, or a beaver. */
static PlayerStatus fail_status;

static PlayerStatus f_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                           Move *m, bool *moved, Err *err)
{
    (void)pl, (void)cs;
    if (fail_status != PLAYER_OK) {
        err_set(err, "no answer");
        return fail_status;
    }
    /* Answers: the first legal move. */
    MoveList l;
    *moved = movegen_generate(p, d1, d2, &l) > 0;
    if (*moved)
        *m = l.moves[0];
    return PLAYER_OK;
}

static PlayerStatus f_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                           Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *out = PLAYER_DOUBLE; /* doubles whenever asked */
    return PLAYER_OK;
}

static PlayerStatus f_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                           PlayerTake *out, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *out = beavered ? PLAYER_RACCOON : PLAYER_BEAVER;
    return PLAYER_OK;
}

static PlayerStatus f_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                             bool *accept, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)level, (void)err;
    *accept = false;
    return PLAYER_OK;
}

static PlayerStatus f_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                             Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *level = 0;
    return PLAYER_OK;
}

static void f_close(Player *pl)
{
    (void)pl;
}

static const PlayerOps failing_ops = {.move = f_move, .cube = f_cube, .take = f_take,
                                      .accept = f_accept, .resign = f_resign, .close = f_close};

static void test_forfeit(void **state)
{
    (void)state;
    Player *good = player_random_new(engine, NULL);
    Player *bad = player_new(&failing_ops, NULL, "bad", "test", NULL);
    assert_non_null(good);
    assert_non_null(bad);
    Rules r = rules_default();
    for (int a_seat = 0; a_seat < 2; a_seat++) {
        fail_status = PLAYER_TIMEOUT;
        Match m;
        Record rec;
        Err err = {{0}};
        assert_true(match_start(&m, &r, 0, &err));
        assert_true(record_init(&rec, "good", "bad", 0, &r, &err));
        RefereeGame g;
        assert_int_equal(play(&m, good, bad, a_seat, &rec, &g, &err), REFEREE_OK);
        assert_true(g.forfeit);
        assert_int_equal(g.winner, 0);
        assert_int_equal(g.points, g.cube);
        assert_int_equal(g.fault.player, 1);
        assert_int_equal(g.fault.status, PLAYER_TIMEOUT);
        assert_int_equal(strlen(g.fault.gnubgid), GNUBGID_LEN);
        assert_non_null(strstr(g.fault.what, "no answer"));
        const RecordEvent *e = record_game_events(&rec, 0);
        assert_int_equal(e[record_game(&rec, 0)->events - 1].kind, REC_FORFEIT);
        Buf mat;
        buf_init(&mat);
        assert_true(record_mat_game(&rec, 0, &mat, &err));
        assert_non_null(strstr(mat.data, "Wins "));
        buf_free(&mat);
        record_free(&rec);

        /* Cancelled: the game is left unfinished. */
        fail_status = PLAYER_CANCELLED;
        assert_true(match_start(&m, &r, 0, &err));
        assert_true(record_init(&rec, "good", "bad", 0, &r, &err));
        assert_int_equal(play(&m, good, bad, a_seat, &rec, &g, &err), REFEREE_CANCELLED);
        record_free(&rec);
    }
    player_close(good);
    player_close(bad);
}

static void test_beaver_not_allowed(void **state)
{
    (void)state;
    /* The random player doubles through the engine when it is ahead; the
     * failing player beavers every double, which the default rules do not
     * allow: each stands as a take and is counted. Several games, so that
     * some double comes. */
    Player *good = player_random_new(engine, NULL);
    Player *bad = player_new(&failing_ops, NULL, "beaverer", "test", NULL);
    Rules r = rules_default();
    int as_takes = 0, takes = 0;
    fail_status = PLAYER_OK; /* it moves, and beavers */
    for (int game = 0; game < 40; game++) {
        Match m;
        Record rec;
        Err err = {{0}};
        assert_true(match_start(&m, &r, 0, &err));
        assert_true(record_init(&rec, "good", "beaverer", 0, &r, &err));
        RefereeGame g;
        Referee *ref = referee_new(&err);
        Player *players[2] = {good, bad};
        RefereeDice dice;
        referee_dice_init(&dice, 9, (uint64_t)game, 0);
        assert_int_equal(referee_play_game(ref, &m, players, game & 1, &dice, &rec, &g, &err),
                         REFEREE_OK);
        as_takes += g.counts[1].beavers_as_takes;
        takes += g.counts[1].takes;
        assert_int_equal(g.counts[1].beavers, 0);
        referee_free(ref);
        record_free(&rec);
    }
    assert_true(as_takes > 0);
    assert_int_equal(as_takes, takes);
    player_close(good);
    player_close(bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice),
        cmocka_unit_test(test_games_agree_with_the_record),
        cmocka_unit_test(test_forfeit),
        cmocka_unit_test(test_beaver_not_allowed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
