/* randgame.c - seeded random games, recorded (see randgame.h). */
#include "randgame.h"

#include <stdlib.h>

unsigned randgame_next(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

/* One random legal action, made on m and recorded in r. */
static bool act(Match *m, Record *r, unsigned *seed, MoveList *moves, Err *err)
{
    unsigned acts = match_actions(m);
    unsigned list[16];
    int n = 0;
    for (unsigned a = 1; a <= ACT_NEW_GAME; a <<= 1)
        if (acts & a)
            list[n++] = a;
    if (n == 0)
        return err_set(err, "no legal action");
    unsigned a = list[randgame_next(seed) % (unsigned)n];
    /* Resignations and doubles end games quickly: keep them rare so that
     * most games are played out, some with a turned cube. */
    unsigned keep = a == ACT_RESIGN ? 60 : a == ACT_DOUBLE ? 8 : 1;
    if (randgame_next(seed) % keep) {
        unsigned common[16];
        int nc = 0;
        for (int i = 0; i < n; i++)
            if (list[i] != ACT_RESIGN && list[i] != ACT_DOUBLE)
                common[nc++] = list[i];
        if (nc)
            a = common[randgame_next(seed) % (unsigned)nc];
    }
    int d1 = 1 + (int)(randgame_next(seed) % 6), d2 = 1 + (int)(randgame_next(seed) % 6);
    int p = m->turn, roller = m->on_roll;
    switch (a) {
    case ACT_OPENING_ROLL:
        return match_opening_roll(m, d1, d2, err) && record_opening_roll(r, d1, d2, err);
    case ACT_ROLL:
        return match_roll(m, d1, d2, err) && record_roll(r, roller, d1, d2, err);
    case ACT_DOUBLE:
        return match_double(m, err) && record_double(r, p, m->cube * 2, err);
    case ACT_TAKE: return match_take(m, err) && record_take(r, p, err);
    case ACT_DROP: return match_drop(m, err) && record_drop(r, p, err);
    case ACT_BEAVER:
        return match_beaver(m, err) && record_beaver(r, p, m->cube * 2, err);
    case ACT_PASS: return match_pass(m, err) && record_pass(r, roller, err);
    case ACT_ACCEPT: return match_accept(m, err) && record_accept(r, p, err);
    case ACT_REJECT: return match_reject(m, err) && record_reject(r, p, err);
    case ACT_NEW_GAME: return match_new_game(m, err) && record_game_start(r, err);
    case ACT_RESIGN: {
        int level = m->resign_declined + 1 +
                    (int)(randgame_next(seed) % (unsigned)(3 - m->resign_declined));
        return match_resign(m, level, err) && record_resign(r, p, level, err);
    }
    case ACT_MOVE: {
        Position before;
        match_position(m, &before);
        match_legal_moves(m, moves);
        const Move *mv = &moves->moves[randgame_next(seed) % (unsigned)moves->count];
        return match_move(m, &mv->result, err) && record_move(r, roller, &before, mv, err);
    }
    default: return err_set(err, "action %u", a);
    }
}

static bool game_over(const Match *m)
{
    return m->phase == PHASE_OVER || m->phase == PHASE_RESIGNED || m->phase == PHASE_DROPPED;
}

bool randgame_play(Match *m, Record *r, const Rules *rules, int length, int games,
                   unsigned seed, bool (*on_game)(void *ctx, const Record *r, Err *err),
                   void *ctx, Err *err)
{
    MoveList *moves = malloc(sizeof *moves); /* too big for a stack frame */
    if (!moves)
        return err_set(err, "out of memory");
    bool ok = record_init(r, "Alice", "Bob", length, rules, err) &&
              match_start(m, rules, length, err) && record_game_start(r, err);
    while (ok) {
        if (game_over(m)) {
            ok = record_game_end(r, m->winner, m->points, err) &&
                 (!on_game || on_game(ctx, r, err));
            if (!ok || match_over(m) || m->games >= games)
                break;
        }
        ok = act(m, r, &seed, moves, err);
    }
    free(moves);
    return ok;
}
