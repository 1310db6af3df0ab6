/* cli_serve.c - `shesh serve`: the engine behind gnubg's external-player
 * protocol on TCP and Unix sockets, many clients at once. Options become a
 * NetConfig (net.h) and a ProtoConfig (proto.h); SIGINT, SIGTERM and SIGHUP
 * arrive through a signalfd so the event loop stops cleanly. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "engine.h"
#include "http_api.h"
#include "listen.h"
#include "net.h"
#include "num.h"
#include "proto.h"
#include "search.h"
#include "worker.h"

#define SERVE_LISTENERS_MAX 64
#define DEFAULT_ADDRESS "localhost:10000"
#define DEFAULT_PLIES 2 /* gnubg's own default depth */
#define DEFAULT_IDLE 3600.0
#define DEFAULT_BUDGET 60.0
/* Each connection may hold up to 2 MiB of requests and replies waiting
 * (docs/serve.md, Back-pressure): a thousand of them, 2 GiB at worst. */
#define DEFAULT_MAX_CONNECTIONS 1000
/* Text a transcript may hold: a long session of gnubg's boards is a few
 * MB; a client flooding `help` must not fill the disk. */
#define DEFAULT_LOG_MAX_BYTES (64L * 1024 * 1024)
/* Requests waiting for a worker. A 2-ply request takes a few tens of
 * milliseconds of a core: 512 waiting on two cores is a wait of seconds,
 * far inside the time budget; one peer may hold half of them, so a host
 * that opens hundreds of connections leaves room for the others. */
#define DEFAULT_MAX_QUEUE 512
#define DEFAULT_MAX_QUEUE_PER_PEER 256
/* Bytes held in buffers for all connections: a hundred clients at their
 * 2 MiB limit; gnubg's own requests and replies are a few hundred bytes. */
#define DEFAULT_MAX_BUFFERED (256L * 1024 * 1024)

static void serve_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh serve [--listen HOST:PORT]... [--unix PATH]... [--unix-mode MODE]\n"
            "                   [--http HOST:PORT]...\n"
            "                   [--max-connections N] [--max-queue N] [--max-queue-per-peer N]\n"
            "                   [--max-buffered N] [--plies N] [--max-plies N]\n"
            "                   [--idle-timeout S] [--request-timeout S] [--log-dir DIR]\n"
            "                   [--log-max-bytes N] [--threads N] [--weights FILE]\n\n"
            "Answers GNU Backgammon's external-player protocol (gnubg: 'set player 1\n"
            "external HOST:PORT') for many clients at once, until SIGINT,\n"
            "SIGTERM or SIGHUP; with --http, an HTTP/JSON API too (docs/http.md). Without\n"
            "--listen, --unix or --http it listens on " DEFAULT_ADDRESS ".\n\n"
            "  --listen HOST:PORT   TCP address; [::1]:PORT for IPv6, :PORT for every\n"
            "                       interface, port 0 for any free port (printed); may repeat\n"
            "  --unix PATH          Unix socket; may repeat\n"
            "  --http HOST:PORT     TCP address of the HTTP/JSON API (GET /v1/move,\n"
            "                       /v1/cube, /v1/eval, /v1/moves, /v1/id, /v1/health),\n"
            "                       the same workers, queue caps and time budget; may\n"
            "                       repeat\n"
            "  --unix-mode MODE     the Unix sockets' permissions, octal (default 0660:\n"
            "                       the owner and his group may connect)\n"
            "  --max-connections N  connections open at once; more are refused with an\n"
            "                       Error: line (default %d; 0 = no limit); each --http\n"
            "                       address has as many, closed unanswered past it\n"
            "  --max-queue N        requests waiting for a worker; more are answered\n"
            "                       'Error: server busy...' (default %d; 0 = no limit)\n"
            "  --max-queue-per-peer N  the same for one TCP address or one Unix user;\n"
            "                       workers take peers in turn (default %d; 0 = no limit)\n"
            "  --max-buffered N     bytes of requests and replies held for all clients;\n"
            "                       past it the greediest are not read (default 256 MiB;\n"
            "                       0 = no limit)\n"
            "  --plies N            search depth of move and cube answers (default %d,\n"
            "                       or --max-plies if that is lower)\n"
            "  --max-plies N        the most a client may ask for with 'plies N' (default\n"
            "                       2, or --plies if higher; at most %d)\n"
            "  --idle-timeout S     close a connection silent for S seconds (default %g;\n"
            "                       0 = never)\n"
            "  --request-timeout S  answer 'Error: ...time budget...' to a request not done\n"
            "                       in S seconds (default %g; 0 = no limit)\n"
            "  --log-dir DIR        a gzip transcript per connection (read with 'shesh log\n"
            "                       cat', replay with 'shesh replay'); DIR is created\n"
            "                       if missing. A write that fails (a full disk) ends\n"
            "                       that connection's transcript at its last whole entry\n"
            "  --log-max-bytes N    text one transcript may hold; past it the rest of\n"
            "                       that connection is not recorded (default 64 MiB;\n"
            "                       0 = no limit)\n"
            "  --threads N          worker threads (default: one per core, here %d)\n"
            "  --weights FILE       answer with the network file FILE instead of the one\n"
            "                       compiled in (shesh weights shows what a file holds)\n"
            "  --help               this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Requests are limited to 1024 bytes (longer lines get an Error: reply), and\n"
            "lines to 65536 bytes. docs/serve.md has the details.\n"
            "Exit status: 0 stopped by a signal, 1 cannot start (an address in use or\n"
            "invalid...), 2 usage.\n",
            DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_QUEUE, DEFAULT_MAX_QUEUE_PER_PEER, DEFAULT_PLIES,
            SEARCH_MAX_PLIES, DEFAULT_IDLE, DEFAULT_BUDGET, worker_default_threads());
}

