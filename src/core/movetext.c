/* movetext.c - gnubg's plain and display move notation, the forgiving move
 * parser and the matching of a written move to a legal one (see movetext.h
 * and docs/moves.md). */
#include "movetext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- writing --------------------------------------------------------- */

/* Output that can never overrun: pieces that do not fit are dropped (no
 * move of at most four parts comes near MOVETEXT_MAX). */
typedef struct Text {
    char *buf;
    size_t len;
} Text;

static void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void text_printf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, MOVETEXT_MAX - t->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n < MOVETEXT_MAX - t->len ? (size_t)n : MOVETEXT_MAX - 1 - t->len;
}

/* Appends s: the plain form's pieces without a vsnprintf each (the server
 * writes a move for every move request). */
static void text_puts(Text *t, const char *s)
{
    while (*s && t->len + 1 < MOVETEXT_MAX)
        t->buf[t->len++] = *s++;
    t->buf[t->len] = '\0';
}

static void text_int(Text *t, int v)
{
    char digits[16];
    size_t n = sizeof digits;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    digits[--n] = '\0';
    do
        digits[--n] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        digits[--n] = '-';
    text_puts(t, digits + n);
}

/* True when the opponent has a checker on the mover's 1-based point: where
 * a checker landing there hits (only a blot can be landed on). */
static bool opp_on(const Position *before, int point)
{
    return point >= 1 && point <= 24 && before->side[SIDE_OPPONENT][24 - point] > 0;
}

static int parts_of(const Move *m)
{
    return m->parts <= MOVE_PARTS_MAX ? m->parts : MOVE_PARTS_MAX;
}

/* ---- plain form ------------------------------------------------------ */

void movetext_plain(const Position *before, const Move *m, char out[MOVETEXT_MAX])
{
    Text t = {out, 0};
    int n = parts_of(m);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        int to = m->to[i] + 1;
        text_int(&t, m->from[i] + 1);
        text_puts(&t, "/");
        text_int(&t, to);
        /* A hit is starred once, on the first part that lands there. */
        bool first = true;
        for (int j = 0; j < i; j++)
            if (m->to[j] == m->to[i])
                first = false;
        if (first && opp_on(before, to))
            text_puts(&t, "*");
        /* gnubg writes a blank after each of the first three parts. */
        if (i < MOVE_PARTS_MAX - 1)
            text_puts(&t, " ");
    }
}

/* ---- display form ---------------------------------------------------- */

/* One checker's way: points[0] the source, points[len - 1] the destination,
 * in between only the points where it hit (a quiet stop is left out). */
typedef struct Chain {
    int points[MOVE_PARTS_MAX + 1];
    int len;
    int count; /* identical chains merged into this one: "(2)" */
} Chain;

typedef struct Hop {
    int from, to; /* 1-based: bar 25, off 0 */
} Hop;

/* Highest source first, then highest destination: gnubg's canonical order. */
static void sort_hops(Hop *h, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            Hop a = h[j - 1], b = h[j];
            if (a.from > b.from || (a.from == b.from && a.to >= b.to))
                break;
            h[j - 1] = b;
            h[j] = a;
        }
}

static void point_word(Text *t, int point)
{
    if (point == 0)
        text_printf(t, "off");
    else if (point == 25)
        text_printf(t, "bar");
    else
        text_printf(t, "%d", point);
}

