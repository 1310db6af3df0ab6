/* record_mat.h - records as Jellyfish .mat text, the match format gnubg 1.07
 * imports (`import mat`), and as compressed record files.
 *
 * The text follows what gnubg's reader (import.c) accepts, as
 * /work/shared/docs/formats.md 1.1 and docs/records.md describe: header
 * comments `; [Key "Value"]`, ` N point match` (0: a money session), then
 * per game ` Game k`, the names and scores before it, numbered lines of two
 * columns (player 0 left, player 1 right) with cells like `31: 8/5 6/5`,
 * `52:` (no legal move), ` Doubles => 2`, ` Takes`, ` Drops`,
 * ` Beavers => 4` and ` Raccoons => 8` (chosen so that gnubg's reader
 * follows them: record_mat.c says how), and `Wins N point(s)` under the
 * winner.
 * Rules the format cannot carry are named in a header comment.
 *
 * A record file is that text gzip-compressed, the header one gzip member
 * and then each finished game its own member, each written with a single
 * write() as the game ends (gzmember.h): a file cut by a kill decompresses
 * to every game finished before it. The same games give the same bytes. */
#ifndef SHESH_RECORD_MAT_H
#define SHESH_RECORD_MAT_H

#include <stdbool.h>

#include "buf.h"
#include "err.h"
#include "gzmember.h"
#include "record.h"

/* Appends the header: comments and the ` N point match` line. */
void record_mat_header(const Record *r, Buf *out);

/* Appends game `game` (0-based), which must be finished. */
bool record_mat_game(const Record *r, int game, Buf *out, Err *err);

/* The same, numbered `number` with the score before it given: a long
 * money session is written game by game from records of one game each. */
bool record_mat_game_as(const Record *r, int game, int number, const int score[2], Buf *out,
                        Err *err);

/* Appends the header and every finished game. */
void record_mat(const Record *r, Buf *out);

/* --- record files --- */

typedef struct RecordFile RecordFile;

/* Creates path (refused if it exists) and writes r's header into it. */
RecordFile *record_file_create(const char *path, const Record *r, Err *err);
/* Writes every finished game of r not written yet, each as its own gzip
 * member: call it when a game ends. */
bool record_file_sync(RecordFile *f, const Record *r, Err *err);
/* Games written so far. */
int record_file_games(const RecordFile *f);
/* Closes the file (f is freed even when that fails). */
bool record_file_close(RecordFile *f, Err *err);

/* Reads a record file back as .mat text. GZ_CUT: the file was cut short
 * (out holds the header and every game before the cut). GZ_BAD: not a
 * record file, or damaged. */
GzStatus record_file_read(const char *path, Buf *out, Err *err);

#endif
