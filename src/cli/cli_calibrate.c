/* cli_calibrate.c - `shesh calibrate`: fits the logistic models of
 * eval_contact.c on self-play games and writes eval_contact_model.c.
 *
 * Every position met before a roll with contact is a sample: its features
 * (eval_contact_features) and, once the game is over, how it ended for the
 * player on roll. The five models are fitted by Newton's method (iteratively
 * reweighted least squares) with a small ridge penalty, each on the samples
 * where it applies: P(win) on all; P(gammon | win) on the wins where the
 * loser had nothing off yet; P(backgammon | gammon) on the gammon wins; the
 * same for losses. The race model is not fitted; its predictions are only
 * compared with the outcomes, as a check printed with the others. */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "clock.h"
#include "eval_contact.h"
#include "eval_race.h"
#include "eval_static.h"
#include "num.h"
#include "player_remote.h"
#include "player_spec.h"
#include "selfplay.h"
#include "splitmix.h"

typedef struct Sample {
    float f[CONTACT_FEATURES];
    float race[OUT_COUNT]; /* race model's outputs; race[0] = -1 with contact */
    int8_t seat;
    int8_t result; /* points won (+) or lost (-) by the player on roll */
} Sample;

typedef struct Samples {
    Sample *v;
    size_t n, cap;
    size_t game_start; /* first sample of the game being played */
    bool failed;
    const BearoffDb *bearoff;
} Samples;

static void observe(void *ctx, const Position *p, int seat)
{
    Samples *s = ctx;
    if (s->failed)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        Sample *v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->failed = true;
            return;
        }
        s->v = v, s->cap = cap;
    }
    Sample *x = &s->v[s->n++];
    double f[CONTACT_FEATURES];
    eval_contact_features(p, f);
    for (int i = 0; i < CONTACT_FEATURES; i++)
        x->f[i] = (float)f[i];
    x->seat = (int8_t)seat;
    x->race[OUT_WIN] = -1.0f;
    double out[OUT_COUNT];
    if (eval_is_race(p) && !eval_game_over(p, out)) {
        eval_race(s->bearoff, NULL, p, out, NULL);
        for (int i = 0; i < OUT_COUNT; i++)
            x->race[i] = (float)out[i];
    }
}

typedef struct Job {
    Player *player; /* this thread's own, in both seats */
    uint64_t seed;
    long games;
    int thread, threads;
    Samples samples;
} Job;

static void *job_main(void *arg)
{
    Job *j = arg;
    for (long g = j->thread; g < j->games; g += j->threads) {
        uint64_t s = j->seed ^ ((uint64_t)g * 0x9e3779b97f4a7c15u);
        SelfplayResult r;
        j->samples.game_start = j->samples.n;
        Player *const players[2] = {j->player, j->player};
        selfplay_game(players, splitmix64(&s), (int)(g & 1), observe, &j->samples, &r);
        if (r.failed) {
            fprintf(stderr, "shesh calibrate: %s\n", r.err.text);
            j->samples.failed = true;
            return NULL;
        }
        for (size_t i = j->samples.game_start; i < j->samples.n; i++) {
            Sample *x = &j->samples.v[i];
            x->result = (int8_t)(x->seat == r.winner ? r.points : -r.points);
        }
    }
    return NULL;
}

/* ---- logistic regression ---- */

/* Does sample x belong to model m, and is its label 1? */
static bool applies(const Sample *x, int m, bool *label)
{
    if (x->race[OUT_WIN] >= 0.0f)
        return false;
    int r = x->result;
    switch (m) {
    case CONTACT_WIN: *label = r > 0; return true;
    case CONTACT_WIN_GAMMON: *label = r >= 2; return r > 0 && x->f[CF_OPP_OFF] == 0.0f;
    case CONTACT_WIN_BG: *label = r >= 3; return r >= 2 && x->f[CF_OPP_OFF] == 0.0f;
    case CONTACT_LOSE_GAMMON: *label = r <= -2; return r < 0 && x->f[CF_MY_OFF] == 0.0f;
    case CONTACT_LOSE_BG: *label = r <= -3; return r <= -2 && x->f[CF_MY_OFF] == 0.0f;
    default: return false;
    }
}

/* Solves a x = b (n x n, row-major) by Gaussian elimination with partial
 * pivoting; false if singular. */
