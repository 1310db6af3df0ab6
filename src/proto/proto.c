/* proto.c - gnubg's external-player command language: one request line in,
 * the complete reply out (see proto.h; proto/README.md is the spec).
 *
 * This file holds the session, the command dispatch and the small commands
 * (version, help, set, exit); board lines and evaluations are in
 * proto_board.c, the lexer in proto_lex.c. */
#include "proto.h"

#include <stdlib.h>
#include <string.h>

#include "proto_board.h"
#include "proto_lex.h"
#include "proto_session.h"
#include "version.h"

ProtoSession *proto_session_new(void)
{
    ProtoSession *s = calloc(1, sizeof *s);
    if (s) {
        s->debug = false;
        s->new_interface = true;
        s->scores = SCORES_GNUBG;
        s->colour = 0;
    }
    return s;
}

void proto_session_free(ProtoSession *s)
{
    free(s);
}

typedef bool (*ProtoCommandFn)(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                               const ProtoTokens *t, Buf *out, Err *err);

/* Commands that take no arguments say so instead of ignoring extra words. */
static bool no_arguments(const ProtoTokens *t, const char *name, Err *err)
{
    if (t->count <= 1)
        return true;
    char q[32];
    proto_lex_quote(t->tok[1].text, t->tok[1].len, q, sizeof q);
    return err_set(err, "%s takes no arguments, but '%s' follows it", name, q);
}

static bool cmd_version(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                        const ProtoTokens *t, Buf *out, Err *err)
{
    (void)w, (void)s;
    if (!no_arguments(t, "version", err))
        return false;
    /* The same four lines as gnubg, so clients that read them keep working;
     * only the values are ours. */
    buf_printf(out, "Interface: 2\nRFBF: 0\nEngine: %s\nSoftware: shesh %s\n",
               cfg->engine ? engine_id(cfg->engine) : "none", SHESH_VERSION);
    return true;
}

static const char help_text[] =
    "Shesh speaks GNU Backgammon's external-player protocol: one request a line, one reply.\n"
    "  board:NAME:NAME:N1:...:N50 [OPTIONS]  the side to act answers: a move (\"8/5 6/5 \"),\n"
    "      an empty line (no legal move), roll, double, take, drop, beaver, accept, reject\n"
    "      OPTIONS: jacobyrule on|off, crawfordrule on|off, beavers on|off, resignation 1..3\n"
    "  evaluation fibsboard board:... [OPTIONS]  six numbers: W WG WBG LG LBG equity\n"
    "      more OPTIONS: plies N, cube on|off, cubeful, cubeless, prune [on|off],\n"
    "      noise F, deterministic [on|off]\n"
    "  version                      protocol, engine and software versions (four lines)\n"
    "  set debug on|off             DBG: lines describing each board before its answer\n"
    "  set interface new|old        accepted and remembered; changes nothing\n"
    "  set boards gnubg|fibs        whose name and score come first on board lines:\n"
    "                               as gnubg writes them as a client (default) or FIBS\n"
    "  help                         this text\n"
    "  exit, quit                   close the connection\n"
    "Errors are one line: \"Error: \" and what was wrong. Details: proto/README.md.\n";

static bool cmd_help(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                     const ProtoTokens *t, Buf *out, Err *err)
{
    (void)cfg, (void)w, (void)s;
    if (!no_arguments(t, "help", err))
        return false;
    buf_puts(out, help_text);
    return true;
}

/* "set OPTION needs A or B, not 'x'" */
static bool bad_value(const char *option, const char *choices, const ProtoTok *val, Err *err)
{
    if (!val)
        return err_set(err, "set %s needs %s", option, choices);
    char q[32];
    proto_lex_quote(val->text, val->len, q, sizeof q);
    return err_set(err, "set %s needs %s, not '%s'", option, choices, q);
}

/* 0 when val is the word a, 1 when it is b, -1 otherwise. */
static int choice(const ProtoTok *val, const char *a, const char *b)
{
    return !val ? -1 : proto_lex_is(val, a) ? 0 : proto_lex_is(val, b) ? 1 : -1;
}

/* set debug|interface|boards|prompt VALUE */
static bool cmd_set(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                    const ProtoTokens *t, Buf *out, Err *err)
{
    (void)cfg, (void)w;
    if (t->count < 2)
        return err_set(err, "set needs an option: debug, interface, boards or prompt");
    const ProtoTok *opt = &t->tok[1];
    const ProtoTok *val = t->count > 2 ? &t->tok[2] : NULL;
    char q[32];
    if (proto_lex_is(opt, "prompt"))
        /* gnubg refuses it too; replies never carry a prompt. */
        return err_set(err, "set prompt is not supported: replies never carry a prompt");
    if (t->count > 3) {
        proto_lex_quote(t->tok[3].text, t->tok[3].len, q, sizeof q);
        return err_set(err, "set takes one option and one value, but '%s' follows", q);
    }
    if (proto_lex_is(opt, "debug")) {
        bool on;
        if (!val || !proto_lex_bool(val, &on))
            return bad_value("debug", "on or off", val, err);
        s->debug = on;
        buf_puts(out, on ? "Debug output ON\n" : "Debug output OFF\n");
        return true;
    }
    if (proto_lex_is(opt, "interface")) {
        int c = choice(val, "new", "old");
        if (c < 0)
            return bad_value("interface", "new or old", val, err);
        s->new_interface = c == 0;
        buf_puts(out, c == 0 ? "New interface ON\n" : "New interface OFF\n");
        return true;
    }
    if (proto_lex_is(opt, "boards")) {
        int c = choice(val, "gnubg", "fibs");
        if (c < 0)
            return bad_value("boards", "gnubg or fibs", val, err);
        s->scores = c == 0 ? SCORES_GNUBG : SCORES_FIBS;
        buf_puts(out, c == 0 ? "Boards as gnubg writes them\n" : "Boards as FIBS writes them\n");
        return true;
    }
    proto_lex_quote(opt->text, opt->len, q, sizeof q);
    return err_set(err, "unknown option 'set %s' (options: debug, interface, boards, prompt)", q);
}

