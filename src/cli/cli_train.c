/* cli_train.c - `shesh train`: trains the contact network of nn.c by
 * temporal differences on self-play and writes it as a network file
 * (nn_file.h).
 *
 * Each turn the player on roll tries every legal move for his roll and
 * plays the one the network (or, once there is no contact, the race
 * evaluator; at the end, the result) values most in cubeless money equity.
 * The value of that choice, seen from the player on roll, is the target of
 * the position he rolled from (TD(0) on positions before the roll, a sample
 * of one roll): the network learns what the next position is worth, and the
 * exact values of finished games and races flow back into it. Positions
 * with contact only; the race evaluator answers the rest. Single-threaded,
 * so a seed gives the same network every time.
 *
 * A long run checkpoints (OUT.ckpt, train_ckpt.h) and resumes from it to
 * the same network, bit for bit, as a run that never stopped. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opt.h"
#include "clock.h"
#include "err.h"
#include "eval_race.h"
#include "eval_static.h"
#include "movegen.h"
#include "nn.h"
#include "label_file.h"
#include "nn_file.h"
#include "num.h"
#include "pubeval.h"
#include "selfplay.h"
#include "splitmix.h"
#include "train_ckpt.h"

#define TRAIN_PATH_MAX 4096 /* --out and the files next to it */

typedef struct Trainer {
    NnWeights *w;
    BearoffDb *db;
    RaceCache *cache;
    MoveList *list;
    const LabelSet *labels; /* --labels: supervised steps instead of games */
    float rank;             /* --rank: the weight of the steps on pairs */
    unsigned char *pair;    /* with --rank: pair[k], labels k and k + 1 are
                               results of one roll of one position */
    long *order, order_epoch; /* this epoch's order of the labels */
} Trainer;

/* Outputs of the position q (player on roll about to roll). */
static void value(Trainer *t, const Position *q, double out[OUT_COUNT])
{
    if (eval_game_over(q, out))
        return;
    if (eval_is_race(q)) {
        eval_race(t->db, t->cache, q, out, NULL);
        return;
    }
    nn_eval(t->w, q, out);
    eval_clamp(out);
}

/* The network's choice for the roll; out gets its outputs (mover's view).
 * Returns false when there is no legal move. */
static bool choose(Trainer *t, const Position *p, int d1, int d2, Position *next,
                   double out[OUT_COUNT])
{
    if (movegen_generate(p, d1, d2, t->list) == 0)
        return false;
    double best = -1e9, o[OUT_COUNT];
    for (int i = 0; i < t->list->count; i++) {
        Position q = t->list->moves[i].result;
        pos_swap(&q);
        value(t, &q, o);
        eval_invert(o);
        double v = eval_money_equity(o);
        if (v > best) {
            best = v;
            *next = q;
            memcpy(out, o, sizeof o);
        }
    }
    return true;
}

static void train_game(Trainer *t, uint64_t seed, float rate)
{
    uint64_t rng = seed;
    Position p;
    pos_start(&p);
    for (int turn = 0; turn < 10000; turn++) {
        int d1, d2;
        selfplay_dice(&rng, turn, &d1, &d2);
        Position next;
        double target[OUT_COUNT];
        if (!choose(t, &p, d1, d2, &next, target)) {
            next = p;
            pos_swap(&next);
            value(t, &next, target);
            eval_invert(target);
        }
        if (!eval_is_race(&p))
            nn_learn(t->w, &p, target, rate);
        double over[OUT_COUNT];
        if (eval_game_over(&next, over) || eval_is_race(&next))
            return; /* the rest is the race evaluator's */
        p = next;
    }
}

/* A race network learns races the bear-off database does not value
 * exactly, and only those: any other label is refused. */
static bool race_labels(const LabelSet *set, Err *err)
{
    for (long i = 0; i < set->n; i++)
        if (!eval_race_outside(&set->pos[i]))
            return err_set(err, "label %ld is %s, not a race for a race network (shesh label "
                                "--race makes them)",
                           i + 1, eval_is_race(&set->pos[i]) ? "a race with every checker home"
                                                             : "a contact position");
    return true;
}

/* Step g of a supervised run: label g mod n of epoch g / n, in an order
 * drawn for the epoch from the seed (so that a resumed run needs no state
 * but the step), towards the label's chances. */
