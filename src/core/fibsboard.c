/* fibsboard.c - FIBS board lines: the lexer, the session options,
 * gnubg's interpretation with our field checks, the IDs gnubg derives, and
 * the writer that reproduces gnubg's client bytes (see fibsboard.h and
 * docs/fibsboard.md). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "fibsboard.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- patterns ---------------------------------------------------------- */

/* The board itself is read by the hand-written matchers below (a board line
 * is about 55 tokens, and a PCRE2 call for each cost more than the rest of
 * reading it); the options after a board, read now and then, by PCRE2.
 * Every match is anchored: the lexer walks the line token by token so that
 * a failure can name the field it happened in. */
enum { PAT_WORD, PAT_COUNT };

static const char *const pattern_text[PAT_COUNT] = {
    /* One blank-separated word of the options that follow a board. */
    [PAT_WORD] = "[\\t\\r\\n ]*([^\\t\\r\\n ]+)",
};

static const uint32_t pattern_flags[PAT_COUNT] = {
    [PAT_WORD] = PCRE2_ANCHORED,
};

struct FibsParser {
    pcre2_code *code[PAT_COUNT]; /* read-only after fibs_parser_new() */
    int max_cube;
};

FibsParser *fibs_parser_new(int max_cube, Err *err)
{
    if (max_cube == 0)
        max_cube = FIBS_MAX_CUBE_DEFAULT;
    if (max_cube < 1 || max_cube > MATCHID_MAX_CUBE || (max_cube & (max_cube - 1))) {
        err_set(err, "cube limit %d is not a power of two from 1 to %d", max_cube,
                MATCHID_MAX_CUBE);
        return NULL;
    }
    FibsParser *fp = calloc(1, sizeof *fp);
    if (!fp) {
        err_set(err, "out of memory");
        return NULL;
    }
    fp->max_cube = max_cube;
    for (int i = 0; i < PAT_COUNT; i++) {
        int code;
        PCRE2_SIZE at;
        fp->code[i] = pcre2_compile((PCRE2_SPTR)pattern_text[i], PCRE2_ZERO_TERMINATED,
                                    pattern_flags[i], &code, &at, NULL);
        if (!fp->code[i]) {
            PCRE2_UCHAR msg[120];
            pcre2_get_error_message(code, msg, sizeof msg);
            err_set(err, "FIBS board pattern %d does not compile at %zu: %s", i, (size_t)at,
                    (const char *)msg);
            fibs_parser_free(fp);
            return NULL;
        }
        /* JIT is an optional speed-up: without it (or if it fails) the
         * interpreter gives the same matches. */
        (void)pcre2_jit_compile(fp->code[i], PCRE2_JIT_COMPLETE);
    }
    return fp;
}

void fibs_parser_free(FibsParser *fp)
{
    if (!fp)
        return;
    for (int i = 0; i < PAT_COUNT; i++)
        pcre2_code_free(fp->code[i]);
    free(fp);
}

/* Matches pattern pat anchored at s[at..len). Returns the length matched, or
 * -1; group 1 (if any) is returned through g1/g1len. */
static long match_at(const FibsParser *fp, pcre2_match_data *md, int pat, const char *s,
                     size_t len, size_t at, size_t *g1, size_t *g1len)
{
    int rc = pcre2_match(fp->code[pat], (PCRE2_SPTR)s, len, at, 0, md, NULL);
    if (rc < 0)
        return -1;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (g1 && rc >= 2) {
        *g1 = ov[2];
        *g1len = ov[3] - ov[2];
    }
    return (long)(ov[1] - ov[0]);
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_word_char(char c)
{
    return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* `[\t\r\n ]*board:` without case, at the start of s: its length, or -1.
 * gnubg skips blanks before a command. */
static long match_head(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == ' '))
        i++;
    static const char word[] = "board:";
    for (size_t k = 0; k < sizeof word - 1; k++, i++) {
        char c = i < len ? s[i] : '\0';
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (i >= len || c != word[k])
            return -1;
    }
    return (long)i;
}

/* A name at s[at..len): `(?![0-9]+(?![A-Za-z0-9_]))[A-Za-z0-9_]+`, a run of
 * word characters that is not all digits (gnubg's lexer prefers an integer
 * when a word is all digits, so such a name is a syntax error there), or
 * `'[^'\n]*'` or `"[^"\n]*"` (quoted names run to the same quote mark, no
 * escaped quotes, never over a newline). Its length, or -1. */
static long match_name(const char *s, size_t len, size_t at)
{
    if (at >= len)
        return -1;
    char q = s[at];
    if (q == '\'' || q == '"') {
        for (size_t i = at + 1; i < len && s[i] != '\n'; i++)
            if (s[i] == q)
                return (long)(i + 1 - at);
        return -1;
    }
    size_t i = at;
    bool digits_only = true;
    for (; i < len && is_word_char(s[i]); i++)
        digits_only = digits_only && is_digit(s[i]);
    return i == at || digits_only ? -1 : (long)(i - at);
}

/* An integer at s[at..len): `[-+]?[0-9]+(?=[:\t\r\n ]|\z)`, ending at a
 * colon, a blank or the end (`1.5`, `3x` fail). Its length, or -1. */
