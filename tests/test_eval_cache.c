/* test_eval_cache.c - the search's table of computed values: a key tells
 * apart every position, depth and tag; a bucket keeps the deeper of its
 * values; a search that finds its values in the table gives the very
 * outputs it computed without it, and a search ended by its stop flag
 * leaves nothing wrong behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <time.h>

#include "bearoff.h"
#include "cube.h"
#include "cube_state.h"
#include "eval_cache.h"
#include "nn.h"
#include "nn_file.h"
#include "search.h"

static void outputs(double base, double out[OUT_COUNT])
{
    for (int i = 0; i < OUT_COUNT; i++)
        out[i] = base + 0.01 * i;
}

static void test_keys_tell_apart(void **state)
{
    (void)state;
    Position p, q;
    pos_start(&p);
    q = p;
    q.side[1][POS_BAR] = 1; /* one more checker, on the bar */
    EvalKey a, b;
    assert_true(eval_cache_key(&p, 0, 7, &a));
    assert_true(eval_cache_key(&p, 0, 7, &b));
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(eval_cache_key(&q, 0, 7, &b));
    assert_memory_not_equal(&a, &b, sizeof a);
    assert_true(eval_cache_key(&p, 1, 7, &b));
    assert_memory_not_equal(&a, &b, sizeof a);
    assert_true(eval_cache_key(&p, 0, 8, &b));
    assert_memory_not_equal(&a, &b, sizeof a);
    /* The two sides are not the same thing. */
    q = p;
    pos_swap(&q);
    q.side[0][5]--, q.side[0][4]++;
    Position r = q;
    pos_swap(&r);
    assert_true(eval_cache_key(&q, 0, 7, &a));
    assert_true(eval_cache_key(&r, 0, 7, &b));
    assert_memory_not_equal(&a, &b, sizeof a);
    /* Sixteen checkers do not fit in four bits: no key. */
    q = p;
    q.side[0][0] = 16;
    assert_false(eval_cache_key(&q, 0, 7, &a));
}

static void test_put_get_clear(void **state)
{
    (void)state;
    EvalCache *c = eval_cache_new(1000);
    assert_non_null(c);
    assert_int_equal(eval_cache_entries(c), 512);
    Position p;
    pos_start(&p);
    EvalKey k, other;
    assert_true(eval_cache_key(&p, 2, 99, &k));
    assert_true(eval_cache_key(&p, 1, 99, &other));
    double in[OUT_COUNT], out[OUT_COUNT];
    outputs(0.3, in);
    assert_false(eval_cache_get(c, &k, out));
    eval_cache_put(c, &k, in);
    assert_true(eval_cache_get(c, &k, out));
    assert_memory_equal(in, out, sizeof in);
    assert_false(eval_cache_get(c, &other, out));
    /* A second put under the same key replaces the value. */
    outputs(0.5, in);
    eval_cache_put(c, &k, in);
    assert_true(eval_cache_get(c, &k, out));
    assert_memory_equal(in, out, sizeof in);
    eval_cache_clear(c);
    assert_false(eval_cache_get(c, &k, out));
    eval_cache_free(c);
    eval_cache_free(NULL);
}

/* One bucket: every key meets every other. The deeper value stays while
 * shallower ones come and go in the other entry. */
static void test_deeper_value_stays(void **state)
{
    (void)state;
    EvalCache *c = eval_cache_new(2);
    assert_non_null(c);
    assert_int_equal(eval_cache_entries(c), 2);
    Position p[3];
    EvalKey k[3];
    double v[3][OUT_COUNT], out[OUT_COUNT];
    for (int i = 0; i < 3; i++) {
        pos_start(&p[i]);
        p[i].side[0][i] += 1;
        assert_true(eval_cache_key(&p[i], i == 1 ? 1 : 0, 5, &k[i]));
        outputs(0.1 * i, v[i]);
    }
    eval_cache_put(c, &k[0], v[0]); /* 0 ply */
    eval_cache_put(c, &k[1], v[1]); /* 1 ply: both kept */
    assert_true(eval_cache_get(c, &k[0], out));
    assert_true(eval_cache_get(c, &k[1], out));
    eval_cache_put(c, &k[2], v[2]); /* 0 ply: replaces the other 0-ply value */
    assert_true(eval_cache_get(c, &k[1], out));
    assert_memory_equal(out, v[1], sizeof out);
    assert_true(eval_cache_get(c, &k[2], out));
    assert_memory_equal(out, v[2], sizeof out);
    assert_false(eval_cache_get(c, &k[0], out));
    eval_cache_free(c);
}

/* Threads sharing one table: two of them put and get the values of 64
 * positions in a table of 4 entries, so that they meet in its buckets all
 * the time; every value either finds is the whole value put under its key
 * (each position's outputs are its own), never words of two writes. */
#define SHARED_KEYS 64

typedef struct Hammer {
    EvalCache *c;
    const EvalKey *keys;
    uint64_t seed;
    long hits, wrong;
} Hammer;

static void key_outputs(int i, double out[OUT_COUNT])
{
    outputs(0.001 * i, out);
}

