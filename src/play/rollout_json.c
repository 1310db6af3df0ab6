/* rollout_json.c - a rollout's report from its JSON (rollout_json.h). */
#include "rollout_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

const char *const rollout_value_names[ROLLOUT_VALUES] = {
    "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "cubeless",
    "cubeful",
};

static bool get_int(const json_t *o, const char *key, long long lo, long long hi,
                    long long *out, Err *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        return err_set(err, "\"%s\" is missing or not a whole number", key);
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return err_set(err, "\"%s\" is %lld, outside %lld..%lld", key, x, lo, hi);
    *out = x;
    return true;
}

static bool get_small(const json_t *o, const char *key, int lo, int hi, int *out, Err *err)
{
    long long x = 0;
    if (!get_int(o, key, lo, hi, &x, err))
        return false;
    *out = (int)x;
    return true;
}

static bool get_bool(const json_t *o, const char *key, bool *out, Err *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v))
        return err_set(err, "\"%s\" is missing or not true or false", key);
    *out = json_is_true(v);
    return true;
}

static bool get_str(const json_t *o, const char *key, char *out, size_t size, Err *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return err_set(err, "\"%s\" is missing or not a string", key);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n >= size || memchr(s, '\0', n))
        return err_set(err, "\"%s\" is too long or holds a NUL", key);
    memcpy(out, s, n + 1);
    return true;
}

/* A pair of whole numbers [A, B] (each small). */
static bool get_pair(const json_t *o, const char *key, int lo, int hi, int out[2], Err *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_array(v) || json_array_size(v) != 2)
        return err_set(err, "\"%s\" is not a list of two", key);
    for (size_t i = 0; i < 2; i++) {
        const json_t *x = json_array_get(v, i);
        if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
            return err_set(err, "\"%s\" holds a bad number", key);
        out[i] = (int)json_integer_value(x);
    }
    return true;
}

/* "sums": {"win": ["SUM", "SUM_OF_SQUARES"], ...}: every value the mode
 * has (no "cubeful" in a cubeless rollout), "trials" the count. */
static bool get_sums(const json_t *o, bool cubeful, RolloutSums *s, Err *err)
{
    const json_t *sums = json_object_get(o, "sums");
    if (!json_is_object(sums))
        return err_set(err, "\"sums\" is missing or not an object");
    rollout_sums_init(s);
    long long n;
    if (!get_int(sums, "trials", 0, INT64_MAX, &n, err))
        return false;
    s->trials = n;
    for (int k = 0; k < ROLLOUT_VALUES; k++) {
        const json_t *v = json_object_get(sums, rollout_value_names[k]);
        if (k == ROLLOUT_CUBEFUL && !cubeful) {
            if (v)
                return err_set(err, "a cubeless rollout with cubeful sums");
            continue;
        }
        if (!json_is_array(v) || json_array_size(v) != 2 ||
            !json_is_string(json_array_get(v, 0)) || !json_is_string(json_array_get(v, 1)))
            return err_set(err, "sums \"%s\" is not a list of two numbers in strings",
                           rollout_value_names[k]);
        if (!rollout_wide_read(json_string_value(json_array_get(v, 0)), &s->sum[k], err) ||
            !rollout_wide_read(json_string_value(json_array_get(v, 1)), &s->sum_sq[k], err))
            return false;
        if (s->sum_sq[k] < 0)
            return err_set(err, "sums \"%s\": a sum of squares is negative",
                           rollout_value_names[k]);
    }
    return true;
}

