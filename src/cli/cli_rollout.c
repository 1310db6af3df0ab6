/* cli_rollout.c - `shesh rollout`: the engine plays a position out against
 * itself many times (src/play/rollout.h) and reports the mean of what the
 * games gave, with its standard error: the five chances, the cubeless and
 * the cubeful equity (money, per cube unit) or match winning chance. With
 * a roll, each of the engine's best few moves for it is rolled out on the
 * same dice and the moves are ranked by the rollout.
 *
 * `shesh rollout merge` adds up the --json outputs of the shards of a run
 * (--shard K/N) into exactly what one run prints: every figure comes from
 * integer sums (rollout_sums.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_lines.h"
#include "cli_opt.h"
#include "cli_position.h"
#include "cli_watch.h"
#include "clock.h"
#include "engine.h"
#include "num.h"
#include "rollout_json.h"
#include "rollout_print.h"
#include "rollout_report.h"
#include "rollout_run.h"
#include "rules_cli.h"
#include "search.h"

#define CMD "rollout"
#define EXIT_INTERRUPTED 130
#define DEFAULT_TRIALS 1296 /* 36 * 36: every pair of first two rolls once */
#define DEFAULT_MOVES 5
#define TRIALS_MAX 1000000000L

static void rollout_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh rollout [OPTIONS] ID [DICE]\n"
            "       shesh rollout [OPTIONS] -\n"
            "       shesh rollout merge [--json] FILE...\n\n"
            "Plays the position out many times, the engine against itself, and gives\n"
            "the mean of what the games gave for the player to act, each with its\n"
            "standard error: the chances to win, win a gammon, win a backgammon, lose\n"
            "a gammon and lose a backgammon (kept within their bounds, which with the\n"
            "luck taken out a mean can stray just past), the cubeless equity and the\n"
            "cubeful equity (money, per cube unit; match winning chance in match\n"
            "play). Without a roll the player to act is about to roll (or double).\n"
            "With a roll (DICE, or the dice of a GNUBG-ID or XGID) the engine's best\n"
            "moves for it are each rolled out on the same dice and ranked by the\n"
            "rollout. ID is a Position ID (money, cube centred), a GNUBG-ID or an\n"
            "XGID. With -, one 'ID [DICE]' a line from standard input (blank lines\n"
            "and lines starting with # skipped).\n\n"
            "  --trials N    games, 1 to %ld (default %d)\n"
            "  --plies P     the players' lookahead, 0 to %d (default 0)\n"
            "  --truncate T  stop each game after T turns and take the engine's 0-ply\n"
            "                evaluation (default 0: play to the end)\n"
            "  --cubeless    nobody doubles; no cubeful equity\n"
            "  --no-vr       no variance reduction (stratified first two rolls, luck\n"
            "                adjustment)\n"
            "  --seed S      the dice, 0 to 2^63-1 (default 1)\n"
            "  --threads K   threads, 1 to 256 (default: the processors)\n"
            "  --shard K/N   play only trials K-1, K-1+N, K-1+2N, ... (merge the\n"
            "                shards' --json with shesh rollout merge)\n"
            "  --moves M     with a roll: the engine's best M moves, 1 to %d (default %d)\n"
            "  --weights F   play with the network file F, not the one compiled in\n"
            "  --json        one JSON object a position, with the exact sums\n"
            "  --quiet       no progress line on a terminal\n"
            "  -h, --help    this text\n\n"
            "The rules the games are played and scored by (those of shesh rules; a\n"
            "GNUBG-ID or XGID brings its own Jacoby rule, beavers and cube limit):\n%s\n"
            "merge adds up the --json outputs of the shards of one run (line by line)\n"
            "into what the whole run prints (--json: as JSON).\n\n"
            "Progress goes to standard error when it is a terminal. Ctrl-C stops and\n"
            "prints what was done, marked interrupted.\n"
            "Exit status: 0 every position rolled out, 1 one refused (the others are\n"
            "still answered), 2 usage, 130 interrupted.\n",
            TRIALS_MAX, DEFAULT_TRIALS, SEARCH_MAX_PLIES, ROLLOUT_MOVES_MAX, DEFAULT_MOVES,
            rules_cli_help);
}

typedef struct Options {
    RolloutOptions ro;
    int64_t trials;
    int threads, moves;
    int shard[2];
    bool json, quiet;
    Rules rules;
} Options;

typedef struct Job {
    const Options *o;
    const Engine *engine;
    EngineScratch *scratch;
    bool interrupted; /* a rollout was stopped: no more are started */
} Job;

