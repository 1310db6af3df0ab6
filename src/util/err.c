/* err.c - formatting of error reports (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

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
