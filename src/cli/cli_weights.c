/* cli_weights.c - `shesh weights`: what a network file holds (nn_file.h),
 * checked as --weights would check it: its id, shape and hash, and the
 * network's chances for the opening position (a race network: for a
 * bear-in race, race_position() below) as a quick look at what it plays
 * like. Without a file, the networks compiled in. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bearoff.h"
#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "err.h"
#include "eval_outputs.h"
#include "json.h"
#include "label_file.h"
#include "nn.h"
#include "nn_file.h"
#include "posid.h"
#include "position.h"

#define CMD "weights"

static void weights_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh weights [--labels LABELS] [--json] [FILE...]\n\n"
            "Reads each network file (what shesh train writes and the engine commands\n"
            "play with; docs/training.md) and checks it as they do, then prints\n"
            "its id, inputs, hidden units, outputs and fnv64 hash, and the\n"
            "network's chances for the player on roll in the opening position (win,\n"
            "win gammon, win backgammon, lose gammon, lose backgammon); for a race\n"
            "network, in a race where each side has 3 checkers on each of its 4- to\n"
            "8-points. Without a FILE: the networks compiled in (the contact network,\n"
            "and the race network and the cube network where there are). With\n"
            "--labels, also how far the network's chances are from the rollouts of a\n"
            "shesh label file (its output or a merge): the mean absolute difference\n"
            "in cubeless equity and in each chance, over the positions of LABELS of\n"
            "the network's kind (a contact or cube network's contact positions, a\n"
            "race network's races with a checker outside home). Where LABELS holds\n"
            "the results of moves for a roll one after the other (shesh label\n"
            "--moves), also how much of the labels' equity the network gives up\n"
            "choosing among each roll's results, in thousandths of a point: the\n"
            "yardstick of its choice of move.\n\n"
            "  --labels LABELS  a file of shesh label to judge the networks by\n"
            "  --json       one JSON object a file\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 every file read, 1 one refused (the message says why;\n"
            "the others are still read), 2 usage.\n");
}

/* Where a race network is looked at: each side 3 checkers on each of
 * its 4- to 8-points, 90 pips each, the player on roll to bear in. */
static void race_position(Position *p)
{
    memset(p, 0, sizeof *p);
    for (int s = 0; s < 2; s++)
        for (int i = 3; i < 8; i++)
            p->side[s][i] = 3;
}

/* The networks shown without a FILE, each where it is compiled in. */
typedef struct CompiledNet {
    const char *what;
    const size_t *size;
    bool (*load)(NnWeights *, NnInfo *, Err *);
} CompiledNet;

static const CompiledNet compiled[] = {
    {"compiled-in", &nn_default_file_size, nn_file_load_default},
    {"compiled-in race", &nn_race_default_file_size, nn_file_load_race_default},
    {"compiled-in cube", &nn_cube_default_file_size, nn_file_load_cube_default},
};

/* Prints one network, the file at path or (path NULL) the compiled-in
 * one `net`; false when it is refused. */
