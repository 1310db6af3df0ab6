/* test_net.c - the network layer: line framing (NUL rules, the 64 KiB
 * limit), address parsing and listeners, transcripts (round trip, cut and
 * damaged files), and the event loop itself driven through a test handler
 * (echo, slow and closing requests): pipelined order, time budget, idle
 * timeout, disconnect mid-request, clean stop; cheap requests answered on
 * the event loop, and proto_is_cheap, which says which those are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "listen.h"
#include "net.h"
#include "proto.h"
#include "txlog.h"
#include "worker.h"

/* ------------------------------------------------------------------ */
/* framing */

typedef struct Lines {
    int n;
    NetLineKind kind[64];
    Buf text[64];
} Lines;

static void collect(void *ctx, NetLineKind kind, const char *line, size_t len)
{
    Lines *l = ctx;
    assert_true(l->n < 64);
    l->kind[l->n] = kind;
    buf_init(&l->text[l->n]);
    buf_append(&l->text[l->n], line, len);
    l->n++;
}

static void lines_free(Lines *l)
{
    for (int i = 0; i < l->n; i++)
        buf_free(&l->text[i]);
    l->n = 0;
}

/* Feeds data in pieces of `step` bytes (0 = all at once), then finishes. */
static void frame(Lines *out, const char *data, size_t n, size_t step, bool finish)
{
    NetFramer f;
    net_framer_init(&f);
    memset(out, 0, sizeof *out);
    if (step == 0)
        step = n ? n : 1;
    for (size_t i = 0; i < n; i += step)
        net_framer_feed(&f, data + i, n - i < step ? n - i : step, collect, out);
    if (finish)
        net_framer_finish(&f, collect, out);
    net_framer_free(&f);
}

static void expect_line(const Lines *l, int i, NetLineKind kind, const char *text, size_t len)
{
    assert_true(i < l->n);
    assert_int_equal(l->kind[i], kind);
    assert_int_equal(l->text[i].len, len);
    if (len)
        assert_memory_equal(l->text[i].data, text, len);
}

static void test_framing_lines(void **state)
{
    (void)state;
    static const char in[] = "version\nhelp\r\n\n  \nlast";
    size_t steps[] = {0, 1, 2, 3, 7};
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        Lines l;
        frame(&l, in, sizeof in - 1, steps[s], false);
        assert_int_equal(l.n, 4); /* "last" has no newline yet */
        expect_line(&l, 0, NET_LINE, "version", 7);
        expect_line(&l, 1, NET_LINE, "help\r", 5); /* the protocol layer strips \r */
        expect_line(&l, 2, NET_LINE, "", 0);
        expect_line(&l, 3, NET_LINE, "  ", 2);
        lines_free(&l);
        frame(&l, in, sizeof in - 1, steps[s], true);
        assert_int_equal(l.n, 5);
        expect_line(&l, 4, NET_LINE, "last", 4);
        lines_free(&l);
    }
    Lines l;
    frame(&l, "", 0, 0, true);
    assert_int_equal(l.n, 0);
}

static void test_framing_nul(void **state)
{
    (void)state;
    /* gnubg's client: every request is followed by "\n\0". */
    static const char gnubg[] = "board:a\n\0board:b\n\0";
    for (size_t step = 0; step <= 3; step++) {
        Lines l;
        frame(&l, gnubg, sizeof gnubg - 1, step, true);
        assert_int_equal(l.n, 2);
        expect_line(&l, 0, NET_LINE, "board:a", 7);
        expect_line(&l, 1, NET_LINE, "board:b", 7);
        lines_free(&l);
    }
    struct {
        const char *in;
        size_t n;
        int lines;
        NetLineKind kind[3];
    } cases[] = {
        {"\0version\n", 9, 1, {NET_BAD_NUL}},           /* no newline before it */
        {"ver\0sion\nhelp\n", 14, 2, {NET_BAD_NUL, NET_LINE}},
        {"a\n\0\0b\n", 6, 2, {NET_LINE, NET_BAD_NUL}}, /* only one NUL is skipped */
        {"a\n\0\n", 4, 2, {NET_LINE, NET_LINE}},       /* the skipped NUL leaves "" */
        {"a\nb\0", 4, 2, {NET_LINE, NET_BAD_NUL}},     /* unterminated, at the end */
        {"\n\0", 2, 1, {NET_LINE}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t step = 0; step <= 1; step++) {
            Lines l;
            frame(&l, cases[i].in, cases[i].n, step, true);
            assert_int_equal(l.n, cases[i].lines);
            for (int k = 0; k < l.n; k++)
                assert_int_equal(l.kind[k], cases[i].kind[k]);
            lines_free(&l);
        }
    }
    Lines l;
    frame(&l, "ver\0sion\n", 9, 0, true);
    expect_line(&l, 0, NET_BAD_NUL, "ver\0sion", 8);
    lines_free(&l);
}

static void test_framing_limit(void **state)
{
    (void)state;
    size_t big = NET_LINE_MAX + 10;
    char *data = malloc(3 * big);
    /* Exactly the limit passes. */
    memset(data, 'a', NET_LINE_MAX);
    memcpy(data + NET_LINE_MAX, "\nok\n", 4);
    Lines l;
    frame(&l, data, NET_LINE_MAX + 4, 0, true);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.kind[0], NET_LINE);
    assert_int_equal(l.text[0].len, NET_LINE_MAX);
    expect_line(&l, 1, NET_LINE, "ok", 2);
    lines_free(&l);

    /* One byte more: one error, the rest dropped up to the newline, the
     * connection goes on - whatever the read sizes. */
    size_t n = 0;
    memset(data, 'b', NET_LINE_MAX + 1);
    n = NET_LINE_MAX + 1;
    memset(data + n, 'c', 3 * NET_LINE_MAX / 2 - n + 100); /* more junk */
    n = 3 * NET_LINE_MAX / 2 + 100;
    memcpy(data + n, "\n\0next\n", 7);
    n += 7;
    size_t steps[] = {0, 1000, 4096, NET_LINE_MAX, NET_LINE_MAX + 1};
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        frame(&l, data, n, steps[s], true);
        assert_int_equal(l.n, 2);
        assert_int_equal(l.kind[0], NET_TOO_LONG);
        assert_int_equal(l.text[0].len, NET_LINE_MAX);
        assert_int_equal(l.text[0].data[0], 'b');
        expect_line(&l, 1, NET_LINE, "next", 4);
        lines_free(&l);
    }
    /* An over-long line never ended: one error, nothing at the end. */
    frame(&l, data, NET_LINE_MAX + 1000, 100, true);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.kind[0], NET_TOO_LONG);
    lines_free(&l);
    assert_string_equal(net_framing_error(NET_TOO_LONG), "Error: line longer than 65536 bytes\n");
    free(data);
}

