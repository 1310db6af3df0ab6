/* file_read.c - a small file read whole (see file_read.h). */
#include "file_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FileReadStatus file_read_small(const char *path, size_t limit, unsigned char **data,
                               size_t *size, Err *err)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, "cannot open %s: %s", path, strerror(errno));
        return FILE_READ_FAILED;
    }
    /* One byte past the limit tells a file of exactly limit bytes from a
     * longer one without asking the file's size, which a pipe has not. */
    unsigned char *bytes = malloc(limit + 1);
    if (!bytes) {
        fclose(f);
        err_set(err, "out of memory reading %s", path);
        return FILE_READ_FAILED;
    }
    size_t n = fread(bytes, 1, limit + 1, f);
    bool failed = ferror(f);
    int saved = errno;
    fclose(f);
    if (failed || n > limit) {
        free(bytes);
        if (!failed)
            return FILE_READ_TOO_BIG;
        err_set(err, "cannot read %s: %s", path, strerror(saved));
        return FILE_READ_FAILED;
    }
    /* Give back what the limit reserved; keep the block if the system
     * will not (it is still the right bytes). */
    unsigned char *fit = realloc(bytes, n ? n : 1);
    *data = fit ? fit : bytes;
    *size = n;
    return FILE_READ_OK;
}
