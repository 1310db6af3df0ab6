/* cli_selfplay.c - `shesh selfplay`: the engine's move decisions timed
 * (--speed) or printed for gnubg to rate (--dump), on positions from its
 * own games (play/selfplay.h). Games between two players are `shesh match`
 * (cli_match.c). */
#include <getopt.h>
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
#include "splitmix.h"

static uint64_t game_seed(uint64_t seed, long pair)
{
    uint64_t s = seed ^ ((uint64_t)pair * 0xd1b54a32d192ed03u);
    return splitmix64(&s);
}

static int selfplay_usage(FILE *out, int status)
{
    fprintf(out,
            "usage: shesh selfplay --speed [--positions N] [--seed S] [ENGINE]\n"
            "       shesh selfplay --dump [--positions N] [--seed S] [ENGINE]\n\n"
            "--speed times the engine's move decisions at 0, 1 and 2 plies on positions\n"
            "met in its own games.\n"
            "--dump prints such positions with a roll, the engine's moves at 0, 1 and 2\n"
            "plies, its 0-ply chances and every legal result, one line each (TSV), for\n"
            "tests/tools/gnubg_judge.py to rate against gnubg.\n"
            "ENGINE is a player in process, as shesh match names it: shesh (the\n"
            "default), calibrated, pubeval or random. Games between two players are\n"
            "'shesh match PLAYER_A PLAYER_B'.\n\n"
            "  --speed        time the engine's decisions\n"
            "  --dump         print positions and the engine's moves instead (TSV)\n"
            "  --positions N  positions to use, 1 to 1000000 (default 300)\n"
            "  --seed S       the seed of the games and rolls, 0 to 2^64-1 (default 1)\n"
            "  --help         this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done, 1 a failure (the engine cannot be made), 2 usage.\n");
    return status;
}

/* The options of a run. */
typedef struct SelfplayOpts {
    long positions;
    uint64_t seed;
    bool speed, dump;
    const char *engine; /* NULL: the default */
} SelfplayOpts;

/* Returns EXIT_OK to go on, -1 when the help was printed, or EXIT_USAGE. */
static int parse_options(int argc, char **argv, SelfplayOpts *o)
{
    enum { OPT_POSITIONS = 256, OPT_SEED, OPT_SPEED, OPT_DUMP };
    static const struct option opts[] = {
        {"positions", required_argument, NULL, OPT_POSITIONS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"speed", no_argument, NULL, OPT_SPEED},
        {"dump", no_argument, NULL, OPT_DUMP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (SelfplayOpts){300, 1, false, false, NULL};
    Err err = {{0}};
    bool ok = true;
    int c;
    cli_getopt_start();
    while (ok && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_POSITIONS:
            ok = num_long("--positions", optarg, 1, 1000000L, &o->positions, &err);
            break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &o->seed, &err); break;
        case OPT_SPEED: o->speed = true; break;
        case OPT_DUMP: o->speed = o->dump = true; break;
        case 'h': selfplay_usage(stdout, EXIT_OK); return -1;
        default: return cli_option_error("selfplay", c, argv, opts);
        }
    }
    if (!ok)
        return cli_usage_error("selfplay", "%s", err.text);
    /* The games between two players moved to shesh match. */
    if (!o->speed)
        return cli_usage_error("selfplay",
                               "give --speed or --dump (games between two players: "
                               "shesh match PLAYER_A PLAYER_B)");
    for (int i = optind; i < argc; i++) {
        if (o->engine)
            return cli_usage_error("selfplay", "unexpected argument '%s'", argv[i]);
        o->engine = argv[i];
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
    return run_speed(opt.engine ? opt.engine : "default", opt.positions, opt.seed, opt.dump);
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
    if (s->n < s->cap && splitmix64(&s->rng) % 4 == 0)
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
    if (!player_spec_parse(player_name, &spec, &err))
        return cli_usage_error("selfplay", "%s", err.text);
    if (spec.kind == PLAYER_KIND_REMOTE || spec.kind == PLAYER_KIND_GNUBG ||
        spec.kind == PLAYER_KIND_UBGI)
        return cli_usage_error("selfplay", "--speed and --dump time a player in process, not '%s'",
                               player_name);
    Engine *e = engine_new_with(spec.engine, spec.weights[0] ? spec.weights : NULL, &err);
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