/* ------------------------------------------------------------------ */
/* addresses */

static void test_parse_addresses(void **state)
{
    (void)state;
    struct {
        const char *spec;
        const char *host, *port;
    } good[] = {
        {"localhost:10000", "localhost", "10000"},
        {"[::1]:10000", "::1", "10000"},
        {":31000", "", "31000"},
        {"127.0.0.1:0", "127.0.0.1", "0"},
        {"[fe80::1%lo]:65535", "fe80::1%lo", "65535"},
        {"my-host.example_1:007", "my-host.example_1", "7"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ListenAddr a;
        Err err;
        if (!listen_parse_tcp(good[i].spec, &a, &err))
            fail_msg("%s: %s", good[i].spec, err.text);
        assert_int_equal(a.kind, LISTEN_TCP);
        assert_string_equal(a.host, good[i].host);
        assert_string_equal(a.port, good[i].port);
        /* What listen_format writes, listen_parse reads back the same. */
        char text[LISTEN_NAME_MAX];
        listen_format(&a, text, sizeof text);
        ListenAddr b;
        assert_true(listen_parse(text, &b, &err));
        assert_int_equal(b.kind, LISTEN_TCP);
        assert_string_equal(b.host, a.host);
        assert_string_equal(b.port, a.port);
    }
    struct {
        const char *spec, *says;
    } bad[] = {
        {"localhost", "HOST:PORT"},
        {"::1:10000", "brackets"},
        {"[::1]10000", "':PORT'"},
        {"[::1:10000", "closing"},
        {"[]:1", "empty"},
        {"host:", "no port"},
        {"host:65536", "above 65535"},
        {"host:123456", "not a number"},
        {"host:1a", "not a number"},
        {"host:-1", "not a number"},
        {"ho st:1", "' '"},
        {"a/b:1", "'/'"},
        {"[::1 ]:1", "' '"},
        {"[localhost]:1", "brackets hold an IPv6 address"},
        {"[ppMMM%%%]:0", "brackets hold an IPv6 address"}, /* found by fuzz_listen */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ListenAddr a;
        Err err = {""};
        if (listen_parse_tcp(bad[i].spec, &a, &err))
            fail_msg("accepted '%s'", bad[i].spec);
        if (!strstr(err.text, bad[i].says) || !strstr(err.text, bad[i].spec))
            fail_msg("'%s': message '%s' should say '%s'", bad[i].spec, err.text, bad[i].says);
    }
    /* A message quotes the address on one printable line, whatever it holds
     * (found by fuzz_listen: a newline was echoed as it stood). */
    {
        ListenAddr a;
        Err err = {""};
        assert_false(listen_parse("[:\xff\n\x01", &a, &err));
        assert_null(strchr(err.text, '\n'));
        assert_non_null(strstr(err.text, "'[:\?\?\?'"));
        assert_false(listen_parse("ho\tst:1", &a, &err));
        assert_non_null(strstr(err.text, "the byte 0x09 cannot be in a host name"));
    }
    /* gnubg's rule: a ':' and no '/' is TCP, anything else a socket path. */
    ListenAddr a;
    Err err;
    assert_true(listen_parse("run/bg.sock", &a, &err));
    assert_int_equal(a.kind, LISTEN_UNIX);
    assert_string_equal(a.path, "run/bg.sock");
    assert_true(listen_parse("bg.sock", &a, &err));
    assert_int_equal(a.kind, LISTEN_UNIX);
    assert_true(listen_parse("./a:b", &a, &err));
    assert_int_equal(a.kind, LISTEN_UNIX);
    assert_false(listen_parse("", &a, &err));
    char longpath[200];
    memset(longpath, 'p', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    assert_false(listen_parse_unix(longpath, &a, &err));
    assert_non_null(strstr(err.text, "limit"));
}

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/shesh-test-net-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_listeners(void **state)
{
    (void)state;
    Listener l[8];
    size_t n = 0;
    ListenAddr a;
    Err err;
    assert_true(listen_parse_tcp("127.0.0.1:0", &a, &err));
    if (!listen_open(&a, l, 8, &n, &err))
        fail_msg("%s", err.text);
    assert_int_equal(n, 1);
    const char *colon = strrchr(l[0].name, ':');
    assert_non_null(colon);
    assert_true(atoi(colon + 1) > 0);
    /* The same port again: "in use", nothing added. */
    ListenAddr again;
    assert_true(listen_parse_tcp(l[0].name, &again, &err));
    assert_false(listen_open(&again, l, 8, &n, &err));
    assert_int_equal(n, 1);
    assert_non_null(strstr(err.text, "already in use"));
    /* A client reaches it. */
    int fd = listen_connect(&again, 2, &err);
    assert_true(fd >= 0);
    close(fd);
    listen_close(&l[0]);
    assert_true(listen_connect(&again, 2, &err) < 0);
    assert_false(listen_open(&(ListenAddr){.kind = LISTEN_TCP, .host = "no.such.host.invalid",
                                            .port = "1"},
                             l, 8, &n, &err));
    assert_non_null(strstr(err.text, "resolve"));

    /* Unix sockets: a live one is in use, a stale one is replaced, any
     * other file is left alone, and close removes only our own file. */
    char path[128];
    snprintf(path, sizeof path, "%s/s.sock", tmpdir);
    assert_true(listen_parse_unix(path, &a, &err));
    n = 0;
    if (!listen_open(&a, l, 8, &n, &err))
        fail_msg("%s", err.text);
    assert_false(listen_open(&a, l, 8, &n, &err));
    assert_non_null(strstr(err.text, "in use"));
    assert_int_equal(n, 1);
    close(l[0].fd); /* dies without cleaning up: the file stays, stale */
    l[0].fd = -1;
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    size_t m = 1;
    if (!listen_open(&a, l, 8, &m, &err))
        fail_msg("stale socket not replaced: %s", err.text);
    listen_close(&l[1]);
    assert_int_equal(stat(path, &st), -1);
    l[0].path[0] = '\0';
    FILE *f = fopen(path, "w");
    fputs("precious", f);
    fclose(f);
    n = 0;
    assert_false(listen_open(&a, l, 8, &n, &err));
    assert_non_null(strstr(err.text, "not a socket"));
    assert_int_equal(stat(path, &st), 0);
    unlink(path);
}

/* ------------------------------------------------------------------ */
/* transcripts */

typedef struct Entry {
    TxKind kind;
    const char *data;
    size_t len;
} Entry;

static const Entry entries[] = {
    {TX_NOTE, "connection 1 from 127.0.0.1:5555", 33},
    {TX_REQ, "version", 7},
    {TX_REP, "Interface: 2\nRFBF: 0\n", 21},
    {TX_REQ, "", 0},
    {TX_REQ, "bin\0\x01\xff\\x41\t\r", 13},
    {TX_LONG, "xxxx", 4},
    {TX_REP, "Error: line longer than 65536 bytes\n", 36},
    {TX_QUIT, "", 0},
};
#define NENTRIES (sizeof entries / sizeof entries[0])

static void write_transcript(const char *path, size_t per_flush)
{
    Err err;
    TxZip *z = txlog_zip_new(&err);
    TxLog *t = txlog_create(path, &err);
    assert_non_null(z);
    if (!t)
        fail_msg("%s", err.text);
    assert_string_equal(txlog_path(t), path);
    for (size_t i = 0; i < NENTRIES; i++) {
        txlog_add(t, entries[i].kind, entries[i].data, entries[i].len);
        assert_true(txlog_pending(t));
        if ((i + 1) % per_flush == 0)
            assert_true(txlog_flush(t, z, &err));
    }
    assert_true(txlog_close(t, z, &err));
    txlog_zip_free(z);
}

/* Reads path; returns the entries read and the final status. */
static size_t read_transcript(const char *path, TxStatus *end)
{
    Err err;
    TxReader *r = txlog_reader_open(path, &err);
    assert_non_null(r);
    TxEntry e;
    buf_init(&e.data);
    size_t n = 0;
    TxStatus st;
    while ((st = txlog_read(r, &e, &err)) == TXLOG_ENTRY) {
        assert_true(n < NENTRIES);
        assert_int_equal(e.kind, entries[n].kind);
        assert_int_equal(e.data.len, entries[n].len);
        if (e.data.len)
            assert_memory_equal(e.data.data, entries[n].data, e.data.len);
        assert_int_equal(strlen(e.stamp), TXLOG_STAMP_LEN);
        assert_int_equal(txlog_reader_line(r), (long)n + 1);
        n++;
    }
    *end = st;
    buf_free(&e.data);
    txlog_reader_close(r);
    return n;
}

/* path holds every entry, read back to a clean end by the reader and by
 * zcat (the file is plain gzip: zcat reads every member). */
static void assert_whole(const char *path)
{
    TxStatus st;
    assert_int_equal(read_transcript(path, &st), NENTRIES);
    assert_int_equal(st, TXLOG_END);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "zcat '%s' > /dev/null && zcat '%s' | grep -c ' req ' | grep -qx 3",
             path, path);
    assert_int_equal(system(cmd), 0);
}

static void test_txlog_round_trip(void **state)
{
    (void)state;
    for (size_t per = 1; per <= NENTRIES; per += 3) {
        char path[128];
        snprintf(path, sizeof path, "%s/t%zu.log.gz", tmpdir, per);
        write_transcript(path, per);
        assert_whole(path);
        Err err;
        assert_null(txlog_create(path, &err)); /* never overwrites */
        unlink(path);
    }
    /* Every byte survives escaping. */
    char all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (char)i;
    Buf esc, back;
    buf_init(&esc);
    buf_init(&back);
    txlog_escape(&esc, all, sizeof all);
    assert_null(memchr(esc.data, '\n', esc.len));
    Err err;
    assert_true(txlog_unescape(&back, esc.data, esc.len, &err));
    assert_int_equal(back.len, 256);
    assert_memory_equal(back.data, all, 256);
    const char *bad[] = {"\\", "\\q", "\\x4", "\\xzz"};
    for (size_t i = 0; i < 4; i++)
        assert_false(txlog_unescape(&back, bad[i], strlen(bad[i]), &err));
    buf_free(&esc);
    buf_free(&back);
}

static void test_txlog_cut(void **state)
{
    (void)state;
    char path[128], cut[140];
    snprintf(path, sizeof path, "%s/whole.log.gz", tmpdir);
    snprintf(cut, sizeof cut, "%s/cut.log.gz", tmpdir);
    write_transcript(path, 1); /* one member per entry */
    FILE *f = fopen(path, "rb");
    char data[8192];
    size_t size = fread(data, 1, sizeof data, f);
    fclose(f);
    /* Cut anywhere: the entries before the cut come back in order, then a
     * clean end (cut on a member boundary) or TXLOG_CUT - never garbage. */
    size_t last = 0, cuts = 0, ends = 0;
    for (size_t len = 0; len <= size; len++) {
        f = fopen(cut, "wb");
        fwrite(data, 1, len, f);
        fclose(f);
        TxStatus st;
        size_t n = read_transcript(cut, &st);
        assert_true(n >= last);
        last = n;
        if (st == TXLOG_CUT)
            cuts++;
        else if (st == TXLOG_END)
            ends++;
        else
            fail_msg("cut at %zu bytes: status %d", len, (int)st);
    }
    assert_int_equal(last, NENTRIES);
    assert_true(cuts > size / 2);
    /* A clean end exactly at each member boundary, and empty: one byte of
     * the next member is a cut too (zlib's gzread ignores it). */
    assert_int_equal(ends, NENTRIES + 1);

    /* Not a transcript: a plain text file, and gzip text of another shape. */
    f = fopen(cut, "w");
    fputs("hello world\n", f);
    fclose(f);
    Err err;
    TxReader *r = txlog_reader_open(cut, &err);
    TxEntry e;
    buf_init(&e.data);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_BAD);
    assert_non_null(strstr(err.text, "not gzip"));
    txlog_reader_close(r);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "printf 'hello world\\n' | gzip > '%s'", cut);
    assert_int_equal(system(cmd), 0);
    r = txlog_reader_open(cut, &err);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_BAD);
    assert_non_null(strstr(err.text, "line 1"));
    txlog_reader_close(r);
    /* Bytes after the last member that start no member: damage, not a
     * clean end. */
    f = fopen(cut, "wb");
    fwrite(data, 1, size, f);
    fputs("xy", f);
    fclose(f);
    TxStatus st;
    assert_int_equal(read_transcript(cut, &st), NENTRIES);
    assert_int_equal(st, TXLOG_BAD);
    /* Damaged compressed data (a flipped byte inside a member). */
    data[20] ^= 0x55;
    f = fopen(cut, "wb");
    fwrite(data, 1, size, f);
    fclose(f);
    r = txlog_reader_open(cut, &err);
    while ((st = txlog_read(r, &e, &err)) == TXLOG_ENTRY)
        ;
    assert_int_not_equal(st, TXLOG_END);
    txlog_reader_close(r);
    buf_free(&e.data);
    assert_null(txlog_reader_open("/nonexistent/x.gz", &err));
    unlink(cut);
    unlink(path);
}

