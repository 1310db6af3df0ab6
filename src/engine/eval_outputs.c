/* eval_outputs.c - the five outputs: exact values of a finished game and
 * the helpers every evaluator shares (see eval_outputs.h). */
#include "eval_outputs.h"

#include "score.h"

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

void eval_settle_gammons(const Position *p, double out[OUT_COUNT])
{
    if (pos_checkers(p, SIDE_ROLLER) < POS_CHECKERS)
        out[OUT_LOSE_GAMMON] = out[OUT_LOSE_BG] = 0.0;
    if (pos_checkers(p, SIDE_OPPONENT) < POS_CHECKERS)
        out[OUT_WIN_GAMMON] = out[OUT_WIN_BG] = 0.0;
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
