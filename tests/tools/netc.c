/* netc.c - a small client for servers that speak gnubg's external-player
 * protocol (shesh serve, gnubg's `external`): the shell tests' way to send
 * exact bytes, and a load generator for throughput and latency figures.
 *
 * Build (from the top of the tree):
 *   cc -O2 -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isrc/util -Isrc/net \
 *      tests/tools/netc.c src/net/listen.c src/util/err.c -lpthread -lm -o netc
 *
 *   netc [-t S] ADDR
 *       Sends stdin as it is, ends its side of the connection, and copies
 *       what comes back to stdout until the server closes (exit 0) or S
 *       seconds pass (exit 3; default 10).
 *   netc -L [-c CONNS] [-n REQS] [-p DEPTH] [-l LINES] [-r LINE | -f FILE]
 *           [-P PID] [-W S] ADDR
 *       Load: CONNS connections at once (all connected before the first
 *       request), each sending REQS requests with up to DEPTH in flight
 *       (1 = wait for each reply; gnubg's own server needs 1). Every reply
 *       is LINES lines. The requests are LINE, or FILE's lines in turn. A
 *       reply that differs from another connection's to the same request
 *       counts as an error. Prints one line of figures; exit 1 on errors.
 *       With -P PID it adds the CPU time (user + system, every thread) that
 *       process PID, the server, spent during the run, per request. With
 *       -W S a refused connection is tried again for up to S seconds
 *       (gnubg listens again only a moment after its last client left).
 *   netc -w S [-P PID] [-r LINE] [-l LINES] ADDR
 *       Waits for a server that is starting: connects (again every
 *       millisecond while nothing listens), sends LINE and waits for its
 *       reply of LINES lines (`version` has 4), for up to S seconds in
 *       all. Prints the wall-clock time of the complete reply (seconds since
 *       the epoch, to the microsecond) so that a script can time a start
 *       from exec to first answer. Exit 1 if no answer came in time, 4 if
 *       process PID exited first (the server could not start).
 *   netc -F
 *       Prints a TCP port of 127.0.0.1 that is free at this moment, for a
 *       server that cannot pick its own (gnubg's `external`). Another
 *       process may take it first: scripts retry with a new one.
 *
 * ADDR is HOST:PORT, [IPV6]:PORT or a Unix socket path. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "listen.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Connects, trying again every millisecond for up to `patience` seconds
 * while that fails: gnubg listens again only a moment after its previous
 * client has gone. */
static int dial(const ListenAddr *a, double patience)
{
    double until = now_s() + patience;
    for (;;) {
        Err err;
        int fd = listen_connect(a, 10, &err);
        if (fd >= 0)
            return fd;
        if (now_s() >= until) {
            fprintf(stderr, "netc: %s\n", err.text);
            return -1;
        }
        pause_ms(1);
    }
}

/* --- raw mode --- */

static int raw(const ListenAddr *a, double timeout)
{
    int fd = dial(a, 0);
    if (fd < 0)
        return 1;
    char buf[65536];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0)
        if (!listen_send_all(fd, buf, (size_t)n)) {
            fprintf(stderr, "netc: send: %s\n", strerror(errno));
            break; /* the server may have closed: still print what it said */
        }
    shutdown(fd, SHUT_WR);
    double until = now_s() + timeout;
    for (;;) {
        double left = until - now_s();
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int rc = left > 0 ? poll(&pfd, 1, (int)ceil(left * 1000)) : 0;
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc == 0) {
            fprintf(stderr, "netc: the server did not close within %g s\n", timeout);
            return 3;
        }
        n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        fwrite(buf, 1, (size_t)n, stdout);
    }
    fflush(stdout);
    close(fd);
    return n < 0 ? 1 : 0;
}

/* --- the server process, seen through /proc (Linux) --- */

/* CPU seconds (user + system, all threads) that process pid has used, and
 * its state letter ('Z' once it has exited but is not reaped yet). False if
 * there is no such process or no /proc. */
