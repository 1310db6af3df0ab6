/* test_match.c - the match state machine: every rule variant with concrete
 * positions and game sequences (the dice are given), illegal actions
 * refused with their reason and no change of state, forced moves and
 * passes, and the mapping onto gnubg's Match ID (the manual's and our
 * documentation's example IDs, every row of matchid.tsv.gz, and a round trip
 * through every state of many random games). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match.h"
#include "matchid.h"
#include "ok.h"
#include "posid.h"
#include "rules_cli.h"
#include "tsv.h"

static MoveList moves; /* too big for a stack frame */

/* --- helpers ------------------------------------------------------------ */

static Match start(const Rules *r, int length)
{
    Match m;
    Err err = {{0}};
    if (!match_start(&m, r, length, &err))
        fail_msg("match_start: %s", err.text);
    return m;
}

/* The call (which passes &e_ as its Err) must fail, say `msg`, and leave
 * the match exactly as it was. */
#define REFUSED(m, call, msg)                                                              \
    do {                                                                                   \
        Err e_ = {{0}};                                                                    \
        Match before_;                                                                     \
        memcpy(&before_, &(m), sizeof before_);                                            \
        if (call)                                                                          \
            fail_msg("%s accepted", #call);                                                \
        if (!strstr(e_.text, msg))                                                         \
            fail_msg("%s: expected '%s' in '%s'", #call, msg, e_.text);                     \
        assert_memory_equal(&before_, &(m), sizeof before_);                               \
    } while (0)

/* Sets one player's checkers from "6x5 13x5 25x1": point (from his own
 * side, 25 = bar) x count. */
static void fill(Position *p, int side, const char *spec)
{
    const char *s = spec;
    while (*s) {
        char *end;
        long pt = strtol(s, &end, 10);
        assert_true(*end == 'x' && pt >= 1 && pt <= 25);
        long n = strtol(end + 1, &end, 10);
        p->side[side][pt - 1] = (uint8_t)n;
        while (*end == ' ')
            end++;
        s = end;
    }
}

static void set_board(Match *m, const char *p0, const char *p1)
{
    memset(&m->board, 0, sizeof m->board);
    fill(&m->board, 0, p0);
    fill(&m->board, 1, p1);
}

/* Makes player p the one on roll, before rolling, with nothing pending. */
static void give_turn(Match *m, int p)
{
    assert_int_equal(m->phase, PHASE_PLAYING);
    m->on_roll = m->turn = p;
    m->dice[0] = m->dice[1] = 0;
    m->legal_moves = 0;
    m->doubled = false;
    m->resigned = 0;
}

/* The winner bears off his last checker (with the loser's checkers as
 * given): a forced move that ends the game. */
static void win_game(Match *m, int winner, const char *loser)
{
    set_board(m, winner == 0 ? "1x1" : loser, winner == 0 ? loser : "1x1");
    give_turn(m, winner);
    OK(match_roll(m, 2, 1, &e_));
    assert_int_equal(m->legal_moves, 1);
    assert_true(match_forced(m));
    OK(match_play_forced(m, &e_));
    assert_int_equal(m->phase, PHASE_OVER);
    assert_int_equal(m->winner, winner);
}

/* Rolls and plays the first legal move (or passes). */
static void roll_and_play(Match *m, int d1, int d2)
{
    OK(match_roll(m, d1, d2, &e_));
    if (m->legal_moves == 0) {
        OK(match_pass(m, &e_));
        return;
    }
    assert_int_equal(match_legal_moves(m, &moves), m->legal_moves);
    OK(match_move(m, &moves.moves[0].result, &e_));
}

/* Plays a move written "8/5 6/5" (points from the mover's side, 25 = bar,
 * 0 = off). */
static void play(Match *m, const char *text)
{
    Position p;
    match_position(m, &p);
    const char *s = text;
    while (*s) {
        char *end;
        long from = strtol(s, &end, 10);
        assert_true(*end == '/');
        long to = strtol(end + 1, &end, 10);
        assert_true(movegen_apply_part(&p, (int)from - 1, to == 0 ? POS_OFF : (int)to - 1));
        while (*end == ' ')
            end++;
        s = end;
    }
    Err err = {{0}};
    if (!match_move(m, &p, &err))
        fail_msg("move %s refused: %s", text, err.text);
}

/* A game where player 0 won the opening with 5-2 and played 13/8 13/11:
 * player 1 is about to roll. */
static Match opened(const Rules *r, int length)
{
    Match m = start(r, length);
    OK(match_opening_roll(&m, 5, 2, &e_));
    play(&m, "13/8 13/11");
    return m;
}

/* The Match ID and Position ID of the state. */
static void expect_ids(const Match *m, const char *matchid, const char *posid)
{
    MatchId id;
    Position p;
    char mid[MATCHID_LEN + 1], pid[POSID_LEN + 1];
    OK(match_to_ids(m, &id, &p, &e_));
    OK(matchid_encode(&id, mid, &e_));
    assert_string_equal(mid, matchid);
    if (posid) {
        posid_encode(&p, pid);
        assert_string_equal(pid, posid);
    }
}

static MatchId ids_of(const Match *m)
{
    MatchId id;
    Position p;
    OK(match_to_ids(m, &id, &p, &e_));
    return id;
}

/* --- opening ------------------------------------------------------------ */

static void test_opening_play(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = start(&r, 5);
    assert_int_equal(m.phase, PHASE_OPENING);
    assert_int_equal(match_actions(&m), ACT_OPENING_ROLL);
    assert_int_equal(match_turn(&m), -1);
    /* Player 0 rolls 3, player 1 rolls 1: player 0 plays 3-1. */
    OK(match_opening_roll(&m, 3, 1, &e_));
    assert_int_equal(m.phase, PHASE_PLAYING);
    assert_int_equal(m.on_roll, 0);
    assert_int_equal(match_turn(&m), 0);
    assert_int_equal(m.dice[0], 3);
    assert_int_equal(m.dice[1], 1);
    assert_int_equal(m.legal_moves, 16);
    assert_int_equal(match_actions(&m), ACT_MOVE | ACT_RESIGN);
    play(&m, "8/5 6/5");
    assert_int_equal(m.board.side[0][4], 2);
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    assert_int_equal(m.turns[0], 1);

    /* gnubg's example ID: money, Jacoby on, player 1 on roll with 3-1. */
    r.jacoby = true;
    m = start(&r, 0);
    OK(match_opening_roll(&m, 1, 3, &e_));
    expect_ids(&m, "cIkFAAAAAAAA", "4HPwATDgc/ABMA");
    r.jacoby = false;
    m = start(&r, 0);
    OK(match_opening_roll(&m, 1, 3, &e_));
    expect_ids(&m, "cIkFAAAAAAAE", "4HPwATDgc/ABMA");
}

/* A tie is rolled again; in money play with automatic doubles the cube
 * doubles on each tie, up to the agreed number and the maximum cube, and
 * stays in the middle. */
static void test_opening_ties(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.auto_doubles = 2;
    Match m = start(&r, 7); /* match play: no automatic doubles */
    OK(match_opening_roll(&m, 4, 4, &e_));
    assert_int_equal(m.phase, PHASE_OPENING);
    assert_int_equal(m.cube, 1);

    m = start(&r, 0);
    OK(match_opening_roll(&m, 4, 4, &e_));
    assert_int_equal(m.phase, PHASE_OPENING);
    assert_int_equal(m.cube, 2);
    OK(match_opening_roll(&m, 5, 5, &e_));
    assert_int_equal(m.cube, 4);
    OK(match_opening_roll(&m, 6, 6, &e_)); /* only two agreed */
    assert_int_equal(m.cube, 4);
    assert_int_equal(m.auto_doubles, 2);
    OK(match_opening_roll(&m, 2, 1, &e_));
    assert_int_equal(m.on_roll, 0);
    assert_int_equal(m.cube, 4);
    assert_int_equal(m.cube_owner, -1);

    /* The cap: three agreed, but the cube stops at 4. */
    r.auto_doubles = 3;
    r.max_cube = 4;
    m = start(&r, 0);
    for (int i = 0; i < 3; i++)
        OK(match_opening_roll(&m, 3, 3, &e_));
    assert_int_equal(m.cube, 4);
    assert_int_equal(m.auto_doubles, 2);

    /* Off: ties change nothing. */
    r = rules_default();
    m = start(&r, 0);
    OK(match_opening_roll(&m, 6, 6, &e_));
    assert_int_equal(m.cube, 1);
}

/* Israeli cafe custom: the winner of the opening roll rolls again, and the
 * new roll may be a double. */
static void test_opening_reroll(void **state)
{
    (void)state;
    Rules r;
    OK(rules_preset("cafe", &r, &e_));
    Match m = start(&r, 5);
    OK(match_opening_roll(&m, 2, 5, &e_));
    assert_int_equal(m.phase, PHASE_PLAYING);
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.dice[0], 0);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    OK(match_roll(&m, 6, 6, &e_));
    assert_int_equal(m.legal_moves, 11);
    play(&m, "24/18 24/18 13/7 13/7");
    assert_int_equal(m.on_roll, 0);

    /* Money, Jacoby, player 0 won the opening and is about to roll: gnubg's
     * ID of a new game with player 0 to act. */
    r.jacoby = true;
    m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    expect_ids(&m, "MAEAAAAAAAAA", "4HPwATDgc/ABMA");
}

/* Later games: an opening roll each game, or the last winner rolls first. */
static void test_later_games(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.later_games = LATER_WINNER_STARTS;
    Match m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 1, "6x14");
    assert_int_equal(m.score[1], 1);
    assert_int_equal(match_actions(&m), ACT_NEW_GAME);
    OK(match_new_game(&m, &e_));
    assert_int_equal(m.phase, PHASE_PLAYING);
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.turn, 1);
    assert_int_equal(m.dice[0], 0);
    assert_int_equal(m.cube, 1);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    Position s;
    pos_start(&s);
    assert_true(pos_equal(&m.board, &s));

    r.later_games = LATER_OPENING_ROLL;
    m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 1, "6x14");
    OK(match_new_game(&m, &e_));
    assert_int_equal(m.phase, PHASE_OPENING);
    assert_int_equal(match_actions(&m), ACT_OPENING_ROLL);
    assert_int_equal(m.games, 1);
}

/* --- scoring ------------------------------------------------------------ */

