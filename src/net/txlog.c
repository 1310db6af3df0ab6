/* txlog.c - gzip transcripts (see txlog.h): entries are buffered as text
 * and each flush deflates them into one self-contained gzip member written
 * with a single write() (gzmember.h), so the file is valid after every flush. */
#include "txlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static const char *const kind_names[] = {"req", "long", "rep", "quit", "note"};

const char *txlog_kind_name(TxKind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

bool txlog_kind_parse(const char *word, size_t len, TxKind *out)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (strlen(kind_names[i]) == len && !memcmp(kind_names[i], word, len)) {
            *out = (TxKind)i;
            return true;
        }
    return false;
}

void txlog_escape(Buf *out, const void *data, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = data;
    size_t run = 0; /* plain bytes are copied in runs, not one by one */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            run++;
            continue;
        }
        buf_append(out, p + i - run, run);
        run = 0;
        char esc[4] = {'\\', 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'x';
            esc[2] = hex[c >> 4];
            esc[3] = hex[c & 15];
            n = 4;
        }
        buf_append(out, esc, n);
    }
    /* Only with a run: an empty entry read back from a file has no buffer,
     * and NULL + 0 is undefined (clang's UBSan stops on it). */
    if (run)
        buf_append(out, p + len - run, run);
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool txlog_unescape(Buf *out, const char *text, size_t len, Err *err)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\\') {
            /* Plain bytes up to the next escape in one copy: reading a
             * transcript is mostly this. */
            const char *esc = memchr(text + i, '\\', len - i);
            size_t run = esc ? (size_t)(esc - text) - i : len - i;
            buf_append(out, text + i, run);
            i += run - 1;
            continue;
        }
        if (i + 1 >= len)
            return err_set(err, "a lone '\\' ends the text");
        char e = text[++i], v;
        switch (e) {
        case '\\': v = '\\'; break;
        case 'n': v = '\n'; break;
        case 'r': v = '\r'; break;
        case 't': v = '\t'; break;
        case 'x': {
            int hi = i + 1 < len ? hex_value(text[i + 1]) : -1;
            int lo = i + 2 < len ? hex_value(text[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return err_set(err, "'\\x' is not followed by two hex digits");
            v = (char)(hi * 16 + lo);
            i += 2;
            break;
        }
        default:
            /* The message is printed: a control byte would not stay plain text. */
            if (e >= 0x20 && e < 0x7f)
                return err_set(err, "unknown escape '\\%c'", e);
            return err_set(err, "unknown escape: '\\' followed by byte 0x%02x",
                           (unsigned char)e);
        }
        buf_append(out, &v, 1);
    }
    return true;
}

/* --- writing --- */

TxZip *txlog_zip_new(Err *err)
{
    return gzmember_new(err);
}

void txlog_zip_free(TxZip *z)
{
    gzmember_free(z);
}

struct TxLog {
    int fd;
    bool wrote;   /* a member is in the file */
    bool stopped; /* a write failed: nothing more is recorded */
    size_t text_bytes; /* every entry's text so far */
    Buf pending; /* entries since the last flush, as text */
    char path[];
};

TxLog *txlog_create(const char *path, Err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0640);
    if (fd < 0) {
        err_set(err, "transcript '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t n = strlen(path) + 1;
    TxLog *t = malloc(sizeof *t + n);
    if (!t) {
        close(fd);
        unlink(path);
        err_set(err, "out of memory for transcript '%s'", path);
        return NULL;
    }
    t->fd = fd;
    t->wrote = false;
    t->stopped = false;
    t->text_bytes = 0;
    buf_init(&t->pending);
    memcpy(t->path, path, n);
    return t;
}

TxLog *txlog_open(const char *dir, unsigned long conn, Err *err)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char stamp[32], path[4096];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    uint64_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        err_set(err, "no random bytes for the transcript's name: %s", strerror(errno));
        return NULL;
    }
    int n = snprintf(path, sizeof path, "%s/shesh-%s-%ld-%lu-%016llx.log.gz", dir, stamp,
                     (long)getpid(), conn, (unsigned long long)r);
    if (n < 0 || (size_t)n >= sizeof path) {
        err_set(err, "log directory path '%.60s...' is too long", dir);
        return NULL;
    }
    return txlog_create(path, err);
}