/* No line of a transcript passes TXLOG_LINE_MAX: the writer puts a note in
 * place of an entry that would, and the reader refuses a longer line (a
 * file that is damaged, or made to take a reader's memory) without
 * holding it. */
static void test_txlog_long_lines(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/long.log.gz", tmpdir);
    size_t big = TXLOG_LINE_MAX / 4 + 1; /* control bytes: 4 bytes each escaped */
    char *data = calloc(big, 1);
    assert_non_null(data);
    Err err;
    TxZip *z = txlog_zip_new(&err);
    TxLog *t = txlog_create(path, &err);
    assert_non_null(z);
    assert_non_null(t);
    txlog_add(t, TX_REP, data, big);
    txlog_add(t, TX_REQ, "version", 7);
    assert_true(txlog_close(t, z, &err));
    TxReader *r = txlog_reader_open(path, &err);
    assert_non_null(r);
    TxEntry e;
    buf_init(&e.data);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_ENTRY);
    assert_int_equal(e.kind, TX_NOTE);
    char want[128];
    snprintf(want, sizeof want, "a rep entry of %zu bytes, too long for a transcript line", big);
    assert_non_null(strstr(e.data.data, want));
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_ENTRY);
    assert_int_equal(e.kind, TX_REQ);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_END);
    txlog_reader_close(r);
    unlink(path);

    /* A line one byte over, written as gzip by hand. */
    Buf line;
    buf_init(&line);
    buf_puts(&line, "2025-01-02T03:04:05.123456Z req ");
    while (line.len < TXLOG_LINE_MAX + 1)
        buf_append(&line, "a", 1);
    buf_append(&line, "\n", 1);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_true(gzmember_write(z, fd, line.data, line.len, path, &err));
    close(fd);
    r = txlog_reader_open(path, &err);
    assert_non_null(r);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_BAD);
    assert_non_null(strstr(err.text, "line 1 is longer than"));
    txlog_reader_close(r);
    /* One byte shorter is a line like any other. */
    unlink(path);
    line.len -= 2;
    buf_append(&line, "\n", 1);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_true(gzmember_write(z, fd, line.data, line.len, path, &err));
    close(fd);
    r = txlog_reader_open(path, &err);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_ENTRY);
    assert_int_equal(e.data.len, TXLOG_LINE_MAX - TXLOG_STAMP_LEN - 5);
    assert_int_equal(txlog_read(r, &e, &err), TXLOG_END);
    txlog_reader_close(r);
    unlink(path);
    buf_free(&line);
    buf_free(&e.data);
    txlog_zip_free(z);
    free(data);
}

