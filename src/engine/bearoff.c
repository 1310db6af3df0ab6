/* bearoff.c - builds the one-sided bear-off database (see bearoff.h).
 *
 * Index: a home board c[0..5] (checkers on points 1..6, total <= 15) maps
 * to the strictly increasing sequence s_k = c[0] + ... + c[k] + k, a 6-subset
 * of {0..20}, ranked by the combinatorial number system: sum C(s_k, k + 1).
 * That is a bijection onto 0 .. C(21,6) - 1, and the empty board is 0.
 *
 * Build: every move lowers the pip count, so positions are solved in order
 * of increasing pips and each one only looks up already solved successors.
 * For each of the 21 rolls it tries every way of playing it (both orders of
 * a non-double; for a double, sources in non-increasing order, which reaches
 * every result once or more) and keeps the result with the fewest expected
 * rolls. With every checker home, any die can be played while a checker is
 * left, so "use both dice" needs no special case. */
#include "bearoff.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* C(n, k) for n <= 20, k <= 6. */
static const int binom[21][7] = {
    {1, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0},
    {1, 5, 10, 10, 5, 1, 0},
    {1, 6, 15, 20, 15, 6, 1},
    {1, 7, 21, 35, 35, 21, 7},
    {1, 8, 28, 56, 70, 56, 28},
    {1, 9, 36, 84, 126, 126, 84},
    {1, 10, 45, 120, 210, 252, 210},
    {1, 11, 55, 165, 330, 462, 462},
    {1, 12, 66, 220, 495, 792, 924},
    {1, 13, 78, 286, 715, 1287, 1716},
    {1, 14, 91, 364, 1001, 2002, 3003},
    {1, 15, 105, 455, 1365, 3003, 5005},
    {1, 16, 120, 560, 1820, 4368, 8008},
    {1, 17, 136, 680, 2380, 6188, 12376},
    {1, 18, 153, 816, 3060, 8568, 18564},
    {1, 19, 171, 969, 3876, 11628, 27132},
    {1, 20, 190, 1140, 4845, 15504, 38760},
};

#define FULL_POSITIONS 15504 /* C(20, 5): exactly 15 checkers on 6 points */

struct BearoffDb {
    float off[BEAROFF_POSITIONS][BEAROFF_ROLLS];
    float first[FULL_POSITIONS][BEAROFF_ROLLS]; /* 15-checker boards only */
    int32_t first_slot[BEAROFF_POSITIONS];      /* row in first[], or -1 */
    float none_off[BEAROFF_ROLLS];              /* {1, 0, 0...}: a checker is off */
    double mean[BEAROFF_POSITIONS];
};

int bearoff_index(const uint8_t pts[BEAROFF_POINTS])
{
    int sum = 0, index = 0;
    for (int k = 0; k < BEAROFF_POINTS; k++) {
        sum += pts[k];
        if (sum > 15)
            return -1;
        index += binom[sum + k][k + 1];
    }
    return index;
}

const float *bearoff_off(const BearoffDb *db, int index)
{
    return db->off[index];
}

const float *bearoff_first(const BearoffDb *db, int index)
{
    int slot = db->first_slot[index];
    return slot < 0 ? db->none_off : db->first[slot];
}

double bearoff_mean(const BearoffDb *db, int index)
{
    return db->mean[index];
}

/* The best result of one roll, for both policies. */
typedef struct Best {
    const BearoffDb *db;
    const double *mean_first; /* expected rolls to the first checker off */
    int start_checkers;
    double mean;     /* fewest expected rolls to finish, over the results */
    int index;       /* ... reached by this result */
    bool took_off;   /* some result has a checker off (gammon saved) */
    double mfirst;   /* fewest expected rolls to the first off otherwise */
    int first_index; /* ... reached by this result */
} Best;

static void visit(Best *b, const uint8_t c[BEAROFF_POINTS])
{
    int index = bearoff_index(c);
    double m = b->db->mean[index];
    if (m < b->mean) {
        b->mean = m;
        b->index = index;
    }
    int n = 0;
    for (int i = 0; i < BEAROFF_POINTS; i++)
        n += c[i];
    if (n < b->start_checkers) {
        b->took_off = true;
    } else if (b->mean_first[index] < b->mfirst) {
        b->mfirst = b->mean_first[index];
        b->first_index = index;
    }
}

/* Plays dice[k..ndice-1] in every legal way; `top` bounds the source point
 * (1-based) so that a double tries each multiset of sources once. */
static void play(Best *b, uint8_t c[BEAROFF_POINTS], const int *dice, int k, int ndice, int top)
{
    int high = 0; /* highest occupied point */
    for (int i = BEAROFF_POINTS; i >= 1; i--)
        if (c[i - 1]) {
            high = i;
            break;
        }
    if (k == ndice || high == 0) {
        visit(b, c);
        return;
    }
    int d = dice[k];
    for (int s = top < high ? top : high; s >= 1; s--) {
        if (!c[s - 1])
            continue;
        int dest = s - d;
        /* Bearing off with a larger die: only from the highest point. */
        if (dest < 0 && s != high)
            continue;
        c[s - 1]--;
        if (dest > 0)
            c[dest - 1]++;
        play(b, c, dice, k + 1, ndice, ndice == 4 ? s : BEAROFF_POINTS);
        if (dest > 0)
            c[dest - 1]--;
        c[s - 1]++;
    }
}

