/* run_read.h - a run of `shesh match` read back from its .jsonl.gz record
 * (record_jsonl.h): the tally of its complete pairs, for `shesh records
 * stats`, `shesh stats merge` of records, and `--resume`.
 *
 * Pairs are written whole and in order (run_records.h), so a record cut
 * by a kill holds complete pairs and then at most part of one: that part
 * is left out, and the offsets say where each file's complete pairs end,
 * so that a resumed run can cut the files there and go on. Decision times
 * are not in records: the tally read has none. */
#ifndef SHESH_RUN_READ_H
#define SHESH_RUN_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "gzmember.h"
#include "tally.h"

typedef struct RunRead {
    /* What the run was (from its first game; every line must agree). */
    char names[2][32];
    char rules[256];    /* rules_describe() */
    int match_to;
    uint64_t seed;
    bool any;           /* at least one game was read */

    Tally tally;        /* of the complete pairs */
    int64_t pairs;      /* complete pairs */
    int64_t first_pair, step; /* their indices: first_pair + i * step
                                 (step 0 with fewer than two pairs) */
    int64_t last_pair;  /* index of the last complete pair, -1 none */
    int64_t games;      /* games of the complete pairs */
    int score[2];       /* money: A's and B's points after them */
    int64_t mat_members; /* .mat.gz members those games take: the
                            header (money) or a header per match, and a
                            member per game */
    long long jsonl_end; /* the .jsonl.gz offset after them */
    GzStatus status;    /* GZ_CUT: the file was cut (a game left out) */
    bool partial;       /* a pair was begun and not finished */
} RunRead;

/* Reads path. False (err says why) when it is no such record, or damaged
 * in a way a cut cannot explain (lines out of order, fields missing). */
bool run_read(const char *path, RunRead *out, Err *err);

/* The offset in a .mat.gz record after its first `members` members, or -1
 * when it has fewer (err says so). */
long long run_read_mat_end(const char *path, int64_t members, Err *err);

#endif
