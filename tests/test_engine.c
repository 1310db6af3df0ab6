/* test_engine.c - the engine behind engine.h: every chosen move is legal
 * (gnubg's own lists of legal moves), evaluations are consistent, the
 * obvious cube and resignation decisions come out right, two threads
 * sharing one engine get the answers one thread gets, and a reused scratch
 * answers as a fresh one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "cubes.h"
#include "engine.h"
#include "posid.h"
#include "tsv.h"

/* cmocka compares floats in single precision: this one keeps doubles. */
static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.12g != %.12g (within %g)", line, a, b, eps);
}
#define assert_near(a, b, eps) near((a), (b), (eps), __LINE__)

#define VECTORS "positions/gnubg-1.07/moves.tsv.gz"

#define ENGINES 2
static Engine *engines[ENGINES]; /* default, calibrated */
static const char *const engine_names[ENGINES] = {"default", "calibrated"};

static int setup(void **state)
{
    (void)state;
    for (int i = 0; i < ENGINES; i++) {
        Err err = {{0}};
        engines[i] = engine_new(engine_names[i], &err);
        if (!engines[i]) {
            fprintf(stderr, "engine_new(%s): %s\n", engine_names[i], err.text);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < ENGINES; i++)
        engine_free(engines[i]);
    return 0;
}


/* The decisions with a scratch made for each call (engine.h allows NULL),
 * as plain values: every call here must succeed. The threads test and the
 * scratch test below pass scratch of their own. */
static bool mv(const Engine *e, const Position *p, int d1, int d2, const CubeState *cs,
               int plies, Move *m)
{
    EngineResult r = engine_move(e, NULL, p, d1, d2, cs, plies, m, NULL);
    assert_true(r == ENGINE_OK || r == ENGINE_NO_MOVE);
    return r == ENGINE_OK;
}

static CubeDecision dbl(const Engine *e, const Position *p, const CubeState *cs, int plies)
{
    CubeDecision d;
    assert_int_equal(engine_double(e, NULL, p, cs, plies, &d, NULL), ENGINE_OK);
    return d;
}

static TakeDecision tk(const Engine *e, const Position *p, const CubeState *cs, int plies)
{
    TakeDecision d;
    assert_int_equal(engine_take(e, NULL, p, cs, plies, &d, NULL), ENGINE_OK);
    return d;
}

static bool acc(const Engine *e, const Position *p, const CubeState *cs, int level, int plies)
{
    bool yes;
    assert_int_equal(engine_accept_resignation(e, NULL, p, cs, level, plies, &yes, NULL),
                     ENGINE_OK);
    return yes;
}

static void evl(const Engine *e, const Position *p, const CubeState *cs, const EvalOptions *opt,
                Evaluation *out)
{
    assert_int_equal(engine_evaluate(e, NULL, p, cs, opt, out, NULL), ENGINE_OK);
}

/* Positions as lists of (index, count) for each side. */
static Position make(const int roller[][2], int nr, const int opp[][2], int no)
{
    Position p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < nr; i++)
        p.side[SIDE_ROLLER][roller[i][0]] = (uint8_t)roller[i][1];
    for (int i = 0; i < no; i++)
        p.side[SIDE_OPPONENT][opp[i][0]] = (uint8_t)opp[i][1];
    return p;
}

/* Roller 42 pips (two on each home point, 3 off) against 71 (14 checkers,
 * one off): a sure win with no gammon either way. */
static Position race_lead(void)
{
    static const int r[][2] = {{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}};
    static const int o[][2] = {{5, 5}, {4, 5}, {3, 4}};
    return make(r, 6, o, 3);
}

/* Roller about to bear off 22 pips; the other side has all 15 on his
 * 13-point: a gammon is certain, a backgammon impossible. */
static Position gammon_lead(void)
{
    static const int r[][2] = {{0, 8}, {1, 7}};
    static const int o[][2] = {{12, 15}};
    return make(r, 2, o, 1);
}

/* ---- moves ---- */

/* Every row of gnubg's vectors: the engine moves exactly when gnubg lists a
 * move, and its result is one of gnubg's results. */
static void check_vectors(const Engine *e, int plies, int every)
{
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    CubeState cs = cubes_money();
    int rows = 0, moved = 0;
    while (tsv_next(r)) {
        if (r->lineno % every)
            continue;
        Position p;
        Err err = {{0}};
        if (!posid_decode(r->field[0], &p, &err))
            fail_msg("line %d: %s", r->lineno, err.text);
        int d1 = r->field[1][0] - '0', d2 = r->field[1][1] - '0';
        int count = atoi(r->field[2]);
        Move m;
        bool found = mv(e, &p, d1, d2, &cs, plies, &m);
        rows++;
        if (count == 0) {
            if (found)
                fail_msg("line %d: a move with no legal move", r->lineno);
            continue;
        }
        if (!found)
            fail_msg("line %d: no move chosen among %d", r->lineno, count);
        char id[POSID_LEN + 1];
        posid_encode(&m.result, id);
        char key[POSID_LEN + 2];
        snprintf(key, sizeof key, "%s=", id);
        if (!strstr(r->field[3], key))
            fail_msg("line %d: result %s is not one of gnubg's", r->lineno, id);
        moved++;
    }
    tsv_close(r);
    free(r);
    print_message("%s %d-ply: %d rows, %d moves checked\n", engine_id(e), plies, rows, moved);
    assert_true(rows > 0);
}

