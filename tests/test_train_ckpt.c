/* test_train_ckpt.c - the checkpoint of shesh train (train_ckpt.h): the
 * weights, the steps done and the generator's state come back to the bit;
 * a checkpoint of another run is refused naming the option that differs
 * (the options before the network's shape); a damaged one (a flipped
 * byte, cut short, a weight that is not a number or missing under a good
 * CRC, an older format, not a checkpoint) is refused saying so; a file too big to be
 * one, or missing, likewise. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "train_ckpt.h"

static const TrainRun base = {
    .games = 3000,
    .seed = 7,
    .rate0 = 0.1f,
    .rate1 = 0.02f,
    .rank = 0,
    .start = 0,
    .on_labels = false,
    .labels_hash = 0,
    .race = false,
    .inputs = NN_INPUTS_FIRST,
};

typedef struct Fixture {
    NnWeights *w, *back;
    Buf file;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->w = calloc(1, sizeof *f->w);
    f->back = calloc(1, sizeof *f->back);
    if (!f->w || !f->back)
        return -1;
    nn_init(f->w, base.inputs, 42);
    f->w->hidden_bias[3] = -0.0f; /* a sign a text format would lose */
    f->w->out_bias[1] = 1e-40f;   /* and a subnormal */
    buf_init(&f->file);
    train_ckpt_encode(&f->file, &base, f->w, 1234, 0x0123456789abcdefULL);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    free(f->w);
    free(f->back);
    buf_free(&f->file);
    free(f);
    return 0;
}

static bool decode(Fixture *f, const unsigned char *data, size_t size, const TrainRun *run,
                   Err *err)
{
    long done;
    uint64_t rng;
    return train_ckpt_decode(data, size, "c.ckpt", run, f->back, &done, &rng, err);
}

static void assert_refused(Fixture *f, const unsigned char *data, size_t size,
                           const TrainRun *run, const char *says)
{
    Err err = {{0}};
    assert_false(decode(f, data, size, run, &err));
    if (!strstr(err.text, says))
        fail_msg("refused with '%s', not '%s'", err.text, says);
}

static void test_round_trip(void **state)
{
    Fixture *f = *state;
    long done = 0;
    uint64_t rng = 0;
    Err err = {{0}};
    memset(f->back, 0xff, sizeof *f->back);
    f->back->quantized = f->back->race = true; /* what decoding must clear */
    assert_true(train_ckpt_decode((const unsigned char *)f->file.data, f->file.len, "c.ckpt", &base,
                                  f->back, &done, &rng, &err));
    assert_int_equal(done, 1234);
    assert_true(rng == 0x0123456789abcdefULL);
    assert_int_equal(f->back->inputs, base.inputs);
    assert_false(f->back->race);
    assert_false(f->back->quantized);
    assert_memory_equal(f->back->in, f->w->in, sizeof f->w->in);
    assert_memory_equal(f->back->hidden_bias, f->w->hidden_bias, sizeof f->w->hidden_bias);
    assert_memory_equal(f->back->out, f->w->out, sizeof f->w->out);
    assert_memory_equal(f->back->out_bias, f->w->out_bias, sizeof f->w->out_bias);

    /* The same through a file, and a rank and a race network recorded. */
    char dir[] = "/tmp/shesh-test-ckpt-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/c.ckpt", dir);
    TrainRun run = base;
    run.rank = 16;
    run.race = true;
    run.on_labels = true;
    run.labels_hash = 99;
    assert_true(train_ckpt_write(path, &run, f->w, 5, 6, &err));
    assert_true(train_ckpt_read(path, &run, f->back, &done, &rng, &err));
    assert_int_equal(done, 5);
    assert_true(rng == 6);
    assert_true(f->back->race);
    assert_memory_equal(f->back->in, f->w->in, sizeof f->w->in);
    unlink(path);
    assert_false(train_ckpt_read(path, &run, f->back, &done, &rng, &err));
    assert_non_null(strstr(err.text, "cannot open"));
    rmdir(dir);
}

