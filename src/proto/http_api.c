/* http_api.c - the HTTP API's routes (http_api.h). Each route reads its
 * parameters strictly (an unknown or repeated one is refused: a typo must
 * not silently give the default), asks the engine, and writes the JSON the
 * matching command writes. */
#include "http_api.h"

#include <stdio.h>
#include <string.h>

#include "answer_json.h"
#include "id_fields.h"
#include "id_state.h"
#include "json.h"
#include "num.h"
#include "proto_worker.h"
#include "search.h"
#include "version.h"

/* The longest ID taken: an XGID is about 60 characters. */
#define ID_MAX 128

/* What a route may read: a parameter's name, and where its value goes. */
typedef struct Params {
    const char *id, *dice, *plies, *max;
} Params;

typedef struct Route {
    const char *path;
    const char *allowed[4]; /* the parameters it takes, NULL-ended */
    int (*answer)(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body);
    bool cheap;
} Route;

static int refuse(Buf *body, int status, const char *message)
{
    buf_clear(body);
    json_error(body, NULL, message);
    return status;
}

static int refuse_err(Buf *body, const Err *err)
{
    return refuse(body, HTTP_API_BAD_REQUEST, err->text);
}

/* The id parameter, present and of a sane length. */
static bool need_id(const Params *p, Err *err)
{
    if (!p->id || !p->id[0])
        return err_set(err, "missing parameter 'id': a Position ID, GNUBG-ID or XGID");
    if (strlen(p->id) > ID_MAX)
        return err_set(err, "parameter 'id' is longer than %d characters", ID_MAX);
    return true;
}

/* plies: the server's depth unless asked, never above its --max-plies. */
static bool read_plies(const ProtoConfig *cfg, const Params *p, int *plies, Err *err)
{
    *plies = cfg->plies < cfg->max_plies ? cfg->plies : cfg->max_plies;
    return !p->plies || num_int("plies", p->plies, 0, cfg->max_plies, plies, err);
}

static bool no_engine(const ProtoConfig *cfg, ProtoWorker *w, Err *err)
{
    if (!cfg->engine || !w || !w->scratch)
        return !err_set(err, "this server has no engine");
    return false;
}

/* The position of an ID for the engine, with the roll: the ID's own unless
 * the dice parameter gives one (as `shesh hint ID DICE`). */
static bool read_position(const Params *p, Position *pos, CubeState *cs, int dice[2], Err *err)
{
    if (!need_id(p, err) || !id_state_position(p->id, NULL, pos, cs, dice, err))
        return false;
    return !p->dice || answer_read_dice(p->dice, dice, err);
}

static int route_move(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    Err err = {{0}};
    Position pos;
    CubeState cs;
    int dice[2], plies, max = 10, n;
    if (!read_position(p, &pos, &cs, dice, &err) || !read_plies(cfg, p, &plies, &err) ||
        (p->max && !num_int("max", p->max, 1, ANSWER_MOVES_MAX, &max, &err)))
        return refuse_err(body, &err);
    if (!dice[0])
        return refuse(body, HTTP_API_BAD_REQUEST,
                      "no roll: give dice (as 31), or an ID that holds one; /v1/cube answers "
                      "the cube decision before the roll");
    if (no_engine(cfg, w, &err))
        return refuse(body, HTTP_API_UNAVAILABLE, err.text);
    if (engine_hint_moves(cfg->engine, w->scratch, &pos, dice[0], dice[1], &cs, plies, w->cands,
                          max, &n, &err) != ENGINE_OK)
        return refuse_err(body, &err);
    answer_json_hint_moves(body, p->id, &pos, &cs, dice, plies, w->cands, n);
    return HTTP_API_OK;
}

/* What /v1/cube and /v1/eval read: the position before the roll and the
 * depth; 0, or the status of the refusal written to body. */
static int read_before_roll(const ProtoConfig *cfg, ProtoWorker *w, const Params *p,
                            Position *pos, CubeState *cs, int *plies, Buf *body)
{
    Err err = {{0}};
    if (!need_id(p, &err) || !id_state_position(p->id, NULL, pos, cs, NULL, &err) ||
        !read_plies(cfg, p, plies, &err))
        return refuse_err(body, &err);
    if (no_engine(cfg, w, &err))
        return refuse(body, HTTP_API_UNAVAILABLE, err.text);
    return 0;
}

static int route_cube(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    Err err = {{0}};
    Position pos;
    CubeState cs;
    int plies, refused;
    EngineCubeHint h;
    if ((refused = read_before_roll(cfg, w, p, &pos, &cs, &plies, body)))
        return refused;
    if (engine_hint_cube(cfg->engine, w->scratch, &pos, &cs, plies, &h, &err) != ENGINE_OK)
        return refuse_err(body, &err);
    answer_json_hint_cube(body, p->id, &cs, plies, &h);
    return HTTP_API_OK;
}

static int route_eval(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    Err err = {{0}};
    Position pos;
    CubeState cs;
    int plies, refused;
    if ((refused = read_before_roll(cfg, w, p, &pos, &cs, &plies, body)))
        return refused;
    EvalOptions less = {plies, false}, ful = {plies, true};
    Evaluation cubeless, cubeful;
    if (engine_evaluate(cfg->engine, w->scratch, &pos, &cs, &less, &cubeless, &err) != ENGINE_OK ||
        engine_evaluate(cfg->engine, w->scratch, &pos, &cs, &ful, &cubeful, &err) != ENGINE_OK)
        return refuse_err(body, &err);
    answer_json_eval(body, p->id, &cs, plies, &cubeless, &cubeful);
    return HTTP_API_OK;
}

