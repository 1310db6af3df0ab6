/* test_nn.c - the contact network: its input encoding, that a
 * learning step moves the outputs towards the target, and that the trained
 * weights give sensible chances where the answer is known roughly. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nn.h"
#include "nn_file.h"
#include "randpos.h"

static void near(double a, double b, double eps, int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("line %d: %.12g != %.12g (within %g)", line, a, b, eps);
}
#define assert_near(a, b, eps) near((a), (b), (eps), __LINE__)

/* nn_inputs reads only which inputs a network has. */
static const NnWeights *raw_net(void)
{
    static NnWeights raw = {.inputs = NN_RAW_INPUTS};
    return &raw;
}

/* The opening position: per side 4 points held (2, 5, 3, 5 checkers:
 * 2 + 4 + 3 + 4 unit inputs = 13) and the pip count: 14 inputs a side. */
static void test_inputs_opening(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    int index[NN_INPUTS];
    float value[NN_INPUTS];
    int n = nn_inputs(raw_net(), &p, index, value);
    assert_int_equal(n, 28);
    float dense[NN_INPUTS] = {0};
    for (int k = 0; k < n; k++) {
        assert_true(index[k] >= 0 && index[k] < NN_INPUTS);
        dense[index[k]] = value[k];
    }
    for (int side = 0; side < 2; side++) {
        int base = side * NN_SIDE_INPUTS;
        /* 24-point (index 23): two checkers. */
        assert_near(dense[base + 4 * 23], 1, 0);
        assert_near(dense[base + 4 * 23 + 1], 1, 0);
        assert_near(dense[base + 4 * 23 + 2], 0, 0);
        /* 6-point (index 5): five, the fourth input (5 - 3) / 2. */
        assert_near(dense[base + 4 * 5 + 3], 1, 0);
        /* 8-point: three. */
        assert_near(dense[base + 4 * 7 + 2], 1, 0);
        assert_near(dense[base + 4 * 7 + 3], 0, 0);
        assert_near(dense[base + 96], 0, 0);               /* bar */
        assert_near(dense[base + 97], 0, 0);               /* off */
        assert_near(dense[base + 98], 167 / 200.0, 1e-6); /* pips */
    }
}

/* The side on roll comes first: on the bar and borne off show there. */
static void test_inputs_sides(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][POS_BAR] = 2;
    p.side[SIDE_ROLLER][0] = 4;
    p.side[SIDE_OPPONENT][10] = 1;
    int index[NN_INPUTS];
    float value[NN_INPUTS];
    int n = nn_inputs(raw_net(), &p, index, value);
    float dense[NN_INPUTS] = {0};
    for (int k = 0; k < n; k++)
        dense[index[k]] = value[k];
    assert_near(dense[96], 1.0, 0);        /* 2 on the bar / 2 */
    assert_near(dense[97], 9 / 15.0, 1e-6); /* 9 off */
    assert_near(dense[3], 0.5, 0);         /* 4 on the ace: (4 - 3) / 2 */
    assert_near(dense[98], (2 * 25 + 4) / 200.0, 1e-6);
    assert_near(dense[NN_SIDE_INPUTS + 40], 1, 0);
    assert_near(dense[NN_SIDE_INPUTS + 97], 14 / 15.0, 1e-6);
}

/* A few steps towards a target bring every output closer to it. */
static void test_learning_step(void **state)
{
    (void)state;
    NnWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    nn_init(w, NN_RAW_INPUTS, 7);
    Position p;
    pos_start(&p);
    const double target[OUT_COUNT] = {0.9, 0.4, 0.05, 0.1, 0.01};
    double before[OUT_COUNT], after[OUT_COUNT];
    nn_eval(w, &p, before);
    for (int i = 0; i < 20; i++)
        nn_learn(w, &p, target, 0.05f);
    nn_eval(w, &p, after);
    for (int k = 0; k < OUT_COUNT; k++)
        assert_true(fabs(after[k] - target[k]) < fabs(before[k] - target[k]));
    /* The same seed gives the same weights. */
    NnWeights *v = malloc(sizeof *v);
    assert_non_null(v);
    nn_init(w, NN_RAW_INPUTS, 7);
    nn_init(v, NN_RAW_INPUTS, 7);
    assert_memory_equal(w, v, sizeof *w);
    nn_init(v, NN_RAW_INPUTS, 8);
    assert_true(memcmp(w, v, sizeof *w) != 0);
    /* With the features, the raw network's weights and then the features'. */
    nn_init(v, NN_INPUTS, 7);
    assert_memory_equal(w->hidden_bias, v->hidden_bias, sizeof w->hidden_bias);
    assert_memory_equal(w->in, v->in, sizeof w->in[0] * NN_RAW_INPUTS);
    assert_true(v->in[NN_INPUTS - 1][0] != 0.0f);
    free(w);
    free(v);
}

