/* player_spec.c - players by name (see player_spec.h). */
#include "player_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "player_engine.h"
#include "player_pubeval.h"
#include "player_random.h"
#include "player_remote.h"
#include "search.h"

bool player_spec_parse(const char *text, PlayerSpec *spec, Err *err)
{
    memset(spec, 0, sizeof *spec);
    if (strlen(text) >= sizeof spec->text)
        return err_set(err, "player '%.40s...' is too long", text);
    snprintf(spec->text, sizeof spec->text, "%s", text);
    if (!strncmp(text, "remote:", 7)) {
        if (!text[7])
            return err_set(err, "player 'remote:' needs an address (host:port or a path)");
        spec->kind = PLAYER_KIND_REMOTE;
        snprintf(spec->addr, sizeof spec->addr, "%s", text + 7);
        return true;
    }
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    if (len == 0 || len >= sizeof spec->engine)
        return err_set(err, "bad player '%.40s' (ENGINE[:PLIES], pubeval, random, remote:ADDR)",
                       text);
    memcpy(spec->engine, text, len);
    spec->engine[len] = '\0';
    if (colon) {
        /* util/num's strict reading, as every number a user types: no
         * blanks, signs or trailing characters. */
        if (!num_int("PLIES", colon + 1, 0, SEARCH_MAX_PLIES, &spec->plies, NULL))
            return err_set(err, "bad player '%.40s': PLIES must be 0 to %d", text,
                           SEARCH_MAX_PLIES);
    }
    if (!strcmp(spec->engine, "pubeval") || !strcmp(spec->engine, "random")) {
        spec->kind = spec->engine[0] == 'p' ? PLAYER_KIND_PUBEVAL : PLAYER_KIND_RANDOM;
        spec->plies = 0;
        snprintf(spec->engine, sizeof spec->engine, "default");
        return true;
    }
    spec->kind = PLAYER_KIND_ENGINE;
    return true;
}

Player *player_spec_make(const PlayerSpec *spec, const Engine *e, Err *err)
{
    switch (spec->kind) {
    case PLAYER_KIND_ENGINE: return player_engine_new(e, spec->plies, spec->text, err);
    case PLAYER_KIND_PUBEVAL: return player_pubeval_new(e, err);
    case PLAYER_KIND_RANDOM: return player_random_new(e, err);
    case PLAYER_KIND_REMOTE: return player_remote_new(spec->addr, PLAYER_REMOTE_REPLY_S, err);
    }
    err_set(err, "unknown kind of player");
    return NULL;
}
