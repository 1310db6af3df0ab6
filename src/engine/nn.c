/* nn.c - the contact network: encoding, forward pass, TD learning
 * step (see nn.h). Inputs are sparse (about 40 of 198 are nonzero),
 * so the hidden sums add one weight row per nonzero input. */
#include "nn.h"

#include "eval_race.h"
#include "nn_race_features.h"

_Static_assert((int)NN_RACE_FEATURES_FIRST == (int)NN_FEATURES_FIRST &&
                   (int)NN_RACE_FEATURES == (int)NN_FEATURES,
               "a race network's features fill the rows of a contact network's");

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* Input j (0 to 3) of a point with c checkers, one it has when c > j: the
 * first three 1, the fourth (c - 3) / 2. One formula for the inputs, the
 * integer layer's one by one and its rows made at load time. */
static inline float point_input(int c, int j)
{
    return j < 3 ? 1.0f : (float)(c - 3) / 2.0f;
}

/* One side's inputs after its points: the bar, the checkers off and the
 * pips (pips and on: those of its points), appended at *n. */
static void side_rest(const uint8_t *side, int base, int pips, int on, int *n, int index[],
                      float value[])
{
    int bar = side[POS_BAR], k = *n;
    on += bar;
    pips += 25 * bar;
    if (bar)
        index[k] = base + 96, value[k++] = bar / 2.0f;
    if (on < POS_CHECKERS)
        index[k] = base + 97, value[k++] = (POS_CHECKERS - on) / 15.0f;
    if (pips)
        index[k] = base + 98, value[k++] = pips / 200.0f;
    *n = k;
}

/* One side's inputs, appended at *n: its points, then the rest. A point's
 * inputs come out without a branch on its count: all four are written,
 * and *n moves past the min(count, 4) of them that are nonzero, so that
 * the next point's overwrite the rest (point i writes at most 4 i + 3 past
 * the side's start, within the side's 99 inputs). The order is that of one
 * input at a time, and so are the network's sums. */
static void side_inputs(const uint8_t *side, int base, int *n, int index[], float value[])
{
    int pips = 0, on = 0, k = *n;
    for (int i = 0; i < 24; i++) {
        int c = side[i], at = base + 4 * i;
        pips += c * (i + 1);
        on += c;
        index[k] = at, value[k] = 1.0f;
        index[k + 1] = at + 1, value[k + 1] = 1.0f;
        index[k + 2] = at + 2, value[k + 2] = 1.0f;
        index[k + 3] = at + 3, value[k + 3] = point_input(c, 3);
        k += c < 4 ? c : 4;
    }
    *n = k;
    side_rest(side, base, pips, on, n, index, value);
}

/* The hand-made features' inputs, appended after the first n; returns the
 * new count. A race network of race-234 reads the race model's view of p,
 * `model`, or (NULL) computes it. */
static int feature_inputs(const NnWeights *w, const Position *p, const RaceSideModel *model,
                          int n, int index[], float value[])
{
    int count = nn_feature_count(w);
    if (count == 0) /* the points alone */
        return n;
    float contact[2][NN_FEATURES], race[2][NN_RACE_FEATURES];
    const float *f[2] = {contact[0], contact[1]};
    if (w->race) {
        RaceSideModel own[2];
        if (!model && count == NN_RACE_FEATURES && w->race_model) {
            double chances[OUT_COUNT];
            eval_race_model(w->race_model, NULL, p, chances, NULL, own);
            model = own;
        }
        nn_race_features(p, model, count, race);
        f[0] = race[0], f[1] = race[1];
    } else {
        nn_features(p, count, contact);
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < count; i++)
            if (f[k][i] != 0.0f)
                index[n] = NN_RAW_INPUTS + k * count + i, value[n++] = f[k][i];
    return n;
}

/* nn_inputs, the race model's view of p given (or NULL). */
static int inputs_with(const NnWeights *w, const Position *p, const RaceSideModel *model,
                       int index[NN_INPUTS], float value[NN_INPUTS])
{
    int n = 0;
    side_inputs(p->side[SIDE_ROLLER], 0, &n, index, value);
    side_inputs(p->side[SIDE_OPPONENT], NN_SIDE_INPUTS, &n, index, value);
    return feature_inputs(w, p, model, n, index, value);
}

