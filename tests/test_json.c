/* test_json.c - JSON string escaping: quotes, backslashes, every control
 * byte and DEL escaped; well-formed UTF-8 kept at the edges of each length
 * (U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF);
 * overlong forms, surrogates, code points above U+10FFFF, stray and missing
 * continuation bytes turned into U+FFFD; and every string of up to three
 * bytes (four for the 4-byte leads) compared with a decoder written the
 * other way round: code point first, then the rules of RFC 3629. The
 * writer: every kind of value, commas between members and elements at
 * every depth, empty containers, keys and strings escaped, the shortest
 * number text that reads back, non-finite numbers as null. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "json.h"

/* json_escape of s alone, in b. */
static const char *escaped(Buf *b, const char *s)
{
    buf_clear(b);
    json_escape(b, s);
    return b->len ? b->data : "";
}

static void test_plain_ascii(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    assert_string_equal(escaped(&b, ""), "");
    char all[128];
    size_t n = 0;
    for (int c = 0x20; c < 0x7f; c++)
        if (c != '"' && c != '\\')
            all[n++] = (char)c;
    all[n] = '\0';
    assert_string_equal(escaped(&b, all), all); /* printable ASCII is kept as it is */
    assert_string_equal(escaped(&b, "8/5 6/5"), "8/5 6/5");
    buf_free(&b);
}

static void test_quotes_and_backslashes(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    assert_string_equal(escaped(&b, "\""), "\\\"");
    assert_string_equal(escaped(&b, "\\"), "\\\\");
    assert_string_equal(escaped(&b, "not-an-id \"31\""), "not-an-id \\\"31\\\"");
    assert_string_equal(escaped(&b, "a\\\"b"), "a\\\\\\\"b");
    assert_string_equal(escaped(&b, "\\u0041"), "\\\\u0041"); /* not read as an escape */
    buf_free(&b);
}

static void test_control_bytes(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    for (int c = 1; c <= 0x7f; c++) {
        if (c >= 0x20 && c < 0x7f)
            continue;
        char in[4] = {'x', (char)c, 'y', '\0'}, want[16];
        snprintf(want, sizeof want, "x\\u%04xy", c);
        assert_string_equal(escaped(&b, in), want);
    }
    assert_string_equal(escaped(&b, "line\r\n\t"), "line\\u000d\\u000a\\u0009");
    buf_free(&b);
}

static void test_utf8_kept(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "\xc2\x80",         /* U+0080, the first 2-byte */
        "\xc3\xa9",         /* e acute */
        "\xdf\xbf",         /* U+07FF, the last 2-byte */
        "\xe0\xa0\x80",     /* U+0800, the first 3-byte */
        "\xe2\x82\xac",     /* the euro sign */
        "\xed\x9f\xbf",     /* U+D7FF, just below the surrogates */
        "\xee\x80\x80",     /* U+E000, just above them */
        "\xef\xbf\xbd",     /* U+FFFD itself */
        "\xef\xbf\xbf",     /* U+FFFF, the last 3-byte */
        "\xf0\x90\x80\x80", /* U+10000, the first 4-byte */
        "\xf0\x9f\x8e\xb2", /* a game die */
        "\xf4\x8f\xbf\xbf", /* U+10FFFF, the last code point */
        "J\xc3\xb8rgen M\xc3\xbcller: \xe2\x9a\x80\xe2\x9a\x81 \xf0\x9f\x8e\xb2",
    };
    Buf b;
    buf_init(&b);
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        assert_string_equal(escaped(&b, ok[i]), ok[i]);
    /* next to escapes, and with a quote right after a multi-byte sequence */
    assert_string_equal(escaped(&b, "\xc3\xa9\"\n\xe2\x82\xac"), "\xc3\xa9\\\"\\u000a\xe2\x82\xac");
    buf_free(&b);
}

