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

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "file_atomic.h"
#include "file_read.h"

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

/* A line "KEY V" that only some checkpoints have: read if it is there,
 * *v left as it was if not. */
static bool optional_field(const char **p, const char *end, const char *key, int base,
                           uint64_t *v)
{
    size_t k = strlen(key);
    if ((size_t)(end - *p) <= k || memcmp(*p, key, k) != 0 || (*p)[k] != ' ')
        return true;
    return ckpt_field(p, end, key, base, v);
}

/* A weight's bits, stored little-endian. */
static uint32_t le32(const unsigned char *q)
{
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

/* What a checkpoint's header says of the run that made it. */
typedef struct Header {
    uint64_t net[3], games, seed, rate0, rate1, start, labels, done, rng, race, rank, count;
} Header;

/* The header's lines from *p to end, *p moved past them. */
static bool read_header(const char **p, const char *end, Header *h)
{
    h->race = h->rank = 0; /* lines only some checkpoints have */
    return ckpt_line(p, end, "net", 10, h->net, 3) && ckpt_field(p, end, "games", 10, &h->games) &&
           ckpt_field(p, end, "seed", 10, &h->seed) &&
           ckpt_field(p, end, "rate", 16, &h->rate0) &&
           ckpt_field(p, end, "final-rate", 16, &h->rate1) &&
           ckpt_field(p, end, "start", 16, &h->start) &&
           ckpt_field(p, end, "labels", 16, &h->labels) &&
           ckpt_field(p, end, "done", 10, &h->done) && ckpt_field(p, end, "rng", 16, &h->rng) &&
           optional_field(p, end, "race", 10, &h->race) &&
           optional_field(p, end, "rank", 16, &h->rank) &&
           ckpt_field(p, end, "weights", 10, &h->count) && h->race <= 1 &&
           h->rate0 <= UINT32_MAX && h->rate1 <= UINT32_MAX && h->rank <= UINT32_MAX &&
           h->done <= h->games;
}

/* Whether the header's run is o, and if not, which option differs: the
 * options first, so that a run from another start or on other labels is
 * told so even where that also makes the network another shape. */
static bool same_run(const Header *h, const TrainRun *o, const char *path, Err *err)
{
    char want[32], got[32];
    float rate0 = bits_float((uint32_t)h->rate0), rate1 = bits_float((uint32_t)h->rate1);
    float rank = bits_float((uint32_t)h->rank);
    if (h->games != (uint64_t)o->games && o->on_labels)
        return err_set(err, "%s was made with another --epochs or on other labels", path);
    if (h->games != (uint64_t)o->games)
        return err_set(err, "%s was made with --games %" PRIu64 ", not --games %ld", path,
                       h->games, o->games);
    if (h->seed != o->seed)
        return err_set(err, "%s was made with --seed %" PRIu64 ", not --seed %llu", path, h->seed,
                       (unsigned long long)o->seed);
    if (rate0 != o->rate0)
        return err_set(err, "%s was made with --rate %s, not --rate %s", path,
                       train_float_text(rate0, got), train_float_text(o->rate0, want));
    if (rate1 != o->rate1)
        return err_set(err, "%s was made with --final-rate %s, not --final-rate %s", path,
                       train_float_text(rate1, got), train_float_text(o->rate1, want));
    if (rank != o->rank)
        return err_set(err, "%s was made with %s%s, this run with %s%s", path,
                       h->rank ? "--rank " : "no --rank",
                       h->rank ? train_float_text(rank, got) : "",
                       o->rank > 0 ? "--rank " : "no --rank",
                       o->rank > 0 ? train_float_text(o->rank, want) : "");
    if (h->labels != o->labels_hash)
        return err_set(err, "%s was made %s, and this run %s", path,
                       h->labels ? "on other labels, or by TD" : "by TD self-play",
                       o->on_labels ? "on these labels" : "by TD self-play");
    if (h->start != o->start)
        return err_set(err, "%s started from %s (%016" PRIx64 "), and this run from %s (%016llx)",
                       path, h->start ? "a network" : "random weights", h->start,
                       o->start ? "a network" : "random weights", (unsigned long long)o->start);
    if (h->race != o->race)
        return err_set(err, "%s trains a %s network, and this run a %s one", path,
                       h->race ? "race" : "contact", o->race ? "race" : "contact");
    if (h->net[0] != (uint64_t)o->inputs || h->net[1] != NN_HIDDEN || h->net[2] != OUT_COUNT)
        return err_set(err,
                       "%s holds a network of %" PRIu64 " inputs, %" PRIu64
                       " hidden units and %" PRIu64 " outputs; this run trains %d, %d and %d",
                       path, h->net[0], h->net[1], h->net[2], o->inputs, NN_HIDDEN, OUT_COUNT);
    return true;
}

bool train_ckpt_decode(const unsigned char *data, size_t size, const char *path,
                       const TrainRun *o, NnWeights *w, long *done, uint64_t *rng, Err *err)
{
    const char *text = (const char *)data;
    size_t magic = strlen(CKPT_MAGIC);
    if (size < magic + CKPT_TRAILER || memcmp(text, CKPT_MAGIC, magic)) {
        bool old = size >= 25 && (!memcmp(text, "shesh-train-checkpoint 1\n", 25) ||
                                  !memcmp(text, "shesh-train-checkpoint 2\n", 25) ||
                                  !memcmp(text, "shesh-train-checkpoint 3\n", 25));
        if (old)
            return err_set(err,
                           "%s is a checkpoint of an older shesh (format %c): go on with that "
                           "version, or remove it and start again",
                           path, text[23]);
        return err_set(err, "%s is not a checkpoint of shesh train", path);
    }
    const char *end = text + size - CKPT_TRAILER, *trailer = end;
    uint64_t crc;
    if (!ckpt_field(&trailer, text + size, "crc32", 16, &crc) ||
        crc != crc32(0L, data, (uInt)(size - CKPT_TRAILER)))
        return err_set(err, "%s is damaged: its CRC-32 does not match its contents", path);
    const char *p = text + magic;
    Header h;
    if (!read_header(&p, end, &h))
        return err_set(err, "%s is damaged: a malformed header line", path);
    if (!same_run(&h, o, path, err))
        return false;
    if (h.count != CKPT_WEIGHTS || (size_t)(end - p) != 4 * CKPT_WEIGHTS)
        return err_set(err,
                       "%s is damaged: %" PRIu64 " weights in %zu bytes, where a network has %zu",
                       path, h.count, (size_t)(end - p), CKPT_WEIGHTS);
    /* Every weight checked before any is taken: a refused file leaves w
     * as it was. */
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < CKPT_WEIGHTS; i++)
        if (!isfinite(bits_float(le32(b + 4 * i))))
            return err_set(err, "%s is damaged: weight %zu is not a finite number", path, i);
    unsigned char *all = (unsigned char *)w;
    for (size_t i = 0; i < CKPT_WEIGHTS; i++) {
        uint32_t u = le32(b + 4 * i);
        memcpy(all + 4 * i, &u, 4);
    }
    w->quantized = false; /* the floats changed (nn.h) */
    w->inputs = o->inputs;
    w->race = o->race;
    *done = (long)h.done;
    *rng = h.rng;
    return true;
}

bool train_ckpt_read(const char *path, const TrainRun *run, NnWeights *w, long *done,
                     uint64_t *rng, Err *err)
{
    size_t size;
    unsigned char *data;
    switch (file_read_small(path, TRAIN_CKPT_MAX, &data, &size, err)) {
    case FILE_READ_FAILED:
        return false;
    case FILE_READ_TOO_BIG:
        return err_set(err, "%s is too big to be a checkpoint of shesh train", path);
    case FILE_READ_OK:
        break;
    }
    bool ok = train_ckpt_decode(data, size, path, run, w, done, rng, err);
    free(data);
    return ok;
}

