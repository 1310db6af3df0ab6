/* fuzz_posid.c - libFuzzer harness for the Position ID decoder and the move
 * generator: the input's bytes up to its first NUL (all of them if there is
 * none) are decoded as an ID; an accepted ID must encode back to itself, and
 * the position is then given to movegen with a roll, whose every move must
 * replay part by part to its result.
 *
 * The roll is the byte after that NUL, when there is one (r % 6 + 1 and
 * r / 6 % 6 + 1: all 36 rolls), else the ID's first byte. The NUL keeps the
 * two apart whatever the ID's length, so IDs of any length reach the decoder
 * and a 14-character one still gets every roll. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "posid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static MoveList list; /* 240 KB: too big for the fuzzer's stack */
    const uint8_t *nul = size ? memchr(data, '\0', size) : NULL;
    size_t idlen = nul ? (size_t)(nul - data) : size;
    char id[64];
    size_t n = idlen < sizeof id - 1 ? idlen : sizeof id - 1;
    memcpy(id, data, n);
    id[n] = '\0';

    Position p;
    Err err;
    if (!posid_decode(id, &p, &err)) {
        if (!memchr(err.text, '\0', sizeof err.text) || !err.text[0])
            abort(); /* a failure always says why */
        return 0;
    }
    char back[POSID_LEN + 1];
    posid_encode(&p, back);
    if (strcmp(back, id))
        abort();

    unsigned r = nul && nul + 1 < data + size ? nul[1] : data[0]; /* n == POSID_LEN here */
    int d1 = 1 + (int)(r % 6), d2 = 1 + (int)(r / 6 % 6);
    int count = movegen_generate(&p, d1, d2, &list);
    if (count < 0 || count > MOVES_MAX || count != list.count)
        abort();
    for (int i = 0; i < count; i++) {
        const Move *m = &list.moves[i];
        Position q = p;
        if (m->parts < 1 || m->parts > MOVE_PARTS_MAX)
            abort();
        for (int k = 0; k < m->parts; k++)
            if (!movegen_apply_part(&q, m->from[k], m->to[k]))
                abort();
        if (!pos_equal(&q, &m->result) || !pos_valid(&m->result, NULL))
            abort();
    }
    return 0;
}
