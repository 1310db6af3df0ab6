/* cli_replay.c - `shesh replay FILE --to ADDR`: sends the requests of a
 * server transcript (txlog.h) again, one at a time, to any server that
 * speaks the protocol (shesh serve, gnubg's external), and reports every
 * reply that differs from the recorded one. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opt.h"
#include "clock.h"
#include "listen.h"
#include "net.h"
#include "num.h"
#include "txlog.h"

/* What the transcript says a request got. */
typedef enum Expect { EXPECT_NOTHING, EXPECT_REPLY, EXPECT_CLOSE } Expect;

/* One request and what it got, as the two cursors of a Script hold them. */
typedef struct Item {
    TxKind kind; /* TX_REQ or TX_LONG */
    const Buf *request;
    Expect expect;
    const Buf *reply;
    long line; /* of the request in the transcript */
} Item;

/* The transcript is read as it is replayed, never held whole: one cursor
 * walks its requests, another its replies, so memory is two entries
 * whatever the file's size. Replies come in request order, so the k-th
 * reply (or quit) belongs to the k-th request, however far apart the
 * client's pipelining put them. */
typedef struct Script {
    size_t n; /* requests in the file */
    TxReader *reqs, *reps;
    TxEntry req, rep;
    bool reps_done; /* no reply left */
} Script;

static void replay_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh replay FILE --to ADDR [--timeout S]\n\n"
            "Sends the requests recorded in FILE (a transcript of 'shesh serve\n"
            "--log-dir') to the server at ADDR (HOST:PORT, [IPV6]:PORT or a Unix socket\n"
            "path), one at a time, and compares each reply with the recorded one. Every\n"
            "difference is printed; a summary line ends the output. FILE is checked\n"
            "whole first, then read as it is replayed (a line over 1 MiB is damage).\n\n"
            "  --to ADDR     the server to talk to\n"
            "  --timeout S   how long to wait for each reply, in seconds, above 0 and at\n"
            "                most 3600 (default 10)\n"
            "  --help        this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 every reply the same, 1 a reply differs (or the server\n"
            "cannot be reached, or FILE is not a transcript), 2 usage.\n");
}

/* Reads the whole file once before anything is sent, so that a file that
 * is not a transcript is refused before the server is touched: counts the
 * requests and checks that every reply has a request before it. */
static bool check(const char *path, size_t *requests, Err *err)
{
    TxReader *r = txlog_reader_open(path, err);
    if (!r)
        return false;
    TxEntry e;
    buf_init(&e.data);
    TxStatus st;
    size_t n = 0, answered = 0;
    bool ok = true;
    while (ok && (st = txlog_read(r, &e, err)) == TXLOG_ENTRY) {
        if (e.kind == TX_REQ || e.kind == TX_LONG) {
            n++;
        } else if (e.kind == TX_REP || e.kind == TX_QUIT) {
            if (answered >= n)
                ok = err_set(err, "transcript '%s' line %ld: a reply with no request before it",
                             path, txlog_reader_line(r));
            answered++;
        }
    }
    if (ok && st == TXLOG_BAD)
        ok = false;
    else if (ok && st == TXLOG_CUT)
        fprintf(stderr, "shesh replay: warning: %s\n", err->text);
    buf_free(&e.data);
    txlog_reader_close(r);
    *requests = n;
    return ok;
}

static void script_close(Script *s)
{
    txlog_reader_close(s->reqs);
    txlog_reader_close(s->reps);
    buf_free(&s->req.data);
    buf_free(&s->rep.data);
}

static bool script_open(const char *path, Script *s, Err *err)
{
    memset(s, 0, sizeof *s);
    buf_init(&s->req.data);
    buf_init(&s->rep.data);
    if (!check(path, &s->n, err))
        return false;
    return (s->reqs = txlog_reader_open(path, err)) && (s->reps = txlog_reader_open(path, err));
}

