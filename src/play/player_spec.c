/* player_spec.c - players by name (see player_spec.h). */
#include "player_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_file.h"
#include "num.h"
#include "player_engine.h"
#include "player_pubeval.h"
#include "player_random.h"
#include "player_remote.h"
#include "player_ubgi.h"
#include "search.h"

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || c == '+';
}

/* How messages quote a spec: its first 40 bytes, on one line (a spec may
 * hold any bytes the shell passes, newlines too). */
#define QUOTE_MAX 40

/* NAME= in front of text: *rest after it. A '=' further on (plies=2) is
 * not one. q: text as messages quote it. */
static bool read_name(const char *text, const char *q, PlayerSpec *spec, const char **rest,
                      Err *err)
{
    const char *eq = strchr(text, '=');
    const char *colon = strchr(text, ':');
    *rest = text;
    if (!eq || (colon && colon < eq))
        return true;
    size_t len = (size_t)(eq - text);
    if (len == 0 || len > PLAYER_SPEC_NAME_MAX)
        return err_set(err, "player '%s': a NAME= of 1 to %d characters", q,
                       PLAYER_SPEC_NAME_MAX);
    for (size_t i = 0; i < len; i++)
        if (!name_char(text[i]))
            return err_set(err,
                           "player '%s': the name may hold letters, digits and . _ - + "
                           "only (no spaces or colons)",
                           q);
    memcpy(spec->name, text, len);
    spec->name[len] = '\0';
    spec->named = true;
    *rest = eq + 1;
    return true;
}

/* What may follow a kind: ":N" or ":plies=N", then ":weights=FILE" (FILE
 * the rest of the text, colons and all), or nothing. */
static bool read_plies(const char *full, const char *at, PlayerSpec *spec, Err *err)
{
    if (!*at)
        return true;
    if (*at != ':')
        return err_set(err, "bad player '%s'", full);
    at++;
    if (strncmp(at, "weights=", 8) != 0) {
        if (!strncmp(at, "plies=", 6))
            at += 6;
        const char *colon = strchr(at, ':');
        char n[16] = "";
        size_t len = colon ? (size_t)(colon - at) : strlen(at);
        if (len < sizeof n)
            memcpy(n, at, len), n[len] = '\0';
        /* util/num's strict reading, as every number a user types. */
        if (len >= sizeof n || !num_int("PLIES", n, 0, SEARCH_MAX_PLIES, &spec->plies, NULL))
            return err_set(err, "bad player '%s': plies must be 0 to %d", full,
                           SEARCH_MAX_PLIES);
        if (!colon)
            return true;
        at = colon + 1;
        if (strncmp(at, "weights=", 8) != 0)
            return err_set(err, "bad player '%s': after the plies only :weights=FILE", full);
    }
    at += 8;
    if (!*at)
        return err_set(err, "player '%s': weights=FILE needs a file name", full);
    if (strlen(at) >= sizeof spec->weights)
        return err_set(err, "player '%s': the file name is longer than %zu bytes", full,
                       sizeof spec->weights - 1);
    snprintf(spec->weights, sizeof spec->weights, "%s", at);
    return true;
}

static bool read_remote(const char *full, const char *rest, PlayerSpec *spec, Err *err)
{
    spec->kind = PLAYER_KIND_REMOTE;
    int n;
    if (!strncmp(rest, "tcp:", 4)) {
        const char *a = rest + 4;
        if (!strchr(a, ':') || strchr(a, '/'))
            return err_set(err, "player '%s': tcp:HOST:PORT", full);
        n = snprintf(spec->addr, sizeof spec->addr, "%s", a);
    } else if (!strncmp(rest, "unix:", 5)) {
        const char *a = rest + 5;
        if (!*a)
            return err_set(err, "player '%s': unix:PATH", full);
        /* net_client_connect takes "x:y" without a '/' for TCP. */
        n = snprintf(spec->addr, sizeof spec->addr, "%s%s", strchr(a, '/') ? "" : "./", a);
    } else {
        const char *a = rest + 7; /* remote: */
        if (!*a)
            return err_set(err, "player 'remote:' needs an address (host:port or a path)");
        n = snprintf(spec->addr, sizeof spec->addr, "%s", a);
    }
    /* Cut short, it would be another address. */
    if (n < 0 || (size_t)n >= sizeof spec->addr)
        return err_set(err, "player '%s': the address is longer than %zu bytes", full,
                       sizeof spec->addr - 1);
    return true;
}

/* ubgi:CMD: the command is kept whole, for the shell to read. */
static bool read_ubgi(const char *full, const char *rest, PlayerSpec *spec, Err *err)
{
    spec->kind = PLAYER_KIND_UBGI;
    const char *cmd = rest + 5;
    if (!cmd[strspn(cmd, " \t")])
        return err_set(err, "player '%s': ubgi:COMMAND (the engine's command line)", full);
    snprintf(spec->command, sizeof spec->command, "%s", cmd);
    return true;
}

/* An engine with a network file is named after the file: its name
 * without the directory and a final .snn, and the plies ("td-4-0"). */
