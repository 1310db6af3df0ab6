/* ubgi.c - the UBGI engine protocol (ubgi.h): the session, reading a line
 * into words, the dispatch, the handshake and keys, and v0.1's session
 * context. Positions and go are in ubgi_go.c. */
#include "ubgi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "matchid.h"
#include "player_engine.h"
#include "rules.h"
#include "ubgi_session.h"

bool ubgi_error(Buf *out, const char *code, const char *fmt, ...)
{
    char detail[ERR_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    buf_printf(out, "error %s %s\n", code, detail);
    return false;
}

const char *ubgi_quote(const char *word, char buf[48])
{
    return err_quote(word, 40, buf);
}

/* The player for engine.ply: made anew when the key changes, so that a
 * decision allocates nothing. */
static bool set_ply(UbgiSession *s, int ply, Err *err)
{
    Player *pl = player_engine_new(s->engine, ply - 1, NULL, err);
    if (!pl)
        return false;
    player_close(s->player);
    s->player = pl;
    s->ply = ply;
    return true;
}

/* The context a new session starts from: a match of `length` points (0:
 * money, where jacoby applies), crawford for the match. */
static void context_reset(UbgiSession *s, int length, bool jacoby, bool crawford)
{
    s->length = length;
    s->jacoby = length == 0 && jacoby;
    s->crawford = crawford;
    s->score[0] = s->score[1] = 0;
    s->cube = 1;
    s->owner = -1;
    s->turn = 0;
    s->cube_play = s->jacoby || length > 0;
}

UbgiSession *ubgi_session_new(const Engine *e, int ply, Err *err)
{
    if (ply < UBGI_PLY_MIN || ply > UBGI_PLY_MAX) {
        err_set(err, "engine.ply %d is outside %d..%d", ply, UBGI_PLY_MIN, UBGI_PLY_MAX);
        return NULL;
    }
    UbgiSession *s = calloc(1, sizeof *s);
    if (!s || !(s->legal = malloc(sizeof *s->legal))) {
        free(s);
        err_set(err, "out of memory for a UBGI session");
        return NULL;
    }
    s->engine = e;
    s->default_ply = ply;
    /* v0.1's context: money, standard rules. */
    Rules r = rules_default();
    context_reset(s, 0, r.jacoby, r.crawford);
    if (!set_ply(s, ply, err)) {
        ubgi_session_free(s);
        return NULL;
    }
    return s;
}

void ubgi_session_free(UbgiSession *s)
{
    if (!s)
        return;
    player_close(s->player);
    free(s->legal);
    free(s);
}

/* ---- reading numbers and words ------------------------------------------------------ */

/* A decimal integer of at most 6 digits (no sign), else false. */
static bool read_int(const char *w, int *out)
{
    size_t n = strlen(w);
    if (n == 0 || n > 6 || strspn(w, "0123456789") != n)
        return false;
    *out = atoi(w);
    return true;
}

static bool read_on_off(const char *w, bool *out)
{
    if (!strcmp(w, "on") || !strcmp(w, "true"))
        return *out = true, true;
    if (!strcmp(w, "off") || !strcmp(w, "false"))
        return *out = false, true;
    return false;
}

/* "p0" or "p1". */
static bool read_seat(const char *w, int *out)
{
    if (!strcmp(w, "p0") || !strcmp(w, "p1"))
        return *out = w[1] - '0', true;
    return false;
}

static bool no_arguments(const UbgiWords *t, Buf *out)
{
    char q[48];
    if (t->count > 1)
        return ubgi_error(out, "bad_command", "%s takes no arguments, but '%s' follows it",
                          t->w[0], ubgi_quote(t->w[1], q));
    return true;
}

/* ---- handshake and keys -------------------------------------------------------------- */

static void key_lines(const UbgiSession *s, Buf *out)
{
    buf_printf(out,
               "key engine.ply int %d..%d %d root-inclusive decision depth: 1 evaluates "
               "every legal move without look-ahead\n",
               UBGI_PLY_MIN, UBGI_PLY_MAX, s->default_ply);
}

static bool cmd_ubgi(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (!no_arguments(t, out))
        return false;
    /* The name as the protocol's own example writes it, the authors as
     * LICENSE names them. */
    buf_puts(out, "id name Shesh\nid author The Shesh authors\nproto 0.2\n");
    key_lines(s, out);
    buf_puts(out, "ubgiok\n");
    return true;
}

static bool cmd_isready(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    (void)s;
    if (!no_arguments(t, out))
        return false;
    buf_puts(out, "readyok\n");
    return true;
}

static bool cmd_keys(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (!no_arguments(t, out))
        return false;
    key_lines(s, out);
    return true;
}

/* Every key but engine.ply (threads, seed, game.*) means nothing to Shesh:
 * one thread decides, and decisions are deterministic. */
static bool known_key(const char *key, Buf *out)
{
    char q[48];
    if (strcmp(key, "engine.ply"))
        return ubgi_error(out, "unsupported", "no key '%s' (try keys)", ubgi_quote(key, q));
    return true;
}

static bool set_key(UbgiSession *s, const char *key, const char *value, Buf *out)
{
    char q[48];
    if (!known_key(key, out))
        return false;
    int ply;
    if (!read_int(value, &ply) || ply < UBGI_PLY_MIN || ply > UBGI_PLY_MAX)
        return ubgi_error(out, "bad_value", "engine.ply must be %d..%d, not '%s'", UBGI_PLY_MIN,
                          UBGI_PLY_MAX, ubgi_quote(value, q));
    Err err;
    if (ply != s->ply && !set_ply(s, ply, &err))
        return ubgi_error(out, "bad_state", "%s", err.text);
    return true;
}

static bool cmd_set(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (t->count != 3)
        return ubgi_error(out, "bad_command", "set needs a key and a value");
    return set_key(s, t->w[1], t->w[2], out);
}

/* v0.1: setoption name KEY value VALUE */
static bool cmd_setoption(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (t->count != 5 || strcmp(t->w[1], "name") || strcmp(t->w[3], "value"))
        return ubgi_error(out, "bad_command", "setoption needs: name KEY value VALUE");
    return set_key(s, t->w[2], t->w[4], out);
}

static bool cmd_get(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (t->count != 2)
        return ubgi_error(out, "bad_command", "get needs one key");
    if (!known_key(t->w[1], out))
        return false;
    buf_printf(out, "value engine.ply %d\n", s->ply);
    return true;
}

/* ---- games and v0.1's session context ---------------------------------------------- */

static bool cmd_newgame(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (!no_arguments(t, out))
        return false;
    s->have_position = false;
    s->dice[0] = s->dice[1] = 0;
    return true;
}

/* newsession type money|match [length N] [jacoby on|off] [crawford on|off] */
static bool cmd_newsession(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    if (t->count < 3 || strcmp(t->w[1], "type") || (t->count - 3) % 2)
        return ubgi_error(out, "bad_command",
                          "newsession needs: type money|match [length N] [jacoby on|off] "
                          "[crawford on|off]");
    bool match = !strcmp(t->w[2], "match");
    if (!match && strcmp(t->w[2], "money"))
        return ubgi_error(out, "bad_value", "type must be money or match, not '%s'",
                          ubgi_quote(t->w[2], q));
    int length = 0;
    Rules r = rules_default();
    bool jacoby = !match && r.jacoby, crawford = r.crawford;
    for (int i = 3; i < t->count; i += 2) {
        const char *k = t->w[i], *v = t->w[i + 1];
        bool ok;
        if (!strcmp(k, "length"))
            ok = read_int(v, &length) && length >= 1 && length <= MATCHID_MAX_LENGTH;
        else if (!strcmp(k, "jacoby"))
            ok = read_on_off(v, &jacoby);
        else if (!strcmp(k, "crawford"))
            ok = read_on_off(v, &crawford);
        else
            return ubgi_error(out, "bad_command", "newsession has no option '%s'",
                              ubgi_quote(k, q));
        if (!ok)
            return ubgi_error(out, "bad_value", "%s cannot be '%s'", k, ubgi_quote(v, q));
    }
    if (match != (length > 0))
        return ubgi_error(out, "bad_value", match ? "a match needs a length"
                                                  : "money play has no length");
    context_reset(s, length, jacoby, crawford);
    s->have_position = false;
    s->dice[0] = s->dice[1] = 0;
    return true;
}

static bool cmd_setscore(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    if (t->count != 3)
        return ubgi_error(out, "bad_command", "setscore needs two scores: p0 p1");
    int a, b;
    int cap = s->length ? s->length - 1 : 999999;
    if (!read_int(t->w[1], &a) || !read_int(t->w[2], &b) || a > cap || b > cap)
        return ubgi_error(out, "bad_value", "scores must be 0..%d", cap);
    s->score[0] = a;
    s->score[1] = b;
    return true;
}

/* setcube value N owner center|p0|p1 */
static bool cmd_setcube(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    if (t->count != 5 || strcmp(t->w[1], "value") || strcmp(t->w[3], "owner"))
        return ubgi_error(out, "bad_command", "setcube needs: value N owner center|p0|p1");
    int v, owner;
    int max = rules_default().max_cube;
    if (!read_int(t->w[2], &v) || v < 1 || v > max || (v & (v - 1)))
        return ubgi_error(out, "bad_value", "the cube must be a power of two from 1 to %d, "
                          "not '%s'", max, ubgi_quote(t->w[2], q));
    if (!strcmp(t->w[4], "center") || !strcmp(t->w[4], "centre"))
        owner = -1;
    else if (!read_seat(t->w[4], &owner))
        return ubgi_error(out, "bad_value", "the owner must be center, p0 or p1, not '%s'",
                          ubgi_quote(t->w[4], q));
    if (v == 1 && owner >= 0)
        return ubgi_error(out, "bad_value", "a cube of 1 has no owner");
    s->cube = v;
    s->cube_play = true;
    s->owner = owner;
    return true;
}

static bool cmd_setturn(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    if (t->count != 2)
        return ubgi_error(out, "bad_command", "setturn needs p0 or p1");
    if (!read_seat(t->w[1], &s->turn))
        return ubgi_error(out, "bad_value", "the turn must be p0 or p1, not '%s'",
                          ubgi_quote(t->w[1], q));
    return true;
}

static bool cmd_dice(UbgiSession *s, const UbgiWords *t, Buf *out)
{
    char q[48];
    if (t->count != 3)
        return ubgi_error(out, "bad_command", "dice needs two dice");
    int d[2];
    for (int i = 0; i < 2; i++) {
        if (!read_int(t->w[1 + i], &d[i]))
            return ubgi_error(out, "bad_command", "a die is a number, not '%s'",
                              ubgi_quote(t->w[1 + i], q));
        if (d[i] < 1 || d[i] > 6)
            return ubgi_error(out, "bad_value", "a die is 1 to 6, not %d", d[i]);
    }
    s->dice[0] = d[0];
    s->dice[1] = d[1];
    return true;
}

/* ---- dispatch ----------------------------------------------------------------------- */

typedef bool (*UbgiCommandFn)(UbgiSession *s, const UbgiWords *t, Buf *out);

static const struct {
    const char *name;
    UbgiCommandFn fn;
} commands[] = {
    {"ubgi", cmd_ubgi},         {"isready", cmd_isready},       {"newgame", cmd_newgame},
    {"position", ubgi_cmd_position}, {"dice", cmd_dice},        {"go", ubgi_cmd_go},
    {"set", cmd_set},           {"get", cmd_get},               {"keys", cmd_keys},
    {"setoption", cmd_setoption}, {"newsession", cmd_newsession}, {"setscore", cmd_setscore},
    {"setcube", cmd_setcube},   {"setturn", cmd_setturn},
};

/* Splits line (len bytes) into words in copy; false with the error written
 * when a byte is not text or there are too many words. */
static bool split(const char *line, size_t len, char copy[UBGI_LINE_MAX + 1], UbgiWords *t,
                  Buf *out)
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return ubgi_error(out, "bad_command", "byte 0x%02x at column %zu is not text", c,
                              i + 1);
    }
    memcpy(copy, line, len);
    copy[len] = '\0';
    t->count = 0;
    for (char *p = copy;;) {
        p += strspn(p, " \t");
        if (!*p)
            return true;
        if (t->count == UBGI_WORDS_MAX)
            return ubgi_error(out, "bad_command", "more than %d words", UBGI_WORDS_MAX);
        t->w[t->count++] = p;
        p += strcspn(p, " \t");
        if (*p)
            *p++ = '\0';
    }
}

UbgiResult ubgi_handle(UbgiSession *s, const char *line, size_t len, Buf *out)
{
    if (len > UBGI_LINE_MAX) {
        ubgi_error(out, "bad_command", "the line is %zu bytes long; the limit is %d", len,
                   UBGI_LINE_MAX);
        return UBGI_CONTINUE;
    }
    char copy[UBGI_LINE_MAX + 1];
    UbgiWords t;
    if (!split(line, len, copy, &t, out) || t.count == 0)
        return UBGI_CONTINUE; /* an empty line asks nothing */
    if (!strcmp(t.w[0], "quit"))
        return UBGI_QUIT;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(t.w[0], commands[i].name)) {
            commands[i].fn(s, &t, out);
            return UBGI_CONTINUE;
        }
    char q[48];
    ubgi_error(out, "bad_command", "unknown command '%s'", ubgi_quote(t.w[0], q));
    return UBGI_CONTINUE;
}
