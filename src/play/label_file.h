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

#include "buf.h"
#include "err.h"
#include "eval_outputs.h"
#include "posid.h"
#include "position.h"

#define LABEL_INDEX_MAX 100000000L

typedef struct LabelLine {
    long index;
    char id[POSID_LEN + 1];
    Position pos;
    double out[OUT_COUNT];
    double equity, se;
} LabelLine;

/* Appends the line of l (its newline included) to b. */
void label_line_format(Buf *b, const LabelLine *l);

/* Reads one line (len bytes at text, a final newline allowed) into l; false
 * (err says what is wrong) for anything else. */
bool label_line_parse(const char *text, size_t len, LabelLine *l, Err *err);

#endif