/* Writes to path, under a file size limit of `room` bytes past the file's
 * size after the entries, one member that does not fit; returns the status
 * of that flush, with the message in err. */
static bool flush_past_limit(const char *path, bool first, off_t room, Err *err)
{
    TxZip *z = txlog_zip_new(err);
    TxLog *t = txlog_create(path, err);
    assert_non_null(z);
    assert_non_null(t);
    if (!first) {
        for (size_t i = 0; i < NENTRIES; i++)
            txlog_add(t, entries[i].kind, entries[i].data, entries[i].len);
        assert_true(txlog_flush(t, z, err));
    }
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)(st.st_size + room);
    /* As the server does: the write fails with EFBIG instead of a signal. */
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    char noise[4096]; /* random bytes: the member is far over `room` */
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        noise[i] = (char)(x >> 32);
    }
    txlog_add(t, TX_REP, noise, sizeof noise);
    bool ok = txlog_flush(t, z, err);
    Err later;
    bool stopped = txlog_stopped(t);
    txlog_add(t, TX_REQ, "version", 7);
    bool pending = txlog_pending(t);
    bool closed = txlog_close(t, z, &later); /* the failure was said once */
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);
    txlog_zip_free(z);
    assert_true(stopped);
    assert_false(pending);
    assert_true(closed);
    if (!first) {
        struct stat after;
        assert_int_equal(stat(path, &after), 0);
        assert_int_equal(after.st_size, st.st_size); /* no part of a member */
    }
    return ok;
}

/* A write that fails part-way (a full disk; here a file size limit) leaves
 * no part of a member behind: the file keeps every whole member and reads
 * to its end, and the transcript records nothing more. */
static void test_txlog_full(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/full.log.gz", tmpdir);
    Err err;
    assert_false(flush_past_limit(path, false, 100, &err));
    assert_non_null(strstr(err.text, "File too large"));
    assert_non_null(strstr(err.text, "the rest of this connection is not recorded"));
    assert_whole(path);
    unlink(path);
    /* Not one member fits: an empty file is not gzip, so it goes. */
    assert_false(flush_past_limit(path, true, 10, &err));
    assert_non_null(strstr(err.text, "the empty file is removed"));
    assert_int_not_equal(access(path, F_OK), 0);
}

/* ------------------------------------------------------------------ */
/* worker pool */

