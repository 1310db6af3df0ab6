/* cli_selfplay.c - `shesh selfplay`: duplicate-dice games between two
 * players, points per game and decision speed (the games: play/selfplay.h). */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "clock.h"
#include "engine.h"
#include "num.h"
#include "player_remote.h"
#include "player_spec.h"
#include "posid.h"
#include "selfplay.h"
#include "stats.h"

/* ---- the match runner ---- */

typedef struct Tally {
    StatsPairs pairs; /* seat A's points, pair by pair */
    long games, wins[2], gammons[2], backgammons[2];
    double seconds[2];
    long decisions[2];
    bool failed; /* a player failed: the run stops */
    PlayerStatus status;
    Err err;
} Tally;

typedef struct Job {
    Player *players[2]; /* A, B: this thread's own */
    uint64_t seed;
    long pairs;
    int thread, threads;
    Tally tally;
} Job;

static uint64_t game_seed(uint64_t seed, long pair)
{
    uint64_t s = seed ^ ((uint64_t)pair * 0xd1b54a32d192ed03u);
    return selfplay_rand(&s);
}

static void *job_main(void *arg)
{
    Job *j = arg;
    for (long pair = j->thread; pair < j->pairs; pair += j->threads) {
        uint64_t seed = game_seed(j->seed, pair);
        int64_t pair_points = 0;
        for (int first = 0; first < 2; first++) {
            SelfplayResult r;
            selfplay_game(j->players, seed, first, NULL, NULL, &r);
            if (r.failed) {
                j->tally.failed = true;
                j->tally.status = r.status;
                j->tally.err = r.err;
                return NULL;
            }
            int a_points = r.winner == 0 ? r.points : -r.points;
            pair_points += a_points;
            Tally *t = &j->tally;
            t->games++;
            t->wins[r.winner]++;
            t->gammons[r.winner] += r.points >= 2;
            t->backgammons[r.winner] += r.points >= 3;
            for (int s = 0; s < 2; s++) {
                t->seconds[s] += r.seconds[s];
                t->decisions[s] += r.decisions[s];
            }
        }
        stats_pairs_add(&j->tally.pairs, pair_points); /* cannot overflow: 2 x 3 points */
    }
    return NULL;
}

static int selfplay_usage(FILE *out, int status)
{
    fprintf(out,
            "usage: shesh selfplay [--games N] [--seed S] [--threads T] PLAYER_A PLAYER_B\n"
            "       shesh selfplay --speed [--positions N] [--seed S] [ENGINE]\n"
            "       shesh selfplay --dump [--positions N] [--seed S] [ENGINE]\n\n"
            "Plays cubeless money games between two engines with duplicate dice (each\n"
            "seeded dice sequence twice, seats swapped) and prints A's points per game\n"
            "with its standard error. PLAYER is ENGINE[:PLIES], ENGINE one of default,\n"
            "calibrated, pubeval, random; PLIES 0..4 (default 0); or remote:ADDR, a\n"
            "server of gnubg's external-player protocol at ADDR (host:port or a Unix\n"
            "socket), e.g. gnubg's own `external` (games then run on one thread).\n"
            "--speed times the engine's move decisions at 0, 1 and 2 plies on positions\n"
            "met in its own games.\n"
            "--dump prints such positions with a roll, the engine's moves at 0, 1 and 2\n"
            "plies, its 0-ply chances and every legal result, one line each (TSV), for\n"
            "tests/tools/gnubg_judge.py to rate against gnubg.\n\n"
            "  --games N      games to play, 2 to 100000000 (default 1000; in pairs)\n"
            "  --seed S       the seed of the dice, 0 to 2^64-1 (default 1)\n"
            "  --threads T    threads playing the games, 1 to 64 (default 2)\n"
            "  --speed        time the engine's decisions instead of playing\n"
            "  --dump         print positions and the engine's moves instead (TSV)\n"
            "  --positions N  positions for --speed and --dump, 1 to 1000000 (default 300)\n"
            "  --help         this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done, 1 a failure (an engine or a remote player), 2 usage.\n");
    return status;
}

/* The options of a run. */
typedef struct SelfplayOpts {
    long games, positions;
    uint64_t seed;
    int threads;
    bool speed, dump;
    const char *names[2];
    int named;
} SelfplayOpts;

