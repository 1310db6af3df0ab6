/* test_nn_features.c - the contact network's hand-made features against
 * counts worked by hand: the rolls that hit a blot at each distance (the
 * table every backgammon book prints), those a point in between takes
 * away, the pips a hit costs, escapes past a prime, the rest read off the
 * board; and a network with the features still sees each side the same way
 * whichever side it is. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nn.h"
#include "nn_features.h"
#include "randpos.h"

static void near(double a, double b, int line)
{
    if (!(fabs(a - b) <= 1e-6 * (fabs(b) > 1 ? fabs(b) : 1))) /* float features */
        fail_msg("line %d: %.9g != %.9g", line, a, b);
}
#define assert_near(a, b) near((a), (b), __LINE__)

/* The roller's features of p. */
static void roller(const Position *p, float f[NN_FEATURES])
{
    float both[2][NN_FEATURES];
    nn_features(p, NN_FEATURES, both);
    memcpy(f, both[0], sizeof both[0]);
}

/* The roller has a blot d pips in front of the other side's one checker on
 * its 24-point (the roller's index d, the rest of both sides borne off). */
static void blot_before(Position *p, int d)
{
    memset(p, 0, sizeof *p);
    p->side[SIDE_ROLLER][d] = 1;
    p->side[SIDE_OPPONENT][23] = 1;
}

static void test_shots_by_distance(void **state)
{
    (void)state;
    /* Rolls of 36 hitting a blot d pips away, nothing in between. */
    static const int rolls[25] = {0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3,
                                  0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0};
    for (int d = 1; d <= 23; d++) {
        Position p;
        blot_before(&p, d);
        float f[NN_FEATURES];
        roller(&p, f);
        assert_near(f[NN_FEAT_SHOTS] * 36.0, rolls[d]);
        /* Hit, the blot d pips from the other side's checker goes back
         * to the bar: it had d + 1 pips to go, it has 25. */
        assert_near(f[NN_FEAT_PIP_LOSS] * 36.0 * 24.0, rolls[d] * (24 - d));
    }
}

static void test_shots_blocked(void **state)
{
    (void)state;
    Position p;
    blot_before(&p, 6);
    p.side[SIDE_ROLLER][3] = 2; /* a point 3 pips in front of the hitter */
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 16); /* 17 less 3-3 */
    /* 8 away: 6-2, 5-3, 4-4, 2-2 (6 rolls); a point 4 pips in front stops
     * 4-4 and 2-2 on it. */
    blot_before(&p, 8);
    p.side[SIDE_ROLLER][4] = 2;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 4);
    /* From the bar only the checker entering hits: a blot on the roller's
     * 3-point is hit by any 3 entering, and by 2-1 and 1-1 entering and
     * going on; not by the 2s their checker on the roller's 1-point has. */
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][2] = 1;
    p.side[SIDE_OPPONENT][POS_BAR] = 1;
    p.side[SIDE_OPPONENT][23] = 1;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 11 + 2 + 1);
    /* Two on the bar: 2-1 enters both; 1-1 still has three steps for one. */
    p.side[SIDE_OPPONENT][POS_BAR] = 2;
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS] * 36.0, 11 + 1);
}

static void test_escapes(void **state)
{
    (void)state;
    Position p;
    memset(&p, 0, sizeof p);
    p.side[SIDE_ROLLER][23] = 1; /* on the other side's 1-point */
    for (int i = 1; i <= 5; i++) /* a 5-prime in front: its 2- to 6-points */
        p.side[SIDE_OPPONENT][i] = 2;
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES] * 36.0, 11); /* a 6 jumps it */
    p.side[SIDE_OPPONENT][6] = 2;               /* a full prime */
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES], 0);
    /* Their 3-, 4- and 5-points held (his 22-, 21-, 20-points): a 5 or a 6
     * jumps them (20 rolls), and 4-1 through his 23-point; no double does. */
    p.side[SIDE_OPPONENT][1] = 0, p.side[SIDE_OPPONENT][5] = 0, p.side[SIDE_OPPONENT][6] = 0;
    roller(&p, f);
    assert_near(f[NN_FEAT_ESCAPES] * 36.0, 20 + 2);
    assert_near(f[NN_FEAT_REAR], 24 / 25.0);
}

