/* net.c - line framing and the server's event loop (see net.h).
 *
 * One thread owns every socket through epoll (level-triggered); requests
 * run on the worker pool. Each connection has at most one request on a
 * worker at a time: its session is then never used by two threads, and
 * its replies leave in request order however the workers interleave. The
 * lines it pipelined meanwhile wait in its queue. Nothing a connection does
 * can stall the loop: sockets are non-blocking, and a connection whose
 * queue or unsent replies grow past a high-water mark is simply not read
 * until they shrink.
 *
 * A line the handler calls cheap (is_cheap) is answered on the loop itself
 * when its connection has nothing on a worker: the hand-off to a worker and
 * back costs more than such a request. Holding off while a worker has the
 * connection keeps its replies in order and its session on one thread. */
#define _GNU_SOURCE /* accept4: a non-blocking socket without a second call */
#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "diag.h"
#include "fair.h"
#include "http.h"
#include "sched.h"
#include "txlog.h"
#include "version.h"
#include "worker.h"

/* --- framing --- */

void net_framer_init(NetFramer *f)
{
    buf_init(&f->line);
    f->discarding = false;
    f->after_nl = false;
    f->has_nul = false;
}

void net_framer_free(NetFramer *f)
{
    buf_free(&f->line);
}

static void emit_line(NetFramer *f, NetLineKind kind, NetLineFn emit, void *ctx)
{
    emit(ctx, kind, f->line.data ? f->line.data : "", f->line.len);
    buf_clear(&f->line);
    f->has_nul = false;
}

void net_framer_feed(NetFramer *f, const char *data, size_t n, NetLineFn emit, void *ctx)
{
    size_t i = 0;
    while (i < n) {
        if (f->after_nl) {
            f->after_nl = false;
            if (data[i] == '\0') {
                i++;
                continue;
            }
        }
        const char *nl = memchr(data + i, '\n', n - i);
        if (f->discarding) {
            if (!nl)
                return;
            f->discarding = false;
            f->after_nl = true;
            i = (size_t)(nl - data) + 1;
            continue;
        }
        size_t end = nl ? (size_t)(nl - data) : n;
        if (f->line.len + (end - i) > NET_LINE_MAX) {
            /* Report it now, not at its '\n': that may never come. */
            size_t take = NET_LINE_MAX - f->line.len;
            buf_append(&f->line, data + i, take);
            emit_line(f, NET_TOO_LONG, emit, ctx);
            f->discarding = true;
            i += take;
            continue;
        }
        if (memchr(data + i, '\0', end - i))
            f->has_nul = true;
        buf_append(&f->line, data + i, end - i);
        i = end;
        if (nl) {
            emit_line(f, f->has_nul ? NET_BAD_NUL : NET_LINE, emit, ctx);
            f->after_nl = true;
            i++;
        }
    }
}

void net_framer_finish(NetFramer *f, NetLineFn emit, void *ctx)
{
    if (!f->discarding && (f->line.len > 0 || f->has_nul))
        emit_line(f, f->has_nul ? NET_BAD_NUL : NET_LINE, emit, ctx);
    f->discarding = false;
}

const char *net_framing_error(NetLineKind kind)
{
    switch (kind) {
    case NET_TOO_LONG:
        return "Error: line longer than 65536 bytes\n";
    case NET_BAD_NUL:
        return "Error: line contains a NUL byte\n";
    default:
        return "Error: bad line\n";
    }
}

/* --- the event loop --- */

/* Past these, a connection is not read until its backlog drains: a client
 * that pipelines without reading its replies cannot eat the memory. */
#define QUEUE_HIGH (1u << 20)
#define OUT_HIGH (1u << 20)
/* A buffer this big or smaller is kept between requests (no reallocation
 * for the usual small ones); a bigger one is given back once empty, so a
 * connection that once had a burst does not hold its memory while quiet. */
#define KEEP_BYTES (16u << 10)
#define LONG_LOG_BYTES 200 /* first bytes of an over-long line kept in the log */
/* Cheap lines answered on the loop per wake-up of it; the rest go to the
 * workers. One client's request at a time (the common case) is answered in
 * place, but under many connections the workers share the load instead of
 * one thread doing it all (2 CPUs, 64 connections at 0 ply: 43,500
 * requests/s when the loop took every cheap line, 59,300 with this limit,
 * 59,800 with none on the loop), and a client pipelining thousands cannot
 * keep the loop from the others. */
#define INLINE_PER_WAKE 8
#define NEVER 1e300

enum { WATCH_LISTENER, WATCH_STOP, WATCH_POOL, WATCH_CONN, WATCH_HTTP };

/* The first member of everything registered with epoll: tells them apart. */
typedef struct Watch {
    int kind;
} Watch;

typedef struct ListenWatch {
    Watch w;
    Listener *l;
} ListenWatch;

typedef struct Server Server;
typedef struct Conn Conn;

/* A line of a connection, as a request for the workers. */
typedef struct NetJob {
    SchedJob sj; /* first: sched.h hands back a SchedJob * */
    Conn *conn;
    const NetHandler *h;
    void *session;
    Buf line;
    Buf reply;
    NetAction action;
} NetJob;

