/* proto_lex.c - the request lexer (see proto_lex.h): a line split into
 * tokens by a hand-written scanner, which keeps no state between calls. */
#include "proto_lex.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The token grammar, read by hand below (it was one PCRE2 pattern, and a
 * match of it per token cost more than the rest of splitting a line):
 *
 *   (?:((?i:board):(?:[^ \t\r'"]++|'[^']*+'|"[^"]*+")*+)   group 1: a board
 *     |('[^']*+'|"[^"]*+")                                 group 2: a string
 *     |([^ \t\r'"]++))                                    group 3: a word
 *   (?=[ \t\r]|\z)
 *
 * A board may hold quoted names with blanks inside. A quoted string runs to
 * the same quote mark (a backslash does not escape it), as in the board
 * reader. Every token must end at a blank or at the end of the line, so
 * "abc'x'" is an error, not two tokens. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_quote(char c)
{
    return c == '\'' || c == '"';
}

/* The end of the quoted string that starts at line[pos], past its closing
 * quote, or 0 when it is not closed. */
static size_t quoted_end(const char *line, size_t len, size_t pos)
{
    const char *close = memchr(line + pos + 1, line[pos], len - pos - 1);
    return close ? (size_t)(close - line) + 1 : 0;
}

/* True when line[pos..) starts with "board:", without case. */
static bool board_prefix(const char *line, size_t len, size_t pos)
{
    static const char word[] = "board:";
    if (len - pos < sizeof word - 1)
        return false;
    for (size_t k = 0; k < sizeof word - 1; k++) {
        char c = line[pos + k];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[k])
            return false;
    }
    return true;
}

/* Reads the token at line[pos] (not a blank) as the grammar above does:
 * its kind and where it ends. False when no token can be read there. */
static bool scan_token(const char *line, size_t len, size_t pos, ProtoTokKind *kind,
                       size_t *end)
{
    size_t i = pos;
    if (board_prefix(line, len, pos)) {
        *kind = TOK_BOARD;
        i += 6;
        while (i < len && !is_blank(line[i])) {
            if (!is_quote(line[i])) {
                i++;
                continue;
            }
            size_t e = quoted_end(line, len, i);
            if (!e)
                return false; /* an unclosed quote: no other reading ends at a blank */
            i = e;
        }
    } else if (is_quote(line[pos])) {
        *kind = TOK_STRING;
        i = quoted_end(line, len, pos);
        if (!i)
            return false;
    } else {
        *kind = TOK_WORD;
        while (i < len && !is_blank(line[i]) && !is_quote(line[i]))
            i++;
    }
    if (i < len && !is_blank(line[i]))
        return false;
    *end = i;
    return true;
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
    size_t pos = 0;
    for (;;) {
        while (pos < len && is_blank(line[pos]))
            pos++;
        if (pos >= len)
            return true;
        ProtoTokKind kind;
        size_t end;
        if (!scan_token(line, len, pos, &kind, &end))
            return lex_failure(line, len, pos, err);
        if (out->count == PROTO_LEX_TOKENS_MAX)
            return err_set(err, "the request has more than %d words", PROTO_LEX_TOKENS_MAX);
        ProtoTok *t = &out->tok[out->count++];
        t->kind = kind;
        t->text = line + pos;
        t->len = end - pos;
        t->col = pos + 1;
        pos = end;
    }
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