static long match_int(const char *s, size_t len, size_t at)
{
    size_t i = at;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        i++;
    size_t first = i;
    while (i < len && is_digit(s[i]))
        i++;
    if (i == first)
        return -1;
    if (i < len && s[i] != ':' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' && s[i] != ' ')
        return -1;
    return (long)(i - at);
}

/* ---- messages ------------------------------------------------------------ */

static const char *const field_names[FIBS_FIELDS + 1] = {
    [1] = "first name", [2] = "second name", [3] = "match length",
    [4] = "first score", [5] = "second score",
    [32] = "turn", [33] = "first die", [34] = "second die",
    [35] = "opponent's first die", [36] = "opponent's second die",
    [37] = "cube", [38] = "you may double", [39] = "opponent may double",
    [40] = "was doubled", [41] = "colour", [42] = "direction", [43] = "home",
    [44] = "bar", [45] = "your borne-off checkers", [46] = "opponent's borne-off checkers",
    [47] = "your checkers on the bar", [48] = "opponent's checkers on the bar",
    [49] = "can move", [50] = "forced move", [51] = "post-Crawford",
    [52] = "not Crawford (redoubles)",
};

/* "field 37 (cube)", "field 9 (board[3])". */
static const char *field_label(int f, char *buf, size_t size)
{
    if (f >= FIBS_F_BOARD && f < FIBS_F_BOARD + 26)
        snprintf(buf, size, "field %d (board[%d])", f, f - FIBS_F_BOARD);
    else if (f >= 1 && f <= FIBS_FIELDS)
        snprintf(buf, size, "field %d (%s)", f, field_names[f]);
    else
        snprintf(buf, size, "field %d", f);
    return buf;
}

/* The blanks gnubg's lexer knows. A NUL byte is not one of them (strchr
 * would say it is). */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* True when s[at] ends a field: the end of the text, a colon or a blank. */
static bool field_ends(const char *s, size_t len, size_t at)
{
    return at >= len || s[at] == ':' || is_blank(s[at]);
}

/* Copies the offending text for a message: up to the next colon or blank,
 * at most 24 bytes, other unprintable bytes as '?'. */
static const char *quote_token(const char *s, size_t len, size_t at, char *buf, size_t size)
{
    size_t n = 0;
    while (n < 24 && n + 4 < size && !field_ends(s, len, at + n))
        n++;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[at + i];
        buf[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    bool cut = n == 24 && !field_ends(s, len, at + n);
    strcpy(buf + n, cut ? "..." : "");
    return buf;
}

/* ---- lexing ------------------------------------------------------------ */

static int hex_value(char c)
{
    unsigned char u = (unsigned char)c;
    return !isxdigit(u) ? -1 : isdigit(u) ? u - '0' : tolower(u) - 'a' + 10;
}

/* Decodes the inside of a quoted name with gnubg's escapes: \xHH (up to two
 * hex digits), \0OO (octal, three digits with the 0), \DDD (decimal, up to
 * three digits), \n \t \b \r \\, and \c for any other c. Stricter: a value
 * above 255, a lone backslash at the end, a control character or a name
 * longer than FIBS_NAME_MAX is refused (gnubg truncates or garbles them). */
static bool decode_name(const char *q, size_t n, char out[FIBS_NAME_MAX + 1], int field,
                        Err *err)
{
    char label[48];
    size_t len = 0;
    for (size_t i = 0; i < n;) {
        int v;
        if (q[i] != '\\') {
            v = (unsigned char)q[i++];
        } else if (i + 1 >= n) {
            return err_set(err, "%s: the name ends with a lone backslash",
                           field_label(field, label, sizeof label));
        } else if (q[i + 1] == 'x' || q[i + 1] == 'X') {
            i += 2;
            v = 0;
            for (int d = 0; d < 2 && i < n && hex_value(q[i]) >= 0; d++)
                v = v * 16 + hex_value(q[i++]);
        } else if (q[i + 1] == '0') {
            i += 1;
            v = 0;
            for (int d = 0; d < 3 && i < n && q[i] >= '0' && q[i] <= '7'; d++)
                v = v * 8 + (q[i++] - '0');
        } else if (q[i + 1] >= '1' && q[i + 1] <= '9') {
            i += 1;
            v = 0;
            for (int d = 0; d < 3 && i < n && q[i] >= '0' && q[i] <= '9'; d++)
                v = v * 10 + (q[i++] - '0');
            if (v > 255)
                return err_set(err, "%s: the escape \\%d is above 255",
                               field_label(field, label, sizeof label), v);
        } else {
            char c = q[i + 1];
            i += 2;
            v = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'b' ? '\b' : c == 'r' ? '\r'
                                                                          : (unsigned char)c;
        }
        if (v < 0x20 || v >= 0x7f)
            return err_set(err, "%s: the name holds the byte 0x%02x; names are printable "
                                "ASCII",
                           field_label(field, label, sizeof label), (unsigned)v);
        if (len == FIBS_NAME_MAX)
            return err_set(err, "%s: the name is longer than %d bytes",
                           field_label(field, label, sizeof label), FIBS_NAME_MAX);
        out[len++] = (char)v;
    }
    if (len == 0)
        return err_set(err, "%s: the name is empty", field_label(field, label, sizeof label));
    out[len] = '\0';
    return true;
}

static bool lex_name(const char *s, size_t len, size_t *at, char out[FIBS_NAME_MAX + 1],
                     int field, Err *err)
{
    char label[48], tok[32];
    long n = match_name(s, len, *at);
    if (n < 0) {
        field_label(field, label, sizeof label);
        if (field_ends(s, len, *at))
            return err_set(err, "%s is missing", label);
        if (s[*at] == '\'' || s[*at] == '"')
            return err_set(err, "%s: the quote %c is not closed", label, s[*at]);
        quote_token(s, len, *at, tok, sizeof tok);
        if (strspn(tok, "0123456789") == strlen(tok))
            return err_set(err, "%s: '%s' is all digits, which gnubg reads as a number; "
                                "quote it",
                           label, tok);
        return err_set(err, "%s: '%s' is not a name (letters, digits and _, or quoted)", label,
                       tok);
    }
    const char *t = s + *at;
    bool quoted = t[0] == '\'' || t[0] == '"';
    if (quoted) {
        if (!decode_name(t + 1, (size_t)n - 2, out, field, err))
            return false;
    } else {
        if (n > FIBS_NAME_MAX)
            return err_set(err, "%s: the name is longer than %d bytes",
                           field_label(field, label, sizeof label), FIBS_NAME_MAX);
        memcpy(out, t, (size_t)n);
        out[n] = '\0';
    }
    *at += (size_t)n;
    if (*at >= len || s[*at] != ':') {
        field_label(field, label, sizeof label);
        if (*at >= len || is_blank(s[*at]))
            return err_set(err, "%s: the board ends after the name; a ':' must follow it",
                           label);
        return err_set(err, "%s: '%c' after '%s' is not allowed in an unquoted name; quote "
                            "the name",
                       label, s[*at] >= 0x20 && s[*at] < 0x7f ? s[*at] : '?', out);
    }
    *at += 1;
    return true;
}

/* Converts what match_int matched. Values beyond +-999999 mean nothing in any
 * field and would overflow gnubg's atoi() further on. */
static bool int_value(const char *t, size_t n, int field, int *out, Err *err)
{
    size_t i = 0;
    bool neg = false;
    if (t[0] == '-' || t[0] == '+') {
        neg = t[0] == '-';
        i = 1;
    }
    long v = 0;
    for (; i < n; i++) {
        v = v * 10 + (t[i] - '0');
        if (v > 999999) {
            char label[48];
            return err_set(err, "%s: %.*s is out of range", field_label(field, label, sizeof label),
                           n > 24 ? 24 : (int)n, t);
        }
    }
    *out = (int)(neg ? -v : v);
    return true;
}

static bool lex_board(const char *s, size_t len, FibsRaw *raw, size_t *end, Err *err)
{
    char label[48], tok[32];
    memset(raw, 0, sizeof *raw);
    long n = match_head(s, len);
    if (n < 0)
        return err_set(err, "a FIBS board must start with 'board:'");
    size_t at = (size_t)n;
    if (!lex_name(s, len, &at, raw->name[0], FIBS_F_NAME, err) ||
        !lex_name(s, len, &at, raw->name[1], FIBS_F_OPP_NAME, err))
        return false;
    int count = 0;
    for (;;) {
        int field = FIBS_F_MATCH_LENGTH + count;
        n = match_int(s, len, at);
        if (n < 0) {
            if (count >= FIBS_INTS)
                return err_set(err, "the board goes on after its %d integers (at most %d): "
                                    "'%s' follows",
                               count, FIBS_INTS, quote_token(s, len, at, tok, sizeof tok));
            field_label(field, label, sizeof label);
            if (field_ends(s, len, at))
                return err_set(err, "%s is empty", label);
            return err_set(err, "%s: '%s' is not an integer", label,
                           quote_token(s, len, at, tok, sizeof tok));
        }
        int v = 0;
        if (count < FIBS_INTS) {
            if (!int_value(s + at, (size_t)n, field, &v, err))
                return false;
            raw->field[field] = v;
        }
        count++;
        at += (size_t)n;
        if (at >= len || s[at] != ':')
            break;
        at++;
    }
    if (count < FIBS_INTS)
        return err_set(err, "the board has %d integers after the names; exactly %d are "
                            "needed (a short board never reuses fields of an earlier one)",
                       count, FIBS_INTS);
    if (count > FIBS_INTS)
        return err_set(err, "the board has %d integers after the names; at most %d", count,
                       FIBS_INTS);
    if (end)
        *end = at;
    return true;
}

bool fibs_lex(const FibsParser *fp, const char *s, size_t len, FibsRaw *raw, size_t *end,
              Err *err)
{
    (void)fp; /* the board needs no pattern of the parser's */
    return lex_board(s, len, raw, end, err);
}

/* ---- session options ------------------------------------------------------ */

void fibs_options_default(FibsOptions *o)
{
    o->jacoby = true;
    o->crawford_rule = true;
    o->beavers = true;
    o->resignation = 0;
}

static bool word_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

bool fibs_bool_word(const char *s, size_t len, bool *out)
{
    static const char *const yes[] = {"on", "yes", "true"}, *const no[] = {"off", "no", "false"};
    for (int i = 0; i < 3; i++) {
        if (word_is(s, len, yes[i])) {
            *out = true;
            return true;
        }
        if (word_is(s, len, no[i])) {
            *out = false;
            return true;
        }
    }
    return false;
}

FibsOptionResult fibs_option_set(FibsOptions *o, const char *name, size_t name_len,
                                 const char *value, size_t value_len, Err *err)
{
    bool *flag = word_is(name, name_len, "jacobyrule")     ? &o->jacoby
                 : word_is(name, name_len, "crawfordrule") ? &o->crawford_rule
                 : word_is(name, name_len, "beavers")      ? &o->beavers
                                                           : NULL;
    int vl = value_len > 24 ? 24 : (int)value_len;
    if (flag) {
        if (!value) {
            err_set(err, "option %.*s needs on or off", (int)name_len, name);
            return FIBS_OPTION_BAD;
        }
        if (!fibs_bool_word(value, value_len, flag)) {
            err_set(err, "option %.*s needs on or off (or yes/no, true/false), not '%.*s'",
                    (int)name_len, name, vl, value);
            return FIBS_OPTION_BAD;
        }
        return FIBS_OPTION_SET;
    }
    if (!word_is(name, name_len, "resignation"))
        return FIBS_OPTION_UNKNOWN;
    /* 1 single, 2 gammon, 3 backgammon; gnubg also takes 4 or -7. */
    size_t i = value && value_len > 1 && value[0] == '+' ? 1 : 0;
    if (!value || value_len - i != 1 || value[i] < '0' || value[i] > '3') {
        err_set(err, "option resignation needs 0 (none), 1 (single), 2 (gammon) or 3 "
                     "(backgammon), not '%.*s'",
                vl, value ? value : "");
        return FIBS_OPTION_BAD;
    }
    o->resignation = value[i] - '0';
    return FIBS_OPTION_SET;
}

static bool options_with(const FibsParser *fp, pcre2_match_data *md, const char *s,
                         size_t len, FibsOptions *o, Err *err)
{
    size_t at = 0;
    for (;;) {
        size_t name, name_len, value = 0, value_len = 0;
        long n = match_at(fp, md, PAT_WORD, s, len, at, &name, &name_len);
        if (n < 0)
            return true; /* only blanks left */
        at += (size_t)n;
        n = match_at(fp, md, PAT_WORD, s, len, at, &value, &value_len);
        if (n >= 0)
            at += (size_t)n;
        FibsOptionResult r = fibs_option_set(o, s + name, name_len, n >= 0 ? s + value : NULL,
                                             value_len, err);
        if (r == FIBS_OPTION_BAD)
            return false;
        if (r == FIBS_OPTION_UNKNOWN)
            return err_set(err, "'%.*s' is not a board option (jacobyrule, crawfordrule, "
                                "beavers, resignation)",
                           name_len > 24 ? 24 : (int)name_len, s + name);
    }
}

bool fibs_parse_options(const FibsParser *fp, const char *s, size_t len, FibsOptions *o,
                        Err *err)
{
    pcre2_match_data *md = pcre2_match_data_create(4, NULL);
    if (!md)
        return err_set(err, "out of memory");
    bool ok = options_with(fp, md, s, len, o, err);
    pcre2_match_data_free(md);
    return ok;
}

/* ---- interpretation ------------------------------------------------------- */

/* Checks that field f holds lo..hi. */
static bool in_range(const FibsRaw *raw, int f, int lo, int hi, Err *err)
{
    if (raw->field[f] >= lo && raw->field[f] <= hi)
        return true;
    char label[48];
    return err_set(err, "%s is %d, not %d to %d", field_label(f, label, sizeof label),
                   raw->field[f], lo, hi);
}

static bool is_sign(const FibsRaw *raw, int f, Err *err)
{
    if (raw->field[f] == 1 || raw->field[f] == -1)
        return true;
    char label[48];
    return err_set(err, "%s is %d; it must be 1 or -1", field_label(f, label, sizeof label),
                   raw->field[f]);
}

/* A pair of dice fields: both 0 (not rolled) or both 1..6. */
static bool dice_pair(const FibsRaw *raw, int f, Err *err)
{
    int a = raw->field[f], b = raw->field[f + 1];
    if ((a == 0 && b == 0) || (a >= 1 && a <= 6 && b >= 1 && b <= 6))
        return true;
    return err_set(err, "fields %d and %d (dice) are %d and %d: both must be 1 to 6, or "
                        "both 0 (not rolled)",
                   f, f + 1, a, b);
}

/* The fields that do not depend on how the board maps onto X and O. */
static bool check_fields(const FibsParser *fp, const FibsRaw *raw, Err *err)
{
    const int *f = raw->field;
    char label[48];
    if (!in_range(raw, FIBS_F_MATCH_LENGTH, 0, 9999, err))
        return false;
    int length = f[FIBS_F_MATCH_LENGTH];
    for (int i = FIBS_F_SCORE; i <= FIBS_F_OPP_SCORE; i++) {
        if (length == 0 || length == 9999) {
            if (!in_range(raw, i, 0, 0x7fff, err))
                return false;
        } else if (f[i] < 0 || f[i] >= length) {
            return err_set(err, "%s is %d; in a %d-point match it must be 0 to %d",
                           field_label(i, label, sizeof label), f[i], length, length - 1);
        }
    }
    for (int i = 0; i < 26; i++)
        if (!in_range(raw, FIBS_F_BOARD + i, -POS_CHECKERS, POS_CHECKERS, err))
            return false;
    if (!is_sign(raw, FIBS_F_TURN, err) || !is_sign(raw, FIBS_F_COLOUR, err) ||
        !is_sign(raw, FIBS_F_DIRECTION, err))
        return false;
    if (!dice_pair(raw, FIBS_F_DICE, err) || !dice_pair(raw, FIBS_F_OPP_DICE, err))
        return false;
    if (f[FIBS_F_DICE] && f[FIBS_F_OPP_DICE] &&
        (f[FIBS_F_DICE] != f[FIBS_F_OPP_DICE] || f[FIBS_F_DICE + 1] != f[FIBS_F_OPP_DICE + 1]))
        return err_set(err, "both pairs of dice are given and differ (fields 33-34: %d %d, "
                            "fields 35-36: %d %d)",
                       f[FIBS_F_DICE], f[FIBS_F_DICE + 1], f[FIBS_F_OPP_DICE],
                       f[FIBS_F_OPP_DICE + 1]);
    int cube = f[FIBS_F_CUBE];
    if (cube < 1 || cube > fp->max_cube || (cube & (cube - 1)))
        return err_set(err, "%s is %d, not a power of two from 1 to %d",
                       field_label(FIBS_F_CUBE, label, sizeof label), cube, fp->max_cube);
    if (!in_range(raw, FIBS_F_MAY_DOUBLE, 0, 1, err) ||
        !in_range(raw, FIBS_F_OPP_MAY_DOUBLE, 0, 1, err) ||
        !in_range(raw, FIBS_F_DOUBLED, -1, 1, err))
        return false;
    /* FIBS's home and bar fields follow the direction: 0 and 25 when "you"
     * move towards 0, 25 and 0 otherwise. gnubg ignores them. */
    int home = f[FIBS_F_DIRECTION] < 0 ? 0 : 25;
    if (f[FIBS_F_HOME] != home || f[FIBS_F_BAR] != 25 - home)
        return err_set(err, "fields 43 and 44 (home, bar) are %d and %d; with direction %d "
                            "they must be %d and %d",
                       f[FIBS_F_HOME], f[FIBS_F_BAR], f[FIBS_F_DIRECTION], home, 25 - home);
    if (!in_range(raw, FIBS_F_CAN_MOVE, 0, 4, err) || !in_range(raw, FIBS_F_FORCED, 0, 1, err) ||
        !in_range(raw, FIBS_F_POST_CRAWFORD, 0, 1, err) ||
        !in_range(raw, FIBS_F_NOT_CRAWFORD, 0, 999999, err))
        return false;
    return true;
}

/* Counts and checks the checkers of "you" (sign = colour) and the opponent,
 * including the bars, against the borne-off and on-bar fields. */
static bool check_checkers(const FibsRaw *raw, Err *err)
{
    const int *f = raw->field;
    int colour = f[FIBS_F_COLOUR];
    /* The side moving towards index 0 has its bar at index 25. */
    int your_bar = f[FIBS_F_DIRECTION] < 0 ? 25 : 0, opp_bar = 25 - your_bar;
    char label[48];
    const int bars[2] = {your_bar, opp_bar}, owner_sign[2] = {colour, -colour};
    for (int s = 0; s < 2; s++) {
        int v = f[FIBS_F_BOARD + bars[s]];
        if (v * owner_sign[s] < 0)
            return err_set(err, "%s is %d: with colour %d and direction %d it is the bar of "
                                "%s, whose checkers are %s",
                           field_label(FIBS_F_BOARD + bars[s], label, sizeof label), v, colour,
                           f[FIBS_F_DIRECTION], s ? "the opponent" : "you",
                           owner_sign[s] > 0 ? "positive" : "negative");
    }
    int count[2] = {0, 0}; /* [0] you, [1] the opponent */
    for (int i = 0; i < 26; i++) {
        int v = f[FIBS_F_BOARD + i];
        count[v * colour > 0 ? 0 : 1] += abs(v);
    }
    static const char *const who[2] = {"your colour", "the opponent's colour"};
    for (int s = 0; s < 2; s++) {
        if (count[s] > POS_CHECKERS)
            return err_set(err, "%s (%d) has %d checkers on the board and bar (fields 6-31); "
                                "at most %d",
                           who[s], s ? -colour : colour, count[s], POS_CHECKERS);
        int off = FIBS_F_OFF + s;
        if (f[off] != POS_CHECKERS - count[s])
            return err_set(err, "%s is %d, but %s has %d checkers on the board, so %d are "
                                "borne off",
                           field_label(off, label, sizeof label), f[off], who[s], count[s],
                           POS_CHECKERS - count[s]);
        /* FIBS fills the on-bar fields; gnubg always writes 0. */
        int on_bar = FIBS_F_ON_BAR + s, bar = abs(f[FIBS_F_BOARD + (s ? opp_bar : your_bar)]);
        if (f[on_bar] != 0 && f[on_bar] != bar)
            return err_set(err, "%s is %d, but the board shows %d there (0 is also accepted)",
                           field_label(on_bar, label, sizeof label), f[on_bar], bar);
    }
    return true;
}

bool fibs_interpret(const FibsParser *fp, const FibsRaw *raw, const FibsOptions *opt,
                    FibsBoard *out, Err *err)
{
    if (!check_fields(fp, raw, err) || !check_checkers(raw, err))
        return false;
    const int *f = raw->field;
    memset(out, 0, sizeof *out);
    out->raw = *raw;
    out->options = *opt;
    int turn = f[FIBS_F_TURN], colour = f[FIBS_F_COLOUR], direction = f[FIBS_F_DIRECTION];

    /* Step 1: 9999 means an unlimited match, i.e. money; matches longer than
     * gnubg's 64 points keep the points still needed, up to 64. */
    int length = f[FIBS_F_MATCH_LENGTH], score[2] = {f[FIBS_F_SCORE], f[FIBS_F_OPP_SCORE]};
    if (length == 9999)
        length = 0;
    if (length > MATCHID_MAX_LENGTH) {
        for (int i = 0; i < 2; i++)
            score[i] = length - score[i] > MATCHID_MAX_LENGTH
                           ? 0
                           : score[i] - (length - MATCHID_MAX_LENGTH);
        length = MATCHID_MAX_LENGTH;
    }

    /* Step 3: both may-double flags off means the cube was just turned. */
    int may[2] = {f[FIBS_F_MAY_DOUBLE], f[FIBS_F_OPP_MAY_DOUBLE]};
    bool doubled = f[FIBS_F_DOUBLED] != 0 || (!may[0] && !may[1]);
    bool dice_given = f[FIBS_F_DICE] || f[FIBS_F_OPP_DICE];
    if (doubled && dice_given)
        return err_set(err, "a double is pending (field 40, or fields 38 and 39 both 0) but "
                            "dice are given (fields 33-36)");

    /* Step 4: the first name, score and flag belong to "you" (the colour
     * field); make them X's, the side that must act. */
    bool swapped = doubled != (turn != colour);
    int x = swapped ? 1 : 0;
    memcpy(out->name[FIBS_X], raw->name[x], sizeof out->name[0]);
    memcpy(out->name[FIBS_O], raw->name[!x], sizeof out->name[0]);
    out->score[FIBS_X] = score[x];
    out->score[FIBS_O] = score[!x];

    /* Steps 5-6: the checkers whose sign is the turn's are the side on roll;
     * its direction tells which end of the FIBS board is its home. */
    int roll_dir = turn == colour ? direction : -direction;
    Position *p = &out->pos;
    for (int k = 1; k <= 24; k++) {
        int v = f[FIBS_F_BOARD + k];
        int point = roll_dir < 0 ? k : 25 - k; /* the roller's own point */
        if (v * turn > 0)
            p->side[SIDE_ROLLER][point - 1] = (uint8_t)abs(v);
        else if (v)
            p->side[SIDE_OPPONENT][24 - point] = (uint8_t)abs(v);
    }
    p->side[SIDE_ROLLER][POS_BAR] = (uint8_t)abs(f[FIBS_F_BOARD + (roll_dir < 0 ? 25 : 0)]);
    p->side[SIDE_OPPONENT][POS_BAR] = (uint8_t)abs(f[FIBS_F_BOARD + (roll_dir < 0 ? 0 : 25)]);
    /* Step 7: with a double pending the answering side is X. */
    if (doubled)
        pos_swap(p);
    Err why;
    if (!pos_valid(p, &why))
        return err_set(err, "the board is not a legal position: %s", why.text);

    /* Step 8: the dice of the side to move, from either pair. */
    int d = f[FIBS_F_DICE] ? FIBS_F_DICE : FIBS_F_OPP_DICE;
    out->dice[0] = f[d];
    out->dice[1] = f[d + 1];

    /* Step 9: only someone 1-away can be in the Crawford game, and fields
     * 51-52 both 0 say it is; crawfordrule off overrides. */
    bool one_away = length && (length - out->score[FIBS_X] == 1 || length - out->score[FIBS_O] == 1);
    out->crawford = one_away && !f[FIBS_F_POST_CRAWFORD] && !f[FIBS_F_NOT_CRAWFORD] &&
                    opt->crawford_rule;
    out->post_crawford = one_away && !out->crawford;

    /* Step 10: a cube only one side may turn is owned by that side. */
    int may_x = may[x], may_o = may[!x];
    out->cube_owner = may_x == may_o ? -1 : may_x ? FIBS_X : FIBS_O;
    out->cube = f[FIBS_F_CUBE];
    out->doubled = doubled;
    out->match_length = length;

    out->decision = doubled             ? FIBS_DECIDE_TAKE
                    : opt->resignation  ? FIBS_DECIDE_RESIGNATION
                    : out->dice[0] != 0 ? FIBS_DECIDE_MOVE
                                        : FIBS_DECIDE_CUBE;
    out->x_colour = doubled ? -turn : turn;
    out->x_direction = doubled ? -roll_dir : roll_dir;
    out->swapped = swapped;
    return true;
}

bool fibs_read(const FibsParser *fp, const char *line, size_t len, const FibsOptions *defaults,
               FibsBoard *out, Err *err)
{
    FibsOptions opt;
    if (defaults)
        opt = *defaults;
    else
        fibs_options_default(&opt);
    pcre2_match_data *md = pcre2_match_data_create(4, NULL);
    if (!md)
        return err_set(err, "out of memory");
    FibsRaw raw;
    size_t end = 0;
    bool ok = lex_board(line, len, &raw, &end, err) &&
              options_with(fp, md, line + end, len - end, &opt, err);
    pcre2_match_data_free(md);
    return ok && fibs_interpret(fp, &raw, &opt, out, err);
}

/* ---- the IDs gnubg derives ------------------------------------------------ */

void fibs_matchid(const FibsBoard *b, MatchId *m)
{
    matchid_init(m);
    m->cube = b->cube;
    m->cube_owner = b->cube_owner; /* FIBS_X = player 1, as in gnubg's debug IDs */
    m->dice_owner = FIBS_X;
    m->turn = FIBS_X;
    m->crawford = b->crawford;
    m->game_state = MATCHID_GAME_PLAYING;
    m->doubled = b->doubled;
    m->resigned = 0;
    bool high_first = b->dice[0] >= b->dice[1];
    m->dice[0] = high_first ? b->dice[0] : b->dice[1];
    m->dice[1] = high_first ? b->dice[1] : b->dice[0];
    m->match_length = b->match_length;
    m->score[0] = b->score[FIBS_O];
    m->score[1] = b->score[FIBS_X];
    m->jacoby = b->options.jacoby;
}

bool fibs_to_ids(const FibsBoard *b, char posid[POSID_LEN + 1], char matchid[MATCHID_LEN + 1],
                 Err *err)
{
    MatchId m;
    fibs_matchid(b, &m);
    posid_encode(&b->pos, posid);
    return matchid_encode(&m, matchid, err);
}

/* ---- writing -------------------------------------------------------------- */

/* Appends a name as gnubg writes it (':' becomes '_'), quoted when that
 * spelling could not be read back as an unquoted name. */
static bool put_name(char *out, size_t *at, const char *name, int player, Err *err)
{
    if (!name || !*name)
        return err_set(err, "player %d has no name", player);
    size_t n = strlen(name);
    if (n > FIBS_NAME_MAX)
        return err_set(err, "player %d's name is longer than %d bytes", player, FIBS_NAME_MAX);
    bool plain = true, digits = true, has_squote = false, has_dquote = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f)
            return err_set(err, "player %d's name holds the byte 0x%02x; names are printable "
                                "ASCII",
                           player, c);
        bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == ':';
        plain = plain && word;
        digits = digits && c >= '0' && c <= '9';
        has_squote = has_squote || c == '\'';
        has_dquote = has_dquote || c == '"';
    }
    char quote = '\0';
    if (!plain || digits) {
        if (has_squote && has_dquote)
            return err_set(err, "player %d's name holds both quote marks and cannot be "
                                "written",
                           player);
        quote = has_squote ? '"' : '\'';
    }
    if (quote)
        out[(*at)++] = quote;
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '\\')
            out[(*at)++] = '\\';
        out[(*at)++] = name[i] == ':' ? '_' : name[i];
    }
    if (quote)
        out[(*at)++] = quote;
    return true;
}