/* Points of a game won by player 0 with the loser's checkers as given. */
static int game_points(const Rules *r, int length, const char *loser)
{
    Match m = start(r, length);
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 0, loser);
    assert_int_equal(m.score[0], m.points);
    return m.points;
}

static void test_scoring_variants(void **state)
{
    (void)state;
    const char *single = "6x14", *gammon = "6x15", *bg = "6x14 21x1", *bg_bar = "6x14 25x1",
               *star = "6x13 25x1 19x1";
    Rules r = rules_default();
    assert_int_equal(game_points(&r, 0, single), 1);
    assert_int_equal(game_points(&r, 0, gammon), 2);
    assert_int_equal(game_points(&r, 0, bg), 3);
    assert_int_equal(game_points(&r, 0, bg_bar), 3);
    assert_int_equal(game_points(&r, 0, star), 3);
    r.backgammons = false;
    assert_int_equal(game_points(&r, 0, bg), 2);
    assert_int_equal(game_points(&r, 0, star), 2);
    r.star_mars = true;
    assert_int_equal(game_points(&r, 0, star), 4);
    assert_int_equal(game_points(&r, 0, bg_bar), 2);
    r.backgammons = true;
    assert_int_equal(game_points(&r, 7, star), 4);
    assert_int_equal(game_points(&r, 7, bg), 3);

    Match m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 0, star);
    assert_int_equal(m.result, SCORE_STAR_MARS);

    /* The backgammon zone: a checker on the bar alone is a backgammon
     * under home-or-bar (the default), a gammon under home; a checker in
     * the winner's home board is a backgammon under both. */
    r = rules_default();
    assert_int_equal(game_points(&r, 0, bg_bar), 3);
    r.backgammon_zone = BG_ZONE_HOME;
    assert_int_equal(game_points(&r, 0, bg_bar), 2);
    assert_int_equal(game_points(&r, 7, bg_bar), 2);
    assert_int_equal(game_points(&r, 0, bg), 3);
    assert_int_equal(game_points(&r, 0, gammon), 2);
    assert_int_equal(game_points(&r, 0, star), 3);
    r.star_mars = true;
    assert_int_equal(game_points(&r, 0, star), 4);
    m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 0, bg_bar);
    assert_int_equal(m.result, SCORE_GAMMON);
    /* The Match ID of the finished game reads back with the same result
     * under the same rules. */
    MatchId id;
    Position pos;
    Match back;
    OK(match_to_ids(&m, &id, &pos, &e_));
    OK(match_from_ids(&back, &r, &id, &pos, &e_));
    assert_int_equal(back.result, SCORE_GAMMON);
    assert_int_equal(back.points, 2);
}

static void test_jacoby(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.jacoby = true;
    /* Centred cube: a gammon counts single; a backgammon too. */
    assert_int_equal(game_points(&r, 0, "6x15"), 1);
    assert_int_equal(game_points(&r, 0, "6x14 25x1"), 1);
    /* Match play ignores the Jacoby rule. */
    assert_int_equal(game_points(&r, 5, "6x15"), 2);

    /* Once the cube was turned gammons count: 2-cube x 2. */
    Match m = opened(&r, 0);
    OK(match_double(&m, &e_));
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube_owner, 0);
    win_game(&m, 0, "6x15");
    assert_int_equal(m.points, 4);

    /* An automatically doubled cube is not turned: the gammon counts single
     * times the cube. */
    r.auto_doubles = 1;
    m = start(&r, 0);
    OK(match_opening_roll(&m, 3, 3, &e_));
    OK(match_opening_roll(&m, 5, 2, &e_));
    assert_int_equal(m.cube, 2);
    win_game(&m, 0, "6x15");
    assert_int_equal(m.points, 2);
}

/* --- cube --------------------------------------------------------------- */

static void test_no_cube(void **state)
{
    (void)state;
    Rules r;
    OK(rules_preset("nocube", &r, &e_));
    Match m = opened(&r, 0);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_RESIGN);
    REFUSED(m, match_double(&m, &e_), "cannot double: the rules have no cube");
    assert_int_equal(game_points(&r, 0, "6x15"), 2);
}

/* Crawford game after a player reaches match length - 1, post-Crawford
 * games after it; a 1-point match has none; the rule can be switched off. */
static void test_crawford(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = start(&r, 5);
    m.score[0] = 3;
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 0, "6x14");
    assert_int_equal(m.score[0], 4);
    OK(match_new_game(&m, &e_));
    assert_true(m.crawford);
    assert_false(m.post_crawford);
    OK(match_opening_roll(&m, 5, 2, &e_));
    play(&m, "13/8 13/11");
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_RESIGN);
    REFUSED(m, match_double(&m, &e_), "cannot double: Crawford game");
    win_game(&m, 1, "6x14");
    assert_int_equal(m.score[1], 1);
    OK(match_new_game(&m, &e_));
    assert_false(m.crawford);
    assert_true(m.post_crawford);
    /* Player 1 wins the opening; the leader (player 0) then has a dead
     * cube; the trailer may double and the leader takes. */
    OK(match_opening_roll(&m, 2, 5, &e_));
    play(&m, "13/8 13/11");
    REFUSED(m, match_double(&m, &e_),
            "cannot double: the cube is dead (score 4 plus cube 1 reaches the match length 5)");
    assert_true(match_cube_dead(&m, 0));
    assert_false(match_cube_dead(&m, 1));
    roll_and_play(&m, 3, 1);
    OK(match_double(&m, &e_));
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.cube_owner, 0);
    win_game(&m, 1, "6x14");
    assert_int_equal(m.score[1], 3);
    OK(match_new_game(&m, &e_));
    assert_true(m.post_crawford); /* still after the Crawford game */

    /* The Crawford flag as gnubg writes it: 5-point match 2-4, Crawford
     * game, player 1 on roll with 3-1. */
    m = start(&r, 5);
    m.score[0] = 2;
    m.score[1] = 3;
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 1, "6x14");
    OK(match_new_game(&m, &e_));
    OK(match_opening_roll(&m, 1, 3, &e_));
    /* The documented example has bit 66 clear; in a match under way gnubg
     * 1.07 writes it set (no Jacoby in match play), as we do. */
    expect_ids(&m, "8ImlACAAIAAE", "4HPwATDgc/ABMA");

    /* Without the rule, the game after 4-0 allows doubling. */
    r.crawford = false;
    m = start(&r, 5);
    m.score[0] = 3;
    OK(match_opening_roll(&m, 5, 2, &e_));
    win_game(&m, 0, "6x14");
    OK(match_new_game(&m, &e_));
    assert_false(m.crawford);
    assert_false(m.post_crawford);
    OK(match_opening_roll(&m, 5, 2, &e_));
    play(&m, "13/8 13/11");
    OK(match_double(&m, &e_));

    /* 1-point match: both players are at length - 1 from the start, and
     * there is no Crawford game (as in gnubg). */
    r = rules_default();
    m = start(&r, 1);
    assert_false(m.crawford);
    OK(match_opening_roll(&m, 5, 2, &e_));
    play(&m, "13/8 13/11");
    REFUSED(m, match_double(&m, &e_), "the cube is dead");
}

/* Holland rule: in post-Crawford games the trailer may double only from
 * his third turn. */
static void test_holland(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.holland = true;
    Match m = start(&r, 5);
    m.score[0] = 4;
    m.score[1] = 1;
    m.post_crawford = true; /* as after the Crawford game */
    OK(match_opening_roll(&m, 1, 2, &e_)); /* trailer (1) wins: turn 1 */
    play(&m, "13/11 6/5");
    roll_and_play(&m, 3, 1); /* leader */
    REFUSED(m, match_double(&m, &e_),
            "cannot double: Holland rule (post-Crawford, the trailer may double only from his "
            "third turn; this is turn 2)");
    assert_false(match_actions(&m) & ACT_DOUBLE);
    roll_and_play(&m, 4, 2);
    roll_and_play(&m, 5, 3);
    assert_int_equal(m.turns[1], 2);
    assert_true(match_actions(&m) & ACT_DOUBLE);
    OK(match_double(&m, &e_));

    /* Without Holland the trailer doubles on his second turn. */
    r.holland = false;
    m = start(&r, 5);
    m.score[0] = 4;
    m.score[1] = 1;
    m.post_crawford = true;
    OK(match_opening_roll(&m, 1, 2, &e_));
    play(&m, "13/11 6/5");
    roll_and_play(&m, 3, 1);
    OK(match_double(&m, &e_));

    /* Holland does not touch games before the Crawford game. */
    r.holland = true;
    m = start(&r, 5);
    OK(match_opening_roll(&m, 1, 2, &e_));
    play(&m, "13/11 6/5");
    roll_and_play(&m, 3, 1);
    OK(match_double(&m, &e_));
}

static void test_max_cube_and_dead_cube(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.max_cube = 2;
    Match m = opened(&r, 0);
    OK(match_double(&m, &e_)); /* player 1 doubles */
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.cube_owner, 0);
    assert_int_equal(m.turn, 1); /* the doubler goes on with his roll */
    roll_and_play(&m, 3, 1);
    REFUSED(m, match_double(&m, &e_), "cannot double: the cube is already at the maximum of 2");

    /* 3-point match at 1-1: once player 0 owns a 2-cube, doubling is
     * pointless for him and refused, as gnubg refuses it. */
    r = rules_default();
    m = start(&r, 3);
    m.score[0] = m.score[1] = 1;
    OK(match_opening_roll(&m, 5, 2, &e_));
    play(&m, "13/8 13/11");
    OK(match_double(&m, &e_));
    OK(match_take(&m, &e_));
    roll_and_play(&m, 3, 1);
    REFUSED(m, match_double(&m, &e_),
            "cannot double: the cube is dead (score 1 plus cube 2 reaches the match length 3)");
}

static void test_double_take_drop(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = opened(&r, 7);
    OK(match_double(&m, &e_));
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.turn, 0);
    assert_int_equal(match_turn(&m), 0);
    assert_int_equal(match_actions(&m), ACT_TAKE | ACT_DROP); /* no beavers in a match */
    REFUSED(m, match_beaver(&m, &e_), "cannot beaver: beavers and raccoons are for money play only");
    REFUSED(m, match_roll(&m, 1, 2, &e_), "cannot roll: a double awaits an answer");
    REFUSED(m, match_resign(&m, 1, &e_), "cannot resign: a double awaits an answer");
    REFUSED(m, match_double(&m, &e_), "cannot double: a double awaits an answer");
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.cube_owner, 0);
    roll_and_play(&m, 3, 1);
    /* Player 0 owns the cube and redoubles to 4; player 1 drops: loses 2. */
    OK(match_double(&m, &e_));
    OK(match_drop(&m, &e_));
    assert_int_equal(m.phase, PHASE_DROPPED);
    assert_int_equal(m.winner, 0);
    assert_int_equal(m.points, 2);
    assert_int_equal(m.score[0], 2);
}

