/* rules_cli.h - the rules as command-line options, for `shesh serve`,
 * `shesh match` and anything else that lets a user choose them.
 *
 * Every field of Rules has its own long option (see rules_cli_help), and
 * --rules PRESET starts from a preset. A command appends rules_cli_options to
 * its own getopt_long table (rules_cli_merge does it) and hands every option
 * value that rules_cli_handles() claims to rules_cli_apply(). The same
 * options can be set by name with rules_cli_set(), for configuration files or
 * protocol commands. Nothing here prints. */
#ifndef SHESH_RULES_CLI_H
#define SHESH_RULES_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "err.h"
#include "rules.h"

/* getopt_long returns RULES_CLI_OPT_BASE + k for the k-th rules option; far
 * above any character so it cannot clash with a command's short options. */
#define RULES_CLI_OPT_BASE 0x5200
#define RULES_CLI_FLAG_MAX 24

/* Rules being built from options. A preset replaces every field, so it must
 * come before the individual options: first_flag remembers the first one
 * seen so that a late preset is refused instead of silently undoing it. */
typedef struct RulesCli {
    Rules rules;
    char first_flag[RULES_CLI_FLAG_MAX];
} RulesCli;

/* The rules options, terminated by an all-zero entry. */
extern const struct option rules_cli_options[];

/* Usage lines for the rules options, one option per line, ending in '\n'. */
extern const char rules_cli_help[];

/* Starts from rules_default(). */
void rules_cli_init(RulesCli *c);

/* True when opt (a getopt_long return value) is one of the rules options. */
bool rules_cli_handles(int opt);

/* Applies the option getopt_long returned (opt) with its argument (optarg,
 * NULL for options without one). */
bool rules_cli_apply(RulesCli *c, int opt, const char *arg, Err *err);

/* Applies an option by its long name without the dashes ("no-crawford",
 * "beavers"). value is the argument; boolean options also take a value:
 * "jacoby" with "on"/"off" (also yes/no, true/false, 1/0) or NULL for on;
 * their "no-" forms take none. */
bool rules_cli_set(RulesCli *c, const char *name, const char *value, Err *err);

/* The finished rules, checked with rules_valid(). */
bool rules_cli_finish(const RulesCli *c, Rules *out, Err *err);

/* Writes a command's own options followed by the rules options and the
 * terminating zero entry into out (cap entries). Returns the number of
 * options written (without the terminator), or -1 if out is too small. */
int rules_cli_merge(struct option *out, int cap, const struct option *own);

#endif