static bool proc_stat(pid_t pid, double *cpu, char *state)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* The command name, in parentheses, may hold blanks: fields are
     * counted from the last ')'. utime and stime are fields 14 and 15. */
    const char *p = strrchr(text, ')');
    char st;
    unsigned long long utime, stime;
    if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &st, &utime,
                     &stime) != 3)
        return false;
    *cpu = (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
    *state = st;
    return true;
}

static bool proc_alive(pid_t pid)
{
    double cpu;
    char state;
    return proc_stat(pid, &cpu, &state) && state != 'Z' && state != 'X';
}

/* --- wait mode --- */

/* Reads until `lines` newlines came, the server closed, or `until`. */
static bool read_reply(int fd, int lines, double until)
{
    char buf[4096];
    int seen = 0;
    while (seen < lines) {
        double left = until - now_s();
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int rc = left > 0 ? poll(&pfd, 1, (int)ceil(left * 1000)) : 0;
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return false;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return false;
        for (ssize_t i = 0; i < n; i++)
            seen += buf[i] == '\n';
    }
    return true;
}

/* Polls a starting server until it answers one request. Each try is a new
 * connection, which also suits gnubg: it serves one client at a time and
 * listens again once that one has gone. */
static int wait_ready(const ListenAddr *a, double limit, pid_t pid, const char *line, int lines)
{
    double until = now_s() + limit;
    size_t len = strlen(line);
    char *req = malloc(len + 2);
    memcpy(req, line, len);
    memcpy(req + len, "\n", 2);
    int rc = 1;
    while (now_s() < until) {
        if (pid > 0 && !proc_alive(pid)) {
            fprintf(stderr, "netc: process %ld exited before answering\n", (long)pid);
            rc = 4;
            break;
        }
        Err err;
        int fd = listen_connect(a, until - now_s(), &err);
        if (fd >= 0) {
            bool ok = listen_send_all(fd, req, len + 1) && read_reply(fd, lines, until);
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            close(fd);
            if (ok) {
                printf("%lld.%06ld\n", (long long)ts.tv_sec, ts.tv_nsec / 1000);
                rc = 0;
                break;
            }
        }
        pause_ms(1);
    }
    if (rc == 1)
        fprintf(stderr, "netc: no answer within %g s\n", limit);
    free(req);
    return rc;
}

/* --- free port --- */

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = 0};
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sin;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
        getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
        fprintf(stderr, "netc: no free port: %s\n", strerror(errno));
        return 1;
    }
    printf("%d\n", ntohs(sin.sin_port));
    close(fd);
    return 0;
}

/* --- load mode --- */

typedef struct Load {
    ListenAddr addr;
    int conns, reqs, depth, lines;
    char **req;    /* request lines, each ending in '\n' */
    size_t nreq;
    char **first;  /* first reply seen to each request */
    pthread_mutex_t lock;
    pthread_barrier_t go;
    double *lat;   /* conns * reqs latencies */
    long errors;
    double t0, t1;
    pid_t server;  /* > 0: report this process's CPU time during the run */
    double patience; /* seconds a refused connection is tried again */
} Load;

typedef struct Worker {
    Load *ld;
    int index;
    pthread_t th;
} Worker;

static void count_error(Load *ld, int conn, const char *what)
{
    pthread_mutex_lock(&ld->lock);
    if (ld->errors++ < 5)
        fprintf(stderr, "netc: connection %d: %s\n", conn, what);
    pthread_mutex_unlock(&ld->lock);
}

/* The reply must match every other connection's reply to the same line. */
static void check_reply(Load *ld, size_t which, const char *reply, size_t len, int conn)
{
    pthread_mutex_lock(&ld->lock);
    char *first = ld->first[which];
    bool same = true;
    if (!first) {
        first = malloc(len + 1);
        memcpy(first, reply, len);
        first[len] = '\0';
        ld->first[which] = first;
    } else {
        same = strlen(first) == len && !memcmp(first, reply, len);
    }
    pthread_mutex_unlock(&ld->lock);
    if (!same)
        count_error(ld, conn, "a reply differs from another's");
}

