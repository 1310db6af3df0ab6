/* cli_match.c - `shesh match`: two players in money sessions or matches
 * with duplicate dice (play/duel.h), every answer refereed, a progress
 * line, the summary as text or JSON, and compressed records. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opt.h"
#include "cli_watch.h"
#include "clock.h"
#include "duel.h"
#include "match_report.h"
#include "num.h"
#include "player_remote.h"
#include "rules_cli.h"
#include "run_read.h"
#include "run_records.h"
#include "tally.h"

#define CMD "match"
#define EXIT_INTERRUPTED 130

typedef struct MatchOpts {
    DuelOptions duel;
    int64_t games, matches;  /* as asked */
    bool cubeless, json, quiet, no_record, sprt_on;
    int shard[2];            /* K, N of --shard; 0 0 without */
    bool resume;
    StatsSprt sprt;
    const char *record;      /* FILE.mat.gz, NULL: a dated name */
} MatchOpts;

static void match_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh match [options] PLAYER_A PLAYER_B\n\n"
            "Plays two players against each other with duplicate dice (each seeded\n"
            "dice sequence twice, seats swapped), refereeing every answer, and prints\n"
            "A's points per game with its 95 %% interval. Money sessions by default\n"
            "(cubeful), or matches with --match-to. PLAYER is one of\n"
            "  shesh[:plies=N]   the engine in process, N = 0..4 (default 0)\n"
            "  shesh[:plies=N]:weights=FILE  the same with the network file FILE\n"
            "  pubeval, random   the yardsticks\n"
            "  tcp:HOST:PORT     a server of gnubg's external-player protocol\n"
            "  unix:PATH         the same on a Unix socket\n"
            "  gnubg[:plies=N]   GNU Backgammon, started as such a server (one per\n"
            "                    concurrent game; default 0 plies)\n"
            "  ubgi:CMD          an engine speaking UBGI on stdin/stdout, CMD run by\n"
            "                    /bin/sh -c (one per concurrent game); cubeless money\n"
            "                    games only (--cubeless or --no-cube, no --match-to)\n"
            "  NAME=PLAYER       any of them with a display name\n\n"
            "  --games N          money games, an even number 2 to 100000000 (default 1000)\n"
            "  --match-to N       play matches to N points (1 to 64) instead\n"
            "  --matches M        matches, an even number 2 to 1000000 (default 2)\n"
            "  --cubeless         money games without the cube\n"
            "  --seed S           the seed of the dice, 0 to 2^64-1 (default 1)\n"
            "  --concurrency N    games at once, 1 to 256 (default: the cores)\n"
            "  --timeout S        seconds a remote or UBGI player has for each answer\n"
            "                     (and a UBGI engine for its handshake; default 30)\n"
            "  --on-fault WHAT    continue (default: the faulty player loses the game\n"
            "                     and is reconnected) or stop (end the run there)\n"
            "  --sprt P0,P1[,A,B] stop when a sequential test decides between A's ppg\n"
            "                     P0 and P1 (error rates A and B, default 0.05,0.05)\n"
            "  --record FILE      the record NAME.mat.gz (the games as gnubg imports\n"
            "                     them) and NAME.jsonl.gz beside it (default:\n"
            "                     records/match-DATE-TIME.mat.gz)\n"
            "  --no-record        keep no record\n"
            "  --resume           go on with the run whose --record FILE is given (killed,\n"
            "                     crashed): its complete pairs count, the rest is played\n"
            "  --json             the summary as one JSON object\n"
            "  --quiet            no progress line\n"
            "  --shard K/N        play the K-th of N slices of the pairs (pairs K-1,\n"
            "                     K-1+N, ...); shesh stats merge adds the shards up\n"
            "  --gnubg PATH       the gnubg binary (default /usr/games/gnubg)\n"
            "  -h, --help         this text\n"
            "Rules (as shesh rules takes them):\n%s\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Ctrl-C or SIGTERM stops starting games and prints the summary so far (a\n"
            "second one drops the games in flight). docs/referee.md tells more.\n"
            "Exit status: 0 done, 1 a failure (a player that cannot be reached, a fault\n"
            "with --on-fault stop, a record that cannot be written), 2 usage, 130\n"
            "interrupted (after the summary).\n",
            rules_cli_help);
}

/* --- options ------------------------------------------------------------ */