/* --- rolling out ------------------------------------------------------ */

static void progress(RolloutRun *run, const char *input, bool cubeful, double start)
{
    RolloutSums s;
    rollout_run_sums(run, 0, &s);
    int k = cubeful ? ROLLOUT_CUBEFUL : ROLLOUT_CUBELESS;
    double wall = clock_now() - start;
    double rate = wall > 0 ? (double)s.trials / wall : 0;
    int64_t left = rollout_run_total(run) - s.trials;
    fprintf(stderr, "\rrollout %.40s: %lld/%lld trials  %s %+.4f +- %.4f  %.1f trials/s  left %.0f s\033[K",
            input, (long long)s.trials, (long long)rollout_run_total(run),
            cubeful ? "cubeful" : "cubeless", rollout_sums_mean(&s, k), rollout_sums_se(&s, k),
            rate, rate > 0 ? (double)left / rate : 0.0);
    fflush(stderr);
}

/* The main thread's part while the trials are played (cli_watch.h). */
typedef struct Watch {
    Job *jb;
    RolloutRun *run;
    const char *input;
    bool tty;
    double start, shown;
} Watch;

static bool watch_work(void *ctx, Err *err)
{
    Watch *w = ctx;
    return rollout_run(w->run, err);
}

/* A signal ends the rollout at the trials under way. */
static void watch_tick(void *ctx, int signals)
{
    Watch *w = ctx;
    if (signals) {
        w->jb->interrupted = true;
        rollout_run_stop(w->run);
    }
    double now = clock_now();
    if (w->tty && now - w->shown >= 0.25) {
        progress(w->run, w->input, w->jb->o->ro.cubeful, w->start);
        w->shown = now;
    }
}

/* Plays the trials of the games on threads while this thread shows the
 * progress and watches for signals; sums[i] gets game i's. */
static bool run_games(Job *jb, const char *input, const RolloutGame *games, int count,
                      RolloutSums *sums, Err *err)
{
    const Options *o = jb->o;
    RolloutPlan plan = {games, count, o->trials, o->shard[0] - 1, o->shard[1], o->threads};
    RolloutRun *run = rollout_run_new(&plan, err);
    if (!run)
        return false;
    bool tty = isatty(STDERR_FILENO) && !o->quiet;
    double start = clock_now();
    Watch w = {jb, run, input, tty, start, start};
    CliWatch cw = {watch_work, watch_tick, &w, 0.05};
    bool ok = cli_watch_run(&cw, err);
    if (tty) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    if (cli_signals_seen())
        jb->interrupted = true;
    for (int i = 0; i < count; i++)
        rollout_run_sums(run, i, &sums[i]);
    rollout_run_free(run);
    return ok;
}

/* The report's description of the position and settings. */
static bool report_start(const Job *jb, const char *id, const Match *m, RolloutReport *r,
                         Err *err)
{
    const Options *o = jb->o;
    memset(r, 0, sizeof *r);
    if (strlen(id) > ROLLOUT_INPUT_MAX)
        return err_set(err, "longer than %d bytes", ROLLOUT_INPUT_MAX);
    snprintf(r->input, sizeof r->input, "%s", id);
    rules_describe(&m->rules, m->length, r->rules, sizeof r->rules);
    CubeState cs;
    match_cube_state(m, &cs);
    r->match_to = cs.match_length;
    r->score[0] = cs.score[SIDE_ROLLER];
    r->score[1] = cs.score[SIDE_OPPONENT];
    r->cube = cs.cube;
    r->cube_owner = cs.owner;
    r->plies = o->ro.plies;
    snprintf(r->engine, sizeof r->engine, "%s", engine_id(jb->engine));
    snprintf(r->network, sizeof r->network, "%s", engine_network(jb->engine));
    r->truncate = o->ro.truncate;
    r->cubeful = o->ro.cubeful;
    r->vr = o->ro.vr;
    r->seed = o->ro.seed;
    r->trials = o->trials;
    r->shard[0] = o->shard[0];
    r->shard[1] = o->shard[1];
    return true;
}

/* The position before the roll. */
static bool roll_out_position(Job *jb, const Match *m, RolloutReport *r, Err *err)
{
    RolloutGame g;
    if (!rollout_game_init(&g, jb->engine, m, &jb->o->ro, err))
        return false;
    r->count = 1;
    return run_games(jb, r->input, &g, 1, &r->moves[0].sums, err);
}

/* The engine's best moves for the roll, each rolled out from the mover's
 * view, the other side then on roll. */