/* Steps on a pair bring the difference of the two equities towards the
 * target, from the first step on. */
static void test_pair_step(void **state)
{
    (void)state;
    NnWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    nn_init(w, NN_INPUTS, 7);
    Position a, b;
    pos_start(&a);
    b = a;
    b.side[SIDE_ROLLER][5] -= 2, b.side[SIDE_ROLLER][3] += 1, b.side[SIDE_ROLLER][4] += 1;
    double oa[OUT_COUNT], ob[OUT_COUNT];
    nn_eval(w, &a, oa);
    nn_eval(w, &b, ob);
    double start = eval_money_equity(oa) - eval_money_equity(ob), target = start + 0.3;
    double gap = target - start;
    /* A step moves the difference by about the rate times the hidden units:
     * the same steps at any width. */
    const float rate = 0.5f * 128.0f / NN_HIDDEN;
    for (int i = 0; i < 100; i++) {
        nn_learn_pair(w, &a, &b, target, rate);
        nn_eval(w, &a, oa);
        nn_eval(w, &b, ob);
        double now = target - (eval_money_equity(oa) - eval_money_equity(ob));
        assert_true(now > 0.0 && now < gap); /* nearer each step, not past it */
        gap = now;
    }
    assert_true(gap < 0.1 * 0.3);
    free(w);
}

/* The compiled-in network, in memory of its own (the caller frees it). */
static NnWeights *compiled_in(void)
{
    NnWeights *w = malloc(sizeof *w);
    assert_non_null(w);
    Err err;
    assert_true(nn_file_parse(nn_default_file, nn_default_file_size, "compiled-in", w, NULL, &err));
    return w;
}

/* The compiled-in network: the opening is close to even (gnubg 1.07 says
 * 0.52 to win, 0.15 gammons each way), and a blitz against a checker on
 * the bar behind a 5-point board is a big favourite with many gammons. */
static void test_trained(void **state)
{
    (void)state;
    NnWeights *w = compiled_in();
    double out[OUT_COUNT];
    Position p;
    pos_start(&p);
    nn_eval(w, &p, out);
    assert_true(out[OUT_WIN] > 0.45 && out[OUT_WIN] < 0.58);
    assert_true(out[OUT_WIN_GAMMON] > 0.08 && out[OUT_WIN_GAMMON] < 0.25);
    assert_true(out[OUT_LOSE_GAMMON] > 0.08 && out[OUT_LOSE_GAMMON] < 0.25);
    memset(&p, 0, sizeof p);
    /* Roller: 2 each on points 2..6, 3 on the 8, 2 on the 13. */
    for (int i = 1; i < 6; i++)
        p.side[SIDE_ROLLER][i] = 2;
    p.side[SIDE_ROLLER][7] = 3, p.side[SIDE_ROLLER][12] = 2;
    /* Other side: one on the bar, the rest well back and home. */
    p.side[SIDE_OPPONENT][POS_BAR] = 1;
    p.side[SIDE_OPPONENT][5] = 6, p.side[SIDE_OPPONENT][7] = 4;
    p.side[SIDE_OPPONENT][12] = 4;
    nn_eval(w, &p, out);
    assert_true(out[OUT_WIN] > 0.75);
    assert_true(out[OUT_WIN_GAMMON] > 0.2);
    free(w);
}

/* The sigmoid of the outputs and of the hidden units, against libm's in
 * double: with every weight 0, an output is the sigmoid of its bias; with
 * one hidden unit wired to output 0, that output is the sigmoid of the
 * unit's sigmoid. Far out it is 1, or 0 to float precision. */
