/* cli_bench.c - `shesh bench`: move generation speed on one thread and a
 * signature of everything generated, then the engine's signature and static
 * evaluation speed (bench_engine.h); each signature changes only when that
 * behaviour does (same idea as Stockfish's bench node count). */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_engine.h"
#include "cli.h"
#include "cli_opt.h"
#include "clock.h"
#include "engine.h"
#include "fnv.h"
#include "gzlines.h"
#include "json.h"
#include "movegen.h"
#include "num.h"
#include "posid.h"

#define DEFAULT_POSITIONS "positions/gnubg-1.07/moves.tsv.gz"
/* The longest line read: gnubg's move vectors list every move of a roll
 * on one line (16 KB at most). */
#define LINE_MAX_BENCH (1 << 20)

static void bench_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh bench [--positions FILE] [--seconds S] [--weights FILE] [--json]\n\n"
            "Times legal move generation for every position x all 21 rolls, repeated\n"
            "for about S seconds (default 2) on one thread, and prints move lists per\n"
            "second (overall and in the fastest pass) and a signature: a checksum of\n"
            "every generated move (parts and resulting position, in generation order)\n"
            "that changes only when the move generator's behaviour changes. Then the\n"
            "engine's signature, a checksum of its decisions on up to 512 of the\n"
            "positions (moves at 0, 1 and 2 plies; double, take and resignation\n"
            "answers under ten money and match cube states), and its static\n"
            "evaluations per second on one thread, timed for about S seconds.\n\n"
            "  --positions FILE  tab-separated file (gzip or plain) whose first column\n"
            "                    is a Position ID; '#' lines are skipped and a line\n"
            "                    repeating the previous ID counts once\n"
            "                    (default %s)\n"
            "  --seconds S       how long to time, 0.01 to 3600 (default 2)\n"
            "  --json            one JSON object: movegen_signature, engine_signature,\n"
            "                    move_lists_per_second, evals_per_second and the counts\n"
            "  --weights FILE    the engine with the network file FILE instead of the one\n"
            "                    compiled in\n"
            "  --help            this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done, 1 the file cannot be read or a pass disagrees, 2 usage.\n",
            DEFAULT_POSITIONS);
}

typedef struct PosArray {
    Position *v;
    int n, cap;
    char prev[POSID_LEN + 1]; /* the last ID read */
} PosArray;

/* The Position ID of a line's first column into a (gzlines_each's
 * callback); a line repeating the previous ID counts once. */
