/* referee.c - one refereed game (see referee.h). */
#include "referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "matchid.h"
#include "splitmix.h"

void referee_dice_init(RefereeDice *d, uint64_t seed, uint64_t pair, int game)
{
    /* Each input goes through the mixer before the next is added, so
     * nearby seeds, pairs and games give unrelated streams. */
    uint64_t s = seed;
    s = splitmix64(&s) ^ pair;
    s = splitmix64(&s) ^ (uint64_t)(unsigned)game;
    d->state = splitmix64(&s);
}

int referee_die(RefereeDice *d)
{
    /* Values at or above the largest multiple of 6 are drawn again: they
     * would make the low faces a little likelier. */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % 6;
    uint64_t v;
    do
        v = splitmix64(&d->state);
    while (v >= limit);
    return (int)(v % 6) + 1;
}

struct Referee {
    MoveList moves;
};

Referee *referee_new(Err *err)
{
    Referee *ref = malloc(sizeof *ref);
    if (!ref)
        err_set(err, "out of memory for the referee");
    return ref;
}

void referee_free(Referee *ref)
{
    free(ref);
}

/* Far longer than any real game (a few hundred events): only players that
 * never finish could get here. */
#define MAX_EVENTS 20000

/* One game in progress. */
typedef struct Game {
    Referee *ref;
    Match *m;
    Player *const *players;
    int a_seat;
    Record *rec;
    RefereeGame *out;
    Err *err;
} Game;

/* Who seat s is: A (0) or B (1). */
static int who(const Game *g, int seat)
{
    return seat ^ g->a_seat;
}

/* The question for the player to act: the cube around his decision and the
 * board from the side match_cube_state puts on roll. Returns that seat. */
static int question(const Game *g, CubeState *cs, Position *p)
{
    int seat = match_cube_state(g->m, cs);
    match_position_of(g->m, seat, p);
    return seat;
}

static void timed(Game *g, int id, double since)
{
    RefereeCounts *c = &g->out->counts[id];
    c->decisions++;
    c->decision_us += (int64_t)((clock_now() - since) * 1e6 + 0.5);
}

/* A refusal of the record or the match: our bug, not the players'. */
static RefereeStatus broken(Game *g, const char *what, const Err *why)
{
    err_set(g->err, "referee: %s: %s", what, why->text);
    return REFEREE_ERROR;
}

/* The player in `seat` failed to answer (st, why): he forfeits the game,
 * unless he was cancelled. */
static RefereeStatus failed(Game *g, int seat, PlayerStatus st, const Err *why)
{
    if (st == PLAYER_CANCELLED) {
        err_set(g->err, "%s", why->text);
        return REFEREE_CANCELLED;
    }
    RefereeFault *f = &g->out->fault;
    f->player = who(g, seat);
    f->status = st;
    snprintf(f->what, sizeof f->what, "%s", why->text);
    MatchId id;
    Position pos;
    Err e = {{0}};
    if (!match_to_ids(g->m, &id, &pos, &e) || !gnubgid_encode(&pos, &id, f->gnubgid, &e))
        snprintf(f->gnubgid, sizeof f->gnubgid, "?");
    g->out->forfeit = true;
    if (!match_forfeit(g->m, seat, &e))
        return broken(g, "forfeit", &e);
    if (!record_forfeit(g->rec, f->player, &e))
        return broken(g, "record of a forfeit", &e);
    return REFEREE_OK;
}

/* The player to act answers the double, beaver or raccoon waiting. */
static RefereeStatus answer_double(Game *g)
{
    CubeState cs;
    Position p;
    int doubler = question(g, &cs, &p);
    int seat = !doubler, id = who(g, seat);
    PlayerTake t;
    Err why = {{0}};
    double t0 = clock_now();
    PlayerStatus st = player_take(g->players[id], &p, &cs, g->m->animals > 0, &t, &why);
    timed(g, id, t0);
    if (st != PLAYER_OK)
        return failed(g, seat, st, &why);
    RefereeCounts *c = &g->out->counts[id];
    Err e = {{0}};
    switch (t) {
    case PLAYER_TAKE_NOT_BEAVER:
    case PLAYER_TAKE:
        /* A beaver the rules do not allow stands as a take. */
        c->beavers_as_takes += t == PLAYER_TAKE_NOT_BEAVER;
        c->takes++;
        if (!match_take(g->m, &e) || !record_take(g->rec, id, &e))
            return broken(g, "take", &e);
        return REFEREE_OK;
    case PLAYER_DROP:
        c->drops++;
        if (!match_drop(g->m, &e) || !record_drop(g->rec, id, &e))
            return broken(g, "drop", &e);
        return REFEREE_OK;
    case PLAYER_BEAVER:
    case PLAYER_RACCOON:
        if (t == PLAYER_BEAVER)
            c->beavers++;
        else
            c->raccoons++;
        if (!match_beaver(g->m, &e))
            return failed(g, seat, PLAYER_ILLEGAL, &e);
        /* match_beaver doubled the cube and left the redouble pending. */
        if (!record_beaver(g->rec, id, 2 * g->m->cube, &e))
            return broken(g, "beaver", &e);
        return REFEREE_OK;
    }
    return broken(g, "take", &(Err){"an answer of no known kind"});
}

