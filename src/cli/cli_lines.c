/* cli_lines.c - items a line, and refusals (see cli_lines.h). */
#include "cli_lines.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "err.h"

void cli_item_error(const char *cmd, const char *input, const char *message, bool json)
{
    char shown[ERR_QUOTE_SIZE(60)];
    err_quote(input, 60, shown);
    if (json) {
        Buf b;
        buf_init(&b);
        cli_json_error(&b, input, message);
        fputs(b.data, stdout);
        buf_free(&b);
    }
    fprintf(stderr, "shesh %s: %s: %s\n", cmd, shown, message);
}

int cli_each_line(FILE *in, const char *cmd, size_t max, bool json,
                  bool (*fn)(void *ctx, char *line), void *ctx)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int status = EXIT_OK;
    long lineno = 0;
    while ((got = getline(&line, &cap, in)) >= 0) {
        lineno++;
        size_t len = (size_t)got;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        const char *why = memchr(line, '\0', len) ? "a NUL byte"
                          : len > max             ? "longer than the longest line"
                                                  : NULL;
        if (why) {
            fprintf(stderr, "shesh %s: line %ld: %s (%zu bytes at most)\n", cmd, lineno, why,
                    max);
            if (json)
                printf("{\"line\": %ld, \"error\": \"%s\"}\n", lineno, why);
            status = EXIT_FAIL;
            continue;
        }
        line[len] = '\0';
        char *s = line, *end = line + len;
        while (*s == ' ' || *s == '\t')
            s++;
        while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (!*s || *s == '#')
            continue;
        if (!fn(ctx, s))
            status = EXIT_FAIL;
    }
    free(line);
    fflush(stdout);
    return status;
}
