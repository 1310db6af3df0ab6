/* proto_lex.c - the request lexer (see proto_lex.h).
 *
 * One PCRE2 pattern reads one token at a given offset. It is compiled once
 * (pthread_once) and then only read, which PCRE2 allows from any number of
 * threads as long as each match has its own match data. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "proto_lex.h"

#include <errno.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Group 1: a board, which may hold quoted names with blanks inside; group 2:
 * a quoted string; group 3: a plain word. A quoted string runs to the same
 * quote mark (a backslash does not escape it), as in the board reader. Every
 * token must end at a blank or at the end of the line, so "abc'x'" is an
 * error, not two tokens. */
static const char token_pattern[] =
    "(?:((?i:board):(?:[^ \\t\\r'\"]++|'[^']*+'|\"[^\"]*+\")*+)"
    "|('[^']*+'|\"[^\"]*+\")"
    "|([^ \\t\\r'\"]++))"
    "(?=[ \\t\\r]|\\z)";

static pthread_once_t compile_once = PTHREAD_ONCE_INIT;
static pcre2_code *token_re; /* written once under compile_once, then read-only */

static void compile_patterns(void)
{
    int code;
    PCRE2_SIZE off;
    token_re = pcre2_compile((PCRE2_SPTR)token_pattern, PCRE2_ZERO_TERMINATED, 0, &code,
                             &off, NULL);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

void proto_lex_quote(const char *text, size_t len, char *buf, size_t size)
{
    size_t n = 0;
    size_t keep = len > 24 ? 24 : len;
    for (size_t i = 0; i < keep && n + 1 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (len > keep)
        for (int i = 0; i < 3 && n + 1 < size; i++)
            buf[n++] = '.';
    if (size)
        buf[n < size ? n : size - 1] = '\0';
}

/* Why no token could be read at pos: a quote that is never closed, or a
 * quote glued to a word. */
static bool lex_failure(const char *line, size_t len, size_t pos, Err *err)
{
    size_t q = pos;
    while (q < len && !is_blank(line[q]) && line[q] != '\'' && line[q] != '"')
        q++;
    if (q >= len || is_blank(line[q]))
        return err_set(err, "cannot read the request at column %zu", pos + 1);
    if (!memchr(line + q + 1, line[q], len - q - 1))
        return err_set(err, "the quoted string at column %zu is not closed", q + 1);
    return err_set(err, "a quote at column %zu sits inside a word (quote whole names)", q + 1);
}

bool proto_lex_split(const char *line, size_t len, ProtoTokens *out, Err *err)
{
    out->count = 0;
    if (len > PROTO_LEX_LINE_MAX)
        return err_set(err, "the request is %zu bytes long; the limit is %d", len,
                       PROTO_LEX_LINE_MAX);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f)
            return err_set(err,
                           "the request holds byte 0x%02x at column %zu; requests are "
                           "printable ASCII text",
                           c, i + 1);
    }
    pthread_once(&compile_once, compile_patterns);
    if (!token_re)
        return err_set(err, "internal error: the request pattern did not compile");

    pcre2_match_data *md = pcre2_match_data_create_from_pattern(token_re, NULL);
    if (!md)
        return err_set(err, "out of memory reading the request");
    bool ok = true;
    size_t pos = 0;
    for (;;) {
        while (pos < len && is_blank(line[pos]))
            pos++;
        if (pos >= len)
            break;
        int rc = pcre2_match(token_re, (PCRE2_SPTR)line, len, pos, PCRE2_ANCHORED, md, NULL);
        if (rc < 0) {
            ok = lex_failure(line, len, pos, err);
            break;
        }
        if (out->count == PROTO_LEX_TOKENS_MAX) {
            ok = err_set(err, "the request has more than %d words", PROTO_LEX_TOKENS_MAX);
            break;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        ProtoTok *t = &out->tok[out->count++];
        t->kind = ov[2] != PCRE2_UNSET ? TOK_BOARD : ov[4] != PCRE2_UNSET ? TOK_STRING : TOK_WORD;
        t->text = line + ov[0];
        t->len = ov[1] - ov[0];
        t->col = ov[0] + 1;
        pos = ov[1];
    }
    pcre2_match_data_free(md);
    return ok;
}

bool proto_lex_is(const ProtoTok *t, const char *word)
{
    size_t n = strlen(word);
    if (t->kind != TOK_WORD || t->len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char a = t->text[i], b = word[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

bool proto_lex_int(const ProtoTok *t, const char *what, long lo, long hi, long *out, Err *err)
{
    char q[32];
    proto_lex_quote(t->text, t->len, q, sizeof q);
    size_t i = 0;
    if (t->kind == TOK_WORD && t->len > 0 && (t->text[0] == '+' || t->text[0] == '-'))
        i = 1;
    if (t->kind != TOK_WORD || i == t->len)
        return err_set(err, "%s must be a whole number, not '%s'", what, q);
    long v = 0;
    for (; i < t->len; i++) {
        char c = t->text[i];
        if (c < '0' || c > '9')
            return err_set(err, "%s must be a whole number, not '%s'", what, q);
        if (v > 100000000L) /* far outside every range we accept */
            return err_set(err, "%s %s is out of range (%ld..%ld)", what, q, lo, hi);
        v = v * 10 + (c - '0');
    }
    if (t->text[0] == '-')
        v = -v;
    if (v < lo || v > hi)
        return err_set(err, "%s %s is out of range (%ld..%ld)", what, q, lo, hi);
    *out = v;
    return true;
}

bool proto_lex_double(const ProtoTok *t, const char *what, double lo, double hi,
                      double *out, Err *err)
{
    char q[32], buf[40];
    proto_lex_quote(t->text, t->len, q, sizeof q);
    /* strtod also reads "inf", "nan" and hex floats: allow only plain
     * decimals, checked character by character first. */
    bool digit = false, plain = true;
    for (size_t i = 0; i < t->len; i++) {
        char c = t->text[i];
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c == '\0' || !strchr("+-.eE", c))
            plain = false;
    }
    if (t->kind != TOK_WORD || !digit || !plain || t->len >= sizeof buf)
        return err_set(err, "%s must be a number, not '%s'", what, q);
    memcpy(buf, t->text, t->len);
    buf[t->len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end != '\0' || errno || !isfinite(v))
        return err_set(err, "%s must be a number, not '%s'", what, q);
    if (v < lo || v > hi)
        return err_set(err, "%s %s is out of range (%g..%g)", what, q, lo, hi);
    *out = v;
    return true;
}

bool proto_lex_bool(const ProtoTok *t, bool *out)
{
    static const char *const yes[] = {"on", "yes", "true"};
    static const char *const no[] = {"off", "no", "false"};
    for (int i = 0; i < 3; i++) {
        if (proto_lex_is(t, yes[i]))
            return *out = true, true;
        if (proto_lex_is(t, no[i]))
            return *out = false, true;
    }
    return false;
}