static void weights_name(PlayerSpec *spec)
{
    const char *base = strrchr(spec->weights, '/');
    base = base ? base + 1 : spec->weights;
    size_t len = strlen(base), n = 0;
    if (len > 4 && !strcmp(base + len - 4, ".snn"))
        len -= 4;
    for (size_t i = 0; i < len && n < PLAYER_SPEC_NAME_MAX - 2; i++)
        spec->name[n++] = name_char(base[i]) ? base[i] : '-';
    snprintf(spec->name + n, sizeof spec->name - n, "-%d", spec->plies % 10);
}

/* The display name a spec gets without NAME=: the spec with its colons
 * and '=' made dashes ("shesh-2", "tcp-localhost-10000"). */
static void default_name(PlayerSpec *spec, const char *rest)
{
    switch (spec->kind) {
    case PLAYER_KIND_ENGINE:
        if (spec->weights[0]) {
            weights_name(spec);
            return;
        }
        snprintf(spec->name, sizeof spec->name, "%.24s-%d",
                 strcmp(spec->engine, "default") ? spec->engine : "shesh", spec->plies % 10);
        return;
    case PLAYER_KIND_GNUBG: snprintf(spec->name, sizeof spec->name, "gnubg-%d", spec->plies); return;
    default: break;
    }
    size_t n = 0;
    for (const char *p = rest; *p && n < PLAYER_SPEC_NAME_MAX; p++)
        spec->name[n++] = name_char(*p) ? *p : '-';
    spec->name[n] = '\0';
}

bool player_spec_parse(const char *text, PlayerSpec *spec, Err *err)
{
    memset(spec, 0, sizeof *spec);
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    err_quote(text, QUOTE_MAX, q);
    if (strlen(text) >= sizeof spec->text)
        return err_set(err, "player '%s' is too long", q);
    snprintf(spec->text, sizeof spec->text, "%s", text);
    const char *rest;
    if (!read_name(text, q, spec, &rest, err))
        return false;
    if (!strncmp(rest, "tcp:", 4) || !strncmp(rest, "unix:", 5) || !strncmp(rest, "remote:", 7)) {
        if (!read_remote(q, rest, spec, err))
            return false;
    } else if (!strncmp(rest, "ubgi:", 5)) {
        if (!read_ubgi(q, rest, spec, err))
            return false;
    } else {
        const char *colon = strchr(rest, ':');
        size_t len = colon ? (size_t)(colon - rest) : strlen(rest);
        if (len == 0 || len >= sizeof spec->engine)
            return err_set(err,
                           "bad player '%s' (shesh[:plies=N], pubeval, random, "
                           "tcp:HOST:PORT, unix:PATH, gnubg[:plies=N], ubgi:CMD)",
                           q);
        memcpy(spec->engine, rest, len);
        spec->engine[len] = '\0';
        if (!read_plies(q, rest + len, spec, err))
            return false;
        if (!strcmp(spec->engine, "pubeval") || !strcmp(spec->engine, "random")) {
            spec->kind = spec->engine[0] == 'p' ? PLAYER_KIND_PUBEVAL : PLAYER_KIND_RANDOM;
            spec->plies = 0;
            snprintf(spec->engine, sizeof spec->engine, "default");
        } else if (!strcmp(spec->engine, "gnubg")) {
            spec->kind = PLAYER_KIND_GNUBG;
            spec->engine[0] = '\0';
        } else {
            spec->kind = PLAYER_KIND_ENGINE;
            if (!strcmp(spec->engine, "shesh"))
                snprintf(spec->engine, sizeof spec->engine, "default");
            if (!engine_known(spec->engine))
                return err_set(err,
                               "unknown player '%s' (shesh[:plies=N], pubeval, random, "
                               "tcp:HOST:PORT, unix:PATH, gnubg[:plies=N], ubgi:CMD)",
                               q);
            if (spec->weights[0] && !engine_has_network(spec->engine))
                return err_set(err, "player '%s': engine '%s' has no network for weights=FILE",
                               q, spec->engine);
        }
        if (spec->weights[0] && spec->kind != PLAYER_KIND_ENGINE)
            return err_set(err, "player '%s': weights=FILE is for an engine (shesh)", q);
    }
    if (!spec->named)
        default_name(spec, rest);
    return true;
}

bool player_spec_check(const PlayerSpec *spec, Err *err)
{
    if (!spec->weights[0])
        return true;
    NnWeights *w = malloc(sizeof *w);
    if (!w)
        return err_set(err, "out of memory reading %s", spec->weights);
    Err why;
    bool ok = nn_file_load(spec->weights, w, NULL, &why);
    free(w);
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    return ok || err_set(err, "player '%s': %s", err_quote(spec->text, QUOTE_MAX, q), why.text);
}

Player *player_spec_make(const PlayerSpec *spec, const Engine *e, double reply_s, Err *err)
{
    switch (spec->kind) {
    case PLAYER_KIND_ENGINE: return player_engine_new(e, spec->plies, spec->text, err);
    case PLAYER_KIND_PUBEVAL: return player_pubeval_new(e, err);
    case PLAYER_KIND_RANDOM: return player_random_new(e, err);
    case PLAYER_KIND_REMOTE: return player_remote_new(spec->addr, reply_s, err);
    case PLAYER_KIND_UBGI: return player_ubgi_new(spec->command, reply_s, err);
    case PLAYER_KIND_GNUBG: break;
    }
    char q[ERR_QUOTE_SIZE(QUOTE_MAX)];
    err_set(err, "player '%s': its server must be started first",
            err_quote(spec->text, QUOTE_MAX, q));
    return NULL;
}