struct Conn {
    Watch w;
    Server *srv;
    int fd;
    unsigned long id;
    char peer[LISTEN_NAME_MAX];
    void *session;
    NetFramer framer;
    Buf queue;          /* framed lines waiting: records of kind, length, bytes */
    size_t queue_pos;   /* records before this are done */
    Buf out;            /* replies not yet sent */
    size_t out_pos;
    NetJob job;         /* while job.sj.busy (waiting or on the pool), job
                           and session belong to it */
    FairPeer *peer_q;   /* its peer, for the order and the caps */
    size_t held;        /* bytes of buffers counted in Server.buffered */
    size_t job_held;    /* of those, the job's (not read while it is on the pool) */
    bool held_back;     /* not read nor started: over its share of --max-buffered */
    bool late;          /* job overran its budget: its reply was replaced */
    bool read_closed;   /* no more input: EOF, or the server is stopping */
    bool quitting;      /* the client asked to close: flush, then close */
    bool dead;          /* socket closed; freed once not busy */
    bool log_dirty;
    bool log_full;      /* --log-max-bytes reached: no more entries */
    uint32_t events;    /* current epoll interest */
    double deadline;    /* of the job, when busy */
    double last_active; /* last byte read or written */
    double line_started; /* when the line now arriving began; 0: none (a
                            drip of bytes must not hold a connection open) */
    TxLog *log;
    Conn *prev, *next;  /* live connections, or the dead list */
    Conn *dirty_next;
};

struct Server {
    const NetConfig *cfg;
    const NetHandler *h;
    int ep;
    WorkerPool *pool;
    void *loop_thread; /* the handler's state for requests run on the loop */
    TxZip *zip;
    Watch stop_w, pool_w, http_w;
    Http *http;        /* the HTTP listeners' daemons (http.h), or NULL */
    ListenWatch *lw;
    Fair *fair;        /* requests waiting for a worker */
    Sched sched;       /* the pool and the fair queue in front of it */
    size_t buffered;   /* bytes held by every connection's buffers */
    bool squeezed;     /* over --max-buffered (until 7/8 of it) */
    unsigned long squeezes; /* times it went over */
    double squeeze_said;    /* when that was last said: at most once a minute */
    Conn *live;
    Conn *dead;
    Conn *dirty;
    size_t nlive;
    unsigned long next_id;
    bool stopping;
    double stop_deadline;
    bool accept_paused;
    double accept_resume;
    int spare_fd;            /* /dev/null, given up to accept a connection
                                and refuse it when no descriptor is left */
    unsigned long refused_unsaid; /* refusals since the last diagnostic */
    double refused_said;     /* when the last one was said */
    double next_due; /* no timer fires before this */
    int inline_left; /* cheap lines the loop may still answer this wake-up */
    double now;
    char *rbuf;      /* one read buffer for all connections */
    NetStats stats;
};

