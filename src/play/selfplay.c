/* selfplay.c - cubeless games between engines, local or remote (see
 * selfplay.h). */
#include "selfplay.h"

#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fibsboard.h"
#include "listen.h"
#include "movetext.h"
#include "posid.h"
#include "score.h"

uint64_t selfplay_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int roll_die(uint64_t *state)
{
    return (int)(selfplay_rand(state) % 6) + 1;
}

void selfplay_dice(uint64_t *state, int turn, int *d1, int *d2)
{
    do {
        *d1 = roll_die(state);
        *d2 = roll_die(state);
    } while (turn == 0 && *d1 == *d2);
}

double selfplay_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Longer than any real game; only a broken player could get here. */
#define MAX_TURNS 10000

/* ---- a remote player ---- */

struct SelfplayRemote {
    int fd;
    char buf[1024];
    size_t len;
    MoveList *list;
    Err err;
};

SelfplayRemote *selfplay_remote_new(const char *addr, Err *err)
{
    ListenAddr a;
    if (!listen_parse(addr, &a, err))
        return NULL;
    SelfplayRemote *r = calloc(1, sizeof *r);
    if (r)
        r->list = malloc(sizeof *r->list);
    if (!r || !r->list) {
        if (r)
            free(r);
        err_set(err, "out of memory");
        return NULL;
    }
    r->fd = listen_connect(&a, 10.0, err);
    if (r->fd < 0) {
        selfplay_remote_free(r);
        return NULL;
    }
    return r;
}

void selfplay_remote_free(SelfplayRemote *r)
{
    if (!r)
        return;
    if (r->fd >= 0)
        close(r->fd);
    free(r->list);
    free(r);
}

const char *selfplay_remote_error(const SelfplayRemote *r)
{
    return r->err.text;
}

/* One reply line (without its newline) within 30 seconds. */
static bool remote_line(SelfplayRemote *r, char *out, size_t size)
{
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        if (nl) {
            size_t n = (size_t)(nl - r->buf);
            if (n >= size)
                return err_set(&r->err, "reply longer than %zu bytes", size);
            memcpy(out, r->buf, n);
            out[n] = '\0';
            memmove(r->buf, nl + 1, r->len - n - 1);
            r->len -= n + 1;
            return true;
        }
        if (r->len == sizeof r->buf)
            return err_set(&r->err, "reply longer than %zu bytes", sizeof r->buf);
        struct pollfd pfd = {r->fd, POLLIN, 0};
        if (poll(&pfd, 1, 30000) <= 0)
            return err_set(&r->err, "no reply within 30 s");
        ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - r->len);
        if (got <= 0)
            return err_set(&r->err, "the server closed the connection");
        r->len += (size_t)got;
    }
}

/* The remote's move for side 1 of p with d1-d2 (cubeless money: cube 1
 * centred, Jacoby off). *moved is false when it passes. */
static bool remote_move(SelfplayRemote *r, const Position *p, int d1, int d2, Move *m,
                        bool *moved)
{
    FibsGame g;
    memset(&g, 0, sizeof g);
    g.name[0] = "shesh";
    g.name[1] = "remote";
    g.pos = *p;
    g.on_roll = g.acting = 1;
    g.dice[0] = d1;
    g.dice[1] = d2;
    g.cube = 1;
    g.cube_owner = -1;
    char line[FIBS_LINE_MAX + 32], reply[256];
    if (!fibs_write(&g, line, &r->err))
        return false;
    strcat(line, " jacobyrule off\n");
    if (!listen_send_all(r->fd, line, strlen(line)))
        return err_set(&r->err, "cannot send to the server");
    if (!remote_line(r, reply, sizeof reply))
        return false;
    movegen_generate(p, d1, d2, r->list);
    int i = movetext_match_roll(p, r->list, d1, d2, reply, &r->err);
    if (i == MOVETEXT_PASS) {
        *moved = false;
        return true;
    }
    if (i < 0)
        return false;
    *m = r->list->moves[i];
    *moved = true;
    return true;
}

void selfplay_game(const SelfplayPlayer players[2], uint64_t seed, int first,
                   SelfplayObserver observe, void *ctx, SelfplayResult *res)
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
        double t0 = selfplay_now();
        if (players[seat].remote) {
            if (!remote_move(players[seat].remote, &p, d1, d2, &m, &moved)) {
                res->failed = true;
                return;
            }
        } else {
            moved = engine_move(players[seat].engine, &p, d1, d2, &cs, players[seat].plies, &m);
        }
        res->seconds[seat] += selfplay_now() - t0;
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

bool selfplay_parse_player(const char *text, char *name, int name_size, int *plies)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    if (len == 0 || len >= (size_t)name_size)
        return false;
    memcpy(name, text, len);
    name[len] = '\0';
    *plies = 0;
    if (colon) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (*end || end == colon + 1 || v < 0 || v > 4)
            return false;
        *plies = (int)v;
    }
    return true;
}
