/* fuzz_nn_file.c - libFuzzer harness for the network file reader. The
 * first byte says how the rest becomes a file: bit 1 set, the rest is a
 * header, followed by the weights of a fixed network (a whole file is 104
 * kB, past the fuzzer's usual input length; bit 3 set, of a network that
 * reads the features, 112 kB; the header may name either kind of race
 * network, whose weights are the same), with bit 2 one of them
 * replaced by bytes 2-5 at the index of byte 1 (so that weights that are not
 * numbers are met); bit 0 set, a correct fnv64 line is appended, so that the
 * checks behind the hash are reached. Either way the reader accepts the
 * bytes or refuses them with a message; what it accepts has finite weights
 * and a valid id, and written out and read back it is the same network. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fnv.h"
#include "nn_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The floats of NnWeights (the rows of unread inputs zero); a file holds
 * nn_file_weight_count of them, in nn_file_weight_at's order. */
#define COUNT (offsetof(NnWeights, inputs) / sizeof(float))

static NnWeights w, v; /* over 100 kB each: not on the fuzzer's stack */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6 || size > 65536)
        return 0;
    unsigned flags = data[0];
    size_t skip = flags & 4 ? 6 : 1;
    unsigned char *file = malloc(size + 4 * COUNT + 24);
    if (!file)
        return 0;
    size_t n = size - skip;
    memcpy(file, data + skip, n);
    if (flags & 2) {
        nn_init(&w, flags & 8 ? NN_INPUTS : NN_RAW_INPUTS, 1);
        size_t count = nn_file_weight_count(w.inputs);
        for (size_t i = 0; i < count; i++, n += 4) {
            float x = ((const float *)&w)[nn_file_weight_at(w.inputs, i)];
            uint32_t u;
            memcpy(&u, &x, 4);
            if ((flags & 4) && i == (data[1] * 103u) % count)
                u = (uint32_t)data[2] | (uint32_t)data[3] << 8 | (uint32_t)data[4] << 16 |
                    (uint32_t)data[5] << 24;
            for (int k = 0; k < 4; k++)
                file[n + (size_t)k] = (unsigned char)(u >> (8 * k));
        }
    }
    if (flags & 1) {
        uint64_t h = fnv_bytes(FNV_OFFSET, file, n);
        n += (size_t)snprintf((char *)file + n, 24, "fnv64 %016llx\n", (unsigned long long)h);
    }
    Err err = {{0}};
    NnInfo info;
    if (!nn_file_parse(file, n, "input", &w, &info, &err)) {
        if (!memchr(err.text, '\0', sizeof err.text) || !err.text[0])
            abort(); /* a refusal always says why */
        free(file);
        return 0;
    }
    if (!nn_id_valid(info.id))
        abort();
    const float *all = (const float *)&w;
    for (size_t i = 0; i < COUNT; i++)
        if (!isfinite(all[i]))
            abort();
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_nn_file.%ld.snn", (long)getpid());
    NnInfo again;
    if (!nn_file_save(path, &w, info.id, NULL, &err) || !nn_file_load(path, &v, &again, &err) ||
        memcmp(&w, &v, sizeof w) != 0 || strcmp(info.id, again.id) != 0)
        abort();
    remove(path);
    free(file);
    return 0;
}