static void test_board_counts(void **state)
{
    (void)state;
    Position p;
    pos_start(&p);
    float f[NN_FEATURES];
    roller(&p, f);
    assert_near(f[NN_FEAT_SHOTS], 0); /* no blots */
    assert_near(f[NN_FEAT_PRIME], 1 / 6.0);
    assert_near(f[NN_FEAT_HOME], 1 / 6.0);   /* the 6-point */
    assert_near(f[NN_FEAT_ANCHORS], 1 / 2.0); /* the 24-point */
    assert_near(f[NN_FEAT_DANCE], 1 / 36.0);
    assert_near(f[NN_FEAT_FORWARD], 1.0); /* the 13-point, their 12 */
    /* Their rearmost checkers are on his 1-point: to pass them he moves
     * 2 x 23 from the 24-point, 5 x 12 from the 13, 3 x 7 and 5 x 5. */
    assert_near(f[NN_FEAT_CONTACT], 152 / 200.0);
    float both[2][NN_FEATURES];
    nn_features(&p, NN_FEATURES, both);
    assert_memory_equal(both[0], both[1], sizeof both[0]);
    /* One of theirs on the bar (behind all of his: every checker counts
     * its whole way), one of his too (25 pips): 167 - 24 + 25. */
    p.side[SIDE_OPPONENT][23] = 1, p.side[SIDE_OPPONENT][POS_BAR] = 1;
    p.side[SIDE_ROLLER][23] = 1, p.side[SIDE_ROLLER][POS_BAR] = 1;
    roller(&p, f);
    assert_near(f[NN_FEAT_CONTACT], 168 / 200.0);
}

/* The contact feature, as its definition reads, over random positions:
 * the pips each of his checkers still needs to pass their rearmost (on
 * his index 23 - its index, the bar on -1), over 200, at most 1. */
static void test_contact_random(void **state)
{
    (void)state;
    uint64_t seed = 0x2545f4914f6cdd1du;
    for (int t = 0; t < 5000; t++) {
        Position p;
        randpos_loose(&seed, &p);
        const uint8_t *me = p.side[SIDE_ROLLER], *them = p.side[SIDE_OPPONENT];
        int rear = -1;
        for (int i = 0; i < POS_SLOTS; i++)
            if (them[i])
                rear = i;
        int behind = rear < 0 ? 24 : 23 - rear, pips = 0;
        for (int i = behind + 1; i < POS_SLOTS; i++)
            pips += me[i] * (i - behind);
        float f[NN_FEATURES];
        roller(&p, f);
        assert_near(f[NN_FEAT_CONTACT], pips >= 200 ? 1.0 : pips / 200.0);
    }
}

/* The same position seen from the other side: the features swap. */
static void test_sides_swap(void **state)
{
    (void)state;
    uint64_t s = 0x2545f4914f6cdd1dULL;
    for (int n = 0; n < 2000; n++) {
        Position p;
        randpos_loose(&s, &p);
        float a[2][NN_FEATURES], b[2][NN_FEATURES], first[2][NN_FEATURES];
        nn_features(&p, NN_FEATURES, a);
        /* The first ten alone are the same as the first ten of all. */
        nn_features(&p, NN_FEATURES_FIRST, first);
        for (int side = 0; side < 2; side++)
            assert_memory_equal(first[side], a[side], NN_FEATURES_FIRST * sizeof(float));
        for (int k = 0; k < NN_FEATURES; k++)
            for (int side = 0; side < 2; side++)
                if (!(a[side][k] >= 0.0f && a[side][k] <= 1.0f))
                    fail_msg("position %d: feature %d of side %d is %g", n, k, side,
                             (double)a[side][k]);
        pos_swap(&p);
        nn_features(&p, NN_FEATURES, b);
        assert_memory_equal(a[0], b[1], sizeof a[0]);
        assert_memory_equal(a[1], b[0], sizeof a[1]);
    }
}

/* A network with the features reads them after the points, the roller's
 * first; a raw one never does. */
static void test_inputs_with_features(void **state)
{
    (void)state;
    NnWeights *w = calloc(1, sizeof *w);
    assert_non_null(w);
    Position p;
    blot_before(&p, 6);
    int index[NN_INPUTS];
    float value[NN_INPUTS];
    w->inputs = NN_RAW_INPUTS;
    int raw = nn_inputs(w, &p, index, value);
    for (int k = 0; k < raw; k++)
        assert_true(index[k] < NN_RAW_INPUTS);
    /* The first ten features a side, or all eighteen: the other side's
     * follow the roller's block. */
    static const int counts[2] = {NN_FEATURES_FIRST, NN_FEATURES};
    for (int c = 0; c < 2; c++) {
        int count = counts[c];
        w->inputs = NN_RAW_INPUTS + 2 * count;
        int n = nn_inputs(w, &p, index, value);
        assert_true(n > raw);
        float dense[NN_INPUTS] = {0};
        for (int k = 0; k < n; k++) {
            assert_true(index[k] < w->inputs);
            dense[index[k]] = value[k];
        }
        assert_near(dense[NN_RAW_INPUTS + NN_FEAT_SHOTS], 17 / 36.0);
        /* Theirs, after: their checker is a blot 6 pips in front of his. */
        assert_near(dense[NN_RAW_INPUTS + count + NN_FEAT_SHOTS], 17 / 36.0);
        assert_near(dense[NN_RAW_INPUTS + count + NN_FEAT_REAR], 24 / 25.0);
    }
    free(w);
}

