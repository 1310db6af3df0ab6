/* position.c - the starting position, side swapping, checker and pip counts,
 * and gnubg's sanity checks on a position (see position.h). */
#include "position.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* One side of the opening position: two on the 24-point, five on the 13,
 * three on the 8, five on the 6 (indices are points minus one). */
static const uint8_t start_side[POS_SLOTS] = {
    [5] = 5, [7] = 3, [12] = 5, [23] = 2,
};

void pos_start(Position *p)
{
    memcpy(p->side[SIDE_OPPONENT], start_side, sizeof start_side);
    memcpy(p->side[SIDE_ROLLER], start_side, sizeof start_side);
}

void pos_swap(Position *p)
{
    uint8_t tmp[POS_SLOTS];
    memcpy(tmp, p->side[0], POS_SLOTS);
    memcpy(p->side[0], p->side[1], POS_SLOTS);
    memcpy(p->side[1], tmp, POS_SLOTS);
}

bool pos_equal(const Position *a, const Position *b)
{
    return memcmp(a->side, b->side, sizeof a->side) == 0;
}

/* Eight bytes at a time, as four 16-bit sums of two bytes each (at most
 * 510 whatever the bytes: a damaged position is counted as truly as a
 * legal one); the evaluator asks for the count several times a position. */
int pos_checkers(const Position *p, int side)
{
    _Static_assert(POS_SLOTS == 25, "three words and the bar");
    const uint64_t pairs = 0x00ff00ff00ff00ffu;
    uint64_t w[3], sum = 0;
    memcpy(w, p->side[side], sizeof w);
    for (int k = 0; k < 3; k++)
        sum += (w[k] & pairs) + (w[k] >> 8 & pairs);
    /* Four lanes of at most 1,530; their total, at most 6,120, lands in the
     * top lane. */
    return (int)((sum * 0x0001000100010001u) >> 48) + p->side[side][POS_BAR];
}

uint32_t pos_points_holding(const uint8_t side[POS_SLOTS], int n)
{
    uint32_t m = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    /* The 24 points compared at once (SSE2, which every x86-64 has): x >= n
     * where max(x, n) = x, unsigned, true for any byte. */
    const __m128i least = _mm_set1_epi8((char)n);
    __m128i lo = _mm_loadu_si128((const __m128i *)side);
    __m128i hi = _mm_loadl_epi64((const __m128i *)(side + 16));
    m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(lo, least), lo)) |
        ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(hi, least), hi)) & 0xffu) << 16;
#else
    for (int i = 0; i < 24; i++)
        m |= (uint32_t)(side[i] >= n) << i;
#endif
    return m;
}

int pos_pips(const Position *p, int side)
{
    int n = 0;
    for (int i = 0; i < POS_SLOTS; i++)
        n += p->side[side][i] * (i + 1); /* index 24, the bar, counts 25 */
    return n;
}

static const char *side_name(int side)
{
    return side == SIDE_ROLLER ? "side 1 (on roll)" : "side 0 (opponent)";
}

/* The same three checks as gnubg's CheckPosition, in the same order, so that
 * we refuse exactly what gnubg refuses and can say why. */
bool pos_valid(const Position *p, Err *err)
{
    for (int s = 0; s < 2; s++) {
        int n = pos_checkers(p, s);
        if (n > POS_CHECKERS)
            return err_set(err, "%s has %d checkers, more than %d", side_name(s), n,
                           POS_CHECKERS);
    }
    for (int i = 0; i < 24; i++)
        if (p->side[SIDE_OPPONENT][i] && p->side[SIDE_ROLLER][23 - i])
            return err_set(err,
                           "both sides have checkers on the same point: side 1's "
                           "point %d is side 0's point %d",
                           24 - i, i + 1);
    /* Both on the bar facing two closed boards: nobody could ever move. */
    for (int i = 0; i < 6; i++)
        if (p->side[0][i] < 2 || p->side[1][i] < 2)
            return true;
    if (p->side[0][POS_BAR] && p->side[1][POS_BAR])
        return err_set(err, "both sides have checkers on the bar and both home boards "
                            "are closed, so nobody could ever move");
    return true;
}