BearoffDb *bearoff_new(Err *err)
{
    BearoffDb *db = calloc(1, sizeof *db);
    uint8_t (*board)[BEAROFF_POINTS] = malloc(BEAROFF_POSITIONS * sizeof *board);
    int *order = malloc(BEAROFF_POSITIONS * sizeof *order);
    int *pips_of = malloc(BEAROFF_POSITIONS * sizeof *pips_of);
    double *mean_first = calloc(BEAROFF_POSITIONS, sizeof *mean_first);
    if (!db || !board || !order || !pips_of || !mean_first) {
        free(db);
        free(board);
        free(order);
        free(pips_of);
        free(mean_first);
        err_set(err, "out of memory building the bear-off database");
        return NULL;
    }

    /* Every board, and a bucket sort of the indices by pip count. */
    int pips_count[91] = {0};
    int full = 0;
    uint8_t c[BEAROFF_POINTS];
    for (int a = 0; a <= 15; a++)
        for (int b2 = 0; a + b2 <= 15; b2++)
            for (int c3 = 0; a + b2 + c3 <= 15; c3++)
                for (int d = 0; a + b2 + c3 + d <= 15; d++)
                    for (int e = 0; a + b2 + c3 + d + e <= 15; e++)
                        for (int f = 0; a + b2 + c3 + d + e + f <= 15; f++) {
                            c[0] = (uint8_t)a, c[1] = (uint8_t)b2, c[2] = (uint8_t)c3;
                            c[3] = (uint8_t)d, c[4] = (uint8_t)e, c[5] = (uint8_t)f;
                            int index = bearoff_index(c);
                            memcpy(board[index], c, sizeof c);
                            int pips = a + 2 * b2 + 3 * c3 + 4 * d + 5 * e + 6 * f;
                            pips_of[index] = pips;
                            pips_count[pips]++;
                            db->first_slot[index] =
                                a + b2 + c3 + d + e + f == 15 ? full++ : -1;
                        }
    int start[91];
    for (int p = 0, at = 0; p <= 90; p++) {
        start[p] = at;
        at += pips_count[p];
    }
    for (int i = 0; i < BEAROFF_POSITIONS; i++)
        order[start[pips_of[i]]++] = i;

    db->none_off[0] = 1.0f;
    db->off[0][0] = 1.0f; /* index 0: nothing left */
    for (int o = 1; o < BEAROFF_POSITIONS; o++) {
        int index = order[o];
        int slot = db->first_slot[index];
        int n = 0;
        for (int i = 0; i < BEAROFF_POINTS; i++)
            n += board[index][i];
        double dist[BEAROFF_ROLLS] = {0}, dfirst[BEAROFF_ROLLS] = {0};
        double mean = 1.0, mfirst = 1.0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                double w = (d1 == d2 ? 1.0 : 2.0) / 36.0;
                Best best = {db, mean_first, n, 1e9, 0, false, 1e9, 0};
                memcpy(c, board[index], sizeof c);
                if (d1 == d2) {
                    int dice[4] = {d1, d1, d1, d1};
                    play(&best, c, dice, 0, 4, BEAROFF_POINTS);
                } else {
                    int dice[2] = {d1, d2}, swapped[2] = {d2, d1};
                    play(&best, c, dice, 0, 2, BEAROFF_POINTS);
                    play(&best, c, swapped, 0, 2, BEAROFF_POINTS);
                }
                mean += w * best.mean;
                const float *next = db->off[best.index];
                for (int r = 1; r < BEAROFF_ROLLS; r++)
                    dist[r] += w * next[r - 1];
                dist[BEAROFF_ROLLS - 1] += w * next[BEAROFF_ROLLS - 1];
                if (slot < 0)
                    continue;
                if (best.took_off) {
                    dfirst[1] += w;
                } else {
                    mfirst += w * best.mfirst;
                    const float *nf = db->first[db->first_slot[best.first_index]];
                    for (int r = 1; r < BEAROFF_ROLLS; r++)
                        dfirst[r] += w * nf[r - 1];
                    dfirst[BEAROFF_ROLLS - 1] += w * nf[BEAROFF_ROLLS - 1];
                }
            }
        db->mean[index] = mean;
        for (int r = 0; r < BEAROFF_ROLLS; r++)
            db->off[index][r] = (float)dist[r];
        if (slot >= 0) {
            mean_first[index] = mfirst;
            for (int r = 0; r < BEAROFF_ROLLS; r++)
                db->first[slot][r] = (float)dfirst[r];
        }
    }
    free(board);
    free(order);
    free(pips_of);
    free(mean_first);
    return db;
}

void bearoff_free(BearoffDb *db)
{
    free(db);
}