typedef struct CountJob {
    WorkerJob base;
    int value;
    atomic_int *sum;
} CountJob;

/* A thread's own state: the jobs it ran, counted without atomics (only
 * its thread touches it), and the thread, to catch a state shared. */
typedef struct CountState {
    long runs;
    pthread_t owner;
    bool bound;
    atomic_int *shared; /* jobs that met a state of another thread */
} CountState;

static void count_run(WorkerJob *j, void *thread)
{
    CountJob *c = (CountJob *)j;
    atomic_fetch_add(c->sum, c->value);
    CountState *st = thread;
    if (!st)
        return;
    if (!st->bound) {
        st->owner = pthread_self();
        st->bound = true;
    } else if (!pthread_equal(st->owner, pthread_self())) {
        atomic_fetch_add(st->shared, 1);
    }
    st->runs++;
}

typedef struct CountStates {
    CountState *made[8];
    int n, freed;
    long runs;
    atomic_int shared;
} CountStates;

static void *count_state_new(void *ctx, Err *err)
{
    CountStates *all = ctx;
    if (all->n == 8) {
        err_set(err, "no more states");
        return NULL;
    }
    CountState *st = calloc(1, sizeof *st);
    st->shared = &all->shared;
    all->made[all->n++] = st;
    return st;
}

static void count_state_free(void *ctx, void *state)
{
    CountStates *all = ctx;
    all->runs += ((CountState *)state)->runs;
    all->freed++;
    free(state);
}

static void test_worker_pool(void **state)
{
    (void)state;
    Err err;
    assert_null(worker_pool_new(0, NULL, &err));
    assert_true(worker_default_threads() >= 1);
    static CountStates states;
    WorkerThreadState per_thread = {&states, count_state_new, count_state_free};
    WorkerPool *p = worker_pool_new(3, &per_thread, &err);
    assert_non_null(p);
    enum { N = 500 };
    static CountJob jobs[N];
    atomic_int sum = 0;
    for (int i = 0; i < N; i++) {
        jobs[i].base.run = count_run;
        jobs[i].value = i;
        jobs[i].sum = &sum;
        worker_pool_submit(p, &jobs[i].base);
    }
    int back = 0;
    while (back < N) {
        struct pollfd pfd = {.fd = worker_pool_fd(p), .events = POLLIN};
        assert_int_equal(poll(&pfd, 1, 5000), 1);
        for (WorkerJob *j = worker_pool_collect(p); j; j = j->next)
            back++;
    }
    assert_int_equal(back, N);
    assert_int_equal(atomic_load(&sum), N * (N - 1) / 2);
    assert_true(worker_pool_stop(p, 5));
    worker_pool_free(p);
    /* One state a thread, each used by its thread alone, all freed. */
    assert_int_equal(states.n, 3);
    assert_int_equal(states.freed, 3);
    assert_int_equal(states.runs, N);
    assert_int_equal(atomic_load(&states.shared), 0);
    /* A state that cannot be made fails the pool, freeing those made. */
    CountStates few = {.n = 6};
    WorkerThreadState too_many = {&few, count_state_new, count_state_free};
    assert_null(worker_pool_new(3, &too_many, &err));
    assert_non_null(strstr(err.text, "no more states"));
    assert_int_equal(few.freed, 2);
}

/* ------------------------------------------------------------------ */
/* the server, with a handler made for testing */

typedef struct TestCtx {
    atomic_int sessions;  /* live sessions */
    atomic_int handled;
    atomic_int on_loop;      /* requests the event loop ran itself */
    atomic_int slow_on_loop; /* of those, "sleep" ones: never allowed */
    pthread_t loop;          /* the thread in net_serve */
    atomic_int threads_made, threads_freed;
    atomic_int thread_shared; /* requests that met a state of another thread */
} TestCtx;

typedef struct TestThread {
    pthread_t owner;
    bool bound;
} TestThread;

static void *t_thread_new(void *ctx, Err *err)
{
    (void)err;
    TestCtx *t = ctx;
    atomic_fetch_add(&t->threads_made, 1);
    return calloc(1, sizeof(TestThread));
}

static void t_thread_free(void *ctx, void *thread)
{
    TestCtx *t = ctx;
    atomic_fetch_add(&t->threads_freed, 1);
    free(thread);
}

typedef struct TestSession {
    int count; /* requests seen: proves the session persists */
} TestSession;

static void *t_session_new(void *ctx)
{
    TestCtx *t = ctx;
    atomic_fetch_add(&t->sessions, 1);
    return calloc(1, sizeof(TestSession));
}

