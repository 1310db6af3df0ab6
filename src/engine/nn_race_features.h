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
 *              for wastage), / 8.17 rolls, / 20 (at most 1).
 * A network of inputs race-218 reads those ten a side. One of race-234
 * reads eight more, what the race model (eval_race.h) makes of the race
 * with the bear-off database: the network then learns what the model
 * misses rather than what the database knows.
 *   model_win, model_gammon, model_bg
 *              the chances the model gives him of winning, winning a
 *              gammon, winning a backgammon;
 *   off_mean, off_sd
 *              the mean and the spread of the model's number of rolls he
 *              needs to bear off, / 30 and / 5 (at most 1);
 *   first_mean, first_sd
 *              the same to bear off his first checker (0 once one is off),
 *              / 15 and / 5;
 *   clear_mean the mean number of rolls he needs to leave the other side's
 *              home board, / 10 (at most 1). */
#ifndef SHESH_NN_RACE_FEATURES_H
#define SHESH_NN_RACE_FEATURES_H

#include "eval_race.h"
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
    NN_RACE_MODEL_WIN,
    NN_RACE_MODEL_GAMMON,
    NN_RACE_MODEL_BG,
    NN_RACE_OFF_MEAN,
    NN_RACE_OFF_SD,
    NN_RACE_FIRST_MEAN,
    NN_RACE_FIRST_SD,
    NN_RACE_CLEAR_MEAN,
    NN_RACE_FEATURES
};

/* The features a network of race-218 reads a side. */
#define NN_RACE_FEATURES_FIRST NN_RACE_MODEL_WIN

/* The first `count` race features (NN_RACE_FEATURES_FIRST or
 * NN_RACE_FEATURES) of both sides of p: out[0] the player on roll's,
 * out[1] the other side's. The model's come from `model`, the race model's
 * view of p (eval_race_model; NULL will do for the first ten, and makes
 * the model's 0). */
void nn_race_features(const Position *p, const RaceSideModel model[2], int count,
                      float out[2][NN_RACE_FEATURES]);

#endif
