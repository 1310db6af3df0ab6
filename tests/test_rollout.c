/* test_rollout.c - one trial of a rollout (src/play/rollout.h) and its
 * sums (rollout_sums.h): a trial depends on (seed, trial) alone; played to
 * the end without variance reduction it scores a real game (the chances
 * are 0 or 1 and nest, the cubeless value is theirs); truncated after one
 * roll with variance reduction, 36 trials in a row hold each first roll
 * once and their lucks cancel exactly, so their mean is the average over
 * the 36 rolls of the engine's value after its move; a state with the
 * dice rolled, or a game over, is refused. The sums of two halves merged
 * are the sums of the whole, a sum out of range is refused, and the
 * decimal form of a sum reads back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "match.h"
#include "matchid.h"
#include "posid.h"
#include "rollout.h"
#include "rollout_sums.h"

static Engine *engine;
static EngineScratch *scratch;

static int setup(void **state)
{
    (void)state;
    engine = engine_new("default", NULL);
    scratch = engine_scratch_new(NULL);
    return engine && scratch ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_scratch_free(scratch);
    engine_free(engine);
    return 0;
}

/* A money game at the position of a Position ID, its player about to roll. */
static void money_game(const char *posid, Match *m)
{
    Position p;
    assert_true(posid_decode(posid, &p, NULL));
    MatchId id;
    matchid_init(&id);
    Rules r = rules_default();
    assert_true(match_from_ids(m, &r, &id, &p, NULL));
}

static void test_refused(void **state)
{
    (void)state;
    Match m;
    money_game("4HPwATDgc/ABMA", &m);
    RolloutOptions o = {0, 0, true, true, 1};
    RolloutGame g;
    Err err;
    assert_true(rollout_game_init(&g, engine, &m, &o, &err));
    Match rolled = m;
    assert_true(match_roll(&rolled, 3, 1, NULL));
    assert_false(rollout_game_init(&g, engine, &rolled, &o, &err));
    assert_non_null(strstr(err.text, "dice are rolled"));
    Match dropped = m;
    assert_true(match_double(&dropped, NULL) && match_drop(&dropped, NULL));
    assert_false(rollout_game_init(&g, engine, &dropped, &o, &err));
    RolloutOptions bad = {0, -1, true, true, 1};
    assert_false(rollout_game_init(&g, engine, &m, &bad, &err));
}

static void test_real_games(void **state)
{
    (void)state;
    Match m;
    money_game("4HPwATDgc/ABMA", &m);
    RolloutOptions o = {0, 0, false, false, 5};
    RolloutGame g;
    assert_true(rollout_game_init(&g, engine, &m, &o, NULL));
    int wins = 0;
    for (int t = 0; t < 20; t++) {
        double v[ROLLOUT_VALUES], again[ROLLOUT_VALUES];
        Err err;
        assert_true(rollout_trial(&g, scratch, t, v, &err));
        assert_true(rollout_trial(&g, scratch, t, again, &err));
        assert_memory_equal(v, again, sizeof v);
        for (int k = 0; k < 5; k++)
            assert_true(v[k] == 0.0 || v[k] == 1.0);
        assert_true(v[ROLLOUT_WIN] >= v[ROLLOUT_WIN_GAMMON]);
        assert_true(v[ROLLOUT_WIN_GAMMON] >= v[ROLLOUT_WIN_BG]);
        assert_true(1 - v[ROLLOUT_WIN] >= v[ROLLOUT_LOSE_GAMMON]);
        assert_true(v[ROLLOUT_LOSE_GAMMON] >= v[ROLLOUT_LOSE_BG]);
        double eq = 2 * v[0] - 1 + v[1] + v[2] - v[3] - v[4];
        assert_true(eq - v[ROLLOUT_CUBELESS] < 1e-12 && v[ROLLOUT_CUBELESS] - eq < 1e-12);
        assert_true(v[ROLLOUT_CUBEFUL] == 0.0);
        wins += v[ROLLOUT_WIN] == 1.0;
    }
    assert_true(wins > 3 && wins < 17);
}