void movetext_display(const Position *before, const Move *m, char out[MOVETEXT_MAX])
{
    Hop hops[MOVE_PARTS_MAX];
    int n = parts_of(m);
    for (int i = 0; i < n; i++)
        hops[i] = (Hop){m->from[i] + 1, m->to[i] + 1};
    sort_hops(hops, n);

    /* A part that starts where an earlier chain ends is the same checker
     * moving on; in sorted order its continuation always comes later. */
    Chain chains[MOVE_PARTS_MAX];
    int nchains = 0;
    bool used[MOVE_PARTS_MAX] = {false};
    for (int i = 0; i < n; i++) {
        if (used[i])
            continue;
        Chain *c = &chains[nchains++];
        c->points[0] = hops[i].from;
        c->points[1] = hops[i].to;
        c->len = 2;
        c->count = 1;
        for (int j = i + 1; j < n; j++) {
            if (used[j] || hops[j].from != c->points[c->len - 1])
                continue;
            if (opp_on(before, hops[j].from))
                c->points[c->len++] = hops[j].to; /* keep the hit point */
            else
                c->points[c->len - 1] = hops[j].to;
            used[j] = true;
        }
    }

    /* Identical chains are written once with a count. */
    for (int i = 0; i < nchains; i++) {
        if (!chains[i].count)
            continue;
        for (int j = i + 1; j < nchains; j++)
            if (chains[j].count && chains[j].len == chains[i].len &&
                !memcmp(chains[j].points, chains[i].points, sizeof(int) * (size_t)chains[i].len)) {
                chains[i].count++;
                chains[j].count = 0;
            }
    }

    Text t = {out, 0};
    out[0] = '\0';
    bool starred[26] = {false};
    for (int i = 0; i < nchains; i++) {
        const Chain *c = &chains[i];
        if (!c->count)
            continue;
        if (t.len)
            text_printf(&t, " ");
        point_word(&t, c->points[0]);
        for (int k = 1; k < c->len - 1; k++) {
            text_printf(&t, "/");
            point_word(&t, c->points[k]);
            text_printf(&t, "*");
            if (c->points[k] >= 0 && c->points[k] <= 25)
                starred[c->points[k]] = true;
        }
        int dest = c->points[c->len - 1];
        text_printf(&t, "/");
        point_word(&t, dest);
        if (opp_on(before, dest) && !starred[dest]) { /* opp_on: dest is 1..24 */
            text_printf(&t, "*");
            starred[dest] = true;
        }
        if (c->count > 1)
            text_printf(&t, "(%d)", c->count);
    }
}

/* ---- parsing --------------------------------------------------------- */

/* The lexer: one token at the current offset, read by hand (it was a PCRE2
 * pattern, and a move written back for checking paid a match a token), as
 * this pattern read without case would:
 *
 *   ([ \t\n\v\f\r]+)|([0-9]+)|(b(?:ar?)?)|(o(?:ff?)?|-)|(/)|([*,)])
 *   |\([ \t\n\v\f\r]*\+?([0-9]+)
 *
 * The tokens are, in order: blanks, a number, bar ("b", "ba", "bar"), off
 * ("o", "of", "off" or "-"), a slash, characters gnubg ignores, and a
 * repeat count "(n" (the ')' is one of the ignored characters). */
enum { TOK_NONE, TOK_BLANK, TOK_NUMBER, TOK_BAR, TOK_OFF, TOK_SLASH, TOK_IGNORED, TOK_COUNT };

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The token at text[pos] (pos < len): its kind, TOK_NONE when there is
 * none; text[*start..*end) is the part that counts (a repeat count's
 * digits), *next where the token ends. */
static int next_token(const char *text, size_t len, size_t pos, size_t *start, size_t *end,
                      size_t *next)
{
    size_t i = pos;
    char c = lower(text[i]);
    int tok = TOK_NONE;
    if (is_space(c)) {
        while (i < len && is_space(text[i]))
            i++;
        tok = TOK_BLANK;
    } else if (is_digit(c)) {
        while (i < len && is_digit(text[i]))
            i++;
        tok = TOK_NUMBER;
    } else if (c == 'b' || c == 'o') {
        /* "bar" / "off" or a prefix of it */
        const char *word = c == 'b' ? "bar" : "off";
        for (i++; i < len && i - pos < 3 && lower(text[i]) == word[i - pos]; i++)
            ;
        tok = c == 'b' ? TOK_BAR : TOK_OFF;
    } else if (c == '-') {
        i++;
        tok = TOK_OFF;
    } else if (c == '/') {
        i++;
        tok = TOK_SLASH;
    } else if (c == '*' || c == ',' || c == ')') {
        i++;
        tok = TOK_IGNORED;
    } else if (c == '(') {
        for (i++; i < len && is_space(text[i]); i++)
            ;
        if (i < len && text[i] == '+')
            i++;
        size_t digits = i;
        while (i < len && is_digit(text[i]))
            i++;
        if (i == digits)
            return TOK_NONE;
        *start = digits;
        *end = *next = i;
        return TOK_COUNT;
    }
    *start = pos;
    *end = *next = i;
    return tok;
}

