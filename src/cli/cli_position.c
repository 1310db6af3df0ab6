/* cli_position.c - the position and cube an ID gives (cli_position.h). */
#include "cli_position.h"

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
