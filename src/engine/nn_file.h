/* nn_file.h - a network's weights as a file: what `shesh train`
 * writes, what --weights and `shesh weights` read, and what the build
 * compiles in (src/engine/weights/, listed with what made each in its
 * README.md).
 *
 * A few text lines, then the weights as little-endian IEEE 754 floats,
 * then an FNV-1a hash (fnv.h) of every byte before it:
 *
 *     shesh-net 1
 *     id NAME              (1 to NN_ID_MAX - 1 of [A-Za-z0-9._-])
 *     inputs KIND          (nn.h: raw-198, the points alone; features-218,
 *                           the points and the first ten hand-made
 *                           features; features-234, the points and all
 *                           eighteen; race-198, race-218 and race-234,
 *                           the points alone, with the first ten race
 *                           features of nn_race_features.h and with all
 *                           eighteen, for races)
 *     hidden H             (1 to this build's NN_HIDDEN)
 *     outputs 5
 *     weights COUNT        (inputs x hidden + hidden + outputs x hidden + outputs)
 *     <4 * COUNT bytes: input->hidden rows, hidden biases, hidden->output
 *      rows, output biases, in nn.h's order>
 *     fnv64 XXXXXXXXXXXXXXXX
 *
 * A network of fewer hidden units than this build's is read with the rest
 * zero: units that add nothing to any output, so that it values every
 * position as it does in a build of its own width (`shesh train` gives
 * them small random input weights to learn from, nn_widen_hidden).
 *
 * A file is refused, with a message naming the first thing wrong, when it
 * is not such a file, is cut short or has bytes after the hash, holds a
 * network of another shape than this build evaluates (more hidden units,
 * other inputs or outputs), has a weight that is not a finite number, or
 * its hash does not match. */
#ifndef SHESH_NN_FILE_H
#define SHESH_NN_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "nn.h"

#define NN_ID_MAX 32
#define NN_INPUTS_RAW_NAME "raw-198"
#define NN_INPUTS_FEATURES_NAME "features-218"
#define NN_INPUTS_ALL_FEATURES_NAME "features-234"
#define NN_INPUTS_RACE_NAME "race-198"
#define NN_INPUTS_RACE_FEATURES_NAME "race-218"
#define NN_INPUTS_RACE_MODEL_NAME "race-234"
/* Larger files are refused unread: a network of this build is ~240 kB. */
#define NN_FILE_MAX ((size_t)1 << 22)

typedef struct NnInfo {
    char id[NN_ID_MAX];
    uint64_t hash; /* the file's fnv64 line */
    int hidden;    /* the file's hidden units (at most NN_HIDDEN) */
} NnInfo;

/* The network compiled in: the bytes of such a file (the build makes
 * nn_default.c from src/engine/weights/, Makefile NN_DEFAULT). */
extern const unsigned char nn_default_file[];
extern const size_t nn_default_file_size;
/* The race network compiled in (Makefile NN_RACE_DEFAULT): size 0 when
 * there is none and races are the race model's. */
extern const unsigned char nn_race_default_file[];
extern const size_t nn_race_default_file_size;
/* The cube network compiled in (Makefile NN_CUBE_DEFAULT): a contact
 * network that values positions (the cube's, above all) where the contact
 * network chooses the moves (engine.h); size 0 when there is none. */
extern const unsigned char nn_cube_default_file[];
extern const size_t nn_cube_default_file_size;

/* Reads the n bytes at data into w and info; false (err says why, `what`
 * naming the file in the message) when they are refused. */
bool nn_file_parse(const unsigned char *data, size_t n, const char *what, NnWeights *w,
                   NnInfo *info, Err *err);

/* The same from the file at path. */
bool nn_file_load(const char *path, NnWeights *w, NnInfo *info, Err *err);

/* The same from the network compiled in (checked as any file is). */
bool nn_file_load_default(NnWeights *w, NnInfo *info, Err *err);

/* The same from the race network compiled in (refused when there is none,
 * or when either file compiled in is not of its kind). */
bool nn_file_load_race_default(NnWeights *w, NnInfo *info, Err *err);

/* The same from the cube network compiled in (refused when there is none,
 * or when it is a race network). */
bool nn_file_load_cube_default(NnWeights *w, NnInfo *info, Err *err);

/* Writes w as a file with the given id to path, atomically (into
 * PATH.tmp, flushed, then renamed: file_atomic.h); info (may be NULL) gets its id and hash. */
bool nn_file_save(const char *path, const NnWeights *w, const char *id, NnInfo *info, Err *err);

/* The name of the inputs w reads (raw-198, features-218, features-234,
 * race-198 or race-218). */
const char *nn_inputs_name(const NnWeights *w);

/* The weights a file of a network of `inputs` inputs holds, and where its
 * weight k (in the file's order: the input rows, the hidden biases, the
 * output rows, the output biases) is among NnWeights' floats, which hold
 * every row: for tools that write a file by hand. */
size_t nn_file_weight_count(int inputs);
size_t nn_file_weight_at(int inputs, size_t k);

/* Whether id is a valid network id (see above). */
bool nn_id_valid(const char *id);

#endif
