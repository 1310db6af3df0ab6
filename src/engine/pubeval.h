/* pubeval.h - Tesauro's public-domain linear evaluator ("pubeval"), the
 * standard yardstick of backgammon programs.
 *
 * It scores a position right AFTER a move, seen by the side that just moved
 * (side[SIDE_ROLLER] of the Move.result a movegen list holds): higher is
 * better for the mover. The score is a raw linear sum, not a probability;
 * eval_contact.c maps it to chances. `race` selects the race weights and,
 * as in the original, must describe the position BEFORE the move. */
#ifndef SHESH_PUBEVAL_H
#define SHESH_PUBEVAL_H

#include <stdbool.h>

#include "position.h"

/* Returned when the mover has borne off every checker (the original's
 * "best possible move"). */
#define PUBEVAL_ALL_OFF 99999999.0

#define PUBEVAL_INPUTS 122

double pubeval_score(const Position *after, bool race);

/* The 122 inputs of the original encoding (for tests and calibration). */
void pubeval_inputs(const Position *after, double x[PUBEVAL_INPUTS]);

#endif
