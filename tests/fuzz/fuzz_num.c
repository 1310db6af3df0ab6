/* fuzz_num.c - libFuzzer harness for util/num, the reader of every number a
 * user types.
 *
 * The input is the text (cut at its first NUL). Each reader either refuses
 * it with one line that names the option and leaves the output untouched,
 * or accepts text that is digits with at most one '.' between digits, and
 * gives a value in range that reads back the same when printed again. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_refusal(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || strchr(err->text, '\n') ||
        strncmp(err->text, "--x: ", 5))
        abort();
}

/* The shape the readers promise to accept, and nothing else. */
static bool well_formed(const char *s, bool decimal)
{
    size_t n = strlen(s), digits = strspn(s, "0123456789");
    if (digits == 0)
        return false;
    if (digits == n)
        return true;
    if (!decimal || s[digits] != '.')
        return false;
    size_t frac = strspn(s + digits + 1, "0123456789");
    return frac > 0 && digits + 1 + frac == n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char s[256];
    if (size >= sizeof s)
        size = sizeof s - 1;
    memcpy(s, data, size);
    s[size] = '\0';
    Err err;

    long l = -7;
    if (num_long("--x", s, 3, 1000000, &l, &err)) {
        char again[32];
        snprintf(again, sizeof again, "%ld", l);
        long m;
        if (!well_formed(s, false) || l < 3 || l > 1000000 ||
            !num_long("--x", again, 3, 1000000, &m, NULL) || m != l)
            abort();
    } else {
        check_refusal(&err);
        if (l != -7)
            abort();
    }

    uint64_t u = 7;
    if (num_u64("--x", s, &u, &err)) {
        char again[32];
        snprintf(again, sizeof again, "%" PRIu64, u);
        uint64_t v;
        if (!well_formed(s, false) || !num_u64("--x", again, &v, NULL) || v != u)
            abort();
    } else {
        check_refusal(&err);
        if (u != 7)
            abort();
    }

    double d = -1.0;
    if (num_double("--x", s, 0.01, 3600, true, &d, &err)) {
        if (!well_formed(s, true) || !(d > 0.01 && d <= 3600))
            abort();
    } else {
        check_refusal(&err);
        if (d != -1.0)
            abort();
    }
    return 0;
}
