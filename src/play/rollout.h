/* rollout.h - one trial of a rollout: a game played on from a position by
 * the engine against itself, on dice fixed by (seed, trial), to its end or
 * for a given number of turns, and what it says for the player to act at
 * the start (the ROOT).
 *
 * The game is played through the match state machine (match.h), so every
 * cube rule of the position's rules and score holds: doubles, takes,
 * drops, beavers where allowed, the maximum cube, Crawford and
 * post-Crawford, Holland. Cubeless trials never double. Nobody resigns.
 *
 * A trial's values, from the root's view (RolloutValue): the five chances
 * as 0 or 1 (a drop, or a truncated trial: the engine's 0-ply chances at
 * that moment), the cubeless value of those chances (money equity per
 * cube unit, or match winning chance, at the root's cube and score), and
 * in a cubeful trial the points won times the cube, per unit of the root's
 * cube (money), or the match winning chance at the final score (match:
 * met.h). A truncated trial's cubeful value is the engine's cubeful
 * equity of the position where it stopped (cube.h's cube_cubeful).
 *
 * Variance reduction (RolloutOptions.vr):
 * - stratified dice: trial t's first roll is the (t mod 36)-th of the 36
 *   ordered rolls and its second the ((t / 36) mod 36)-th, through two
 *   permutations drawn from the seed; every later roll is random. Each
 *   block of 36 trials then has every first roll once, each block of 1296
 *   every pair of first two rolls, and a single trial is still a fair draw.
 * - luck: at each roll, the 0-ply value of the move the search would
 *   pick for the roll rolled minus the average of the same over the 21
 *   rolls (engine_roll_choices: 1/36 a double, 2/36 the others); a trial's values minus the sum of its lucks
 *   (each value with its own luck, cube-scaled for the cubeful value) have
 *   the same mean and a far smaller variance.
 *
 * Pure and thread-safe: a RolloutGame is read-only once made; a trial
 * writes only to the caller's scratch and values. */
#ifndef SHESH_ROLLOUT_H
#define SHESH_ROLLOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "err.h"
#include "match.h"

/* What a trial measures, each from the root's view. */
typedef enum RolloutValue {
    ROLLOUT_WIN,
    ROLLOUT_WIN_GAMMON,
    ROLLOUT_WIN_BG,
    ROLLOUT_LOSE_GAMMON,
    ROLLOUT_LOSE_BG,
    ROLLOUT_CUBELESS,
    ROLLOUT_CUBEFUL, /* cubeful trials only */
    ROLLOUT_VALUES
} RolloutValue;

/* A trial longer than this many turns is an error (no real game is). */
#define ROLLOUT_MAX_TURNS 10000

typedef struct RolloutOptions {
    int plies;     /* the players' depth (engine_move, engine_double, ...) */
    int truncate;  /* stop after this many turns (half-moves); 0: play to the end */
    bool cubeful;  /* play with the cube; false: nobody doubles */
    bool vr;       /* variance reduction: stratified dice and luck */
    uint64_t seed;
} RolloutOptions;

typedef struct RolloutGame {
    const Engine *engine;
    Match start;        /* the player to act (the root) about to roll */
    RolloutOptions o;
    int root;           /* the root's seat */
    int view;           /* the seat whose view the values are from: the
                           root (rollout_game_init), or the other player,
                           who has just moved into the start (a candidate
                           move's rollout) */
    CubeState root_cs;  /* the cube and score around him at the start */
    double cubeless_base, cubeless_w[5]; /* his cubeless value, linear in
                                            the five chances */
    uint8_t strata[2][36]; /* the permutations of the first two rolls */
} RolloutGame;

/* Sets up the rollout of `start`, whose player to act is about to roll
 * (or to double): refused when the game is over, a double or resignation
 * waits, the dice are rolled, or an option is out of range. */
bool rollout_game_init(RolloutGame *g, const Engine *e, const Match *start,
                       const RolloutOptions *o, Err *err);

/* The values from the other player's view from now on: the player who
 * made the move that led to the start. */
void rollout_game_from_mover(RolloutGame *g);

/* Plays trial number `trial` (0, 1, ...) and fills v[ROLLOUT_VALUES]
 * (v[ROLLOUT_CUBEFUL] 0 in a cubeless trial). False only on an error of
 * the engine or the state machine (a bug) or a game past
 * ROLLOUT_MAX_TURNS. */
bool rollout_trial(const RolloutGame *g, EngineScratch *sc, int64_t trial,
                   double v[ROLLOUT_VALUES], Err *err);

#endif