static bool solve(double *a, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
                piv = r;
        if (fabs(a[piv * n + c]) < 1e-12)
            return false;
        if (piv != c) {
            for (int k = 0; k < n; k++) {
                double t = a[c * n + k];
                a[c * n + k] = a[piv * n + k];
                a[piv * n + k] = t;
            }
            double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double k = a[r * n + c] / a[c * n + c];
            for (int j = c; j < n; j++)
                a[r * n + j] -= k * a[c * n + j];
            b[r] -= k * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int j = c + 1; j < n; j++)
            b[c] -= a[c * n + j] * b[j];
        b[c] /= a[c * n + c];
    }
    return true;
}

static double predict(const double *beta, const float *f)
{
    double z = 0.0;
    for (int i = 0; i < CONTACT_FEATURES; i++)
        z += beta[i] * f[i];
    return 1.0 / (1.0 + exp(-z));
}

#define RIDGE 1e-3

/* Fits model m on the features in mask (bit i: feature i); returns the
 * number of samples used. */
static long fit(const Samples *s, int m, unsigned mask, double beta[CONTACT_FEATURES])
{
    enum { N = CONTACT_FEATURES };
    long used = 0;
    memset(beta, 0, N * sizeof beta[0]);
    for (int iter = 0; iter < 30; iter++) {
        double h[N * N] = {0}, g[N] = {0};
        used = 0;
        for (size_t i = 0; i < s->n; i++) {
            bool y;
            if (!applies(&s->v[i], m, &y))
                continue;
            used++;
            const float *f = s->v[i].f;
            double p = predict(beta, f), w = p * (1.0 - p);
            for (int a = 0; a < N; a++) {
                g[a] += ((y ? 1.0 : 0.0) - p) * f[a];
                for (int b = 0; b <= a; b++)
                    h[a * N + b] += w * f[a] * f[b];
            }
        }
        if (used == 0)
            return 0;
        for (int a = 0; a < N; a++) {
            for (int b = a + 1; b < N; b++)
                h[a * N + b] = h[b * N + a];
            h[a * N + a] += RIDGE * used;
            g[a] -= RIDGE * used * beta[a];
            if (!(mask >> a & 1)) { /* a feature left out: pinned at 0 */
                for (int b = 0; b < N; b++)
                    h[a * N + b] = h[b * N + a] = 0.0;
                h[a * N + a] = 1.0;
                g[a] = 0.0;
            }
        }
        if (!solve(h, g, N))
            return used;
        double step = 0.0;
        for (int a = 0; a < N; a++) {
            beta[a] += g[a];
            step += fabs(g[a]);
        }
        if (step < 1e-9)
            break;
    }
    return used;
}

/* Calibration table: predicted against observed, by tenths. */
static void report(FILE *out, const char *name, long used, const Samples *s,
                   double (*prob)(const Sample *, const void *), const void *arg,
                   bool (*label)(const Sample *, bool *, const void *))
{
    double pred[10] = {0}, seen[10] = {0}, count[10] = {0}, loss = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        bool y;
        if (!label(&s->v[i], &y, arg))
            continue;
        double p = prob(&s->v[i], arg);
        int bin = (int)(p * 10.0);
        bin = bin < 0 ? 0 : bin > 9 ? 9 : bin;
        pred[bin] += p, seen[bin] += y, count[bin]++;
        double q = y ? p : 1.0 - p;
        loss -= log(q > 1e-12 ? q : 1e-12);
    }
    fprintf(out, "%s: %ld samples, log loss %.4f\n  predicted/observed:", name, used,
            used ? loss / used : 0.0);
    for (int b = 0; b < 10; b++)
        if (count[b] > 0)
            fprintf(out, " %.2f/%.2f", pred[b] / count[b], seen[b] / count[b]);
    fprintf(out, "\n");
}

typedef struct ModelArg {
    int model;
    const double *beta;
} ModelArg;

static double model_prob(const Sample *x, const void *arg)
{
    const ModelArg *m = arg;
    return predict(m->beta, x->f);
}

static bool model_label(const Sample *x, bool *y, const void *arg)
{
    const ModelArg *m = arg;
    return applies(x, m->model, y);
}

/* The race model's output k against what happened. */
static double race_prob(const Sample *x, const void *arg)
{
    return x->race[*(const int *)arg];
}

