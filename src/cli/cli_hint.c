/* cli_hint.c - `shesh hint`: the engine's advice, as gnubg's hint gives
 * it. With dice, every legal move ranked as the engine ranks them at the
 * depth asked, each with its chances, cubeless and cubeful equity and its
 * difference to the best; without, the cube decision with the equities of
 * no double, double/take and double/pass and the right action. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_lines.h"
#include "cli_opt.h"
#include "cli_position.h"
#include "engine.h"
#include "movetext.h"
#include "num.h"
#include "posid.h"
#include "rules_cli.h"
#include "search.h"

#define CMD "hint"
#define HINT_LINE_MAX 512

static void hint_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh hint [--plies N] [--dice D] [--max K] [--weights F] [--json]\n"
            "                  [RULES OPTIONS] ID [DICE]\n"
            "       shesh hint [--plies N] [--max K] [--weights F] [--json]\n"
            "                  [RULES OPTIONS] -\n\n"
            "The engine's advice for the player to act. With a roll (DICE, --dice, or\n"
            "the dice of a GNUBG-ID or XGID): every legal move, ranked as the engine\n"
            "ranks them at N plies (its choice first; the moves it looked at deeper\n"
            "next; with the cube by the cubeful equity after them, without it by the\n"
            "cubeless), each with the depth it was valued at, the chances to win, win a\n"
            "gammon, win a backgammon, lose a gammon and lose a backgammon after it,\n"
            "the cubeless and cubeful equity (money, per cube unit; match winning\n"
            "chance in match play) and the cubeful difference to the first. Without a\n"
            "roll: the cube decision, with the equities of no double, double/take and\n"
            "double/pass and the right action. ID is a Position ID (money, cube\n"
            "centred), a GNUBG-ID or an XGID. With -, one 'ID [DICE]' a line from\n"
            "standard input (blank lines and lines starting with # skipped).\n\n"
            "  --plies N    lookahead, 0 to %d (default 0)\n"
            "  --dice D     the roll, as 31 or 3-1\n"
            "  --max K      moves shown, 1 to 1000 (default 10)\n"
            "  --weights F  play with the network file F, not the one compiled in\n"
            "  --json       one JSON object a position\n"
            "  -h, --help   this text\n\n"
            "The rules the equities count by (those of shesh rules; a GNUBG-ID or\n"
            "XGID brings its own Jacoby rule, beavers and cube limit):\n%s\n"
            "Exit status: 0 every position answered, 1 one refused (the others are\n"
            "still answered), 2 usage.\n",
            SEARCH_MAX_PLIES, rules_cli_help);
}

typedef struct Job {
    const Engine *engine;
    EngineScratch *scratch;
    int plies, max;
    bool json;
    EngineCandidate *cands;
    Rules rules;
} Job;

static void heading(const char *id, const int dice[2], const CubeState *cs, int plies)
{
    printf("%s", id);
    if (dice[0])
        printf(" %d%d", dice[0], dice[1]);
    if (cs->match_length)
        printf(": %d-point match, score %d-%d", cs->match_length, cs->score[SIDE_ROLLER],
               cs->score[SIDE_OPPONENT]);
    else
        printf(": money");
    printf(", cube %d %s, %d %s\n", cs->cube, answer_cube_owner(cs), plies,
           plies == 1 ? "ply" : "plies");
}

static bool hint_moves(const Job *jb, const char *id, const Position *p, const CubeState *cs,
                       const int dice[2], Err *err)
{
    int n;
    if (engine_hint_moves(jb->engine, jb->scratch, p, dice[0], dice[1], cs, jb->plies,
                          jb->cands, jb->max, &n, err) != ENGINE_OK)
        return false;
    char text[MOVETEXT_MAX];
    double best = n > 0 ? jb->cands[0].cubeful : 0;
    if (jb->json) {
        Buf b;
        buf_init(&b);
        answer_json_hint_moves(&b, id, p, cs, dice, jb->plies, jb->cands, n);
        printf("%s\n", b.data);
        buf_free(&b);
        return true;
    }
    heading(id, dice, cs, jb->plies);
    if (n == 0) {
        printf("  no legal move: the turn passes\n");
        return true;
    }
    printf("     %-24s ply  cubeful    diff  cubeless    win     wg    wbg     lg    lbg\n",
           "move");
    for (int i = 0; i < n; i++) {
        const EngineCandidate *c = &jb->cands[i];
        movetext_display(p, &c->move, text);
        char diff[16] = "";
        if (i > 0)
            snprintf(diff, sizeof diff, "%+.4f", c->cubeful - best);
        printf("  %2d %-24s %3d  %+.4f %7s   %+.4f  %.3f  %.3f  %.3f  %.3f  %.3f\n", i + 1, text,
               c->plies, c->cubeful, diff, c->ev.equity, c->ev.p_win, c->ev.p_win_gammon,
               c->ev.p_win_bg, c->ev.p_lose_gammon, c->ev.p_lose_bg);
    }
    return true;
}

static bool hint_cube(const Job *jb, const char *id, const Position *p, const CubeState *cs,
                      Err *err)
{
    EngineCubeHint h;
    if (engine_hint_cube(jb->engine, jb->scratch, p, cs, jb->plies, &h, err) != ENGINE_OK)
        return false;
    const int none[2] = {0, 0};
    const char *action = answer_cube_action(&h, cs);
    double best = h.no_double;
    if (h.may_double) {
        double d = h.double_take < h.double_pass ? h.double_take : h.double_pass;
        best = d > best ? d : best;
    }
    if (jb->json) {
        Buf b;
        buf_init(&b);
        answer_json_hint_cube(&b, id, cs, jb->plies, &h);
        printf("%s\n", b.data);
        buf_free(&b);
        return true;
    }
    heading(id, none, cs, jb->plies);
    printf("  win %.4f  win gammon %.4f  win backgammon %.4f  lose gammon %.4f  "
           "lose backgammon %.4f\n",
           h.ev.p_win, h.ev.p_win_gammon, h.ev.p_win_bg, h.ev.p_lose_gammon, h.ev.p_lose_bg);
    printf("  cubeless equity  %+.4f\n", h.ev.equity);
    printf("  no double        %+.4f %+.4f\n", h.no_double, h.no_double - best);
    printf("  double, take     %+.4f %+.4f\n", h.double_take, h.double_take - best);
    printf("  double, pass     %+.4f %+.4f\n", h.double_pass, h.double_pass - best);
    printf("  right action: %s\n", action);
    return true;
}

/* One position: dice_text NULL means the ID's own roll, or none. */
static bool one(const Job *jb, const char *id, const char *dice_text, const int given[2])
{
    Position p;
    CubeState cs;
    int dice[2];
    Err err = {{0}};
    bool ok = cli_read_position(id, &jb->rules, &p, &cs, dice, &err);
    if (ok && dice_text)
        ok = answer_read_dice(dice_text, dice, &err);
    else if (ok && given[0])
        dice[0] = given[0], dice[1] = given[1];
    if (ok)
        ok = dice[0] ? hint_moves(jb, id, &p, &cs, dice, &err) : hint_cube(jb, id, &p, &cs, &err);
    if (!ok)
        cli_item_error(CMD, id, err.text, jb->json);
    return ok;
}

