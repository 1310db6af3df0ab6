/* gzlines.c - the lines of a gzipped or plain text file (see gzlines.h). */
#include "gzlines.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "buf.h"

static bool too_long(const char *path, long lineno, size_t max, Err *err)
{
    return err_set(err, "%s line %ld: longer than %zu characters", path, lineno, max);
}

/* The line of len bytes at line (its newline, if any, just after it) to
 * fn; on a refusal err gets the "PATH line N: " prefix. */
static bool one_line(char *line, size_t len, size_t max, const char *path, long lineno,
                     GzLineFn fn, void *ctx, Err *err)
{
    if (len && line[len - 1] == '\r')
        len--;
    if (len > max)
        return too_long(path, lineno, max, err);
    if (memchr(line, '\0', len))
        return err_set(err, "%s line %ld: holds a NUL byte", path, lineno);
    line[len] = '\0';
    Err why = {{0}};
    if (!fn(ctx, line, len, &why))
        return err_set(err, "%s line %ld: %s", path, lineno, why.text);
    return true;
}

bool gzlines_each(const char *path, size_t max, GzLineFn fn, void *ctx, Err *err)
{
    errno = 0;
    gzFile f = gzopen(path, "rb");
    if (!f)
        return err_set(err, "cannot open %s: %s", path, errno ? strerror(errno) : "out of memory");
    Buf b; /* the bytes read and not yet given as lines */
    buf_init(&b);
    char chunk[1 << 16];
    long lineno = 0;
    bool ok = true;
    int got;
    while (ok && (got = gzread(f, chunk, sizeof chunk)) > 0) {
        size_t start = b.len; /* where this chunk's bytes start: no newline before */
        buf_append(&b, chunk, (size_t)got);
        size_t line = 0;
        char *nl;
        while (ok && (nl = memchr(b.data + start, '\n', b.len - start))) {
            size_t end = (size_t)(nl - b.data);
            ok = one_line(b.data + line, end - line, max, path, ++lineno, fn, ctx, err);
            line = start = end + 1;
        }
        buf_consume(&b, line);
        /* A line already past the limit (and a '\r' that may end it) is
         * refused before its end is read: a file of one endless line must
         * not take all memory. */
        if (ok && b.len > max + 1)
            ok = too_long(path, lineno + 1, max, err);
    }
    if (ok) {
        int code;
        const char *msg = gzerror(f, &code);
        if (code == Z_ERRNO) {
            ok = err_set(err, "cannot read %s: %s", path, strerror(errno));
        } else if (code != Z_OK && code != Z_STREAM_END) {
            /* zlib's message starts with the path already */
            size_t n = strlen(path);
            if (!strncmp(msg, path, n) && !strncmp(msg + n, ": ", 2))
                msg += n + 2;
            ok = err_set(err, "cannot read %s: %s", path, msg);
        } else if (b.len > 0) {
            ok = one_line(b.data, b.len, max, path, ++lineno, fn, ctx, err);
        }
    }
    buf_free(&b);
    gzclose(f);
    return ok;
}