static void t_session_free(void *ctx, void *session)
{
    TestCtx *t = ctx;
    atomic_fetch_sub(&t->sessions, 1);
    free(session);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* "sleep MS TEXT": waits, then echoes; "quit": closes; "lines N": N lines;
 * anything else: "N: LINE" with N the session's request count. */
static NetAction t_handle(void *ctx, void *thread, void *session, const char *line, size_t len,
                          Buf *out)
{
    TestCtx *t = ctx;
    TestSession *s = session;
    atomic_fetch_add(&t->handled, 1);
    TestThread *th = thread;
    if (!th->bound) {
        th->owner = pthread_self();
        th->bound = true;
    } else if (!pthread_equal(th->owner, pthread_self())) {
        atomic_fetch_add(&t->thread_shared, 1);
    }
    if (pthread_equal(pthread_self(), t->loop)) {
        atomic_fetch_add(&t->on_loop, 1);
        if (len > 6 && !memcmp(line, "sleep ", 6))
            atomic_fetch_add(&t->slow_on_loop, 1);
    }
    s->count++;
    if (len == 4 && !memcmp(line, "quit", 4))
        return NET_CLOSE;
    if (len > 6 && !memcmp(line, "sleep ", 6)) {
        sleep_ms(strtol(line + 6, NULL, 10));
    } else if (len > 6 && !memcmp(line, "lines ", 6)) {
        long n = strtol(line + 6, NULL, 10);
        for (long i = 0; i < n; i++)
            buf_printf(out, "line %ld of %ld, padded to be a little longer\n", i, n);
        return NET_REPLY;
    }
    buf_printf(out, "%d: ", s->count);
    buf_append(out, line, len);
    buf_puts(out, "\n");
    return NET_REPLY;
}

/* Everything but "sleep ..." is cheap. */
static bool t_is_cheap(void *ctx, const char *line, size_t len)
{
    (void)ctx;
    return !(len > 6 && !memcmp(line, "sleep ", 6));
}

typedef struct TestServer {
    TestCtx ctx;
    NetHandler h;
    NetConfig cfg;
    Listener l[2];
    ListenAddr unix_addr, tcp_addr;
    pthread_t thread;
    int stop;
    bool ok;
    NetStats stats;
    char sock[128];
    char logdir[128];
} TestServer;

static void *serve_thread(void *arg)
{
    TestServer *t = arg;
    Err err;
    t->ctx.loop = pthread_self();
    t->ok = net_serve(&t->cfg, &t->h, &t->stats, &err);
    return NULL;
}

/* threads workers; cheap: t_is_cheap tells the loop what it may answer. */
static void server_up_with(TestServer *t, double idle, double budget, bool log, int threads,
                           bool cheap)
{
    memset(t, 0, sizeof *t);
    t->h = (NetHandler){.ctx = &t->ctx, .session_new = t_session_new,
                        .session_free = t_session_free, .handle = t_handle,
                        .is_cheap = cheap ? t_is_cheap : NULL,
                        .thread_new = t_thread_new, .thread_free = t_thread_free};
    snprintf(t->sock, sizeof t->sock, "%s/srv.sock", tmpdir);
    Err err;
    size_t n = 0;
    assert_true(listen_parse_unix(t->sock, &t->unix_addr, &err));
    assert_true(listen_parse_tcp("127.0.0.1:0", &t->tcp_addr, &err));
    if (!listen_open(&t->unix_addr, t->l, 2, &n, &err) ||
        !listen_open(&t->tcp_addr, t->l, 2, &n, &err))
        fail_msg("%s", err.text);
    assert_true(listen_parse_tcp(t->l[1].name, &t->tcp_addr, &err));
    t->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    t->cfg = (NetConfig){.listeners = t->l, .n_listeners = n, .threads = threads,
                         .idle_timeout = idle, .request_timeout = budget,
                         .log_dir = NULL, .stop_fd = t->stop,
                         .diag = diag_new(stderr, "test server: ", 0, &err)};
    assert_non_null(t->cfg.diag);
    if (log) {
        snprintf(t->logdir, sizeof t->logdir, "%s/logs", tmpdir);
        mkdir(t->logdir, 0755);
        t->cfg.log_dir = t->logdir;
    }
    assert_int_equal(pthread_create(&t->thread, NULL, serve_thread, t), 0);
}

/* Two workers, every line sent to one. */
static void server_up(TestServer *t, double idle, double budget, bool log)
{
    server_up_with(t, idle, budget, log, 2, false);
}

static void server_down(TestServer *t)
{
    uint64_t one = 1;
    assert_int_equal(write(t->stop, &one, sizeof one), 8);
    pthread_join(t->thread, NULL);
    diag_free(t->cfg.diag, 2.0);
    close(t->stop);
    assert_true(t->ok);
    assert_false(t->stats.abandoned);
    /* A state for each worker and the loop, each used by its own thread. */
    assert_int_equal(atomic_load(&t->ctx.threads_made), t->cfg.threads + 1);
    assert_int_equal(atomic_load(&t->ctx.threads_freed), t->cfg.threads + 1);
    assert_int_equal(atomic_load(&t->ctx.thread_shared), 0);
    /* Every session was freed, and the socket file is gone. */
    assert_int_equal(atomic_load(&t->ctx.sessions), 0);
    struct stat st;
    assert_int_equal(stat(t->sock, &st), -1);
}

static int dial(TestServer *t, bool tcp)
{
    Err err;
    int fd = listen_connect(tcp ? &t->tcp_addr : &t->unix_addr, 5, &err);
    if (fd < 0)
        fail_msg("%s", err.text);
    return fd;
}

static void send_all(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
        assert_true(w > 0);
        data += w;
        n -= (size_t)w;
    }
}

/* Reads until `lines` newlines arrived or the peer closed (or 5 s). */
static void recv_lines(int fd, Buf *out, int lines)
{
    buf_clear(out);
    int seen = 0;
    while (seen < lines) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 5000) != 1)
            fail_msg("no reply within 5 s (got %d of %d lines)", seen, lines);
        char chunk[65536];
        ssize_t n = recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++)
            seen += chunk[i] == '\n';
        buf_append(out, chunk, (size_t)n);
    }
}

/* True if the server closed fd (EOF) within ms milliseconds. */
static bool closed_within(int fd, int ms)
{
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    if (poll(&pfd, 1, ms) != 1)
        return false;
    char c;
    return recv(fd, &c, 1, 0) == 0;
}

static void test_server_pipelining(void **state)
{
    (void)state;
    TestServer t;
    server_up(&t, 0, 0, false);
    for (int tcp = 0; tcp <= 1; tcp++) {
        int fd = dial(&t, tcp);
        /* Slow and fast requests in one write: replies keep the order. */
        static const char burst[] = "sleep 150 a\nb\n\0sleep 50 c\nd\r\n\nbad\0nul\n";
        send_all(fd, burst, sizeof burst - 1);
        Buf got;
        buf_init(&got);
        recv_lines(fd, &got, 6);
        assert_string_equal(got.data, "1: sleep 150 a\n2: b\n3: sleep 50 c\n4: d\r\n5: \n"
                                      "Error: line contains a NUL byte\n");
        /* A line over the limit gets one error; the connection goes on. */
        size_t n = NET_LINE_MAX + 5000;
        char *big = malloc(n + 16);
        memset(big, 'z', n);
        memcpy(big + n, "\nafter\n", 7);
        send_all(fd, big, n + 7);
        free(big);
        recv_lines(fd, &got, 2);
        assert_string_equal(got.data, "Error: line longer than 65536 bytes\n6: after\n");
        /* Many lines in flight: all answered, in order. */
        Buf many, want;
        buf_init(&many);
        buf_init(&want);
        for (int i = 0; i < 2000; i++) {
            buf_printf(&many, "r%d\n", i);
            buf_printf(&want, "%d: r%d\n", 7 + i, i);
        }
        send_all(fd, many.data, many.len);
        recv_lines(fd, &got, 2000);
        assert_string_equal(got.data, want.data);
        /* A big reply (several MB) arrives whole, in pieces. */
        send_all(fd, "lines 100000\nend\n", 17);
        recv_lines(fd, &got, 100001);
        assert_true(got.len > 4000000);
        assert_non_null(strstr(got.data, "line 99999 of 100000"));
        assert_string_equal(got.data + got.len - 10, "2008: end\n");
        /* quit: no reply, the connection closes; earlier replies first. */
        send_all(fd, "x\nquit\nnever\n", 13);
        recv_lines(fd, &got, 1);
        assert_string_equal(got.data, "2009: x\n");
        assert_true(closed_within(fd, 5000));
        close(fd);
        buf_free(&many);
        buf_free(&want);
        buf_free(&got);
    }
    server_down(&t);
}

