/* eval_static.c - dispatch of the 0-ply evaluator and helpers on the five
 * outputs (see eval_static.h). */
#include "eval_static.h"

#include "eval_contact.h"
#include "eval_net.h"
#include "eval_race.h"
#include "score.h"

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

bool eval_game_over(const Position *p, double out[OUT_COUNT])
{
    for (int winner = 0; winner < 2; winner++) {
        ScoreKind kind = score_kind(p, winner);
        if (kind == SCORE_NONE)
            continue;
        double g = kind >= SCORE_GAMMON ? 1.0 : 0.0;
        double bg = kind >= SCORE_BACKGAMMON ? 1.0 : 0.0;
        if (winner == SIDE_ROLLER) {
            out[OUT_WIN] = 1.0, out[OUT_WIN_GAMMON] = g, out[OUT_WIN_BG] = bg;
            out[OUT_LOSE_GAMMON] = out[OUT_LOSE_BG] = 0.0;
        } else {
            out[OUT_WIN] = out[OUT_WIN_GAMMON] = out[OUT_WIN_BG] = 0.0;
            out[OUT_LOSE_GAMMON] = g, out[OUT_LOSE_BG] = bg;
        }
        return true;
    }
    return false;
}

void eval_static(const EvalCtx *ctx, RaceCache *cache, const Position *p,
                 double out[OUT_COUNT])
{
    if (eval_game_over(p, out))
        return;
    if (eval_is_race(p)) {
        eval_race(ctx->bearoff, cache, p, out);
    } else if (ctx->net) {
        net_eval(ctx->net, p, out);
        eval_clamp(out);
    } else {
        eval_contact(p, out);
    }
}

void eval_invert(double out[OUT_COUNT])
{
    double win = out[OUT_WIN], wg = out[OUT_WIN_GAMMON], wbg = out[OUT_WIN_BG];
    out[OUT_WIN] = 1.0 - win;
    out[OUT_WIN_GAMMON] = out[OUT_LOSE_GAMMON];
    out[OUT_WIN_BG] = out[OUT_LOSE_BG];
    out[OUT_LOSE_GAMMON] = wg;
    out[OUT_LOSE_BG] = wbg;
}

static double clamp01(double x)
{
    return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

void eval_clamp(double out[OUT_COUNT])
{
    double win = clamp01(out[OUT_WIN]);
    double wg = clamp01(out[OUT_WIN_GAMMON]), lg = clamp01(out[OUT_LOSE_GAMMON]);
    if (wg > win)
        wg = win;
    if (lg > 1.0 - win)
        lg = 1.0 - win;
    double wbg = clamp01(out[OUT_WIN_BG]), lbg = clamp01(out[OUT_LOSE_BG]);
    out[OUT_WIN] = win;
    out[OUT_WIN_GAMMON] = wg;
    out[OUT_WIN_BG] = wbg > wg ? wg : wbg;
    out[OUT_LOSE_GAMMON] = lg;
    out[OUT_LOSE_BG] = lbg > lg ? lg : lbg;
}

double eval_money_equity(const double out[OUT_COUNT])
{
    return 2.0 * out[OUT_WIN] - 1.0 + out[OUT_WIN_GAMMON] + out[OUT_WIN_BG] -
           out[OUT_LOSE_GAMMON] - out[OUT_LOSE_BG];
}