static void *hammer(void *arg)
{
    Hammer *h = arg;
    for (long n = 0; n < 400000; n++) {
        h->seed = h->seed * 6364136223846793005u + 1442695040888963407u;
        int i = (int)(h->seed >> 58); /* 0..63 */
        double v[OUT_COUNT], out[OUT_COUNT];
        key_outputs(i, v);
        if (h->seed >> 57 & 1) {
            eval_cache_put(h->c, &h->keys[i], v);
        } else if (eval_cache_get(h->c, &h->keys[i], out)) {
            h->hits++;
            h->wrong += memcmp(out, v, sizeof v) != 0;
        }
    }
    return NULL;
}

static void test_threads_share_a_table(void **state)
{
    (void)state;
    EvalCache *c = eval_cache_new(4);
    assert_non_null(c);
    static EvalKey keys[SHARED_KEYS];
    for (int i = 0; i < SHARED_KEYS; i++) {
        Position p;
        pos_start(&p);
        p.side[0][i % 24] += 1 + i / 24;
        assert_true(eval_cache_key(&p, i % 3, 11, &keys[i]));
    }
    Hammer h[2] = {{c, keys, 1, 0, 0}, {c, keys, 2, 0, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hammer, &h[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_true(h[0].hits > 0 && h[1].hits > 0);
    assert_int_equal(h[0].wrong + h[1].wrong, 0);
    eval_cache_free(c);
}

/* ---- the search with and without the table ---- */

typedef struct World {
    BearoffDb *db;
    NnWeights *net;
    EvalCtx ctx;
    Utility util[2];
} World;

static World world;

static int setup(void **state)
{
    (void)state;
    NnInfo info;
    world.db = bearoff_new(NULL);
    world.net = malloc(sizeof *world.net);
    if (!world.db || !world.net || !nn_file_load_default(world.net, &info, NULL))
        return -1;
    world.ctx = (EvalCtx){world.db, world.net, NULL, info.hash};
    CubeState cs = {0};
    cs.cube = 1, cs.owner = -1, cs.max_cube = 64, cs.cube_in_use = true;
    for (int side = 0; side < 2; side++)
        cube_linear(&cs, side == 0 ? SIDE_ROLLER : SIDE_OPPONENT, &world.util[side].base,
                    world.util[side].w);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    bearoff_free(world.db);
    free(world.net);
    return 0;
}

/* Positions of games of random moves, every few turns one: contact,
 * crashed boards and races. */
static int positions(Position *out, int n)
{
    static MoveList l;
    uint64_t seed = 2024;
    int got = 0;
    while (got < n) {
        Position p;
        pos_start(&p);
        double over[OUT_COUNT];
        for (int turn = 0; got < n && !eval_game_over(&p, over); turn++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            int r = (int)(seed >> 33);
            if (turn % 7 == 3)
                out[got++] = p;
            int k = movegen_generate(&p, 1 + r % 6, 1 + r / 6 % 6, &l);
            if (k > 0)
                p = l.moves[(r / 36) % k].result;
            pos_swap(&p);
        }
    }
    return got;
}

/* Values of the positions at 0 to 2 plies, and the moves chosen for a
 * roll at 1 and 2 plies, into vals and moves. */
static void run(SearchScratch *sc, const Position *pos, int n, double (*vals)[3][OUT_COUNT],
                int (*moves)[2], long *hits)
{
    Search s;
    search_init(&s, &world.ctx, world.util, sc);
    for (int i = 0; i < n; i++) {
        for (int plies = 0; plies < 3; plies++)
            search_eval(&s, &pos[i], plies, 0, vals[i][plies]);
        MoveList *l = sc->lists[0];
        if (movegen_generate(&pos[i], 1 + i % 6, 1 + i / 6 % 6, l) > 0)
            for (int plies = 1; plies <= 2; plies++)
                moves[i][plies - 1] = search_move_among(&s, &pos[i], l, plies, NULL);
    }
    *hits = s.hits;
}

#define N 24

static void test_search_same_values(void **state)
{
    (void)state;
    static Position pos[N];
    int n = positions(pos, N);
    assert_int_equal(n, N);
    static double bare[N][3][OUT_COUNT], cached[N][3][OUT_COUNT];
    int bare_moves[N][2] = {{0}}, cached_moves[N][2] = {{0}};
    SearchScratch plain, table;
    assert_true(search_scratch_init(&plain, 0, NULL, NULL));
    assert_true(search_scratch_init(&table, 4096, NULL, NULL));
    long hits;
    run(&plain, pos, n, bare, bare_moves, &hits);
    assert_int_equal(hits, 0);
    /* Twice with the table: the second time the values are found. */
    for (int pass = 0; pass < 2; pass++) {
        memset(cached, 0, sizeof cached);
        run(&table, pos, n, cached, cached_moves, &hits);
        assert_memory_equal(bare, cached, sizeof bare);
        assert_memory_equal(bare_moves, cached_moves, sizeof bare_moves);
        assert_true(hits > 0);
    }
    /* Other utilities (players who would rather lose): other values
     * below 0 ply, none of them taken from the money entries. */
    Utility money[2] = {world.util[0], world.util[1]};
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < OUT_COUNT; i++)
            world.util[side].w[i] = -money[side].w[i];
    run(&plain, pos, n, bare, bare_moves, &hits);
    run(&table, pos, n, cached, cached_moves, &hits);
    world.util[0] = money[0], world.util[1] = money[1];
    assert_memory_equal(bare, cached, sizeof bare);
    assert_memory_equal(bare_moves, cached_moves, sizeof bare_moves);
    search_scratch_done(&plain);
    search_scratch_done(&table);
}

/* Two scratches lent one table (a server's workers): what one searched,
 * the other finds, with the very values a scratch without a table
 * computes; freeing the scratches leaves the table to its lender. */
static void test_lent_table(void **state)
{
    (void)state;
    static Position pos[N];
    positions(pos, N);
    static double bare[N][3][OUT_COUNT], a_vals[N][3][OUT_COUNT], b_vals[N][3][OUT_COUNT];
    int bare_moves[N][2] = {{0}}, a_moves[N][2] = {{0}}, b_moves[N][2] = {{0}};
    EvalCache *shared = eval_cache_new(1 << 14);
    assert_non_null(shared);
    SearchScratch plain, a, b;
    assert_true(search_scratch_init(&plain, 0, NULL, NULL));
    assert_true(search_scratch_init(&a, 0, shared, NULL));
    assert_true(search_scratch_init(&b, 4096, shared, NULL));
    assert_ptr_equal(a.cache, shared);
    assert_ptr_equal(b.cache, shared); /* lent: no table of its own */
    long hits, b_hits;
    run(&plain, pos, N, bare, bare_moves, &hits);
    run(&a, pos, N, a_vals, a_moves, &hits);
    run(&b, pos, N, b_vals, b_moves, &b_hits);
    assert_memory_equal(bare, a_vals, sizeof bare);
    assert_memory_equal(bare, b_vals, sizeof bare);
    assert_memory_equal(bare_moves, b_moves, sizeof bare_moves);
    /* a's run, on an empty table, found the transpositions of its 2-ply
     * trees (thousands); b's finds the values of a's roots and so goes
     * down into none of them: a few hundred lookups. With a table of its
     * own, b would do just what a did. */
    assert_true(hits > 0);
    assert_true(b_hits > 0 && b_hits < hits / 2);
    search_scratch_done(&a);
    search_scratch_done(&b);
    search_scratch_done(&plain);
    assert_null(b.cache);
    EvalKey k;
    double v[OUT_COUNT], out[OUT_COUNT];
    outputs(0.2, v);
    assert_true(eval_cache_key(&pos[0], 5, 1, &k));
    eval_cache_put(shared, &k, v); /* still the lender's, still whole */
    assert_true(eval_cache_get(shared, &k, out));
    eval_cache_free(shared);
}

/* A search stopped halfway (its stop flag raised by another thread while
 * it runs) keeps none of the values it cut short: the same table then
 * gives what a fresh one gives. Several delays, so that some stop falls
 * inside the search on any machine. */
typedef struct Stopper {
    atomic_bool *flag;
    long delay_ns;
} Stopper;

static void *stop_later(void *arg)
{
    const Stopper *st = arg;
    struct timespec t = {0, st->delay_ns};
    nanosleep(&t, NULL);
    atomic_store(st->flag, true);
    return NULL;
}

static void test_stopped_search_keeps_nothing(void **state)
{
    (void)state;
    static Position pos[N];
    positions(pos, N);
    const Position *p = &pos[1];
    SearchScratch plain, table;
    assert_true(search_scratch_init(&plain, 0, NULL, NULL));
    assert_true(search_scratch_init(&table, 1 << 16, NULL, NULL));
    Search s;
    double want[OUT_COUNT], got[OUT_COUNT];
    search_init(&s, &world.ctx, world.util, &plain);
    search_eval(&s, p, 3, 0, want);
    bool landed = false; /* some stop fell inside a search */
    for (long ms = 1; ms <= 64; ms *= 4) {
        /* Empty, or the root kept by the run before would answer at once. */
        eval_cache_clear(table.cache);
        atomic_bool stop = false;
        Stopper st = {&stop, ms * 1000000};
        table.stop = &stop;
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, stop_later, &st), 0);
        search_init(&s, &world.ctx, world.util, &table);
        search_eval(&s, p, 3, 0, got);
        landed |= s.stopped;
        assert_int_equal(pthread_join(t, NULL), 0);
        table.stop = NULL;
        search_init(&s, &world.ctx, world.util, &table);
        search_eval(&s, p, 3, 0, got);
        assert_memory_equal(want, got, sizeof want);
    }
    assert_true(landed);
    search_scratch_done(&plain);
    search_scratch_done(&table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_tell_apart),
        cmocka_unit_test(test_put_get_clear),
        cmocka_unit_test(test_deeper_value_stays),
        cmocka_unit_test(test_threads_share_a_table),
        cmocka_unit_test(test_search_same_values),
        cmocka_unit_test(test_lent_table),
        cmocka_unit_test(test_stopped_search_keeps_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