int nn_inputs(const NnWeights *w, const Position *p, int index[NN_INPUTS],
              float value[NN_INPUTS])
{
    return inputs_with(w, p, NULL, index, value);
}

int nn_feature_count(const NnWeights *w)
{
    return (w->inputs - NN_RAW_INPUTS) / 2;
}

/* ---- the forward pass ----
 *
 * Written once on eight-float vectors (the compiler's vector extension) and
 * compiled twice: for any x86-64 (each vector two SSE registers) and, chosen
 * at run time, for AVX2 (one register). Every operation is the same IEEE
 * one, lane by lane and in the same order on both, without fused
 * multiply-adds (ISO C mode contracts nothing): the two give the same bits,
 * and so the same decisions, on every machine (test_nn checks it). */

#ifdef __clang__
/* clang contracts a * b + c into one fused operation where it may, unlike
 * GCC in ISO C mode: not here, so that every build rounds the same. */
#pragma STDC FP_CONTRACT OFF
#endif

typedef float F8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));
typedef uint32_t U8 __attribute__((vector_size(32)));
#define F8_LANES 8

_Static_assert(NN_HIDDEN % F8_LANES == 0, "the hidden layer is whole vectors");
_Static_assert(OUT_COUNT <= F8_LANES, "the outputs are one vector");

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* (No function takes or returns a vector: without AVX that would pass it
 * in memory, unlike with it, and compilers warn of the difference.) */
#define F8_ALL(v) ((F8){(v), (v), (v), (v), (v), (v), (v), (v)})
/* Lanes of a where the mask is set, of b elsewhere. */
#define F8_SELECT(mask, a, b) ((F8)(((I8)(a) & (mask)) | ((I8)(b) & ~(mask))))

/* dst = 1 / (1 + e^-src), eight lanes, within a few units in the last place
 * of the float result: e^t as 2^k e^y, k = round(t / ln 2) and y = t - k ln
 * 2 (ln 2 in two parts, so that k ln 2 loses nothing), e^y by its Taylor
 * series to y^7 (|y| <= ln 2 / 2: the next term is below 1e-8), 2^k added
 * into the exponent bits. t is kept within +-87, where e^t is a normal
 * float; the sigmoid is then 1 or 1.6e-38 to float precision anyway. libm's
 * expf would do as well one value at a time, at five times the cost. */
ALWAYS_INLINE void f8_sigmoid(float dst[F8_LANES], const float src[F8_LANES])
{
    F8 t;
    memcpy(&t, src, sizeof t);
    t = -t;
    const F8 hi = F8_ALL(87.0f), lo = F8_ALL(-87.0f);
    t = F8_SELECT(t > hi, hi, t);
    t = F8_SELECT(t < lo, lo, t);
    /* Adding and taking away 1.5 * 2^23 rounds to the nearest integer. */
    const F8 round = F8_ALL(12582912.0f);
    F8 k = (t * F8_ALL(1.44269504f) + round) - round;
    /* A NaN (only a broken network's sums could be one) stays NaN, but is
     * not converted to an integer below: that conversion is undefined. */
    k = F8_SELECT(k == k, k, F8_ALL(0.0f));
    F8 y = t - k * F8_ALL(0.693359375f);
    y = y - k * F8_ALL(-2.12194440e-4f);
    F8 e = F8_ALL(1.0f / 5040.0f);
    e = e * y + F8_ALL(1.0f / 720.0f);
    e = e * y + F8_ALL(1.0f / 120.0f);
    e = e * y + F8_ALL(1.0f / 24.0f);
    e = e * y + F8_ALL(1.0f / 6.0f);
    e = e * y + F8_ALL(0.5f);
    e = e * y + F8_ALL(1.0f);
    e = e * y + F8_ALL(1.0f);
    /* Unsigned, so that a negative k shifts and adds with no undefined
     * behaviour: two's complement wraps into the right exponent bits. */
    U8 scale = (U8)__builtin_convertvector(k, I8) << 23;
    e = (F8)((U8)e + scale);
    F8 r = F8_ALL(1.0f) / (F8_ALL(1.0f) + e);
    memcpy(dst, &r, sizeof r);
}

