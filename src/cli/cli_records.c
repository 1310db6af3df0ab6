/* cli_records.c - `shesh records cat FILE`: a compressed game record
 * (record_mat.h) as the plain Jellyfish .mat text gnubg imports, since gnubg
 * cannot read it compressed. A record cut short (its writer was killed)
 * prints every game finished before the cut, with a warning. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "num.h"
#include "record_mat.h"

static void records_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh records cat [--match K] FILE\n"
            "       shesh records stats [--json] FILE\n\n"
            "Prints a game record (a gzip-compressed Jellyfish .mat file, one gzip\n"
            "member per finished game) as plain .mat text, which GNU Backgammon\n"
            "imports:\n\n"
            "    shesh records cat FILE > f.mat\n"
            "    then in gnubg: import mat f.mat\n\n"
            "A record cut short (its writer was killed mid-write) prints every game\n"
            "finished before the cut and a warning on stderr. A record of several\n"
            "matches (shesh match --match-to) holds one after the other; gnubg imports\n"
            "the first of a file, so --match K prints match K alone. docs/records.md\n"
            "describes the format and what gnubg makes of each rule.\n\n"
            "stats recomputes the summary of shesh match from a record it wrote (the\n"
            "FILE.jsonl.gz beside FILE.mat.gz; decision times are not in records).\n\n"
            "  --match K    only the K-th match of the record (1 = the first)\n"
            "  --json       stats: the summary as one JSON object\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 printed (also for a cut record, after its warning), 1 the\n"
            "file is unreadable, not a record or damaged, 2 usage.\n");
}

/* Where match k (1-based) of a record of several starts and ends: each
 * match starts with its header, whose first line names player 1. */
static bool match_span(const Buf *text, int k, size_t *from, size_t *to, int *count)
{
    static const char head[] = "; [Player 1 ";
    const char *t = text->data ? text->data : "";
    *count = 0;
    *from = *to = text->len;
    for (const char *p = t; (p = strstr(p, head)); p++) {
        if (p != t && p[-1] != '\n')
            continue;
        ++*count;
        size_t at = (size_t)(p - t);
        if (*count == k)
            *from = at;
        else if (*count == k + 1)
            *to = at;
    }
    return k >= 1 && k <= *count;
}

static int records_cat(const char *path, int match)
{
    Buf text;
    buf_init(&text);
    Err err;
    GzStatus st = record_file_read(path, &text, &err);
    if (st == GZ_BAD) {
        fprintf(stderr, "shesh records: %s\n", err.text);
        buf_free(&text);
        return EXIT_FAIL;
    }
    size_t from = 0, to = text.len;
    int matches = 0;
    if (match > 0 && !match_span(&text, match, &from, &to, &matches)) {
        fprintf(stderr, "shesh records: '%s' holds %d match%s%s, no match %d\n", path, matches,
                matches == 1 ? "" : "es", st == GZ_CUT ? " before its cut" : "", match);
        buf_free(&text);
        return EXIT_FAIL;
    }
    int games = 0; /* finished games printed: lines starting " Game " */
    for (const char *p = text.data ? text.data + from : NULL;
         p && (p = strstr(p, "\n Game ")) && (size_t)(p - text.data) < to; p++)
        games++;
    bool ok = fwrite(text.data ? text.data + from : "", 1, to - from, stdout) == to - from;
    ok = fflush(stdout) == 0 && ok;
    buf_free(&text);
    if (!ok) {
        fprintf(stderr, "shesh records: cannot write the text: %s\n", strerror(errno));
        return EXIT_FAIL;
    }
    if (st == GZ_CUT)
        fprintf(stderr, "shesh records: warning: %s; printed the %d game%s before the cut\n",
                err.text, games, games == 1 ? "" : "s");
    return EXIT_OK;
}

int cli_records(int argc, char **argv)
{
    enum { OPT_MATCH = 256, OPT_JSON };
    static const struct option longopts[] = {
        {"match", required_argument, NULL, OPT_MATCH},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c, match = 0;
    bool json = false;
    Err err = {{0}};
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == OPT_JSON) {
            json = true;
            continue;
        }
        if (c == OPT_MATCH) {
            if (!num_int("--match", optarg, 1, 100000000, &match, &err))
                return cli_usage_error("records", "%s", err.text);
            continue;
        }
        if (c != 'h')
            return cli_option_error("records", c, argv, longopts);
        records_usage(stdout);
        return EXIT_OK;
    }
    if (optind >= argc)
        return cli_usage_error("records", "expected an action: cat FILE or stats FILE");
    if (!strcmp(argv[optind], "stats")) {
        if (argc - optind != 2)
            return cli_usage_error("records", "stats takes one FILE");
        return cli_stats_merge("records", argv + optind + 1, 1, true, json);
    }
    if (strcmp(argv[optind], "cat") != 0)
        return cli_usage_error("records", "unknown action '%s': the actions are cat and stats",
                               argv[optind]);
    if (argc - optind != 2)
        return cli_usage_error("records", "%s", argc - optind < 2 ? "cat needs the FILE of a record"
                                                   : "cat takes one FILE");
    return records_cat(argv[optind + 1], match);
}
