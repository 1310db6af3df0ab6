/* id_state.c - the state of play an ID stands for (id_state.h). */
#include "id_state.h"

#include <string.h>

#include "gnubgid.h"
#include "matchid.h"
#include "posid.h"

/* The state a GNUBG-ID or XGID gives under the rules r, with the ID's own
 * Jacoby rule, beavers and cube limit. */
static bool read_match_id(const char *id, Rules r, Match *m, Err *err)
{
    AnyId any;
    if (!gnubgid_read_any(id, &any, err))
        return false;
    /* The ID says only whether beavers are played: as many as the rules
     * allow, or one. */
    r.beavers = any.beavers ? (r.beavers > 0 ? r.beavers : 1) : 0;
    r.jacoby = any.match.match_length == 0 && any.match.jacoby;
    /* The ID's cube limit (a log2), never below the cube it shows. */
    r.max_cube = 1 << (any.max_cube > 15 ? 15 : any.max_cube < 0 ? 0 : any.max_cube);
    if (r.max_cube < any.match.cube)
        r.max_cube = any.match.cube;
    return match_from_ids(m, &r, &any.match, &any.pos, err);
}

/* Somebody is about to roll or move in m. */
static bool someone_to_act(const Match *m, Err *err)
{
    if (m->phase != PHASE_PLAYING)
        return err_set(err, "the game is %s: nobody is to roll",
                       m->phase == PHASE_OPENING ? "waiting for its opening roll" : "over");
    if (m->doubled || m->resigned)
        return err_set(err, "a %s waits for its answer: no roll is next",
                       m->doubled ? "double" : "resignation");
    return true;
}

bool id_state_match(const char *id, const Rules *rules, Match *m, Err *err)
{
    Rules r = rules ? *rules : rules_default();
    IdKind kind = gnubgid_kind(id);
    if (kind == ID_GNUBG || kind == ID_XGID)
        return read_match_id(id, r, m, err) && someone_to_act(m, err);
    /* A Position ID: a money game, cube centred, the player it shows on
     * roll (gnubg's seat 1), not yet rolled. */
    Position p;
    if (!posid_decode(id, &p, err))
        return false;
    MatchId mid;
    matchid_init(&mid);
    mid.jacoby = r.jacoby;
    return match_from_ids(m, &r, &mid, &p, err) && someone_to_act(m, err);
}

/* The position and cube of the player to act in the state an ID gives. */
bool id_state_position(const char *id, const Rules *rules, Position *p, CubeState *cs,
                       int dice[2], Err *err)
{
    Rules r = rules ? *rules : rules_default();
    IdKind kind = gnubgid_kind(id);
    if (dice)
        dice[0] = dice[1] = 0;
    if (kind != ID_GNUBG && kind != ID_XGID) {
        if (!posid_decode(id, p, err))
            return false;
        memset(cs, 0, sizeof *cs);
        cs->cube_in_use = r.cube;
        cs->cube = 1;
        cs->owner = -1;
        cs->max_cube = r.max_cube;
        cs->jacoby = r.jacoby;
        cs->beavers = r.beavers;
        cubestate_set_win_rules(cs, &r);
        return true;
    }
    Match m;
    if (!read_match_id(id, r, &m, err) || !someone_to_act(&m, err))
        return false;
    int seat = match_cube_state(&m, cs);
    match_position_of(&m, seat, p);
    if (dice) {
        dice[0] = m.dice[0];
        dice[1] = m.dice[1];
    }
    return true;
}
