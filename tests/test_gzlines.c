/* test_gzlines.c - the lines of a text file, gzip or plain (gzlines.h):
 * the same lines from both, newlines and CR LF taken off, a last line
 * without its newline, an empty file; the limit at its exact length, with
 * and without a '\r'; a NUL byte; a refusal by the callback naming its
 * line and stopping the reading; a gzip file cut short; a missing file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "gzlines.h"

static char dir[64];
static char path[96];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/shesh-test-gzlines-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/f", dir);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    unlink(path);
    return rmdir(dir);
}

/* Writes n bytes to the file, gzip-compressed or plain. */
static void write_file(const char *text, size_t n, bool gzip)
{
    if (gzip) {
        gzFile f = gzopen(path, "wb");
        assert_non_null(f);
        if (n)
            assert_int_equal(gzwrite(f, text, (unsigned)n), (int)n);
        assert_int_equal(gzclose(f), Z_OK);
    } else {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(text, 1, n, f), n);
        assert_int_equal(fclose(f), 0);
    }
}

/* What the callback saw: the lines joined by '|', and which to refuse. */
typedef struct Seen {
    char text[256];
    int lines, refuse;
} Seen;

static bool take(void *ctx, char *line, size_t len, Err *err)
{
    Seen *s = ctx;
    assert_int_equal(strlen(line), len);
    s->lines++;
    if (s->lines == s->refuse)
        return err_set(err, "not wanted");
    size_t at = strlen(s->text);
    snprintf(s->text + at, sizeof s->text - at, "%s%s", at ? "|" : "", line);
    return true;
}

/* Reads the file with limit max; returns the result, *s and err filled. */
static bool read_lines(size_t max, Seen *s, Err *err)
{
    memset(s->text, 0, sizeof s->text);
    s->lines = 0;
    err->text[0] = '\0';
    return gzlines_each(path, max, take, s, err);
}

/* Reading with limit max fails with err "BEFORE" PATH "AFTER". */
static void assert_refused(size_t max, Seen *s, const char *before, const char *after)
{
    Err err;
    assert_false(read_lines(max, s, &err));
    char want[160];
    snprintf(want, sizeof want, "%s%s%s", before, path, after);
    assert_string_equal(err.text, want);
}

static void test_lines(void **state)
{
    (void)state;
    static const char text[] = "one\r\ntwo\n\n# four\nfive";
    for (int gzip = 0; gzip <= 1; gzip++) {
        write_file(text, sizeof text - 1, gzip);
        Seen s = {.refuse = 0};
        Err err;
        assert_true(read_lines(100, &s, &err));
        assert_string_equal(s.text, "one|two||# four|five");
        assert_int_equal(s.lines, 5);
        write_file("", 0, gzip);
        assert_true(read_lines(100, &s, &err));
        assert_int_equal(s.lines, 0);
    }
}

static void test_limit(void **state)
{
    (void)state;
    Seen s = {.refuse = 0};
    Err err;
    static const char text[] = "abcd\nabcd\r\nxy\n";
    write_file(text, sizeof text - 1, false);
    assert_true(read_lines(4, &s, &err)); /* exactly the limit, '\r' not counted */
    assert_string_equal(s.text, "abcd|abcd|xy");
    assert_refused(3, &s, "", " line 1: longer than 3 characters");
    /* A line past the limit is refused before its end is read. */
    static char big[200000];
    memset(big, 'x', sizeof big);
    write_file(big, sizeof big, true);
    assert_refused(1000, &s, "", " line 1: longer than 1000 characters");
    assert_int_equal(s.lines, 0);
}

static void test_refusals(void **state)
{
    (void)state;
    Seen s = {.refuse = 0};
    static const char nul[] = "ok\nn\0l\nafter\n";
    write_file(nul, sizeof nul - 1, true);
    assert_refused(100, &s, "", " line 2: holds a NUL byte");
    assert_string_equal(s.text, "ok");
    write_file("a\nb\nc\n", strlen("a\nb\nc\n"), false);
    s.refuse = 2;
    assert_refused(100, &s, "", " line 2: not wanted");
    assert_string_equal(s.text, "a"); /* line 3 never read */
    assert_int_equal(s.lines, 2);
}

static void test_bad_files(void **state)
{
    (void)state;
    Seen s = {.refuse = 0};
    /* A gzip file cut short: the error, not a short file read as whole. */
    static const char two[] = "first line\nsecond line\n";
    write_file(two, sizeof two - 1, true);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char bytes[128];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    write_file(bytes, n - 6, false);
    assert_refused(100, &s, "cannot read ", ": unexpected end of file");
    unlink(path);
    assert_refused(100, &s, "cannot open ", ": No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
