/* test_base64.c - the Base64 codec under the Position and Match IDs: RFC
 * 4648's test vectors (padding dropped), every length from 0 to 40 bytes
 * round trip, the tail bits of a last partial character, the alphabet
 * character by character and in order, and a bad character's index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base64.h"

static void test_rfc4648(void **state)
{
    (void)state;
    /* RFC 4648 section 10, without the '=' padding gnubg does not write. */
    static const char *const vec[][2] = {
        {"", ""},         {"f", "Zg"},          {"fo", "Zm8"},       {"foo", "Zm9v"},
        {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        const char *plain = vec[i][0], *coded = vec[i][1];
        size_t n = strlen(plain);
        char out[16];
        assert_int_equal(BASE64_CHARS(n), strlen(coded));
        base64_encode((const uint8_t *)plain, n, out);
        assert_string_equal(out, coded);
        uint8_t back[16];
        memset(back, 0xee, sizeof back);
        assert_true(base64_decode(coded, strlen(coded), back, NULL));
        assert_memory_equal(back, plain, n);
        /* The tail byte, when there is one, holds only zero bits. */
        for (size_t k = n; k < BASE64_BYTES(strlen(coded)); k++)
            assert_int_equal(back[k], 0);
        assert_int_equal(back[BASE64_BYTES(strlen(coded))], 0xee); /* nothing past it */
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t n = 0; n <= 40; n++) {
        for (int rep = 0; rep < 50; rep++) {
            uint8_t in[40], back[41];
            char text[64];
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                in[i] = (uint8_t)x;
            }
            base64_encode(in, n, text);
            assert_int_equal(strlen(text), BASE64_CHARS(n));
            assert_true(base64_decode(text, strlen(text), back, NULL));
            assert_memory_equal(back, in, n);
        }
    }
}

static void test_tail_bits(void **state)
{
    (void)state;
    /* 14 characters carry 84 bits: the last 4 land in an eleventh byte,
     * where the Position ID decoder looks for them. */
    uint8_t key[BASE64_BYTES(14)];
    assert_int_equal(sizeof key, 11);
    assert_true(base64_decode("AAAAAAAAAAAAAB", 14, key, NULL));
    for (int i = 0; i < 10; i++)
        assert_int_equal(key[i], 0);
    assert_int_equal(key[10], 0x10);
    assert_true(base64_decode("AAAAAAAAAAAAAQ", 14, key, NULL));
    assert_int_equal(key[9], 0x01);
    assert_int_equal(key[10], 0x00);
}

static void test_alphabet(void **state)
{
    (void)state;
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int c = 0; c < 256; c++) {
        const char *at = c ? memchr(alphabet, c, 64) : NULL;
        assert_int_equal(base64_value((unsigned char)c), at ? (int)(at - alphabet) : -1);
    }
    /* The 48 bytes whose 64 characters are the alphabet in order. */
    static const uint8_t every[48] = {
        0x00, 0x10, 0x83, 0x10, 0x51, 0x87, 0x20, 0x92, 0x8b, 0x30, 0xd3, 0x8f,
        0x41, 0x14, 0x93, 0x51, 0x55, 0x97, 0x61, 0x96, 0x9b, 0x71, 0xd7, 0x9f,
        0x82, 0x18, 0xa3, 0x92, 0x59, 0xa7, 0xa2, 0x9a, 0xab, 0xb2, 0xdb, 0xaf,
        0xc3, 0x1c, 0xb3, 0xd3, 0x5d, 0xb7, 0xe3, 0x9e, 0xbb, 0xf3, 0xdf, 0xbf,
    };
    char text[65];
    base64_encode(every, sizeof every, text);
    assert_string_equal(text, alphabet);
    uint8_t back[48];
    assert_true(base64_decode(alphabet, 64, back, NULL));
    assert_memory_equal(back, every, sizeof every);
}

static void test_bad_character(void **state)
{
    (void)state;
    static const char *const bad[] = {"=AAA", "A=AA", "AAA=", "AA-A", "AA A", "AA\x80\x41"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t out[3];
        size_t at = 99;
        assert_false(base64_decode(bad[i], 4, out, &at));
        assert_int_equal(at, strcspn(bad[i], "=- \x80"));
    }
    uint8_t out[3];
    assert_false(base64_decode("AB\0D", 4, out, NULL)); /* a NUL is no character */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc4648),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_tail_bits),
        cmocka_unit_test(test_alphabet),
        cmocka_unit_test(test_bad_character),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
