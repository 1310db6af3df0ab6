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

#include <stdbool.h>
#include <stdint.h>

#include "position.h"

#define MOVE_PARTS_MAX 4
/* No valid position is known to have more distinct legal moves for one roll
 * than this (the most found by search is 2226, for 1-1). */
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
 * returns the count (0: no legal move), in generation order. Dice outside
 * 1..6 give 0. p should pass pos_valid(); any other position is still safe
 * (no crash, no out-of-bounds access) but its list may stop at MOVES_MAX
 * (with more than 15 checkers a side, more results are possible).
 * Parts of a Move beyond its `parts` are zero. Thread-safe: the scratch
 * memory (about 64 KB) lives on the caller's stack. */
int movegen_generate(const Position *p, int d1, int d2, MoveList *out);

/* Moves one checker of side 1 from index `from` (POS_BAR = bar) to `to`
 * (POS_OFF = borne off), sending a lone opposing checker there to side 0's
 * bar. Mechanics only, no dice or bear-off rules: returns false (p unchanged)
 * when from/to are out of range or to >= from, there is no checker at
 * `from`, or `to` holds two or more opposing checkers. */
bool movegen_apply_part(Position *p, int from, int to);

/* Index in l of the move whose result is `result`, or -1. */
int movegen_find(const MoveList *l, const Position *result);

/* True when exactly one legal move exists (a forced move can play itself). */
static inline int movegen_is_forced(const MoveList *l) { return l->count == 1; }

#endif