static bool check_game(const FibsGame *g, Err *err)
{
    if ((g->on_roll != 0 && g->on_roll != 1) || (g->acting != 0 && g->acting != 1))
        return err_set(err, "on_roll (%d) and acting (%d) must be players 0 or 1", g->on_roll,
                       g->acting);
    if (g->match_length < 0 || g->match_length > MATCHID_MAX_LENGTH)
        return err_set(err, "match length %d is not 0 (money) to %d", g->match_length,
                       MATCHID_MAX_LENGTH);
    for (int i = 0; i < 2; i++) {
        int hi = g->match_length ? g->match_length - 1 : 0x7fff;
        if (g->score[i] < 0 || g->score[i] > hi)
            return err_set(err, "player %d's score %d is not 0 to %d", i, g->score[i], hi);
    }
    Err why;
    if (!pos_valid(&g->pos, &why))
        return err_set(err, "the position is not legal: %s", why.text);
    bool rolled = g->dice[0] != 0 || g->dice[1] != 0;
    if (rolled && (g->dice[0] < 1 || g->dice[0] > 6 || g->dice[1] < 1 || g->dice[1] > 6))
        return err_set(err, "dice %d and %d: both must be 1 to 6, or both 0", g->dice[0],
                       g->dice[1]);
    if (rolled && (g->doubled || g->acting != g->on_roll))
        return err_set(err, "dice are rolled, so the player on roll must be the one acting "
                            "and no double can be pending");
    if (!g->doubled && g->acting != g->on_roll)
        return err_set(err, "player %d acts while player %d is on roll, but no double is "
                            "pending",
                       g->acting, g->on_roll);
    if (g->cube < 1 || g->cube > MATCHID_MAX_CUBE || (g->cube & (g->cube - 1)))
        return err_set(err, "cube %d is not a power of two from 1 to %d", g->cube,
                       MATCHID_MAX_CUBE);
    if (g->cube_owner < -1 || g->cube_owner > 1)
        return err_set(err, "cube owner %d is not -1 (centred), 0 or 1", g->cube_owner);
    /* Both flags describe a match in which somebody is 1-away. */
    int n = g->match_length;
    bool one_away = n && (g->score[0] == n - 1 || g->score[1] == n - 1);
    if ((g->crawford || g->post_crawford) && !one_away)
        return err_set(err, "a %s game needs a match in which somebody is 1-away",
                       g->crawford ? "Crawford" : "post-Crawford");
    if (g->crawford && g->post_crawford)
        return err_set(err, "a game cannot be both the Crawford game and post-Crawford");
    return true;
}

