/* eval_static.h - the 0-ply evaluator: five probabilities for a position
 * whose player on roll (side 1) is about to roll.
 *
 * Games that are over are scored exactly; races go to eval_race.c (exact
 * bear-off database when both sides are home, a pip-based model otherwise);
 * contact positions to the TD-trained network of eval_net.c, or without one
 * to eval_contact.c (pubeval calibrated on self-play). */
#ifndef SHESH_EVAL_STATIC_H
#define SHESH_EVAL_STATIC_H

#include <stdbool.h>

#include "bearoff.h"
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

struct NetWeights;

/* What a search needs to evaluate leaves; read-only, shared by threads.
 * net: the trained contact network, or NULL for calibrated pubeval. */
typedef struct EvalCtx {
    const BearoffDb *bearoff;
    const struct NetWeights *net;
} EvalCtx;

/* cache: the caller's own RaceCache (eval_race.h), or NULL. */
struct RaceCache;
void eval_static(const EvalCtx *ctx, struct RaceCache *cache, const Position *p,
                 double out[OUT_COUNT]);

/* True when no checker of either side has an opposing checker still in
 * front of it: nobody can hit or be hit any more. */
bool eval_is_race(const Position *p);

/* If the game is over (a side has no checker left), fills out exactly and
 * returns true. */
bool eval_game_over(const Position *p, double out[OUT_COUNT]);

/* The same chances seen by the other player. */
void eval_invert(double out[OUT_COUNT]);

/* Makes the outputs consistent: each in 0..1, a backgammon at most a gammon,
 * a gammon at most the win (or loss) it belongs to. */
void eval_clamp(double out[OUT_COUNT]);

/* Cubeless money equity: 2 p - 1 plus gammons and backgammons counted once
 * more each (points per cube unit). */
double eval_money_equity(const double out[OUT_COUNT]);

#endif