static bool parse_sprt(const char *arg, StatsSprt *t, Err *err)
{
    char buf[128];
    if (strlen(arg) >= sizeof buf)
        return err_set(err, "--sprt: too long");
    snprintf(buf, sizeof buf, "%s", arg);
    double v[4] = {0, 0, 0.05, 0.05};
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (n == 4)
            return err_set(err, "--sprt takes PPG0,PPG1[,ALPHA,BETA]");
        if (!num_double("--sprt", tok, -1e9, 1e9, false, &v[n], err))
            return false;
        n++;
    }
    if (n != 2 && n != 4)
        return err_set(err, "--sprt takes PPG0,PPG1[,ALPHA,BETA]");
    *t = (StatsSprt){v[0], v[1], v[2], v[3]};
    char msg[160];
    if (!stats_sprt_valid(t, msg, sizeof msg))
        return err_set(err, "%s", msg);
    return true;
}

/* K/N with 1 <= K <= N <= 100000. */
/* Two players of the same display name are told apart in the records. */
static void distinct_names(PlayerSpec s[2])
{
    if (strcmp(s[0].name, s[1].name))
        return;
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(s[i].name);
        if (n > PLAYER_SPEC_NAME_MAX - 2)
            n = PLAYER_SPEC_NAME_MAX - 2;
        s[i].name[n] = '.';
        s[i].name[n + 1] = i ? 'B' : 'A';
        s[i].name[n + 2] = '\0';
    }
}

