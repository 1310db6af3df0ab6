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

#include "buf.h"
#include "diag.h"
#include "err.h"
#include "listen.h"
#include "sched.h"

/* The longest URL taken, path and query: longer is answered 414. */
#define HTTP_URL_MAX 2048

/* One query parameter of a request, decoded; value "" when the parameter
 * had no '='. */
typedef struct NetHttpArg {
    const char *key;
    const char *value;
} NetHttpArg;

/* The most query parameters a request may carry; more is a 400. */
#define NET_HTTP_ARGS_MAX 16

/* What answers: the server's handler (net.h's NetHandler lends these). */
typedef struct HttpHandler {
    void *ctx;
    /* The status and body (appended to body) of a GET or HEAD request; on
     * a worker, with its thread state, or on the loop when is_cheap. */
    int (*answer)(void *ctx, void *thread, const char *method, const char *path,
                  const NetHttpArg *args, size_t n_args, Buf *body);
    bool (*is_cheap)(void *ctx, const char *method, const char *path);
    void (*set_stop)(void *ctx, void *thread, const atomic_bool *stop); /* may be NULL */
} HttpHandler;

typedef struct HttpSetup {
    Listener *listeners;    /* open TCP sockets, owned from now on */
    size_t n_listeners;
    size_t max_connections; /* for each listener; 0 = no limit */
    double idle_timeout;    /* seconds; 0 = never */
    double request_timeout; /* seconds; 0 = no limit */
    Diag *diag;             /* libmicrohttpd's complaints go there; may be NULL */
    HttpHandler handler;
    Sched *sched;           /* where requests go to be run */
    void *loop_thread;      /* the handler's state for answers on the loop */
} HttpSetup;

/* What was counted, for the server's summary. */
typedef struct HttpCounts {
    unsigned long requests; /* taken */
    unsigned long busy;     /* answered 429 */
    unsigned long timeouts; /* answered 503 over their budget */
    unsigned long stopped;  /* stopped under way: over budget, client gone */
} HttpCounts;

typedef struct Http Http;

/* A daemon for each listener; NULL with err filled when one cannot start.
 * setup's pointers must outlive the result. */
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
 * dropped. Adds what was counted to *counts (may be NULL). NULL is fine. */
void http_free(Http *h, HttpCounts *counts);

#endif
