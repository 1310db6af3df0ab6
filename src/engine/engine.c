/* engine.c - the engines behind engine.h: which evaluator, which search,
 * which cube logic answers each decision.
 *
 * "default": moves by n-ply search on the static evaluator (bear-off
 * database and race model in races, the TD-trained network with contact);
 * "calibrated": the same with calibrated pubeval instead of the network.
 * Both answer cube and resignation questions the same way, from their
 * evaluator's chances through cube.c. (The yardsticks that play by pubeval
 * alone or at random are players: src/play/player_pubeval.c and
 * player_random.c.) */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bearoff.h"
#include "cube.h"
#include "eval_cache.h"
#include "eval_static.h"
#include "fnv.h"
#include "nn.h"
#include "nn_file.h"
#include "search.h"

/* A taker beavers only when the evaluator gives him at least this much
 * equity (per cube unit) holding the doubled cube: the evaluator is rough,
 * and a wrong beaver costs twice a wrong take. */
#define BEAVER_MARGIN 0.05

struct Engine {
    char id[3 * NN_ID_MAX]; /* CONTACT[+RACE][+CUBE]: the networks' ids */
    char network[17];       /* their hash (engine.h), or "" */
    BearoffDb *bearoff;
    NnWeights *net;      /* the contact network, or NULL (calibrated) */
    NnWeights *race_net; /* the race network, or NULL (the race model) */
    NnWeights *cube_net; /* the cube network, or NULL (net does its work) */
    EvalCtx eval;        /* what the moves are chosen by */
    EvalCtx cube_eval;   /* what positions are valued by (the cube, the
                            resignations, engine_evaluate): eval with
                            cube_net in net's place */
};

struct EngineScratch {
    SearchScratch search;
};

static const struct {
    const char *name;
    const char *id; /* NULL: the network's own id */
    bool net;       /* contact chances from the network */
} kinds[] = {
    {"default", NULL, true},
    {"calibrated", "shesh-cpb-1", false},
};

bool engine_known(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(name, kinds[i].name))
            return true;
    return false;
}

bool engine_has_network(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(name, kinds[i].name))
            return kinds[i].net;
    return false;
}

/* A network compiled in, into *w (made here); false (err says why) when
 * memory is short or the network is refused. */
static bool load_compiled(NnWeights **w, bool (*load)(NnWeights *, NnInfo *, Err *),
                          NnInfo *info, Err *err)
{
    if (!(*w = malloc(sizeof **w)))
        return err_set(err, "out of memory for the network");
    return load(*w, info, err);
}

/* One hash of several networks' hashes (the FNV-1a hash of their 16 hex
 * digits each, in order), and their ids joined by '+' into id. */
static uint64_t hash_of(const NnInfo *info[], int n, char *id, size_t id_size)
{
    char text[3 * 16 + 1];
    size_t at = 0, len = 0;
    id[0] = '\0';
    for (int i = 0; i < n; i++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "%016llx",
                               (unsigned long long)info[i]->hash);
        len += (size_t)snprintf(id + len, id_size - len, "%s%s", i ? "+" : "", info[i]->id);
    }
    return n == 1 ? info[0]->hash : fnv_bytes(FNV_OFFSET, text, at);
}

/* The networks of engine e: those compiled in, the file at `weights` (if
 * not NULL) taking the place of the one of its kind, contact or race. A
 * contact network from a file takes the compiled-in cube network's place
 * too: what was trained and measured as one network values the cube as it
 * chooses the moves. */
