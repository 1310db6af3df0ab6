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

GzStatus gzmember_read_members(const char *path, GzMemberFn fn, void *ctx, Err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        err_set(err, "'%s': %s", path, strerror(errno));
        return GZ_BAD;
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        close(fd);
        err_set(err, "'%s': cannot set up the gzip decompressor", path);
        return GZ_BAD;
    }
    Buf member; /* the current member's bytes, kept until it ends whole */
    buf_init(&member);
    unsigned char in[65536], chunk[65536];
    GzStatus st = GZ_END;
    long members = 0;
    bool inside = false; /* some bytes of a member were read */
    bool any = false;
    long long offset = 0; /* file bytes read before `in` */
    for (;;) {
        ssize_t got = read(fd, in, sizeof in);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            err_set(err, "'%s': %s", path, strerror(errno));
            st = GZ_BAD;
            break;
        }
        if (got == 0) {
            if (!any) {
                err_set(err, "'%s' is empty", path);
                st = GZ_BAD;
            } else if (inside) {
                err_set(err, "'%s' is cut short inside gzip member %ld (its writer was "
                             "probably killed)",
                        path, members + 1);
                st = GZ_CUT;
            }
            break;
        }
        any = true;
        zs.next_in = in;
        zs.avail_in = (uInt)got;
        offset += got;
        while (zs.avail_in > 0) {
            inside = true;
            zs.next_out = chunk;
            zs.avail_out = sizeof chunk;
            int rc = inflate(&zs, Z_NO_FLUSH);
            buf_append(&member, chunk, sizeof chunk - zs.avail_out);
            if (rc == Z_STREAM_END) {
                bool more = fn(ctx, member.data ? member.data : "", member.len,
                               offset - (long long)zs.avail_in);
                buf_clear(&member);
                if (!more)
                    goto done;
                members++;
                inside = false;
                inflateReset(&zs);
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                err_set(err, "'%s': %s in gzip member %ld", path,
                        members == 0 && rc == Z_DATA_ERROR ? "not gzip data" :
                        zs.msg ? zs.msg : "damaged data", members + 1);
                st = GZ_BAD;
                goto done;
            }
        }
    }
done:
    inflateEnd(&zs);
    buf_free(&member);
    close(fd);
    return st;
}
