/* gzmember.c - gzip files written as one member per flush and read member
 * by member (see gzmember.h). */
#include "gzmember.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct GzMember {
    z_stream zs;
    unsigned char *out;
    size_t cap;
};

GzMember *gzmember_new(Err *err)
{
    GzMember *z = calloc(1, sizeof *z);
    if (!z) {
        err_set(err, "out of memory for the gzip compressor");
        return NULL;
    }
    /* windowBits 15 + 16: deflate with a gzip header and trailer. memLevel
     * 2: members are small, and deflateReset clears the hash table each
     * time (64 KB at the default level 8, 1 KB here; same output size on
     * transcripts and records). */
    if (deflateInit2(&z->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 2,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        free(z);
        err_set(err, "cannot set up the gzip compressor");
        return NULL;
    }
    return z;
}

void gzmember_free(GzMember *z)
{
    if (!z)
        return;
    deflateEnd(&z->zs);
    free(z->out);
    free(z);
}

static bool write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

bool gzmember_write(GzMember *z, int fd, const void *data, size_t len, const char *what,
                    Err *err)
{
    if (len == 0)
        return true;
    if (len > (uInt)-1)
        return err_set(err, "%s: %zu bytes are too many for one gzip member", what, len);
    size_t bound = deflateBound(&z->zs, (uLong)len) + 64;
    if (bound > z->cap) {
        unsigned char *p = realloc(z->out, bound);
        if (!p)
            return err_set(err, "%s: out of memory", what);
        z->out = p;
        z->cap = bound;
    }
    /* deflateReset keeps the allocated state: a new member costs no malloc. */
    deflateReset(&z->zs);
    z->zs.next_in = (unsigned char *)(uintptr_t)data; /* zlib never writes it */
    z->zs.avail_in = (uInt)len;
    z->zs.next_out = z->out;
    z->zs.avail_out = (uInt)z->cap;
    int rc = deflate(&z->zs, Z_FINISH);
    size_t n = z->cap - z->zs.avail_out;
    if (rc != Z_STREAM_END)
        return err_set(err, "%s: compression failed (%d)", what, rc);
    /* Where the file ends now, after its last whole member: a write that
     * fails part-way (a full disk, a file size limit) is cut back to it,
     * or the members written after it would follow garbage that stops
     * zcat and every other reader there. */
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    /* One write per member: a kill between two writes cannot leave half of
     * an earlier, already reported member behind. */
    if (!write_all(fd, z->out, n)) {
        int why = errno;
        if (regular && ftruncate(fd, st.st_size) != 0)
            return err_set(err, "%s: %s, and the part of a gzip member written could not be "
                                "removed: %s",
                           what, strerror(why), strerror(errno));
        return err_set(err, "%s: %s", what, strerror(why));
    }
    return true;
}

/* --- reading --- */

static bool append_member(void *ctx, const char *data, size_t len, long long end)
{
    (void)end;
    buf_append(ctx, data, len);
    return true;
}

GzStatus gzmember_read_file(const char *path, Buf *out, Err *err)
{
    return gzmember_read_members(path, append_member, out, err);
}

struct GzReader {
    int fd;
    z_stream zs;
    bool eof;            /* read() said the file ends */
    bool inside;         /* bytes of a member not yet ended were read */
    long members;        /* members ended */
    long long offset;    /* file bytes read into in */
    unsigned char in[65536];
    char path[];
};

GzReader *gzreader_open(const char *path, Err *err)
{
    size_t n = strlen(path) + 1;
    GzReader *r = calloc(1, sizeof *r + n);
    if (!r) {
        err_set(err, "out of memory reading '%s'", path);
        return NULL;
    }
    memcpy(r->path, path, n);
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) {
        err_set(err, "'%s': %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    if (inflateInit2(&r->zs, 15 + 16) != Z_OK) { /* 15 + 16: gzip, not zlib */
        close(r->fd);
        free(r);
        err_set(err, "'%s': cannot set up the gzip decompressor", path);
        return NULL;
    }
    return r;
}

void gzreader_close(GzReader *r)
{
    if (!r)
        return;
    inflateEnd(&r->zs);
    close(r->fd);
    free(r);
}

/* The end of the file: how it ended. */
static bool reader_finish(GzReader *r, GzStatus *st, Err *err)
{
    if (r->inside) {
        err_set(err, "'%s' is cut short inside gzip member %ld (its writer was probably killed)",
                r->path, r->members + 1);
        *st = GZ_CUT;
    } else {
        *st = GZ_END;
    }
    return false;
}

bool gzreader_read(GzReader *r, void *out, size_t cap, size_t *got, long long *member_end,
                   GzStatus *st, Err *err)
{
    *got = 0;
    if (member_end)
        *member_end = -1;
    if (cap > (uInt)-1)
        cap = (uInt)-1;
    for (;;) {
        if (r->zs.avail_in == 0) {
            if (r->eof)
                return reader_finish(r, st, err);
            ssize_t n = read(r->fd, r->in, sizeof r->in);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                err_set(err, "'%s': %s", r->path, strerror(errno));
                *st = GZ_BAD;
                return false;
            }
            if (n == 0) {
                r->eof = true;
                continue;
            }
            r->zs.next_in = r->in;
            r->zs.avail_in = (uInt)n;
            r->offset += n;
        }
        r->inside = true;
        r->zs.next_out = out;
        r->zs.avail_out = (uInt)cap;
        int rc = inflate(&r->zs, Z_NO_FLUSH);
        *got = cap - r->zs.avail_out;
        if (rc == Z_STREAM_END) {
            /* The next bytes, if any, must start another member. */
            r->members++;
            r->inside = false;
            inflateReset(&r->zs);
            if (member_end)
                *member_end = r->offset - (long long)r->zs.avail_in;
            return true;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            err_set(err, "'%s': %s in gzip member %ld", r->path,
                    r->members == 0 && rc == Z_DATA_ERROR ? "not gzip data" :
                    r->zs.msg ? r->zs.msg : "damaged data", r->members + 1);
            *got = 0;
            *st = GZ_BAD;
            return false;
        }
        if (*got > 0)
            return true;
    }
}

GzStatus gzmember_read_members(const char *path, GzMemberFn fn, void *ctx, Err *err)
{
    GzReader *r = gzreader_open(path, err);
    if (!r)
        return GZ_BAD;
    Buf member; /* the current member's bytes, kept until it ends whole */
    buf_init(&member);
    char chunk[65536];
    size_t got;
    long long end;
    GzStatus st = GZ_END;
    while (gzreader_read(r, chunk, sizeof chunk, &got, &end, &st, err)) {
        buf_append(&member, chunk, got);
        if (end >= 0) {
            bool more = fn(ctx, member.data ? member.data : "", member.len, end);
            buf_clear(&member);
            if (!more)
                break;
        }
    }
    if (st == GZ_END && r->offset == 0) {
        err_set(err, "'%s' is empty", path);
        st = GZ_BAD;
    }
    buf_free(&member);
    gzreader_close(r);
    return st;
}