/* Returns EXIT_OK to go on, -1 when the help was printed, or EXIT_USAGE. */
static int parse_options(int argc, char **argv, SelfplayOpts *o)
{
    enum { OPT_GAMES = 256, OPT_POSITIONS, OPT_SEED, OPT_THREADS, OPT_SPEED, OPT_DUMP };
    static const struct option opts[] = {
        {"games", required_argument, NULL, OPT_GAMES},
        {"positions", required_argument, NULL, OPT_POSITIONS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"speed", no_argument, NULL, OPT_SPEED},
        {"dump", no_argument, NULL, OPT_DUMP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (SelfplayOpts){1000, 300, 1, 2, false, false, {NULL, NULL}, 0};
    Err err = {{0}};
    bool ok = true;
    int c;
    cli_getopt_start();
    while (ok && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_GAMES: ok = num_long("--games", optarg, 2, 100000000L, &o->games, &err); break;
        case OPT_POSITIONS:
            ok = num_long("--positions", optarg, 1, 1000000L, &o->positions, &err);
            break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &o->seed, &err); break;
        case OPT_THREADS: ok = num_int("--threads", optarg, 1, 64, &o->threads, &err); break;
        case OPT_SPEED: o->speed = true; break;
        case OPT_DUMP: o->speed = o->dump = true; break;
        case 'h': selfplay_usage(stdout, EXIT_OK); return -1;
        default: return cli_option_error("selfplay", c, argv, opts);
        }
    }
    if (!ok)
        return cli_usage_error("selfplay", "%s", err.text);
    int most = o->speed ? 1 : 2;
    for (int i = optind; i < argc; i++) {
        if (o->named == most)
            return cli_usage_error("selfplay", "unexpected argument '%s'", argv[i]);
        o->names[o->named++] = argv[i];
    }
    if (!o->speed && o->named != 2)
        return cli_usage_error("selfplay", "give two players, PLAYER_A and PLAYER_B");
    for (int s = 0; !o->speed && s < o->named; s++) {
        PlayerSpec spec;
        if (!player_spec_parse(o->names[s], &spec, &err))
            return cli_usage_error("selfplay", "%s", err.text);
    }
    return EXIT_OK;
}

static int run_speed(const char *engine_name, long positions, uint64_t seed, bool dump);

