/* selfplay.c - cubeless games between players (see selfplay.h). */
#include "selfplay.h"

#include <string.h>

#include "clock.h"
#include "score.h"
#include "splitmix.h"

static int roll_die(uint64_t *state)
{
    return (int)(splitmix64(state) % 6) + 1;
}

void selfplay_dice(uint64_t *state, int turn, int *d1, int *d2)
{
    do {
        *d1 = roll_die(state);
        *d2 = roll_die(state);
    } while (turn == 0 && *d1 == *d2);
}

/* Longer than any real game; only a broken player could get here. */
#define MAX_TURNS 10000

void selfplay_game(Player *const players[2], uint64_t seed, int first, SelfplayObserver observe,
                   void *ctx, SelfplayResult *res)
{
    memset(res, 0, sizeof *res);
    CubeState cs = {0};
    cs.cube = 1;
    cs.owner = -1;
    cs.max_cube = 1;
    uint64_t rng = seed;
    Position p;
    pos_start(&p);
    int seat = first;
    for (int turn = 0; turn < MAX_TURNS; turn++) {
        int d1, d2;
        selfplay_dice(&rng, turn, &d1, &d2);
        if (observe)
            observe(ctx, &p, seat);
        Move m;
        bool moved = false;
        double t0 = clock_now();
        PlayerStatus st = player_move(players[seat], &p, &cs, d1, d2, &m, &moved, &res->err);
        if (st != PLAYER_OK) {
            res->failed = true;
            res->failed_seat = seat;
            res->status = st;
            return;
        }
        res->seconds[seat] += clock_now() - t0;
        res->decisions[seat]++;
        if (moved) {
            p = m.result;
            ScoreKind kind = score_kind(&p, SIDE_ROLLER);
            if (kind != SCORE_NONE) {
                res->winner = seat;
                /* The international rules at a cube of 1: a star mars
                 * counts as a backgammon. */
                Rules rules = rules_default();
                GameStake stake = cubestate_stake(&cs);
                res->points = score_points(&rules, &stake, kind);
                res->turns = turn + 1;
                return;
            }
        }
        pos_swap(&p);
        seat = !seat;
    }
    res->winner = !first; /* a game that never ends: count it against... */
    res->points = 0;      /* ...nobody */
    res->turns = MAX_TURNS;
}
