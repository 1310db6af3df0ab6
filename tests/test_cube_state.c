/* test_cube_state.c - the rules of the cube, asked of a CubeState: who may
 * double (centred, owner, no cube, Crawford, post-Crawford, Holland, max
 * cube, dead cube), beavers and raccoons, automatic doubles, the stake of a
 * game and what it scores (Jacoby, backgammons off, star mars); the
 * CubeState a Match gives each decision; and the engine honouring every
 * reason the rules give not to double or beaver, on its own and on the
 * states of random matches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cube_state.h"
#include "cubes.h"
#include "engine.h"
#include "match.h"
#include "ok.h"

#define ROLLER SIDE_ROLLER
#define OPP SIDE_OPPONENT

/* --- doubling ------------------------------------------------------------ */

static void test_centred_and_owned(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    assert_true(cubestate_may_double(&cs, ROLLER));
    assert_true(cubestate_may_double(&cs, OPP));
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), 0);
    /* The owner may redouble; the other side may not. */
    cs.cube = 2;
    cs.owner = ROLLER;
    assert_true(cubestate_may_double(&cs, ROLLER));
    assert_int_equal(cubestate_double_bars(&cs, OPP), CUBE_BAR_OWNER);
    cs.owner = OPP;
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_OWNER);
    assert_false(cubestate_access(&cs, ROLLER));
    assert_true(cubestate_access(&cs, OPP));
    /* No cube at all. */
    cs = cubes_money();
    cs.cube_in_use = false;
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_NO_CUBE);
    assert_false(cubestate_access(&cs, OPP));
}

static void test_max_cube(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    cs.owner = ROLLER;
    cs.cube = 32;
    assert_true(cubestate_may_double(&cs, ROLLER));
    cs.cube = 64;
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_MAX);
    assert_false(cubestate_access(&cs, ROLLER));
    cs = cubes_money();
    cs.max_cube = 1;
    assert_int_equal(cubestate_double_bars(&cs, OPP), CUBE_BAR_MAX);
    assert_true(cubestate_fits(&cs, 1));
    assert_false(cubestate_fits(&cs, 2));
}

static void test_crawford(void **state)
{
    (void)state;
    /* 5-point match, 4-2, the Crawford game: nobody doubles. */
    CubeState cs = cubes_match(5, 4, 2);
    cs.crawford = true;
    assert_true(cubestate_double_bars(&cs, ROLLER) & CUBE_BAR_CRAWFORD);
    assert_int_equal(cubestate_double_bars(&cs, OPP), CUBE_BAR_CRAWFORD);
    assert_false(cubestate_access(&cs, OPP));
    /* Post-Crawford at 4-2: the trailer may double at once, the leader's
     * cube is dead (he wins the match by winning the game). */
    cs.crawford = false;
    cs.post_crawford = true;
    assert_true(cubestate_may_double(&cs, OPP));
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_DEAD);
    assert_true(cubestate_access(&cs, ROLLER)); /* the cube is his, but dead */
}

static void test_dead_cube(void **state)
{
    (void)state;
    /* 3-point match at 1-1: the owner of a 2-cube needs 2. */
    CubeState cs = cubes_match(3, 1, 1);
    cs.cube = 2;
    cs.owner = ROLLER;
    assert_true(cubestate_dead(&cs, ROLLER));
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_DEAD);
    /* 5-point match: 3 + 2 reaches 5, 2 + 2 does not. */
    cs = cubes_match(5, 3, 2);
    cs.cube = 2;
    assert_true(cubestate_dead(&cs, ROLLER));
    assert_false(cubestate_dead(&cs, OPP));
    /* A 1-point match: nobody can ever double. */
    cs = cubes_match(1, 0, 0);
    assert_true(cubestate_dead(&cs, ROLLER) && cubestate_dead(&cs, OPP));
    /* Money play has no dead cube. */
    cs = cubes_money();
    cs.cube = 32;
    assert_false(cubestate_dead(&cs, ROLLER));
    assert_false(cubestate_dead(&cs, 2)); /* no such side */
}

