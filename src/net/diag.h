/* diag.h - the server's diagnostics, written without ever holding up the
 * event loop.
 *
 * A stderr nobody reads (a pipe whose reader is stuck, a terminal on hold)
 * blocks whoever writes to it. The loop serves every connection, so it only
 * hands its lines to a bounded buffer; a thread of its own writes them out.
 * When the buffer is full a line is dropped and counted, and the count is
 * written when there is room again: a flood of diagnostics costs lines, not
 * service. */
#ifndef SHESH_DIAG_H
#define SHESH_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"

/* Lines waiting for the writer, in bytes, unless the caller says less. */
#define DIAG_BUFFER_MAX (64 * 1024)

typedef struct Diag Diag;

/* Writes to out (NULL: every line is dropped), each line after prefix (may
 * be NULL), buffering at most cap bytes (0: DIAG_BUFFER_MAX). NULL (err
 * filled) when the writer cannot start. */
Diag *diag_new(FILE *out, const char *prefix, size_t cap, Err *err);

/* Queues one line (the newline is added). Never blocks on out. d may be
 * NULL: nothing is said. */
void diag_say(Diag *d, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void diag_printf(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Lines dropped so far because the buffer was full. */
unsigned long diag_dropped(Diag *d);

/* Gives the writer at most timeout_s seconds to write what waits, then
 * frees everything; a writer still blocked then is left to the process's
 * exit (with the little it holds). d may be NULL. */
void diag_free(Diag *d, double timeout_s);

#endif
