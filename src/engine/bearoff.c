/* bearoff.c - builds the one-sided bear-off database (see bearoff.h).
 *
 * Index: a home board c[0..5] (checkers on points 1..6, total <= 15) maps
 * to the strictly increasing sequence s_k = c[0] + ... + c[k] + k, a 6-subset
 * of {0..20}, ranked by the combinatorial number system: sum C(s_k, k + 1).
 * That is a bijection onto 0 .. C(21,6) - 1, and the empty board is 0.
 *
 * Build: every move lowers the pip count, so positions are solved in order
 * of increasing pips and each one only looks up already solved successors.
 * For each of the 21 rolls it keeps, of every way of playing it (both orders
 * of a non-double), the result with the fewest expected rolls: a first move,
 * then the best rest of the roll from the board it reaches, remembered when
 * that board was solved (Build below). Playing out every sequence instead
 * gives the same database to the bit, in 2.4 times the time. With every
 * checker home, any die can be played while a checker is left, so "use both
 * dice" needs no special case.
 *
 * The zone table is solved the same way afterwards, with one rule changed
 * (a larger die takes a checker out from any point): a board of at most 8
 * checkers has s_5 <= 13, a 6-subset of {0..13}, so the zone boards are
 * exactly the indices below C(14, 6). */
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
_Static_assert(BEAROFF_POSITIONS < 0xffff, "board indices fit in 16 bits");

