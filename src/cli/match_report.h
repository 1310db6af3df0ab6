/* match_report.h - the summary of a run of `shesh match` as text or as one
 * JSON object, printed the same way by `shesh match`, `shesh stats merge`
 * (shards combined) and `shesh records stats` (a run read back from its
 * records). The JSON carries the whole tally as integers ("tally"), which
 * is what the merge reads back (tally_json.h). */
#ifndef SHESH_MATCH_REPORT_H
#define SHESH_MATCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "tally.h"

typedef struct MatchReport {
    const Tally *tally;
    const char *players[2]; /* the specs as given */
    const char *names[2];   /* display names */
    uint64_t seed;
    const char *rules;      /* rules_describe() of the run's rules */
    int match_to;           /* 0 = money */
    double seconds;         /* wall time; < 0 unknown (read back) */
    int64_t games_timed;    /* the games played in that time (a resumed
                               run's tally holds more) */
    int concurrency;        /* 0 unknown */
    int shard[2];           /* K, N of --shard; 0 0 for a whole run */
    bool interrupted;
    int64_t faults;
    bool sprt_on;
    StatsSprt sprt;
    StatsSprtState sprt_state;
    const char *paths[2];   /* .mat.gz, .jsonl.gz; NULL without records */
    uint32_t crc[2];
} MatchReport;

void match_report_text(const MatchReport *m, FILE *out);
void match_report_json(const MatchReport *m, FILE *out);

#endif
