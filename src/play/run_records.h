/* run_records.h - the records of a run of pairs (duel.h), written pair by
 * pair as the pairs are handed on: the games as .mat text gnubg imports
 * (FILE.mat.gz, record_mat.h) and as JSON lines (FILE.jsonl.gz,
 * record_jsonl.h), both gzip files of one member per finished game,
 * written with one write() each, so a run killed at any moment leaves
 * files that decompress to every game before the one being written.
 *
 * A money session is one .mat session whose games follow each other (A
 * in the left column, the score running on); a run of matches is one .mat
 * match after another, each with its own header. */
#ifndef SHESH_RUN_RECORDS_H
#define SHESH_RUN_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duel.h"
#include "err.h"

typedef struct RunRecords RunRecords;

/* The .jsonl.gz beside a record's .mat.gz: NAME.mat.gz gives
 * NAME.jsonl.gz, any other name FILE gives FILE.jsonl.gz. */
void run_records_jsonl_path(const char *mat_path, char *out, size_t size);

/* True when path names a record's .mat.gz (it ends so). */
bool run_records_is_mat(const char *path);

/* Creates mat_path and jsonl_path (refused if either exists) for a run
 * between names[0] (A) and names[1] (B). */
RunRecords *run_records_create(const char *mat_path, const char *jsonl_path,
                               const char *const names[2], int match_to, const Rules *rules,
                               uint64_t seed, Err *err);

/* Opens the records of a run being resumed, to go on after what they hold:
 * `games` games and, in money play, the running score[] (run_read.h says
 * both; the files already cut to the end of their last complete pair). A
 * money session whose file holds nothing yet gets its header. */
RunRecords *run_records_open(const char *mat_path, const char *jsonl_path,
                             const char *const names[2], int match_to, const Rules *rules,
                             uint64_t seed, int64_t games, const int score[2], Err *err);

/* Writes the games of pair p. */
bool run_records_add(RunRecords *rr, const DuelPair *p, Err *err);

/* Games written so far. */
int64_t run_records_games(const RunRecords *rr);

/* Closes both files and gives the CRC-32 of each as written (the bytes of
 * the .gz files, as `crc32 FILE` prints it); rr is freed even on failure.
 * crc may be NULL. */
bool run_records_close(RunRecords *rr, uint32_t crc[2], Err *err);

#endif
