/* tally.c - the sums of a run (see tally.h). */
#include "tally.h"

#include <string.h>

/* How the game was scored: a backgammon counts as a gammon with
 * backgammons off, a star mars as a backgammon without the rule; a drop or
 * a forfeit is a single game. */
static ScoreKind scored_kind(const RefereeGame *g, const Rules *r)
{
    ScoreKind k = g->end == PHASE_DROPPED || g->forfeit ? SCORE_SINGLE : g->kind;
    if (k == SCORE_STAR_MARS && !r->star_mars)
        k = SCORE_BACKGAMMON;
    if (k == SCORE_BACKGAMMON && !r->backgammons)
        k = SCORE_GAMMON;
    return k;
}

static void add_counts(TallySide *s, const RefereeCounts *c)
{
    s->doubles += c->doubles;
    s->takes += c->takes;
    s->drops += c->drops;
    s->beavers += c->beavers;
    s->raccoons += c->raccoons;
    s->beavers_as_takes += c->beavers_as_takes;
    s->resigns += c->resigns;
    s->resigns_accepted += c->resigns_accepted;
    s->decisions += c->decisions;
    s->decision_us += c->decision_us;
}

static void add_game(Tally *t, const RefereeGame *g, int a_seat, const Rules *r)
{
    t->games++;
    TallySide *w = &t->side[g->winner], *l = &t->side[!g->winner];
    w->points += g->points;
    w->wins++;
    ScoreKind k = scored_kind(g, r);
    w->gammons += k == SCORE_GAMMON;
    w->backgammons += k == SCORE_BACKGAMMON;
    w->star_mars += k == SCORE_STAR_MARS;
    l->forfeits += g->forfeit;
    for (int who = 0; who < 2; who++) {
        int seat = who ^ a_seat;
        t->side[who].seat_games[seat]++;
        t->side[who].seat_points[seat] += who == g->winner ? g->points : -g->points;
        add_counts(&t->side[who], &g->counts[who]);
    }
}

bool tally_add_pair(Tally *t, const DuelPair *p, const Rules *rules)
{
    int64_t net = 0, games = 0;
    for (int h = 0; h < 2; h++) {
        const DuelHalf *half = &p->half[h];
        int n = record_games(&half->record);
        for (int i = 0; i < n; i++) {
            const RefereeGame *g = &half->games[i];
            add_game(t, g, half->a_seat, rules);
            net += g->winner == 0 ? g->points : -g->points;
            games++;
        }
        if (half->match_winner >= 0) {
            t->matches++;
            t->side[half->match_winner].matches_won++;
        }
    }
    return stats_pairs_add_games(&t->pairs, net, games);
}

static void add_side(TallySide *a, const TallySide *b)
{
    /* Every field is an int64_t: add them as an array. */
    int64_t *x = (int64_t *)(void *)a;
    const int64_t *y = (const int64_t *)(const void *)b;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        x[i] += y[i];
}

bool tally_merge(Tally *a, const Tally *b)
{
    Tally t = *a;
    if (!stats_pairs_merge(&t.pairs, &b->pairs))
        return false;
    t.games += b->games;
    t.matches += b->matches;
    for (int s = 0; s < 2; s++)
        add_side(&t.side[s], &b->side[s]);
    *a = t;
    return true;
}