static bool roll_out_moves(Job *jb, const Match *m, const int dice[2], RolloutReport *r,
                           Err *err)
{
    Match rolled = *m;
    if (!rolled.dice[0] && !match_roll(&rolled, dice[0], dice[1], err))
        return false;
    if ((rolled.dice[0] != dice[0] || rolled.dice[1] != dice[1]) &&
        (rolled.dice[0] != dice[1] || rolled.dice[1] != dice[0]))
        return err_set(err, "the ID's roll is %d%d, not %d%d", rolled.dice[0], rolled.dice[1],
                       dice[0], dice[1]);
    CubeState cs;
    Position p;
    int seat = match_cube_state(&rolled, &cs);
    match_position_of(&rolled, seat, &p);
    EngineCandidate cands[ROLLOUT_MOVES_MAX];
    int n;
    if (engine_hint_moves(jb->engine, jb->scratch, &p, dice[0], dice[1], &cs, jb->o->ro.plies,
                          cands, jb->o->moves, &n, err) != ENGINE_OK)
        return false;
    if (n == 0)
        return err_set(err, "no legal move with %d-%d: there is nothing to choose", dice[0],
                       dice[1]);
    RolloutGame *games = malloc((size_t)n * sizeof *games);
    RolloutSums *sums = malloc((size_t)n * sizeof *sums);
    bool ok = games && sums;
    if (!ok)
        err_set(err, "out of memory for the moves' rollouts");
    for (int i = 0; ok && i < n; i++) {
        Match after = rolled;
        ok = match_move(&after, &cands[i].move.result, err) &&
             rollout_game_init(&games[i], jb->engine, &after, &jb->o->ro, err);
        if (!ok)
            break;
        rollout_game_from_mover(&games[i]);
        RolloutReportMove *rm = &r->moves[i];
        rm->rank = i + 1;
        movetext_display(&p, &cands[i].move, rm->move);
        posid_encode(&cands[i].move.result, rm->position);
    }
    if (ok) {
        r->dice[0] = dice[0];
        r->dice[1] = dice[1];
        r->count = n;
        ok = run_games(jb, r->input, games, n, sums, err);
        for (int i = 0; i < n; i++)
            r->moves[i].sums = sums[i];
    }
    free(games);
    free(sums);
    return ok;
}

/* One ID: dice_text NULL means the ID's own roll, or none. */
static bool one(Job *jb, const char *id, const char *dice_text)
{
    if (jb->interrupted)
        return true; /* stopped: the rest is not started */
    Match m;
    int dice[2] = {0, 0};
    Err err = {{0}};
    RolloutReport r;
    bool ok = cli_read_match(id, &jb->o->rules, &m, &err);
    if (ok && dice_text)
        ok = answer_read_dice(dice_text, dice, &err);
    else if (ok)
        dice[0] = m.dice[0], dice[1] = m.dice[1];
    if (ok)
        ok = report_start(jb, id, &m, &r, &err);
    if (ok)
        ok = dice[0] ? roll_out_moves(jb, &m, dice, &r, &err)
                     : roll_out_position(jb, &m, &r, &err);
    if (!ok) {
        cli_item_error(CMD, id, err.text, jb->o->json);
        return false;
    }
    r.interrupted = jb->interrupted;
    rollout_print(&r, jb->o->json, stdout);
    fflush(stdout);
    return true;
}

#define ROLLOUT_LINE_MAX 512

static bool one_line(void *ctx, char *line)
{
    Job *jb = ctx;
    char whole[ROLLOUT_LINE_MAX + 1], *words[3], *save = NULL;
    snprintf(whole, sizeof whole, "%s", line);
    int n = 0;
    for (char *w = strtok_r(line, " \t", &save); w && n < 3; w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    if (n == 3) {
        cli_item_error(CMD, whole, "more than ID and DICE", jb->o->json);
        return false;
    }
    return one(jb, words[0], n == 2 ? words[1] : NULL);
}

/* --- merge -------------------------------------------------------------- */

static void merge_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh rollout merge [--json] FILE...\n\n"
            "Adds up the shards of a rollout (the JSON of shesh rollout with its shard\n"
            "option K/N, one file each, every one of the N shards once) into what the\n"
            "whole run prints, exactly: line by line, the same positions in order.\n\n"
            "  --json       as JSON\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 merged, 1 a file unreadable, from another run or with a\n"
            "position refused, 2 usage.\n");
}

typedef struct Shard {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
} Shard;