struct BearoffDb {
    float off[BEAROFF_POSITIONS][BEAROFF_ROLLS];
    float zone[BEAROFF_ZONE_POSITIONS][BEAROFF_ROLLS];
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

const float *bearoff_zone(const BearoffDb *db, int index)
{
    return db->zone[index];
}

double bearoff_mean(const BearoffDb *db, int index)
{
    return db->mean[index];
}

/* The results of a play, for both policies. */
typedef struct Choice {
    int index;       /* the result with the fewest expected rolls to finish */
    int first_index; /* of the results with no checker off, the one with the
                        fewest expected rolls to the first off; -1 if none */
    bool took_off;   /* some result has a checker off (gammon saved) */
} Choice;

/* What the build keeps while it runs: the best results of playing k = 1..3
 * dice of one number d from each board solved so far, so that a roll is
 * one move followed by a looked-up best rest of it rather than every
 * sequence of its moves (a double has up to 126 of them). The best plays
 * of k dice from a board are the best, over its first moves, of the best
 * plays of k - 1 dice from the boards these reach, and those have fewer
 * pips: solved before it. */
typedef struct Rest {
    uint16_t index;       /* as in Choice, in 16 bits (BEAROFF_POSITIONS */
    uint16_t first_index; /* < NO_FIRST), a third of the memory missed in */
    uint16_t took_off;    /* cache; first_index and took_off for 15-checker
                             boards only */
} Rest;

#define NO_FIRST 0xffff

typedef struct Build {
    bool zone;           /* solving the zone table: a larger die takes a
                            checker out from any point */
    double *mean;        /* expected rolls of the table being solved */
    double *mean_first;  /* expected rolls to the first checker off */
    const uint8_t (*board)[BEAROFF_POINTS];
    /* [board][k - 1][d - 1]: a board's together, since a lookup of the
     * rest of a roll lands on a board anywhere in the table. */
    Rest (*rest)[3][6];
} Build;

/* The boards one die d reaches from c: their indices, and whether a checker
 * was borne off. The empty board stays empty. `zone`: a die larger than a
 * checker needs takes it off from any point. */
static int one_move(const uint8_t c[BEAROFF_POINTS], int d, bool zone, int to[BEAROFF_POINTS],
                    bool off[BEAROFF_POINTS])
{
    int high = 0; /* highest occupied point */
    for (int i = BEAROFF_POINTS; i >= 1; i--)
        if (c[i - 1]) {
            high = i;
            break;
        }
    if (high == 0) {
        to[0] = 0;
        off[0] = false;
        return 1;
    }
    uint8_t t[BEAROFF_POINTS];
    memcpy(t, c, sizeof t);
    int n = 0;
    for (int s = high; s >= 1; s--) {
        if (!c[s - 1])
            continue;
        int dest = s - d;
        /* Bearing off with a larger die: only from the highest point. */
        if (dest < 0 && s != high && !zone)
            continue;
        t[s - 1]--;
        if (dest > 0)
            t[dest - 1]++;
        to[n] = bearoff_index(t);
        off[n] = dest <= 0;
        n++;
        if (dest > 0)
            t[dest - 1]--;
        t[s - 1]++;
    }
    return n;
}

/* Folds into *ch the plays of die d from board `index` followed by `rest`
 * more dice of number e (their best results looked up); `full`: the board
 * has 15 checkers and the first-off policy is wanted. Strictly better only
 * replaces, so the first of equal results stays. */
static void fold_plays(const Build *b, int index, int d, int rest, int e, bool full, Choice *ch)
{
    int to[BEAROFF_POINTS];
    bool off[BEAROFF_POINTS];
    int n = one_move(b->board[index], d, b->zone, to, off);
    /* The lookups miss the cache (the table is megabytes, the boards
     * anywhere in it): ask for them all at once, not one after another. */
    if (rest)
        for (int i = 0; i < n; i++)
            __builtin_prefetch(&b->rest[to[i]][rest - 1][e - 1]);
    for (int i = 0; i < n; i++) {
        const Rest *later = rest ? &b->rest[to[i]][rest - 1][e - 1] : NULL;
        int r = later ? later->index : to[i];
        if (ch->index < 0 || b->mean[r] < b->mean[ch->index])
            ch->index = r;
        if (!full)
            continue;
        if (off[i] || (later && later->took_off))
            ch->took_off = true;
        if (off[i])
            continue;
        int f = !later ? to[i] : later->first_index == NO_FIRST ? -1 : later->first_index;
        if (f >= 0 && (ch->first_index < 0 || b->mean_first[f] < b->mean_first[ch->first_index]))
            ch->first_index = f;
    }
}

/* Records the best plays of 1..3 dice of each number from a solved board,
 * for the boards above it. */
static void remember(Build *b, int index, bool full)
{
    for (int k = 1; k <= 3; k++)
        for (int d = 1; d <= 6; d++) {
            Choice ch = {-1, -1, false};
            fold_plays(b, index, d, k - 1, d, full, &ch);
            b->rest[index][k - 1][d - 1] =
                (Rest){(uint16_t)ch.index, ch.first_index < 0 ? NO_FIRST : (uint16_t)ch.first_index,
                       ch.took_off};
        }
}

/* dist += w x next one roll later; next's entries from len on are 0 (adding
 * them would change nothing), and the last entry keeps what is longer. */
static void add_later(double dist[BEAROFF_ROLLS], double w, const float *next, int len)
{
    int end = len < BEAROFF_ROLLS - 1 ? len : BEAROFF_ROLLS - 1;
    for (int r = 0; r < end; r++)
        dist[r + 1] += w * next[r];
    if (len == BEAROFF_ROLLS)
        dist[BEAROFF_ROLLS - 1] += w * next[BEAROFF_ROLLS - 1];
}

/* Stores a distribution; returns how many of its entries may be non-zero. */
static uint8_t store(float out[BEAROFF_ROLLS], const double dist[BEAROFF_ROLLS])
{
    int len = 0;
    for (int r = 0; r < BEAROFF_ROLLS; r++) {
        out[r] = (float)dist[r];
        if (out[r] != 0.0f)
            len = r + 1;
    }
    return (uint8_t)len;
}

/* Solves the boards order[0 .. count-1] (by pips, the empty board first)
 * into the bear-off table, with the first-off table when first_len is
 * given, or into the zone table (b->zone); len[] gets how many entries of
 * each distribution may be non-zero. */
static void solve(Build *b, BearoffDb *db, const int *order, int count, uint8_t *len,
                  uint8_t *first_len)
{
    float (*table)[BEAROFF_ROLLS] = b->zone ? db->zone : db->off;
    double *mean_of = b->mean, *mean_first = b->mean_first;
    table[0][0] = 1.0f; /* index 0: nothing left */
    mean_of[0] = 0.0;
    len[0] = 1;
    remember(b, 0, false);
    for (int o = 1; o < count; o++) {
        int index = order[o];
        int slot = first_len ? db->first_slot[index] : -1;
        double dist[BEAROFF_ROLLS] = {0}, dfirst[BEAROFF_ROLLS] = {0};
        double mean = 1.0, mfirst = 1.0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                double w = (d1 == d2 ? 1.0 : 2.0) / 36.0;
                Choice best = {-1, -1, false};
                if (d1 == d2) {
                    fold_plays(b, index, d1, 3, d1, slot >= 0, &best);
                } else {
                    fold_plays(b, index, d1, 1, d2, slot >= 0, &best);
                    fold_plays(b, index, d2, 1, d1, slot >= 0, &best);
                }
                mean += w * mean_of[best.index];
                add_later(dist, w, table[best.index], len[best.index]);
                if (slot < 0)
                    continue;
                if (best.took_off) {
                    dfirst[1] += w;
                } else {
                    mfirst += w * mean_first[best.first_index];
                    int next = db->first_slot[best.first_index];
                    add_later(dfirst, w, db->first[next], first_len[next]);
                }
            }
        mean_of[index] = mean;
        len[index] = store(table[index], dist);
        if (slot >= 0) {
            mean_first[index] = mfirst;
            first_len[slot] = store(db->first[slot], dfirst);
        }
        remember(b, index, slot >= 0);
    }
}