int cli_selfplay(int argc, char **argv)
{
    SelfplayOpts opt;
    int rc = parse_options(argc, argv, &opt);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    long games = opt.games, positions = opt.positions;
    uint64_t seed = opt.seed;
    int threads = opt.threads;
    const char *names[2] = {opt.names[0], opt.names[1]};
    if (opt.speed)
        return run_speed(names[0] ? names[0] : "default", positions, seed, opt.dump);

    Engine *engines[2] = {NULL, NULL};
    PlayerSpec specs[2];
    Job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    int status = EXIT_FAIL;
    if (!jobs || !tids)
        goto done;
    for (int s = 0; s < 2; s++) {
        Err err = {{0}};
        if (!player_spec_parse(names[s], &specs[s], &err)) {
            fprintf(stderr, "shesh selfplay: %s\n", err.text);
            status = EXIT_USAGE;
            goto done;
        }
        if (specs[s].kind == PLAYER_KIND_REMOTE) {
            threads = 1; /* one connection, one game at a time */
            continue;
        }
        engines[s] = engine_new(specs[s].engine, &err);
        if (!engines[s]) {
            fprintf(stderr, "shesh selfplay: %s\n", err.text);
            goto done;
        }
    }
    /* Every thread its own players (scratch memory, connection), made here
     * so that a connection that fails is reported before any game. */
    for (int t = 0; t < threads; t++)
        for (int s = 0; s < 2; s++) {
            Err err = {{0}};
            jobs[t].players[s] = player_spec_make(&specs[s], engines[s], PLAYER_REMOTE_REPLY_S, &err);
            if (!jobs[t].players[s]) {
                fprintf(stderr, "shesh selfplay: %s: %s\n", names[s], err.text);
                goto done;
            }
        }
    double t0 = clock_now();
    for (int t = 0; t < threads; t++) {
        jobs[t].seed = seed;
        jobs[t].pairs = games / 2;
        jobs[t].thread = t;
        jobs[t].threads = threads;
        if (pthread_create(&tids[t], NULL, job_main, &jobs[t])) {
            fprintf(stderr, "shesh selfplay: cannot start a thread\n");
            for (int k = 0; k < t; k++)
                pthread_join(tids[k], NULL);
            goto done;
        }
    }
    Tally all = {0};
    for (int t = 0; t < threads; t++) {
        pthread_join(tids[t], NULL);
        Tally *x = &jobs[t].tally;
        stats_pairs_merge(&all.pairs, &x->pairs);
        all.games += x->games;
        for (int s = 0; s < 2; s++) {
            all.wins[s] += x->wins[s], all.gammons[s] += x->gammons[s];
            all.backgammons[s] += x->backgammons[s];
            all.seconds[s] += x->seconds[s], all.decisions[s] += x->decisions[s];
        }
        if (x->failed && !all.failed) {
            all.failed = true;
            all.status = x->status;
            all.err = x->err;
        }
    }
    if (all.failed)
        fprintf(stderr, "shesh selfplay: %s (%s)\n", all.err.text,
                player_status_name(all.status));
    if (all.failed || all.pairs.n == 0)
        goto done;
    double wall = clock_now() - t0;
    StatsSummary sum;
    stats_pairs_summary(&all.pairs, &sum);
    double se = all.pairs.n > 1 ? sum.se : 0.0; /* one pair: no spread to tell */
    printf("%s vs %s: %ld games (%lld duplicate pairs), seed %llu\n", names[0], names[1],
           all.games, (long long)all.pairs.n, (unsigned long long)seed);
    printf("  A points per game: %+.3f +- %.3f (1 SE)\n", sum.ppg, se);
    printf("  A wins %.1f %%, gammons A %.1f %% B %.1f %%, backgammons A %.2f %% B %.2f %%\n",
           100.0 * all.wins[0] / all.games, 100.0 * all.gammons[0] / all.games,
           100.0 * all.gammons[1] / all.games, 100.0 * all.backgammons[0] / all.games,
           100.0 * all.backgammons[1] / all.games);
    printf("  time per move decision: A %.3f ms, B %.3f ms; %.1f games/s on %d threads\n",
           1e3 * all.seconds[0] / all.decisions[0], 1e3 * all.seconds[1] / all.decisions[1],
           all.games / wall, threads);
    status = EXIT_OK;
done:
    for (int t = 0; jobs && t < threads; t++)
        for (int s = 0; s < 2; s++)
            player_close(jobs[t].players[s]);
    free(jobs);
    free(tids);
    for (int s = 0; s < 2; s++)
        engine_free(engines[s]);
    return status;
}

/* ---- decision speed ---- */

typedef struct Sample {
    Position *pos;
    long n, cap;
    uint64_t rng;
} Sample;

