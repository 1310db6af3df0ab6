/* cube_state.h - the cube and the score around a decision, as every layer
 * above core sees them. Sides are those of the Position (position.h):
 * 1 = the player on roll, 0 = the other one. */
#ifndef SHESH_CUBE_STATE_H
#define SHESH_CUBE_STATE_H

#include <stdbool.h>

typedef struct CubeState {
    bool cube_in_use;   /* false: no doubling at all (cubeless play) */
    int cube;           /* cube value before any pending double: 1, 2, 4, ... */
    int owner;          /* -1 centred, 0 or 1: the side that owns it */
    int max_cube;       /* doubling beyond this is not allowed */
    int match_length;   /* 0 = money */
    int score[2];       /* match score by side */
    bool crawford;      /* this game is the Crawford game */
    bool post_crawford; /* a game after the Crawford game */
    bool jacoby;        /* money: gammons count only once the cube turned */
    int beavers;        /* money: beavers allowed in a row (0 = none) */
} CubeState;

#endif
