/* cli_position.c - the position and cube an ID gives (cli_position.h). */
#include "cli_position.h"

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

bool cli_read_match(const char *id, const Rules *rules, Match *m, Err *err)
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
bool cli_read_position(const char *id, const Rules *rules, Position *p, CubeState *cs,
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

bool cli_read_dice(const char *s, int dice[2], Err *err)
{
    size_t n = strlen(s);
    bool ok = (n == 2 || (n == 3 && s[1] == '-')) && s[0] >= '1' && s[0] <= '6' &&
              s[n - 1] >= '1' && s[n - 1] <= '6';
    if (!ok)
        return err_set(err, "bad dice '%.20s': two dice 1 to 6, as 31 or 3-1", s);
    dice[0] = s[0] - '0';
    dice[1] = s[n - 1] - '0';
    return true;
}

const char *cli_cube_owner(const CubeState *cs)
{
    return cs->owner < 0 ? "centred" : cs->owner == SIDE_ROLLER ? "player" : "opponent";
}

void cli_json_position(Json *j, const char *id, int plies, const CubeState *cs)
{
    json_key(j, "input");
    json_str(j, id);
    json_key(j, "plies");
    json_int(j, plies);
    json_key(j, "match_to");
    json_int(j, cs->match_length);
    json_key(j, "cube");
    json_int(j, cs->cube);
    json_key(j, "cube_owner");
    json_str(j, cli_cube_owner(cs));
}

void cli_json_chances(Json *j, const Evaluation *e)
{
    static const char *const keys[5] = {"win", "win_gammon", "win_backgammon", "lose_gammon",
                                        "lose_backgammon"};
    const double v[5] = {e->p_win, e->p_win_gammon, e->p_win_bg, e->p_lose_gammon,
                         e->p_lose_bg};
    for (int i = 0; i < 5; i++) {
        json_key(j, keys[i]);
        json_num(j, v[i]);
    }
}
