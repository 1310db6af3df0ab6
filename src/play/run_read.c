/* run_read.c - a run read back from its .jsonl.gz (see run_read.h). jansson
 * reads the lines. */
#include "run_read.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

/* What one game may score: a star mars on the highest cube read (2^20). */
#define POINTS_MAX (4LL << 20)

/* The pair being read: kept apart until its last line, so that a pair cut
 * short is never counted. */
typedef struct Pending {
    int64_t index;      /* -1 none */
    Tally tally;
    int64_t net, games;
    int half;           /* the half being read */
    bool half_done[2];
    int score[2];       /* money: the running score after its games */
} Pending;

typedef struct Reader {
    RunRead *out;
    Pending p;
    Err *err;
    bool failed;
    long long line;     /* games read, for messages */
} Reader;

static bool fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(Reader *r, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set(r->err, "game %lld of the record: %s", r->line, msg);
    r->failed = true;
    return false;
}

static bool get_int(Reader *r, const json_t *o, const char *key, long long lo, long long hi,
                    long long *v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
        return fail(r, "\"%s\" is missing or out of range", key);
    *v = json_integer_value(x);
    return true;
}

static bool get_str(Reader *r, const json_t *o, const char *key, const char **v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_string(x))
        return fail(r, "\"%s\" is missing or not text", key);
    *v = json_string_value(x);
    return true;
}

static ScoreKind kind_named(const char *name)
{
    for (int k = SCORE_SINGLE; k <= SCORE_STAR_MARS; k++)
        if (!strcmp(name, score_kind_name((ScoreKind)k)))
            return (ScoreKind)k;
    return SCORE_NONE;
}

static bool read_counts(Reader *r, const json_t *g, RefereeGame *out)
{
    const json_t *c = json_object_get(g, "counts");
    if (!json_is_array(c) || json_array_size(c) != 2)
        return fail(r, "%s is not a list of two", "\"counts\"");
    for (int s = 0; s < 2; s++) {
        const json_t *o = json_array_get(c, (size_t)s);
        RefereeCounts *k = &out->counts[s];
        long long v[8];
        static const char *const keys[8] = {"doubles", "takes", "drops", "beavers",
                                            "raccoons", "beavers_as_takes", "resigns",
                                            "resigns_accepted"};
        for (int i = 0; i < 8; i++)
            if (!get_int(r, o, keys[i], 0, 1000000, &v[i]))
                return false;
        *k = (RefereeCounts){(int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4],
                             (int)v[5], (int)v[6], (int)v[7], 0, 0};
    }
    return true;
}

/* The run's identity from the first line; later lines must agree. */
static bool same_run(Reader *r, const json_t *g)
{
    RunRead *o = r->out;
    const json_t *names = json_object_get(g, "players");
    const char *rules = "", *seed = "";
    long long match_to = 0;
    if (!json_is_array(names) || json_array_size(names) != 2 ||
        !json_is_string(json_array_get(names, 0)) || !json_is_string(json_array_get(names, 1)))
        return fail(r, "%s is not two names", "\"players\"");
    if (!get_str(r, g, "rules", &rules) || !get_str(r, g, "seed", &seed) ||
        !get_int(r, g, "match_to", 0, 64, &match_to))
        return false;
    char *end;
    unsigned long long sd = strtoull(seed, &end, 10);
    if (*end || !*seed)
        return fail(r, "the seed '%s' is no number", seed);
    const char *n0 = json_string_value(json_array_get(names, 0)),
               *n1 = json_string_value(json_array_get(names, 1));
    if (!o->any) {
        snprintf(o->names[0], sizeof o->names[0], "%s", n0);
        snprintf(o->names[1], sizeof o->names[1], "%s", n1);
        snprintf(o->rules, sizeof o->rules, "%s", rules);
        o->match_to = (int)match_to;
        o->seed = sd;
        o->any = true;
        return true;
    }
    if (strcmp(o->names[0], n0) || strcmp(o->names[1], n1) || strcmp(o->rules, rules) ||
        o->match_to != (int)match_to || o->seed != sd)
        return fail(r, "%s is not the run of the first game (players, rules or seed)",
                    "the game");
    return true;
}

/* The pending pair is complete: count it. */
static bool pair_done(Reader *r, long long end)
{
    RunRead *o = r->out;
    Pending *p = &r->p;
    /* A run (or a shard) plays first, first + step, ...: a record with
     * other gaps is no record of one. */
    if (o->pairs >= 2 && p->index != o->first_pair + o->pairs * o->step)
        return fail(r, "pair %s breaks the run's even spacing of pairs", "index");
    Tally t = o->tally;
    if (!tally_merge(&t, &p->tally) || !tally_end_pair(&t, p->net, p->games))
        return fail(r, "%s overflow", "the sums of the run");
    o->tally = t;
    if (o->pairs == 1)
        o->step = p->index - o->first_pair;
    if (o->pairs == 0)
        o->first_pair = p->index;
    o->pairs++;
    o->last_pair = p->index;
    o->games += p->games;
    memcpy(o->score, p->score, sizeof o->score);
    o->jsonl_end = end;
    p->index = -1;
    return true;
}

