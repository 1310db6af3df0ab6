/* nn_features.h - hand-made inputs of the contact network: what a player
 * reads off a board at a glance and a net of raw point counts learns only
 * slowly, written from their descriptions in the backgammon literature.
 *
 * For one side ("he"; the other side "they"), each in 0..1:
 *   shots     of the 36 rolls, those with which they can hit at least one
 *             of his blots (a die, or the dice together over an open
 *             point; while they have checkers on the bar, only the checker
 *             entering can hit);
 *   pip_loss  the pips he loses to a hit, over the 36 rolls (each roll
 *             hitting the farthest-travelled blot it can), / 24;
 *   escapes   of the 36 rolls, those that carry his rearmost checker past
 *             every point they hold within 12 pips in front of it (1 when
 *             none is);
 *   prime     his longest run of held points (two or more checkers), / 6;
 *   home      his home-board points held, / 6;
 *   anchors   his points held in their home board, / 2 (at most 1);
 *   rear      how far his rearmost checker has to go, its point / 25 (the
 *             bar 1);
 *   contact   the pips he must move to pass their rearmost checker with
 *             every checker (to break contact), / 200 (at most 1);
 *   dance     the chance a checker of his on the bar fails to enter: the
 *             square of the share of their home points they hold;
 *   forward   his most advanced point held on their half of the board
 *             (his 13- to 24-point), (25 - point) / 12; 0 when none is. */
#ifndef SHESH_NN_FEATURES_H
#define SHESH_NN_FEATURES_H

#include "position.h"

enum {
    NN_FEAT_SHOTS,
    NN_FEAT_PIP_LOSS,
    NN_FEAT_ESCAPES,
    NN_FEAT_PRIME,
    NN_FEAT_HOME,
    NN_FEAT_ANCHORS,
    NN_FEAT_REAR,
    NN_FEAT_CONTACT,
    NN_FEAT_DANCE,
    NN_FEAT_FORWARD,
    NN_FEATURES
};

/* The features of both sides of p: out[0] the player on roll's, out[1] the
 * other side's. */
void nn_features(const Position *p, float out[2][NN_FEATURES]);

#endif