static void test_utf8_made_safe(void **state)
{
    (void)state;
    /* One U+FFFD per byte that starts no well-formed sequence; what follows
     * is read afresh, so a good character after a bad byte survives. */
    static const char *const vec[][2] = {
        {"\x80", "\\ufffd"},                                   /* a lone continuation */
        {"\xbf\xbf", "\\ufffd\\ufffd"},
        {"\xc0\x80", "\\ufffd\\ufffd"},                        /* overlong NUL */
        {"\xc1\xbf", "\\ufffd\\ufffd"},                        /* overlong DEL */
        {"\xe0\x80\x80", "\\ufffd\\ufffd\\ufffd"},             /* overlong 3-byte */
        {"\xe0\x9f\xbf", "\\ufffd\\ufffd\\ufffd"},             /* overlong U+07FF */
        {"\xf0\x80\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd"},  /* overlong 4-byte */
        {"\xf0\x8f\xbf\xbf", "\\ufffd\\ufffd\\ufffd\\ufffd"},  /* overlong U+FFFF */
        {"\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd"},             /* U+D800, a surrogate */
        {"\xed\xbf\xbf", "\\ufffd\\ufffd\\ufffd"},             /* U+DFFF */
        {"\xed\xa0\xbd\xed\xb2\xa9", "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"}, /* CESU */
        {"\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd"},  /* U+110000 */
        {"\xf5\x80\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd"},
        {"\xf8\x88\x80\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"}, /* old 5-byte */
        {"\xfe\xff", "\\ufffd\\ufffd"},
        {"\xc3", "\\ufffd"},                                   /* cut short at the end */
        {"\xe2\x82", "\\ufffd\\ufffd"},
        {"\xf0\x9f\x8e", "\\ufffd\\ufffd\\ufffd"},
        {"\xc3\x41", "\\ufffdA"},                              /* cut short by ASCII */
        {"\xe2\x82\"", "\\ufffd\\ufffd\\\""},
        {"\xf0\x9f\x8e\n", "\\ufffd\\ufffd\\ufffd\\u000a"},
        {"\xe9t\xe9", "\\ufffdt\\ufffd"},                      /* Latin-1 */
        {"\x80\xc3\xa9", "\\ufffd\xc3\xa9"},                   /* good after bad */
        {"\xe2\xc3\xa9", "\\ufffd\xc3\xa9"},
    };
    Buf b;
    buf_init(&b);
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        assert_string_equal(escaped(&b, vec[i][0]), vec[i][1]);
    buf_free(&b);
}

static void test_string_and_append(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    json_string(&b, "");
    assert_string_equal(b.data, "\"\"");
    buf_clear(&b);
    buf_puts(&b, "{\"error\": ");
    json_string(&b, "bad \"x\xff\"");
    buf_puts(&b, "}");
    assert_string_equal(b.data, "{\"error\": \"bad \\\"x\\ufffd\\\"\"}");
    assert_int_equal(b.len, strlen(b.data));
    buf_free(&b);
}

/* ---- the same, derived another way ------------------------------------ */

/* What json_escape must write for s[0..len), built the other way round:
 * count the sequence's length from its lead byte's bits, decode the code
 * point, then apply RFC 3629 (shortest form, no surrogates, <= U+10FFFF). */
static void oracle(Buf *b, const unsigned char *s, size_t len)
{
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c == '"' || c == '\\')
                buf_printf(b, "\\%c", c);
            else if (c < 0x20 || c == 0x7f)
                buf_printf(b, "\\u%04x", c);
            else
                buf_printf(b, "%c", c);
            i++;
            continue;
        }
        size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        bool good = n && i + n <= len;
        uint32_t cp = n ? c & (0x7fu >> n) : 0;
        for (size_t k = 1; good && k < n; k++) {
            good = (s[i + k] & 0xc0) == 0x80;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        good = good && cp >= least[n] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
        if (good) {
            buf_append(b, s + i, n);
            i += n;
        } else {
            buf_puts(b, "\\ufffd");
            i++;
        }
    }
}

/* Compares json_escape with the oracle on s[0..len) (no NUL inside). */
static void check(Buf *got, Buf *want, const unsigned char *s, size_t len)
{
    char in[8];
    memcpy(in, s, len);
    in[len] = '\0';
    buf_clear(got);
    buf_clear(want);
    json_escape(got, in);
    oracle(want, s, len);
    if (got->len != want->len || memcmp(got->data, want->data, got->len)) {
        char hex[32] = "";
        for (size_t i = 0; i < len; i++)
            snprintf(hex + 3 * i, sizeof hex - 3 * i, "%02x ", s[i]);
        fail_msg("input %s: escaped as '%s', expected '%s'", hex, got->len ? got->data : "",
                 want->len ? want->data : "");
    }
}

static void test_every_short_string(void **state)
{
    (void)state;
    Buf got, want;
    buf_init(&got);
    buf_init(&want);
    long n = 0;
    unsigned char s[4];
    for (int a = 1; a < 256; a++) {
        s[0] = (unsigned char)a;
        check(&got, &want, s, 1);
        n++;
        for (int c = 1; c < 256; c++) {
            s[1] = (unsigned char)c;
            check(&got, &want, s, 2);
            n++;
            if (a < 0x80)
                continue; /* an ASCII first byte adds nothing a 2-byte string lacks */
            for (int d = 1; d < 256; d++) {
                s[2] = (unsigned char)d;
                check(&got, &want, s, 3);
                n++;
            }
        }
    }
    /* 4-byte leads (and the bytes around them) with every byte that matters
     * after them: ASCII next to the continuations, the continuations, and
     * the first bytes that are not. */
    for (int a = 0xef; a <= 0xf8; a++)
        for (int b = 0x7f; b <= 0xc2; b++)
            for (int c = 0x7f; c <= 0xc2; c++)
                for (int d = 0x7f; d <= 0xc2; d++) {
                    s[0] = (unsigned char)a, s[1] = (unsigned char)b;
                    s[2] = (unsigned char)c, s[3] = (unsigned char)d;
                    check(&got, &want, s, 4);
                    n++;
                }
    printf("json_escape agrees with the oracle on %ld strings\n", n);
    assert_true(n > 8000000);
    buf_free(&got);
    buf_free(&want);
}

