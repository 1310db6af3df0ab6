/* http.c - the HTTP side of the server on libmicrohttpd (http.h).
 *
 * MHD runs in external-epoll mode: each daemon keeps its own epoll set,
 * and we hold those descriptors in one set of ours, which the event loop
 * watches. Every MHD callback therefore runs on the loop thread, like the
 * rest of net.c; only the job's run (the handler's answer) runs on a
 * worker, and it sees nothing of MHD: the request's text is copied into
 * the job and the answer comes back in a Buf of its own.
 *
 * While a request runs its connection is suspended, so MHD does not read
 * it and would not notice a client that hangs up. Its socket is therefore
 * put in our epoll set too, for EPOLLRDHUP alone, until it is resumed: a
 * hang-up stops the search. (An HTTP client does not half-close its
 * sending side and then wait for an answer; one that did would be taken
 * for gone.) */
#include "http.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "json.h"

#define NEVER 1e300
/* Bytes of MHD's pool per connection: the request line, headers and a
 * record per query parameter (MHD makes them before we see the request),
 * well over what a URL of HTTP_URL_MAX bytes needs; a longer URL gets MHD's
 * own 414. At 16 KiB, 250 parameters in 1,000 bytes ran it out, and MHD
 * then left the connection without an answer. */
#define CONN_MEMORY (128u << 10)

typedef struct HttpDaemon {
    Http *http;
    struct MHD_Daemon *d;
    Listener *l;
} HttpDaemon;

/* A connection, for the deadline on the request it is sending: MHD's own
 * timeout counts only silence, so a client that sends a byte now and then
 * would hold it for ever. */
typedef struct HttpConn HttpConn;
struct HttpConn {
    int fd;
    double since; /* its start, or the end of its last request: when the
                     request now arriving began, at the latest */
    bool busy;    /* a request of it is whole and being answered */
    bool cut;     /* shut down over its deadline */
    HttpConn *prev, *next;
};

typedef struct HttpReq HttpReq;
struct HttpReq {
    SchedJob job; /* first: sched.h hands back a SchedJob * */
    Http *http;   /* NULL once the daemons are gone */
    Sched *sched; /* outlives the daemons: its job may come back after them */
    HttpHandler nh; /* a copy: a job may still run after the daemons are gone */
    HttpDaemon *hd;
    struct MHD_Connection *mc;
    /* The request, copied: method, path, then key and value of each
     * parameter, each NUL-ended, in text; the pointers point into it. */
    Buf text;
    const char *method, *path;
    NetHttpArg args[NET_HTTP_ARGS_MAX];
    size_t n_args;
    /* The worker's answer. */
    int status;
    Buf body;
    /* The loop's (a worker may still write the two above meanwhile). */
    struct MHD_Response *response; /* ready to queue once resumed */
    int response_status;
    bool late;      /* answered already (over budget, client gone): the
                       worker's answer is dropped */
    bool completed; /* MHD is done with the request */
    bool taken;     /* whole, and dealt with (take) */
    bool in_flight; /* a job: in Http.reqs, counted pending */
    bool suspended; /* its connection is suspended (start_job to req_resume) */
    int refusal;    /* the status it is refused with, or 0 */
    const char *why;
    int fd;         /* watched for a hang-up while >= 0 */
    HttpReq *prev, *next; /* in flight */
};

struct Http {
    HttpSetup s;
    int ep;               /* the daemons' epoll sets and suspended sockets */
    HttpDaemon *daemons;
    size_t n_daemons;
    HttpReq *reqs;        /* suspended: waiting, running, or being answered */
    HttpConn *conns;      /* every connection of every daemon */
    double cut_due;       /* no connection's request is due to be cut before
                             this (cut_slow): every pass of the loop need not
                             look at every connection */
    size_t pending;
    bool stopping;
    bool run_due;         /* a connection was resumed: the daemons must run */
    HttpCounts counts;
};

static HttpConn *conn_of(struct MHD_Connection *mc)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* c's request may begin now: its deadline is --idle-timeout from now. A
 * deadline only ever moves later, so the earliest one is lowered here and
 * raised only by cut_slow's scan. */