static bool race_label(const Sample *x, bool *y, const void *arg)
{
    int r = x->result;
    switch (*(const int *)arg) {
    case OUT_WIN: *y = r > 0; break;
    case OUT_WIN_GAMMON: *y = r >= 2; break;
    case OUT_WIN_BG: *y = r >= 3; break;
    case OUT_LOSE_GAMMON: *y = r <= -2; break;
    default: *y = r <= -3; break;
    }
    return x->race[OUT_WIN] >= 0.0f;
}

static const char *const model_names[CONTACT_MODELS] = {
    "win", "gammon | win", "backgammon | gammon win", "gammon | loss",
    "backgammon | gammon loss",
};

/* "1,3,4": a bit set per listed feature slot (eval_contact.h). */
static bool parse_mask(const char *opt, const char *list, unsigned *mask, Err *err)
{
    *mask = 0;
    const char *q = list;
    do {
        char word[48];
        size_t len = strcspn(q, ",");
        if (len >= sizeof word)
            len = sizeof word - 1; /* too long for any slot: num_int refuses it */
        memcpy(word, q, len);
        word[len] = '\0';
        int i;
        if (!num_int(opt, word, 0, CONTACT_FEATURES - 1, &i, err))
            return false;
        *mask |= 1u << i;
        q += strcspn(q, ",");
    } while (*q++ == ',');
    return true;
}

static int usage(FILE *out, int status)
{
    fprintf(out,
            "usage: shesh calibrate [--games N] [--seed S] [--threads T] [--engine E[:PLIES]]\n"
            "                       [--out FILE] [--win-features LIST] [--gammon-features LIST]\n\n"
            "Plays N cubeless games of engine E against itself (default: default:0,\n"
            "20000 games), fits the contact evaluator's logistic models on the positions\n"
            "met and writes them as C (eval_contact_model.c) to FILE or standard output.\n"
            "Fit statistics and a check of the race model go to standard error.\n"
            "LIST: feature slots (eval_contact.h) a model may use, e.g. 0,1 (default all).\n\n"
            "  --games N               games to play, 1 to 100000000 (default 20000)\n"
            "  --seed S                the seed of the dice, 0 to 2^64-1 (default 1)\n"
            "  --threads T             threads playing the games, 1 to 64 (default 2)\n"
            "  --engine E[:PLIES]      the engine that plays (default default:0)\n"
            "  --out FILE              write the C source to FILE\n"
            "  --win-features LIST     feature slots of the win model\n"
            "  --gammon-features LIST  feature slots of the gammon and backgammon models\n"
            "  --help                  this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done, 1 a failure, 2 usage.\n");
    return status;
}