static void test_moves_legal_0ply(void **state)
{
    (void)state;
    for (int i = 0; i < ENGINES; i++)
        check_vectors(engines[i], 0, 1);
}

static void test_moves_legal_1ply(void **state)
{
    (void)state;
    check_vectors(engines[0], 1, 7);
}

static void test_moves_legal_2ply(void **state)
{
    (void)state;
    check_vectors(engines[0], 2, 331);
}

/* engine_hint_moves ranks every legal move, the engine's own choice first,
 * at 0, 1 and 2 plies, on rows of gnubg's vectors, with the cube (by the
 * cubeful equity after each move) and without it (by the cubeless one):
 * no move valued at the first's depth is better by that measure; the
 * chances hold together and the ranked list is the legal moves, each
 * once. */
static void test_hint_first_is_the_move(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    EngineCandidate *c = malloc(MOVES_MAX * sizeof *c);
    assert_non_null(r);
    assert_non_null(c);
    assert_true(tsv_open(r, VECTORS));
    CubeState states[2] = {cubes_money(), cubes_money()};
    states[1].cube_in_use = false;
    int checked = 0;
    while (tsv_next(r)) {
        if (r->lineno % 97)
            continue;
        Position p;
        assert_true(posid_decode(r->field[0], &p, NULL));
        int d1 = r->field[1][0] - '0', d2 = r->field[1][1] - '0';
        const CubeState cs = states[r->lineno % 2];
        for (int plies = 0; plies <= (r->lineno % 3 == 0 ? 2 : 1); plies++) {
            Move m;
            int n;
            bool found = engine_move(engines[0], NULL, &p, d1, d2, &cs, plies, &m, NULL) ==
                         ENGINE_OK;
            assert_int_equal(engine_hint_moves(engines[0], NULL, &p, d1, d2, &cs, plies, c,
                                               MOVES_MAX, &n, NULL),
                             ENGINE_OK);
            assert_int_equal(n, atoi(r->field[2]));
            if (!found) {
                assert_int_equal(n, 0);
                continue;
            }
            assert_memory_equal(&c[0].move.result, &m.result, sizeof m.result);
            for (int i = 0; i < n; i++) {
                const Evaluation *e = &c[i].ev;
                if (c[i].plies == c[0].plies)
                    assert_true(cs.cube_in_use ? c[i].cubeful <= c[0].cubeful + 1e-12
                                               : e->equity <= c[0].ev.equity + 1e-9);
                assert_true(e->p_win >= e->p_win_gammon - 1e-9);
                assert_true(e->p_win_gammon >= e->p_win_bg - 1e-9);
                assert_true(1 - e->p_win >= e->p_lose_gammon - 1e-9);
                assert_true(c[i].plies >= 0 && c[i].plies <= plies);
                for (int k = 0; k < i; k++)
                    assert_memory_not_equal(&c[k].move.result, &c[i].move.result,
                                            sizeof m.result);
            }
            checked++;
        }
    }
    tsv_close(r);
    free(r);
    free(c);
    print_message("hint: %d positions and depths checked\n", checked);
    assert_true(checked > 50);
}