static bool load_nets(Engine *e, const char *weights, Err *err)
{
    NnWeights *file = NULL;
    NnInfo info[3] = {{{0}, 0, 0}, {{0}, 0, 0}, {{0}, 0, 0}}, given;
    if (weights) {
        if (!(file = malloc(sizeof *file)))
            return err_set(err, "out of memory for the network");
        if (!nn_file_load(weights, file, &given, err)) {
            free(file);
            return false;
        }
        e->net = file->race ? NULL : file;
        e->race_net = file->race ? file : NULL;
        info[file->race] = given;
    }
    bool contact_given = e->net != NULL;
    if (!e->net && !load_compiled(&e->net, nn_file_load_default, &info[0], err))
        return false;
    if (!e->race_net && nn_race_default_file_size > 0 &&
        !load_compiled(&e->race_net, nn_file_load_race_default, &info[1], err))
        return false;
    if (!contact_given && nn_cube_default_file_size > 0 &&
        !load_compiled(&e->cube_net, nn_file_load_cube_default, &info[2], err))
        return false;
    /* The first layer in integers: a fifth faster at 256 hidden units
     * (nn.h); engine_use_floats undoes it. */
    nn_quantize(e->net);
    if (e->race_net)
        nn_quantize(e->race_net);
    if (e->cube_net)
        nn_quantize(e->cube_net);
    /* One hash names the networks, for the records: the contact network's
     * own when it is alone. The table of values tells the two evaluators
     * apart by the hash of each one's pair. */
    const NnInfo *used[3] = {&info[0]};
    int n = 1;
    if (e->race_net)
        used[n++] = &info[1];
    char pair[sizeof e->id];
    e->eval.id = e->cube_eval.id = hash_of(used, n, pair, sizeof pair);
    if (e->cube_net) { /* the cube network, with the race network where there is one */
        const NnInfo *cube_pair[2] = {&info[2], &info[1]};
        e->cube_eval.id = hash_of(cube_pair, n, pair, sizeof pair);
        used[n++] = &info[2];
    }
    uint64_t hash = hash_of(used, n, e->id, sizeof e->id);
    snprintf(e->network, sizeof e->network, "%016llx", (unsigned long long)hash);
    return true;
}

void engine_use_floats(Engine *e)
{
    if (e->net)
        e->net->quantized = false;
    if (e->race_net)
        e->race_net->quantized = false;
    if (e->cube_net)
        e->cube_net->quantized = false;
}

Engine *engine_new(const char *name, Err *err)
{
    return engine_new_with(name, NULL, err);
}

Engine *engine_new_with(const char *name, const char *weights, Err *err)
{
    if (!name)
        name = "default";
    int kind = -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(name, kinds[i].name))
            kind = (int)i;
    if (kind < 0) {
        err_set(err, "unknown engine '%.40s' (known: default, calibrated)",
                name);
        return NULL;
    }
    if (weights && !kinds[kind].net) {
        err_set(err, "engine '%s' has no network to load weights into", name);
        return NULL;
    }
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        err_set(err, "out of memory making engine '%s'", name);
        return NULL;
    }
    if (kinds[kind].id)
        snprintf(e->id, sizeof e->id, "%s", kinds[kind].id);
    if ((kinds[kind].net && !load_nets(e, weights, err)) || !(e->bearoff = bearoff_new(err))) {
        engine_free(e);
        return NULL;
    }
    if (e->race_net)
        e->race_net->race_model = e->bearoff;
    /* The two evaluators differ in their contact network alone (and so in
     * the id load_nets gave each). */
    e->eval.net = e->net;
    e->cube_eval.net = e->cube_net ? e->cube_net : e->net;
    e->eval.race_net = e->cube_eval.race_net = e->race_net;
    e->eval.bearoff = e->cube_eval.bearoff = e->bearoff;
    if (!e->net) /* the calibrated evaluator: one of a kind */
        e->eval.id = e->cube_eval.id = fnv_bytes(FNV_OFFSET, e->id, strlen(e->id));
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    bearoff_free(e->bearoff);
    free(e->net);
    free(e->race_net);
    free(e->cube_net);
    free(e);
}

const char *engine_id(const Engine *e)
{
    return e->id;
}

const char *engine_network(const Engine *e)
{
    return e->network;
}

/* The cube state to assume when the caller gives none, or one that makes
 * no sense: money, no cube (cubeless). */
static const CubeState *cube_or_default(const CubeState *cs, CubeState *fallback)
{
    if (cs && cubestate_valid(cs, NULL))
        return cs;
    memset(fallback, 0, sizeof *fallback);
    fallback->cube = 1;
    fallback->owner = -1;
    fallback->max_cube = 1;
    return fallback;
}

static int clamp_plies(int plies)
{
    return plies < 0 ? 0 : plies > SEARCH_MAX_PLIES ? SEARCH_MAX_PLIES : plies;
}

EngineScratch *engine_scratch_new(Err *err)
{
    return engine_scratch_new_cached(EVAL_CACHE_DEFAULT_ENTRIES, err);
}