/* Moves r to its next entry of kind a or b; false at the end. The file
 * was read whole by check(): its end (or cut) was said then. */
static bool next_of(TxReader *r, TxEntry *e, TxKind a, TxKind b)
{
    Err err;
    while (txlog_read(r, e, &err) == TXLOG_ENTRY)
        if (e->kind == a || e->kind == b)
            return true;
    return false;
}

/* The next request and what it got; false when no request is left. */
static bool script_next(Script *s, Item *it)
{
    if (!next_of(s->reqs, &s->req, TX_REQ, TX_LONG))
        return false;
    it->kind = s->req.kind;
    it->request = &s->req.data;
    it->line = txlog_reader_line(s->reqs);
    it->reply = &s->rep.data;
    if (!s->reps_done && !next_of(s->reps, &s->rep, TX_REP, TX_QUIT))
        s->reps_done = true;
    it->expect = s->reps_done          ? EXPECT_NOTHING
                 : s->rep.kind == TX_REP ? EXPECT_REPLY
                                       : EXPECT_CLOSE;
    return true;
}

typedef enum Got { GOT_ALL, GOT_TIMEOUT, GOT_EOF } Got;

/* Reads into got until it holds `lines` newlines (or EOF, or the time is up).
 * Bytes past the last wanted newline stay in carry for the next reply. */
static Got read_lines(int fd, Buf *carry, Buf *got, size_t lines, double timeout)
{
    buf_clear(got);
    double until = clock_now() + timeout;
    size_t seen = 0, used = 0;
    for (;;) {
        while (used < carry->len && seen < lines)
            seen += carry->data[used++] == '\n';
        if (seen >= lines) {
            buf_append(got, carry->data, used);
            buf_consume(carry, used);
            return GOT_ALL;
        }
        double left = until - clock_now();
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int rc = left > 0 ? poll(&pfd, 1, (int)ceil(left * 1000)) : 0;
        if (rc < 0 && errno == EINTR)
            continue;
        char chunk[65536];
        ssize_t n = rc > 0 ? recv(fd, chunk, sizeof chunk, 0) : -1;
        if (n > 0) {
            buf_append(carry, chunk, (size_t)n);
            continue;
        }
        buf_append(got, carry->data, carry->len);
        buf_clear(carry);
        return rc > 0 ? GOT_EOF : GOT_TIMEOUT;
    }
}

static size_t count_lines(const Buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->data[i] == '\n';
    return n;
}

static void show(const char *label, const char *data, size_t len)
{
    Buf b;
    buf_init(&b);
    txlog_escape(&b, data, len);
    printf("  %s %s\n", label, b.len ? b.data : "(nothing)");
    buf_free(&b);
}

static void report(const Item *it, const char *what, const Buf *got)
{
    printf("line %ld: %s\n", it->line, what);
    show(it->kind == TX_LONG ? "request:  (over the line limit) starting" : "request: ",
         it->request->data, it->request->len);
    if (it->expect == EXPECT_CLOSE)
        printf("  expected: the connection closed, no reply\n");
    else
        show("expected:", it->reply->data, it->reply->len);
    show("got:     ", got->data, got->len);
}

/* Sends one request as it was received: an over-long one is rebuilt from
 * its recorded first bytes, padded past the limit. */
static bool send_request(int fd, const Item *it)
{
    if (it->kind != TX_LONG)
        return listen_send_all(fd, it->request->data ? it->request->data : "",
                               it->request->len) &&
               listen_send_all(fd, "\n", 1);
    Buf b;
    buf_init(&b);
    buf_append(&b, it->request->data, it->request->len);
    while (b.len <= NET_LINE_MAX)
        buf_append(&b, "x", 1);
    buf_append(&b, "\n", 1);
    bool ok = listen_send_all(fd, b.data, b.len);
    buf_free(&b);
    return ok;
}

