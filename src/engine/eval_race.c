/* eval_race.c - race chances from per-side roll distributions (see
 * eval_race.h).
 *
 * Who wins: the player on roll (R) rolls first, so he wins when his number
 * of rolls N_R is at most the other's N_O:
 *   P(win)       = sum_n P(N_R = n) P(N_O >= n)
 *   P(win gammon)= sum_n P(N_R = n) P(first checker of O off after >= n rolls)
 *   P(lose ...)  = the same with the sides exchanged and "> n", because when
 *                  O finishes on his n-th roll R has had n rolls.
 * The distributions of one side are treated as independent of the other's
 * (they are: there is no contact) and of each other (an approximation).
 *
 * Carrying checkers home: X pips must still be moved before every checker
 * is home. The number of rolls that takes is close to normal with mean
 * X / 8.17 (the average roll, 49/6 pips) and variance X * 18.47 / 8.17^3
 * (renewal theory: 18.47 is the variance of the pips of one roll); the
 * checkers are assumed to land on the 6-point, and the surplus of the last
 * carrying roll to be used in the bear-off (the fractional rolls carry over),
 * which keeps the pip count of the model equal to the real one. */
#include "eval_race.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define RACE_ROLLS 64
#define PIPS_PER_ROLL (49.0 / 6.0)
#define PIP_VARIANCE (665.0 / 36.0) /* variance of the pips of one roll */

/* Dice come in units: each checker still outside needs a die of its own to
 * come home, and the last one rarely lands where a checker can be borne off
 * at once. Pips alone make gammons too easy to save, so the rolls to the
 * first checker off get CROSSING_ROLLS more per checker outside, and the
 * pips to leave the other side's home board ZONE_PIPS more per checker
 * there. Both were chosen so that the race gammon and backgammon chances
 * match what happens in 20,000 self-play games of pubeval (the race table
 * of `shesh calibrate --engine pubeval`; docs/engine.md). */
#define CROSSING_ROLLS 0.07
#define ZONE_PIPS 2.5

/* A distribution over 0 .. RACE_ROLLS-1 rolls, zero outside [lo, hi):
 * keeping to the support makes the race evaluator cheap enough for the
 * inner nodes of a search. */
typedef struct Dist {
    int lo, hi;
    double p[RACE_ROLLS];
} Dist;

/* Three distributions of one side, over its own number of rolls. */
typedef struct SideRace {
    Dist off;   /* to bear off every checker */
    Dist first; /* to bear off the first one (0: one is off already) */
    Dist clear; /* to leave the other side's home board */
    bool off_exact, clear_exact; /* from the tables, not the model */
} SideRace;

static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

static void dist_point(Dist *d, int n)
{
    d->lo = n, d->hi = n + 1;
    d->p[n] = 1.0;
}

/* P(X < k) for every k of a window wide enough to hold all but a
 * negligible mass (5 standard deviations: 6e-7): cdf(k) gives it, the mass
 * below and above the window is folded into its ends. */
static void dist_from_cdf(Dist *d, int lo, int hi, double (*cdf)(int k, const double *arg),
                          const double *arg)
{
    /* Absurd boards (hundreds of checkers) put the window past the end. */
    lo = lo < 0 ? 0 : lo > RACE_ROLLS - 1 ? RACE_ROLLS - 1 : lo;
    hi = hi > RACE_ROLLS ? RACE_ROLLS : hi;
    if (hi <= lo)
        hi = lo + 1;
    double below = 0.0;
    for (int k = lo; k < hi; k++) {
        double upto = k == hi - 1 ? 1.0 : cdf(k + 1, arg);
        d->p[k] = upto - below;
        below = upto;
    }
    d->lo = lo, d->hi = hi;
}

/* Whole rolls to move `pips` pips plus `extra` rolls: normal, rounded.
 * arg = {mean, sd}; P(K < k) = P(normal < k - 1/2). */
static double carry_cdf(int k, const double *arg)
{
    return normal_cdf((k - 0.5 - arg[0]) / arg[1]);
}

static void rolls_to_carry(int pips, double extra, Dist *d)
{
    if (pips == 0) {
        dist_point(d, 0);
        return;
    }
    double arg[2] = {pips / PIPS_PER_ROLL + extra,
                     sqrt(pips * PIP_VARIANCE) / (PIPS_PER_ROLL * sqrt(PIPS_PER_ROLL))};
    dist_from_cdf(d, (int)floor(arg[0] - 5 * arg[1]), (int)ceil(arg[0] + 5 * arg[1]) + 1,
                  carry_cdf, arg);
}

/* Rolls N until `pips` are covered: P(N < k) = P(S_(k-1) >= pips), S_n
 * the pips of n rolls, close to normal (mean n 49/6, variance n 665/36). */
static double cover_cdf(int k, const double *arg)
{
    int n = k - 1;
    if (n <= 0)
        return 0.0;
    return 1.0 - normal_cdf((arg[0] - 0.5 - n * PIPS_PER_ROLL) / sqrt(n * PIP_VARIANCE));
}

