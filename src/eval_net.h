/* eval_net.h - a small neural network for contact positions, trained by
 * temporal differences on self-play (`shesh train`).
 *
 * Inputs, for the player on roll and then the other side: for each of his
 * 24 points, 1 if he has a checker there, 1 if two or more, 1 if three or
 * more, (n - 3) / 2 beyond three (Tesauro's encoding); checkers on the bar
 * / 2; borne off / 15; pip count / 200. One hidden layer of sigmoid units;
 * five sigmoid outputs, the chances of eval_static.h. */
#ifndef SHESH_EVAL_NET_H
#define SHESH_EVAL_NET_H

#include <stdbool.h>

#include "eval_static.h"
#include "position.h"

#define NET_SIDE_INPUTS (24 * 4 + 3)
#define NET_INPUTS (2 * NET_SIDE_INPUTS)
#ifndef NET_HIDDEN /* a build may try another size: cc -DNET_HIDDEN=128 */
#define NET_HIDDEN 128
#endif

typedef struct NetWeights {
    float in[NET_INPUTS][NET_HIDDEN]; /* input -> hidden, input-major */
    float hidden_bias[NET_HIDDEN];
    float out[OUT_COUNT][NET_HIDDEN]; /* hidden -> output */
    float out_bias[OUT_COUNT];
} NetWeights;

/* The trained weights compiled in (eval_net_weights.c); `trained` is false
 * while none have been committed, and the evaluator then falls back to the
 * calibrated pubeval of eval_contact.c. */
extern const NetWeights net_weights_default;
extern const bool net_weights_trained;

/* The nonzero inputs of p: indices and values (at most NET_INPUTS). */
int net_inputs(const Position *p, int index[NET_INPUTS], float value[NET_INPUTS]);

/* Forward pass: the five chances of the player on roll. */
void net_eval(const NetWeights *w, const Position *p, double out[OUT_COUNT]);

/* One step of gradient descent on the cross-entropy of each output towards
 * target (the TD target), learning rate rate. */
void net_learn(NetWeights *w, const Position *p, const double target[OUT_COUNT], float rate);

/* Small random weights from a seed (for training from scratch). */
void net_init(NetWeights *w, unsigned long long seed);

#endif
