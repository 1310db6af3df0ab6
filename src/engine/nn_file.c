/* nn_file.c - reading and writing network files (see nn_file.h). */
#include "nn_file.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_atomic.h"
#include "file_read.h"
#include "fnv.h"

#define NN_MAGIC "shesh-net 1\n"
#define NN_TRAILER 23 /* "fnv64 " 16 hex digits "\n" */

_Static_assert(sizeof(float) == 4, "weights are 32-bit floats");

/* The floats a network of `inputs` inputs and `hidden` units has in its
 * file. */
static size_t weight_count(int inputs, int hidden)
{
    return (size_t)inputs * hidden + hidden + (size_t)OUT_COUNT * hidden + OUT_COUNT;
}

size_t nn_file_weight_count(int inputs)
{
    return weight_count(inputs, NN_HIDDEN);
}

/* The kinds of input a file may name (nn.h). */
static const struct {
    const char *name;
    int inputs;
    bool race;
} input_kinds[] = {{NN_INPUTS_RAW_NAME, NN_RAW_INPUTS, false},
                   {NN_INPUTS_FEATURES_NAME, NN_INPUTS_FIRST, false},
                   {NN_INPUTS_ALL_FEATURES_NAME, NN_INPUTS, false},
                   {NN_INPUTS_RACE_NAME, NN_RAW_INPUTS, true},
                   {NN_INPUTS_RACE_FEATURES_NAME, NN_INPUTS_FIRST, true},
                   {NN_INPUTS_RACE_MODEL_NAME, NN_INPUTS, true}};

const char *nn_inputs_name(const NnWeights *w)
{
    for (size_t k = 0; k < sizeof input_kinds / sizeof input_kinds[0]; k++)
        if (input_kinds[k].inputs == w->inputs && input_kinds[k].race == w->race)
            return input_kinds[k].name;
    return "unknown";
}

/* Where the k-th float of the file of a network of `inputs` inputs and
 * `hidden` units goes among NnWeights' floats (its rows NN_HIDDEN long). */
static size_t weight_at(int inputs, int hidden, size_t k)
{
    size_t rows = (size_t)inputs * hidden, h = (size_t)hidden;
    if (k < rows) /* input -> hidden */
        return k / h * NN_HIDDEN + k % h;
    k -= rows;
    size_t at = (size_t)NN_INPUTS * NN_HIDDEN;
    if (k < h) /* hidden biases */
        return at + k;
    k -= h, at += NN_HIDDEN;
    if (k < OUT_COUNT * h) /* hidden -> output */
        return at + k / h * NN_HIDDEN + k % h;
    return at + (size_t)OUT_COUNT * NN_HIDDEN + (k - OUT_COUNT * h); /* output biases */
}

size_t nn_file_weight_at(int inputs, size_t k)
{
    return weight_at(inputs, NN_HIDDEN, k);
}

_Static_assert(offsetof(NnWeights, inputs) ==
                   sizeof(float) * ((size_t)NN_INPUTS * NN_HIDDEN + NN_HIDDEN +
                                    (size_t)OUT_COUNT * NN_HIDDEN + OUT_COUNT),
               "NnWeights' floats come first, without padding");

bool nn_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= NN_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* ---- reading ---- */

typedef struct Reader {
    const unsigned char *at, *end;
    const char *what;
    Err *err;
} Reader;

/* The next header line "KEY VALUE\n" into value (NUL-terminated, at most
 * size - 1 bytes). */
static bool header(Reader *r, const char *key, char *value, size_t size)
{
    size_t k = strlen(key);
    const unsigned char *nl = memchr(r->at, '\n', (size_t)(r->end - r->at));
    if (!nl || (size_t)(nl - r->at) <= k || memcmp(r->at, key, k) != 0 || r->at[k] != ' ')
        return err_set(r->err, "%s: not a network file (no '%s' line where expected)", r->what,
                       key);
    size_t n = (size_t)(nl - r->at) - k - 1;
    if (n == 0 || n >= size)
        return err_set(r->err, "%s: the '%s' line is %s", r->what, key, n ? "too long" : "empty");
    if (memchr(r->at + k + 1, '\0', n))
        return err_set(r->err, "%s: the '%s' line holds a NUL byte", r->what, key);
    memcpy(value, r->at + k + 1, n);
    value[n] = '\0';
    r->at = nl + 1;
    return true;
}