static void rolls_to_cover(double pips, Dist *d)
{
    double mean = pips / PIPS_PER_ROLL;
    double sd = sqrt(pips * PIP_VARIANCE) / (PIPS_PER_ROLL * sqrt(PIPS_PER_ROLL));
    dist_from_cdf(d, 1, (int)ceil(mean + 5 * sd) + 2, cover_cdf, &pips);
}

/* out = a convolved with the database distribution b, the tail folded into
 * the last slot. */
static void convolve(const Dist *a, const float *b, Dist *out)
{
    int blo = 0, bhi = BEAROFF_ROLLS;
    while (blo < bhi - 1 && b[blo] == 0.0f)
        blo++;
    while (bhi > blo + 1 && b[bhi - 1] == 0.0f)
        bhi--;
    out->lo = a->lo + blo < RACE_ROLLS ? a->lo + blo : RACE_ROLLS - 1;
    out->hi = a->hi + bhi - 1 < RACE_ROLLS ? a->hi + bhi - 1 : RACE_ROLLS;
    for (int k = out->lo; k < out->hi; k++)
        out->p[k] = 0.0;
    for (int i = a->lo; i < a->hi; i++)
        for (int j = blo; j < bhi; j++) {
            int k = i + j < RACE_ROLLS ? i + j : RACE_ROLLS - 1;
            out->p[k] += a->p[i] * b[j];
        }
}

static void side_race(const BearoffDb *db, const uint8_t *side, SideRace *s)
{
    uint8_t home[BEAROFF_POINTS], zone[BEAROFF_POINTS] = {0};
    int on_board = 0, carry = 0, outside = 0, in_zone = 0, zone_checkers = 0;
    for (int i = 0; i < POS_SLOTS; i++)
        on_board += side[i];
    for (int i = 0; i < BEAROFF_POINTS; i++)
        home[i] = side[i];
    for (int i = BEAROFF_POINTS; i < POS_SLOTS; i++) {
        outside += side[i];
        carry += side[i] * (i - 5); /* pips to reach the 6-point */
        if (i >= 18) {
            in_zone += side[i] * (i - 17); /* pips to reach the 18-point */
            zone_checkers += side[i];
            if (i < POS_BAR)
                zone[i - 18] = side[i];
        }
    }
    home[5] = (uint8_t)(home[5] + outside);
    int index = bearoff_index(home);
    if (index < 0) /* more than 15 checkers: not a real position */
        index = 0;

    /* Rolls to carry everything home, then the bear-off: for the last
     * checker off, and (with the crossing allowance) for the first. */
    Dist carry_dist;
    rolls_to_carry(carry, 0.0, &carry_dist);
    convolve(&carry_dist, bearoff_off(db, index), &s->off);
    s->off_exact = carry == 0;
    s->clear_exact = true;
    if (on_board < POS_CHECKERS) {
        dist_point(&s->first, 0); /* a checker is off: no gammon */
        dist_point(&s->clear, 0);
        return;
    }
    rolls_to_carry(carry, CROSSING_ROLLS * outside, &carry_dist);
    convolve(&carry_dist, bearoff_first(db, index), &s->first);
    /* A checker on the bar never meets a race (eval_is_race); should one
     * be there, the model takes it. */
    if (in_zone == 0) {
        dist_point(&s->clear, 0);
    } else if (zone_checkers <= BEAROFF_ZONE_CHECKERS && !side[POS_BAR]) {
        Dist none; /* no rolls before: the table's distribution as it is */
        dist_point(&none, 0);
        convolve(&none, bearoff_zone(db, bearoff_index(zone)), &s->clear);
    } else {
        rolls_to_cover(in_zone + ZONE_PIPS * zone_checkers, &s->clear);
        s->clear_exact = false;
    }
}

/* sum_n a[n] * P(B >= n + shift). */
static double ahead(const Dist *a, const Dist *b, int shift)
{
    double tail[RACE_ROLLS + 1]; /* tail[n] = P(B >= n) on b's support */
    tail[b->hi] = 0.0;
    for (int n = b->hi - 1; n >= b->lo; n--)
        tail[n] = tail[n + 1] + b->p[n];
    double sum = 0.0;
    for (int n = a->lo; n < a->hi; n++) {
        int k = n + shift;
        double t = k <= b->lo ? 1.0 : k >= b->hi ? 0.0 : tail[k];
        sum += a->p[n] * t;
    }
    return sum;
}

/* Direct-mapped by a hash of the side: a search meets the same side again
 * and again (every move of one roll leaves the other side as it was, and
 * the same replies come back in many branches). */
#define RACE_CACHE_SIZE 256

typedef struct RaceEntry {
    uint32_t gen; /* the cache's generation it was filled in; 0: never */
    uint8_t key[POS_SLOTS];
    SideRace val;
} RaceEntry;