static void diag(Server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag(Server *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_say(s->cfg->diag, fmt, ap);
    va_end(ap);
}

static void due(Server *s, double t)
{
    if (t < s->next_due)
        s->next_due = t;
}

static void conn_log(Conn *c, TxKind kind, const void *data, size_t len)
{
    if (!c->log || c->log_full || txlog_stopped(c->log))
        return;
    size_t max = c->srv->cfg->log_max_bytes;
    if (max > 0 && txlog_text_bytes(c->log) + len + 64 > max) {
        /* One note says where the recording ends; nothing after it. */
        char note[128];
        int n = snprintf(note, sizeof note,
                         "transcript limit of %zu bytes reached: the rest of this connection "
                         "is not recorded", max);
        txlog_add(c->log, TX_NOTE, note, (size_t)n);
        c->log_full = true;
        kind = TX_NOTE; /* mark dirty below: the note is flushed */
    } else {
        txlog_add(c->log, kind, data, len);
    }
    /* Requests wait for their reply and go out in the same gzip member:
     * half the members, and a kill -9 still loses only what was in flight
     * (requests not answered yet). */
    if (!c->log_dirty && kind != TX_REQ && kind != TX_LONG) {
        c->log_dirty = true;
        c->dirty_next = c->srv->dirty;
        c->srv->dirty = c;
    }
}

static void conn_note(Conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_note(Conn *c, const char *fmt, ...)
{
    if (!c->log)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    conn_log(c, TX_NOTE, text, strlen(text));
}

static void list_remove(Conn **head, Conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        *head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

static void list_push(Conn **head, Conn *c)
{
    c->prev = NULL;
    c->next = *head;
    if (*head)
        (*head)->prev = c;
    *head = c;
}

static size_t out_pending(const Conn *c)
{
    return c->out.len - c->out_pos;
}

static size_t queue_pending(const Conn *c)
{
    return c->queue.len - c->queue_pos;
}

static void flush_log(Conn *c)
{
    Err err;
    /* Once per connection at most: a failed flush stops its transcript. */
    if (c->log && !txlog_flush(c->log, c->srv->zip, &err))
        diag(c->srv, "connection %lu: %s", c->id, err.text);
}

/* Closes the socket at once; the struct lives on until its job returns. */
/* Nobody wants the reply of c's job under way: let it end (NetJob.stop). */
static void conn_stop_job(Conn *c)
{
    if (sched_cancel(&c->srv->sched, &c->job.sj))
        c->srv->stats.stopped++;
}

static void conn_kill(Conn *c, const char *why)
{
    if (c->dead)
        return;
    Server *s = c->srv;
    conn_note(c, "closed: %s", why);
    conn_stop_job(c); /* its reply could go nowhere */
    epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    c->dead = true;
    if (c->log) {
        Err err;
        if (!txlog_close(c->log, s->zip, &err))
            diag(s, "%s", err.text);
        c->log = NULL;
    }
    list_remove(&s->live, c);
    s->nlive--;
    list_push(&s->dead, c);
}

static void conn_free(Conn *c)
{
    Server *s = c->srv;
    s->buffered -= c->held;
    if (c->peer_q)
        fair_peer_put(s->fair, c->peer_q);
    if (c->session)
        s->h->session_free(s->h->ctx, c->session);
    net_framer_free(&c->framer);
    buf_free(&c->queue);
    buf_free(&c->out);
    buf_free(&c->job.line);
    buf_free(&c->job.reply);
    free(c);
}

static void conn_send(Conn *c, const char *data, size_t len)
{
    conn_log(c, TX_REP, data, len);
    buf_append(&c->out, data, len);
}

/* Sends what the socket takes now; the rest waits for EPOLLOUT. */
static void conn_write(Conn *c)
{
    /* A reply is in the transcript before the client can have it: a kill -9
     * after the send must not take from the transcript what was answered. */
    if (c->log_dirty && out_pending(c) > 0)
        flush_log(c);
    while (out_pending(c) > 0) {
        ssize_t n = send(c->fd, c->out.data + c->out_pos, out_pending(c),
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            c->out_pos += (size_t)n;
            c->last_active = c->srv->now;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        } else {
            conn_kill(c, n < 0 && (errno == EPIPE || errno == ECONNRESET)
                             ? "client went away before its reply was sent"
                             : "write error");
            return;
        }
    }
    if (c->out_pos == c->out.len) {
        buf_clear(&c->out);
        c->out_pos = 0;
    } else if (c->out_pos > OUT_HIGH) {
        buf_consume(&c->out, c->out_pos);
        c->out_pos = 0;
    }
}

static void job_run(SchedJob *sj, void *thread)
{
    NetJob *j = (NetJob *)sj;
    buf_clear(&j->reply);
    if (j->h->set_stop)
        j->h->set_stop(j->h->ctx, thread, &j->sj.stop);
    j->action = j->h->handle(j->h->ctx, thread, j->session, j->line.data ? j->line.data : "",
                             j->line.len, &j->reply);
    if (j->h->set_stop)
        j->h->set_stop(j->h->ctx, thread, NULL);
}

/* After a request finished: the connection was active, and may go idle
 * from now on. */
static void conn_answered(Conn *c)
{
    Server *s = c->srv;
    c->last_active = s->now;
    if (s->cfg->idle_timeout > 0)
        due(s, s->now + s->cfg->idle_timeout);
}

/* A request's outcome, in its turn: the reply queued for sending, or the
 * close the client asked for. reply is left to be reused. */
static void conn_take_reply(Conn *c, NetAction action, Buf *reply)
{
    if (action == NET_CLOSE) {
        conn_log(c, TX_QUIT, "", 0);
        c->quitting = true;
    } else {
        conn_log(c, TX_REP, reply->data ? reply->data : "", reply->len);
        if (out_pending(c) == 0) {
            /* The usual case: hand the reply buffer over instead of copying. */
            Buf t = c->out;
            c->out = *reply;
            *reply = t;
            c->out_pos = 0;
        } else {
            buf_append(&c->out, reply->data, reply->len);
        }
    }
    conn_answered(c);
}

/* The reply that stands in for a request over its time budget. */
static void conn_send_over_budget(Conn *c)
{
    char msg[128];
    snprintf(msg, sizeof msg, "Error: request took longer than its time budget of %g seconds\n",
             c->srv->cfg->request_timeout);
    conn_send(c, msg, strlen(msg));
}

/* Answers a cheap line here on the loop. Only while the connection is not
 * busy: then no worker holds its session, and every earlier reply is out. */
static void conn_inline(Conn *c, const char *line, size_t len)
{
    Server *s = c->srv;
    double budget = s->cfg->request_timeout;
    double start = budget > 0 ? clock_now() : 0;
    s->stats.requests++;
    buf_clear(&c->job.reply);
    NetAction action =
        s->h->handle(s->h->ctx, s->loop_thread, c->session, line, len, &c->job.reply);
    /* Nothing can stop a request on the loop, but one over its budget is
     * answered as on a worker: the error in place of its reply. */
    if (budget > 0 && clock_now() - start > budget) {
        s->stats.timeouts++;
        conn_send_over_budget(c);
        conn_note(c, "the late reply was dropped");
        conn_answered(c);
        return;
    }
    conn_take_reply(c, action, &c->job.reply);
}

static void job_done(SchedJob *sj);

static void conn_dispatch(Conn *c, const char *line, size_t len)
{
    Server *s = c->srv;
    if (sched_full(&s->sched, c->peer_q)) {
        static const char busy[] = "Error: server busy; try again later\n";
        s->stats.busy++;
        conn_send(c, busy, sizeof busy - 1);
        return;
    }
    buf_clear(&c->job.line);
    buf_append(&c->job.line, line, len);
    c->job.sj.run = job_run;
    c->job.sj.done = job_done;
    c->job.sj.peer = c->peer_q;
    c->job.conn = c;
    c->job.h = s->h;
    c->job.session = c->session;
    c->late = false;
    if (s->cfg->request_timeout > 0) {
        c->deadline = s->now + s->cfg->request_timeout;
        due(s, c->deadline);
    }
    s->stats.requests++;
    sched_start(&s->sched, &c->job.sj);
}

static void conn_set_events(Conn *c)
{
    uint32_t want = 0;
    if (!c->read_closed && !c->quitting && !c->held_back && queue_pending(c) < QUEUE_HIGH &&
        out_pending(c) < OUT_HIGH)
        want |= EPOLLIN;
    if (out_pending(c) > 0)
        want |= EPOLLOUT;
    if (want != c->events) {
        struct epoll_event ev = {.events = want, .data.ptr = c};
        epoll_ctl(c->srv->ep, EPOLL_CTL_MOD, c->fd, &ev);
        c->events = want;
    }
}

/* Held back, a connection starts a request only once its replies are out:
 * a reply can be far bigger than its request (help), and what it waits to
 * send is what the budget is short of. */
static bool can_dispatch(const Conn *c)
{
    return !c->job.sj.busy && !c->quitting && queue_pending(c) > 0 &&
           out_pending(c) < (c->held_back ? 1 : OUT_HIGH);
}

static void shrink(Buf *b, size_t keep)
{
    if (b->len == 0 && b->cap > keep)
        buf_free(b);
}

/* Gives back the big buffers c no longer uses, and counts what it holds in
 * Server.buffered. The job's buffers are the worker's while it runs: they
 * count as they were handed over. */
static void conn_account(Conn *c)
{
    Server *s = c->srv;
    /* Over the budget even the small buffers kept for the next request go:
     * idle connections' spare room alone must never hold the squeeze on. */
    size_t keep = s->squeezed ? 0 : KEEP_BYTES;
    shrink(&c->framer.line, keep);
    shrink(&c->queue, keep);
    shrink(&c->out, keep);
    if (!c->job.sj.busy || c->job.sj.queued) {
        shrink(&c->job.line, keep);
        shrink(&c->job.reply, keep);
        c->job_held = c->job.line.cap + c->job.reply.cap;
    }
    size_t held = c->framer.line.cap + c->queue.cap + c->out.cap + c->job_held;
    s->buffered += held - c->held; /* modular: right whichever is larger */
    c->held = held;
}

/* Over --max-buffered, the connections holding more than an equal share
 * of it are held back until the total is down to 7/8 of it: those that
 * send most and read least pay, the others are served as ever. */
static void conn_budget(Conn *c)
{
    Server *s = c->srv;
    size_t max = s->cfg->max_buffered;
    if (max == 0)
        return;
    if (!s->squeezed && s->buffered > max) {
        s->squeezed = true;
        s->squeezes++;
        if (s->squeezes == 1 || s->now - s->squeeze_said >= 60) {
            diag(s, "%zu bytes held for %zu connections, over --max-buffered %zu: the greediest "
                    "are not read until it is down to %zu (%lu time%s)",
                 s->buffered, s->nlive, max, max / 8 * 7, s->squeezes,
                 s->squeezes == 1 ? "" : "s");
            s->squeeze_said = s->now;
        }
    }
    /* Only a connection with requests to run or replies to send is held
     * back: one with nothing pending frees what it holds (conn_account),
     * and a half line is read on (it is at most a line long). */
    bool pending = queue_pending(c) > 0 || out_pending(c) > 0;
    c->held_back = s->squeezed && pending && c->held > max / (s->nlive ? s->nlive : 1);
}

static void conn_pump(Conn *c);

/* Back under 7/8 of --max-buffered: every connection held back moves again. */
static void release_squeeze(Server *s)
{
    if (!s->squeezed || s->buffered > s->cfg->max_buffered / 8 * 7)
        return;
    s->squeezed = false;
    for (Conn *c = s->live, *next; c; c = next) {
        next = c->next;
        if (c->held_back) {
            c->held_back = false;
            conn_pump(c);
        }
    }
}

/* Moves a connection along after anything happened to it: starts its next
 * request, sends what can be sent, closes it when it is finished. */
static void conn_pump(Conn *c)
{
    if (c->dead)
        return;
    Server *s = c->srv;
    const NetHandler *h = s->h;
    for (;;) {
        while (can_dispatch(c)) {
            const char *rec = c->queue.data + c->queue_pos;
            unsigned char kind = (unsigned char)rec[0];
            uint32_t len;
            memcpy(&len, rec + 1, sizeof len);
            const char *line = rec + 1 + sizeof len;
            c->queue_pos += 1 + sizeof len + len;
            if (kind == NET_LINE) {
                if (s->inline_left > 0 && h->is_cheap && h->is_cheap(h->ctx, line, len)) {
                    s->inline_left--;
                    conn_inline(c, line, len);
                } else {
                    conn_dispatch(c, line, len);
                }
            } else {
                const char *msg = net_framing_error((NetLineKind)kind);
                conn_send(c, msg, strlen(msg));
            }
        }
        if (c->queue_pos == c->queue.len || c->quitting) {
            buf_clear(&c->queue);
            c->queue_pos = 0;
        } else if (c->queue_pos > KEEP_BYTES && c->queue_pos >= queue_pending(c)) {
            /* Moving the rest down costs no more than what was consumed, and
             * keeps the buffer within twice what is waiting. */
            buf_consume(&c->queue, c->queue_pos);
            c->queue_pos = 0;
        }
        conn_write(c);
        if (c->dead)
            return;
        /* Sending made room under OUT_HIGH: the queue may move again. */
        if (!can_dispatch(c))
            break;
    }
    if (!c->job.sj.busy && out_pending(c) == 0) {
        if (c->quitting) {
            conn_kill(c, "the client asked to close");
            return;
        }
        if (c->read_closed && queue_pending(c) == 0) {
            conn_kill(c, c->srv->stopping ? "the server is stopping" : "every reply sent");
            return;
        }
    }
    conn_account(c);
    conn_budget(c);
    conn_set_events(c);
}

/* Framer output: queue the line (or the framing error) for conn_pump. */
static void on_line(void *ctx, NetLineKind kind, const char *line, size_t len)
{
    Conn *c = ctx;
    c->line_started = 0;
    if (kind == NET_TOO_LONG)
        conn_log(c, TX_LONG, line, len < LONG_LOG_BYTES ? len : LONG_LOG_BYTES);
    else
        conn_log(c, TX_REQ, line, len);
    /* A line is at most NET_LINE_MAX bytes: its length fits 32 bits. */
    uint32_t keep = kind == NET_LINE ? (uint32_t)len : 0; /* errors need no text */
    unsigned char k = (unsigned char)kind;
    buf_append(&c->queue, &k, 1);
    buf_append(&c->queue, &keep, sizeof keep);
    buf_append(&c->queue, line, keep);
}

/* Bytes to read at once: a whole line's worth, or little once half the
 * buffer budget is spent (a few big reads on each of hundreds of
 * connections would be many times the budget). */
static size_t read_size(const Server *s)
{
    size_t max = s->cfg->max_buffered;
    if (max > 0 && (s->squeezed || s->buffered > max / 2))
        return 4096;
    return NET_LINE_MAX;
}

static void conn_read(Conn *c)
{
    Server *s = c->srv;
    /* A few reads per wake-up at most, so a fast sender cannot starve the
     * others; level-triggered epoll calls us again for the rest. */
    for (int round = 0; round < 4 && !c->read_closed; round++) {
        /* Checked before each read, not once a wake-up: hundreds of
         * connections reading a few rounds each would overshoot the
         * budget many times over. */
        conn_account(c);
        conn_budget(c);
        if (c->held_back)
            break;
        ssize_t n = recv(c->fd, s->rbuf, read_size(s), 0);
        if (n > 0) {
            c->last_active = s->now;
            net_framer_feed(&c->framer, s->rbuf, (size_t)n, on_line, c);
            bool partial = c->framer.line.len > 0 || c->framer.discarding;
            if (partial && c->line_started == 0 && s->cfg->idle_timeout > 0) {
                c->line_started = s->now;
                due(s, s->now + s->cfg->idle_timeout);
            }
            if (queue_pending(c) >= QUEUE_HIGH || (size_t)n < read_size(s))
                break;
        } else if (n == 0) {
            c->read_closed = true;
            net_framer_finish(&c->framer, on_line, c);
            conn_note(c, "end of input from the client");
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        } else {
            conn_kill(c, errno == ECONNRESET ? "connection reset by the client" : "read error");
            return;
        }
    }
    conn_pump(c);
}

/* Who is behind a connection, for the turns and caps of fair.h: over TCP
 * its address (listen_peer_key), over a Unix socket the user id. */
static void peer_key(int fd, const Listener *l, const struct sockaddr *sa, socklen_t salen,
                     char *key, size_t size)
{
    if (l->kind == LISTEN_TCP) {
        if (listen_peer_key(sa, salen, key, size))
            return;
    } else {
        struct ucred cred;
        socklen_t len = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
            snprintf(key, size, "uid %u", (unsigned)cred.uid);
            return;
        }
    }
    snprintf(key, size, "unknown"); /* all such share one turn */
}

static void conn_new(Server *s, int fd, const Listener *l, const struct sockaddr *sa,
                     socklen_t salen)
{
    Conn *c = calloc(1, sizeof *c);
    if (!c) {
        diag(s, "out of memory for a new connection");
        close(fd);
        return;
    }
    c->w.kind = WATCH_CONN;
    c->srv = s;
    c->fd = fd;
    c->id = ++s->next_id;
    char key[FAIR_KEY_MAX];
    peer_key(fd, l, sa, salen, key, sizeof key);
    if (l->kind == LISTEN_TCP) {
        listen_sockaddr_name(sa, salen, c->peer, sizeof c->peer);
        int one = 1; /* replies are small and awaited: no Nagle delay */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    } else {
        snprintf(c->peer, sizeof c->peer, "a local process");
    }
    if (!(c->peer_q = fair_peer_get(s->fair, key))) {
        diag(s, "out of memory for a new connection");
        close(fd);
        free(c);
        return;
    }
    /* The operator asked for transcripts: a connection that cannot have
     * one is refused, not served unrecorded. */
    if (s->cfg->log_dir) {
        Err err;
        c->log = txlog_open(s->cfg->log_dir, c->id, &err);
        if (!c->log) {
            diag(s, "connection %lu from %s refused: %s", c->id, c->peer, err.text);
            static const char refusal[] = "Error: the server cannot keep a transcript of "
                                          "this connection; try again later\n";
            ssize_t w = write(fd, refusal, sizeof refusal - 1);
            (void)w; /* a new socket's buffer takes it; if not, the close says enough */
            close(fd);
            fair_peer_put(s->fair, c->peer_q);
            free(c);
            return;
        }
    }
    net_framer_init(&c->framer);
    buf_init(&c->queue);
    buf_init(&c->out);
    buf_init(&c->job.line);
    buf_init(&c->job.reply);
    c->last_active = s->now;
    c->session = s->h->session_new(s->h->ctx);
    c->events = EPOLLIN;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    if (!c->session || epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        diag(s, "cannot take connection %lu from %s: %s", c->id, c->peer,
             c->session ? strerror(errno) : "no session");
        close(fd);
        c->fd = -1;
        Err err;
        txlog_close(c->log, s->zip, &err); /* nothing in it yet: nothing to lose */
        conn_free(c);
        return;
    }
    s->stats.connections++;
    list_push(&s->live, c);
    s->nlive++;
    if (s->cfg->idle_timeout > 0)
        due(s, s->now + s->cfg->idle_timeout);
    if (c->log)
        conn_note(c, "shesh %s, connection %lu from %s on %s", SHESH_VERSION, c->id, c->peer,
                  l->name);
}

static void set_accepting(Server *s, bool on)
{
    for (size_t i = 0; i < s->cfg->n_listeners; i++) {
        Listener *l = &s->cfg->listeners[i];
        if (l->fd < 0)
            continue;
        struct epoll_event ev = {.events = on ? EPOLLIN : 0, .data.ptr = &s->lw[i]};
        epoll_ctl(s->ep, EPOLL_CTL_MOD, l->fd, &ev);
    }
}

/* Says how many connections were refused, at most once a second (a flood
 * of them must not flood the diagnostics too). */
static void say_refused(Server *s, const char *why, bool now)
{
    if (s->refused_unsaid == 0 || (!now && s->now - s->refused_said < 1.0))
        return;
    diag(s, "refused %lu connection%s: %s", s->refused_unsaid, s->refused_unsaid == 1 ? "" : "s",
         why);
    s->refused_unsaid = 0;
    s->refused_said = s->now;
}

/* Tells a connection the server cannot take it, and closes it: an answer
 * rather than silence. */
static void refuse(Server *s, int fd, const char *why)
{
    static const char line[] = "Error: too many connections; try again later\n";
    ssize_t w = write(fd, line, sizeof line - 1);
    (void)w; /* a new socket's buffer takes it; if not, the close says enough */
    close(fd);
    s->stats.refused++;
    s->refused_unsaid++;
    say_refused(s, why, false);
    if (s->refused_unsaid > 0)
        due(s, s->refused_said + 1.0); /* the rest is said then */
}

static void on_accept(Server *s, Listener *l)
{
    for (int k = 0; k < 64; k++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        int fd = accept4(l->fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            size_t max = s->cfg->max_connections;
            if (max > 0 && s->nlive >= max) {
                char why[64];
                snprintf(why, sizeof why, "%zu open, the most --max-connections allows", max);
                refuse(s, fd, why);
            } else {
                conn_new(s, fd, l, (struct sockaddr *)&ss, len);
            }
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        /* No descriptor left: give up the spare one to take the connection
         * and refuse it, so that the client hears why instead of waiting. */
        if ((errno == EMFILE || errno == ENFILE) && s->spare_fd >= 0) {
            close(s->spare_fd);
            len = sizeof ss;
            fd = accept4(l->fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
            int e = errno;
            if (fd >= 0)
                refuse(s, fd, "no file descriptor left");
            s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (fd >= 0 || e == EINTR || e == ECONNABORTED)
                continue;
            if (e == EAGAIN || e == EWOULDBLOCK)
                return;
            errno = e;
        }
        /* Out of descriptors or memory: the pending connection would wake
         * us again at once. Rest a moment instead of spinning. */
        diag(s, "cannot accept on %s: %s (pausing new connections for 0.1 s)", l->name,
             strerror(errno));
        s->accept_paused = true;
        s->accept_resume = s->now + 0.1;
        due(s, s->accept_resume);
        set_accepting(s, false);
        return;
    }
}

/* A line's request back from its worker (sched.h has handed the next
 * turn on already: it is another's before c's next request). */
static void job_done(SchedJob *sj)
{
    NetJob *j = (NetJob *)sj;
    Conn *c = j->conn;
    if (c->dead)
        return; /* the reaper frees it */
    if (c->late) {
        c->late = false;
        conn_note(c, "the late reply was dropped");
        conn_answered(c);
    } else {
        conn_take_reply(c, j->action, &j->reply);
    }
    conn_pump(c);
}

static void close_listeners(Server *s)
{
    if (s->http) {
        http_stop_accepting(s->http);
    } else {
        for (size_t i = 0; i < s->cfg->n_http_listeners; i++)
            listen_close(&s->cfg->http_listeners[i]);
    }
    for (size_t i = 0; i < s->cfg->n_listeners; i++) {
        Listener *l = &s->cfg->listeners[i];
        if (l->fd >= 0)
            epoll_ctl(s->ep, EPOLL_CTL_DEL, l->fd, NULL);
        listen_close(l);
    }
}

static void on_stop(Server *s)
{
    char why[128] = "stop requested";
    if (s->cfg->stop_read) {
        s->cfg->stop_read(s->cfg->stop_fd, why, sizeof why);
    } else {
        char drain[1024]; /* signalfd reads need 128 bytes, eventfd 8 */
        ssize_t r = read(s->cfg->stop_fd, drain, sizeof drain);
        (void)r;
    }
    if (s->stopping) {
        diag(s, "%s again: closing every connection now", why);
        while (s->live)
            conn_kill(s->live, "the server was told to stop at once");
        s->stop_deadline = s->now; /* HTTP requests are not waited for either */
        return;
    }
    diag(s, "%s: stopping (%zu connections open)", why, s->nlive);
    s->stopping = true;
    /* Enough for the request in flight to finish or time out, and a little
     * more for the ones already queued behind it. */
    s->stop_deadline = s->now + 10 + s->cfg->request_timeout;
    due(s, s->stop_deadline);
    close_listeners(s);
    for (Conn *c = s->live, *next; c; c = next) {
        next = c->next;
        c->read_closed = true; /* a half-received line is dropped */
        conn_pump(c);
    }
}

static void check_timers(Server *s)
{
    if (s->now < s->next_due)
        return;
    s->next_due = NEVER;
    const NetConfig *cfg = s->cfg;
    say_refused(s, "too many connections", false);
    if (s->refused_unsaid > 0)
        due(s, s->refused_said + 1.0);
    for (Conn *c = s->live, *next; c; c = next) {
        next = c->next;
        if (c->job.sj.busy && !c->late && cfg->request_timeout > 0) {
            c->deadline = sched_deadline(&c->job.sj, s->now, cfg->request_timeout);
            if (s->now >= c->deadline) {
                c->late = true;
                s->stats.timeouts++;
                conn_stop_job(c);
                conn_send_over_budget(c);
                conn_pump(c);
                continue;
            }
            due(s, c->deadline);
        }
        /* A line begun must be finished within the idle timeout, however
         * slowly its bytes come. */
        if (c->line_started > 0 && cfg->idle_timeout > 0) {
            double t = c->line_started + cfg->idle_timeout;
            if (s->now >= t) {
                char why[80];
                snprintf(why, sizeof why, "a line not finished within %g seconds",
                         cfg->idle_timeout);
                conn_kill(c, why);
                continue;
            }
            due(s, t);
        }
        /* Idle: no job of ours running, and no byte moved either way (a
         * client that stopped reading its replies counts as idle too). */
        if (!c->job.sj.busy && cfg->idle_timeout > 0) {
            double t = c->last_active + cfg->idle_timeout;
            if (s->now >= t) {
                char why[64];
                snprintf(why, sizeof why, "idle for %g seconds", cfg->idle_timeout);
                conn_kill(c, why);
                continue;
            }
            due(s, t);
        }
    }
    if (s->accept_paused) {
        if (s->now >= s->accept_resume) {
            s->accept_paused = false;
            if (!s->stopping)
                set_accepting(s, true);
        } else {
            due(s, s->accept_resume);
        }
    }
    if (s->stopping) {
        if (s->now >= s->stop_deadline) {
            while (s->live)
                conn_kill(s->live, "the server stopped before this connection finished");
        } else {
            due(s, s->stop_deadline);
        }
    }
}

static void reap(Server *s)
{
    for (Conn *c = s->dirty, *next; c; c = next) {
        next = c->dirty_next;
        c->log_dirty = false;
        c->dirty_next = NULL;
        if (!c->dead)
            flush_log(c);
    }
    s->dirty = NULL;
    for (Conn *c = s->dead, *next; c; c = next) {
        next = c->next;
        if (!c->job.sj.busy) {
            list_remove(&s->dead, c);
            conn_free(c);
        }
    }
}

static void on_event(Server *s, struct epoll_event *ev)
{
    Watch *w = ev->data.ptr;
    switch (w->kind) {
    case WATCH_LISTENER:
        if (!s->stopping)
            on_accept(s, ((ListenWatch *)w)->l);
        break;
    case WATCH_STOP:
        on_stop(s);
        break;
    case WATCH_POOL:
        sched_collect(&s->sched);
        break;
    case WATCH_HTTP:
        http_run(s->http, s->now);
        break;
    case WATCH_CONN: {
        Conn *c = (Conn *)w;
        if (c->dead)
            break;
        if (ev->events & (EPOLLERR | EPOLLHUP)) {
            /* Nobody left to read a reply: drop whatever is pending. */
            conn_kill(c, "the client hung up");
            break;
        }
        if (ev->events & EPOLLIN)
            conn_read(c);
        if (!c->dead && (ev->events & EPOLLOUT))
            conn_pump(c);
        break;
    }
    }
}

static bool watch(Server *s, int fd, void *ptr, Err *err)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = ptr};
    if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) != 0)
        return err_set(err, "cannot watch descriptor %d: %s", fd, strerror(errno));
    return true;
}