static void test_no_move_and_bad_dice(void **state)
{
    (void)state;
    /* Roller on the bar against a closed board: nothing to play. */
    static const int r[][2] = {{POS_BAR, 1}, {5, 14}};
    static const int o[][2] = {{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {10, 3}};
    Position p = make(r, 2, o, 7);
    CubeState cs = cubes_money();
    Move m;
    memset(&m, 0x5a, sizeof m);
    Move before = m;
    assert_false(mv(engines[0], &p, 3, 5, &cs, 2, &m));
    assert_memory_equal(&m, &before, sizeof m);
    /* "No legal move" is an answer, with the caller's scratch too. */
    Err err = {{0}};
    EngineScratch *sc = engine_scratch_new(&err);
    assert_non_null(sc);
    assert_int_equal(engine_move(engines[0], sc, &p, 3, 5, &cs, 1, &m, &err), ENGINE_NO_MOVE);
    assert_memory_equal(&m, &before, sizeof m);
    /* Dice that cannot be are a failure, with the reason. */
    pos_start(&p);
    assert_int_equal(engine_move(engines[0], sc, &p, 0, 5, &cs, 0, &m, &err), ENGINE_BAD_INPUT);
    assert_non_null(strstr(err.text, "dice 0-5"));
    assert_int_equal(engine_move(engines[0], NULL, &p, 7, 1, &cs, 0, &m, NULL),
                     ENGINE_BAD_INPUT);
    assert_memory_equal(&m, &before, sizeof m);
    engine_scratch_free(sc);
    /* A NULL cube state and absurd plies are survived. */
    assert_true(mv(engines[0], &p, 3, 1, NULL, -5, &m));
    assert_true(mv(engines[0], &p, 3, 1, NULL, 99, &m));
}

/* The obvious opening moves (both engines' 0-ply choices are good
 * here): 31 makes the 5-point, 42 the 4-point, 61 the bar point. */
static void test_opening_moves(void **state)
{
    (void)state;
    static const struct {
        int d1, d2;
        int8_t from[2], to[2];
    } want[] = {{3, 1, {7, 5}, {4, 4}}, {4, 2, {7, 5}, {3, 3}}, {6, 1, {12, 7}, {6, 6}}};
    CubeState cs = cubes_money();
    for (int e = 0; e < 2; e++)
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            Position p, q;
            pos_start(&p);
            q = p;
            q.side[SIDE_ROLLER][want[k].from[0]]--, q.side[SIDE_ROLLER][want[k].to[0]]++;
            q.side[SIDE_ROLLER][want[k].from[1]]--, q.side[SIDE_ROLLER][want[k].to[1]]++;
            Move m;
            assert_true(mv(engines[e], &p, want[k].d1, want[k].d2, &cs, 0, &m));
            if (!pos_equal(&m.result, &q))
                fail_msg("%s plays %d%d wrongly", engine_names[e], want[k].d1, want[k].d2);
        }
}

/* Bearing off: with every checker home and a roll that takes two off, the
 * engine takes two off. */
static void test_bearoff_takes_checkers_off(void **state)
{
    (void)state;
    static const int r[][2] = {{0, 2}, {1, 2}, {4, 1}, {5, 1}};
    static const int o[][2] = {{0, 3}, {1, 3}};
    Position p = make(r, 4, o, 2);
    CubeState cs = cubes_money();
    Move m;
    for (int plies = 0; plies <= 2; plies++) {
        assert_true(mv(engines[0], &p, 6, 5, &cs, plies, &m));
        assert_int_equal(pos_checkers(&m.result, SIDE_ROLLER), 4);
    }
}

/* ---- evaluations ---- */

static void check_consistent(const Evaluation *ev)
{
    const double eps = 1e-9;
    assert_true(ev->p_win >= -eps && ev->p_win <= 1 + eps);
    assert_true(ev->p_win_gammon >= -eps && ev->p_win_gammon <= ev->p_win + eps);
    assert_true(ev->p_win_bg >= -eps && ev->p_win_bg <= ev->p_win_gammon + eps);
    assert_true(ev->p_lose_gammon >= -eps && ev->p_lose_gammon <= 1 - ev->p_win + eps);
    assert_true(ev->p_lose_bg >= -eps && ev->p_lose_bg <= ev->p_lose_gammon + eps);
}

/* Every position of the vectors, 0 and 1 ply, money and match: the five
 * chances are consistent, the cubeless money equity is 2p - 1 plus the
 * gammons, a match winning chance lies in 0..1. */
static void test_evaluations_consistent(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    CubeState cs_money = cubes_money(), cs_match = cubes_match(7, 2, 4);
    int checked = 0;
    char last[POSID_LEN + 1] = "";
    while (tsv_next(r)) {
        if (!strcmp(last, r->field[0]))
            continue; /* 21 rows per position */
        snprintf(last, sizeof last, "%s", r->field[0]);
        Position p;
        assert_true(posid_decode(r->field[0], &p, NULL));
        for (int plies = 0; plies <= 1; plies++) {
            EvalOptions opt = {plies, false};
            Evaluation ev;
            evl(engines[0], &p, &cs_money, &opt, &ev);
            check_consistent(&ev);
            double eq = 2 * ev.p_win - 1 + ev.p_win_gammon + ev.p_win_bg - ev.p_lose_gammon -
                        ev.p_lose_bg;
            assert_near(ev.equity, eq, 1e-9);
            opt.cubeful = true;
            evl(engines[0], &p, &cs_money, &opt, &ev);
            assert_true(ev.equity >= -3.0 && ev.equity <= 3.0);
            evl(engines[0], &p, &cs_match, &opt, &ev);
            check_consistent(&ev);
            assert_true(ev.equity >= 0.0 && ev.equity <= 1.0);
            checked++;
        }
    }
    tsv_close(r);
    free(r);
    print_message("%d evaluations checked\n", checked);
    assert_true(checked > 500);
}

