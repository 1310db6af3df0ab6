/* player.c - what every kind of player shares (see player.h): making and
 * closing one, cancellation, and the checks of an answer that need no
 * knowledge of the kind. */
#include "player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *player_status_name(PlayerStatus st)
{
    switch (st) {
    case PLAYER_OK: return "ok";
    case PLAYER_ILLEGAL: return "illegal answer";
    case PLAYER_UNREADABLE: return "unreadable answer";
    case PLAYER_TIMEOUT: return "timeout";
    case PLAYER_DISCONNECTED: return "disconnected";
    case PLAYER_NO_MEMORY: return "out of memory";
    case PLAYER_CANCELLED: return "cancelled";
    case PLAYER_BAD_QUESTION: return "bad question";
    }
    return "unknown failure";
}

Player *player_new(const PlayerOps *ops, void *state, const char *name, const char *id,
                   Err *err)
{
    Player *pl = calloc(1, sizeof *pl);
    if (!pl) {
        Player tmp = {.ops = ops, .state = state};
        ops->close(&tmp);
        err_set(err, "out of memory for player '%.40s'", name);
        return NULL;
    }
    pl->ops = ops;
    pl->state = state;
    snprintf(pl->name, sizeof pl->name, "%s", name);
    snprintf(pl->id, sizeof pl->id, "%s", id);
    atomic_init(&pl->cancel, false);
    return pl;
}

static bool cancelled(Player *pl, Err *err)
{
    if (!atomic_load(&pl->cancel))
        return false;
    err_set(err, "%s: cancelled", pl->name);
    return true;
}

PlayerStatus player_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                         Move *m, bool *moved, Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
        err_set(err, "dice %d-%d: each die must be 1 to 6", d1, d2);
        return PLAYER_BAD_QUESTION;
    }
    return pl->ops->move(pl, p, cs, d1, d2, m, moved, err);
}

PlayerStatus player_move_among(Player *pl, const Position *p, const CubeState *cs, int d1,
                               int d2, const MoveList *legal, int *index, Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    if (legal->count == 0) {
        *index = -1; /* nothing to choose */
        return PLAYER_OK;
    }
    int i = -1;
    if (pl->ops->move_among) {
        PlayerStatus st = pl->ops->move_among(pl, p, cs, legal, &i, err);
        if (st != PLAYER_OK)
            return st;
    } else {
        Move m;
        bool moved = false;
        PlayerStatus st = player_move(pl, p, cs, d1, d2, &m, &moved, err);
        if (st != PLAYER_OK)
            return st;
        if (moved)
            i = movegen_find(legal, &m.result);
    }
    if (i < 0 || i >= legal->count) {
        err_set(err, "%s: the move for %d-%d is not one of the %d legal moves", pl->name, d1, d2,
                legal->count);
        return PLAYER_ILLEGAL;
    }
    *index = i;
    return PLAYER_OK;
}

PlayerStatus player_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                         Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    PlayerCube c;
    PlayerStatus st = pl->ops->cube(pl, p, cs, &c, err);
    if (st != PLAYER_OK)
        return st;
    /* A double must be one the rules allow (cube_state.h: no cube, Crawford,
     * owner, max cube, dead cube, Holland), whoever answered. */
    if (c == PLAYER_DOUBLE &&
        (!cs || !cubestate_valid(cs, NULL) || !cubestate_may_double(cs, SIDE_ROLLER))) {
        err_set(err, "%s: doubled where the rules allow no double", pl->name);
        return PLAYER_ILLEGAL;
    }
    *out = c;
    return PLAYER_OK;
}

PlayerStatus player_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                         PlayerTake *out, Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    PlayerTake t;
    PlayerStatus st = pl->ops->take(pl, p, cs, beavered, &t, err);
    if (st != PLAYER_OK)
        return st;
    if (t == PLAYER_TAKE_NOT_BEAVER) {
        err_set(err, "%s: answered with a word of player_take's own", pl->name);
        return PLAYER_UNREADABLE;
    }
    /* A redouble on the spot must be the right one, and where the rules
     * allow none (cube_state.h: beavers off, too many in a row, the cube at
     * its maximum) it stands as a take. */
    bool redouble = t == PLAYER_BEAVER || t == PLAYER_RACCOON;
    if (redouble && (t == PLAYER_RACCOON) != beavered) {
        err_set(err, "%s: answered %s to %s", pl->name,
                t == PLAYER_BEAVER ? "a beaver" : "a raccoon",
                beavered ? "a beaver" : "a double");
        return PLAYER_ILLEGAL;
    }
    if (redouble && (!cs || !cubestate_valid(cs, NULL) || !cubestate_may_beaver(cs)))
        t = PLAYER_TAKE_NOT_BEAVER;
    *out = t;
    return PLAYER_OK;
}

PlayerStatus player_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                           bool *accept, Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    return pl->ops->accept(pl, p, cs, level, accept, err);
}

PlayerStatus player_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                           Err *err)
{
    if (cancelled(pl, err))
        return PLAYER_CANCELLED;
    int l;
    PlayerStatus st = pl->ops->resign(pl, p, cs, &l, err);
    if (st != PLAYER_OK)
        return st;
    if (l < 0 || l > 3) {
        err_set(err, "%s: offered to resign at level %d (0 to 3)", pl->name, l);
        return PLAYER_ILLEGAL;
    }
    *level = l;
    return PLAYER_OK;
}

void player_new_game(Player *pl)
{
    if (pl->ops->new_game)
        pl->ops->new_game(pl);
}

const char *player_name(const Player *pl)
{
    return pl->name;
}

const char *player_id(const Player *pl)
{
    return pl->id;
}

void player_cancel(Player *pl)
{
    atomic_store(&pl->cancel, true);
    if (pl->ops->interrupt)
        pl->ops->interrupt(pl);
}

void player_close(Player *pl)
{
    if (!pl)
        return;
    pl->ops->close(pl);
    free(pl);
}
