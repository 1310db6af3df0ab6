/* nn.c - the contact network: encoding, forward pass, TD learning
 * step (see nn.h). Inputs are sparse (about 40 of 198 are nonzero),
 * so the hidden sums add one weight row per nonzero input. */
#include "nn.h"

#include <math.h>
#include <string.h>

static void side_inputs(const uint8_t *side, int base, int *n, int index[], float value[])
{
    int pips = 0;
    for (int i = 0; i < 24; i++) {
        int c = side[i];
        pips += c * (i + 1);
        if (c == 0)
            continue;
        int at = base + 4 * i;
        index[*n] = at, value[(*n)++] = 1.0f;
        if (c >= 2)
            index[*n] = at + 1, value[(*n)++] = 1.0f;
        if (c >= 3)
            index[*n] = at + 2, value[(*n)++] = 1.0f;
        if (c > 3)
            index[*n] = at + 3, value[(*n)++] = (c - 3) / 2.0f;
    }
    int bar = side[POS_BAR], on = bar;
    for (int i = 0; i < 24; i++)
        on += side[i];
    pips += 25 * bar;
    if (bar)
        index[*n] = base + 96, value[(*n)++] = bar / 2.0f;
    if (on < POS_CHECKERS)
        index[*n] = base + 97, value[(*n)++] = (POS_CHECKERS - on) / 15.0f;
    if (pips)
        index[*n] = base + 98, value[(*n)++] = pips / 200.0f;
}

int nn_inputs(const Position *p, int index[NN_INPUTS], float value[NN_INPUTS])
{
    int n = 0;
    side_inputs(p->side[SIDE_ROLLER], 0, &n, index, value);
    side_inputs(p->side[SIDE_OPPONENT], NN_SIDE_INPUTS, &n, index, value);
    return n;
}

static float sigmoid(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

/* Four floats, added and multiplied lane by lane: the compiler's vector
 * extension, so that a block of hidden sums stays in registers over every
 * input. Each lane adds its products in the same order as a plain loop, and
 * without fused multiply-adds (ISO C mode contracts nothing), so the sums
 * are those of the plain loop to the last bit. */
typedef float F4 __attribute__((vector_size(16)));
#define F4_LANES 4
/* Vectors of hidden sums per pass over the inputs: 32 sums, 8 of the 16
 * SSE registers. */
#define F4_BLOCK 8

/* sum[lo..hi) = the hidden biases plus every nonzero input times its row.
 * An input of 1 (most of them) adds its row as it is: 1 * x is x. */
static void hidden_block(const NnWeights *w, int n, const int index[], const float value[],
                         int lo, float sum[NN_HIDDEN])
{
    F4 acc[F4_BLOCK];
    /* Unrolled, so that acc lives in registers rather than on the stack. */
#pragma GCC unroll 8
    for (int j = 0; j < F4_BLOCK; j++)
        memcpy(&acc[j], w->hidden_bias + lo + j * F4_LANES, sizeof acc[j]);
    for (int k = 0; k < n; k++) {
        const float *row = w->in[index[k]] + lo;
        float v = value[k];
        if (v == 1.0f) {
#pragma GCC unroll 8
            for (int j = 0; j < F4_BLOCK; j++) {
                F4 r;
                memcpy(&r, row + j * F4_LANES, sizeof r);
                acc[j] += r;
            }
        } else {
            F4 vv = {v, v, v, v};
#pragma GCC unroll 8
            for (int j = 0; j < F4_BLOCK; j++) {
                F4 r;
                memcpy(&r, row + j * F4_LANES, sizeof r);
                acc[j] += vv * r;
            }
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < F4_BLOCK; j++)
        memcpy(sum + lo + j * F4_LANES, &acc[j], sizeof acc[j]);
}

/* Hidden activations and outputs for the given sparse inputs. */
static void forward(const NnWeights *w, int n, const int index[], const float value[],
                    float hidden[NN_HIDDEN], float out[OUT_COUNT])
{
    float sum[NN_HIDDEN];
    int h0 = 0;
    for (; h0 + F4_LANES * F4_BLOCK <= NN_HIDDEN; h0 += F4_LANES * F4_BLOCK)
        hidden_block(w, n, index, value, h0, sum);
    for (int h = h0; h < NN_HIDDEN; h++) { /* a size that is no multiple of a block */
        sum[h] = w->hidden_bias[h];
        for (int k = 0; k < n; k++)
            sum[h] += value[k] * w->in[index[k]][h];
    }
    for (int h = 0; h < NN_HIDDEN; h++)
        hidden[h] = sigmoid(sum[h]);
    /* The outputs' sums side by side, each over the hidden units in order:
     * five chains of additions at once instead of one after another. */
    float z[OUT_COUNT];
    for (int o = 0; o < OUT_COUNT; o++)
        z[o] = w->out_bias[o];
    for (int h = 0; h < NN_HIDDEN; h++) {
#pragma GCC unroll 8
        for (int o = 0; o < OUT_COUNT; o++)
            z[o] += w->out[o][h] * hidden[h];
    }
    for (int o = 0; o < OUT_COUNT; o++)
        out[o] = sigmoid(z[o]);
}

void nn_eval(const NnWeights *w, const Position *p, double out[OUT_COUNT])
{
    int index[NN_INPUTS];
    float value[NN_INPUTS], hidden[NN_HIDDEN], o[OUT_COUNT];
    int n = nn_inputs(p, index, value);
    forward(w, n, index, value, hidden, o);
    for (int k = 0; k < OUT_COUNT; k++)
        out[k] = o[k];
}

void nn_learn(NnWeights *w, const Position *p, const double target[OUT_COUNT], float rate)
{
    int index[NN_INPUTS];
    float value[NN_INPUTS], hidden[NN_HIDDEN], o[OUT_COUNT];
    int n = nn_inputs(p, index, value);
    forward(w, n, index, value, hidden, o);
    /* Cross-entropy with sigmoid outputs: the error at each output's sum is
     * simply target - output. */
    float delta[OUT_COUNT], grad[NN_HIDDEN];
    for (int k = 0; k < OUT_COUNT; k++)
        delta[k] = (float)target[k] - o[k];
    for (int h = 0; h < NN_HIDDEN; h++) {
        float g = 0.0f;
        for (int k = 0; k < OUT_COUNT; k++)
            g += delta[k] * w->out[k][h];
        grad[h] = g * hidden[h] * (1.0f - hidden[h]);
    }
    for (int k = 0; k < OUT_COUNT; k++) {
        for (int h = 0; h < NN_HIDDEN; h++)
            w->out[k][h] += rate * delta[k] * hidden[h];
        w->out_bias[k] += rate * delta[k];
    }
    for (int i = 0; i < n; i++) {
        float *row = w->in[index[i]];
        float v = rate * value[i];
        for (int h = 0; h < NN_HIDDEN; h++)
            row[h] += v * grad[h];
    }
    for (int h = 0; h < NN_HIDDEN; h++)
        w->hidden_bias[h] += rate * grad[h];
}

void nn_init(NnWeights *w, unsigned long long seed)
{
    unsigned long long s = seed * 0x9e3779b97f4a7c15ull + 1;
    float *all = (float *)w;
    size_t count = sizeof *w / sizeof(float);
    for (size_t i = 0; i < count; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17; /* xorshift64 */
        all[i] = ((float)(s >> 40) / (float)(1ull << 24) - 0.5f) * 0.2f;
    }
}