static void test_evaluation_known_positions(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    EvalOptions opt = {0, false};
    Evaluation ev;
    Position p = gammon_lead();
    evl(engines[0], &p, &cs, &opt, &ev);
    assert_true(ev.p_win > 0.999 && ev.p_win_gammon > 0.99);
    assert_near(ev.p_win_bg, 0.0, 1e-9);
    pos_swap(&p); /* the same seen by the loser */
    evl(engines[0], &p, &cs, &opt, &ev);
    assert_true(ev.p_win < 0.001 && ev.p_lose_gammon > 0.99);
    /* The opening position is close to even for the side on roll. */
    pos_start(&p);
    for (int plies = 0; plies <= 2; plies++) {
        opt.plies = plies;
        evl(engines[0], &p, &cs, &opt, &ev);
        check_consistent(&ev);
        if (ev.p_win < 0.40 || ev.p_win > 0.62)
            fail_msg("opening position at %d ply: p(win) %.3f", plies, ev.p_win);
    }
    /* Contact (two of the other side's checkers on the roller's 2-point)
     * after the roller bore off 3: he cannot lose a gammon; once the other
     * side bore one off as well, nobody can win one. At every depth. */
    static const int r3[][2] = {{0, 6}, {2, 6}};
    static const int o15[][2] = {{22, 2}, {5, 13}}, o14[][2] = {{22, 2}, {5, 12}};
    for (int plies = 0; plies <= 1; plies++) {
        opt.plies = plies;
        p = make(r3, 2, o15, 2);
        evl(engines[0], &p, &cs, &opt, &ev);
        assert_near(ev.p_lose_gammon, 0.0, 0);
        assert_true(ev.p_win_gammon > 0.0);
        p = make(r3, 2, o14, 2);
        evl(engines[0], &p, &cs, &opt, &ev);
        assert_near(ev.p_lose_gammon, 0.0, 0);
        assert_near(ev.p_win_gammon, 0.0, 0);
    }
    /* A finished game is scored exactly: roller has borne everything off,
     * the loser has all 15 left with one on the bar: a backgammon. */
    static const int o[][2] = {{POS_BAR, 1}, {10, 14}};
    p = make(NULL, 0, o, 2);
    opt.plies = 1;
    evl(engines[0], &p, &cs, &opt, &ev);
    assert_near(ev.p_win, 1.0, 0);
    assert_near(ev.p_win_bg, 1.0, 0);
    assert_near(ev.equity, 3.0, 1e-12);
}

/* ---- cube ---- */

static void test_cube_race_lead_double_pass(void **state)
{
    (void)state;
    Position p = race_lead();
    CubeState cs = cubes_money();
    for (int plies = 0; plies <= 1; plies++) {
        assert_int_equal(dbl(engines[0], &p, &cs, plies), CUBE_DOUBLE);
        assert_int_equal(tk(engines[0], &p, &cs, plies), TAKE_DROP);
    }
    /* Owning the cube changes nothing; the opponent owning it does. */
    cs.owner = SIDE_ROLLER, cs.cube = 2;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_DOUBLE);
    cs.owner = SIDE_OPPONENT;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
    /* No cube, or at its maximum: no double. */
    cs = cubes_money();
    cs.cube_in_use = false;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
    cs = cubes_money();
    cs.cube = 64, cs.owner = SIDE_ROLLER;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
    assert_int_equal(dbl(engines[0], &p, NULL, 0), CUBE_ROLL);
    /* In a match too, and never in the Crawford game. */
    cs = cubes_match(7, 0, 0);
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_DOUBLE);
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_DROP);
    cs = cubes_match(7, 2, 6);
    cs.crawford = true;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
}

static void test_cube_too_good(void **state)
{
    (void)state;
    /* A certain gammon: cashing one point would throw away two. */
    Position p = gammon_lead();
    CubeState cs = cubes_money();
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
    /* Under Jacoby a gammon counts only with the cube turned: cash it. */
    cs.jacoby = true;
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_DOUBLE);
}

static void test_cube_opening(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    for (int plies = 0; plies <= 1; plies++) {
        assert_int_equal(dbl(engines[0], &p, &cs, plies), CUBE_ROLL);
        assert_int_equal(tk(engines[0], &p, &cs, plies), TAKE_TAKE);
    }
    cs = cubes_match(5, 0, 0);
    assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_ROLL);
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
}

/* A race the player on roll wins about 70 % of the time, no gammons: 13
 * checkers, 53 pips, against 14 checkers, 61 pips. */
static Position race_favourite(void)
{
    static const int r[][2] = {{0, 1}, {1, 2}, {2, 2}, {3, 3}, {4, 3}, {5, 2}};
    static const int o[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 3}, {4, 2}, {5, 3}};
    return make(r, 6, o, 6);
}

/* After the Crawford game the trailer doubles at once: the leader's cube is
 * dead. Leader at 1-away: against a trailer at 2-away a take loses the match
 * whenever the game is lost, while a pass leaves 1-away/1-away (50 %): the
 * "free drop" when the trailer is the favourite. At 3-away the take is
 * right: a single game loss still leaves 1-away/1-away. */
