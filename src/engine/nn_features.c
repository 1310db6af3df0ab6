/* nn_features.c - the hand-made inputs of the contact network (see
 * nn_features.h). Each side's points are bit masks (bit i its index i, 24
 * the bar): a die is a shift, a count a popcount, so that the features
 * cost about what the network's hidden layer does. */
#include "nn_features.h"

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* A roll of 36: how many of the 36 the dice d1 <= d2 stand for. */
static int roll_weight(int d1, int d2)
{
    return d1 == d2 ? 1 : 2;
}

/* A side's points as masks in its own numbering. */
typedef struct Masks {
    uint32_t any;  /* a checker there (bit 24: on the bar) */
    uint32_t held; /* two or more */
    uint32_t held_turned, blot_turned; /* two or more, exactly one: in the other
                                          side's numbering */
} Masks;

/* x's low 24 bits in the opposite order: bit i to bit 23 - i. */
static uint32_t mirror24(uint32_t x)
{
    x = (x & 0x55555555u) << 1 | (x >> 1 & 0x55555555u);
    x = (x & 0x33333333u) << 2 | (x >> 2 & 0x33333333u);
    x = (x & 0x0f0f0f0fu) << 4 | (x >> 4 & 0x0f0f0f0fu);
    x = (x & 0x00ff00ffu) << 8 | (x >> 8 & 0x00ff00ffu);
    x = x << 16 | x >> 16;
    return x >> 8;
}

/* Without a branch on a point's count: counts follow no pattern, and
 * mispredicted branches here cost a fifth of the features' time. */
static Masks masks_of(const uint8_t *s)
{
    uint32_t any = pos_points_holding(s, 1), held = pos_points_holding(s, 2);
    uint32_t blot = any & ~held;
    any |= (uint32_t)(s[POS_BAR] != 0) << POS_BAR;
    return (Masks){any, held, mirror24(held), mirror24(blot)};
}

/* What their rolls do to his blots, over the 36: the rolls that hit one or
 * more (shots), those that hit two or more (doubles), and the pips lost,
 * each hitting roll counting the farthest blot it reaches (its index + 1).
 * t their checkers (only the bar while `bar` of them are there), k the
 * points blocked to them, b his blots, all in their numbering; b is not 0. */
typedef struct Hits {
    int shots, doubles, loss;
} Hits;

/* The blots they hit with the double d-d: a checker moves up to four
 * steps, fewer when others must enter first. */
static uint32_t hits_double(uint32_t t, uint32_t k, uint32_t b, int bar, int d)
{
    int steps = bar == 0 ? 4 : bar >= 4 ? 1 : 5 - bar;
    uint32_t h = 0;
    for (int s = 0; s < steps && t; s++) {
        t = (t >> d) & ~k;
        h |= t & b;
    }
    return h;
}

