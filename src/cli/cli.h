/* cli.h - the subcommands of the shesh binary. Each takes the arguments after
 * its own name (argv[0] is the subcommand name) and returns the exit status:
 * 0 success, 1 bad input or failure, 2 usage error. */
#ifndef SHESH_CLI_H
#define SHESH_CLI_H

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef struct CliCommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} CliCommand;

int cli_id(int argc, char **argv);
int cli_moves(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_selfplay(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_train(int argc, char **argv);
int cli_weights(int argc, char **argv);
int cli_label(int argc, char **argv);
int cli_label_merge(int argc, char **argv); /* `shesh label merge` */
int cli_rules(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_log(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_records(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_eval(int argc, char **argv);
int cli_hint(int argc, char **argv);
int cli_rollout(int argc, char **argv);
int cli_ubgi(int argc, char **argv);

/* The summary of the runs or shards in files (summaries or records), as
 * `shesh stats merge` prints it; `shesh records stats` is one record. */
#include <stdbool.h>
int cli_stats_merge(const char *cmd, char **files, int n, bool records_only, bool json);

#endif
