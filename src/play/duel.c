/* duel.c - duplicate pairs over threads, handed on in order (duel.h). */
#include "duel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "gnubg_server.h"
#include "player_remote.h"

/* How far ahead of the oldest unfinished pair a thread may start one:
 * finished pairs wait for it in memory, so this bounds that memory when
 * one pair (a long match) is slow. */
#define WINDOW_PER_THREAD 4

/* A server that is starting or has just dropped a client (gnubg listens
 * again a moment after one leaves) is retried for this long. */
#define CONNECT_RETRY_S 10.0

/* One thread's players and what it needs to referee. */
typedef struct Table {
    struct Duel *duel;
    Player *players[2];        /* A, B */
    GnubgServer *servers[2];   /* for the gnubg kind */
    Referee *ref;
    pthread_mutex_t seat_lock; /* players[] and servers[] change under it,
                                  so that duel_cancel sees whole players */
    pthread_t tid;
    bool started;
} Table;

struct Duel {
    DuelOptions o;
    Engine *engines[2];
    Table *tables;
    int64_t window;

    pthread_mutex_t lock;
    pthread_cond_t moved;      /* a pair was handed on, or the run ends */
    int64_t next;              /* the next pair to start, counted from 0 */
    int64_t emitted;           /* pairs handed on */
    DuelPair **pending;        /* finished pairs waiting, [k % window] */
    bool failed, by_fault;
    Err err;                   /* why it failed */

    atomic_bool stop, cancel;
    atomic_llong done;
};

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static Player *connect_retrying(const char *addr, double reply_s, Err *err)
{
    for (double waited = 0;; waited += 0.05) {
        Player *pl = player_remote_new(addr, reply_s, err);
        if (pl || waited >= CONNECT_RETRY_S)
            return pl;
        sleep_s(0.05);
    }
}

/* Puts pl in seat `who`; a run being cancelled cancels it at once. */
static bool seated(Table *t, int who, Player *pl)
{
    if (!pl)
        return false;
    pthread_mutex_lock(&t->seat_lock);
    t->players[who] = pl;
    if (atomic_load(&t->duel->cancel))
        player_cancel(pl);
    pthread_mutex_unlock(&t->seat_lock);
    return true;
}

/* Makes table player `who` (A 0, B 1), starting its gnubg if it is one. */
static bool seat_player(Table *t, int who, Err *err)
{
    Duel *d = t->duel;
    const PlayerSpec *spec = &d->o.specs[who];
    if (spec->kind != PLAYER_KIND_GNUBG)
        return seated(t, who, player_spec_make(spec, d->engines[who], d->o.timeout_s, err));
    bool money = d->o.match_to == 0;
    GnubgServerOptions g = {
        .binary = d->o.gnubg_binary,
        .plies = spec->plies,
        .cube = d->o.rules.cube,
        .jacoby = money && d->o.rules.jacoby,
        .beavers = money ? d->o.rules.beavers : 0,
        .start_timeout = 0,
    };
    GnubgServer *server = gnubg_server_start(&g, err);
    if (!server)
        return false;
    pthread_mutex_lock(&t->seat_lock);
    t->servers[who] = server;
    pthread_mutex_unlock(&t->seat_lock);
    return seated(t, who, connect_retrying(gnubg_server_addr(server), d->o.timeout_s, err));
}

static void unseat_player(Table *t, int who)
{
    pthread_mutex_lock(&t->seat_lock);
    Player *pl = t->players[who];
    GnubgServer *server = t->servers[who];
    t->players[who] = NULL;
    t->servers[who] = NULL;
    pthread_mutex_unlock(&t->seat_lock);
    player_close(pl);
    gnubg_server_stop(server);
}

/* After a fault: a fresh connection (a fresh gnubg) for the next game. A
 * remote player is connected again with retries: its server may be
 * restarting. */
static bool reseat_player(Table *t, int who, Err *err)
{
    Duel *d = t->duel;
    const PlayerSpec *spec = &d->o.specs[who];
    unseat_player(t, who);
    if (spec->kind == PLAYER_KIND_REMOTE)
        return seated(t, who, connect_retrying(spec->addr, d->o.timeout_s, err));
    return seat_player(t, who, err);
}

static void pair_free(DuelPair *p)
{
    if (!p)
        return;
    for (int h = 0; h < 2; h++) {
        record_free(&p->half[h].record);
        free(p->half[h].games);
    }
    free(p);
}

static void fail(Duel *d, const Err *why)
{
    pthread_mutex_lock(&d->lock);
    if (!d->failed) {
        d->failed = true;
        d->err = *why;
    }
    pthread_mutex_unlock(&d->lock);
    duel_stop(d);
}

typedef enum HalfStatus { HALF_DONE, HALF_DROPPED, HALF_FAILED } HalfStatus;