static double sig(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static void test_sigmoid(void **state)
{
    (void)state;
    NnWeights *w = calloc(1, sizeof *w);
    assert_non_null(w);
    Position p;
    pos_start(&p);
    double out[OUT_COUNT];
    for (double b = -120.0; b <= 120.0; b += 0.37) {
        for (int o = 0; o < OUT_COUNT; o++)
            w->out_bias[o] = (float)(b + o * 0.01);
        nn_eval(w, &p, out);
        for (int o = 0; o < OUT_COUNT; o++) {
            double x = (float)(b + o * 0.01), want = sig(x);
            if (x > -86.0 && x < 86.0)
                assert_near(out[o] / want, 1.0, 1e-6);
            else if (x >= 86.0)
                assert_true(out[o] == 1.0);
            else /* 0 to float precision: no more than e^-86 */
                assert_true(out[o] >= 0.0 && out[o] <= 5e-38);
        }
    }
    /* A hidden unit's sigmoid s, scaled by its output weight 2 / s so that
     * output 0 is near sig(2), where an error in s shows: a relative error
     * e in s moves the output by about 0.21 e. */
    memset(w->out_bias, 0, sizeof w->out_bias);
    for (double c = -80.0; c <= 30.0; c += 0.73) {
        w->hidden_bias[0] = (float)c;
        w->out[0][0] = (float)(2.0 / sig((float)c));
        nn_eval(w, &p, out);
        double z = (double)w->out[0][0] * sig((float)c);
        assert_near(out[0] / sig(z), 1.0, 2e-7);
    }
    free(w);
}

/* The AVX2 path (on a CPU that has it) and the portable one give the same
 * bits: decisions do not depend on the machine. */
static void test_paths_agree(void **state)
{
    (void)state;
#if defined(__x86_64__) && defined(__GNUC__)
    if (!__builtin_cpu_supports("avx2"))
        skip(); /* one path only: nothing to compare */
#else
    skip();
#endif
    NnWeights *w = compiled_in(), *r = malloc(sizeof *r);
    assert_non_null(r);
    nn_init(r, NN_INPUTS, 3); /* the features too */
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 3000; i++) {
        Position p;
        randpos_loose(&s, &p);
        const NnWeights *net = i % 2 ? r : w;
        double a[OUT_COUNT], b[OUT_COUNT];
        nn_eval(net, &p, a);
        nn_eval_portable(net, &p, b);
        if (memcmp(a, b, sizeof a) != 0)
            fail_msg("position %d: %.9g vs %.9g to win", i, a[0], b[0]);
    }
    free(w);
    free(r);
}

/* The money equity of the five chances. */
static double equity_of(const double o[OUT_COUNT])
{
    return 2.0 * o[0] - 1.0 + o[1] + o[2] - o[3] - o[4];
}

/* The first layer in integers (nn_quantize): both code paths give the same
 * bits; the equities stay near the floats' (0.001 root mean square on the
 * positions of play, nn.c); and training clears it. */
static void test_quantized(void **state)
{
    (void)state;
    NnWeights *w = compiled_in(), *q = malloc(sizeof *q);
    assert_non_null(q);
    memcpy(q, w, sizeof *w);
    nn_quantize(q);
    assert_true(q->quantized);
    uint64_t s = 0x2545f4914f6cdd1du;
    double most = 0.0, squares = 0.0;
    const int n = 3000;
    for (int i = 0; i < n; i++) {
        Position p;
        randpos_loose(&s, &p);
        double f[OUT_COUNT], a[OUT_COUNT], b[OUT_COUNT];
        nn_eval(w, &p, f);
        nn_eval(q, &p, a);
        nn_eval_portable(q, &p, b);
        if (memcmp(a, b, sizeof a) != 0)
            fail_msg("position %d: %.9g vs %.9g to win", i, a[0], b[0]);
        double d = fabs(equity_of(a) - equity_of(f));
        most = fmax(most, d);
        squares += d * d;
    }
    /* Random positions, wilder than those of play: looser bounds. */
    assert_true(sqrt(squares / n) < 0.005);
    assert_true(most < 0.05);
    Position p;
    pos_start(&p);
    double target[OUT_COUNT] = {1, 0, 0, 0, 0};
    nn_learn(q, &p, target, 0.01f);
    assert_false(q->quantized);
    free(w);
    free(q);
}

/* w values n random positions (from seed) to the bits `other` gives, and
 * so does its portable code path. */
static void same_bits(const NnWeights *w, const NnWeights *other, uint64_t seed, int n)
{
    for (int i = 0; i < n; i++) {
        Position p;
        randpos_loose(&seed, &p);
        double a[OUT_COUNT], b[OUT_COUNT], c[OUT_COUNT];
        nn_eval(w, &p, a);
        nn_eval(other, &p, b);
        nn_eval_portable(w, &p, c);
        assert_memory_equal(a, b, sizeof a);
        assert_memory_equal(a, c, sizeof a);
    }
}