static void train_label(Trainer *t, uint64_t seed, long g, float rate)
{
    long n = t->labels->n, epoch = g / n;
    if (t->order_epoch != epoch) {
        uint64_t s = seed ^ (0x9e3779b97f4a7c15u * (uint64_t)(epoch + 1));
        for (long i = 0; i < n; i++)
            t->order[i] = i;
        for (long i = n - 1; i > 0; i--) { /* Fisher-Yates */
            long j = (long)(splitmix64(&s) % (uint64_t)(i + 1));
            long tmp = t->order[i];
            t->order[i] = t->order[j], t->order[j] = tmp;
        }
        t->order_epoch = epoch;
    }
    long k = t->order[g % n];
    nn_learn(t->w, &t->labels->pos[k], t->labels->out[k], rate);
    if (t->pair && t->pair[k])
        nn_learn_pair(t->w, &t->labels->pos[k], &t->labels->pos[k + 1],
                      eval_money_equity(t->labels->out[k]) -
                          eval_money_equity(t->labels->out[k + 1]),
                      rate * t->rank);
}

/* pair[] of --rank: a byte a label, 1 where it and the label after it are
 * results of one roll (label_siblings). Returns how many pairs there are. */
static long find_pairs(const LabelSet *set, unsigned char *pair)
{
    long pairs = 0;
    for (long k = 0; k < set->n; k++) {
        pair[k] = label_siblings(set, k);
        pairs += pair[k];
    }
    return pairs;
}

/* Duplicate games, network (0 ply, race evaluator in races) against
 * pubeval: the network's points per game. */
static double against_pubeval(Trainer *t, long pairs, uint64_t seed)
{
    double total = 0.0;
    for (long g = 0; g < 2 * pairs; g++) {
        uint64_t rng = seed ^ ((uint64_t)(g / 2) * 0xd1b54a32d192ed03u);
        rng = splitmix64(&rng);
        int net_seat = (int)(g & 1), seat = 0;
        Position p;
        pos_start(&p);
        for (int turn = 0; turn < 10000; turn++) {
            int d1, d2;
            selfplay_dice(&rng, turn, &d1, &d2);
            Position next = p;
            double o[OUT_COUNT];
            if (seat == net_seat) {
                if (!choose(t, &p, d1, d2, &next, o))
                    pos_swap(&next);
            } else if (movegen_generate(&p, d1, d2, t->list) == 0) {
                pos_swap(&next);
            } else {
                bool race = eval_is_race(&p);
                double best = -1e18;
                for (int i = 0; i < t->list->count; i++) {
                    double v = pubeval_score(&t->list->moves[i].result, race);
                    if (v > best) {
                        best = v;
                        next = t->list->moves[i].result;
                    }
                }
                pos_swap(&next);
            }
            if (eval_game_over(&next, o)) {
                /* next is seen by the loser: the mover (seat) won. */
                double pts = 1.0 + o[OUT_LOSE_GAMMON] + o[OUT_LOSE_BG];
                total += seat == net_seat ? pts : -pts;
                break;
            }
            p = next;
            seat = !seat;
        }
    }
    return total / (2.0 * pairs);
}

/* The options of a run. games, seed, the rates and the network it starts
 * from (with --labels: the labels and the epochs) decide the network; the
 * others only what it is called, when it reports, checkpoints or stops. */
typedef struct TrainOpts {
    long games, check, stop; /* stop: 0, or the games after which to pause;
                                with --labels, steps: epochs x labels */
    const char *labels;      /* --labels FILE, or NULL */
    bool check_given;
    long epochs;
    uint64_t labels_hash;    /* label_set_hash of the labels; 0 without */
    uint64_t seed;
    float rate0, rate1;
    float rank;       /* --rank W, 0 without */
    bool from_default, resume;
    bool features;    /* --features: the network reads the first ten features */
    bool all_features; /* --all-features: all eighteen */
    bool race;        /* --race, or --from a race network: a race network */
    int inputs;       /* the inputs of the network trained (nn.h) */
    const char *from; /* --from FILE, or NULL */
    const char *out;
    char id[NN_ID_MAX]; /* --id, or --out's name without .snn */
    uint64_t start;     /* the starting network's hash; 0: random weights */
} TrainOpts;