/* EXIT_OK to go on, -1 after the help, or EXIT_USAGE. */
static int parse_options(int argc, char **argv, MatchOpts *o)
{
    enum {
        OPT_GAMES = 256, OPT_MATCH_TO, OPT_MATCHES, OPT_CUBELESS, OPT_SEED, OPT_CONCURRENCY,
        OPT_TIMEOUT, OPT_ON_FAULT, OPT_SPRT, OPT_RECORD, OPT_NO_RECORD, OPT_JSON, OPT_QUIET,
        OPT_GNUBG, OPT_SHARD, OPT_RESUME
    };
    static const struct option own[] = {
        {"games", required_argument, NULL, OPT_GAMES},
        {"match-to", required_argument, NULL, OPT_MATCH_TO},
        {"matches", required_argument, NULL, OPT_MATCHES},
        {"cubeless", no_argument, NULL, OPT_CUBELESS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"concurrency", required_argument, NULL, OPT_CONCURRENCY},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"on-fault", required_argument, NULL, OPT_ON_FAULT},
        {"sprt", required_argument, NULL, OPT_SPRT},
        {"record", required_argument, NULL, OPT_RECORD},
        {"no-record", no_argument, NULL, OPT_NO_RECORD},
        {"json", no_argument, NULL, OPT_JSON},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"gnubg", required_argument, NULL, OPT_GNUBG},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    if (rules_cli_merge(longopts, 64, own) < 0)
        return cli_usage_error(CMD, "too many options");
    memset(o, 0, sizeof *o);
    o->games = 1000;
    o->matches = 2;
    o->duel.seed = 1;
    o->duel.concurrency = cli_cores();
    o->duel.timeout_s = PLAYER_REMOTE_REPLY_S;
    o->duel.step = 1;
    RulesCli rc;
    rules_cli_init(&rc);
    Err err = {{0}};
    bool ok = true, games_given = false, matches_given = false;
    int c;
    long v;
    cli_getopt_start();
    while (ok && (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (rules_cli_handles(c)) {
            ok = rules_cli_apply(&rc, c, optarg, &err);
            continue;
        }
        switch (c) {
        case OPT_GAMES:
            ok = num_long("--games", optarg, 2, 100000000L, &v, &err);
            o->games = v;
            games_given = true;
            break;
        case OPT_MATCH_TO:
            ok = num_int("--match-to", optarg, 1, 64, &o->duel.match_to, &err);
            break;
        case OPT_MATCHES:
            ok = num_long("--matches", optarg, 2, 1000000L, &v, &err);
            o->matches = v;
            matches_given = true;
            break;
        case OPT_CUBELESS: o->cubeless = true; break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &o->duel.seed, &err); break;
        case OPT_CONCURRENCY:
            ok = num_int("--concurrency", optarg, 1, 256, &o->duel.concurrency, &err);
            break;
        case OPT_TIMEOUT:
            ok = num_double("--timeout", optarg, 0, 86400, true, &o->duel.timeout_s, &err);
            break;
        case OPT_ON_FAULT:
            if (!strcmp(optarg, "stop") || !strcmp(optarg, "continue"))
                o->duel.stop_on_fault = optarg[0] == 's';
            else
                ok = err_set(&err, "--on-fault takes continue or stop, not '%.40s'", optarg);
            break;
        case OPT_SPRT: ok = parse_sprt(optarg, &o->sprt, &err), o->sprt_on = true; break;
        case OPT_RECORD: o->record = optarg; break;
        case OPT_NO_RECORD: o->no_record = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_GNUBG: o->duel.gnubg_binary = optarg; break;
        case OPT_SHARD: ok = cli_parse_shard(optarg, o->shard, &err); break;
        case OPT_RESUME: o->resume = true; break;
        case 'h': match_usage(stdout); return -1;
        default: return cli_option_error(CMD, c, argv, longopts);
        }
    }
    if (!ok)
        return cli_usage_error(CMD, "%s", err.text);
    if (argc - optind != 2)
        return cli_usage_error(CMD, "give two players, PLAYER_A and PLAYER_B");
    for (int s = 0; s < 2; s++)
        if (!player_spec_parse(argv[optind + s], &o->duel.specs[s], &err))
            return cli_usage_error(CMD, "%s", err.text);
    /* A bad network file is refused before any record is made. */
    for (int s = 0; s < 2; s++)
        if (!player_spec_check(&o->duel.specs[s], &err)) {
            fprintf(stderr, "shesh %s: %s\n", CMD, err.text);
            return EXIT_FAIL;
        }
    distinct_names(o->duel.specs);
    bool match = o->duel.match_to > 0;
    if (match && games_given)
        return cli_usage_error(CMD, "--games is for money sessions; matches take --matches");
    if (!match && matches_given)
        return cli_usage_error(CMD, "--matches needs --match-to N");
    if (match && o->cubeless)
        return cli_usage_error(CMD, "--cubeless is for money sessions (matches: --no-cube)");
    int64_t n = match ? o->matches : o->games;
    if (n % 2)
        return cli_usage_error(CMD, "%s must be even: each dice sequence is played twice",
                               match ? "--matches" : "--games");
    if (o->record && o->no_record)
        return cli_usage_error(CMD, "--record and --no-record together");
    if (o->resume && !o->record)
        return cli_usage_error(CMD, "--resume needs the --record FILE of the run to go on with");
    if (!rules_cli_finish(&rc, &o->duel.rules, &err))
        return cli_usage_error(CMD, "%s", err.text);
    if (o->cubeless) {
        /* No cube: the cube rules go with it. */
        o->duel.rules.cube = false;
        o->duel.rules.jacoby = false;
        o->duel.rules.beavers = 0;
        o->duel.rules.auto_doubles = 0;
    }
    if (!rules_valid(&o->duel.rules, &err))
        return cli_usage_error(CMD, "%s", err.text);
    /* UBGI has no take or drop: a UBGI player could not answer a double,
     * and a fixed rule in its place would be the referee playing. */
    for (int s = 0; s < 2; s++)
        if (o->duel.specs[s].kind == PLAYER_KIND_UBGI && o->duel.rules.cube)
            return cli_usage_error(CMD,
                                   "player %s (%s) speaks UBGI, which cannot answer a double: "
                                   "play without the cube (--cubeless, or --no-cube)",
                                   s ? "B" : "A", o->duel.specs[s].name);
    /* Nor does UBGI's position command carry a match score (only v0.1's
     * session commands do, which engines need not know): a UBGI engine
     * would play a match as money games. */
    for (int s = 0; s < 2; s++)
        if (o->duel.specs[s].kind == PLAYER_KIND_UBGI && o->duel.match_to > 0)
            return cli_usage_error(CMD,
                                   "player %s (%s) speaks UBGI, whose positions carry no match "
                                   "score: play money games (no --match-to)",
                                   s ? "B" : "A", o->duel.specs[s].name);
    o->duel.pairs = n / 2;
    if (o->shard[1] > 0) {
        /* Shard K of N plays the pairs K-1, K-1+N, K-1+2N, ... */
        int64_t k = o->shard[0] - 1, step = o->shard[1];
        o->duel.first = k;
        o->duel.step = step;
        o->duel.pairs = o->duel.pairs > k ? (o->duel.pairs - k + step - 1) / step : 0;
    }
    return EXIT_OK;
}

/* --- the run ------------------------------------------------------------- */

