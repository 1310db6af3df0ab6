/* base64.h - standard Base64 (A-Z a-z 0-9 + /) without padding, as gnubg
 * writes its Position and Match IDs.
 *
 * The bytes are read as one big-endian bit stream, 6 bits a character; a
 * last character that is not full is filled with zero bits. Both IDs are
 * exactly that: the 10-byte Position ID key makes 14 characters (4 zero
 * bits at the end), the 9-byte Match ID key 12. */
#ifndef SHESH_BASE64_H
#define SHESH_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters written for n bytes, and bytes needed for n characters (the
 * last byte may hold only the stream's tail bits, the rest zero). */
#define BASE64_CHARS(n) (((n) * 8 + 5) / 6)
#define BASE64_BYTES(n) (((n) * 6 + 7) / 8)

/* The 6-bit value of a character, or -1 if it is not in the alphabet. */
int base64_value(unsigned char c);

/* Writes BASE64_CHARS(n) characters of in[0..n) and a NUL to out. */
void base64_encode(const uint8_t *in, size_t n, char *out);

/* Reads len characters of s into out (BASE64_BYTES(len) bytes; bits past
 * the 6 * len the characters carry are zero). Returns true, or false with
 * *bad (if bad is not NULL) set to the index of the first character outside
 * the alphabet; out is then partly written. */
bool base64_decode(const char *s, size_t len, uint8_t *out, size_t *bad);

#endif
