/* bearoff_two_sided.c - what a two-sided bear-off database would add to
 * the one-sided one the engine reads (bearoff.h, eval_race.h).
 *
 *   build/tools/bearoff_two_sided [CHECKERS]   (default 6, at most 8)
 *
 * For every pair of home boards of 1 to CHECKERS checkers a side (on the
 * six home points, no contact), the exact chance that the player on roll
 * wins when both sides play to win: the mean over the 36 rolls of the best
 * of his moves, a move's value being 1 when it bears his last checker off
 * and else one less the other side's exact chance in the position it
 * leaves. Every move lowers the pips, so the pairs are solved in order of
 * the two sides' pips together. Beside it the engine's race evaluator, the
 * one-sided database's distributions of rolls (each side playing to bear
 * off in the fewest rolls on average, independently of the other side),
 * is measured two ways:
 *
 *   - its value: the difference from the exact chance, as cubeless equity
 *     (2 P - 1: no gammon is left with 14 checkers or fewer a side), mean
 *     absolute and largest;
 *   - its choice: for every pair and roll with two or more different
 *     results, the move a 0-ply choice by the race evaluator makes against
 *     the exact best, in exact equity given up (mean over those choices,
 *     and how many choices differ).
 *
 * Not a test: it measures what a two-sided database would pay
 * (docs/engine.md, "Bear-off database"). Exit 1 only on a failure to build
 * the database. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bearoff.h"
#include "eval_outputs.h"
#include "eval_race.h"
#include "movegen.h"
#include "position.h"

#define BOARDS_MAX 3003 /* C(14, 6): up to 8 checkers on six points */

typedef struct Boards {
    int n;
    uint8_t pts[BOARDS_MAX][BEAROFF_POINTS];
    int pips[BOARDS_MAX];
    int id_of[BEAROFF_POSITIONS]; /* bearoff_index -> board, or -1 */
} Boards;

/* Every board of 1 .. most checkers on the six home points. */
static void boards_list(Boards *b, int most)
{
    memset(b->id_of, -1, sizeof b->id_of);
    b->n = 0;
    uint8_t pts[BEAROFF_POINTS] = {0};
    for (;;) {
        int i = 0; /* next board: a counter in base most + 1 */
        while (i < BEAROFF_POINTS && pts[i] == most)
            pts[i++] = 0;
        if (i == BEAROFF_POINTS)
            return;
        pts[i]++;
        int on = 0, pips = 0;
        for (int k = 0; k < BEAROFF_POINTS; k++)
            on += pts[k], pips += pts[k] * (k + 1);
        if (on > most)
            continue;
        memcpy(b->pts[b->n], pts, sizeof pts);
        b->pips[b->n] = pips;
        b->id_of[bearoff_index(pts)] = b->n;
        b->n++;
    }
}

/* The race of the mover's board a against the other side's board o. */
static Position race_of(const Boards *b, int a, int o)
{
    Position p;
    memset(&p, 0, sizeof p);
    memcpy(p.side[SIDE_ROLLER], b->pts[a], BEAROFF_POINTS);
    memcpy(p.side[SIDE_OPPONENT], b->pts[o], BEAROFF_POINTS);
    return p;
}

/* The board a move leaves the mover, or -1 when he has borne off all. */
static int board_after(const Boards *b, const Move *m)
{
    if (pos_checkers(&m->result, SIDE_ROLLER) == 0)
        return -1;
    return b->id_of[bearoff_index(m->result.side[SIDE_ROLLER])];
}

typedef struct Pair {
    int a, o, pips;
} Pair;

static int by_pips(const void *x, const void *y)
{
    const Pair *p = x, *q = y;
    return (p->pips > q->pips) - (p->pips < q->pips);
}

/* The race evaluator's chance that the side on roll wins a vs o. */
static double one_sided(const BearoffDb *db, const Boards *b, int a, int o)
{
    Position p = race_of(b, a, o);
    double out[OUT_COUNT];
    eval_race(db, NULL, &p, out, NULL);
    return out[OUT_WIN];
}