/* Beavers (money): the taker redoubles at once and keeps the cube; a
 * raccoon answers a beaver the same way. rules.beavers limits the chain. */
static void test_beavers(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.beavers = 1;
    Match m = opened(&r, 0);
    OK(match_double(&m, &e_)); /* player 1 doubles */
    assert_int_equal(match_actions(&m), ACT_TAKE | ACT_DROP | ACT_BEAVER);
    OK(match_beaver(&m, &e_)); /* player 0 beavers */
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.animals, 1);
    assert_int_equal(m.turn, 1);
    assert_int_equal(match_actions(&m), ACT_TAKE | ACT_DROP);
    REFUSED(m, match_beaver(&m, &e_), "cannot raccoon: the rules allow a beaver but no raccoon");
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube, 4);
    assert_int_equal(m.cube_owner, 0); /* the beaverer keeps it */
    assert_int_equal(m.turn, 1);
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_RESIGN);

    /* Raccoon: double, beaver, raccoon, take: the raccooner (the first
     * doubler) keeps an 8-cube. */
    r.beavers = 2;
    m = opened(&r, 0);
    OK(match_double(&m, &e_));
    OK(match_beaver(&m, &e_));
    OK(match_beaver(&m, &e_)); /* raccoon by player 1 */
    assert_int_equal(m.cube, 4);
    assert_int_equal(m.animals, 2);
    assert_int_equal(m.turn, 0);
    REFUSED(m, match_beaver(&m, &e_), "cannot raccoon: the rules allow only 2 beavers and raccoons in a row");
    Match dropped = m;
    OK(match_take(&m, &e_));
    assert_int_equal(m.cube, 8);
    assert_int_equal(m.cube_owner, 1);
    assert_int_equal(m.turn, 1);
    /* Dropping the raccoon loses the beavered cube, 4. */
    OK(match_drop(&dropped, &e_));
    assert_int_equal(dropped.winner, 1);
    assert_int_equal(dropped.points, 4);

    /* The maximum cube stops a beaver whose take would pass it. */
    r.max_cube = 4;
    m = opened(&r, 0);
    OK(match_double(&m, &e_));
    OK(match_beaver(&m, &e_));
    REFUSED(m, match_beaver(&m, &e_), "cannot raccoon: the cube would pass the maximum of 4");

    r = rules_default();
    m = opened(&r, 0);
    OK(match_double(&m, &e_));
    REFUSED(m, match_beaver(&m, &e_), "cannot beaver: the rules allow no beavers");
}

/* --- resignations --------------------------------------------------------- */

static int resign_points(const Rules *r, int level, bool turn_cube)
{
    Match m = opened(r, 0);
    if (turn_cube) {
        OK(match_double(&m, &e_));
        OK(match_take(&m, &e_));
    }
    OK(match_resign(&m, level, &e_));
    assert_int_equal(match_actions(&m), ACT_ACCEPT | ACT_REJECT);
    OK(match_accept(&m, &e_));
    assert_int_equal(m.phase, PHASE_RESIGNED);
    assert_int_equal(m.winner, 0);
    return m.points;
}

static void test_resignation_values(void **state)
{
    (void)state;
    Rules r = rules_default();
    assert_int_equal(resign_points(&r, 1, false), 1);
    assert_int_equal(resign_points(&r, 2, false), 2);
    assert_int_equal(resign_points(&r, 3, false), 3);
    assert_int_equal(resign_points(&r, 1, true), 2);
    assert_int_equal(resign_points(&r, 2, true), 4);
    assert_int_equal(resign_points(&r, 3, true), 6);
    r.backgammons = false;
    assert_int_equal(resign_points(&r, 3, true), 4);
    r.backgammons = true;
    r.jacoby = true;
    assert_int_equal(resign_points(&r, 2, false), 1);
    assert_int_equal(resign_points(&r, 3, true), 6);
}

static void test_resignation_flow(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = opened(&r, 7);
    OK(match_roll(&m, 3, 1, &e_)); /* a player may resign after rolling */
    OK(match_resign(&m, 1, &e_));
    assert_int_equal(m.turn, 0);
    MatchId id = ids_of(&m);
    assert_int_equal(id.game_state, MATCHID_GAME_PLAYING);
    assert_int_equal(id.resigned, 1);
    assert_int_equal(id.turn, 0);
    assert_int_equal(id.dice_owner, 1);
    assert_int_equal(id.dice[0], 3);
    assert_int_equal(id.dice[1], 1);
    REFUSED(m, match_move(&m, &m.board, &e_), "cannot move: a resignation offer awaits an answer");
    REFUSED(m, match_resign(&m, 2, &e_), "cannot resign: a resignation offer awaits an answer");
    OK(match_reject(&m, &e_));
    assert_int_equal(m.turn, 1);
    REFUSED(m, match_resign(&m, 1, &e_),
            "cannot resign a single game: a single game was just rejected, offer more");
    OK(match_resign(&m, 2, &e_));
    OK(match_reject(&m, &e_));
    OK(match_resign(&m, 3, &e_));
    OK(match_reject(&m, &e_));
    assert_int_equal(match_actions(&m), ACT_MOVE);
    REFUSED(m, match_resign(&m, 3, &e_), "cannot resign: a backgammon was just rejected");
    assert_int_equal(match_legal_moves(&m, &moves), m.legal_moves);
    OK(match_move(&m, &moves.moves[0].result, &e_));
    /* A new turn: player 0 may offer a single again... */
    OK(match_resign(&m, 1, &e_));
    OK(match_reject(&m, &e_));
    /* ...and the declined level is forgotten once he acts. */
    OK(match_roll(&m, 4, 2, &e_));
    OK(match_resign(&m, 1, &e_));
    OK(match_reject(&m, &e_));
    REFUSED(m, match_resign(&m, 4, &e_), "cannot resign: level 4 is not 1 (single), 2 (gammon) or 3");
    REFUSED(m, match_resign(&m, 0, &e_), "level 0 is not");
    REFUSED(m, match_accept(&m, &e_), "cannot accept: no resignation offered");
    REFUSED(m, match_reject(&m, &e_), "cannot reject: no resignation offered");
}

/* --- moves ------------------------------------------------------------- */

static void test_forced_and_pass(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = start(&r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    /* Player 0 on the bar against a closed board: 6-6 has no move. */
    set_board(&m, "25x1 6x14", "1x2 2x2 3x2 4x2 5x2 6x2 13x3");
    give_turn(&m, 0);
    OK(match_roll(&m, 6, 6, &e_));
    assert_int_equal(m.legal_moves, 0);
    assert_false(match_forced(&m));
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_RESIGN);
    assert_int_equal(match_legal_moves(&m, &moves), 0);
    REFUSED(m, match_move(&m, &m.board, &e_), "cannot move: 6-6 has no legal move (pass)");
    OK(match_play_forced(&m, &e_));
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.turns[0], 1);

    /* The 1-point open: 6-1 must enter with the 1 and go on 24/18 with the
     * same checker (the rest are home but one is out): one legal move. */
    set_board(&m, "25x1 1x14", "2x2 3x2 4x2 5x2 6x2 13x5");
    give_turn(&m, 0);
    OK(match_roll(&m, 6, 1, &e_));
    assert_int_equal(m.legal_moves, 1);
    assert_true(match_forced(&m));
    REFUSED(m, match_pass(&m, &e_), "cannot pass: 6-1 has 1 legal move");
    OK(match_play_forced(&m, &e_));
    assert_int_equal(m.board.side[0][17], 1);
    assert_int_equal(m.board.side[0][POS_BAR], 0);

    /* A choice: not forced. */
    m = start(&r, 0);
    OK(match_opening_roll(&m, 3, 1, &e_));
    assert_false(match_forced(&m));
    REFUSED(m, match_play_forced(&m, &e_),
            "cannot play a forced move: 3-1 has 16 legal moves to choose from");
    /* Not one of the legal moves: the position after 8/4. */
    Position bad;
    match_position(&m, &bad);
    assert_true(movegen_apply_part(&bad, 7, 2));
    REFUSED(m, match_move(&m, &bad, &e_), "illegal move: not one of the 16 legal moves for 3-1");
    REFUSED(m, match_move(&m, NULL, &e_), "illegal move: no position given");
}

/* --- closed out --------------------------------------------------------- */

/* Player 0 on the bar against player 1's closed board: every point of
 * player 1's home board held, all his checkers home. */
static Match closed_out(const Rules *r)
{
    Match m = start(r, 0);
    OK(match_opening_roll(&m, 5, 2, &e_));
    set_board(&m, "25x1 6x14", "1x2 2x2 3x2 4x2 5x2 6x5");
    give_turn(&m, 0);
    return m;
}

static void test_closed_out_no_roll(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.closed_out = CLOSED_OUT_NO_ROLL;
    Match m = closed_out(&r);
    assert_true(match_closed_out(&m));
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_DOUBLE | ACT_RESIGN);
    REFUSED(m, match_roll(&m, 6, 6, &e_),
            "cannot roll: player 0 is closed out (on the bar against a closed home board) and "
            "under the no-roll rule passes without rolling");
    REFUSED(m, match_move(&m, &m.board, &e_), "cannot move: the dice are not rolled yet");
    assert_false(match_forced(&m));
    assert_int_equal(match_legal_moves(&m, &moves), 0);
    /* The Match ID shows no dice, and reads back as the same closed-out
     * state. */
    expect_ids(&m, "MAEAAAAAAAAE", "27YPAADg/wcAQA"); /* docs/rules.md */
    MatchId id = ids_of(&m);
    assert_int_equal(id.dice[0], 0);
    assert_int_equal(id.dice_owner, 0);
    Match back;
    Position pos;
    OK(match_to_ids(&m, &id, &pos, &e_));
    OK(match_from_ids(&back, &r, &id, &pos, &e_));
    assert_true(match_closed_out(&back));
    assert_int_equal(match_actions(&back), ACT_PASS | ACT_DOUBLE | ACT_RESIGN);

    /* The pass: no dice, the turn counts, player 1 rolls. */
    OK(match_pass(&m, &e_));
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.turn, 1);
    assert_int_equal(m.turns[0], 1);
    assert_int_equal(m.dice[0] + m.dice[1], 0);
    assert_false(match_closed_out(&m));
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);

    /* Player 1 bears off, keeping his board closed for two turns: player
     * 0 passes each time... */
    OK(match_roll(&m, 2, 1, &e_));
    play(&m, "6/4 6/5");
    assert_true(match_closed_out(&m));
    OK(match_pass(&m, &e_));
    OK(match_roll(&m, 6, 5, &e_));
    play(&m, "6/0 5/0");
    assert_true(match_closed_out(&m));
    OK(match_pass(&m, &e_));
    assert_int_equal(m.turns[0], 3);
    /* ...until 6-6 opens his 6- and 5-points: player 0 rolls again. */
    OK(match_roll(&m, 6, 6, &e_));
    play(&m, "6/0 6/0 5/0 5/0");
    assert_int_equal(m.on_roll, 0);
    assert_false(match_closed_out(&m));
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    REFUSED(m, match_pass(&m, &e_), "cannot pass: the dice are not rolled yet");
    OK(match_roll(&m, 5, 2, &e_));
    assert_true(m.legal_moves > 0);
    play(&m, "25/20 20/18");
    assert_int_equal(m.board.side[0][POS_BAR], 0);
}

