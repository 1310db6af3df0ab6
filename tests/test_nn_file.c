/* test_nn_file.c - network files (nn_file.h): what is written reads back
 * to the same weights and id; the compiled-in network is such a file; and
 * every kind of bad file is refused with a message saying what is wrong:
 * cut short at any length, bytes after the end, a changed byte anywhere, a
 * foreign file, another shape, a weight that is not a number (with a hash
 * that matches), a bad id; and a network of fewer hidden units reads as
 * this build's width with the rest zero. Written for any NN_HIDDEN. */
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

#include "fnv.h"
#include "nn.h"
#include "nn_file.h"

/* The weights of a file of `inputs` inputs and `hidden` units. */
static int count_of(int inputs, int hidden)
{
    return inputs * hidden + hidden + OUT_COUNT * hidden + OUT_COUNT;
}
#define RAW_COUNT count_of(NN_RAW_INPUTS, NN_HIDDEN)

/* tmpl with {H} (this build's hidden units), {H2} (twice them), {RAW},
 * {F218} (the weights of a raw-198 and of a features-218 file) put in. */
static void expand(const char *tmpl, char *out, size_t size)
{
    static const struct {
        const char *key;
        int inputs, times;
    } keys[] = {{"{H}", 0, 1}, {"{H2}", 0, 2}, {"{RAW}", NN_RAW_INPUTS, 1},
                {"{F218}", NN_INPUTS_FIRST, 1}};
    size_t n = 0;
    while (*tmpl && n + 16 < size) {
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strncmp(tmpl, keys[k].key, strlen(keys[k].key)))
            k++;
        if (k == sizeof keys / sizeof keys[0]) {
            out[n++] = *tmpl++;
            continue;
        }
        int v = keys[k].inputs ? count_of(keys[k].inputs, NN_HIDDEN) : NN_HIDDEN * keys[k].times;
        n += (size_t)snprintf(out + n, size - n, "%d", v);
        tmpl += strlen(keys[k].key);
    }
    out[n] = '\0';
}

typedef struct Fixture {
    NnWeights *w, *v;
    char path[64];
    unsigned char *data;
    size_t size;
} Fixture;

/* The bytes of the file at path (the test's own file: small). */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *data = malloc(NN_FILE_MAX);
    assert_non_null(data);
    *size = fread(data, 1, NN_FILE_MAX, f);
    fclose(f);
    return data;
}

static int setup(void **state)
{
    Fixture *fx = calloc(1, sizeof *fx);
    fx->w = malloc(sizeof *fx->w);
    fx->v = malloc(sizeof *fx->v);
    if (!fx->w || !fx->v)
        return -1;
    nn_init(fx->w, NN_RAW_INPUTS, 11);
    snprintf(fx->path, sizeof fx->path, "/tmp/test_nn_file.%ld.snn", (long)getpid());
    Err err;
    NnInfo info;
    if (!nn_file_save(fx->path, fx->w, "test-net.1_a", &info, &err))
        return -1;
    fx->data = slurp(fx->path, &fx->size);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fixture *fx = *state;
    remove(fx->path);
    free(fx->w);
    free(fx->v);
    free(fx->data);
    free(fx);
    return 0;
}

static void test_round_trip(void **state)
{
    Fixture *fx = *state;
    NnInfo info;
    Err err;
    assert_true(nn_file_load(fx->path, fx->v, &info, &err));
    assert_memory_equal(fx->w, fx->v, sizeof *fx->w);
    assert_string_equal(info.id, "test-net.1_a");
    assert_int_equal(info.hash, fnv_bytes(FNV_OFFSET, fx->data, fx->size - 23));
    assert_int_equal(info.hidden, NN_HIDDEN);
    /* The header a person reads with head(1). */
    char head[128];
    expand("shesh-net 1\nid test-net.1_a\ninputs raw-198\nhidden {H}\noutputs 5\n"
           "weights {RAW}\n",
           head, sizeof head);
    assert_memory_equal(fx->data, head, strlen(head));
    assert_int_equal(fx->size, strlen(head) + 4 * (size_t)RAW_COUNT + 23);
}

/* A network of `inputs` inputs (seed `seed`) saved as `id` reads back the
 * same, under the header naming `kind` and its `count` weights. */