/* Units with no output weight are left out of the integer layer (a
 * narrower network read into this build): the values are those of the
 * whole layer to the bit. */
static void test_quantized_skips_idle_units(void **state)
{
    (void)state;
    NnWeights *w = compiled_in(), *all = malloc(sizeof *all);
    assert_non_null(all);
    /* Units 100 and up keep their input weights, not their output ones. */
    for (int o = 0; o < OUT_COUNT; o++)
        for (int h = 100; h < NN_HIDDEN; h++)
            w->out[o][h] = 0.0f;
    nn_quantize(w);
    assert_int_equal(w->qunits, 112);
    memcpy(all, w, sizeof *w);
    all->qunits = NN_HIDDEN;
    same_bits(w, all, 0x9e3779b97f4a7c15u, 1000);
    free(w);
    free(all);
}

/* A point's rows added together (qpoint) give the sums of its rows added
 * one by one to the bit; a point whose rows together would not fit 16 bits
 * is added one by one, and both code paths still agree. */
static void test_quantized_points_together(void **state)
{
    (void)state;
    NnWeights *w = compiled_in(), *apart = malloc(sizeof *apart);
    assert_non_null(apart);
    nn_quantize(w);
    int fitting = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 24; i++)
            for (int c = 1; c <= POS_CHECKERS; c++)
                fitting += w->qpoint_fits[k][i][c];
    assert_int_equal(fitting, 2 * 24 * POS_CHECKERS);
    memcpy(apart, w, sizeof *w);
    memset(apart->qpoint_fits, 0, sizeof apart->qpoint_fits);
    same_bits(w, apart, 0x5851f42d4c957f2du, 3000);
    /* The fourth input of the roller's point 6 (index 5), weights +-12 (in
     * 16 bits 6144 at 1/512): with c checkers it is added (c - 3) / 2
     * times, 18432 with 9 (and the point's other rows), 36864 with 15: no
     * one row. The hidden biases, -+30 (-+15360), keep the sums within 16
     * bits, so that the rows one by one give the same bits in any order. */
    for (int h = 0; h < NN_HIDDEN; h++) {
        float sign = h % 2 ? 1.0f : -1.0f;
        w->in[4 * 5 + 3][h] = 12.0f * sign;
        w->hidden_bias[h] = -30.0f * sign;
    }
    nn_quantize(w);
    assert_true(w->qpoint_fits[0][5][9]);
    assert_false(w->qpoint_fits[0][5][15]);
    assert_true(w->qpoint_fits[1][5][15]);
    memcpy(apart, w, sizeof *w);
    memset(apart->qpoint_fits, 0, sizeof apart->qpoint_fits);
    Position p;
    pos_start(&p);
    for (int i = 0; i < POS_SLOTS; i++)
        p.side[SIDE_ROLLER][i] = i == 5 ? 15 : 0;
    double a[OUT_COUNT], b[OUT_COUNT], c[OUT_COUNT];
    nn_eval(w, &p, a);
    nn_eval(apart, &p, b);
    nn_eval_portable(w, &p, c);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_equal(a, c, sizeof a);
    free(w);
    free(apart);
}

/* A board no game reaches, 255 checkers on every point and bar of both
 * sides, asks the integer layer for more whole rows than it has room
 * for: it values the board within the room (make check's ASan sees any
 * write past it), both code paths alike, chances in 0..1. */
static void test_quantized_overfull(void **state)
{
    (void)state;
    NnWeights *w = compiled_in();
    nn_quantize(w);
    Position p;
    memset(&p, 255, sizeof p);
    double a[OUT_COUNT], b[OUT_COUNT];
    nn_eval(w, &p, a);
    nn_eval_portable(w, &p, b);
    assert_memory_equal(a, b, sizeof a);
    for (int o = 0; o < OUT_COUNT; o++)
        assert_true(a[o] >= 0.0 && a[o] <= 1.0);
    free(w);
}

/* a and b value 500 random positions (from seed) to the same bits. */
static void same_values(const NnWeights *a, const NnWeights *b, uint64_t seed)
{
    for (int i = 0; i < 500; i++) {
        Position p;
        randpos_loose(&seed, &p);
        double x[OUT_COUNT], y[OUT_COUNT];
        nn_eval(a, &p, x);
        nn_eval(b, &p, y);
        assert_memory_equal(x, y, sizeof x);
    }
}

/* *w a new network of `from` inputs (seed `seed`), *f the same widened to
 * `to` inputs; the caller frees both. */
