/* bearoff.h - the one-sided bear-off database: for every way of placing up
 * to 15 checkers on the six home points (54,264 of them), the probability of
 * needing exactly n rolls to bear them all off, and of needing n rolls to
 * bear off the first one (what saves a gammon). Beside it, for up to 8
 * checkers in the other side's home board (3,003 ways), the probability of
 * needing exactly n rolls to bring them all out of it (what saves a
 * backgammon): the same problem, except that a die larger than a checker
 * needs takes it out from any point (in a race nothing blocks it).
 *
 * Built at engine_new from the rules alone (about 0.3 s on one core: most
 * of what any engine command takes to start), then read-only:
 * any number of threads may read one database. The play assumed is the one
 * that minimises the expected number of rolls (a separate one, minimising
 * the rolls to the first checker off, for the gammon table; the fewest
 * expected rolls out, for the zone table). */
#ifndef SHESH_BEAROFF_H
#define SHESH_BEAROFF_H

#include <stdint.h>

#include "err.h"

#define BEAROFF_POINTS 6
#define BEAROFF_POSITIONS 54264 /* C(21, 6): 0..15 checkers on 6 points */
#define BEAROFF_ZONE_CHECKERS 8
#define BEAROFF_ZONE_POSITIONS 3003 /* C(14, 6): 0..8 checkers on 6 points */
#define BEAROFF_ROLLS 32        /* longest distribution kept (15 on the
                                   6-point need at most 30 rolls) */

typedef struct BearoffDb BearoffDb;

BearoffDb *bearoff_new(Err *err);
void bearoff_free(BearoffDb *db);

/* Index of a home board: pts[i] checkers on point i + 1, at most 15 in
 * all (the caller's duty; -1 if not). */
int bearoff_index(const uint8_t pts[BEAROFF_POINTS]);

/* P(exactly n rolls to bear off every checker), n = 0..BEAROFF_ROLLS-1. */
const float *bearoff_off(const BearoffDb *db, int index);

/* P(exactly n rolls until the first checker is off); n = 0 with
 * certainty once a checker is off already (fewer than 15 on the board). */
const float *bearoff_first(const BearoffDb *db, int index);

/* P(exactly n rolls to bring every checker out of the other side's home
 * board), for the board of pts[k] checkers k + 1 pips from leaving it (on
 * their point 19 + k), at most BEAROFF_ZONE_CHECKERS in all: its index is
 * bearoff_index(pts), below BEAROFF_ZONE_POSITIONS. */
const float *bearoff_zone(const BearoffDb *db, int index);

/* Expected number of rolls to bear everything off. */
double bearoff_mean(const BearoffDb *db, int index);

#endif