static bool game_line(Reader *r, const json_t *g, long long end)
{
    RunRead *o = r->out;
    Pending *p = &r->p;
    long long pair = 0, half = 0, a_seat = 0, winner = 0, points = 0, cube = 0;
    const char *scored_name = "", *end_name = "";
    if (!json_is_object(g))
        return fail(r, "%s is not a JSON object", "the line");
    if (!same_run(r, g) || !get_int(r, g, "pair", 0, INT64_MAX, &pair) ||
        !get_int(r, g, "half", 0, 1, &half) || !get_int(r, g, "a_seat", 0, 1, &a_seat) ||
        !get_int(r, g, "winner", 0, 1, &winner) || !get_int(r, g, "points", 1, POINTS_MAX, &points) ||
        !get_int(r, g, "cube", 1, 1LL << 20, &cube) || !get_str(r, g, "scored", &scored_name) ||
        !get_str(r, g, "end", &end_name))
        return false;
    const json_t *last = json_object_get(g, "last");
    if (!json_is_boolean(last))
        return fail(r, "%s is missing", "\"last\"");
    ScoreKind scored = kind_named(scored_name);
    if (scored == SCORE_NONE)
        return fail(r, "unknown kind '%s'", scored_name);
    bool money = o->match_to == 0;
    if (p->index < 0) {
        if (half != 0)
            return fail(r, "%s starts in its second half", "a pair");
        if (o->pairs > 0 && pair <= o->last_pair)
            return fail(r, "%s comes after a later one", "a pair");
        memset(p, 0, sizeof *p);
        p->index = pair;
        memcpy(p->score, o->score, sizeof p->score);
    } else if (pair != p->index || half < p->half || (half > p->half && !p->half_done[0])) {
        return fail(r, "%s is out of order", "the game");
    }
    if (half != p->half) {
        p->half = (int)half;
    }
    if (!money && p->half_done[half])
        return fail(r, "%s comes after its match ended", "a game");
    RefereeGame rg;
    memset(&rg, 0, sizeof rg);
    rg.winner = (int)winner;
    rg.points = (int)points;
    rg.cube = (int)cube;
    rg.forfeit = !strcmp(end_name, "forfeit");
    rg.end = !strcmp(end_name, "dropped") ? PHASE_DROPPED
             : !strcmp(end_name, "over")  ? PHASE_OVER
                                          : PHASE_RESIGNED;
    if (!read_counts(r, g, &rg))
        return false;
    tally_add_game(&p->tally, &rg, (int)a_seat, scored);
    p->net += winner == 0 ? points : -points;
    p->games++;
    if (money) {
        if (p->score[winner] > INT_MAX - points)
            return fail(r, "%s overflows", "the score");
        p->score[winner] += (int)points;
    }
    if (json_is_true(last)) {
        if (!money) {
            long long score0, score1;
            const json_t *sc = json_object_get(g, "score");
            if (!json_is_array(sc) || json_array_size(sc) != 2)
                return fail(r, "%s is missing", "\"score\"");
            for (int i = 0; i < 2; i++) {
                const json_t *x = json_array_get(sc, (size_t)i);
                if (!json_is_integer(x) || json_integer_value(x) < 0 ||
                    json_integer_value(x) >= o->match_to)
                    return fail(r, "%s is out of range", "\"score\"");
            }
            score0 = json_integer_value(json_array_get(sc, 0));
            score1 = json_integer_value(json_array_get(sc, 1));
            long long s[2] = {score0, score1};
            s[winner] += points;
            tally_end_half(&p->tally, s[0] >= o->match_to ? 0 : 1);
        }
        p->half_done[half] = true;
        if (half == 1 && !pair_done(r, end))
            return false;
    }
    return true;
}

static bool on_member(void *ctx, const char *data, size_t len, long long end)
{
    Reader *r = ctx;
    r->line++;
    json_error_t je;
    json_t *g = json_loadb(data, len, 0, &je);
    if (!g) {
        err_set(r->err, "game %lld of the record is not JSON: %s", r->line, je.text);
        r->failed = true;
        return false;
    }
    bool ok = game_line(r, g, end);
    json_decref(g);
    return ok;
}

bool run_read(const char *path, RunRead *out, Err *err)
{
    memset(out, 0, sizeof *out);
    out->last_pair = -1;
    Reader r = {out, {.index = -1}, err, false, 0};
    GzStatus st = gzmember_read_members(path, on_member, &r, err);
    if (r.failed || st == GZ_BAD)
        return false;
    out->status = st;
    out->partial = r.p.index >= 0;
    /* A member per game, and the headers: the money session's one, or
     * one per match (two a pair). */
    out->mat_members = out->games + (out->match_to == 0 ? 1 : 2 * out->pairs);
    return true;
}

typedef struct MatCount {
    int64_t want, seen;
    long long end;
} MatCount;

static bool count_member(void *ctx, const char *data, size_t len, long long end)
{
    (void)data, (void)len;
    MatCount *c = ctx;
    if (c->seen == c->want)
        return false;
    c->seen++;
    c->end = end;
    return c->seen < c->want;
}

long long run_read_mat_end(const char *path, int64_t members, Err *err)
{
    MatCount c = {members, 0, 0};
    if (members == 0)
        return 0;
    GzStatus st = gzmember_read_members(path, count_member, &c, err);
    if (st == GZ_BAD)
        return -1;
    if (c.seen < members) {
        err_set(err, "'%s' holds %lld of the %lld parts its .jsonl.gz needs", path,
                (long long)c.seen, (long long)members);
        return -1;
    }
    return c.end;
}
