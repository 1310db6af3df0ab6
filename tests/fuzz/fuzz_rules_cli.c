/* fuzz_rules_cli.c - libFuzzer harness for the rules options (rules_cli.h):
 * what `shesh rules` and every command that takes rules options read.
 *
 * The input is a list of "name=value" or "name" items separated by NUL or
 * newline bytes, applied in order with rules_cli_set, then finished. A
 * refusal must say why on one line; finished rules must pass rules_valid
 * and describe themselves in one line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n'))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[2048];
    if (size >= sizeof buf)
        size = sizeof buf - 1;
    memcpy(buf, data, size);
    buf[size] = '\0';

    RulesCli c;
    rules_cli_init(&c);
    Err err;
    size_t i = 0;
    while (i <= size) {
        size_t j = i;
        while (j < size && buf[j] != '\0' && buf[j] != '\n')
            j++;
        buf[j] = '\0';
        char *item = buf + i, *eq = strchr(item, '=');
        if (eq)
            *eq = '\0';
        memset(&err, 'x', sizeof err);
        if (item[0] && !rules_cli_set(&c, item, eq ? eq + 1 : NULL, &err))
            check_err(&err);
        i = j + 1;
    }
    Rules r;
    memset(&err, 'x', sizeof err);
    if (!rules_cli_finish(&c, &r, &err)) {
        check_err(&err);
        return 0;
    }
    if (!rules_valid(&r, NULL))
        abort();
    char line[512];
    rules_describe(&r, 0, line, sizeof line);
    if (!memchr(line, '\0', sizeof line) || strchr(line, '\n'))
        abort();
    rules_describe(&r, 7, line, sizeof line);
    if (!memchr(line, '\0', sizeof line) || strchr(line, '\n'))
        abort();
    return 0;
}