int cli_calibrate(int argc, char **argv)
{
    enum { OPT_GAMES = 256, OPT_SEED, OPT_THREADS, OPT_ENGINE, OPT_OUT, OPT_WIN, OPT_GAMMON };
    static const struct option opts[] = {
        {"games", required_argument, NULL, OPT_GAMES},
        {"seed", required_argument, NULL, OPT_SEED},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"engine", required_argument, NULL, OPT_ENGINE},
        {"out", required_argument, NULL, OPT_OUT},
        {"win-features", required_argument, NULL, OPT_WIN},
        {"gammon-features", required_argument, NULL, OPT_GAMMON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long games = 20000;
    uint64_t seed = 1;
    int threads = 2;
    const char *player = "default:0", *out_path = NULL;
    unsigned masks[2] = {~0u, ~0u}; /* features of the win model, of the others */
    Err perr = {{0}};
    bool ok = true;
    int c;
    cli_getopt_start();
    while (ok && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_GAMES: ok = num_long("--games", optarg, 1, 100000000L, &games, &perr); break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &seed, &perr); break;
        case OPT_THREADS: ok = num_int("--threads", optarg, 1, 64, &threads, &perr); break;
        case OPT_ENGINE: player = optarg; break;
        case OPT_OUT: out_path = optarg; break;
        case OPT_WIN: ok = parse_mask("--win-features", optarg, &masks[0], &perr); break;
        case OPT_GAMMON: ok = parse_mask("--gammon-features", optarg, &masks[1], &perr); break;
        case 'h': return usage(stdout, EXIT_OK);
        default: return cli_option_error("calibrate", c, argv, opts);
        }
    }
    if (!ok)
        return cli_usage_error("calibrate", "%s", perr.text);
    if (optind < argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'", argv[optind]);
    PlayerSpec spec;
    Err serr;
    if (!player_spec_parse(player, &spec, &serr))
        return cli_usage_error("calibrate", "--engine: %s", serr.text);
    if (spec.kind == PLAYER_KIND_REMOTE || spec.kind == PLAYER_KIND_GNUBG ||
        spec.kind == PLAYER_KIND_UBGI)
        return cli_usage_error("calibrate", "--engine: '%s' is remote; calibrate plays in process",
                               player);
    Err err = {{0}};
    Engine *e = engine_new_with(spec.engine, spec.weights[0] ? spec.weights : NULL, &err);
    if (!e) {
        fprintf(stderr, "shesh calibrate: %s\n", err.text);
        return EXIT_FAIL;
    }
    BearoffDb *db = bearoff_new(&err);
    Job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    Samples all = {0};
    int status = EXIT_FAIL;
    if (!db || !jobs || !tids)
        goto done;
    for (int t = 0; t < threads; t++)
        if (!(jobs[t].player = player_spec_make(&spec, e, PLAYER_REMOTE_REPLY_S, &err))) {
            fprintf(stderr, "shesh calibrate: %s\n", err.text);
            goto done;
        }
    double t0 = clock_now();
    int started = 0;
    for (int t = 0; t < threads; t++) {
        Job *j = &jobs[t];
        j->seed = seed, j->games = games, j->thread = t, j->threads = threads;
        j->samples.bearoff = db;
        if (pthread_create(&tids[t], NULL, job_main, j))
            break;
        started++;
    }
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    if (started < threads)
        goto done;
    for (int t = 0; t < threads; t++) {
        Samples *s = &jobs[t].samples;
        if (s->failed)
            goto done;
        Sample *v = realloc(all.v, (all.n + s->n) * sizeof *v + 1);
        if (!v)
            goto done;
        all.v = v;
        memcpy(all.v + all.n, s->v, s->n * sizeof *v);
        all.n += s->n;
    }
    fprintf(stderr, "%ld games of %s in %.1f s: %zu positions\n", games, player,
            clock_now() - t0, all.n);

    double beta[CONTACT_MODELS][CONTACT_FEATURES];
    for (int m = 0; m < CONTACT_MODELS; m++) {
        long used = fit(&all, m, masks[m != CONTACT_WIN] | 1u, beta[m]);
        ModelArg arg = {m, beta[m]};
        report(stderr, model_names[m], used, &all, model_prob, &arg, model_label);
    }
    long races = 0;
    for (size_t i = 0; i < all.n; i++)
        races += all.v[i].race[OUT_WIN] >= 0.0f;
    static const char *const race_names[OUT_COUNT] = {
        "race model (not fitted): win", "race model: win gammon", "race model: win backgammon",
        "race model: lose gammon", "race model: lose backgammon"};
    for (int k = 0; k < OUT_COUNT; k++)
        report(stderr, race_names[k], races, &all, race_prob, &k, race_label);

    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "shesh calibrate: cannot write %s\n", out_path);
        goto done;
    }
    fprintf(out, "/* eval_contact_model.c - the fitted coefficients of eval_contact.c.\n"
                 " * Written by `shesh calibrate`; do not edit by hand. Made with:\n"
                 " *     shesh calibrate");
    for (int i = 1; i < argc; i++)
        fprintf(out, " %s", argv[i]);
    fprintf(out, "\n * (%ld games of %s, %zu positions). */\n#include \"eval_contact.h\"\n\n"
                 "const ContactModel contact_model_default = {{\n",
            games, player, all.n);
    for (int m = 0; m < CONTACT_MODELS; m++) {
        fprintf(out, "    /* %s */\n    {", model_names[m]);
        for (int i = 0; i < CONTACT_FEATURES; i++)
            fprintf(out, "%s%.6f", i ? ", " : "", beta[m][i]);
        fprintf(out, "},\n");
    }
    fprintf(out, "}};\n");
    if (out != stdout)
        fclose(out);
    status = EXIT_OK;
done:
    for (int t = 0; jobs && t < threads; t++) {
        free(jobs[t].samples.v);
        player_close(jobs[t].player);
    }
    free(all.v);
    free(jobs);
    free(tids);
    bearoff_free(db);
    engine_free(e);
    return status;
}
