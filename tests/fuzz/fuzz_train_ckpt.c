/* fuzz_train_ckpt.c - libFuzzer harness for the checkpoints of shesh
 * train (train_ckpt.h), which --resume reads. A checkpoint is refused with
 * a message or read whole; a read one has its steps within its run and
 * finite weights, and written out again it reads back to the same.
 *
 * Random bytes seldom carry a good CRC-32 and never a network's weights,
 * so the first byte of an input chooses how the rest is taken: bit 0, the
 * CRC trailer added (the header's lines reached); bit 1, a network's
 * weights added before it (a checkpoint that can be read whole). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "train_ckpt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The run each input is read for: the options of the fuzzer's seeds. */
static const TrainRun run = {
    .games = 3000,
    .seed = 7,
    .rate0 = 0.1f,
    .rate1 = 0.02f,
    .inputs = NN_RAW_INPUTS,
};

/* Where each input is read to, and where it is read back to. */
static NnWeights read_to, back;

/* The weights a mode-2 input gets: zeros, which are the same bytes in
 * either byte order. */
static const unsigned char zero_weights[offsetof(NnWeights, inputs)];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 4096)
        return 0;
    unsigned mode = data[0];
    data++, size--;
    size_t floats = sizeof zero_weights;
    Buf file;
    buf_init(&file);
    buf_append(&file, data, size);
    if (mode & 2)
        buf_append(&file, zero_weights, floats);
    if (mode & 1)
        buf_printf(&file, "crc32 %08lx\n",
                   (unsigned long)crc32(0L, (const Bytef *)file.data, (uInt)file.len));
    NnWeights *w = &read_to;
    long done = -1;
    uint64_t rng = 0;
    Err err = {{0}};
    bool ok = train_ckpt_decode((const unsigned char *)file.data, file.len, "fuzz.ckpt", &run, w,
                                &done, &rng, &err);
    if (!ok) {
        if (!memchr(err.text, '\0', sizeof err.text) || !err.text[0])
            abort(); /* a refusal always says why */
    } else {
        if (done < 0 || done > run.games || w->inputs != run.inputs || w->race)
            abort();
        float f;
        for (size_t i = 0; i < floats; i += sizeof f) {
            memcpy(&f, (const unsigned char *)w + i, sizeof f);
            if (!isfinite(f))
                abort();
        }
        Buf again;
        buf_init(&again);
        train_ckpt_encode(&again, &run, w, done, rng);
        long done2;
        uint64_t rng2;
        if (!train_ckpt_decode((const unsigned char *)again.data, again.len, "again", &run, &back,
                               &done2, &rng2, &err) ||
            done2 != done || rng2 != rng || memcmp(&back, w, floats) != 0)
            abort();
        buf_free(&again);
    }
    buf_free(&file);
    return 0;
}