static void conn_restart(Http *h, HttpConn *c)
{
    c->since = clock_now();
    double idle = h->s.idle_timeout;
    if (idle > 0 && c->since + idle < h->cut_due)
        h->cut_due = c->since + idle;
}

static void say(Http *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Http *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (h->s.diag)
        diag_say(h->s.diag, fmt, ap);
    va_end(ap);
}

/* MHD's own complaints, one line each, through the server's diagnostics. */
static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    char text[256];
    vsnprintf(text, sizeof text, fmt, ap);
    text[strcspn(text, "\r\n")] = '\0';
    say(cls, "http: %s", text);
}

/* --- answers --- */

static enum MHD_Result queue(struct MHD_Connection *mc, int status, struct MHD_Response *r)
{
    if (!r)
        return MHD_NO; /* out of memory: MHD closes the connection */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    if (status == MHD_HTTP_TOO_MANY_REQUESTS || status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(mc, (unsigned)status, r);
    MHD_destroy_response(r);
    return ok;
}

/* A body as a response: the bytes copied, a newline after them (what the
 * commands print, and what a terminal wants). */
static struct MHD_Response *response_of(Buf *body)
{
    buf_puts(body, "\n");
    return MHD_create_response_from_buffer(body->len, body->data, MHD_RESPMEM_MUST_COPY);
}

/* {"error": message}, the shape of every refusal the API makes. */
static struct MHD_Response *error_response(const char *message)
{
    Buf b;
    buf_init(&b);
    json_error(&b, NULL, message);
    struct MHD_Response *r = response_of(&b);
    buf_free(&b);
    return r;
}

static enum MHD_Result refuse(struct MHD_Connection *mc, int status, const char *message)
{
    return queue(mc, status, error_response(message));
}

static struct MHD_Response *over_budget(const Http *h)
{
    char msg[96];
    snprintf(msg, sizeof msg, "request took longer than its time budget of %g seconds",
             h->s.request_timeout);
    return error_response(msg);
}

/* --- requests --- */

static void unwatch(HttpReq *r)
{
    if (r->fd >= 0 && r->http)
        epoll_ctl(r->http->ep, EPOLL_CTL_DEL, r->fd, NULL);
    r->fd = -1;
}

static void req_free(HttpReq *r)
{
    if (r->response)
        MHD_destroy_response(r->response);
    if (r->job.peer)
        fair_peer_put(r->sched->fair, r->job.peer);
    buf_free(&r->text);
    buf_free(&r->body);
    free(r);
}

/* The answer is ready (r->response): MHD takes the connection up again and
 * calls on_request, which queues it. The daemons run after the caller is
 * done with its list (http_tick), never in the middle of it. */
static void req_resume(HttpReq *r)
{
    unwatch(r);
    r->suspended = false;
    MHD_resume_connection(r->mc);
    r->http->run_due = true;
}

static void req_run(SchedJob *j, void *thread)
{
    HttpReq *r = (HttpReq *)j;
    const HttpHandler *nh = &r->nh;
    if (nh->set_stop)
        nh->set_stop(nh->ctx, thread, &j->stop);
    buf_clear(&r->body);
    r->status = nh->answer(nh->ctx, thread, r->method, r->path, r->args, r->n_args, &r->body);
    if (nh->set_stop)
        nh->set_stop(nh->ctx, thread, NULL);
}

static void req_done(SchedJob *j)
{
    HttpReq *r = (HttpReq *)j;
    if (r->completed) { /* the client went, and MHD with it */
        req_free(r);
        return;
    }
    if (r->late)
        return; /* answered already; freed when MHD completes it */
    r->response = response_of(&r->body);
    r->response_status = r->status;
    req_resume(r);
}

/* The parameters of the query, copied into r as they come. */
typedef struct Gather {
    HttpReq *r;
    size_t offsets[NET_HTTP_ARGS_MAX][2];
    size_t url_bytes;  /* of the URL, about: path, keys, values, separators */
    bool too_many, bad;
} Gather;

static enum MHD_Result gather_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                  size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    Gather *g = cls;
    HttpReq *r = g->r;
    g->url_bytes += key_size + value_size + 2;
    /* A NUL inside (%00) would cut the text short: a different question. */
    if (strlen(key) != key_size || (value && strlen(value) != value_size))
        g->bad = true;
    if (r->n_args == NET_HTTP_ARGS_MAX) {
        g->too_many = true;
        return MHD_YES; /* counted on, for the URL's length */
    }
    g->offsets[r->n_args][0] = r->text.len;
    buf_append(&r->text, key, key_size);
    buf_append(&r->text, "", 1);
    g->offsets[r->n_args][1] = r->text.len;
    buf_append(&r->text, value ? value : "", value ? value_size : 0);
    buf_append(&r->text, "", 1);
    r->n_args++;
    return MHD_YES;
}

