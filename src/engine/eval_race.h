/* eval_race.h - chances in a race (no contact left), player on roll about
 * to roll.
 *
 * Each side gets three distributions over the number of its own rolls:
 * to bear off everything, to bear off the first checker (gammons) and to
 * get every checker out of the other side's home board (backgammons). With
 * every checker home they come from the bear-off database and are exact
 * for the one-sided play it assumes; checkers still outside are modelled as
 * a normal number of rolls to carry them home (pips / 8.17 rolls, variance
 * from the dice) added to the database's distribution for the board they
 * arrive on. Checkers in the other side's home board come out of it in a
 * number of rolls that is exact for up to 8 of them (the database's zone
 * table), modelled as a normal number of rolls to cover their pips beyond
 * that. docs/engine.md gives the figures and the limits. */
#ifndef SHESH_EVAL_RACE_H
#define SHESH_EVAL_RACE_H

#include <stdbool.h>

#include "bearoff.h"
#include "eval_outputs.h"
#include "position.h"

/* The per-side work of the last sides seen, for a caller that evaluates
 * many positions sharing one side (every move of one roll leaves the other
 * side as it was). Owned by one thread; NULL works everywhere. */
typedef struct RaceCache RaceCache;

RaceCache *race_cache_new(void);
void race_cache_free(RaceCache *c);

/* Forgets every entry, as a new cache (for a cache reused by one search
 * after another). */
void race_cache_reset(RaceCache *c);

/* The five chances of the race p; exact[k], when exact is not NULL, tells
 * whether out[k] came from the tables alone (exact up to the one-sided
 * play they assume): the race and the gammons when every checker of both
 * sides is home, a backgammon when the winner's checkers are all home and
 * the loser's exact table covers the checkers he has in the winner's home
 * board. */
void eval_race(const BearoffDb *db, RaceCache *cache, const Position *p,
               double out[OUT_COUNT], bool exact[OUT_COUNT]);

/* What the model knows of one side of a race, in that side's eyes: the
 * chances it gives him (the player on roll's win, gammon and backgammon;
 * the other side's the same, won by him), and the mean and spread of his
 * own three numbers of rolls (to bear off every checker, the first one,
 * and to leave the other side's home board; 0 for the last two once he
 * has a checker off). A race network of inputs race-234 reads them
 * (nn_race_features.h). */
typedef struct RaceSideModel {
    double win, gammon, backgammon;
    double off_mean, off_sd, first_mean, first_sd, clear_mean;
} RaceSideModel;

/* eval_race, and (side not NULL) what the model knows of each side from
 * the same distributions: side[0] the player on roll's, side[1] the other
 * side's. */
void eval_race_model(const BearoffDb *db, RaceCache *cache, const Position *p,
                     double out[OUT_COUNT], bool exact[OUT_COUNT], RaceSideModel side[2]);

/* Expected rolls side `side` needs to bear off (the model above). */
double eval_race_rolls(const BearoffDb *db, const Position *p, int side);

#endif
