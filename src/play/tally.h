/* tally.h - what a run of pairs adds up to: the pair statistics (stats.h),
 * and per player the points, the kinds of win, forfeits, cube actions,
 * resignations, results by seat, matches and decision time.
 *
 * Every figure is an integer sum, so the tallies of shards merge into
 * exactly the tally of one run (tally_merge), whatever the order. */
#ifndef SHESH_TALLY_H
#define SHESH_TALLY_H

#include <stdbool.h>
#include <stddef.h>
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

/* How a game was scored under the rules: a backgammon counts as a gammon
 * with backgammons off, a star mars as a backgammon without the rule; a
 * drop or a forfeit is a single game. */
ScoreKind tally_scored_kind(const RefereeGame *g, const Rules *rules);

/* Adds a pair. rules: the run's (how a kind of win was scored). False on
 * an overflow (never in a real run). */
bool tally_add_pair(Tally *t, const DuelPair *p, const Rules *rules);

/* The same from its parts, for a pair read back from a record: each game
 * (A in seat a_seat, scored as `scored`), each half's end (its match's
 * winner, -1 in money play), then the pair's end (A's net points over its
 * `games` games). */
void tally_add_game(Tally *t, const RefereeGame *g, int a_seat, ScoreKind scored);
void tally_end_half(Tally *t, int match_winner);
bool tally_end_pair(Tally *t, int64_t net, int64_t games);

/* The fields of a TallySide by name, for writing and reading them
 * ("points", "wins", ...), ending with {NULL, 0}. */
typedef struct TallyField {
    const char *name;
    size_t offset; /* of an int64_t in TallySide */
} TallyField;
extern const TallyField tally_side_fields[];
/* The same for the StatsPairs sums ("n", "sum", "sum_sq", "games",
 * "games_sq", "cross"). */
extern const TallyField tally_pair_fields[];
int64_t *tally_field(TallySide *s, const TallyField *f);
int64_t *tally_pairs_field(StatsPairs *p, const TallyField *f);

struct Json;
/* The whole tally as one JSON object (json.h's writer):
 *   {"games": G, "matches": M,
 *    "pairs": {"n": ..., "sum": ..., ...},
 *    "sides": [{"points": ..., "wins": ..., ...}, {...}]} */
void tally_write_json(struct Json *j, const Tally *t);

/* Adds b to a. False (a as it was) when a sum would overflow. */
bool tally_merge(Tally *a, const Tally *b);

#endif
