/* fair.c - round-robin over peers (see fair.h).
 *
 * Peers live in a hash table by key while anybody holds them. Those with
 * something waiting are also on a circle; the circle's entry point is the
 * peer whose turn is next, so "go to the end of the round" is one step of
 * that pointer. Everything is O(1) but the table's rare growth. */
#include "fair.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"

struct FairPeer {
    char key[FAIR_KEY_MAX];
    size_t held;              /* fair_peer_get calls not yet put back */
    size_t waiting;
    FairItem *head, *tail;    /* its waiting items, oldest first */
    FairPeer *chain;          /* the next in its hash bucket */
    FairPeer *rprev, *rnext;  /* on the circle, when waiting > 0 */
};

struct Fair {
    FairPeer **buckets;
    size_t nbuckets; /* a power of two */
    size_t npeers;
    size_t waiting;
    FairPeer *turn;  /* the circle, at the peer whose turn is next; NULL: empty */
};

#define FIRST_BUCKETS 64

Fair *fair_new(Err *err)
{
    Fair *f = calloc(1, sizeof *f);
    if (f)
        f->buckets = calloc(FIRST_BUCKETS, sizeof *f->buckets);
    if (!f || !f->buckets) {
        free(f);
        err_set(err, "out of memory for the request scheduler");
        return NULL;
    }
    f->nbuckets = FIRST_BUCKETS;
    return f;
}

void fair_free(Fair *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nbuckets; i++)
        for (FairPeer *p = f->buckets[i], *next; p; p = next) {
            next = p->chain;
            free(p);
        }
    free(f->buckets);
    free(f);
}

static size_t bucket_of(const Fair *f, const char *key)
{
    return (size_t)fnv_bytes(FNV_OFFSET, key, strlen(key)) & (f->nbuckets - 1);
}

/* Doubles the table when it gets crowded; staying as it is when memory is
 * short only makes lookups longer. */
static void grow(Fair *f)
{
    size_t n = f->nbuckets * 2;
    FairPeer **b = calloc(n, sizeof *b);
    if (!b)
        return;
    FairPeer **old = f->buckets;
    size_t old_n = f->nbuckets;
    f->buckets = b;
    f->nbuckets = n;
    for (size_t i = 0; i < old_n; i++)
        for (FairPeer *p = old[i], *next; p; p = next) {
            next = p->chain;
            size_t k = bucket_of(f, p->key);
            p->chain = b[k];
            b[k] = p;
        }
    free(old);
}

FairPeer *fair_peer_get(Fair *f, const char *key)
{
    size_t k = bucket_of(f, key);
    for (FairPeer *p = f->buckets[k]; p; p = p->chain)
        if (strncmp(p->key, key, FAIR_KEY_MAX - 1) == 0) {
            p->held++;
            return p;
        }
    FairPeer *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    snprintf(p->key, sizeof p->key, "%s", key);
    p->held = 1;
    p->chain = f->buckets[k];
    f->buckets[k] = p;
    if (++f->npeers > f->nbuckets)
        grow(f);
    return p;
}

void fair_peer_put(Fair *f, FairPeer *p)
{
    if (--p->held > 0)
        return;
    FairPeer **link = &f->buckets[bucket_of(f, p->key)];
    while (*link != p)
        link = &(*link)->chain;
    *link = p->chain;
    f->npeers--;
    free(p);
}

size_t fair_peer_waiting(const FairPeer *p)
{
    return p->waiting;
}

size_t fair_waiting(const Fair *f)
{
    return f->waiting;
}

/* p joins the circle as the last of the round (just before whose turn it is). */
static void circle_join(Fair *f, FairPeer *p)
{
    if (!f->turn) {
        p->rprev = p->rnext = p;
        f->turn = p;
        return;
    }
    FairPeer *last = f->turn->rprev;
    p->rprev = last;
    p->rnext = f->turn;
    last->rnext = p;
    f->turn->rprev = p;
}

static void circle_leave(Fair *f, FairPeer *p)
{
    if (p->rnext == p) {
        f->turn = NULL;
    } else {
        p->rprev->rnext = p->rnext;
        p->rnext->rprev = p->rprev;
        if (f->turn == p)
            f->turn = p->rnext;
    }
    p->rprev = p->rnext = NULL;
}

void fair_push(Fair *f, FairPeer *p, FairItem *it)
{
    it->next = NULL;
    it->prev = p->tail;
    if (p->tail)
        p->tail->next = it;
    else
        p->head = it;
    p->tail = it;
    if (p->waiting++ == 0)
        circle_join(f, p);
    f->waiting++;
}

void fair_remove(Fair *f, FairPeer *p, FairItem *it)
{
    if (it->prev)
        it->prev->next = it->next;
    else
        p->head = it->next;
    if (it->next)
        it->next->prev = it->prev;
    else
        p->tail = it->prev;
    it->prev = it->next = NULL;
    f->waiting--;
    if (--p->waiting == 0)
        circle_leave(f, p);
}

FairItem *fair_pop(Fair *f, FairPeer **peer)
{
    FairPeer *p = f->turn;
    if (!p)
        return NULL;
    FairItem *it = p->head;
    /* Its turn is used: the next peer's comes first, p's after every other. */
    f->turn = p->rnext;
    fair_remove(f, p, it);
    if (peer)
        *peer = p;
    return it;
}