/* The next line of a shard, or NULL at its end. */
static const char *next_line(Shard *s, size_t *len)
{
    ssize_t got = getline(&s->line, &s->cap, s->f);
    if (got < 0)
        return NULL;
    s->lineno++;
    *len = (size_t)got;
    return s->line;
}

/* Line by line: the same item in every shard, merged and printed.
 * Returns the exit status. */
static int merge_lines(Shard *shards, int n, bool json)
{
    RolloutReport total, part;
    char message[ROLLOUT_MESSAGE_MAX], other[ROLLOUT_MESSAGE_MAX];
    int status = EXIT_OK;
    bool *seen = calloc((size_t)n + 1, sizeof *seen);
    if (!seen) {
        fprintf(stderr, "shesh rollout merge: out of memory\n");
        return EXIT_FAIL;
    }
    for (;;) {
        size_t len;
        const char *first = next_line(&shards[0], &len);
        for (int i = 1; i < n; i++) {
            size_t l2;
            if ((next_line(&shards[i], &l2) == NULL) != (first == NULL)) {
                fprintf(stderr, "shesh rollout merge: %s and %s hold different numbers of lines\n",
                        shards[0].path, shards[i].path);
                free(seen);
                return EXIT_FAIL;
            }
        }
        if (!first)
            break;
        memset(seen, 0, ((size_t)n + 1) * sizeof *seen);
        RolloutLine kind0 = ROLLOUT_LINE_BAD;
        for (int i = 0; i < n; i++) {
            Err err = {{0}};
            RolloutReport *into = i == 0 ? &total : &part;
            RolloutLine kind = rollout_json_read(shards[i].line, strlen(shards[i].line), into,
                                                 i == 0 ? message : other, &err);
            const char *why = NULL;
            if (kind == ROLLOUT_LINE_BAD)
                why = err.text;
            else if (i > 0 && kind != kind0)
                why = "a position refused in one shard and rolled out in another";
            else if (kind == ROLLOUT_LINE_REPORT) {
                int k = into->shard[0];
                if (into->shard[1] != n)
                    why = "not one of the shards given (each of the N shards once)";
                else if (seen[k])
                    why = "the same shard twice";
                else if (i > 0 && !rollout_report_merge(&total, &part, &err))
                    why = err.text;
                if (!why)
                    seen[k] = true;
            }
            if (why) {
                fprintf(stderr, "shesh rollout merge: %s: line %ld: %s\n", shards[i].path,
                        shards[i].lineno, why);
                free(seen);
                return EXIT_FAIL;
            }
            kind0 = i == 0 ? kind : kind0;
        }
        if (kind0 == ROLLOUT_LINE_ERROR) {
            /* Refused in every shard: refused by the whole run alike. */
            if (json)
                fputs(shards[0].line, stdout);
            else
                fprintf(stderr, "shesh rollout: %s: %s\n", total.input, message);
            status = EXIT_FAIL;
            continue;
        }
        total.shard[0] = total.shard[1] = 1;
        rollout_print(&total, json, stdout);
        fflush(stdout);
    }
    free(seen);
    return status;
}

static int cli_rollout_merge(int argc, char **argv)
{
    enum { OPT_JSON = 256 };
    static const struct option opts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case 'h': merge_usage(stdout); return EXIT_OK;
        default: return cli_option_error("rollout merge", c, argv, opts);
        }
    }
    int n = argc - optind;
    if (n < 1)
        return cli_usage_error("rollout merge", "give the shards' files");
    Shard *shards = calloc((size_t)n, sizeof *shards);
    if (!shards) {
        fprintf(stderr, "shesh rollout merge: out of memory\n");
        return EXIT_FAIL;
    }
    int status = EXIT_OK;
    for (int i = 0; i < n && status == EXIT_OK; i++) {
        shards[i].path = argv[optind + i];
        if (!(shards[i].f = fopen(shards[i].path, "r"))) {
            fprintf(stderr, "shesh rollout merge: cannot read %s\n", shards[i].path);
            status = EXIT_FAIL;
        }
    }
    if (status == EXIT_OK)
        status = merge_lines(shards, n, json);
    for (int i = 0; i < n; i++) {
        if (shards[i].f)
            fclose(shards[i].f);
        free(shards[i].line);
    }
    free(shards);
    return status;
}

/* --- the command --------------------------------------------------------- */

