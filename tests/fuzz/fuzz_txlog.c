/* fuzz_txlog.c - libFuzzer harness for the transcript reader and writer
 * (txlog.h). Byte 0 picks how the rest is used:
 *
 *   0: the file itself, as it stands (zlib reads a file without a gzip
 *      header as plain text, so the entry parser sees the bytes directly);
 *   1: the text, written as gzip members cut where the input says, the file
 *      then possibly cut short (a writer killed mid-flush);
 *   2: entries for the writer (kind, length, bytes), flushed where the input
 *      says: the reader must give back exactly those entries, then TXLOG_END.
 *
 * Whatever the file, reading must end (TXLOG_END, TXLOG_CUT or TXLOG_BAD,
 * the last two with a one-line message), and every entry read must have a
 * well-formed timestamp and kind and bytes that escape and unescape to
 * themselves. The reader only opens paths, so each input goes through one
 * file in a private temporary directory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz_file.h"
#include "txlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *path;
static TxZip *zip;

static void init(void)
{
    path = fuzz_file("t.log.gz");
    zip = txlog_zip_new(NULL);
    if (!zip)
        abort();
}

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0])
        abort(); /* a failure always says why */
    for (const char *p = err->text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            abort(); /* on one line of plain text */
}

static bool is_stamp(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ";
    for (size_t i = 0; i <= TXLOG_STAMP_LEN; i++)
        if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
            return false;
    return true;
}

/* The entry's own checks: stamp, kind, and bytes that survive escaping. */
static void check_entry(const TxEntry *e)
{
    if (!is_stamp(e->stamp))
        abort();
    const char *name = txlog_kind_name(e->kind);
    TxKind back;
    if (!txlog_kind_parse(name, strlen(name), &back) || back != e->kind)
        abort();
    Buf esc, raw;
    buf_init(&esc);
    buf_init(&raw);
    txlog_escape(&esc, e->data.data, e->data.len);
    for (size_t i = 0; i < esc.len; i++)
        if ((unsigned char)esc.data[i] < 0x20 || (unsigned char)esc.data[i] >= 0x7f)
            abort(); /* escaped text is printable: one line in the file */
    if (!txlog_unescape(&raw, esc.data ? esc.data : "", esc.len, NULL) ||
        raw.len != e->data.len || (raw.len && memcmp(raw.data, e->data.data, raw.len)))
        abort();
    buf_free(&esc);
    buf_free(&raw);
}

static void write_file(const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        abort();
}

/* The text as gzip members: byte 0 of the text says how many (1 to 4),
 * bytes 1 to 3 where each ends (as a fraction of what is left); the file
 * then loses as many bytes at its end as the last byte says, when odd. */
static void write_gzip(const uint8_t *text, size_t n)
{
    size_t members = n ? 1 + text[0] % 4 : 1;
    size_t cut = n > 1 && (text[n - 1] & 1) ? text[n - 1] / 2 : 0;
    Buf file;
    buf_init(&file);
    size_t at = 0;
    for (size_t m = 0; m < members; m++) {
        size_t end = m + 1 == members ? n : at + (n - at) * text[(m + 1) % n] / 256;
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            abort();
        unsigned char out[16384];
        zs.next_in = (unsigned char *)(uintptr_t)(text + at);
        zs.avail_in = (uInt)(end - at);
        int rc;
        do {
            zs.next_out = out;
            zs.avail_out = sizeof out;
            rc = deflate(&zs, Z_FINISH);
            buf_append(&file, out, sizeof out - zs.avail_out);
        } while (rc == Z_OK);
        if (rc != Z_STREAM_END)
            abort();
        deflateEnd(&zs);
        at = end;
    }
    write_file(file.data, file.len > cut ? file.len - cut : 0);
    buf_free(&file);
}

/* Reads the file to its end; returns the number of entries. When want is
 * not NULL, the entries must be exactly those and the end clean. */
static size_t read_all(const TxEntry *want, size_t nwant)
{
    Err err;
    TxReader *r = txlog_reader_open(path, &err);
    if (!r)
        abort(); /* the file exists: opening cannot fail */
    TxEntry e;
    buf_init(&e.data);
    size_t n = 0;
    long last_line = 0;
    TxStatus st;
    while ((st = txlog_read(r, &e, &err)) == TXLOG_ENTRY) {
        check_entry(&e);
        if (txlog_reader_line(r) <= last_line)
            abort(); /* line numbers go forward */
        last_line = txlog_reader_line(r);
        if (want && (n >= nwant || e.kind != want[n].kind || e.data.len != want[n].data.len ||
                     (e.data.len && memcmp(e.data.data, want[n].data.data, e.data.len))))
            abort();
        n++;
    }
    if (st != TXLOG_END && st != TXLOG_CUT && st != TXLOG_BAD)
        abort();
    if (st != TXLOG_END)
        check_err(&err);
    if (want && (st != TXLOG_END || n != nwant))
        abort();
    buf_free(&e.data);
    txlog_reader_close(r);
    return n;
}

/* Mode 2: (kind, length, bytes) triples; a kind byte with bit 3 set
 * flushes before its entry. */
static void writer_round_trip(const uint8_t *p, size_t n)
{
    enum { MAX_ENTRIES = 64 };
    TxEntry want[MAX_ENTRIES];
    size_t nwant = 0;
    unlink(path);
    Err err;
    TxLog *t = txlog_create(path, &err);
    if (!t)
        abort();
    if (strcmp(txlog_path(t), path))
        abort();
    size_t i = 0;
    while (i + 1 < n && nwant < MAX_ENTRIES) {
        TxKind kind = (TxKind)(p[i] % 5);
        bool flush = p[i] & 8;
        size_t len = p[i + 1];
        i += 2;
        if (len > n - i)
            len = n - i;
        if (flush && !txlog_flush(t, zip, &err))
            abort();
        if (txlog_pending(t) == flush && nwant > 0)
            abort(); /* a flush leaves nothing pending; an add leaves something */
        txlog_add(t, kind, p + i, len);
        if (!txlog_pending(t))
            abort();
        want[nwant].kind = kind;
        buf_init(&want[nwant].data);
        buf_append(&want[nwant].data, p + i, len);
        nwant++;
        i += len;
    }
    if (!txlog_close(t, zip, &err))
        abort();
    read_all(want, nwant);
    for (size_t k = 0; k < nwant; k++)
        buf_free(&want[k].data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!zip)
        init();
    if (size == 0)
        return 0;
    const uint8_t *rest = data + 1;
    size_t n = size - 1;
    switch (data[0] % 3) {
    case 0:
        write_file(rest, n);
        read_all(NULL, 0);
        break;
    case 1:
        write_gzip(rest, n);
        read_all(NULL, 0);
        break;
    default:
        writer_round_trip(rest, n);
        break;
    }
    return 0;
}
