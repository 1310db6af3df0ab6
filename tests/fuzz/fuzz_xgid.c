/* fuzz_xgid.c - libFuzzer harness for the XGID reader and writer.
 *
 * An input whose first byte is even is an XGID as it stands. An odd first
 * byte edits a valid XGID instead, so that most inputs get past the shape
 * checks: the next byte picks a template, then byte pairs (place, value)
 * overwrite characters with ones XGIDs are made of.
 *
 * A refusal must say why on one line and leave the result untouched. What
 * is read must be a valid position and Match ID, write back to an XGID that
 * reads the same, and write that XGID again unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gnubgid.h"
#include "xgid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const templates[] = {
    "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:2:1:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:2:0:-1:D:0:0:3:0:10",
    "XGID=bbBbBbBAa-A-AAAAA-Ab-aAa--:1:-1:-1:16:46:49:0:64:10",
    "XGID=-a-b---aaabAAABa---BAAbbbC:0:0:1:61:3:6:1:7:8",
    "XGID=-----------O--------------:0:0:-1:43:0:0:3:0:10",
};

/* What edits write: every character an XGID is made of, and a few others. */
static const char alphabet[] = "-0123456789:ABCDEOPabcdeopDBRx=";

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char s[160];
    if (size > 0 && data[0] & 1) {
        const char *t = templates[(size > 1 ? data[1] : 0) % 5];
        size_t len = strlen(t);
        memcpy(s, t, len + 1);
        for (size_t i = 2; i + 1 < size; i += 2)
            s[data[i] % len] = alphabet[data[i + 1] % (sizeof alphabet - 1)];
    } else {
        size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
        memcpy(s, data, n);
        s[n] = '\0';
    }

    Xgid x, y;
    memset(&x, 0x5a, sizeof x);
    Xgid untouched = x;
    Err err;
    if (!xgid_decode(s, &x, &err)) {
        check_err(&err);
        if (memcmp(&x, &untouched, sizeof x))
            abort();
    } else {
        char out[XGID_MAX], again[XGID_MAX];
        if (!pos_valid(&x.pos, NULL) || !matchid_valid(&x.match, NULL))
            abort();
        if (!xgid_encode(&x, out, &err) || !xgid_decode(out, &y, &err))
            abort();
        if (!pos_equal(&x.pos, &y.pos) || !matchid_equal(&x.match, &y.match) ||
            x.beavers != y.beavers || x.max_cube != y.max_cube)
            abort();
        if (!xgid_encode(&y, again, &err) || strcmp(out, again))
            abort();
    }

    AnyId a;
    if (gnubgid_read_any(s, &a, &err)) {
        if (a.kind != gnubgid_kind(s))
            abort();
    } else {
        check_err(&err);
    }
    return 0;
}
