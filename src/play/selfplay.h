/* selfplay.h - cubeless games between two players, for measuring
 * strength (`shesh selfplay`) and for collecting calibration data
 * (`shesh calibrate`).
 *
 * Dice come from a seeded generator, one stream per game, so a game is
 * fully determined by its seed, its players and who starts: playing every
 * seed twice with the seats swapped ("duplicate dice") cancels most of the
 * luck, and two identical players then score exactly 0. */
#ifndef SHESH_EVAL_SELFPLAY_H
#define SHESH_EVAL_SELFPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "player.h"

/* Called before each roll with the position seen by the player on roll
 * (seat 0 or 1). */
typedef void (*SelfplayObserver)(void *ctx, const Position *p, int seat);

typedef struct SelfplayResult {
    bool failed;         /* a player failed (or was cancelled): no result */
    int failed_seat;     /* which, when failed */
    PlayerStatus status; /* why, when failed; err says more */
    Err err;
    int winner;  /* seat 0 or 1 */
    int points; /* 1 single, 2 gammon, 3 backgammon (cubeless) */
    int turns;
    double seconds[2]; /* time spent choosing moves, per seat */
    int decisions[2];  /* moves chosen (forced ones included) */
} SelfplayResult;

/* The roll of turn `turn` of a game: turn 0 is the opening roll, never a
 * double (two dice thrown one each until they differ). */
void selfplay_dice(uint64_t *state, int turn, int *d1, int *d2);

/* Plays one game between players[0] and players[1] (seats; one player may
 * sit in both, answering one question at a time); `first` is the seat that
 * plays the opening roll (a roll that is not a double, as with two dice
 * thrown one each). A player's failure ends the game (res->failed). */
void selfplay_game(Player *const players[2], uint64_t seed, int first, SelfplayObserver observe,
                   void *ctx, SelfplayResult *res);


#endif
