/* score.c - the kind of a win and its value under the rules (see score.h). */
#include "score.h"

/* The kind of win; bar_counts: a checker on the bar alone makes a
 * backgammon. */
static ScoreKind kind_of(const Position *p, int winner, bool bar_counts)
{
    if ((winner != 0 && winner != 1) || pos_checkers(p, winner) > 0)
        return SCORE_NONE;
    int loser = !winner;
    if (pos_checkers(p, loser) < POS_CHECKERS)
        return SCORE_SINGLE;
    /* The winner's home board is his points 1..6, which are the loser's own
     * points 19..24: indices 18..23 of the loser's array. */
    bool in_home = false;
    for (int i = 18; i < 24; i++)
        if (p->side[loser][i])
            in_home = true;
    bool on_bar = p->side[loser][POS_BAR] > 0;
    if (on_bar && in_home)
        return SCORE_STAR_MARS;
    if (in_home || (on_bar && bar_counts))
        return SCORE_BACKGAMMON;
    return SCORE_GAMMON;
}

ScoreKind score_kind_rules(const Rules *r, const Position *p, int winner)
{
    /* The home-board custom: a checker on the bar alone is no backgammon. */
    return kind_of(p, winner, r->backgammon_zone != BG_ZONE_HOME);
}

ScoreKind score_kind(const Position *p, int winner)
{
    return kind_of(p, winner, true);
}

int score_points(const Rules *r, const GameStake *s, ScoreKind kind)
{
    int mult;
    switch (kind) {
    case SCORE_SINGLE: mult = 1; break;
    case SCORE_GAMMON: mult = 2; break;
    case SCORE_BACKGAMMON: mult = r->backgammons ? 3 : 2; break;
    case SCORE_STAR_MARS: mult = r->star_mars ? 4 : r->backgammons ? 3 : 2; break;
    default: return 0;
    }
    if (score_jacoby_voids(r->jacoby, s))
        mult = 1;
    return s->cube * mult;
}

/* Gammons and backgammons count only once the cube was turned, which is
 * what makes a player double rather than play on for a gammon. */
bool score_jacoby_voids(bool jacoby, const GameStake *s)
{
    return s->money && jacoby && !s->cube_turned;
}

const char *score_kind_name(ScoreKind kind)
{
    switch (kind) {
    case SCORE_SINGLE: return "single game";
    case SCORE_GAMMON: return "gammon";
    case SCORE_BACKGAMMON: return "backgammon";
    case SCORE_STAR_MARS: return "star mars";
    default: return "no result";
    }
}