/* docs/rules.md's example: player 1's 6-5 opens his 5-point, and player 0
 * rolls again and enters with a 5, hitting. */
static void test_closed_out_example(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.closed_out = CLOSED_OUT_NO_ROLL;
    Match m = closed_out(&r);
    OK(match_pass(&m, &e_));
    OK(match_roll(&m, 6, 5, &e_));
    play(&m, "6/0 5/0");
    assert_false(match_closed_out(&m));
    OK(match_roll(&m, 5, 2, &e_));
    play(&m, "25/20 6/4");
    assert_int_equal(m.board.side[1][POS_BAR], 1);
    /* By default he rolls, finds no move and passes. */
    Rules def = rules_default();
    m = closed_out(&def);
    REFUSED(m, match_pass(&m, &e_), "cannot pass: the dice are not rolled yet");
    OK(match_roll(&m, 5, 2, &e_));
    assert_int_equal(m.legal_moves, 0);
    OK(match_pass(&m, &e_));
    assert_int_equal(m.on_roll, 1);
}

/* The cube and a resignation come before the roll, so a closed-out player
 * may double or resign before he passes; the pass waits for the answer. */
static void test_closed_out_cube_and_resign(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.closed_out = CLOSED_OUT_NO_ROLL;
    Match m = closed_out(&r);
    OK(match_double(&m, &e_));
    assert_true(match_closed_out(&m)); /* still his pass to come */
    assert_false(match_actions(&m) & ACT_PASS);
    REFUSED(m, match_pass(&m, &e_), "cannot pass: a double awaits an answer");
    OK(match_take(&m, &e_));
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_RESIGN); /* he no longer owns the cube */
    OK(match_resign(&m, 1, &e_));
    OK(match_reject(&m, &e_));
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_RESIGN);
    /* match_play_forced passes too: there is nothing else to do. */
    OK(match_play_forced(&m, &e_));
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.cube_owner, 1);

    /* In a match the same: the player closed out may double. */
    m = closed_out(&r);
    m.length = 5;
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_DOUBLE | ACT_RESIGN);
    /* Without a cube only the pass and a resignation. */
    r.cube = false;
    m = closed_out(&r);
    assert_int_equal(match_actions(&m), ACT_PASS | ACT_RESIGN);
}

/* What is not a closed board, and the default rule, which rolls. */
static void test_closed_out_cases(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.closed_out = CLOSED_OUT_NO_ROLL;
    Match m = closed_out(&r);
    assert_true(match_closed_out(&m));
    /* A blot in the home board: it can be hit, so he rolls. */
    set_board(&m, "25x1 6x14", "1x2 2x2 3x1 4x2 5x2 6x6");
    assert_false(match_closed_out(&m));
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    /* Five points held: not closed. */
    set_board(&m, "25x1 6x14", "2x3 3x2 4x2 5x2 6x6");
    assert_false(match_closed_out(&m));
    /* Nobody on the bar: the closed board does not matter. */
    set_board(&m, "6x15", "1x2 2x2 3x2 4x2 5x2 6x5");
    assert_false(match_closed_out(&m));
    /* Two on the bar: closed out as well. */
    set_board(&m, "25x2 6x13", "1x2 2x2 3x2 4x2 5x2 6x5");
    assert_true(match_closed_out(&m));
    /* The player on roll matters, not the player closed out elsewhere. */
    set_board(&m, "1x2 2x2 3x2 4x2 5x2 6x5", "25x1 6x14");
    assert_false(match_closed_out(&m));
    give_turn(&m, 1);
    assert_true(match_closed_out(&m));

    /* A Match ID whose closed-out player has dice is not of these rules,
     * but is of the default rules. */
    Rules def = rules_default();
    Match rolled = closed_out(&def);
    assert_false(match_closed_out(&rolled));
    assert_int_equal(match_actions(&rolled), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    REFUSED(rolled, match_pass(&rolled, &e_), "cannot pass: the dice are not rolled yet");
    OK(match_roll(&rolled, 6, 6, &e_));
    assert_int_equal(rolled.legal_moves, 0);
    MatchId id;
    Position pos;
    Match back;
    Err err = {{0}};
    OK(match_to_ids(&rolled, &id, &pos, &e_));
    OK(match_from_ids(&back, &def, &id, &pos, &e_));
    assert_false(match_from_ids(&back, &r, &id, &pos, &err));
    assert_non_null(strstr(err.text, "player 0 is closed out and, under the no-roll rule, "
                                     "cannot have rolled 6-6"));
    /* The default rule as before: roll, no legal move, pass. */
    OK(match_pass(&rolled, &e_));
    assert_int_equal(rolled.on_roll, 1);
}

/* --- illegal actions, game and match end -------------------------------- */

static void test_illegal_actions(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = start(&r, 3);
    REFUSED(m, match_roll(&m, 1, 2, &e_), "cannot roll: the opening roll comes first");
    REFUSED(m, match_double(&m, &e_), "cannot double: the opening roll comes first");
    REFUSED(m, match_new_game(&m, &e_), "cannot start a new game: this game is not over");
    REFUSED(m, match_opening_roll(&m, 7, 1, &e_), "the dice 7 and 1 are not both 1..6");
    REFUSED(m, match_opening_roll(&m, 3, 0, &e_), "the dice 3 and 0 are not both 1..6");
    OK(match_opening_roll(&m, 5, 2, &e_));
    REFUSED(m, match_opening_roll(&m, 5, 2, &e_), "cannot roll the opening: the game is under way");
    REFUSED(m, match_roll(&m, 1, 2, &e_), "cannot roll: the dice are already rolled");
    REFUSED(m, match_double(&m, &e_), "cannot double: the dice are already rolled");
    REFUSED(m, match_take(&m, &e_), "cannot take: no double offered");
    REFUSED(m, match_drop(&m, &e_), "cannot drop: no double offered");
    REFUSED(m, match_beaver(&m, &e_), "cannot beaver: no double offered");
    play(&m, "13/8 13/11");
    REFUSED(m, match_move(&m, &m.board, &e_), "cannot move: the dice are not rolled yet");
    REFUSED(m, match_pass(&m, &e_), "cannot pass: the dice are not rolled yet");
    REFUSED(m, match_roll(&m, -1, 2, &e_), "are not both 1..6");
    OK(match_double(&m, &e_));
    OK(match_take(&m, &e_));
    roll_and_play(&m, 3, 1);
    roll_and_play(&m, 4, 2);
    REFUSED(m, match_double(&m, &e_), "cannot double: opponent owns the cube");
    REFUSED(m, match_can(&m, (MatchAction)(1 << 20), &e_), "no such action");

    /* Game over, then the match: player 0 wins a gammon (2-0) with the
     * 2-cube: 4 points end the 3-point match. */
    win_game(&m, 0, "6x15");
    assert_int_equal(m.points, 4);
    assert_true(match_over(&m));
    assert_int_equal(match_actions(&m), 0);
    assert_int_equal(match_turn(&m), -1);
    REFUSED(m, match_new_game(&m, &e_), "cannot start a new game: the match is over");
    REFUSED(m, match_roll(&m, 1, 2, &e_), "cannot roll: the game is over");
    REFUSED(m, match_opening_roll(&m, 1, 2, &e_), "cannot roll the opening: the game is over");
    REFUSED(m, match_resign(&m, 1, &e_), "cannot resign: the game is over");
    MatchId id = ids_of(&m);
    assert_int_equal(id.game_state, MATCHID_GAME_OVER);
    assert_int_equal(m.score[0], 4);
    assert_int_equal(id.score[0], 3); /* cut to the length, as gnubg reads it */
    assert_int_equal(id.score[1], 0);
    assert_int_equal(id.cube, 2);
    assert_int_equal(id.cube_owner, 0);
    assert_int_equal(id.dice[0], 0);

    Match bad;
    Err err;
    assert_false(match_start(&bad, &r, 65, &err));
    assert_non_null(strstr(err.text, "match length 65 is outside 0..64"));
    assert_false(match_start(&bad, &r, -1, &err));
    assert_false(match_start(&bad, NULL, 3, &err));
    r.max_cube = 3;
    assert_false(match_start(&bad, &r, 3, &err));
    assert_non_null(strstr(err.text, "max cube 3"));
}

/* A whole 3-point match: scores, games, Crawford, match end. */
static void test_match_end(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m = start(&r, 3);
    OK(match_opening_roll(&m, 6, 1, &e_));
    win_game(&m, 1, "6x15"); /* gammon: 0-2 */
    assert_int_equal(m.score[1], 2);
    assert_false(match_over(&m));
    OK(match_new_game(&m, &e_));
    assert_true(m.crawford);
    OK(match_opening_roll(&m, 6, 1, &e_));
    win_game(&m, 0, "6x14"); /* 1-2 */
    OK(match_new_game(&m, &e_));
    assert_false(m.crawford);
    assert_true(m.post_crawford);
    OK(match_opening_roll(&m, 6, 1, &e_));
    win_game(&m, 0, "6x14"); /* 2-2 */
    OK(match_new_game(&m, &e_));
    assert_true(m.post_crawford);
    OK(match_opening_roll(&m, 1, 6, &e_));
    win_game(&m, 1, "6x14"); /* 2-3 */
    assert_true(match_over(&m));
    assert_int_equal(m.games, 4);

    /* Money: never over, the score runs on. */
    m = start(&r, 0);
    for (int g = 0; g < 3; g++) {
        OK(match_opening_roll(&m, 6, 1, &e_));
        win_game(&m, 0, "6x15");
        assert_false(match_over(&m));
        OK(match_new_game(&m, &e_));
    }
    assert_int_equal(m.score[0], 6);
}

/* --- Match ID ---------------------------------------------------------- */

/* Reads a Match ID and Position ID, and writes them back as `out`. */
static void from_id(Match *m, const Rules *r, const char *matchid, const char *posid,
                    const char *out)
{
    MatchId id;
    Position p;
    OK(matchid_decode(matchid, &id, &e_));
    OK(posid_decode(posid, &p, &e_));
    OK(match_from_ids(m, r, &id, &p, &e_));
    expect_ids(m, out, posid);
}

static void test_ids_examples(void **state)
{
    (void)state;
    Rules r = rules_default();
    Match m;
    /* gnubg manual: 9-point match 2-4, player 0 owns a 2-cube, player 1
     * rolled 5-2. */
    from_id(&m, &r, "QYkqASAAIAAA", "4HPwATDgc/ABMA", "QYkqASAAIAAE");
    assert_int_equal(m.length, 9);
    assert_int_equal(m.cube, 2);
    assert_int_equal(m.cube_owner, 0);
    assert_int_equal(m.on_roll, 1);
    assert_int_equal(m.legal_moves, 8);
    assert_true(match_can(&m, ACT_MOVE, NULL));
    from_id(&m, &r, "8ImlACAAIAAA", "4HPwATDgc/ABMA", "8ImlACAAIAAE");
    assert_true(m.crawford);
    REFUSED(m, match_double(&m, &e_), "Crawford game");
    r.jacoby = true;
    from_id(&m, &r, "UQkAAAAAAAAA", "4HPwATDgc/ABMA", "UQkAAAAAAAAA");
    assert_int_equal(m.cube_owner, 1);
    assert_int_equal(match_actions(&m), ACT_ROLL | ACT_DOUBLE | ACT_RESIGN);
    from_id(&m, &r, "MAEAAAAAAAAA", "4HPwATDgc/ABMA", "MAEAAAAAAAAA");

    /* Beaver and raccoon pending, money with 2 animals allowed. */
    r.beavers = 2;
    m = opened(&r, 0);
    OK(match_double(&m, &e_));
    OK(match_beaver(&m, &e_));
    Match back;
    MatchId id;
    Position p;
    OK(match_to_ids(&m, &id, &p, &e_));
    assert_int_equal(id.cube_owner, 0);
    assert_int_equal(id.turn, 1);
    assert_int_equal(id.dice_owner, 1);
    OK(match_from_ids(&back, &r, &id, &p, &e_));
    assert_int_equal(back.animals, 1);
    OK(match_beaver(&m, &e_));
    OK(match_to_ids(&m, &id, &p, &e_));
    OK(match_from_ids(&back, &r, &id, &p, &e_));
    assert_int_equal(back.animals, 2);
    OK(match_take(&back, &e_));
    assert_int_equal(back.cube_owner, 1);
    assert_int_equal(back.cube, 8);

    /* Inconsistent IDs are refused with a reason. */
    static const struct {
        const char *matchid, *posid, *message;
    } bad[] = {
        /* a Crawford game with the rules' Crawford rule off is checked
         * below; here IDs that no rules make consistent */
        {"cIkFAAAAAAAA", "4HPwATDgc/ABMA", "the Jacoby rule is on in the Match ID but off"},
    };
    Rules plain = rules_default();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        OK(matchid_decode(bad[i].matchid, &id, &e_));
        OK(posid_decode(bad[i].posid, &p, &e_));
        Err err = {{0}};
        assert_false(match_from_ids(&m, &plain, &id, &p, &err));
        assert_non_null(strstr(err.text, bad[i].message));
    }
    Rules no_crawford = rules_default();
    no_crawford.crawford = false;
    OK(matchid_decode("8ImlACAAIAAA", &id, &e_));
    pos_start(&p);
    Err err;
    assert_false(match_from_ids(&m, &no_crawford, &id, &p, &err));
    assert_non_null(strstr(err.text, "a Crawford game, but the rules have no Crawford rule"));
    /* Doubled after rolling; the doubler to answer; a turned cube in the
     * Crawford game; a score of 4 in the Crawford game of a 9-point match;
     * a game over without a winner; a cube above the rules' maximum. */
    MatchId base;
    OK(matchid_decode("QYkqASAAIAAA", &base, &e_));
    id = base;
    id.doubled = true;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "a double is offered after the dice were rolled"));
    id = base;
    id.dice[0] = id.dice[1] = 0;
    id.doubled = true;
    id.turn = 1;
    id.cube_owner = 1;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "a double is offered but the doubler is to answer it"));
    id = base;
    id.crawford = true;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "a Crawford game needs exactly one player one point"));
    id = base;
    id.game_state = MATCHID_GAME_OVER;
    id.dice[0] = id.dice[1] = 0;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "not exactly one player has borne off"));
    id = base;
    id.cube = 128;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "the cube 128 is above the rules' maximum of 64"));
    id = base;
    id.turn = 0;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "the player to act is not the player on roll"));
    id = base;
    id.game_state = MATCHID_GAME_NONE;
    id.dice[0] = id.dice[1] = 0;
    p.side[0][5]--; /* 6/5 */
    p.side[0][4]++;
    assert_false(match_from_ids(&m, &plain, &id, &p, &err));
    assert_non_null(strstr(err.text, "the game has not started but the checkers are not at"));
}

