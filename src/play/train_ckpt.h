/* train_ckpt.h - the checkpoint of a `shesh train` run: what the run needs
 * to go on exactly as if it had never stopped (the options that decide the
 * network, the games or steps done, the state of the generator that seeds
 * each game, the weights to the bit), and the refusal of one that is
 * damaged or was made by another run. The format is in train_ckpt.c. */
#ifndef SHESH_TRAIN_CKPT_H
#define SHESH_TRAIN_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "nn.h"

/* What decides the network a run makes, besides where it stands. */
typedef struct TrainRun {
    long games;           /* games of self-play, or steps on labels */
    uint64_t seed;
    float rate0, rate1;   /* --rate, --final-rate */
    float rank;           /* --rank, 0 without */
    uint64_t start;       /* fnv64 of the network file it started from; 0: random weights */
    bool on_labels;       /* --labels (then labels_hash), or TD self-play */
    uint64_t labels_hash; /* label_set_hash of the labels; 0 for TD */
    bool race;            /* a race network */
    int inputs;           /* the inputs the network reads (nn.h) */
} TrainRun;

/* The largest checkpoint read: a few lines and the weights. */
#define TRAIN_CKPT_MAX ((size_t)1 << 24)

/* The checkpoint of run after `done` games (rng: the generator's state
 * then), w its weights, appended to out. */
void train_ckpt_encode(Buf *out, const TrainRun *run, const NnWeights *w, long done,
                       uint64_t rng);

/* train_ckpt_encode written to path whole or not at all. */
bool train_ckpt_write(const char *path, const TrainRun *run, const NnWeights *w, long done,
                      uint64_t rng, Err *err);

/* The checkpoint in data (size bytes, named name in messages) into w,
 * *done and *rng, refusing a damaged one and one that another run made:
 * the options that differ from run's are named, the options before the
 * network's shape. w->inputs and w->race are run's. */
bool train_ckpt_decode(const unsigned char *data, size_t size, const char *name,
                       const TrainRun *run, NnWeights *w, long *done, uint64_t *rng, Err *err);

/* train_ckpt_decode of the file at path (at most TRAIN_CKPT_MAX bytes). */
bool train_ckpt_read(const char *path, const TrainRun *run, NnWeights *w, long *done,
                     uint64_t *rng, Err *err);

/* A float as text that reads back as the same float: %g when that is
 * enough (0.1, not 0.100000001), else nine digits. */
const char *train_float_text(float r, char buf[32]);

#endif
