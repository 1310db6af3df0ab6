/* json.c - JSON string escaping and the JSON writer (see json.h). */
#include "json.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Length of the well-formed UTF-8 sequence at p, or 0. The second byte's
 * range depends on the first (RFC 3629's table): that one check rules out
 * overlong forms (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and code
 * points above U+10FFFF (F4 90..BF); C0, C1 and F5..FF never start one. A
 * NUL ends the string and is no continuation byte, so a sequence cut short
 * at the end is refused without reading past it. */
static int utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    int n;
    unsigned lo = 0x80, hi = 0xbf; /* range of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void json_escape(Buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (n == 0)
            buf_puts(b, "\\ufffd"); /* one per bad byte; the next may start a good one */
        else if (n > 1)
            buf_append(b, p, (size_t)n);
        else if (*p == '"' || *p == '\\')
            buf_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            buf_printf(b, "\\u%04x", *p);
        else
            buf_append(b, p, 1);
        p += n ? n : 1;
    }
}

void json_string(Buf *b, const char *s)
{
    buf_puts(b, "\"");
    json_escape(b, s);
    buf_puts(b, "\"");
}

/* ---- the writer ---- */

void json_begin(Json *j, Buf *out)
{
    j->out = out;
    j->depth = 0;
    j->has_items[0] = false;
    j->after_key = false;
}

/* Before any value or key: the comma that separates it from the one
 * before, unless it is the value of the key just written. */
static void separate(Json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth < JSON_DEPTH_MAX) {
        if (j->has_items[j->depth])
            buf_puts(j->out, ", ");
        j->has_items[j->depth] = true;
    }
}

static void nest_open(Json *j, const char *bracket)
{
    separate(j);
    buf_puts(j->out, bracket);
    j->depth++;
    if (j->depth < JSON_DEPTH_MAX)
        j->has_items[j->depth] = false;
}

static void nest_close(Json *j, const char *bracket)
{
    if (j->depth > 0)
        j->depth--;
    j->after_key = false;
    buf_puts(j->out, bracket);
}

void json_object_begin(Json *j) { nest_open(j, "{"); }
void json_object_end(Json *j) { nest_close(j, "}"); }
void json_array_begin(Json *j) { nest_open(j, "["); }
void json_array_end(Json *j) { nest_close(j, "]"); }

void json_key(Json *j, const char *key)
{
    separate(j);
    json_string(j->out, key);
    buf_puts(j->out, ": ");
    j->after_key = true;
}

void json_str(Json *j, const char *s)
{
    separate(j);
    json_string(j->out, s ? s : "");
}

void json_int(Json *j, long long v)
{
    separate(j);
    buf_printf(j->out, "%lld", v);
}

void json_num(Json *j, double v)
{
    separate(j);
    if (!isfinite(v)) {
        buf_puts(j->out, "null");
        return;
    }
    /* Any decimal of DBL_DIG (15) significant digits survives the trip to
     * a normal double and back, so when v has a shorter text that reads
     * back, %.15g (which drops trailing zeros) prints it: fewer digits need
     * not be tried one by one, as they still are for subnormal numbers,
     * which carry fewer digits. Seventeen always read back. */
    char text[40];
    for (int prec = fabs(v) < DBL_MIN ? 1 : DBL_DIG; prec <= 17; prec++) {
        snprintf(text, sizeof text, "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            break;
    }
    buf_puts(j->out, text);
}

void json_bool(Json *j, bool v)
{
    separate(j);
    buf_puts(j->out, v ? "true" : "false");
}

void json_null(Json *j)
{
    separate(j);
    buf_puts(j->out, "null");
}

void json_error(Buf *b, const char *input, const char *message)
{
    Json j;
    json_begin(&j, b);
    json_object_begin(&j);
    if (input) {
        json_key(&j, "input");
        json_str(&j, input);
    }
    json_key(&j, "error");
    json_str(&j, message);
    json_object_end(&j);
}