/* ---- the eight further features, written out point by point and roll by
 * roll as nn_features.h describes them, against nn_features' bit-sliced
 * counts ---- */

/* Bit i: a point of side s's with two checkers or more, in the other
 * side's numbering (index 23 - i of s). */
static uint32_t held_turned(const uint8_t *s)
{
    uint32_t m = 0;
    for (int i = 0; i < 24; i++)
        if (s[i] >= 2)
            m |= 1u << (23 - i);
    return m;
}

static bool open_at(uint32_t blocked, int x)
{
    return x < 0 || !(blocked >> x & 1u);
}

static int plain_rolls_moving(int r, uint32_t blocked)
{
    int rolls = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++)
            if (open_at(blocked, r - a - b) && (open_at(blocked, r - a) || open_at(blocked, r - b)))
                rolls += a == b ? 1 : 2;
    return rolls;
}

/* The blots of side s that the other side o hits with d1-d2, as bits of
 * o's numbering: any checker of o (only the bar's while o has any there)
 * moving by one die, or by both over an open point, or with a double by up
 * to four steps (fewer while o has more on the bar). */
static uint32_t plain_hits(const uint8_t *s, const uint8_t *o, int d1, int d2)
{
    uint32_t blots = 0, blocked = held_turned(s), h = 0;
    for (int i = 0; i < 24; i++)
        if (s[i] == 1)
            blots |= 1u << (23 - i);
    int bar = o[POS_BAR];
    for (int from = POS_BAR; from >= 0; from--) {
        if (!o[from] || (bar && from != POS_BAR))
            continue;
        if (d1 != d2) {
            int steps[2][2] = {{d1, d2}, {d2, d1}};
            for (int k = 0; k < 2; k++) {
                int x = from - steps[k][0];
                if (x >= 0 && (blots >> x & 1u))
                    h |= 1u << x;
                if (bar <= 1 && x >= 0 && open_at(blocked, x)) {
                    int y = x - steps[k][1];
                    if (y >= 0 && (blots >> y & 1u))
                        h |= 1u << y;
                }
            }
        } else {
            int n = bar == 0 ? 4 : bar >= 4 ? 1 : 5 - bar;
            for (int k = 1, x = from - d1; k <= n && x >= 0 && open_at(blocked, x); k++, x -= d1)
                if (blots >> x & 1u)
                    h |= 1u << x;
        }
    }
    return h;
}

static void plain_further(const uint8_t *s, const uint8_t *o, float out[NN_FEATURES])
{
    uint32_t mine = held_turned(s), theirs = held_turned(o);
    int their_rear = -1;
    for (int i = POS_BAR; i >= 0; i--)
        if (o[i]) {
            their_rear = i;
            break;
        }
    int least = 36, aleast = 36;
    for (int r = 15; r <= 24; r++) {
        int e = plain_rolls_moving(r, mine);
        least = e < least ? e : least;
        if (r <= their_rear && e < aleast)
            aleast = e;
    }
    out[NN_FEAT_CONTAIN] = (float)(36 - least) / 36.0f;
    out[NN_FEAT_ACONTAIN] = (float)(36 - aleast) / 36.0f;
    out[NN_FEAT_CONTAIN2] = out[NN_FEAT_CONTAIN] * out[NN_FEAT_CONTAIN];
    out[NN_FEAT_ACONTAIN2] = out[NN_FEAT_ACONTAIN] * out[NN_FEAT_ACONTAIN];
    int doubles = 0;
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            uint32_t h = plain_hits(s, o, d1, d2);
            if (h & (h - 1))
                doubles += d1 == d2 ? 1 : 2;
        }
    out[NN_FEAT_DOUBLE_SHOTS] = (float)doubles / 36.0f;
    int enter_loss = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++) {
            bool ba = theirs >> (24 - a) & 1u, bb = theirs >> (24 - b) & 1u;
            if (a == b && ba)
                enter_loss += 4 * a;
            else if (a != b && ba && bb)
                enter_loss += 2 * (a + b);
        }
    out[NN_FEAT_ENTER_LOSS] = (float)enter_loss / 294.0f;
    int mob = 0;
    for (int i = 6; i <= POS_BAR; i++)
        if (s[i])
            mob += (i - 5) * s[i] * plain_rolls_moving(i, theirs);
    out[NN_FEAT_MOBILITY] = mob >= 3600 ? 1.0f : (float)mob / 3600.0f;
    int n = 0, sum = 0;
    for (int i = 0; i <= POS_BAR; i++)
        n += s[i], sum += s[i] * (i + 1);
    float m2 = 0.0f;
    if (n) {
        float mean = (float)sum / (float)n;
        for (int i = 0; i <= POS_BAR; i++)
            if (s[i] && (float)(i + 1) > mean) {
                float d = (float)(i + 1) - mean;
                m2 += (float)s[i] * d * d;
            }
        m2 /= (float)n * 400.0f;
    }
    out[NN_FEAT_MOMENT] = m2 > 1.0f ? 1.0f : m2;
}

