/* eval_train.c - `shesh train`: trains the contact network of eval_net.c by
 * temporal differences on self-play and writes eval_net_weights.c.
 *
 * Each turn the player on roll tries every legal move for his roll and
 * plays the one the network (or, once there is no contact, the race
 * evaluator; at the end, the result) values most in cubeless money equity.
 * The value of that choice, seen from the player on roll, is the target of
 * the position he rolled from (TD(0) on positions before the roll, a sample
 * of one roll): the network learns what the next position is worth, and the
 * exact values of finished games and races flow back into it. Positions
 * with contact only; the race evaluator answers the rest. Single-threaded,
 * so a seed gives the same network every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "eval_net.h"
#include "eval_race.h"
#include "eval_selfplay.h"
#include "movegen.h"
#include "pubeval.h"

typedef struct Trainer {
    NetWeights *w;
    BearoffDb *db;
    RaceCache *cache;
    MoveList *list;
} Trainer;

/* Outputs of the position q (player on roll about to roll). */
static void value(Trainer *t, const Position *q, double out[OUT_COUNT])
{
    if (eval_game_over(q, out))
        return;
    if (eval_is_race(q)) {
        eval_race(t->db, t->cache, q, out);
        return;
    }
    net_eval(t->w, q, out);
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
            net_learn(t->w, &p, target, rate);
        double over[OUT_COUNT];
        if (eval_game_over(&next, over) || eval_is_race(&next))
            return; /* the rest is the race evaluator's */
        p = next;
    }
}

/* Duplicate games, network (0 ply, race evaluator in races) against
 * pubeval: the network's points per game. */
static double against_pubeval(Trainer *t, long pairs, uint64_t seed)
{
    double total = 0.0;
    for (long g = 0; g < 2 * pairs; g++) {
        uint64_t rng = seed ^ ((uint64_t)(g / 2) * 0xd1b54a32d192ed03u);
        rng = selfplay_rand(&rng);
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

/* One initializer row: indent, {v, v, ...}, then tail. Six digits: the
 * compiled network is this rounded one, and measured as such. */
static void print_row(FILE *f, const char *indent, const float *v, int n, const char *tail)
{
    fprintf(f, "%s{", indent);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%.6g", i ? "," : "", v[i]);
    fprintf(f, "}%s", tail);
}

static bool write_weights(const NetWeights *w, const char *path, int argc, char **argv,
                          long games)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "/* eval_net_weights.c - the trained contact network of eval_net.c.\n"
               " * Written by `shesh train`; do not edit by hand. Made with:\n"
               " *     shesh train");
    for (int i = 1; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n * (%ld self-play games). */\n#include \"eval_net.h\"\n\n"
               "const bool net_weights_trained = true;\n\n"
               "const NetWeights net_weights_default = {\n    {\n",
            games);
    for (int i = 0; i < NET_INPUTS; i++)
        print_row(f, "        ", w->in[i], NET_HIDDEN, ",\n");
    fprintf(f, "    },\n");
    print_row(f, "    ", w->hidden_bias, NET_HIDDEN, ",\n    {\n");
    for (int k = 0; k < OUT_COUNT; k++)
        print_row(f, "        ", w->out[k], NET_HIDDEN, ",\n");
    fprintf(f, "    },\n");
    print_row(f, "    ", w->out_bias, OUT_COUNT, ",\n};\n");
    return fclose(f) == 0;
}

static int usage(FILE *out, int status)
{
    fprintf(out,
            "usage: shesh train [--games N] [--seed S] [--rate R] [--final-rate R]\n"
            "                   [--check-every N] [--from-default] --out FILE\n\n"
            "Trains the contact network by TD(0) self-play for N games (default\n"
            "200000), the learning rate going linearly from R (0.1) to the final rate\n"
            "(0.02), and writes it as C (eval_net_weights.c) to FILE. Every\n"
            "--check-every games (default 20000) it prints the network's points per\n"
            "game against pubeval (1000 duplicate games, 0 ply). --from-default starts\n"
            "from the compiled-in network instead of random weights.\n");
    return status;
}

int cli_train(int argc, char **argv)
{
    long games = 200000, check = 20000;
    uint64_t seed = 1;
    float rate0 = 0.1f, rate1 = 0.02f;
    bool from_default = false;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout, EXIT_OK);
        else if (!strcmp(a, "--games") && v)
            games = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "--seed") && v)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--rate") && v)
            rate0 = strtof(argv[++i], NULL);
        else if (!strcmp(a, "--final-rate") && v)
            rate1 = strtof(argv[++i], NULL);
        else if (!strcmp(a, "--check-every") && v)
            check = strtol(argv[++i], NULL, 10);
        else if (!strcmp(a, "--from-default"))
            from_default = true;
        else if (!strcmp(a, "--out") && v)
            out = argv[++i];
        else
            return usage(stderr, EXIT_USAGE);
    }
    if (!out || games < 1 || check < 1 || !(rate0 > 0) || !(rate1 > 0))
        return usage(stderr, EXIT_USAGE);
    Err err = {{0}};
    Trainer t = {malloc(sizeof(NetWeights)), bearoff_new(&err), race_cache_new(),
                 malloc(sizeof(MoveList))};
    int status = EXIT_FAIL;
    if (!t.w || !t.db || !t.cache || !t.list) {
        fprintf(stderr, "shesh train: %s\n", t.db ? "out of memory" : err.text);
        goto done;
    }
    if (from_default)
        *t.w = net_weights_default;
    else
        net_init(t.w, seed);
    double t0 = selfplay_now();
    uint64_t rng = seed;
    for (long g = 0; g < games; g++) {
        float rate = rate0 + (rate1 - rate0) * (float)g / (float)games;
        train_game(&t, selfplay_rand(&rng), rate);
        if ((g + 1) % check == 0 || g + 1 == games) {
            double ppg = against_pubeval(&t, 500, 12345);
            fprintf(stderr, "%ld games, %.0f s: %+.3f ppg against pubeval (1000 games)\n", g + 1,
                    selfplay_now() - t0, ppg);
        }
    }
    if (!write_weights(t.w, out, argc, argv, games)) {
        fprintf(stderr, "shesh train: cannot write %s\n", out);
        goto done;
    }
    status = EXIT_OK;
done:
    free(t.w);
    bearoff_free(t.db);
    race_cache_free(t.cache);
    free(t.list);
    return status;
}