/* Every row of gnubg's Match ID vectors: either refused with a reason (its
 * random fields describe no reachable state with the start position) or
 * accepted and written back to the same ID. */
static void test_ids_vectors(void **state)
{
    (void)state;
    TsvReader *t = malloc(sizeof *t);
    assert_non_null(t);
    assert_true(tsv_open(t, "positions/gnubg-1.07/matchid.tsv.gz"));
    int rows = 0, accepted = 0, refused = 0;
    Position start_pos;
    pos_start(&start_pos);
    while (tsv_next(t)) {
        rows++;
        MatchId id;
        OK(matchid_decode(t->field[0], &id, &e_));
        Rules r = rules_default();
        r.jacoby = id.jacoby && id.match_length == 0;
        r.beavers = RULES_COUNT_LIMIT;
        r.auto_doubles = RULES_COUNT_LIMIT;
        r.max_cube = RULES_MAX_CUBE_LIMIT;
        Match m;
        Err err = {{0}};
        if (!match_from_ids(&m, &r, &id, &start_pos, &err)) {
            assert_true(err.text[0] != '\0');
            refused++;
            continue;
        }
        accepted++;
        MatchId back;
        Position p;
        OK(match_to_ids(&m, &back, &p, &e_));
        if (id.match_length > 0)
            back.jacoby = id.jacoby; /* gnubg's flag means nothing in a match */
        if (id.game_state == MATCHID_GAME_NONE) {
            /* who is "on roll" before the opening roll means nothing */
            back.dice_owner = id.dice_owner;
            back.turn = id.turn;
        }
        char out[MATCHID_LEN + 1];
        OK(matchid_encode(&back, out, &e_));
        if (strcmp(out, t->field[0]))
            fail_msg("row %d: %s came back as %s", t->lineno, t->field[0], out);
        assert_true(pos_equal(&p, &start_pos));
    }
    tsv_close(t);
    free(t);
    print_message("matchid.tsv: %d rows, %d accepted and written back identically, %d refused\n",
                  rows, accepted, refused);
    assert_true(rows >= 97);
    assert_true(accepted >= 10);
    assert_true(refused >= 10);
}

/* --- random games: invariants and the Match ID round trip ---------------- */