static void test_server_isolation(void **state)
{
    (void)state;
    TestServer t;
    server_up(&t, 0, 0, false);
    /* A silent client, one sending half a line, and one stuck in a slow
     * request do not hold up a fourth. */
    int silent = dial(&t, true);
    int half = dial(&t, false);
    send_all(half, "incompl", 7);
    int slow = dial(&t, false);
    send_all(slow, "sleep 400 slow\n", 15);
    int fast = dial(&t, true);
    Buf got;
    buf_init(&got);
    send_all(fast, "hello\n", 6);
    recv_lines(fast, &got, 1);
    assert_string_equal(got.data, "1: hello\n");
    /* ...answered while the slow one is still at work. */
    struct pollfd pfd = {.fd = slow, .events = POLLIN};
    assert_int_equal(poll(&pfd, 1, 0), 0);
    /* The half line completes later; end of input answers the rest. */
    send_all(half, "ete\nno newline", 14);
    shutdown(half, SHUT_WR);
    recv_lines(half, &got, 2);
    assert_string_equal(got.data, "1: incomplete\n2: no newline\n");
    assert_true(closed_within(half, 5000));
    recv_lines(slow, &got, 1);
    assert_string_equal(got.data, "1: sleep 400 slow\n");
    /* Disconnect mid-request: the late result is dropped, nothing leaks
     * (server_down checks the sessions). */
    int gone = dial(&t, true);
    send_all(gone, "sleep 200 gone\nmore\n", 20);
    close(gone);
    close(silent);
    close(half);
    close(slow);
    close(fast);
    buf_free(&got);
    sleep_ms(300);
    server_down(&t);
}

static void test_server_timeouts(void **state)
{
    (void)state;
    TestServer t;
    server_up(&t, 0.6, 0.2, true);
    int fd = dial(&t, false);
    Buf got;
    buf_init(&got);
    /* Over budget: an error in its place, the late result never shows,
     * and the next request is answered by the same session. */
    send_all(fd, "sleep 500 slow\nnext\n", 20);
    recv_lines(fd, &got, 2);
    assert_string_equal(got.data, "Error: request took longer than its time budget of 0.2 "
                                  "seconds\n2: next\n");
    /* Silent past the idle timeout: closed by the server. */
    assert_true(closed_within(fd, 3000));
    close(fd);
    /* A client waiting on a slow reply is not idle. */
    fd = dial(&t, true);
    send_all(fd, "sleep 150 a\n", 12);
    recv_lines(fd, &got, 1);
    assert_string_equal(got.data, "1: sleep 150 a\n");
    close(fd);
    sleep_ms(100);
    server_down(&t);
    assert_int_equal(t.stats.timeouts, 1);
    assert_int_equal(t.stats.connections, 2);

    /* Both connections left a transcript that reads back cleanly. */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "test $(ls %s | wc -l) = 2 && zcat %s/*.log.gz | grep -q ' rep Error: request "
             "took longer' && zcat %s/*.log.gz | grep -q 'note closed: idle for 0.6 seconds'",
             t.logdir, t.logdir, t.logdir);
    assert_int_equal(system(cmd), 0);
    buf_free(&got);
}

static void test_server_stop(void **state)
{
    (void)state;
    TestServer t;
    server_up(&t, 0, 0, false);
    int fd = dial(&t, false);
    send_all(fd, "sleep 300 inflight\nqueued\npart", 30);
    sleep_ms(100);
    uint64_t one = 1;
    assert_int_equal(write(t.stop, &one, sizeof one), 8);
    /* Replies in flight are finished, then the connection closes. */
    Buf got;
    buf_init(&got);
    recv_lines(fd, &got, 2);
    assert_string_equal(got.data, "1: sleep 300 inflight\n2: queued\n");
    assert_true(closed_within(fd, 5000));
    close(fd);
    pthread_join(t.thread, NULL);
    close(t.stop);
    assert_true(t.ok);
    assert_int_equal(atomic_load(&t.ctx.sessions), 0);
    struct stat st;
    assert_int_equal(stat(t.sock, &st), -1);
    buf_free(&got);
}

/* Cheap and slow lines pipelined on one connection: the cheap ones run on
 * the loop, but never past a slow one still on a worker, so the replies
 * (and the session's count) keep the order of the requests. */