static Hits hits_portable(uint32_t t, uint32_t k, uint32_t b, int bar)
{
    /* Where each die takes them, and where it takes them on to; a second
     * checker on the bar would take the other die. */
    uint32_t one[7], on[7], both = bar <= 1 ? ~0u : 0u;
    for (int d = 1; d <= 6; d++)
        one[d] = t >> d, on[d] = (t >> d) & ~k & both;
    Hits r = {0, 0, 0};
    for (int d1 = 1; d1 <= 6; d1++)
        for (int d2 = d1; d2 <= 6; d2++) {
            uint32_t h = d1 == d2 ? hits_double(t, k, b, bar, d1)
                                  : (one[d1] | one[d2] | on[d1] >> d2 | on[d2] >> d1) & b;
            /* Counted without a branch on h: hits follow no pattern. */
            int w = roll_weight(d1, d2) * (h != 0);
            r.shots += w;
            r.doubles += w * ((h & (h - 1)) != 0);
            r.loss += w * (32 - __builtin_clz(h | 1));
        }
    return r;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The same, eight rolls to a vector: the 15 rolls a-b (a < b) in two, the
 * 6 doubles in a third, each lane's dice shift counts. A lane of die 32
 * shifts everything out and hits nothing. A blot's index + 1 is the
 * exponent of its mask as a float, less 126 (exact: the masks are below
 * 2^24). In hits_portable the 21 rolls take about half of the features'
 * time outside further_features; here a fifth as much (perf record of
 * shesh bench). */
static const int32_t hit_die_a[2][8] = {{1, 1, 1, 1, 1, 2, 2, 2}, {2, 3, 3, 3, 4, 4, 5, 32}};
static const int32_t hit_die_b[2][8] = {{2, 3, 4, 5, 6, 3, 4, 5}, {6, 4, 5, 6, 5, 6, 6, 32}};
static const int32_t hit_die_double[8] = {1, 2, 3, 4, 5, 6, 32, 32};

__attribute__((target("avx2"))) static Hits hits_avx2(uint32_t t, uint32_t k, uint32_t b,
                                                      int bar)
{
    const __m256i zero = _mm256_setzero_si256(), from = _mm256_set1_epi32((int32_t)t),
                  blots = _mm256_set1_epi32((int32_t)b), open = _mm256_set1_epi32((int32_t)~k);
    const __m256i on = bar <= 1 ? open : zero; /* see hits_portable */
    __m256i h[3];
    for (int v = 0; v < 2; v++) {
        __m256i a = _mm256_loadu_si256((const __m256i *)hit_die_a[v]);
        __m256i c = _mm256_loadu_si256((const __m256i *)hit_die_b[v]);
        __m256i ta = _mm256_srlv_epi32(from, a), tc = _mm256_srlv_epi32(from, c);
        __m256i on_a = _mm256_srlv_epi32(_mm256_and_si256(ta, on), c);
        __m256i on_c = _mm256_srlv_epi32(_mm256_and_si256(tc, on), a);
        h[v] = _mm256_and_si256(
            blots, _mm256_or_si256(_mm256_or_si256(ta, tc), _mm256_or_si256(on_a, on_c)));
    }
    int steps = bar == 0 ? 4 : bar >= 4 ? 1 : 5 - bar;
    __m256i d = _mm256_loadu_si256((const __m256i *)hit_die_double), at = from;
    h[2] = zero;
    for (int s = 0; s < steps; s++) {
        at = _mm256_and_si256(_mm256_srlv_epi32(at, d), open);
        h[2] = _mm256_or_si256(h[2], _mm256_and_si256(at, blots));
    }
    Hits r = {0, 0, 0};
    const __m256i minus_one = _mm256_set1_epi32(-1), bias = _mm256_set1_epi32(126);
    __m256i loss = zero;
    for (int v = 0; v < 3; v++) {
        int w = v < 2 ? 2 : 1;
        __m256i none = _mm256_cmpeq_epi32(h[v], zero);
        __m256i one_or_none =
            _mm256_cmpeq_epi32(_mm256_and_si256(h[v], _mm256_add_epi32(h[v], minus_one)), zero);
        int missing = __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(none)));
        int fewer =
            __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(one_or_none)));
        r.shots += w * (8 - missing);
        r.doubles += w * (8 - fewer);
        /* h | 1 as a float: its exponent field is the farthest blot's
         * index + 1 + 126. */
        __m256i as_float = _mm256_castps_si256(
            _mm256_cvtepi32_ps(_mm256_or_si256(h[v], _mm256_set1_epi32(1))));
        __m256i index =
            _mm256_andnot_si256(none, _mm256_sub_epi32(_mm256_srli_epi32(as_float, 23), bias));
        loss = _mm256_add_epi32(loss, w == 2 ? _mm256_slli_epi32(index, 1) : index);
    }
    __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(loss), _mm256_extracti128_si256(loss, 1));
    s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, _MM_SHUFFLE(1, 0, 3, 2)));
    s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, _MM_SHUFFLE(2, 3, 0, 1)));
    r.loss = _mm_cvtsi128_si32(s4);
    return r;
}
#endif

static Hits hits_of(uint32_t t, uint32_t k, uint32_t b, int bar, bool portable)
{
#if defined(__x86_64__) && defined(__GNUC__)
    /* The C library's record of the CPU, set before main: no state here. */
    if (!portable && __builtin_cpu_supports("avx2"))
        return hits_avx2(t, k, b, bar);
#endif
    (void)portable;
    return hits_portable(t, k, b, bar);
}

/* Rolls of 36 that carry a checker at index r (24: the bar) to an index
 * below `past` over points not blocked (bit i of `blocked`); an index below
 * 0 is open. Index i is bit i + 24 of the masks below, so that every index
 * four dice can reach, down to -24, has a bit: each die is a shift. */
