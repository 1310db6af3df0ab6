/* bench_proto.c - what a request costs the protocol layer and the engine
 * alone: proto_handle_on called in a loop on one session and one worker (as
 * a server thread has), no sockets and no threads. Beside the server's own CPU time per request (tests/bench_serve.sh)
 * it tells the engine's share from the server's.
 *
 * Build (from the top of the tree, after `make`):
 *   cc -O2 -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(make -s print-inc) \
 *      tests/tools/bench_proto.c build/libshesh.a -lpcre2-8 -lz -lpthread -lm \
 *      -o bench_proto
 *
 *   bench_proto [-p PLIES] [-s SECONDS] FILE
 *       FILE holds request lines (board lines, as sent on the wire). Times
 *       the engine's start, answers every line once untimed, then answers
 *       them in turn for about SECONDS (default 1) and prints one line:
 *       the start in ms, the requests answered, and the mean, median and
 *       longest time of one request in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "err.h"
#include "proto.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_proto [-p PLIES] [-s SECONDS] FILE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int plies = 0, c;
    double seconds = 1;
    while ((c = getopt(argc, argv, "p:s:")) != -1) {
        switch (c) {
        case 'p': plies = atoi(optarg); break;
        case 's': seconds = atof(optarg); break;
        default: usage();
        }
    }
    if (optind != argc - 1 || plies < 0 || plies > 4 || !(seconds > 0 && seconds <= 3600))
        usage();

    FILE *f = fopen(argv[optind], "r");
    if (!f) {
        perror(argv[optind]);
        return 1;
    }
    char **line = NULL, *text = NULL;
    size_t n = 0, cap = 0, tcap = 0;
    ssize_t len;
    while ((len = getline(&text, &tcap, f)) > 0) {
        text[strcspn(text, "\r\n")] = '\0';
        if (!text[0])
            continue;
        if (n == cap && !(line = realloc(line, (cap = cap ? 2 * cap : 1024) * sizeof *line))) {
            fprintf(stderr, "bench_proto: out of memory\n");
            return 1;
        }
        line[n++] = strdup(text);
    }
    free(text);
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "bench_proto: no requests in %s\n", argv[optind]);
        return 1;
    }

    Err err;
    double t0 = now_s();
    Engine *engine = engine_new("default", &err);
    double start_ms = 1000 * (now_s() - t0);
    if (!engine) {
        fprintf(stderr, "bench_proto: %s\n", err.text);
        return 1;
    }
    ProtoConfig cfg = {.engine = engine, .plies = plies, .max_plies = plies > 2 ? plies : 2};
    /* As a server thread answers: one worker, made once. */
    ProtoWorker *w = proto_worker_new(&cfg, &err);
    if (!w) {
        fprintf(stderr, "bench_proto: %s\n", err.text);
        return 1;
    }
    ProtoSession *s = proto_session_new();
    Buf out;
    buf_init(&out);
    for (size_t i = 0; i < n; i++) { /* untimed: caches and pages warm, as in a server */
        buf_clear(&out);
        proto_handle_on(&cfg, w, s, line[i], strlen(line[i]), &out);
    }

    size_t lcap = 1 << 16, done = 0;
    double *lat = malloc(lcap * sizeof *lat), total = 0;
    for (double until = now_s() + seconds; now_s() < until || done < n;) {
        size_t i = done % n;
        double a = now_s();
        buf_clear(&out);
        proto_handle_on(&cfg, w, s, line[i], strlen(line[i]), &out);
        double t = now_s() - a;
        total += t;
        if (done == lcap && !(lat = realloc(lat, (lcap *= 2) * sizeof *lat))) {
            fprintf(stderr, "bench_proto: out of memory\n");
            return 1;
        }
        lat[done++] = t;
    }
    qsort(lat, done, sizeof *lat, cmp_double);
    printf("plies %d start_ms %.1f requests %zu mean_us %.2f p50_us %.2f max_us %.1f\n", plies,
           start_ms, done, 1e6 * total / (double)done, 1e6 * lat[done / 2], 1e6 * lat[done - 1]);

    free(lat);
    buf_free(&out);
    proto_session_free(s);
    proto_worker_free(w);
    engine_free(engine);
    for (size_t i = 0; i < n; i++)
        free(line[i]);
    free(line);
    return 0;
}