/* gnubg reads at most 8 points (4 parts of two points each). */
#define POINTS_MAX 8

typedef struct Points {
    int value[POINTS_MAX];
    bool slash_before[POINTS_MAX + 1]; /* a '/' came right before value[i] */
    int n;
    bool dash; /* a '-' was read: worth a hint when the text is refused */
} Points;

static bool push_point(Points *pts, int value, size_t col, Err *err)
{
    if (pts->n == POINTS_MAX)
        return err_set(err, "too many points at column %zu: a move has at most %d", col + 1,
                       POINTS_MAX);
    if (value > 25)
        return err_set(err, "point %d at column %zu is out of range (0 to 25)", value, col + 1);
    pts->value[pts->n++] = value;
    return true;
}

/* "(n)": the last part or chain, counted from the last point not joined by a
 * '/' to the one before it, is written n times in all. */
static bool repeat_last(Points *pts, int times, size_t col, Err *err)
{
    if (times < 2)
        return err_set(err, "repeat count %d at column %zu: it must be 2 or more", times,
                       col + 1);
    if (pts->n < 2)
        return err_set(err, "'(' at column %zu does not follow a part such as 24/18", col + 1);
    if (pts->slash_before[pts->n])
        return err_set(err, "'/' right before '(' at column %zu", col + 1);
    int begin = pts->n - 1;
    while (begin > 0 && pts->slash_before[begin])
        begin--;
    int len = pts->n - begin;
    if (pts->n + len * (times - 1) > POINTS_MAX)
        return err_set(err, "'(%d)' at column %zu makes more than %d points", times, col + 1,
                       POINTS_MAX);
    for (int r = 1; r < times; r++)
        for (int j = begin; j < begin + len; j++) {
            pts->slash_before[pts->n] = pts->slash_before[j];
            pts->value[pts->n++] = pts->value[j];
        }
    return true;
}

/* Digits to a number, saturating: anything above 25 is an error anyway. */
static int digits_value(const char *s, size_t len)
{
    int v = 0;
    for (size_t i = 0; i < len; i++)
        if ((v = v * 10 + (s[i] - '0')) > 1000)
            return 1000;
    return v;
}

static bool lex(const char *text, Points *pts, Err *err)
{
    bool ok = true;
    size_t len = strlen(text), pos = 0;
    while (ok && pos < len) {
        size_t start, end, next;
        int tok = next_token(text, len, pos, &start, &end, &next);
        if (tok == TOK_NONE) {
            unsigned char c = (unsigned char)text[pos];
            if (c == '(')
                ok = err_set(err, "'(' at column %zu is not followed by a repeat count", pos + 1);
            else if (c >= 0x21 && c < 0x7f)
                ok = err_set(err, "unexpected '%c' at column %zu", c, pos + 1);
            else
                ok = err_set(err, "unexpected byte 0x%02x at column %zu", c, pos + 1);
            break;
        }
        const char *s = text + start;
        size_t slen = end - start;
        switch (tok) {
        case TOK_NUMBER:
            ok = push_point(pts, digits_value(s, slen), pos, err);
            break;
        case TOK_BAR:
            ok = push_point(pts, 25, pos, err);
            break;
        case TOK_OFF:
            pts->dash |= *s == '-';
            ok = push_point(pts, 0, pos, err);
            break;
        case TOK_SLASH:
            if (!pts->n)
                ok = err_set(err, "'/' at column %zu has no point before it", pos + 1);
            else if (pts->slash_before[pts->n])
                ok = err_set(err, "'/' at column %zu follows another '/' with no point between",
                             pos + 1);
            else
                pts->slash_before[pts->n] = true;
            break;
        case TOK_COUNT:
            ok = repeat_last(pts, digits_value(s, slen), pos, err);
            break;
        default: /* blanks and ignored characters */
            break;
        }
        pos = next;
    }
    if (ok && pts->slash_before[pts->n])
        ok = err_set(err, "the move ends with '/'");
    return ok;
}