typedef struct Run {
    MatchOpts *o;
    pthread_mutex_t lock; /* tally and faults: on_pair writes, progress reads */
    Tally tally;
    int64_t faults;
    bool decided;         /* the SPRT decided: later pairs are not counted */
    StatsSprtState sprt;
    RunRecords *records;
    int64_t resumed_games;   /* --resume: games and money score read back */
    int64_t resumed_pairs;
    int resumed_score[2];
    double start;
    Duel *duel;
} Run;

static bool on_pair(void *ctx, const DuelPair *p, Err *err)
{
    Run *r = ctx;
    pthread_mutex_lock(&r->lock);
    bool counted = !r->decided;
    bool ok = true;
    if (counted) {
        ok = tally_add_pair(&r->tally, p, &r->o->duel.rules) ||
             err_set(err, "the sums overflowed");
        if (ok && r->o->sprt_on) {
            stats_sprt(&r->o->sprt, &r->tally.pairs, &r->sprt);
            r->decided = r->sprt.decision != SPRT_CONTINUE;
        }
    }
    pthread_mutex_unlock(&r->lock);
    if (ok && counted && r->records)
        ok = run_records_add(r->records, p, err);
    return ok;
}

static void on_fault(void *ctx, int64_t pair, const RefereeFault *f, const char *name)
{
    Run *r = ctx;
    pthread_mutex_lock(&r->lock);
    r->faults++;
    fprintf(stderr, "shesh match: fault in pair %lld: %s (%s) %s at %s: %s\n", (long long)pair,
            name, f->player ? "B" : "A", player_status_name(f->status), f->gnubgid, f->what);
    pthread_mutex_unlock(&r->lock);
}