int cli_rollout(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return cli_rollout_merge(argc - 1, argv + 1);
    enum {
        OPT_TRIALS = 256, OPT_PLIES, OPT_TRUNCATE, OPT_CUBELESS, OPT_NO_VR, OPT_SEED,
        OPT_THREADS, OPT_SHARD, OPT_MOVES, OPT_JSON, OPT_QUIET, OPT_WEIGHTS
    };
    static const struct option own[] = {
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"plies", required_argument, NULL, OPT_PLIES},
        {"truncate", required_argument, NULL, OPT_TRUNCATE},
        {"cubeless", no_argument, NULL, OPT_CUBELESS},
        {"no-vr", no_argument, NULL, OPT_NO_VR},
        {"seed", required_argument, NULL, OPT_SEED},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"moves", required_argument, NULL, OPT_MOVES},
        {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    Options o = {
        .ro = {.plies = 0, .truncate = 0, .cubeful = true, .vr = true, .seed = 1},
        .trials = DEFAULT_TRIALS,
        .threads = cli_cores(),
        .moves = DEFAULT_MOVES,
        .shard = {1, 1},
        .rules = rules_default(),
    };
    struct option opts[64];
    if (rules_cli_merge(opts, 64, own) < 0)
        return cli_usage_error(CMD, "too many options");
    RulesCli rc;
    rules_cli_init(&rc);
    const char *weights = NULL; /* --weights: NULL for the compiled-in network */
    Err err = {{0}};
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        bool ok = true;
        long trials;
        if (rules_cli_handles(c)) {
            if (!rules_cli_apply(&rc, c, optarg, &err))
                return cli_usage_error(CMD, "%s", err.text);
            continue;
        }
        switch (c) {
        case OPT_TRIALS:
            ok = num_long("--trials", optarg, 1, TRIALS_MAX, &trials, &err);
            o.trials = trials;
            break;
        case OPT_PLIES: ok = num_int("--plies", optarg, 0, SEARCH_MAX_PLIES, &o.ro.plies, &err); break;
        case OPT_TRUNCATE:
            ok = num_int("--truncate", optarg, 0, ROLLOUT_MAX_TURNS, &o.ro.truncate, &err);
            break;
        case OPT_CUBELESS: o.ro.cubeful = false; break;
        case OPT_NO_VR: o.ro.vr = false; break;
        case OPT_SEED:
            ok = num_u64("--seed", optarg, &o.ro.seed, &err);
            if (ok && o.ro.seed > (uint64_t)INT64_MAX)
                ok = err_set(&err, "--seed: at most %lld", (long long)INT64_MAX);
            break;
        case OPT_THREADS: ok = num_int("--threads", optarg, 1, 256, &o.threads, &err); break;
        case OPT_SHARD: ok = cli_parse_shard(optarg, o.shard, &err); break;
        case OPT_MOVES: ok = num_int("--moves", optarg, 1, ROLLOUT_MOVES_MAX, &o.moves, &err); break;
        case OPT_JSON: o.json = true; break;
        case OPT_QUIET: o.quiet = true; break;
        case OPT_WEIGHTS: ok = cli_weights_option(optarg, &weights, &err); break;
        case 'h': rollout_usage(stdout); return EXIT_OK;
        default: return cli_option_error(CMD, c, argv, opts);
        }
        if (!ok)
            return cli_usage_error(CMD, "%s", err.text);
    }
    if (!rules_cli_finish(&rc, &o.rules, &err))
        return cli_usage_error(CMD, "%s", err.text);
    int args = argc - optind;
    if (!cli_position_operands(argv + optind, args, false, &err))
        return cli_usage_error(CMD, "%s", err.text);
    bool from_stdin = !strcmp(argv[optind], "-");
    /* From the start, so that a signal during the set-up is not lost. */
    cli_signals_catch();
    Engine *e = engine_new_with("default", weights, &err);
    EngineScratch *sc = e ? engine_scratch_new(&err) : NULL;
    int status = EXIT_OK;
    if (!sc) {
        fprintf(stderr, "shesh rollout: %s\n", err.text);
        status = EXIT_FAIL;
    } else {
        Job jb = {&o, e, sc, cli_signals_seen() > 0};
        if (from_stdin)
            status = cli_each_line(stdin, CMD, ROLLOUT_LINE_MAX, o.json, one_line, &jb);
        else if (!one(&jb, argv[optind], args == 2 ? argv[optind + 1] : NULL))
            status = EXIT_FAIL;
        if (jb.interrupted)
            status = EXIT_INTERRUPTED;
    }
    engine_scratch_free(sc);
    engine_free(e);
    cli_signals_release();
    return status;
}