static void test_holland(void **state)
{
    (void)state;
    /* 5-point match, 4-1, post-Crawford, Holland: the trailer (side 1 at 1)
     * may double only from his third turn. */
    CubeState cs = cubes_match(5, 1, 4);
    cs.post_crawford = true;
    cs.holland = true;
    for (int turns = 0; turns < 2; turns++) {
        cs.turns[ROLLER] = turns;
        assert_true(cubestate_holland_bars(&cs, ROLLER));
        assert_int_equal(cubestate_double_bars(&cs, ROLLER), CUBE_BAR_HOLLAND);
        assert_true(cubestate_access(&cs, ROLLER)); /* access, but not now */
    }
    cs.turns[ROLLER] = 2;
    assert_true(cubestate_may_double(&cs, ROLLER));
    /* The leader is not the trailer: his cube is dead, Holland or not. */
    cs.turns[OPP] = 0;
    assert_false(cubestate_holland_bars(&cs, OPP));
    assert_int_equal(cubestate_double_bars(&cs, OPP), CUBE_BAR_DEAD);
    /* Not post-Crawford, the rule off, or money: no restriction. */
    cs.turns[ROLLER] = 0;
    cs.post_crawford = false;
    assert_false(cubestate_holland_bars(&cs, ROLLER));
    cs.post_crawford = true;
    cs.holland = false;
    assert_true(cubestate_may_double(&cs, ROLLER));
    cs = cubes_money();
    cs.holland = cs.post_crawford = true;
    assert_true(cubestate_may_double(&cs, ROLLER));
}

/* Every reason at once, each its own bit. */
static void test_every_bar(void **state)
{
    (void)state;
    CubeState cs = cubes_match(5, 3, 4);
    cs.cube_in_use = false;
    cs.crawford = cs.post_crawford = cs.holland = true;
    cs.cube = 64;
    cs.owner = OPP;
    unsigned all = CUBE_BAR_NO_CUBE | CUBE_BAR_CRAWFORD | CUBE_BAR_OWNER | CUBE_BAR_MAX |
                   CUBE_BAR_DEAD | CUBE_BAR_HOLLAND;
    assert_int_equal(cubestate_double_bars(&cs, ROLLER), all);
}

/* --- beavers and raccoons ------------------------------------------------ */

static void test_beavers(void **state)
{
    (void)state;
    /* Side 1 doubled a centred 1-cube; side 0 answers. */
    CubeState cs = cubes_money();
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_NO_BEAVERS);
    cs.beavers = 1;
    assert_true(cubestate_may_beaver(&cs));
    assert_string_equal(cubestate_animal_name(&cs), "beaver");
    /* One beaver made: the doubler may not raccoon with one allowed... */
    cs.animals = 1;
    cs.cube = 2;
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_ANIMALS);
    assert_string_equal(cubestate_animal_name(&cs), "raccoon");
    /* ...and may with two or more; a third animal needs three. */
    cs.beavers = 2;
    assert_true(cubestate_may_beaver(&cs));
    cs.animals = 2;
    cs.cube = 4;
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_ANIMALS);
    cs.beavers = 3;
    assert_true(cubestate_may_beaver(&cs));
    /* The take after a beaver doubles twice: 16 x 4 fits 64, 32 x 4 not. */
    cs = cubes_money();
    cs.beavers = 1;
    cs.cube = 16;
    assert_true(cubestate_may_beaver(&cs));
    cs.cube = 32;
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_MAX);
    /* Never in a match. */
    cs = cubes_match(7, 0, 0);
    cs.beavers = 1;
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_MATCH);
}

static void test_auto_doubles(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    assert_true(cubestate_may_auto_double(&cs, 2, 0));
    cs.cube = 2;
    assert_true(cubestate_may_auto_double(&cs, 2, 1));
    cs.cube = 4;
    assert_false(cubestate_may_auto_double(&cs, 2, 2)); /* as many as agreed */
    assert_false(cubestate_may_auto_double(&cs, 0, 0)); /* none agreed */
    cs.max_cube = 4;
    assert_false(cubestate_may_auto_double(&cs, 3, 2)); /* at the maximum */
    cs = cubes_match(7, 0, 0);
    assert_false(cubestate_may_auto_double(&cs, 2, 0)); /* no match has them */
    cs = cubes_money();
    cs.cube_in_use = false;
    assert_false(cubestate_may_auto_double(&cs, 2, 0));
}

