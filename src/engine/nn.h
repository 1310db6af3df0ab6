/* nn.h - a small neural network for contact positions (or, of the same
 * shape, for races), trained by temporal differences on self-play and on
 * labelled positions (`shesh train`).
 *
 * Inputs, for the player on roll and then the other side: for each of his
 * 24 points, 1 if he has a checker there, 1 if two or more, 1 if three or
 * more, (n - 3) / 2 beyond three (Tesauro's encoding); checkers on the bar
 * / 2; borne off / 15; pip count / 200. A network of the second kind reads
 * after these the hand-made features of nn_features.h, the first ten or
 * all of them, the player on roll's and then the other side's. One hidden
 * layer of sigmoid units; five sigmoid outputs, the chances of
 * eval_static.h. */
#ifndef SHESH_EVAL_NET_H
#define SHESH_EVAL_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "bearoff.h"
#include "eval_outputs.h"
#include "eval_race.h"
#include "nn_features.h"
#include "position.h"

#define NN_SIDE_INPUTS (24 * 4 + 3)
#define NN_RAW_INPUTS (2 * NN_SIDE_INPUTS) /* the points alone */
/* and the first ten features (features-218), or all of them (features-234,
 * the most any network reads) */
#define NN_INPUTS_FIRST (NN_RAW_INPUTS + 2 * NN_FEATURES_FIRST)
#define NN_INPUTS (NN_RAW_INPUTS + 2 * NN_FEATURES)
/* The hidden units: 256 since feat-16 (a network file of fewer is read
 * with the rest zero, nn_file.h). A build may try another multiple of 16:
 * cc -DNN_HIDDEN=160; those of make train up to feat-15 are 128. */
#ifndef NN_HIDDEN
#define NN_HIDDEN 256
#endif

typedef struct NnWeights {
    float in[NN_INPUTS][NN_HIDDEN]; /* input -> hidden, input-major; rows
                                       from `inputs` on are zero */
    float hidden_bias[NN_HIDDEN];
    float out[OUT_COUNT][NN_HIDDEN]; /* hidden -> output */
    float out_bias[OUT_COUNT];
    int inputs; /* the inputs it reads: NN_RAW_INPUTS, NN_INPUTS_FIRST or
                   NN_INPUTS (a race network: one of the first two) */
    bool race;  /* a race network, for the races the bear-off database
                   does not value exactly (eval_static.c) rather than for
                   contact: its features are nn_race_features.h's */
    /* The database a race network of race-234 reads the race model's
     * features from (nn_race_features.h); whoever loads or makes such a
     * network sets it (loading and nn_init clear it). Without it those
     * features are 0. */
    const BearoffDb *race_model;
    /* The first layer in 16-bit integers (nn_quantize): each input weight
     * and hidden bias divided by a power of two and rounded; qsigmoid[s -
     * INT16_MIN] the activation of a hidden unit whose sum is s. nn_eval
     * reads these while quantized is set; any change to the weights
     * (training) clears it. */
    bool quantized;
    int16_t qin[NN_INPUTS][NN_HIDDEN];
    int16_t qbias[NN_HIDDEN];
    float qsigmoid[1 << 16];
    int qunits; /* the units up to the last with an output weight, a
                   multiple of 16: nn_eval in integers computes these
                   alone (the others add 0 to every output) */
    /* A point's inputs come to one row in integers: qpoint[k][i][c] the
     * sum of the rows of side k's point i with c checkers on it, each
     * added as the inputs are (whole times, then its share), where every
     * lane of it fits 16 bits (qpoint_fits; elsewhere nn_eval adds the
     * rows one by one). The sums are those of the rows one by one to the
     * bit (integer addition, none near the limits), at a row a point where
     * the inputs take up to nine. */
    int16_t qpoint[2][24][POS_CHECKERS + 1][NN_HIDDEN];
    bool qpoint_fits[2][24][POS_CHECKERS + 1];
} NnWeights;

/* The weights come from network files (nn_file.h): the one compiled in,
 * or one named by --weights. */

/* The nonzero inputs w reads of p: indices and values (at most
 * w->inputs). */
int nn_inputs(const NnWeights *w, const Position *p, int index[NN_INPUTS],
              float value[NN_INPUTS]);

/* Makes nn_eval of w read its first layer in integers (sixteen sums a
 * vector where floats are eight, no multiplication for the inputs that
 * are 1, the sigmoid looked up): at 256 hidden units the forward pass
 * takes about two thirds of its time in floats, and a whole evaluation
 * four fifths; the equity stays within about 0.001 of the floats'. The
 * engine quantizes the networks it plays with; training and its
 * yardsticks keep the floats. */
void nn_quantize(NnWeights *w);

/* Forward pass: the five chances of the player on roll. */
void nn_eval(const NnWeights *w, const Position *p, double out[OUT_COUNT]);

/* The same for a race network given the race model's view of p
 * (eval_race_model), which a race-234 network reads: a caller that has it
 * from its race cache spares the network computing it again (the same
 * values, and so the same bits). */
void nn_eval_race(const NnWeights *w, const Position *p, const RaceSideModel model[2],
                  double out[OUT_COUNT]);

/* The same on the code path for any x86-64 (or any CPU), whatever this one
 * has: the tests check that it gives nn_eval's bits. */
void nn_eval_portable(const NnWeights *w, const Position *p, double out[OUT_COUNT]);

/* One step of gradient descent on the cross-entropy of each output towards
 * target (the TD target), learning rate rate. */
void nn_learn(NnWeights *w, const Position *p, const double target[OUT_COUNT], float rate);

/* One step of gradient descent on half the squared error of the
 * difference between the cubeless money equities of a and b (a's less b's)
 * against diff: what a choice between the two positions depends on. */
void nn_learn_pair(NnWeights *w, const Position *a, const Position *b, double diff, float rate);

/* Small random weights from a seed (for training from scratch), for a
 * network reading `inputs` inputs (NN_RAW_INPUTS, NN_INPUTS_FIRST or
 * NN_INPUTS). */
void nn_init(NnWeights *w, int inputs, unsigned long long seed);

/* The hand-made features w reads a side: 0, NN_FEATURES_FIRST or
 * NN_FEATURES. */
int nn_feature_count(const NnWeights *w);

/* Makes w read `inputs` inputs (NN_INPUTS_FIRST or NN_INPUTS for a contact
 * network, at least its own), the new rows' weights zero: it values every
 * position as before until it is trained. */
void nn_widen(NnWeights *w, int inputs);

/* Gives hidden units `from` and up (those a narrower network's file left
 * zero, nn_file.h) small random input weights from seed, their biases and
 * output weights staying zero: the network values every position as
 * before, and training can tell the new units apart. */
void nn_widen_hidden(NnWeights *w, int from, unsigned long long seed);

#endif
