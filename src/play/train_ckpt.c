/* train_ckpt.c - the checkpoint of a `shesh train` run (train_ckpt.h).
 *
 * A few text lines, then the weights as little-endian IEEE floats, then a
 * CRC-32 of everything before it:
 *
 *     shesh-train-checkpoint 4
 *     net INPUTS HIDDEN OUTPUTS  (INPUTS: those the network reads, nn.h)
 *     games N
 *     seed S
 *     rate BITS             (the float's bits in hex: exact)
 *     final-rate BITS
 *     start HASH            (hex: the fnv64 of the network file it started
 *                            from, 0 for random weights)
 *     labels HASH           (hex: label_set_hash of --labels, 0 for TD; games
 *                            are then steps)
 *     done G
 *     rng STATE             (hex)
 *     race 1                (a race network; only then, so that checkpoints
 *                            made before race networks read as they were)
 *     rank BITS             (--rank's float bits in hex; only with --rank,
 *                            for the same reason)
 *     weights COUNT
 *     <4 * COUNT bytes>
 *     crc32 XXXXXXXX
 */
#include "train_ckpt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "file_atomic.h"

const char *train_float_text(float r, char buf[32])
{
    snprintf(buf, 32, "%g", (double)r);
    if (strtof(buf, NULL) != r)
        snprintf(buf, 32, "%.9g", (double)r);
    return buf;
}

#define CKPT_MAGIC "shesh-train-checkpoint 4\n"
/* Every float of NnWeights, the rows of inputs a network does not read
 * included (zero). */
#define CKPT_WEIGHTS (offsetof(NnWeights, inputs) / sizeof(float))
#define CKPT_TRAILER 15 /* "crc32 " 8 hex digits "\n" */

_Static_assert(offsetof(NnWeights, inputs) ==
                       sizeof(float) * ((size_t)NN_INPUTS * NN_HIDDEN + NN_HIDDEN +
                                        (size_t)OUT_COUNT * NN_HIDDEN + OUT_COUNT) &&
                   sizeof(float) == 4,
               "a checkpoint stores the weights as an array of 32-bit floats, without padding");

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

void train_ckpt_encode(Buf *out, const TrainRun *o, const NnWeights *w, long done, uint64_t rng)
{
    char rank_line[32] = "";
    if (o->rank > 0)
        snprintf(rank_line, sizeof rank_line, "rank %08lx\n", (unsigned long)float_bits(o->rank));
    size_t from = out->len;
    buf_printf(out,
               CKPT_MAGIC "net %d %d %d\ngames %ld\nseed %llu\nrate %08lx\nfinal-rate %08lx\n"
                          "start %016llx\nlabels %016llx\ndone %ld\nrng %016llx\n%s%sweights %zu\n",
               w->inputs, NN_HIDDEN, OUT_COUNT, o->games, (unsigned long long)o->seed,
               (unsigned long)float_bits(o->rate0), (unsigned long)float_bits(o->rate1),
               (unsigned long long)o->start, (unsigned long long)o->labels_hash, done,
               (unsigned long long)rng, o->race ? "race 1\n" : "", rank_line, CKPT_WEIGHTS);
    const unsigned char *all = (const unsigned char *)w;
    for (size_t i = 0; i < CKPT_WEIGHTS; i++) {
        uint32_t u;
        memcpy(&u, all + 4 * i, 4);
        unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8),
                               (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
        buf_append(out, le, 4);
    }
    uLong crc = crc32(0L, (const Bytef *)out->data + from, (uInt)(out->len - from));
    buf_printf(out, "crc32 %08lx\n", (unsigned long)crc);
}

bool train_ckpt_write(const char *path, const TrainRun *run, const NnWeights *w, long done,
                      uint64_t rng, Err *err)
{
    Buf b;
    buf_init(&b);
    train_ckpt_encode(&b, run, w, done, rng);
    bool ok = file_write_atomic(path, b.data, b.len, err); /* never half a checkpoint */
    buf_free(&b);
    return ok;
}

/* "KEY V1 ... Vn\n" at *p, each V digits of the base (at most 20) that
 * fit in 64 bits; *p moves past the line. */
