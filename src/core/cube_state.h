/* cube_state.h - the cube and the score around a decision, as every layer
 * above core sees them, and the one place that decides who may do what
 * with the cube. Sides are those of the Position (position.h):
 * 1 = the player on roll, 0 = the other one.
 *
 * The match state machine (match.h), the engine's cube model and the
 * protocol's checks of its answers all ask the functions below: the rules
 * of the cube (no cube, Crawford, owner, max cube, dead cube, Holland,
 * beavers and raccoons, automatic doubles, Jacoby) are written here once.
 * Each question gives every reason that applies, as bits, so each caller
 * can name the first one in the order its users expect. */
#ifndef SHESH_CUBE_STATE_H
#define SHESH_CUBE_STATE_H

#include <stdbool.h>

#include "err.h"
#include "rules.h"
#include "score.h"

typedef struct CubeState {
    bool cube_in_use;   /* false: no doubling at all (cubeless play) */
    int cube;           /* cube value before any pending double: 1, 2, 4, ...
                           (each beaver or raccoon already doubled it) */
    int owner;          /* -1 centred, 0 or 1: the side that owns it (while
                           a double waits no rule asks it) */
    int max_cube;       /* doubling beyond this is not allowed */
    int match_length;   /* 0 = money */
    int score[2];       /* match score by side */
    bool crawford;      /* this game is the Crawford game */
    bool post_crawford; /* a game after the Crawford game */
    bool holland;       /* match: the Holland rule is played */
    int turns[2];       /* turns each side has completed this game (what the
                           Holland rule counts) */
    bool jacoby;        /* money: gammons count only once the cube turned */
    int beavers;        /* money: beavers allowed in a row (0 = none) */
    int animals;        /* money: beavers and raccoons already made on the
                           double now pending */
    /* What a backgammon is worth (rules.h). All false under the standard
     * rules, so that a zeroed state plays by them. */
    bool backgammons_off; /* a backgammon scores as a gammon */
    bool star_mars;       /* a star mars (bar and home board) scores 4 */
    bool bg_home_only;    /* a checker on the bar alone makes no backgammon */
} CubeState;

/* Copies into cs what the rules say a win is worth (backgammons off, star
 * mars, the backgammon zone), the fields that do not depend on the score. */
void cubestate_set_win_rules(CubeState *cs, const Rules *r);

/* The same state seen from the other side (owner, scores and turns
 * exchanged): the cube around the opponent's next turn. */
void cubestate_swap(CubeState *cs);

/* Why a side may not double, or may not beaver the double pending: one bit
 * per reason. */
enum {
    CUBE_BAR_NO_CUBE = 1 << 0,  /* cubeless play */
    CUBE_BAR_CRAWFORD = 1 << 1, /* the Crawford game */
    CUBE_BAR_OWNER = 1 << 2,    /* the other side owns the cube */
    CUBE_BAR_MAX = 1 << 3,      /* the cube would pass max_cube */
    CUBE_BAR_DEAD = 1 << 4,     /* match: a win at this cube already wins the
                                   match, so doubling cannot help */
    CUBE_BAR_HOLLAND = 1 << 5,  /* post-Crawford trailer, first two turns */
    CUBE_BAR_MATCH = 1 << 6,    /* beavers: match play has none */
    CUBE_BAR_NO_BEAVERS = 1 << 7, /* beavers: the rules allow none */
    CUBE_BAR_ANIMALS = 1 << 8   /* beavers: as many in a row as allowed were
                                   made already */
};

/* The reasons that take the cube itself out of a side's hands, whatever
 * the score: what the engine's cube model calls access. */
#define CUBE_BARS_ACCESS (CUBE_BAR_NO_CUBE | CUBE_BAR_CRAWFORD | CUBE_BAR_OWNER | CUBE_BAR_MAX)

/* Every reason `side` may not double now (0: he may), checked in this
 * order: no cube, Crawford game, the other side owns it, max cube, dead
 * cube, Holland. */
unsigned cubestate_double_bars(const CubeState *cs, int side);

/* cubestate_double_bars() == 0. */
bool cubestate_may_double(const CubeState *cs, int side);

/* The cube is in use, not the Crawford game, centred or side's, and a
 * double stays within max_cube: no CUBE_BARS_ACCESS reason. */
bool cubestate_access(const CubeState *cs, int side);

/* Match play: side's score plus the cube already reaches the match length
 * (winning this game at the current cube wins the match). */
bool cubestate_dead(const CubeState *cs, int side);

/* Holland rule: a post-Crawford game, side is the trailer (not one point
 * from winning) and has completed fewer than two turns of this game. */
bool cubestate_holland_bars(const CubeState *cs, int side);

/* A cube of `value` is within max_cube. */
bool cubestate_fits(const CubeState *cs, long value);

/* Every reason side 0 (the one doubled) may not beaver or raccoon the
 * double side 1 has pending (0: he may): match play, no beavers allowed,
 * as many in a row as allowed made already, the take after it would pass
 * max_cube. A pending double means the cube is in use, so that is not
 * asked again. */
unsigned cubestate_beaver_bars(const CubeState *cs);

/* cubestate_beaver_bars() == 0. */
bool cubestate_may_beaver(const CubeState *cs);

/* "beaver" for the first animal on a double, "raccoon" after one. */
const char *cubestate_animal_name(const CubeState *cs);

/* Money play: the opening roll was a tie; may the cube double
 * automatically, `made` of the `allowed` automatic doubles made already? */
bool cubestate_may_auto_double(const CubeState *cs, int allowed, int made);

/* What stands on the game, for score_points(): the cube, whether it was
 * turned (it has an owner), money or match. */
GameStake cubestate_stake(const CubeState *cs);

/* Under the Jacoby rule with the cube not turned, gammons and backgammons
 * of the game count single (score_jacoby_voids). Cubeless play has no
 * Jacoby rule (rules_valid refuses it), and counts them. */
bool cubestate_gammons_void(const CubeState *cs);

/* The state is one the rules can be asked about: cube a power of two,
 * max_cube positive, owner -1/0/1, match length not negative and scores
 * below it, counts not negative. */
bool cubestate_valid(const CubeState *cs, Err *err);

#endif