/* The root's chance to win after the engine's move for d1-d2, the other
 * side then about to roll, valued at 0 plies. */
static double win_after(const Match *m, int d1, int d2)
{
    CubeState cs;
    Position p;
    int seat = match_cube_state(m, &cs);
    match_position_of(m, seat, &p);
    Move best;
    Position next = p;
    if (engine_move(engine, scratch, &p, d1, d2, &cs, 0, &best, NULL) == ENGINE_OK)
        next = best.result;
    pos_swap(&next);
    cubestate_swap(&cs);
    EvalOptions o = {0, false};
    Evaluation ev;
    assert_int_equal(engine_evaluate(engine, scratch, &next, &cs, &o, &ev, NULL), ENGINE_OK);
    return 1.0 - ev.p_win;
}

static void test_luck_cancels(void **state)
{
    (void)state;
    const char *positions[] = {"4HPwATDgc/ABMA", "1AAAACsAAAAAAA"};
    for (int i = 0; i < 2; i++) {
        Match m;
        money_game(positions[i], &m);
        RolloutOptions o = {0, 1, false, true, 3};
        RolloutGame g;
        assert_true(rollout_game_init(&g, engine, &m, &o, NULL));
        double exact = 0, rolled = 0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = 1; d2 <= 6; d2++)
                exact += win_after(&m, d1, d2) / 36;
        /* Trials 36 .. 71: any block of 36 holds each first roll once. */
        for (int t = 36; t < 72; t++) {
            double v[ROLLOUT_VALUES];
            assert_true(rollout_trial(&g, scratch, t, v, NULL));
            rolled += v[ROLLOUT_WIN] / 36;
        }
        assert_true(rolled - exact < 1e-9 && exact - rolled < 1e-9);
    }
}

static void test_sums(void **state)
{
    (void)state;
    RolloutSums whole, a, b;
    rollout_sums_init(&whole);
    rollout_sums_init(&a);
    rollout_sums_init(&b);
    for (int t = 0; t < 10; t++) {
        double v[ROLLOUT_VALUES];
        for (int k = 0; k < ROLLOUT_VALUES; k++)
            v[k] = (t * 7 % 5) * 0.3 - 0.5 + k * 1e-10;
        rollout_sums_add(&whole, v);
        rollout_sums_add(t % 3 ? &a : &b, v);
    }
    Err err;
    assert_true(rollout_sums_merge(&b, &a, &err));
    assert_memory_equal(&b, &whole, sizeof b);
    assert_int_equal(whole.trials, 10);
    double mean = rollout_sums_mean(&whole, 0);
    assert_true(mean > -0.5 && mean < 0.8 && rollout_sums_se(&whole, 0) > 0);
    char text[ROLLOUT_WIDE_TEXT];
    RolloutWide x, big = 1;
    for (int i = 0; i < ROLLOUT_WIDE_DIGITS; i++)
        big *= 10;
    big -= 1;
    RolloutWide cases[] = {0, 1, -1, 1234567890123, -987654321, big, -big};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_true(rollout_wide_read(rollout_wide_text(cases[i], text), &x, &err));
        assert_true(x == cases[i]);
    }
    assert_string_equal(rollout_wide_text(-big, text), "-99999999999999999999999999999999999999");
    const char *bad[] = {"", "-", "01", "-0", "1a", "+1", " 1",
                         "100000000000000000000000000000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(rollout_wide_read(bad[i], &x, &err));
    RolloutSums full;
    rollout_sums_init(&full);
    full.sum[0] = big;
    full.trials = 1;
    RolloutSums one = full;
    one.sum[0] = 1;
    RolloutSums before = full;
    assert_false(rollout_sums_merge(&full, &one, &err));
    assert_memory_equal(&full, &before, sizeof full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_real_games),
        cmocka_unit_test(test_luck_cancels),
        cmocka_unit_test(test_sums),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
