/* record_jsonl.c - a game as a line of JSON (see record_jsonl.h). */
#include "record_jsonl.h"

#include <stdio.h>

#include "json.h"

static const char *action_name(RecordKind k)
{
    switch (k) {
    case REC_OPENING: return "opening";
    case REC_ROLL: return "roll";
    case REC_MOVE: return "move";
    case REC_PASS: return "pass";
    case REC_SKIP: return "closed out";
    case REC_DOUBLE: return "double";
    case REC_TAKE: return "take";
    case REC_DROP: return "drop";
    case REC_BEAVER: return "beaver";
    case REC_RACCOON: return "raccoon";
    case REC_RESIGN: return "resign";
    case REC_ACCEPT: return "accept";
    case REC_REJECT: return "reject";
    case REC_FORFEIT: return "forfeit";
    }
    return "?";
}

static const char *end_name(const RefereeGame *g)
{
    if (g->forfeit)
        return "forfeit";
    switch (g->end) {
    case PHASE_DROPPED: return "dropped";
    case PHASE_RESIGNED: return "resigned";
    default: return "over";
    }
}

static void int_pair(Json *j, const char *key, int a, int b)
{
    json_key(j, key);
    json_array_begin(j);
    json_int(j, a);
    json_int(j, b);
    json_array_end(j);
}

static void event(Json *j, const RecordEvent *e)
{
    json_object_begin(j);
    if (e->kind != REC_OPENING) {
        json_key(j, "player");
        json_int(j, e->player);
    }
    json_key(j, "action");
    json_str(j, action_name(e->kind));
    switch (e->kind) {
    case REC_OPENING:
    case REC_ROLL:
    case REC_PASS: int_pair(j, "dice", e->dice[0], e->dice[1]); break;
    case REC_MOVE:
        int_pair(j, "dice", e->dice[0], e->dice[1]);
        if (e->posid[0]) {
            json_key(j, "position");
            json_str(j, e->posid);
        }
        json_key(j, "move");
        json_str(j, e->move);
        break;
    case REC_DOUBLE:
    case REC_BEAVER:
    case REC_RACCOON:
        json_key(j, "cube");
        json_int(j, e->value);
        break;
    case REC_RESIGN:
        json_key(j, "level");
        json_int(j, e->value);
        break;
    default: break;
    }
    json_object_end(j);
}

/* The counts a record keeps: everything but the times. */
static void counts(Json *j, const RefereeCounts *c)
{
    json_object_begin(j);
#define C(x)                                                                                 \
    json_key(j, #x);                                                                         \
    json_int(j, c->x)
    C(doubles);
    C(takes);
    C(drops);
    C(beavers);
    C(raccoons);
    C(beavers_as_takes);
    C(resigns);
    C(resigns_accepted);
#undef C
    json_object_end(j);
}

void record_jsonl_game(const Record *r, int game, const RefereeGame *g,
                       const RecordJsonlPlace *at, Buf *out)
{
    const RecordGame *rg = record_game(r, game);
    const RecordEvent *e = record_game_events(r, game);
    char rules[256];
    rules_describe(&r->rules, r->length, rules, sizeof rules);
    Json j;
    json_begin(&j, out);
    json_object_begin(&j);
    json_key(&j, "pair");
    json_int(&j, at->pair);
    json_key(&j, "half");
    json_int(&j, at->half);
    json_key(&j, "game");
    json_int(&j, at->number);
    json_key(&j, "players");
    json_array_begin(&j);
    json_str(&j, r->names[0]);
    json_str(&j, r->names[1]);
    json_array_end(&j);
    json_key(&j, "a_seat");
    json_int(&j, at->a_seat);
    json_key(&j, "match_to");
    json_int(&j, r->length);
    json_key(&j, "rules");
    json_str(&j, rules);
    int_pair(&j, "score", at->score[0], at->score[1]);
    json_key(&j, "events");
    json_array_begin(&j);
    for (size_t i = 0; i < rg->events; i++)
        event(&j, &e[i]);
    json_array_end(&j);
    json_key(&j, "winner");
    json_int(&j, g->winner);
    json_key(&j, "points");
    json_int(&j, g->points);
    json_key(&j, "kind");
    json_str(&j, score_kind_name(g->kind));
    json_key(&j, "scored");
    json_str(&j, score_kind_name(at->scored));
    json_key(&j, "end");
    json_str(&j, end_name(g));
    json_key(&j, "cube");
    json_int(&j, g->cube);
    json_key(&j, "last");
    json_bool(&j, at->last);
    /* As text: JSON readers keep integers above 2^53 badly. */
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)at->seed);
    json_key(&j, "seed");
    json_str(&j, seed);
    json_key(&j, "counts");
    json_array_begin(&j);
    counts(&j, &g->counts[0]);
    counts(&j, &g->counts[1]);
    json_array_end(&j);
    if (g->forfeit) {
        json_key(&j, "fault");
        json_object_begin(&j);
        json_key(&j, "player");
        json_int(&j, g->fault.player);
        json_key(&j, "status");
        json_str(&j, player_status_name(g->fault.status));
        json_key(&j, "position");
        json_str(&j, g->fault.gnubgid);
        json_key(&j, "what");
        json_str(&j, g->fault.what);
        json_object_end(&j);
    }
    json_object_end(&j);
    buf_puts(out, "\n");
}
