/* num.h - numbers typed by a user (option values, protocol words): one
 * strict reader for every command, so that `--games 10x` or `--seed abc` is
 * refused instead of read as 10 or 0.
 *
 * Accepted: decimal digits, for decimals with one '.' between digits
 * ("0.5", "12", "3.25"); nothing else: no sign, no blanks, no exponent, no
 * hex, no empty string. A value outside the range is refused too. On
 * failure the functions fill err with one line that names the option (the
 * `name` argument, e.g. "--games") and the range, and return false; *out is
 * then left as it was. */
#ifndef SHESH_NUM_H
#define SHESH_NUM_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"

/* A whole number from lo to hi (lo >= 0). */
bool num_long(const char *name, const char *s, long lo, long hi, long *out, Err *err);
bool num_int(const char *name, const char *s, int lo, int hi, int *out, Err *err);

/* A whole number from 0 to 18446744073709551615 (a seed). */
bool num_u64(const char *name, const char *s, uint64_t *out, Err *err);

/* A whole number or decimal from lo to hi; with above_lo, lo itself is
 * refused (a value that must be more than 0). */
bool num_double(const char *name, const char *s, double lo, double hi, bool above_lo,
                double *out, Err *err);

/* The same as a float, read by strtof so that the text a float is printed
 * as ("0.1") reads back as the very same float. */
bool num_float(const char *name, const char *s, float lo, float hi, bool above_lo, float *out,
               Err *err);

#endif
