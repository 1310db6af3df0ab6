/* file_read.h - a small file read whole into memory, refused past a limit
 * the caller sets, so that a wrong path (a disk image, /dev/zero) costs
 * one bounded read and a message rather than all the memory. For the
 * files parsed from bytes (network files, training checkpoints). */
#ifndef SHESH_FILE_READ_H
#define SHESH_FILE_READ_H

#include <stddef.h>

#include "err.h"

typedef enum {
    FILE_READ_OK,
    FILE_READ_FAILED,  /* err says why: cannot open, cannot read, out of memory */
    FILE_READ_TOO_BIG, /* over the limit; err untouched, the caller says what the file is not */
} FileReadStatus;

/* Reads the file at path when it holds at most limit bytes: *data (the
 * caller frees it; never NULL when OK, even for an empty file) and *size. */
FileReadStatus file_read_small(const char *path, size_t limit, unsigned char **data,
                               size_t *size, Err *err);

#endif