/* Plays one half of pair `index`: a money game or a whole match. */
static HalfStatus play_half(Table *t, int64_t index, DuelHalf *h, Err *err)
{
    Duel *d = t->duel;
    Match m;
    if (!match_start(&m, &d->o.rules, d->o.match_to, err) ||
        !record_init(&h->record, d->o.specs[0].name, d->o.specs[1].name, d->o.match_to,
                     &d->o.rules, err))
        return HALF_FAILED;
    h->match_winner = -1;
    size_t cap = 0;
    for (int game = 0;; game++) {
        if ((size_t)game == cap) {
            cap = cap ? 2 * cap : 4;
            RefereeGame *g = realloc(h->games, cap * sizeof *g);
            if (!g) {
                err_set(err, "out of memory for the games of pair %lld", (long long)index);
                return HALF_FAILED;
            }
            h->games = g;
        }
        RefereeDice dice;
        referee_dice_init(&dice, d->o.seed, (uint64_t)index, game);
        RefereeGame *g = &h->games[game];
        RefereeStatus st =
            referee_play_game(t->ref, &m, t->players, h->a_seat, &dice, &h->record, g, err);
        if (st == REFEREE_CANCELLED)
            return HALF_DROPPED;
        if (st == REFEREE_ERROR)
            return HALF_FAILED;
        if (g->forfeit) {
            int who = g->fault.player;
            if (d->o.on_fault)
                d->o.on_fault(d->o.ctx, index, &g->fault, d->o.specs[who].name);
            if (d->o.stop_on_fault) {
                pthread_mutex_lock(&d->lock);
                d->by_fault = true;
                pthread_mutex_unlock(&d->lock);
                duel_stop(d);
                return HALF_DROPPED;
            }
            if (!reseat_player(t, who, err)) {
                Err e = *err;
                err_set(err, "%s: cannot play on after its fault: %s", d->o.specs[who].name,
                        e.text);
                return HALF_FAILED;
            }
        }
        if (d->o.match_to == 0)
            return HALF_DONE;
        if (match_over(&m)) {
            int seat = m.score[0] >= d->o.match_to ? 0 : 1;
            h->match_winner = seat ^ h->a_seat;
            return HALF_DONE;
        }
        if (!match_new_game(&m, err))
            return HALF_FAILED;
    }
}

/* Hands on every finished pair that is next in order. Called locked. */
static void hand_on(Duel *d)
{
    for (;;) {
        DuelPair **slot = &d->pending[d->emitted % d->window];
        DuelPair *p = *slot;
        if (!p || p->index != d->o.first + d->emitted * d->o.step)
            return;
        *slot = NULL;
        Err e = {{0}};
        bool ok = d->failed || d->o.on_pair(d->o.ctx, p, &e);
        pair_free(p);
        d->emitted++;
        atomic_store(&d->done, d->emitted);
        if (!ok && !d->failed) {
            d->failed = true;
            d->err = e;
            atomic_store(&d->stop, true);
        }
        pthread_cond_broadcast(&d->moved);
    }
}

/* Plays pairs until there are no more or the run stops. */
static void table_play(Table *t)
{
    Duel *d = t->duel;
    for (;;) {
        pthread_mutex_lock(&d->lock);
        while (!atomic_load(&d->stop) && d->next < d->o.pairs &&
               d->next >= d->emitted + d->window)
            pthread_cond_wait(&d->moved, &d->lock);
        if (atomic_load(&d->stop) || d->next >= d->o.pairs) {
            pthread_mutex_unlock(&d->lock);
            return;
        }
        int64_t k = d->next++;
        pthread_mutex_unlock(&d->lock);

        DuelPair *p = calloc(1, sizeof *p);
        Err err = {{0}};
        if (!p) {
            err_set(&err, "out of memory for a pair");
            fail(d, &err);
            return;
        }
        p->index = d->o.first + k * d->o.step;
        HalfStatus st = HALF_DONE;
        for (int h = 0; h < 2 && st == HALF_DONE; h++) {
            p->half[h].a_seat = h;
            st = play_half(t, p->index, &p->half[h], &err);
        }
        if (st != HALF_DONE) {
            pair_free(p);
            if (st == HALF_FAILED)
                fail(d, &err);
            return; /* dropped: the run is being stopped */
        }
        pthread_mutex_lock(&d->lock);
        d->pending[k % d->window] = p;
        hand_on(d);
        pthread_mutex_unlock(&d->lock);
    }
}

static void *table_main(void *arg)
{
    Table *t = arg;
    table_play(t);
    /* Closed here, not in duel_free: a child process (a UBGI engine) is
     * told to stop when the thread that started it ends (PR_SET_PDEATHSIG),
     * and both that can have started this table's (this one, duel_run's)
     * still run, so the child gets its `quit` and leaves by itself. */
    for (int s = 0; s < 2; s++)
        unseat_player(t, s);
    return NULL;
}

