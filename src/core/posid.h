/* posid.h - gnubg's 14-character Position ID, both ways.
 *
 * The ID packs the checker arrays (side 0 then side 1, index 0..24 each, one
 * 1-bit per checker and a 0-bit after every slot) into 80 bits, little-endian
 * within each byte, and writes the 10 bytes in standard Base64 without
 * padding. See docs section 5 of gnubg-external-protocol.md. */
#ifndef SHESH_POSID_H
#define SHESH_POSID_H

#include <stdbool.h>

#include "err.h"
#include "position.h"

#define POSID_LEN 14

/* Writes the ID of p (14 characters and a NUL) to out. p must hold at most
 * 30 checkers in all (pos_valid() guarantees it); further checkers would not
 * fit in 80 bits and are dropped. */
void posid_encode(const Position *p, char out[POSID_LEN + 1]);

/* Reads a Position ID into p. Strict: exactly 14 characters of the Base64
 * alphabet; the bits must describe all 50 slots, and any bits after them
 * (which gnubg ignores) must be zero, so that every accepted ID is the one
 * posid_encode() writes for the position. The position must then pass
 * pos_valid(). On failure returns false, fills err and leaves p unchanged. */
bool posid_decode(const char *id, Position *p, Err *err);

#endif