/* The player offered resigned->level; the player to act accepts or not. */
static RefereeStatus answer_resignation(Game *g)
{
    CubeState cs;
    Position p;
    int seat = question(g, &cs, &p), id = who(g, seat);
    bool yes;
    Err why = {{0}};
    double t0 = clock_now();
    PlayerStatus st = player_accept(g->players[id], &p, &cs, g->m->resigned, &yes, &why);
    timed(g, id, t0);
    if (st != PLAYER_OK)
        return failed(g, seat, st, &why);
    Err e = {{0}};
    if (yes) {
        g->out->counts[!id].resigns_accepted++;
        if (!match_accept(g->m, &e) || !record_accept(g->rec, id, &e))
            return broken(g, "acceptance", &e);
    } else if (!match_reject(g->m, &e) || !record_reject(g->rec, id, &e)) {
        return broken(g, "rejection", &e);
    }
    return REFEREE_OK;
}

/* Before rolling: the player may resign, then double (each asked once a
 * turn). *acted: he did one of them. */
static RefereeStatus before_roll(Game *g, bool *asked_resign, bool *asked_cube, bool *acted)
{
    unsigned can = match_actions(g->m);
    CubeState cs;
    Position p;
    int seat = question(g, &cs, &p), id = who(g, seat);
    Err why = {{0}}, e = {{0}};
    *acted = false;
    if (!*asked_resign && (can & ACT_RESIGN)) {
        *asked_resign = true;
        int level;
        double t0 = clock_now();
        PlayerStatus st = player_resign(g->players[id], &p, &cs, &level, &why);
        timed(g, id, t0);
        if (st != PLAYER_OK)
            return failed(g, seat, st, &why);
        /* Offering again what was just rejected is playing on. */
        if (level > g->m->resign_declined) {
            g->out->counts[id].resigns++;
            if (!match_resign(g->m, level, &e) || !record_resign(g->rec, id, level, &e))
                return broken(g, "resignation", &e);
            *acted = true;
            return REFEREE_OK;
        }
    }
    if (!*asked_cube && (can & ACT_DOUBLE)) {
        *asked_cube = true;
        PlayerCube c;
        double t0 = clock_now();
        PlayerStatus st = player_cube(g->players[id], &p, &cs, &c, &why);
        timed(g, id, t0);
        if (st != PLAYER_OK)
            return failed(g, seat, st, &why);
        if (c == PLAYER_DOUBLE) {
            if (!match_double(g->m, &e))
                return failed(g, seat, PLAYER_ILLEGAL, &e);
            g->out->counts[id].doubles++;
            if (!record_double(g->rec, id, 2 * g->m->cube, &e))
                return broken(g, "double", &e);
            *acted = true;
        }
    }
    return REFEREE_OK;
}

/* A closed-out player under CLOSED_OUT_NO_ROLL passes without dice. */
static RefereeStatus skip(Game *g)
{
    int id = who(g, g->m->on_roll);
    Err e = {{0}};
    g->out->turns++;
    if (!match_pass(g->m, &e) || !record_skip(g->rec, id, &e))
        return broken(g, "closed-out pass", &e);
    return REFEREE_OK;
}

static RefereeStatus roll(Game *g, RefereeDice *dice)
{
    int d1 = referee_die(dice), d2 = referee_die(dice), id = who(g, g->m->on_roll);
    Err e = {{0}};
    if (!match_roll(g->m, d1, d2, &e) || !record_roll(g->rec, id, d1, d2, &e))
        return broken(g, "roll", &e);
    return REFEREE_OK;
}