bool fibs_write(const FibsGame *g, char out[FIBS_LINE_MAX], Err *err)
{
    if (!check_game(g, err))
        return false;
    /* Player 1 is X (positive, direction -1), player 0 O. */
    const uint8_t *p1 = g->pos.side[g->on_roll == 1 ? SIDE_ROLLER : SIDE_OPPONENT];
    const uint8_t *p0 = g->pos.side[g->on_roll == 1 ? SIDE_OPPONENT : SIDE_ROLLER];
    int first = g->acting == g->on_roll ? 0 : 1;
    size_t at = 0;
    memcpy(out, "board:", 6);
    at = 6;
    if (!put_name(out, &at, g->name[first], first, err))
        return false;
    out[at++] = ':';
    if (!put_name(out, &at, g->name[!first], !first, err))
        return false;
    /* The names take at most 2 * (2 + 2 * FIBS_NAME_MAX) bytes; every number
     * below has at most 6 characters: the line always fits. */
    char *s = out + at;
    char *end = out + FIBS_LINE_MAX;
    s += snprintf(s, (size_t)(end - s), ":%d:%d:%d:%d", g->match_length, g->score[first],
                  g->score[!first], -(int)p0[POS_BAR]);
    for (int k = 1; k <= 24; k++) {
        int o = p0[24 - k]; /* player 1's point k is player 0's point 25 - k */
        s += snprintf(s, (size_t)(end - s), ":%d", o ? -o : (int)p1[k - 1]);
    }
    int off1 = POS_CHECKERS, off0 = POS_CHECKERS;
    for (int i = 0; i < POS_SLOTS; i++) {
        off1 -= p1[i];
        off0 -= p0[i];
    }
    snprintf(s, (size_t)(end - s),
             ":%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:1:-1:0:25:%d:%d:0:0:0:0:%d:%d", (int)p1[POS_BAR],
             g->on_roll == 1 ? 1 : -1, g->dice[0], g->dice[1], g->dice[0], g->dice[1], g->cube,
             g->cube_owner != 0, g->cube_owner != 1, g->doubled ? 1 : 0, off1, off0,
             g->post_crawford ? 1 : 0, g->crawford ? 0 : 1);
    return true;
}

