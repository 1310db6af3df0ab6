/* player_engine.c - the engine as a player (see player_engine.h). The
 * scratch is allocated once here, so that no decision allocates. */
#include "player_engine.h"

#include <stdio.h>
#include <stdlib.h>

/* It offers to resign only a game whose end is certain: no chance to win
 * and no doubt left about a gammon or a backgammon, so that what it offers
 * is what playing on would cost it, and an opponent who accepts whatever he
 * is offered (gnubg 1.07's external server accepted 83 single games of 83
 * offered, 91 % gammons among them) gains nothing and loses nothing by it.
 * A gammon for a sure backgammon the rules count as one. */
#define CERTAIN 1e-9

typedef struct EnginePlayer {
    const Engine *engine;
    int plies;
    EngineScratch *scratch;
    bool own_scratch; /* made here, freed here; else lent */
} EnginePlayer;

static PlayerStatus status_of(EngineResult r)
{
    switch (r) {
    case ENGINE_OK:
    case ENGINE_NO_MOVE: return PLAYER_OK;
    case ENGINE_BAD_INPUT: return PLAYER_BAD_QUESTION;
    case ENGINE_NO_MEMORY: return PLAYER_NO_MEMORY;
    }
    return PLAYER_BAD_QUESTION;
}

static PlayerStatus ep_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                            Move *m, bool *moved, Err *err)
{
    EnginePlayer *ep = pl->state;
    Move best;
    EngineResult r = engine_move(ep->engine, ep->scratch, p, d1, d2, cs, ep->plies, &best, err);
    if (r == ENGINE_OK)
        *m = best;
    if (r == ENGINE_OK || r == ENGINE_NO_MOVE)
        *moved = r == ENGINE_OK;
    return status_of(r);
}

static PlayerStatus ep_move_among(Player *pl, const Position *p, const CubeState *cs,
                                  const MoveList *legal, int *index, Err *err)
{
    EnginePlayer *ep = pl->state;
    return status_of(
        engine_move_among(ep->engine, ep->scratch, p, legal, cs, ep->plies, index, err));
}

static PlayerStatus ep_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                            Err *err)
{
    EnginePlayer *ep = pl->state;
    CubeDecision d;
    EngineResult r = engine_double(ep->engine, ep->scratch, p, cs, ep->plies, &d, err);
    if (r == ENGINE_OK)
        *out = d == CUBE_DOUBLE ? PLAYER_DOUBLE : PLAYER_ROLL;
    return status_of(r);
}

static PlayerStatus ep_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                            PlayerTake *out, Err *err)
{
    EnginePlayer *ep = pl->state;
    TakeDecision d;
    EngineResult r = engine_take(ep->engine, ep->scratch, p, cs, ep->plies, &d, err);
    if (r == ENGINE_OK)
        *out = d == TAKE_DROP   ? PLAYER_DROP
               : d == TAKE_TAKE ? PLAYER_TAKE
               : beavered       ? PLAYER_RACCOON
                                : PLAYER_BEAVER;
    return status_of(r);
}

static PlayerStatus ep_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                              bool *accept, Err *err)
{
    EnginePlayer *ep = pl->state;
    bool yes;
    EngineResult r =
        engine_accept_resignation(ep->engine, ep->scratch, p, cs, level, ep->plies, &yes, err);
    if (r == ENGINE_OK)
        *accept = yes;
    return status_of(r);
}

static PlayerStatus ep_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                              Err *err)
{
    EnginePlayer *ep = pl->state;
    EvalOptions opt = {0, false};
    Evaluation ev;
    EngineResult r = engine_evaluate(ep->engine, ep->scratch, p, cs, &opt, &ev, err);
    if (r != ENGINE_OK)
        return status_of(r);
    bool sure_gammon = ev.p_lose_gammon >= 1 - CERTAIN, no_gammon = ev.p_lose_gammon <= CERTAIN;
    bool sure_bg = ev.p_lose_bg >= 1 - CERTAIN, no_bg = ev.p_lose_bg <= CERTAIN;
    bool settled = (sure_gammon || no_gammon) && (sure_bg || no_bg);
    *level = ev.p_win > CERTAIN || !settled ? 0 : 1 + sure_gammon + sure_bg;
    /* With backgammons off a backgammon costs a gammon: offer that. */
    if (*level > 2 && cs && cs->backgammons_off)
        *level = 2;
    return PLAYER_OK;
}

static void ep_close(Player *pl)
{
    EnginePlayer *ep = pl->state;
    if (ep && ep->own_scratch)
        engine_scratch_free(ep->scratch);
    free(ep);
}

static const PlayerOps engine_ops = {
    .move = ep_move,
    .move_among = ep_move_among,
    .cube = ep_cube,
    .take = ep_take,
    .accept = ep_accept,
    .resign = ep_resign,
    .interrupt = NULL, /* a decision takes milliseconds: it is let finish */
    .close = ep_close,
};

Player *player_engine_new(const Engine *e, int plies, const char *name, Err *err)
{
    return player_engine_new_on(e, plies, name, NULL, err);
}

Player *player_engine_new_on(const Engine *e, int plies, const char *name, EngineScratch *sc,
                             Err *err)
{
    EnginePlayer *ep = malloc(sizeof *ep);
    if (!ep) {
        err_set(err, "out of memory for an engine player");
        return NULL;
    }
    ep->engine = e;
    ep->plies = plies;
    ep->own_scratch = sc == NULL;
    ep->scratch = sc ? sc : engine_scratch_new(err);
    if (!ep->scratch) {
        free(ep);
        return NULL;
    }
    char own[48];
    if (!name) {
        snprintf(own, sizeof own, "%.40s:%d", engine_id(e), plies);
        name = own;
    }
    return player_new(&engine_ops, ep, name, engine_id(e), err);
}

void player_engine_set_stop(Player *pl, const atomic_bool *stop)
{
    EnginePlayer *ep = pl->state;
    engine_scratch_set_stop(ep->scratch, stop);
}
