/* tally.h - what a run of pairs adds up to: the pair statistics (stats.h),
 * and per player the points, the kinds of win, forfeits, cube actions,
 * resignations, results by seat, matches and decision time.
 *
 * Every figure is an integer sum, so the tallies of shards merge into
 * exactly the tally of one run (tally_merge), whatever the order. */
#ifndef SHESH_TALLY_H
#define SHESH_TALLY_H

#include <stdbool.h>
#include <stdint.h>

#include "duel.h"
#include "stats.h"

typedef struct TallySide {
    int64_t points;       /* points won */
    int64_t wins;         /* games won */
    int64_t gammons;      /* games won as a gammon (as scored: a backgammon
                             with backgammons off is one) */
    int64_t backgammons;  /* ... as a backgammon (a star mars with star
                             mars off is one) */
    int64_t star_mars;    /* ... as a star mars */
    int64_t forfeits;     /* games lost by failing to answer */
    int64_t doubles, takes, drops, beavers, raccoons;
    int64_t beavers_as_takes; /* beavers the rules do not allow, taken */
    int64_t resigns, resigns_accepted;
    int64_t seat_games[2], seat_points[2]; /* games played and net points
                                              scored in seat 0 and 1 */
    int64_t matches_won;
    int64_t decisions, decision_us;
} TallySide;

typedef struct Tally {
    int64_t games;
    int64_t matches;     /* 0 in money play */
    StatsPairs pairs;    /* A's net points pair by pair */
    TallySide side[2];   /* A, B */
} Tally;

/* Adds a pair. rules: the run's (how a kind of win was scored). False on
 * an overflow (never in a real run). */
bool tally_add_pair(Tally *t, const DuelPair *p, const Rules *rules);

/* Adds b to a. */
bool tally_merge(Tally *a, const Tally *b);

#endif