/* Points to parts: two points make a part, and a point followed by '/'
 * after a part's destination also starts the next part ("24/18/15"). */
static bool pair_points(const Points *pts, Hop *hops, int *nhops, Err *err)
{
    int seq[2 * MOVE_PARTS_MAX];
    int k = 0;
    for (int j = 0; j < pts->n; j++) {
        int v = pts->value[j];
        bool dest = k & 1;
        if (k == 2 * MOVE_PARTS_MAX)
            return err_set(err, "more than %d parts", MOVE_PARTS_MAX);
        if (dest && v == 25)
            return err_set(err, "a checker cannot move to the bar (25)");
        if (!dest && v == 0)
            return err_set(err, "a checker cannot move from off (0)");
        seq[k++] = v;
        if (dest && pts->slash_before[j + 1]) {
            if (v == 0)
                return err_set(err, "a chain cannot go on after off");
            if (k == 2 * MOVE_PARTS_MAX)
                return err_set(err, "more than %d parts", MOVE_PARTS_MAX);
            seq[k++] = v;
        }
    }
    if (k & 1)
        return err_set(err, "point %d has no destination (points go in pairs: from, to)",
                       seq[k - 1]);
    *nhops = k / 2;
    for (int i = 0; i < *nhops; i++)
        hops[i] = (Hop){seq[2 * i], seq[2 * i + 1]};
    return true;
}

bool movetext_parse(const char *text, Move *out, Err *err)
{
    Points pts;
    memset(&pts, 0, sizeof pts);
    Hop hops[MOVE_PARTS_MAX];
    int n = 0;
    if (!lex(text, &pts, err) || !pair_points(&pts, hops, &n, err)) {
        /* "24-18" reads as 24, off, 18: say why, or the message puzzles. */
        if (pts.dash && err) {
            char first[ERR_TEXT_MAX];
            snprintf(first, sizeof first, "%s", err->text);
            err_set(err, "%s ('-' means off, as in gnubg: join points with '/')", first);
        }
        return false;
    }
    sort_hops(hops, n);
    memset(out, 0, sizeof *out);
    out->parts = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        out->from[i] = (int8_t)(hops[i].from - 1);
        out->to[i] = (int8_t)(hops[i].to - 1);
    }
    return true;
}

/* ---- matching -------------------------------------------------------- */

/* Plays the parts one hop each, as gnubg does, saying why a part cannot be
 * played at all. */
static bool play_hops(Position *q, const Move *m, char *why, size_t whylen)
{
    for (int i = 0; i < m->parts; i++) {
        int from = m->from[i], to = m->to[i];
        if (!q->side[SIDE_ROLLER][from]) {
            if (from == POS_BAR)
                snprintf(why, whylen, "no checker on the bar");
            else
                snprintf(why, whylen, "no checker on the %d point", from + 1);
            return false;
        }
        if (to >= from) {
            snprintf(why, whylen, "a checker cannot move backwards");
            return false;
        }
        if (!movegen_apply_part(q, from, to)) {
            snprintf(why, whylen, "the %d point is held by the opponent", to + 1);
            return false;
        }
    }
    return true;
}

/* True when the hops of legal move l, joined end to start, make exactly the
 * written parts (each part at least one hop, every hop used once). */