BearoffDb *bearoff_new(Err *err)
{
    BearoffDb *db = calloc(1, sizeof *db);
    uint8_t (*board)[BEAROFF_POINTS] = malloc(BEAROFF_POSITIONS * sizeof *board);
    int *order = malloc(BEAROFF_POSITIONS * sizeof *order);
    int *pips_of = malloc(BEAROFF_POSITIONS * sizeof *pips_of);
    double *mean_first = calloc(BEAROFF_POSITIONS, sizeof *mean_first);
    double *zone_mean = calloc(BEAROFF_ZONE_POSITIONS, sizeof *zone_mean);
    Rest (*rest)[3][6] = malloc(BEAROFF_POSITIONS * sizeof *rest);
    /* Entries of each distribution that may be non-zero. */
    uint8_t *off_len = calloc(BEAROFF_POSITIONS + FULL_POSITIONS, 1);
    uint8_t *first_len = off_len ? off_len + BEAROFF_POSITIONS : NULL;
    if (!db || !board || !order || !pips_of || !mean_first || !zone_mean || !rest || !off_len) {
        free(db);
        db = NULL;
        err_set(err, "out of memory building the bear-off database");
        goto done; /* the scratch below is freed in one place */
    }
    Build build = {.zone = false, .mean = db->mean, .mean_first = mean_first,
                   .board = (const uint8_t (*)[BEAROFF_POINTS])board, .rest = rest};

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
    solve(&build, db, order, BEAROFF_POSITIONS, off_len, first_len);
    /* The zone table, in the lengths' memory the bear-off no longer needs:
     * its boards (at most 8 checkers) are the indices below
     * BEAROFF_ZONE_POSITIONS, and a move from one reaches only others. */
    build.zone = true;
    build.mean = zone_mean;
    for (int o = 0, z = 0; o < BEAROFF_POSITIONS; o++)
        if (order[o] < BEAROFF_ZONE_POSITIONS)
            order[z++] = order[o];
    solve(&build, db, order, BEAROFF_ZONE_POSITIONS, off_len, NULL);
done:
    free(board);
    free(order);
    free(pips_of);
    free(mean_first);
    free(zone_mean);
    free(rest);
    free(off_len);
    return db;
}

void bearoff_free(BearoffDb *db)
{
    free(db);
}
