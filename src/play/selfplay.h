/* selfplay.h - cubeless games between two engines, for measuring
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

#include "engine.h"

/* A player behind a socket that speaks gnubg's external-player protocol
 * (gnubg's own `external` server): asked for its moves with board lines. */
typedef struct SelfplayRemote SelfplayRemote;

typedef struct SelfplayPlayer {
    const Engine *engine;
    int plies;
    SelfplayRemote *remote; /* when set, it moves instead of the engine */
} SelfplayPlayer;

/* Called before each roll with the position seen by the player on roll
 * (seat 0 or 1). */
typedef void (*SelfplayObserver)(void *ctx, const Position *p, int seat);

typedef struct SelfplayResult {
    bool failed; /* the remote player failed (Err in its SelfplayRemote) */
    int winner;  /* seat 0 or 1 */
    int points; /* 1 single, 2 gammon, 3 backgammon (cubeless) */
    int turns;
    double seconds[2]; /* time spent choosing moves, per seat */
    int decisions[2];  /* moves chosen (forced ones included) */
} SelfplayResult;

/* splitmix64: a tiny seeded generator (state in the caller's hands). */
uint64_t selfplay_rand(uint64_t *state);

/* The roll of turn `turn` of a game: turn 0 is the opening roll, never a
 * double (two dice thrown one each until they differ). */
void selfplay_dice(uint64_t *state, int turn, int *d1, int *d2);

/* Plays one game; `first` is the seat that plays the opening roll (a roll
 * that is not a double, as with two dice thrown one each). */
void selfplay_game(const SelfplayPlayer players[2], uint64_t seed, int first,
                   SelfplayObserver observe, void *ctx, SelfplayResult *res);

/* Connects to a server at addr ("host:port" or a Unix socket path); NULL
 * with err filled if that fails. */
SelfplayRemote *selfplay_remote_new(const char *addr, Err *err);
void selfplay_remote_free(SelfplayRemote *r);
const char *selfplay_remote_error(const SelfplayRemote *r);

/* "name" or "name:plies" (e.g. "default:1"), the engine made by the caller. */
bool selfplay_parse_player(const char *text, char *name, int name_size, int *plies);

double selfplay_now(void);

#endif
