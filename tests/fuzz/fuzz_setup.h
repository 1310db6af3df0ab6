/* fuzz_setup.h - what the harnesses that drive a protocol with a real
 * engine make once, in LLVMFuzzerInitialize: the engine (seconds to build
 * under ASan, too slow for the first input's -timeout) and the compiled
 * pattern every answer must match. Any failure aborts: the harness cannot
 * run without them. Included by one harness each. */
#ifndef SHESH_FUZZ_SETUP_H
#define SHESH_FUZZ_SETUP_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

static inline Engine *fuzz_engine(const char *harness)
{
    Err err = {{0}};
    Engine *e = engine_new("default", &err);
    if (!e) {
        fprintf(stderr, "%s: no engine: %s\n", harness, err.text);
        abort();
    }
    return e;
}

/* pattern, anchored at both ends, and match data for it in *md. */
static inline pcre2_code *fuzz_pattern(const char *harness, const char *pattern,
                                       pcre2_match_data **md)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                   PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
    if (!re) {
        fprintf(stderr, "%s: the pattern does not compile (error %d at %zu)\n", harness, code,
                (size_t)off);
        abort();
    }
    if (!(*md = pcre2_match_data_create_from_pattern(re, NULL)))
        abort();
    return re;
}

#endif