static bool chains_into(const Move *written, int part, int at, bool moved, const Move *l,
                        unsigned used)
{
    if (moved && at == written->to[part]) {
        if (part + 1 == written->parts)
            return used == (1u << l->parts) - 1;
        return chains_into(written, part + 1, written->from[part + 1], false, l, used);
    }
    for (int h = 0; h < l->parts; h++)
        if (!(used & (1u << h)) && l->from[h] == at &&
            chains_into(written, part, l->to[h], true, l, used | (1u << h)))
            return true;
    return false;
}

/* Pips a move covers (a checker borne off counts its point). */
static int move_pips(const Move *m)
{
    int n = 0;
    for (int i = 0; i < m->parts; i++)
        n += m->from[i] - m->to[i];
    return n;
}

int movetext_match(const Position *p, const MoveList *legal, const char *text, Err *err)
{
    return movetext_match_roll(p, legal, 0, 0, text, err);
}

/* " with 6-4" for the messages, or "" when the dice are not known. */
static const char *roll_text(int d1, int d2, char roll[32])
{
    roll[0] = '\0';
    if (d1 >= 1 && d1 <= 6 && d2 >= 1 && d2 <= 6)
        snprintf(roll, 32, " with %d-%d", d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1);
    return roll;
}

/* The move as the messages show it: in display form, with stars only where
 * a blot stands (a star on a made point would read as a hit). */
static const char *shown_text(const Position *p, const Move *written, char shown[MOVETEXT_MAX])
{
    Position blots = *p;
    for (int i = 0; i < POS_BAR; i++)
        if (blots.side[SIDE_OPPONENT][i] > 1)
            blots.side[SIDE_OPPONENT][i] = 0;
    movetext_display(&blots, written, shown);
    return shown;
}

int movetext_match_roll(const Position *p, const MoveList *legal, int d1, int d2,
                        const char *text, Err *err)
{
    Move written;
    if (!movetext_parse(text, &written, err))
        return -1;

    /* The texts of the messages are made only for a message: a move that
     * is found (the server reads back every answer) needs none. */
    char roll[32], shown[MOVETEXT_MAX];
    if (!written.parts) {
        if (!legal->count)
            return MOVETEXT_PASS;
        err_set(err, "no move given, but %d legal move%s exist%s", legal->count,
                legal->count == 1 ? "" : "s", roll_text(d1, d2, roll));
        return -1;
    }
    if (!legal->count) {
        err_set(err, "%s is not legal: no move is possible%s", shown_text(p, &written, shown),
                roll_text(d1, d2, roll));
        return -1;
    }

    Position q = *p;
    char why[96] = "";
    if (play_hops(&q, &written, why, sizeof why)) {
        int i = movegen_find(legal, &q);
        if (i >= 0)
            return i;
    }
    shown_text(p, &written, shown);
    roll_text(d1, d2, roll);

    int found = -1;
    for (int i = 0; i < legal->count; i++) {
        const Move *l = &legal->moves[i];
        if (l->parts < written.parts ||
            !chains_into(&written, 0, written.from[0], false, l, 0))
            continue;
        if (found >= 0) {
            char a[MOVETEXT_MAX], b[MOVETEXT_MAX];
            movetext_display(p, &legal->moves[found], a);
            movetext_display(p, l, b);
            err_set(err, "%s is ambiguous%s: it could be %s or %s", shown, roll, a, b);
            return -1;
        }
        found = i;
    }
    if (found >= 0)
        return found;
    if (!why[0]) {
        /* A move that is short of pips is the common mistake (a die left
         * unplayed): say so. */
        int least = move_pips(&legal->moves[0]);
        for (int i = 1; i < legal->count; i++)
            if (move_pips(&legal->moves[i]) < least)
                least = move_pips(&legal->moves[i]);
        if (move_pips(&written) < least)
            snprintf(why, sizeof why, "it moves %d pips, every legal move at least %d",
                     move_pips(&written), least);
    }
    err_set(err, "%s is not legal%s%s%s", shown, roll, why[0] ? ": " : "", why);
    return -1;
}