static void *load_worker(void *arg)
{
    Worker *w = arg;
    Load *ld = w->ld;
    int fd = dial(&ld->addr, ld->patience);
    pthread_barrier_wait(&ld->go);
    if (fd < 0) {
        count_error(ld, w->index, "cannot connect");
        return NULL;
    }
    double *sent = calloc((size_t)ld->reqs, sizeof *sent);
    size_t cap = 1 << 16, have = 0;
    char *in = malloc(cap);
    int next_send = 0, next_recv = 0, lines = 0;
    while (next_recv < ld->reqs) {
        while (next_send < ld->reqs && next_send - next_recv < ld->depth) {
            const char *r = ld->req[(size_t)(w->index + next_send) % ld->nreq];
            sent[next_send] = now_s();
            if (!listen_send_all(fd, r, strlen(r))) {
                count_error(ld, w->index, "send failed");
                goto done;
            }
            next_send++;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 30000) != 1) {
            count_error(ld, w->index, "no reply within 30 s");
            goto done;
        }
        if (have == cap)
            in = realloc(in, cap *= 2);
        ssize_t n = recv(fd, in + have, cap - have, 0);
        if (n <= 0) {
            count_error(ld, w->index, "the server closed");
            goto done;
        }
        size_t start = 0;
        for (size_t i = have; i < have + (size_t)n; i++) {
            if (in[i] != '\n' || ++lines < ld->lines)
                continue;
            double t = now_s();
            ld->lat[(size_t)w->index * (size_t)ld->reqs + (size_t)next_recv] = t - sent[next_recv];
            check_reply(ld, (size_t)(w->index + next_recv) % ld->nreq, in + start, i + 1 - start,
                        w->index);
            start = i + 1;
            lines = 0;
            if (++next_recv == ld->reqs)
                break;
        }
        have += (size_t)n;
        memmove(in, in + start, have - start);
        have -= start;
    }
done:
    free(sent);
    free(in);
    close(fd);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char **read_requests(const char *file, const char *line, size_t *n)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    FILE *f = file ? fopen(file, "r") : NULL;
    if (file && !f) {
        fprintf(stderr, "netc: %s: %s\n", file, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t tcap = 0;
    ssize_t len;
    while (f ? (len = getline(&text, &tcap, f)) > 0 : *n == 0) {
        const char *s = f ? text : line;
        size_t l = f ? (size_t)len : strlen(line);
        while (l > 0 && s[l - 1] == '\n')
            l--;
        if (l == 0 && f)
            continue;
        if (*n == cap)
            v = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
        v[*n] = malloc(l + 2);
        memcpy(v[*n], s, l);
        memcpy(v[*n] + l, "\n", 2);
        (*n)++;
    }
    free(text);
    if (f)
        fclose(f);
    return v;
}

static int load(Load *ld)
{
    size_t total = (size_t)ld->conns * (size_t)ld->reqs;
    ld->lat = calloc(total, sizeof *ld->lat);
    ld->first = calloc(ld->nreq, sizeof *ld->first);
    for (size_t i = 0; i < total; i++)
        ld->lat[i] = NAN;
    pthread_mutex_init(&ld->lock, NULL);
    pthread_barrier_init(&ld->go, NULL, (unsigned)ld->conns + 1);
    Worker *w = calloc((size_t)ld->conns, sizeof *w);
    for (int i = 0; i < ld->conns; i++) {
        w[i].ld = ld;
        w[i].index = i;
        if (pthread_create(&w[i].th, NULL, load_worker, &w[i]) != 0) {
            fprintf(stderr, "netc: cannot start thread %d\n", i);
            exit(1);
        }
    }
    pthread_barrier_wait(&ld->go);
    double cpu0 = 0, cpu1 = 0;
    char state;
    bool cpu_ok = ld->server > 0 && proc_stat(ld->server, &cpu0, &state);
    ld->t0 = now_s();
    for (int i = 0; i < ld->conns; i++)
        pthread_join(w[i].th, NULL);
    ld->t1 = now_s();
    cpu_ok = cpu_ok && proc_stat(ld->server, &cpu1, &state);
    /* Latencies of the replies that came, sorted for the percentiles. */
    size_t got = 0;
    for (size_t i = 0; i < total; i++)
        if (!isnan(ld->lat[i]))
            ld->lat[got++] = ld->lat[i];
    qsort(ld->lat, got, sizeof *ld->lat, cmp_double);
    double secs = ld->t1 - ld->t0;
    printf("connections %d depth %d replies %zu/%zu errors %ld seconds %.3f rps %.0f", ld->conns,
           ld->depth, got, total, ld->errors, secs, secs > 0 ? (double)got / secs : 0.0);
    if (got)
        printf(" p50 %.3f ms p99 %.3f ms max %.3f ms", 1000 * ld->lat[got / 2],
               1000 * ld->lat[(size_t)((double)got * 0.99) < got ? (size_t)((double)got * 0.99)
                                                                 : got - 1],
               1000 * ld->lat[got - 1]);
    if (cpu_ok && got)
        printf(" server_cpu %.2f s cpu_per_req %.1f us", cpu1 - cpu0,
               1e6 * (cpu1 - cpu0) / (double)got);
    printf("\n");
    free(w);
    return ld->errors || got < total ? 1 : 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: netc [-t S] ADDR\n"
                    "       netc -L [-c CONNS] [-n REQS] [-p DEPTH] [-l LINES] "
                    "[-r LINE | -f FILE] [-P PID] [-W S] ADDR\n"
                    "       netc -w S [-P PID] [-r LINE] [-l LINES] ADDR\n"
                    "       netc -F\n");
    exit(2);
}