static int rolls_escaping(int r, int past, uint32_t blocked)
{
    const int base = 24;
    uint64_t open = ~((uint64_t)blocked << base);       /* not blocked */
    uint64_t out = open & ((1ull << (past + base)) - 1); /* and below past */
    uint64_t at = 1ull << (r + base), one[7];
    for (int a = 1; a <= 6; a++)
        one[a] = (at >> a) & open; /* where die a lands, if it may */
    int rolls = 0;
    for (int a = 1; a <= 6; a++) {
        /* a-b, either die first, then the other: a branch on each would be
         * taken at random. */
        for (int b = a + 1; b <= 6; b++)
            rolls += 2 * (((one[a] | one[b] | one[a] >> b | one[b] >> a) & out) != 0);
        uint64_t t = at;
        for (int k = 1; k <= 4; k++) {
            t = (t >> a) & open;
            if (t & out) {
                rolls++;
                break;
            }
            if (!t)
                break;
        }
    }
    return rolls;
}

/* For every index r (0..24), the rolls of 36 that move a checker there
 * by the whole roll: the point the dice together reach is open, and so is
 * one on the way (doubles: two steps of the die); an index below 0 is
 * open. Counted for all r at once: bit r + 12 of a mask per roll says
 * whether it moves from r (the open points shifted by the dice), and the
 * masks are added up bit-sliced, plane i holding bit i of every count. */
typedef struct Moving {
    uint64_t plane[6];
} Moving;

/* A carry-save adder: three masks of one bit weight added lane by lane,
 * the sum's low bit in *low, its carry (the next weight) in *high. */
static inline void add3(uint64_t a, uint64_t b, uint64_t c, uint64_t *high, uint64_t *low)
{
    uint64_t u = a ^ b;
    *high = (a & b) | (u & c);
    *low = u ^ c;
}

static void moving_counts(uint32_t blocked, Moving *c)
{
    uint64_t open = ~((uint64_t)blocked << 12), d[6], m[15];
    int n = 0;
    for (int a = 1; a <= 6; a++) {
        d[a - 1] = open << 2 * a & open << a;
        for (int b = a + 1; b <= 6; b++)
            m[n++] = open << (a + b) & (open << a | open << b);
    }
    /* The 6 doubles (weight 1) to three planes and the 15 others (weight 2)
     * to four by trees of adders, then the first added to twice the second:
     * a handful of operations a mask where adding each in turn rippled its
     * carry through every plane. */
    uint64_t t1, t2, o1, o2, d0, d1, d2;
    add3(d[0], d[1], d[2], &t1, &o1);
    add3(d[3], d[4], d[5], &t2, &o2);
    d0 = o1 ^ o2;
    add3(t1, t2, o1 & o2, &d2, &d1);
    uint64_t ones, twos, fours, e1, e2, f1, f2, w1, w2;
    add3(m[0], m[1], m[2], &w1, &ones);
    add3(ones, m[3], m[4], &w2, &ones);
    add3(w1, w2, 0, &f1, &twos);
    add3(ones, m[5], m[6], &w1, &ones);
    add3(ones, m[7], m[8], &w2, &ones);
    add3(twos, w1, w2, &f2, &twos);
    add3(f1, f2, 0, &e1, &fours);
    add3(ones, m[9], m[10], &w1, &ones);
    add3(ones, m[11], m[12], &w2, &ones);
    add3(twos, w1, w2, &f1, &twos);
    add3(ones, m[13], m[14], &w1, &ones);
    add3(twos, w1, 0, &f2, &twos);
    add3(fours, f1, f2, &e2, &fours);
    uint64_t eights = e1 | e2; /* at most 15: never two eights */
    /* d + 2 (ones, twos, fours, eights). */
    uint64_t carry;
    c->plane[0] = d0;
    c->plane[1] = d1 ^ ones, carry = d1 & ones;
    add3(d2, twos, carry, &carry, &c->plane[2]);
    c->plane[3] = fours ^ carry, carry &= fours;
    c->plane[4] = eights ^ carry, carry &= eights;
    c->plane[5] = carry;
}

/* The fewest rolls moving from any index r whose bit r + 12 is set in
 * `from` (not 0): the planes read from the top, keeping the indices whose
 * count has a 0 where any has. */
static int least_moving(const Moving *c, uint64_t from)
{
    int least = 0;
    for (int i = 5; i >= 0; i--) {
        uint64_t zero = from & ~c->plane[i];
        if (zero)
            from = zero;
        else
            least |= 1 << i;
    }
    return least;
}

static int rolls_moving(const Moving *c, int r)
{
    int n = 0;
    for (int i = 0; i < 6; i++)
        n |= (int)(c->plane[i] >> (r + 12) & 1u) << i;
    return n;
}

/* The pips of the checkers s holds beyond index `behind` (-1 to 24),
 * counted from it: the sum of s[i] (i - behind) over i > behind, the bar
 * (24) included. On x86-64 the 24 points eight at a time (SSE2): counts
 * widened to 16 bits times max(0, i - behind), added in pairs. */