/* An 'ID [DICE]' line of standard input. */
static bool one_line(void *ctx, char *line)
{
    const Job *jb = ctx;
    const int none[2] = {0, 0};
    char whole[HINT_LINE_MAX + 1], *words[3], *save = NULL;
    snprintf(whole, sizeof whole, "%s", line);
    int n = 0;
    for (char *w = strtok_r(line, " \t", &save); w && n < 3; w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    if (n == 3) {
        cli_item_error(CMD, whole, "more than ID and DICE", jb->json);
        return false;
    }
    return one(jb, words[0], n == 2 ? words[1] : NULL, none);
}

int cli_hint(int argc, char **argv)
{
    enum { OPT_PLIES = 256, OPT_DICE, OPT_MAX, OPT_JSON, OPT_WEIGHTS };
    static const struct option own[] = {
        {"plies", required_argument, NULL, OPT_PLIES},
        {"dice", required_argument, NULL, OPT_DICE},
        {"max", required_argument, NULL, OPT_MAX},
        {"json", no_argument, NULL, OPT_JSON},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option opts[64];
    if (rules_cli_merge(opts, 64, own) < 0)
        return cli_usage_error(CMD, "too many options");
    Job jb = {NULL, NULL, 0, 10, false, NULL, rules_default()};
    RulesCli rc;
    rules_cli_init(&rc);
    int given[2] = {0, 0};
    const char *weights = NULL; /* --weights: NULL for the compiled-in network */
    Err err = {{0}};
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        bool ok = true;
        if (rules_cli_handles(c)) {
            if (!rules_cli_apply(&rc, c, optarg, &err))
                return cli_usage_error(CMD, "%s", err.text);
            continue;
        }
        switch (c) {
        case OPT_PLIES: ok = num_int("--plies", optarg, 0, SEARCH_MAX_PLIES, &jb.plies, &err); break;
        case OPT_DICE: ok = answer_read_dice(optarg, given, &err); break;
        case OPT_MAX: ok = num_int("--max", optarg, 1, ANSWER_MOVES_MAX, &jb.max, &err); break;
        case OPT_JSON: jb.json = true; break;
        case OPT_WEIGHTS: ok = cli_weights_option(optarg, &weights, &err); break;
        case 'h': hint_usage(stdout); return EXIT_OK;
        default: return cli_option_error(CMD, c, argv, opts);
        }
        if (!ok)
            return cli_usage_error(CMD, "%s", err.text);
    }
    if (!rules_cli_finish(&rc, &jb.rules, &err))
        return cli_usage_error(CMD, "%s", err.text);
    int args = argc - optind;
    if (!cli_position_operands(argv + optind, args, given[0] != 0, &err))
        return cli_usage_error(CMD, "%s", err.text);
    bool from_stdin = !strcmp(argv[optind], "-");
    Engine *e = engine_new_with("default", weights, &err);
    EngineScratch *sc = e ? engine_scratch_new(&err) : NULL;
    jb.cands = sc ? malloc((size_t)jb.max * sizeof *jb.cands) : NULL;
    if (!jb.cands) {
        fprintf(stderr, "shesh hint: %s\n", err.text[0] ? err.text : "out of memory");
        engine_scratch_free(sc);
        engine_free(e);
        return EXIT_FAIL;
    }
    jb.engine = e;
    jb.scratch = sc;
    int status = EXIT_OK;
    if (from_stdin)
        status = cli_each_line(stdin, CMD, HINT_LINE_MAX, jb.json, one_line, &jb);
    else if (!one(&jb, argv[optind], args == 2 ? argv[optind + 1] : NULL, given))
        status = EXIT_FAIL;
    free(jb.cands);
    engine_scratch_free(sc);
    engine_free(e);
    return status;
}