static unsigned lcg(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* The state a Match ID can carry must survive a trip through it. */
static void check_round_trip(const Match *m)
{
    MatchId id;
    Position p;
    Match back;
    Err err = {{0}};
    if (!match_to_ids(m, &id, &p, &err))
        fail_msg("to_ids: %s", err.text);
    if (!match_from_ids(&back, &m->rules, &id, &p, &err))
        fail_msg("from_ids refused its own state (phase %d): %s", m->phase, err.text);
    assert_int_equal(back.phase, m->phase);
    assert_true(pos_equal(&back.board, &m->board));
    assert_int_equal(back.cube, m->cube);
    assert_int_equal(back.cube_owner, m->cube_owner);
    assert_int_equal(back.doubled, m->doubled);
    assert_int_equal(back.resigned, m->resigned);
    for (int s = 0; s < 2; s++)
        assert_int_equal(back.score[s],
                         m->length && m->score[s] > m->length ? m->length : m->score[s]);
    assert_int_equal(back.crawford, m->crawford);
    if (m->phase == PHASE_PLAYING || m->phase == PHASE_OPENING)
        assert_int_equal(back.post_crawford, m->post_crawford);
    if (m->phase == PHASE_PLAYING) {
        assert_int_equal(back.on_roll, m->on_roll);
        assert_int_equal(back.turn, m->turn);
        assert_int_equal(back.legal_moves, m->legal_moves);
        /* an ID tells a beaver from a raccoon, not how many came before */
        assert_int_equal(back.animals, m->animals == 0 ? 0 : 2 - m->animals % 2);
        assert_int_equal(back.dice[0] + back.dice[1], m->dice[0] + m->dice[1]);
    } else if (m->phase != PHASE_OPENING) {
        assert_int_equal(back.winner, m->winner);
        assert_int_equal(back.points, m->points);
    }
}

/* Every action match_actions() leaves out must be refused. */
static void check_refusals(const Match *m, unsigned actions)
{
    Match t = *m;
    Err err;
    if (!(actions & ACT_OPENING_ROLL))
        assert_false(match_opening_roll(&t, 2, 1, &err));
    if (!(actions & ACT_ROLL))
        assert_false(match_roll(&t, 2, 1, &err));
    if (!(actions & ACT_DOUBLE))
        assert_false(match_double(&t, &err));
    if (!(actions & ACT_TAKE))
        assert_false(match_take(&t, &err));
    if (!(actions & ACT_DROP))
        assert_false(match_drop(&t, &err));
    if (!(actions & ACT_BEAVER))
        assert_false(match_beaver(&t, &err));
    if (!(actions & ACT_PASS))
        assert_false(match_pass(&t, &err));
    if (!(actions & ACT_RESIGN))
        assert_false(match_resign(&t, 3, &err));
    if (!(actions & ACT_ACCEPT))
        assert_false(match_accept(&t, &err));
    if (!(actions & ACT_REJECT))
        assert_false(match_reject(&t, &err));
    if (!(actions & ACT_NEW_GAME))
        assert_false(match_new_game(&t, &err));
    assert_memory_equal(&t, m, sizeof t);
}

/* The match machine allows a double or a beaver exactly when the rules of
 * cube_state.h do, on the CubeState it gives the player to act. */
static void check_cube_rules(const Match *m, unsigned actions)
{
    CubeState cs;
    int seat = match_cube_state(m, &cs);
    assert_int_equal(seat, m->phase != PHASE_PLAYING ? -1 : m->doubled ? !m->turn : m->turn);
    if (seat < 0) {
        assert_false(actions & (ACT_DOUBLE | ACT_BEAVER));
        return;
    }
    Err err = {{0}};
    if (!match_over(m) && !cubestate_valid(&cs, &err))
        fail_msg("match_cube_state: %s", err.text);
    bool asked = !m->doubled && !m->resigned && !m->dice[0];
    assert_int_equal(!!(actions & ACT_DOUBLE), asked && cubestate_may_double(&cs, SIDE_ROLLER));
    assert_int_equal(!!(actions & ACT_BEAVER), m->doubled && cubestate_may_beaver(&cs));
    for (int p = 0; p < 2; p++) {
        CubeState from_p;
        Match t = *m;
        t.doubled = false;
        t.on_roll = t.turn = p;
        match_cube_state(&t, &from_p);
        assert_int_equal(match_cube_dead(m, p), cubestate_dead(&from_p, SIDE_ROLLER));
    }
}

/* Takes a random legal action. */
static void random_action(Match *m, unsigned *seed)
{
    unsigned acts = match_actions(m);
    assert_true(acts != 0);
    int n = 0;
    unsigned list[16];
    for (unsigned a = 1; a <= ACT_NEW_GAME; a <<= 1)
        if (acts & a)
            list[n++] = a;
    unsigned a = list[lcg(seed) % (unsigned)n];
    /* Resigning and doubling end games quickly: keep them rare so that
     * games also end by bearing off. */
    unsigned keep = a == ACT_RESIGN ? 40 : a == ACT_DOUBLE ? 6 : 1;
    if (lcg(seed) % keep) {
        unsigned common[16];
        int nc = 0;
        for (int i = 0; i < n; i++)
            if (list[i] != ACT_RESIGN && list[i] != ACT_DOUBLE)
                common[nc++] = list[i];
        if (nc)
            a = common[lcg(seed) % (unsigned)nc];
    }
    int d1 = 1 + (int)(lcg(seed) % 6), d2 = 1 + (int)(lcg(seed) % 6);
    switch (a) {
    case ACT_OPENING_ROLL: OK(match_opening_roll(m, d1, d2, &e_)); break;
    case ACT_ROLL: OK(match_roll(m, d1, d2, &e_)); break;
    case ACT_DOUBLE: OK(match_double(m, &e_)); break;
    case ACT_TAKE: OK(match_take(m, &e_)); break;
    case ACT_DROP: OK(match_drop(m, &e_)); break;
    case ACT_BEAVER: OK(match_beaver(m, &e_)); break;
    case ACT_PASS: OK(match_pass(m, &e_)); break;
    case ACT_ACCEPT: OK(match_accept(m, &e_)); break;
    case ACT_REJECT: OK(match_reject(m, &e_)); break;
    case ACT_NEW_GAME: OK(match_new_game(m, &e_)); break;
    case ACT_RESIGN: {
        int level = m->resign_declined + 1 + (int)(lcg(seed) % (unsigned)(3 - m->resign_declined));
        OK(match_resign(m, level, &e_));
        break;
    }
    case ACT_MOVE:
        assert_int_equal(match_legal_moves(m, &moves), m->legal_moves);
        OK(match_move(m, &moves.moves[lcg(seed) % (unsigned)moves.count].result, &e_));
        break;
    default: fail_msg("action %u", a);
    }
}

static void test_random_games(void **state)
{
    (void)state;
    static const struct {
        const char *preset;
        int length;
        bool holland, star;
        int beavers, autos;
        bool home_zone, no_roll;
    } setups[] = {
        {"international", 5, false, false, 0, 0, false, false},
        {"international", 3, true, true, 0, 0, false, false},
        {"cafe", 7, true, false, 0, 0, false, false},
        {"money", 0, false, false, 3, 2, false, false},
        {"gnubg", 0, false, true, 3, 0, false, false},
        {"nocube", 0, false, false, 0, 0, false, false},
        {"cafe", 0, false, false, 2, 1, false, false},
        {"international", 1, false, false, 0, 0, false, false},
        {"international", 5, false, true, 0, 0, true, true},
        {"money", 0, false, false, 1, 1, false, true},
    };
    unsigned seed = 12345;
    long states = 0, games = 0;
    for (size_t s = 0; s < sizeof setups / sizeof setups[0]; s++) {
        Rules r;
        OK(rules_preset(setups[s].preset, &r, &e_));
        r.holland = setups[s].holland;
        r.star_mars = setups[s].star;
        r.beavers = setups[s].beavers;
        r.auto_doubles = setups[s].autos;
        r.backgammon_zone = setups[s].home_zone ? BG_ZONE_HOME : BG_ZONE_HOME_OR_BAR;
        r.closed_out = setups[s].no_roll ? CLOSED_OUT_NO_ROLL : CLOSED_OUT_ROLL;
        for (int round = 0; round < 6; round++) {
            Match m = start(&r, setups[s].length);
            int game_limit = 8;
            while (!match_over(&m) && game_limit > 0) {
                unsigned acts = match_actions(&m);
                check_round_trip(&m);
                check_refusals(&m, acts);
                check_cube_rules(&m, acts);
                states++;
                if (acts == ACT_NEW_GAME) {
                    games++;
                    game_limit--;
                }
                random_action(&m, &seed);
            }
        }
    }
    print_message("random games: %ld games, %ld states checked\n", games, states);
    assert_true(games > 100);
}

/* Random play rarely closes a board: random games from the closed-out
 * position, under the no-roll rule, with the checks of every state above
 * (the Match ID round trip, every action left out refused, the cube). */
static void test_closed_out_random(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.closed_out = CLOSED_OUT_NO_ROLL;
    unsigned seed = 777;
    long closed = 0;
    for (int game = 0; game < 40; game++) {
        Match m = closed_out(&r);
        m.length = game % 2 ? 5 : 0;
        while (m.phase == PHASE_PLAYING) {
            unsigned acts = match_actions(&m);
            check_round_trip(&m);
            check_refusals(&m, acts);
            check_cube_rules(&m, acts);
            if (match_closed_out(&m)) {
                assert_false(acts & ACT_ROLL);
                assert_int_equal(!!(acts & ACT_PASS), !m.doubled && !m.resigned);
                closed++;
            }
            random_action(&m, &seed);
        }
    }
    print_message("closed out: %ld states without a roll checked\n", closed);
    assert_true(closed >= 40);
}

/* --- gnubg 1.07 as the reference ---------------------------------------- */

/* Games gnubg 1.07 itself refereed (gnubg -t, two human players, a script
 * taking random legal actions), one step per string: the action, then
 * gnubg's Match ID and Position ID after it. Actions: n new game with its
 * opening roll; r roll; rNM a roll of N-M with no legal move, which gnubg
 * passes by itself; m the move that leads to that Position ID; d double,
 * t take, p drop, b beaver, sN resign N, a accept, j reject. A "#" entry
 * starts a new match under the rules options it lists (gnubg's `set`
 * commands of that run). Two 3-point matches and a 1-point match (Crawford
 * and post-Crawford games, drops, resignations), a money session with
 * beavers, two with automatic doubles and Jacoby, and a Jacoby game played
 * out to a backgammon that scores 1. Replaying each step must give gnubg's
 * IDs exactly. */
static const char *const gnubg_steps[] = {
    "# rules=gnubg jacoby=off beavers=0",
    "n cIlmAAAAAAAE 4HPwATDgc/ABMA", "m MAFgAAAAAAAE wmfwATDgc/ABMA",
    "r MIFqAAAAAAAE wmfwATDgc/ABMA", "m cAlgAAAAAAAE xE/wATDCZ/ABMA",
    "r cIlmAAAAAAAE xE/wATDCZ/ABMA", "m MAFgAAAAAAAE wtfgATDET/ABMA",
    "d MBlgAAAAAAAE wtfgATDET/ABMA", "p MAxgABAAAAAE wtfgATDET/ABMA",
    "n cAlnABAAAAAE 4HPwATDgc/ABMA", "m MAFgABAAAAAE 4OvgASjgc/ABMA",
    "d MBlgABAAAAAE 4OvgASjgc/ABMA", "t EQFgABAAAAAE 4OvgASjgc/ABMA",
    "s3 EWlgABAAAAAE 4OvgASjgc/ABMA", "j EQFgABAAAAAE 4OvgASjgc/ABMA",
    "r EYFqABAAAAAE 4OvgASjgc/ABMA", "m UQlgABAAAAAE xGfkATDg6+ABKA",
    "d URFgABAAAAAE xGfkATDg6+ABKA", "p 0QRgABAAEAAE xGfkATDg6+ABKA",
    "n 8AlrABAAEAAE 4HPwATDgc/ABMA", "m sAFgABAAEAAE 4OvgASTgc/ABMA",
    "r sAFuABAAEAAE 4OvgASTgc/ABMA", "m 8AlgABAAEAAE xHPwASHg6+ABUA",
    "r 8IlqABAAEAAE xHPwASHg6+ABUA", "m sAFgABAAEAAE 4NfgASHEc/ABIQ",
    "r sAFqABAAEAAE 4NfgASHEc/ABIQ", "m 8AlgABAAEAAE imfwASHg1+ABIQ",
    "r 8IllABAAEAAE imfwASHg1+ABIQ", "m sAFgABAAEAAE 4NfCASGKZ/ABIQ",
    "r sAFnABAAEAAE 4NfCASGKZ/ABIQ", "m 8AlgABAAEAAE iWfwQQLgZ+GAYA",
    "r 8IlmABAAEAAE iWfwQQLgZ+GAYA", "m sAFgABAAEAAE 4GfhgCHEM/ggQQ",
    "r sIFpABAAEAAE 4GfhgCHEM/ggQQ", "m 8AlgABAAEAAE wTP4IAngZ+GAQQ",
    "r 8IltABAAEAAE wTP4IAngZ+GAQQ", "m sAFgABAAEAAE 4M+MgAnBM/ggCQ",
    "r sAF7ABAAEAAE 4M+MgAnBM/ggCQ", "m 8AlgABAAEAAE hbfgSALgz4yACQ",
    "s1 8CFgABAAEAAE hbfgSALgz4yACQ", "j 8AlgABAAEAAE hbfgSALgz4yACQ",
    "r 8IlqABAAEAAE hbfgSALgz4yACQ", "m sAFgABAAEAAE kc+MgAmFt+BIAg",
    "r sAFzABAAEAAE kc+MgAmFt+BIAg", "m 8AlgABAAEAAE hbfCkgCRz4yACQ",
    "r 8IluABAAEAAE hbfCkgCRz4yACQ", "m sAFgABAAEAAE Q5+JgAmFt8KSAA",
    "r sIFpABAAEAAE Q5+JgAmFt8KSAA", "m 8AlgABAAEAAE hbeigwBDnwnARA",
    "r 8AluABAAEAAE hbeigwBDnwnARA", "m sAFgABAAEAAE k54JwAqFt6KDAA",
    "r sAF3ABAAEAAE k54JwAqFt6KDAA", "m 8AlgABAAEAAE LV6hgwCTngnAQg",
    "r62 sAFgABAAEAAE k54JwEItXqGDAA", "r sAF7ABAAEAAE k54JwEItXqGDAA",
    "m 8AlgABAAEAAE u/gCgwCTngnAQg", "r62 sAFgABAAEAAE k54JwEK7+AKDAA",
    "r sIFqABAAEAAE k54JwEK7+AKDAA", "m 8AlgABAAEAAE 9/ABgwCTngnAQg",
    "s2 8EFgABAAEAAE 9/ABgwCTngnAQg", "a cENgADAAEAAE 9/ABgwCTngnAQg",
    "# rules=gnubg jacoby=off beavers=0",
    "n MAF3AAAAAAAE 4HPwATDgc/ABMA", "m cAlgAAAAAAAE ik/wATDgc/ABMA",
    "d cBFgAAAAAAAE ik/wATDgc/ABMA", "p cARgAAAACAAE ik/wATDgc/ABMA",
    "n MAFuAAAACAAE 4HPwATDgc/ABMA", "m cAlgAAAACAAE 4HPiASHgc/ABMA",
    "r cAllAAAACAAE 4HPiASHgc/ABMA", "s3 cGFlAAAACAAE 4HPiASHgc/ABMA",
    "a cGNlADAACAAE 4HPiASHgc/ABMA",
    "# rules=gnubg jacoby=off beavers=0",
    "n cAk3AAAAAAAE 4HPwATDgc/ABMA", "m MAEgAAAAAAAE wufgATDgc/ABMA",
    "r MAElAAAAAAAE wufgATDgc/ABMA", "m cAkgAAAAAAAE 4HPwASLgc/AAWA",
    "r cAkzAAAAAAAE 4HPwASLgc/AAWA", "m MAEgAAAAAAAE 4OvgADHgc/ABIg",
    "r MIEtAAAAAAAE 4OvgADHgc/ABIg", "s3 MOktAAAAAAAE 4OvgADHgc/ABIg",
    "j MIEtAAAAAAAE 4OvgADHgc/ABIg", "m cAkgAAAAAAAE xHOOASLg6+AAMQ",
    "s1 cCEgAAAAAAAE xHOOASLg6+AAMQ", "a cCMgABAAAAAE xHOOASLg6+AAMQ",
    "# rules=gnubg jacoby=off beavers=1",
    "n cIkSAAAAAAAE 4HPwATDgc/ABMA", "m MAEAAAAAAAAE xGfhATDgc/ABMA",
    "d MBkAAAAAAAAE xGfhATDgc/ABMA", "t EQEAAAAAAAAE xGfhATDgc/ABMA",
    "r EQELAAAAAAAE xGfhATDgc/ABMA", "m UQkAAAAAAAAE 4HPwQQjgs/AAWA",
    "d UREAAAAAAAAE 4HPwQQjgs/AAWA", "t QgkAAAAAAAAE 4HPwQQjgs/AAWA",
    "r QokWAAAAAAAE 4HPwQQjgs/AAWA", "m AgEAAAAAAAAE g7PwBDDgc/BBCA",
    "r AgEKAAAAAAAE g7PwBDDgc/BBCA", "m QgkAAAAAAAAE 4GfhQQiDs/AEMA",
    "r QokJAAAAAAAE 4GfhQQiDs/AEMA", "s2 QsEJAAAAAAAE 4GfhQQiDs/AEMA",
    "j QokJAAAAAAAE 4GfhQQiDs/AEMA", "m AgEAAAAAAAAE Q4/wBDDgZ+FBCA",
    "r AoEKAAAAAAAE Q4/wBDDgZ+FBCA", "m QgkAAAAAAAAE 4NfgAwhDj/AEMA",
    "r QgkFAAAAAAAE 4NfgAwhDj/AEMA", "m AgEAAAAAAAAE I4/wBCTg1+ADCA",
    "r AoEJAAAAAAAE I4/wBCTg1+ADCA", "m QgkAAAAAAAAE 0F/gAwgjj/AEJA",
    "r QgkTAAAAAAAE 0F/gAwgjj/AEJA", "m AgEAAAAAAAAE I4/wCgjQH/ABRA",
    "r AoENAAAAAAAE I4/wCgjQH/ABRA", "m QgkAAAAAAAAE pB/GAQwjj/ACYA",
    "r QokGAAAAAAAE pB/GAQwjj/ACYA", "m AgEAAAAAAAAE I4/wAiHED+MARg",
    "r66 QgkAAAAAAAAE xA/jAEYjj/ACIQ", "r QgkHAAAAAAAE xA/jAEYjj/ACIQ",
    "m AgEAAAAAAAAE I0/wQgLED+MARg", "d AhkAAAAAAAAE I0/wQgLED+MARg",
    "b ExEAAAAAAAAE I0/wQgLED+MARg", "p EwQAAAAAQAAE I0/wQgLED+MARg",
    "n cAkLAAAAQAAE 4HPwATDgc/ABMA", "m MAEAAAAAQAAE wk/wATDgc/ABMA",
    "r MAEOAAAAQAAE wk/wATDgc/ABMA", "m cAkAAAAAQAAE 4HPiASHCT/ABMA",
    "d cBEAAAAAQAAE 4HPiASHCT/ABMA", "p cAQAAAAASAAE 4HPiASHCT/ABMA",
    "n MAEXAAAASAAE 4HPwATDgc/ABMA", "s2 MEkXAAAASAAE 4HPwATDgc/ABMA",
    "a MEsXAAAAWAAE 4HPwATDgc/ABMA",
    "# rules=gnubg jacoby=on beavers=0 auto-doubles=2",
    "n cAkOAAAAAAAA 4HPwATDgc/ABMA", "m MAEAAAAAAAAA qE/wATDgc/ABMA",
    "s2 MEkAAAAAAAAA qE/wATDgc/ABMA", "j MAEAAAAAAAAA qE/wATDgc/ABMA",
    "d MBkAAAAAAAAA qE/wATDgc/ABMA", "p MAwAABAAAAAA qE/wATDgc/ABMA",
    "n MgEFABAAAAAA 4HPwATDgc/ABMA", "m cgkAABAAAAAA xHPwATDgc/ABMA",
    "d chEAABAAAAAA xHPwATDgc/ABMA", "p cgQAABAAIAAA xHPwATDgc/ABMA",
    "# rules=gnubg jacoby=on beavers=0 auto-doubles=2",
    "n MAEGAAAAAAAA 4HPwATDgc/ABMA", "m cAkAAAAAAAAA 4GvwASHgc/ABMA",
    "s1 cCEAAAAAAAAA 4GvwASHgc/ABMA", "a cCMAABAAAAAA 4GvwASHgc/ABMA",
    "n MYEOABAAAAAA 4HPwATDgc/ABMA", "m cQkAABAAAAAA 0OfgATDgc/ABMA",
    "r cYkGABAAAAAA 0OfgATDgc/ABMA", "m MQEAABAAAAAA 4PPgASjQ5+ABMA",
    "r MQESABAAAAAA 4PPgASjQ5+ABMA", "s1 MSkSABAAAAAA 4PPgASjQ5+ABMA",
    "a MSsSABAAEAAA 4PPgASjQ5+ABMA",
    "# rules=gnubg jacoby=on beavers=0",
    "n cIkJAAAAAAAA 4HPwATDgc/ABMA", "m MAEAAAAAAAAA 0E/wATDgc/ABMA",
    "r MAEXAAAAAAAA 0E/wATDgc/ABMA", "m cAkAAAAAAAAA 4PPgQSDQT/ABMA",
    "r cAkHAAAAAAAA 4PPgQSDQT/ABMA", "m MAEAAAAAAAAA 0C/wQSDg8+ABUA",
    "r MAEKAAAAAAAA 0C/wQSDg8+ABUA", "m cAkAAAAAAAAA 4PPgAQrQL/BBIA",
    "r cIkKAAAAAAAA 4PPgAQrQL/BBIA", "m MAEAAAAAAAAA oh/wQQjg8+ABCg",
    "r MAEXAAAAAAAA oh/wQQjg8+ABCg", "m cAkAAAAAAAAA wufBAQqiH/ABRA",
    "r cIkOAAAAAAAA wufBAQqiH/ABRA", "m MAEAAAAAAAAA Sh/wAQnC58EBQg",
    "r MAEGAAAAAAAA Sh/wAQnC58EBQg", "m cAkAAAAAAAAA oufBAQZKH/ABRA",
    "r cIkKAAAAAAAA oufBAQZKH/ABRA", "m MAEAAAAAAAAA Sp/gARTQ8+AAQw",
    "r MAEHAAAAAAAA Sp/gARTQ8+AAQw", "m cAkAAAAAAAAA oufgACNKn+ABRA",
    "r cAkXAAAAAAAA oufgACNKn+ABRA", "m MAEAAAAAAAAA Sp/gBQjCc3CAUQ",
    "r MIEJAAAAAAAA Sp/gBQjCc3CAUQ", "m cAkAAAAAAAAA wnNigCmkT/ACRA",
    "r cAkFAAAAAAAA wnNigCmkT/ACRA", "m MAEAAAAAAAAA jE/wAiTCc2KAKQ",
    "r MIEFAAAAAAAA jE/wAiTCc2KAKQ", "m cAkAAAAAAAAA wXNiQCOMT/ACRA",
    "r cAkFAAAAAAAA wXNiQCOMT/ACRA", "m MAEAAAAAAAAA TE/wAhTBc2KAUQ",
    "r MAEHAAAAAAAA TE/wAhTBc2KAUQ", "m cAkAAAAAAAAA hWdigDFMT/ACRA",
    "r cIkSAAAAAAAA hWdigDFMT/ACRA", "m MAEAAAAAAAAA TE/hAQqFZ2KAMQ",
    "r MIEGAAAAAAAA TE/hAQqFZ2KAMQ", "m cAkAAAAAAAAA i2ZigDFMT+EBCg",
    "r cAkPAAAAAAAA i2ZigDFMT+EBCg", "m MAEAAAAAAAAA nK7CAQqLZmKAMQ",
    "r MAEXAAAAAAAA nK7CAQqLZmKAMQ", "m cAkAAAAAAAAA F2ViAjGcrsIBCg",
    "r cAkGAAAAAAAA F2ViAjGcrsIBCg", "m MAEAAAAAAAAA mq6GAQoXZWICMQ",
    "r MIESAAAAAAAA mq6GAQoXZWICMQ", "m cAkAAAAAAAAA F8tCAjGaroYBCg",
    "r cIkKAAAAAAAA F8tCAjGaroYBCg", "m MAEAAAAAAAAA WjuFAQoXy0ICWA",
    "r53 cAkAAAAAAAAA F8tCAlhaO4UBCg", "r cIkOAAAAAAAA F8tCAlhaO4UBCg",
    "m MAEAAAAAAAAA unaEgQQXYyEBbA", "r63 cAkAAAAAAAAA F2MhAWy6doSBBA",
    "r cAkbAAAAAAAA F2MhAWy6doSBBA", "m MAEAAAAAAAAA eu0SAgEXYyEBbA",
    "r MIEFAAAAAAAA eu0SAgEXYyEBbA", "m cAkAAAAAAAAA F2MhAVx67RICAQ",
    "r cAkKAAAAAAAA F2MhAVx67RICAQ", "m MAEAAAAAAAAA +rYRAgEXYyEBXA",
    "r43 cAkAAAAAAAAA F2MhAVz6thECAQ", "r cAkOAAAAAAAA F2MhAVz6thECAQ",
    "m MAEAAAAAAAAA 9q0xAAEXYyEBXA", "r MIEEAAAAAAAA 9q0xAAEXYyEBXA",
    "m cAkAAAAAAAAA l1KhADz2rTEAAQ", "r cIkEAAAAAAAA l1KhADz2rTEAAQ",
    "m MAEAAAAAAAAA 9t0wgACXolAAXg", "r MIEGAAAAAAAA 9t0wgACXolAAXg",
    "m cAkAAAAAAAAA l6IhAD723TCAAA", "r cAkTAAAAAAAA l6IhAD723TCAAA",
    "m MAEAAAAAAAAA 9t1oAACXogEAXw", "r54 cAkAAAAAAAAA l6IBAF/23WgAAA",
    "r cAkGAAAAAAAA l6IBAF/23WgAAA", "m MAEAAAAAAAAA 9r1RAACXogEAXw",
    "r MAEFAAAAAAAA 9r1RAACXogEAXw", "m cAkAAAAAAAAA l1IBAD/2vVEAAA",
    "r cIkFAAAAAAAA l1IBAD/2vVEAAA", "m MAEAAAAAAAAA 7nsxAACXUgEAPw",
    "r MAESAAAAAAAA 7nsxAACXUgEAPw", "m cAkAAAAAAAAA rxYAAD/uezEAAA",
    "r cAkTAAAAAAAA rxYAAD/uezEAAA", "m MAEAAAAAAAAA 3vcFAACvFgAAPw",
    "r MAEGAAAAAAAA 3vcFAACvFgAAPw", "m cAkAAAAAAAAA Pw0AAD/e9wUAAA",
    "r cIkNAAAAAAAA Pw0AAD/e9wUAAA", "m MAEAAAAAAAAA Xl8AAPDTAADwAw",
    "r MIEEAAAAAAAA Xl8AAPDTAADwAw", "m cAkAAAAAAAAA fwkAAD9eXwAAAA",
    "r cAkKAAAAAAAA fwkAAD9eXwAAAA", "m MAEAAAAAAAAA 3h4AAPhLAAD4AQ",
    "r MAELAAAAAAAA 3h4AAPhLAAD4AQ", "m cAkAAAAAAAAA fwMABD7eHgAAAA",
    "r cIkWAAAAAAAA fwMABD7eHgAAAA", "m MAEAAAAAAAAA 3gAAgL8BAAIfAA",
    "r MIEKAAAAAAAA 3gAAgL8BAAIfAA", "m cAkAAAAAAAAA fwMIAD7eAAAAAA",
    "r cAkTAAAAAAAA fwMIAD7eAAAAAA", "m MAEAAAAAAAAA HgAA4G8AAcAHAA",
    "r MAEbAAAAAAAA HgAA4G8AAcAHAA", "m cAkAAAAAAAAA fwMIeCAeAAAAAA",
    "r cIkKAAAAAAAA fwMIeCAeAAAAAA", "m MAEAAAAAAAAA BgAA+BtAwAMBAA",
    "r MIESAAAAAAAA BgAA+BtAwAMBAA", "m cAkAAAAAAAAA fwMScCAGAAAAAA",
    "r cAkPAAAAAAAA fwMScCAGAAAAAA", "m MAIAAAAACAAA AAAA/gYk4EAAAA",
};

static Rules rules_from(const char *spec)
{
    RulesCli c;
    rules_cli_init(&c);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        OK(rules_cli_set(&c, tok, eq + 1, &e_));
    }
    Rules r;
    OK(rules_cli_finish(&c, &r, &e_));
    return r;
}

