/* cli_opt.h - what every command does the same way with its options and
 * its errors: a usage error is one line naming what was wrong and a second
 * with the way to the help, never the whole help; getopt_long's complaints
 * (unknown, ambiguous, missing value, value not wanted) become such a line;
 * and with --json a refused item is answered on standard output too, so a
 * program reading the JSON learns of it.
 *
 * The commands parse with getopt_long: --opt=value, --opt value and any
 * unambiguous abbreviation of a long option work everywhere, and numbers are
 * read with num.h. */
#ifndef SHESH_CLI_OPT_H
#define SHESH_CLI_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "err.h"

/* Prints "shesh CMD: MESSAGE" and "try 'shesh CMD --help'" on stderr and
 * returns EXIT_USAGE. cmd is the command as the user typed it ("selfplay",
 * "id decode"). */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Starts a getopt_long loop over argv (argv[0] is the command): getopt
 * reports nothing itself, and a leading ':' in the short options (which
 * every command's optstring has) makes a missing value ':'. */
void cli_getopt_start(void);

/* The usage error for what getopt_long returned when it was neither an
 * option nor -1 ('?' or ':'): the option named, and why. longopts is the
 * table given to getopt_long. Returns EXIT_USAGE. */
int cli_option_error(const char *cmd, int c, char **argv, const struct option *longopts);

/* An item's error as one JSON object on its own line in out, {"input":
 * INPUT, "error": MESSAGE} (without "input" when input is NULL): the --json
 * answer of a single item that was refused. */
void cli_json_error(Buf *out, const char *input, const char *message);

/* --shard K/N, as shesh match and shesh rollout take it: 1 <= K <= N <=
 * 100000, into shard[0] = K, shard[1] = N. */
bool cli_parse_shard(const char *arg, int shard[2], Err *err);

/* --weights FILE as every engine command takes it: *out = arg; false
 * (err says why) for an empty name. */
bool cli_weights_option(const char *arg, const char **out, Err *err);

/* The online processors, 1 to 256: the default number of games or trials
 * run at once. */
int cli_cores(void);

#endif
