/* movegen.c - legal move generation (see movegen.h).
 *
 * The search is gnubg's: for each ordering of the dice (as given, then
 * swapped for a non-double) it plays a checker of the mover with the next die,
 * sources from the bar / highest point down, and recurses until no die is
 * left or none can be played. A sequence that cannot be extended is a
 * candidate: kept only if it uses the most dice and, among those, the most
 * pips seen so far (a better one empties the list), and only if its resulting
 * position is new. Searching in gnubg's order keeps, for every result, the
 * same parts gnubg stores, so printed moves match gnubg's plain notation.
 *
 * Speed: one working board changed and restored in place (no copies), a
 * running hash of it updated per part, and a small open-addressing table of
 * result hashes, so a finished sequence costs a probe and, only when its
 * result is new, one 59-byte copy. */
#include "movegen.h"

#include <string.h>

/* Random 64-bit weights per (side, slot): the hash of a position is the sum
 * of weight times count (mod 2^64), so moving one checker adds one difference.
 * Equal hashes are confirmed by comparing positions, so a collision can only
 * cost time, never a wrong answer. */
static const uint64_t weight[2][POS_SLOTS] = {
    {
        0xe2b740df6d59ef2fu, 0x5754a142921072ddu, 0x8694a72cb9f5855eu,
        0xd404bd78c6530a06u, 0xd02510aaf0179207u, 0x09ba877d9df1d6e5u,
        0x520f3a8404843118u, 0x0bc551471a51a872u, 0x2783568c68a15535u,
        0xb2010bc023bdeae5u, 0x1b60d5c60149f62fu, 0xf960575e0203bc23u,
        0x5b15d23a1f131325u, 0x35f4e74c39df42fcu, 0x74ecca2f2fcbd315u,
        0x6758083434829e22u, 0xe0aa49bc7c274dd2u, 0xffa3ff11b3c8b9dfu,
        0x0e60fbf98544ac5bu, 0x90652ab76b7c7b56u, 0x9f08cf0d5f6497f5u,
        0x98e7af56ab9556bbu, 0x1103ae842eaa605fu, 0xc4b0e608358f7230u,
        0x236ff3fb57356e3au,
    },
    {
        0xf97555eab0210dadu, 0xcdb185d0db2b89e5u, 0x048b8be07bf36e34u,
        0x2cfbb30cb47a4fd7u, 0x9f0f004285e074ccu, 0x83ea931b1f29ca21u,
        0x13d7d65581c69bddu, 0x516b3c5ad75d61d3u, 0xb8b334d56251303du,
        0x87d48e89430c0fdeu, 0x737b28f3d9bbc93au, 0x028757c5deb99c5cu,
        0x074d678658a9339bu, 0xf2f824c5683524e8u, 0x16f98773821b05e7u,
        0x4d0bc690d5ea28dbu, 0x4a88469878b6e8d2u, 0xe4e4f2496ba2c719u,
        0xb7aa57bb0e2f0eddu, 0x1be34bed8b44f4d0u, 0x7ff41f9d05f5ff8du,
        0x61f19350933fc826u, 0xd848a55b6df3277cu, 0x47b2d74f6da7c691u,
        0xf0df6b7a852712c0u,
    },
};

/* The result table starts small (cheap to clear for the common short lists)
 * and grows fourfold whenever it would be more than half full. */
#define TABLE_MIN 256
#define TABLE_MAX (4 * MOVES_MAX)

typedef struct Gen {
    Position b;      /* working board: the position after the parts so far */
    uint64_t hash;   /* hash of b */
    uint32_t occ;    /* bit i: the mover has a checker on index i (0..24) */
    uint32_t open;   /* bit i: index i (0..23) is not blocked; hits only ever
                        remove blots, so this holds for the whole search */
    int die[MOVE_PARTS_MAX];
    int ndice;
    uint32_t swap_skip;              /* see movegen_generate() */
    uint32_t skip[MOVE_PARTS_MAX];   /* sources not to try at each depth */
    int8_t from[MOVE_PARTS_MAX], to[MOVE_PARTS_MAX];
    int best_parts, best_pips;
    MoveList *out;
    unsigned mask;                /* table size - 1 */
    uint16_t table[TABLE_MAX];    /* 1 + index into out->moves, 0 = empty */
    uint64_t hashes[MOVES_MAX];   /* hash of out->moves[i].result */
} Gen;

