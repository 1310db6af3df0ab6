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
 *             (his 13- to 24-point), (25 - point) / 12; 0 when none is.
 *
 * A network of inputs features-234 reads eight more (the first ten are
 * those of features-218). "Moving from r past his points": of the 36
 * rolls, those whose two dice together land on a point he does not hold,
 * with one of the two points on the way open too (a double: its first
 * two steps); an index below 0 is open.
 *   contain   1 - the fewest rolls moving one of their checkers past his
 *             points from any of their points 15 to 24 (their bar), / 36;
 *   acontain  the same from those of them on which they have a checker
 *             or behind, 1 - 36 / 36 = 0 when none is;
 *   mobility  over his checkers outside his home board (the bar too), the
 *             rolls moving each past their points times its distance from
 *             his home board (point - 6), / 3600 (at most 1);
 *   moment    the second moment of his checkers' points beyond their mean
 *             point, over all his checkers on the board, / 400 (at most 1);
 *   contain2, acontain2  the squares of contain and acontain;
 *   double_shots  of the 36 rolls, those that hit two of his blots or
 *             more;
 *   enter_loss  the pips of the rolls of 36 that leave a checker of his on
 *             the bar (neither die enters past the points they hold in
 *             their home board), / 294. */
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
    NN_FEAT_CONTAIN,
    NN_FEAT_ACONTAIN,
    NN_FEAT_MOBILITY,
    NN_FEAT_MOMENT,
    NN_FEAT_CONTAIN2,
    NN_FEAT_ACONTAIN2,
    NN_FEAT_DOUBLE_SHOTS,
    NN_FEAT_ENTER_LOSS,
    NN_FEATURES
};

/* A network of inputs features-218 reads the first ten of them, one of
 * features-234 all eighteen (nn.h). */
#define NN_FEATURES_FIRST (NN_FEAT_FORWARD + 1)

/* The first `count` features (NN_FEATURES_FIRST or NN_FEATURES) of both
 * sides of p: out[0] the player on roll's, out[1] the other side's. */
void nn_features(const Position *p, int count, float out[2][NN_FEATURES]);

/* The same without vector instructions chosen at run time: the same
 * values, for the tests to compare. */
void nn_features_portable(const Position *p, int count, float out[2][NN_FEATURES]);

#endif
