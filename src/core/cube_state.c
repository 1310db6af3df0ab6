/* cube_state.c - the rules of the cube, asked of a CubeState (see
 * cube_state.h). */
#include "cube_state.h"

bool cubestate_fits(const CubeState *cs, long value)
{
    return value <= cs->max_cube;
}

bool cubestate_dead(const CubeState *cs, int side)
{
    return cs->match_length > 0 && (side == 0 || side == 1) &&
           cs->score[side] + cs->cube >= cs->match_length;
}

/* The trailer is the side not one point from winning: after the Crawford
 * game the leader is 1-away and his cube is dead anyway. */
bool cubestate_holland_bars(const CubeState *cs, int side)
{
    return cs->holland && cs->match_length > 0 && cs->post_crawford && (side == 0 || side == 1) &&
           cs->score[side] < cs->match_length - 1 && cs->turns[side] < 2;
}

unsigned cubestate_double_bars(const CubeState *cs, int side)
{
    unsigned bars = 0;
    if (!cs->cube_in_use)
        bars |= CUBE_BAR_NO_CUBE;
    if (cs->crawford)
        bars |= CUBE_BAR_CRAWFORD;
    if (cs->owner != -1 && cs->owner != side)
        bars |= CUBE_BAR_OWNER;
    /* A cube below 1 is no cube a double can come from. */
    if (cs->cube < 1 || !cubestate_fits(cs, 2L * cs->cube))
        bars |= CUBE_BAR_MAX;
    if (cubestate_dead(cs, side))
        bars |= CUBE_BAR_DEAD;
    if (cubestate_holland_bars(cs, side))
        bars |= CUBE_BAR_HOLLAND;
    return bars;
}

bool cubestate_may_double(const CubeState *cs, int side)
{
    return cubestate_double_bars(cs, side) == 0;
}

bool cubestate_access(const CubeState *cs, int side)
{
    return (cubestate_double_bars(cs, side) & CUBE_BARS_ACCESS) == 0;
}

unsigned cubestate_beaver_bars(const CubeState *cs)
{
    unsigned bars = 0;
    if (cs->match_length > 0)
        bars |= CUBE_BAR_MATCH;
    if (cs->beavers <= 0)
        bars |= CUBE_BAR_NO_BEAVERS;
    else if (cs->animals >= cs->beavers)
        bars |= CUBE_BAR_ANIMALS;
    /* The take after a beaver doubles twice what stands now. */
    if (!cubestate_fits(cs, 4L * cs->cube))
        bars |= CUBE_BAR_MAX;
    return bars;
}

bool cubestate_may_beaver(const CubeState *cs)
{
    return cubestate_beaver_bars(cs) == 0;
}

const char *cubestate_animal_name(const CubeState *cs)
{
    return cs->animals == 0 ? "beaver" : "raccoon";
}

bool cubestate_may_auto_double(const CubeState *cs, int allowed, int made)
{
    return cs->match_length == 0 && cs->cube_in_use && made < allowed &&
           cubestate_fits(cs, 2L * cs->cube);
}

GameStake cubestate_stake(const CubeState *cs)
{
    GameStake s = {.cube = cs->cube, .cube_turned = cs->owner != -1,
                   .money = cs->match_length <= 0};
    return s;
}

bool cubestate_gammons_void(const CubeState *cs)
{
    GameStake s = cubestate_stake(cs);
    return cs->cube_in_use && score_jacoby_voids(cs->jacoby, &s);
}

bool cubestate_valid(const CubeState *cs, Err *err)
{
    if (cs->cube < 1 || (cs->cube & (cs->cube - 1)) != 0)
        return err_set(err, "cube value %d is not a power of two", cs->cube);
    if (cs->max_cube < 1)
        return err_set(err, "maximum cube %d is not positive", cs->max_cube);
    if (cs->owner < -1 || cs->owner > 1)
        return err_set(err, "cube owner %d is not -1, 0 or 1", cs->owner);
    if (cs->match_length < 0)
        return err_set(err, "match length %d is negative", cs->match_length);
    if (cs->match_length > 0)
        for (int s = 0; s < 2; s++)
            if (cs->score[s] < 0 || cs->score[s] >= cs->match_length)
                return err_set(err, "score %d of side %d is outside 0..%d", cs->score[s], s,
                               cs->match_length - 1);
    if (cs->beavers < 0)
        return err_set(err, "beavers %d is negative", cs->beavers);
    if (cs->animals < 0)
        return err_set(err, "beavers and raccoons made %d is negative", cs->animals);
    if (cs->turns[0] < 0 || cs->turns[1] < 0)
        return err_set(err, "turns %d and %d: not both 0 or more", cs->turns[0], cs->turns[1]);
    return true;
}

void cubestate_swap(CubeState *cs)
{
    if (cs->owner >= 0)
        cs->owner = 1 - cs->owner;
    int t = cs->score[0];
    cs->score[0] = cs->score[1];
    cs->score[1] = t;
    t = cs->turns[0];
    cs->turns[0] = cs->turns[1];
    cs->turns[1] = t;
}

void cubestate_set_win_rules(CubeState *cs, const Rules *r)
{
    cs->backgammons_off = !r->backgammons;
    cs->star_mars = r->star_mars;
    cs->bg_home_only = r->backgammons && r->backgammon_zone == BG_ZONE_HOME;
}
