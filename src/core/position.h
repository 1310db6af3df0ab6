/* position.h - a backgammon position in gnubg's layout.
 *
 * side[SIDE_ROLLER] belongs to the player on roll (the side that has to act),
 * side[SIDE_OPPONENT] to the other player. Index 0..23 is that player's OWN
 * point 1..24 (point 1 deepest in his home board), index 24 (POS_BAR) his bar.
 * Borne-off checkers are implicit: 15 minus the checkers on the board.
 * Point i of one side is point 23 - i of the other. */
#ifndef SHESH_POSITION_H
#define SHESH_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"

#define POS_SLOTS 25
#define POS_BAR 24
#define POS_OFF (-1)    /* destination index of a checker borne off */
#define POS_CHECKERS 15 /* checkers per side */

enum { SIDE_OPPONENT = 0, SIDE_ROLLER = 1 };

typedef struct Position {
    uint8_t side[2][POS_SLOTS];
} Position;

/* The starting position (both sides). */
void pos_start(Position *p);

/* Exchanges the two sides: what the next player to act sees. */
void pos_swap(Position *p);

bool pos_equal(const Position *a, const Position *b);

/* Checkers of one side still on the board, bar included. */
int pos_checkers(const Position *p, int side);

/* The points of a side's slots holding at least n checkers (1 to 255):
 * bit i for point index i, 0 to 23 (the bar left out). */
uint32_t pos_points_holding(const uint8_t side[POS_SLOTS], int n);

/* Pip count of one side (bar counts 25). */
int pos_pips(const Position *p, int side);

/* The checks gnubg makes before accepting a position: at most 15 checkers a
 * side, never both sides on one point, and not both sides on the bar while
 * both home boards are closed (nobody could ever move). */
bool pos_valid(const Position *p, Err *err);

#endif
