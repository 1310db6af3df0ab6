/* ubgi_go.c - UBGI's position commands and go: reading a Position ID,
 * GNUBG-ID or XGID, and answering with the engine's move and cube
 * decisions in UBGI's notation, each checked against the rules first. */
#include <stdio.h>
#include <string.h>

#include "gnubgid.h"
#include "id_state.h"
#include "player_engine.h"
#include "posid.h"
#include "rules.h"
#include "ubgi.h"
#include "ubgi_session.h"

/* position gnubgid POSID[:MATCHID] | position xgid XGID */
bool ubgi_cmd_position(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    /* A refused position leaves none: answering go for the one before
     * would answer a question the controller no longer asks. */
    s->have_position = false;
    s->dice[0] = s->dice[1] = 0;
    if (t->count != 3)
        return ubgi_error(out, "bad_command", "position needs: gnubgid ID or xgid ID");
    const char *id = t->w[2];
    IdKind kind = gnubgid_kind(id);
    bool xgid = !strcmp(t->w[1], "xgid");
    if (!xgid && strcmp(t->w[1], "gnubgid"))
        return ubgi_error(out, "bad_command", "position takes gnubgid or xgid, not '%s'",
                          ubgi_quote(t->w[1], q));
    if (xgid ? kind != ID_XGID : kind != ID_POSITION && kind != ID_GNUBG)
        return ubgi_error(out, "bad_value", "'%s' is not %s", ubgi_quote(id, q),
                          xgid ? "an XGID" : "a Position ID or GNUBG-ID");
    Err err;
    Position p;
    int dice[2] = {0, 0};
    bool from_id = kind != ID_POSITION;
    if (from_id ? !id_state_position(id, NULL, &p, &s->id_cs, dice, &err)
                : !posid_decode(id, &p, &err))
        return ubgi_error(out, "bad_value", "%s", err.text);
    s->pos = p;
    s->have_position = true;
    s->cs_from_id = from_id;
    s->dice[0] = dice[0];
    s->dice[1] = dice[1];
    return true;
}

/* The cube around a bare Position ID: v0.1's context, seen from the seat on
 * roll. A score alone cannot tell the Crawford game from the games after
 * it: with the Crawford rule on, the first game with one side 1-away is
 * taken to be the Crawford game. */
static void context_cube(const UbgiSession *s, CubeState *cs)
{
    Rules r = rules_default();
    r.jacoby = s->jacoby;
    r.crawford = s->crawford;
    memset(cs, 0, sizeof *cs);
    cs->cube_in_use = true;
    cs->cube = s->cube;
    cs->owner = s->owner < 0 ? -1 : s->owner == s->turn ? SIDE_ROLLER : SIDE_OPPONENT;
    cs->max_cube = r.max_cube;
    cs->match_length = s->length;
    cs->score[SIDE_ROLLER] = s->score[s->turn];
    cs->score[SIDE_OPPONENT] = s->score[!s->turn];
    if (s->length) {
        bool away0 = s->score[0] == s->length - 1, away1 = s->score[1] == s->length - 1;
        cs->crawford = s->crawford && away0 != away1;
        cs->post_crawford = s->crawford && away0 && away1;
    }
    cs->jacoby = s->length == 0 && r.jacoby;
    cs->beavers = s->length == 0 ? r.beavers : 0;
    cubestate_set_win_rules(cs, &r);
}

static void cube_of(const UbgiSession *s, CubeState *cs)
{
    if (s->cs_from_id)
        *cs = s->id_cs;
    else
        context_cube(s, cs);
}

/* One point in UBGI's notation: 1..24, bar, off. */
static void put_point(Buf *out, int index)
{
    if (index == POS_BAR)
        buf_puts(out, "bar");
    else if (index == POS_OFF)
        buf_puts(out, "off");
    else
        buf_printf(out, "%d", index + 1);
}

/* The move: one from/to a die, blank-separated; "pass" for none. */
static void put_move(Buf *out, const Move *m)
{
    if (m->parts == 0)
        buf_puts(out, "pass");
    for (int i = 0; i < m->parts; i++) {
        if (i)
            buf_puts(out, " ");
        put_point(out, m->from[i]);
        buf_puts(out, "/");
        put_point(out, m->to[i]);
    }
}

/* The engine's move for the dice, checked against the legal moves: *m is
 * the legal move it chose (no parts when none is legal). A move that is
 * not legal is never written, since a runner would forfeit the game. */
static bool best_move(UbgiSession *s, Player *pl, const CubeState *cs, Move *m, Buf *out)
{
    int n = movegen_generate(&s->pos, s->dice[0], s->dice[1], s->legal);
    Move chosen;
    bool moved = false;
    Err err = {""};
    PlayerStatus st =
        player_move(pl, &s->pos, cs, s->dice[0], s->dice[1], &chosen, &moved, &err);
    if (st != PLAYER_OK)
        return ubgi_error(out, "bad_state", "the engine failed (%s): %s",
                          player_status_name(st), err.text);
    if (!moved) {
        if (n > 0)
            return ubgi_error(out, "bad_state",
                              "internal error: the engine passed with %d legal moves", n);
        memset(m, 0, sizeof *m);
        m->result = s->pos;
        return true;
    }
    int i = movegen_find(s->legal, &chosen.result);
    if (i < 0)
        return ubgi_error(out, "bad_state", "internal error: the engine's move is not legal");
    *m = s->legal->moves[i];
    return true;
}

