/* cli_stats.c - `shesh stats merge FILE...`: the summaries (--json) or the
 * records (.jsonl.gz, or the .mat.gz beside one) of the shards of a run of
 * `shesh match`, added up into the summary one run would print. Every sum
 * is an integer (tally.h), so the merge is exact in any order. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>

#include "cli.h"
#include "cli_opt.h"
#include "match_report.h"
#include "run_read.h"
#include "run_records.h"
#include "tally_json.h"

#define CMD "stats"

/* One shard, read from its summary or its records. */
typedef struct Part {
    Tally tally;
    char names[2][32];
    char rules[256];
    int match_to;
    uint64_t seed;
    int shard[2];   /* 0 0: not a shard (or unknown: a record) */
    int64_t faults;
    bool interrupted;
} Part;

static void stats_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh stats merge [--json] FILE...\n\n"
            "Adds up the shards of a run of shesh match (each played with its shard\n"
            "option K/N) into the summary one run would print. A FILE is a shard's\n"
            "summary (shesh match --json > FILE) or its record (FILE.jsonl.gz, or the\n"
            "FILE.mat.gz beside it; a record cut short counts its complete pairs).\n"
            "Every shard must come from the same players, rules and seed, and no\n"
            "shard may come twice; the figures are exact.\n"
            "Games per second are not added up; decision times come from summaries\n"
            "(records keep none).\n\n"
            "  --json       the summary as one JSON object\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 merged, 1 a file unreadable or from another run, 2 usage.\n");
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

static bool str_field(const json_t *o, const char *key, char *out, size_t n, const char *path,
                      Err *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return err_set(err, "%s: \"%s\" is missing", path, key);
    snprintf(out, n, "%s", json_string_value(v));
    return true;
}

static bool read_summary(const char *path, Part *p, Err *err)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        return err_set(err, "%s: not a JSON summary (%s, line %d)", path, je.text, je.line);
    bool ok = false;
    char seed[32];
    const json_t *names = json_object_get(j, "names"), *shard = json_object_get(j, "shard");
    if (!json_is_array(names) || json_array_size(names) != 2) {
        err_set(err, "%s: \"names\" is missing", path);
        goto done;
    }
    for (int s = 0; s < 2; s++) {
        const char *n = json_string_value(json_array_get(names, (size_t)s));
        snprintf(p->names[s], sizeof p->names[s], "%s", n ? n : "");
    }
    if (!str_field(j, "rules", p->rules, sizeof p->rules, path, err) ||
        !str_field(j, "seed", seed, sizeof seed, path, err))
        goto done;
    p->seed = strtoull(seed, NULL, 10);
    p->match_to = (int)json_integer_value(json_object_get(j, "match_to"));
    p->faults = json_integer_value(json_object_get(j, "faults"));
    p->interrupted = json_is_true(json_object_get(j, "interrupted"));
    if (json_is_array(shard) && json_array_size(shard) == 2) {
        /* K/N as --shard takes it: K indexes the shards seen. */
        json_int_t k = json_integer_value(json_array_get(shard, 0)),
                   n = json_integer_value(json_array_get(shard, 1));
        if (n < 1 || n > 100000 || k < 1 || k > n) {
            err_set(err, "%s: \"shard\" is not K/N with 1 <= K <= N <= 100000", path);
            goto done;
        }
        p->shard[0] = (int)k;
        p->shard[1] = (int)n;
    }
    Err e = {{0}};
    if (!tally_json_read(json_object_get(j, "tally"), &p->tally, &e)) {
        err_set(err, "%s: %s", path, e.text);
        goto done;
    }
    ok = true;
done:
    json_decref(j);
    return ok;
}

/* The .jsonl.gz a record is read from: path itself, or the one beside a
 * .mat.gz. */
static void jsonl_of(const char *path, char *out, size_t size)
{
    if (run_records_is_mat(path))
        run_records_jsonl_path(path, out, size);
    else
        snprintf(out, size, "%s", path);
}

static bool read_record(const char *path, Part *p, Err *err)
{
    char jsonl[4096];
    if (strlen(path) > 4000)
        return err_set(err, "%.60s...: the name is too long", path);
    jsonl_of(path, jsonl, sizeof jsonl);
    RunRead *r = malloc(sizeof *r);
    if (!r)
        return err_set(err, "out of memory");
    Err e = {{0}};
    bool ok = run_read(jsonl, r, &e);
    if (!ok) {
        err_set(err, "%s", e.text);
    } else {
        if (r->status == GZ_CUT || r->partial)
            fprintf(stderr, "shesh: warning: %s is cut short; its %lld complete pairs count\n",
                    jsonl, (long long)r->pairs);
        p->tally = r->tally;
        memcpy(p->names, r->names, sizeof p->names);
        snprintf(p->rules, sizeof p->rules, "%s", r->rules);
        p->match_to = r->match_to;
        p->seed = r->seed;
        /* Every fault the record kept is a forfeit. */
        p->faults = r->tally.side[0].forfeits + r->tally.side[1].forfeits;
    }
    free(r);
    return ok;
}

