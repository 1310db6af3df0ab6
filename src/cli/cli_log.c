/* cli_log.c - `shesh log cat FILE...`: prints server transcripts (txlog.h),
 * one entry a line: timestamp, kind, text. Files cut short by a killed
 * server print up to the cut, with a warning. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "txlog.h"

static void log_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh log cat FILE...\n\n"
            "Prints the transcripts 'shesh serve --log-dir' writes, one entry a line:\n"
            "UTC timestamp, kind, text. Kinds: req (a request as received), long (a\n"
            "request over the line limit: its first bytes), rep (a reply as sent), quit\n"
            "(the client closed with exit/quit), note (connects, closes, timeouts).\n"
            "Bytes outside printable ASCII are written \\n, \\r, \\t, \\\\ or \\xHH.\n"
            "A file cut short (the server was killed) prints up to the cut.\n\n"
            "Exit status: 0 done (also for a cut file), 1 unreadable or not a\n"
            "transcript, 2 usage.\n");
}

/* Prints one file; returns false if it could not be read to its end. */
static bool cat_one(const char *path, Buf *line)
{
    Err err;
    TxReader *r = txlog_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "shesh log: %s\n", err.text);
        return false;
    }
    TxEntry e;
    buf_init(&e.data);
    TxStatus st;
    while ((st = txlog_read(r, &e, &err)) == TXLOG_ENTRY) {
        buf_clear(line);
        buf_printf(line, "%s %s ", e.stamp, txlog_kind_name(e.kind));
        txlog_escape(line, e.data.data, e.data.len);
        buf_append(line, "\n", 1);
        fwrite(line->data, 1, line->len, stdout);
    }
    buf_free(&e.data);
    txlog_reader_close(r);
    fflush(stdout);
    if (st == TXLOG_CUT)
        fprintf(stderr, "shesh log: warning: %s\n", err.text);
    else if (st == TXLOG_BAD)
        fprintf(stderr, "shesh log: %s\n", err.text);
    return st != TXLOG_BAD;
}

int cli_log(int argc, char **argv)
{
    if ((argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) ||
        (argc >= 3 && !strcmp(argv[1], "cat") &&
         (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")))) {
        log_usage(stdout);
        return EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "cat") != 0) {
        if (argc >= 2 && strcmp(argv[1], "cat") != 0)
            fprintf(stderr, "shesh log: unknown action '%s'\n", argv[1]);
        log_usage(stderr);
        return EXIT_USAGE;
    }
    Buf line;
    buf_init(&line);
    bool ok = true;
    for (int i = 2; i < argc; i++) {
        if (argc > 3)
            printf("%s==> %s <==\n", i > 2 ? "\n" : "", argv[i]);
        ok &= cat_one(argv[i], &line);
    }
    buf_free(&line);
    return ok ? EXIT_OK : EXIT_FAIL;
}
