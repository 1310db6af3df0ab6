/* cubes.c - cube states for the engine tests (see cubes.h). */
#include "cubes.h"

CubeState cubes_money(void)
{
    CubeState cs = {0};
    cs.cube_in_use = true;
    cs.cube = 1;
    cs.owner = -1;
    cs.max_cube = 64;
    return cs;
}

CubeState cubes_match(int length, int score_roller, int score_opponent)
{
    CubeState cs = cubes_money();
    cs.match_length = length;
    cs.score[SIDE_ROLLER] = score_roller;
    cs.score[SIDE_OPPONENT] = score_opponent;
    return cs;
}