/* The working board's two sides. Named through the struct rather than kept
 * as uint8_t pointers: a store through such a pointer may alias anything, so
 * the compiler would reload every other field of Gen after each one. */
#define ME(g) ((g)->b.side[SIDE_ROLLER])
#define OPP(g) ((g)->b.side[SIDE_OPPONENT])

static void table_clear(Gen *g)
{
    memset(g->table, 0, (g->mask + 1) * sizeof g->table[0]);
}

static void table_insert(Gen *g, uint64_t h, int index)
{
    unsigned slot = (unsigned)(h >> 32) & g->mask;
    while (g->table[slot])
        slot = (slot + 1) & g->mask;
    g->table[slot] = (uint16_t)(index + 1);
}

static void table_grow(Gen *g)
{
    g->mask = (g->mask + 1) * 4 - 1;
    table_clear(g);
    for (int i = 0; i < g->out->count; i++)
        table_insert(g, g->hashes[i], i);
}

/* A sequence of `parts` parts worth `pips` pips cannot be extended. gnubg's
 * SaveMoves rule: drop it if it uses fewer dice or fewer pips than the best
 * so far, restart the list if it uses more, then keep it if its result is
 * new (the first sequence found for a result is the one kept). */
static void save(Gen *g, int parts, int pips)
{
    MoveList *out = g->out;
    if (parts < g->best_parts || pips < g->best_pips)
        return;
    if (parts > g->best_parts || pips > g->best_pips) {
        out->count = 0;
        table_clear(g);
        g->best_parts = parts;
        g->best_pips = pips;
    }
    unsigned slot = (unsigned)(g->hash >> 32) & g->mask;
    for (unsigned t; (t = g->table[slot]) != 0; slot = (slot + 1) & g->mask)
        if (g->hashes[t - 1] == g->hash && pos_equal(&out->moves[t - 1].result, &g->b))
            return;
    /* The most results found for a valid position (a hill-climbing search
     * over 1-1 to 4-4) is 2226; positions with more than 15 checkers a side
     * can exceed MOVES_MAX, and their extra results are dropped rather than
     * written out of bounds. */
    if (out->count == MOVES_MAX)
        return;
    int n = out->count++;
    Move *m = &out->moves[n];
    memcpy(m->from, g->from, sizeof m->from);
    memcpy(m->to, g->to, sizeof m->to);
    for (int i = parts; i < MOVE_PARTS_MAX; i++)
        m->from[i] = m->to[i] = 0;
    m->parts = (uint8_t)parts;
    m->result = g->b;
    g->hashes[n] = g->hash;
    g->table[slot] = (uint16_t)(n + 1);
    if ((unsigned)out->count * 2 > g->mask + 1 && g->mask + 1 < TABLE_MAX)
        table_grow(g);
}

static int top_bit(uint32_t x)
{
    return 31 - __builtin_clz(x);
}

/* The sources (as a bit set, limited to indices <= top) from which die d can
 * be played, bar excepted: the destination is not blocked, or the checker
 * bears off - with all checkers home, from exactly d pips, or with a larger
 * die from the highest occupied point. */
static uint32_t sources(const Gen *g, int d, int top)
{
    uint32_t occ = g->occ;
    if (!occ)
        return 0; /* all borne off */
    uint32_t s = occ & (g->open << d);
    if (occ < (1u << 6)) { /* everything home */
        s |= occ & (1u << (d - 1));
        int high = top_bit(occ);
        if (high < d - 1)
            s |= 1u << high;
    }
    return s & ((2u << top) - 1);
}

/* Moves one checker src -> dest (dest < 0: off); returns 1 if it hit. */
static int play(Gen *g, int src, int dest)
{
    if (--ME(g)[src] == 0)
        g->occ &= ~(1u << src);
    g->hash -= weight[1][src];
    if (dest < 0)
        return 0;
    ME(g)[dest]++;
    g->occ |= 1u << dest;
    g->hash += weight[1][dest];
    if (OPP(g)[23 - dest] == 1) {
        OPP(g)[23 - dest] = 0;
        OPP(g)[POS_BAR]++;
        g->hash += weight[0][POS_BAR] - weight[0][23 - dest];
        return 1;
    }
    return 0;
}

/* Undoes play(); occ is restored by the caller. */
static void unplay(Gen *g, int src, int dest, int hit)
{
    ME(g)[src]++;
    g->hash += weight[1][src];
    if (dest < 0)
        return;
    ME(g)[dest]--;
    g->hash -= weight[1][dest];
    if (hit) {
        OPP(g)[23 - dest] = 1;
        OPP(g)[POS_BAR]--;
        g->hash -= weight[0][POS_BAR] - weight[0][23 - dest];
    }
}

