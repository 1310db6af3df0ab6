/* file_atomic.c - whole files written atomically (see file_atomic.h). */
#include "file_atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool file_write_atomic(const char *path, const void *data, size_t len, Err *err)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 5);
    if (!tmp)
        return err_set(err, "out of memory writing %s", path);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        err_set(err, "cannot write %s: %s", tmp, strerror(errno));
        free(tmp);
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    if (fclose(f) != 0 && ok)
        ok = false, saved = errno;
    if (ok && rename(tmp, path) != 0)
        ok = false, saved = errno;
    if (!ok) {
        remove(tmp);
        err_set(err, "cannot write %s: %s", path, strerror(saved));
    }
    free(tmp);
    return ok;
}
