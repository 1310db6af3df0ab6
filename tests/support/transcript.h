/* transcript.h - replays a conformance transcript (proto/README.md,
 * "Conformance transcripts") through a protocol's line handler: the
 * requests in, every reply line checked exactly or by a PCRE2 pattern.
 * Shared by the tests of gnubg's protocol and of UBGI, which keep their
 * transcripts in the same format. */
#ifndef SHESH_TEST_TRANSCRIPT_H
#define SHESH_TEST_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"

/* Answers one request (len bytes, without its newline) into reply, each
 * line ending in '\n'; returns false when the request closes the
 * connection. */
typedef bool (*TranscriptAsk)(void *ctx, const char *line, size_t len, Buf *reply);

/* Makes a fresh connection for each file: ctx for the asks that follow. */
typedef void *(*TranscriptOpen)(void *arg);
typedef void (*TranscriptClose)(void *ctx);

typedef struct TranscriptProtocol {
    TranscriptOpen open;
    TranscriptAsk ask;
    TranscriptClose close;
    void *arg;
} TranscriptProtocol;

/* Replays file as one connection. Returns the number of requests, or -1
 * with err saying which line of the file was not answered as written. */
int transcript_replay(const char *file, const TranscriptProtocol *p, Err *err);

/* Every *.txt of dir, in name order (at most 64 files): the requests in
 * all of them and, in *files, how many there were; -1 at the first
 * failure. Each file's count is printed as it passes. */
int transcript_replay_dir(const char *dir, const TranscriptProtocol *p, int *files, Err *err);

#endif
