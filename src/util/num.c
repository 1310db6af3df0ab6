/* num.c - strict reading of numbers (see num.h). */
#include "num.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Length of the text quoted in messages: enough to recognise it, short
 * enough that a message stays one line. */
#define QUOTE_MAX 40

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Digits, optionally one '.' with digits on both sides. */
static bool is_decimal(const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot)
        return all_digits(s);
    size_t head = (size_t)(dot - s);
    if (head == 0 || strspn(s, "0123456789") != head)
        return false;
    return all_digits(dot + 1);
}

static bool whole_error(const char *name, const char *s, long lo, long hi, Err *err)
{
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    return err_set(err, "%s: '%s' is not a whole number from %ld to %ld", name,
                   err_quote(s ? s : "", QUOTE_MAX, q), lo, hi);
}

bool num_long(const char *name, const char *s, long lo, long hi, long *out, Err *err)
{
    if (!s || !all_digits(s))
        return whole_error(name, s, lo, hi, err);
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return whole_error(name, s, lo, hi, err);
    *out = v;
    return true;
}

bool num_int(const char *name, const char *s, int lo, int hi, int *out, Err *err)
{
    long v;
    if (!num_long(name, s, lo, hi, &v, err))
        return false;
    *out = (int)v;
    return true;
}

bool num_u64(const char *name, const char *s, uint64_t *out, Err *err)
{
    errno = 0;
    char *end = NULL;
    unsigned long long v = s && all_digits(s) ? strtoull(s, &end, 10) : 0;
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    if (!s || !all_digits(s) || errno || *end)
        return err_set(err, "%s: '%s' is not a whole number from 0 to %llu", name,
                       err_quote(s ? s : "", QUOTE_MAX, q), (unsigned long long)UINT64_MAX);
    *out = (uint64_t)v;
    return true;
}

static bool decimal_error(const char *name, const char *s, double lo, double hi, bool above_lo,
                          Err *err)
{
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    return err_set(err, "%s: '%s' is not a number %s %.15g %s %.15g", name,
                   err_quote(s ? s : "", QUOTE_MAX, q), above_lo ? "above" : "from", lo, above_lo ? "and at most" : "to", hi);
}

bool num_double(const char *name, const char *s, double lo, double hi, bool above_lo,
                double *out, Err *err)
{
    if (!s || !is_decimal(s))
        return decimal_error(name, s, lo, hi, above_lo, err);
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    /* Only an overflow is an error: a tiny value that underflows is still
     * compared with the range, which refuses it. */
    if (*end || (errno == ERANGE && v != 0.0) || v > hi || v < lo || (above_lo && v == lo))
        return decimal_error(name, s, lo, hi, above_lo, err);
    *out = v;
    return true;
}

bool num_float(const char *name, const char *s, float lo, float hi, bool above_lo, float *out,
               Err *err)
{
    if (!s || !is_decimal(s))
        return decimal_error(name, s, lo, hi, above_lo, err);
    errno = 0;
    char *end;
    float v = strtof(s, &end);
    if (*end || (errno == ERANGE && v != 0.0f) || v > hi || v < lo || (above_lo && v == lo))
        return decimal_error(name, s, lo, hi, above_lo, err);
    *out = v;
    return true;
}
