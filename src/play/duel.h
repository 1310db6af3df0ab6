/* duel.h - a run of duplicate pairs between two players: the referee's
 * games (referee.h) spread over threads, each pair handed on in order.
 *
 * A PAIR is one dice stream played twice, A in seat 0 and then in seat 1:
 * two money games, or two matches (game k of each on the stream of
 * (seed, pair, k)). Pairs are numbered from 0; the run plays pairs
 * first, first + step, first + 2 step, ... (a shard of a bigger run), as
 * many as `pairs` says, on `concurrency` threads, each thread with its own
 * players. Whatever order the threads finish them in, the pairs are handed
 * to on_pair in their order, one at a time: statistics and records come
 * out the same for any concurrency.
 *
 * Faults: a player who fails to answer forfeits the game (referee.h); his
 * connection is then made again (a gnubg started again) for the next game,
 * unless stop_on_fault, which ends the run after handing on the pairs
 * finished before (the pair of the fault is not handed on). duel_stop()
 * (from a signal handler's thread, or on_pair deciding an SPRT) stops
 * starting pairs; duel_cancel() also ends the games in flight. */
#ifndef SHESH_DUEL_H
#define SHESH_DUEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "player_spec.h"
#include "record.h"
#include "referee.h"
#include "rules.h"

/* The games of one side of a pair: a money game, or a match. */
typedef struct DuelHalf {
    int a_seat;          /* A's seat: 0 in the first half, 1 in the second */
    Record record;       /* A in its column 0 */
    RefereeGame *games;  /* record_games(&record) of them */
    int match_winner;    /* A 0, B 1; -1 in money play */
} DuelHalf;

typedef struct DuelPair {
    int64_t index;
    DuelHalf half[2];
} DuelPair;

typedef struct DuelOptions {
    PlayerSpec specs[2];   /* A, B */
    Rules rules;
    int match_to;          /* 0 = money */
    int64_t first, step;   /* the pairs: first, first + step, ... */
    int64_t pairs;         /* how many */
    uint64_t seed;
    int concurrency;       /* threads, >= 1 */
    double timeout_s;      /* a remote player's time for each answer */
    bool stop_on_fault;
    const char *gnubg_binary; /* NULL: the default */
    /* Called for each pair in order, from one thread at a time, while the
     * others play on. Returning false stops the run (an error in err). */
    bool (*on_pair)(void *ctx, const DuelPair *p, Err *err);
    /* Called for each fault, from the thread where it happened, with no
     * lock held (may be NULL). */
    void (*on_fault)(void *ctx, int64_t pair, const RefereeFault *f, const char *name);
    void *ctx;
} DuelOptions;

typedef struct Duel Duel;

/* Checks the options and makes the engines; the players are made by
 * duel_run, each thread its own. */
Duel *duel_new(const DuelOptions *o, Err *err);
void duel_free(Duel *d);

/* Plays the run and returns when it is over, stopped or failed: false
 * when it failed (a player that cannot be made or reconnected, a referee
 * error, on_pair refusing), with the reason in err. Pairs not handed on
 * are lost, never half-counted. */
bool duel_run(Duel *d, Err *err);

/* From any thread, or a signal handler's helper thread: start no more
 * pairs. */
void duel_stop(Duel *d);
/* Also end the games in flight (player_cancel on every player). */
void duel_cancel(Duel *d);

/* Pairs handed on so far (duel_run may still be running). */
int64_t duel_pairs_done(Duel *d);

/* True when the run stopped because of a fault (stop_on_fault). */
bool duel_stopped_by_fault(Duel *d);

#endif