/* After the roll: a pass, the forced move, or the player's move. */
static RefereeStatus play_roll(Game *g)
{
    int seat = g->m->on_roll, id = who(g, seat);
    Position before;
    match_position(g->m, &before);
    Err e = {{0}};
    g->out->turns++;
    if (g->m->legal_moves == 0) {
        if (!match_pass(g->m, &e) || !record_pass(g->rec, id, &e))
            return broken(g, "pass", &e);
        return REFEREE_OK;
    }
    if (match_forced(g->m)) {
        if (match_legal_moves(g->m, &g->ref->moves) != 1)
            return broken(g, "forced move", &(Err){"the legal moves changed"});
        Move only = g->ref->moves.moves[0];
        if (!match_move(g->m, &only.result, &e) || !record_move(g->rec, id, &before, &only, &e))
            return broken(g, "forced move", &e);
        return REFEREE_OK;
    }
    CubeState cs;
    Position p;
    question(g, &cs, &p);
    Move mv;
    bool moved = false;
    Err why = {{0}};
    double t0 = clock_now();
    PlayerStatus st = player_move(g->players[id], &p, &cs, g->m->dice[0], g->m->dice[1], &mv,
                                  &moved, &why);
    timed(g, id, t0);
    if (st != PLAYER_OK)
        return failed(g, seat, st, &why);
    if (!moved) {
        err_set(&why, "%s: no move for %d-%d, which has %d legal ones",
                player_name(g->players[id]), g->m->dice[0], g->m->dice[1],
                g->m->legal_moves);
        return failed(g, seat, PLAYER_ILLEGAL, &why);
    }
    if (!match_move(g->m, &mv.result, &e)) {
        err_set(&why, "%s: %s", player_name(g->players[id]), e.text);
        return failed(g, seat, PLAYER_ILLEGAL, &why);
    }
    if (!record_move(g->rec, id, &before, &mv, &e))
        return broken(g, "move", &e);
    return REFEREE_OK;
}

static bool game_on(const Match *m)
{
    return m->phase == PHASE_OPENING || m->phase == PHASE_PLAYING;
}

RefereeStatus referee_play_game(Referee *ref, Match *m, Player *const players[2], int a_seat,
                                RefereeDice *dice, Record *rec, RefereeGame *out, Err *err)
{
    memset(out, 0, sizeof *out);
    out->fault.player = -1;
    Game g = {ref, m, players, a_seat & 1, rec, out, err};
    Err e = {{0}};
    if (!game_on(m))
        return broken(&g, "new game", &(Err){"no game is waiting to be played"});
    if (!record_game_start(rec, &e))
        return broken(&g, "new game", &e);
    for (int i = 0; i < 2; i++)
        player_new_game(players[i]);
    bool asked_resign = false, asked_cube = false;
    RefereeStatus st = REFEREE_OK;
    for (int events = 0; st == REFEREE_OK && game_on(m); events++) {
        if (events == MAX_EVENTS)
            return broken(&g, "game", &(Err){"longer than any real game"});
        if (m->phase == PHASE_OPENING) {
            int d[2] = {referee_die(dice), referee_die(dice)};
            if (!match_opening_roll(m, d[0], d[1], &e) ||
                !record_opening_roll(rec, d[a_seat & 1], d[!(a_seat & 1)], &e))
                return broken(&g, "opening roll", &e);
            continue;
        }
        if (m->doubled) {
            st = answer_double(&g);
            continue;
        }
        if (m->resigned) {
            st = answer_resignation(&g);
            continue;
        }
        bool closed_out = match_closed_out(m);
        if (closed_out || (match_actions(m) & ACT_ROLL)) {
            bool acted;
            st = before_roll(&g, &asked_resign, &asked_cube, &acted);
            if (st != REFEREE_OK || acted || !game_on(m))
                continue;
            if (!closed_out) {
                st = roll(&g, dice);
                continue;
            }
            st = skip(&g);
            asked_resign = asked_cube = false;
            continue;
        }
        st = play_roll(&g);
        asked_resign = asked_cube = false; /* the next player's turn */
    }
    if (st != REFEREE_OK)
        return st;
    out->winner = who(&g, m->winner);
    out->points = m->points;
    out->kind = m->result;
    out->end = m->phase;
    out->cube = m->cube;
    if (!record_game_end(rec, out->winner, out->points, &e))
        return broken(&g, "game end", &e);
    return REFEREE_OK;
}