/* The log directory is made if missing (one level, as mkdir does), and must
 * be writable now rather than at the first connection. */
static bool prepare_log_dir(const char *dir, Err *err)
{
    if (mkdir(dir, 0750) != 0 && errno != EEXIST)
        return err_set(err, "--log-dir '%s': %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return err_set(err, "--log-dir '%s' is not a directory", dir);
    if (access(dir, W_OK | X_OK) != 0)
        return err_set(err, "--log-dir '%s': %s", dir, strerror(errno));
    return true;
}

/* Many clients need many descriptors: take the hard limit we are given. */
static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* The protocol layer behind the network layer's handler interface. */
static void *serve_session_new(void *ctx)
{
    (void)ctx;
    return proto_session_new();
}

static void serve_session_free(void *ctx, void *session)
{
    (void)ctx;
    proto_session_free(session);
}

/* Each thread that answers requests owns a ProtoWorker: its player and
 * scratch memory, made once, so a request allocates none. */
static void *serve_thread_new(void *ctx, Err *err)
{
    return proto_worker_new(ctx, err);
}

static void serve_thread_free(void *ctx, void *thread)
{
    (void)ctx;
    proto_worker_free(thread);
}

static NetAction serve_handle(void *ctx, void *thread, void *session, const char *line,
                              size_t len, Buf *out)
{
    return proto_handle_on(ctx, thread, session, line, len, out) == PROTO_CLOSE ? NET_CLOSE
                                                                                : NET_REPLY;
}

static void serve_set_stop(void *ctx, void *thread, const atomic_bool *stop)
{
    (void)ctx;
    proto_worker_set_stop(thread, stop);
}

static bool serve_is_cheap(void *ctx, const char *line, size_t len)
{
    return proto_is_cheap(ctx, line, len);
}

/* The HTTP API (http_api.h) behind the network layer's HTTP side. */
static int serve_http_answer(void *ctx, void *thread, const char *method, const char *path,
                             const NetHttpArg *args, size_t n_args, Buf *body)
{
    HttpArg a[NET_HTTP_ARGS_MAX];
    size_t n = n_args < NET_HTTP_ARGS_MAX ? n_args : NET_HTTP_ARGS_MAX;
    for (size_t i = 0; i < n; i++)
        a[i] = (HttpArg){args[i].key, args[i].value};
    return http_api_answer(ctx, thread, method, path, a, n_args > n ? n_args : n, body);
}

static bool serve_http_is_cheap(void *ctx, const char *method, const char *path)
{
    (void)ctx;
    return http_api_is_cheap(method, path);
}

/* Names the signal that arrived, and who sent it. */
static void read_signal(int fd, char *text, size_t size)
{
    struct signalfd_siginfo si;
    if (read(fd, &si, sizeof si) != (ssize_t)sizeof si) {
        snprintf(text, size, "stop requested");
        return;
    }
    const char *name = si.ssi_signo == SIGINT    ? "SIGINT"
                       : si.ssi_signo == SIGTERM ? "SIGTERM"
                       : si.ssi_signo == SIGHUP  ? "SIGHUP"
                                                 : "a signal";
    snprintf(text, size, "%s from pid %u", name, (unsigned)si.ssi_pid);
}

typedef struct ServeOptions {
    ListenAddr addr[SERVE_LISTENERS_MAX];
    size_t naddr;
    ListenAddr http[SERVE_LISTENERS_MAX];
    size_t nhttp;
    int plies, max_plies;
    bool plies_set, max_plies_set;
    double idle, budget;
    const char *log_dir;
    int threads;
    unsigned unix_mode;
    bool unix_mode_set;
    int max_connections, max_queue, max_queue_per_peer;
    long log_max_bytes, max_buffered;
    const char *weights; /* --weights, or NULL: the compiled-in network */
} ServeOptions;

/* An octal mode of at most 0777, as chmod(1) takes it: 660, 0600, 0. */
static bool parse_mode(const char *arg, unsigned *out, Err *err)
{
    size_t n = strlen(arg);
    bool ok = n >= 1 && n <= 4 && strspn(arg, "01234567") == n;
    unsigned long v = ok ? strtoul(arg, NULL, 8) : 0;
    if (!ok || v > 0777) {
        char q[ERR_QUOTE_SIZE(20)];
        err_quote(arg, 20, q);
        return err_set(err, "--unix-mode takes an octal mode from 0 to 0777 (such as 0660), not '%s'",
                       q);
    }
    *out = (unsigned)v;
    return true;
}

/* Returns EXIT_OK to go on, or the exit status. */
static int parse_options(int argc, char **argv, ServeOptions *o)
{
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, 'l'},
        {"unix", required_argument, NULL, 'u'},
        {"http", required_argument, NULL, 'H'},
        {"unix-mode", required_argument, NULL, 'M'},
        {"max-connections", required_argument, NULL, 'C'},
        {"max-queue", required_argument, NULL, 'Q'},
        {"max-queue-per-peer", required_argument, NULL, 'P'},
        {"max-buffered", required_argument, NULL, 'b'},
        {"log-max-bytes", required_argument, NULL, 'B'},
        {"plies", required_argument, NULL, 'p'},
        {"max-plies", required_argument, NULL, 'm'},
        {"idle-timeout", required_argument, NULL, 'i'},
        {"request-timeout", required_argument, NULL, 'r'},
        {"log-dir", required_argument, NULL, 'd'},
        {"threads", required_argument, NULL, 't'},
        {"weights", required_argument, NULL, 'w'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->plies = DEFAULT_PLIES;
    o->idle = DEFAULT_IDLE;
    o->budget = DEFAULT_BUDGET;
    o->threads = worker_default_threads();
    o->unix_mode = LISTEN_UNIX_MODE;
    o->max_connections = DEFAULT_MAX_CONNECTIONS;
    o->log_max_bytes = DEFAULT_LOG_MAX_BYTES;
    o->max_queue = DEFAULT_MAX_QUEUE;
    o->max_queue_per_peer = DEFAULT_MAX_QUEUE_PER_PEER;
    o->max_buffered = DEFAULT_MAX_BUFFERED;
    Err err = {""};
    bool ok = true, bad_address = false;
    int c;
    optind = 1;
    opterr = 0;
    while (ok && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
        case 'u':
            if (o->naddr >= SERVE_LISTENERS_MAX) {
                ok = err_set(&err, "more than %d addresses", SERVE_LISTENERS_MAX);
                break;
            }
            ok = c == 'l' ? listen_parse_tcp(optarg, &o->addr[o->naddr], &err)
                          : listen_parse_unix(optarg, &o->addr[o->naddr], &err);
            bad_address = !ok;
            o->naddr += ok;
            break;
        case 'H':
            if (o->nhttp >= SERVE_LISTENERS_MAX) {
                ok = err_set(&err, "more than %d HTTP addresses", SERVE_LISTENERS_MAX);
                break;
            }
            ok = listen_parse_tcp(optarg, &o->http[o->nhttp], &err);
            bad_address = !ok;
            o->nhttp += ok;
            break;
        case 'C':
            ok = num_int("--max-connections", optarg, 0, 1000000, &o->max_connections, &err);
            break;
        case 'Q':
            ok = num_int("--max-queue", optarg, 0, 1000000, &o->max_queue, &err);
            break;
        case 'P':
            ok = num_int("--max-queue-per-peer", optarg, 0, 1000000, &o->max_queue_per_peer, &err);
            break;
        case 'b':
            ok = num_long("--max-buffered", optarg, 0, 1L << 40, &o->max_buffered, &err);
            break;
        case 'B':
            ok = num_long("--log-max-bytes", optarg, 0, 1L << 40, &o->log_max_bytes, &err);
            break;
        case 'M':
            ok = parse_mode(optarg, &o->unix_mode, &err);
            o->unix_mode_set = true;
            break;
        case 'w': ok = cli_weights_option(optarg, &o->weights, &err); break;
        case 'p':
            ok = num_int("--plies", optarg, 0, SEARCH_MAX_PLIES, &o->plies, &err);
            o->plies_set = true;
            break;
        case 'm':
            ok = num_int("--max-plies", optarg, 0, SEARCH_MAX_PLIES, &o->max_plies, &err);
            o->max_plies_set = true;
            break;
        case 'i':
            ok = num_double("--idle-timeout", optarg, 0, 1e7, false, &o->idle, &err);
            break;
        case 'r':
            ok = num_double("--request-timeout", optarg, 0, 1e7, false, &o->budget, &err);
            break;
        case 'd':
            o->log_dir = optarg;
            break;
        case 't':
            ok = num_int("--threads", optarg, 1, 1024, &o->threads, &err);
            break;
        case 'h':
            serve_usage(stdout);
            return -1;
        default:
            return cli_option_error("serve", c, argv, longopts);
        }
    }
    if (ok && optind < argc)
        ok = err_set(&err, "unexpected argument '%s'", argv[optind]);
    bool any_unix = false;
    for (size_t i = 0; i < o->naddr; i++)
        if (o->addr[i].kind == LISTEN_UNIX) {
            o->addr[i].mode = o->unix_mode;
            any_unix = true;
        }
    if (ok && o->unix_mode_set && !any_unix)
        ok = err_set(&err, "--unix-mode needs a --unix socket");
    if (ok && !o->max_plies_set)
        o->max_plies = o->plies > 2 ? o->plies : 2;
    if (ok && !o->plies_set && o->plies > o->max_plies)
        o->plies = o->max_plies;
    if (ok && o->plies > o->max_plies)
        ok = err_set(&err, "--plies %d is above --max-plies %d", o->plies, o->max_plies);
    if (!ok && bad_address) {
        /* An address that cannot be served is bad input, like one in use. */
        fprintf(stderr, "shesh serve: %s\n", err.text);
        return EXIT_FAIL;
    }
    if (!ok)
        return cli_usage_error("serve", "%s", err.text);
    if (o->naddr == 0 && o->nhttp == 0)
        listen_parse_tcp(DEFAULT_ADDRESS, &o->addr[o->naddr++], NULL);
    return EXIT_OK;
}