static void test_server_inline_order(void **state)
{
    (void)state;
    TestServer t;
    server_up_with(&t, 0, 0, true, 2, true);
    char cmd[1024];
    /* Transcripts of an earlier test may have the same names. */
    snprintf(cmd, sizeof cmd, "rm -f %s/*.log.gz", t.logdir);
    assert_int_equal(system(cmd), 0);
    int fd = dial(&t, false);
    static const char burst[] = "a\nsleep 150 b\nc\nd\nsleep 50 e\nf\n\0g\nquit\nnever\n";
    send_all(fd, burst, sizeof burst - 1);
    Buf got;
    buf_init(&got);
    recv_lines(fd, &got, 7);
    assert_string_equal(got.data, "1: a\n2: sleep 150 b\n3: c\n4: d\n5: sleep 50 e\n6: f\n7: g\n");
    assert_true(closed_within(fd, 5000));
    close(fd);
    /* Many cheap lines behind a slow one, more than one turn of the loop
     * takes: all answered, in order. */
    fd = dial(&t, true);
    Buf many, want;
    buf_init(&many);
    buf_init(&want);
    buf_puts(&many, "sleep 100 first\n");
    buf_puts(&want, "1: sleep 100 first\n");
    for (int i = 0; i < 1000; i++) {
        buf_printf(&many, "r%d\n", i);
        buf_printf(&want, "%d: r%d\n", 2 + i, i);
    }
    send_all(fd, many.data, many.len);
    recv_lines(fd, &got, 1001);
    assert_string_equal(got.data, want.data);
    close(fd);
    sleep_ms(100);
    server_down(&t);
    /* a c d f g and quit, and most of the thousand, ran on the loop; no
     * sleep ever did. */
    assert_int_equal(atomic_load(&t.ctx.slow_on_loop), 0);
    assert_true(atomic_load(&t.ctx.on_loop) >= 6 + 500);
    assert_int_equal(t.stats.requests, 8 + 1001);
    /* Inline replies are in the transcripts too, and the quit. */
    snprintf(cmd, sizeof cmd,
             "test $(zcat %s/*.log.gz | grep -c ' rep [0-9]*: ') = 1008 && "
             "zcat %s/*.log.gz | grep -q ' rep 4: d' && zcat %s/*.log.gz | grep -q ' quit'",
             t.logdir, t.logdir, t.logdir);
    assert_int_equal(system(cmd), 0);
    buf_free(&many);
    buf_free(&want);
    buf_free(&got);
}

/* One worker, busy with another connection's slow request: cheap lines are
 * still answered (by the loop) while it runs. */
static void test_server_inline_isolation(void **state)
{
    (void)state;
    TestServer t;
    server_up_with(&t, 0, 0, false, 1, true);
    int slow = dial(&t, false);
    send_all(slow, "sleep 600 slow\n", 15);
    sleep_ms(50); /* let the worker take it */
    int fast = dial(&t, true);
    Buf got;
    buf_init(&got);
    send_all(fast, "one\ntwo\n", 8);
    recv_lines(fast, &got, 2);
    assert_string_equal(got.data, "1: one\n2: two\n");
    /* ...while the slow one is still at work. */
    struct pollfd pfd = {.fd = slow, .events = POLLIN};
    assert_int_equal(poll(&pfd, 1, 0), 0);
    /* A slow line of the fast connection waits for the one worker; the
     * cheap line behind it waits for it in turn. */
    send_all(fast, "sleep 10 three\nfour\n", 20);
    recv_lines(slow, &got, 1);
    assert_string_equal(got.data, "1: sleep 600 slow\n");
    recv_lines(fast, &got, 2);
    assert_string_equal(got.data, "3: sleep 10 three\n4: four\n");
    close(slow);
    close(fast);
    server_down(&t);
    assert_int_equal(atomic_load(&t.ctx.on_loop), 3);
    assert_int_equal(atomic_load(&t.ctx.slow_on_loop), 0);
    buf_free(&got);
}

static void test_proto_is_cheap(void **state)
{
    (void)state;
    ProtoConfig at0 = {.engine = NULL, .plies = 0, .max_plies = 2};
    ProtoConfig at2 = {.engine = NULL, .plies = 2, .max_plies = 2};
    static const char board[] =
        "board:You:gnubg:1:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
        "1:6:5:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0";
    char line[512];
    struct {
        const char *text; /* @: the board */
        bool at0, at2;
    } cases[] = {
        {"version", true, true},
        {"help", true, true},
        {"set debug on", true, true},
        {"exit", true, true},
        {"", true, true},
        {"quit", true, true},
        {"  set boards fibs", true, true},
        {"\tversion", true, true},
        {"versions", false, false},         /* unknown commands are not cheap */
        {"nonsense words", false, false},
        {"exiting now", false, false},
        {"@", true, false},
        {"  @", true, false},
        {"@ jacobyrule off", true, false},
        {"BOARD:a:b:1", true, false},
        {"evaluation fibsboard @", true, true},
        {"EVALUATION fibsboard @ plies 0 cubeful", true, true},
        {"evaluation fibsboard @ plies 1", false, false},
        {"evaluation fibsboard @ plies\t2", false, false},
        {"evaluation fibsboard @ PLIES 3", false, false},
        {"evaluation fibsboard @ plies 0 plies 2", false, false},
        {"evaluation fibsboard @ plies 00", false, false}, /* unsure: not cheap */
        {"evaluation fibsboard @ plies", false, false},
        {"evaluations fibsboard @ plies 2", false, false}, /* an unknown command */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *at = strchr(cases[i].text, '@');
        if (at)
            snprintf(line, sizeof line, "%.*s%s%s", (int)(at - cases[i].text), cases[i].text,
                     board, at + 1);
        else
            snprintf(line, sizeof line, "%s", cases[i].text);
        if (proto_is_cheap(&at0, line, strlen(line)) != cases[i].at0)
            fail_msg("'%s' at 0 plies: expected %s", line, cases[i].at0 ? "cheap" : "not");
        if (proto_is_cheap(&at2, line, strlen(line)) != cases[i].at2)
            fail_msg("'%s' at 2 plies: expected %s", line, cases[i].at2 ? "cheap" : "not");
    }
    /* gnubg's leading NUL, and a line the lexer refuses for its length. */
    assert_false(proto_is_cheap(&at2, "\0board:x", 8));
    char big[2048];
    memset(big, ' ', sizeof big);
    memcpy(big + 1500, "board:x", 7);
    assert_true(proto_is_cheap(&at2, big, sizeof big));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_framing_lines),
        cmocka_unit_test(test_framing_nul),
        cmocka_unit_test(test_framing_limit),
        cmocka_unit_test(test_parse_addresses),
        cmocka_unit_test(test_listeners),
        cmocka_unit_test(test_txlog_round_trip),
        cmocka_unit_test(test_txlog_cut),
        cmocka_unit_test(test_txlog_full),
        cmocka_unit_test(test_txlog_long_lines),
        cmocka_unit_test(test_worker_pool),
        cmocka_unit_test(test_server_pipelining),
        cmocka_unit_test(test_server_isolation),
        cmocka_unit_test(test_server_timeouts),
        cmocka_unit_test(test_server_stop),
        cmocka_unit_test(test_server_inline_order),
        cmocka_unit_test(test_server_inline_isolation),
        cmocka_unit_test(test_proto_is_cheap),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