static void test_cube_post_crawford(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    for (int away = 2; away <= 5; away++) {
        CubeState cs = cubes_match(7, 7 - away, 6);
        cs.post_crawford = true;
        assert_int_equal(dbl(engines[0], &p, &cs, 0), CUBE_DOUBLE);
    }
    p = race_favourite();
    Evaluation ev;
    EvalOptions opt = {0, false};
    CubeState cs = cubes_money();
    evl(engines[0], &p, &cs, &opt, &ev);
    assert_true(ev.p_win > 0.6 && ev.p_win < 0.8 && ev.p_lose_gammon == 0.0);
    cs = cubes_match(7, 5, 6);
    cs.post_crawford = true;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_DROP);
    cs = cubes_match(7, 4, 6);
    cs.post_crawford = true;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
    /* The leader (on roll) never doubles: winning this game wins the match. */
    cs = cubes_match(7, 6, 3);
    cs.post_crawford = true;
    Position lead = race_lead();
    assert_int_equal(dbl(engines[0], &lead, &cs, 0), CUBE_ROLL);
}

static void test_cube_beaver(void **state)
{
    (void)state;
    /* The doubler is the one far behind in the race. */
    Position p = race_lead();
    pos_swap(&p);
    CubeState cs = cubes_money();
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
    cs.beavers = 1;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_BEAVER);
    /* No room to beaver under the maximum cube, and never in a match. */
    cs.max_cube = 2;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
    cs = cubes_match(7, 0, 0);
    cs.beavers = 1;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
    /* An ordinary take (a 70 % race for the doubler) is no beaver even
     * when beavers are allowed; a double in the opening position is one. */
    p = race_favourite();
    cs = cubes_money();
    cs.beavers = 3;
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_TAKE);
    pos_start(&p);
    assert_int_equal(tk(engines[0], &p, &cs, 0), TAKE_BEAVER);
}

/* ---- the cube carried through the search ---- */

static EngineCubeHint cube_hint(const Position *p, const CubeState *cs, int plies)
{
    EngineCubeHint h;
    assert_int_equal(engine_hint_cube(engines[0], NULL, p, cs, plies, &h, NULL), ENGINE_OK);
    return h;
}

/* The obvious decisions stay right when the cube is valued deeper: a sure
 * race win is double/pass, the opening no double/take, the trailer doubles
 * at once after the Crawford game, a dead cube is never turned. */
static void test_cube_deeper(void **state)
{
    (void)state;
    Position lead = race_lead(), start;
    pos_start(&start);
    for (int plies = 1; plies <= 2; plies++) {
        CubeState cs = cubes_money();
        assert_int_equal(dbl(engines[0], &lead, &cs, plies), CUBE_DOUBLE);
        assert_int_equal(tk(engines[0], &lead, &cs, plies), TAKE_DROP);
        assert_int_equal(dbl(engines[0], &start, &cs, plies), CUBE_ROLL);
        assert_int_equal(tk(engines[0], &start, &cs, plies), TAKE_TAKE);
        cs = cubes_match(7, 3, 6);
        cs.post_crawford = true;
        assert_int_equal(dbl(engines[0], &start, &cs, plies), CUBE_DOUBLE);
        /* 5-away with a 2-cube he owns: winning it wins the match. */
        cs = cubes_match(7, 5, 3);
        cs.cube = 2, cs.owner = SIDE_ROLLER;
        assert_int_equal(dbl(engines[0], &lead, &cs, plies), CUBE_ROLL);
        assert_false(cube_hint(&lead, &cs, plies).may_double);
    }
    /* A certain gammon is too good to double deeper too; under Jacoby the
     * centred cube must be turned to count it. */
    Position g = gammon_lead();
    CubeState cs = cubes_money();
    assert_int_equal(dbl(engines[0], &g, &cs, 1), CUBE_ROLL);
    cs.jacoby = true;
    assert_int_equal(dbl(engines[0], &g, &cs, 1), CUBE_DOUBLE);
}

/* Without a cube the cubeful equity is the cubeless one at any depth, and
 * the cube is worth most to its owner: ND owning it >= centred >= the other
 * side owning it (per cube unit). */
static void test_cubeful_search_consistent(void **state)
{
    (void)state;
    Position pos[3];
    pos_start(&pos[0]);
    pos[1] = race_favourite();
    pos[2] = gammon_lead();
    for (int i = 0; i < 3; i++)
        for (int plies = 0; plies <= 2; plies++) {
            CubeState cs = cubes_money();
            cs.cube_in_use = false;
            Evaluation less, ful;
            EvalOptions o1 = {plies, false}, o2 = {plies, true};
            evl(engines[0], &pos[i], &cs, &o1, &less);
            evl(engines[0], &pos[i], &cs, &o2, &ful);
            assert_near(ful.equity, less.equity, 1e-9);
            if (plies > 1)
                continue;
            cs = cubes_money();
            double centred = cube_hint(&pos[i], &cs, plies).no_double;
            cs.cube = 2, cs.owner = SIDE_ROLLER;
            double mine = cube_hint(&pos[i], &cs, plies).no_double;
            cs.owner = SIDE_OPPONENT;
            double theirs = cube_hint(&pos[i], &cs, plies).no_double;
            assert_true(mine >= centred - 1e-9 && centred >= theirs - 1e-9);
        }
}