static void saved_and_read(Fixture *fx, int inputs, unsigned long long seed, const char *id,
                           const char *kind)
{
    int count = count_of(inputs, NN_HIDDEN);
    nn_init(fx->w, inputs, seed);
    Err err = {{0}};
    assert_true(nn_file_save(fx->path, fx->w, id, NULL, &err));
    assert_true(nn_file_load(fx->path, fx->v, NULL, &err));
    assert_memory_equal(fx->w, fx->v, sizeof *fx->w);
    assert_int_equal(fx->v->inputs, inputs);
    assert_string_equal(nn_inputs_name(fx->v), kind);
    size_t size;
    unsigned char *data = slurp(fx->path, &size);
    char head[128];
    snprintf(head, sizeof head,
             "shesh-net 1\nid %s\ninputs %s\nhidden %d\noutputs 5\nweights %d\n", id, kind,
             NN_HIDDEN, count);
    assert_memory_equal(data, head, strlen(head));
    assert_int_equal(size, strlen(head) + 4 * (size_t)count + 23);
    free(data);
}

/* The fixture's raw network in its file again, for the tests after. */
static void fixture_restored(Fixture *fx)
{
    Err err = {{0}};
    nn_init(fx->w, NN_RAW_INPUTS, 11);
    assert_true(nn_file_save(fx->path, fx->w, "test-net.1_a", NULL, &err));
}

/* A network that reads the first ten features: its own header and weight
 * count, and read back the same; a raw network loaded over it reads no
 * features again. */
static void test_features_round_trip(void **state)
{
    Fixture *fx = *state;
    saved_and_read(fx, NN_INPUTS_FIRST, 12, "feat", "features-218");
    Err err = {{0}};
    assert_true(nn_file_parse(fx->data, fx->size, "raw", fx->v, NULL, &err));
    assert_int_equal(fx->v->inputs, NN_RAW_INPUTS);
    assert_true(fx->v->in[NN_RAW_INPUTS][0] == 0.0f);
    fixture_restored(fx);
}

/* A network that reads all eighteen features: features-234 and its
 * weight count, read back the same. */
static void test_all_features_round_trip(void **state)
{
    Fixture *fx = *state;
    saved_and_read(fx, NN_INPUTS, 14, "all", "features-234");
    fixture_restored(fx);
}

/* A race network, of either kind of inputs: its own header, read back a
 * race network of the same weights; nn_inputs_name names the four kinds. */
