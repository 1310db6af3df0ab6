/* id_state.h - the state of play an ID a user or a controller gives stands
 * for: a Position ID is a money position with the cube centred and the
 * player on roll to act; a GNUBG-ID or an XGID brings its match, score,
 * cube and dice (read through the match state machine, so an inconsistent
 * one is refused). A game that is over or waits for its opening roll, or a
 * double or resignation waiting for its answer, is refused: nobody is about
 * to roll or move. Shared by the command line (`shesh eval`, `hint`,
 * `rollout`) and the UBGI protocol, so that both read IDs alike. */
#ifndef SHESH_ID_STATE_H
#define SHESH_ID_STATE_H

#include <stdbool.h>

#include "cube_state.h"
#include "err.h"
#include "match.h"
#include "position.h"
#include "rules.h"

/* p: seen from the player to act; dice (may be NULL): his roll, 0 0 when
 * he has not rolled. rules (NULL: the standard ones) are the caller's: a
 * Position ID is played by them alone; a GNUBG-ID or XGID brings its own
 * Jacoby rule, beavers (on or off) and cube limit, the rest from rules. */
bool id_state_position(const char *id, const Rules *rules, Position *p, CubeState *cs,
                       int dice[2], Err *err);

/* The whole state an ID gives, for what plays the game on: the same IDs,
 * rules and refusals as id_state_position, a Position ID being a money game
 * with its player on roll. */
bool id_state_match(const char *id, const Rules *rules, Match *m, Err *err);

#endif
