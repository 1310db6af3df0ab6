/* movegen.h - legal moves of the player on roll (side SIDE_ROLLER).
 *
 * Rules (checked against gnubg 1.07 on every row of the vectors): checkers on
 * the bar enter first; the move uses as many dice as possible, all four of a
 * double when possible; if only one die of a non-double can be played, the
 * larger one when possible; bearing off only with all checkers home and none
 * on the bar, with the exact die or a larger die from the highest occupied
 * point; a hit checker goes to the opponent's bar. Moves are distinct by
 * resulting position. */
#ifndef SHESH_MOVEGEN_H
#define SHESH_MOVEGEN_H

#include <stdint.h>

#include "position.h"

#define MOVE_PARTS_MAX 4
/* No position has more distinct legal moves for one roll than this. */
#define MOVES_MAX 4096

/* One legal move: up to four (from, to) parts in the mover's own 0-based
 * indices (from 24 = bar, to POS_OFF = borne off), in the order gnubg's
 * generator finds them (dice in the order given, then swapped; sources from
 * the bar / highest point down), so that the plain notation matches gnubg's.
 * result is the position after the move, still seen from the mover's side
 * (hit checkers sit on side[SIDE_OPPONENT][POS_BAR]). */
typedef struct Move {
    int8_t from[MOVE_PARTS_MAX];
    int8_t to[MOVE_PARTS_MAX];
    uint8_t parts;
    Position result;
} Move;

typedef struct MoveList {
    int count;
    Move moves[MOVES_MAX];
} MoveList;

/* Fills out with every legal move for dice d1, d2 (1..6 each, any order) and
 * returns the count (0: no legal move), in generation order. */
int movegen_generate(const Position *p, int d1, int d2, MoveList *out);

/* True when exactly one legal move exists (a forced move can play itself). */
static inline int movegen_is_forced(const MoveList *l) { return l->count == 1; }

#endif