/* Plays the legal move after which the next player sees `posid`. */
static bool play_to(Match *m, const char *posid, Err *err)
{
    int n = match_legal_moves(m, &moves);
    for (int i = 0; i < n; i++) {
        Position p = moves.moves[i].result;
        char id[POSID_LEN + 1];
        pos_swap(&p);
        posid_encode(&p, id);
        if (!strcmp(id, posid))
            return match_move(m, &moves.moves[i].result, err);
    }
    return err_set(err, "none of the %d legal moves leads to %s", n, posid);
}

static bool gnubg_step(Match *m, const Rules *r, bool fresh, const char *code, const MatchId *g,
                       const char *posid, Err *err)
{
    bool ok = true;
    switch (code[0]) {
    case 'n':
        ok = fresh ? match_start(m, r, g->match_length, err) : match_new_game(m, err);
        /* Automatic doubles show as a centred cube above 1: one tie each. */
        for (int c = g->cube; ok && c > 1; c /= 2)
            ok = match_opening_roll(m, 1, 1, err);
        /* gnubg writes the larger die first; it belongs to the winner. */
        return ok && match_opening_roll(m, g->dice_owner == 0 ? g->dice[0] : g->dice[1],
                                        g->dice_owner == 1 ? g->dice[0] : g->dice[1], err);
    case 'r':
        if (!code[1])
            return match_roll(m, g->dice[0], g->dice[1], err);
        ok = match_roll(m, code[1] - '0', code[2] - '0', err);
        return ok && match_pass(m, err);
    case 'm': return play_to(m, posid, err);
    case 'd': return match_double(m, err);
    case 't': return match_take(m, err);
    case 'p': return match_drop(m, err);
    case 'b': return match_beaver(m, err);
    case 's': return match_resign(m, code[1] - '0', err);
    case 'a': return match_accept(m, err);
    case 'j': return match_reject(m, err);
    }
    return err_set(err, "unknown step '%s'", code);
}