/* A stop flag set: the decision ends at once with a legal move; cleared,
 * the same scratch decides as before. */
static void test_stop_flag(void **state)
{
    (void)state;
    EngineScratch *sc = engine_scratch_new(NULL);
    assert_non_null(sc);
    Position p;
    pos_start(&p);
    CubeState cs = cubes_money();
    Move want, got;
    assert_int_equal(engine_move(engines[0], sc, &p, 3, 1, &cs, 2, &want, NULL), ENGINE_OK);
    atomic_bool stop = true;
    engine_scratch_set_stop(sc, &stop);
    assert_int_equal(engine_move(engines[0], sc, &p, 3, 1, &cs, 4, &got, NULL), ENGINE_OK);
    MoveList l;
    movegen_generate(&p, 3, 1, &l);
    bool legal = false;
    for (int i = 0; i < l.count; i++)
        legal |= pos_equal(&l.moves[i].result, &got.result);
    assert_true(legal);
    CubeDecision d;
    assert_int_equal(engine_double(engines[0], sc, &p, &cs, 4, &d, NULL), ENGINE_OK);
    engine_scratch_set_stop(sc, NULL);
    assert_int_equal(engine_move(engines[0], sc, &p, 3, 1, &cs, 2, &got, NULL), ENGINE_OK);
    assert_true(pos_equal(&got.result, &want.result));
    engine_scratch_free(sc);
}

/* ---- resignations ---- */

static void test_resignation(void **state)
{
    (void)state;
    CubeState cs = cubes_money();
    Position p = gammon_lead();
    assert_false(acc(engines[0], &p, &cs, 1, 0));
    assert_true(acc(engines[0], &p, &cs, 2, 0));
    assert_true(acc(engines[0], &p, &cs, 3, 0));
    assert_false(acc(engines[0], &p, &cs, 0, 0));
    /* Even game: one point is more than playing on is worth. */
    pos_start(&p);
    assert_true(acc(engines[0], &p, &cs, 1, 1));
    /* The loser of the gammon race would gladly win a single: the offer
     * concerns the player on roll only when he is offered points. */
    p = gammon_lead();
    pos_swap(&p);
    assert_true(acc(engines[0], &p, &cs, 1, 0));
    /* Match: winning 2 points at 3-away is worth less than the gammon. */
    p = gammon_lead();
    cs = cubes_match(5, 2, 2);
    assert_false(acc(engines[0], &p, &cs, 1, 0));
    assert_true(acc(engines[0], &p, &cs, 2, 0));
}

/* ---- threads ---- */

typedef struct Work {
    Position pos[64];
    int n;
    Move moves[64];
    Evaluation evals[64];
    CubeDecision cube[64];
} Work;

/* Each thread with its own scratch, reused for every decision. */
static void run_work(Work *w)
{
    CubeState cs = cubes_match(7, 1, 3);
    EngineScratch *sc = engine_scratch_new(NULL);
    for (int i = 0; sc && i < w->n; i++) {
        int d1 = 1 + i % 6, d2 = 1 + (i / 6) % 6;
        memset(&w->moves[i], 0, sizeof w->moves[i]);
        engine_move(engines[0], sc, &w->pos[i], d1, d2, &cs, 1, &w->moves[i], NULL);
        EvalOptions opt = {1, true};
        engine_evaluate(engines[0], sc, &w->pos[i], &cs, &opt, &w->evals[i], NULL);
        engine_double(engines[0], sc, &w->pos[i], &cs, 0, &w->cube[i], NULL);
    }
    engine_scratch_free(sc);
}

static void *thread_main(void *arg)
{
    run_work(arg);
    return NULL;
}

static void test_threads_agree(void **state)
{
    (void)state;
    static Work one, two[2];
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    while (tsv_next(r) && one.n < 64)
        if (r->lineno % 97 == 0)
            assert_true(posid_decode(r->field[0], &one.pos[one.n++], NULL));
    tsv_close(r);
    free(r);
    two[0] = two[1] = one;
    run_work(&one);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &two[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        assert_memory_equal(one.moves, two[i].moves, sizeof one.moves);
        assert_memory_equal(one.evals, two[i].evals, sizeof one.evals);
        assert_memory_equal(one.cube, two[i].cube, sizeof one.cube);
    }
}

/* One scratch reused for every decision (the race cache keeps what it
 * learnt from one to the next) answers exactly as a scratch per call. */
