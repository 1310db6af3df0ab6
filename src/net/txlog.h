/* txlog.h - gzip transcripts of server connections: every request, reply
 * and event with a timestamp, written so that a crash or kill -9 loses at
 * most what was still in flight, and the reader that gives them back.
 *
 * The file is text once decompressed (zcat reads it), one entry a line:
 *
 *     2025-01-02T03:04:05.123456Z req board:You:Opp:...
 *     2025-01-02T03:04:05.125001Z rep 8/5 6/5 \n
 *
 * The timestamp is UTC. The kind is one of the words below. The text is the
 * bytes exactly, escaped so the line stays one line: "\\", "\n", "\r",
 * "\t" and "\xHH" for any other byte outside printable ASCII.
 *
 * Each flush writes one complete gzip member. gzip readers (zcat, zlib)
 * read concatenated members as one stream, so the file is always readable
 * up to the last flush; a member cut by a kill shows up as a cut file, and
 * a member whose write failed is removed whole. */
#ifndef SHESH_TXLOG_H
#define SHESH_TXLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "gzmember.h"

typedef enum TxKind {
    TX_REQ,  /* "req":  a request line as received (without its newline) */
    TX_LONG, /* "long": a request over the line limit; text = its first bytes */
    TX_REP,  /* "rep":  a reply as sent (newlines included) */
    TX_QUIT, /* "quit": the client asked to close (exit/quit): no reply */
    TX_NOTE  /* "note": anything else worth knowing (connect, close, timeout) */
} TxKind;

#define TXLOG_STAMP_LEN 27 /* "2025-01-02T03:04:05.123456Z" */

/* The longest line of a transcript, its newline left out. The longest
 * entry the server makes is a request at the line limit (64 KiB, at most
 * 256 KiB escaped); replies are far shorter. The writer never writes a
 * longer line (such an entry becomes a note saying it was left out) and
 * the reader refuses one as damage, so reading a transcript takes memory
 * for a few lines of this size, however large or however compressed the
 * file is. */
#define TXLOG_LINE_MAX (1u << 20)

/* The word of a kind, and back. */
const char *txlog_kind_name(TxKind k);
bool txlog_kind_parse(const char *word, size_t len, TxKind *out);

/* Appends the escaped form of data to out, and back. */
void txlog_escape(Buf *out, const void *data, size_t len);
bool txlog_unescape(Buf *out, const char *text, size_t len, Err *err);

/* --- writing --- */

/* The compressor (gzmember.h): big (about 130 KB), so one per thread is
 * shared by all the transcripts that thread writes rather than one per
 * connection. */
typedef GzMember TxZip;
TxZip *txlog_zip_new(Err *err);
void txlog_zip_free(TxZip *z);

typedef struct TxLog TxLog;

/* Creates DIR/shesh-YYYYMMDD-HHMMSS-PID-CONN-RANDOM.log.gz (UTC time;
 * RANDOM: 16 hex digits from the kernel's generator), never an existing
 * file: a name nobody can guess and take in advance, so that a transcript
 * the operator asked for cannot be suppressed by a file made before it.
 * NULL (err filled) when it cannot be made. */
TxLog *txlog_open(const char *dir, unsigned long conn, Err *err);
/* Creates the file at exactly this path (fails if it exists). */
TxLog *txlog_create(const char *path, Err *err);
const char *txlog_path(const TxLog *t);

/* Bytes of text added to the transcript so far (before compression: the
 * file is smaller). */
size_t txlog_text_bytes(const TxLog *t);

/* Buffers one entry stamped with the current time (an entry whose line
 * would pass TXLOG_LINE_MAX is replaced by a note that says so). */
void txlog_add(TxLog *t, TxKind kind, const void *data, size_t len);
/* True if entries wait for txlog_flush. */
bool txlog_pending(const TxLog *t);
/* Writes the buffered entries as one gzip member (nothing if none). When
 * the write fails (a full disk, a file size limit) the member is rolled
 * back whole (gzmember_write), false is returned once, and the transcript
 * stops: it keeps every entry of the members before, and later entries
 * are dropped (txlog_add ignores them, txlog_flush returns true). A file
 * left with no member at all is removed. */
bool txlog_flush(TxLog *t, TxZip *z, Err *err);
/* True once a flush has failed and the transcript no longer records. */
bool txlog_stopped(const TxLog *t);
/* Flushes and closes (t is freed even when the flush fails). */
bool txlog_close(TxLog *t, TxZip *z, Err *err);

/* --- reading --- */

typedef struct TxEntry {
    char stamp[TXLOG_STAMP_LEN + 1];
    TxKind kind;
    Buf data; /* the unescaped bytes; buf_init it before the first read */
} TxEntry;

typedef enum TxStatus {
    TXLOG_ENTRY, /* *e holds the next entry */
    TXLOG_END,   /* clean end of the transcript */
    TXLOG_CUT,   /* the file stops inside an entry or a gzip member (a
                    writer killed mid-write, a copy cut short): every
                    entry before was read; err says where */
    TXLOG_BAD    /* not a transcript, or damaged (a line over
                    TXLOG_LINE_MAX among others): err says which line */
} TxStatus;

/* Reads entry by entry: memory is bounded by TXLOG_LINE_MAX, not by the
 * file. */
typedef struct TxReader TxReader;
TxReader *txlog_reader_open(const char *path, Err *err);
TxStatus txlog_read(TxReader *r, TxEntry *e, Err *err);
/* The line number (1-based) of the entry read last. */
long txlog_reader_line(const TxReader *r);
void txlog_reader_close(TxReader *r);

#endif