/* --- what a game scores --------------------------------------------------- */

static int points(const Rules *r, const CubeState *cs, ScoreKind kind)
{
    GameStake s = cubestate_stake(cs);
    return score_points(r, &s, kind);
}

static void test_jacoby(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.jacoby = true;
    CubeState cs = cubes_money();
    cs.jacoby = true;
    /* Centred: gammons and backgammons void, for the engine and the score. */
    assert_true(cubestate_gammons_void(&cs));
    assert_int_equal(points(&r, &cs, SCORE_GAMMON), 1);
    assert_int_equal(points(&r, &cs, SCORE_BACKGAMMON), 1);
    /* An automatic double leaves the cube centred: a gammon is 1 x 2. */
    cs.cube = 2;
    assert_int_equal(points(&r, &cs, SCORE_GAMMON), 2);
    /* Turned: a gammon counts, 2 x 2. */
    cs.owner = OPP;
    assert_false(cubestate_gammons_void(&cs));
    assert_int_equal(points(&r, &cs, SCORE_GAMMON), 4);
    /* A match ignores Jacoby; so does cubeless play. */
    cs = cubes_match(5, 0, 0);
    cs.jacoby = true;
    assert_false(cubestate_gammons_void(&cs));
    assert_int_equal(points(&r, &cs, SCORE_GAMMON), 2);
    cs = cubes_money();
    cs.jacoby = true;
    cs.cube_in_use = false;
    assert_false(cubestate_gammons_void(&cs));
    cs.jacoby = false;
    cs.cube_in_use = true;
    assert_false(cubestate_gammons_void(&cs));
}

static void test_backgammons_and_star_mars(void **state)
{
    (void)state;
    Rules r = rules_default();
    CubeState cs = cubes_money();
    cs.cube = 2;
    cs.owner = ROLLER;
    assert_int_equal(points(&r, &cs, SCORE_SINGLE), 2);
    assert_int_equal(points(&r, &cs, SCORE_BACKGAMMON), 6);
    assert_int_equal(points(&r, &cs, SCORE_STAR_MARS), 6); /* star mars off */
    r.backgammons = false;
    assert_int_equal(points(&r, &cs, SCORE_BACKGAMMON), 4);
    assert_int_equal(points(&r, &cs, SCORE_STAR_MARS), 4);
    r.star_mars = true;
    assert_int_equal(points(&r, &cs, SCORE_STAR_MARS), 8);
    r.backgammons = true;
    assert_int_equal(points(&r, &cs, SCORE_STAR_MARS), 8);
    assert_int_equal(points(&r, &cs, SCORE_NONE), 0);

    /* The kind itself: the winner (side 1) has borne off everything; the
     * loser has nothing off, one checker on the bar and one in the winner's
     * home board (his own 19-point). */
    Position p;
    memset(&p, 0, sizeof p);
    p.side[OPP][5] = 13;
    p.side[OPP][POS_BAR] = 1;
    p.side[OPP][18] = 1;
    assert_int_equal(score_kind(&p, ROLLER), SCORE_STAR_MARS);
    p.side[OPP][POS_BAR] = 0;
    p.side[OPP][5] = 14;
    assert_int_equal(score_kind(&p, ROLLER), SCORE_BACKGAMMON);
    assert_int_equal(score_kind(&p, OPP), SCORE_NONE);
}

static void test_valid(void **state)
{
    (void)state;
    Err err = {{0}};
    CubeState cs = cubes_money();
    assert_true(cubestate_valid(&cs, &err));
    cs.cube = 3;
    assert_false(cubestate_valid(&cs, &err));
    cs = cubes_money();
    cs.owner = 2;
    assert_false(cubestate_valid(&cs, &err));
    cs = cubes_match(5, 5, 0);
    assert_false(cubestate_valid(&cs, &err));
    assert_non_null(strstr(err.text, "score 5"));
    cs = cubes_money();
    cs.animals = -1;
    assert_false(cubestate_valid(&cs, &err));
    cs = cubes_money();
    cs.turns[OPP] = -1;
    assert_false(cubestate_valid(&cs, &err));
}