static void test_scratch_reused(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    EngineScratch *sc = engine_scratch_new(NULL);
    assert_non_null(sc);
    CubeState cs = cubes_money();
    int rows = 0;
    while (tsv_next(r)) {
        if (r->lineno % 13)
            continue;
        Position p;
        assert_true(posid_decode(r->field[0], &p, NULL));
        int d1 = r->field[1][0] - '0', d2 = r->field[1][1] - '0';
        for (int plies = 0; plies <= 1; plies++) {
            Move a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            EngineResult ra = engine_move(engines[0], sc, &p, d1, d2, &cs, plies, &a, NULL);
            EngineResult rb = engine_move(engines[0], NULL, &p, d1, d2, &cs, plies, &b, NULL);
            assert_int_equal(ra, rb);
            assert_memory_equal(&a, &b, sizeof a);
            EvalOptions opt = {plies, true};
            Evaluation ea, eb;
            assert_int_equal(engine_evaluate(engines[0], sc, &p, &cs, &opt, &ea, NULL),
                             ENGINE_OK);
            evl(engines[0], &p, &cs, &opt, &eb);
            assert_memory_equal(&ea, &eb, sizeof ea);
        }
        rows++;
    }
    tsv_close(r);
    free(r);
    engine_scratch_free(sc);
    assert_true(rows > 100);
}

/* Every answer of a scratch that keeps its values (one scratch for both
 * engines, money and match, every kind of decision, twice over so that
 * the second time they come from the table) is the answer of a scratch
 * that keeps none. */
static void decide_all(EngineScratch *sc, const Position *pos, int n, Move *moves,
                       Evaluation *evals, EngineCandidate *hints, int *cube)
{
    CubeState states[2] = {cubes_money(), cubes_match(7, 2, 4)};
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int e = 0; e < ENGINES; e++)
            for (int c = 0; c < 2; c++, k++) {
                int d1 = 1 + i % 6, d2 = 1 + (i / 6) % 6, plies = i % 3;
                memset(&moves[k], 0, sizeof moves[k]);
                engine_move(engines[e], sc, &pos[i], d1, d2, &states[c], plies, &moves[k],
                            NULL);
                EvalOptions opt = {plies, c == 0};
                assert_int_equal(engine_evaluate(engines[e], sc, &pos[i], &states[c], &opt,
                                                 &evals[k], NULL),
                                 ENGINE_OK);
                int got = 0;
                memset(&hints[4 * k], 0, 4 * sizeof hints[0]);
                assert_int_equal(engine_hint_moves(engines[e], sc, &pos[i], d2, d1, &states[c],
                                                   plies, &hints[4 * k], 4, &got, NULL),
                                 ENGINE_OK);
                CubeDecision d;
                TakeDecision t;
                engine_double(engines[e], sc, &pos[i], &states[c], plies > 1 ? 1 : plies, &d,
                              NULL);
                engine_take(engines[e], sc, &pos[i], &states[c], plies > 1 ? 1 : plies, &t,
                            NULL);
                cube[k] = (int)d * 4 + (int)t;
            }
}

#define CACHE_POSITIONS 30
#define CACHE_ANSWERS (CACHE_POSITIONS * ENGINES * 2)

static void test_cache_answers_alike(void **state)
{
    (void)state;
    static Position pos[CACHE_POSITIONS];
    static Move m0[CACHE_ANSWERS], m1[CACHE_ANSWERS];
    static Evaluation e0[CACHE_ANSWERS], e1[CACHE_ANSWERS];
    static EngineCandidate h0[4 * CACHE_ANSWERS], h1[4 * CACHE_ANSWERS];
    static int c0[CACHE_ANSWERS], c1[CACHE_ANSWERS];
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    int n = 0;
    while (tsv_next(r) && n < CACHE_POSITIONS)
        if (r->lineno % 61 == 0)
            assert_true(posid_decode(r->field[0], &pos[n++], NULL));
    tsv_close(r);
    free(r);
    EngineScratch *bare = engine_scratch_new_cached(0, NULL);
    EngineScratch *kept = engine_scratch_new(NULL);
    assert_non_null(bare);
    assert_non_null(kept);
    decide_all(bare, pos, n, m0, e0, h0, c0);
    for (int pass = 0; pass < 2; pass++) {
        decide_all(kept, pos, n, m1, e1, h1, c1);
        assert_memory_equal(m0, m1, sizeof m0);
        assert_memory_equal(e0, e1, sizeof e0);
        assert_memory_equal(h0, h1, sizeof h0);
        assert_memory_equal(c0, c1, sizeof c0);
    }
    engine_scratch_free(bare);
    engine_scratch_free(kept);
}

/* A tree 2 plies deep picks among more moves than one 1 ply deep
 * (search.h), so a node's value at one depth differs between them: a 1-ply
 * hint after a 2-ply one on the same scratch (whose first pass valued the
 * same candidates at 1 ply) must rank as a 1-ply hint on a bare one. */
