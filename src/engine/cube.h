/* cube.h - cube decisions and cubeful equity from cubeless chances.
 *
 * Money: Janowski's model ("Take-points in money games", 1993): the cubeful
 * equity is x * (live cube equity) + (1 - x) * (dead cube equity), the live
 * one piecewise linear in the winning chance between the take and cash
 * points, x the cube efficiency. Jacoby (gammons void while the cube is
 * centred) and a maximum cube are honoured.
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