static void test_further_features(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (int n = 0; n < 5000; n++) {
        Position p;
        randpos_loose(&s, &p);
        if (n == 0)
            pos_start(&p);
        float got[2][NN_FEATURES], want[NN_FEATURES];
        nn_features(&p, NN_FEATURES, got);
        static const int sides[2][2] = {{SIDE_ROLLER, SIDE_OPPONENT}, {SIDE_OPPONENT, SIDE_ROLLER}};
        for (int side = 0; side < 2; side++) {
            plain_further(p.side[sides[side][0]], p.side[sides[side][1]], want);
            for (int k = NN_FEATURES_FIRST; k < NN_FEATURES; k++)
                if (memcmp(&got[side][k], &want[k], sizeof want[k]) != 0)
                    fail_msg("position %d, side %d, feature %d: %.9g, not %.9g", n, side, k,
                             (double)got[side][k], (double)want[k]);
        }
    }
}

/* The shots and the pips lost, roll by roll with plain_hits, against
 * nn_features' on random boards (its rolls eight to a vector where the CPU
 * has AVX2); and the features without vector instructions the same to the
 * bit. */
static void test_hits_random(void **state)
{
    (void)state;
    uint64_t s = 0x2545f4914f6cdd1dULL;
    for (int n = 0; n < 20000; n++) {
        Position p;
        randpos_loose(&s, &p);
        float got[2][NN_FEATURES], portable[2][NN_FEATURES];
        nn_features(&p, NN_FEATURES, got);
        nn_features_portable(&p, NN_FEATURES, portable);
        if (memcmp(got, portable, sizeof got) != 0)
            fail_msg("position %d: the portable features differ", n);
        nn_features(&p, NN_FEATURES_FIRST, got);
        nn_features_portable(&p, NN_FEATURES_FIRST, portable);
        for (int side = 0; side < 2; side++)
            if (memcmp(got[side], portable[side], NN_FEATURES_FIRST * sizeof(float)) != 0)
                fail_msg("position %d: the portable first features differ", n);
        static const int sides[2][2] = {{SIDE_ROLLER, SIDE_OPPONENT}, {SIDE_OPPONENT, SIDE_ROLLER}};
        for (int side = 0; side < 2; side++) {
            int shots = 0, loss = 0;
            for (int d1 = 1; d1 <= 6; d1++)
                for (int d2 = d1; d2 <= 6; d2++) {
                    uint32_t h = plain_hits(p.side[sides[side][0]], p.side[sides[side][1]], d1, d2);
                    if (h) {
                        int far = 31 - __builtin_clz(h);
                        shots += d1 == d2 ? 1 : 2;
                        loss += (d1 == d2 ? 1 : 2) * (far + 1);
                    }
                }
            if (got[side][NN_FEAT_SHOTS] != (float)shots / 36.0f ||
                got[side][NN_FEAT_PIP_LOSS] != (float)loss / (36.0f * 24.0f))
                fail_msg("position %d, side %d: shots %.9g pip loss %.9g, not %d and %d", n,
                         side, (double)got[side][NN_FEAT_SHOTS],
                         (double)got[side][NN_FEAT_PIP_LOSS], shots, loss);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shots_by_distance), cmocka_unit_test(test_shots_blocked),
        cmocka_unit_test(test_escapes),           cmocka_unit_test(test_board_counts),
        cmocka_unit_test(test_contact_random),
        cmocka_unit_test(test_sides_swap),        cmocka_unit_test(test_inputs_with_features),
        cmocka_unit_test(test_further_features), cmocka_unit_test(test_hits_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
