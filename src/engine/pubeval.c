/* pubeval.c - port of Gerald Tesauro's pubeval (see pubeval.h).
 *
 * The weights are Tesauro's, placed in the public domain by him ("provided
 * as a public service to the backgammon programming community", IBM
 * Research, 1993) and redistributed unchanged by many programs since, e.g.
 * the backgammon game of the BSDs (games/backgammon/common_source/pubeval.c).
 * They are transcribed here as published; the encoding below follows the
 * original's setx() input by input.
 *
 * The original numbers points 1..24 from the mover's side and encodes them
 * from the mover's 24-point down: input block j (0..23) describes the
 * mover's point 24 - j with five inputs:
 *   0: a lone opposing checker (blot)      1: one own checker
 *   2: two or more own checkers            3: exactly three own checkers
 *   4: (n - 3) / 2 for n >= 4 own checkers
 * then input 120 is the opponent's checkers on the bar / 2 and input 121 the
 * mover's checkers borne off / 15. The mover's own bar is not an input. */
#include "pubeval.h"

#include <string.h>

/* Contact weights (Tesauro's wc[]). */
static const double weight_contact[PUBEVAL_INPUTS] = {
    0.25696,  -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856,  -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032,  -0.38933, -1.59847, -1.50197, -0.60966, 1.56166,  -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500,  0.10970,  -1.36476, -1.05572,
    1.15420,  0.11069,  -0.38319, -0.74816, -0.59244, 0.81116,  -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792,  0.15977,  0.13786,  -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798,  -0.94373, -0.22982, 1.22737,  -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389,  0.30416,  0.36797,  -0.69851, 0.13003,  1.23070,  0.40868,
    -0.21081, -0.64073, 0.31061,  1.59554,  0.65718,  0.25429,  -0.80789, 0.08240,
    1.78964,  0.54304,  0.41174,  -1.06161, 0.07851,  2.01451,  0.49786,  0.91936,
    -0.90750, 0.05941,  1.83120,  0.58722,  1.28777,  -0.83711, -0.33248, 2.64983,
    0.52698,  0.82132,  -0.58897, -1.18223, 3.35809,  0.62017,  0.57353,  -0.07276,
    -0.36214, 4.37655,  0.45481,  0.21746,  0.10504,  -0.61977, 3.54001,  0.04612,
    -0.18108, 0.63211,  -0.87046, 2.47673,  -0.48016, -1.27157, 0.86505,  -1.11342,
    1.24612,  -0.82385, -2.77082, 1.23606,  -1.59529, 0.10438,  -1.30206, -4.11520,
    5.62596,  -2.75800,
};

/* Race weights (Tesauro's wr[]). */
static const double weight_race[PUBEVAL_INPUTS] = {
    0.00000,  -0.17160, 0.27010,  0.29906,  -0.08471, 0.00000,  -1.40375,  -1.05121,
    0.07217,  -0.01351, 0.00000,  -1.29506, -2.16183, 0.13246,  -1.03508,  0.00000,
    -2.29847, -2.34631, 0.17253,  0.08302,  0.00000,  -1.27266, -2.87401,  -0.07456,
    -0.34240, 0.00000,  -1.34640, -2.46556, -0.13022, -0.01591, 0.00000,   0.27448,
    0.60015,  0.48302,  0.25236,  0.00000,  0.39521,  0.68178,  0.05281,   0.09266,
    0.00000,  0.24855,  -0.06844, -0.37646, 0.05685,  0.00000,  0.17405,   0.00430,
    0.74427,  0.00576,  0.00000,  0.12392,  0.31202,  -0.91035, -0.16270,  0.00000,
    0.01418,  -0.10839, -0.02781, -0.88035, 0.00000,  1.07274,  2.00366,   1.16242,
    0.22520,  0.00000,  0.85631,  1.06349,  1.49549,  0.18966,  0.00000,   0.37183,
    -0.50352, -0.14818, 0.12039,  0.00000,  0.13681,  0.13978,  1.11245,   -0.12707,
    0.00000,  -0.22082, 0.20178,  -0.06285, -0.52728, 0.00000,  -0.13597,  -0.19412,
    -0.09308, -1.26062, 0.00000,  3.05454,  5.16874,  1.50680,  5.35000,   0.00000,
    2.19605,  3.85390,  0.88296,  2.30052,  0.00000,  0.92321,  1.08744,   -0.11696,
    -0.78560, 0.00000,  -0.09795, -0.83050, -1.09167, -4.94251, 0.00000,   -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000,  -2.77982, -7.26713, -3.40177,  -12.32252,
    0.00000,  3.42040,
};

void pubeval_inputs(const Position *after, double x[PUBEVAL_INPUTS])
{
    const uint8_t *me = after->side[SIDE_ROLLER];
    const uint8_t *opp = after->side[SIDE_OPPONENT];
    memset(x, 0, PUBEVAL_INPUTS * sizeof x[0]);
    for (int j = 0; j < 24; j++) {
        int point = 24 - j;           /* the mover's point number */
        int mine = me[point - 1];     /* own checkers there */
        int theirs = opp[24 - point]; /* the same point in the opponent's numbering */
        double *blk = x + 5 * j;
        if (mine == 0) {
            if (theirs == 1)
                blk[0] = 1.0;
            continue;
        }
        if (mine == 1)
            blk[1] = 1.0;
        if (mine >= 2)
            blk[2] = 1.0;
        if (mine == 3)
            blk[3] = 1.0;
        if (mine >= 4)
            blk[4] = (mine - 3) / 2.0;
    }
    x[120] = opp[POS_BAR] / 2.0;
    x[121] = (POS_CHECKERS - pos_checkers(after, SIDE_ROLLER)) / 15.0;
}

double pubeval_score(const Position *after, bool race)
{
    int on_board = pos_checkers(after, SIDE_ROLLER);
    if (on_board == 0)
        return PUBEVAL_ALL_OFF;
    const double *w = race ? weight_race : weight_contact;
    const uint8_t *me = after->side[SIDE_ROLLER];
    const uint8_t *opp = after->side[SIDE_OPPONENT];
    /* The same sum as pubeval_inputs() dotted with w, without the zeros:
     * this runs for every candidate move of every search node. */
    double s = 0.0;
    for (int j = 0; j < 24; j++) {
        int mine = me[23 - j];
        const double *wb = w + 5 * j;
        if (mine == 0) {
            if (opp[j] == 1)
                s += wb[0];
        } else if (mine == 1) {
            s += wb[1];
        } else {
            s += wb[2];
            if (mine == 3)
                s += wb[3];
            else if (mine >= 4)
                s += wb[4] * (mine - 3) / 2.0;
        }
    }
    s += w[120] * opp[POS_BAR] / 2.0;
    s += w[121] * (POS_CHECKERS - on_board) / 15.0;
    return s;
}
