/* cli_weights.c - `shesh weights`: what a network file holds (nn_file.h),
 * checked as --weights would check it: its id, shape and hash, and the
 * network's chances for the opening position as a quick look at what it
 * plays like. Without a file, the network compiled in. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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
            "win gammon, win backgammon, lose gammon, lose backgammon). Without a\n"
            "FILE: the network compiled in. With --labels, also how far the network's\n"
            "chances are from the rollouts of a shesh label file (its output or a\n"
            "merge): the mean absolute difference in cubeless equity and in each\n"
            "chance, over every position of LABELS.\n\n"
            "  --labels LABELS  a file of shesh label to judge the networks by\n"
            "  --json       one JSON object a file\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 every file read, 1 one refused (the message says why;\n"
            "the others are still read), 2 usage.\n");
}

/* The labels of a shesh label file (gzip or plain): positions and the
 * rollouts' five chances. */
typedef struct Labels {
    Position *pos;
    double (*out)[OUT_COUNT];
    long n;
} Labels;

static bool read_labels(const char *path, Labels *l, Err *err)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return err_set(err, "cannot open %s: %s", path, strerror(errno));
    char line[512];
    long cap = 0, lineno = 0;
    bool ok = true;
    while (ok && gzgets(f, line, sizeof line)) {
        lineno++;
        if (line[0] == '#')
            continue;
        if (l->n == cap) {
            cap = cap ? 2 * cap : 1024;
            Position *p = realloc(l->pos, (size_t)cap * sizeof *p);
            if (p)
                l->pos = p;
            double(*o)[OUT_COUNT] = realloc(l->out, (size_t)cap * sizeof *o);
            if (o)
                l->out = o;
            if (!p || !o) {
                ok = err_set(err, "out of memory reading %s", path);
                break;
            }
        }
        LabelLine ll;
        Err why;
        if (!label_line_parse(line, strlen(line), &ll, &why)) {
            ok = err_set(err, "%s line %ld: not a label of shesh label (%s)", path, lineno,
                         why.text);
        } else {
            l->pos[l->n] = ll.pos;
            memcpy(l->out[l->n], ll.out, sizeof ll.out);
            l->n++;
        }
    }
    int code;
    const char *msg = gzerror(f, &code);
    if (ok && code != Z_OK && code != Z_STREAM_END)
        ok = err_set(err, "cannot read %s: %s", path, msg);
    gzclose(f);
    if (ok && l->n == 0)
        ok = err_set(err, "%s holds no labels", path);
    return ok;
}

/* Cubeless money equity of the five chances. */
static double equity_of(const double o[OUT_COUNT])
{
    return 2.0 * o[OUT_WIN] - 1.0 + o[OUT_WIN_GAMMON] - o[OUT_LOSE_GAMMON] + o[OUT_WIN_BG] -
           o[OUT_LOSE_BG];
}

/* The mean absolute differences of w's chances from the labels: [0] the
 * equity, [1 + k] chance k. */
static void judge(const NnWeights *w, const Labels *l, double mae[1 + OUT_COUNT])
{
    memset(mae, 0, (1 + OUT_COUNT) * sizeof mae[0]);
    for (long i = 0; i < l->n; i++) {
        double out[OUT_COUNT];
        nn_eval(w, &l->pos[i], out);
        eval_clamp(out);
        mae[0] += fabs(equity_of(out) - equity_of(l->out[i]));
        for (int k = 0; k < OUT_COUNT; k++)
            mae[1 + k] += fabs(out[k] - l->out[i][k]);
    }
    for (int k = 0; k <= OUT_COUNT; k++)
        mae[k] /= (double)l->n;
}

/* Prints one network; false when it is refused. */
static bool show(const char *path, bool json, const Labels *labels, NnWeights *w)
{
    NnInfo info;
    Err err = {{0}};
    const char *what = path ? path : "compiled-in";
    bool ok = path ? nn_file_load(path, w, &info, &err)
                   : nn_file_parse(nn_default_file, nn_default_file_size, "the compiled-in network",
                                   w, &info, &err);
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
    pos_start(&p);
    nn_eval(w, &p, out);
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)info.hash);
    double mae[1 + OUT_COUNT];
    if (labels)
        judge(w, labels, mae);
    if (json) {
        Json j;
        json_begin(&j, &b);
        json_object_begin(&j);
        json_key(&j, "file"), json_str(&j, what);
        json_key(&j, "id"), json_str(&j, info.id);
        json_key(&j, "inputs"), json_str(&j, NN_INPUTS_NAME);
        json_key(&j, "hidden"), json_int(&j, NN_HIDDEN);
        json_key(&j, "outputs"), json_int(&j, OUT_COUNT);
        json_key(&j, "fnv64"), json_str(&j, hash);
        json_key(&j, "opening");
        json_array_begin(&j);
        for (int k = 0; k < OUT_COUNT; k++)
            json_num(&j, out[k]);
        json_array_end(&j);
        if (labels) {
            json_key(&j, "labels"), json_int(&j, labels->n);
            json_key(&j, "mean_abs_error");
            json_array_begin(&j);
            for (int k = 0; k <= OUT_COUNT; k++)
                json_num(&j, mae[k]);
            json_array_end(&j);
        }
        json_object_end(&j);
        buf_printf(&b, "\n");
    } else {
        buf_printf(&b,
                   "%s: network %s, inputs %s, %d hidden units, %d outputs, fnv64 %s\n"
                   "  opening: win %.4f  win gammon %.4f  win backgammon %.4f  lose gammon "
                   "%.4f  lose backgammon %.4f\n",
                   what, info.id, NN_INPUTS_NAME, NN_HIDDEN, OUT_COUNT, hash, out[0], out[1],
                   out[2], out[3], out[4]);
        if (labels)
            buf_printf(&b,
                       "  against %ld labels: equity %.4f  win %.4f  win gammon %.4f  win "
                       "backgammon %.4f  lose gammon %.4f  lose backgammon %.4f (mean abs)\n",
                       labels->n, mae[0], mae[1], mae[2], mae[3], mae[4], mae[5]);
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
    Labels labels = {NULL, NULL, 0};
    Err err = {{0}};
    if (labels_path && !read_labels(labels_path, &labels, &err)) {
        fprintf(stderr, "shesh weights: --labels: %s\n", err.text);
        free(labels.pos);
        free(labels.out);
        free(w);
        return EXIT_FAIL;
    }
    const Labels *lp = labels_path ? &labels : NULL;
    bool ok = true;
    if (optind == argc)
        ok = show(NULL, json, lp, w);
    for (int i = optind; i < argc; i++)
        ok = show(argv[i], json, lp, w) && ok;
    free(labels.pos);
    free(labels.out);
    free(w);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "shesh weights: cannot write the output\n");
        return EXIT_FAIL;
    }
    return ok ? EXIT_OK : EXIT_FAIL;
}
