/* xgid.h - eXtreme Gammon's position string (XGID), both ways.
 *
 *   XGID=<pos26>:<cube>:<cubepos>:<turn>:<dice>:<bottom score>:<top score>:
 *        <rules>:<match length>:<max cube>
 *
 * XG draws one player at the bottom and one at the top; gnubg's `set xgid`
 * makes the BOTTOM player gnubg's player 1 (X) and the TOP player player 0
 * (O), whoever is on roll (checked with gnubg 1.07; afterwards gnubg offers
 * to swap the seats when the top player is on roll, a display choice we do
 * not copy). So an Xgid is a Position seen from the player on roll plus a
 * MatchId in gnubg's seats, and the two XG-only fields. Details, the
 * vectors in positions/xgid.tsv and the differences from gnubg: docs/ids.md. */
#ifndef SHESH_XGID_H
#define SHESH_XGID_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "matchid.h"
#include "position.h"

/* Room for any XGID xgid_encode() writes, with its NUL. */
#define XGID_MAX 96
/* What XG writes in the max-cube field (log2 of the cube limit). */
#define XGID_DEFAULT_MAX_CUBE 10

typedef struct Xgid {
    Position pos;  /* side[SIDE_ROLLER] = the checkers of match.dice_owner */
    MatchId match; /* player 1 = XG's bottom player, player 0 = the top one */
    bool beavers;  /* money (rules bit 1): beavers allowed */
    int max_cube;  /* field 10 as written: log2 of the cube limit, 0..15
                      (gnubg reads 0 as "no cube") */
} Xgid;

/* Reads an XGID, with or without its "XGID=" prefix. Strict: ten fields,
 * 26 position characters ('-', A-P bottom, a-p top for 1-16; the top's bar
 * first, the bottom player's bar last), at most 15 checkers a side, whole
 * numbers in range, dice "00", "D" (the player in <turn> has doubled) or two
 * digits 1-6, scores below the match length, a Crawford game only when
 * exactly one player is a point from winning, the cube within the max cube.
 * Dice are stored larger first, as gnubg does. On failure returns false,
 * fills err and leaves x unchanged. */
bool xgid_decode(const char *s, Xgid *x, Err *err);

/* Writes the XGID of x (with the "XGID=" prefix). Fails when x has no XGID:
 * no game in play, a resignation pending, a player to act that is neither
 * the roller nor (with a double pending) his opponent, or a position or
 * match field that is out of range. In a match the Jacoby flag is not
 * written (it has no effect there). */
bool xgid_encode(const Xgid *x, char out[XGID_MAX], Err *err);

#endif
