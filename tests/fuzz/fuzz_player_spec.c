/* fuzz_player_spec.c - libFuzzer harness for the player names of `shesh
 * match` and `shesh selfplay` (player_spec.h): "shesh:plies=2", "pubeval",
 * "tcp:HOST:PORT", "unix:PATH", "gnubg:1", any of them after NAME=.
 *
 * The input is the spec text (cut at its first NUL, as a C string would
 * be). A refusal must say why on one line. An accepted spec must keep its
 * text, have a display name the records take (record_name_valid) and a
 * kind whose fields agree: an engine known at 0 to SEARCH_MAX_PLIES plies
 * (and its network file the rest of the text after ":weights="), a UBGI
 * engine's command the text after "ubgi:", pubeval and random on the default engine at 0 plies, gnubg with no
 * engine, a remote player with the address as given (unix paths with a
 * '/'). Read again it gives the same spec, and, when it was not named, its
 * made-up name put in front as NAME= gives the same player. No player is
 * made. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_spec.h"
#include "record.h"
#include "search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const Err *err)
{
    if (!memchr(err->text, '\0', sizeof err->text) || !err->text[0] ||
        strchr(err->text, '\n') || strchr(err->text, '\r'))
        abort();
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-' || c == '+';
}

/* The address as the text after its prefix gives it. */
static void check_remote(const PlayerSpec *s, const char *rest)
{
    if (s->engine[0] || s->plies != 0 || !s->addr[0] ||
        !memchr(s->addr, '\0', sizeof s->addr))
        abort();
    if (!strncmp(rest, "tcp:", 4)) {
        if (strcmp(s->addr, rest + 4) || !strchr(s->addr, ':') || strchr(s->addr, '/'))
            abort();
    } else if (!strncmp(rest, "unix:", 5)) {
        const char *path = rest + 5;
        if (!strchr(s->addr, '/'))
            abort(); /* net_client_connect would take it for TCP */
        if (strcmp(s->addr, path) && (strncmp(s->addr, "./", 2) || strcmp(s->addr + 2, path)))
            abort();
    } else if (strncmp(rest, "remote:", 7) || strcmp(s->addr, rest + 7)) {
        abort();
    }
}

static void check_spec(const PlayerSpec *s, const char *text)
{
    if (strcmp(s->text, text))
        abort();
    if (!memchr(s->name, '\0', sizeof s->name) || !memchr(s->engine, '\0', sizeof s->engine))
        abort();
    size_t n = strlen(s->name);
    if (n == 0 || n > PLAYER_SPEC_NAME_MAX || !record_name_valid(s->name, NULL))
        abort();
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(s->name[i]))
            abort(); /* what NAME= takes, so a made-up name can be given back */
    const char *rest = text;
    if (s->named) {
        if (strncmp(text, s->name, n) || text[n] != '=')
            abort();
        rest = text + n + 1;
    }
    switch (s->kind) {
    case PLAYER_KIND_ENGINE:
        if (!engine_known(s->engine) || s->plies < 0 || s->plies > SEARCH_MAX_PLIES || s->addr[0])
            abort();
        /* A network file is the rest of the text after weights=. */
        if (s->weights[0]) {
            const char *at = strstr(rest, ":weights=");
            if (!at || strcmp(s->weights, at + 9))
                abort();
        }
        break;
    case PLAYER_KIND_PUBEVAL:
    case PLAYER_KIND_RANDOM:
        if (strcmp(s->engine, "default") || s->plies != 0 || s->addr[0])
            abort();
        break;
    case PLAYER_KIND_GNUBG:
        if (s->engine[0] || s->plies < 0 || s->plies > SEARCH_MAX_PLIES || s->addr[0])
            abort();
        break;
    case PLAYER_KIND_REMOTE: check_remote(s, rest); break;
    case PLAYER_KIND_UBGI:
        /* The command is kept whole, for the shell. */
        if (s->engine[0] || s->addr[0] || strncmp(rest, "ubgi:", 5) || strcmp(s->command, rest + 5))
            abort();
        break;
    default: abort();
    }
}

static bool same_player(const PlayerSpec *a, const PlayerSpec *b)
{
    return a->kind == b->kind && !strcmp(a->engine, b->engine) && a->plies == b->plies &&
           !strcmp(a->addr, b->addr) && !strcmp(a->weights, b->weights) &&
           !strcmp(a->command, b->command);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[512];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';

    PlayerSpec s, again;
    Err err;
    memset(&err, 'x', sizeof err);
    if (!player_spec_parse(text, &s, &err)) {
        check_err(&err);
        if (player_spec_parse(text, &again, NULL))
            abort(); /* the same text, the same answer */
        return 0;
    }
    check_spec(&s, text);
    if (!player_spec_parse(text, &again, NULL) || memcmp(&s, &again, sizeof s))
        abort();
    if (!s.named) {
        char named[sizeof text + PLAYER_SPEC_NAME_MAX + 2];
        int len = snprintf(named, sizeof named, "%s=%s", s.name, text);
        if (len > 0 && (size_t)len < sizeof s.text) {
            if (!player_spec_parse(named, &again, &err))
                abort();
            check_spec(&again, named);
            if (!again.named || strcmp(again.name, s.name) || !same_player(&s, &again))
                abort();
        }
    }
    return 0;
}
