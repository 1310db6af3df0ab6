/* cubes.h - the cube states the engine tests decide under. */
#ifndef SHESH_TEST_CUBES_H
#define SHESH_TEST_CUBES_H

#include "engine.h"

/* Money play: centred 1-cube, cube up to 64, no Jacoby, no beavers. */
CubeState cubes_money(void);

/* The same in a match of `length` points at the score given by side. */
CubeState cubes_match(int length, int score_roller, int score_opponent);

#endif
