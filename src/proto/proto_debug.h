/* proto_debug.h - the pieces of the `set debug on` block written before a
 * board's answer: every line starts with "DBG: ". */
#ifndef SHESH_PROTO_DEBUG_H
#define SHESH_PROTO_DEBUG_H

#include "buf.h"
#include "position.h"

/* Appends one "DBG: " line (fmt may be empty for a blank one). */
void proto_debug_line(Buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends the ASCII board in gnubg's layout: X = side[SIDE_ROLLER] (the
 * side that acts) moving from 24 down to 1 at the bottom right, O =
 * side[SIDE_OPPONENT]; at most five checkers a point are drawn, the fifth
 * row then holds the count; checkers on the bar sit in the BAR column (O's
 * at the top, X's at the bottom). */
void proto_debug_board(Buf *out, const Position *p);

#endif
