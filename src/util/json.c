/* json.c - JSON string escaping (see json.h). */
#include "json.h"

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
