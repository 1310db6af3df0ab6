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

bool eval_race_all_home(const Position *p)
{
    for (int s = 0; s < 2; s++)
        for (int i = BEAROFF_POINTS; i < POS_SLOTS; i++)
            if (p->side[s][i])
                return false;
    return true;
}

void eval_static(const EvalCtx *ctx, RaceCache *cache, const Position *p,
                 double out[OUT_COUNT])
{
    if (eval_game_over(p, out))
        return;
    if (eval_is_race(p)) {
        if (ctx->race_net && !eval_race_all_home(p)) {
            nn_eval(ctx->race_net, p, out);
            eval_settle_gammons(p, out);
            eval_clamp(out);
        } else {
            eval_race(ctx->bearoff, cache, p, out);
        }
    } else if (ctx->net) {
        nn_eval(ctx->net, p, out);
        eval_settle_gammons(p, out);
        eval_clamp(out);
    } else {
        eval_contact(p, out);
        eval_settle_gammons(p, out);
    }
}
