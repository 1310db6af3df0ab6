/* err.c - formatting of error reports (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool err_set(Err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return false;
}

const char *err_quote(const char *s, size_t max, char *buf)
{
    size_t i = 0;
    for (; s[i] && i < max; i++)
        buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    memcpy(buf + i, s[i] ? "..." : "", s[i] ? 4 : 1);
    return buf;
}