static EngineScratch *scratch_new(size_t cache_entries, EngineTable *lent, Err *err)
{
    EngineScratch *sc = malloc(sizeof *sc);
    if (!sc) {
        err_set(err, "out of memory for the engine's scratch");
        return NULL;
    }
    if (!search_scratch_init(&sc->search, cache_entries, lent, err)) {
        free(sc);
        return NULL;
    }
    return sc;
}

EngineScratch *engine_scratch_new_cached(size_t cache_entries, Err *err)
{
    return scratch_new(cache_entries, NULL, err);
}

EngineScratch *engine_scratch_new_sharing(EngineTable *t, Err *err)
{
    return scratch_new(0, t, err);
}

EngineTable *engine_table_new(int threads, Err *err)
{
    size_t n = threads < 1 ? 1 : (size_t)threads;
    EngineTable *t = eval_cache_new(n * EVAL_CACHE_DEFAULT_ENTRIES);
    if (!t)
        err_set(err, "out of memory for a table of values for %d threads", threads);
    return t;
}

void engine_table_free(EngineTable *t)
{
    eval_cache_free(t);
}

void engine_scratch_set_stop(EngineScratch *sc, const atomic_bool *stop)
{
    sc->search.stop = stop;
}

void engine_scratch_free(EngineScratch *sc)
{
    if (!sc)
        return;
    search_scratch_done(&sc->search);
    free(sc);
}

/* The scratch of one call: the caller's, or one made for this call alone
 * (*own, which the caller frees). False when that cannot be made. */
static bool call_scratch(EngineScratch **sc, EngineScratch **own, Err *err)
{
    *own = NULL;
    if (!*sc)
        *sc = *own = engine_scratch_new(err);
    return *sc != NULL;
}

/* A search by the evaluator ev (e->eval, or e->cube_eval for the cube). */
static void start_search_by(const EvalCtx *ev, EngineScratch *sc, const CubeState *cs,
                            Search *s)
{
    Utility util[2];
    for (int side = 0; side < 2; side++)
        cube_linear(cs, side == 0 ? SIDE_ROLLER : SIDE_OPPONENT, &util[side].base,
                    util[side].w);
    search_init(s, ev, util, &sc->search);
}

static void start_search(const Engine *e, EngineScratch *sc, const CubeState *cs, Search *s)
{
    start_search_by(&e->eval, sc, cs, s);
}

/* A search for the move of the player on roll: in a game with the cube the
 * root's moves are ranked by his cubeful value after them, as gnubg ranks
 * them (against gnubg 0-ply, cubeful money games at 0 ply gained about
 * 0.01 a game by it; docs/strength.md); cubeless play keeps the utility. */
static void start_move_search(const Engine *e, EngineScratch *sc, const CubeState *cs,
                              Search *s)
{
    start_search(e, sc, cs, s);
    if (cs->cube_in_use)
        s->root_cube = cs;
}

/* Cubeless chances of p (player on roll about to roll) at `plies`, by the
 * evaluator that values positions. */
static void chances(const Engine *e, EngineScratch *sc, const Position *p, const CubeState *cs,
                    int plies, double out[OUT_COUNT])
{
    Search s;
    start_search_by(&e->cube_eval, sc, cs, &s);
    search_eval(&s, p, clamp_plies(plies), 0, out);
    eval_clamp(out);
}

EngineResult engine_move(const Engine *e, EngineScratch *sc, const Position *p, int d1, int d2,
                         const CubeState *cs, int plies, Move *best, Err *err)
{
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
        err_set(err, "dice %d-%d: each die must be 1 to 6", d1, d2);
        return ENGINE_BAD_INPUT;
    }
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    /* The search's root list: its deeper levels have lists of their own. */
    MoveList *legal = sc->search.lists[0];
    movegen_generate(p, d1, d2, legal);
    int i = -1;
    EngineResult r = engine_move_among(e, sc, p, legal, cs, plies, &i, err);
    if (r == ENGINE_OK)
        *best = legal->moves[i];
    engine_scratch_free(own);
    return r;
}

EngineResult engine_move_among(const Engine *e, EngineScratch *sc, const Position *p,
                               const MoveList *legal, const CubeState *cs, int plies,
                               int *index, Err *err)
{
    if (legal->count == 0)
        return ENGINE_NO_MOVE;
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    Search s;
    start_move_search(e, sc, cs, &s);
    *index = search_move_among(&s, p, legal, clamp_plies(plies), NULL);
    engine_scratch_free(own);
    return ENGINE_OK;
}