static void test_gnubg_games(void **state)
{
    (void)state;
    Match m;
    Rules r = rules_default();
    bool fresh = false;
    int steps = 0, games = 0;
    for (size_t i = 0; i < sizeof gnubg_steps / sizeof gnubg_steps[0]; i++) {
        const char *s = gnubg_steps[i];
        if (s[0] == '#') {
            r = rules_from(s + 2);
            fresh = true;
            continue;
        }
        char code[4], mid[16], pid[16];
        assert_int_equal(sscanf(s, "%3s %15s %15s", code, mid, pid), 3);
        MatchId g;
        OK(matchid_decode(mid, &g, &e_));
        Err err = {{0}};
        if (!gnubg_step(&m, &r, fresh, code, &g, pid, &err))
            fail_msg("step %zu '%s' refused: %s", i, s, err.text);
        fresh = false;
        games += code[0] == 'n';
        expect_ids(&m, mid, pid);
        steps++;
    }
    print_message("gnubg games: %d steps of %d games, every Match ID and Position ID equal\n",
                  steps, games);
    assert_int_equal(steps, 247);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opening_play),
        cmocka_unit_test(test_opening_ties),
        cmocka_unit_test(test_opening_reroll),
        cmocka_unit_test(test_later_games),
        cmocka_unit_test(test_scoring_variants),
        cmocka_unit_test(test_jacoby),
        cmocka_unit_test(test_no_cube),
        cmocka_unit_test(test_crawford),
        cmocka_unit_test(test_holland),
        cmocka_unit_test(test_max_cube_and_dead_cube),
        cmocka_unit_test(test_double_take_drop),
        cmocka_unit_test(test_beavers),
        cmocka_unit_test(test_resignation_values),
        cmocka_unit_test(test_resignation_flow),
        cmocka_unit_test(test_forced_and_pass),
        cmocka_unit_test(test_closed_out_no_roll),
        cmocka_unit_test(test_closed_out_example),
        cmocka_unit_test(test_closed_out_cube_and_resign),
        cmocka_unit_test(test_closed_out_cases),
        cmocka_unit_test(test_illegal_actions),
        cmocka_unit_test(test_match_end),
        cmocka_unit_test(test_ids_examples),
        cmocka_unit_test(test_ids_vectors),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_closed_out_random),
        cmocka_unit_test(test_gnubg_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