/* The engine's cube decision before the roll; never a double the rules
 * forbid. */
static bool best_cube(Player *pl, const UbgiSession *s, const CubeState *cs, bool *dbl,
                      Buf *out)
{
    PlayerCube c;
    Err err = {""};
    PlayerStatus st = player_cube(pl, &s->pos, cs, &c, &err);
    if (st != PLAYER_OK)
        return ubgi_error(out, "bad_state", "the engine failed (%s): %s",
                          player_status_name(st), err.text);
    *dbl = c == PLAYER_DOUBLE && cubestate_may_double(cs, SIDE_ROLLER);
    return true;
}

typedef enum GoKind { GO_CHEQUER, GO_CUBE, GO_TURN } GoKind;

static bool read_kind(const char *w, GoKind *k)
{
    if (!strcmp(w, "chequer") || !strcmp(w, "checker"))
        return *k = GO_CHEQUER, true;
    if (!strcmp(w, "cube"))
        return *k = GO_CUBE, true;
    if (!strcmp(w, "turn"))
        return *k = GO_TURN, true;
    return false;
}

/* go [chequer|cube|turn] [movetime MS] [depth N], or v0.1's
 * go role chequer|cube|turn [movetime MS] [depth N]. movetime is read and
 * ignored (decisions are at a fixed depth); depth is engine.ply for this
 * one answer. */
bool ubgi_cmd_go(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    GoKind kind = GO_CHEQUER;
    int i = 1;
    bool v01 = t->count > 1 && !strcmp(t->w[1], "role");
    if (v01) {
        if (t->count < 3 || !read_kind(t->w[2], &kind))
            return ubgi_error(out, "bad_command", "go role needs chequer, cube or turn");
        i = 3;
    } else if (t->count > 1 && read_kind(t->w[1], &kind)) {
        i = 2;
    }
    int depth = s->ply;
    for (; i < t->count; i += 2) {
        const char *k = t->w[i];
        if (strcmp(k, "movetime") && strcmp(k, "depth"))
            return ubgi_error(out, "bad_command", "go has no option '%s'", ubgi_quote(k, q));
        int v = -1;
        const char *w = i + 1 < t->count ? t->w[i + 1] : "";
        size_t n = strlen(w);
        if (n > 0 && n <= 9 && strspn(w, "0123456789") == n)
            sscanf(w, "%d", &v);
        if (v < 0 || (!strcmp(k, "depth") && (v < UBGI_PLY_MIN || v > UBGI_PLY_MAX)))
            return ubgi_error(out, "bad_value", "%s cannot be '%s'%s", k, ubgi_quote(w, q),
                              strcmp(k, "depth") ? "" : " (depth is 1..5)");
        if (!strcmp(k, "depth"))
            depth = v;
    }
    if (!s->have_position)
        return ubgi_error(out, "bad_state", "no position: send position first");
    if (kind != GO_CUBE && !s->dice[0])
        return ubgi_error(out, "bad_state", "no dice: send dice first");

    Player *pl = s->player, *own = NULL;
    if (depth != s->ply) {
        Err err;
        if (!(own = pl = player_engine_new(s->engine, depth - 1, NULL, &err)))
            return ubgi_error(out, "bad_state", "%s", err.text);
    }
    CubeState cs;
    cube_of(s, &cs);
    Move m;
    bool dbl = false, ok = true;
    if (kind != GO_CHEQUER) {
        s->cube_play = true;
        ok = best_cube(pl, s, &cs, &dbl, out);
    }
    /* A chequer move in what may be a cubeless game (UbgiSession.cube_play;
     * a GNUBG-ID or XGID brings its cube): chosen by the cubeless equity,
     * as the engine chooses in one. */
    CubeState move_cs = cs;
    if (!s->cube_play && !s->cs_from_id)
        move_cs.cube_in_use = false;
    if (ok && kind != GO_CUBE && !dbl)
        ok = best_move(s, pl, &move_cs, &m, out);
    player_close(own);
    if (!ok)
        return false;
    if (kind == GO_CUBE) {
        buf_printf(out, "bestcube %s\n", dbl ? "double" : "nodouble");
    } else if (kind == GO_TURN) {
        buf_printf(out, "bestturn cube=%s move=", dbl ? "double" : "nodouble");
        if (dbl)
            buf_puts(out, "none");
        else
            put_move(out, &m);
        buf_puts(out, "\n");
    } else if (v01) {
        char id[POSID_LEN + 1];
        posid_encode(&m.result, id);
        buf_printf(out, "bestmoveid %s\n", id);
    } else {
        buf_puts(out, "bestmove ");
        put_move(out, &m);
        buf_puts(out, "\n");
    }
    return true;
}