static bool take_position(void *ctx, char *line, size_t len, Err *err)
{
    (void)len;
    PosArray *a = ctx;
    line[strcspn(line, "\t")] = '\0';
    if (line[0] == '#' || line[0] == '\0' || !strcmp(line, a->prev))
        return true;
    Position p;
    if (!posid_decode(line, &p, err))
        return false;
    /* posid_decode accepted exactly POSID_LEN characters, so the ID and its
     * NUL are exactly prev's size. */
    memcpy(a->prev, line, sizeof a->prev);
    if (a->n == a->cap) {
        int cap = a->cap ? a->cap * 2 : 512;
        Position *v = realloc(a->v, (size_t)cap * sizeof *v);
        if (!v)
            return err_set(err, "out of memory");
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = p;
    return true;
}

/* Reads the Position IDs of the first column. */
static bool load_positions(const char *path, PosArray *a)
{
    Err err;
    if (!gzlines_each(path, LINE_MAX_BENCH, take_position, a, &err)) {
        fprintf(stderr, "shesh bench: %s\n", err.text);
        return false;
    }
    if (a->n == 0) {
        fprintf(stderr, "shesh bench: %s holds no Position ID\n", path);
        return false;
    }
    return true;
}

/* One pass: every position with the 21 rolls (larger die first, as gnubg's
 * vectors list them). Returns the number of moves generated. */
static long bench_pass(const PosArray *a, MoveList *l, uint64_t *sig)
{
    long moves = 0;
    for (int i = 0; i < a->n; i++)
        for (int d1 = 6; d1 >= 1; d1--)
            for (int d2 = d1; d2 >= 1; d2--) {
                int n = movegen_generate(&a->v[i], d1, d2, l);
                moves += n;
                if (!sig)
                    continue;
                unsigned char head[3] = {(unsigned char)d1, (unsigned char)d2,
                                         (unsigned char)n};
                *sig = fnv_bytes(*sig, head, sizeof head);
                for (int k = 0; k < n; k++) {
                    const Move *m = &l->moves[k];
                    *sig = fnv_bytes(*sig, &m->parts, 1);
                    *sig = fnv_bytes(*sig, m->from, m->parts);
                    *sig = fnv_bytes(*sig, m->to, m->parts);
                    *sig = fnv_bytes(*sig, m->result.side, sizeof m->result.side);
                }
            }
    return moves;
}

int cli_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"positions", required_argument, NULL, 'p'},
        {"seconds", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"weights", required_argument, NULL, 'w'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *path = DEFAULT_POSITIONS;
    double seconds = 2.0;
    bool json = false;
    const char *weights = NULL; /* --weights: NULL for the compiled-in network */
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        Err err;
        if (c == 'h') {
            bench_usage(stdout);
            return EXIT_OK;
        } else if (c == 'j') {
            json = true;
        } else if (c == 'p') {
            path = optarg;
        } else if (c == 'w') {
            if (!cli_weights_option(optarg, &weights, &err))
                return cli_usage_error("bench", "%s", err.text);
        } else if (c == 's') {
            if (!num_double("--seconds", optarg, 0.01, 3600, false, &seconds, &err))
                return cli_usage_error("bench", "%s", err.text);
        } else {
            return cli_option_error("bench", c, argv, opts);
        }
    }
    if (optind < argc)
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);

    PosArray a = {0};
    MoveList *l = malloc(sizeof *l);
    if (!l || !load_positions(path, &a)) {
        free(l);
        free(a.v);
        return EXIT_FAIL;
    }

    /* The signature pass is not timed: hashing every move would cost more
     * than generating it. */
    uint64_t sig = FNV_OFFSET;
    long moves = bench_pass(&a, l, &sig);

    /* The fastest pass is reported too: on a shared machine other loads
     * slow some passes down, and the fastest one is what the code can do. */
    long passes = 0, check = 0;
    double start = clock_now(), elapsed, last = start, fastest = 1e30;
    do {
        check += bench_pass(&a, l, NULL);
        passes++;
        double t = clock_now();
        if (t - last < fastest)
            fastest = t - last;
        last = t;
        elapsed = t - start;
    } while (elapsed < seconds);
    long lists = passes * a.n * 21;
    int status = check == moves * passes ? EXIT_OK : EXIT_FAIL;

    Err err;
    BenchEngineResult eng;
    Engine *e = engine_new_with("default", weights, &err);
    bool engine_ok = e && bench_engine_run(e, a.v, a.n, seconds, &eng, &err);
    engine_free(e);
    if (!engine_ok) {
        fprintf(stderr, "shesh bench: engine: %s\n", err.text);
        status = EXIT_FAIL;
    }

    if (json) {
        char hex[2][17];
        snprintf(hex[0], sizeof hex[0], "%016llx", (unsigned long long)sig);
        Buf out;
        buf_init(&out);
        Json j;
        json_begin(&j, &out);
        json_object_begin(&j);
        json_key(&j, "positions"), json_int(&j, a.n);
        json_key(&j, "move_lists"), json_int(&j, a.n * 21L);
        json_key(&j, "moves"), json_int(&j, moves);
        json_key(&j, "movegen_signature"), json_str(&j, hex[0]);
        /* Speeds as whole numbers per second: the digits past that are noise. */
        json_key(&j, "move_lists_per_second"), json_int(&j, (long long)((double)lists / elapsed));
        json_key(&j, "fastest_move_lists_per_second"), json_int(&j, (long long)(a.n * 21 / fastest));
        if (engine_ok) {
            snprintf(hex[1], sizeof hex[1], "%016llx", (unsigned long long)eng.signature);
            json_key(&j, "engine_positions"), json_int(&j, eng.positions);
            json_key(&j, "engine_decisions"), json_int(&j, eng.decisions);
            json_key(&j, "engine_signature"), json_str(&j, hex[1]);
            json_key(&j, "evals_per_second"), json_int(&j, (long long)eng.evals_per_second);
        }
        json_object_end(&j);
        printf("%.*s\n", (int)out.len, out.data);
        buf_free(&out);
    } else {
        printf("positions:  %d (%s)\n", a.n, path);
        printf("per pass:   %d move lists, %ld moves\n", a.n * 21, moves);
        printf("signature:  %016llx\n", (unsigned long long)sig);
        printf("speed:      %.0f move lists/s, %.0f moves/s (%ld passes in %.2f s, one thread)\n",
               (double)lists / elapsed, (double)check / elapsed, passes, elapsed);
        printf("fastest:    %.0f move lists/s (one pass of %.3f ms)\n", a.n * 21 / fastest,
               fastest * 1e3);
        if (engine_ok) {
            printf("engine:     %ld decisions on %d positions\n", eng.decisions, eng.positions);
            printf("engine signature: %016llx\n", (unsigned long long)eng.signature);
            printf("evals:      %.0f static evaluations/s (one thread)\n", eng.evals_per_second);
        }
    }
    free(l);
    free(a.v);
    return status;
}
