/* fuzz_file.h - one file in a private temporary directory, for harnesses
 * whose code under test only opens paths: each input is written there and
 * read back; the file and its directory go when the harness exits.
 * Included by one harness each. */
#ifndef SHESH_FUZZ_FILE_H
#define SHESH_FUZZ_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_dir[] = "/tmp/fuzz-XXXXXX";
static char fuzz_path[64];

static void fuzz_file_remove(void)
{
    unlink(fuzz_path);
    rmdir(fuzz_dir);
}

/* The file's path, named `name` inside the directory made on the first
 * call. Any failure aborts: the harness cannot run without it. */
static inline const char *fuzz_file(const char *name)
{
    if (!fuzz_path[0]) {
        if (!mkdtemp(fuzz_dir))
            abort();
        snprintf(fuzz_path, sizeof fuzz_path, "%s/%s", fuzz_dir, name);
        atexit(fuzz_file_remove);
    }
    return fuzz_path;
}

#endif
