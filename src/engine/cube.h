/* cube.h - cube decisions and cubeful equity from cubeless chances.
 *
 * Money: Janowski's model ("Take-points in money games", 1993): the cubeful
 * equity is x * (live cube equity) + (1 - x) * (dead cube equity), the live
 * one piecewise linear in the winning chance between the take and cash
 * points, x the cube efficiency. Jacoby (gammons void while the cube is
 * centred) and a maximum cube are honoured.
 * The value of a backgammon follows the rules the cube state carries
 * (backgammons off, star mars, the backgammon zone).
 * Match: the same model in match winning chances, with the take and cash
 * points of each cube level solved from the level above (a cube the owner
 * cannot use any more is dead), the Kazaross-XG2 table (met.h), Crawford
 * (no cube) and post-Crawford scores.
 *
 * Every number is from the view of the player on roll (side 1) with the
 * chances `out` of eval_outputs.h. Money equities are per unit of the
 * current cube; match values are match winning chances (0..1). */
#ifndef SHESH_CUBE_H
#define SHESH_CUBE_H

#include <stdbool.h>

#include "cube_state.h"
#include "eval_outputs.h"
#include "position.h"

/* What a backgammon is worth under the house rules. The evaluators give
 * the chance of a backgammon as the standard rules make it: the loser has
 * borne off nothing and has a checker on the bar or in the winner's home
 * board. Two rules split that outcome, by shares the outputs do not hold: a
 * backgammon with checkers both on the bar and in the home board is a star
 * mars (4 points where that rule is played), and one with checkers on the
 * bar only is a gammon where only the home board counts (BG_ZONE_HOME).
 * Each share is what it is in the engine's own play: of the backgammons in
 * 100,000 games between Shesh's 0-ply players (docs/engine.md, "House rules
 * in the equities"), those that were star mars and those with checkers on
 * the bar only. Backgammons off (a backgammon scores as a gammon) needs no
 * share. */
#define CUBE_BG_SHARE_STAR_MARS 0.031
#define CUBE_BG_SHARE_BAR_ONLY 0.019

/* Cube efficiency used when the caller has no better figure. */
#define CUBE_EFFICIENCY 0.68

typedef struct CubeEquities {
    double no_double;   /* ND: roll without doubling */
    double double_take; /* DT: double, the other side takes */
    double double_pass; /* DP: double, the other side passes */
    bool can_double;    /* the player on roll has access to the cube
                           (cubestate_access: the score aside) */
} CubeEquities;

/* Cubeless value of the chances: money equity (gammons void under Jacoby
 * with the cube centred) or match winning chance. */
double cube_cubeless(const double out[OUT_COUNT], const CubeState *cs);

/* The cubeless value above as base + w . out, for the player on roll
 * (side 1) or for the other one (side 0, with his chances and score). */
void cube_linear(const CubeState *cs, int side, double *base, double w[OUT_COUNT]);

/* ND, DT and DP for the player on roll, cube efficiency x. */
void cube_equities(const double out[OUT_COUNT], const CubeState *cs, double x,
                   CubeEquities *eq);

/* Cubeful value of the position for the player on roll, taking the right
 * cube action now: max(ND, min(DT, DP)) when he may double, else ND. */
double cube_cubeful(const double out[OUT_COUNT], const CubeState *cs, double x);

/* Value (same units) of winning `points` times the cube now, as when a
 * resignation is accepted or a double dropped. */
double cube_win_value(const CubeState *cs, int points);

/* Cube efficiency for a position: 0.68 with contact; in a race it grows
 * with the length of the race of the player on roll (0.60 .. 0.70). */
double cube_efficiency(const Position *p);

#endif