static bool cmd_evaluation(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                           const ProtoTokens *t, Buf *out, Err *err)
{
    if (t->count < 2 || !proto_lex_is(&t->tok[1], "fibsboard"))
        return err_set(err, "evaluation must be followed by 'fibsboard board:...'");
    if (t->count < 3 || t->tok[2].kind != TOK_BOARD)
        return err_set(err, "evaluation fibsboard must be followed by a board (board:...)");
    return proto_board_evaluate(cfg, w, s, t, 2, out, err);
}

static const struct {
    const char *name;
    ProtoCommandFn run;
} commands[] = {
    {"version", cmd_version},
    {"help", cmd_help},
    {"set", cmd_set},
    {"evaluation", cmd_evaluation},
};

/* Writes "Error: TEXT\n", keeping TEXT to one line of printable ASCII
 * whatever an inner module put there. */
static void write_error(Buf *out, const Err *err)
{
    char text[ERR_TEXT_MAX];
    size_t n = 0;
    for (const char *p = err->text; *p && n + 1 < sizeof text; p++) {
        unsigned char c = (unsigned char)*p;
        text[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : ' ';
    }
    text[n] = '\0';
    buf_printf(out, "Error: %s\n", n ? text : "the request could not be answered");
}

ProtoResult proto_handle_on(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                            const char *line, size_t len, Buf *out)
{
    size_t start = out->len;
    Err err = {""};
    ProtoTokens toks;

    /* gnubg as a client ends every request with "\n\0": the NUL may reach us
     * at the head of the next line, depending on how it was framed. */
    while (len > 0 && line[0] == '\0')
        line++, len--;

    bool ok = proto_lex_split(line, len, &toks, &err);
    if (ok && toks.count == 0)
        ok = err_set(&err, "no command given (try 'help')");
    if (ok) {
        const ProtoTok *cmd = &toks.tok[0];
        if (proto_lex_is(cmd, "exit") || proto_lex_is(cmd, "quit")) {
            if (no_arguments(&toks, proto_lex_is(cmd, "exit") ? "exit" : "quit", &err))
                return PROTO_CLOSE;
            ok = false;
        } else if (cmd->kind == TOK_BOARD) {
            ok = proto_board_answer(cfg, w, s, &toks, 0, out, &err);
        } else {
            size_t i, n = sizeof commands / sizeof commands[0];
            for (i = 0; i < n; i++)
                if (proto_lex_is(cmd, commands[i].name))
                    break;
            if (i < n) {
                ok = commands[i].run(cfg, w, s, &toks, out, &err);
            } else {
                char q[32];
                proto_lex_quote(cmd->text, cmd->len, q, sizeof q);
                ok = err_set(&err, "unknown command '%s' (try 'help')", q);
            }
        }
    }
    if (!ok) {
        /* An error replaces anything (DBG: lines) already written. */
        out->len = start;
        if (out->data)
            out->data[start] = '\0';
        write_error(out, &err);
    }
    return PROTO_REPLY;
}

ProtoResult proto_handle(const ProtoConfig *cfg, ProtoSession *s, const char *line, size_t len,
                         Buf *out)
{
    Err err = {""};
    ProtoWorker *w = proto_worker_new(cfg, &err);
    if (!w) {
        write_error(out, &err);
        return PROTO_REPLY;
    }
    ProtoResult r = proto_handle_on(cfg, w, s, line, len, out);
    proto_worker_free(w);
    return r;
}

/* The lexer's blanks (proto_lex.h). */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* True when p[0..n) starts with word, compared without case. */
static bool starts_with(const char *p, size_t n, const char *word)
{
    size_t k = strlen(word);
    if (n < k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return false;
    }
    return true;
}

/* The word (up to a blank) at p[0..n) is exactly word, without case. */
static bool is_word(const char *p, size_t n, const char *word)
{
    size_t k = strlen(word);
    return starts_with(p, n, word) && (n == k || is_blank(p[k]));
}

bool proto_is_cheap(const ProtoConfig *cfg, const char *line, size_t len)
{
    /* Over the lexer's limit it is an error reply, whatever it says. */
    if (len > PROTO_LEX_LINE_MAX)
        return true;
    size_t i = 0;
    while (i < len && (line[i] == '\0' || is_blank(line[i])))
        i++;
    const char *p = line + i;
    size_t n = len - i;
    /* A whitelist: a command not named here may be slow (a new one added
     * to proto.c, say), and is therefore not cheap until it is listed. */
    static const char *const quick[] = {"version", "help", "set", "exit", "quit"};
    if (n == 0)
        return true; /* an empty line: the "no command" error */
    for (size_t k = 0; k < sizeof quick / sizeof quick[0]; k++)
        if (is_word(p, n, quick[k]))
            return true;
    if (starts_with(p, n, "board:"))
        return cfg->plies == 0;
    if (!is_word(p, n, "evaluation"))
        return false;
    /* Evaluations run at 0 plies unless `plies N` says otherwise. Every
     * "plies" that starts a word counts, even one inside a quoted name:
     * a false "expensive" only costs a hand-off to a worker. */
    for (size_t k = 1; k < n; k++) {
        if (!is_blank(p[k - 1]) || !is_word(p + k, n - k, "plies"))
            continue;
        size_t v = k + 5;
        while (v < n && is_blank(p[v]))
            v++;
        if (!is_word(p + v, n - v, "0"))
            return false;
    }
    return true;
}
