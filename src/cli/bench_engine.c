/* bench_engine.c - the engine's half of `shesh bench`: a signature over the
 * engine's decisions and the speed of its static evaluation (bench_engine.h).
 *
 * The signature hashes what the engine decides, never the numbers it
 * computes on the way: a floating-point result may differ in its last bit
 * between compilers or with fused multiply-add, a chosen move or a take
 * does not (unless two candidates tie to the last bit, which the fixed set
 * below does not exercise). So the signature changes when the engine's
 * behaviour does, and only then, like Stockfish's bench node count. */
#include "bench_engine.h"

#include <stdlib.h>

#include "clock.h"
#include "fnv.h"

/* Plies of the move decisions and how many positions each depth sees: the
 * deeper searches are slower, so they take every k-th position only. At 2
 * plies every 8th (64 of 512, about half a second): every 16th left the
 * signature as it was when the search's filter changed (2026-12-05). */
static const struct {
    int plies, stride;
} MOVE_DEPTHS[] = {{0, 1}, {1, 2}, {2, 8}};

static uint64_t fnv_int(uint64_t h, int v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    return fnv_bytes(h, b, sizeof b);
}

static uint64_t fnv_position(uint64_t h, const Position *p)
{
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < POS_SLOTS; i++)
            h = fnv_int(h, p->side[s][i]);
    return h;
}

/* The cube states every cube and resignation question is asked under:
 * money with and without Jacoby and beavers, and match scores that move the
 * take point, the Crawford game and a post-Crawford game. */
static int bench_cubes(CubeState out[], int cap)
{
    static const struct {
        int length, score_roller, score_opponent, cube, owner;
        bool crawford, post_crawford, jacoby;
        int beavers;
    } rows[] = {
        {0, 0, 0, 1, -1, false, false, false, 0}, {0, 0, 0, 1, -1, false, false, true, 1},
        {0, 0, 0, 2, 1, false, false, false, 1},  {0, 0, 0, 2, 0, false, false, false, 0},
        {7, 0, 0, 1, -1, false, false, false, 0}, {7, 4, 2, 2, 1, false, false, false, 0},
        {7, 2, 5, 1, -1, false, false, false, 0}, {7, 6, 3, 1, -1, true, false, false, 0},
        {7, 3, 6, 1, -1, false, true, false, 0},  {7, 6, 4, 2, 0, false, true, false, 0},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && n < cap; i++, n++) {
        CubeState cs = {0};
        cs.cube_in_use = true;
        cs.cube = rows[i].cube;
        cs.owner = rows[i].owner;
        cs.max_cube = 64;
        cs.match_length = rows[i].length;
        cs.score[SIDE_ROLLER] = rows[i].score_roller;
        cs.score[SIDE_OPPONENT] = rows[i].score_opponent;
        cs.crawford = rows[i].crawford;
        cs.post_crawford = rows[i].post_crawford;
        cs.jacoby = rows[i].jacoby;
        cs.beavers = rows[i].beavers;
        out[n] = cs;
    }
    return n;
}

/* The roll the engine moves with in position i: every roll comes up. */
static void bench_roll(int i, int *d1, int *d2)
{
    *d1 = 1 + i % 6;
    *d2 = 1 + (i / 6) % 6;
}

bool bench_engine_run(const Engine *e, const Position *given, int all, double seconds,
                      BenchEngineResult *res, Err *err)
{
    if (all <= 0)
        return err_set(err, "no positions to decide");
    /* Evenly spaced over the file, so every phase of the game comes up. */
    int n = all < BENCH_ENGINE_POSITIONS ? all : BENCH_ENGINE_POSITIONS;
    Position *pos = malloc((size_t)n * sizeof *pos);
    if (!pos)
        return err_set(err, "out of memory");
    for (int k = 0; k < n; k++)
        pos[k] = given[(long)k * all / n];
    /* One scratch for every decision, as a player owns one. */
    EngineScratch *sc = engine_scratch_new(err);
    if (!sc) {
        free(pos);
        return false;
    }
    CubeState cubes[16];
    int ncubes = bench_cubes(cubes, 16);
    CubeState money = cubes[0];
    uint64_t h = FNV_OFFSET;
    long decisions = 0;

    for (size_t d = 0; d < sizeof MOVE_DEPTHS / sizeof MOVE_DEPTHS[0]; d++)
        for (int i = 0; i < n; i += MOVE_DEPTHS[d].stride) {
            int d1, d2;
            bench_roll(i, &d1, &d2);
            Move best;
            EngineResult r = engine_move(e, sc, &pos[i], d1, d2, &money, MOVE_DEPTHS[d].plies,
                                         &best, err);
            if (r != ENGINE_OK && r != ENGINE_NO_MOVE)
                goto failed;
            bool moved = r == ENGINE_OK;
            h = fnv_int(h, MOVE_DEPTHS[d].plies);
            h = fnv_int(h, moved);
            if (moved)
                h = fnv_position(h, &best.result);
            decisions++;
        }

    /* Cube, take and resignation answers at 0 ply under every cube state,
     * on every 4th position, and at 1 ply on every 32nd. */
    for (int plies = 0; plies <= 1; plies++)
        for (int i = 0; i < n; i += plies ? 32 : 4)
            for (int c = 0; c < ncubes; c++) {
                const CubeState *cs = &cubes[c];
                CubeDecision cube;
                TakeDecision take;
                if (engine_double(e, sc, &pos[i], cs, plies, &cube, err) != ENGINE_OK ||
                    engine_take(e, sc, &pos[i], cs, plies, &take, err) != ENGINE_OK)
                    goto failed;
                h = fnv_int(h, (int)cube);
                h = fnv_int(h, (int)take);
                for (int level = 1; level <= 3; level++) {
                    bool accept;
                    if (engine_accept_resignation(e, sc, &pos[i], cs, level, plies, &accept,
                                                  err) != ENGINE_OK)
                        goto failed;
                    h = fnv_int(h, accept);
                }
                decisions += 5;
            }

    /* Static evaluations per second: repeated passes over the positions for
     * about `seconds`, cubeless at 0 ply, on this thread. A 0-ply
     * evaluation never looks in the scratch's table of values, so every
     * pass evaluates every position. */
    EvalOptions opt = {0, false};
    long evals = 0;
    double start = clock_now(), elapsed;
    do {
        for (int i = 0; i < n; i++) {
            Evaluation ev;
            if (engine_evaluate(e, sc, &pos[i], &money, &opt, &ev, err) != ENGINE_OK)
                goto failed;
        }
        evals += n;
        elapsed = clock_now() - start;
    } while (elapsed < seconds);

    res->signature = h;
    res->positions = n;
    res->decisions = decisions;
    res->evals_per_second = (double)evals / elapsed;
    engine_scratch_free(sc);
    free(pos);
    return true;

failed:
    engine_scratch_free(sc);
    free(pos);
    return false;
}