static int by_rank(const void *a, const void *b)
{
    const RolloutReportMove *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static bool get_moves(const json_t *o, RolloutReport *r, Err *err)
{
    const json_t *moves = json_object_get(o, "moves");
    if (!json_is_array(moves) || json_array_size(moves) < 1 ||
        json_array_size(moves) > ROLLOUT_MOVES_MAX)
        return err_set(err, "\"moves\" is not a list of 1 to %d", ROLLOUT_MOVES_MAX);
    r->count = (int)json_array_size(moves);
    for (int i = 0; i < r->count; i++) {
        const json_t *m = json_array_get(moves, (size_t)i);
        RolloutReportMove *rm = &r->moves[i];
        if (!json_is_object(m))
            return err_set(err, "a move is not an object");
        if (!get_small(m, "rank", 1, ROLLOUT_MOVES_MAX, &rm->rank, err) ||
            !get_str(m, "move", rm->move, sizeof rm->move, err) ||
            !get_str(m, "position", rm->position, sizeof rm->position, err) ||
            !get_sums(m, r->cubeful, &rm->sums, err))
            return false;
    }
    /* Printed best first; kept in the engine's order. */
    qsort(r->moves, (size_t)r->count, sizeof r->moves[0], by_rank);
    for (int i = 0; i < r->count; i++)
        if (r->moves[i].rank != i + 1)
            return err_set(err, "the moves' ranks are not 1 to %d", r->count);
    return true;
}

static bool get_report(const json_t *o, RolloutReport *r, Err *err)
{
    memset(r, 0, sizeof *r);
    long long seed, trials;
    const char *mode;
    char owner[16], kind[32];
    if (!get_str(o, "input", r->input, sizeof r->input, err) ||
        !get_str(o, "rules", r->rules, sizeof r->rules, err) ||
        !get_small(o, "plies", 0, 64, &r->plies, err) ||
        (json_object_get(o, "engine") && !get_str(o, "engine", r->engine, sizeof r->engine, err)) ||
        (json_object_get(o, "network") &&
         !get_str(o, "network", r->network, sizeof r->network, err)) ||
        !get_small(o, "match_to", 0, 64, &r->match_to, err) ||
        !get_small(o, "cube", 1, 1 << 30, &r->cube, err) ||
        !get_str(o, "cube_owner", owner, sizeof owner, err) ||
        !get_str(o, "equity_kind", kind, sizeof kind, err))
        return false;
    if (!strcmp(owner, "centred"))
        r->cube_owner = -1;
    else if (!strcmp(owner, "player"))
        r->cube_owner = 1;
    else if (!strcmp(owner, "opponent"))
        r->cube_owner = 0;
    else
        return err_set(err, "\"cube_owner\" is not centred, player or opponent");
    if (strcmp(kind, r->match_to ? "match_winning_chance" : "money"))
        return err_set(err, "\"equity_kind\" does not fit \"match_to\"");
    if (r->match_to && !get_pair(o, "score", 0, 63, r->score, err))
        return false;
    const json_t *m = json_object_get(o, "mode");
    if (!json_is_string(m))
        return err_set(err, "\"mode\" is missing");
    mode = json_string_value(m);
    if (strcmp(mode, "cubeful") && strcmp(mode, "cubeless"))
        return err_set(err, "\"mode\" is not cubeful or cubeless");
    r->cubeful = !strcmp(mode, "cubeful");
    if (!get_int(o, "trials", 0, INT64_MAX, &trials, err) ||
        !get_int(o, "seed", 0, INT64_MAX, &seed, err) ||
        !get_small(o, "truncate", 0, ROLLOUT_MAX_TURNS, &r->truncate, err) ||
        !get_bool(o, "variance_reduction", &r->vr, err) ||
        !get_bool(o, "interrupted", &r->interrupted, err))
        return false;
    r->trials = trials;
    r->seed = (uint64_t)seed;
    r->shard[0] = r->shard[1] = 1;
    if (json_object_get(o, "shard") && !get_pair(o, "shard", 1, 1 << 30, r->shard, err))
        return false;
    if (json_object_get(o, "dice")) {
        if (!get_pair(o, "dice", 1, 6, r->dice, err) || !get_moves(o, r, err))
            return false;
    } else {
        r->count = 1;
        if (!get_sums(o, r->cubeful, &r->moves[0].sums, err))
            return false;
    }
    return rollout_report_valid(r, err);
}

RolloutLine rollout_json_read(const char *text, size_t len, RolloutReport *out,
                              char message[ROLLOUT_MESSAGE_MAX], Err *err)
{
    json_error_t je;
    json_t *o = json_loadb(text, len, 0, &je);
    if (!o) {
        err_set(err, "not JSON: %.120s", je.text);
        return ROLLOUT_LINE_BAD;
    }
    RolloutLine kind = ROLLOUT_LINE_BAD;
    RolloutReport r;
    if (!json_is_object(o)) {
        err_set(err, "not a JSON object");
    } else if (json_object_get(o, "error")) {
        memset(&r, 0, sizeof r);
        /* A line of standard input refused as a line has no "input". */
        bool input = !json_object_get(o, "input") ||
                     get_str(o, "input", r.input, sizeof r.input, err);
        if (input && get_str(o, "error", message, ROLLOUT_MESSAGE_MAX, err)) {
            *out = r;
            kind = ROLLOUT_LINE_ERROR;
        }
    } else if (get_report(o, &r, err)) {
        *out = r;
        kind = ROLLOUT_LINE_REPORT;
    }
    json_decref(o);
    return kind;
}