static bool show(const CompiledNet *net, const char *path, bool json, const LabelSet *labels,
                 NnWeights *w, BearoffDb **db)
{
    NnInfo info;
    Err err = {{0}};
    const char *what = path ? path : net->what;
    bool ok = path ? nn_file_load(path, w, &info, &err) : net->load(w, &info, &err);
    /* A race network reading the race model's features needs the database,
     * made once for every such file. */
    if (ok && w->race && w->inputs == NN_INPUTS) {
        ok = *db || (*db = bearoff_new(&err));
        w->race_model = *db;
    }
    Buf b;
    buf_init(&b);
    if (!ok) {
        fprintf(stderr, "shesh weights: %s\n", err.text);
        if (json) {
            cli_json_error(&b, what, err.text);
            fwrite(b.data, 1, b.len, stdout);
        }
        buf_free(&b);
        return false;
    }
    double out[OUT_COUNT];
    Position p;
    if (w->race)
        race_position(&p);
    else
        pos_start(&p);
    nn_eval(w, &p, out);
    const char *where = w->race ? "race" : "opening";
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)info.hash);
    double mae[1 + OUT_COUNT];
    long judged = labels ? label_set_judge(w, labels, mae) : 0;
    double choice = 0.0;
    long rolls = labels ? label_set_choice(w, labels, &choice) : 0;
    /* What a network is judged by: the labels of its kind. */
    const char *judged_kind = w->race ? "races with a checker outside home" : "contact positions";
    if (json) {
        Json j;
        json_begin(&j, &b);
        json_object_begin(&j);
        json_key(&j, "input"), json_str(&j, what);
        json_key(&j, "id"), json_str(&j, info.id);
        json_key(&j, "inputs"), json_str(&j, nn_inputs_name(w));
        json_key(&j, "hidden"), json_int(&j, info.hidden);
        json_key(&j, "outputs"), json_int(&j, OUT_COUNT);
        json_key(&j, "fnv64"), json_str(&j, hash);
        json_key(&j, where);
        json_array_begin(&j);
        for (int k = 0; k < OUT_COUNT; k++)
            json_num(&j, out[k]);
        json_array_end(&j);
        if (labels) {
            json_key(&j, "labels"), json_int(&j, judged);
            if (judged > 0) {
                json_key(&j, "mean_abs_error");
                json_array_begin(&j);
                for (int k = 0; k <= OUT_COUNT; k++)
                    json_num(&j, mae[k]);
                json_array_end(&j);
            }
            json_key(&j, "choice_rolls"), json_int(&j, rolls);
            if (rolls > 0)
                json_key(&j, "choice_loss"), json_num(&j, choice);
        }
        json_object_end(&j);
        buf_printf(&b, "\n");
    } else {
        buf_printf(&b,
                   "%s: network %s, inputs %s, %d hidden units, %d outputs, fnv64 %s\n"
                   "  %s: win %.4f  win gammon %.4f  win backgammon %.4f  lose gammon "
                   "%.4f  lose backgammon %.4f\n",
                   what, info.id, nn_inputs_name(w), info.hidden, OUT_COUNT, hash, where, out[0],
                   out[1], out[2], out[3], out[4]);
        if (labels && judged == 0)
            buf_printf(&b, "  against none of the %ld labels: it values %s, and none is one\n",
                       labels->n, judged_kind);
        else if (labels) {
            buf_printf(&b, "  against %ld labels", judged);
            if (judged < labels->n)
                buf_printf(&b, " (of %ld: the %s)", labels->n, judged_kind);
            buf_printf(&b,
                       ": equity %.4f  win %.4f  win gammon %.4f  win backgammon %.4f  lose "
                       "gammon %.4f  lose backgammon %.4f (mean abs)\n",
                       mae[0], mae[1], mae[2], mae[3], mae[4], mae[5]);
        }
        if (rolls > 0)
            buf_printf(&b,
                       "  choosing among the results of %ld rolls: %.2f thousandths of the "
                       "labels' equity given up a choice\n",
                       rolls, 1000.0 * choice);
    }
    fwrite(b.data, 1, b.len, stdout);
    buf_free(&b);
    return true;
}

int cli_weights(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_LABELS };
    static const struct option opts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"labels", required_argument, NULL, OPT_LABELS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    const char *labels_path = NULL;
    int c;
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_LABELS: labels_path = optarg; break;
        case 'h': weights_usage(stdout); return EXIT_OK;
        default: return cli_option_error(CMD, c, argv, opts);
        }
    }
    NnWeights *w = malloc(sizeof *w);
    if (!w) {
        fprintf(stderr, "shesh weights: out of memory\n");
        return EXIT_FAIL;
    }
    LabelSet labels = {0};
    Err err = {{0}};
    if (labels_path && !label_set_read(labels_path, &labels, &err)) {
        fprintf(stderr, "shesh weights: --labels: %s\n", err.text);
        label_set_free(&labels);
        free(w);
        return EXIT_FAIL;
    }
    const LabelSet *lp = labels_path ? &labels : NULL;
    BearoffDb *db = NULL;
    bool ok = true;
    if (optind == argc) /* no FILE: each network compiled in */
        for (size_t i = 0; i < sizeof compiled / sizeof compiled[0]; i++)
            if (*compiled[i].size > 0)
                ok = show(&compiled[i], NULL, json, lp, w, &db) && ok;
    for (int i = optind; i < argc; i++)
        ok = show(NULL, argv[i], json, lp, w, &db) && ok;
    bearoff_free(db);
    label_set_free(&labels);
    free(w);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "shesh weights: cannot write the output\n");
        return EXIT_FAIL;
    }
    return ok ? EXIT_OK : EXIT_FAIL;
}