static void test_race_round_trip(void **state)
{
    Fixture *fx = *state;
    static const struct {
        int inputs;
        const char *name, *contact; /* the contact network's of as many inputs */
    } kinds[] = {{NN_RAW_INPUTS, "race-198", "raw-198"},
                 {NN_INPUTS_FIRST, "race-218", "features-218"},
                 {NN_INPUTS, "race-234", "features-234"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        nn_init(fx->w, kinds[k].inputs, 13);
        fx->w->race = true;
        Err err = {{0}};
        assert_true(nn_file_save(fx->path, fx->w, "race", NULL, &err));
        assert_true(nn_file_load(fx->path, fx->v, NULL, &err));
        assert_memory_equal(fx->w, fx->v, sizeof *fx->w);
        assert_true(fx->v->race);
        assert_string_equal(nn_inputs_name(fx->v), kinds[k].name);
        size_t size;
        unsigned char *data = slurp(fx->path, &size);
        char head[64];
        snprintf(head, sizeof head, "shesh-net 1\nid race\ninputs %s\n", kinds[k].name);
        assert_memory_equal(data, head, strlen(head));
        free(data);
        fx->w->race = false;
        assert_string_equal(nn_inputs_name(fx->w), kinds[k].contact);
    }
    /* A contact network loaded over a race one is a contact one again. */
    Err err = {{0}};
    assert_true(nn_file_parse(fx->data, fx->size, "raw", fx->v, NULL, &err));
    assert_false(fx->v->race);
    nn_init(fx->w, NN_RAW_INPUTS, 11); /* the fixture as it was, for the tests after */
    assert_true(nn_file_save(fx->path, fx->w, "test-net.1_a", NULL, &err));
}

static void test_compiled_in(void **state)
{
    Fixture *fx = *state;
    NnInfo info;
    Err err;
    assert_true(
        nn_file_parse(nn_default_file, nn_default_file_size, "compiled-in", fx->v, &info, &err));
    assert_true(nn_id_valid(info.id));
}

static void refused(Fixture *fx, const unsigned char *data, size_t n, const char *says)
{
    Err err = {{0}};
    assert_false(nn_file_parse(data, n, "F", fx->v, NULL, &err));
    if (!strstr(err.text, says))
        fail_msg("'%s' does not say '%s'", err.text, says);
}

static void test_cut_and_extra(void **state)
{
    Fixture *fx = *state;
    /* Every length short of the whole file is refused (the header lines
     * cut anywhere, the weights, the hash line). */
    for (size_t n = 0; n < fx->size; n++) {
        Err err = {{0}};
        assert_false(nn_file_parse(fx->data, n, "F", fx->v, NULL, &err));
        assert_true(err.text[0] != '\0');
    }
    refused(fx, fx->data, fx->size - 1, "cut short");
    unsigned char *copy = malloc(fx->size);
    memcpy(copy, fx->data, fx->size);
    copy[fx->size - 23] = 'F'; /* "Fnv64 ..." */
    refused(fx, copy, fx->size, "no 'fnv64' line");
    free(copy);
    refused(fx, fx->data, fx->size - 100, "cut short");
    unsigned char *more = malloc(fx->size + 1);
    memcpy(more, fx->data, fx->size);
    more[fx->size] = '\n';
    refused(fx, more, fx->size + 1, "1 bytes after the end");
    free(more);
}

static void test_damage(void **state)
{
    Fixture *fx = *state;
    unsigned char *copy = malloc(fx->size);
    /* A bit changed in any byte of the weights or of the hash. */
    for (size_t at = 80; at < fx->size; at += 997) {
        memcpy(copy, fx->data, fx->size);
        copy[at] ^= 0x10;
        Err err = {{0}};
        assert_false(nn_file_parse(copy, fx->size, "F", fx->v, NULL, &err));
    }
    memcpy(copy, fx->data, fx->size);
    copy[fx->size - 30] ^= 1;
    refused(fx, copy, fx->size, "damaged");
    free(copy);
}

/* body (nbody bytes of weights) under head, with a valid hash. */
static unsigned char *assemble(const char *head, const unsigned char *body, size_t nbody,
                               size_t *n)
{
    unsigned char *out = malloc(strlen(head) + nbody + 24);
    assert_non_null(out);
    memcpy(out, head, strlen(head));
    memcpy(out + strlen(head), body, nbody);
    size_t end = strlen(head) + nbody;
    uint64_t h = fnv_bytes(FNV_OFFSET, out, end);
    snprintf((char *)out + end, 24, "fnv64 %016llx\n", (unsigned long long)h);
    *n = end + 23;
    return out;
}

/* The fixture's file with its header replaced by head (a template of
 * expand()) and a valid hash. */
static unsigned char *rewrite(Fixture *fx, const char *head, size_t *n)
{
    char line[32], h[256];
    expand("weights {RAW}\n", line, sizeof line);
    const unsigned char *body = (unsigned char *)strstr((const char *)fx->data, line);
    assert_non_null(body);
    body += strlen(line);
    expand(head, h, sizeof h);
    return assemble(h, body, (size_t)(fx->data + fx->size - 23 - body), n);
}

static void test_foreign(void **state)
{
    Fixture *fx = *state;
    const char *gz = "\x1f\x8b\x08\x00";
    refused(fx, (const unsigned char *)gz, 4, "not a network file");
    /* CR LF line ends (a text tool had it): every LF byte, in the weights
     * too, became CR LF */
    unsigned char *crlf = malloc(2 * fx->size);
    assert_non_null(crlf);
    size_t m = 0;
    for (size_t i = 0; i < fx->size; i++) {
        if (fx->data[i] == '\n')
            crlf[m++] = '\r';
        crlf[m++] = fx->data[i];
    }
    refused(fx, crlf, m, "damaged by a conversion of its line ends");
    free(crlf);
    struct {
        const char *head, *says;
    } cases[] = {
        {"shesh-net 2\nid x\ninputs raw-198\nhidden {H}\noutputs 5\nweights {RAW}\n",
         "not a network file"},
        {"shesh-net 1\nname x\ninputs raw-198\nhidden {H}\noutputs 5\nweights {RAW}\n",
         "no 'id' line"},
        {"shesh-net 1\nid a b\ninputs raw-198\nhidden {H}\noutputs 5\nweights {RAW}\n",
         "the id is not"},
        {"shesh-net 1\nid x\ninputs gnubg-250\nhidden {H}\noutputs 5\nweights {RAW}\n",
         "inputs 'gnubg-250', but this build's networks read 'raw-198', 'features-218', "
         "'features-234', 'race-198', 'race-218' or 'race-234'"},
        {"shesh-net 1\nid x\ninputs features-218\nhidden {H}\noutputs 5\nweights {RAW}\n",
         "weights {RAW}, but this build's network has {F218}"},
        {"shesh-net 1\nid x\ninputs features-218\nhidden {H}\noutputs 5\nweights {F218}\n",
         "cut short"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden {H2}\noutputs 5\nweights {RAW}\n",
         "hidden {H2}, but this build's network has 1 to {H} (a build with -DNN_HIDDEN={H2} "
         "reads it)"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden 0\noutputs 5\nweights {RAW}\n",
         "hidden 0, but a network has 1 hidden unit or more"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden {H}\noutputs 3\nweights {RAW}\n",
         "outputs 3"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden {H}\noutputs 5\nweights 2e4\n",
         "not a number"},
        {"shesh-net 1\nid \ninputs raw-198\nhidden {H}\noutputs 5\nweights {RAW}\n", "empty"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden 0{H}\noutputs 5\nweights {RAW}\n",
         "not a number"},
        {"shesh-net 1\nid x\ninputs raw-198\nhidden +{H}\noutputs 5\nweights {RAW}\n",
         "not a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        unsigned char *data = rewrite(fx, cases[i].head, &n);
        char says[128];
        expand(cases[i].says, says, sizeof says);
        refused(fx, data, n, says);
        free(data);
    }
    /* A NUL byte inside a header line (the C string would stop there). */
    const char nul[] = "shesh-net 1\nid abc\0xyz\ninputs raw-198\nhidden {H}\noutputs 5\n"
                       "weights {RAW}\n";
    size_t n;
    char *head = malloc(sizeof nul);
    memcpy(head, nul, sizeof nul);
    /* rewrite() takes a C string: put the NUL in after it has copied. */
    head[18] = 'Q';
    unsigned char *data = rewrite(fx, head, &n);
    data[18] = '\0';
    uint64_t h = fnv_bytes(FNV_OFFSET, data, n - 23);
    snprintf((char *)data + n - 23, 24, "fnv64 %016llx\n", (unsigned long long)h);
    refused(fx, data, n, "holds a NUL byte");
    free(data);
    free(head);
}

static void test_not_finite(void **state)
{
    Fixture *fx = *state;
    fx->w->out_bias[2] = NAN;
    Err err = {{0}};
    assert_true(nn_file_save(fx->path, fx->w, "nan", NULL, &err));
    assert_false(nn_file_load(fx->path, fx->v, NULL, &err));
    char says[64];
    snprintf(says, sizeof says, "weight %d is not a finite number", RAW_COUNT - 3);
    assert_non_null(strstr(err.text, says));
    nn_init(fx->w, NN_RAW_INPUTS, 11);
    assert_false(nn_file_save(fx->path, fx->w, "has space", NULL, &err));
    assert_false(nn_file_save(fx->path, fx->w, "", NULL, &err));
    assert_false(nn_file_load("/nonexistent/x.snn", fx->v, NULL, &err));
    assert_non_null(strstr(err.text, "cannot open /nonexistent/x.snn"));
    assert_false(nn_file_save("/nonexistent/x.snn", fx->w, "x", NULL, &err));
    assert_non_null(strstr(err.text, "cannot write"));
}

/* A network of half this build's hidden units: read with the other half
 * zero, as the same network saved at this width with those units zero;
 * its NnInfo says how many it had. */
static void test_narrower(void **state)
{
    Fixture *fx = *state;
    const int half = NN_HIDDEN / 2;
    nn_init(fx->w, NN_INPUTS_FIRST, 21);
    float *all = (float *)fx->w;
    unsigned char *body = malloc(4 * (size_t)count_of(NN_INPUTS_FIRST, half));
    assert_non_null(body);
    size_t k = 0;
    /* Each row's first half in the file, the rest zero in memory. */
    for (size_t i = 0; i < (size_t)count_of(NN_INPUTS_FIRST, NN_HIDDEN); i++) {
        size_t at = nn_file_weight_at(NN_INPUTS_FIRST, i);
        bool bias_out = i + OUT_COUNT >= (size_t)count_of(NN_INPUTS_FIRST, NN_HIDDEN);
        if (!bias_out && i % NN_HIDDEN >= (size_t)half) {
            all[at] = 0.0f;
            continue;
        }
        uint32_t u;
        memcpy(&u, &all[at], 4);
        for (int b = 0; b < 4; b++)
            body[k++] = (unsigned char)(u >> 8 * b);
    }
    char head[128];
    snprintf(head, sizeof head,
             "shesh-net 1\nid half\ninputs features-218\nhidden %d\noutputs 5\nweights %d\n",
             half, count_of(NN_INPUTS_FIRST, half));
    size_t n;
    unsigned char *data = assemble(head, body, k, &n);
    NnInfo info;
    Err err = {{0}};
    assert_true(nn_file_parse(data, n, "half", fx->v, &info, &err));
    assert_int_equal(info.hidden, half);
    assert_memory_equal(fx->w, fx->v, sizeof *fx->w);
    free(body);
    free(data);
    fixture_restored(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_features_round_trip),
        cmocka_unit_test(test_all_features_round_trip),
        cmocka_unit_test(test_race_round_trip), cmocka_unit_test(test_compiled_in),
        cmocka_unit_test(test_cut_and_extra), cmocka_unit_test(test_damage),
        cmocka_unit_test(test_foreign),       cmocka_unit_test(test_not_finite),
        cmocka_unit_test(test_narrower),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