/* Closes what was opened when the server cannot start after all. */
static void close_all(Listener *ls, size_t *n, Listener *http, size_t *nh)
{
    while (*n > 0)
        listen_close(&ls[--*n]);
    while (*nh > 0)
        listen_close(&http[--*nh]);
}

static int serve_fail(const char *text)
{
    fprintf(stderr, "shesh serve: %s\n", text);
    return EXIT_FAIL;
}

int cli_serve(int argc, char **argv)
{
    ServeOptions o;
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;

    Err err;
    if (o.log_dir && !prepare_log_dir(o.log_dir, &err))
        return serve_fail(err.text);
    raise_fd_limit();
#ifdef __GLIBC__
    /* Connection buffers grow to a MiB or two under a flood and are given
     * back when drained. glibc raises its mmap threshold each time such a
     * block is freed, after which big blocks come from the heap and their
     * memory stays with the process; a fixed threshold keeps them mapped,
     * so freeing them returns the memory (200 flooding clients: 108 MB
     * kept after they left). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif

    /* The engine first: a bad network file is refused before any address
     * is taken. */
    Engine *engine = engine_new_with("default", o.weights, &err);
    if (!engine)
        return serve_fail(err.text);

    Listener listeners[SERVE_LISTENERS_MAX], http[SERVE_LISTENERS_MAX];
    size_t n = 0, nh = 0;
    for (size_t i = 0; i < o.naddr + o.nhttp; i++) {
        bool is_http = i >= o.naddr;
        if (!(is_http ? listen_open(&o.http[i - o.naddr], http, SERVE_LISTENERS_MAX, &nh, &err)
                      : listen_open(&o.addr[i], listeners, SERVE_LISTENERS_MAX, &n, &err))) {
            close_all(listeners, &n, http, &nh);
            engine_free(engine);
            return serve_fail(err.text);
        }
    }

    /* Signals become events on a descriptor: blocked here, before the
     * worker threads exist, so every thread inherits the mask. */
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    signal(SIGPIPE, SIG_IGN); /* a vanished client must not kill us */
    /* Under a file size limit (ulimit -f) a transcript's write past it
     * would kill the server; ignored, the write fails with EFBIG like on a
     * full disk, the transcript is rolled back to its last whole member,
     * and the clients are still served. */
    signal(SIGXFSZ, SIG_IGN);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) {
        snprintf(err.text, sizeof err.text, "cannot watch signals: %s", strerror(errno));
        close_all(listeners, &n, http, &nh);
        engine_free(engine);
        return serve_fail(err.text);
    }

    /* Every line from here on goes through the diagnostics' writer thread
     * (made after the signal mask, which it inherits): a stderr nobody
     * reads never holds up the server. */
    Diag *diag = diag_new(stderr, "shesh serve: ", 0, &err);
    if (!diag) {
        close(sfd);
        close_all(listeners, &n, http, &nh);
        engine_free(engine);
        return serve_fail(err.text);
    }

    /* One table of values for every worker: the next request of a board
     * goes to whichever worker is free. */
    EngineTable *table = engine_table_new(o.threads, &err);
    if (!table) {
        diag_free(diag, 2.0);
        close(sfd);
        close_all(listeners, &n, http, &nh);
        engine_free(engine);
        return serve_fail(err.text);
    }
    ProtoConfig pcfg = {.engine = engine, .plies = o.plies, .max_plies = o.max_plies, .table = table};
    NetHandler h = {
        .ctx = &pcfg,
        .session_new = serve_session_new,
        .session_free = serve_session_free,
        .handle = serve_handle,
        .is_cheap = serve_is_cheap,
        .thread_new = serve_thread_new,
        .thread_free = serve_thread_free,
        .set_stop = serve_set_stop,
        .http_answer = serve_http_answer,
        .http_is_cheap = serve_http_is_cheap,
    };
    NetConfig cfg = {
        .listeners = listeners,
        .n_listeners = n,
        .http_listeners = http,
        .n_http_listeners = nh,
        .threads = o.threads,
        .idle_timeout = o.idle,
        .request_timeout = o.budget,
        .max_connections = (size_t)o.max_connections,
        .max_queue = (size_t)o.max_queue,
        .max_queue_per_peer = (size_t)o.max_queue_per_peer,
        .max_buffered = (size_t)o.max_buffered,
        .log_max_bytes = (size_t)o.log_max_bytes,
        .log_dir = o.log_dir,
        .stop_fd = sfd,
        .stop_read = read_signal,
        .diag = diag,
    };
    for (size_t i = 0; i < n; i++)
        diag_printf(diag, "listening on %s", listeners[i].name);
    for (size_t i = 0; i < nh; i++)
        diag_printf(diag, "listening on http://%s", http[i].name);
    diag_printf(diag, "engine %s, %d plies (clients up to %d), %d threads", engine_id(engine),
                o.plies, o.max_plies, o.threads);

    NetStats stats;
    bool ok = net_serve(&cfg, &h, &stats, &err);
    close(sfd);
    if (!ok) {
        diag_free(cfg.diag, 2.0);
        return serve_fail(err.text);
    }
    diag_printf(cfg.diag,
                "stopped after %lu connections (%lu refused), %lu requests (%lu answered "
                "\"server busy\"; %lu over the time budget; %lu stopped under way, nobody "
                "waiting for them)",
                stats.connections, stats.refused, stats.requests, stats.busy, stats.timeouts,
                stats.stopped);
    /* Through the diagnostics' writer, like every other line: a stderr
     * nobody reads delays the exit 2 seconds at most, instead of forever. */
    diag_free(cfg.diag, 2.0);
    /* A request still running at exit uses the engine: leave it be, the
     * process is about to end. */
    if (!stats.abandoned) {
        engine_table_free(table);
        engine_free(engine);
    }
    return EXIT_OK;
}
