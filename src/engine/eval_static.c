/* eval_static.c - dispatch of the 0-ply evaluator (see eval_static.h). */
#include "eval_static.h"

#include <math.h>

#include "eval_contact.h"
#include "eval_race.h"
#include "nn.h"

bool eval_is_race(const Position *p)
{
    /* Farthest-back checker of each side, in its own numbering (bar = 24). */
    int back[2] = {-1, -1};
    for (int s = 0; s < 2; s++)
        for (int i = POS_BAR; i >= 0; i--)
            if (p->side[s][i]) {
                back[s] = i;
                break;
            }
    if (back[0] < 0 || back[1] < 0)
        return true;
    /* Side 1's index i is side 0's 23 - i: they are past each other when
     * side 1's last checker is in front of side 0's last one. */
    return back[1] < 23 - back[0];
}

/* Every checker of both sides on its own six home points or borne off. */
static bool all_home(const Position *p)
{
    for (int s = 0; s < 2; s++)
        for (int i = BEAROFF_POINTS; i < POS_SLOTS; i++)
            if (p->side[s][i])
                return false;
    return true;
}

bool eval_race_outside(const Position *p)
{
    return eval_is_race(p) && !all_home(p);
}

bool eval_network_values(bool race, const Position *p)
{
    return race ? eval_race_outside(p) : !eval_is_race(p);
}

/* A chance the race model puts this near 0 or 1 it is sure of; one it
 * leaves open the network may not close (player_engine.c offers to resign
 * only a game whose every chance is sure, at the same 1e-9). */
#define RACE_SURE 1e-9
#define RACE_OPEN 1e-6

/* A race by the race network, which refines what the race model leaves
 * open and never overrides what it is sure of or has exactly: a race that
 * cannot be lost, a gammon that can no longer be saved, a backgammon the
 * tables give (the winner all home, a few checkers of the loser's in his
 * home board) keep the model's value, every other chance is kept off 0
 * and 1. So the engine is sure of a race's end where the model is, and
 * only there: a network learns from rollouts, where a gammon saved one
 * time in a thousand may never be seen, and the backgammons of the last
 * rolls turn on single dice a network of pips and points misjudges. */
static void race_by_network(const EvalCtx *ctx, RaceCache *cache, const Position *p,
                            double out[OUT_COUNT])
{
    double model[OUT_COUNT];
    bool exact[OUT_COUNT];
    if (nn_feature_count(ctx->race_net) == NN_FEATURES) { /* race-234 */
        RaceSideModel sides[2];
        eval_race_model(ctx->bearoff, cache, p, model, exact, sides);
        nn_eval_race(ctx->race_net, p, sides, out);
    } else {
        eval_race(ctx->bearoff, cache, p, model, exact);
        nn_eval(ctx->race_net, p, out);
    }
    eval_settle_gammons(p, out);
    /* An exact backgammon bounds the network's other chances: it is a
     * gammon, and no win for the side that suffers it. */
    if (exact[OUT_WIN_BG]) {
        out[OUT_WIN_GAMMON] = fmax(out[OUT_WIN_GAMMON], model[OUT_WIN_BG]);
        out[OUT_WIN] = fmax(out[OUT_WIN], model[OUT_WIN_BG]);
    }
    if (exact[OUT_LOSE_BG]) {
        out[OUT_LOSE_GAMMON] = fmax(out[OUT_LOSE_GAMMON], model[OUT_LOSE_BG]);
        out[OUT_WIN] = fmin(out[OUT_WIN], 1 - model[OUT_LOSE_BG]);
    }
    for (int k = 0; k < OUT_COUNT; k++) {
        if (exact[k] || model[k] <= RACE_SURE || model[k] >= 1 - RACE_SURE)
            out[k] = model[k];
        else if (out[k] < RACE_OPEN)
            out[k] = RACE_OPEN;
        else if (out[k] > 1 - RACE_OPEN)
            out[k] = 1 - RACE_OPEN;
    }
    eval_clamp(out);
}

void eval_static(const EvalCtx *ctx, RaceCache *cache, const Position *p,
                 double out[OUT_COUNT])
{
    if (eval_game_over(p, out))
        return;
    if (eval_is_race(p)) {
        if (ctx->race_net && !all_home(p))
            race_by_network(ctx, cache, p, out);
        else
            eval_race(ctx->bearoff, cache, p, out, NULL);
    } else if (ctx->net) {
        nn_eval(ctx->net, p, out);
        eval_settle_gammons(p, out);
        eval_clamp(out);
    } else {
        eval_contact(p, out);
        eval_settle_gammons(p, out);
    }
}
