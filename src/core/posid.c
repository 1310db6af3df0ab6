/* posid.c - Position ID encoder and strict decoder (see posid.h). */
#include "posid.h"

#include <stdint.h>
#include <string.h>

#include "base64.h"

#define KEY_BYTES 10
#define KEY_BITS (KEY_BYTES * 8)
#define SLOTS (2 * POS_SLOTS)
_Static_assert(BASE64_CHARS(KEY_BYTES) == POSID_LEN,
               "a Position ID is its 10-byte key in 14 Base64 characters");

/* Bit k of the key: bit (k mod 8) of byte k/8 (little-endian packing). */
static int key_bit(const uint8_t *key, int k)
{
    return (key[k >> 3] >> (k & 7)) & 1;
}

void posid_encode(const Position *p, char out[POSID_LEN + 1])
{
    uint8_t key[KEY_BYTES] = {0};
    int k = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < POS_SLOTS; i++) {
            for (int c = 0; c < p->side[s][i] && k < KEY_BITS; c++, k++)
                key[k >> 3] |= (uint8_t)(1u << (k & 7));
            k++; /* the 0-bit closing the slot */
        }
    /* 80 bits make 14 characters, the last with 4 zero bits. */
    base64_encode(key, KEY_BYTES, out);
}

bool posid_decode(const char *id, Position *p, Err *err)
{
    if (!id)
        return err_set(err, "no Position ID given");
    size_t len = strlen(id);
    if (len != POSID_LEN)
        return err_set(err, "a Position ID has %d characters, this one has %zu", POSID_LEN,
                       len);

    uint8_t key[BASE64_BYTES(POSID_LEN)]; /* 11 bytes: the 84 bits of 14 characters */
    size_t bad;
    if (!base64_decode(id, POSID_LEN, key, &bad))
        return err_set(err, "character %zu of the Position ID (0x%02x) is not in the "
                            "Base64 alphabet A-Z a-z 0-9 + /",
                       bad + 1, (unsigned char)id[bad]);
    /* 14 characters carry 84 bits; the last 4 lie beyond the 80-bit key. */
    if (key[KEY_BYTES])
        return err_set(err, "the last character of the Position ID sets bits beyond "
                            "the 80 that an ID holds");

    Position q;
    memset(&q, 0, sizeof q);
    int slot = 0, k = 0;
    for (; k < KEY_BITS && slot < SLOTS; k++) {
        if (key_bit(key, k))
            q.side[slot / POS_SLOTS][slot % POS_SLOTS]++; /* at most 80: no overflow */
        else
            slot++;
    }
    if (slot < SLOTS)
        return err_set(err, "the Position ID has too many checkers: its bits end after "
                            "%d of the 50 points and bars",
                       slot);
    for (; k < KEY_BITS; k++)
        if (key_bit(key, k))
            return err_set(err, "the Position ID has bits set after the last slot "
                                "(bit %d of 80); gnubg would ignore them",
                           k);
    if (!pos_valid(&q, err))
        return false;
    *p = q;
    return true;
}