/* The rules let the player on roll double now (a dead cube among them: a
 * player who wins the match by winning this game gains nothing by it). */
static bool may_double(const CubeState *cs)
{
    return cs && cubestate_valid(cs, NULL) && cubestate_may_double(cs, SIDE_ROLLER);
}

/* The doubler's choice from the cube equities: double when the worse of
 * double/take and double/pass (the taker chooses) is at least what not
 * doubling gives. A tie doubles: it comes from a search that sees him
 * cashing a turn later in every line (a certain race win, no gammons), and
 * waiting only risks what the horizon hides. */
static CubeDecision double_decision(const CubeEquities *eq)
{
    double dbl = eq->double_take < eq->double_pass ? eq->double_take : eq->double_pass;
    return eq->can_double && dbl >= eq->no_double ? CUBE_DOUBLE : CUBE_ROLL;
}

/* The taker's answer from the same equities (they are the doubler's: the
 * taker wants the smaller one). */
static TakeDecision take_decision(const CubeEquities *eq, const CubeState *cs)
{
    if (eq->double_take > eq->double_pass)
        return TAKE_DROP;
    if (cubestate_may_beaver(cs) && -eq->double_take > BEAVER_MARGIN)
        return TAKE_BEAVER;
    return TAKE_TAKE;
}

/* The cube equities of the player on roll at `plies`, carried through the
 * search (search_cube_equities) by the cube's evaluator; out gets the
 * cubeless chances. */
static void cube_at(const Engine *e, EngineScratch *sc, const Position *p, const CubeState *cs,
                    int plies, double out[OUT_COUNT], CubeEquities *eq)
{
    Search s;
    start_search_by(&e->cube_eval, sc, cs, &s);
    search_cube_equities(&s, p, clamp_plies(plies), cs, out, eq);
    eval_clamp(out);
}

/* His cubeful equity taking the right action: max(ND, min(DT, DP)) where he
 * may double, else ND. */
static double best_of(const CubeEquities *eq, const CubeState *cs)
{
    return may_double(cs) && double_decision(eq) == CUBE_DOUBLE
               ? (eq->double_take < eq->double_pass ? eq->double_take : eq->double_pass)
               : eq->no_double;
}

static CubeDecision double_or_roll(const Engine *e, EngineScratch *sc, const Position *p,
                                   const CubeState *cs, int plies)
{
    /* The rules first: no evaluation for a double they forbid. */
    if (!may_double(cs))
        return CUBE_ROLL;
    double out[OUT_COUNT];
    CubeEquities eq;
    cube_at(e, sc, p, cs, plies, out, &eq);
    return double_decision(&eq);
}

EngineResult engine_double(const Engine *e, EngineScratch *sc, const Position *p,
                           const CubeState *cs, int plies, CubeDecision *out, Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    *out = double_or_roll(e, sc, p, cs, plies);
    engine_scratch_free(own);
    return ENGINE_OK;
}

static TakeDecision take_or_drop(const Engine *e, EngineScratch *sc, const Position *p,
                                 const CubeState *cs, int plies)
{
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    double out[OUT_COUNT];
    CubeEquities eq;
    cube_at(e, sc, p, cs, plies, out, &eq);
    return take_decision(&eq, cs);
}

EngineResult engine_take(const Engine *e, EngineScratch *sc, const Position *p,
                         const CubeState *cs, int plies, TakeDecision *out, Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    *out = take_or_drop(e, sc, p, cs, plies);
    engine_scratch_free(own);
    return ENGINE_OK;
}

static bool accept_or_reject(const Engine *e, EngineScratch *sc, const Position *p,
                             const CubeState *cs, int level, int plies)
{
    if (level < 1)
        return false;
    if (level > 4)
        level = 4;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    double out[OUT_COUNT];
    CubeEquities eq;
    cube_at(e, sc, p, cs, plies, out, &eq);
    return cube_win_value(cs, level) >= best_of(&eq, cs) - 1e-9;
}

EngineResult engine_accept_resignation(const Engine *e, EngineScratch *sc, const Position *p,
                                       const CubeState *cs, int level, int plies, bool *accept,
                                       Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    *accept = accept_or_reject(e, sc, p, cs, level, plies);
    engine_scratch_free(own);
    return ENGINE_OK;
}