/* The same run: players, rules and seed. */
static bool same_run(const Part *a, const Part *b, const char *path, Err *err)
{
    if (strcmp(a->names[0], b->names[0]) || strcmp(a->names[1], b->names[1]))
        return err_set(err, "%s: players %s and %s, not %s and %s", path, b->names[0],
                       b->names[1], a->names[0], a->names[1]);
    if (strcmp(a->rules, b->rules) || a->match_to != b->match_to)
        return err_set(err, "%s: rules '%s', not '%s'", path, b->rules, a->rules);
    if (a->seed != b->seed)
        return err_set(err, "%s: seed %llu, not %llu", path, (unsigned long long)b->seed,
                       (unsigned long long)a->seed);
    return true;
}

int cli_stats_merge(const char *cmd, char **files, int n, bool records_only, bool json)
{
    Part all, p;
    memset(&all, 0, sizeof all);
    Err err = {{0}};
    bool *seen = NULL; /* shards seen, for N known */
    int shards = 0, unknown = 0, status = EXIT_FAIL;
    bool interrupted = false;
    struct FileId {
        dev_t dev;
        ino_t ino;
    } *ids = calloc((size_t)n, sizeof *ids);
    if (!ids) {
        err_set(&err, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        memset(&p, 0, sizeof p);
        const char *f = files[i];
        bool record = ends_with(f, ".gz");
        if (records_only && !record) {
            err_set(&err, "%s: a record is a .mat.gz or .jsonl.gz file", f);
            goto done;
        }
        /* The same file twice would count its games twice (a record is
         * read from its .jsonl.gz, whichever of its two files is named). */
        char jsonl[4096];
        jsonl_of(f, jsonl, sizeof jsonl);
        struct stat st;
        if (stat(record ? jsonl : f, &st) != 0) {
            err_set(&err, "%s: %s", record ? jsonl : f, strerror(errno));
            goto done;
        }
        for (int k = 0; k < i; k++)
            if (ids[k].dev == st.st_dev && ids[k].ino == st.st_ino) {
                err_set(&err, "%s: given twice", f);
                goto done;
            }
        ids[i].dev = st.st_dev;
        ids[i].ino = st.st_ino;
        if (!(record ? read_record(f, &p, &err) : read_summary(f, &p, &err)))
            goto done;
        if (i > 0 && !same_run(&all, &p, f, &err))
            goto done;
        unknown += p.shard[1] == 0;
        if (p.shard[1] > 0) {
            if (shards == 0) {
                shards = p.shard[1];
                if (!(seen = calloc((size_t)shards + 1, sizeof *seen))) {
                    err_set(&err, "out of memory");
                    goto done;
                }
            }
            if (p.shard[1] != shards) {
                err_set(&err, "%s: a shard of %d, the others of %d", f, p.shard[1], shards);
                goto done;
            }
            if (seen[p.shard[0]]) {
                err_set(&err, "%s: shard %d/%d given twice", f, p.shard[0], shards);
                goto done;
            }
            seen[p.shard[0]] = true;
        }
        if (i == 0) {
            Tally t = {0};
            all = p;
            all.tally = t;
            all.faults = 0;
        }
        if (!tally_merge(&all.tally, &p.tally)) {
            err_set(&err, "the sums overflowed");
            goto done;
        }
        all.faults += p.faults;
        interrupted = interrupted || p.interrupted;
    }
    int missing = 0;
    for (int k = 1; k <= shards; k++)
        missing += !seen[k];
    if (missing && !unknown)
        fprintf(stderr, "shesh %s: warning: %d of the %d shards %s missing\n", cmd, missing,
                shards, missing == 1 ? "is" : "are");
    MatchReport m = {
        .tally = &all.tally,
        .players = {all.names[0], all.names[1]},
        .names = {all.names[0], all.names[1]},
        .seed = all.seed,
        .rules = all.rules,
        .match_to = all.match_to,
        .seconds = -1,
        .interrupted = interrupted,
        .faults = all.faults,
    };
    if (json)
        match_report_json(&m, stdout);
    else
        match_report_text(&m, stdout);
    status = EXIT_OK;
done:
    if (status != EXIT_OK)
        fprintf(stderr, "shesh %s: %s\n", cmd, err.text);
    free(seen);
    free(ids);
    return status;
}

int cli_stats(int argc, char **argv)
{
    enum { OPT_JSON = 256 };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == OPT_JSON) {
            json = true;
            continue;
        }
        if (c != 'h')
            return cli_option_error(CMD, c, argv, longopts);
        stats_usage(stdout);
        return EXIT_OK;
    }
    if (optind >= argc)
        return cli_usage_error(CMD, "expected an action: merge FILE...");
    if (strcmp(argv[optind], "merge") != 0)
        return cli_usage_error(CMD, "unknown action '%s': the action is merge", argv[optind]);
    if (argc - optind < 2)
        return cli_usage_error(CMD, "merge needs at least one FILE");
    return cli_stats_merge("stats", argv + optind + 1, argc - optind - 1, false, json);
}
