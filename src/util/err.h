/* err.h - error reports that travel up to whoever can show them.
 *
 * Core and engine code never prints: a function that can fail takes an Err *
 * (which may be NULL when the caller does not care why) and fills in one line
 * of plain English saying what was wrong and where. */
#ifndef SHESH_ERR_H
#define SHESH_ERR_H

#include <stdbool.h>
#include <stddef.h>

#define ERR_TEXT_MAX 256

typedef struct Err {
    char text[ERR_TEXT_MAX];
} Err;

/* Formats the message into err (if err is not NULL) and returns false, so
 * that a failing function can say `return err_set(err, "...", ...);`. */
bool err_set(Err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Room err_quote needs for at most `max` bytes of text: "..." and the NUL. */
#define ERR_QUOTE_SIZE(max) ((max) + 4)

/* s as a message may quote it: one line of printable ASCII (any other
 * byte becomes '?'), at most `max` bytes of it, "..." when it was cut.
 * Input from users may hold newlines and control bytes; a message that
 * echoes them verbatim would break the one-line rule. Returns buf, which
 * holds ERR_QUOTE_SIZE(max) bytes. */
const char *err_quote(const char *s, size_t max, char *buf);

#endif
