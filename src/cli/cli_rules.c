/* cli_rules.c - `shesh rules`: the rules value that a set of rules options
 * (a preset and individual flags, src/cli/rules_cli.h) makes, field by field, so
 * a user can check a combination before playing under it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "json.h"
#include "rules.h"
#include "rules_cli.h"

static void rules_usage(FILE *out)
{
    fprintf(out, "usage: shesh rules [--length N] [--json] [RULES OPTIONS]\n\n"
                 "Shows the rules the options make, one field a line (or one JSON object),\n"
                 "and the one-line description used in debug output and records.\n\n"
                 "  --length N   describe them for an N-point match (default 0: money)\n"
                 "  --json       one JSON object\n\n"
                 "Rules options (a preset first, then individual fields):\n%s\n"
                 "Presets:",
            rules_cli_help);
    for (const char *const *p = rules_preset_names; *p; p++)
        fprintf(out, " %s", *p);
    fprintf(out, "\n\nExit status: 0 the rules are consistent, 1 they are not (the message\n"
                 "says why), 2 usage.\n");
}

static const char *opening_name(OpeningRule o)
{
    return o == OPENING_REROLL ? "reroll" : "play";
}

static const char *later_name(LaterGamesRule l)
{
    return l == LATER_WINNER_STARTS ? "winner-starts" : "opening-roll";
}

static void print_text(const Rules *r, const char *description)
{
    printf("opening       %s\n", opening_name(r->opening));
    printf("later_games   %s\n", later_name(r->later_games));
    printf("backgammons   %s\n", r->backgammons ? "yes" : "no");
    printf("star_mars     %s\n", r->star_mars ? "yes" : "no");
    printf("cube          %s\n", r->cube ? "yes" : "no");
    printf("crawford      %s\n", r->crawford ? "yes" : "no");
    printf("holland       %s\n", r->holland ? "yes" : "no");
    printf("jacoby        %s\n", r->jacoby ? "yes" : "no");
    printf("beavers       %d\n", r->beavers);
    printf("auto_doubles  %d\n", r->auto_doubles);
    printf("max_cube      %d\n", r->max_cube);
    printf("description   %s\n", description);
}

static void print_json(const Rules *r, const char *description)
{
    Buf b;
    buf_init(&b);
    buf_printf(&b,
               "{\"opening\": \"%s\", \"later_games\": \"%s\", \"backgammons\": %s, "
               "\"star_mars\": %s, \"cube\": %s, \"crawford\": %s, \"holland\": %s, "
               "\"jacoby\": %s, \"beavers\": %d, \"auto_doubles\": %d, \"max_cube\": %d, "
               "\"description\": ",
               opening_name(r->opening), later_name(r->later_games),
               r->backgammons ? "true" : "false", r->star_mars ? "true" : "false",
               r->cube ? "true" : "false", r->crawford ? "true" : "false",
               r->holland ? "true" : "false", r->jacoby ? "true" : "false", r->beavers,
               r->auto_doubles, r->max_cube);
    json_string(&b, description);
    buf_puts(&b, "}\n");
    fwrite(b.data, 1, b.len, stdout);
    buf_free(&b);
}

int cli_rules(int argc, char **argv)
{
    enum { OPT_LENGTH = 1000, OPT_JSON, OPT_HELP };
    static const struct option own[] = {
        {"length", required_argument, NULL, OPT_LENGTH},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    if (rules_cli_merge(longopts, 64, own) < 0) {
        fprintf(stderr, "shesh rules: too many options\n");
        return EXIT_FAIL;
    }
    RulesCli rc;
    rules_cli_init(&rc);
    int length = 0;
    bool json = false;
    Err err;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *name = argv[optind - 1];
        if (rules_cli_handles(c)) {
            if (!rules_cli_apply(&rc, c, optarg, &err)) {
                fprintf(stderr, "shesh rules: %s\n", err.text);
                return EXIT_USAGE;
            }
            continue;
        }
        switch (c) {
        case OPT_LENGTH: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || v < 0 || v > 64) {
                fprintf(stderr, "shesh rules: --length '%s': expected 0 (money) to 64\n",
                        optarg);
                return EXIT_USAGE;
            }
            length = (int)v;
            break;
        }
        case OPT_JSON:
            json = true;
            break;
        case 'h':
        case OPT_HELP:
            rules_usage(stdout);
            return EXIT_OK;
        case ':':
            fprintf(stderr, "shesh rules: %s needs a value\n", name);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "shesh rules: unknown option '%s' (try 'shesh rules --help')\n",
                    name);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "shesh rules: unexpected argument '%s'\n", argv[optind]);
        return EXIT_USAGE;
    }
    Rules rules;
    if (!rules_cli_finish(&rc, &rules, &err)) {
        fprintf(stderr, "shesh rules: %s\n", err.text);
        return EXIT_FAIL;
    }
    char description[256];
    rules_describe(&rules, length, description, sizeof description);
    if (json)
        print_json(&rules, description);
    else
        print_text(&rules, description);
    return EXIT_OK;
}
