/* gzmember.h - files made of self-contained gzip members, written so that a
 * kill -9 loses at most the member being written, and read back member by
 * member so that a cut file gives exactly the members it holds in full.
 *
 * gzip readers (zcat, zlib's gzread) read concatenated members as one
 * stream. Each gzmember_write() deflates its bytes into one complete member
 * (header, data, CRC and length) and hands it to the kernel with a single
 * write(), so the file is a valid gzip file after every call. The header
 * carries no time stamp or name: the same bytes give the same member. */
#ifndef SHESH_GZMEMBER_H
#define SHESH_GZMEMBER_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"

/* The compressor: big (about 130 KB), so one serves many members and, for
 * server transcripts, many files. */
typedef struct GzMember GzMember;
GzMember *gzmember_new(Err *err);
void gzmember_free(GzMember *z);

/* Deflates data into one gzip member and writes it to fd with one write()
 * (repeated only if the kernel takes part of it). An empty buffer writes
 * nothing. A member is written whole or not at all: when a write fails
 * part-way (ENOSPC, EFBIG, EIO), a regular file is truncated back to the
 * size it had before, the end of its last whole member. `what` names the
 * file in messages. */
bool gzmember_write(GzMember *z, int fd, const void *data, size_t len, const char *what,
                    Err *err);

typedef enum GzStatus {
    GZ_END, /* every member was complete */
    GZ_CUT, /* the file stops inside a member (its writer was killed, or a
               copy was cut short): out holds the members before it */
    GZ_BAD  /* not gzip, or damaged (bad CRC, garbage between members) */
} GzStatus;

/* Appends the decompressed bytes of every complete member of the file to
 * out, member after member; the bytes of a member cut short are left out.
 * err says where a cut or damaged file stops. */
GzStatus gzmember_read_file(const char *path, Buf *out, Err *err);

/* A reader that streams the decompressed bytes in pieces, for files whose
 * members may be larger than the memory a reader should take (server
 * transcripts). Unlike zlib's gzread, which ignores bytes after the last
 * member that do not start a new one, every byte of the file must belong to
 * a member: one byte of a member written in part is a cut, other bytes are
 * damage. */
typedef struct GzReader GzReader;
GzReader *gzreader_open(const char *path, Err *err);
/* Decompresses up to cap (> 0) bytes into out and sets *got. While it
 * returns true there may be more; *member_end, when not NULL, is the file
 * offset where a member ended if the bytes given end one, else -1. It
 * returns false (with *got 0) at the end of the file, and *st says how the
 * file ended: GZ_END (an empty file too), or GZ_CUT or GZ_BAD with err
 * saying where. A cut
 * member's bytes have been given like any others: the caller keeps whole
 * members only if it wants them. */
bool gzreader_read(GzReader *r, void *out, size_t cap, size_t *got, long long *member_end,
                   GzStatus *st, Err *err);
void gzreader_close(GzReader *r);

/* The same member by member: fn gets each complete member's bytes and the
 * offset in the file where the member ends (where a writer would go on
 * after it); it returns false to stop reading (GZ_END is then returned). */
typedef bool (*GzMemberFn)(void *ctx, const char *data, size_t len, long long end);
GzStatus gzmember_read_members(const char *path, GzMemberFn fn, void *ctx, Err *err);

#endif
