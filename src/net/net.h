/* net.h - the server's network layer: line framing of the byte stream, and
 * the event loop that owns every socket and hands requests to a pool of
 * worker threads (worker.h), one request per connection at a time, so the
 * replies of a connection go out in the order of its requests. Requests the
 * handler calls cheap are answered on the loop itself.
 *
 * What runs a request is a NetHandler: the protocol layer in the real
 * server (cli_serve.c wires proto.h in), an echo or a slow handler in the
 * tests. Nothing here knows the protocol. */
#ifndef SHESH_NET_H
#define SHESH_NET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "buf.h"
#include "diag.h"
#include "err.h"
#include "http.h"
#include "listen.h"

/* The longest request line, newline not counted. gnubg's own server dies
 * on 255 bytes; boards are about 130. */
#define NET_LINE_MAX 65536

/* --- framing: bytes in, lines out --- */

typedef enum NetLineKind {
    NET_LINE,     /* a complete line, without its '\n' */
    NET_TOO_LONG, /* a line passed NET_LINE_MAX: the first NET_LINE_MAX bytes;
                     the rest, up to the next '\n', is dropped unseen */
    NET_BAD_NUL   /* a complete line with a NUL byte in it */
} NetLineKind;

/* Called once per line or error, in stream order. */
typedef void (*NetLineFn)(void *ctx, NetLineKind kind, const char *line, size_t len);

typedef struct NetFramer {
    Buf line;          /* the current line so far */
    bool discarding;   /* inside an over-long line: drop up to the '\n' */
    bool after_nl;     /* the previous byte was a '\n' */
    bool has_nul;      /* the current line holds a NUL */
} NetFramer;

void net_framer_init(NetFramer *f);
void net_framer_free(NetFramer *f);

/* Splits data into lines. gnubg's client ends each request with "\n\0":
 * one NUL right after a '\n' is skipped; any other NUL spoils its line. */
void net_framer_feed(NetFramer *f, const char *data, size_t n, NetLineFn emit, void *ctx);

/* End of input: a last line without '\n' still counts as a line. */
void net_framer_finish(NetFramer *f, NetLineFn emit, void *ctx);

/* The reply (one line, "Error: ...\n") to a framing error. */
const char *net_framing_error(NetLineKind kind);

/* --- the server --- */

typedef enum NetAction { NET_REPLY, NET_CLOSE } NetAction;

typedef struct NetHandler {
    void *ctx;
    /* Per-connection state, made on accept, freed after the last request
     * of the connection finished. */
    void *(*session_new)(void *ctx);
    void (*session_free)(void *ctx, void *session);
    /* Runs on a worker thread (or on the loop: is_cheap), never twice at
     * once for one session; thread is the state of the thread it runs on
     * (thread_new below). Appends the complete reply to out (NET_REPLY), or
     * asks to close (NET_CLOSE). */
    NetAction (*handle)(void *ctx, void *thread, void *session, const char *line, size_t len,
                        Buf *out);
    /* Optional (NULL: every line goes to a worker). True for a line that
     * handle answers in microseconds: when its connection has no request
     * on a worker, the event loop runs handle itself, which saves the
     * hand-off to a worker and back (most of a cheap request's time). Must
     * be fast, thread-safe, and say false when unsure: the loop serves
     * every connection, and no time budget can stop a request it runs. */
    bool (*is_cheap)(void *ctx, const char *line, size_t len);
    /* Optional (NULL: handle gets a NULL thread): what one thread owns to
     * answer requests (scratch memory, say), made before serving for each
     * worker thread and for the event loop's thread, freed when the server
     * stops. A NULL result (err filled) keeps the server from starting. */
    void *(*thread_new)(void *ctx, Err *err);
    void (*thread_free)(void *ctx, void *thread);
    /* Optional: lends the thread's state a flag the loop sets while handle
     * runs on that thread when nobody wants its reply any more (the client
     * disconnected, the time budget ran out), so that a long search ends
     * instead of taking a worker from the clients that wait; NULL after
     * the request. */
    void (*set_stop)(void *ctx, void *thread, const atomic_bool *stop);
    /* Needed when NetConfig has HTTP listeners (http.h): the answer to a
     * GET or HEAD request, an HTTP status and its body, appended to body.
     * Runs as handle does: on a worker (thread its state, set_stop lent),
     * or on the loop when http_is_cheap says so. Must answer anything. */
    int (*http_answer)(void *ctx, void *thread, const char *method, const char *path,
                       const NetHttpArg *args, size_t n_args, Buf *body);
    bool (*http_is_cheap)(void *ctx, const char *method, const char *path);
} NetHandler;

typedef struct NetConfig {
    Listener *listeners;    /* open, listening sockets (listen.h); the     */
    size_t n_listeners;     /* server closes them (removing Unix socket    */
                            /* files) when it stops accepting              */
    Listener *http_listeners; /* open TCP sockets that speak HTTP (http.h), */
    size_t n_http_listeners;  /* owned and closed by the server likewise    */
    int threads;            /* worker threads, >= 1 */
    double idle_timeout;    /* seconds without traffic before a connection
                               is closed; 0 = never */
    double request_timeout; /* seconds one request may take; 0 = no limit */
    const char *log_dir;    /* one transcript per connection (txlog.h), or NULL */
    size_t log_max_bytes;   /* text a transcript may hold; past it that
                               connection's recording ends with a note;
                               0 = no limit */
    size_t max_connections; /* open at once; more are refused with an
                               Error: line; 0 = as many as descriptors allow */
    /* Requests waiting for a worker (each connection has at most one), in
     * all and from one peer (a TCP address; the user behind a Unix socket):
     * a request past either is answered "Error: server busy" at once
     * instead of waiting. 0 = no limit. */
    size_t max_queue;
    size_t max_queue_per_peer;
    size_t max_buffered;    /* bytes of requests and replies held for all
                               connections; past it the connections holding
                               more than their share are not read, and start
                               no request, until it falls again; 0 = no limit */
    int stop_fd;            /* readable = stop (a signalfd, eventfd...), or -1;
                               a second event during the stop ends at once */
    /* Reads one event from stop_fd and says what it was ("SIGTERM from
     * pid 12") into text, for diag. NULL: the event is read and dropped. */
    void (*stop_read)(int fd, char *text, size_t size);
    Diag *diag;             /* one line per notable event (diag.h), or NULL */
} NetConfig;

typedef struct NetStats {
    unsigned long connections; /* accepted */
    unsigned long requests;    /* lines handed to the handler */
    unsigned long refused;     /* connections refused: too many open, or
                                  no descriptor left */
    unsigned long busy;        /* requests answered "server busy" */
    unsigned long timeouts;    /* requests over their time budget */
    unsigned long stopped;     /* requests stopped under way: over their
                                  budget, or their client gone */
    bool abandoned;            /* a request was still running at exit: the
                                  handler's context must not be freed */
} NetStats;

/* Serves until cfg->stop_fd fires: then stops accepting, answers every
 * complete line already received, flushes, closes, and returns true. False
 * only when the server could not start (err says why). */
bool net_serve(const NetConfig *cfg, const NetHandler *h, NetStats *stats, Err *err);

#endif
