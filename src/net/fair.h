/* fair.h - the order in which requests get a worker: round-robin over
 * peers, first come first served within one peer.
 *
 * Each connection has at most one request waiting, so taking connections
 * in turn is already fair between connections; but one address that opens
 * 900 connections would then get 900 turns for every turn of a client with
 * one. Here every peer (a TCP address, or the user behind a Unix socket)
 * gets one turn in each round, whatever the number of connections it
 * holds, and the number waiting is known per peer and in all, for the
 * caps that answer "server busy". */
#ifndef SHESH_FAIR_H
#define SHESH_FAIR_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* The longest peer key, NUL included. */
#define FAIR_KEY_MAX 80

/* Embed one in whatever waits (the connection); only fair.c touches it. */
typedef struct FairItem {
    struct FairItem *prev, *next;
} FairItem;

typedef struct FairPeer FairPeer;
typedef struct Fair Fair;

/* NULL (err filled) when out of memory. */
Fair *fair_new(Err *err);
/* Every peer must have been put back. */
void fair_free(Fair *f);

/* The peer of key (made on first use), counted as held once more; NULL
 * only when out of memory. */
FairPeer *fair_peer_get(Fair *f, const char *key);
/* Done with a peer from fair_peer_get; freed when nobody holds it. Nothing
 * of it may be waiting. */
void fair_peer_put(Fair *f, FairPeer *p);

/* Requests waiting: of one peer, and of all. */
size_t fair_peer_waiting(const FairPeer *p);
size_t fair_waiting(const Fair *f);

/* it waits, behind p's earlier ones. */
void fair_push(Fair *f, FairPeer *p, FairItem *it);
/* The next to run: the first of the peer whose turn it is (that peer goes
 * to the end of the round); NULL when nothing waits. *peer says whose. */
FairItem *fair_pop(Fair *f, FairPeer **peer);
/* it, waiting for p, stops waiting (its connection went away). */
void fair_remove(Fair *f, FairPeer *p, FairItem *it);

#endif
