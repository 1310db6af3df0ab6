/* test_file_read.c - a small file read whole (file_read.h): the bytes of
 * a file as written, NUL bytes and all; an empty file (a buffer still to
 * free); a file of exactly the limit taken and one byte more refused as
 * too big without a message; a missing file and a directory refused
 * naming the path and the system's reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "file_read.h"

static char dir[64];
static char path[96];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/shesh-test-file-read-XXXXXX");
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

static void write_file(const unsigned char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_whole_file(void **state)
{
    (void)state;
    const unsigned char bytes[] = {'a', 0, 'b', '\n', 0xff, 0};
    write_file(bytes, sizeof bytes);
    unsigned char *data;
    size_t size;
    Err err = {0};
    assert_int_equal(file_read_small(path, 100, &data, &size, &err), FILE_READ_OK);
    assert_int_equal(size, sizeof bytes);
    assert_memory_equal(data, bytes, sizeof bytes);
    free(data);

    write_file(bytes, 0);
    assert_int_equal(file_read_small(path, 100, &data, &size, &err), FILE_READ_OK);
    assert_int_equal(size, 0);
    assert_non_null(data);
    free(data);
}

static void test_limit(void **state)
{
    (void)state;
    const unsigned char bytes[] = "0123456789";
    write_file(bytes, 10);
    unsigned char *data;
    size_t size;
    Err err = {0};
    assert_int_equal(file_read_small(path, 10, &data, &size, &err), FILE_READ_OK);
    assert_int_equal(size, 10);
    assert_memory_equal(data, bytes, 10);
    free(data);
    assert_int_equal(file_read_small(path, 9, &data, &size, &err), FILE_READ_TOO_BIG);
    assert_null(data);
    assert_string_equal(err.text, "");
    assert_int_equal(file_read_small(path, 0, &data, &size, &err), FILE_READ_TOO_BIG);
}

static void test_refusals(void **state)
{
    (void)state;
    unsigned char *data;
    size_t size;
    Err err = {0};
    unlink(path);
    assert_int_equal(file_read_small(path, 10, &data, &size, &err), FILE_READ_FAILED);
    assert_null(data);
    char says[160];
    snprintf(says, sizeof says, "cannot open %s: No such file or directory", path);
    assert_string_equal(err.text, says);
    assert_int_equal(file_read_small(dir, 10, &data, &size, &err), FILE_READ_FAILED);
    snprintf(says, sizeof says, "cannot read %s: Is a directory", dir);
    assert_string_equal(err.text, says);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_file),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
