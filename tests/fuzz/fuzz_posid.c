/* fuzz_posid.c - libFuzzer harness for the Position ID decoder and the move
 * generator: arbitrary bytes are decoded; an accepted ID must encode back to
 * itself, and the position is then given to movegen with a roll taken from
 * the input, whose every move must replay part by part to its result. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "posid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static MoveList list; /* 240 KB: too big for the fuzzer's stack */
    char id[64];
    size_t n = size < sizeof id - 1 ? size : sizeof id - 1;
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

    /* The byte after the ID (if any) picks the roll; otherwise 6-6 ... 1-1
     * follow from the ID's first byte. */
    unsigned r = size > POSID_LEN ? data[POSID_LEN] : data[0];
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
