/* cli_position.c - the position and cube an ID gives (cli_position.h). */
#include "cli_position.h"

#include <string.h>

#include "id_state.h"

bool cli_read_match(const char *id, const Rules *rules, Match *m, Err *err)
{
    return id_state_match(id, rules, m, err);
}

bool cli_read_position(const char *id, const Rules *rules, Position *p, CubeState *cs,
                       int dice[2], Err *err)
{
    return id_state_position(id, rules, p, cs, dice, err);
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