int main(int argc, char **argv)
{
    int most = argc > 1 ? atoi(argv[1]) : 6;
    if (most < 1 || most > 8) {
        fprintf(stderr, "usage: bearoff_two_sided [CHECKERS]  (1 to 8, default 6)\n");
        return 2;
    }
    Err err = {{0}};
    BearoffDb *db = bearoff_new(&err);
    Boards *b = malloc(sizeof *b);
    MoveList *ml = malloc(sizeof *ml);
    if (!db || !b || !ml) {
        fprintf(stderr, "bearoff_two_sided: %s\n", err.text[0] ? err.text : "out of memory");
        return 1;
    }
    boards_list(b, most);
    size_t n = (size_t)b->n;
    double *exact = malloc(n * n * sizeof *exact);  /* [a * n + o]: a on roll */
    double *approx = malloc(n * n * sizeof *approx); /* the race evaluator's */
    Pair *order = malloc(n * n * sizeof *order);
    if (!exact || !approx || !order) {
        fprintf(stderr, "bearoff_two_sided: out of memory\n");
        return 1;
    }
    for (int a = 0; a < b->n; a++)
        for (int o = 0; o < b->n; o++) {
            order[(size_t)a * n + (size_t)o] = (Pair){a, o, b->pips[a] + b->pips[o]};
            approx[(size_t)a * n + (size_t)o] = one_sided(db, b, a, o);
        }
    qsort(order, n * n, sizeof *order, by_pips);

    double value_sum = 0, value_most = 0, lost_sum = 0, lost_most = 0;
    long choices = 0, differ = 0;
    for (size_t k = 0; k < n * n; k++) {
        int a = order[k].a, o = order[k].o;
        Position p = race_of(b, a, o);
        double win = 0;
        for (int d1 = 1; d1 <= 6; d1++)
            for (int d2 = d1; d2 <= 6; d2++) {
                int count = movegen_generate(&p, d1, d2, ml);
                double best = -1, chosen = 0, chosen_score = -1;
                for (int m = 0; m < count; m++) {
                    int after = board_after(b, &ml->moves[m]);
                    /* the other side on roll next: one less his chance */
                    double value = after < 0 ? 1.0 : 1.0 - exact[(size_t)o * n + (size_t)after];
                    double score = after < 0 ? 1.0 : 1.0 - approx[(size_t)o * n + (size_t)after];
                    if (value > best)
                        best = value;
                    if (score > chosen_score)
                        chosen_score = score, chosen = value;
                }
                if (count == 0) /* cannot happen in a bear-off: every roll moves */
                    best = chosen = 1.0 - exact[(size_t)o * n + (size_t)a];
                win += (d1 == d2 ? 1.0 : 2.0) / 36.0 * best;
                if (count > 1) {
                    double lost = 2.0 * (best - chosen);
                    choices++;
                    differ += lost > 1e-12;
                    lost_sum += lost;
                    lost_most = fmax(lost_most, lost);
                }
            }
        exact[(size_t)a * n + (size_t)o] = win;
        double off = 2.0 * fabs(win - approx[(size_t)a * n + (size_t)o]);
        value_sum += off;
        value_most = fmax(value_most, off);
    }
    printf("boards of 1 to %d checkers a side: %d; pairs %zu\n", most, b->n, n * n);
    printf("value: the race evaluator's equity from the exact, mean %.5f, largest %.5f\n",
           value_sum / (double)(n * n), value_most);
    printf("choice: %ld rolls with two or more results; the evaluator's 0-ply move differs "
           "from the best in %ld (%.2f %%), giving up %.3f mEMG a choice (largest %.4f)\n",
           choices, differ, 100.0 * (double)differ / (double)choices,
           1000.0 * lost_sum / (double)choices, lost_most);
    free(order);
    free(approx);
    free(exact);
    free(ml);
    free(b);
    bearoff_free(db);
    return 0;
}
