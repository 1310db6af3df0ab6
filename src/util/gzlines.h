/* gzlines.h - the lines of a text file, gzip-compressed or plain, one by one.
 *
 * The labels of shesh label, the positions --from reads and shesh bench's
 * positions are text files that may be gzipped; zlib's gzread reads both
 * (a plain file passes through). The lines are split here, not by gzgets
 * into a fixed buffer, so that a line longer than the limit is refused
 * whole instead of being read in pieces that look like lines, and a NUL
 * byte is refused instead of cutting its line short. */
#ifndef SHESH_GZLINES_H
#define SHESH_GZLINES_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Called with each line: NUL-terminated, its newline (and a '\r' before
 * it) taken off, len its length. Returns false with err set to refuse the
 * line; the reading stops there. */
typedef bool (*GzLineFn)(void *ctx, char *line, size_t len, Err *err);

/* Calls fn with every line of path in order (the last need not end with a
 * newline). Returns true when every line was read and taken. A line longer
 * than max bytes (its newline and a '\r' before it not counted) or holding
 * a NUL byte, or refused by fn, stops the reading
 * with err "PATH line N: ..." (fn's message after the prefix); a file that
 * cannot be opened or read gives "cannot open PATH: ..." or "cannot read
 * PATH: ...". */
bool gzlines_each(const char *path, size_t max, GzLineFn fn, void *ctx, Err *err);

#endif