int main(int argc, char **argv)
{
    Load ld;
    memset(&ld, 0, sizeof ld);
    ld.conns = 1;
    ld.reqs = 1000;
    ld.depth = 1;
    ld.lines = 1;
    bool is_load = false, is_free = false;
    double timeout = 10, wait = 0;
    long pid = 0;
    const char *line = "version", *file = NULL;
    int c;
    while ((c = getopt(argc, argv, "LFc:n:p:l:r:f:t:w:P:W:")) != -1) {
        switch (c) {
        case 'L': is_load = true; break;
        case 'F': is_free = true; break;
        case 'w': wait = atof(optarg); break;
        case 'P': pid = atol(optarg); break;
        case 'W': ld.patience = atof(optarg); break;
        case 'c': ld.conns = atoi(optarg); break;
        case 'n': ld.reqs = atoi(optarg); break;
        case 'p': ld.depth = atoi(optarg); break;
        case 'l': ld.lines = atoi(optarg); break;
        case 'r': line = optarg; break;
        case 'f': file = optarg; break;
        case 't': timeout = atof(optarg); break;
        default: usage();
        }
    }
    if (is_free) {
        if (optind != argc || is_load || wait != 0)
            usage();
        return free_port();
    }
    if (optind != argc - 1 || (is_load && wait > 0) || wait < 0 || pid < 0 || ld.patience < 0 ||
        ld.conns < 1 || ld.reqs < 1 || ld.depth < 1 || ld.lines < 1)
        usage();
    Err err;
    if (!listen_parse(argv[optind], &ld.addr, &err)) {
        fprintf(stderr, "netc: %s\n", err.text);
        return 2;
    }
    if (wait > 0)
        return wait_ready(&ld.addr, wait, (pid_t)pid, line, ld.lines);
    if (!is_load)
        return raw(&ld.addr, timeout);
    ld.server = (pid_t)pid;
    ld.req = read_requests(file, line, &ld.nreq);
    if (!ld.req || ld.nreq == 0) {
        fprintf(stderr, "netc: no requests\n");
        return 2;
    }
    return load(&ld);
}
