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

/* Three distributions of one side, over its own number of rolls. */
typedef struct SideRace {
    double off[RACE_ROLLS];   /* to bear off every checker */
    double first[RACE_ROLLS]; /* to bear off the first one (0: one is off) */
    double clear[RACE_ROLLS]; /* to leave the other side's home board */
    double mean_off;
} SideRace;

static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

/* out = a (RACE_ROLLS long) convolved with b (nb long), the tail folded
 * into the last slot. */
static void convolve(const double *a, const float *b, int nb, double *out)
{
    double tmp[RACE_ROLLS] = {0};
    for (int i = 0; i < RACE_ROLLS; i++) {
        if (a[i] == 0.0)
            continue;
        for (int j = 0; j < nb; j++) {
            int k = i + j < RACE_ROLLS ? i + j : RACE_ROLLS - 1;
            tmp[k] += a[i] * b[j];
        }
    }
    memcpy(out, tmp, sizeof tmp);
}

/* Distribution of the rolls needed to move `pips` pips, plus `extra`
 * rolls: normal, rounded to whole rolls. */
static void rolls_to_carry(int pips, double extra, double dist[RACE_ROLLS])
{
    memset(dist, 0, RACE_ROLLS * sizeof dist[0]);
    if (pips == 0) {
        dist[0] = 1.0;
        return;
    }
    double mu = pips / PIPS_PER_ROLL + extra;
    double sigma = sqrt(pips * PIP_VARIANCE) / (PIPS_PER_ROLL * sqrt(PIPS_PER_ROLL));
    double below = 0.0;
    for (int k = 0; k < RACE_ROLLS; k++) {
        double upto = k == RACE_ROLLS - 1 ? 1.0 : normal_cdf((k + 0.5 - mu) / sigma);
        dist[k] = upto - below;
        below = upto;
    }
}

static void side_race(const BearoffDb *db, const uint8_t *side, SideRace *s)
{
    uint8_t home[BEAROFF_POINTS];
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
        }
    }
    home[5] = (uint8_t)(home[5] + outside);
    int index = bearoff_index(home);
    if (index < 0) /* more than 15 checkers: not a real position */
        index = 0;
    const float *off = bearoff_off(db, index);
    const float *first = bearoff_first(db, index);

    /* Rolls to carry everything home: for the last checker off, and (with
     * the crossing allowance) for the first. */
    double carry_dist[RACE_ROLLS], cross_dist[RACE_ROLLS];
    rolls_to_carry(carry, 0.0, carry_dist);
    rolls_to_carry(carry, CROSSING_ROLLS * outside, cross_dist);
    convolve(carry_dist, off, BEAROFF_ROLLS, s->off);
    memset(s->first, 0, sizeof s->first);
    if (on_board < POS_CHECKERS)
        s->first[0] = 1.0; /* a checker is off: no gammon */
    else
        convolve(cross_dist, first, BEAROFF_ROLLS, s->first);

    /* Rolls until in_zone pips are covered: P(N <= n) = P(S_n >= pips),
     * S_n the pips of n rolls, close to normal. */
    memset(s->clear, 0, sizeof s->clear);
    if (in_zone == 0 || on_board < POS_CHECKERS) {
        s->clear[0] = 1.0;
    } else {
        double done_before = 0.0;
        for (int n = 1; n < RACE_ROLLS; n++) {
            double done = n == RACE_ROLLS - 1
                              ? 1.0
                              : 1.0 - normal_cdf((in_zone + ZONE_PIPS * zone_checkers - 0.5 - n * PIPS_PER_ROLL) /
                                                 sqrt(n * PIP_VARIANCE));
            s->clear[n] = done - done_before;
            done_before = done;
        }
    }
    s->mean_off = 0.0;
    for (int n = 0; n < RACE_ROLLS; n++)
        s->mean_off += n * s->off[n];
}

/* sum_n a[n] * P(B >= n + shift), b a distribution. */
static double ahead(const double *a, const double *b, int shift)
{
    double tail[RACE_ROLLS + 1]; /* tail[n] = P(B >= n) */
    tail[RACE_ROLLS] = 0.0;
    for (int n = RACE_ROLLS - 1; n >= 0; n--)
        tail[n] = tail[n + 1] + b[n];
    double sum = 0.0;
    for (int n = 0; n < RACE_ROLLS; n++) {
        int k = n + shift;
        if (k <= RACE_ROLLS)
            sum += a[n] * (k < 0 ? 1.0 : tail[k]);
    }
    return sum;
}

void eval_race(const BearoffDb *db, const Position *p, double out[OUT_COUNT])
{
    SideRace r, o;
    side_race(db, p->side[SIDE_ROLLER], &r);
    side_race(db, p->side[SIDE_OPPONENT], &o);
    out[OUT_WIN] = ahead(r.off, o.off, 0);
    out[OUT_WIN_GAMMON] = ahead(r.off, o.first, 0);
    out[OUT_WIN_BG] = ahead(r.off, o.clear, 0);
    out[OUT_LOSE_GAMMON] = ahead(o.off, r.first, 1);
    out[OUT_LOSE_BG] = ahead(o.off, r.clear, 1);
    eval_clamp(out);
}

double eval_race_rolls(const BearoffDb *db, const Position *p, int side)
{
    SideRace s;
    side_race(db, p->side[side], &s);
    return s.mean_off;
}
