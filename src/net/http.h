/* http.h - the HTTP side of the server (`shesh serve --http`), on GNU
 * libmicrohttpd in its external-epoll mode: no thread of its own. Each
 * listener gets a daemon; their epoll descriptors sit in one epoll set of
 * ours, whose descriptor the event loop (net.c) watches beside its
 * sockets. A request is checked on the loop (method, size, a body), and
 * one the handler calls cheap is answered there; any other becomes a job
 * of the same scheduler as the socket server's lines (sched.h: the same
 * workers, the same fair turns by peer, the same caps), its connection
 * suspended until the answer is back. The same time budget holds, and a
 * client that hangs up while its request waits or runs gets it stopped.
 * The answers themselves are the handler's (NetHandler.http_answer). */
#ifndef SHESH_HTTP_H
#define SHESH_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "net.h"
#include "sched.h"

/* The longest URL taken, path and query: longer is answered 414. */
#define HTTP_URL_MAX 2048

typedef struct Http Http;

typedef struct HttpSetup {
    const NetConfig *cfg;  /* the listeners, limits and time budget */
    const NetHandler *h;   /* http_answer, http_is_cheap, set_stop */
    Sched *sched;          /* where requests go to be run */
    void *loop_thread;     /* the handler's state for answers on the loop */
    NetStats *stats;       /* requests, busy, timeouts, stopped: counted in */
} HttpSetup;

/* A daemon for each of setup->cfg->http_listeners (which it then owns);
 * NULL with err filled when one cannot start. All of setup must outlive
 * the result. */
Http *http_new(const HttpSetup *setup, Err *err);

/* Readable when a daemon has work, or a client of a suspended request
 * hung up: then call http_run. */
int http_fd(const Http *h);
void http_run(Http *h, double now);

/* The timers: requests over their budget are answered 503 and stopped,
 * the daemons' own timeouts (idle connections) run. Call after every wake
 * of the loop; returns when it is next due (1e300: nothing waits). */
double http_tick(Http *h, double now);

/* Stops accepting (the listeners are closed); requests under way go on,
 * new ones on open connections are answered 503. */
void http_stop_accepting(Http *h);

/* Requests taken and not yet finished (their answer not sent). */
size_t http_pending(const Http *h);

/* Closes every connection and frees what it can; a request still on a
 * worker is freed when its job comes back (sched_collect), its answer
 * dropped. NULL is fine. */
void http_free(Http *h);

#endif