Duel *duel_new(const DuelOptions *o, Err *err)
{
    if (o->concurrency < 1 || o->pairs < 0 || o->step < 1 || o->first < 0 || !o->on_pair) {
        err_set(err, "duel: bad options");
        return NULL;
    }
    if (!rules_valid(&o->rules, err))
        return NULL;
    Duel *d = calloc(1, sizeof *d);
    if (!d) {
        err_set(err, "out of memory for the run");
        return NULL;
    }
    d->o = *o;
    d->window = (int64_t)o->concurrency * WINDOW_PER_THREAD;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->moved, NULL);
    atomic_init(&d->stop, false);
    atomic_init(&d->cancel, false);
    atomic_init(&d->done, 0);
    d->pending = calloc((size_t)d->window, sizeof *d->pending);
    d->tables = calloc((size_t)o->concurrency, sizeof *d->tables);
    if (!d->pending || !d->tables) {
        free(d->tables);
        d->tables = NULL;
        err_set(err, "out of memory for the run");
        duel_free(d);
        return NULL;
    }
    for (int i = 0; i < o->concurrency; i++) {
        d->tables[i].duel = d;
        pthread_mutex_init(&d->tables[i].seat_lock, NULL);
    }
    for (int s = 0; s < 2; s++) {
        const PlayerSpec *spec = &o->specs[s];
        if (spec->kind == PLAYER_KIND_REMOTE || spec->kind == PLAYER_KIND_GNUBG ||
            spec->kind == PLAYER_KIND_UBGI)
            continue;
        /* An engine is read-only once made (its scratch is the players'):
         * both sides share one of the same name, and its start-up. */
        if (s == 1 && d->engines[0] && !strcmp(o->specs[0].engine, spec->engine) &&
            !strcmp(o->specs[0].weights, spec->weights)) {
            d->engines[1] = d->engines[0];
            continue;
        }
        if (!(d->engines[s] = engine_new_with(spec->engine,
                                              spec->weights[0] ? spec->weights : NULL, err))) {
            duel_free(d);
            return NULL;
        }
    }
    return d;
}

void duel_free(Duel *d)
{
    if (!d)
        return;
    for (int i = 0; d->tables && i < d->o.concurrency; i++) {
        Table *t = &d->tables[i];
        for (int s = 0; s < 2; s++)
            unseat_player(t, s);
        referee_free(t->ref);
        pthread_mutex_destroy(&t->seat_lock);
    }
    for (int64_t k = 0; d->pending && k < d->window; k++)
        pair_free(d->pending[k]);
    if (d->engines[1] != d->engines[0])
        engine_free(d->engines[1]);
    engine_free(d->engines[0]);
    free(d->pending);
    free(d->tables);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->moved);
    free(d);
}

/* Closes the players of the tables whose thread never started, here on
 * the thread that seated them: an engine it started as a child is stopped
 * by PR_SET_PDEATHSIG when this thread ends, and must get its quit first. */
static void unseat_unstarted(Duel *d)
{
    for (int i = 0; i < d->o.concurrency; i++)
        if (!d->tables[i].started)
            for (int s = 0; s < 2; s++)
                unseat_player(&d->tables[i], s);
}

bool duel_run(Duel *d, Err *err)
{
    /* Every table is seated before the first game, so a player that
     * cannot be reached is reported before anything is played. */
    for (int i = 0; i < d->o.concurrency; i++) {
        Table *t = &d->tables[i];
        if (!(t->ref = referee_new(err))) {
            unseat_unstarted(d);
            return false;
        }
        for (int s = 0; s < 2; s++)
            if (!seat_player(t, s, err)) {
                Err e = *err;
                err_set(err, "%s: %s", d->o.specs[s].name, e.text);
                unseat_unstarted(d);
                return false;
            }
    }
    for (int i = 0; i < d->o.concurrency; i++) {
        Table *t = &d->tables[i];
        if (pthread_create(&t->tid, NULL, table_main, t) != 0) {
            Err e = {{0}};
            err_set(&e, "cannot start a thread");
            fail(d, &e);
            break;
        }
        t->started = true;
    }
    unseat_unstarted(d);
    for (int i = 0; i < d->o.concurrency; i++)
        if (d->tables[i].started)
            pthread_join(d->tables[i].tid, NULL);
    if (d->failed) {
        *err = d->err;
        return false;
    }
    return true;
}

void duel_stop(Duel *d)
{
    atomic_store(&d->stop, true);
    pthread_mutex_lock(&d->lock);
    pthread_cond_broadcast(&d->moved);
    pthread_mutex_unlock(&d->lock);
}

void duel_cancel(Duel *d)
{
    atomic_store(&d->cancel, true);
    duel_stop(d);
    for (int i = 0; i < d->o.concurrency; i++) {
        Table *t = &d->tables[i];
        pthread_mutex_lock(&t->seat_lock);
        for (int s = 0; s < 2; s++)
            if (t->players[s])
                player_cancel(t->players[s]);
        pthread_mutex_unlock(&t->seat_lock);
    }
}

int64_t duel_pairs_done(Duel *d)
{
    return atomic_load(&d->done);
}

bool duel_stopped_by_fault(Duel *d)
{
    pthread_mutex_lock(&d->lock);
    bool b = d->by_fault;
    pthread_mutex_unlock(&d->lock);
    return b;
}
