/* eval_outputs.h - the vocabulary every evaluator shares: the five outputs
 * of an evaluation, the exact outputs of a finished game, and small helpers
 * on them. A leaf of the engine: the evaluators (eval_race, eval_contact,
 * nn) and the dispatcher above them (eval_static) all include it, and it
 * includes none of them. */
#ifndef SHESH_EVAL_OUTPUTS_H
#define SHESH_EVAL_OUTPUTS_H

#include <stdbool.h>

#include "position.h"

/* Outputs, all from the view of the player on roll, cumulative as in
 * Evaluation (a backgammon is also a gammon). */
enum {
    OUT_WIN,
    OUT_WIN_GAMMON,
    OUT_WIN_BG,
    OUT_LOSE_GAMMON,
    OUT_LOSE_BG,
    OUT_COUNT
};

/* If the game is over (a side has no checker left), fills out exactly and
 * returns true. */
bool eval_game_over(const Position *p, double out[OUT_COUNT]);

/* A side that has borne off a checker can no longer lose a gammon (nor a
 * backgammon): sets those chances to 0. An evaluator that learned them
 * from play gives them small but not nil in such positions (a contact
 * position where one side bears off while the other holds a checker back). */
void eval_settle_gammons(const Position *p, double out[OUT_COUNT]);

/* The same chances seen by the other player. */
void eval_invert(double out[OUT_COUNT]);

/* Makes the outputs consistent: each in 0..1, a backgammon at most a gammon,
 * a gammon at most the win (or loss) it belongs to. */
void eval_clamp(double out[OUT_COUNT]);

/* Cubeless money equity: 2 p - 1 plus gammons and backgammons counted once
 * more each (points per cube unit). */
double eval_money_equity(const double out[OUT_COUNT]);

#endif