const char *txlog_path(const TxLog *t)
{
    return t->path;
}

size_t txlog_text_bytes(const TxLog *t)
{
    return t->text_bytes;
}

bool txlog_stopped(const TxLog *t)
{
    return t->stopped;
}

void txlog_add(TxLog *t, TxKind kind, const void *data, size_t len)
{
    if (t->stopped)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    size_t before = t->pending.len;
    buf_printf(&t->pending, "%s.%06ldZ %s ", stamp, ts.tv_nsec / 1000, txlog_kind_name(kind));
    size_t head = t->pending.len - before;
    txlog_escape(&t->pending, data, len);
    if (t->pending.len - before > TXLOG_LINE_MAX) {
        /* A line the reader would refuse: the note keeps the file readable. */
        t->pending.len = before + head - strlen(txlog_kind_name(kind)) - 1;
        buf_printf(&t->pending, "note a %s entry of %zu bytes, too long for a transcript line, "
                                "is left out",
                   txlog_kind_name(kind), len);
    }
    buf_append(&t->pending, "\n", 1);
    t->text_bytes += t->pending.len - before;
}

bool txlog_pending(const TxLog *t)
{
    return t->pending.len > 0;
}

bool txlog_flush(TxLog *t, TxZip *z, Err *err)
{
    if (t->pending.len == 0)
        return true;
    char what[4200];
    snprintf(what, sizeof what, "transcript '%s'", t->path);
    Err why;
    bool ok = gzmember_write(z, t->fd, t->pending.data, t->pending.len, what, &why);
    buf_clear(&t->pending);
    if (ok) {
        t->wrote = true;
        return true;
    }
    /* The member is gone whole (gzmember_write cut the file back), so the
     * file ends at its last whole entry. Entries after it are not recorded,
     * not even retried: a disk that filled up once would fail again, and
     * a transcript with a hole in the middle would pass for a whole one.
     * A file with no member at all is not gzip (zcat refuses it): it goes. */
    t->stopped = true;
    if (!t->wrote && unlink(t->path) == 0)
        return err_set(err, "%s; nothing of this connection is recorded (the empty file "
                            "is removed)",
                       why.text);
    return err_set(err, "%s; the rest of this connection is not recorded (the file keeps "
                        "every entry before)",
                   why.text);
}

bool txlog_close(TxLog *t, TxZip *z, Err *err)
{
    if (!t)
        return true;
    bool ok = txlog_flush(t, z, err);
    if (close(t->fd) != 0 && ok)
        ok = err_set(err, "transcript '%s': %s", t->path, strerror(errno));
    buf_free(&t->pending);
    free(t);
    return ok;
}

/* --- reading --- */

struct TxReader {
    GzReader *gz;
    Buf raw;      /* decompressed bytes not yet split into lines */
    size_t pos;   /* start of the next line in raw */
    bool eof;
    GzStatus end; /* how the file ended, once eof */
    Err why;      /* what the reader said about it */
    long line;
    char path[];
};

TxReader *txlog_reader_open(const char *path, Err *err)
{
    size_t n = strlen(path) + 1;
    TxReader *r = calloc(1, sizeof *r + n);
    if (!r) {
        err_set(err, "out of memory reading '%s'", path);
        return NULL;
    }
    Err why;
    r->gz = gzreader_open(path, &why);
    if (!r->gz) {
        free(r);
        err_set(err, "transcript %s", why.text);
        return NULL;
    }
    buf_init(&r->raw);
    memcpy(r->path, path, n);
    return r;
}

long txlog_reader_line(const TxReader *r)
{
    return r->line;
}