static void format_eta(double s, char *out, size_t n)
{
    if (!(s >= 0) || s > 359999)
        snprintf(out, n, "?");
    else
        snprintf(out, n, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
}

static void progress(Run *r, bool tty, bool last)
{
    pthread_mutex_lock(&r->lock);
    Tally t = r->tally;
    pthread_mutex_unlock(&r->lock);
    StatsSummary s;
    stats_pairs_summary(&t.pairs, &s);
    double wall = clock_now() - r->start;
    int64_t total = (r->o->duel.pairs + r->resumed_pairs) * 2;
    int64_t done = r->o->duel.match_to ? t.matches : t.games;
    /* A resumed run's speed is that of its own part. */
    int64_t before = r->o->duel.match_to ? 2 * r->resumed_pairs : r->resumed_games;
    double rate = wall > 0 ? (double)(t.games - r->resumed_games) / wall : 0;
    double units_rate = wall > 0 ? (double)(done - before) / wall : 0;
    char eta[32];
    format_eta(units_rate > 0 ? (double)(total - done) / units_rate : -1, eta, sizeof eta);
    char ci[64] = "";
    if (t.pairs.n >= 2)
        snprintf(ci, sizeof ci, " [%+.3f, %+.3f]", s.ci95[0], s.ci95[1]);
    fprintf(stderr, "%s%s %lld/%lld  points %lld-%lld  A %+.3f ppg%s  %.1f games/s  left %s%s",
            tty ? "\r" : "", r->o->duel.match_to ? "matches" : "games", (long long)done,
            (long long)total, (long long)t.side[0].points, (long long)t.side[1].points, s.ppg,
            ci, rate, eta, tty ? "\033[K" : "\n");
    if (tty && last)
        fputc('\n', stderr);
    fflush(stderr);
}

/* The main thread's part while the run plays (cli_watch.h). */
typedef struct Watch {
    Run *r;
    bool *interrupted;
    bool tty, plain;
    double shown;
    int acted; /* signals acted on */
} Watch;

static bool watch_work(void *ctx, Err *err)
{
    Watch *w = ctx;
    return duel_run(w->r->duel, err);
}

/* A first signal lets the games under way end, a second stops them. */
static void watch_tick(void *ctx, int signals)
{
    Watch *w = ctx;
    Run *r = w->r;
    if (signals > w->acted) {
        w->acted = signals;
        *w->interrupted = true;
        if (w->acted == 1)
            duel_stop(r->duel);
        else
            duel_cancel(r->duel);
    }
    pthread_mutex_lock(&r->lock);
    bool decided = r->decided;
    pthread_mutex_unlock(&r->lock);
    if (decided)
        duel_stop(r->duel);
    double now = clock_now();
    if ((w->tty && now - w->shown >= 0.5) || (w->plain && now - w->shown >= 10.0)) {
        progress(r, w->tty, false);
        w->shown = now;
    }
}

/* Plays the run while the main thread shows progress and watches for
 * signals. Returns the exit status so far. */
static int play(Run *r, bool *interrupted, Err *err)
{
    bool tty = isatty(STDERR_FILENO) && !r->o->quiet;
    Watch w = {r, interrupted, tty, !tty && !r->o->quiet, clock_now(), 0};
    CliWatch cw = {watch_work, watch_tick, &w, 0.1};
    bool ok = cli_watch_run(&cw, err);
    if (tty)
        progress(r, tty, true);
    if (!ok)
        return EXIT_FAIL;
    if (duel_stopped_by_fault(r->duel)) {
        err_set(err, "stopped at a fault (--on-fault stop)");
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* --- the summary --------------------------------------------------------- */

static void report(const Run *r, double wall, bool interrupted, const uint32_t crc[2],
                   const char *const paths[2])
{
    const MatchOpts *o = r->o;
    char rules[256];
    rules_describe(&o->duel.rules, o->duel.match_to, rules, sizeof rules);
    MatchReport m = {
        .tally = &r->tally,
        .players = {o->duel.specs[0].text, o->duel.specs[1].text},
        .names = {o->duel.specs[0].name, o->duel.specs[1].name},
        .seed = o->duel.seed,
        .rules = rules,
        .match_to = o->duel.match_to,
        .seconds = wall,
        .games_timed = r->tally.games - r->resumed_games,
        .concurrency = o->duel.concurrency,
        .shard = {o->shard[0], o->shard[1]},
        .interrupted = interrupted,
        .faults = r->faults,
        .sprt_on = o->sprt_on,
        .sprt = o->sprt,
        .sprt_state = r->sprt,
        .paths = {paths[0], paths[1]},
        .crc = {crc[0], crc[1]},
    };
    if (o->json)
        match_report_json(&m, stdout);
    else
        match_report_text(&m, stdout);
}

/* --- records' names ------------------------------------------------------ */

/* FILE.mat.gz and FILE.jsonl.gz; without --record a dated name under
 * records/ (made if missing). */
static bool record_paths(const char *given, char mat[4096], char jsonl[4096], Err *err)
{
    if (!given) {
        if (mkdir("records", 0777) != 0 && errno != EEXIST)
            return err_set(err, "cannot make the folder records: %s", strerror(errno));
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(mat, 4096, "records/match-%s.mat.gz", stamp);
    } else if (strlen(given) > 4000) {
        return err_set(err, "--record: the name is too long");
    } else {
        snprintf(mat, 4096, "%s", given);
    }
    run_records_jsonl_path(mat, jsonl, 4096);
    if (!strcmp(mat, jsonl))
        return err_set(err, "--record: '%s' would be both records", mat);
    return true;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* --resume: reads the run's records back, checks they are this run's,
 * cuts both files after their last complete pair and sets the run to go
 * on from the next one with the tally so far. *resuming false: there is
 * nothing yet (the run starts afresh). */
static bool resume_from(Run *r, const char *mat, const char *jsonl, bool *resuming, Err *err)
{
    DuelOptions *d = &r->o->duel;
    *resuming = false;
    if (!exists(mat) && !exists(jsonl))
        return true;
    if (!exists(mat) || !exists(jsonl))
        return err_set(err, "--resume: %s is there but not %s", exists(mat) ? mat : jsonl,
                       exists(mat) ? jsonl : mat);
    RunRead *rr = malloc(sizeof *rr);
    if (!rr)
        return err_set(err, "out of memory");
    bool ok = false;
    char rules[256];
    rules_describe(&d->rules, d->match_to, rules, sizeof rules);
    Err e = {{0}};
    struct stat st;
    /* Killed before its first game, a run leaves an empty .jsonl.gz. */
    bool empty = stat(jsonl, &st) == 0 && st.st_size == 0;
    memset(rr, 0, sizeof *rr);
    if (!empty && !run_read(jsonl, rr, &e)) {
        err_set(err, "--resume: %s", e.text);
        goto done;
    }
    if (rr->any && (strcmp(rr->names[0], d->specs[0].name) ||
                    strcmp(rr->names[1], d->specs[1].name) || strcmp(rr->rules, rules) ||
                    rr->match_to != d->match_to || rr->seed != d->seed)) {
        err_set(err, "--resume: %s is a run of %s and %s (%s, seed %llu), not this one", jsonl,
                rr->names[0], rr->names[1], rr->rules, (unsigned long long)rr->seed);
        goto done;
    }
    if (rr->pairs > 0 && (rr->first_pair != d->first ||
                          (rr->pairs > 1 && rr->step != d->step) ||
                          rr->last_pair != d->first + (rr->pairs - 1) * d->step)) {
        err_set(err, "--resume: %s holds other pairs than this run's (another --shard?)", jsonl);
        goto done;
    }
    long long mat_end = run_read_mat_end(mat, rr->mat_members, &e);
    if (mat_end < 0) {
        err_set(err, "--resume: %s", e.text);
        goto done;
    }
    if (truncate(mat, (off_t)mat_end) != 0 || truncate(jsonl, (off_t)rr->jsonl_end) != 0) {
        err_set(err, "--resume: cannot cut the records after their last pair: %s",
                strerror(errno));
        goto done;
    }
    if (rr->pairs > d->pairs) {
        err_set(err, "--resume: %s holds %lld pairs, more than this run's %lld", jsonl,
                (long long)rr->pairs, (long long)d->pairs);
        goto done;
    }
    int64_t n = rr->pairs;
    r->resumed_pairs = n;
    r->tally = rr->tally;
    r->resumed_games = rr->games;
    r->resumed_score[0] = rr->score[0];
    r->resumed_score[1] = rr->score[1];
    if (r->o->sprt_on && rr->pairs > 0) {
        stats_sprt(&r->o->sprt, &r->tally.pairs, &r->sprt);
        r->decided = r->sprt.decision != SPRT_CONTINUE;
    }
    d->first += n * d->step;
    d->pairs -= n;
    *resuming = true;
    ok = true;
done:
    free(rr);
    return ok;
}

int cli_match(int argc, char **argv)
{
    MatchOpts o;
    int rc = parse_options(argc, argv, &o);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    Run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    pthread_mutex_init(&r.lock, NULL);
    o.duel.on_pair = on_pair;
    o.duel.on_fault = on_fault;
    o.duel.ctx = &r;
    /* From the start, so that a signal during the engines' set-up is not
     * lost. */
    cli_signals_catch();
    Err err = {{0}};
    int status = EXIT_FAIL;
    char mat[4096] = "", jsonl[4096] = "";
    const char *paths[2] = {NULL, NULL};
    uint32_t crc[2] = {0, 0};
    bool interrupted = false;
    if (!o.no_record) {
        const char *names[2] = {o.duel.specs[0].name, o.duel.specs[1].name};
        if (!record_paths(o.record, mat, jsonl, &err))
            goto done;
        bool resuming = false;
        if (o.resume && !resume_from(&r, mat, jsonl, &resuming, &err))
            goto done;
        if (resuming) {
            if (!(r.records = run_records_open(mat, jsonl, names, o.duel.match_to, &o.duel.rules,
                                               o.duel.seed, r.resumed_games, r.resumed_score,
                                               &err)))
                goto done;
        } else if (!(r.records = run_records_create(mat, jsonl, names, o.duel.match_to,
                                                    &o.duel.rules, o.duel.seed, &err))) {
            goto done;
        }
    }
    /* After --resume set where the run goes on. */
    if (!(r.duel = duel_new(&o.duel, &err)))
        goto done;
    if (r.decided)
        duel_stop(r.duel);
    r.start = clock_now();
    if (cli_signals_seen())
        duel_stop(r.duel);
    status = play(&r, &interrupted, &err);
    interrupted = interrupted || cli_signals_seen() > 0;
    double wall = clock_now() - r.start;
    if (r.records) {
        Err e = {{0}};
        bool ok = run_records_close(r.records, crc, &e);
        r.records = NULL;
        if (!ok) {
            if (status == EXIT_OK)
                err = e;
            status = EXIT_FAIL;
        } else {
            paths[0] = mat;
            paths[1] = jsonl;
        }
    }
    /* A run that failed before its first game has nothing to sum up. */
    if (status != EXIT_FAIL || r.tally.games > 0)
        report(&r, wall, interrupted, crc, paths);
    fflush(stdout);
    if (status == EXIT_OK && interrupted)
        status = EXIT_INTERRUPTED;
done:
    if (status == EXIT_FAIL)
        fprintf(stderr, "shesh match: %s\n", err.text);
    cli_signals_release();
    run_records_close(r.records, NULL, NULL);
    duel_free(r.duel);
    pthread_mutex_destroy(&r.lock);
    return status;
}