static bool server_start(Server *s, Err *err)
{
    const NetConfig *cfg = s->cfg;
    s->ep = epoll_create1(EPOLL_CLOEXEC);
    if (s->ep < 0)
        return err_set(err, "cannot create the event loop: %s", strerror(errno));
    s->rbuf = malloc(NET_LINE_MAX);
    s->lw = calloc(cfg->n_listeners + 1, sizeof *s->lw);
    if (!s->rbuf || !s->lw)
        return err_set(err, "out of memory starting the server");
    if (cfg->log_dir && !(s->zip = txlog_zip_new(err)))
        return false;
    if (!(s->fair = fair_new(err)))
        return false;
    WorkerThreadState per_thread = {s->h->ctx, s->h->thread_new, s->h->thread_free};
    if (!(s->pool = worker_pool_new(cfg->threads, &per_thread, err)))
        return false;
    s->sched = (Sched){.pool = s->pool,
                       .fair = s->fair,
                       .threads = (size_t)cfg->threads,
                       .max_queue = cfg->max_queue,
                       .max_queue_per_peer = cfg->max_queue_per_peer};
    if (s->h->thread_new && !(s->loop_thread = s->h->thread_new(s->h->ctx, err)))
        return false;
    s->pool_w.kind = WATCH_POOL;
    if (!watch(s, worker_pool_fd(s->pool), &s->pool_w, err))
        return false;
    s->stop_w.kind = WATCH_STOP;
    if (cfg->stop_fd >= 0 && !watch(s, cfg->stop_fd, &s->stop_w, err))
        return false;
    if (cfg->n_http_listeners > 0) {
        HttpSetup hs = {
            .listeners = cfg->http_listeners,
            .n_listeners = cfg->n_http_listeners,
            .max_connections = cfg->max_connections,
            .idle_timeout = cfg->idle_timeout,
            .request_timeout = cfg->request_timeout,
            .diag = cfg->diag,
            .handler = {s->h->ctx, s->h->http_answer, s->h->http_is_cheap, s->h->set_stop},
            .sched = &s->sched,
            .loop_thread = s->loop_thread,
        };
        if (!(s->http = http_new(&hs, err)))
            return false;
        s->http_w.kind = WATCH_HTTP;
        if (!watch(s, http_fd(s->http), &s->http_w, err))
            return false;
    }
    for (size_t i = 0; i < cfg->n_listeners; i++) {
        s->lw[i].w.kind = WATCH_LISTENER;
        s->lw[i].l = &cfg->listeners[i];
        if (!watch(s, cfg->listeners[i].fd, &s->lw[i], err))
            return false;
    }
    return true;
}

