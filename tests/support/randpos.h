/* randpos.h - seeded random loose positions: checkers scattered over the
 * points, the bar and off, with no point held by both sides. Not positions
 * of play (randgame.h makes those): boards that no game would reach too,
 * for the tests of what must hold for every board. */
#ifndef SHESH_TEST_RANDPOS_H
#define SHESH_TEST_RANDPOS_H

#include <stdint.h>

#include "position.h"

/* Fills p from the xorshift state *s (not zero), which it moves on. */
void randpos_loose(uint64_t *s, Position *p);

#endif
