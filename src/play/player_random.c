/* player_random.c - a move by a hash of position and dice (see
 * player_random.h). */
#include "player_random.h"

#include <stddef.h>
#include <stdint.h>

#include "player_judged.h"

/* A deterministic stand-in for a coin: FNV-1a of the position and dice. */
static uint64_t position_hash(const Position *p, int d1, int d2)
{
    uint64_t h = 0xcbf29ce484222325u;
    const uint8_t *bytes = (const uint8_t *)p->side;
    for (size_t i = 0; i < sizeof p->side; i++)
        h = (h ^ bytes[i]) * 0x100000001b3u;
    h = (h ^ (uint64_t)(d1 * 7 + d2)) * 0x100000001b3u;
    return h ^ (h >> 29);
}

static int pick_random(const Position *p, int d1, int d2, const MoveList *legal)
{
    return (int)(position_hash(p, d1, d2) % (uint64_t)legal->count);
}

Player *player_random_new(const Engine *judge, Err *err)
{
    return player_judged_new("random", pick_random, judge, err);
}
