/* movetext.h - move notation: gnubg's two printed forms and a forgiving parser.
 *
 * Plain form (gnubg's external server answers, .mat files): the parts in the
 * order stored, 1-based, bar 25, off 0, a blank after every part but a
 * fourth: "8/5 6/5 ", "13/7 13/7 7/1 7/1".
 * Display form (gnubg's hint list, tty, SGF): sorted, chains of one checker
 * joined (a point where it hit is kept and starred), identical parts counted,
 * words for bar and off: "24/18(2) 13/7(2)", "bar/22", "13/7*", "6/off".
 * The parser reads anything gnubg's move parser reads (both forms, reversed
 * order, "24 18", "b"/"bar", "o"/"off"/"-" for off, "(n)" repeats, commas,
 * stars, any case) and movetext_match() finds the legal move it means.
 * docs/moves.md describes every rule with examples. */
#ifndef SHESH_MOVETEXT_H
#define SHESH_MOVETEXT_H

#include <stdbool.h>

#include "err.h"
#include "movegen.h"
#include "position.h"

/* Room for the longest text of either form, NUL included. */
#define MOVETEXT_MAX 64

/* Returned by movetext_match() for an empty text when no legal move exists:
 * the one correct answer then (the roll is passed). */
#define MOVETEXT_PASS (-2)

/* Plain form of m, a move of side 1 in `before` (stars need the position
 * before the move). No move (m->parts == 0) gives "". */
void movetext_plain(const Position *before, const Move *m, char out[MOVETEXT_MAX]);

/* Display form of m, a move of side 1 in `before`. Equal to gnubg's text for
 * every legal move in positions/gnubg-1.07/moves.tsv.gz. No move gives "". */
void movetext_display(const Position *before, const Move *m, char out[MOVETEXT_MAX]);

/* Parses text into out->parts (0..4) parts, in 0-based indices (from 24 =
 * bar, to POS_OFF = off), sorted by source then destination, highest first,
 * as gnubg does; out->result is zeroed. Empty text (or only blanks, '*', ','
 * and ')') is a valid move of no parts. On a syntax error returns false with
 * a message naming the offending character or point. */
bool movetext_parse(const char *text, Move *out, Err *err);

/* The index in `legal` (movegen_generate() of p) of the move that text
 * means, or -1 with a message. The parts are played one after the other on p
 * in the parser's order, each in one hop (gnubg's rule), and the legal move
 * with that result is the answer. When none has it, the text may have
 * elided a point where a blot was hit ("24/15" for a 6-3 that hits on the
 * 21 point): then the answer is the one legal move whose parts chain into
 * exactly the written parts, and -1 ("ambiguous") if several do. Empty text
 * gives MOVETEXT_PASS when legal is empty, an error otherwise. */
int movetext_match(const Position *p, const MoveList *legal, const char *text, Err *err);

/* movetext_match() for the roll d1-d2, which it names in its messages
 * ("24/1 is not legal with 3-1"); d1 = 0 when the roll is unknown. */
int movetext_match_roll(const Position *p, const MoveList *legal, int d1, int d2,
                        const char *text, Err *err);

#endif
