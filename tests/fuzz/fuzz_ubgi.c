/* fuzz_ubgi.c - libFuzzer harness for the UBGI layer with a real engine.
 * Whatever the lines, ubgi_handle() must not crash, every answer must be
 * printable ASCII lines each ending with '\n', and each line must be one
 * UBGI allows: the handshake's, readyok, a key or value line, a bestmove,
 * bestcube, bestturn or bestmoveid, or `error CODE DETAIL` with one of the
 * four codes. quit ends the input without an answer.
 *
 * An input whose first byte is even is raw text: its lines go to one
 * session in turn. An odd first byte starts the session on one of a few
 * positions with dice chosen by the next byte, so that the fuzzer reaches
 * go, not only the words. Lines naming engine.ply or depth are dropped: a
 * 4-ply decision takes seconds, and the depth reaches nothing new.
 *
 * The engine and the pattern are made once, in LLVMFuzzerInitialize (the
 * engine takes seconds to build under ASan). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fuzz_setup.h"
#include "ubgi.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POINT_FROM "(?:bar|2[0-4]|1[0-9]|[1-9])"
#define POINT_TO "(?:off|2[0-4]|1[0-9]|[1-9])"
#define MOVE "(?:pass|" POINT_FROM "/" POINT_TO "(?: " POINT_FROM "/" POINT_TO "){0,3})"
static const char answer_pattern[] =
    "(?:(?:id name Shesh|id author The Shesh authors|proto 0\\.2|key engine\\.ply [\\x20-\\x7e]+"
    "|ubgiok|readyok|value engine\\.ply [1-5]|bestmove " MOVE
    "|bestcube (?:double|nodouble)|bestturn cube=(?:double move=none|nodouble move=" MOVE ")"
    "|bestmoveid [A-Za-z0-9+/]{14}"
    "|error (?:bad_command|bad_value|bad_state|unsupported) [\\x20-\\x7e]+)\\n)*";

static Engine *engine;
static pcre2_code *answer_re;
static pcre2_match_data *md;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    engine = fuzz_engine("fuzz_ubgi");
    answer_re = fuzz_pattern("fuzz_ubgi", answer_pattern, &md);
    return 0;
}

/* The line holds word (memmem is a GNU extension). */
static bool contains(const char *line, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if (!memcmp(line + i, word, n))
            return true;
    return false;
}

/* Sends one line; false once the session has quit. */
static bool one_line(UbgiSession *s, const char *line, size_t len)
{
    if (contains(line, len, "ply") || contains(line, len, "depth"))
        return true;
    Buf out;
    buf_init(&out);
    UbgiResult r = ubgi_handle(s, line, len, &out);
    if (r == UBGI_QUIT) {
        if (out.len != 0)
            abort(); /* quit answers nothing */
        buf_free(&out);
        return false;
    }
    if (out.len && out.data[out.len - 1] != '\n')
        abort();
    if (pcre2_match(answer_re, (PCRE2_SPTR)(out.len ? out.data : ""), out.len, 0, 0, md,
                    NULL) < 0) {
        fprintf(stderr, "malformed answer to '%.*s':\n%s", (int)(len > 200 ? 200 : len), line,
                out.data);
        abort();
    }
    buf_free(&out);
    return true;
}

static const char *const positions[] = {
    "position gnubgid 4HPwATDgc/ABMA",
    "position gnubgid n/MCEQD/TQAASQ",
    "position gnubgid XwJkEQffBwAAAA",
    "position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
    "position gnubgid 4HPwATDgc/ABMA:cIkFAAAAAAAA",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Err err;
    UbgiSession *s = ubgi_session_new(engine, 1, &err);
    if (!s)
        abort();
    size_t skip = 1;
    if (size > 1 && (data[0] & 1)) {
        const char *pos = positions[data[1] % (sizeof positions / sizeof positions[0])];
        char dice[16];
        snprintf(dice, sizeof dice, "dice %d %d", data[1] % 6 + 1, (data[1] >> 3) % 6 + 1);
        one_line(s, pos, strlen(pos));
        one_line(s, dice, strlen(dice));
        skip = 2;
    }
    if (size >= skip) {
        const char *p = (const char *)data + skip, *end = (const char *)data + size;
        for (;;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (!one_line(s, p, len) || !nl)
                break;
            p = nl + 1;
        }
    }
    ubgi_session_free(s);
    return 0;
}
