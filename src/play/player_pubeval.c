/* player_pubeval.c - pubeval's move (see player_pubeval.h). */
#include "player_pubeval.h"

#include "eval_static.h"
#include "player_judged.h"
#include "pubeval.h"

/* The first of the best scores wins, as the yardstick always played. */
static int pick_pubeval(const Position *p, int d1, int d2, const MoveList *legal)
{
    (void)d1, (void)d2;
    bool race = eval_is_race(p);
    int best = 0;
    double top = 0.0;
    for (int i = 0; i < legal->count; i++) {
        double v = pubeval_score(&legal->moves[i].result, race);
        if (i == 0 || v > top)
            top = v, best = i;
    }
    return best;
}

Player *player_pubeval_new(const Engine *judge, Err *err)
{
    return player_judged_new("pubeval", pick_pubeval, judge, err);
}
