/* fuzz_label_line.c - libFuzzer harness for the lines of shesh label's
 * files (label_file.h), which --resume, merge and shesh weights --labels
 * read. A line is accepted or refused with a message; an accepted one has
 * its numbers in range and a position that encodes back to its ID, and
 * written out again it reads back to the same line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "label_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LabelLine l, again;
    Err err = {{0}};
    if (!label_line_parse((const char *)data, size, &l, &err)) {
        if (!memchr(err.text, '\0', sizeof err.text) || !err.text[0])
            abort(); /* a refusal always says why */
        return 0;
    }
    if (l.index < 0 || l.index > LABEL_INDEX_MAX || !(l.se >= 0 && l.se <= LABEL_EQUITY_MAX) ||
        !(l.equity >= -LABEL_EQUITY_MAX && l.equity <= LABEL_EQUITY_MAX))
        abort();
    for (int k = 0; k < OUT_COUNT; k++)
        if (!(l.out[k] >= 0 && l.out[k] <= 1))
            abort();
    char id[POSID_LEN + 1];
    posid_encode(&l.pos, id);
    if (strcmp(id, l.id) != 0)
        abort();
    Buf b;
    buf_init(&b);
    label_line_format(&b, &l);
    if (!label_line_parse(b.data, b.len, &again, &err) || again.index != l.index ||
        strcmp(again.id, l.id) != 0 || fabs(again.equity - l.equity) > 1e-6 ||
        fabs(again.se - l.se) > 1e-6)
        abort();
    for (int k = 0; k < OUT_COUNT; k++)
        if (fabs(again.out[k] - l.out[k]) > 1e-6)
            abort();
    buf_free(&b);
    return 0;
}
