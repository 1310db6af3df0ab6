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

bool cli_position_operands(char *const *operands, int n, bool dice_option, Err *err)
{
    if (n < 1)
        return err_set(err, "give an ID (and DICE), or - to read them from standard input");
    if (!strcmp(operands[0], "-") && (n > 1 || dice_option))
        return err_set(err, "- reads 'ID [DICE]' lines: no other ID or roll with it");
    if (n > 2)
        return err_set(err, "one ID and its DICE at most");
    if (n == 2 && dice_option)
        return err_set(err, "the roll twice: DICE and --dice");
    return true;
}