static bool ckpt_line(const char **p, const char *end, const char *key, int base, uint64_t *v,
                      int n)
{
    size_t k = strlen(key);
    const char *s = *p;
    if ((size_t)(end - s) <= k || memcmp(s, key, k) != 0)
        return false;
    s += k;
    for (int i = 0; i < n; i++) {
        if (s == end || *s++ != ' ')
            return false;
        uint64_t x = 0;
        int digits = 0;
        for (; s < end && *s != ' ' && *s != '\n'; s++, digits++) {
            int d = *s >= '0' && *s <= '9'                   ? *s - '0'
                    : base == 16 && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                                                           : -1;
            if (d < 0 || digits >= 20 || x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                return false;
            x = x * (uint64_t)base + (uint64_t)d;
        }
        if (digits == 0)
            return false;
        v[i] = x;
    }
    if (s == end || *s != '\n')
        return false;
    *p = s + 1;
    return true;
}

static bool ckpt_field(const char **p, const char *end, const char *key, int base, uint64_t *v)
{
    return ckpt_line(p, end, key, base, v, 1);
}

/* The whole file in memory (it is small), or NULL. */
static unsigned char *read_small_file(const char *path, size_t *size, Err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *data = malloc(TRAIN_CKPT_MAX + 1);
    size_t n = data ? fread(data, 1, TRAIN_CKPT_MAX + 1, f) : 0;
    bool bad = !data || ferror(f);
    fclose(f);
    if (bad || n > TRAIN_CKPT_MAX) {
        err_set(err, bad ? "cannot read %s" : "%s is too big to be a checkpoint of shesh train",
                path);
        free(data);
        return NULL;
    }
    *size = n;
    return data;
}

bool train_ckpt_decode(const unsigned char *data, size_t size, const char *path,
                       const TrainRun *o, NnWeights *w, long *done, uint64_t *rng, Err *err)
{
    bool ok = false;
    const char *text = (const char *)data, *end = text + size - CKPT_TRAILER;
    uint64_t crc, net[3], games, seed, r0, r1, fd, lh, d, state, count, race = 0, rank = 0;
    if (size < sizeof CKPT_MAGIC + CKPT_TRAILER || memcmp(text, CKPT_MAGIC, strlen(CKPT_MAGIC))) {
        bool old = size >= 25 && (!memcmp(text, "shesh-train-checkpoint 1\n", 25) ||
                                  !memcmp(text, "shesh-train-checkpoint 2\n", 25) ||
                                  !memcmp(text, "shesh-train-checkpoint 3\n", 25));
        err_set(err, old ? "%s is a checkpoint of an older shesh (format %c): go on with that "
                           "version, or remove it and start again"
                         : "%s is not a checkpoint of shesh train",
                path, old ? text[23] : '?');
        goto done;
    }
    const char *trailer = end;
    if (!ckpt_field(&trailer, text + size, "crc32", 16, &crc) ||
        crc != crc32(0L, data, (uInt)(size - CKPT_TRAILER))) {
        err_set(err, "%s is damaged: its CRC-32 does not match its contents", path);
        goto done;
    }
    const char *p = text + strlen(CKPT_MAGIC);
    if (!ckpt_line(&p, end, "net", 10, net, 3) || !ckpt_field(&p, end, "games", 10, &games) || !ckpt_field(&p, end, "seed", 10, &seed) ||
        !ckpt_field(&p, end, "rate", 16, &r0) || !ckpt_field(&p, end, "final-rate", 16, &r1) ||
        !ckpt_field(&p, end, "start", 16, &fd) ||
        !ckpt_field(&p, end, "labels", 16, &lh) || !ckpt_field(&p, end, "done", 10, &d) ||
        !ckpt_field(&p, end, "rng", 16, &state) ||
        (end - p > 5 && !memcmp(p, "race ", 5) && !ckpt_field(&p, end, "race", 10, &race)) ||
        (end - p > 5 && !memcmp(p, "rank ", 5) && !ckpt_field(&p, end, "rank", 16, &rank)) ||
        !ckpt_field(&p, end, "weights", 10, &count) || race > 1 || r0 > UINT32_MAX || r1 > UINT32_MAX ||
        rank > UINT32_MAX || d > games) {
        err_set(err, "%s is damaged: a malformed header line", path);
        goto done;
    }
    /* The options first: a run from another start or on other labels is
     * told so, even where that also makes the network another shape. */
    char want[32], got[32];
    if (games != (uint64_t)o->games && o->on_labels)
        err_set(err, "%s was made with another --epochs or on other labels", path);
    else if (games != (uint64_t)o->games)
        err_set(err, "%s was made with --games %" PRIu64 ", not --games %ld", path, games,
                o->games);
    else if (seed != o->seed)
        err_set(err, "%s was made with --seed %" PRIu64 ", not --seed %llu", path, seed,
                (unsigned long long)o->seed);
    else if (bits_float((uint32_t)r0) != o->rate0)
        err_set(err, "%s was made with --rate %s, not --rate %s", path,
                train_float_text(bits_float((uint32_t)r0), got), train_float_text(o->rate0, want));
    else if (bits_float((uint32_t)r1) != o->rate1)
        err_set(err, "%s was made with --final-rate %s, not --final-rate %s", path,
                train_float_text(bits_float((uint32_t)r1), got), train_float_text(o->rate1, want));
    else if (bits_float((uint32_t)rank) != o->rank)
        err_set(err, "%s was made with %s%s, this run with %s%s", path,
                rank ? "--rank " : "no --rank", rank ? train_float_text(bits_float((uint32_t)rank), got) : "",
                o->rank > 0 ? "--rank " : "no --rank", o->rank > 0 ? train_float_text(o->rank, want) : "");
    else if (lh != o->labels_hash)
        err_set(err, "%s was made %s, and this run %s", path,
                lh ? "on other labels, or by TD" : "by TD self-play",
                o->on_labels ? "on these labels" : "by TD self-play");
    else if (fd != o->start)
        err_set(err,
                "%s started from %s (%016" PRIx64 "), and this run from %s (%016llx)", path,
                fd ? "a network" : "random weights", fd, o->start ? "a network" : "random weights",
                (unsigned long long)o->start);
    else if (race != o->race)
        err_set(err, "%s trains a %s network, and this run a %s one", path,
                race ? "race" : "contact", o->race ? "race" : "contact");
    else if (net[0] != (uint64_t)o->inputs || net[1] != NN_HIDDEN || net[2] != OUT_COUNT)
        err_set(err,
                "%s holds a network of %" PRIu64 " inputs, %" PRIu64 " hidden units and %" PRIu64
                " outputs; this run trains %d, %d and %d",
                path, net[0], net[1], net[2], o->inputs, NN_HIDDEN, OUT_COUNT);
    else if (count != CKPT_WEIGHTS || (size_t)(end - p) != 4 * CKPT_WEIGHTS)
        err_set(err, "%s is damaged: %" PRIu64 " weights in %zu bytes, where a network has %zu",
                path, count, (size_t)(end - p), CKPT_WEIGHTS);
    else
        ok = true;
    if (!ok)
        goto done;
    unsigned char *all = (unsigned char *)w;
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < CKPT_WEIGHTS; i++, b += 4) {
        uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24;
        if (!isfinite(bits_float(u))) {
            ok = err_set(err, "%s is damaged: weight %zu is not a finite number", path, i);
            goto done;
        }
        memcpy(all + 4 * i, &u, 4);
    }
    w->quantized = false; /* the floats changed (nn.h) */
    w->inputs = o->inputs;
    w->race = o->race;
    *done = (long)d;
    *rng = state;
done:
    return ok;
}

bool train_ckpt_read(const char *path, const TrainRun *run, NnWeights *w, long *done,
                     uint64_t *rng, Err *err)
{
    size_t size;
    unsigned char *data = read_small_file(path, &size, err);
    if (!data)
        return false;
    bool ok = train_ckpt_decode(data, size, path, run, w, done, rng, err);
    free(data);
    return ok;
}