static void widened(int from, int to, unsigned long long seed, NnWeights **w, NnWeights **f)
{
    *w = malloc(sizeof **w);
    *f = malloc(sizeof **f);
    assert_non_null(*w);
    assert_non_null(*f);
    nn_init(*w, from, seed);
    memcpy(*f, *w, sizeof **w);
    nn_widen(*f, to);
    assert_int_equal((*f)->inputs, to);
}

/* A raw network given the features, their weights zero, values every
 * position to the bit as before (a network trained --features starts so). */
static void test_add_features(void **state)
{
    (void)state;
    NnWeights *w, *f;
    widened(NN_RAW_INPUTS, NN_INPUTS_FIRST, 5, &w, &f);
    same_values(w, f, 0x1234567887654321u);
    /* A weight on a feature now counts. */
    f->in[NN_RAW_INPUTS + NN_FEAT_REAR][0] = 3.0f;
    Position p;
    pos_start(&p);
    double a[OUT_COUNT], b[OUT_COUNT];
    nn_eval(w, &p, a);
    nn_eval(f, &p, b);
    assert_true(memcmp(a, b, sizeof a) != 0);
    free(w);
    free(f);
}

/* A ten-feature network given all eighteen, their weights zero, values
 * every position to the bit as before: the other side's ten move up behind
 * the player on roll's eighteen (a network trained --all-features from a
 * features-218 one starts so). */
static void test_widen_to_all(void **state)
{
    (void)state;
    NnWeights *w, *f;
    widened(NN_INPUTS_FIRST, NN_INPUTS, 9, &w, &f);
    assert_int_equal(nn_feature_count(f), NN_FEATURES);
    assert_memory_equal(f->in[NN_RAW_INPUTS + NN_FEATURES], w->in[NN_RAW_INPUTS + NN_FEATURES_FIRST],
                        sizeof f->in[0] * NN_FEATURES_FIRST);
    same_values(w, f, 0x8765432112345678u);
    /* Narrower than it is: nothing changes. */
    nn_widen(f, NN_INPUTS_FIRST);
    assert_int_equal(f->inputs, NN_INPUTS);
    free(w);
    free(f);
}

/* New hidden units (nn_widen_hidden) change no value, get input weights
 * of their own (the same for the same seed), and no others change. */
static void test_widen_hidden(void **state)
{
    (void)state;
    NnWeights *w = malloc(sizeof *w), *f = malloc(sizeof *f), *g = malloc(sizeof *g);
    assert_non_null(w);
    assert_non_null(f);
    assert_non_null(g);
    const int half = NN_HIDDEN / 2;
    nn_init(w, NN_INPUTS, 9);
    /* The half a narrower file leaves zero (nn_file.h). */
    for (int h = half; h < NN_HIDDEN; h++) {
        for (int i = 0; i < NN_INPUTS; i++)
            w->in[i][h] = 0.0f;
        w->hidden_bias[h] = 0.0f;
        for (int k = 0; k < OUT_COUNT; k++)
            w->out[k][h] = 0.0f;
    }
    memcpy(f, w, sizeof *w);
    nn_widen_hidden(f, half, 4);
    same_values(w, f, 0x0123456789abcdefu);
    assert_memory_equal(f->in[0], w->in[0], sizeof(float) * (size_t)half);
    assert_true(f->in[0][half] != 0.0f && fabsf(f->in[0][half]) <= 0.05f);
    assert_true(f->in[NN_INPUTS - 1][NN_HIDDEN - 1] != 0.0f);
    memcpy(g, w, sizeof *w);
    nn_widen_hidden(g, half, 4);
    assert_memory_equal(f, g, sizeof *f);
    memcpy(g, w, sizeof *w);
    nn_widen_hidden(g, half, 5);
    assert_true(memcmp(f->in, g->in, sizeof f->in) != 0);
    free(w);
    free(f);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_opening),
        cmocka_unit_test(test_inputs_sides),
        cmocka_unit_test(test_learning_step),
        cmocka_unit_test(test_pair_step),
        cmocka_unit_test(test_trained),
        cmocka_unit_test(test_sigmoid),
        cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_quantized),
        cmocka_unit_test(test_quantized_skips_idle_units),
        cmocka_unit_test(test_quantized_points_together),
        cmocka_unit_test(test_quantized_overfull),
        cmocka_unit_test(test_widen_hidden),
        cmocka_unit_test(test_add_features),
        cmocka_unit_test(test_widen_to_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