/* The request's text into r; a refusal's status and message, or 0. */
static int read_request(HttpReq *r, const char *method, const char *url, const char **why)
{
    struct MHD_Connection *mc = r->mc;
    buf_puts(&r->text, method);
    buf_append(&r->text, "", 1);
    size_t path_at = r->text.len;
    buf_puts(&r->text, url);
    buf_append(&r->text, "", 1);
    Gather g = {.r = r, .url_bytes = strlen(url)};
    MHD_get_connection_values_n(mc, MHD_GET_ARGUMENT_KIND, gather_arg, &g);
    r->method = r->text.data;
    r->path = r->text.data + path_at;
    for (size_t i = 0; i < r->n_args; i++) {
        r->args[i].key = r->text.data + g.offsets[i][0];
        r->args[i].value = r->text.data + g.offsets[i][1];
    }
    if (g.url_bytes > HTTP_URL_MAX) {
        *why = "URL longer than 2048 bytes";
        return MHD_HTTP_URI_TOO_LONG;
    }
    if (g.bad) {
        *why = "a NUL byte in the query";
        return MHD_HTTP_BAD_REQUEST;
    }
    if (g.too_many) {
        *why = "too many parameters";
        return MHD_HTTP_BAD_REQUEST;
    }
    return 0;
}

/* GET carries no body: one is refused before it is read, rather than read
 * for nobody. */
