/* cli_rules.c - `shesh rules`: the rules value that a set of rules options
 * (a preset and individual flags, src/cli/rules_cli.h) makes, field by field, so
 * a user can check a combination before playing under it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "json.h"
#include "num.h"
#include "rules.h"
#include "rules_cli.h"

static void rules_usage(FILE *out)
{
    fprintf(out, "usage: shesh rules [--length N] [--json] [RULES OPTIONS]\n\n"
                 "Shows the rules the options make, one field a line (or one JSON object),\n"
                 "and the one-line description used in debug output and records.\n\n"
                 "  --length N   describe them for an N-point match (default 0: money)\n"
                 "  --json       one JSON object\n"
                 "  --help       this text\n\n"
                 "Rules options (a preset first, then individual fields):\n%s\n"
                 "Presets:",
            rules_cli_help);
    for (const char *const *p = rules_preset_names; *p; p++)
        fprintf(out, " %s", *p);
    fprintf(out, "\n\nWith --json, inconsistent rules are answered {\"error\": \"...\"}.\n"
                 "Long options may be abbreviated; a value follows as the next word or after =.\n"
                 "Exit status: 0 the rules are consistent, 1 they are not (the message\n"
                 "says why), 2 usage (an unknown option, a malformed value).\n");
}

static const char *opening_name(OpeningRule o)
{
    return o == OPENING_REROLL ? "reroll" : "play";
}

static const char *later_name(LaterGamesRule l)
{
    return l == LATER_WINNER_STARTS ? "winner-starts" : "opening-roll";
}

/* The option words of --backgammon-zone and --closed-out. */
static const char *zone_name(BackgammonZone z)
{
    return z == BG_ZONE_HOME ? "home" : "home-or-bar";
}

static const char *closed_out_name(ClosedOutRule c)
{
    return c == CLOSED_OUT_NO_ROLL ? "no-roll" : "roll";
}

static void print_text(const Rules *r, const char *description)
{
    printf("opening       %s\n", opening_name(r->opening));
    printf("later_games   %s\n", later_name(r->later_games));
    printf("backgammons   %s\n", r->backgammons ? "yes" : "no");
    printf("star_mars     %s\n", r->star_mars ? "yes" : "no");
    printf("backgammon_zone %s\n", zone_name(r->backgammon_zone));
    printf("doubling      %s\n", r->cube ? "yes" : "no");
    printf("crawford_rule %s\n", r->crawford ? "yes" : "no");
    printf("holland       %s\n", r->holland ? "yes" : "no");
    printf("jacoby        %s\n", r->jacoby ? "yes" : "no");
    printf("beavers       %d\n", r->beavers);
    printf("auto_doubles  %d\n", r->auto_doubles);
    printf("max_cube      %d\n", r->max_cube);
    printf("closed_out    %s\n", closed_out_name(r->closed_out));
    printf("description   %s\n", description);
}

static void print_json(const Rules *r, const char *description)
{
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "opening");
    json_str(&j, opening_name(r->opening));
    json_key(&j, "later_games");
    json_str(&j, later_name(r->later_games));
    json_key(&j, "backgammons");
    json_bool(&j, r->backgammons);
    json_key(&j, "star_mars");
    json_bool(&j, r->star_mars);
    json_key(&j, "backgammon_zone");
    json_str(&j, zone_name(r->backgammon_zone));
    /* "cube" is the cube's value and "crawford" the Crawford game in
     * `shesh id`'s output: the rules that allow them have names of their own */
    json_key(&j, "doubling");
    json_bool(&j, r->cube);
    json_key(&j, "crawford_rule");
    json_bool(&j, r->crawford);
    json_key(&j, "holland");
    json_bool(&j, r->holland);
    json_key(&j, "jacoby");
    json_bool(&j, r->jacoby);
    json_key(&j, "beavers");
    json_int(&j, r->beavers);
    json_key(&j, "auto_doubles");
    json_int(&j, r->auto_doubles);
    json_key(&j, "max_cube");
    json_int(&j, r->max_cube);
    json_key(&j, "closed_out");
    json_str(&j, closed_out_name(r->closed_out));
    json_key(&j, "description");
    json_str(&j, description);
    json_object_end(&j);
    buf_puts(&b, "\n");
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
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (rules_cli_handles(c)) {
            if (!rules_cli_apply(&rc, c, optarg, &err))
                return cli_usage_error("rules", "%s", err.text);
            continue;
        }
        switch (c) {
        case OPT_LENGTH:
            if (!num_int("--length", optarg, 0, 64, &length, &err))
                return cli_usage_error("rules", "%s", err.text);
            break;
        case OPT_JSON:
            json = true;
            break;
        case 'h':
        case OPT_HELP:
            rules_usage(stdout);
            return EXIT_OK;
        default:
            return cli_option_error("rules", c, argv, longopts);
        }
    }
    if (optind < argc)
        return cli_usage_error("rules", "unexpected argument '%s'", argv[optind]);
    Rules rules;
    if (!rules_cli_finish(&rc, &rules, &err)) {
        fprintf(stderr, "shesh rules: %s\n", err.text);
        if (json) {
            Buf b;
            buf_init(&b);
            cli_json_error(&b, NULL, err.text);
            fwrite(b.data, 1, b.len, stdout);
            buf_free(&b);
        }
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
