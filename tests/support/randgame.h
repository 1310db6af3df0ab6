/* randgame.h - seeded random games through the match state machine, every
 * action recorded in a Record: what the record tests and the record tool
 * (tests/tools/record_games.c) play. Legal moves are picked at random;
 * doubles, beavers and resignations come now and then. */
#ifndef SHESH_TEST_RANDGAME_H
#define SHESH_TEST_RANDGAME_H

#include <stdbool.h>

#include "err.h"
#include "match.h"
#include "record.h"

/* The generator (an LCG): the same seed gives the same games everywhere. */
unsigned randgame_next(unsigned *seed);

/* Starts m and r (names "Alice", "Bob") and plays until the match is over
 * or `games` games are finished (money: exactly that many). After each
 * finished game, if on_game is not NULL, calls it (to write a record file
 * game by game); it returning false stops with that error. */
bool randgame_play(Match *m, Record *r, const Rules *rules, int length, int games,
                   unsigned seed, bool (*on_game)(void *ctx, const Record *r, Err *err),
                   void *ctx, Err *err);

#endif