static void test_other_runs(void **state)
{
    Fixture *f = *state;
    const unsigned char *d = (const unsigned char *)f->file.data;
    size_t n = f->file.len;
    TrainRun r;
    r = base, r.games = 3001;
    assert_refused(f, d, n, &r, "was made with --games 3000, not --games 3001");
    r = base, r.games = 3001, r.on_labels = true;
    assert_refused(f, d, n, &r, "was made with another --epochs or on other labels");
    r = base, r.seed = 8;
    assert_refused(f, d, n, &r, "was made with --seed 7, not --seed 8");
    r = base, r.rate0 = 0.05f;
    assert_refused(f, d, n, &r, "was made with --rate 0.1, not --rate 0.05");
    r = base, r.rate1 = 0.002f;
    assert_refused(f, d, n, &r, "was made with --final-rate 0.02, not --final-rate 0.002");
    r = base, r.rank = 16;
    assert_refused(f, d, n, &r, "was made with no --rank, this run with --rank 16");
    r = base, r.on_labels = true, r.labels_hash = 5;
    assert_refused(f, d, n, &r, "was made by TD self-play, and this run on these labels");
    r = base, r.start = 0xabc;
    assert_refused(f, d, n, &r, "started from random weights (0000000000000000), and this run "
                                "from a network (0000000000000abc)");
    r = base, r.race = true;
    assert_refused(f, d, n, &r, "trains a contact network, and this run a race one");
    /* The shape last, once every option agrees. */
    r = base, r.inputs = NN_INPUTS;
    assert_refused(f, d, n, &r, "holds a network of 218 inputs");
    r = base, r.inputs = NN_INPUTS, r.seed = 9;
    assert_refused(f, d, n, &r, "--seed 7, not --seed 9");
}

/* A copy of the checkpoint to damage. */
static unsigned char *copy_of(const Fixture *f)
{
    unsigned char *c = malloc(f->file.len);
    assert_non_null(c);
    memcpy(c, f->file.data, f->file.len);
    return c;
}

/* Its CRC made good again after a change. */
static void seal(unsigned char *c, size_t n)
{
    char trailer[16];
    uLong crc = crc32(0L, c, (uInt)(n - 15));
    snprintf(trailer, sizeof trailer, "crc32 %08lx\n", (unsigned long)crc);
    memcpy(c + n - 15, trailer, 15);
}

static void test_damage(void **state)
{
    Fixture *f = *state;
    size_t n = f->file.len;
    unsigned char *c = copy_of(f);
    c[n / 2] ^= 1;
    assert_refused(f, c, n, &base, "its CRC-32 does not match its contents");
    assert_refused(f, c, n - 100, &base, "is damaged");
    assert_refused(f, c, 10, &base, "is not a checkpoint of shesh train");
    assert_refused(f, (const unsigned char *)"", 0, &base, "is not a checkpoint of shesh train");

    /* A weight that is not a number, under a CRC that matches. */
    memcpy(c, f->file.data, n);
    size_t first = n - 15 - offsetof(NnWeights, inputs); /* the first weight's bytes */
    float nan = NAN;
    memcpy(c + first + 8, &nan, 4);
    seal(c, n);
    memset(f->back->in, 0x5a, sizeof f->back->in);
    assert_refused(f, c, n, &base, "weight 2 is not a finite number");
    unsigned char first_row[sizeof f->back->in[0]];
    memset(first_row, 0x5a, sizeof first_row); /* nothing taken from it */
    assert_memory_equal(f->back->in[0], first_row, sizeof first_row);

    /* A weight's bytes missing, sealed. */
    memcpy(c, f->file.data, n);
    memmove(c + first, c + first + 4, n - first - 4);
    seal(c, n - 4);
    char says[96];
    size_t count = offsetof(NnWeights, inputs) / 4;
    snprintf(says, sizeof says, "is damaged: %zu weights in %zu bytes, where a network has %zu",
             count, 4 * count - 4, count);
    assert_refused(f, c, n - 4, &base, says);

    /* A header line malformed, sealed. */
    memcpy(c, f->file.data, n);
    char *seed = strstr((char *)c, "\nseed 7\n");
    assert_non_null(seed);
    seed[6] = 'x';
    seal(c, n);
    assert_refused(f, c, n, &base, "a malformed header line");

    /* An older format. */
    memcpy(c, f->file.data, n);
    c[23] = '3';
    assert_refused(f, c, n, &base, "is a checkpoint of an older shesh (format 3)");
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_other_runs),
        cmocka_unit_test(test_damage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
