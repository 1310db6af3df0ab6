/* player_judged.c - players that only choose moves (see player_judged.h). */
#include "player_judged.h"

#include <stdlib.h>

#include "player_engine.h"

typedef struct Judged {
    JudgedPickFn pick;
    MoveList *legal; /* 240 KB: made once, with the player */
    Player *judge;
} Judged;

static PlayerStatus jp_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                            Move *m, bool *moved, Err *err)
{
    (void)cs, (void)err;
    Judged *j = pl->state;
    if (movegen_generate(p, d1, d2, j->legal) == 0) {
        *moved = false;
        return PLAYER_OK;
    }
    *m = j->legal->moves[j->pick(p, d1, d2, j->legal)];
    *moved = true;
    return PLAYER_OK;
}

static PlayerStatus jp_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                            Err *err)
{
    Judged *j = pl->state;
    return player_cube(j->judge, p, cs, out, err);
}

static PlayerStatus jp_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                            PlayerTake *out, Err *err)
{
    Judged *j = pl->state;
    return player_take(j->judge, p, cs, beavered, out, err);
}

static PlayerStatus jp_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                              bool *accept, Err *err)
{
    Judged *j = pl->state;
    return player_accept(j->judge, p, cs, level, accept, err);
}

static PlayerStatus jp_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                              Err *err)
{
    Judged *j = pl->state;
    return player_resign(j->judge, p, cs, level, err);
}

static void jp_close(Player *pl)
{
    Judged *j = pl->state;
    if (!j)
        return;
    player_close(j->judge);
    free(j->legal);
    free(j);
}

static const PlayerOps judged_ops = {
    .move = jp_move,
    .cube = jp_cube,
    .take = jp_take,
    .accept = jp_accept,
    .resign = jp_resign,
    .interrupt = NULL,
    .close = jp_close,
};

Player *player_judged_new(const char *name, JudgedPickFn pick, const Engine *judge, Err *err)
{
    Judged *j = calloc(1, sizeof *j);
    if (!j || !(j->legal = malloc(sizeof *j->legal))) {
        free(j);
        err_set(err, "out of memory for player '%.40s'", name);
        return NULL;
    }
    j->pick = pick;
    j->judge = player_engine_new(judge, 0, name, err);
    if (!j->judge) {
        free(j->legal);
        free(j);
        return NULL;
    }
    return player_new(&judged_ops, j, name, name, err);
}
