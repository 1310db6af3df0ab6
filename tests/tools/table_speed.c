/* table_speed.c - what the scratch's table of values (eval_cache.h) saves:
 * the CPU time of move decisions at 0, 1 and 2 plies on a scratch without
 * a table, then on one with a table (first pass: empty; second pass: the
 * same positions again), and that the moves chosen are the same.
 *
 *   build/tools/table_speed [POSITIONS [SEED]]   (defaults 600 and 1)
 *
 * The positions come from games the engine plays against itself at 0 ply
 * with seeded dice; 2 plies take every 8th. Not a test: it measures, and
 * fails (exit 1) only when the two scratches choose differently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "eval_outputs.h"
#include "splitmix.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct Case {
    Position p;
    int d1, d2;
} Case;

/* ms of CPU a decision over every stride-th case; the moves into out. */
static double decide(const Engine *e, EngineScratch *sc, const Case *c, int n, int stride,
                     int plies, Move *out)
{
    CubeState cs;
    memset(&cs, 0, sizeof cs);
    cs.cube = 1, cs.owner = -1, cs.max_cube = 1;
    int k = 0;
    double t0 = cpu_seconds();
    for (int i = 0; i < n; i += stride, k++) {
        memset(&out[i], 0, sizeof out[i]);
        engine_move(e, sc, &c[i].p, c[i].d1, c[i].d2, &cs, plies, &out[i], NULL);
    }
    return (cpu_seconds() - t0) * 1e3 / (k ? k : 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 600;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (n <= 0) {
        fprintf(stderr, "table_speed: POSITIONS must be a positive number\n");
        return 2;
    }
    Err err = {{0}};
    Engine *e = engine_new("default", &err);
    EngineScratch *bare = e ? engine_scratch_new_cached(0, &err) : NULL;
    Case *c = malloc((size_t)n * sizeof *c);
    Move *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!bare || !c || !a || !b) {
        fprintf(stderr, "table_speed: %s\n", err.text[0] ? err.text : "out of memory");
        return 2;
    }
    uint64_t sm = seed;
    CubeState cs;
    memset(&cs, 0, sizeof cs);
    cs.cube = 1, cs.owner = -1, cs.max_cube = 1;
    for (int k = 0; k < n;) {
        Position p;
        pos_start(&p);
        double over[OUT_COUNT];
        for (int turn = 0; k < n && turn < 300 && !eval_game_over(&p, over); turn++) {
            int d1 = 1 + (int)(splitmix64(&sm) % 6), d2 = 1 + (int)(splitmix64(&sm) % 6);
            c[k++] = (Case){p, d1, d2};
            Move m;
            if (engine_move(e, bare, &p, d1, d2, &cs, 0, &m, NULL) == ENGINE_OK)
                p = m.result;
            pos_swap(&p);
        }
    }
    int differ = 0;
    printf("ms of CPU a move decision, %d positions (seed %llu)\n", n,
           (unsigned long long)seed);
    printf("plies  decisions  no table  table, first pass  table, second pass\n");
    for (int plies = 0; plies <= 2; plies++) {
        int stride = plies == 2 ? 8 : 1;
        EngineScratch *kept = engine_scratch_new(&err);
        if (!kept) {
            fprintf(stderr, "table_speed: %s\n", err.text);
            return 2;
        }
        double t_bare = decide(e, bare, c, n, stride, plies, a);
        double t_first = decide(e, kept, c, n, stride, plies, b);
        for (int i = 0; i < n; i += stride)
            differ += memcmp(&a[i].result, &b[i].result, sizeof a[i].result) != 0;
        double t_second = decide(e, kept, c, n, stride, plies, b);
        for (int i = 0; i < n; i += stride)
            differ += memcmp(&a[i].result, &b[i].result, sizeof a[i].result) != 0;
        printf("%5d  %9d  %8.3f  %17.3f  %18.3f\n", plies, (n + stride - 1) / stride, t_bare,
               t_first, t_second);
        engine_scratch_free(kept);
    }
    if (differ)
        printf("%d decisions differ between the scratches\n", differ);
    engine_scratch_free(bare);
    engine_free(e);
    free(c);
    free(a);
    free(b);
    return differ ? 1 : 0;
}