/* sum[lo .. lo + 8 * blocks) = the hidden biases plus every nonzero input
 * times its row, the inputs in order. Most inputs are 1, and 1 * x is x to
 * the bit, but a branch to add those rows without the multiplication costs
 * more in mispredictions than the multiplications do (9 % of the
 * evaluations a second). blocks is a constant where this is inlined, so
 * that acc lives in registers: as many as the code path has. */
ALWAYS_INLINE void hidden_block(const NnWeights *w, int n, const int index[], const float value[],
                                int lo, int blocks, float sum[NN_HIDDEN])
{
    F8 acc[8], r;
#pragma GCC unroll 8
    for (int j = 0; j < blocks; j++)
        memcpy(&acc[j], w->hidden_bias + lo + j * F8_LANES, sizeof acc[j]);
    for (int k = 0; k < n; k++) {
        const float *row = w->in[index[k]] + lo;
        const F8 vv = F8_ALL(value[k]);
#pragma GCC unroll 8
        for (int j = 0; j < blocks; j++) {
            memcpy(&r, row + j * F8_LANES, sizeof r);
            acc[j] += vv * r;
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < blocks; j++)
        memcpy(sum + lo + j * F8_LANES, &acc[j], sizeof acc[j]);
}

/* The outputs for the activations of the first `units` hidden units (a
 * multiple of 8; those after them have no output weight). */
ALWAYS_INLINE void output_layer(const NnWeights *w, const float hidden[NN_HIDDEN], int units,
                                float out[OUT_COUNT])
{
    /* Each output's sum: eight partial sums over the hidden units h = j
     * mod 8, in order, then added pairwise. The five outputs' partial sums
     * go side by side, so that none waits for the addition before it. */
    float z[F8_LANES] = {0}, s[F8_LANES];
    F8 acc[OUT_COUNT], a, b;
    for (int o = 0; o < OUT_COUNT; o++)
        acc[o] = F8_ALL(0.0f);
    for (int h = 0; h < units; h += F8_LANES) {
        memcpy(&b, hidden + h, sizeof b);
        for (int o = 0; o < OUT_COUNT; o++) {
            memcpy(&a, w->out[o] + h, sizeof a);
            acc[o] += a * b;
        }
    }
    for (int o = 0; o < OUT_COUNT; o++) {
        F8 c = acc[o];
        z[o] = w->out_bias[o] +
               (((c[0] + c[1]) + (c[2] + c[3])) + ((c[4] + c[5]) + (c[6] + c[7])));
    }
    f8_sigmoid(s, z);
    for (int o = 0; o < OUT_COUNT; o++)
        out[o] = s[o];
}

/* Hidden activations and outputs for the hidden units' sums. */
ALWAYS_INLINE void outputs_with(const NnWeights *w, const float sum[NN_HIDDEN],
                                float hidden[NN_HIDDEN], float out[OUT_COUNT])
{
    for (int h = 0; h < NN_HIDDEN; h += F8_LANES)
        f8_sigmoid(hidden + h, sum + h);
    output_layer(w, hidden, NN_HIDDEN, out);
}

/* Hidden activations and outputs for the given sparse inputs; blocks
 * vectors of hidden sums a pass over the inputs. */
ALWAYS_INLINE void forward_with(const NnWeights *w, int n, const int index[],
                                const float value[], int blocks, float hidden[NN_HIDDEN],
                                float out[OUT_COUNT])
{
    float sum[NN_HIDDEN];
    int h0 = 0;
    for (; h0 + blocks * F8_LANES <= NN_HIDDEN; h0 += blocks * F8_LANES)
        hidden_block(w, n, index, value, h0, blocks, sum);
    for (; h0 < NN_HIDDEN; h0 += F8_LANES) /* a size that is no multiple of a pass */
        hidden_block(w, n, index, value, h0, 1, sum);
    outputs_with(w, sum, hidden, out);
}

/* Four vectors of sums a pass: eight of the sixteen SSE registers. */
static void forward_portable(const NnWeights *w, int n, const int index[], const float value[],
                             float hidden[NN_HIDDEN], float out[OUT_COUNT])
{
    forward_with(w, n, index, value, 4, hidden, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Eight a pass: half the sixteen AVX registers, the rest for the rows. */
__attribute__((target("avx2"))) static void forward_avx2(const NnWeights *w, int n,
                                                         const int index[], const float value[],
                                                         float hidden[NN_HIDDEN],
                                                         float out[OUT_COUNT])
{
    forward_with(w, n, index, value, 8, hidden, out);
}

static void forward(const NnWeights *w, int n, const int index[], const float value[],
                    float hidden[NN_HIDDEN], float out[OUT_COUNT])
{
    /* The C library's record of the CPU, set before main: no state here. */
    if (__builtin_cpu_supports("avx2"))
        forward_avx2(w, n, index, value, hidden, out);
    else
        forward_portable(w, n, index, value, hidden, out);
}
#else
#define forward forward_portable
#endif

/* ---- the first layer in integers (nn_quantize) ----
 *
 * Each input weight and hidden bias is kept as the 16-bit integer
 * round(x / step), step a power of two: 1/512, or coarser where a weight
 * would not fit (at 1/512 the weights and sums reach +-64). An input value
 * v (every one is in [0, 8)) is whole + f, f in [0, 1): its row is added
 * whole times, then f's share of it, (q * round(f 2^15) + 2^14) >> 15 (the
 * instruction pmulhrsw). The sums saturate at the 16-bit limits, +-64 at
 * 1/512, where a hidden unit's sigmoid is 0 or 1 to float precision: the
 * sums of feat-15 and of a 256-unit network reach 52 at most over 200,000
 * positions of their training data. Every step is integer arithmetic in an
 * order both code paths share, so the two agree to the bit. A point's
 * inputs (up to nine rows: three whole, the fourth up to six times and a
 * share) are one row made at load time (qpoint), the sum of those rows:
 * integer addition, so the sums are those of the rows one by one whenever
 * none reaches the limits on the way (test_nn), at a fraction of the
 * loads, which bound the layer's time more than its additions. A sum's
 * activation is then looked up, the float sigmoid of the sum times step,
 * and the outputs are the float path's. The equities come within 0.001 of
 * the floats' (root mean square; 0.006 at most) on positions of play, and
 * 100,000 games between the two ways of one network came out level. */

#define Q_STEP_FINEST (1.0f / 512.0f)
#define Q_LANES 16
#define Q_WHOLE_MAX 8 /* every input value is below it */
#define Q_ONES (NN_INPUTS * Q_WHOLE_MAX) /* rows added whole, at most */

_Static_assert(NN_HIDDEN % Q_LANES == 0, "the hidden layer is whole integer vectors");

/* The inputs as the integer layer reads them: rows added whole, and rows
 * added in part. */
typedef struct QInputs {
    int ones, fracs;
    const int16_t *one[Q_ONES + 1]; /* + 1: the slot written past the last */
    const int16_t *frac_row[NN_INPUTS];
    int32_t frac[NN_INPUTS]; /* 1 .. 2^15 - 1: the part, times 2^15 */
} QInputs;

/* (q f + 2^14) >> 15, rounded down as pmulhrsw does, without shifting a
 * negative number (|q f| < 2^30). */
static inline int32_t q_share(int32_t q, int32_t f)
{
    return ((q * f + 0x4000 + (1 << 30)) >> 15) - (1 << 15);
}

/* An input value v in [0, Q_WHOLE_MAX) as whole + f / 2^15: v in steps
 * of 2^-15, rounded half up, by one conversion (v 2^15 + 1/2 is exact: it
 * is below 2^18, where a float's step is at most 2^-6). The same as
 * splitting off the whole part first and rounding the rest, a rest that
 * rounds up to 1 carried into the whole. */
static int q_split(float v, int *f)
{
    int steps = (int)(v * 32768.0f + 0.5f);
    *f = steps & 32767;
    return steps >> 15;
}

/* Appends the n inputs to q's rows. */
static void q_add_inputs(const NnWeights *w, int n, const int index[], const float value[],
                         QInputs *q)
{
    /* Most values are below 2 and their parts follow no pattern: the row
     * is written where it would go and the counts moved past it when it
     * is taken, rather than a branch on each. A larger whole part takes
     * the row as often, within the room there is (valued all the same, a
     * position with more than 15 checkers, which no game reaches, could
     * need more); the room left is a row for each input to come. */
    for (int k = 0; k < n; k++) {
        const int16_t *row = w->qin[index[k]];
        int f, whole = q_split(value[k], &f);
        if (whole <= 1) {
            q->one[q->ones] = row;
            q->ones += whole;
        } else {
            for (; whole > 0 && q->ones < Q_ONES - NN_INPUTS; whole--)
                q->one[q->ones++] = row;
        }
        q->frac_row[q->fracs] = row, q->frac[q->fracs] = f;
        q->fracs += f > 0;
    }
}

/* p's inputs as rows: a point's from qpoint where it fits, the rest one
 * input at a time. */
static void q_inputs(const NnWeights *w, const Position *p, const RaceSideModel *model,
                     QInputs *q)
{
    int index[NN_INPUTS], n = 0;
    float value[NN_INPUTS];
    q->ones = q->fracs = 0;
    for (int k = 0; k < 2; k++) {
        const uint8_t *side = p->side[k == 0 ? SIDE_ROLLER : SIDE_OPPONENT];
        int base = k * NN_SIDE_INPUTS, pips = 0, on = 0;
        /* The points with checkers, one by one (a branch on each count
         * would be taken at random). */
        for (uint32_t m = pos_points_holding(side, 1); m; m &= m - 1) {
            int i = __builtin_ctz(m), c = side[i];
            pips += c * (i + 1);
            on += c;
            /* (more than 15 on a point: a position no game reaches, which
             * the engine values all the same, one input at a time) */
            if (c <= POS_CHECKERS && w->qpoint_fits[k][i][c]) {
                q->one[q->ones++] = w->qpoint[k][i][c];
                continue;
            }
            for (int j = 0; j < (c < 4 ? c : 4); j++)
                index[n] = base + 4 * i + j, value[n++] = point_input(c, j);
        }
        side_rest(side, base, pips, on, &n, index, value);
    }
    n = feature_inputs(w, p, model, n, index, value);
    q_add_inputs(w, n, index, value, q);
}

static int16_t q_round(float x, float step)
{
    float r = rintf(x / step);
    return (int16_t)(r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r);
}

void nn_quantize(NnWeights *w)
{
    float most = 0.0f;
    for (int i = 0; i < w->inputs; i++)
        for (int h = 0; h < NN_HIDDEN; h++)
            most = fmaxf(most, fabsf(w->in[i][h]));
    for (int h = 0; h < NN_HIDDEN; h++)
        most = fmaxf(most, fabsf(w->hidden_bias[h]));
    float step = Q_STEP_FINEST;
    while (most / step > INT16_MAX) /* weights are finite (nn_file.c) */
        step *= 2.0f;
    memset(w->qin, 0, sizeof w->qin);
    for (int i = 0; i < w->inputs; i++)
        for (int h = 0; h < NN_HIDDEN; h++)
            w->qin[i][h] = q_round(w->in[i][h], step);
    for (int h = 0; h < NN_HIDDEN; h++)
        w->qbias[h] = q_round(w->hidden_bias[h], step);
    /* The sigmoid of every sum, as the float path computes it (the same
     * bits on every code path). */
    for (int k = 0; k < 1 << 16; k += F8_LANES) {
        float x[F8_LANES];
        for (int j = 0; j < F8_LANES; j++)
            x[j] = (float)(k + j + INT16_MIN) * step;
        f8_sigmoid(w->qsigmoid + k, x);
    }
    /* Each point's rows together (nn.h, qpoint): the inputs of side k's
     * point i with c checkers, as side_inputs makes them, added up in 32
     * bits as q_add_inputs would add them. */
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 24; i++)
            for (int c = 1; c <= POS_CHECKERS; c++) {
                int inputs = c < 4 ? c : 4, whole[4], f[4];
                for (int j = 0; j < inputs; j++)
                    whole[j] = q_split(point_input(c, j), &f[j]);
                bool fits = true;
                for (int h = 0; h < NN_HIDDEN; h++) {
                    int32_t x = 0;
                    for (int j = 0; j < inputs; j++) {
                        int32_t q = w->qin[k * NN_SIDE_INPUTS + 4 * i + j][h];
                        x += whole[j] * q + (f[j] > 0 ? q_share(q, f[j]) : 0);
                    }
                    fits = fits && x >= INT16_MIN && x <= INT16_MAX;
                    w->qpoint[k][i][c][h] = fits ? (int16_t)x : 0;
                }
                w->qpoint_fits[k][i][c] = fits;
            }
    /* A unit with no output weight adds 0 to every output's sum whatever
     * its activation: those after the last that has one are left out (a
     * network file narrower than the build leaves them so, nn_file.h). */
    w->qunits = 0;
    for (int h = 0; h < NN_HIDDEN; h++)
        for (int o = 0; o < OUT_COUNT; o++)
            if (w->out[o][h] != 0.0f)
                w->qunits = (h / Q_LANES + 1) * Q_LANES;
    w->quantized = true;
}

static inline int16_t q_saturate(int32_t x)
{
    return (int16_t)(x > INT16_MAX ? INT16_MAX : x < INT16_MIN ? INT16_MIN : x);
}

static void q_sums_portable(const NnWeights *w, const QInputs *q, int16_t sum[NN_HIDDEN])
{
    memcpy(sum, w->qbias, sizeof w->qbias);
    for (int k = 0; k < q->ones; k++) {
        const int16_t *row = q->one[k];
        for (int h = 0; h < w->qunits; h++)
            sum[h] = q_saturate(sum[h] + row[h]);
    }
    for (int k = 0; k < q->fracs; k++) {
        const int16_t *row = q->frac_row[k];
        for (int h = 0; h < w->qunits; h++)
            sum[h] = q_saturate(sum[h] + q_share(row[h], q->frac[k]));
    }
}

/* A hidden unit's activation is the sigmoid of its sum, one of 2^16
 * integers: looked up (qsigmoid), where computing it took a third of the
 * forward pass. */
ALWAYS_INLINE void q_outputs(const NnWeights *w, const int16_t qsum[NN_HIDDEN],
                             float hidden[NN_HIDDEN], float out[OUT_COUNT])
{
    for (int h = 0; h < w->qunits; h++)
        hidden[h] = w->qsigmoid[qsum[h] - INT16_MIN];
    output_layer(w, hidden, w->qunits, out);
}

static void q_forward_portable(const NnWeights *w, const QInputs *q, float hidden[NN_HIDDEN],
                               float out[OUT_COUNT])
{
    int16_t sum[NN_HIDDEN];
    q_sums_portable(w, q, sum);
    q_outputs(w, sum, hidden, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* sum[lo .. lo + 16 * blocks) as q_sums_portable makes them: blocks
 * vectors of sums in registers (a constant where this is inlined). */
__attribute__((target("avx2"))) ALWAYS_INLINE void
q_block_avx2(const NnWeights *w, const QInputs *q, int lo, int blocks, int16_t sum[NN_HIDDEN])
{
    __m256i acc[8];
#pragma GCC unroll 8
    for (int j = 0; j < blocks; j++)
        acc[j] = _mm256_loadu_si256((const __m256i *)(w->qbias + lo + j * Q_LANES));
    for (int k = 0; k < q->ones; k++) {
        const int16_t *row = q->one[k] + lo;
#pragma GCC unroll 8
        for (int j = 0; j < blocks; j++)
            acc[j] = _mm256_adds_epi16(
                acc[j], _mm256_loadu_si256((const __m256i *)(row + j * Q_LANES)));
    }
    for (int k = 0; k < q->fracs; k++) {
        const int16_t *row = q->frac_row[k] + lo;
        const __m256i f = _mm256_set1_epi16((int16_t)q->frac[k]);
#pragma GCC unroll 8
        for (int j = 0; j < blocks; j++)
            acc[j] = _mm256_adds_epi16(
                acc[j], _mm256_mulhrs_epi16(
                            _mm256_loadu_si256((const __m256i *)(row + j * Q_LANES)), f));
    }
#pragma GCC unroll 8
    for (int j = 0; j < blocks; j++)
        _mm256_storeu_si256((__m256i *)(sum + lo + j * Q_LANES), acc[j]);
}

/* Eight vectors of sums a pass, as the float path. */
__attribute__((target("avx2"))) static void q_forward_avx2(const NnWeights *w,
                                                           const QInputs *q,
                                                           float hidden[NN_HIDDEN],
                                                           float out[OUT_COUNT])
{
    int16_t sum[NN_HIDDEN];
    int h0 = 0;
    for (; h0 + 8 * Q_LANES <= w->qunits; h0 += 8 * Q_LANES)
        q_block_avx2(w, q, h0, 8, sum);
    for (; h0 < w->qunits; h0 += Q_LANES)
        q_block_avx2(w, q, h0, 1, sum);
    /* The activations looked up eight at a time (q_outputs' values). */
    for (int h = 0; h < w->qunits; h += 8) {
        __m256i at = _mm256_add_epi32(
            _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(sum + h))),
            _mm256_set1_epi32(-INT16_MIN));
        _mm256_storeu_ps(hidden + h, _mm256_i32gather_ps(w->qsigmoid, at, 4));
    }
    output_layer(w, hidden, w->qunits, out);
}

static void q_forward(const NnWeights *w, const QInputs *q, float hidden[NN_HIDDEN],
                      float out[OUT_COUNT])
{
    if (__builtin_cpu_supports("avx2"))
        q_forward_avx2(w, q, hidden, out);
    else
        q_forward_portable(w, q, hidden, out);
}
#else
#define q_forward q_forward_portable
#endif

static void eval_by(bool portable, const NnWeights *w, const Position *p,
                    const RaceSideModel *model, double out[OUT_COUNT])
{
    float hidden[NN_HIDDEN], o[OUT_COUNT];
    if (w->quantized) {
        QInputs q;
        q_inputs(w, p, model, &q);
        (portable ? q_forward_portable : q_forward)(w, &q, hidden, o);
    } else {
        int index[NN_INPUTS];
        float value[NN_INPUTS];
        int n = inputs_with(w, p, model, index, value);
        (portable ? forward_portable : forward)(w, n, index, value, hidden, o);
    }
    for (int k = 0; k < OUT_COUNT; k++)
        out[k] = o[k];
}

void nn_eval(const NnWeights *w, const Position *p, double out[OUT_COUNT])
{
    eval_by(false, w, p, NULL, out);
}

void nn_eval_race(const NnWeights *w, const Position *p, const RaceSideModel model[2],
                  double out[OUT_COUNT])
{
    eval_by(false, w, p, model, out);
}

void nn_eval_portable(const NnWeights *w, const Position *p, double out[OUT_COUNT])
{
    eval_by(true, w, p, NULL, out);
}

/* The error signal at each hidden unit's sum for the error signal delta
 * at each output's sum (the network's weights as they are). */
static void hidden_delta(const NnWeights *w, const float hidden[NN_HIDDEN],
                         const float delta[OUT_COUNT], float grad[NN_HIDDEN])
{
    for (int h = 0; h < NN_HIDDEN; h++) {
        float g = 0.0f;
        for (int k = 0; k < OUT_COUNT; k++)
            g += delta[k] * w->out[k][h];
        grad[h] = g * hidden[h] * (1.0f - hidden[h]);
    }
}

/* Moves the weights of one forward pass (its n inputs, its hidden units)
 * by rate times the error signals at the outputs' and hidden units' sums. */
static void step(NnWeights *w, int n, const int index[], const float value[],
                 const float hidden[NN_HIDDEN], const float delta[OUT_COUNT],
                 const float grad[NN_HIDDEN], float rate)
{
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

void nn_learn(NnWeights *w, const Position *p, const double target[OUT_COUNT], float rate)
{
    w->quantized = false;
    int index[NN_INPUTS];
    float value[NN_INPUTS], hidden[NN_HIDDEN], o[OUT_COUNT];
    int n = nn_inputs(w, p, index, value);
    forward(w, n, index, value, hidden, o);
    /* Cross-entropy with sigmoid outputs: the error at each output's sum is
     * simply target - output. */
    float delta[OUT_COUNT], grad[NN_HIDDEN];
    for (int k = 0; k < OUT_COUNT; k++)
        delta[k] = (float)target[k] - o[k];
    hidden_delta(w, hidden, delta, grad);
    step(w, n, index, value, hidden, delta, grad, rate);
}

/* The cubeless money equity's weights on the five outputs (the money
 * equity of eval_outputs.h: 2 win - 1 + the gammons and backgammons won
 * less those lost). */
static const float equity_weight[OUT_COUNT] = {2.0f, 1.0f, 1.0f, -1.0f, -1.0f};

static float outputs_equity(const float o[OUT_COUNT])
{
    float e = -1.0f;
    for (int k = 0; k < OUT_COUNT; k++)
        e += equity_weight[k] * o[k];
    return e;
}

void nn_learn_pair(NnWeights *w, const Position *a, const Position *b, double diff, float rate)
{
    w->quantized = false;
    int ia[NN_INPUTS], ib[NN_INPUTS];
    float va[NN_INPUTS], vb[NN_INPUTS], ha[NN_HIDDEN], hb[NN_HIDDEN], oa[OUT_COUNT],
        ob[OUT_COUNT];
    int na = nn_inputs(w, a, ia, va), nb = nn_inputs(w, b, ib, vb);
    forward(w, na, ia, va, ha, oa);
    forward(w, nb, ib, vb, hb, ob);
    /* Half the squared error of the difference: its gradient at output k's
     * sum is err * weight_k * o_k (1 - o_k) for a, the opposite for b. */
    float err = (outputs_equity(oa) - outputs_equity(ob)) - (float)diff;
    float da[OUT_COUNT], db[OUT_COUNT], ga[NN_HIDDEN], gb[NN_HIDDEN];
    for (int k = 0; k < OUT_COUNT; k++) {
        da[k] = -err * equity_weight[k] * oa[k] * (1.0f - oa[k]);
        db[k] = err * equity_weight[k] * ob[k] * (1.0f - ob[k]);
    }
    /* Both gradients from the weights before either step. */
    hidden_delta(w, ha, da, ga);
    hidden_delta(w, hb, db, gb);
    step(w, na, ia, va, ha, da, ga, rate);
    step(w, nb, ib, vb, hb, db, gb, rate);
}

static float next_weight(unsigned long long *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17; /* xorshift64 */
    return ((float)(*s >> 40) / (float)(1ull << 24) - 0.5f) * 0.2f;
}

void nn_init(NnWeights *w, int inputs, unsigned long long seed)
{
    /* The raw network's weights in the order of its file, then the
     * features' rows: a raw network of a seed is what it always was. */
    unsigned long long s = seed * 0x9e3779b97f4a7c15ull + 1;
    memset(w, 0, sizeof *w);
    for (int i = 0; i < NN_RAW_INPUTS; i++)
        for (int h = 0; h < NN_HIDDEN; h++)
            w->in[i][h] = next_weight(&s);
    for (int h = 0; h < NN_HIDDEN; h++)
        w->hidden_bias[h] = next_weight(&s);
    for (int k = 0; k < OUT_COUNT; k++)
        for (int h = 0; h < NN_HIDDEN; h++)
            w->out[k][h] = next_weight(&s);
    for (int k = 0; k < OUT_COUNT; k++)
        w->out_bias[k] = next_weight(&s);
    for (int i = NN_RAW_INPUTS; i < inputs; i++)
        for (int h = 0; h < NN_HIDDEN; h++)
            w->in[i][h] = next_weight(&s);
    w->inputs = inputs;
}

void nn_widen(NnWeights *w, int inputs)
{
    int from = nn_feature_count(w), to = (inputs - NN_RAW_INPUTS) / 2;
    if (to <= from)
        return;
    /* The other side's features move up to follow the player on roll's
     * wider block; every new row is zero. */
    float (*f)[NN_HIDDEN] = w->in + NN_RAW_INPUTS;
    memmove(f[to], f[from], sizeof f[0] * (size_t)from);
    memset(f[from], 0, sizeof f[0] * (size_t)(to - from));
    memset(f[to + from], 0, sizeof f[0] * (size_t)(to - from));
    w->inputs = inputs;
    w->quantized = false;
}

void nn_widen_hidden(NnWeights *w, int from, unsigned long long seed)
{
    unsigned long long s = seed * 0x9e3779b97f4a7c15ull + 1;
    /* Half nn_init's spread (+-0.05): beside trained units, larger random
     * sums would swamp the small gradients that reach a unit whose output
     * weights start at 0. */
    for (int i = 0; i < w->inputs; i++)
        for (int h = from; h < NN_HIDDEN; h++)
            w->in[i][h] = next_weight(&s) * 0.5f;
    w->quantized = false;
}