/* Keeps about one position in four met in the games. */
static void keep_position(void *ctx, const Position *p, int seat)
{
    (void)seat;
    Sample *s = ctx;
    if (s->n < s->cap && selfplay_rand(&s->rng) % 4 == 0)
        s->pos[s->n++] = *p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One TSV line: position, roll, moves at 0/1/2 plies, 0-ply chances and
 * cubeless equity, every legal result (Position IDs). */
static void dump_line(Player *const by_plies[3], const Engine *e, EngineScratch *sc,
                      const Position *p, int d1, int d2, const CubeState *cs, MoveList *l)
{
    char id[POSID_LEN + 1];
    posid_encode(p, id);
    printf("%s\t%d%d", id, d1, d2);
    for (int plies = 0; plies <= 2; plies++) {
        Move m;
        bool moved = false;
        if (player_move(by_plies[plies], p, cs, d1, d2, &m, &moved, NULL) == PLAYER_OK && moved)
            posid_encode(&m.result, id);
        else
            snprintf(id, sizeof id, "-");
        printf("\t%s", id);
    }
    EvalOptions opt = {0, false};
    Evaluation ev;
    engine_evaluate(e, sc, p, cs, &opt, &ev, NULL);
    printf("\t%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", ev.p_win, ev.p_win_gammon, ev.p_win_bg,
           ev.p_lose_gammon, ev.p_lose_bg, ev.equity);
    movegen_generate(p, d1, d2, l);
    printf("\t");
    for (int i = 0; i < l->count; i++) {
        posid_encode(&l->moves[i].result, id);
        printf("%s%s", i ? "," : "", id);
    }
    printf("\n");
}

/* The player of spec at 0, 1 and 2 plies (the same move rule at each for
 * pubeval and random). */
static bool make_by_plies(const PlayerSpec *spec, const Engine *e, Player *by_plies[3], Err *err)
{
    for (int plies = 0; plies <= 2; plies++) {
        PlayerSpec at = *spec;
        if (at.kind == PLAYER_KIND_ENGINE)
            at.plies = plies;
        if (!(by_plies[plies] = player_spec_make(&at, e, PLAYER_REMOTE_REPLY_S, err)))
            return false;
    }
    return true;
}

static int run_speed(const char *player_name, long positions, uint64_t seed, bool dump)
{
    Err err = {{0}};
    PlayerSpec spec;
    if (!player_spec_parse(player_name, &spec, &err) || spec.kind == PLAYER_KIND_REMOTE) {
        fprintf(stderr, "shesh selfplay: %s\n",
                err.text[0] ? err.text : "--speed and --dump time a local player");
        return EXIT_USAGE;
    }
    Engine *e = engine_new(spec.engine, &err);
    if (!e) {
        fprintf(stderr, "shesh selfplay: %s\n", err.text);
        return EXIT_FAIL;
    }
    int status = EXIT_FAIL;
    Sample s = {calloc((size_t)positions, sizeof(Position)), 0, positions, seed};
    double *ms = calloc((size_t)positions, sizeof *ms);
    MoveList *l = malloc(sizeof *l);
    EngineScratch *sc = engine_scratch_new(&err);
    Player *by_plies[3] = {NULL, NULL, NULL};
    if (!s.pos || !ms || !l || !sc || !make_by_plies(&spec, e, by_plies, &err)) {
        fprintf(stderr, "shesh selfplay: %s\n", err.text[0] ? err.text : "out of memory");
        goto done;
    }
    /* Positions from its own games at 0 ply. */
    Player *const players[2] = {by_plies[0], by_plies[0]};
    for (long g = 0; s.n < positions && g < 100000; g++) {
        SelfplayResult r;
        selfplay_game(players, game_seed(seed, g), (int)(g & 1), keep_position, &s, &r);
        if (r.failed) {
            fprintf(stderr, "shesh selfplay: %s\n", r.err.text);
            goto done;
        }
    }
    CubeState cs = {0};
    cs.cube = 1, cs.owner = -1, cs.max_cube = 1;
    if (dump) {
        uint64_t rng = seed;
        printf("#posid\tdice\tmove0\tmove1\tmove2\tchances0\tresults\n");
        for (long i = 0; i < s.n; i++) {
            int d1, d2;
            selfplay_dice(&rng, 1, &d1, &d2); /* any roll, doubles too */
            dump_line(by_plies, e, sc, &s.pos[i], d1, d2, &cs, l);
        }
        status = EXIT_OK;
        goto done;
    }
    printf("%s: move decisions on %ld positions from its own games (roll: a seeded die)\n",
           player_id(by_plies[0]), s.n);
    for (int plies = 0; plies <= 2; plies++) {
        uint64_t rng = seed;
        double total = 0.0;
        for (long i = 0; i < s.n; i++) {
            int d1, d2;
            selfplay_dice(&rng, 1, &d1, &d2); /* any roll, doubles too */
            Move m;
            bool moved;
            double t0 = clock_now();
            player_move(by_plies[plies], &s.pos[i], &cs, d1, d2, &m, &moved, NULL);
            ms[i] = 1e3 * (clock_now() - t0);
            total += ms[i];
        }
        qsort(ms, (size_t)s.n, sizeof *ms, cmp_double);
        printf("  %d-ply: mean %.3f ms, median %.3f ms, p99 %.3f ms, max %.3f ms\n", plies,
               total / s.n, ms[s.n / 2], ms[(s.n * 99) / 100], ms[s.n - 1]);
    }
    status = EXIT_OK;
done:
    for (int k = 0; k < 3; k++)
        player_close(by_plies[k]);
    engine_scratch_free(sc);
    free(l);
    free(s.pos);
    free(ms);
    engine_free(e);
    return status;
}