/* --- the CubeState of a Match ------------------------------------------- */

static MoveList moves; /* too big for a stack frame */

static void test_match_views(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.beavers = 2;
    r.jacoby = true;
    Match m;
    CubeState cs;
    OK(match_start(&m, &r, 0, &e_));
    assert_int_equal(match_cube_state(&m, &cs), -1); /* opening roll pending */
    OK(match_opening_roll(&m, 5, 2, &e_));           /* player 0 plays 5-2 */
    assert_int_equal(match_cube_state(&m, &cs), 0);
    assert_true(cs.jacoby);
    assert_int_equal(cs.beavers, 2);
    assert_int_equal(cs.turns[ROLLER], 0);
    assert_int_equal(match_legal_moves(&m, &moves), m.legal_moves);
    OK(match_move(&m, &moves.moves[0].result, &e_));
    /* Player 1 is about to roll, the cube centred; player 0 has 3 points. */
    m.score[0] = 3;
    assert_int_equal(match_cube_state(&m, &cs), 1);
    assert_int_equal(cs.turns[OPP], 1);
    assert_int_equal(cs.score[OPP], 3);
    assert_int_equal(cs.score[ROLLER], 0);
    assert_true(cubestate_may_double(&cs, ROLLER));
    /* Player 1 doubles: side 1 is still the doubler, player 0 answers. */
    OK(match_double(&m, &e_));
    assert_int_equal(match_cube_state(&m, &cs), 1);
    assert_int_equal(cs.owner, -1);
    assert_int_equal(cs.animals, 0);
    assert_true(cubestate_may_beaver(&cs));
    /* Player 0 beavers: now he offers (side 1), holding the 2-cube. */
    OK(match_beaver(&m, &e_));
    assert_int_equal(match_cube_state(&m, &cs), 0);
    assert_int_equal(cs.cube, 2);
    assert_int_equal(cs.owner, ROLLER);
    assert_int_equal(cs.animals, 1);
    assert_int_equal(cs.score[ROLLER], 3);
    assert_true(cubestate_may_beaver(&cs)); /* a raccoon: two allowed */
    OK(match_beaver(&m, &e_));
    assert_int_equal(match_cube_state(&m, &cs), 1);
    assert_int_equal(cs.owner, ROLLER);
    assert_int_equal(cs.cube, 4);
    assert_int_equal(cubestate_beaver_bars(&cs), CUBE_BAR_ANIMALS);
    OK(match_take(&m, &e_));
    /* A resignation offered by player 1: player 0 answers it as side 1. */
    OK(match_resign(&m, 1, &e_));
    assert_int_equal(match_cube_state(&m, &cs), 0);
    assert_int_equal(cs.owner, OPP); /* the raccooner kept the 8-cube */
    assert_int_equal(cs.cube, 8);
    /* The board as that seat sees it: his checkers on side 1. */
    Position seen, board = m.board;
    match_position_of(&m, 1, &seen);
    assert_true(pos_equal(&seen, &board));
    match_position_of(&m, 0, &seen);
    pos_swap(&board);
    assert_true(pos_equal(&seen, &board));

    /* Match play: the Holland rule and the turns it counts. */
    r = rules_default();
    r.holland = true;
    OK(match_start(&m, &r, 5, &e_));
    m.score[0] = 4;
    m.score[1] = 1;
    m.post_crawford = true;
    OK(match_opening_roll(&m, 1, 2, &e_));
    assert_int_equal(match_cube_state(&m, &cs), 1);
    assert_true(cs.holland);
    assert_false(cs.jacoby);
    assert_int_equal(cs.beavers, 0);
    assert_true(cs.post_crawford);
    assert_true(cubestate_holland_bars(&cs, ROLLER));
    assert_true(match_cube_dead(&m, 0));
    assert_false(match_cube_dead(&m, 1));
    assert_false(match_cube_dead(&m, 2));
}

/* --- the engine honours the rules ----------------------------------------- */