/* Reads more decompressed bytes; false at the end of the data (r->end
 * says how it ended). */
static bool fill(TxReader *r)
{
    if (r->eof)
        return false;
    if (r->pos > 0) {
        buf_consume(&r->raw, r->pos);
        r->pos = 0;
    }
    char chunk[65536];
    size_t n;
    if (gzreader_read(r->gz, chunk, sizeof chunk, &n, NULL, &r->end, &r->why)) {
        buf_append(&r->raw, chunk, n);
        return true;
    }
    r->eof = true;
    return false;
}

static bool is_stamp(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd.ddddddZ";
    for (size_t i = 0; i < TXLOG_STAMP_LEN; i++) {
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
            return false;
    }
    return true;
}

static TxStatus parse_line(TxReader *r, const char *s, size_t len, TxEntry *e, Err *err)
{
    r->line++;
    if (len < TXLOG_STAMP_LEN + 2 || !is_stamp(s) || s[TXLOG_STAMP_LEN] != ' ') {
        err_set(err, "transcript '%s' line %ld: expected a timestamp like "
                     "2025-01-02T03:04:05.123456Z",
                r->path, r->line);
        return TXLOG_BAD;
    }
    const char *word = s + TXLOG_STAMP_LEN + 1;
    const char *space = memchr(word, ' ', len - TXLOG_STAMP_LEN - 1);
    if (!space || !txlog_kind_parse(word, (size_t)(space - word), &e->kind)) {
        err_set(err, "transcript '%s' line %ld: expected req, long, rep, quit or note "
                     "after the timestamp",
                r->path, r->line);
        return TXLOG_BAD;
    }
    memcpy(e->stamp, s, TXLOG_STAMP_LEN);
    e->stamp[TXLOG_STAMP_LEN] = '\0';
    buf_clear(&e->data);
    Err why;
    if (!txlog_unescape(&e->data, space + 1, (size_t)(s + len - space - 1), &why)) {
        err_set(err, "transcript '%s' line %ld: %s", r->path, r->line, why.text);
        return TXLOG_BAD;
    }
    return TXLOG_ENTRY;
}

TxStatus txlog_read(TxReader *r, TxEntry *e, Err *err)
{
    size_t scanned = 0; /* bytes of the current line already searched */
    for (;;) {
        const char *start = r->raw.data ? r->raw.data + r->pos : NULL;
        size_t avail = r->raw.len - r->pos;
        const char *nl = avail > scanned ? memchr(start + scanned, '\n', avail - scanned) : NULL;
        size_t len = nl ? (size_t)(nl - start) : avail;
        /* No entry is this long: stop before the line takes the memory a
         * damaged or hostile file would have it take (a few hundred KB of
         * gzip make a line of hundreds of MB). */
        if (len > TXLOG_LINE_MAX) {
            err_set(err, "transcript '%s' line %ld is longer than %u bytes: damaged, or not a "
                         "transcript",
                    r->path, r->line + 1, TXLOG_LINE_MAX);
            return TXLOG_BAD;
        }
        if (nl) {
            r->pos += len + 1;
            return parse_line(r, start, len, e, err);
        }
        scanned = avail;
        if (!fill(r)) {
            if (r->end == GZ_BAD) {
                if (r->line > 0)
                    err_set(err, "transcript %s, after line %ld", r->why.text, r->line);
                else
                    err_set(err, "transcript %s", r->why.text);
                return TXLOG_BAD;
            }
            if (r->end == GZ_CUT || avail > 0) {
                err_set(err, "transcript '%s' is cut short after line %ld (its writer was "
                             "probably killed)",
                        r->path, r->line);
                return TXLOG_CUT;
            }
            return TXLOG_END;
        }
    }
}

void txlog_reader_close(TxReader *r)
{
    if (!r)
        return;
    gzreader_close(r->gz);
    buf_free(&r->raw);
    free(r);
}