bool net_serve(const NetConfig *cfg, const NetHandler *h, NetStats *stats, Err *err)
{
    Server s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.h = h;
    s.ep = -1;
    s.next_due = NEVER;
    s.now = clock_now();
    s.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    bool ok = server_start(&s, err);
    if (!ok)
        close_listeners(&s);

    struct epoll_event events[256];
    /* Stopping, the loop ends once every connection is closed and every
     * HTTP request answered, or at the stop's deadline. */
    while (ok && !(s.stopping && s.nlive == 0 &&
                   (http_pending(s.http) == 0 || s.now >= s.stop_deadline))) {
        int timeout = -1;
        if (s.next_due < NEVER) {
            double ms = (s.next_due - clock_now()) * 1000.0 + 1.0;
            timeout = ms <= 0 ? 0 : ms > 3.6e6 ? 3600000 : (int)ms;
        }
        int n = epoll_wait(s.ep, events, (int)(sizeof events / sizeof events[0]), timeout);
        if (n < 0 && errno != EINTR) {
            diag(&s, "event loop failed: %s", strerror(errno));
            break;
        }
        s.now = clock_now();
        s.inline_left = INLINE_PER_WAKE;
        for (int i = 0; i < n; i++)
            on_event(&s, &events[i]);
        check_timers(&s);
        if (s.http)
            due(&s, http_tick(s.http, s.now));
        reap(&s);
        release_squeeze(&s);
    }
    if (ok && !s.stopping)
        close_listeners(&s); /* the loop failed */
    while (s.live)
        conn_kill(s.live, "the server stopped");
    reap(&s);
    /* Its requests still on a worker come back below; what the HTTP side
     * stopped then is not counted (the process is ending). */
    HttpCounts hc = {0, 0, 0, 0};
    http_free(s.http, &hc);
    s.http = NULL;
    s.stats.requests += hc.requests;
    s.stats.busy += hc.busy;
    s.stats.timeouts += hc.timeouts;
    s.stats.stopped += hc.stopped;

    /* Jobs of connections that went away may still run; give them a moment
     * but never hang the exit on a runaway request. */
    bool joined = true;
    if (s.pool) {
        joined = worker_pool_stop(s.pool, 2.0);
        if (joined) {
            sched_collect(&s.sched); /* every connection is dead: nothing starts */
            reap(&s);
            worker_pool_free(s.pool);
        }
    }
    /* The loop's own state: only the loop, done now, used it. */
    if (s.loop_thread && h->thread_free)
        h->thread_free(h->ctx, s.loop_thread);
    s.stats.abandoned = !joined;
    if (joined) {
        txlog_zip_free(s.zip);
        fair_free(s.fair); /* every connection is freed, every peer put back */
    }
    say_refused(&s, "too many connections", true);
    if (s.spare_fd >= 0)
        close(s.spare_fd);
    if (s.ep >= 0)
        close(s.ep);
    free(s.rbuf);
    free(s.lw);
    if (stats)
        *stats = s.stats;
    return ok;
}