static int run_replay(Script *s, int fd, double timeout)
{
    Buf carry, got;
    buf_init(&carry);
    buf_init(&got);
    size_t sent = 0, differ = 0;
    bool stopped = false;
    Item item;
    while (!stopped && script_next(s, &item)) {
        const Item *it = &item;
        if (it->expect == EXPECT_NOTHING)
            break; /* the recorded client left before this reply */
        if (!send_request(fd, it)) {
            buf_clear(&got);
            report(it, "the server closed the connection before this request", &got);
            differ++;
            break;
        }
        sent++;
        if (it->expect == EXPECT_CLOSE) {
            Got g = read_lines(fd, &carry, &got, (size_t)-1, timeout);
            if (g != GOT_EOF || got.len > 0) {
                report(it, g == GOT_TIMEOUT ? "the connection stayed open" : "reply differs",
                       &got);
                differ++;
            }
            stopped = true;
            continue;
        }
        size_t want = count_lines(it->reply);
        Got g = read_lines(fd, &carry, &got, want ? want : 1, want ? timeout : 0.2);
        bool same = got.len == it->reply->len &&
                    (got.len == 0 || !memcmp(got.data, it->reply->data, got.len));
        if (!same) {
            report(it,
                   g == GOT_TIMEOUT ? "reply differs (nothing more came in time)"
                   : g == GOT_EOF   ? "reply differs (the server closed the connection)"
                                    : "reply differs",
                   &got);
            differ++;
            if (g != GOT_ALL && want)
                stopped = true; /* out of step: later replies would all differ */
        }
    }
    if (!stopped) {
        /* Anything more the server sends on its own is a difference too. */
        Got g = read_lines(fd, &carry, &got, 1, 0.2);
        if (got.len > 0 && g != GOT_TIMEOUT) {
            printf("after the last request: the server sent more\n");
            show("got:     ", got.data, got.len);
            differ++;
        }
    }
    if (differ)
        printf("replayed %zu of %zu requests: %zu %s\n", sent, s->n, differ,
               differ == 1 ? "difference" : "differences");
    else
        printf("replayed %zu of %zu requests: every reply the same\n", sent, s->n);
    buf_free(&carry);
    buf_free(&got);
    return differ ? EXIT_FAIL : EXIT_OK;
}

int cli_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"to", required_argument, NULL, 't'},
        {"timeout", required_argument, NULL, 'w'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *file = NULL, *to = NULL;
    double timeout = 10;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        Err err;
        if (c == 'h') {
            replay_usage(stdout);
            return EXIT_OK;
        } else if (c == 't') {
            to = optarg;
        } else if (c == 'w') {
            if (!num_double("--timeout", optarg, 0, 3600, true, &timeout, &err))
                return cli_usage_error("replay", "%s", err.text);
        } else {
            return cli_option_error("replay", c, argv, opts);
        }
    }
    if (optind < argc)
        file = argv[optind];
    if (argc - optind > 1)
        return cli_usage_error("replay", "one transcript at a time ('%s' too many)",
                               argv[optind + 1]);
    if (!file)
        return cli_usage_error("replay", "give the transcript FILE");
    if (!to)
        return cli_usage_error("replay", "give the server with --to ADDR");
    Err err;
    ListenAddr addr;
    if (!listen_parse(to, &addr, &err))
        return cli_usage_error("replay", "--to: %s", err.text);
    Script s;
    if (!script_open(file, &s, &err)) {
        fprintf(stderr, "shesh replay: %s\n", err.text);
        script_close(&s);
        return EXIT_FAIL;
    }
    int fd = listen_connect(&addr, timeout, &err);
    if (fd < 0) {
        fprintf(stderr, "shesh replay: cannot connect to %s\n", err.text);
        script_close(&s);
        return EXIT_FAIL;
    }
    int rc = run_replay(&s, fd, timeout);
    close(fd);
    script_close(&s);
    return rc;
}