/* The number on the `key` line. */
static bool header_ulong(Reader *r, const char *key, unsigned long *v)
{
    char text[24];
    if (!header(r, key, text, sizeof text))
        return false;
    char *stop;
    errno = 0;
    unsigned long got = strtoul(text, &stop, 10);
    if (errno || *stop || text[0] < '0' || text[0] > '9' || (text[0] == '0' && text[1]))
        return err_set(r->err, "%s: the '%s' line is not a number", r->what, key);
    *v = got;
    return true;
}

/* The `key` line, which must hold this build's `want`. */
static bool header_number(Reader *r, const char *key, unsigned long want)
{
    unsigned long v = 0;
    if (!header_ulong(r, key, &v))
        return false;
    if (v != want)
        return err_set(r->err, "%s: %s %lu, but this build's network has %lu", r->what, key, v,
                       want);
    return true;
}

static float le_float(const unsigned char *b)
{
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

bool nn_file_parse(const unsigned char *data, size_t n, const char *what, NnWeights *w,
                   NnInfo *info, Err *err)
{
    Reader r = {data, data + n, what, err};
    size_t magic = strlen(NN_MAGIC);
    if (n < magic || memcmp(data, NN_MAGIC, magic) != 0) {
        /* A text tool that turned the header's line ends into CR LF (or
         * CR) has also changed bytes of the weights: say what happened. */
        if (n > magic && memcmp(data, NN_MAGIC, magic - 1) == 0 && data[magic - 1] == '\r')
            return err_set(err,
                           "%s: damaged by a conversion of its line ends (a network file is "
                           "binary)",
                           what);
        return err_set(err, "%s: not a network file (it does not start with 'shesh-net 1')",
                       what);
    }
    r.at += magic;
    char id[NN_ID_MAX + 1], inputs[32];
    if (!header(&r, "id", id, sizeof id))
        return false;
    if (!nn_id_valid(id))
        return err_set(err, "%s: the id is not 1 to %d letters, digits, '.', '_' or '-'", what,
                       NN_ID_MAX - 1);
    if (!header(&r, "inputs", inputs, sizeof inputs))
        return false;
    int kind = -1;
    bool race = false;
    for (size_t k = 0; k < sizeof input_kinds / sizeof input_kinds[0]; k++)
        if (strcmp(inputs, input_kinds[k].name) == 0)
            kind = input_kinds[k].inputs, race = input_kinds[k].race;
    if (kind < 0)
        return err_set(err, "%s: inputs '%s', but this build's networks read '%s', '%s', '%s', "
                            "'%s', '%s' or '%s'",
                       what, inputs, NN_INPUTS_RAW_NAME, NN_INPUTS_FEATURES_NAME,
                       NN_INPUTS_ALL_FEATURES_NAME, NN_INPUTS_RACE_NAME,
                       NN_INPUTS_RACE_FEATURES_NAME, NN_INPUTS_RACE_MODEL_NAME);
    unsigned long hidden = 0;
    if (!header_ulong(&r, "hidden", &hidden))
        return false;
    /* A wider network is no damaged file: name the build that reads it. */
    if (hidden > NN_HIDDEN)
        return err_set(err,
                       "%s: hidden %lu, but this build's network has 1 to %d (a build with "
                       "-DNN_HIDDEN=%lu reads it)",
                       what, hidden, NN_HIDDEN, hidden);
    if (hidden < 1)
        return err_set(err, "%s: hidden 0, but a network has 1 hidden unit or more", what);
    if (!header_number(&r, "outputs", OUT_COUNT))
        return false;
    size_t count = weight_count(kind, (int)hidden);
    if (!header_number(&r, "weights", count))
        return false;
    size_t body = count * 4;
    if ((size_t)(r.end - r.at) < body + NN_TRAILER)
        return err_set(err, "%s: cut short (%zu bytes; a network file of this shape has %zu)",
                       what, n, (size_t)(r.at - data) + body + NN_TRAILER);
    if ((size_t)(r.end - r.at) > body + NN_TRAILER)
        return err_set(err, "%s: %zu bytes after the end of the network", what,
                       (size_t)(r.end - r.at) - body - NN_TRAILER);
    const unsigned char *trailer = r.at + body;
    char hex[17];
    memcpy(hex, trailer + 6, 16);
    hex[16] = '\0';
    char *stop;
    errno = 0;
    unsigned long long want = strtoull(hex, &stop, 16);
    if (memcmp(trailer, "fnv64 ", 6) != 0 || trailer[22] != '\n' || errno || *stop ||
        strspn(hex, "0123456789abcdef") != 16)
        return err_set(err, "%s: no 'fnv64' line at the end", what);
    uint64_t got = fnv_bytes(FNV_OFFSET, data, (size_t)(trailer - data));
    if (got != want)
        return err_set(err, "%s: damaged (its hash is %016llx, the file says %016llx)", what,
                       (unsigned long long)got, want);
    memset(w, 0, sizeof *w);
    w->inputs = kind;
    w->race = race;
    float *all = (float *)w;
    for (size_t i = 0; i < count; i++) {
        float *x = &all[weight_at(kind, (int)hidden, i)];
        *x = le_float(r.at + 4 * i);
        if (!isfinite(*x))
            return err_set(err, "%s: weight %zu is not a finite number", what, i);
    }
    if (info) {
        memcpy(info->id, id, strlen(id) + 1); /* valid: shorter than NN_ID_MAX */
        info->hash = got;
        info->hidden = (int)hidden;
    }
    return true;
}

bool nn_file_load(const char *path, NnWeights *w, NnInfo *info, Err *err)
{
    unsigned char *data;
    size_t n;
    switch (file_read_small(path, NN_FILE_MAX, &data, &n, err)) {
    case FILE_READ_FAILED:
        return false;
    case FILE_READ_TOO_BIG:
        return err_set(err, "%s: not a network file (over %zu bytes)", path, NN_FILE_MAX);
    case FILE_READ_OK:
        break;
    }
    bool ok = nn_file_parse(data, n, path, w, info, err);
    free(data);
    return ok;
}

/* A network compiled in (size 0: none), checked as any file is and
 * refused when it is not of the kind its place wants; `kind` names the
 * place ("network", "race network", "cube network") in the messages. */
static bool load_compiled(const unsigned char *data, size_t size, const char *kind, bool race,
                          NnWeights *w, NnInfo *info, Err *err)
{
    if (size == 0)
        return err_set(err, "no %s is compiled in", kind);
    char what[48];
    snprintf(what, sizeof what, "the compiled-in %s", kind);
    if (!nn_file_parse(data, size, what, w, info, err))
        return false;
    return w->race == race || err_set(err, "%s is %s race network", what, race ? "not a" : "a");
}

bool nn_file_load_default(NnWeights *w, NnInfo *info, Err *err)
{
    return load_compiled(nn_default_file, nn_default_file_size, "network", false, w, info, err);
}

bool nn_file_load_race_default(NnWeights *w, NnInfo *info, Err *err)
{
    return load_compiled(nn_race_default_file, nn_race_default_file_size, "race network", true,
                         w, info, err);
}

bool nn_file_load_cube_default(NnWeights *w, NnInfo *info, Err *err)
{
    return load_compiled(nn_cube_default_file, nn_cube_default_file_size, "cube network", false,
                         w, info, err);
}

/* ---- writing ---- */

static void put_float(unsigned char *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    b[0] = (unsigned char)u, b[1] = (unsigned char)(u >> 8);
    b[2] = (unsigned char)(u >> 16), b[3] = (unsigned char)(u >> 24);
}

bool nn_file_save(const char *path, const NnWeights *w, const char *id, NnInfo *info, Err *err)
{
    if (!nn_id_valid(id))
        return err_set(err, "the network id '%.40s' is not 1 to %d letters, digits, '.', '_' or "
                            "'-'",
                       id, NN_ID_MAX - 1);
    char head[256];
    size_t count = nn_file_weight_count(w->inputs);
    int h = snprintf(head, sizeof head, NN_MAGIC "id %s\ninputs %s\nhidden %d\noutputs %d\n"
                                                 "weights %zu\n",
                     id, nn_inputs_name(w), NN_HIDDEN, OUT_COUNT, count);
    size_t size = (size_t)h + count * 4 + NN_TRAILER;
    unsigned char *data = malloc(size + 1);
    if (!data)
        return err_set(err, "out of memory writing %s", path);
    memcpy(data, head, (size_t)h);
    const float *all = (const float *)w;
    for (size_t i = 0; i < count; i++)
        put_float(data + h + 4 * i, all[nn_file_weight_at(w->inputs, i)]);
    size_t body_end = (size_t)h + count * 4;
    uint64_t hash = fnv_bytes(FNV_OFFSET, data, body_end);
    snprintf((char *)data + body_end, NN_TRAILER + 1, "fnv64 %016llx\n", (unsigned long long)hash);

    bool ok = file_write_atomic(path, data, size, err);
    free(data);
    if (ok && info) {
        memcpy(info->id, id, strlen(id) + 1);
        info->hash = hash;
    }
    return ok;
}