static void fill_eval(const double o[OUT_COUNT], double equity, Evaluation *ev)
{
    ev->p_win = o[OUT_WIN];
    ev->p_win_gammon = o[OUT_WIN_GAMMON];
    ev->p_win_bg = o[OUT_WIN_BG];
    ev->p_lose_gammon = o[OUT_LOSE_GAMMON];
    ev->p_lose_bg = o[OUT_LOSE_BG];
    ev->equity = equity;
}

EngineResult engine_evaluate(const Engine *e, EngineScratch *sc, const Position *p,
                             const CubeState *cs, const EvalOptions *opt, Evaluation *out,
                             Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    double o[OUT_COUNT];
    int plies = opt ? opt->plies : 0;
    if (opt && opt->cubeful) {
        CubeEquities eq;
        cube_at(e, sc, p, cs, plies, o, &eq);
        fill_eval(o, best_of(&eq, cs), out);
    } else {
        chances(e, sc, p, cs, plies, o);
        fill_eval(o, cube_cubeless(o, cs), out);
    }
    engine_scratch_free(own);
    return ENGINE_OK;
}

/* --- hints ---------------------------------------------------------------- */

EngineResult engine_hint_moves(const Engine *e, EngineScratch *sc, const Position *p, int d1,
                               int d2, const CubeState *cs, int plies, EngineCandidate *out,
                               int max, int *n, Err *err)
{
    *n = 0;
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
        err_set(err, "dice %d-%d: each die must be 1 to 6", d1, d2);
        return ENGINE_BAD_INPUT;
    }
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    Search s;
    start_move_search(e, sc, cs, &s);
    SearchCandidate *c = malloc((size_t)(max > 0 ? max : 1) * sizeof *c);
    int k = c ? search_rank(&s, p, d1, d2, clamp_plies(plies), cs, c, max) : -1;
    if (k < 0) {
        free(c);
        engine_scratch_free(own);
        err_set(err, "out of memory for the candidates");
        return ENGINE_NO_MEMORY;
    }
    for (int i = 0; i < k; i++) {
        out[i].move = c[i].move;
        out[i].plies = c[i].plies;
        eval_clamp(c[i].out);
        fill_eval(c[i].out, cube_cubeless(c[i].out, cs), &out[i].ev);
        out[i].cubeful = c[i].cubeful;
    }
    *n = k;
    free(c);
    engine_scratch_free(own);
    return ENGINE_OK;
}

EngineResult engine_hint_cube(const Engine *e, EngineScratch *sc, const Position *p,
                              const CubeState *cs, int plies, EngineCubeHint *out, Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    double o[OUT_COUNT];
    CubeEquities eq;
    cube_at(e, sc, p, cs, plies, o, &eq);
    fill_eval(o, cube_cubeless(o, cs), &out->ev);
    out->no_double = eq.no_double;
    out->double_take = eq.double_take;
    out->double_pass = eq.double_pass;
    /* The decisions engine_double and engine_take make, from these same
     * equities rather than three evaluations. */
    out->may_double = may_double(cs);
    out->action = out->may_double ? double_decision(&eq) : CUBE_ROLL;
    out->answer = take_decision(&eq, cs);
    engine_scratch_free(own);
    return ENGINE_OK;
}

_Static_assert(ENGINE_ROLLS == SEARCH_ROLLS, "the 21 rolls, in one order");

EngineResult engine_roll_choices(const Engine *e, EngineScratch *sc, const Position *p,
                                 const CubeState *cs, EngineCandidate out[ENGINE_ROLLS],
                                 Err *err)
{
    EngineScratch *own;
    if (!call_scratch(&sc, &own, err))
        return ENGINE_NO_MEMORY;
    CubeState fallback;
    cs = cube_or_default(cs, &fallback);
    Search s;
    start_search(e, sc, cs, &s);
    Position results[SEARCH_ROLLS];
    double o[SEARCH_ROLLS][OUT_COUNT];
    search_roll_picks(&s, p, results, o);
    for (int k = 0; k < SEARCH_ROLLS; k++) {
        EngineCandidate *c = &out[k];
        memset(&c->move, 0, sizeof c->move);
        c->move.result = results[k];
        c->plies = 0;
        eval_clamp(o[k]);
        fill_eval(o[k], cube_cubeless(o[k], cs), &c->ev);
        c->cubeful = search_cubeful_after(&c->move, o[k], cs);
    }
    engine_scratch_free(own);
    return ENGINE_OK;
}