static Engine *engine;

static int setup(void **state)
{
    (void)state;
    Err err = {{0}};
    engine = engine_new("default", &err);
    return engine ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    return 0;
}

/* After the Crawford game the trailer doubles at once (the leader's cube
 * is dead, test_engine.c): from that double, every reason the rules give
 * makes the engine roll instead, and only those. */
/* The engine's 0-ply answers, which must not fail. */
static CubeDecision double_answer(const Engine *e, const Position *p, const CubeState *cs)
{
    CubeDecision d;
    assert_int_equal(engine_double(e, NULL, p, cs, 0, &d, NULL), ENGINE_OK);
    return d;
}

static TakeDecision take_answer(const Engine *e, const Position *p, const CubeState *cs)
{
    TakeDecision t;
    assert_int_equal(engine_take(e, NULL, p, cs, 0, &t, NULL), ENGINE_OK);
    return t;
}

static void test_engine_double(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    CubeState base = cubes_match(7, 3, 6);
    base.post_crawford = true;
    assert_int_equal(double_answer(engine, &p, &base), CUBE_DOUBLE);
    CubeState barred[8];
    int n = 0;
    barred[n] = base, barred[n++].cube_in_use = false;
    barred[n] = base, barred[n].crawford = true, barred[n++].post_crawford = false;
    barred[n] = base, barred[n].cube = 2, barred[n++].owner = OPP;
    barred[n] = base, barred[n++].max_cube = 1;
    barred[n] = base, barred[n].cube = 4, barred[n++].owner = ROLLER; /* 3 + 4 >= 7 */
    barred[n] = base, barred[n].holland = true, barred[n++].turns[ROLLER] = 1;
    for (int i = 0; i < n; i++) {
        assert_false(cubestate_may_double(&barred[i], ROLLER));
        if (double_answer(engine, &p, &barred[i]) != CUBE_ROLL)
            fail_msg("state %d: the engine doubles, bars 0x%x", i,
                     cubestate_double_bars(&barred[i], ROLLER));
    }
    /* Holland from the third turn: the double is back. */
    CubeState later = base;
    later.holland = true;
    later.turns[ROLLER] = 2;
    assert_true(cubestate_may_double(&later, ROLLER));
    assert_int_equal(double_answer(engine, &p, &later), CUBE_DOUBLE);
}

/* A double in the opening position is a beaver (test_engine.c): only where
 * the rules allow one. */
static void test_engine_beaver(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    cs.beavers = 1;
    assert_int_equal(take_answer(engine, &p, &cs), TAKE_BEAVER);
    cs.animals = 1; /* the double is a beaver already: no raccoon with 1 */
    assert_false(cubestate_may_beaver(&cs));
    assert_int_equal(take_answer(engine, &p, &cs), TAKE_TAKE);
    cs.beavers = 2; /* a raccoon allowed */
    assert_int_equal(take_answer(engine, &p, &cs), TAKE_BEAVER);
    cs.cube = 32; /* the take would pass 64 */
    assert_int_equal(take_answer(engine, &p, &cs), TAKE_TAKE);
    cs = cubes_match(7, 0, 0);
    cs.beavers = 1;
    assert_int_equal(take_answer(engine, &p, &cs), TAKE_TAKE);
}

static unsigned lcg(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 16;
}

/* A random legal action of m: moves, rolls and cube actions mostly, so that
 * games run long enough for Holland's third turn and beaver chains. */