/* The command that makes the same network: the options that decide it,
 * whatever the run was started or resumed with. */
static void print_command(FILE *f, const TrainOpts *o)
{
    char r0[32], r1[32];
    if (o->labels)
        fprintf(f, "shesh train --labels %s --epochs %ld", o->labels, o->epochs);
    else
        fprintf(f, "shesh train --games %ld", o->games);
    fprintf(f, " --seed %llu --rate %s --final-rate %s", (unsigned long long)o->seed,
            train_float_text(o->rate0, r0), train_float_text(o->rate1, r1));
    if (o->rank > 0)
        fprintf(f, " --rank %s", train_float_text(o->rank, r0));
    fprintf(f, "%s%s%s%s --id %s --out %s",
            o->from_default ? " --from-default" : o->from ? " --from " : "", o->from ? o->from : "",
            o->race && !o->from ? " --race" : "",
            o->all_features ? " --all-features" : o->features ? " --features" : "", o->id, o->out);
}

/* ---- options ---------------------------------------------------------------- */

static int usage(FILE *out, int status)
{
    fprintf(out,
            "usage: shesh train [--games N | --labels FILE [--epochs E]] [--seed S]\n"
            "                   [--rate R] [--final-rate R]\n"
            "                   [--check-every N] [--stop-after N]\n"
            "                   [--from-default | --from NET]\n"
            "                   [--features | --all-features | --race] [--rank W]\n"
            "                   [--id NAME] [--resume]\n"
            "                   --out FILE\n\n"
            "Trains the contact network by TD(0) self-play for N games (default\n"
            "200000), the learning rate going linearly from R (0.1) to the final rate\n"
            "(0.02), and writes it to FILE as a network file, the kind shesh weights\n"
            "shows and the other commands play with (docs/training.md). Every\n"
            "--check-every games (default 20000) it prints the network's points per\n"
            "game against pubeval (1000 duplicate games, 0 ply) and writes a checkpoint,\n"
            "FILE.ckpt. On SIGINT or SIGTERM it finishes the game it is playing, writes\n"
            "the checkpoint and exits 0; --stop-after N does the same after N games in\n"
            "all. --resume goes on from FILE.ckpt, with the same --games, --seed,\n"
            "--rate, --final-rate and starting network, to the very network an\n"
            "uninterrupted run makes; FILE.ckpt is removed once FILE is written.\n"
            "--from-default starts from the compiled-in network, --from NET from the\n"
            "network file NET, instead of random weights; a network of fewer hidden\n"
            "units than the build's gets the others, input weights from --seed and\n"
            "output weights zero. --features trains a network\n"
            "that reads the first ten hand-made features beside the points, and\n"
            "--all-features one that reads all eighteen (docs/engine.md); a starting\n"
            "network without them gets them with zero weights, so that it starts out\n"
            "valuing every position as before. With --labels, the training\n"
            "is supervised instead: E epochs (default 10) over the labels of a file of\n"
            "shesh label, each label once an epoch in an order drawn from the seed, the\n"
            "network's chances moved towards the label's; games then count steps (a\n"
            "label each), a report comes once a pass unless --check-every says\n"
            "otherwise, and every report also gives the equity's mean distance from\n"
            "the labels. --race (with --labels of shesh label --race) trains a race\n"
            "network, for the races the bear-off database does not value exactly, from\n"
            "random weights or from the race network --from names; with --features it\n"
            "reads ten race features beside the points, with --all-features also what\n"
            "the race model makes of the race (its chances and numbers of rolls). --rank W also\n"
            "trains, at W times the rate, the difference between the equities of each\n"
            "label and the next where the two are results of one roll of one position\n"
            "(as shesh label --moves writes them): what a choice of move depends on.\n\n"
            "  --games N        self-play games, 1 to 1000000000 (default 200000)\n"
            "  --labels FILE    train on these labels (shesh label) instead\n"
            "  --epochs E       passes over the labels, 1 to 100000 (default 10)\n"
            "  --seed S         the seed, 0 to 2^64-1 (default 1)\n"
            "  --rate R         the learning rate at the start, above 0, at most 10\n"
            "  --final-rate R   the learning rate at the end, above 0, at most 10\n"
            "  --check-every N  games between reports and checkpoints (default 20000;\n"
            "                   with --labels, the number of labels: one a pass)\n"
            "  --stop-after N   stop after N games in all, as SIGINT would\n"
            "  --from-default   start from the compiled-in network\n"
            "  --from NET       start from the network file NET\n"
            "  --features       a network that reads the first ten hand-made features\n"
            "                   too (inputs features-218)\n"
            "  --all-features   one that reads all eighteen (features-234)\n"
            "  --race           a race network (needs --labels; with --features, one\n"
            "                   that reads the race features too, race-218; with\n"
            "                   --all-features the race model's as well, race-234)\n"
            "  --rank W         weight of the steps on pairs of results, above 0, at\n"
            "                   most 100 (needs --labels)\n"
            "  --id NAME        the network's id, 1 to 31 of A-Z a-z 0-9 . _ -\n"
            "                   (default: FILE's name without its directory and .snn)\n"
            "  --resume         go on from FILE.ckpt\n"
            "  --out FILE       where the network goes (required)\n"
            "  --help           this text\n\n"
            "Long options may be abbreviated; a value follows as the next word or after =.\n"
            "Exit status: 0 done or stopped, 1 failure or a checkpoint refused, 2 usage.\n");
    return status;
}

