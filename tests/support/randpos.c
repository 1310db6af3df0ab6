/* randpos.c - seeded random loose positions (randpos.h). */
#include "randpos.h"

#include <string.h>

void randpos_loose(uint64_t *s, Position *p)
{
    memset(p, 0, sizeof *p);
    for (int side = 0; side < 2; side++) {
        for (int left = POS_CHECKERS; left > 0;) {
            *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
            int at = (int)(*s % 27); /* 0..23 its points, 24 the bar, 25..26 off */
            if (at < 24 && p->side[1 - side][23 - at] != 0)
                continue; /* the other side's point */
            if (at <= 24)
                p->side[side][at < 24 ? at : POS_BAR]++;
            left--;
        }
    }
}