static void test_cache_keeps_widths_apart(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    assert_non_null(r);
    assert_true(tsv_open(r, VECTORS));
    EngineScratch *bare = engine_scratch_new_cached(0, NULL);
    EngineScratch *kept = engine_scratch_new(NULL);
    assert_non_null(bare);
    assert_non_null(kept);
    CubeState money = cubes_money();
    int n = 0;
    while (tsv_next(r) && n < CACHE_POSITIONS) {
        if (r->lineno % 53 != 0)
            continue;
        Position p;
        assert_true(posid_decode(r->field[0], &p, NULL));
        int d1 = 1 + n % 6, d2 = 1 + (n / 6) % 6, got0 = 0, got1 = 0, deep = 0;
        EngineCandidate h0[8], h1[8], h2[8];
        memset(h0, 0, sizeof h0);
        memset(h1, 0, sizeof h1);
        assert_int_equal(engine_hint_moves(engines[0], kept, &p, d1, d2, &money, 2, h2, 8, &deep,
                                           NULL),
                         ENGINE_OK);
        assert_int_equal(engine_hint_moves(engines[0], kept, &p, d1, d2, &money, 1, h1, 8, &got1,
                                           NULL),
                         ENGINE_OK);
        assert_int_equal(engine_hint_moves(engines[0], bare, &p, d1, d2, &money, 1, h0, 8, &got0,
                                           NULL),
                         ENGINE_OK);
        assert_int_equal(got0, got1);
        assert_memory_equal(h0, h1, sizeof h0);
        n++;
    }
    tsv_close(r);
    free(r);
    engine_scratch_free(bare);
    engine_scratch_free(kept);
}

/* Nonsense in, no crash out: boards with up to 40 checkers a point, both
 * sides on one point, any cube state; every entry point at 0 and 1 ply. */
static void test_garbage_survived(void **state)
{
    (void)state;
    uint64_t s = 12345;
    for (int n = 0; n < 300; n++) {
        Position p;
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < POS_SLOTS; i++) {
                s = s * 6364136223846793005u + 1442695040888963407u;
                int r = (int)(s >> 33);
                p.side[side][i] = (uint8_t)(r % 7 == 0 ? r % 41 : r % 3 == 0 ? r % 4 : 0);
            }
        CubeState cs = {0};
        s = s * 6364136223846793005u + 1442695040888963407u;
        cs.cube_in_use = s & 1;
        cs.cube = (int)(s >> 40) % 70 - 3;
        cs.owner = (int)(s >> 20) % 5 - 2;
        cs.max_cube = (int)(s >> 30) % 200 - 5;
        cs.match_length = (int)(s >> 10) % 30 - 3;
        cs.score[0] = (int)(s >> 5) % 30 - 3;
        cs.score[1] = (int)(s >> 15) % 30 - 3;
        cs.crawford = s >> 50 & 1;
        cs.post_crawford = s >> 51 & 1;
        cs.jacoby = s >> 52 & 1;
        cs.beavers = (int)(s >> 53) % 4 - 1;
        int plies = n % 2;
        Move m;
        mv(engines[n % ENGINES], &p, 1 + n % 6, 1 + (n / 6) % 6, &cs, plies, &m);
        dbl(engines[0], &p, &cs, plies);
        tk(engines[0], &p, &cs, plies);
        acc(engines[0], &p, &cs, n % 6 - 1, plies);
        EvalOptions opt = {plies, n % 3 == 0};
        Evaluation ev;
        evl(engines[0], &p, &cs, &opt, &ev);
        check_consistent(&ev);
    }
}

static void test_engine_names(void **state)
{
    (void)state;
    Err err = {{0}};
    assert_null(engine_new("gnubg-supremo", &err));
    assert_non_null(strstr(err.text, "gnubg-supremo"));
    for (int i = 0; i < ENGINES; i++)
        assert_true(strlen(engine_id(engines[i])) > 0);
    /* The yardsticks are players now (src/play/), not engines. */
    assert_null(engine_new("pubeval", &err));
    engine_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_legal_0ply),
        cmocka_unit_test(test_moves_legal_1ply),
        cmocka_unit_test(test_moves_legal_2ply),
        cmocka_unit_test(test_hint_first_is_the_move),
        cmocka_unit_test(test_no_move_and_bad_dice),
        cmocka_unit_test(test_opening_moves),
        cmocka_unit_test(test_bearoff_takes_checkers_off),
        cmocka_unit_test(test_evaluations_consistent),
        cmocka_unit_test(test_evaluation_known_positions),
        cmocka_unit_test(test_cube_race_lead_double_pass),
        cmocka_unit_test(test_cube_too_good),
        cmocka_unit_test(test_cube_opening),
        cmocka_unit_test(test_cube_post_crawford),
        cmocka_unit_test(test_cube_beaver),
        cmocka_unit_test(test_cube_deeper),
        cmocka_unit_test(test_cubeful_search_consistent),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_resignation),
        cmocka_unit_test(test_cache_answers_alike),
        cmocka_unit_test(test_cache_keeps_widths_apart),
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_scratch_reused),
        cmocka_unit_test(test_garbage_survived),
        cmocka_unit_test(test_engine_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
