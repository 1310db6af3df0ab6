/* shesh_decide.c - the engine's decisions for an ID (shesh.h): the move,
 * the cube and the evaluation, each answered as `shesh hint` and `shesh
 * eval` answer them. */
#include <string.h>

#include "movetext.h"
#include "search.h"
#include "lib_status.h"

/* A question to the engine as every decision reads it from its arguments:
 * the position, cube and dice of the ID, and the scratch to use. */
typedef struct Question {
    Position p;
    CubeState cs;
    int dice[2];
    EngineScratch *sc;
    Err why; /* the engine's reason, when it refuses */
} Question;

/* What every decision checks first: the handles, the depth, the ID. */
static shesh_status start(const shesh_engine *engine, shesh_scratch *scratch, const void *out,
                          const char *id, int plies, Question *q, shesh_error *err)
{
    if (!engine || !out)
        return lib_failf(err, SHESH_ERR_ARG, "no %s (NULL)", engine ? "answer" : "engine");
    if (plies < 0 || plies > SEARCH_MAX_PLIES)
        return lib_failf(err, SHESH_ERR_ARG, "plies %d is outside 0 to %d", plies,
                          SEARCH_MAX_PLIES);
    q->sc = scratch ? scratch->scratch : NULL;
    q->why.text[0] = '\0';
    return lib_read_id(id, &q->p, &q->cs, q->dice, err);
}

/* An engine's refusal as a status: only a scratch it could not make is
 * memory; the rest is the question. */
static shesh_status engine_failed(EngineResult r, const Question *q, shesh_error *err)
{
    return lib_fail(err, r == ENGINE_NO_MEMORY ? SHESH_ERR_MEMORY : SHESH_ERR_ENGINE, &q->why);
}

shesh_status shesh_move(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                        int d1, int d2, int plies, char *move, size_t size, shesh_error *err)
{
    Question q;
    shesh_status rc = start(engine, scratch, move, id, plies, &q, err);
    if (rc != SHESH_OK)
        return rc;
    if (d1 == 0 && d2 == 0) {
        if (!q.dice[0])
            return lib_failf(err, SHESH_ERR_ARG, "no dice given, and the ID shows none");
        d1 = q.dice[0];
        d2 = q.dice[1];
    }
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
        return lib_failf(err, SHESH_ERR_ARG, "dice %d-%d: each must be 1 to 6", d1, d2);
    Move best;
    EngineResult r =
        engine_move(engine->engine, q.sc, &q.p, d1, d2, &q.cs, plies, &best, &q.why);
    char text[MOVETEXT_MAX] = "";
    if (r == ENGINE_OK)
        movetext_display(&q.p, &best, text);
    else if (r != ENGINE_NO_MOVE)
        return engine_failed(r, &q, err);
    size_t n = strlen(text);
    if (n >= size)
        return lib_failf(err, SHESH_ERR_SIZE, "the move needs %zu bytes, the buffer has %zu",
                           n + 1, size);
    memcpy(move, text, n + 1);
    return SHESH_OK;
}

/* The action in gnubg's words (as `shesh hint` names it), from the
 * engine's answers and equities. */
static shesh_cube_action action_of(const EngineCubeHint *h)
{
    if (!h->may_double)
        return SHESH_NO_DOUBLE_ALLOWED;
    if (h->action == CUBE_DOUBLE)
        return h->answer == TAKE_DROP     ? SHESH_DOUBLE_PASS
               : h->answer == TAKE_BEAVER ? SHESH_DOUBLE_BEAVER
                                          : SHESH_DOUBLE_TAKE;
    if (h->answer == TAKE_DROP && h->no_double > h->double_pass)
        return SHESH_TOO_GOOD;
    return SHESH_NO_DOUBLE;
}

shesh_status shesh_cube(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                        int plies, shesh_cube_decision *out, shesh_error *err)
{
    Question q;
    shesh_status rc = start(engine, scratch, out, id, plies, &q, err);
    if (rc != SHESH_OK)
        return rc;
    EngineCubeHint h;
    EngineResult r = engine_hint_cube(engine->engine, q.sc, &q.p, &q.cs, plies, &h, &q.why);
    if (r != ENGINE_OK)
        return engine_failed(r, &q, err);
    out->action = action_of(&h);
    out->no_double = h.no_double;
    out->double_take = h.double_take;
    out->double_pass = h.double_pass;
    return SHESH_OK;
}

shesh_status shesh_evaluate(const shesh_engine *engine, shesh_scratch *scratch, const char *id,
                            int plies, shesh_evaluation *out, shesh_error *err)
{
    Question q;
    shesh_status rc = start(engine, scratch, out, id, plies, &q, err);
    if (rc != SHESH_OK)
        return rc;
    Evaluation less, ful;
    EvalOptions opt = {.plies = plies, .cubeful = false};
    EngineResult r = engine_evaluate(engine->engine, q.sc, &q.p, &q.cs, &opt, &less, &q.why);
    opt.cubeful = true;
    if (r == ENGINE_OK)
        r = engine_evaluate(engine->engine, q.sc, &q.p, &q.cs, &opt, &ful, &q.why);
    if (r != ENGINE_OK)
        return engine_failed(r, &q, err);
    out->win = less.p_win;
    out->win_gammon = less.p_win_gammon;
    out->win_backgammon = less.p_win_bg;
    out->lose_gammon = less.p_lose_gammon;
    out->lose_backgammon = less.p_lose_bg;
    out->cubeless = less.equity;
    out->cubeful = ful.equity;
    return SHESH_OK;
}