static int pips_beyond(const uint8_t *s, int behind)
{
    int pips = behind < POS_BAR ? s[POS_BAR] * (POS_BAR - behind) : 0;
#if defined(__x86_64__) && defined(__GNUC__)
    const __m128i zero = _mm_setzero_si128(), from = _mm_set1_epi16((short)behind);
    __m128i lo = _mm_loadu_si128((const __m128i *)s);
    __m128i hi = _mm_loadl_epi64((const __m128i *)(s + 16));
    __m128i w0 = _mm_max_epi16(_mm_sub_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), from), zero);
    __m128i w1 =
        _mm_max_epi16(_mm_sub_epi16(_mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15), from), zero);
    __m128i w2 =
        _mm_max_epi16(_mm_sub_epi16(_mm_setr_epi16(16, 17, 18, 19, 20, 21, 22, 23), from), zero);
    __m128i sum = _mm_add_epi32(_mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), w0),
                                              _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), w1)),
                                _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), w2));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(1, 0, 3, 2)));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(2, 3, 0, 1)));
    pips += _mm_cvtsi128_si32(sum);
#else
    for (int i = behind + 1; i < POS_BAR; i++)
        pips += s[i] * (i - behind);
#endif
    return pips;
}

/* The first ten features of the side with masks me (and checkers s), the
 * other side with masks them (and checkers o); returns the rolls that hit
 * two of his blots or more. */
static inline __attribute__((always_inline)) int
side_features(const uint8_t *s, const uint8_t *o, Masks me, Masks them, bool portable,
              float out[NN_FEATURES])
{
    /* Hits, in their numbering. */
    uint32_t b = me.blot_turned;
    int bar = o[POS_BAR];
    Hits hits = {0, 0, 0};
    if (b)
        hits = hits_of(bar ? 1u << POS_BAR : them.any, me.held_turned, b, bar, portable);
    int shots = hits.shots, loss = hits.loss;
    out[NN_FEAT_SHOTS] = (float)shots / 36.0f;
    out[NN_FEAT_PIP_LOSS] = (float)loss / (36.0f * 24.0f);

    /* His rearmost checker and the points they hold in front of it. */
    uint32_t blocked = them.held_turned;
    int rear = me.any ? 31 - __builtin_clz(me.any) : -1;
    float escapes = 1.0f;
    if (rear >= 1) {
        int lo = rear - 12 < 0 ? 0 : rear - 12;
        uint32_t front = blocked & ((1u << rear) - 1) & ~((1u << lo) - 1);
        if (front)
            escapes = (float)rolls_escaping(rear, __builtin_ctz(front), blocked) / 36.0f;
    }
    out[NN_FEAT_ESCAPES] = escapes;
    out[NN_FEAT_REAR] = (float)(rear + 1) / 25.0f;

    int run = 0;
    for (uint32_t m = me.held; m && run < 6; m &= m << 1)
        run++;
    out[NN_FEAT_PRIME] = (float)run / 6.0f;
    out[NN_FEAT_HOME] = (float)__builtin_popcount(me.held & 0x3fu) / 6.0f;
    int anchors = __builtin_popcount(me.held & 0x3fu << 18);
    out[NN_FEAT_ANCHORS] = anchors >= 2 ? 1.0f : (float)anchors / 2.0f;
    int their_home = __builtin_popcount(them.held & 0x3fu);
    out[NN_FEAT_DANCE] = (float)(their_home * their_home) / 36.0f;
    uint32_t far = me.held & (0xfffu << 12);
    out[NN_FEAT_FORWARD] = far ? (float)(24 - __builtin_ctz(far)) / 12.0f : 0.0f;

    /* Their rearmost checker stands on his index 23 - (its index): the bar
     * on -1, behind all of his. */
    int behind = them.any ? 23 - (31 - __builtin_clz(them.any)) : 24;
    int pips = pips_beyond(s, behind);
    out[NN_FEAT_CONTACT] = pips >= 200 ? 1.0f : (float)pips / 200.0f;
    return hits.doubles;
}

/* The eight further features of the side with masks me (and checkers s),
 * the other side with masks them; held and blocking the rolls moving past
 * his points and past theirs, doubles the rolls hitting two of his blots. */