static int route_moves(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    (void)cfg;
    Err err = {{0}};
    Position pos;
    int dice[2];
    bool has_dice;
    if (!need_id(p, &err) || !answer_read_board(p->id, &pos, dice, &has_dice, &err) ||
        (p->dice && !answer_read_dice(p->dice, dice, &err)))
        return refuse_err(body, &err);
    if (!p->dice && !has_dice)
        return refuse(body, HTTP_API_BAD_REQUEST, "no roll: give dice (as 31), or an ID that "
                                                  "holds one");
    movegen_generate(&pos, dice[0], dice[1], w->legal);
    answer_rank_moves(w->legal, w->ranked);
    answer_json_moves(body, &pos, dice[0], dice[1], w->legal, w->ranked);
    return HTTP_API_OK;
}

static int route_id(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    (void)cfg;
    Err err = {{0}};
    if (!need_id(p, &err) || !gnubgid_read_any(p->id, &w->item.id, &err))
        return refuse_err(body, &err);
    w->item.kind = id_fields_kind_key(w->item.id.kind);
    id_fields_describe(&w->item, w->fields);
    Json j;
    json_begin(&j, body);
    json_object_begin(&j);
    json_key(&j, "input");
    json_str(&j, p->id);
    id_fields_json(&j, w->fields);
    json_object_end(&j);
    return HTTP_API_OK;
}

static int route_health(const ProtoConfig *cfg, ProtoWorker *w, const Params *p, Buf *body)
{
    (void)w, (void)p;
    Json j;
    json_begin(&j, body);
    json_object_begin(&j);
    json_key(&j, "status");
    json_str(&j, "ok");
    json_key(&j, "engine");
    json_str(&j, cfg->engine ? engine_id(cfg->engine) : "none");
    json_key(&j, "software");
    json_str(&j, "shesh");
    json_key(&j, "version");
    json_str(&j, SHESH_VERSION);
    json_key(&j, "plies");
    json_int(&j, cfg->plies < cfg->max_plies ? cfg->plies : cfg->max_plies);
    json_key(&j, "max_plies");
    json_int(&j, cfg->max_plies);
    json_object_end(&j);
    return HTTP_API_OK;
}

static const Route routes[] = {
    {"/v1/move", {"id", "dice", "plies", "max"}, route_move, false},
    {"/v1/cube", {"id", "plies", NULL}, route_cube, false},
    {"/v1/eval", {"id", "plies", NULL}, route_eval, false},
    {"/v1/moves", {"id", "dice", NULL}, route_moves, false},
    {"/v1/id", {"id", NULL}, route_id, true},
    {"/v1/health", {NULL}, route_health, true},
};

static const Route *find_route(const char *path)
{
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (!strcmp(routes[i].path, path))
            return &routes[i];
    return NULL;
}

static bool is_get(const char *method)
{
    return !strcmp(method, "GET") || !strcmp(method, "HEAD");
}

bool http_api_is_cheap(const char *method, const char *path)
{
    const Route *r = find_route(path);
    return !r || r->cheap || !is_get(method);
}

/* Where parameter key goes in p, if the route takes it. */
static const char **slot(Params *p, const Route *r, const char *key)
{
    for (int i = 0; i < 4 && r->allowed[i]; i++) {
        if (strcmp(r->allowed[i], key))
            continue;
        return !strcmp(key, "id") ? &p->id : !strcmp(key, "dice") ? &p->dice
               : !strcmp(key, "plies")                           ? &p->plies
                                                                 : &p->max;
    }
    return NULL;
}

int http_api_answer(const ProtoConfig *cfg, ProtoWorker *w, const char *method,
                    const char *path, const HttpArg *args, size_t n_args, Buf *body)
{
    const Route *r = find_route(path);
    if (!r)
        return refuse(body, HTTP_API_NOT_FOUND,
                      "no such path: try /v1/move, /v1/cube, /v1/eval, /v1/moves, /v1/id or "
                      "/v1/health");
    if (!is_get(method))
        return refuse(body, HTTP_API_METHOD, "only GET (and HEAD) are answered");
    if (n_args > HTTP_API_ARGS_MAX)
        return refuse(body, HTTP_API_BAD_REQUEST, "too many parameters");
    Params p = {NULL, NULL, NULL, NULL};
    for (size_t i = 0; i < n_args; i++) {
        const char **to = slot(&p, r, args[i].key);
        char msg[128];
        if (!to) {
            snprintf(msg, sizeof msg, "unknown parameter '%.40s' for %s", args[i].key, r->path);
            return refuse(body, HTTP_API_BAD_REQUEST, msg);
        }
        if (*to) {
            snprintf(msg, sizeof msg, "parameter '%s' given twice", args[i].key);
            return refuse(body, HTTP_API_BAD_REQUEST, msg);
        }
        *to = args[i].value ? args[i].value : "";
    }
    buf_clear(body);
    return r->answer(cfg, w, &p, body);
}