/* An entry holds a value only when its generation is the cache's: a reset
 * takes the next generation and so forgets every entry without touching
 * them, which a reset before each static evaluation can afford. */
struct RaceCache {
    uint32_t gen;
    RaceEntry e[RACE_CACHE_SIZE];
};

RaceCache *race_cache_new(void)
{
    RaceCache *c = malloc(sizeof *c);
    if (c) {
        c->gen = 1;
        for (int i = 0; i < RACE_CACHE_SIZE; i++)
            c->e[i].gen = 0;
    }
    return c;
}

void race_cache_reset(RaceCache *c)
{
    if (++c->gen != 0)
        return;
    /* After 2^32 - 1 resets the generations come round again. */
    c->gen = 1;
    for (int i = 0; i < RACE_CACHE_SIZE; i++)
        c->e[i].gen = 0;
}

void race_cache_free(RaceCache *c)
{
    free(c);
}

static unsigned side_slot(const uint8_t *side)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < POS_SLOTS; i++)
        h = (h ^ side[i]) * 16777619u;
    return (h ^ (h >> 16)) % RACE_CACHE_SIZE;
}

/* The side's distributions, from the cache when they are there. `keep`
 * is a slot that must not be overwritten (in use by the caller). */
static const SideRace *cached_side(const BearoffDb *db, RaceCache *c, const uint8_t *side,
                                   SideRace *tmp, int keep, int *slot)
{
    *slot = -1;
    if (!c) {
        side_race(db, side, tmp);
        return tmp;
    }
    int i = (int)side_slot(side);
    RaceEntry *e = &c->e[i];
    if (e->gen == c->gen && !memcmp(e->key, side, POS_SLOTS)) {
        *slot = i;
        return &e->val;
    }
    if (i == keep) {
        side_race(db, side, tmp);
        return tmp;
    }
    memcpy(e->key, side, POS_SLOTS);
    side_race(db, side, &e->val);
    e->gen = c->gen;
    *slot = i;
    return &e->val;
}

static double dist_mean(const Dist *d)
{
    double mean = 0.0;
    for (int n = d->lo; n < d->hi; n++)
        mean += n * d->p[n];
    return mean;
}

static double dist_sd(const Dist *d, double mean)
{
    double var = 0.0;
    for (int n = d->lo; n < d->hi; n++)
        var += (n - mean) * (n - mean) * d->p[n];
    return sqrt(var);
}

static void side_model(const SideRace *s, RaceSideModel *m)
{
    m->off_mean = dist_mean(&s->off);
    m->off_sd = dist_sd(&s->off, m->off_mean);
    m->first_mean = dist_mean(&s->first);
    m->first_sd = dist_sd(&s->first, m->first_mean);
    m->clear_mean = dist_mean(&s->clear);
}

void eval_race_model(const BearoffDb *db, RaceCache *cache, const Position *p,
                     double out[OUT_COUNT], bool exact[OUT_COUNT], RaceSideModel side[2])
{
    SideRace tr, to;
    int slot, unused;
    const SideRace *r = cached_side(db, cache, p->side[SIDE_ROLLER], &tr, -1, &slot);
    const SideRace *o = cached_side(db, cache, p->side[SIDE_OPPONENT], &to, slot, &unused);
    out[OUT_WIN] = ahead(&r->off, &o->off, 0);
    out[OUT_WIN_GAMMON] = ahead(&r->off, &o->first, 0);
    out[OUT_WIN_BG] = ahead(&r->off, &o->clear, 0);
    out[OUT_LOSE_GAMMON] = ahead(&o->off, &r->first, 1);
    out[OUT_LOSE_BG] = ahead(&o->off, &r->clear, 1);
    eval_clamp(out);
    if (exact) {
        exact[OUT_WIN] = r->off_exact && o->off_exact;
        exact[OUT_WIN_GAMMON] = exact[OUT_LOSE_GAMMON] = exact[OUT_WIN];
        exact[OUT_WIN_BG] = r->off_exact && o->clear_exact;
        exact[OUT_LOSE_BG] = o->off_exact && r->clear_exact;
    }
    if (side) {
        side[0].win = out[OUT_WIN];
        side[0].gammon = out[OUT_WIN_GAMMON];
        side[0].backgammon = out[OUT_WIN_BG];
        side[1].win = 1.0 - out[OUT_WIN];
        side[1].gammon = out[OUT_LOSE_GAMMON];
        side[1].backgammon = out[OUT_LOSE_BG];
        side_model(r, &side[0]);
        side_model(o, &side[1]);
    }
}

void eval_race(const BearoffDb *db, RaceCache *cache, const Position *p,
               double out[OUT_COUNT], bool exact[OUT_COUNT])
{
    eval_race_model(db, cache, p, out, exact, NULL);
}

double eval_race_rolls(const BearoffDb *db, const Position *p, int side)
{
    SideRace s;
    side_race(db, p->side[side], &s);
    return dist_mean(&s.off);
}