static bool has_body(struct MHD_Connection *mc)
{
    const char *length = MHD_lookup_connection_value(mc, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
    return (length && strcmp(length, "0")) ||
           MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/* The peer's key for the turns and caps, as for a TCP connection. */
static void client_key(struct MHD_Connection *mc, char *key, size_t size)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    socklen_t len = !sa                         ? 0
                    : sa->sa_family == AF_INET6 ? (socklen_t)sizeof(struct sockaddr_in6)
                                                : (socklen_t)sizeof(struct sockaddr_in);
    if (!sa || !listen_peer_key(sa, len, key, size))
        snprintf(key, size, "unknown");
}

/* Watches a suspended request's socket for its client's hang-up. */
static void watch_hangup(Http *h, HttpReq *r)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(r->mc, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return;
    struct epoll_event ev = {.events = EPOLLRDHUP, .data.ptr = r};
    if (epoll_ctl(h->ep, EPOLL_CTL_ADD, ci->connect_fd, &ev) == 0)
        r->fd = ci->connect_fd;
}

/* Hands r to the workers and suspends its connection; or answers 429. */
static enum MHD_Result start_job(Http *h, HttpReq *r)
{
    char key[FAIR_KEY_MAX];
    client_key(r->mc, key, sizeof key);
    FairPeer *peer = fair_peer_get(h->s.sched->fair, key);
    if (!peer)
        return refuse(r->mc, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    if (sched_full(h->s.sched, peer)) {
        fair_peer_put(h->s.sched->fair, peer);
        h->counts.busy++;
        return refuse(r->mc, MHD_HTTP_TOO_MANY_REQUESTS, "server busy; try again later");
    }
    r->job.peer = peer;
    r->job.run = req_run;
    r->job.done = req_done;
    sched_start(h->s.sched, &r->job);
    MHD_suspend_connection(r->mc);
    r->suspended = true;
    watch_hangup(h, r);
    r->next = h->reqs;
    if (h->reqs)
        h->reqs->prev = r;
    h->reqs = r;
    r->in_flight = true;
    h->pending++;
    return MHD_YES;
}

/* The request is whole: refused, answered here, or handed to a worker. */
static enum MHD_Result take(Http *h, HttpReq *r)
{
    HttpConn *c = conn_of(r->mc);
    if (c)
        c->busy = true;
    if (h->stopping)
        return refuse(r->mc, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping");
    if (r->refusal)
        return refuse(r->mc, r->refusal, r->why);
    if (r->nh.is_cheap && r->nh.is_cheap(r->nh.ctx, r->method, r->path)) {
        /* Answered here: cheaper than the trip to a worker and back. */
        int status = r->nh.answer(r->nh.ctx, h->s.loop_thread, r->method, r->path, r->args,
                                   r->n_args, &r->body);
        return queue(r->mc, status, response_of(&r->body));
    }
    return start_job(h, r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *mc, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **con_cls)
{
    (void)version, (void)upload_data;
    HttpDaemon *hd = cls;
    Http *h = hd->http;
    HttpReq *r = *con_cls;
    /* MHD calls this when the headers are in, then (no body) again when
     * the request is whole, then after each resume. A response queued at
     * the first call makes MHD close the connection after it, so only a
     * refusal that should close it (a body, the server stopping) is
     * queued there. */
    if (r) {
        *upload_size = 0; /* a body was refused at the first call */
        if (!r->taken) {
            r->taken = true;
            return take(h, r);
        }
        struct MHD_Response *resp = r->response;
        if (!resp)
            return MHD_YES; /* not yet: MHD woke it for a reason of its own */
        r->response = NULL;
        return queue(mc, r->response_status, resp);
    }
    h->counts.requests++;
    if (h->stopping)
        return refuse(mc, MHD_HTTP_SERVICE_UNAVAILABLE, "the server is stopping");
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return refuse(mc, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET (and HEAD) are answered");
    if (has_body(mc))
        return refuse(mc, MHD_HTTP_CONTENT_TOO_LARGE, "a request body is not accepted");
    r = calloc(1, sizeof *r);
    if (!r)
        return refuse(mc, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    r->http = h;
    r->sched = h->s.sched;
    r->nh = h->s.handler;
    r->hd = hd;
    r->mc = mc;
    r->fd = -1;
    buf_init(&r->text);
    buf_init(&r->body);
    r->refusal = read_request(r, method, url, &r->why);
    *con_cls = r; /* freed when MHD completes the request */
    return MHD_YES;
}

/* MHD is done with a request: answered, or its client gone, or the
 * daemon stopping. */
static void on_completed(void *cls, struct MHD_Connection *mc, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    HttpConn *c = conn_of(mc);
    if (c) {
        c->busy = false;
        conn_restart(((HttpDaemon *)cls)->http, c);
    }
    HttpReq *r = *con_cls;
    if (!r)
        return;
    *con_cls = NULL;
    Http *h = r->http;
    unwatch(r);
    if (r->in_flight) {
        if (r->prev)
            r->prev->next = r->next;
        else
            h->reqs = r->next;
        if (r->next)
            r->next->prev = r->prev;
        h->pending--;
    }
    r->completed = true;
    r->http = NULL;
    if (sched_cancel(r->sched, &r->job))
        h->counts.stopped++;
    if (!r->job.busy)
        req_free(r); /* else when its job comes back (req_done) */
}

/* A suspended request's client hung up: its job is stopped, and its
 * connection resumed for MHD to find it closed. */
static void on_hangup(Http *h, HttpReq *r)
{
    unwatch(r);
    if (r->late)
        return;
    if (sched_cancel(h->s.sched, &r->job))
        h->counts.stopped++;
    r->late = true;
    r->response = error_response("the client went away");
    r->response_status = MHD_HTTP_SERVICE_UNAVAILABLE;
    req_resume(r);
}

/* --- connections --- */

static void on_connection(void *cls, struct MHD_Connection *mc, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    Http *h = cls;
    HttpConn *c = *socket_context;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!ci || !(c = calloc(1, sizeof *c)))
            return; /* untracked: MHD's timeout still holds */
        c->fd = ci->connect_fd;
        conn_restart(h, c);
        c->next = h->conns;
        if (h->conns)
            h->conns->prev = c;
        h->conns = c;
        *socket_context = c;
    } else if (c) {
        if (c->prev)
            c->prev->next = c->next;
        else
            h->conns = c->next;
        if (c->next)
            c->next->prev = c->prev;
        free(c);
        *socket_context = NULL;
    }
}

/* A request not whole within the idle timeout of its connection's start
 * or last answer, however slowly its bytes come, ends the connection, as a
 * line does on the socket side: shut down here, closed by MHD when it sees
 * that. Returns when the next one is due. */
static double cut_slow(Http *h, double now)
{
    double idle = h->s.idle_timeout, next = NEVER;
    if (idle <= 0 || now < h->cut_due)
        return h->cut_due;
    for (HttpConn *c = h->conns; c; c = c->next) {
        if (c->busy || c->cut)
            continue;
        if (now >= c->since + idle) {
            shutdown(c->fd, SHUT_RDWR);
            c->cut = true;
            h->run_due = true;
        } else if (c->since + idle < next) {
            next = c->since + idle;
        }
    }
    h->cut_due = next;
    return next;
}

/* --- the daemons --- */

static bool start_daemon(Http *h, HttpDaemon *hd, Err *err)
{
    const HttpSetup *cfg = &h->s;
    unsigned idle = cfg->idle_timeout > 0 ? (unsigned)(cfg->idle_timeout + 0.999) : 0;
    unsigned limit = cfg->max_connections > 0 && cfg->max_connections < 1000000u
                         ? (unsigned)cfg->max_connections
                         : 1000000u;
    hd->d = MHD_start_daemon(
        MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request,
        hd, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h, /* first: MHD says so */
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)hd->l->fd, MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT,
        idle, MHD_OPTION_NOTIFY_COMPLETED, on_completed, hd, MHD_OPTION_NOTIFY_CONNECTION,
        on_connection, h, MHD_OPTION_END);
    if (!hd->d)
        return err_set(err, "cannot serve HTTP on %s", hd->l->name);
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(hd->d, MHD_DAEMON_INFO_EPOLL_FD);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = hd};
    if (!di || epoll_ctl(h->ep, EPOLL_CTL_ADD, di->epoll_fd, &ev) != 0)
        return err_set(err, "cannot watch the HTTP daemon of %s", hd->l->name);
    return true;
}

Http *http_new(const HttpSetup *setup, Err *err)
{
    Http *h = calloc(1, sizeof *h);
    size_t n = setup->n_listeners;
    if (!h || !(h->daemons = calloc(n ? n : 1, sizeof *h->daemons))) {
        free(h);
        err_set(err, "out of memory starting the HTTP server");
        return NULL;
    }
    h->s = *setup;
    h->cut_due = NEVER;
    h->ep = epoll_create1(EPOLL_CLOEXEC);
    if (h->ep < 0) {
        err_set(err, "cannot create the HTTP event set: %s", strerror(errno));
        http_free(h, NULL);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        HttpDaemon *hd = &h->daemons[h->n_daemons++];
        hd->http = h;
        hd->l = &setup->listeners[i];
        if (!start_daemon(h, hd, err)) {
            http_free(h, NULL);
            return NULL;
        }
    }
    return h;
}

int http_fd(const Http *h)
{
    return h->ep;
}

static void run_daemons(Http *h)
{
    h->run_due = false;
    for (size_t i = 0; i < h->n_daemons; i++)
        if (h->daemons[i].d)
            MHD_run(h->daemons[i].d);
}

void http_run(Http *h, double now)
{
    (void)now;
    struct epoll_event events[64];
    int n = epoll_wait(h->ep, events, 64, 0);
    /* Hang-ups first: running a daemon may free a request (on_completed)
     * whose event is further on in the list. */
    bool daemon_ready = false;
    for (int i = 0; i < n; i++) {
        void *p = events[i].data.ptr;
        bool is_daemon = (char *)p >= (char *)h->daemons &&
                         (char *)p < (char *)(h->daemons + h->n_daemons);
        if (is_daemon)
            daemon_ready = true;
        else
            on_hangup(h, p);
    }
    if (daemon_ready || h->run_due)
        run_daemons(h);
}

double http_tick(Http *h, double now)
{
    double next = NEVER, budget = h->s.request_timeout;
    if (budget > 0) {
        for (HttpReq *r = h->reqs; r; r = r->next) {
            if (r->late || !r->job.busy)
                continue;
            double t = sched_deadline(&r->job, now, budget);
            if (now < t) {
                next = t < next ? t : next;
                continue;
            }
            /* Over budget: answered now, the search told to stop. */
            h->counts.timeouts++;
            if (sched_cancel(h->s.sched, &r->job))
                h->counts.stopped++;
            r->late = true;
            r->response_status = MHD_HTTP_SERVICE_UNAVAILABLE;
            r->response = over_budget(h);
            req_resume(r);
        }
    }
    double cut = cut_slow(h, now);
    next = cut < next ? cut : next;
    if (h->run_due)
        run_daemons(h);
    /* A daemon's timeout is when it must run again: a connection idle too
     * long, or (0) work it has in hand without a new event to wake it, such
     * as a request it has read but not answered. */
    for (size_t i = 0; i < h->n_daemons; i++) {
        struct MHD_Daemon *d = h->daemons[i].d;
        MHD_UNSIGNED_LONG_LONG ms;
        if (!d || MHD_get_timeout(d, &ms) != MHD_YES)
            continue;
        if (ms <= 1) {
            MHD_run(d);
            if (MHD_get_timeout(d, &ms) != MHD_YES)
                continue;
        }
        double t = now + (double)ms / 1000.0;
        next = t < next ? t : next;
    }
    return next;
}

void http_stop_accepting(Http *h)
{
    if (!h || h->stopping)
        return;
    h->stopping = true;
    for (size_t i = 0; i < h->n_daemons; i++) {
        HttpDaemon *hd = &h->daemons[i];
        /* The daemon gives the socket back; closing it is ours. */
        if (hd->d)
            MHD_quiesce_daemon(hd->d);
        listen_close(hd->l);
    }
}

size_t http_pending(const Http *h)
{
    return h ? h->pending : 0;
}

/* MHD must not be stopped while a connection is suspended (it aborts the
 * process): the requests still waiting or running when the server ends
 * (a second signal, or the stop's deadline passed) are answered 503 and
 * their searches told to stop, and the daemons run a few times to send
 * what the sockets take at once. */
static void answer_the_rest(Http *h)
{
    bool any = false;
    for (HttpReq *r = h->reqs; r; r = r->next) {
        if (!r->suspended)
            continue;
        if (sched_cancel(h->s.sched, &r->job))
            h->counts.stopped++;
        r->late = true;
        if (r->response)
            MHD_destroy_response(r->response);
        r->response = error_response("the server is stopping");
        r->response_status = MHD_HTTP_SERVICE_UNAVAILABLE;
        req_resume(r);
        any = true;
    }
    for (int i = 0; any && i < 3; i++)
        run_daemons(h);
}

void http_free(Http *h, HttpCounts *counts)
{
    if (!h)
        return;
    answer_the_rest(h);
    for (size_t i = 0; i < h->n_daemons; i++) {
        HttpDaemon *hd = &h->daemons[i];
        if (hd->d) {
            if (!h->stopping)
                MHD_quiesce_daemon(hd->d);
            MHD_stop_daemon(hd->d); /* on_completed for every request left */
        }
        listen_close(hd->l);
    }
    if (counts) {
        counts->requests += h->counts.requests;
        counts->busy += h->counts.busy;
        counts->timeouts += h->counts.timeouts;
        counts->stopped += h->counts.stopped;
    }
    if (h->ep >= 0)
        close(h->ep);
    free(h->daemons);
    free(h);
}
