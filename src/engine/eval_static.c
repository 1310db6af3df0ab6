/* eval_static.c - dispatch of the 0-ply evaluator (see eval_static.h). */
#include "eval_static.h"

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
 * open and never overrides what it is sure of: a race that cannot be lost,
 * a gammon that can no longer be saved keep the model's value, every other
 * chance is kept off 0 and 1. So the engine is sure of a race's end where
 * the model is, and only there: a network learns from rollouts, where a
 * gammon saved one time in a thousand may never be seen. */
static void race_by_network(const EvalCtx *ctx, RaceCache *cache, const Position *p,
                            double out[OUT_COUNT])
{
    double model[OUT_COUNT];
    eval_race(ctx->bearoff, cache, p, model);
    nn_eval(ctx->race_net, p, out);
    eval_settle_gammons(p, out);
    for (int k = 0; k < OUT_COUNT; k++) {
        if (model[k] <= RACE_SURE || model[k] >= 1 - RACE_SURE)
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
            eval_race(ctx->bearoff, cache, p, out);
    } else if (ctx->net) {
        nn_eval(ctx->net, p, out);
        eval_settle_gammons(p, out);
        eval_clamp(out);
    } else {
        eval_contact(p, out);
        eval_settle_gammons(p, out);
    }
}