static void random_step(Match *m, unsigned *seed)
{
    unsigned acts = match_actions(m), list[16];
    int n = 0;
    for (unsigned a = 1; a <= ACT_NEW_GAME; a <<= 1)
        if ((acts & a) && a != ACT_RESIGN && a != ACT_ACCEPT && a != ACT_REJECT)
            list[n++] = a;
    assert_true(n > 0);
    unsigned a = list[lcg(seed) % (unsigned)n];
    if (a == ACT_DROP && lcg(seed) % 4)
        a = ACT_TAKE; /* keep games going */
    int d1 = 1 + (int)(lcg(seed) % 6), d2 = 1 + (int)(lcg(seed) % 6);
    switch (a) {
    case ACT_OPENING_ROLL: OK(match_opening_roll(m, d1, d2, &e_)); break;
    case ACT_ROLL: OK(match_roll(m, d1, d2, &e_)); break;
    case ACT_DOUBLE: OK(match_double(m, &e_)); break;
    case ACT_TAKE: OK(match_take(m, &e_)); break;
    case ACT_DROP: OK(match_drop(m, &e_)); break;
    case ACT_BEAVER: OK(match_beaver(m, &e_)); break;
    case ACT_PASS: OK(match_pass(m, &e_)); break;
    case ACT_NEW_GAME: OK(match_new_game(m, &e_)); break;
    default:
        assert_int_equal(match_legal_moves(m, &moves), m->legal_moves);
        OK(match_move(m, &moves.moves[lcg(seed) % (unsigned)moves.count].result, &e_));
    }
}

/* The referee's way: the match machine gives the CubeState and the board of
 * the decision, the engine answers. It never doubles where the machine
 * refuses a double, nor beavers where it refuses a beaver. */
static void test_engine_in_matches(void **state)
{
    (void)state;
    static const struct {
        int length;
        bool holland;
        int beavers, max_cube, leader; /* leader: starts post-Crawford at 1-away */
    } setups[] = {{5, true, 0, 64, 1}, {3, false, 0, 64, 0}, {0, false, 3, 64, 0},
                  {0, false, 1, 8, 0},  {7, true, 0, 4, 0},  {9, true, 0, 64, 1}};
    unsigned seed = 7;
    long asked = 0, refused = 0, holland = 0, doubles = 0, beavers = 0;
    for (size_t k = 0; k < sizeof setups / sizeof setups[0]; k++) {
        Rules r = rules_default();
        r.holland = setups[k].holland;
        r.beavers = setups[k].beavers;
        r.max_cube = setups[k].max_cube;
        Match m;
        OK(match_start(&m, &r, setups[k].length, &e_));
        if (setups[k].leader) {
            m.score[0] = m.length - 1;
            m.post_crawford = true;
        }
        for (int step = 0; step < 1500 && !match_over(&m); step++) {
            unsigned acts = match_actions(&m);
            CubeState cs;
            int seat = match_cube_state(&m, &cs);
            Position p;
            if (seat >= 0 && !m.dice[0] && !m.doubled && !m.resigned) {
                match_position_of(&m, seat, &p);
                CubeDecision d = double_answer(engine, &p, &cs);
                if (!(acts & ACT_DOUBLE)) {
                    refused++;
                    holland += (cubestate_double_bars(&cs, ROLLER) & CUBE_BAR_HOLLAND) != 0;
                    assert_int_equal(d, CUBE_ROLL);
                }
                doubles += d == CUBE_DOUBLE;
                asked++;
            } else if (seat >= 0 && m.doubled) {
                match_position_of(&m, seat, &p);
                TakeDecision t = take_answer(engine, &p, &cs);
                if (!(acts & ACT_BEAVER))
                    assert_int_not_equal(t, TAKE_BEAVER);
                beavers += t == TAKE_BEAVER;
                asked++;
            }
            random_step(&m, &seed);
        }
    }
    print_message("engine in matches: %ld decisions, %ld doubles refused (%ld by Holland); "
                  "the engine doubled %ld times, beavered %ld\n",
                  asked, refused, holland, doubles, beavers);
    assert_true(refused > 50 && holland > 0 && doubles > 0 && beavers > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_centred_and_owned),
        cmocka_unit_test(test_max_cube),
        cmocka_unit_test(test_crawford),
        cmocka_unit_test(test_dead_cube),
        cmocka_unit_test(test_holland),
        cmocka_unit_test(test_every_bar),
        cmocka_unit_test(test_beavers),
        cmocka_unit_test(test_auto_doubles),
        cmocka_unit_test(test_jacoby),
        cmocka_unit_test(test_backgammons_and_star_mars),
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_match_views),
        cmocka_unit_test(test_engine_double),
        cmocka_unit_test(test_engine_beaver),
        cmocka_unit_test(test_engine_in_matches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
