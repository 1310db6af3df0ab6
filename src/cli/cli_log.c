/* cli_log.c - `shesh log cat FILE...`: prints server transcripts (txlog.h),
 * one entry a line: timestamp, kind, text. Files cut short by a killed
 * server print up to the cut, with a warning. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
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
            "A file cut short (the server was killed) prints up to the cut. Files are\n"
            "read entry by entry; a line over 1 MiB (none is written) is damage.\n\n"
            "  --help   this text (also 'shesh log cat --help')\n\n"
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
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    /* `shesh log --help`, `shesh log cat --help`: the options come after
     * the command or after the action; they are parsed where they are. */
    bool cat = argc >= 2 && !strcmp(argv[1], "cat");
    int shift = cat ? 1 : 0;
    const char *cmd = cat ? "log cat" : "log";
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc - shift, argv + shift, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            log_usage(stdout);
            return EXIT_OK;
        }
        return cli_option_error(cmd, c, argv + shift, opts);
    }
    if (!cat && argc >= 2)
        return cli_usage_error("log", "unknown action '%s' (cat)", argv[1]);
    if (!cat)
        return cli_usage_error("log", "give an action: cat FILE...");
    int first = optind + shift;
    if (first >= argc)
        return cli_usage_error("log cat", "give one or more transcript FILEs");
    Buf line;
    buf_init(&line);
    bool ok = true;
    for (int i = first; i < argc; i++) {
        if (argc - first > 1)
            printf("%s==> %s <==\n", i > first ? "\n" : "", argv[i]);
        ok &= cat_one(argv[i], &line);
    }
    buf_free(&line);
    return ok ? EXIT_OK : EXIT_FAIL;
}