bool fibs_game_from_board(const FibsBoard *b, int acting, FibsGame *g, Err *err)
{
    if (acting != 0 && acting != 1)
        return err_set(err, "acting player %d is not 0 or 1", acting);
    if (b->raw.field[FIBS_F_COLOUR] != 1 || b->raw.field[FIBS_F_DIRECTION] != -1)
        return err_set(err, "gnubg as a client always writes colour 1 and direction -1 "
                            "(fields 41, 42), not %d and %d",
                       b->raw.field[FIBS_F_COLOUR], b->raw.field[FIBS_F_DIRECTION]);
    /* gnubg sets its post-Crawford flag only after a Crawford game. */
    if (b->raw.field[FIBS_F_POST_CRAWFORD] && !b->post_crawford)
        return err_set(err, "field 51 (post-Crawford) is set, but this is no match with "
                            "somebody 1-away after the Crawford game");
    memset(g, 0, sizeof *g);
    int x_player = b->x_colour > 0 ? 1 : 0; /* player 1 is the positive colour */
    g->on_roll = b->doubled ? !x_player : x_player;
    g->acting = acting;
    g->pos = b->pos;
    if (b->doubled)
        pos_swap(&g->pos); /* side[SIDE_ROLLER] = the doubler, on roll */
    /* The fields as they stood in the line, then by player: player 0 comes
     * first unless the acting player is not the one on roll. */
    int first_side = b->swapped ? FIBS_O : FIBS_X;
    int first = acting == g->on_roll ? 0 : 1;
    g->name[first] = b->name[first_side];
    g->name[!first] = b->name[!first_side];
    g->score[first] = b->score[first_side];
    g->score[!first] = b->score[!first_side];
    g->match_length = b->match_length;
    g->dice[0] = b->dice[0];
    g->dice[1] = b->dice[1];
    g->cube = b->cube;
    g->cube_owner = b->cube_owner < 0          ? -1
                    : b->cube_owner == FIBS_X ? x_player
                                              : !x_player;
    g->doubled = b->doubled;
    g->crawford = b->crawford;
    g->post_crawford = b->raw.field[FIBS_F_POST_CRAWFORD] != 0;
    return true;
}
