/* cli_position.h - the position, cube and roll of the player to act, from
 * the ID a user gives `shesh eval` or `shesh hint`: a Position ID is a
 * money position with the cube centred and the player on roll to act; a
 * GNUBG-ID or an XGID brings its match, score, cube and dice (read through
 * the match state machine, so an inconsistent one is refused). A game that
 * is over or waits for its opening roll, or a double or resignation
 * waiting for its answer, is refused: nobody is about to roll or move.
 * The reading itself is id_state.h, shared with the UBGI protocol. */
#ifndef SHESH_CLI_POSITION_H
#define SHESH_CLI_POSITION_H

#include <stdbool.h>

#include "cube_state.h"
#include "answer_json.h" /* answer_read_dice, answer_cube_owner: the roll and cube of an ID */
#include "err.h"
#include "match.h"
#include "position.h"

/* p: seen from the player to act; dice (may be NULL): his roll, 0 0 when
 * he has not rolled. rules (NULL: the standard ones) are the user's: a
 * Position ID is played by them alone; a GNUBG-ID or XGID brings its own
 * Jacoby rule, beavers (on or off) and cube limit, the rest from rules. */
bool cli_read_position(const char *id, const Rules *rules, Position *p, CubeState *cs,
                       int dice[2], Err *err);

/* The whole state an ID gives, for what plays the game on (`shesh
 * rollout`): the same IDs, rules and refusals as cli_read_position, a
 * Position ID being a money game with its player on roll. */
bool cli_read_match(const char *id, const Rules *rules, Match *m, Err *err);

/* The operands of a command that takes 'ID [DICE]' or -, the argc - optind
 * words at operands: false with the reason when they are not one of those.
 * dice_option: the command's --dice was given (a second roll beside DICE,
 * or beside -, which reads its rolls from the lines); false where the
 * command has none. */
bool cli_position_operands(char *const *operands, int n, bool dice_option, Err *err);

#endif
