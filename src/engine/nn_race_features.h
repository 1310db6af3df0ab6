/* nn_race_features.h - hand-made inputs of a race network (inputs
 * race-218): what decides a race besides the pip count, which the points
 * alone hold only as a sum a network must learn to make.
 *
 * For one side, each in 0..1 (his points numbered from his home, 1..24):
 *   outside    his checkers outside his home board, / 15;
 *   carry      the pips they need to reach his 6-point, / 60 (at most 1);
 *   crossings  the quarters of the board they still cross, a checker on
 *              his 7- to 12-point one, 13 to 18 two, 19 to 24 three, / 30;
 *   in_zone    his checkers in the other side's home board, / 15 (what a
 *              backgammon is lost by);
 *   zone_pips  the pips they need to leave it, / 30 (at most 1);
 *   none_off   1 while no checker of his is off (a gammon can be lost);
 *   gaps       his empty home points below his highest home checker, / 5;
 *   wastage    his checkers on his 1-, 2- and 3-point, weighted 3, 2, 1, / 45;
 *   stack      his most checkers on one point, / 15;
 *   rolls      his pips plus 2 a checker on the board (the usual allowance
 *              for wastage), / 8.17 rolls, / 20 (at most 1). */
#ifndef SHESH_NN_RACE_FEATURES_H
#define SHESH_NN_RACE_FEATURES_H

#include "position.h"

enum {
    NN_RACE_OUTSIDE,
    NN_RACE_CARRY,
    NN_RACE_CROSSINGS,
    NN_RACE_IN_ZONE,
    NN_RACE_ZONE_PIPS,
    NN_RACE_NONE_OFF,
    NN_RACE_GAPS,
    NN_RACE_WASTAGE,
    NN_RACE_STACK,
    NN_RACE_ROLLS,
    NN_RACE_FEATURES
};

/* The race features of both sides of p: out[0] the player on roll's,
 * out[1] the other side's. */
void nn_race_features(const Position *p, float out[2][NN_RACE_FEATURES]);

#endif
