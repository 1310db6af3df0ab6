/* tsv.h - reads the gzip-compressed, tab-separated test vectors in
 * positions/ one row at a time (lines starting with '#' are skipped). */
#ifndef SHESH_TEST_TSV_H
#define SHESH_TEST_TSV_H

#include <stdbool.h>
#include <stdint.h>
#include <zlib.h>

#define TSV_LINE_MAX (1 << 17)
#define TSV_FIELDS_MAX 64

typedef struct TsvReader {
    gzFile file;
    int lineno;
    int nfields;
    char *field[TSV_FIELDS_MAX];
    char line[TSV_LINE_MAX];
} TsvReader;

/* Opens path (gzip or plain text). Returns false if it cannot be read. */
bool tsv_open(TsvReader *r, const char *path);

/* Reads the next data row into r->field[0..nfields-1] (the fields point into
 * r->line and stay valid until the next call). False at the end. */
bool tsv_next(TsvReader *r);

void tsv_close(TsvReader *r);

/* Reads a vector column of 25 comma-separated checker counts (0..15), one
 * side of a position: index 0..23 = that side's points 1..24, 24 = its bar.
 * False unless there are exactly 25 such numbers. */
bool tsv_parse_side(const char *s, uint8_t side[25]);

#endif
