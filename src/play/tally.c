/* tally.c - the sums of a run (see tally.h). */
#include "tally.h"

#include <string.h>

#include "json.h"

const TallyField tally_side_fields[] = {
#define F(x) {#x, offsetof(TallySide, x)}
    F(points), F(wins), F(gammons), F(backgammons), F(star_mars), F(forfeits),
    F(doubles), F(takes), F(drops), F(beavers), F(raccoons), F(beavers_as_takes),
    F(resigns), F(resigns_accepted), {"seat0_games", offsetof(TallySide, seat_games)},
    {"seat1_games", offsetof(TallySide, seat_games) + sizeof(int64_t)},
    {"seat0_points", offsetof(TallySide, seat_points)},
    {"seat1_points", offsetof(TallySide, seat_points) + sizeof(int64_t)},
    F(matches_won), F(decisions), F(decision_us),
#undef F
    {NULL, 0},
};

const TallyField tally_pair_fields[] = {
    {"n", offsetof(StatsPairs, n)},
    {"sum", offsetof(StatsPairs, sum)},
    {"sum_sq", offsetof(StatsPairs, sum_sq)},
    {"games", offsetof(StatsPairs, games)},
    {"games_sq", offsetof(StatsPairs, games_sq)},
    {"cross", offsetof(StatsPairs, cross)},
    {NULL, 0},
};

int64_t *tally_field(TallySide *s, const TallyField *f)
{
    return (int64_t *)(void *)((char *)s + f->offset);
}

int64_t *tally_pairs_field(StatsPairs *p, const TallyField *f)
{
    return (int64_t *)(void *)((char *)p + f->offset);
}

void tally_write_json(Json *j, const Tally *t)
{
    Tally c = *t; /* the field helpers take non-const pointers */
    json_object_begin(j);
    json_key(j, "games");
    json_int(j, c.games);
    json_key(j, "matches");
    json_int(j, c.matches);
    json_key(j, "pairs");
    json_object_begin(j);
    for (const TallyField *f = tally_pair_fields; f->name; f++) {
        json_key(j, f->name);
        json_int(j, *tally_pairs_field(&c.pairs, f));
    }
    json_object_end(j);
    json_key(j, "sides");
    json_array_begin(j);
    for (int s = 0; s < 2; s++) {
        json_object_begin(j);
        for (const TallyField *f = tally_side_fields; f->name; f++) {
            json_key(j, f->name);
            json_int(j, *tally_field(&c.side[s], f));
        }
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

ScoreKind tally_scored_kind(const RefereeGame *g, const Rules *r)
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

void tally_add_game(Tally *t, const RefereeGame *g, int a_seat, ScoreKind k)
{
    t->games++;
    TallySide *w = &t->side[g->winner], *l = &t->side[!g->winner];
    w->points += g->points;
    w->wins++;
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

void tally_end_half(Tally *t, int match_winner)
{
    if (match_winner >= 0) {
        t->matches++;
        t->side[match_winner].matches_won++;
    }
}

bool tally_end_pair(Tally *t, int64_t net, int64_t games)
{
    return stats_pairs_add_games(&t->pairs, net, games);
}

bool tally_add_pair(Tally *t, const DuelPair *p, const Rules *rules)
{
    int64_t net = 0, games = 0;
    for (int h = 0; h < 2; h++) {
        const DuelHalf *half = &p->half[h];
        int n = record_games(&half->record);
        for (int i = 0; i < n; i++) {
            const RefereeGame *g = &half->games[i];
            tally_add_game(t, g, half->a_seat, tally_scored_kind(g, rules));
            net += g->winner == 0 ? g->points : -g->points;
            games++;
        }
        tally_end_half(t, half->match_winner);
    }
    return tally_end_pair(t, net, games);
}

static bool add_checked(int64_t *a, int64_t b)
{
    if ((b > 0 && *a > INT64_MAX - b) || (b < 0 && *a < INT64_MIN - b))
        return false;
    *a += b;
    return true;
}

static bool add_side(TallySide *a, const TallySide *b)
{
    /* Every field is an int64_t: add them as an array. */
    int64_t *x = (int64_t *)(void *)a;
    const int64_t *y = (const int64_t *)(const void *)b;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        if (!add_checked(&x[i], y[i]))
            return false;
    return true;
}

bool tally_merge(Tally *a, const Tally *b)
{
    /* Tallies read back from summaries may hold any sums: check them all. */
    Tally t = *a;
    if (!stats_pairs_merge(&t.pairs, &b->pairs) || !add_checked(&t.games, b->games) ||
        !add_checked(&t.matches, b->matches))
        return false;
    for (int s = 0; s < 2; s++)
        if (!add_side(&t.side[s], &b->side[s]))
            return false;
    *a = t;
    return true;
}