/* ---- the writer ---- */

static void test_writer_values(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "s");
    json_str(&j, "8/5 6/5");
    json_key(&j, "i");
    json_int(&j, -42);
    json_key(&j, "big");
    json_int(&j, 9007199254740993LL);
    json_key(&j, "t");
    json_bool(&j, true);
    json_key(&j, "f");
    json_bool(&j, false);
    json_key(&j, "n");
    json_null(&j);
    json_object_end(&j);
    assert_string_equal(b.data, "{\"s\": \"8/5 6/5\", \"i\": -42, \"big\": 9007199254740993, "
                                "\"t\": true, \"f\": false, \"n\": null}");
    buf_free(&b);
}

static void test_writer_nesting(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "dice");
    json_array_begin(&j);
    json_int(&j, 3);
    json_int(&j, 1);
    json_array_end(&j);
    json_key(&j, "moves");
    json_array_begin(&j);
    for (int k = 0; k < 2; k++) {
        json_object_begin(&j);
        json_key(&j, "move");
        json_str(&j, k ? "b" : "a");
        json_key(&j, "empty");
        json_array_begin(&j);
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "none");
    json_object_begin(&j);
    json_object_end(&j);
    json_key(&j, "last");
    json_int(&j, 0);
    json_object_end(&j);
    assert_string_equal(b.data, "{\"dice\": [3, 1], \"moves\": [{\"move\": \"a\", \"empty\": []}, "
                                "{\"move\": \"b\", \"empty\": []}], \"none\": {}, \"last\": 0}");
    /* a second value after the first: the writer goes on at the top */
    buf_clear(&b);
    json_begin(&j, &b);
    json_array_begin(&j);
    json_array_begin(&j);
    json_array_begin(&j);
    json_int(&j, 1);
    json_array_end(&j);
    json_int(&j, 2);
    json_array_end(&j);
    json_int(&j, 3);
    json_array_end(&j);
    assert_string_equal(b.data, "[[[1], 2], 3]");
    buf_free(&b);
}

static void test_writer_escapes(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    Json j;
    json_begin(&j, &b);
    json_object_begin(&j);
    json_key(&j, "a\"b");
    json_str(&j, "line\n\xff");
    json_key(&j, "null string");
    json_str(&j, NULL);
    json_object_end(&j);
    assert_string_equal(b.data, "{\"a\\\"b\": \"line\\u000a\\ufffd\", \"null string\": \"\"}");
    buf_free(&b);
}

static void test_writer_numbers(void **state)
{
    (void)state;
    Buf b;
    buf_init(&b);
    Json j;
    /* 90 and 550 as written, not 9e+01 and 5.5e+02 (as short, for fewer
     * digits); 0.1 + 0.2 needs all seventeen. */
    const double v[] = {0.0, 0.5, 0.1, -2.25, 1e21, 1.0 / 3.0, 123456789.0, 5e-324, 90.0, -550.0,
                        0.1 + 0.2};
    const char *want[] = {"0", "0.5", "0.1", "-2.25", "1e+21", "0.3333333333333333", "123456789",
                          "5e-324", "90", "-550", "0.30000000000000004"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        buf_clear(&b);
        json_begin(&j, &b);
        json_num(&j, v[i]);
        assert_string_equal(b.data, want[i]);
        assert_true(strtod(b.data, NULL) == v[i]); /* reads back as the same double */
    }
    buf_clear(&b);
    json_begin(&j, &b);
    json_array_begin(&j);
    json_num(&j, NAN);
    json_num(&j, INFINITY);
    json_num(&j, -INFINITY);
    json_array_end(&j);
    assert_string_equal(b.data, "[null, null, null]");
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_ascii),
        cmocka_unit_test(test_quotes_and_backslashes),
        cmocka_unit_test(test_control_bytes),
        cmocka_unit_test(test_utf8_kept),
        cmocka_unit_test(test_utf8_made_safe),
        cmocka_unit_test(test_string_and_append),
        cmocka_unit_test(test_every_short_string),
        cmocka_unit_test(test_writer_values),
        cmocka_unit_test(test_writer_nesting),
        cmocka_unit_test(test_writer_escapes),
        cmocka_unit_test(test_writer_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
