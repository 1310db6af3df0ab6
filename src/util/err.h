/* err.h - error reports that travel up to whoever can show them.
 *
 * Core and engine code never prints: a function that can fail takes an Err *
 * (which may be NULL when the caller does not care why) and fills in one line
 * of plain English saying what was wrong and where. */
#ifndef SHESH_ERR_H
#define SHESH_ERR_H

#include <stdbool.h>

#define ERR_TEXT_MAX 256

typedef struct Err {
    char text[ERR_TEXT_MAX];
} Err;

/* Formats the message into err (if err is not NULL) and returns false, so
 * that a failing function can say `return err_set(err, "...", ...);`. */
bool err_set(Err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
