/* base64.c - Base64 without padding (see base64.h). */
#include "base64.h"

#include <string.h>

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

void base64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t chars = BASE64_CHARS(n);
    for (size_t c = 0; c < chars; c++) {
        /* The character's 6 bits lie within the 16-bit window of bytes
         * bit/8 and bit/8 + 1; a byte past the end reads as zero. */
        size_t bit = c * 6, byte = bit >> 3;
        unsigned hi = in[byte], lo = byte + 1 < n ? in[byte + 1] : 0;
        unsigned w = (hi << 8 | lo) >> (10 - (bit & 7));
        out[c] = alphabet[w & 63];
    }
    out[chars] = '\0';
}

bool base64_decode(const char *s, size_t len, uint8_t *out, size_t *bad)
{
    size_t bytes = BASE64_BYTES(len);
    memset(out, 0, bytes);
    for (size_t c = 0; c < len; c++) {
        int v = base64_value((unsigned char)s[c]);
        if (v < 0) {
            if (bad)
                *bad = c;
            return false;
        }
        size_t bit = c * 6, byte = bit >> 3;
        unsigned w = (unsigned)v << (10 - (bit & 7)); /* placed in a 16-bit window */
        out[byte] |= (uint8_t)(w >> 8);
        if (byte + 1 < bytes)
            out[byte + 1] |= (uint8_t)w;
    }
    return true;
}