static void further_features(const uint8_t *s, Masks me, Masks them, const Moving *held,
                             const Moving *blocking, int doubles, float out[NN_FEATURES])
{
    uint32_t blocked = them.held_turned;
    /* Containment: the fewest rolls of 36 with which a checker of theirs on
     * their index r (15..24) escapes past his points; acontain only from
     * where their checkers are (r up to their rearmost). */
    int their_rear = them.any ? 31 - __builtin_clz(them.any) : -1;
    /* Index r is bit r + 12 of the counts: 15..24 are bits 27..36. */
    uint64_t all = 0x3ffull << 27;
    int least = least_moving(held, all);
    int aleast = their_rear >= 15 ? least_moving(held, all & ((2ull << (their_rear + 12)) - 1)) : 36;
    out[NN_FEAT_CONTAIN] = (float)(36 - least) / 36.0f;
    out[NN_FEAT_ACONTAIN] = (float)(36 - aleast) / 36.0f;
    out[NN_FEAT_CONTAIN2] = out[NN_FEAT_CONTAIN] * out[NN_FEAT_CONTAIN];
    out[NN_FEAT_ACONTAIN2] = out[NN_FEAT_ACONTAIN] * out[NN_FEAT_ACONTAIN];
    out[NN_FEAT_DOUBLE_SHOTS] = (float)doubles / 36.0f;
    /* The pips a checker of his on the bar loses, over the 36 rolls, to
     * their home points: a roll neither die of which enters is lost. A
     * double a-a, a blocked, loses 4 a pips (one roll of 36), a-b with both
     * blocked 2 (a + b) (two rolls); over the pairs of the n blocked dice
     * those add up to (n - 1) S, S the blocked dice's sum: each die is in
     * n - 1 pairs. */
    uint32_t home = blocked >> 18 & 0x3fu; /* die a is bit 6 - a */
    int n_blocked = __builtin_popcount(home), sum_blocked = 0;
    for (uint32_t h = home; h; h &= h - 1)
        sum_blocked += 6 - __builtin_ctz(h);
    int enter_loss = 4 * sum_blocked + 2 * (n_blocked - 1) * sum_blocked;
    out[NN_FEAT_ENTER_LOSS] = (float)enter_loss / 294.0f;

    /* Mobility: his checkers outside his home board, each weighted by its
     * distance from home and by the rolls that carry it past their points. */
    int mob = 0;
    for (uint32_t m = me.any & ~0x3fu; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        mob += (i - 5) * s[i] * rolls_moving(blocking, i);
    }
    out[NN_FEAT_MOBILITY] = mob >= 3600 ? 1.0f : (float)mob / 3600.0f;

    /* The one-sided second moment of his checkers beyond their mean. */
    int n = 0, sum = 0;
    for (int i = 0; i <= POS_BAR; i++)
        n += s[i], sum += s[i] * (i + 1);
    float m2 = 0.0f;
    if (n) {
        float mean = (float)sum / (float)n;
        /* Only the points beyond the mean where he has checkers add
         * anything; adding the 0 of a term left out changes nothing (the
         * sum is never -0), and the additions wait on each other. */
        int lo = (int)mean - 1 < 0 ? 0 : (int)mean - 1;
        for (uint32_t m = me.any >> lo << lo; m; m &= m - 1) {
            int i = __builtin_ctz(m);
            float d = (float)(i + 1) > mean ? (float)(i + 1) - mean : 0.0f;
            m2 += (float)s[i] * d * d;
        }
        m2 /= (float)n * 400.0f;
    }
    out[NN_FEAT_MOMENT] = m2 > 1.0f ? 1.0f : m2;
}

static void features_by(const Position *p, int count, bool portable,
                        float out[2][NN_FEATURES])
{
    const uint8_t *r = p->side[SIDE_ROLLER], *o = p->side[SIDE_OPPONENT];
    Masks mr = masks_of(r), mo = masks_of(o);
    int doubles_r = side_features(r, o, mr, mo, portable, out[0]);
    int doubles_o = side_features(o, r, mo, mr, portable, out[1]);
    if (count > NN_FEATURES_FIRST) {
        /* The rolls that move a checker past each side's points: one
         * side's containment is the other's mobility. */
        Moving past_r, past_o;
        moving_counts(mr.held_turned, &past_r);
        moving_counts(mo.held_turned, &past_o);
        further_features(r, mr, mo, &past_r, &past_o, doubles_r, out[0]);
        further_features(o, mo, mr, &past_o, &past_r, doubles_o, out[1]);
    }
}

void nn_features(const Position *p, int count, float out[2][NN_FEATURES])
{
    features_by(p, count, false, out);
}

void nn_features_portable(const Position *p, int count, float out[2][NN_FEATURES])
{
    features_by(p, count, true, out);
}
