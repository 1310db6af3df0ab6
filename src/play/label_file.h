/* label_file.h - the lines of a file of `shesh label` (cli_label.c says
 * how the positions and labels are made):
 *
 *     INDEX <tab> POSITION-ID <tab> WIN WG WBG LG LBG <tab> EQUITY SE
 *
 * INDEX a whole number from 0, the five chances of the player on roll in
 * 0..1, his cubeless money equity and its standard error, each number as
 * "%.6f" writes it. Written by shesh label, read back by its --resume and
 * merge and by `shesh weights --labels`. */
#ifndef SHESH_LABEL_FILE_H
#define SHESH_LABEL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"
#include "eval_outputs.h"
#include "nn.h"
#include "posid.h"
#include "position.h"

/* The start of a file's header line; the run's options follow, the shard
 * last (cli_label.c). */
#define LABEL_HEADER "# shesh-label 1 "
#define LABEL_INDEX_MAX 100000000L
/* The longest line of a label file its readers take (a label is under 100
 * bytes; the header under 300). */
#define LABEL_LINE_MAX 512
/* The largest equity and standard error a label may hold. A game scores at
 * most 3, but a rollout's mean with the luck taken out may stray a little
 * past it (a sure backgammon rolled out to 3.000712), and a label keeps the
 * equity as measured: the reader accepts twice that. */
#define LABEL_EQUITY_MAX 6.0

typedef struct LabelLine {
    long index;
    char id[POSID_LEN + 1];
    Position pos;
    double out[OUT_COUNT];
    double equity, se;
} LabelLine;

/* Appends the line of l (its newline included) to b. */
void label_line_format(Buf *b, const LabelLine *l);

/* Every label of a file of shesh label (gzip or plain, a shard or a
 * merge): the positions and the five chances. */
typedef struct LabelSet {
    Position *pos;
    double (*out)[OUT_COUNT];
    long n, cap;
} LabelSet;

/* Reads path into set (which starts empty, all zero); false (err
 * naming the line) for a file that is not one, or holds no label. The set
 * is freed with label_set_free either way. */
bool label_set_read(const char *path, LabelSet *set, Err *err);
void label_set_free(LabelSet *set);

/* An FNV-1a hash of the set's positions and chances, in order: what tells
 * a training run which labels it was made on. */
uint64_t label_set_hash(const LabelSet *set);

/* The mean absolute differences of w's chances (clamped as the engine
 * uses them) from the labels of its kind: mae[0] the cubeless equity's,
 * mae[1 + k] chance k's. A race network is judged by the races with a
 * checker outside home (those it values), a contact network by the
 * contact positions: each values nothing else. Returns how many labels
 * that is (0: mae all 0). */
long label_set_judge(const NnWeights *w, const LabelSet *set, double mae[1 + OUT_COUNT]);

/* Whether labels k and k + 1 of set can be the results of two moves of
 * one roll of one position, as shesh label --moves writes them one after
 * the other: the mover's pips the same, and the checkers of the player on
 * roll the same but for blots one of the two moves hit. */
bool label_siblings(const LabelSet *set, long k);

/* How well w chooses among the results of one roll: over every run of
 * two or more labels, each the sibling of the next, all of them positions
 * w values, the mover's equity given up by the result w values best for
 * him against the best by the labels. Returns how many such runs (rolls)
 * there are, *loss the mean (0 when none). */
long label_set_choice(const NnWeights *w, const LabelSet *set, double *loss);

/* Reads one line (len bytes at text, a final newline allowed) into l; false
 * (err says what is wrong) for anything else. */
bool label_line_parse(const char *text, size_t len, LabelLine *l, Err *err);

#endif
