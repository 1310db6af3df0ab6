/* file_atomic.h - a whole file written so that a crash, a kill or a full
 * disk leaves either the old file or the new one, never half of one: the
 * bytes go into PATH.tmp, are flushed to disk, and PATH.tmp is renamed over
 * PATH. For the small files written whole (network files, training
 * checkpoints). */
#ifndef SHESH_FILE_ATOMIC_H
#define SHESH_FILE_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"

/* Writes the len bytes at data as the file at path; false (err says why,
 * PATH.tmp removed) when it cannot. */
bool file_write_atomic(const char *path, const void *data, size_t len, Err *err);

#endif