/* The network's id: --id, or --out's file name without its directory and
 * a final .snn. */
static bool train_id(TrainOpts *o, const char *id, Err *err)
{
    char name[NN_ID_MAX + 8] = "";
    if (!id) {
        const char *base = strrchr(o->out, '/');
        base = base ? base + 1 : o->out;
        size_t n = strlen(base);
        if (n > 4 && !strcmp(base + n - 4, ".snn"))
            n -= 4;
        if (n < sizeof name)
            memcpy(name, base, n), name[n] = '\0';
        if (!nn_id_valid(name))
            return err_set(err, "--out '%.60s' makes no network id (1 to %d of A-Z a-z 0-9 . _ "
                                "-): add --id NAME",
                           o->out, NN_ID_MAX - 1);
        id = name;
    }
    if (!nn_id_valid(id))
        return err_set(err, "--id '%.40s': expected 1 to %d of A-Z a-z 0-9 . _ -", id,
                       NN_ID_MAX - 1);
    memcpy(o->id, id, strlen(id) + 1);
    return true;
}

static int parse_options(int argc, char **argv, TrainOpts *o)
{
    enum { OPT_GAMES = 256, OPT_SEED, OPT_RATE, OPT_FINAL, OPT_CHECK, OPT_STOP, OPT_OUT,
           OPT_DEFAULT, OPT_FROM, OPT_ID, OPT_RESUME, OPT_LABELS, OPT_EPOCHS, OPT_FEATURES,
           OPT_ALL_FEATURES, OPT_RACE, OPT_RANK };
    static const struct option opts[] = {
        {"games", required_argument, NULL, OPT_GAMES},
        {"seed", required_argument, NULL, OPT_SEED},
        {"rate", required_argument, NULL, OPT_RATE},
        {"final-rate", required_argument, NULL, OPT_FINAL},
        {"check-every", required_argument, NULL, OPT_CHECK},
        {"stop-after", required_argument, NULL, OPT_STOP},
        {"out", required_argument, NULL, OPT_OUT},
        {"from-default", no_argument, NULL, OPT_DEFAULT},
        {"from", required_argument, NULL, OPT_FROM},
        {"id", required_argument, NULL, OPT_ID},
        {"resume", no_argument, NULL, OPT_RESUME},
        {"labels", required_argument, NULL, OPT_LABELS},
        {"epochs", required_argument, NULL, OPT_EPOCHS},
        {"features", no_argument, NULL, OPT_FEATURES},
        {"all-features", no_argument, NULL, OPT_ALL_FEATURES},
        {"race", no_argument, NULL, OPT_RACE},
        {"rank", required_argument, NULL, OPT_RANK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (TrainOpts){.games = 200000, .check = 20000, .seed = 1, .rate0 = 0.1f, .rate1 = 0.02f,
                     .epochs = 10};
    const char *id = NULL;
    bool games_given = false, epochs_given = false;
    Err err = {{0}};
    bool ok = true;
    int c;
    cli_getopt_start();
    while (ok && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_GAMES:
            ok = num_long("--games", optarg, 1, 1000000000L, &o->games, &err);
            games_given = true;
            break;
        case OPT_LABELS: o->labels = optarg; break;
        case OPT_EPOCHS:
            ok = num_long("--epochs", optarg, 1, 100000, &o->epochs, &err);
            epochs_given = true;
            break;
        case OPT_SEED: ok = num_u64("--seed", optarg, &o->seed, &err); break;
        case OPT_RATE: ok = num_float("--rate", optarg, 0, 10, true, &o->rate0, &err); break;
        case OPT_FINAL:
            ok = num_float("--final-rate", optarg, 0, 10, true, &o->rate1, &err);
            break;
        case OPT_CHECK:
            ok = num_long("--check-every", optarg, 1, 1000000000L, &o->check, &err);
            o->check_given = true;
            break;
        case OPT_STOP:
            ok = num_long("--stop-after", optarg, 1, 1000000000L, &o->stop, &err);
            break;
        case OPT_OUT: o->out = optarg; break;
        case OPT_DEFAULT: o->from_default = true; break;
        case OPT_FROM: o->from = optarg; break;
        case OPT_ID: id = optarg; break;
        case OPT_RESUME: o->resume = true; break;
        case OPT_FEATURES: o->features = true; break;
        case OPT_ALL_FEATURES: o->all_features = true; break;
        case OPT_RACE: o->race = true; break;
        case OPT_RANK: ok = num_float("--rank", optarg, 0, 100, true, &o->rank, &err); break;
        case 'h': return usage(stdout, EXIT_OK) - 1; /* -1: exit 0 now */
        default: return cli_option_error("train", c, argv, opts);
        }
    }
    if (ok && optind < argc)
        ok = err_set(&err, "unexpected argument '%s'", argv[optind]);
    if (ok && !o->out)
        ok = err_set(&err, "--out FILE is required");
    else if (ok && (!*o->out || strlen(o->out) > TRAIN_PATH_MAX - 16))
        ok = err_set(&err, "--out '%s': expected a file name of 1 to %d bytes", o->out,
                     TRAIN_PATH_MAX - 16);
    if (ok && o->from_default && o->from)
        ok = err_set(&err, "--from-default and --from: choose one network to start from");
    if (ok && o->labels && games_given)
        ok = err_set(&err, "--games is for TD self-play; with --labels give --epochs");
    if (ok && !o->labels && epochs_given)
        ok = err_set(&err, "--epochs needs --labels FILE");
    if (ok && o->rank > 0 && !o->labels)
        ok = err_set(&err, "--rank trains on pairs of labels: give --labels FILE");
    if (ok && o->race && !o->labels)
        ok = err_set(&err, "--race trains on labels: give --labels FILE (shesh label --race)");
    if (ok && o->features && o->all_features)
        ok = err_set(&err, "--features and --all-features: choose one");
    if (ok && o->race && o->from_default)
        ok = err_set(&err, "--race and --from-default: the compiled-in network is a contact one");
    if (ok && o->labels && !*o->labels)
        ok = err_set(&err, "--labels: give the file's name");
    if (ok)
        ok = train_id(o, id, &err);
    if (ok)
        return EXIT_OK;
    return cli_usage_error("train", "%s", err.text);
}

/* ---- the run ---------------------------------------------------------------- */

/* SIGINT and SIGTERM are held blocked during training and looked for
 * between games, so a game is never cut in half and no handler (nor any
 * global flag) is needed. */
static bool stop_requested(void)
{
    sigset_t pending;
    return sigpending(&pending) == 0 &&
           (sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1);
}

/* Takes the pending stop signals, so unblocking them does not kill us. */
static void drain_stop_signals(const sigset_t *stops)
{
    int sig;
    while (stop_requested())
        sigwait(stops, &sig);
}

/* What decides the network, as its checkpoint records it. */
static TrainRun run_of(const TrainOpts *o)
{
    return (TrainRun){.games = o->games,
                      .seed = o->seed,
                      .rate0 = o->rate0,
                      .rate1 = o->rate1,
                      .rank = o->rank,
                      .start = o->start,
                      .on_labels = o->labels != NULL,
                      .labels_hash = o->labels_hash,
                      .race = o->race,
                      .inputs = o->inputs};
}

static void print_resume(const TrainOpts *o, const char *ckpt, long done)
{
    fprintf(stderr, "shesh train: stopped after %ld of %ld %s; checkpoint %s. To go on:\n    ",
            done, o->games, o->labels ? "steps" : "games", ckpt);
    print_command(stderr, o);
    fprintf(stderr, " --check-every %ld --resume\n", o->check);
}

/* Trains from game *done on (rng the state after it) to the end, a stop
 * signal or --stop-after, checkpointing on the way. *stopped says whether
 * it paused before the end. */
static bool train_run(Trainer *t, const TrainOpts *o, const char *ckpt, long *done, uint64_t *rng,
                      bool *stopped, Err *err)
{
    double t0 = clock_now();
    TrainRun run = run_of(o);
    *stopped = false;
    while (*done < o->games) {
        long g = *done;
        float rate = o->rate0 + (o->rate1 - o->rate0) * (float)g / (float)o->games;
        if (t->labels)
            train_label(t, o->seed, g, rate);
        else
            train_game(t, splitmix64(rng), rate);
        *done = g + 1;
        bool check = *done % o->check == 0 || *done == o->games;
        if (check) {
            if (o->race) { /* no games for a race network: its labels alone */
                fprintf(stderr, "%ld steps, %.0f s", *done, clock_now() - t0);
            } else {
                double ppg = against_pubeval(t, 500, 12345);
                fprintf(stderr, "%ld %s, %.0f s: %+.3f ppg against pubeval (1000 games)", *done,
                        t->labels ? "steps" : "games", clock_now() - t0, ppg);
            }
            if (t->labels) {
                double mae[1 + OUT_COUNT];
                label_set_judge(t->w, t->labels, mae);
                fprintf(stderr, "; equity %.4f from the labels (mean abs)", mae[0]);
            }
            fprintf(stderr, "\n");
        }
        if (*done == o->games)
            break;
        *stopped = stop_requested() || *done == o->stop;
        if ((check || *stopped) && !train_ckpt_write(ckpt, &run, t->w, *done, *rng, err))
            return false;
        if (*stopped)
            break;
    }
    return true;
}

int cli_train(int argc, char **argv)
{
    TrainOpts o;
    int status = parse_options(argc, argv, &o);
    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    char ckpt[TRAIN_PATH_MAX];
    snprintf(ckpt, sizeof ckpt, "%s.ckpt", o.out);
    Err err = {{0}};
    /* The checkpoint is read before the bear-off database is built, so a
     * refused one is refused at once. */
    Trainer t = {.w = malloc(sizeof(NnWeights)), .order_epoch = -1};
    LabelSet labels = {0};
    status = EXIT_FAIL;
    long done = 0;
    uint64_t rng = o.seed;
    if (!t.w) {
        fprintf(stderr, "shesh train: out of memory\n");
        goto done;
    }
    /* With --labels, a step a label and epoch: o.games counts steps. */
    if (o.labels) {
        if (!label_set_read(o.labels, &labels, &err)) {
            fprintf(stderr, "shesh train: --labels: %s\n", err.text);
            goto done;
        }
        if (labels.n > 1000000000L / o.epochs) {
            fprintf(stderr, "shesh train: %ld labels x %ld epochs: more than 10^9 steps\n",
                    labels.n, o.epochs);
            goto done;
        }
        if (!(t.order = malloc((size_t)labels.n * sizeof *t.order))) {
            fprintf(stderr, "shesh train: out of memory\n");
            goto done;
        }
        t.labels = &labels;
        if (o.rank > 0) {
            if (!(t.pair = malloc((size_t)labels.n))) {
                fprintf(stderr, "shesh train: out of memory\n");
                goto done;
            }
            t.rank = o.rank;
            fprintf(stderr, "shesh train: %ld pairs of results of one roll among the labels\n",
                    find_pairs(&labels, t.pair));
        }
        o.games = labels.n * o.epochs;
        o.labels_hash = label_set_hash(&labels);
        /* By default a report a pass over the labels: a report plays 1,000
         * games and values every label, which at a few thousand steps
         * apart would take most of the run's time. */
        if (!o.check_given)
            o.check = labels.n;
    }
    /* The starting network first: a checkpoint names the one it started from. */
    NnInfo start;
    if (o.from_default && !nn_file_load_default(t.w, &start, &err)) {
        fprintf(stderr, "shesh train: %s\n", err.text);
        goto done;
    }
    if (o.from && !nn_file_load(o.from, t.w, &start, &err)) {
        fprintf(stderr, "shesh train: --from: %s\n", err.text);
        goto done;
    }
    o.start = o.from_default || o.from ? start.hash : 0;
    /* A narrower network grows to this build's width (nn_file.h). */
    if (o.start && start.hidden < NN_HIDDEN)
        nn_widen_hidden(t.w, start.hidden, o.seed);
    if (o.start && o.race && !t.w->race) {
        fprintf(stderr, "shesh train: --race: %s is a contact network\n", o.from);
        goto done;
    }
    if (o.start && t.w->race && !o.labels) {
        fprintf(stderr, "shesh train: %s is a race network: train it on --labels\n", o.from);
        goto done;
    }
    if (o.start)
        o.race = t.w->race;
    if (o.race && !race_labels(&labels, &err)) {
        fprintf(stderr, "shesh train: --labels: %s\n", err.text);
        goto done;
    }
    /* A race network learns the race model's features from random weights
     * alone: one trained without them is not widened to them. */
    if (o.start && o.all_features && t.w->race && t.w->inputs != NN_INPUTS) {
        fprintf(stderr,
                "shesh train: --all-features: %s is a race network of %s; one of race-234 is "
                "trained from random weights (--race --all-features without --from)\n",
                o.from, nn_inputs_name(t.w));
        goto done;
    }
    int wanted = o.all_features ? NN_INPUTS : o.features ? NN_INPUTS_FIRST : NN_RAW_INPUTS;
    if (o.start)
        nn_widen(t.w, wanted);
    o.inputs = o.start ? t.w->inputs : wanted;
    if (o.resume) {
        TrainRun run = run_of(&o);
        if (!train_ckpt_read(ckpt, &run, t.w, &done, &rng, &err)) {
            fprintf(stderr, "shesh train: %s\nshesh train: refusing to resume; this run is:\n    ",
                    err.text);
            print_command(stderr, &o);
            fprintf(stderr, " --resume\n");
            goto done;
        }
        fprintf(stderr, "shesh train: resuming %s after %ld of %ld %s\n", ckpt, done, o.games,
                o.labels ? "steps" : "games");
    } else if (access(ckpt, F_OK) == 0) {
        fprintf(stderr,
                "shesh train: %s exists: add --resume to go on from it, or remove it to start "
                "again\n",
                ckpt);
        goto done;
    } else if (!o.start) {
        nn_init(t.w, o.inputs, o.seed);
        t.w->race = o.race;
    }
    t.db = bearoff_new(&err);
    t.cache = race_cache_new();
    t.list = malloc(sizeof(MoveList));
    if (!t.db || !t.cache || !t.list) {
        fprintf(stderr, "shesh train: %s\n", t.db ? "out of memory" : err.text);
        goto done;
    }
    t.w->race_model = t.db;
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_BLOCK, &stops, &old);
    bool stopped = false;
    bool ok = train_run(&t, &o, ckpt, &done, &rng, &stopped, &err);
    if (ok && stopped)
        print_resume(&o, ckpt, done);
    else if (ok && (ok = nn_file_save(o.out, t.w, o.id, &start, &err))) {
        remove(ckpt); /* finished: nothing left to resume */
        fprintf(stderr, "shesh train: wrote %s: network %s, fnv64 %016llx, made by\n    ", o.out,
                start.id, (unsigned long long)start.hash);
        print_command(stderr, &o);
        fprintf(stderr, "\n");
    }
    drain_stop_signals(&stops);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (!ok)
        fprintf(stderr, "shesh train: %s\n", err.text);
    status = ok ? EXIT_OK : EXIT_FAIL;
done:
    free(t.w);
    bearoff_free(t.db);
    race_cache_free(t.cache);
    free(t.list);
    free(t.order);
    free(t.pair);
    label_set_free(&labels);
    return status;
}
