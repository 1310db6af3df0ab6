/* lib_status.c - a failure as the library reports it (lib_status.h). */
#include "lib_status.h"

#include <stdarg.h>
#include <stdio.h>

shesh_status lib_fail(shesh_error *err, shesh_status code, const Err *why)
{
    if (err) {
        err->code = code;
        snprintf(err->text, sizeof err->text, "%s",
                 why && why->text[0] ? why->text : "shesh: the call failed");
    }
    return code;
}

shesh_status lib_failf(shesh_error *err, shesh_status code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return code;
}