/* Plays die number `depth` and the following ones; sources are scanned from
 * `top` down (a double continues from the same source so that each set of
 * parts is tried once). Returns whether the die could be played at all. */
static int search(Gen *g, int depth, int top, int pips)
{
    if (depth == g->ndice)
        return 0;
    int d = g->die[depth];
    uint32_t occ = g->occ;
    if (ME(g)[POS_BAR]) {
        int dest = POS_BAR - d;
        if (!(g->open >> dest & 1))
            return 0;
        g->from[depth] = POS_BAR;
        g->to[depth] = (int8_t)dest;
        int hit = play(g, POS_BAR, dest);
        if (!search(g, depth + 1, 23, pips + d))
            save(g, depth + 1, pips + d);
        unplay(g, POS_BAR, dest, hit);
        g->occ = occ;
        return 1;
    }
    uint32_t src = sources(g, d, top);
    if (!src)
        return 0;
    src &= ~g->skip[depth];
    while (src) {
        int i = top_bit(src);
        src &= ~(1u << i);
        int dest = i - d < 0 ? POS_OFF : i - d;
        g->from[depth] = (int8_t)i;
        g->to[depth] = (int8_t)dest;
        if (depth == 0)
            g->skip[1] = dest >= 0 ? g->swap_skip : 0;
        int hit = play(g, i, dest);
        if (!search(g, depth + 1, g->ndice == 4 ? i : 23, pips + d))
            save(g, depth + 1, pips + d);
        unplay(g, i, dest, hit);
        g->occ = occ;
    }
    return 1;
}

int movegen_generate(const Position *p, int d1, int d2, MoveList *out)
{
    out->count = 0;
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
        return 0;
    Gen g;
    g.b = *p;
    g.hash = 0;
    g.occ = g.open = 0;
    for (int i = 0; i < POS_SLOTS; i++) {
        g.hash += weight[0][i] * OPP(&g)[i] + weight[1][i] * ME(&g)[i];
        g.occ |= (uint32_t)(ME(&g)[i] != 0) << i;
        if (i < 24)
            g.open |= (uint32_t)(OPP(&g)[23 - i] < 2) << i;
    }
    g.ndice = d1 == d2 ? 4 : 2;
    for (int i = 0; i < g.ndice; i++)
        g.die[i] = i & 1 ? d2 : d1;
    memset(g.from, 0, sizeof g.from);
    memset(g.to, 0, sizeof g.to);
    memset(g.skip, 0, sizeof g.skip);
    g.swap_skip = 0;
    g.best_parts = g.best_pips = 0;
    g.out = out;
    g.mask = TABLE_MIN - 1;
    table_clear(&g);

    search(&g, 0, 23, 0);
    if (d1 != d2) {
        /* The second order repeats most of the first: a d2 part then a d1
         * part, neither from the bar nor bearing off, reach the same result
         * as the d1 part then the d2 part, which the first order found (with
         * no bar and no bear-off, a part is legal whenever its checker is
         * there and its destination open, and "open" never changes). So
         * after such a d2 part, d1 parts from originally occupied points
         * are skipped. Only time is saved: the list is the same. */
        if (!ME(&g)[POS_BAR])
            g.swap_skip = g.occ & ~((1u << d1) - 1);
        g.die[0] = d2;
        g.die[1] = d1;
        search(&g, 0, 23, 0);
    }
    return out->count;
}

bool movegen_apply_part(Position *p, int from, int to)
{
    if (from < 0 || from > POS_BAR || to < POS_OFF || to >= from || to >= POS_BAR)
        return false;
    uint8_t *me = p->side[SIDE_ROLLER], *opp = p->side[SIDE_OPPONENT];
    if (!me[from] || (to >= 0 && opp[23 - to] >= 2) || (to >= 0 && me[to] == UINT8_MAX))
        return false;
    me[from]--;
    if (to < 0)
        return true;
    me[to]++;
    if (opp[23 - to] == 1) {
        opp[23 - to] = 0;
        if (opp[POS_BAR] < UINT8_MAX)
            opp[POS_BAR]++;
    }
    return true;
}

int movegen_find(const MoveList *l, const Position *result)
{
    for (int i = 0; i < l->count; i++)
        if (pos_equal(&l->moves[i].result, result))
            return i;
    return -1;
}
