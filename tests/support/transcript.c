/* transcript.c - replaying conformance transcripts (transcript.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "transcript.h"

#include <dirent.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRANSCRIPT_LINE_MAX 8192
#define TRANSCRIPT_EXPECT_MAX 64

/* Decodes the escapes of a transcript line: \\ \s (blank) \t \r \0 \xHH.
 * Returns the length, or -1 for an unknown escape. */
static long unescape(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < size; p++) {
        if (*p != '\\') {
            out[n++] = *p;
            continue;
        }
        unsigned v;
        switch (*++p) {
        case '\\': out[n++] = '\\'; break;
        case 's': out[n++] = ' '; break;
        case 't': out[n++] = '\t'; break;
        case 'r': out[n++] = '\r'; break;
        case '0': out[n++] = '\0'; break;
        case 'x':
            if (sscanf(p + 1, "%2x", &v) != 1)
                return -1;
            out[n++] = (char)v;
            p += 2;
            break;
        default: return -1;
        }
    }
    out[n] = '\0';
    return (long)n;
}

/* The whole of s[0..len) matches pattern. */
static bool matches(const char *pattern, const char *s, size_t len, Err *err)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                   PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
    if (!re)
        return err_set(err, "pattern '%s' does not compile at %zu", pattern, (size_t)off);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc >= 0 || err_set(err, "no match");
}

typedef struct Expect {
    int lineno;
    bool pattern;
    char text[TRANSCRIPT_LINE_MAX];
} Expect;

typedef struct Pending {
    bool have, open, close;
    int req_line, nwant;
    Buf reply;
    Expect want[TRANSCRIPT_EXPECT_MAX];
} Pending;

static bool check(const char *file, const Pending *q, Err *err)
{
    if (q->close)
        return q->open ? err_set(err, "%s:%d: expected the connection to close, got '%.80s'",
                                 file, q->req_line, q->reply.len ? q->reply.data : "")
                       : true;
    if (!q->open)
        return err_set(err, "%s:%d: the connection closed", file, q->req_line);
    if (q->reply.len && q->reply.data[q->reply.len - 1] != '\n')
        return err_set(err, "%s:%d: the reply does not end with a newline", file, q->req_line);
    int got = 0;
    for (size_t i = 0; i < q->reply.len; i++)
        got += q->reply.data[i] == '\n';
    if (got != q->nwant)
        return err_set(err, "%s:%d: expected %d reply lines, got %d: '%.120s'", file,
                       q->req_line, q->nwant, got, q->reply.len ? q->reply.data : "");
    const char *p = q->reply.data;
    for (int i = 0; i < q->nwant; i++) {
        size_t len = strcspn(p, "\n");
        const Expect *e = &q->want[i];
        Err why = {""};
        bool ok = e->pattern ? matches(e->text, p, len, &why)
                             : strlen(e->text) == len && !memcmp(e->text, p, len);
        if (!ok)
            return err_set(err, "%s:%d: reply line %d is '%.*s', expected %s'%.80s'", file,
                           e->lineno, i + 1, len > 80 ? 80 : (int)len, p,
                           e->pattern ? "a match of " : "", e->text);
        p += len + 1;
    }
    return true;
}

/* Reads one line of the file into q; false with err on a line it cannot
 * read. */
static bool read_line(const char *file, int lineno, const char *line, const TranscriptProtocol *pr,
                      void *ctx, Pending *q, int *requests, Err *err)
{
    static char req[TRANSCRIPT_LINE_MAX];
    if (line[0] == '>') {
        if (q->have && !check(file, q, err))
            return false;
        long n = unescape(line[1] == ' ' ? line + 2 : line + 1, req, sizeof req);
        if (n < 0)
            return err_set(err, "%s:%d: bad escape", file, lineno);
        buf_clear(&q->reply);
        q->open = pr->ask(ctx, req, (size_t)n, &q->reply);
        q->have = true;
        q->close = false;
        q->req_line = lineno;
        q->nwant = 0;
        (*requests)++;
        return true;
    }
    if (!strncmp(line, "<~ ", 3) || !strncmp(line, "< ", 2) || !strcmp(line, "<")) {
        if (!q->have || q->nwant == TRANSCRIPT_EXPECT_MAX)
            return err_set(err, "%s:%d: reply line without a request", file, lineno);
        Expect *e = &q->want[q->nwant++];
        e->lineno = lineno;
        e->pattern = line[1] == '~';
        const char *text = e->pattern ? line + 3 : line[1] ? line + 2 : "";
        if (e->pattern)
            snprintf(e->text, sizeof e->text, "%s", text);
        else if (unescape(text, e->text, sizeof e->text) < 0)
            return err_set(err, "%s:%d: bad escape", file, lineno);
        return true;
    }
    if (!strcmp(line, "= close")) {
        q->close = true;
        return true;
    }
    if (line[0] == '#' || line[0] == '\0')
        return true;
    return err_set(err, "%s:%d: cannot read '%.60s'", file, lineno, line);
}

int transcript_replay(const char *file, const TranscriptProtocol *pr, Err *err)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return err_set(err, "cannot open %s", file), -1;
    static Pending q;
    memset(&q, 0, sizeof q);
    buf_init(&q.reply);
    void *ctx = pr->open(pr->arg);
    int lineno = 0, requests = 0;
    bool ok = true;
    char line[TRANSCRIPT_LINE_MAX];
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        ok = read_line(file, ++lineno, line, pr, ctx, &q, &requests, err);
    }
    if (ok && q.have)
        ok = check(file, &q, err);
    pr->close(ctx);
    buf_free(&q.reply);
    fclose(f);
    return ok ? requests : -1;
}

#define TRANSCRIPT_FILES_MAX 256

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int transcript_replay_dir(const char *dir, const TranscriptProtocol *pr, int *files, Err *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return err_set(err, "cannot open the directory %s", dir), -1;
    char *names[TRANSCRIPT_FILES_MAX];
    int n = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".txt")) {
            size_t size = strlen(dir) + len + 2;
            /* A transcript left out would pass unread: more is a failure. */
            if (n == TRANSCRIPT_FILES_MAX)
                ok = err_set(err, "more than %d transcripts in %s", TRANSCRIPT_FILES_MAX, dir);
            else if (!(names[n] = malloc(size)))
                ok = err_set(err, "out of memory reading %s", dir);
            else
                snprintf(names[n++], size, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    if (!ok) {
        while (n > 0)
            free(names[--n]);
        return -1;
    }
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int total = 0;
    for (int i = 0; i < n; i++) {
        int r = total < 0 ? 0 : transcript_replay(names[i], pr, err);
        if (total >= 0 && r >= 0)
            printf("%s: %d requests as transcribed\n", names[i], r);
        total = total < 0 || r < 0 ? -1 : total + r;
        free(names[i]);
    }
    *files = n;
    return total;
}
