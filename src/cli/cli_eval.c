/* cli_eval.c - `shesh eval`: what the engine thinks of a position, the
 * player to act about to roll: the five chances, the cubeless and the
 * cubeful equity (money, per cube unit) or match winning chance (match
 * play), at the depth asked. A Position ID is a money position with the
 * cube centred; a GNUBG-ID or XGID brings its cube and score. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_lines.h"
#include "cli_opt.h"
#include "cli_position.h"
#include "engine.h"
#include "num.h"
#include "rules_cli.h"
#include "search.h"

#define CMD "eval"
#define EVAL_LINE_MAX 512

static void eval_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh eval [--plies N] [--weights F] [--json] [RULES OPTIONS] ID...\n"
            "       shesh eval [--plies N] [--weights F] [--json] [RULES OPTIONS] -\n\n"
            "Evaluates each position for the player to act, about to roll: the chances\n"
            "to win, win a gammon, win a backgammon, lose a gammon and lose a\n"
            "backgammon, and the cubeless and cubeful equity (money play, per cube\n"
            "unit) or match winning chance (match play). ID is a Position ID (money,\n"
            "cube centred), a GNUBG-ID (POSID:MATCHID) or an XGID, which bring the\n"
            "cube and the score; a position whose game is over, or with a double or\n"
            "resignation waiting, is refused; dice in the ID are left out (the\n"
            "position is valued before the roll). With -, one ID a line from standard\n"
            "input (blank lines and lines starting with # skipped).\n\n"
            "  --plies N    lookahead, 0 to %d (default 0)\n"
            "  --weights F  evaluate with the network file F, not the one compiled in\n"
            "  --json       one JSON object a position\n"
            "  -h, --help   this text\n\n"
            "The rules the equities count by (those of shesh rules; a GNUBG-ID or\n"
            "XGID brings its own Jacoby rule, beavers and cube limit):\n%s\n"
            "Exit status: 0 every position evaluated, 1 one refused (the others are\n"
            "still evaluated), 2 usage.\n",
            SEARCH_MAX_PLIES, rules_cli_help);
}

typedef struct Job {
    const Engine *engine;
    EngineScratch *scratch;
    int plies;
    bool json;
    Rules rules;
} Job;

typedef struct Answer {
    Evaluation cubeless, cubeful;
    CubeState cs; /* the cube and score the position was valued with */
} Answer;

static bool evaluate(const Job *j, const char *id, Answer *a, Err *err)
{
    Position p;
    if (!cli_read_position(id, &j->rules, &p, &a->cs, NULL, err))
        return false;
    EvalOptions less = {j->plies, false}, ful = {j->plies, true};
    return engine_evaluate(j->engine, j->scratch, &p, &a->cs, &less, &a->cubeless, err) ==
               ENGINE_OK &&
           engine_evaluate(j->engine, j->scratch, &p, &a->cs, &ful, &a->cubeful, err) ==
               ENGINE_OK;
}

static void print_text(const char *id, const Answer *a, int plies)
{
    const Evaluation *e = &a->cubeless;
    int match_to = a->cs.match_length;
    if (match_to)
        printf("%s: %d-point match, cube %d %s, %d %s\n", id, match_to, a->cs.cube,
               answer_cube_owner(&a->cs), plies, plies == 1 ? "ply" : "plies");
    else
        printf("%s: money, cube %d %s, %d %s\n", id, a->cs.cube, answer_cube_owner(&a->cs), plies,
               plies == 1 ? "ply" : "plies");
    printf("  win %.4f  win gammon %.4f  win backgammon %.4f  lose gammon %.4f  "
           "lose backgammon %.4f\n",
           e->p_win, e->p_win_gammon, e->p_win_bg, e->p_lose_gammon, e->p_lose_bg);
    if (match_to)
        printf("  match winning chance: cubeless %.4f, cubeful %.4f\n", a->cubeless.equity,
               a->cubeful.equity);
    else
        printf("  equity: cubeless %+.4f, cubeful %+.4f\n", a->cubeless.equity,
               a->cubeful.equity);
}

static void print_json(const char *id, const Answer *a, int plies)
{
    Buf b;
    buf_init(&b);
    answer_json_eval(&b, id, &a->cs, plies, &a->cubeless, &a->cubeful);
    printf("%s\n", b.data);
    buf_free(&b);
}

/* One ID: printed, or its error (on stdout as JSON, else on stderr). */
static bool one(const Job *j, const char *id)
{
    Answer a;
    Err err = {{0}};
    if (!evaluate(j, id, &a, &err)) {
        cli_item_error(CMD, id, err.text, j->json);
        return false;
    }
    if (j->json)
        print_json(id, &a, j->plies);
    else
        print_text(id, &a, j->plies);
    return true;
}

static bool one_line(void *ctx, char *line)
{
    return one(ctx, line);
}

int cli_eval(int argc, char **argv)
{
    enum { OPT_PLIES = 256, OPT_JSON, OPT_WEIGHTS };
    static const struct option own[] = {
        {"plies", required_argument, NULL, OPT_PLIES},
        {"json", no_argument, NULL, OPT_JSON},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option opts[64];
    if (rules_cli_merge(opts, 64, own) < 0)
        return cli_usage_error(CMD, "too many options");
    Job j = {NULL, NULL, 0, false, rules_default()};
    RulesCli rc;
    rules_cli_init(&rc);
    const char *weights = NULL; /* --weights: NULL for the compiled-in network */
    Err err = {{0}};
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (rules_cli_handles(c)) {
            if (!rules_cli_apply(&rc, c, optarg, &err))
                return cli_usage_error(CMD, "%s", err.text);
            continue;
        }
        switch (c) {
        case OPT_PLIES:
            if (!num_int("--plies", optarg, 0, SEARCH_MAX_PLIES, &j.plies, &err))
                return cli_usage_error(CMD, "%s", err.text);
            break;
        case OPT_JSON: j.json = true; break;
        case OPT_WEIGHTS:
            if (!cli_weights_option(optarg, &weights, &err))
                return cli_usage_error(CMD, "%s", err.text);
            break;
        case 'h': eval_usage(stdout); return EXIT_OK;
        default: return cli_option_error(CMD, c, argv, opts);
        }
    }
    if (!rules_cli_finish(&rc, &j.rules, &err))
        return cli_usage_error(CMD, "%s", err.text);
    if (optind >= argc)
        return cli_usage_error(CMD, "give an ID, or - to read them from standard input");
    bool from_stdin = !strcmp(argv[optind], "-");
    if (from_stdin && argc - optind > 1)
        return cli_usage_error(CMD, "- reads the IDs from standard input: no others with it");
    Engine *e = engine_new_with("default", weights, &err);
    EngineScratch *sc = e ? engine_scratch_new(&err) : NULL;
    if (!sc) {
        fprintf(stderr, "shesh eval: %s\n", err.text);
        engine_free(e);
        return EXIT_FAIL;
    }
    j.engine = e;
    j.scratch = sc;
    int status = EXIT_OK;
    if (from_stdin)
        status = cli_each_line(stdin, CMD, EVAL_LINE_MAX, j.json, one_line, &j);
    else
        for (int i = optind; i < argc; i++)
            if (!one(&j, argv[i]))
                status = EXIT_FAIL;
    engine_scratch_free(sc);
    engine_free(e);
    return status;
}
