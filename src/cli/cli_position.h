/* cli_position.h - the position, cube and roll of the player to act, from
 * the ID a user gives `shesh eval` or `shesh hint`: a Position ID is a
 * money position with the cube centred and the player on roll to act; a
 * GNUBG-ID or an XGID brings its match, score, cube and dice (read through
 * the match state machine, so an inconsistent one is refused). A game that
 * is over or waits for its opening roll, or a double or resignation
 * waiting for its answer, is refused: nobody is about to roll or move. */
#ifndef SHESH_CLI_POSITION_H
#define SHESH_CLI_POSITION_H

#include <stdbool.h>

#include "cube_state.h"
#include "err.h"
#include "position.h"

/* p: seen from the player to act; dice (may be NULL): his roll, 0 0 when
 * he has not rolled. */
bool cli_read_position(const char *id, Position *p, CubeState *cs, int dice[2], Err *err);

#endif
